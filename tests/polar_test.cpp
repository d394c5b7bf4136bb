// Properties of the polar decomposition and the closest rotation
// (polar.hpp, derivations/polar.md): Q orthogonal with det Q = sign(det A),
// A = Q S and A = S' Q, S and S' symmetric PSD, the closest rotation a
// least-squares minimum among exact rotations, and the degenerate cases.
// Residuals are evaluated exactly (rationals) from the rounded results.
//
// The error model, used by every bound below: each entry of Q, S, S' and
// of the closest rotation is RN(w), where w is computed in the accumulator
// (accumulator.hpp) from the exact inputs. All the W sums there add terms of
// one sign or two exact products (a*d - b*c, a*b + c*d: products of T values
// are exact in W), so every w has a *relative* error: at most 10 W operations
// (u, v, two squares, a sum, a square root, the numerator, one division),
// each within 16 u_b^2 (Joldes-Muller-Popescu 2017: 3, 5-7 and 15 u_b^2 for
// +, *, /; D-EFT-6 for the square root, taken as 8), with sqrt halving its
// argument's error: first order at most 34 u_b^2 = 17 u_W (u_W =
// accumulator<T>::unit() = 2 u_b^2); we use 64 u_W. For mp50/mp100 the
// accumulator is a cpp_bin_float of 2x+20 digits, each operation within
// 1 ulp of it (2 u_W). So every entry x satisfies |x - x*| <= delta |x*| with
//   delta = u + 65 u_W   (u = eps/2: the final rounding, u (1 + 64 u_W) + 64 u_W).
// In double, delta is 2^-53 (1 + 2^-47); it is the half ulp of rounding once.
#include "support/exact_helpers.hpp"
#include "support/generators.hpp"
#include "support/matchers.hpp"

#include "rigidref/polar.hpp"
#include "rigidref/verify/accuracy.hpp"

#include <rapidcheck/catch.h>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace polar_test {

using namespace rigidref;

