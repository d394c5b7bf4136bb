// The scalar layer: exact conversions, correct rounding, text round trips,
// ulp measures. Correct rounding is checked against its definition (no
// neighbour is closer) and against glibc's strtod, never against itself.
#include "support/generators.hpp"
#include "support/matchers.hpp"

#include "rigidref/convert.hpp"
#include "rigidref/verify/accuracy.hpp"

#include <boost/math/special_functions/next.hpp>
#include <rapidcheck/catch.h>

#include <cstdlib>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace scalar_test {

using namespace rigidref;
using rigidref::testing::IdenticalTo;

namespace {

// RN(q) by definition: x is a T value and neither neighbour is strictly closer,
// and on a tie x has an even significand (its neighbours' are odd).
template <class T>
bool is_correctly_rounded(const T& x, const exact& q) {
  const exact dx = abs(to_exact(x) - q);
  const T up = boost::math::float_next(x), down = boost::math::float_prior(x);
  const exact du = abs(to_exact(up) - q), dd = abs(to_exact(down) - q);
  if (du < dx || dd < dx) return false;
  if (du == dx || dd == dx) {  // tie: x must be the even one
    using std::frexp;
    using boost::multiprecision::frexp;
    using std::ldexp;
    using boost::multiprecision::ldexp;
    int e = 0;
    const T m = ldexp(frexp(x, &e), std::numeric_limits<T>::digits);  // integer significand
    const exact half = to_exact(m) / 2;
    return denominator(half) == 1;
  }
  return true;
}

}  // namespace

TEST_CASE("round_to<double> agrees with glibc strtod on random decimal strings", "[scalar]") {
  rc::prop("decimal text -> double", [](std::uint64_t digits) {
    const int exponent = *rc::gen::inRange(-420, 400);  // subnormals to overflow
    const std::string text = std::to_string(digits) + "e" + std::to_string(exponent);
    const double want = std::strtod(text.c_str(), nullptr);
    RC_PRE(std::isfinite(want));
    RC_ASSERT(from_string<double>(text) == want);
  });
}

TEST_CASE("round_to<double> rounds near-ties correctly, ties to even", "[scalar]") {
  rc::prop("near midpoints", [] {
    const auto c = *testing::gen::near_tie_double();
    RC_ASSERT(round_to<double>(c.value) == c.expected);
  });
}

TEST_CASE("round_to handles zero, subnormals and overflow", "[scalar]") {
  CHECK(round_to<double>(exact(0)) == 0.0);
  CHECK(round_to<double>(to_exact(std::numeric_limits<double>::denorm_min())) == std::numeric_limits<double>::denorm_min());
  // Half the smallest subnormal is a tie between 0 and denorm_min: even is 0.
  CHECK(round_to<double>(to_exact(std::numeric_limits<double>::denorm_min()) / 2) == 0.0);
  CHECK(round_to<double>(to_exact(std::numeric_limits<double>::denorm_min()) * 3 / 4) ==
        std::numeric_limits<double>::denorm_min());
  CHECK(std::isinf(round_to<double>(to_exact(std::numeric_limits<double>::max()) * 2)));
  CHECK(round_to<float>(exact(1, 3)) == 1.0f / 3.0f);
  CHECK_THROWS_AS(to_exact(std::numeric_limits<double>::infinity()), invalid_input);
  CHECK_THROWS_AS(to_exact(std::numeric_limits<double>::quiet_NaN()), invalid_input);
}

TEMPLATE_LIST_TEST_CASE("round_to<T> is correctly rounded for random rationals", "[scalar]", floating_scalars) {
  using T = TestType;
  // |p/q| lies in [2^-63, 2^63]; the shift keeps the value inside T's normal range.
  const int max_shift = std::min(200, std::numeric_limits<T>::max_exponent - 70);
  rc::prop("no neighbour is closer", [max_shift](std::int64_t p, std::int64_t q, int e) {
    RC_PRE(q > 0 && p != 0);
    exact v = exact(big_int(p), big_int(q));
    v *= e >= 0 ? exact(big_int(1) << (e % max_shift)) : exact(1) / exact(big_int(1) << ((-e) % max_shift));
    const T x = round_to<T>(v);
    RC_ASSERT(is_correctly_rounded(x, v));
  });
}

