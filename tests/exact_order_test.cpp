// The order and the gcd of `exact` (scalar.hpp; D-PRED-2, D-PRED-3) against
// Boost's own: comparisons against boost::rational's operator< and
// operator== (continued fractions), which Boost's default comparisons used
// before, on every pair, equal values, equal denominators, integers, zero
// and either sign included; the gcd and the quotients against Boost's binary
// gcd and division, on general integers and on powers of two. And the
// integer square root of mp50's and mp100's sqrt (D-PRED-10) against Boost's
// default, bit by bit, on random integers of every length, squares and their
// neighbours, and powers of two and their neighbours.
#include "rigidref/scalar.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace exact_order_test {

using namespace rigidref;

namespace {

// An integer of up to `limbs` random 64-bit limbs, often small, either sign.
big_int random_integer(std::mt19937_64& g, int limbs) {
  big_int n = 0;
  const int k = std::uniform_int_distribution<int>(0, limbs)(g);
  for (int i = 0; i < k; ++i) n = (n << 64) + big_int(g());
  if (std::uniform_int_distribution<int>(0, 3)(g) == 0) n = big_int(std::uniform_int_distribution<int>(-3, 3)(g));
  return std::uniform_int_distribution<int>(0, 1)(g) == 0 ? big_int(-n) : n;
}

exact random_rational(std::mt19937_64& g) {
  big_int d = random_integer(g, 2);
  if (d < 0) d = -d;  // boost::rational over cpp_int rejects a negative denominator
  if (d == 0) d = 1;
  if (std::uniform_int_distribution<int>(0, 4)(g) == 0) d = 1;  // integers
  return exact(random_integer(g, 3), d);
}

// Partners of x: itself rebuilt, neighbours on its denominator, a value a
// few parts in 2^200 away, its negation, and an unrelated value.
std::vector<exact> partners(std::mt19937_64& g, const exact& x) {
  const big_int n = numerator(x), d = denominator(x);
  const big_int tiny = big_int(1) << 200;
  return {exact(n * 7, d * 7), exact(n + 1, d), exact(n - 1, d), exact(n * tiny + 1, d * tiny),
          exact(n * tiny - 1, d * tiny), exact(-x), exact(0), random_rational(g)};
}

// The comparisons of `exact` against boost::rational's operators on the
// same values; returns the number of pairs checked.
int check_pairs(std::uint64_t seed, int count) {
  std::mt19937_64 g(seed);
  int checked = 0;
  for (int i = 0; i < count; ++i) {
    const exact x = random_rational(g);
    for (const exact& y : partners(g, x)) {
      const auto& rx = x.backend().data();
      const auto& ry = y.backend().data();
      const bool lt = rx < ry, eq = rx == ry, gt = ry < rx;
      INFO("x = " << x << ", y = " << y);
      REQUIRE((x < y) == lt);
      REQUIRE((x > y) == gt);
      REQUIRE((x == y) == eq);
      REQUIRE((x != y) == !eq);
      REQUIRE((x <= y) == !gt);
      REQUIRE((x >= y) == !lt);
      for (const long long k : {0LL, 1LL, -1LL, 3LL, -7LL}) {
        const exact ek(k);
        const auto& rk = ek.backend().data();
        REQUIRE((x < k) == (rx < rk));
        REQUIRE((x > k) == (rk < rx));
        REQUIRE((x == k) == (rx == rk));
        REQUIRE((k < x) == (rk < rx));
      }
      ++checked;
    }
  }
  return checked;
}

}  // namespace

TEST_CASE("exact comparisons agree with boost::rational's", "[exact][order]") {
  CHECK(check_pairs(20261127, 3000) == 3000 * 8);
}

TEST_CASE("exact comparisons agree with boost::rational's, long sweep", "[.][exact][order][long]") {
  CHECK(check_pairs(1, 200000) == 200000 * 8);
}

namespace {

// gcd, a / b and a /= b through the library's overloads (Lehmer, D-PRED-3;
// the powers of two, D-PRED-9) against Boost's own binary gcd and division;
// quotients where b != 0, a zero quotient without a sign.
void require_as_boosts(const big_int& a, const big_int& b) {
  namespace be = boost::multiprecision::backends;
  INFO("a = " << a << ", b = " << b);
  big_int want_gcd;
  be::rigidref_exact_order::boost_gcd(want_gcd.backend(), a.backend(), b.backend());
  REQUIRE(gcd(a, b) == want_gcd);
  if (b == 0) return;
  big_int want;
  be::rigidref_exact_order::boost_divide(want.backend(), a.backend(), b.backend());
  const big_int quotient = a / b;
  REQUIRE(quotient == want);
  REQUIRE(quotient.backend().sign() == want.backend().sign());  // no negative zero
  big_int in_place = a;
  in_place /= b;
  REQUIRE(in_place == want);
}

// On integers with a planted common factor, of 0..40 limbs, either sign;
// returns the number of pairs checked.
int check_gcds(std::uint64_t seed, int count) {
  std::mt19937_64 g(seed);
  int checked = 0;
  for (int i = 0; i < count; ++i) {
    const big_int common = random_integer(g, std::uniform_int_distribution<int>(0, 8)(g));
    const int la = std::uniform_int_distribution<int>(0, 32)(g), lb = std::uniform_int_distribution<int>(0, 32)(g);
    const big_int x = random_integer(g, la) * common, y = random_integer(g, lb) * common;
    for (const auto& [a, b] : {std::pair{x, y}, std::pair{y, x}, std::pair{x, x}, std::pair{x, big_int(x + 1)}}) {
      require_as_boosts(a, b);
      ++checked;
    }
  }
  return checked;
}

}  // namespace

