// Properties of the 2x2 principal square root (matrix_sqrt.hpp,
// derivations/matrix_sqrt.md): the exact domain decision against an
// independent eigenvalue classification, the typed errors, X*X = A within
// a derived bound, the structure of X (symmetric PSD for SPD A, eigenvalues
// in the right half-plane), and the two article methods against a rigorous
// running-error bound of their own operation sequence. Every residual is
// evaluated exactly (rationals) from the rounded results.
//
// Units: u = eps/2 is T's unit roundoff. "Within 1 ulp of the correctly
// rounded value x*" (D-MSQRT-4) means |x - x*| <= u|x*| + eps|RN(x*)| <=
// (3u + 2u^2)|x*| =: d1 |x*| for normal x; the generators keep every
// nonzero entry normal.
#include "support/exact_helpers.hpp"
#include "support/generators.hpp"
#include "support/matchers.hpp"

#include "rigidref/matrix_sqrt.hpp"
#include "rigidref/verify/accuracy.hpp"

#include <rapidcheck/catch.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <optional>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace matrix_sqrt_test {

using namespace rigidref;

namespace {

using namespace rigidref::testing;  // O, EM, exact_of, mag, unit roundoffs (support/exact_helpers.hpp)


// d1: the relative distance from x* of a value within 1 ulp of RN(x*) (above).
template <class T>
exact one_ulp_rel() {
  const exact u = unit_roundoff<T>();
  return 3 * u + 2 * u * u;
}

// The condition of D-MSQRT-4 under which principal_sqrt is within 1 ulp:
// k kappa u_W < u_T / 2 with k = 20, kappa the cancellation factor
// (|a| + s)/|a + s| of the diagonal numerators (1 for SPD).
template <class T>
O kappa_limit() {
  return to_o(unit_roundoff<T>() / (40 * accumulator_unit<T>()));
}

// ---- oracle -------------------------------------------------------------------

// The principal root of an exact A in the domain, at 230 digits, by (2) with
// the cancellation-free tau for tr < 0 (disc evaluated exactly), and the
// cancellation factor kappa of its diagonal.
struct root_oracle {
  mat2<O> x;
  O kappa;
};
root_oracle oracle_root(const EM& A) {
  const exact det = det_of(A), tr = A.a + A.d, disc = (A.a - A.d) * (A.a - A.d) + 4 * A.b * A.c;
  const O s = sqrt(to_o(det));
  const O tau = tr >= 0 ? O(to_o(tr) + 2 * s) : O(to_o(-disc) / (2 * s - to_o(tr)));
  const O t = sqrt(tau);
  const O n11 = to_o(A.a) + s, n22 = to_o(A.d) + s;
  root_oracle r;
  r.x = {O(n11 / t), O(to_o(A.b) / t), O(to_o(A.c) / t), O(n22 / t)};
  const O k11 = n11 == 0 ? O(std::numeric_limits<O>::infinity()) : O((abs(to_o(A.a)) + s) / abs(n11));
  const O k22 = n22 == 0 ? O(std::numeric_limits<O>::infinity()) : O((abs(to_o(A.d)) + s) / abs(n22));
  r.kappa = k11 > k22 ? k11 : k22;
  return r;
}

// Oracle values are within 2^-700 relative of the exact root (230 digits,
// cancellation factors below 2^60 here), so comparisons carry that slack.
const O oracle_slack = ldexp(O(1), -700);
// The tracked expressions below are evaluated at 230 digits (unit 2^-763) by
// the same operations as in T (unit >= 2^-335): by the same running error
// analysis their 230-digit values are within e 2^-763/2^-335 < e 2^-400 of
// the exact ones, e the bound for T.
const O model_slack = ldexp(O(1), -400);

// |x - x*| <= rel |x*| (+ the oracle's slack), x* given at 230 digits.
template <class T>
bool within_rel(const T& x, const O& xstar, const exact& rel) {
  const O diff = abs(O(x) - xstar);
  return diff <= to_o(rel) * abs(xstar) * (1 + oracle_slack) + oracle_slack * abs(xstar);
}

// ---- generators -----------------------------------------------------------------

template <class T>
constexpr int mantissa_bits() {
  return std::min(std::numeric_limits<T>::digits, 62);
}

// Four entries, each exactly representable (full mantissa, exponents within
// 2^+-20 of each other's scale: the results stay far from under/overflow).
template <class T>
rc::Gen<mat2<T>> any_matrix() {
  return rc::gen::apply([](T a, T b, T c, T d) { return mat2<T>{a, b, c, d}; },
                        testing::gen::representable<T>(mantissa_bits<T>(), -20 - mantissa_bits<T>(), 20),
                        testing::gen::representable<T>(mantissa_bits<T>(), -20 - mantissa_bits<T>(), 20),
                        testing::gen::representable<T>(mantissa_bits<T>(), -20 - mantissa_bits<T>(), 20),
                        testing::gen::representable<T>(mantissa_bits<T>(), -20 - mantissa_bits<T>(), 20));
}

// A general matrix folded into the domain: det < 0 -> swap the columns
// (det changes sign), then tr <= 0 -> negate (det unchanged, tr > 0 unless
// tr = det = 0, which is discarded).
template <class T>
mat2<T> in_domain(mat2<T> m) {
  const EM e = exact_of(m);
  if (det_of(e) < 0) m = {m.b, m.a, m.d, m.c};
  if (m.a + m.d < 0 || (m.a + m.d == 0 && 4 * det_of(exact_of(m)) <= 0)) m = {T(-m.a), T(-m.b), T(-m.c), T(-m.d)};
  RC_PRE(has_principal_sqrt(m));
  return m;
}

// SPD (or PSD): [[p, q], [q, r]] with p, r > 0 and q = RN(f sqrt(pr)),
// |f| <= 1 in steps of 2^-12, kept when q^2 <= pr exactly. f near 1 gives
// condition numbers up to about 2^26.
template <class T>
mat2<T> spd_matrix() {
  using std::sqrt;
  const int bits = mantissa_bits<T>();
  const T p = mag(*testing::gen::representable<T>(bits, -20 - bits, 20));
  const T r = mag(*testing::gen::representable<T>(bits, -20 - bits, 20));
  RC_PRE(p > 0 && r > 0);
  const int f = *rc::gen::inRange(-4096, 4097);
  const T q = static_cast<T>(O(sqrt(O(p) * O(r)) * f / 4096));
  RC_PRE(to_exact(q) * to_exact(q) <= to_exact(p) * to_exact(r));
  return {p, q, q, r};
}

// A matrix with eigenvalues near the negative real axis, where the tau of
// D-MSQRT-4's tr < 0 branch cancels: a = -A0 < 0 (A0 in (0, 1)), d = ulp(A0)(1 - 2^-j) (so
// a - d = -(A0 + ulp) + 2^-j ulp needs two T words), b = D 2^(k-1),
// c = -D 2^(-k-1) with D = A0 + ulp(A0), so 4bc = -D^2 exactly and
// disc = (a - d)^2 - D^2 = -2^-j ulp (2D - 2^-j ulp) < 0: a complex pair
// -A0/2 +- i sqrt(-disc)/2 with 4 det - tr^2 = -disc tiny. a + s and d + s do
// not cancel (kappa about 3).
template <class T>
mat2<T> near_negative_axis() {
  using std::ldexp;
  using boost::multiprecision::ldexp;
  // A0 = RN(p / q), q odd: a full significand in every T (a short one can
  // make (a - d)^2 exact in the accumulator by accident).
  const T A0 = T(T(*rc::gen::inRange(1, 1 << 20)) / T(2 * *rc::gen::inRange(1, 1 << 20) + 1));
  const T D = boost::math::float_next(A0);
  const T ulp = T(D - A0);
  const int j = *rc::gen::resize(100, rc::gen::inRange(1, std::numeric_limits<T>::digits));  // uniform
  const int k = *rc::gen::inRange(-4, 5);
  const mat2<T> m{T(-A0), T(ldexp(D, k - 1)), T(-ldexp(D, -k - 1)), T(ulp - ldexp(ulp, -j))};
  const EM e = exact_of(m);
  RC_PRE(e.a + e.d < 0 && (e.a - e.d) * (e.a - e.d) + 4 * e.b * e.c < 0);
  return m;
}

// X0 with eigenvalues in the open right half-plane (tr > 0, det >= 0) and
// integer entries below 2^k times 2^e, so that A = X0^2 is exact in T
// (2k + 1 <= digits): its principal root is X0 itself.
template <class T>
std::pair<mat2<T>, EM> exact_square() {
  const int k = std::min((std::numeric_limits<T>::digits - 1) / 2, 30);
  const std::int64_t lim = std::int64_t(1) << k;
  auto entry = rc::gen::inRange<std::int64_t>(-lim + 1, lim);
  const int range = *rc::gen::inRange(1, k + 1);  // small ranges make zeros and repeated eigenvalues
  const std::int64_t mod = std::int64_t(1) << range;
  std::int64_t x[4];
  for (auto& v : x) v = *entry % mod;
  if (x[0] * x[3] - x[1] * x[2] < 0) std::swap(x[0], x[1]), std::swap(x[2], x[3]);
  if (x[0] + x[3] < 0)
    for (auto& v : x) v = -v;
  RC_PRE(x[0] + x[3] > 0);
  const int e = *rc::gen::inRange(-20, 21);
  const exact scale = e >= 0 ? exact(big_int(1) << e) : exact(1) / exact(big_int(1) << -e);
  const EM X0{x[0] * scale, x[1] * scale, x[2] * scale, x[3] * scale};
  const EM A = X0 * X0;
  return {mat2<T>{round_to<T>(A.a), round_to<T>(A.b), round_to<T>(A.c), round_to<T>(A.d)}, X0};
}

// ---- checks -----------------------------------------------------------------------

// Residual bound from 1 ulp per entry: X = X* + E with |E| <= d1 |X*| gives
// X X - A = X* E + E X* + E E, |X X - A| <= (2 d1 + d1^2) |X*| |X*|, and
// |X*| <= |X| / (1 - d1): |X X - A| <= (2 d1 + d1^2) / (1 - d1)^2 |X| |X|
// entrywise (about 3 eps times |X||X|), evaluated exactly.
template <class T>
void check_residual(const mat2<T>& A, const mat2<T>& X) {
  const exact d = one_ulp_rel<T>();
  const exact factor = (2 * d + d * d) / ((1 - d) * (1 - d));
  const EM x = exact_of(X);
  const EM r = x * x - exact_of(A);
  const EM xx = abs_of(x) * abs_of(x);
  RC_ASSERT(abs(r.a) <= factor * xx.a);
  RC_ASSERT(abs(r.b) <= factor * xx.b);
  RC_ASSERT(abs(r.c) <= factor * xx.c);
  RC_ASSERT(abs(r.d) <= factor * xx.d);
}

template <class T>
void check_residual_plain(const mat2<T>& A, const mat2<T>& X) {
  const exact d = one_ulp_rel<T>();
  const exact factor = (2 * d + d * d) / ((1 - d) * (1 - d));
  const EM x = exact_of(X);
  const EM r = x * x - exact_of(A);
  const EM xx = abs_of(x) * abs_of(x);
  CHECK(abs(r.a) <= factor * xx.a);
  CHECK(abs(r.b) <= factor * xx.b);
  CHECK(abs(r.c) <= factor * xx.c);
  CHECK(abs(r.d) <= factor * xx.d);
}

// Each entry within 1 ulp of the correctly rounded oracle entry (D-MSQRT-4).
template <class T>
void check_one_ulp(const mat2<T>& X, const mat2<O>& xs) {
  RC_LOG() << "X = " << to_string(X.a) << " " << to_string(X.b) << " " << to_string(X.c) << " " << to_string(X.d)
           << "\n";
  RC_LOG() << "X* = " << xs.a.str(40) << " " << xs.b.str(40) << " " << xs.c.str(40) << " " << xs.d.str(40) << "\n";
  RC_ASSERT(verify::ulps_from_rounded(X.a, to_exact(xs.a)) <= 1);
  RC_ASSERT(verify::ulps_from_rounded(X.b, to_exact(xs.b)) <= 1);
  RC_ASSERT(verify::ulps_from_rounded(X.c, to_exact(xs.c)) <= 1);
  RC_ASSERT(verify::ulps_from_rounded(X.d, to_exact(xs.d)) <= 1);
}

// Eigenvalues of the rounded X in the right half-plane (closed for a
// singular A). det X* = sqrt(det A) >= 0 and tr X* = t > 0. With
// |E| <= d1|X*|: det X >= -(2 d1 + d1^2)/(1 - d1)^2 (|x11 x22| + |x12 x21|)
// (exactly as in check_residual), and tr X >= t - d1 (|x11*| + |x22*|) > 0
// whenever t > d1 (|x11*| + |x22*|), checked on the oracle; otherwise the
// trace of the rounded X is not determined by 1 ulp per entry.
template <class T>
void check_eigenvalues(const mat2<T>& X, const mat2<O>& xs) {
  const exact d = one_ulp_rel<T>();
  const exact factor = (2 * d + d * d) / ((1 - d) * (1 - d));
  const EM x = exact_of(X);
  RC_ASSERT(det_of(x) >= -factor * (abs(x.a * x.d) + abs(x.b * x.c)));
  const O t = xs.a + xs.d;
  if (t * (1 - oracle_slack) > to_o(d) * (abs(xs.a) + abs(xs.d))) RC_ASSERT(x.a + x.d > 0);
}

template <class T>
void check_principal(const mat2<T>& A) {
  RC_LOG() << "A = " << to_string(A.a) << " " << to_string(A.b) << " " << to_string(A.c) << " " << to_string(A.d)
           << "\n";
  const mat2<T> X = principal_sqrt(A);
  const root_oracle o = oracle_root(exact_of(A));
  // D-MSQRT-4's condition for 1 ulp; beyond it nothing is claimed.
  RC_PRE(o.kappa <= kappa_limit<T>());
  check_one_ulp(X, o.x);
  check_residual(A, X);
  check_eigenvalues(X, o.x);
}

template <class T>
bool finite_matrix(const mat2<T>& m) {
  return is_finite(m.a) && is_finite(m.b) && is_finite(m.c) && is_finite(m.d);
}

// ---- the article methods, with a running-error bound ---------------------------------

// Rounding unit of one T operation: u for float, double and long double
// (IEEE: + - * / sqrt correctly rounded); eps (1 ulp) for cpp_bin_float,
// whose subtraction is not always correctly rounded in Boost 1.74
// (data/counterexamples/boost_cpp_bin_float_subtraction.json).
template <class T>
O op_unit() {
  static const O w = to_o(std::is_floating_point_v<T> ? unit_roundoff<T>() : 2 * unit_roundoff<T>());
  return w;
}

// A quantity of the article's computation: v its T value (the method's own
// operations in its own order), x the exact value of the same expression on
// the exact inputs (230 digits), e a rigorous bound on |v - x| (standard
// running error analysis: for z = RN(x op y), |z - x* op y*| <= prop + w (|x* op y*| + prop)
// with prop the propagated input errors and w = op_unit). ok = false when a
// bound cannot be given (a divisor or a square root's argument not bounded
// away from 0).
template <class T>
struct tracked {
  T v;
  O x, e;
  bool ok = true;
};
template <class T>
tracked<T> input(const T& v) {
  return {v, O(v), O(0), true};
}
template <class T>
tracked<T> rounded(T v, O x, O prop, bool ok) {
  // The model (relative error op_unit per operation) holds in the normal
  // range: an overflow or an underflow leaves it (ok = false).
  ok = ok && is_finite(v) && (v == 0 || mag(v) >= std::numeric_limits<T>::min());
  return {v, x, O(prop + op_unit<T>() * (abs(x) + prop)), ok};
}
template <class T>
tracked<T> operator+(const tracked<T>& a, const tracked<T>& b) {
  return rounded<T>(T(a.v + b.v), O(a.x + b.x), O(a.e + b.e), a.ok && b.ok);
}
template <class T>
tracked<T> operator-(const tracked<T>& a, const tracked<T>& b) {
  return rounded<T>(T(a.v - b.v), O(a.x - b.x), O(a.e + b.e), a.ok && b.ok);
}
template <class T>
tracked<T> operator-(const tracked<T>& a) {
  return {T(-a.v), O(-a.x), a.e, a.ok};
}
template <class T>
tracked<T> operator*(const tracked<T>& a, const tracked<T>& b) {
  const T v = a.v * b.v;
  return rounded<T>(v, O(a.x * b.x), O(abs(a.x) * b.e + abs(b.x) * a.e + a.e * b.e),
                    a.ok && b.ok && (v != 0 || a.v == 0 || b.v == 0));  // no underflow to 0
}
// Multiplying by 2 or 1/2 is exact in binary (no under/overflow here).
template <class T>
tracked<T> times_pow2(const tracked<T>& a, int k) {
  using std::ldexp;
  using boost::multiprecision::ldexp;
  return {T(ldexp(a.v, k)), O(ldexp(a.x, k)), O(ldexp(a.e, k)), a.ok};
}
// a'/b' - a/b = (a' - a)/b' + (a/b)(b - b')/b', and |b'| >= |b| - e_b.
template <class T>
tracked<T> operator/(const tracked<T>& a, const tracked<T>& b) {
  const bool ok = a.ok && b.ok && b.e < abs(b.x);
  const O x = ok ? O(a.x / b.x) : O(0);
  const O prop = ok ? O((a.e + abs(x) * b.e) / (abs(b.x) - b.e)) : O(0);
  const T v = a.v / b.v;
  return rounded<T>(v, x, prop, ok && (v != 0 || a.v == 0));
}
// |sqrt(v) - sqrt(x)| = |v - x| / (sqrt v + sqrt x) <= e / sqrt x (x > 0),
// and <= sqrt(e) always (for v, x >= 0).
template <class T>
tracked<T> sqrt_of(const tracked<T>& a) {
  using std::sqrt;
  const bool ok = a.ok && a.x >= 0 && a.v >= 0;
  const O x = ok ? O(sqrt(a.x)) : O(0);
  O prop = ok ? O(sqrt(a.e)) : O(0);
  if (ok && a.x > 0 && a.e / sqrt(a.x) < prop) prop = a.e / sqrt(a.x);
  return rounded<T>(T(sqrt(a.v)), x, prop, ok);
}
// The methods clamp a quantity that is >= 0 in exact arithmetic at 0: the
// clamped value is closer to x than v was.
template <class T>
tracked<T> clamp_at_zero(const tracked<T>& a) {
  return {a.v < 0 ? T(0) : a.v, a.x, a.e, a.ok && a.x >= 0};
}

template <class T>
struct tracked_root {
  tracked<T> x11, x12, x21, x22;
  bool formula_exact = true;  // the branch's expression is the principal root for the exact inputs
  bool ok() const { return x11.ok && x12.ok && x21.ok && x22.ok; }
};

// sqrt_cayley_hamilton, operation for operation (D-MSQRT-1).
template <class T>
tracked_root<T> tracked_cayley_hamilton(const mat2<T>& m) {
  const auto a = input(m.a), b = input(m.b), c = input(m.c), d = input(m.d);
  const auto det = clamp_at_zero(a * d - b * c);
  const auto s = sqrt_of(det);
  const auto t = sqrt_of(a + d + times_pow2(s, 1));
  return {(a + s) / t, b / t, c / t, (d + s) / t};
}

// sqrt_diagonalization, operation for operation and branch for branch
// (D-MSQRT-2). The branches follow the T values, as the code does. The
// repeated-eigenvalue formula (A + l1 I)/(2 sqrt l1) is the principal root
// only when the exact eigenvalues are equal.
template <class T>
tracked_root<T> tracked_diagonalization(const mat2<T>& m) {
  const auto a = input(m.a), b = input(m.b), c = input(m.c), d = input(m.d);
  const auto tr = a + d;
  const auto det = a * d - b * c;
  const auto disc = tr * tr - times_pow2(det, 2);
  if (disc.v < 0) {
    const auto modulus = sqrt_of(det);
    const auto re = sqrt_of(times_pow2(modulus + times_pow2(tr, -1), -1));
    const auto two_re = times_pow2(re, 1);
    return {(a + modulus) / two_re, b / two_re, c / two_re, (d + modulus) / two_re};
  }
  const auto root = sqrt_of(disc);
  const auto l1 = clamp_at_zero(times_pow2(tr - root, -1)), l2 = clamp_at_zero(times_pow2(tr + root, -1));
  const auto r1 = sqrt_of(l1), r2 = sqrt_of(l2);
  if (m.b == 0 && m.c == 0) return {sqrt_of(a), input(T(0)), input(T(0)), sqrt_of(d)};
  if (disc.v == 0 || l1.v == l2.v) {
    const auto two_r = times_pow2(r1, 1);
    tracked_root<T> out{(a + l1) / two_r, b / two_r, c / two_r, (d + l1) / two_r};
    out.formula_exact = disc.x == 0;
    return out;
  }
  tracked<T> p11, p12, p21, p22;
  if (m.b != 0) p11 = b, p12 = b, p21 = l1 - a, p22 = l2 - a;
  else p11 = l1 - d, p12 = l2 - d, p21 = c, p22 = c;
  const auto detp = p11 * p22 - p12 * p21;
  return {(p11 * r1 * p22 - p12 * r2 * p21) / detp, (-p11 * r1 * p12 + p12 * r2 * p11) / detp,
          (p21 * r1 * p22 - p22 * r2 * p21) / detp, (-p21 * r1 * p12 + p22 * r2 * p11) / detp};
}

// The article method's result is within the running-error bound of the exact
// value of its expression; where that expression is the principal root, the
// exact value agrees with the oracle; and X X - A is within the bound the
// forward bound implies: X = X* + E, |E| <= e, |X X - A| <= |X*| e + e |X*| + e e.
template <class T>
void check_article(const mat2<T>& A, const mat2<T>& X, const tracked_root<T>& tr) {
  RC_LOG() << "A = " << to_string(A.a) << " " << to_string(A.b) << " " << to_string(A.c) << " " << to_string(A.d)
           << "\nX = " << to_string(X.a) << " " << to_string(X.b) << " " << to_string(X.c) << " " << to_string(X.d)
           << "\n";
  if (!tr.ok()) return;  // no bound: an intermediate is not bounded away from 0
  // The tracked T values are the method's own: the replica is faithful.
  RC_ASSERT(X == (mat2<T>{tr.x11.v, tr.x12.v, tr.x21.v, tr.x22.v}));
  const tracked<T>* t[4] = {&tr.x11, &tr.x12, &tr.x21, &tr.x22};
  const T* x[4] = {&X.a, &X.b, &X.c, &X.d};
  for (int i = 0; i < 4; ++i) {
    RC_LOG() << "entry " << i << ": error " << O(abs(O(*x[i]) - t[i]->x)).str(6) << " bound " << t[i]->e.str(6) << "\n";
    RC_ASSERT(abs(O(*x[i]) - t[i]->x) <= t[i]->e * (1 + model_slack) + oracle_slack * abs(t[i]->x));
  }
  if (!tr.formula_exact) return;
  const root_oracle o = oracle_root(exact_of(A));
  const O* xs[4] = {&o.x.a, &o.x.b, &o.x.c, &o.x.d};
  for (int i = 0; i < 4; ++i)
    RC_ASSERT(abs(t[i]->x - *xs[i]) <= t[i]->e * model_slack + oracle_slack * (abs(*xs[i]) + 1));
  // Residual, exactly: |E_ij| <= e_ij (plus the oracle slack, folded into e).
  const EM xe = exact_of(X);
  const EM r = xe * xe - exact_of(A);
  auto ex = [](const tracked<T>& q) { return to_exact(O(q.e * (1 + 2 * model_slack) + 2 * oracle_slack * abs(q.x))); };
  const EM e{ex(tr.x11), ex(tr.x12), ex(tr.x21), ex(tr.x22)};
  const EM xa{to_exact(abs(o.x.a)), to_exact(abs(o.x.b)), to_exact(abs(o.x.c)), to_exact(abs(o.x.d))};
  const EM bound = xa * e + e * xa + e * e;
  RC_ASSERT(abs(r.a) <= bound.a);
  RC_ASSERT(abs(r.b) <= bound.b);
  RC_ASSERT(abs(r.c) <= bound.c);
  RC_ASSERT(abs(r.d) <= bound.d);
}

// An article method throws unsupported exactly where its formula breaks
// down in T (a divisor rounds to 0, or an entry overflows): then the replica
// of its T operations must have produced a non-finite entry.
template <class T, class F>
void check_article_or_breakdown(const mat2<T>& A, F&& method, const tracked_root<T>& tr) {
  std::optional<mat2<T>> X;
  try {
    X = method(A);
  } catch (const unsupported&) {
    RC_LOG() << "unsupported (breakdown in T)\n";
    RC_ASSERT(!finite_matrix(mat2<T>{tr.x11.v, tr.x12.v, tr.x21.v, tr.x22.v}));
    return;
  }
  RC_ASSERT(finite_matrix(*X));
  check_article(A, *X, tr);
}

template <class T>
void check_articles(const mat2<T>& A) {
  check_article_or_breakdown(A, [](const mat2<T>& m) { return sqrt_cayley_hamilton(m); },
                             tracked_cayley_hamilton(A));
  check_article_or_breakdown(A, [](const mat2<T>& m) { return sqrt_diagonalization(m); },
                             tracked_diagonalization(A));
}

// ---- the domain, classified independently ------------------------------------------------

enum class root_class { zero, complex_pair, positive, zero_and_positive, nilpotent, negative_or_zero_real };

// From the eigenvalues l1 <= l2 = (tr -+ sqrt(disc))/2 of an integer matrix,
// their signs decided with the integer square root r = isqrt(disc)
// (sqrt(disc) = r, or in (r, r + 1)): not from the rational criterion (4).
root_class classify(std::int64_t a, std::int64_t b, std::int64_t c, std::int64_t d) {
  if (a == 0 && b == 0 && c == 0 && d == 0) return root_class::zero;
  const big_int tr = big_int(a) + d;
  const big_int disc = (big_int(a) - d) * (big_int(a) - d) + 4 * big_int(b) * c;
  if (disc < 0) return root_class::complex_pair;
  const big_int r = boost::multiprecision::sqrt(disc);
  const bool perfect = r * r == disc;
  auto sign_of = [&](bool plus) {  // sign of tr -+ sqrt(disc)
    if (perfect) {
      const big_int v = plus ? big_int(tr + r) : big_int(tr - r);
      return v > 0 ? 1 : (v < 0 ? -1 : 0);
    }
    if (plus) return tr + r >= 0 ? 1 : (tr + r + 1 <= 0 ? -1 : 2);  // 2: cannot happen for integers
    return tr >= r + 1 ? 1 : (tr <= r ? -1 : 2);
  };
  const int s1 = sign_of(false), s2 = sign_of(true);
  RC_ASSERT(s1 != 2);
  RC_ASSERT(s2 != 2);
  if (s1 > 0 && s2 > 0) return root_class::positive;
  if (s1 == 0 && s2 > 0) return root_class::zero_and_positive;
  if (s1 == 0 && s2 == 0) return root_class::nilpotent;
  return root_class::negative_or_zero_real;
}

bool has_root(root_class k) {
  return k == root_class::zero || k == root_class::complex_pair || k == root_class::positive ||
         k == root_class::zero_and_positive;
}

template <class T>
T scaled(std::int64_t v, int e) {
  using std::ldexp;
  using boost::multiprecision::ldexp;
  if constexpr (is_exact_v<T>) return e >= 0 ? T(v) * T(big_int(1) << e) : T(v) / T(big_int(1) << -e);
  else return ldexp(T(v), e);
}


// Inside the domain an article method returns finite entries, or throws
// unsupported where its formula breaks down in T (D-MSQRT-1): never a NaN.
template <class F>
bool finite_or_unsupported(F&& f) {
  try {
    return finite_matrix(f());
  } catch (const unsupported&) {
    return true;
  } catch (...) {
    return false;
  }
}

template <class F>
bool throws_domain_error(F&& f) {
  try {
    f();
  } catch (const rigidref::domain_error&) {
    return true;
  } catch (...) {
    return false;
  }
  return false;
}

}  // namespace

