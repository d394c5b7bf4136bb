// Faithful port of mat2.js, the 2x2 matrix helpers of the ShapeMatching
// article (seed 001). A JS matrix [[a, b], [c, d]] is rigidref::mat2<T>
// {a, b, c, d}. Each function performs the JS operations in the JS order, so
// in double (no FMA contraction: detail/fp_begin.hpp) the results are
// bit-identical to the Node-run JS (tests/golden_shape_matching).
//
// Quirks kept on purpose:
//  - mat2sqrt returns NaN where the formula has no real value: det < 0
//    (Math.sqrt of a negative), and the zero matrix, or -I, where t = 0 and
//    the entries are 0/0. The reference square root in matrix_sqrt.hpp
//    throws domain_error instead and never returns a NaN.
//  - mat2inv returns the TRANSPOSE of the inverse.
//  - nothing is checked: a singular matrix gives infinities and NaNs.
#pragma once

#include "rigidref/mat2.hpp"

#include <cmath>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::articles {

// prod(i,j) = a[i][0]*b[0][j] + a[i][1]*b[1][j]
template <class T>
mat2<T> mat2mul(const mat2<T>& x, const mat2<T>& y) {
  return {T(x.a * y.a + x.b * y.c), T(x.a * y.b + x.b * y.d), T(x.c * y.a + x.d * y.c), T(x.c * y.b + x.d * y.d)};
}

// m1[i][j] + m2[i][j]; the left operand first (reduce passes the accumulator
// as m1).
template <class T>
mat2<T> mat2sum(const mat2<T>& m1, const mat2<T>& m2) {
  return {T(m1.a + m2.a), T(m1.b + m2.b), T(m1.c + m2.c), T(m1.d + m2.d)};
}

template <class T>
mat2<T> mat2transpose(const mat2<T>& m) {
  return {m.a, m.c, m.b, m.d};
}

// a*d - b*c
template <class T>
T mat2det(const mat2<T>& m) {
  return m.a * m.d - m.b * m.c;
}

// D-MSQRT-1, the Cayley-Hamilton square root X = (A + sqrt(det A) I) / sqrt(tr A + 2 sqrt(det A)):
//   s = Math.sqrt(a*d - b*c); t = Math.sqrt(a + d + 2*s)   ((a + d) first)
//   [[(a+s)/t, b/t], [c/t, (d+s)/t]]
// NaN when the computed det < 0 (also for a singular PSD matrix whose det
// rounds below 0), and 0/0 = NaN for the zero matrix (s = t = 0).
template <class T>
mat2<T> mat2sqrt(const mat2<T>& m) {
  using std::sqrt;
  const T s = sqrt(T(m.a * m.d - m.b * m.c));
  const T t = sqrt(T(m.a + m.d + 2 * s));
  return {T((m.a + s) / t), T(m.b / t), T(m.c / t), T((m.d + s) / t)};
}

// JS: det = a*d - b*c; [[d/det, -c/det], [-b/det, a/det]]
// The inverse is [[d, -b], [-c, a]] / det: this is its TRANSPOSE (b and c
// swapped). The article only inverts S = sqrt(A^T A), which is symmetric,
// and then the two agree; for a bit-for-bit symmetric S (mat2sqrt of the
// exactly symmetric A^T A is) they are bit-identical. -c/det is (-c)/det.
template <class T>
mat2<T> mat2inv(const mat2<T>& m) {
  const T det = m.a * m.d - m.b * m.c;
  return {T(m.d / det), T(-m.c / det), T(-m.b / det), T(m.a / det)};
}

}  // namespace rigidref::articles

#include "rigidref/detail/fp_end.hpp"