TEMPLATE_LIST_TEST_CASE("to_exact then round_to is the identity", "[scalar]", floating_scalars) {
  using T = TestType;
  const int bits = std::min(62, std::numeric_limits<T>::digits);
  rc::prop("round trip", [bits] {
    const T x = *testing::gen::representable<T>(bits, -300, 300);
    RC_ASSERT(round_to<T>(to_exact(x)) == x);
  });
}

TEMPLATE_LIST_TEST_CASE("to_string reads back to the same value", "[scalar]", all_scalars) {
  using T = TestType;
  rc::prop("text round trip", [] {
    const T x = *testing::gen::representable<T>(std::min(62, is_exact_v<T> ? 62 : std::numeric_limits<T>::digits),
                                                 -120, 120);
    RC_ASSERT(from_string<T>(to_string(x)) == x);
  });
}

TEST_CASE("to_string gives the shortest text for float and double", "[scalar]") {
  CHECK(to_string(0.1) == "0.1");
  CHECK(to_string(0.1f) == "0.1");
  CHECK(to_string(1.0 / 3) == "0.3333333333333333");
  CHECK(to_string(exact(1, 3)) == "1/3");
  CHECK(to_string(exact(-4)) == "-4");
}

TEST_CASE("parse_exact reads decimals and fractions exactly and rejects the rest", "[scalar]") {
  CHECK(parse_exact("0.1") == exact(1, 10));
  CHECK(parse_exact("-1.5e-7") == exact(-15, 100000000));
  CHECK(parse_exact("+2.50E+2") == exact(250));
  CHECK(parse_exact(".5") == exact(1, 2));
  CHECK(parse_exact("5.") == exact(5));
  CHECK(parse_exact("-7/21") == exact(-1, 3));
  CHECK(from_string<exact>("0.1") == exact(1, 10));
  for (const char* bad : {"", "abc", "1e", "--1", "1.2.3", "e5", ".", "1/0", "1/x", "0x10", "inf", "nan", "1e999999"})
    CHECK_THROWS_AS(parse_exact(bad), invalid_input);
  CHECK_THROWS_AS(from_string<double>("1/3"), invalid_input);  // fractions only in exact
}

TEST_CASE("parse_exact: leading zeros in a fraction are decimal, never octal", "[scalar]") {
  // Boost's integer string constructor reads "010" as octal 8 and throws on
  // "0429"; the eval fuzzer found both (tests/fuzz/regressions/eval).
  CHECK(parse_exact("1/010") == exact(1, 10));
  CHECK(parse_exact("010/1") == exact(10));
  CHECK(parse_exact("-188002/0429") == exact(-188002, 429));
  CHECK(parse_exact("-0/07") == exact(0));
  CHECK(parse_exact("0010.5") == exact(21, 2));
  CHECK_THROWS_AS(parse_exact("1/000"), invalid_input);
}

TEMPLATE_LIST_TEST_CASE("ulp and epsilon measures", "[scalar]", floating_scalars) {
  using T = TestType;
  const T one = 1;
  const T next = boost::math::float_next(one);
  CHECK(verify::ulps_from_rounded(next, exact(1)) == 1);
  CHECK(verify::ulps_from_rounded(one, exact(1)) == 0);
  // 1 + eps is one epsilon away from 1, relatively.
  CHECK(verify::relative_error_eps(next, exact(1)) == 1);
  CHECK(std::isinf(verify::ulps_from_rounded(T(std::numeric_limits<T>::infinity()), exact(1))));
}

TEST_CASE("scalar traits", "[scalar]") {
  STATIC_REQUIRE(digits<double>() == 53);
  STATIC_REQUIRE(digits<float>() == 24);
  STATIC_REQUIRE(is_exact_v<exact>);
  STATIC_REQUIRE(!is_exact_v<mp50>);
  CHECK(std::numeric_limits<mp50>::digits10 >= 50);
  CHECK(std::numeric_limits<mp100>::digits10 >= 100);
  CHECK(scalar_name<long double>() == "long double");
  CHECK(scalar_name<mp100>() == "mp100");
}

}  // namespace scalar_test