// ---- domain and errors -------------------------------------------------------------

TEMPLATE_LIST_TEST_CASE("domain: has_principal_sqrt agrees with an eigenvalue classification", "[msqrt][domain]",
                        all_scalars) {
  using T = TestType;
  rc::prop("integer matrices (small entries: zeros, repeated and nilpotent cases are frequent)", [] {
    const int lim = *rc::gen::element(2, 3, 20, 1000);
    auto entry = rc::gen::inRange(-lim, lim + 1);
    const std::int64_t a = *entry, b = *entry, c = *entry, d = *entry;
    const int e = *rc::gen::inRange(-10, 11);  // a power-of-two scale does not change the class
    const mat2<T> m{scaled<T>(a, e), scaled<T>(b, e), scaled<T>(c, e), scaled<T>(d, e)};
    const root_class k = classify(a, b, c, d);
    RC_ASSERT(has_principal_sqrt(m) == has_root(k));
    if constexpr (is_exact_v<T>) {
      RC_ASSERT_THROWS_AS(principal_sqrt(m), unsupported);
    } else {
      if (has_root(k)) {
        RC_ASSERT(finite_matrix(principal_sqrt(m)));
        RC_ASSERT(finite_or_unsupported([&] { return sqrt_cayley_hamilton(m); }));
        RC_ASSERT(finite_or_unsupported([&] { return sqrt_diagonalization(m); }));
      } else {
        RC_ASSERT(throws_domain_error([&] { principal_sqrt(m); }));
        RC_ASSERT(throws_domain_error([&] { sqrt_cayley_hamilton(m); }));
        RC_ASSERT(throws_domain_error([&] { sqrt_diagonalization(m); }));
      }
    }
  });
}

