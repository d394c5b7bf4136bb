// Exact conversions between the scalar types and text.
//
//   to_exact(x)          the exact rational value of a binary float
//   round_to<T>(q)       q rounded to nearest (ties to even) in T: the
//                        "correctly rounded exact value" ulps are counted from
//   parse_exact(s)       a decimal ("-1.5e-7") or fraction ("1/3") as a rational
//   from_string<T>(s)    parse_exact then round_to: one rounding, never two
//   to_string(x)         full-precision text that reads back to the same value
//   brief_text(q)        a rational in at most a few dozen characters, for messages
//   ulp_distance(a, b)   how many representable T values apart a and b are
#pragma once

#include "rigidref/error_text.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"

#include <boost/math/special_functions/next.hpp>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

// ---- binary float -> exact -----------------------------------------------

namespace detail {

// The exact value of a finite x, peeled 32 bits at a time (any binary T).
// to_exact no longer takes it for the scalar types; kept as the reference
// the one-piece conversions are tested against (round_dyadic_test.cpp).
template <class T>
exact to_exact_by_chunks(const T& x) {
  {
    using std::floor;
    using std::frexp;
    using std::isfinite;
    using boost::multiprecision::floor;
    using std::ldexp;
    using boost::multiprecision::frexp;
    using boost::multiprecision::ldexp;
    if (!isfinite(x)) throw invalid_input("non-finite value has no exact rational value");
    if (x == 0) return exact(0);
    int e = 0;
    T m = frexp(x < 0 ? T(-x) : x, &e);  // m in [0.5, 1), exact
    // Peel the significand 32 bits at a time: each step multiplies by a power
    // of two and subtracts an integer, both exact in T.
    big_int significand = 0;
    int shift = 0;
    while (m != 0) {
      m = ldexp(m, 32);
      T chunk_value = floor(m);
      m -= chunk_value;
      significand = (significand << 32) + big_int(static_cast<std::uint64_t>(
                                                  static_cast<long double>(chunk_value)));
      shift += 32;
    }
    // value = significand * 2^(e - shift)
    exact q(significand);
    int p = e - shift;
    if (p >= 0) q *= exact(big_int(1) << p);
    else q /= exact(big_int(1) << (-p));
    return x < 0 ? exact(-q) : q;
  }
}

// The exact value of a finite builtin x (float, double, long double: at most
// 64 significand bits): its significand as one integer with the trailing
// zeros dropped, n 2^s with n odd, so n / 2^-s is already in lowest terms
// (D-PRED-5).
template <class T>
exact builtin_to_exact(const T& x) {
  static_assert(std::numeric_limits<T>::digits <= 64);
  using std::frexp;
  using std::isfinite;
  using std::ldexp;
  if (!isfinite(x)) throw invalid_input("non-finite value has no exact rational value");
  if (x == 0) return exact(0);
  int e = 0;
  const T m = frexp(x < 0 ? T(-x) : x, &e);  // m in [0.5, 1), exact
  constexpr int p = std::numeric_limits<T>::digits;
  std::uint64_t n = static_cast<std::uint64_t>(ldexp(m, p));  // m 2^p < 2^64, an integer, exact
  const int tz = __builtin_ctzll(n);
  n >>= tz;
  const int s = e - p + tz;  // |x| = n 2^s
  exact q = s >= 0 ? exact(big_int(n) << s) : exact(big_int(n), big_int(1) << -s);
  return x < 0 ? exact(-q) : q;
}

// cpp_bin_float numbers with a fixed-width significand (no allocator): the
// ones bin_float_to_exact reads directly. Any digit base and exponent type.
template <class T>
struct is_fixed_bin_float : std::false_type {};
template <unsigned D, bmp::backends::digit_base_type Base, class E, E MinE, E MaxE, bmp::expression_template_option ET>
struct is_fixed_bin_float<bmp::number<bmp::backends::cpp_bin_float<D, Base, void, E, MinE, MaxE>, ET>>
    : std::true_type {};

// The exact value of a cpp_bin_float x read from its representation: the
// significand bits() (bit_count bits, top bit set) times
// 2^(exponent - bit_count + 1), trailing zero bits dropped first so that
// n / 2^-s is already in lowest terms (D-PRED-6).
template <class T>
exact bin_float_to_exact(const T& x) {
  static_assert(is_fixed_bin_float<T>::value);
  using B = typename T::backend_type;
  const auto e = x.backend().exponent();
  if (e == B::exponent_infinity || e == B::exponent_nan)
    throw invalid_input("non-finite value has no exact rational value");
  if (e == B::exponent_zero) return exact(0);
  typename B::rep_type bits = x.backend().bits();  // fixed width: no allocation
  const unsigned tz = bmp::backends::eval_lsb(bits);
  bmp::backends::eval_right_shift(bits, tz);  // n, odd
  big_int n;
  n.backend() = bits;
  const long s = static_cast<long>(e) - (static_cast<long>(B::bit_count) - 1) + static_cast<long>(tz);  // |x| = n 2^s
  exact q = s >= 0 ? exact(big_int(n << s)) : exact(n, big_int(1) << -s);
  return x.backend().sign() ? exact(-q) : q;
}

}  // namespace detail

