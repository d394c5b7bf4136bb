// The scalar types rigidref supports, in one place, and their traits.
//
// Every algorithm is a template over one of these. Binary floating types are
// tested in ulps against an oracle; `exact` (rational) runs the algorithms
// whose answer is a rational function of the inputs, with no rounding at all.
#pragma once

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>

#include <climits>
#include <cmath>
#include <limits>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "rigidref/detail/fp_begin.hpp"

// Comparisons of `exact` (rigidref::exact below) by cross-multiplication.
// Boost 1.74's rational_adaptor compares through boost::rational's
// operator<, which expands both numbers into continued fractions (one big
// division per term, the whole expansion when the numbers are equal), and
// its default ==, <, > call that up to twice. These overloads, found by
// argument-dependent lookup before Boost's templates (an exact non-template
// match), decide the same order from the signs, the bit lengths and at most
// two products (D-PRED-2). boost::rational keeps num/den in lowest terms with
// den > 0, so equality is equality of the two parts.
namespace boost::multiprecision::backends {

namespace rigidref_exact_order {
using backend = rational_adaptor<cpp_int_backend<>>;
using integer = backend::integer_type;

// -1, 0 or 1 as x <, =, > y (den > 0 both; D-PRED-2).
inline int compare(const boost::rational<integer>& x, const boost::rational<integer>& y) {
  const integer& xn = x.numerator();
  const integer& xd = x.denominator();
  const integer& yn = y.numerator();
  const integer& yd = y.denominator();
  const int sx = xn.sign(), sy = yn.sign();
  if (sx != sy) return sx < sy ? -1 : 1;
  if (sx == 0) return 0;
  if (xd == yd) return xn.compare(yn);
  // Same sign s: x < y iff xn yd < yn xd. With m = msb, 2^(m(a)+m(b)) <=
  // |a b| < 2^(m(a)+m(b)+2): bit lengths two apart decide the magnitudes.
  // eval_msb_imp: the top bit of the magnitude (msb() rejects negatives).
  const long bx = static_cast<long>(eval_msb_imp(xn.backend())) + static_cast<long>(eval_msb_imp(yd.backend()));
  const long by = static_cast<long>(eval_msb_imp(yn.backend())) + static_cast<long>(eval_msb_imp(xd.backend()));
  if (bx >= by + 2) return sx;   // |x| > |y|
  if (by >= bx + 2) return -sx;  // |x| < |y|
  const integer l = xn * yd;
  const integer r = yn * xd;
  return l.compare(r);
}

// x against an integer i (den > 0).
inline int compare(const boost::rational<integer>& x, long long i) {
  const integer& xn = x.numerator();
  const int sx = xn.sign(), si = i < 0 ? -1 : (i > 0 ? 1 : 0);
  if (sx != si) return sx < si ? -1 : 1;
  if (sx == 0) return 0;
  if (x.denominator() == 1) return xn.compare(i);
  const integer r = integer(i) * x.denominator();
  return xn.compare(r);
}

}  // namespace rigidref_exact_order

inline bool eval_lt(const rational_adaptor<cpp_int_backend<>>& a, const rational_adaptor<cpp_int_backend<>>& b) {
  return rigidref_exact_order::compare(a.data(), b.data()) < 0;
}
inline bool eval_gt(const rational_adaptor<cpp_int_backend<>>& a, const rational_adaptor<cpp_int_backend<>>& b) {
  return rigidref_exact_order::compare(a.data(), b.data()) > 0;
}
inline bool eval_eq(const rational_adaptor<cpp_int_backend<>>& a, const rational_adaptor<cpp_int_backend<>>& b) {
  return a.data().numerator() == b.data().numerator() && a.data().denominator() == b.data().denominator();
}
inline bool eval_lt(const rational_adaptor<cpp_int_backend<>>& a, long long i) {
  return rigidref_exact_order::compare(a.data(), i) < 0;
}
inline bool eval_gt(const rational_adaptor<cpp_int_backend<>>& a, long long i) {
  return rigidref_exact_order::compare(a.data(), i) > 0;
}
inline bool eval_eq(const rational_adaptor<cpp_int_backend<>>& a, long long i) {
  return a.data().denominator() == 1 && a.data().numerator().compare(i) == 0;
}


// The gcd of two integers of more than two limbs by Lehmer's algorithm
// (Knuth, TAOCP vol. 2, 4.5.2, Algorithm L): the Euclidean quotients from the
// leading 62 bits while they are provably the true ones, applied to the full
// numbers as one 2x2 step. Boost 1.74's binary gcd shifts and subtracts the
// full numbers about once per bit; rational arithmetic calls it after every
// operation. The gcd is unique, so the result is Boost's (D-PRED-3); the
// small cases go to Boost's own.
namespace rigidref_exact_order {

using gcd_backend = cpp_int_backend<>;
using gcd_int = number<gcd_backend, et_off>;

inline void boost_gcd(gcd_backend& result, const gcd_backend& a, const gcd_backend& b) {
  eval_gcd<0u, 0u, signed_magnitude, unchecked, std::allocator<limb_type>>(result, a, b);
}

// |x| = 2^k for some k >= 0 (the limbs are the magnitude).
inline bool is_power_of_two(const gcd_backend& x) {
  const limb_type* l = x.limbs();
  const limb_type top = l[x.size() - 1];
  if (top == 0 || (top & (top - 1)) != 0) return false;
  for (unsigned i = 0; i + 1 < x.size(); ++i)
    if (l[i] != 0) return false;
  return true;
}

// The index of the lowest set bit of |x|, x != 0.
inline unsigned low_bit(const gcd_backend& x) {
  static_assert(sizeof(limb_type) == sizeof(unsigned long long));
  const limb_type* l = x.limbs();
  unsigned i = 0;
  while (l[i] == 0) ++i;
  return i * static_cast<unsigned>(sizeof(limb_type) * CHAR_BIT) + static_cast<unsigned>(__builtin_ctzll(l[i]));
}

// Boost's own division of cpp_int, past the overloads below.
inline void boost_divide(gcd_backend& result, const gcd_backend& a, const gcd_backend& b) {
  eval_divide<0u, 0u, signed_magnitude, unchecked, std::allocator<limb_type>, 0u, 0u, signed_magnitude, unchecked,
              std::allocator<limb_type>, 0u, 0u, signed_magnitude, unchecked, std::allocator<limb_type>>(result, a, b);
}

inline void lehmer_gcd(gcd_backend& result, const gcd_backend& a, const gcd_backend& b) {
  // gcd(a, 2^k) = 2^min(k, lowest bit of a): a dyadic rational's denominator
  // (every binary floating value) or an integer's 1, without a division
  // (D-PRED-9).
  if (!eval_is_zero(a) && !eval_is_zero(b) && (is_power_of_two(a) || is_power_of_two(b))) {
    gcd_int g = 1;
    g <<= std::min(low_bit(a), low_bit(b));
    result = g.backend();
    return;
  }
  if (a.size() <= 2 && b.size() <= 2) return boost_gcd(result, a, b);
  gcd_int u, v;
  u.backend() = a;
  v.backend() = b;
  if (u.sign() < 0) u = -u;
  if (v.sign() < 0) v = -v;
  if (u < v) u.swap(v);
  if (v.sign() == 0) {
    result = u.backend();
    return;
  }
  __extension__ typedef __int128 wide;
  while (v.backend().size() > 2) {
    // u >= v > 0. uh, vh: the leading bits of u and v at the same shift,
    // uh < 2^62 (D-PRED-3).
    const unsigned bits = static_cast<unsigned>(msb(u)) + 1u;
    const unsigned k = bits > 62u ? bits - 62u : 0u;
    wide uh = static_cast<wide>(static_cast<long long>(static_cast<unsigned long long>(gcd_int(u >> k))));
    wide vh = static_cast<wide>(static_cast<long long>(static_cast<unsigned long long>(gcd_int(v >> k))));
    wide A = 1, B = 0, C = 0, D = 1;
    for (;;) {
      if (vh + C <= 0 || vh + D <= 0 || uh + A < 0 || uh + B < 0) break;
      const wide q = (uh + A) / (vh + C);
      if (q != (uh + B) / (vh + D)) break;
      wide t = A - q * C;
      A = C;
      C = t;
      t = B - q * D;
      B = D;
      D = t;
      t = uh - q * vh;
      uh = vh;
      vh = t;
    }
    if (B == 0) {
      gcd_int r = u % v;
      u.swap(v);
      v.swap(r);
    } else {
      // A unimodular step (A D - B C = +-1): the gcd is kept whatever the
      // signs; with the true quotients both results are >= 0 (D-PRED-3).
      gcd_int x = gcd_int(static_cast<long long>(A)) * u + gcd_int(static_cast<long long>(B)) * v;
      gcd_int y = gcd_int(static_cast<long long>(C)) * u + gcd_int(static_cast<long long>(D)) * v;
      if (x.sign() < 0) x = -x;
      if (y.sign() < 0) y = -y;
      if (x < y) x.swap(y);
      u.swap(x);
      v.swap(y);
    }
    if (v.sign() == 0) {
      result = u.backend();
      return;
    }
  }
  // v has at most two limbs: one remainder brings u there too.
  gcd_int r = u % v;
  boost_gcd(result, v.backend(), r.backend());
}

}  // namespace rigidref_exact_order

inline void eval_gcd(cpp_int_backend<>& result, const cpp_int_backend<>& a, const cpp_int_backend<>& b) {
  rigidref_exact_order::lehmer_gcd(result, a, b);
}

// a / b for b = +-2^k: the magnitude shifted right by k, truncated towards
// zero as Boost's division truncates (by +-1 only the sign moves). Returns
// false, leaving result untouched, when b is no power of two.
inline bool divide_by_power_of_two(cpp_int_backend<>& result, const cpp_int_backend<>& a, const cpp_int_backend<>& b) {
  using rigidref_exact_order::is_power_of_two;
  using rigidref_exact_order::low_bit;
  if (!is_power_of_two(b)) return false;
  const unsigned k = low_bit(b);
  const bool negative = a.sign() != b.sign();  // read before result, which may be a or b, is written
  if (&result != &a) result = a;
  result.sign(false);
  if (k != 0) eval_right_shift(result, static_cast<double_limb_type>(k));
  result.sign(negative);  // a zero quotient stays unsigned
  return true;
}

// The divisions of boost::rational (normalisation and the cross-cancelling
// of +, -, *, /) on cpp_int: by a power of two the shift above, anything
// else Boost's own division. The quotient is the same (D-PRED-9).
inline void eval_divide(cpp_int_backend<>& result, const cpp_int_backend<>& b) {
  if (divide_by_power_of_two(result, result, b)) return;
  const cpp_int_backend<> a(result);  // Boost's in-place division copies too
  rigidref_exact_order::boost_divide(result, a, b);
}
inline void eval_divide(cpp_int_backend<>& result, const cpp_int_backend<>& a, const cpp_int_backend<>& b) {
  if (divide_by_power_of_two(result, a, b)) return;
  rigidref_exact_order::boost_divide(result, a, b);
}

// The integer square root s = floor(sqrt(x)) and its remainder r = x - s^2
// of the fixed-width unsigned integers cpp_bin_float's sqrt works on (its
// double_rep_type, twice the significand's bits): Newton's iteration from a
// double start, about six divisions, where Boost 1.74's default takes one
// step per bit of the root. s and r are unique, so every square root of mp50
// and mp100 keeps its bits (D-PRED-10). Found by argument-dependent lookup
// before Boost's template (more specialised).
template <unsigned Bits>
  requires(Bits >= 64)
inline void eval_integer_sqrt(cpp_int_backend<Bits, Bits, unsigned_magnitude, unchecked, void>& s,
                              cpp_int_backend<Bits, Bits, unsigned_magnitude, unchecked, void>& r,
                              const cpp_int_backend<Bits, Bits, unsigned_magnitude, unchecked, void>& x) {
  using I = number<cpp_int_backend<Bits, Bits, unsigned_magnitude, unchecked, void>, et_off>;
  const I X(x);
  if (X == 0) {
    s = x;
    r = x;
    return;
  }
  // The top 104 bits (an even shift away) as a double: relative error 2^-52.
  const unsigned n = static_cast<unsigned>(msb(X)) + 1;
  unsigned shift = n > 104 ? n - 104 : 0;
  shift += shift & 1;
  const double top = static_cast<double>(I(X >> shift));
  // An overestimate of sqrt(X): sqrt(top) rounded twice (2^-52 each) is
  // raised by 2^-40, which also covers X's bits below the shift (< 2^-103
  // relative), and by one after truncation.
  const double start = std::sqrt(top) * (1 + 0x1p-40);
  I S = (I(static_cast<unsigned long long>(start)) + 1) << (shift / 2);
  // From above, floor((S + X / S) / 2) decreases to floor(sqrt(X)), then stops.
  for (;;) {
    I next = (S + X / S) >> 1;
    if (next >= S) break;
    S = std::move(next);
  }
  I R = X - S * S;
  s = S.backend();
  r = R.backend();
}

}  // namespace boost::multiprecision::backends