TEST_CASE("domain: the named cases", "[msqrt][domain]") {
  using M = mat2<double>;
  CHECK(has_principal_sqrt(M{0, 0, 0, 0}));
  CHECK(has_principal_sqrt(M{4, 1, 0, 4}));     // Jordan block, positive eigenvalue
  CHECK(has_principal_sqrt(M{0, -1, 1, 0}));    // eigenvalues +-i
  CHECK(has_principal_sqrt(M{1, 0, 0, 0}));     // eigenvalues 0 and 1: 0 semisimple
  CHECK_FALSE(has_principal_sqrt(M{0, 1, 0, 0}));   // nilpotent
  CHECK_FALSE(has_principal_sqrt(M{-1, 0, 0, 0}));  // eigenvalues -1 and 0
  CHECK_FALSE(has_principal_sqrt(M{-1, 0, 0, -4}));  // both negative
  CHECK_FALSE(has_principal_sqrt(M{-1, 1, 0, -1}));  // negative Jordan block
  CHECK_FALSE(has_principal_sqrt(M{1, 0, 0, -1}));   // det < 0
  CHECK(principal_sqrt(M{0, 0, 0, 0}) == M{0, 0, 0, 0});
  CHECK_THROWS_AS(principal_sqrt(M{0, 1, 0, 0}), rigidref::domain_error);
  CHECK_THROWS_AS(sqrt_cayley_hamilton(M{-1, 0, 0, -4}), rigidref::domain_error);
  CHECK_THROWS_AS(sqrt_diagonalization(M{1, 0, 0, -1}), rigidref::domain_error);
  CHECK_THROWS_AS(principal_sqrt(mat2<exact>{4, 0, 0, 9}), unsupported);
}