template <class T>
exact to_exact(const T& x) {
  if constexpr (is_exact_v<T>) {
    return x;
  } else if constexpr (std::is_floating_point_v<T>) {
    return detail::builtin_to_exact(x);
  } else if constexpr (detail::is_fixed_bin_float<T>::value) {
    return detail::bin_float_to_exact(x);
  } else {
    return detail::to_exact_by_chunks(x);
  }
}

namespace detail {

// floor(log2(q)) for q > 0.
inline long floor_log2(const exact& q) {
  const big_int num = numerator(q);
  const big_int den = denominator(q);
  long e = static_cast<long>(msb(num)) - static_cast<long>(msb(den));
  // Now 2^(e-1) < q < 2^(e+1); decide which side of 2^e q is on.
  bool at_least = e >= 0 ? num >= (den << e) : (num << (-e)) >= den;
  return at_least ? e : e - 1;
}

// An integer below 2^digits(T) into T, exactly (32-bit chunks, each step exact).
template <class T>
T integer_to(const big_int& n) {
  using std::ldexp;
  using boost::multiprecision::ldexp;
  const unsigned bits = n == 0 ? 0u : static_cast<unsigned>(msb(n)) + 1u;
  T out = 0;
  for (int chunk = static_cast<int>((bits + 31) / 32) - 1; chunk >= 0; --chunk) {
    const big_int piece = (n >> (32 * chunk)) & big_int(0xffffffffu);
    out = ldexp(out, 32) + T(static_cast<std::uint32_t>(piece));
  }
  return out;
}

}  // namespace detail

// ---- exact -> T, correctly rounded (to nearest, ties to even) ---------------

namespace detail {

// num / den rounded to nearest (ties to even) in T, for integers num > 0,
// den > 0 (any common factor: the steps below depend on the value only).
// round_to's core; also used directly where a ratio is at hand, to save
// the gcd of building the rational (verify/accuracy.hpp).
template <class T>
T round_ratio_to(big_int num, big_int den, bool negative) {
  using std::ldexp;
  using boost::multiprecision::ldexp;
  const int p = std::numeric_limits<T>::digits;
  const long min_exp = std::numeric_limits<T>::min_exponent - 1;  // smallest normal is 2^min_exp
  const long max_exp = std::numeric_limits<T>::max_exponent - 1;  // largest binade
  long e = static_cast<long>(msb(num)) - static_cast<long>(msb(den));
  // Now 2^(e-1) < q < 2^(e+1); decide which side of 2^e q is on (floor_log2).
  if (!(e >= 0 ? num >= (den << e) : (num << (-e)) >= den)) --e;
  if (e > max_exp) return negative ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  // Below the normal range the spacing stays 2^(min_exp - p + 1) (subnormals).
  const long ulp_exp = (e < min_exp ? min_exp : e) - (p - 1);
  // scaled = q / 2^ulp_exp; its integer part is the significand.
  if (ulp_exp >= 0) den <<= ulp_exp;
  else num <<= -ulp_exp;
  big_int m = num / den;
  const big_int twice_rem = (num - m * den) * 2;
  if (twice_rem > den || (twice_rem == den && (m & 1) != 0)) m += 1;
  if (m == 0) return negative ? T(-0.0) : T(0);
  T result = ldexp(detail::integer_to<T>(m), static_cast<int>(ulp_exp));  // exact, or overflow to inf
  return negative ? T(-result) : result;
}

}  // namespace detail

