// verify::correctly_rounded_sqrt (D-PRED-8), the accuracy tables' square
// root of an oracle value, against Boost's sqrt for cpp_bin_float, bit for
// bit, in oracle_float (230 digits), mp100 and mp50: significands of every
// width at exponents across a wide range, exact squares (the root is
// representable), squares of midpoints between neighbours rounded and
// stepped by one ulp (the closest calls for the rounding test), powers of
// two and their neighbours (the root's lower neighbour at a binade edge is
// half an ulp closer), and zero. Checked to fail (by hand, one change at a
// time) with the lower midpoint of a power of two taken as (2 mc - 1) 2^(ec-1),
// and with Newton's result returned without the rounding test.
#include "rigidref/convert.hpp"
#include "rigidref/verify/oracle_sqrt.hpp"

#include <catch2/catch.hpp>

#include <boost/math/special_functions/next.hpp>

#include <random>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace oracle_sqrt_test {

using namespace rigidref;
namespace bm = boost::multiprecision;

namespace {

template <class F>
F random_value(std::mt19937_64& g, int kind) {
  big_int m = 0;
  for (int k = 0; k < 13; ++k) m = (m << 64) + big_int(g());
  const int e = static_cast<int>(g() % 4000) - 2000;
  switch (kind) {
    case 0:  // a full significand (rounded from 832 bits)
      return bm::ldexp(F(m), e - 832);
    case 1: {  // an exact square when the root has at most half the bits
      const big_int r = m >> (64 * 13 - 1 - static_cast<int>(g() % 300));
      const F c = bm::ldexp(F(r), static_cast<int>(g() % 200) - 100);
      return F(c * c);
    }
    case 2: {  // beside the square of a midpoint between two neighbours
      const F c = bm::ldexp(F(m), static_cast<int>(g() % 400) - 200 - 832);
      const exact mid = (to_exact(c) + to_exact(F(boost::math::float_next(c)))) / 2;
      F v = round_to<F>(exact(mid * mid));
      const int step = static_cast<int>(g() % 3) - 1;
      if (step > 0) v = boost::math::float_next(v);
      if (step < 0) v = boost::math::float_prior(v);
      return v;
    }
    default: {  // a power of two or a neighbour
      F v = bm::ldexp(F(1), static_cast<int>(g() % 400) - 200);
      const int step = static_cast<int>(g() % 3) - 1;
      if (step > 0) v = boost::math::float_next(v);
      if (step < 0) v = boost::math::float_prior(v);
      return v;
    }
  }
}

template <class F>
void same_as_boost(std::uint64_t seed, int count) {
  using std::sqrt;
  std::mt19937_64 g(seed);
  int differ = 0;
  for (int i = 0; i < count; ++i) {
    const F v = random_value<F>(g, i % 4);
    const F want(sqrt(v));
    const F got = verify::correctly_rounded_sqrt(v);
    if (!(got == want)) {
      ++differ;
      if (differ <= 3) FAIL_CHECK("case " << i << " (kind " << i % 4 << "): v = " << to_string(v));
    }
  }
  CHECK(differ == 0);
}

}  // namespace

TEST_CASE("correctly rounded oracle sqrt: Boost's bits in oracle_float, mp100, mp50 (D-PRED-8)", "[oracle][sqrt]") {
  same_as_boost<verify::oracle_float>(20261128, 800);
  same_as_boost<mp100>(20261129, 800);
  same_as_boost<mp50>(20261130, 800);
  CHECK(verify::correctly_rounded_sqrt(verify::oracle_float(0)) == 0);
  CHECK(verify::correctly_rounded_sqrt(verify::oracle_float(4)) == 2);
  CHECK(verify::correctly_rounded_sqrt(mp100(2)) == sqrt(mp100(2)));
}

TEST_CASE("sqrt_oracle: the root of an exact rational through oracle_float (D-PRED-8)", "[oracle][sqrt]") {
  using std::sqrt;
  std::mt19937_64 g(7);
  for (int i = 0; i < 200; ++i) {
    const exact q(big_int(g() >> (g() % 60)) + 1, big_int(g() >> (g() % 60)) + 1);
    const verify::oracle_float v = verify::oracle_float(numerator(q)) / verify::oracle_float(denominator(q));
    CHECK(verify::sqrt_oracle(q) == to_exact(verify::oracle_float(sqrt(v))));
  }
}

}  // namespace oracle_sqrt_test
