// The conversions between binary floats and `exact` (convert.hpp): to_exact
// of a builtin float in one piece (D-PRED-5) against the 32-bit peeling it
// replaced, on random bit patterns (subnormals, infinities and NaN included);
// round_to's dyadic shortcut (D-PRED-4) against the general correctly
// rounded path (detail::round_ratio_to), bit for bit, in every
// binary type: numerators of 1..66 bits, exponents across the whole range
// (subnormals, the smallest normal, the largest finite, overflow), either
// sign, and a few non-dyadic values that must not take the shortcut.
// to_exact of cpp_bin_float numbers read from their representation
// (D-PRED-6) against the same peeling, in mp50, mp100 and the wide types
// (the accumulators' 120 and 220 digits, the oracle's 230).
#include "rigidref/accumulator.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/verify/accuracy.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace round_dyadic_test {

using namespace rigidref;

namespace {

template <class T>
bool same_bits(const T& x, const T& y) {
  using std::isnan;
  using std::signbit;
  return (x == y && signbit(x) == signbit(y)) || (isnan(x) && isnan(y));
}

// n 2^s for random n of 1..66 bits and s across T's exponent range and
// beyond, against round_ratio_to on the same numerator and denominator.
template <class T>
int check_type(std::uint64_t seed, int count) {
  std::mt19937_64 g(seed);
  // mp50/mp100's exponent range is about +-2^31: their edges are not
  // reachable with a rational of a reasonable size, so +-3000 there.
  const int min_e = std::max(std::numeric_limits<T>::min_exponent, -3000);
  const int max_e = std::min(std::numeric_limits<T>::max_exponent, 3000);
  const int lo = min_e - std::numeric_limits<T>::digits - 70;
  const int hi = max_e + 4;
  int checked = 0;
  for (int i = 0; i < count; ++i) {
    const int bits = std::uniform_int_distribution<int>(1, 66)(g);
    big_int n = big_int(g()) | (big_int(1) << 65);
    n >>= 66 - bits;  // exactly `bits` bits
    if (std::uniform_int_distribution<int>(0, 3)(g) == 0) n |= 1;
    // Exponents near the edges of the range half the time.
    int s = std::uniform_int_distribution<int>(lo, hi)(g);
    if (std::uniform_int_distribution<int>(0, 1)(g) == 0) {
      const int edges[] = {min_e - 1, max_e - 1, 0};
      s = edges[std::uniform_int_distribution<int>(0, 2)(g)] - bits + 1 + std::uniform_int_distribution<int>(-3, 3)(g);
    }
    const bool negative = std::uniform_int_distribution<int>(0, 1)(g) == 1;
    const big_int num = s >= 0 ? big_int(n << s) : n;
    big_int den = s >= 0 ? big_int(1) : big_int(big_int(1) << -s);
    if (std::uniform_int_distribution<int>(0, 4)(g) == 0) den *= 3;  // not dyadic: the general path
    const exact q = negative ? exact(-num, den) : exact(num, den);
    const T want = detail::round_ratio_to<T>(num, den, negative);
    INFO("n = " << n << ", s = " << s << ", negative = " << negative);
    REQUIRE(same_bits(round_to<T>(q), want));
    ++checked;
  }
  return checked;
}

}  // namespace

TEST_CASE("round_to's dyadic shortcut gives the general path's bits", "[round][dyadic]") {
  CHECK(check_type<float>(1, 4000) == 4000);
  CHECK(check_type<double>(2, 4000) == 4000);
  CHECK(check_type<long double>(3, 2000) == 2000);
  CHECK(check_type<mp50>(4, 500) == 500);
  CHECK(check_type<mp100>(5, 500) == 500);
}

TEST_CASE("round_to's dyadic shortcut gives the general path's bits, long sweep", "[.][round][dyadic][long]") {
  CHECK(check_type<float>(11, 200000) == 200000);
  CHECK(check_type<double>(12, 200000) == 200000);
  CHECK(check_type<long double>(13, 100000) == 100000);
  CHECK(check_type<mp100>(15, 20000) == 20000);
}

namespace {

// The one-piece conversion `one` of x equals the chunked one, numerator and
// denominator, or both throw invalid_input.
template <class T, class One>
void require_same_as_chunks(const T& x, One one) {
  bool chunk_threw = false, one_threw = false;
  exact want, got;
  try {
    want = detail::to_exact_by_chunks(x);
  } catch (const invalid_input&) {
    chunk_threw = true;
  }
  try {
    got = one(x);
  } catch (const invalid_input&) {
    one_threw = true;
  }
  REQUIRE(chunk_threw == one_threw);
  if (!one_threw) {
    REQUIRE(numerator(got) == numerator(want));
    REQUIRE(denominator(got) == denominator(want));
  }
}

// Random bit patterns of T (every binade, subnormals, zeros, inf, NaN): the
// one-piece conversion equals the chunked one, or both throw invalid_input.
template <class T, class Bits>
int check_to_exact(std::uint64_t seed, int count) {
  std::mt19937_64 g(seed);
  int checked = 0;
  for (int i = 0; i < count; ++i) {
    T x;
    if constexpr (sizeof(T) <= sizeof(Bits)) {
      const Bits b = static_cast<Bits>(g());
      std::memcpy(&x, &b, sizeof(T));
    } else {  // long double: a random significand and exponent
      x = std::ldexp(static_cast<T>(g() | 1), std::uniform_int_distribution<int>(-16500, 16300)(g));
      if (g() & 1) x = -x;
    }
    INFO("x = " << static_cast<long double>(x));
    require_same_as_chunks(x, [](const T& v) { return detail::builtin_to_exact(v); });
    ++checked;
  }
  return checked;
}

}  // namespace