namespace detail {

// round_to's shortcut: a dyadic q = n / 2^k with |n| < 2^min(p, 64) and its
// exponent in the normal range is a number of T: T(n) 2^-k, no division
// (D-PRED-4). False, out untouched, for any other q (zero included).
template <class T>
bool round_dyadic(const exact& q, T& out) {
  const auto& num = q.backend().data().numerator();
  const auto& den = q.backend().data().denominator();
  if (num.is_zero()) return false;
  const unsigned long n_top = static_cast<unsigned long>(bmp::backends::eval_msb_imp(num.backend()));
  const unsigned long k = static_cast<unsigned long>(bmp::backends::eval_msb_imp(den.backend()));
  if (n_top < 64 && static_cast<long>(n_top) < std::numeric_limits<T>::digits &&
      bmp::backends::eval_lsb(den.backend()) == k) {
    const long e = static_cast<long>(n_top) - static_cast<long>(k);  // q in [2^e, 2^(e+1))
    if (e >= std::numeric_limits<T>::min_exponent - 1 && e <= std::numeric_limits<T>::max_exponent - 1) {
      using std::ldexp;
      using boost::multiprecision::ldexp;
      const std::uint64_t magnitude = static_cast<std::uint64_t>(*num.backend().limbs());
      const T x = ldexp(T(magnitude), -static_cast<int>(k));
      out = num.backend().sign() ? T(-x) : x;
      return true;
    }
  }
  return false;
}

}  // namespace detail

template <class T>
T round_to(const exact& q) {
  if constexpr (is_exact_v<T>) {
    return q;
  } else {
    if (q == 0) return T(0);
    T x;
    if (detail::round_dyadic(q, x)) return x;
    const bool negative = q < 0;
    const exact a = negative ? exact(-q) : q;
    return detail::round_ratio_to<T>(numerator(a), denominator(a), negative);
  }
}

