// detail/mp_limbs.hpp against Boost's integers, operation by operation: the
// roots' exact test (D-EPA-22) runs on it, so each operation must give
// Boost's value exactly, signs and zeros included.
#include "rigidref/detail/mp_limbs.hpp"
#include "rigidref/verify/random.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

namespace mp_limbs_test {

using namespace rigidref;
namespace {

// A signed integer of 0..limbs limbs: random limbs, all-ones and zero limbs
// (carries and borrows across limbs), and single bits.
big_int random_integer(verify::rng& g, int limbs) {
  big_int x = 0;
  const int n = verify::uniform_int(g, 0, limbs);
  const int kind = verify::uniform_int(g, 0, 3);
  for (int i = 0; i < n; ++i) {
    std::uint64_t w = g();
    if (kind == 1) w = verify::uniform_int(g, 0, 1) ? ~std::uint64_t(0) : 0;
    if (kind == 2) w = i + 1 == n ? 1 : 0;
    x = (x << 64) + w;
  }
  if (kind == 3 && n > 0) x = big_int(1) << verify::uniform_int(g, 0, 64 * n - 1);
  return verify::uniform_int(g, 0, 1) ? big_int(-x) : x;
}

}  // namespace

// Every operation on operands of up to K / 2 limbs (so that a product and
// a shift by up to 32 K - 64 bits fit), n random pairs.
template <unsigned K>
void every_operation(std::uint64_t seed, int n) {
  using L = detail::mp_limb_int<K>;
  verify::rng g(seed);
  const int half = static_cast<int>(K / 2);
  for (int k = 0; k < n; ++k) {
    const big_int a = random_integer(g, half), b = random_integer(g, half);
    const L la(a), lb(b);
    REQUIRE(big_int(la) == a);
    REQUIRE(big_int(la + lb) == a + b);
    REQUIRE(big_int(la - lb) == a - b);
    REQUIRE(big_int(la * lb) == a * b);
    REQUIRE(big_int(-la) == -a);
    REQUIRE((la < lb) == (a < b));
    REQUIRE((la <= lb) == (a <= b));
    REQUIRE((la == lb) == (a == b));
    REQUIRE((la > lb) == (a > b));
    REQUIRE((la == L(a)) == true);
    const long s = verify::uniform_int(g, 0, 32 * static_cast<long>(K) - 64);
    // Boost shifts the magnitude of a signed-magnitude integer (toward zero).
    const big_int mag = a < 0 ? big_int(-a) : a;
    REQUIRE(big_int(la << s) == (a < 0 ? big_int(-(mag << s)) : big_int(mag << s)));
    REQUIRE(big_int(la >> s) == (a < 0 ? big_int(-(mag >> s)) : big_int(mag >> s)));
    if (a != 0) {
      REQUIRE(msb(la) == msb(mag));
      const unsigned i = static_cast<unsigned>(verify::uniform_int(g, 0, 32 * static_cast<long>(K) + 16));
      REQUIRE(bit_test(la, i) == bit_test(mag, i));
      REQUIRE(static_cast<std::uint64_t>(la & 0x1fffffffffffffULL) ==
              static_cast<std::uint64_t>(mag & 0x1fffffffffffffULL));
    }
    // Zero is never negative: a difference of equals, a product with zero.
    REQUIRE(!(la - la).negative());
    REQUIRE(!(la * L(0)).negative());
  }
}

// A result beyond K limbs throws instead of writing past them.
template <unsigned K>
void beyond_the_width() {
  using L = detail::mp_limb_int<K>;
  const L top = L(1) << (64 * K - 1);
  REQUIRE(msb(top) == 64 * K - 1);
  REQUIRE_THROWS_AS(top << 1, std::logic_error);
  REQUIRE_THROWS_AS(top + top, std::logic_error);
  REQUIRE_THROWS_AS((L(1) << 64 * (K / 2 + 1)) * (L(1) << 64 * (K / 2)), std::logic_error);
  REQUIRE_THROWS_AS(L(big_int(1) << 64 * K), std::logic_error);
  REQUIRE_THROWS_AS(msb(L(0)), std::logic_error);
  // The widest product that fits.
  REQUIRE(big_int((L(1) << 64 * (K / 2) - 1) * (L(1) << 64 * (K / 2) - 1)) == big_int(1) << (64 * K - 2));
}

// The roots' three widths (mp_sqrt.hpp): 12 limbs for mp50, 16 and 24 for
// the wider tests of mp100.
TEST_CASE("mp limbs: every operation gives Boost's integer", "[mp]") {
  every_operation<12>(20261129, 20000);
  every_operation<16>(20261130, 10000);
  every_operation<24>(20261131, 10000);
  using L = detail::mp_limb_int<12>;
  // Small constructors as the roots use them.
  REQUIRE(big_int(L(std::int64_t(-5))) == -5);
  REQUIRE(big_int(L(~std::uint64_t(0))) == big_int(~std::uint64_t(0)));
  REQUIRE(big_int(2 * L(big_int(7)) - 1) == 13);
  L y(big_int(41));
  ++y;
  REQUIRE(big_int(y) == 42);
}

TEST_CASE("mp limbs: a result beyond the width throws instead of writing past it", "[mp]") {
  beyond_the_width<12>();
  beyond_the_width<16>();
  beyond_the_width<24>();
}

}  // namespace mp_limbs_test
