// Exact geometric predicates: the sign of an orientation determinant and
// closed-segment intersection, right for every input (D-PRED-1).
//
// A floating-point filter decides almost every call in T; the few calls whose
// rounded determinant is too close to zero to trust fall back to exact
// rational arithmetic. The filter's bound is Shewchuk's ccwerrboundA,
// (3 + 16u)u * (|l| + |r|) with u = eps/2 ("Adaptive Precision Floating-Point
// Arithmetic and Fast Robust Geometric Predicates", 1997), valid for any
// binary type with round-to-nearest, which includes cpp_bin_float.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/detail/dyadic.hpp"
#include "rigidref/detail/hot.hpp"
#include "rigidref/vec2.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

namespace detail {
template <class T>
int orientation_exact(const vec2<T>& a, const vec2<T>& b, const vec2<T>& c);
}

// Sign of cross(b - a, c - a): +1 when a, b, c turn counter-clockwise, -1
// clockwise, 0 collinear. D-PRED-1
template <class T>
RIGIDREF_HOT int orientation(const vec2<T>& a, const vec2<T>& b, const vec2<T>& c) {
  if constexpr (is_exact_v<T>) {
    const T det = cross(b - a, c - a);
    return det > 0 ? 1 : (det < 0 ? -1 : 0);
  } else {
    using std::abs;
    using boost::multiprecision::abs;
    const T left = (b.x - a.x) * (c.y - a.y);
    const T right = (b.y - a.y) * (c.x - a.x);
    const T det = left - right;
    const T detsum = abs(left) + abs(right);
    const T u = std::numeric_limits<T>::epsilon() / 2;
    const T bound = (3 + 16 * u) * u * detsum;
    // Away from underflow the bound is rigorous; near it (detsum tiny) the
    // products lost absolute bits, so we go exact.
    const bool detsum_normal = detsum > std::numeric_limits<T>::min() / u / u;
    if (detsum_normal && (det > bound || -det > bound)) return det > 0 ? 1 : -1;
    return detail::orientation_exact(a, b, c);
  }
}

namespace detail {
// The filter could not decide: the exact sign, out of line (rare, and
// large). Builtin floats in integers (D-MASS-17), the others in rationals.
template <class T>
RIGIDREF_COLD int orientation_exact(const vec2<T>& a, const vec2<T>& b, const vec2<T>& c) {
  if constexpr (std::is_floating_point_v<T>) {
    return orientation_in_integers(a, b, c);
  } else {
    return orientation(convert_vec<exact>(a, to_exact<T>), convert_vec<exact>(b, to_exact<T>),
                       convert_vec<exact>(c, to_exact<T>));
  }
}
}  // namespace detail

// For collinear a, b, p: is p inside the closed box spanned by segment ab?
template <class T>
bool in_segment_box(const vec2<T>& a, const vec2<T>& b, const vec2<T>& p) {
  using std::max;
  using std::min;
  return min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) && min(a.y, b.y) <= p.y && p.y <= max(a.y, b.y);
}

// Do the closed segments pq and rs share a point? Exact for every input.
template <class T>
bool segments_intersect(const vec2<T>& p, const vec2<T>& q, const vec2<T>& r, const vec2<T>& s) {
  using std::max;
  using std::min;
  // Disjoint bounding boxes: no intersection (exact comparisons, no rounding).
  if (max(p.x, q.x) < min(r.x, s.x) || max(r.x, s.x) < min(p.x, q.x) || max(p.y, q.y) < min(r.y, s.y) ||
      max(r.y, s.y) < min(p.y, q.y))
    return false;
  const int d1 = orientation(r, s, p);
  const int d2 = orientation(r, s, q);
  const int d3 = orientation(p, q, r);
  const int d4 = orientation(p, q, s);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (d1 == 0 && in_segment_box(r, s, p)) || (d2 == 0 && in_segment_box(r, s, q)) ||
         (d3 == 0 && in_segment_box(p, q, r)) || (d4 == 0 && in_segment_box(p, q, s));
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