TEMPLATE_LIST_TEST_CASE("non-finite entries are invalid_input", "[msqrt][inputs]", floating_scalars) {
  using T = TestType;
  const T bad[] = {std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity(),
                   std::numeric_limits<T>::quiet_NaN()};
  for (const T& x : bad) {
    for (int pos = 0; pos < 4; ++pos) {
      mat2<T> m{T(4), T(1), T(0), T(9)};
      (pos == 0 ? m.a : pos == 1 ? m.b : pos == 2 ? m.c : m.d) = x;
      INFO("position " << pos << " value " << to_string(x));
      CHECK_THROWS_AS(has_principal_sqrt(m), invalid_input);
      CHECK_THROWS_AS(principal_sqrt(m), invalid_input);
      CHECK_THROWS_AS(sqrt_cayley_hamilton(m), invalid_input);
      CHECK_THROWS_AS(sqrt_diagonalization(m), invalid_input);
    }
  }
}

// ---- principal_sqrt ---------------------------------------------------------------------

TEMPLATE_LIST_TEST_CASE("principal_sqrt of an exact square X0^2 is X0 within 1 ulp", "[msqrt][accuracy]",
                        floating_scalars) {
  using T = TestType;
  rc::prop("X0 with tr > 0, det >= 0, integer entries times 2^e", [] {
    const auto [A, X0] = exact_square<T>();
    const mat2<T> X = principal_sqrt(A);
    RC_LOG() << "A = " << to_string(A.a) << " " << to_string(A.b) << " " << to_string(A.c) << " " << to_string(A.d)
             << "\n";
    // Here s = det X0 and a + s = x11 tr X0, so kappa is rational.
    const exact s = det_of(X0), t = X0.a + X0.d;
    auto kappa = [&](const exact& aa, const exact& x) {
      return x == 0 ? std::optional<exact>{} : std::optional<exact>{(abs(aa) + s) / abs(x * t)};
    };
    const auto k11 = kappa(exact_of(A).a, X0.a), k22 = kappa(exact_of(A).d, X0.d);
    RC_PRE(k11 && k22 && to_o(*k11) <= kappa_limit<T>() && to_o(*k22) <= kappa_limit<T>());
    RC_ASSERT(verify::ulps_from_rounded(X.a, X0.a) <= 1);
    RC_ASSERT(verify::ulps_from_rounded(X.b, X0.b) <= 1);
    RC_ASSERT(verify::ulps_from_rounded(X.c, X0.c) <= 1);
    RC_ASSERT(verify::ulps_from_rounded(X.d, X0.d) <= 1);
    check_residual(A, X);
    const mat2<O> xs{to_o(X0.a), to_o(X0.b), to_o(X0.c), to_o(X0.d)};
    check_eigenvalues(X, xs);
  });
}