namespace detail {

// Boost's double limb: an unsigned 128-bit integer on 64-bit targets.
using u128 = bmp::double_limb_type;

// Bits [from, from + count) of an integer n >= 0, count <= 128.
inline u128 bit_field(const big_int& n, unsigned from, unsigned count) {
  static_assert(sizeof(bmp::limb_type) == 8 && sizeof(u128) == 16);
  const bmp::limb_type* limbs = n.backend().limbs();
  const unsigned size = n.backend().size();
  const auto limb = [&](unsigned i) -> u128 { return i < size ? limbs[i] : 0; };
  const unsigned i = from / 64, s = from % 64;
  u128 v = (limb(i) | (limb(i + 1) << 64)) >> s;
  if (s != 0) v |= limb(i + 2) << (128 - s);
  if (count < 128) v &= (static_cast<u128>(1) << count) - 1;
  return v;
}

// The number of bits of x (0 for 0).
inline int bit_length(u128 x) {
  const auto top = static_cast<std::uint64_t>(x >> 64), bottom = static_cast<std::uint64_t>(x);
  return top != 0 ? 128 - __builtin_clzll(top) : bottom != 0 ? 64 - __builtin_clzll(bottom) : 0;
}

// q as the double word of a builtin W: hi = round_to<W>(q) and
// lo = round_to<W>(q - hi), the same bits, from one integer division
// (D-PRED-7). False when q is outside the cases proved there (zero, an
// exponent near either end of W's range, a remainder q - hi below
// 2^(p+1) units of Q, or subnormal): the caller rounds twice instead.
template <class W>
bool round_to_word(const exact& q, W& hi, W& lo) {
  static_assert(std::is_floating_point_v<W> && std::numeric_limits<W>::digits <= 64);
  using std::ldexp;
  constexpr int p = std::numeric_limits<W>::digits;
  constexpr long min_exp = std::numeric_limits<W>::min_exponent - 1;  // smallest normal is 2^min_exp
  constexpr long max_exp = std::numeric_limits<W>::max_exponent - 1;  // largest binade
  // Q gets B or B + 1 bits: at least 2p + 3 (and 16 more, so that a
  // remainder too short for the fast path is rare), whole limbs where that
  // keeps the cut below 128 bits.
  constexpr long B = std::min(64 * ((2 * p + 19 + 63) / 64) - 1, p + 126);
  static_assert(B >= 2 * p + 3 && B + 1 - p <= 127);
  const auto& nb = q.backend().data().numerator().backend();
  const auto& db = q.backend().data().denominator().backend();
  if (q.is_zero()) return false;
  const bool negative = nb.sign();
  const long e0 = static_cast<long>(bmp::backends::eval_msb_imp(nb)) - static_cast<long>(bmp::backends::eval_msb_imp(db));
  if (e0 - 1 < min_exp || e0 + 1 > max_exp) return false;  // floor(log2 |q|) is e0 - 1 or e0
  const long K = B - e0;
  big_int num, den;
  num.backend() = nb;
  if (negative) num.backend().negate();
  den.backend() = db;
  if (K >= 0) num <<= K;
  else den <<= -K;
  big_int Q, R;
  divide_qr(num, den, Q, R);  // |q| 2^K = Q + R / den
  const bool rest = R != 0;
  // m 2^e (m of p bits) one unit up, carrying into the exponent at 2^p.
  const auto next_significand = [](std::uint64_t& m, long& e) {
    if (m == (~std::uint64_t(0) >> (64 - p))) {
      m = std::uint64_t(1) << (p - 1);
      ++e;
    } else {
      ++m;
    }
  };
  const unsigned c = static_cast<unsigned>(msb(Q)) + 1u - p;  // cut bits below hi's significand
  std::uint64_t m = static_cast<std::uint64_t>(bit_field(Q, c, p));
  const u128 cut = bit_field(Q, 0, c);
  const u128 half = static_cast<u128>(1) << (c - 1);
  const bool up = cut > half || (cut == half && (rest || (m & 1) != 0));
  // |r| 2^K = G + f, 0 <= f < 1, sticky = (f != 0), r = q - hi.
  const u128 G = up ? (static_cast<u128>(1) << c) - cut - (rest ? 1 : 0) : cut;
  long e_hi = static_cast<long>(c) - K;  // hi = m 2^e_hi
  if (up) next_significand(m, e_hi);
  const W h = ldexp(static_cast<W>(m), static_cast<int>(e_hi));  // normal and finite: e0 - 1 .. e0 + 1
  hi = negative ? W(-h) : h;
  if (G == 0 && !rest) {  // r = 0: round_to's zero, +0
    lo = W(0);
    return true;
  }
  const int g = bit_length(G);
  if (g < p + 2) return false;  // f would be more than a sticky bit
  const long e_r = g - 1 - K;  // floor(log2 |r|)
  if (e_r < min_exp) return false;  // lo subnormal
  const unsigned c2 = static_cast<unsigned>(g - p);
  std::uint64_t m2 = static_cast<std::uint64_t>(G >> c2);
  const u128 cut2 = G & ((static_cast<u128>(1) << c2) - 1);
  const u128 half2 = static_cast<u128>(1) << (c2 - 1);
  const bool up2 = cut2 > half2 || (cut2 == half2 && (rest || (m2 & 1) != 0));
  long e_lo = static_cast<long>(c2) - K;
  if (up2) next_significand(m2, e_lo);
  const W l = ldexp(static_cast<W>(m2), static_cast<int>(e_lo));
  lo = negative != up ? W(-l) : l;  // r has q's sign when hi was rounded toward zero
  return true;
}

}  // namespace detail

// ---- text -> exact ----------------------------------------------------------

// Largest decimal exponent accepted in text. 10^20000 is far outside every
// finite type but mp50/mp100; beyond it the rational itself becomes the cost.
inline constexpr long max_decimal_exponent = 20000;

namespace detail {

inline bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

// A non-empty string of decimal digits as an integer. Leading zeros are
// dropped first: Boost's string constructor reads "010" as octal (8), and
// throws on "0429" (found by the eval fuzzer).
inline big_int decimal_integer(std::string_view digits) {
  const auto first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) return big_int(0);
  return big_int(std::string(digits.substr(first)));
}