TEST_CASE("to_exact of builtin floats in one piece equals the chunked conversion", "[round][to_exact]") {
  CHECK(check_to_exact<float, std::uint32_t>(21, 20000) == 20000);
  CHECK(check_to_exact<double, std::uint64_t>(22, 20000) == 20000);
  CHECK(check_to_exact<long double, std::uint64_t>(23, 5000) == 5000);
  for (const double x : {0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 1.0, -3.0})
    CHECK(detail::builtin_to_exact(x) == detail::to_exact_by_chunks(x));
}

namespace {

// bin_float_to_exact against to_exact_by_chunks, numerator and denominator
// both, or both throwing invalid_input.
template <class T>
void require_same_exact(const T& x) {
  INFO("x = " << x.str(0, std::ios_base::scientific) << ", exponent " << x.backend().exponent());
  // The dispatch itself: it must take the one-piece route.
  require_same_as_chunks(x, [](const T& v) { return to_exact(v); });
}

// Random significands (every bit, or a few bits only: many trailing zeros),
// powers of two, all-ones significands, exponents from -20000 to 20000 and
// near 0, either sign; zeros, infinities, NaN. The exponent range of these
// types is about +-2^31: its edges would need rationals of 2^31 bits, so
// the values stay within +-20000 (the exponent arithmetic is in long).
template <class T>
int check_bin_float(std::uint64_t seed, int count) {
  static_assert(detail::is_fixed_bin_float<T>::value);
  using std::ldexp;
  using boost::multiprecision::ldexp;
  constexpr int p = std::numeric_limits<T>::digits;
  std::mt19937_64 g(seed);
  int checked = 0;
  for (int i = 0; i < count; ++i) {
    const int kind = std::uniform_int_distribution<int>(0, 3)(g);
    T m = 0;
    if (kind == 0) {  // 2^k
      m = 1;
    } else if (kind == 1) {  // all p bits set
      m = ldexp(T(1), p) - 1;
    } else {  // random bits, p of them or a few
      const int bits = kind == 2 ? p : std::uniform_int_distribution<int>(1, 70)(g);
      for (int have = 0; have < bits; have += 32) {
        const int take = std::min(32, bits - have);
        m = ldexp(m, take) + T(static_cast<std::uint32_t>(g() >> (64 - take)));
      }
      if (m == 0) m = 1;
    }
    const int e = std::uniform_int_distribution<int>(0, 1)(g) == 0 ? std::uniform_int_distribution<int>(-20000, 20000)(g)
                                                                    : std::uniform_int_distribution<int>(-2 * p, p)(g);
    T x = ldexp(m, e);  // exact: m has at most p bits
    if (g() & 1) x = -x;
    require_same_exact(x);
    ++checked;
  }
  for (const T& x : {T(0), T(-T(0)), T(1), T(-1), T(0.5), T(3), std::numeric_limits<T>::epsilon(),
                     T(1) - std::numeric_limits<T>::epsilon() / 2, T(1) + std::numeric_limits<T>::epsilon()}) {
    require_same_exact(x);
    ++checked;
  }
  for (const T& x : {std::numeric_limits<T>::infinity(), T(-std::numeric_limits<T>::infinity()),
                     std::numeric_limits<T>::quiet_NaN()}) {
    CHECK_THROWS_AS(to_exact(x), invalid_input);
    CHECK_THROWS_AS(detail::to_exact_by_chunks(x), invalid_input);
    ++checked;
  }
  return checked;
}

using wide100 = accumulator<mp100>::type;  // 220 digits
using wide50 = accumulator<mp50>::type;    // 120 digits

}  // namespace

TEST_CASE("to_exact of cpp_bin_float in one piece equals the chunked conversion", "[round][to_exact]") {
  CHECK(check_bin_float<mp50>(31, 3000) == 3012);
  CHECK(check_bin_float<mp100>(32, 3000) == 3012);
  CHECK(check_bin_float<wide50>(33, 1000) == 1012);
  CHECK(check_bin_float<wide100>(34, 1000) == 1012);
  CHECK(check_bin_float<verify::oracle_float>(35, 1000) == 1012);
  // A value built from its parts: the significand's top bit at the exponent.
  mp100 x = 1;
  x.backend().exponent() = 5;
  CHECK(to_exact(x) == exact(32));
  CHECK(to_exact(mp50("-0.375")) == exact(-3, 8));
}

}  // namespace round_dyadic_test