TEMPLATE_LIST_TEST_CASE("principal_sqrt: 1 ulp, X X = A, eigenvalues (SPD and general)", "[msqrt][accuracy]",
                        floating_scalars) {
  using T = TestType;
  rc::prop("SPD, condition up to about 2^26", [] { check_principal(spd_matrix<T>()); });
  rc::prop("general, folded into the domain", [] { check_principal(in_domain(*any_matrix<T>())); });
}

TEMPLATE_LIST_TEST_CASE("principal_sqrt of SPD A is symmetric (bitwise) and PSD", "[msqrt]", floating_scalars) {
  using T = TestType;
  rc::prop("x12 == x21, x11 >= 0, x22 >= 0, det X >= -bound", [] {
    const mat2<T> A = spd_matrix<T>();
    const mat2<T> X = principal_sqrt(A);
    // b == c, and both entries are RN(b / t) of the same t: identical.
    RC_ASSERT(X.b == X.c);
    // (a + s)/t with a, s, t >= 0 rounds to >= 0.
    RC_ASSERT(X.a >= 0);
    RC_ASSERT(X.d >= 0);
    // det X* = sqrt(det A) >= 0, and det X >= -bound of check_eigenvalues.
    const exact d = one_ulp_rel<T>();
    const exact factor = (2 * d + d * d) / ((1 - d) * (1 - d));
    const EM x = exact_of(X);
    RC_ASSERT(det_of(x) >= -factor * (abs(x.a * x.d) + abs(x.b * x.c)));
  });
}

