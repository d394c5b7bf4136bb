// The optional MPFR scalar: error-free transformations are exact there, and
// mass properties accumulated in double words of mpfr100 are correctly
// rounded on the corpus, like every other type (D-MASS-5, D-EFT-1..2).
#include "support/generators.hpp"
#include "support/matchers.hpp"

#include "rigidref/mpfr.hpp"

#include "rigidref/double_word.hpp"
#include "rigidref/internal/bounds.hpp"
#include "rigidref/internal/mass_accuracy.hpp"

#include <rapidcheck/catch.h>

using namespace rigidref;

TEST_CASE("mpfr100: TwoSum and TwoProd (fused fma) are exact", "[mpfr][double_word]") {
  rc::prop("s + e == a + b, p + e == a * b", [] {
    const auto gen = testing::gen::representable<mpfr100>(62, -200, 200);
    const mpfr100 a = *gen, b = *gen;
    const auto s = eft::two_sum(a, b);
    RC_ASSERT(to_exact(s.hi) + to_exact(s.lo) == to_exact(a) + to_exact(b));
    const auto p = eft::two_prod(a, b);
    RC_ASSERT(to_exact(p.hi) + to_exact(p.lo) == to_exact(a) * to_exact(b));
  });
}

TEST_CASE("mpfr100: mass properties within their bounds", "[mpfr][mass][accuracy]") {
  for (const auto& s : verify::polygon_accuracy<mpfr100>(201, 40)) {
    const auto* b = verify::find_bound(s.function, s.digits);
    REQUIRE(b != nullptr);
    INFO(s.function << ": max " << s.max_ulps << " ulps, " << s.max_eps << " eps; worst " << s.worst_case);
    CHECK(s.max_ulps <= b->max_ulps);
    CHECK(s.max_eps <= b->max_eps);
  }
  CHECK(scalar_name<mpfr100>() == "mpfr100");
}