namespace rigidref {

namespace bmp = boost::multiprecision;

// Expression templates are off everywhere: `auto s = a + b;` must be a value.
using mp50 = bmp::number<bmp::cpp_bin_float<50>, bmp::et_off>;
using mp100 = bmp::number<bmp::cpp_bin_float<100>, bmp::et_off>;
using big_int = bmp::number<bmp::cpp_int_backend<>, bmp::et_off>;
using exact = bmp::number<bmp::rational_adaptor<bmp::cpp_int_backend<>>, bmp::et_off>;

// The binary floating types, in increasing precision.
using floating_scalars = std::tuple<float, double, long double, mp50, mp100>;
// Every type, for algorithms that are rational functions of their inputs.
using all_scalars = std::tuple<float, double, long double, mp50, mp100, exact>;

template <class T>
inline constexpr bool is_exact_v = std::is_same_v<T, exact>;

template <class T>
inline constexpr bool is_binary_floating_v =
    std::is_floating_point_v<T> ||
    (bmp::is_number<T>::value && bmp::number_category<T>::value == bmp::number_kind_floating_point);

// Name used in reports and in the eval protocol's "precision" field; an
// optional scalar (mpfr.hpp) adds its own specialisation.
template <class T>
struct scalar_label;
template <>
struct scalar_label<float> { static constexpr std::string_view value = "float"; };
template <>
struct scalar_label<double> { static constexpr std::string_view value = "double"; };
template <>
struct scalar_label<long double> { static constexpr std::string_view value = "long double"; };
template <>
struct scalar_label<mp50> { static constexpr std::string_view value = "mp50"; };
template <>
struct scalar_label<mp100> { static constexpr std::string_view value = "mp100"; };
template <>
struct scalar_label<exact> { static constexpr std::string_view value = "exact"; };

template <class T>
constexpr std::string_view scalar_name() {
  return scalar_label<T>::value;
}

// Binary digits of the significand (0 for exact: it has no rounding).
template <class T>
constexpr int digits() {
  if constexpr (is_exact_v<T>) return 0;
  else return std::numeric_limits<T>::digits;
}

// Machine epsilon (2^(1-digits)); the unit in which errors are reported.
template <class T>
T epsilon() {
  static_assert(!is_exact_v<T>, "exact arithmetic has no epsilon");
  return std::numeric_limits<T>::epsilon();
}

// True when fma(a, b, c) is a single rounding for T. Boost 1.74's
// cpp_bin_float fma is a multiply then an add (DESIGN.md), so the
// error-free product falls back to Dekker's split there. (mpfr.hpp sets it
// for MPFR, whose fma is fused.)
template <class T>
inline constexpr bool has_fused_fma_v = std::is_floating_point_v<T>;

// A type with at least twice T's significand and T's exponent range, used to
// carry intermediate results of double_word arithmetic for narrow types.
// float -> double makes a double_word<double> (106 bits) the accumulator for
// float, which leaves margin for cancellation (mass.hpp uses this).
template <class T>
struct wider { using type = T; };
template <>
struct wider<float> { using type = double; };
template <class T>
using wider_t = typename wider<T>::type;

namespace detail {
// x * scale, for a scale that is a multiple of x's denominator: the integer
// numerator(x) * (scale / denominator(x)), formed without the gcd of a
// rational product. The integer frames (D-SAT-7, D-GJK-12) are built on it.
inline big_int on_scale(const exact& x, const big_int& scale) {
  return big_int(numerator(x) * (scale / denominator(x)));
}
}  // namespace detail

// isfinite for every scalar (ADL finds Boost's for multiprecision types).
template <class T>
bool is_finite(const T& x) {
  if constexpr (is_exact_v<T>) {
    return true;
  } else {
    using std::isfinite;
    return isfinite(x);
  }
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
