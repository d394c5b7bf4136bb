// The principal square root of a real 2x2 matrix (derivations/matrix_sqrt.md).
//
//   has_principal_sqrt(A)       exact decision of the domain (D-MSQRT-3)
//   sqrt_cayley_hamilton(A)     the article's method 1, evaluated in T (D-MSQRT-1)
//   sqrt_diagonalization(A)     the article's method 2, P Lambda^1/2 P^-1, in T (D-MSQRT-2)
//   principal_sqrt(A)           the reference: method 1 in accumulator precision,
//                               with the cancellations removed, rounded once (D-MSQRT-4)
//
// All three throw domain_error outside the domain and invalid_input for
// non-finite entries; none returns a NaN. The article methods throw
// unsupported where their formula breaks down in T inside the domain.
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/mat2.hpp"
#include "rigidref/predicates.hpp"

#include <cmath>
#include <string>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

namespace detail {

template <class T>
void require_finite_matrix(const mat2<T>& m) {
  if (!is_finite(m.a) || !is_finite(m.b) || !is_finite(m.c) || !is_finite(m.d))
    throw invalid_input("matrix has a non-finite entry");
}

// Sign of a*d - b*c, exactly (it is the orientation determinant of the
// points (0,0), (a,c), (b,d)).
template <class T>
int determinant_sign(const mat2<T>& m) {
  return orientation(vec2<T>{T(0), T(0)}, vec2<T>{m.a, m.c}, vec2<T>{m.b, m.d});
}

// The article's formulas, evaluated in T, can divide by a quantity that is
// positive in exact arithmetic but rounds to 0 (e.g. tr + 2 sqrt(det) for
// A = [[-2^26, 1], [-1, -2^26]] in double): a typed error, not a NaN
// (data/counterexamples/article_sqrt_nan_in_domain.json).
template <class T>
[[noreturn]] void article_breakdown(const char* method, const char* quantity) {
  throw unsupported(std::string("the article's ") + method + " formula breaks down in " +
                    std::string(scalar_name<T>()) + " for this matrix: " + quantity +
                    " rounds to 0 although the square root exists; use method \"default\"");
}

// The result of an article method, or the breakdown error if an entry
// overflowed (a tiny divisor that did not round to 0).
template <class T>
mat2<T> finite_or_breakdown(const mat2<T>& x, const char* method) {
  if (!is_finite(x.a) || !is_finite(x.b) || !is_finite(x.c) || !is_finite(x.d))
    article_breakdown<T>(method, "an entry");
  return x;
}

}  // namespace detail

// D-MSQRT-3: a real 2x2 matrix A has a (real) principal square root X, the
// one whose eigenvalues have positive real part (or are 0, semisimple), iff
// A = 0, or det A >= 0 and tr A + 2 sqrt(det A) > 0; equivalently A = 0, or
// det >= 0 and (tr > 0 or 4 det > tr^2). Decided in exact arithmetic.
template <class T>
bool has_principal_sqrt(const mat2<T>& m) {
  detail::require_finite_matrix(m);
  const mat2<exact> e = convert_mat<exact>(m, to_exact<T>);
  if (e.a == 0 && e.b == 0 && e.c == 0 && e.d == 0) return true;
  const exact det = e.a * e.d - e.b * e.c;
  const exact tr = e.a + e.d;
  return det >= 0 && (tr > 0 || 4 * det > tr * tr);
}

template <class T>
void require_principal_sqrt(const mat2<T>& m) {
  if (!has_principal_sqrt(m))
    throw domain_error(
        "the matrix has no real principal square root: it has an eigenvalue on the closed negative real axis "
        "(det < 0, or both eigenvalues real and <= 0), or it is nilpotent and nonzero");
}

// D-MSQRT-1: X = (A + sqrt(det A) I) / sqrt(tr A + 2 sqrt(det A)), in T as
// the article computes it. Rounding can make the computed det negative for a
// nearly singular A whose exact det is >= 0; the method then uses 0 (the
// domain itself is decided exactly).
template <class T>
mat2<T> sqrt_cayley_hamilton(const mat2<T>& m) {
  using std::sqrt;
  require_principal_sqrt(m);
  if (m == mat2<T>{}) return m;
  T det = m.a * m.d - m.b * m.c;
  if (det < 0) det = 0;
  const T s = sqrt(det);
  const T t = sqrt(m.a + m.d + 2 * s);
  if (!(t > 0)) detail::article_breakdown<T>("Cayley-Hamilton", "tr A + 2 sqrt(det A)");
  return detail::finite_or_breakdown<T>({T((m.a + s) / t), T(m.b / t), T(m.c / t), T((m.d + s) / t)},
                                        "Cayley-Hamilton");
}