inline exact parse_decimal(std::string_view text) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  long exponent = 0;
  if (auto epos = s.find_first_of("eE"); epos != std::string_view::npos) {
    std::string_view es = s.substr(epos + 1);
    s = s.substr(0, epos);
    bool eneg = false;
    if (!es.empty() && (es[0] == '+' || es[0] == '-')) {
      eneg = es[0] == '-';
      es.remove_prefix(1);
    }
    if (!all_digits(es)) throw invalid_input("malformed exponent in number " + quoted_excerpt(text));
    if (es.size() > 6) throw invalid_input("exponent out of range in " + quoted_excerpt(text));
    exponent = std::stol(std::string(es));
    if (eneg) exponent = -exponent;
  }
  std::string digits;
  if (auto dot = s.find('.'); dot != std::string_view::npos) {
    std::string_view ip = s.substr(0, dot), fp = s.substr(dot + 1);
    if ((ip.empty() && fp.empty()) || (!ip.empty() && !all_digits(ip)) || (!fp.empty() && !all_digits(fp)))
      throw invalid_input("malformed number " + quoted_excerpt(text));
    digits = std::string(ip) + std::string(fp);
    exponent -= static_cast<long>(fp.size());
  } else {
    if (!all_digits(s)) throw invalid_input("malformed number " + quoted_excerpt(text));
    digits = std::string(s);
  }
  const auto first = digits.find_first_not_of('0');
  if (first == std::string::npos) return exact(0);
  digits.erase(0, first);
  const long magnitude = exponent + static_cast<long>(digits.size());
  if (magnitude > max_decimal_exponent || magnitude < -max_decimal_exponent)
    throw invalid_input("number " + quoted_excerpt(text) + " is out of the supported range (|exponent| <= 20000)");
  big_int mantissa = decimal_integer(digits);  // no leading zero left here; one rule for both paths
  big_int ten = 10;
  exact q(mantissa);
  if (exponent > 0) q *= exact(pow(ten, static_cast<unsigned>(exponent)));
  else if (exponent < 0) q /= exact(pow(ten, static_cast<unsigned>(-exponent)));
  return negative ? exact(-q) : q;
}

}  // namespace detail

// A decimal, or with allow_fraction also "p/q" (integers), as an exact rational.
inline exact parse_exact(std::string_view text, bool allow_fraction = true) {
  if (text.empty()) throw invalid_input("empty string where a number was expected");
  if (auto slash = text.find('/'); slash != std::string_view::npos) {
    if (!allow_fraction)
      throw invalid_input("fraction " + quoted_excerpt(text) + " is only accepted with precision \"exact\"");
    std::string_view ns = text.substr(0, slash), ds = text.substr(slash + 1);
    std::string_view nbody = ns;
    if (!nbody.empty() && (nbody[0] == '-' || nbody[0] == '+')) nbody.remove_prefix(1);
    if (!detail::all_digits(nbody) || !detail::all_digits(ds))
      throw invalid_input("malformed fraction " + quoted_excerpt(text) + " (expected integers p/q)");
    const big_int d = detail::decimal_integer(ds);
    if (d == 0) throw invalid_input("fraction " + quoted_excerpt(text) + " has a zero denominator");
    big_int n = detail::decimal_integer(nbody);
    if (!ns.empty() && ns[0] == '-') n = -n;
    return exact(n, d);
  }
  return detail::parse_decimal(text);
}

// Text to T with a single correct rounding (a string "0.1" is 1/10 in exact).
template <class T>
T from_string(std::string_view text) {
  return round_to<T>(parse_exact(text, is_exact_v<T>));
}

// ---- T -> text ---------------------------------------------------------------

// Shortest text that reads back to the same value for float/double/long
// double; max_digits10 significant digits for multiprecision types; "p/q" or
// an integer for exact.
template <class T>
std::string to_string(const T& x) {
  if constexpr (std::is_floating_point_v<T>) {
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, x);
    return std::string(buf, res.ptr);
  } else if constexpr (is_exact_v<T>) {
    return x.str();
  } else {
    return x.str(std::numeric_limits<T>::max_digits10, std::ios_base::scientific);
  }
}

// A rational as an error message shows it: its exact text when that has at
// most excerpt_chars characters, else "about" and 7 significant digits
// ("about 1.600000e-302"); never the hundreds of digits of a long fraction.
inline std::string brief_text(const exact& q) {
  std::string text = to_string(q);
  if (text.size() <= excerpt_chars) return text;
  return "about " + round_to<mp50>(q).str(6, std::ios_base::scientific);  // 6 digits after the point
}

// ---- distances -----------------------------------------------------------------

// Number of representable steps of T from a to b (0 when equal), for finite
// a and b of a binary type; +infinity when either is not finite.
template <class T>
double ulp_distance(const T& a, const T& b) {
  static_assert(!is_exact_v<T>, "exact values have no ulps");
  using std::abs;
  using boost::multiprecision::abs;
  if (!is_finite(a) || !is_finite(b)) return std::numeric_limits<double>::infinity();
  return static_cast<double>(abs(boost::math::float_distance(a, b)));
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
