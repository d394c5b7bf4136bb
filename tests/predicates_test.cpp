// The orientation predicate and segment intersection are exact: the filtered
// floating computation agrees with rational arithmetic on nearly collinear
// inputs, where a naive determinant gets the sign wrong. D-PRED-1
#include "support/generators.hpp"
#include "support/matchers.hpp"

#include "rigidref/predicates.hpp"

#include <rapidcheck/catch.h>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace predicates_test {

using namespace rigidref;

namespace {

template <class T>
vec2<exact> ex(const vec2<T>& v) {
  return {to_exact(v.x), to_exact(v.y)};
}

// c = a + t (b - a), rounded to T, then nudged by k ulps in x: collinear up
// to rounding, the regime where the filter must hand over to exact.
template <class T>
vec2<T> nearly_on_line(const vec2<T>& a, const vec2<T>& b, const T& t, int k) {
  vec2<T> c{T(a.x + t * (b.x - a.x)), T(a.y + t * (b.y - a.y))};
  for (int i = 0; i < std::abs(k); ++i)
    c.x = k > 0 ? boost::math::float_next(c.x) : boost::math::float_prior(c.x);
  return c;
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("orientation is exact on nearly collinear points", "[predicates]", floating_scalars) {
  using T = TestType;
  const int bits = std::min(40, std::numeric_limits<T>::digits - 4);
  rc::prop("sign equals the rational sign", [bits] {
    const vec2<T> a{*testing::gen::representable<T>(bits, -10, 10), *testing::gen::representable<T>(bits, -10, 10)};
    const vec2<T> b{*testing::gen::representable<T>(bits, -10, 10), *testing::gen::representable<T>(bits, -10, 10)};
    const T t = *testing::gen::representable<T>(bits, -bits, 2);
    const vec2<T> c = nearly_on_line(a, b, t, *rc::gen::inRange(-2, 3));
    RC_ASSERT(orientation(a, b, c) == orientation(ex(a), ex(b), ex(c)));
  });
}

TEST_CASE("orientation: a case the naive double determinant gets wrong", "[predicates]") {
  // Points on the line y = x far out; the naive determinant's rounding error
  // exceeds its value. Exact answer from rational arithmetic.
  const vec2<double> a{0.5, 0.5}, b{12.0, 12.0}, c{24.0, 24.0 + std::ldexp(1.0, -48)};
  const int want = orientation(ex(a), ex(b), ex(c));
  CHECK(want == 1);
  CHECK(orientation(a, b, c) == want);
  const vec2<double> d{24.00000000000005, 24.000000000000053};
  CHECK(orientation(a, b, d) == orientation(ex(a), ex(b), ex(d)));
}

TEMPLATE_LIST_TEST_CASE("segments_intersect matches rational geometry", "[predicates]", floating_scalars) {
  using T = TestType;
  rc::prop("against the exact predicate", [] {
    auto pt = [] {
      return vec2<T>{*testing::gen::representable<T>(6, -2, 2), *testing::gen::representable<T>(6, -2, 2)};
    };
    const vec2<T> p = pt(), q = pt(), r = pt(), s = pt();
    RC_ASSERT(segments_intersect(p, q, r, s) == segments_intersect(ex(p), ex(q), ex(r), ex(s)));
  });
}

TEST_CASE("segments_intersect: touching, collinear overlap, disjoint", "[predicates]") {
  using V = vec2<exact>;
  CHECK(segments_intersect(V{0, 0}, V{2, 0}, V{1, 0}, V{3, 0}));   // collinear overlap
  CHECK(segments_intersect(V{0, 0}, V{2, 0}, V{2, 0}, V{3, 5}));   // shared endpoint
  CHECK(segments_intersect(V{0, 0}, V{2, 2}, V{0, 2}, V{2, 0}));   // proper crossing
  CHECK(segments_intersect(V{0, 0}, V{2, 0}, V{1, 0}, V{1, 5}));   // T junction
  CHECK_FALSE(segments_intersect(V{0, 0}, V{1, 0}, V{2, 0}, V{3, 0}));  // collinear, apart
  CHECK_FALSE(segments_intersect(V{0, 0}, V{1, 1}, V{1, 0}, V{2, -1}));
}

}  // namespace predicates_test