// Near the negative real axis the tau of the tr < 0 branch, -disc/(2s - tr),
// needs disc = (a - d)^2 + 4bc, which itself cancels (|disc| << (a - d)^2)
// while a + s and d + s do not (kappa about 3). This property found that
// disc in double words lost up to 1 % (double, long double, mp50, mp100);
// principal_sqrt now evaluates disc exactly (456fb20), and this is the
// regression test (data/counterexamples/principal_sqrt_near_negative_axis.json).
TEMPLATE_LIST_TEST_CASE("principal_sqrt near the negative real axis: 1 ulp while kappa is small",
                        "[msqrt][accuracy]", floating_scalars) {
  using T = TestType;
  rc::prop("tr < 0, 4 det - tr^2 tiny and positive", [] { check_principal(near_negative_axis<T>()); });
}

// ---- the article methods ------------------------------------------------------------------

TEMPLATE_LIST_TEST_CASE("article methods within their running-error bound; X X = A within the implied bound",
                        "[msqrt][article]", floating_scalars) {
  using T = TestType;
  rc::prop("SPD", [] { check_articles(spd_matrix<T>()); });
  rc::prop("exact squares", [] { check_articles(exact_square<T>().first); });
  rc::prop("general, folded into the domain", [] { check_articles(in_domain(*any_matrix<T>())); });
}