// D-MSQRT-2: diagonalisation as the article derives it: eigenvalues
// l1, l2 = ((a+d) -+ sqrt((a+d)^2 - 4(ad - bc))) / 2, eigenvectors (b, l - a),
// X = P diag(sqrt l1, sqrt l2) P^-1 with |P| = b (l2 - l1) (the article's
// "b(l2 - l2)" is a typo). The cases its formula divides by zero in:
//   b = 0, c != 0: eigenvectors from the second row, (l - d, c);
//   b = c = 0:     A is diagonal, X = diag(sqrt a, sqrt d);
//   l1 = l2:       X = (A + l I) / (2 sqrt l) (also the Jordan block);
//   complex l:     the real form of P Lambda^1/2 P^-1, X = (A + |l| I) / (2 Re sqrt l).
// Rounding can push a tiny positive eigenvalue below 0; it is then taken as 0.
template <class T>
mat2<T> sqrt_diagonalization(const mat2<T>& m) {
  using std::sqrt;
  require_principal_sqrt(m);
  if (m == mat2<T>{}) return m;
  const T a = m.a, b = m.b, c = m.c, d = m.d;
  const T tr = a + d;
  const T det = a * d - b * c;
  const T disc = tr * tr - 4 * det;
  if (disc < 0) {  // complex pair alpha +- i beta: |l| = sqrt(det), Re sqrt(l) = sqrt((|l| + alpha)/2)
    const T modulus = sqrt(det);
    const T re = sqrt((modulus + tr / 2) / 2);
    const T two_re = 2 * re;
    if (!(two_re > 0)) detail::article_breakdown<T>("diagonalisation", "2 Re sqrt(lambda)");
    return detail::finite_or_breakdown<T>(
        {T((a + modulus) / two_re), T(b / two_re), T(c / two_re), T((d + modulus) / two_re)}, "diagonalisation");
  }
  const T root = sqrt(disc);
  T l1 = (tr - root) / 2, l2 = (tr + root) / 2;
  if (l1 < 0) l1 = 0;
  if (l2 < 0) l2 = 0;
  const T r1 = sqrt(l1), r2 = sqrt(l2);
  if (b == 0 && c == 0) return {sqrt(a), T(0), T(0), sqrt(d)};
  if (disc == 0 || l1 == l2) {  // repeated eigenvalue
    const T two_r = 2 * r1;
    if (!(two_r > 0)) detail::article_breakdown<T>("diagonalisation", "2 sqrt(lambda)");
    return detail::finite_or_breakdown<T>({T((a + l1) / two_r), T(b / two_r), T(c / two_r), T((d + l1) / two_r)},
                                          "diagonalisation");
  }
  // P = [[p11, p12], [p21, p22]] with eigenvector columns, P^-1 = adj(P) / |P|.
  T p11, p12, p21, p22;
  if (b != 0) {
    p11 = b, p12 = b, p21 = l1 - a, p22 = l2 - a;
  } else {
    p11 = l1 - d, p12 = l2 - d, p21 = c, p22 = c;
  }
  const T detp = p11 * p22 - p12 * p21;
  if (detp == 0) detail::article_breakdown<T>("diagonalisation", "|P|");
  // X = P diag(r1, r2) adj(P) / |P|, adj(P) = [[p22, -p12], [-p21, p11]]
  const T x11 = (p11 * r1 * p22 - p12 * r2 * p21) / detp;
  const T x12 = (-p11 * r1 * p12 + p12 * r2 * p11) / detp;
  const T x21 = (p21 * r1 * p22 - p22 * r2 * p21) / detp;
  const T x22 = (-p21 * r1 * p12 + p22 * r2 * p11) / detp;
  return detail::finite_or_breakdown<T>({x11, x12, x21, x22}, "diagonalisation");
}

// D-MSQRT-4: the reference. Method 1 with every quantity carried in the
// accumulator (about twice T's precision) and rounded once per entry:
//   det in double words (no cancellation loss), s = sqrt(det),
//   tau = tr + 2s, or for tr < 0 the cancellation-free -disc / (2s - tr)
//   with disc = (a - d)^2 + 4bc evaluated exactly, t = sqrt(tau), X = (A + sI)/t.
// Within 1 ulp per entry while the cancellation in a + s, d + s stays
// below about 2^(digits of the accumulator - digits of T - 4) (derivation).
template <class T>
mat2<T> principal_sqrt(const mat2<T>& m) {
  if constexpr (is_exact_v<T>) {
    throw unsupported("the matrix square root needs square roots: not available in exact arithmetic");
  } else {
    using A = accumulator<T>;
    using W = typename A::type;
    require_principal_sqrt(m);
    if (m == mat2<T>{}) return m;
    const W a = A::from(m.a), b = A::from(m.b), c = A::from(m.c), d = A::from(m.d);
    W det = a * d - b * c;
    if (A::negative(det)) det = W(0);  // exact det >= 0 here; only rounding could say otherwise
    const W s = A::sqrt(det);
    const W tr = a + d;
    W tau;
    if (!A::negative(tr)) {
      tau = tr + s * W(2);
    } else {  // tr < 0: complex eigenvalues (domain), tr + 2s = -disc / (2s - tr), disc < 0
      // disc = (a - d)^2 + 4bc itself cancels near the negative real axis
      // (|disc| << (a - d)^2), so it is evaluated exactly: a polynomial in
      // the exact inputs (data/counterexamples/principal_sqrt_near_negative_axis.json).
      const exact ea = to_exact(m.a), ed = to_exact(m.d);
      const exact disc = (ea - ed) * (ea - ed) + 4 * to_exact(m.b) * to_exact(m.c);
      tau = A::from_exact(-disc) / (s * W(2) - tr);
    }
    const W t = A::sqrt(tau);
    return {A::round((a + s) / t), A::round(b / t), A::round(c / t), A::round((d + s) / t)};
  }
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
