// accumulator<T>::from_exact for builtin T (D-PRED-7): the double word
// (hi, lo) of an exact rational from one integer division, against the two
// correct roundings it replaced (hi = round_to(q), lo = round_to(q - hi)),
// bit for bit, in W = double (accumulator<double>, <float>) and W = long
// double: random rationals of 1..6 limbs over and under, dyadic rationals,
// q = hi exactly (r = 0), q within 2^-200 relative of a W (tiny r: the
// fallback), exact ties for hi and for lo and the values just beside them
// (the sticky bit decides), either sign, exponents near both ends of W's
// normal range. detail::round_to_word is also called directly, to count
// the fast path's cases and to check it on q = hi, which from_exact's
// dyadic shortcut would otherwise take. It fails (checked by hand, one
// change at a time) with hi's ties rounded to odd or away, lo's away, with the
// sticky bit R != 0 dropped from either rounding, without the borrow in
// |r| 2^K = (2^c - t - 1) + (1 - R/D), and with lo given q's sign always.
#include "rigidref/accumulator.hpp"
#include "rigidref/convert.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace from_exact_test {

using namespace rigidref;

namespace {

template <class W>
bool same_bits(const W& x, const W& y) {
  return x == y && std::signbit(x) == std::signbit(y);
}

// The formula from_exact used before D-PRED-7: two correct roundings and a
// rational subtraction.
template <class W>
double_word<W> reference_word(const exact& q) {
  const W hi = round_to<W>(q);
  return double_word<W>(hi, round_to<W>(q - to_exact(hi)));
}

exact pow2(long k) {
  return k >= 0 ? exact(big_int(1) << k) : exact(big_int(1), big_int(big_int(1) << -k));
}

// A random integer of exactly `bits` bits (bits >= 1).
big_int random_bits(std::mt19937_64& g, int bits) {
  big_int n = 0;
  for (int have = 0; have < bits; have += 64) n = (n << 64) | big_int(g());
  n >>= (64 - bits % 64) % 64;
  n |= big_int(1) << (bits - 1);
  return n;
}

// A random normal W in [2^e, 2^(e+1)), all p significand bits random.
template <class W>
W random_w(std::mt19937_64& g, int e) {
  constexpr int p = std::numeric_limits<W>::digits;
  const std::uint64_t m = (g() >> (64 - p)) | (std::uint64_t(1) << (p - 1));
  return std::ldexp(static_cast<W>(m), e - p + 1);
}

// ulp of a normal W, exactly.
template <class W>
exact ulp(W x) {
  int e = 0;
  (void)std::frexp(x, &e);  // |x| in [2^(e-1), 2^e)
  return pow2(e - std::numeric_limits<W>::digits);
}

template <class W>
struct counts {
  int checked = 0, fast = 0, overflow = 0;
};

template <class T>
bool fast_path(const exact& q) {
  wider_t<T> hi, lo;
  return detail::round_to_word(q, hi, lo);
}

// from_exact(q) (via the accumulator of T, whose W this is) and
// round_to_word(q), where it answers, against the reference formula.
template <class T>
void check(const exact& q, counts<wider_t<T>>& n) {
  using W = wider_t<T>;
  double_word<W> want;
  try {
    want = reference_word<W>(q);
  } catch (const invalid_input&) {  // hi overflowed: q - inf has no value
    INFO("q = " << q);
    REQUIRE_THROWS_AS(accumulator<T>::from_exact(q), invalid_input);
    REQUIRE(!fast_path<T>(q));
    ++n.checked;
    ++n.overflow;
    return;
  }
  const double_word<W> got = accumulator<T>::from_exact(q);
  INFO("q = " << q << " (" << static_cast<long double>(round_to<long double>(q)) << ")");
  INFO("want " << static_cast<long double>(want.hi) << " + " << static_cast<long double>(want.lo) << ", got "
               << static_cast<long double>(got.hi) << " + " << static_cast<long double>(got.lo));
  REQUIRE(same_bits(got.hi, want.hi));
  REQUIRE(same_bits(got.lo, want.lo));
  W hi, lo;
  if (detail::round_to_word(q, hi, lo)) {
    REQUIRE(same_bits(hi, want.hi));
    REQUIRE(same_bits(lo, want.lo));
    ++n.fast;
  }
  ++n.checked;
}

// An exponent for a value of W: anywhere in the normal range, or within a
// few hundred of either end.
template <class W>
int random_exponent(std::mt19937_64& g) {
  const int min_e = std::numeric_limits<W>::min_exponent - 1, max_e = std::numeric_limits<W>::max_exponent - 1;
  switch (std::uniform_int_distribution<int>(0, 3)(g)) {
    case 0: return min_e + std::uniform_int_distribution<int>(-3, 2 * std::numeric_limits<W>::digits + 8)(g);
    case 1: return max_e - std::uniform_int_distribution<int>(-1, 4)(g);
    case 2: return std::uniform_int_distribution<int>(-60, 60)(g);
    default: return std::uniform_int_distribution<int>(min_e, max_e)(g);
  }
}

template <class T>
counts<wider_t<T>> random_rationals(std::uint64_t seed, int count) {
  using W = wider_t<T>;
  std::mt19937_64 g(seed);
  counts<W> n;
  for (int i = 0; i < count; ++i) {
    const big_int num = random_bits(g, std::uniform_int_distribution<int>(1, 6 * 64)(g));
    const big_int den = random_bits(g, std::uniform_int_distribution<int>(1, 6 * 64)(g));
    exact q(num, den);
    // Half of them moved to a random exponent (the ends of the range too).
    if (g() & 1) q *= pow2(random_exponent<W>(g) - (static_cast<long>(msb(num)) - static_cast<long>(msb(den))));
    if (g() & 1) q = -q;
    check<T>(q, n);
  }
  return n;
}

template <class T>
counts<wider_t<T>> dyadic_rationals(std::uint64_t seed, int count) {
  using W = wider_t<T>;
  constexpr int p = std::numeric_limits<W>::digits;
  std::mt19937_64 g(seed);
  counts<W> n;
  for (int i = 0; i < count; ++i) {
    const int bits = std::uniform_int_distribution<int>(1, 3 * p + 10)(g);
    big_int m = random_bits(g, bits);
    if (g() & 1) m |= 1;
    exact q = exact(m) * pow2(random_exponent<W>(g) - bits + 1);
    if (g() & 1) q = -q;
    check<T>(q, n);
  }
  return n;
}

// Values built on a random normal x of W, either sign, across the range:
// x itself (r = 0), x (1 + d) with 0 < |d| < 2^-200 (tiny r), the ties
// x + ulp(x)/2 and hi + lo + ulp(lo)/2 for a double word (hi, lo), and each
// tie moved by a non-dyadic amount far below Q's last bit (so only the
// sticky bit tells it from the tie).
template <class T>
void built_values(std::uint64_t seed, int count, counts<wider_t<T>>& on_hi, counts<wider_t<T>>& tiny,
                  counts<wider_t<T>>& ties) {
  using W = wider_t<T>;
  constexpr int p = std::numeric_limits<W>::digits;
  std::mt19937_64 g(seed);
  for (int i = 0; i < count; ++i) {
    const int e = std::clamp(random_exponent<W>(g), std::numeric_limits<W>::min_exponent - 1,
                             std::numeric_limits<W>::max_exponent - 1);  // x normal
    W x = random_w<W>(g, e);
    if (g() & 1) x = -x;
    const exact X = to_exact(x);
    // r = 0: from_exact's dyadic shortcut, and round_to_word itself.
    check<T>(X, on_hi);
    {
      W hi, lo;
      if (detail::round_to_word(X, hi, lo)) {
        REQUIRE(same_bits(hi, x));
        REQUIRE(same_bits(lo, W(0)));
        ++on_hi.fast;
      }
    }
    // Tiny r: 1/3, 5/7 ... of 2^-200..2^-300 of x.
    const exact d = exact(big_int(g() % 1000 + 1), big_int(3 * (g() % 1000) + 1)) *
                    pow2(-200 - static_cast<long>(g() % 100));
    const exact tiny_q = X * (g() & 1 ? exact(1 + d) : exact(1 - d));
    check<T>(tiny_q, tiny);
    REQUIRE(!fast_path<T>(tiny_q));
    // A tie for hi, and beside it by a sticky amount (non-dyadic: R != 0).
    const exact u = ulp(x);
    const exact step = u * pow2(-3 * p - 10) / 3;
    for (const int side : {-1, 1}) {
      const exact tie = X + side * u / 2;
      check<T>(tie, ties);
      check<T>(tie + step, ties);
      check<T>(tie - step, ties);
    }
    // A tie for lo: lo random below ulp(x)/4, at least ulp(x) 2^-30.
    const W ux = round_to<W>(u);
    W lo = random_w<W>(g, std::ilogb(ux) - 3 - static_cast<int>(g() % 27));
    if (g() & 1) lo = -lo;
    const exact L = to_exact(lo);
    if (std::fpclassify(lo) == FP_NORMAL) {
      const exact v = ulp(lo);
      const exact step2 = v * pow2(-3 * p - 10) / 3;
      for (const int side : {-1, 1}) {
        const exact tie = X + L + side * v / 2;
        check<T>(tie, ties);
        check<T>(tie + step2, ties);
        check<T>(tie - step2, ties);
      }
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("from_exact in one division gives the two roundings' bits", "[from_exact][round]", double,
                   long double) {
  using W = wider_t<TestType>;
  // long double's exponents reach 2^16383: rationals of 16000 bits, slow
  // for the reference's gcd, so a quarter of the values there.
  const int n = std::is_same_v<W, double> ? 2000 : 500;
  const counts<W> r = random_rationals<TestType>(sizeof(W) + 1, n);
  CHECK(r.checked == n);
  // A random rational misses the fast path only near the ends of the range
  // (a quarter of those moved) or with a remainder 2^-16 of an ulp short.
  CHECK(r.fast > n * 3 / 4);
  const counts<W> d = dyadic_rationals<TestType>(sizeof(W) + 2, n);
  CHECK(d.checked == n);
  CHECK(d.fast > n / 4);
  counts<W> on_hi, tiny, ties;
  built_values<TestType>(sizeof(W) + 3, n / 2, on_hi, tiny, ties);
  CHECK(on_hi.checked == n / 2);
  CHECK(on_hi.fast > n / 2 * 3 / 4);  // r = 0, but the exponent near the ends
  CHECK(tiny.fast == 0);
  // A quarter of the x lie within 2p + 8 binades of the smallest normal,
  // where lo would be subnormal: the fallback.
  CHECK(ties.fast > ties.checked / 2);
  // Zero, the extremes of W and one past: the fallback's answers.
  counts<W> ends;
  for (const W x : {W(0), std::numeric_limits<W>::min(), std::numeric_limits<W>::max(),
                    std::numeric_limits<W>::denorm_min(), W(1)}) {
    check<TestType>(to_exact(x), ends);
    check<TestType>(to_exact(x) / 3, ends);
    check<TestType>(exact(-to_exact(x)) / 3, ends);
  }
  check<TestType>(to_exact(std::numeric_limits<W>::max()) + ulp(std::numeric_limits<W>::max()) / 3, ends);
}

TEST_CASE("accumulator<float> uses the same double words as accumulator<double>", "[from_exact][round]") {
  counts<double> n;
  std::mt19937_64 g(5);
  for (int i = 0; i < 500; ++i) {
    const exact q(random_bits(g, 1 + static_cast<int>(g() % 200)), random_bits(g, 1 + static_cast<int>(g() % 200)));
    check<float>(q, n);
  }
  CHECK(n.fast > 400);
}

}  // namespace from_exact_test