// ---- special cases of the diagonalisation ---------------------------------------------------

// Small integer X0 (|entries| <= 12): every intermediate of both article
// methods is then an integer below 2^24 (or half of one), exact in every T,
// and each returned entry is one quotient rounded once: correctly rounded
// (0 ulps). principal_sqrt is within 1 ulp (D-MSQRT-4; kappa is below 2^20
// for these), so the methods agree with it within 1 ulp.
template <class T>
void check_special(const EM& X0) {
  const EM A = X0 * X0;
  const mat2<T> a{round_to<T>(A.a), round_to<T>(A.b), round_to<T>(A.c), round_to<T>(A.d)};
  RC_LOG() << "X0 = [[" << X0.a << ", " << X0.b << "], [" << X0.c << ", " << X0.d << "]]\n";
  const mat2<T> diag = sqrt_diagonalization(a), ch = sqrt_cayley_hamilton(a), ref = principal_sqrt(a);
  const exact* xs[4] = {&X0.a, &X0.b, &X0.c, &X0.d};
  const T* dg[4] = {&diag.a, &diag.b, &diag.c, &diag.d};
  const T* c[4] = {&ch.a, &ch.b, &ch.c, &ch.d};
  const T* r[4] = {&ref.a, &ref.b, &ref.c, &ref.d};
  for (int i = 0; i < 4; ++i) {
    RC_ASSERT(verify::ulps_from_rounded(*dg[i], *xs[i]) == 0);
    RC_ASSERT(verify::ulps_from_rounded(*c[i], *xs[i]) == 0);
    RC_ASSERT(verify::ulps_from_rounded(*r[i], *xs[i]) <= 1);
    RC_ASSERT(ulp_distance(*dg[i], *r[i]) <= 1);
  }
}

TEMPLATE_LIST_TEST_CASE("diagonalisation special cases agree with principal_sqrt", "[msqrt][article]",
                        floating_scalars) {
  using T = TestType;
  auto pos = rc::gen::inRange(1, 13);
  auto nonzero = rc::gen::suchThat(rc::gen::inRange(-12, 13), [](int v) { return v != 0; });
  // Rationals in X (k / (p + q), k / 2p) come from odd denominators too.
  rc::prop("b = 0, c != 0: lower triangular, distinct eigenvalues", [&] {
    const int p = *pos, q = *rc::gen::suchThat(pos, [p](int v) { return v != p; });
    check_special<T>(EM{exact(p), 0, exact(*nonzero, p + q), exact(q)});
  });
  rc::prop("c = 0, b != 0: upper triangular", [&] {
    const int p = *pos, q = *rc::gen::suchThat(pos, [p](int v) { return v != p; });
    check_special<T>(EM{exact(p), exact(*nonzero, p + q), 0, exact(q)});
  });
  rc::prop("diagonal", [&] { check_special<T>(EM{exact(*pos), 0, 0, exact(*pos)}); });
  rc::prop("repeated eigenvalue: Jordan blocks, X0 = pI + K with K^2 = 0", [&] {
    auto small = rc::gen::inRange(-3, 4);
    const int p = *pos, m = *small, n = *small, k = *small;
    RC_PRE(k != 0 && (m != 0 || n != 0));
    // K = k [[mn, -m^2], [n^2, -mn]] / 8: A = p^2 I + 2pK, entries in quarters.
    const EM K{exact(k * m * n, 8), exact(-k * m * m, 8), exact(k * n * n, 8), exact(-k * m * n, 8)};
    const EM X0{exact(p) + K.a, K.b, K.c, exact(p) + K.d};
    check_special<T>(X0);
  });
  rc::prop("complex eigenvalues: X0 = [[p + k, q], [-r, p - k]], qr > k^2", [&] {
    const int p = *rc::gen::inRange(1, 7), k = *rc::gen::inRange(-3, 4), r = *rc::gen::inRange(1, 7);
    const int q = k * k / r + *rc::gen::inRange(1, 7);  // qr > k^2
    // X0 has eigenvalues p +- i sqrt(qr - k^2), so A = X0^2 has a complex pair (p > 0).
    const bool flip = *rc::gen::arbitrary<bool>();
    check_special<T>(EM{exact(p + k), exact(flip ? -q : q), exact(flip ? r : -r), exact(p - k)});
  });
  rc::prop("real distinct positive eigenvalues: U diag(m1, m2) U^-1, U unimodular", [&] {
    auto small = rc::gen::inRange(1, 5);
    const int m1 = *small, m2 = *rc::gen::suchThat(small, [m1](int v) { return v != m1; });
    const int u12 = *rc::gen::inRange(-1, 2), u21 = *rc::gen::inRange(-1, 2);
    const EM U{1, exact(u12), exact(u21), exact(1 + u12 * u21)};  // det U = 1
    const EM Ui{exact(1 + u12 * u21), exact(-u12), exact(-u21), 1};
    check_special<T>(U * EM{exact(m1), 0, 0, exact(m2)} * Ui);
  });
  // The example: [[4, 1], [0, 4]], root [[2, 1/4], [0, 2]].
  rc::prop("[[4, 1], [0, 4]]", [] { check_special<T>(EM{2, exact(1, 4), 0, 2}); });
}

