// Polar decomposition of a real 2x2 matrix and the closest rotation
// (derivations/polar.md).
//
//   polar_right(A):  A = Q S,   S = sqrt(A^T A) symmetric PSD, Q orthogonal
//   polar_left(A):   A = S' Q,  S' = sqrt(A A^T), the same Q
//   closest_rotation(A): the rotation R maximising tr(R^T A) (minimising
//                    |A - R|_F); differs from Q exactly when det A < 0
//
// In 2D the orthogonal factor has a closed form (D-POLAR-1):
//   det A > 0:  Q = [[u, -v], [v, u]] / r,  u = a + d, v = c - b   (rotation)
//   det A < 0:  Q = [[u,  v], [v, -u]] / r,  u = a - d, v = b + c   (reflection)
// r = sqrt(u^2 + v^2) = tr S, and S = (A^T A + |det A| I) / r (D-POLAR-2).
// Everything is carried in the accumulator and rounded once per entry.
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/matrix_sqrt.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
struct polar_result {
  mat2<T> q;    // orthogonal factor
  mat2<T> s;    // symmetric positive semidefinite factor
  int det_q;    // +1 rotation, -1 reflection
};

template <class T>
struct rotation_result {
  mat2<T> r;       // rotation, det +1
  T angle;         // r = [[cos, -sin], [sin, cos]], angle in (-pi, pi]
  bool unique;     // false when every rotation is equally close (a + d = c - b = 0)
};

namespace detail {

// D-POLAR-1..2 for either side. Singular A (det = 0): Q is not unique; we
// take the rotation form, whose u, v are never both 0 for a nonzero singular
// A (u = v = 0 means A = [[a, b], [b, -a]], det = -(a^2 + b^2)). A = 0: Q = I, S = 0.
template <class T>
polar_result<T> polar_impl(const mat2<T>& m, bool right) {
  if constexpr (is_exact_v<T>) {
    throw unsupported("the polar decomposition needs a square root: not available in exact arithmetic");
  } else {
    using A = accumulator<T>;
    using W = typename A::type;
    require_finite_matrix(m);
    if (m == mat2<T>{}) return {mat2<T>::identity(), mat2<T>{}, 1};
    const W a = A::from(m.a), b = A::from(m.b), c = A::from(m.c), d = A::from(m.d);
    int sigma = determinant_sign(m);
    if (sigma == 0) sigma = 1;
    const W u = sigma > 0 ? W(a + d) : W(a - d);
    const W v = sigma > 0 ? W(c - b) : W(b + c);
    const W r = A::sqrt(u * u + v * v);
    const W qa = u / r, qv = v / r;
    const mat2<T> q = sigma > 0 ? mat2<T>{A::round(qa), A::round(-qv), A::round(qv), A::round(qa)}
                                : mat2<T>{A::round(qa), A::round(qv), A::round(qv), A::round(-qa)};
    W det = a * d - b * c;
    if (A::negative(det)) det = -det;  // |det A|
    // S = (A^T A + |det| I)/r (right), S' = (A A^T + |det| I)/r (left).
    const W s11 = right ? W(a * a + c * c + det) : W(a * a + b * b + det);
    const W s22 = right ? W(b * b + d * d + det) : W(c * c + d * d + det);
    const W s12 = right ? W(a * b + c * d) : W(a * c + b * d);
    const T off = A::round(s12 / r);
    return {q, {A::round(s11 / r), off, off, A::round(s22 / r)}, sigma};
  }
}

}  // namespace detail

// D-POLAR-1..2: A = Q S.
template <class T>
polar_result<T> polar_right(const mat2<T>& m) {
  return detail::polar_impl(m, true);
}

// D-POLAR-1..2: A = S' Q (same Q as the right decomposition).
template <class T>
polar_result<T> polar_left(const mat2<T>& m) {
  return detail::polar_impl(m, false);
}

// D-POLAR-3: the closest rotation, R = [[u, -v], [v, u]] / r with u = a + d,
// v = c - b, whatever the sign of det A; angle = atan2(v, u).
template <class T>
rotation_result<T> closest_rotation(const mat2<T>& m) {
  if constexpr (is_exact_v<T>) {
    throw unsupported("the closest rotation needs a square root: not available in exact arithmetic");
  } else {
    using A = accumulator<T>;
    using W = typename A::type;
    detail::require_finite_matrix(m);
    const W u = A::from(m.a) + A::from(m.d);
    const W v = A::from(m.c) - A::from(m.b);
    if (A::zero(u) && A::zero(v)) return {mat2<T>::identity(), T(0), false};
    const W r = A::sqrt(u * u + v * v);
    const T cs = A::round(u / r), sn = A::round(v / r);
    return {{cs, T(-sn), sn, cs}, A::atan2(v, u), true};
  }
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