TEST_CASE("exact gcd (Lehmer) agrees with Boost's binary gcd", "[exact][gcd]") {
  CHECK(check_gcds(20261127, 1500) == 1500 * 4);
}

TEST_CASE("exact gcd (Lehmer) agrees with Boost's binary gcd, long sweep", "[.][exact][gcd][long]") {
  CHECK(check_gcds(2, 100000) == 100000 * 4);
}

namespace {

// Powers of two and their multiples (D-PRED-9): +-2^k for k up to 300, 1,
// odd and even multiples of them, zero, of 0..6 limbs, either sign.
big_int random_dyadic_operand(std::mt19937_64& g) {
  const int k = std::uniform_int_distribution<int>(0, 300)(g);
  switch (std::uniform_int_distribution<int>(0, 4)(g)) {
    case 0: return big_int(1) << k;
    case 1: return big_int(-1) << k;
    case 2: return big_int(std::uniform_int_distribution<int>(-1, 1)(g));
    default: return random_integer(g, std::uniform_int_distribution<int>(0, 6)(g)) << k;
  }
}

// The same comparisons on operands where one or both are powers of two or
// carry one; the quotients include inexact ones (2^k not dividing a), which
// must keep Boost's truncation. Returns the pairs checked.
int check_power_of_two_paths(std::uint64_t seed, int count) {
  std::mt19937_64 g(seed);
  int checked = 0;
  for (int i = 0; i < count; ++i) {
    const big_int x = random_dyadic_operand(g), y = random_dyadic_operand(g);
    for (const auto& [a, b] : {std::pair{x, y}, std::pair{y, x}, std::pair{big_int(x * y), y}, std::pair{x, x}}) {
      require_as_boosts(a, b);
      ++checked;
    }
  }
  return checked;
}

}  // namespace

TEST_CASE("exact gcd and division by powers of two agree with Boost's", "[exact][gcd]") {
  CHECK(check_power_of_two_paths(20261128, 3000) == 3000 * 4);
}

TEST_CASE("exact gcd and division by powers of two agree with Boost's, long sweep", "[.][exact][gcd][long]") {
  CHECK(check_power_of_two_paths(3, 200000) == 200000 * 4);
}

// s = floor(sqrt(x)), r = x - s^2 from the override (what cpp_bin_float's
// sqrt now calls) and from Boost's default, for the double_rep_type of T.
template <class T>
void integer_sqrt_agrees(int count) {
  using B = typename T::backend_type::double_rep_type;
  using I = boost::multiprecision::number<B, boost::multiprecision::et_off>;
  constexpr unsigned bits = 2 * T::backend_type::bit_count;
  std::mt19937_64 g(20261129);
  std::size_t checked = 0;
  const auto check = [&](const I& x) {
    B s, r, boost_s, boost_r;
    eval_integer_sqrt(s, r, x.backend());
    boost::multiprecision::default_ops::eval_integer_sqrt<B>(boost_s, boost_r, x.backend());
    INFO("x = " << x);
    CHECK(s.compare(boost_s) == 0);
    CHECK(r.compare(boost_r) == 0);
    ++checked;
  };
  for (int i = 0; i < count; ++i) {
    const unsigned length = 1 + static_cast<unsigned>(g() % bits);
    I x = 0;
    for (unsigned b = 0; b < length; b += 64) x = (x << 64) | I(g());
    x >>= (length + 63) / 64 * 64 - length;
    check(x);
    const I k = x >> (bits / 2 + 1);
    if (k == 0) continue;
    const I square = k * k;  // and its neighbours, (k + 1)^2 - 1 the largest with root k
    for (const I& y : {square, I(square - 1), I(square + 1), I(square + 2 * k), I(square + 2 * k + 1)}) check(y);
  }
  for (unsigned m = 0; m < bits; ++m) {
    const I p = I(1) << m;
    for (const I& y : {p, I(p - 1), I(p + 1)}) check(y);
  }
  check(I(0));
  CHECK(checked > static_cast<std::size_t>(count));
}

TEST_CASE("the integer square root of mp50 and mp100 agrees with Boost's (D-PRED-10)", "[exact][sqrt]") {
  integer_sqrt_agrees<mp50>(3000);
  integer_sqrt_agrees<mp100>(3000);
}

}  // namespace exact_order_test