// ---- regressions (recorded counterexamples) ---------------------------------------

// D-MSQRT-1/2 and the header promise that no method returns a NaN. In T, the
// article methods compute tr + 2 sqrt(det) with cancellation when tr < 0: for
// A = [[-m, 1], [-1, -m]] (eigenvalues -m +- i, in the domain),
// s = RN(sqrt(m^2 + 1)) = m once m^2 >= 2^digits, and then tr + 2s = 0. This
// property found 0/0 and infinities there in every type
// (data/counterexamples/article_sqrt_nan_in_domain.json); since 456fb20 the
// methods throw unsupported instead. principal_sqrt is finite and accurate.
TEMPLATE_LIST_TEST_CASE("article methods: a finite root or unsupported, never NaN, in the domain",
                        "[msqrt][article]", floating_scalars) {
  using T = TestType;
  rc::prop("[[-m, 1], [-1, -m]], m = m0 2^k up to 2^(digits/2 + 24)", [] {
    using std::ldexp;
    using boost::multiprecision::ldexp;
    // Uniform sizes (resize): the breakdown needs m^2 + 1 to round to m^2.
    const int k = *rc::gen::resize(100, rc::gen::inRange(0, std::numeric_limits<T>::digits / 2 + 5));
    const T m = ldexp(T(*rc::gen::resize(100, rc::gen::inRange(1, 1 << 20))), k);
    const mat2<T> A{T(-m), T(1), T(-1), T(-m)};
    RC_LOG() << "m = " << to_string(m) << "\n";
    RC_ASSERT(has_principal_sqrt(A));
    RC_ASSERT(finite_matrix(principal_sqrt(A)));  // (kappa = 4m^2 here: beyond D-MSQRT-4's 1-ulp condition)
    RC_ASSERT(finite_or_unsupported([&] { return sqrt_cayley_hamilton(A); }));
    RC_ASSERT(finite_or_unsupported([&] { return sqrt_diagonalization(A); }));
  });
}

namespace {
nlohmann::json load_counterexample(const std::string& name) {
  std::ifstream in(std::string(RIGIDREF_SOURCE_DIR) + "/data/counterexamples/" + name);
  REQUIRE(in);
  return nlohmann::json::parse(in);
}
mat2<double> matrix_from_strings(const nlohmann::json& m) {
  // Shortest round-trip decimals: strtod reads each back exactly.
  return {std::stod(m[0][0].get<std::string>()), std::stod(m[0][1].get<std::string>()),
          std::stod(m[1][0].get<std::string>()), std::stod(m[1][1].get<std::string>())};
}
}  // namespace

TEST_CASE("regression: the article methods' NaN inside the domain is now unsupported", "[msqrt][article][regression]") {
  const auto j = load_counterexample("article_sqrt_nan_in_domain.json");
  const auto& m = j["matrix"];
  const mat2<double> A{m[0][0].get<double>(), m[0][1].get<double>(), m[1][0].get<double>(), m[1][1].get<double>()};
  CHECK(has_principal_sqrt(A));
  CHECK(finite_matrix(principal_sqrt(A)));
  // Recorded: both article methods returned NaN and infinities here.
  CHECK_THROWS_AS(sqrt_cayley_hamilton(A), unsupported);
  CHECK_THROWS_AS(sqrt_diagonalization(A), unsupported);
  const mat2<float> F{-4096.0f, 1.0f, -1.0f, -4096.0f};
  CHECK_THROWS_AS(sqrt_cayley_hamilton(F), unsupported);
  CHECK_THROWS_AS(sqrt_diagonalization(F), unsupported);
  // The overflow case (float diagonalisation, |A| about 2^55).
  const mat2<float> G{1.8699807e16f, 1.4411505e15f, 3.5958463e16f, 1.8699807e16f};
  CHECK(finite_matrix(principal_sqrt(G)));
  CHECK(finite_or_unsupported([&] { return sqrt_diagonalization(G); }));
}

TEST_CASE("regression: principal_sqrt within 1 ulp near the negative real axis (kappa = 3)",
          "[msqrt][accuracy][regression]") {
  const auto j = load_counterexample("principal_sqrt_near_negative_axis.json");
  for (const auto* which : {&j["matrix"], &j["same_construction_j52"]["matrix"]}) {
    const mat2<double> A = matrix_from_strings(*which);
    const mat2<double> X = principal_sqrt(A);
    const root_oracle o = oracle_root(exact_of(A));
    INFO("kappa of a + s and d + s: " << o.kappa.str(6));
    CHECK(o.kappa <= kappa_limit<double>());  // inside D-MSQRT-4's condition
    // A third opinion: mp100's accumulator (about 730 bits) squares this a - d
    // exactly, so principal_sqrt<mp100> agrees with the oracle.
    const mat2<mp100> Aw{mp100(A.a), mp100(A.b), mp100(A.c), mp100(A.d)};
    const mat2<mp100> Xw = principal_sqrt(Aw);
    CHECK(verify::ulps_from_rounded(round_to<double>(to_exact(Xw.a)), to_exact(o.x.a)) == 0);
    // Recorded: 2 ulps (shrunk case) and 4.7e13 ulps (j = 52) before 456fb20.
    CHECK(verify::ulps_from_rounded(X.a, to_exact(o.x.a)) <= 1);
    CHECK(verify::ulps_from_rounded(X.b, to_exact(o.x.b)) <= 1);
    CHECK(verify::ulps_from_rounded(X.c, to_exact(o.x.c)) <= 1);
    CHECK(verify::ulps_from_rounded(X.d, to_exact(o.x.d)) <= 1);
    check_residual_plain(A, X);
  }
}

}  // namespace matrix_sqrt_test