namespace {

using namespace rigidref::testing;  // O, EM, exact_of, mag, unit roundoffs (support/exact_helpers.hpp)


// delta of the error model above.
template <class T>
exact delta() {
  return to_exact(epsilon<T>()) / 2 + 65 * accumulator_unit<T>();
}

// (2 delta + delta^2) / (1 - delta)^2: the relative bound on a product of two
// factors each within delta, stated in terms of the computed factors.
template <class T>
exact product_factor() {
  const exact d = delta<T>();
  return (2 * d + d * d) / ((1 - d) * (1 - d));
}

template <class T>
void log_matrix(const char* name, const mat2<T>& m) {
  RC_LOG() << name << " = [[" << to_string(m.a) << ", " << to_string(m.b) << "], [" << to_string(m.c) << ", "
           << to_string(m.d) << "]]\n";
}

// ---- generators ---------------------------------------------------------------

template <class T>
constexpr int mantissa_bits() {
  return std::min(std::numeric_limits<T>::digits, 62);
}

// Four exactly representable entries, exponents within 2^+-20 of 1 (full
// significands), nonzero matrix.
template <class T>
mat2<T> any_matrix() {
  const int bits = mantissa_bits<T>();
  auto g = testing::gen::representable<T>(bits, -20 - bits, 20);
  const mat2<T> m{*g, *g, *g, *g};
  RC_PRE(!(m == mat2<T>{}));
  return m;
}

// A = Q* S* exactly: Q* the Pythagorean rotation (a, b)/c, or the reflection
// [[a, b], [b, -a]]/c, S* = c [[p, q], [q, r]] symmetric PSD with integers
// p, r >= 0, q^2 <= pr: A has integer entries below 2^23 (exact in every T),
// and Q*, S*, r = tr S* are rational.
struct factored {
  EM q, s;
  int sigma;  // +1 rotation, -1 reflection
};
inline rc::Gen<factored> exact_factors() {
  return rc::gen::apply(
      [](testing::gen::pythagorean t, bool reflect, int p, int r, int f) {
        const exact c(t.c);
        const EM q = reflect ? EM{exact(t.a) / c, exact(t.b) / c, exact(t.b) / c, exact(-t.a) / c}
                             : EM{exact(t.a) / c, exact(-t.b) / c, exact(t.b) / c, exact(t.a) / c};
        // q = f/64 of the largest |q| with q^2 <= pr, rounded toward 0: PSD.
        const big_int qmax = boost::multiprecision::sqrt(big_int(p) * r);
        const big_int qq = qmax * f / 64;
        const EM s{c * p, c * exact(qq), c * exact(qq), c * r};
        return factored{q, s, reflect ? -1 : 1};
      },
      testing::gen::pythagorean_triple(), rc::gen::arbitrary<bool>(), rc::gen::inRange(0, 1 << 10),
      rc::gen::inRange(0, 1 << 10), rc::gen::inRange(-64, 65));
}

// ---- oracle -----------------------------------------------------------------------

// D-POLAR-1..2 for an exact A at 230 digits: sigma = sign det A (singular:
// +1, the rotation form), Q = form(u, v)/r, S = (A^T A + |det| I)/r (right)
// or (A A^T + |det| I)/r (left).
struct polar_oracle {
  mat2<O> q, s_right, s_left;
  int sigma;
};
polar_oracle oracle_polar(const EM& A) {
  polar_oracle o;
  const exact det = det_of(A);
  o.sigma = det < 0 ? -1 : 1;
  const exact u = o.sigma > 0 ? exact(A.a + A.d) : exact(A.a - A.d);
  const exact v = o.sigma > 0 ? exact(A.c - A.b) : exact(A.b + A.c);
  const O r = sqrt(to_o(u * u + v * v));
  const O qa = to_o(u) / r, qv = to_o(v) / r;
  o.q = o.sigma > 0 ? mat2<O>{qa, O(-qv), qv, qa} : mat2<O>{qa, qv, qv, O(-qa)};
  const exact ad = abs(det);
  o.s_right = {to_o(A.a * A.a + A.c * A.c + ad) / r, to_o(A.a * A.b + A.c * A.d) / r,
               to_o(A.a * A.b + A.c * A.d) / r, to_o(A.b * A.b + A.d * A.d + ad) / r};
  o.s_left = {to_o(A.a * A.a + A.b * A.b + ad) / r, to_o(A.a * A.c + A.b * A.d) / r,
              to_o(A.a * A.c + A.b * A.d) / r, to_o(A.c * A.c + A.d * A.d + ad) / r};
  return o;
}

template <class T>
void assert_one_ulp(const mat2<T>& x, const mat2<O>& xs) {
  RC_ASSERT(verify::ulps_from_rounded(x.a, to_exact(xs.a)) <= 1);
  RC_ASSERT(verify::ulps_from_rounded(x.b, to_exact(xs.b)) <= 1);
  RC_ASSERT(verify::ulps_from_rounded(x.c, to_exact(xs.c)) <= 1);
  RC_ASSERT(verify::ulps_from_rounded(x.d, to_exact(xs.d)) <= 1);
}

// ---- checks ----------------------------------------------------------------------

// Q orthogonal: the code writes the rotation form [[q1, -q2], [q2, q1]] or the
// reflection form [[q1, q2], [q2, -q1]] (bitwise: RN(-x) = -RN(x)), so
// Q^T Q = (q1^2 + q2^2) I exactly, and with q1, q2 within delta of (c, s),
// c^2 + s^2 = 1: |q1^2 + q2^2 - 1| <= 2 delta + delta^2. det Q = det_q (q1^2 + q2^2).
template <class T>
void check_orthogonal(const mat2<T>& Q, int det_q) {
  const exact d = delta<T>();
  if (det_q > 0) {
    RC_ASSERT(Q.a == Q.d);
    RC_ASSERT(Q.b == T(-Q.c));
  } else {
    RC_ASSERT(Q.a == T(-Q.d));
    RC_ASSERT(Q.b == Q.c);
  }
  const EM q = exact_of(Q);
  const EM qtq = transpose(q) * q;
  RC_ASSERT(qtq.b == 0);
  RC_ASSERT(qtq.c == 0);
  RC_ASSERT(qtq.a == qtq.d);
  RC_ASSERT(abs(qtq.a - 1) <= 2 * d + d * d);
  RC_ASSERT(det_of(q) == det_q * qtq.a);
}

// S symmetric PSD with det S = |det A|: s12 == s21 bitwise (one value written
// twice); s11, s22 >= 0 (sums of squares and |det| over r > 0, rounded);
// det S* = |det A| (S*^2 = A^T A), and with each entry within delta,
// |s11 s22 - s12^2 - |det A|| <= (2 delta + delta^2)/(1 - delta)^2 (s11 s22 + s12^2).
template <class T>
void check_psd(const mat2<T>& S, const exact& abs_det) {
  RC_ASSERT(S.b == S.c);
  RC_ASSERT(S.a >= 0);
  RC_ASSERT(S.d >= 0);
  const EM s = exact_of(S);
  RC_ASSERT(abs(det_of(s) - abs_det) <= product_factor<T>() * (s.a * s.d + s.b * s.b));
}

// |A - F G| <= (2 delta + delta^2)/(1 - delta)^2 |F| |G| entrywise, for F, G
// each within delta of exact factors with F* G* = A.
template <class T>
void check_product(const mat2<T>& A, const mat2<T>& F, const mat2<T>& G) {
  const EM f = exact_of(F), g = exact_of(G);
  const EM r = exact_of(A) - f * g;
  const EM bound = abs_of(f) * abs_of(g);
  const exact k = product_factor<T>();
  RC_ASSERT(abs(r.a) <= k * bound.a);
  RC_ASSERT(abs(r.b) <= k * bound.b);
  RC_ASSERT(abs(r.c) <= k * bound.c);
  RC_ASSERT(abs(r.d) <= k * bound.d);
}

exact frobenius2(const EM& m) {
  return m.a * m.a + m.b * m.b + m.c * m.c + m.d * m.d;
}

// |A - R|_F^2 for the rounded R = [[c', -s'], [s', c']] against an exact
// rotation R': with u = a + d, v = c - b, r = sqrt(u^2 + v^2), c' = c(1 + e1),
// s' = s(1 + e2), |e| <= delta (c = u/r, s = v/r):
//   |A - R|^2 - min = -2 (c'u + s'v - r) + 2 (c'^2 + s'^2 - 1)
// with |c'u + s'v - r| = |u^2 e1 + v^2 e2|/r <= delta r and
// |c'^2 + s'^2 - 1| <= 2 delta + delta^2, so
//   |A - R|^2 <= |A - R'|^2 + 2 delta r + 4 delta + 2 delta^2,  r <= |u| + |v|.
template <class T>
void check_least_squares(const EM& A, const mat2<T>& R, const vec2<exact>& unit) {
  const exact d = delta<T>();
  const EM rp{unit.x, -unit.y, unit.y, unit.x};  // exact rotation
  RC_ASSERT(unit.x * unit.x + unit.y * unit.y == 1);
  const exact u = A.a + A.d, v = A.c - A.b;
  const exact slack = 2 * d * (abs(u) + abs(v)) + 4 * d + 2 * d * d;
  RC_ASSERT(frobenius2(A - exact_of(R)) <= frobenius2(A - rp) + slack);
}

// Rational points on the unit circle near the rotation R: t = tan(theta/2) =
// s'/(1 + c') from R's entries, perturbed by k 2^-m.
template <class T>
vec2<exact> near_unit(const mat2<T>& R, int k, int m) {
  const exact c = to_exact(R.a), s = to_exact(R.c);
  const exact t = (1 + c == 0 ? exact(1 << 20) : exact(s / (1 + c))) + exact(k) / exact(big_int(1) << m);
  return {(1 - t * t) / (1 + t * t), 2 * t / (1 + t * t)};
}

template <class T>
void check_polar(const mat2<T>& A) {
  log_matrix("A", A);
  const EM e = exact_of(A);
  const exact det = det_of(e);
  const auto right = polar_right(A);
  const auto left = polar_left(A);
  log_matrix("Q", right.q);
  log_matrix("S", right.s);
  // det Q = sign(det A), +1 for singular A (a nonzero singular A is never of
  // the form [[a, b], [b, -a]], whose determinant is -(a^2 + b^2)).
  RC_ASSERT(right.det_q == (det < 0 ? -1 : 1));
  RC_ASSERT(left.det_q == right.det_q);
  RC_ASSERT(left.q == right.q);  // the same Q on both sides
  check_orthogonal(right.q, right.det_q);
  check_psd(right.s, abs(det));
  check_psd(left.s, abs(det));
  check_product(A, right.q, right.s);  // A = Q S
  check_product(A, left.s, left.q);    // A = S' Q
  // Each entry within 1 ulp of the correctly rounded exact value (D-POLAR-2):
  // w within 64 u_W relative, then rounded once (the D-MASS-5 argument).
  const polar_oracle o = oracle_polar(e);
  assert_one_ulp(right.q, o.q);
  assert_one_ulp(right.s, o.s_right);
  assert_one_ulp(left.s, o.s_left);
}

template <class T>
void check_closest_rotation(const mat2<T>& A) {
  log_matrix("A", A);
  const EM e = exact_of(A);
  const exact det = det_of(e);
  const auto rot = closest_rotation(A);
  log_matrix("R", rot.r);
  RC_ASSERT(rot.unique == !(e.a + e.d == 0 && e.c - e.b == 0));
  if (!rot.unique) {
    RC_ASSERT(rot.r == mat2<T>::identity());
    return;
  }
  check_orthogonal(rot.r, +1);  // a rotation, whatever the sign of det A
  // Least squares: not beaten by random exact rotations, nor by exact
  // rotations close to it (k 2^-m off in tan(theta/2)).
  RC_ASSERT_FALSE(rot.r == mat2<T>{});
  const auto far = *testing::gen::unit_rational();
  check_least_squares(e, rot.r, far);
  const int m = *rc::gen::inRange(4, std::min(std::numeric_limits<T>::digits, 120));
  const int k = *rc::gen::suchThat(rc::gen::inRange(-8, 9), [](int x) { return x != 0; });
  check_least_squares(e, rot.r, near_unit(rot.r, k, m));
  const auto p = polar_right(A);
  if (det > 0) {
    // Both are RN of an accumulator value within 64 u_W of the same exact
    // entry: the same representable value or the two neighbours of a midpoint.
    RC_ASSERT(ulp_distance(rot.r.a, p.q.a) <= 1);
    RC_ASSERT(ulp_distance(rot.r.b, p.q.b) <= 1);
    RC_ASSERT(ulp_distance(rot.r.c, p.q.c) <= 1);
    RC_ASSERT(ulp_distance(rot.r.d, p.q.d) <= 1);
  } else if (det < 0) {
    RC_ASSERT(p.det_q == -1);
    RC_ASSERT_FALSE(rot.r == p.q);  // the closest rotation is not the reflection Q
  }
  // The angle: accumulator<T>::atan2(v, u), the atan2 of the leading parts
  // (each within delta relative of v, u) in wider_t<T> by libm, or at the
  // accumulator's precision for mp50/mp100, then rounded to T. A relative
  // perturbation delta of (x, y) moves atan2(y, x) by at most
  // delta |sin 2 theta| <= 2 delta |theta| (D-SHAPE-4's argument). The
  // library atan2 and the final rounding are allowed 2 ulps of T together:
  // an assumption about libm (glibc documents at most 1 ulp for atan2 in
  // double) and Boost, not a derived bound. Oracle at 230 digits.
  using std::atan2;
  const exact u = e.a + e.d, v = e.c - e.b;
  const O theta = atan2(to_o(v), to_o(u));
  const O got = O(rot.angle);
  const O ulp = O(boost::math::float_next(mag(rot.angle))) - O(mag(rot.angle));
  RC_ASSERT(abs(got - theta) <= 2 * to_o(delta<T>()) * abs(theta) + 2 * ulp);
  RC_ASSERT(rot.angle <= boost::math::constants::pi<T>());
  RC_ASSERT(rot.angle >= -boost::math::constants::pi<T>());
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("polar decomposition: orthogonal Q, PSD S, A = Q S = S' Q, 1 ulp", "[polar]",
                        floating_scalars) {
  using T = TestType;
  rc::prop("general matrices", [] { check_polar(any_matrix<T>()); });
  rc::prop("singular (rank 1): det_q = +1", [] {
    auto g = rc::gen::inRange(-1000, 1001);
    const int p = *g, q = *g, x = *g, y = *g;
    const mat2<T> A{T(p * x), T(p * y), T(q * x), T(q * y)};
    RC_PRE(!(A == mat2<T>{}));
    check_polar(A);
    RC_ASSERT(polar_right(A).det_q == 1);
  });
  rc::prop("[[a, b], [b, -a]]: a reflection", [] {
    const int bits = mantissa_bits<T>();
    auto g = testing::gen::representable<T>(bits, -bits, 10);
    const T a = *g, b = *g;
    RC_PRE(a != 0 || b != 0);
    check_polar(mat2<T>{a, b, b, T(-a)});
    RC_ASSERT(polar_right(mat2<T>{a, b, b, T(-a)}).det_q == -1);
  });
}

TEMPLATE_LIST_TEST_CASE("polar decomposition recovers exact factors A = Q* S*", "[polar]", floating_scalars) {
  using T = TestType;
  rc::prop("Pythagorean rotation or reflection times an integer PSD matrix", [] {
    const factored f = *exact_factors();
    const EM A = f.q * f.s;
    const mat2<T> a{round_to<T>(A.a), round_to<T>(A.b), round_to<T>(A.c), round_to<T>(A.d)};
    RC_ASSERT(exact_of(a) == A);  // integers below 2^23
    RC_PRE(!(a == mat2<T>{}));
    check_polar(a);
    const auto p = polar_right(a);
    if (det_of(f.s) > 0) {  // Q is unique: it is Q*, entries within 1 ulp (S* = S exactly representable)
      RC_ASSERT(p.det_q == f.sigma);
      const mat2<O> q{to_o(f.q.a), to_o(f.q.b), to_o(f.q.c), to_o(f.q.d)};
      const mat2<O> s{to_o(f.s.a), to_o(f.s.b), to_o(f.s.c), to_o(f.s.d)};
      assert_one_ulp(p.q, q);
      assert_one_ulp(p.s, s);
    }
  });
}

TEMPLATE_LIST_TEST_CASE("closest rotation: a rotation, least squares, Q when det A > 0", "[polar]",
                        floating_scalars) {
  using T = TestType;
  rc::prop("general matrices", [] { check_closest_rotation(any_matrix<T>()); });
  rc::prop("det A < 0: reflections times PSD", [] {
    const factored f = *rc::gen::suchThat(exact_factors(), [](const factored& x) { return x.sigma < 0; });
    const EM A = f.q * f.s;
    const mat2<T> a{round_to<T>(A.a), round_to<T>(A.b), round_to<T>(A.c), round_to<T>(A.d)};
    RC_PRE(det_of(A) < 0);
    check_closest_rotation(a);
  });
  rc::prop("not unique: [[a, b], [b, -a]] (every rotation equally close)", [] {
    const int bits = mantissa_bits<T>();
    auto g = testing::gen::representable<T>(bits, -bits, 10);
    const T a = *g, b = *g;
    const mat2<T> A{a, b, b, T(-a)};
    check_closest_rotation(A);
    const auto r = closest_rotation(A);
    RC_ASSERT(!r.unique);
    RC_ASSERT(r.angle == 0);
    // Every rotation is equally close indeed: |A - R(theta)|^2 = |A|^2 + 2.
    const auto unit = *testing::gen::unit_rational();
    const EM e = exact_of(A);
    RC_ASSERT(frobenius2(e - EM{unit.x, -unit.y, unit.y, unit.x}) == frobenius2(e) + 2);
  });
}

TEMPLATE_LIST_TEST_CASE("polar: zero matrix, non-finite input, exact", "[polar][inputs]", floating_scalars) {
  using T = TestType;
  const mat2<T> zero{};
  for (const auto& p : {polar_right(zero), polar_left(zero)}) {
    CHECK(p.q == mat2<T>::identity());
    CHECK(p.s == mat2<T>{});
    CHECK(p.det_q == 1);
  }
  const auto r = closest_rotation(zero);
  CHECK(r.r == mat2<T>::identity());
  CHECK(r.angle == 0);
  CHECK_FALSE(r.unique);
  const T bad[] = {std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
                   std::numeric_limits<T>::quiet_NaN()};
  for (const T& x : bad) {
    for (int pos = 0; pos < 4; ++pos) {
      mat2<T> m{T(1), T(2), T(3), T(4)};
      (pos == 0 ? m.a : pos == 1 ? m.b : pos == 2 ? m.c : m.d) = x;
      INFO("position " << pos << " value " << to_string(x));
      CHECK_THROWS_AS(polar_right(m), invalid_input);
      CHECK_THROWS_AS(polar_left(m), invalid_input);
      CHECK_THROWS_AS(closest_rotation(m), invalid_input);
    }
  }
}

TEST_CASE("polar in exact arithmetic is unsupported", "[polar][inputs]") {
  const mat2<exact> m{1, 2, 3, 4};
  CHECK_THROWS_AS(polar_right(m), unsupported);
  CHECK_THROWS_AS(polar_left(m), unsupported);
  CHECK_THROWS_AS(closest_rotation(m), unsupported);
}

}  // namespace polar_test
