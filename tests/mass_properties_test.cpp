// Mass properties in every binary type on generated inputs, with shrinking:
// each output within 1 ulp of the correctly rounded exact value (D-MASS-5),
// including offsets up to 1e8 and needles with aspect ratio up to 1e6, the
// inputs on which Box2D #949/#1006/#422 report negative inertia.
#include "support/generators.hpp"
#include "support/matchers.hpp"
#include "support/show_exact.hpp"

#include "rigidref/mass.hpp"
#include "rigidref/verify/mass_oracle.hpp"

#include <rapidcheck/catch.h>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace mass_properties_test {

using namespace rigidref;
using testing::WithinUlpsOfExact;

namespace {

// Input sizes each type represents exactly: float has 24 bits, so its
// offsets stop at 2^22 and its needles at aspect 2^10 (times the rotation's
// hypotenuse, < 2^11); every wider type gets the full 1e8 and 1e6.
template <class T>
constexpr int max_offset() {
  return std::is_same_v<T, float> ? (1 << 22) : 100'000'000;
}
template <class T>
constexpr int max_aspect() {
  return std::is_same_v<T, float> ? (1 << 10) : 1'000'000;
}

// Asserts the D-MASS-5 guarantee for one polygon given exactly.
template <class T>
void check_one_ulp(const std::vector<vec2<exact>>& exact_vertices) {
  RC_PRE(testing::gen::exactly_representable<T>(exact_vertices));
  const auto v = testing::gen::to_type<T>(exact_vertices);
  const auto got = polygon_mass_from_density<T>(v, T(1));
  const auto want = verify::polygon_mass_oracle<T>(v, exact(1), true);
  RC_ASSERT(verify::ulps_from_rounded(got.area, want.area) <= 1);
  RC_ASSERT(verify::ulps_from_rounded(got.centroid.x, want.centroid.x) <= 1);
  RC_ASSERT(verify::ulps_from_rounded(got.centroid.y, want.centroid.y) <= 1);
  RC_ASSERT(verify::ulps_from_rounded(got.mass, want.mass) <= 1);
  RC_ASSERT(verify::ulps_from_rounded(got.inertia, want.inertia) <= 1);
  RC_ASSERT(got.inertia > 0);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("polygon outputs within 1 ulp: integer polygons", "[mass][accuracy]", floating_scalars) {
  using T = TestType;
  rc::prop("convex and concave, both orientations", [](bool convex) {
    check_one_ulp<T>(*testing::gen::integer_polygon(convex));
  });
}

TEMPLATE_LIST_TEST_CASE("polygon outputs within 1 ulp: far from the origin", "[mass][accuracy]", floating_scalars) {
  using T = TestType;
  rc::prop("translated by up to 1e8", [](bool convex) {
    auto p = *testing::gen::integer_polygon(convex);
    const auto d = *testing::gen::far_offset(max_offset<T>());
    for (auto& v : p) v = v + d;
    check_one_ulp<T>(p);
  });
}

TEMPLATE_LIST_TEST_CASE("polygon outputs within 1 ulp: needles", "[mass][accuracy]", floating_scalars) {
  using T = TestType;
  rc::prop("aspect ratio up to 1e6, rotated, offset", [] {
    auto p = *testing::gen::needle(max_aspect<T>());
    const auto d = *testing::gen::far_offset(max_offset<T>());
    for (auto& v : p) v = v + d;
    check_one_ulp<T>(p);
  });
}

TEMPLATE_LIST_TEST_CASE("vertex order does not change results beyond the 1-ulp guarantee", "[mass]",
                        floating_scalars) {
  using T = TestType;
  // Both orders are within 1 ulp of the same correctly rounded value, so they
  // are at most 2 ulps apart (D-MASS-5); usually identical.
  rc::prop("cyclic shift and reversal", [](int shift) {
    const auto e = *testing::gen::integer_polygon(false);
    RC_PRE(testing::gen::exactly_representable<T>(e));
    const auto p = testing::gen::to_type<T>(e);
    auto q = p;
    std::rotate(q.begin(), q.begin() + (std::abs(shift) % q.size()), q.end());
    std::reverse(q.begin(), q.end());
    const auto a = polygon_mass_from_density<T>(p, T(1));
    const auto b = polygon_mass_from_density<T>(q, T(1));
    RC_ASSERT(verify::ulps_from_rounded(b.area, to_exact(a.area)) <= 2);
    RC_ASSERT(verify::ulps_from_rounded(b.inertia, to_exact(a.inertia)) <= 2);
    RC_ASSERT(verify::ulps_from_rounded(b.centroid.x, to_exact(a.centroid.x)) <= 2);
  });
}

TEMPLATE_LIST_TEST_CASE("triangle, circle, rectangle within 1 ulp", "[mass][accuracy]", floating_scalars) {
  using T = TestType;
  const int bits = std::min(std::numeric_limits<T>::digits, 62);
  rc::prop("rational closed forms rounded once", [bits] {
    const T r = abs(*testing::gen::representable<T>(bits, -40, 10));
    const T w = abs(*testing::gen::representable<T>(bits, -40, 10));
    const T m = abs(*testing::gen::representable<T>(bits, -20, 20));
    RC_PRE(r > 0 && w > 0 && m > 0);
    const exact R = to_exact(r), W = to_exact(w), M = to_exact(m);
    RC_ASSERT(verify::ulps_from_rounded(circle_inertia<T>(r, m), M * R * R / 2) <= 1);
    RC_ASSERT(verify::ulps_from_rounded(rectangle_inertia<T>(w, r, m), M * (W * W + R * R) / 12) <= 1);
    const auto tri = *testing::gen::integer_polygon(true);
    RC_PRE(testing::gen::exactly_representable<T>(tri));
    auto t = testing::gen::to_type<T>(tri);
    t.resize(3);
    const exact want = verify::polygon_mass_oracle<T>(t, M, false).inertia;
    RC_ASSERT(verify::ulps_from_rounded(triangle_inertia<T>(t, m), want) <= 1);
  });
}

}  // namespace mass_properties_test
