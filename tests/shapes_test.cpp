// Points, segments, capsules, circles, polygons and rounded polygons in
// gjk_distance and epa_penetration (rigidref/shape_queries.hpp), every
// binary type, against the core oracle (verify/collision_oracle.hpp,
// exact_core_collision: textbook vertex-edge distances and segment crossings
// in integers, written independently of gjk.hpp and epa.hpp) plus the radii.
//
// Tolerances, each from the derivation:
//  - decisions (intersecting, touching) are exact: compared with ==;
//  - radius 0 on both sides: distance and core depth are square roots of
//    exact rationals rounded once, within 1 ulp (D-GJK-8, D-EPA-6);
//  - with radii: d_core -+ (ra + rb) in the accumulator, rounded once:
//    relative error at most u + 8 u_acc (d_core + r) / |value| (D-GJK-9,
//    D-EPA-7), the bound gjk_test and epa_test use for circles;
//  - the normal: within 1 ulp per component of the oracle's axis when the
//    core depth is positive and its minimising axis unique (D-EPA-6); in
//    every case, moving B by depth * normal leaves the shapes touching up to
//    (bound + 3) eps depth (D-EPA-1: the depth's own error plus 2 eps for
//    the normal's rounding);
//  - points: within eps (|x| + |y| + r) of their shapes (rounded once per
//    coordinate from an exact point offset by r along a unit vector).
#include "support/collision_test_helpers.hpp"
#include "support/exact_helpers.hpp"
#include "support/generators.hpp"
#include "support/shape_test_helpers.hpp"

#include "rigidref/shape_queries.hpp"
#include "rigidref/internal/collision_accuracy.hpp"
#include "rigidref/verify/accuracy.hpp"
#include "rigidref/verify/collision_oracle.hpp"

#include <rapidcheck/catch.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace shapes_test {

using namespace rigidref;
using namespace rigidref::testing::shapes;
using rigidref::testing::collision::eabs;
using rigidref::testing::collision::ex;
using O = verify::oracle_float;

namespace {

template <class T>
exact eps_of() {
  return to_exact(epsilon<T>());
}

// GJK on the pair against the truth.
template <class T>
void check_gjk(const shape_case& a, const shape_case& b, const pair_truth& t) {
  const gjk_result<T> g = gjk_distance(shape_of<T>(a), shape_of<T>(b));
  RC_ASSERT(g.status != collision_status::cap_reached);
  RC_ASSERT(g.intersecting == t.intersecting);
  RC_ASSERT((g.status == collision_status::touching) == t.touching);
  RC_ASSERT(near_shape(g.point_a, a));
  RC_ASSERT(near_shape(g.point_b, b));
  if (t.intersecting) {
    RC_ASSERT(g.distance == T(0));
    RC_ASSERT(g.point_a == g.point_b);
    RC_ASSERT(near_shape(g.point_a, b));  // a common point
    return;
  }
  const O dc = osqrt(t.core.distance_squared);
  if (t.r == 0) {
    RC_ASSERT(verify::ulps_from_rounded(g.distance, verify::sqrt_oracle(t.core.distance_squared)) <= 1);
  } else {
    const O r = O(numerator(t.r)) / O(denominator(t.r));
    const O truth = dc - r;
    RC_ASSERT(verify::relative_error_eps(g.distance, to_exact(truth)) <= radius_bound_eps<T>(dc + r, truth));
  }
}

// Core distance squared and depth squared after moving B by v: is the pair
// touching within s (|d_core - r| <= s when apart, core depth + r <= s when
// the cores meet)?
inline bool touching_within(const shape_case& a, shape_case b, const EV& v, const exact& r, const exact& s) {
  for (auto& p : b.core) p = p + v;
  const auto m = verify::exact_core_collision<exact>(std::span<const EV>(a.core), std::span<const EV>(b.core));
  if (m.intersecting) {
    if (r > s) return false;
    const exact left = s - r;
    return m.depth_squared <= left * left;
  }
  const exact hi = r + s, lo = r - s;
  return m.distance_squared <= hi * hi && (lo <= 0 || m.distance_squared >= lo * lo);
}

template <class T>
void check_epa(const shape_case& a, const shape_case& b, const pair_truth& t) {
  const epa_result<T> e = epa_penetration(shape_of<T>(a), shape_of<T>(b));
  RC_ASSERT(e.status != collision_status::cap_reached);
  RC_ASSERT(e.intersecting == t.intersecting);
  RC_ASSERT(is_finite(e.normal.x) && is_finite(e.normal.y));
  RC_ASSERT(near_shape(e.point_a, a));
  RC_ASSERT(near_shape(e.point_b, b));
  if (!t.intersecting) {
    RC_ASSERT(e.depth == T(0));
    return;
  }
  const bool coincident_points = a.core.size() == 1 && b.core.size() == 1 && t.core.intersecting;
  if (!coincident_points) RC_ASSERT((e.status == collision_status::touching) == t.touching);
  const O r = O(numerator(t.r)) / O(denominator(t.r));
  O truth, magnitude;
  if (t.core.intersecting) {
    const O core = osqrt(t.core.depth_squared);
    truth = core + r;
    magnitude = truth;
  } else {
    const O dc = osqrt(t.core.distance_squared);
    truth = r - dc;
    magnitude = r + dc;
  }
  if (t.touching) {
    RC_ASSERT(e.depth == T(0));
  } else if (t.r == 0) {
    RC_ASSERT(verify::ulps_from_rounded(e.depth, verify::sqrt_oracle(t.core.depth_squared)) <= 1);
  } else {
    RC_ASSERT(verify::relative_error_eps(e.depth, to_exact(truth)) <= radius_bound_eps<T>(magnitude, truth));
  }
  // A unit normal.
  const exact n2 = length_squared(ex(e.normal));
  RC_ASSERT(eabs(n2 - 1) <= 4 * eps_of<T>());
  if (t.core.intersecting && !t.core.flat && t.core.depth_squared > 0 && t.core.minimising_axes == 1) {
    const exact len = verify::sqrt_oracle(length_squared(t.core.normal_axis));
    RC_ASSERT(verify::ulps_from_rounded(e.normal.x, exact(t.core.normal_axis.x / len)) <= 1);
    RC_ASSERT(verify::ulps_from_rounded(e.normal.y, exact(t.core.normal_axis.y / len)) <= 1);
  }
  // D-EPA-1: B moved by depth * normal touches A.
  if (!t.touching) {
    const exact D = to_exact(e.depth);
    const double bound = t.r == 0 ? 2.0 : radius_bound_eps<T>(magnitude, truth);
    const exact slack = (exact(static_cast<long long>(bound * 1024)) / 1024 + 3) * eps_of<T>() * D;
    RC_ASSERT(touching_within(a, b, EV{D * to_exact(e.normal.x), D * to_exact(e.normal.y)}, t.r, slack));
  }
}

template <class T>
void check_pair(const shape_case& a, const shape_case& b) {
  RC_PRE(representable<T>(a) && representable<T>(b));
  const pair_truth t = truth_of(a, b);
#ifdef RIGIDREF_SHAPES_CLASSIFY  // measurement build: RapidCheck prints how often each outcome was drawn
  RC_TAG(t.touching ? "touching" : t.intersecting ? (t.core.intersecting ? "cores meet" : "radii overlap") : "apart",
         t.core.flat && t.core.intersecting ? "flat" : "");
#endif
  check_gjk<T>(a, b, t);
  check_epa<T>(a, b, t);
}

// A far offset and a scale every tested type represents with the small shapes.
rc::Gen<std::pair<exact, EV>> placement() {
  return rc::gen::apply(
      [](int m, int x, int y) { return std::pair<exact, EV>{exact(m), EV{exact(x), exact(y)}}; },
      rc::gen::element(1, 3, 1000, 4096, 65535), rc::gen::inRange(-(1 << 20), 1 << 20),
      rc::gen::inRange(-(1 << 20), 1 << 20));
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("shapes: every kind pair against the core oracle", "[shapes][oracle]", floating_scalars) {
  using T = TestType;
  for (const kind ka : all_kinds)
    for (const kind kb : all_kinds) {
      const std::string name = std::string(name_of(ka)) + " vs " + name_of(kb);
      rc::prop(name + ": small integer shapes (touching, shared points, collinear)", [ka, kb] {
        const shape_case a = *small_shape(ka, 0, 0);
        const shape_case b = *small_shape(kb, *rc::gen::inRange(-5, 6), *rc::gen::inRange(-5, 6));
        check_pair<T>(a, b);
      });
      rc::prop(name + ": scaled and far from the origin", [ka, kb] {
        const auto [m, at] = *placement();
        const shape_case a = scaled(*small_shape(ka, 0, 0), m, at);
        const shape_case b = scaled(*small_shape(kb, *rc::gen::inRange(-5, 6), *rc::gen::inRange(-5, 6)), m, at);
        check_pair<T>(a, b);
      });
    }
}

// ---- degenerate pairs, by construction -------------------------------------------------

TEMPLATE_LIST_TEST_CASE("shapes: degenerate pairs against the core oracle", "[shapes][oracle][degenerate]",
                        floating_scalars) {
  using T = TestType;
  // A point (or a disc about it) on a segment: p = a + j (b - a) / m, j = 0..m.
  rc::prop("point on a segment (ends included), with and without radii", [] {
    const int m = *rc::gen::inRange(1, 6), j = *rc::gen::inRange(0, m + 1);
    const EV d{exact(*rc::gen::inRange(-4, 5)), exact(*rc::gen::inRange(-4, 5))};
    RC_PRE(!(d.x == 0 && d.y == 0));
    const EV a0{exact(*rc::gen::inRange(-9, 10)), exact(*rc::gen::inRange(-9, 10))};
    const EV a1 = a0 + EV{m * d.x, m * d.y};
    const EV p = a0 + EV{j * d.x, j * d.y};
    const exact ra(*rc::gen::inRange(0, 3), 2), rb(*rc::gen::inRange(0, 3), 2);
    const shape_case seg{{a0, a1}, ra}, pt{{p}, rb};
    if (*rc::gen::arbitrary<bool>()) check_pair<T>(seg, pt);
    else check_pair<T>(pt, seg);
  });
  rc::prop("collinear segments: overlapping, sharing an end, apart", [] {
    const EV d{exact(*rc::gen::inRange(-3, 4)), exact(*rc::gen::inRange(-3, 4))};
    RC_PRE(!(d.x == 0 && d.y == 0));
    const EV o{exact(*rc::gen::inRange(-5, 6)), exact(*rc::gen::inRange(-5, 6))};
    auto at = [&](int k) { return o + EV{k * d.x, k * d.y}; };
    const int s0 = *rc::gen::inRange(-3, 4), s1 = *rc::gen::inRange(-3, 4);
    const int t0 = *rc::gen::inRange(-3, 4), t1 = *rc::gen::inRange(-3, 4);
    RC_PRE(s0 != s1 && t0 != t1);
    const exact ra(*rc::gen::inRange(0, 3), 2), rb(*rc::gen::inRange(0, 3), 2);
    check_pair<T>(shape_case{{at(s0), at(s1)}, ra}, shape_case{{at(t0), at(t1)}, rb});
  });
  rc::prop("segments sharing an end point, or touching by construction with radii", [] {
    const EV s{exact(*rc::gen::inRange(-4, 5)), exact(*rc::gen::inRange(-4, 5))};
    const EV u{exact(*rc::gen::inRange(-4, 5)), exact(*rc::gen::inRange(-4, 5))};
    const EV v{exact(*rc::gen::inRange(-4, 5)), exact(*rc::gen::inRange(-4, 5))};
    RC_PRE(!(u.x == 0 && u.y == 0) && !(v.x == 0 && v.y == 0));
    check_pair<T>(shape_case{{s, s + u}, exact(0)}, shape_case{{s, s + v}, exact(0)});
    // Parallel capsules at integer distance k along a coordinate axis, radii summing to k.
    const int k = *rc::gen::inRange(1, 5), ka = *rc::gen::inRange(0, 2 * k + 1);
    const exact ra(ka, 2), rb = exact(k) - ra;
    check_pair<T>(shape_case{{s, s + EV{exact(3), exact(0)}}, ra},
                  shape_case{{s + EV{exact(1), exact(k)}, s + EV{exact(5), exact(k)}}, rb});
  });
}

// ---- named cases: the conventions of D-EPA-12 ------------------------------------------

TEMPLATE_LIST_TEST_CASE("shapes: non-unique normals follow D-EPA-12", "[shapes][named]", floating_scalars) {
  using T = TestType;
  const auto seg = make_segment(vec2<T>{0, 0}, vec2<T>{2, 0});
  SECTION("a disc centred on a segment's interior: depth r, normal the left perpendicular of b1 - b0") {
    const auto disc = make_disc(vec2<T>{1, 0}, T(0.5));
    const auto r = epa_penetration(disc, seg);
    CHECK(r.intersecting);
    CHECK(r.depth == T(0.5));
    CHECK((r.normal == vec2<T>{0, 1}));
    const auto s = epa_penetration(seg, disc);  // swapped: the right perpendicular of a1 - a0
    CHECK(s.depth == T(0.5));
    CHECK((s.normal == vec2<T>{0, -1}));
  }
  SECTION("a point on a segment: touching, depth 0") {
    const auto g = gjk_distance(make_point(vec2<T>{1, 0}), seg);
    CHECK(g.intersecting);
    CHECK(g.status == collision_status::touching);
    const auto e = epa_penetration(make_point(vec2<T>{2, 0}), seg);
    CHECK(e.status == collision_status::touching);
    CHECK(e.depth == T(0));
  }
  SECTION("collinear overlapping capsules: depth ra + rb along A's right perpendicular") {
    const auto a = make_capsule(vec2<T>{0, 0}, vec2<T>{2, 0}, T(0.5));
    const auto b = make_capsule(vec2<T>{1, 0}, vec2<T>{3, 0}, T(0.25));
    const auto e = epa_penetration(a, b);
    CHECK(e.depth == T(0.75));
    CHECK((e.normal == vec2<T>{0, -1}));
    CHECK(gjk_distance(make_segment(vec2<T>{0, 0}, vec2<T>{2, 0}), make_segment(vec2<T>{1, 0}, vec2<T>{3, 0})).status ==
          collision_status::touching);
  }
  SECTION("collinear segments apart: separated along their own line") {
    const auto g = gjk_distance(seg, make_segment(vec2<T>{5, 0}, vec2<T>{3, 0}));
    CHECK(!g.intersecting);
    CHECK(g.distance == T(1));
    CHECK((g.point_a == vec2<T>{2, 0}));
    CHECK((g.point_b == vec2<T>{3, 0}));
  }
  SECTION("equal points touch; a disc centred on a point is degenerate_input with normal (1, 0)") {
    const auto p = make_point(vec2<T>{1, 2});
    CHECK(gjk_distance(p, p).status == collision_status::touching);
    const auto e = epa_penetration(p, p);
    CHECK(e.status == collision_status::touching);
    CHECK(e.depth == T(0));
    const auto d = epa_penetration(p, make_disc(vec2<T>{1, 2}, T(3)));
    CHECK(d.status == collision_status::degenerate_input);
    CHECK(d.depth == T(3));
    CHECK((d.normal == vec2<T>{1, 0}));
  }
  SECTION("crossing segments (an X): core depth sqrt(2), rounded once") {
    const auto e = epa_penetration(make_segment(vec2<T>{0, 0}, vec2<T>{2, 2}), make_segment(vec2<T>{0, 2}, vec2<T>{2, 0}));
    CHECK(e.intersecting);
    CHECK(verify::ulps_from_rounded(e.depth, verify::sqrt_oracle(exact(2))) <= 1);
  }
}

TEST_CASE("shapes: bad input is invalid_input", "[shapes][inputs]") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  using V = vec2<double>;
  CHECK_THROWS_AS(make_segment(V{1, 1}, V{1, 1}), invalid_input);
  CHECK_THROWS_AS(make_segment(V{nan, 1}, V{1, 2}), invalid_input);
  CHECK_THROWS_AS(make_point(V{inf, 0}), invalid_input);
  CHECK_THROWS_AS(make_capsule(V{0, 0}, V{1, 0}, -1.0), invalid_input);
  CHECK_THROWS_AS(make_capsule(V{0, 0}, V{1, 0}, nan), invalid_input);
  CHECK_THROWS_AS(make_disc(V{0, 0}, inf), invalid_input);
  CHECK_THROWS_AS(make_rounded_polygon(std::vector<V>{{0, 0}, {1, 0}, {2, 0}}, 1.0), invalid_input);
  CHECK_THROWS_AS(make_rounded_polygon(std::vector<V>{{0, 0}, {1, 0}, {0, 1}}, -0.5), invalid_input);
  CHECK(kind_of(make_capsule(V{0, 0}, V{1, 0}, 0.0)) == shape_kind::segment);
  CHECK(kind_of(make_rounded_polygon(std::vector<V>{{0, 0}, {1, 0}, {0, 1}}, 0.5)) == shape_kind::rounded_polygon);
}

TEST_CASE("make_convex_polygon of doubles in mp100 and exact matches the double-typed one", "[shapes]") {
  // Wider types decide their orientations on the doubles when every vertex
  // is one (D-GJK-3): the polygon, or the rejection, must be the double
  // type's. Regular polygons, jittered, far from the origin, with inserted
  // edge midpoints (collinear vertices to drop, the shortcut's copy kept in
  // step), reversed, and with two vertices swapped (not convex).
  std::mt19937_64 g(5);
  std::uniform_real_distribution<double> u(-1, 1);
  std::size_t rejected = 0, dropped = 0;
  for (int k = 0; k < 3000; ++k) {
    const int n = 3 + k % 9;
    std::vector<rigidref::vec2<double>> v;
    for (int i = 0; i < n; ++i) {
      const double a = 6.283185307179586 * i / n + (k % 3 == 0 ? 0.3 * u(g) : 0);
      v.push_back({std::cos(a) * (k % 5 == 0 ? 1e8 : 1) + (k % 7 == 0 ? 1e6 : 0), std::sin(a)});
    }
    if (k % 4 == 1) v.insert(v.begin() + 1, {(v[0].x + v[1].x) / 2, (v[0].y + v[1].y) / 2});
    if (k % 4 == 1 && k % 8 == 5) v.insert(v.begin() + 3, {(v[2].x + v[3].x) / 2, (v[2].y + v[3].y) / 2});
    if (k % 6 == 2) std::reverse(v.begin(), v.end());
    if (k % 11 == 3) std::swap(v[0], v[2]);
    // The polygon's vertices, or its rejection's message.
    const auto built = [](const auto& input) {
      using W = std::decay_t<decltype(input[0].x)>;
      std::pair<std::vector<rigidref::vec2<W>>, std::string> out;
      try {
        out.first = rigidref::make_convex_polygon(input).vertices;
      } catch (const rigidref::invalid_input& e) {
        out.second = e.what();
      }
      return out;
    };
    const auto [want, want_error] = built(v);
    if (!want_error.empty()) ++rejected;
    if (want_error.empty() && want.size() < v.size()) ++dropped;
    const auto same = [&](const auto& wide) {
      using W = std::decay_t<decltype(wide[0].x)>;
      const auto [got, error] = built(wide);
      INFO("polygon " << k);
      CHECK(error == want_error);
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i].x == W(want[i].x));
        CHECK(got[i].y == W(want[i].y));
      }
    };
    std::vector<rigidref::vec2<rigidref::mp100>> m;
    std::vector<rigidref::vec2<rigidref::exact>> e;
    for (const auto& p : v) {
      m.push_back({rigidref::mp100(p.x), rigidref::mp100(p.y)});
      e.push_back({rigidref::to_exact(p.x), rigidref::to_exact(p.y)});
    }
    same(m);
    same(e);
  }
  CHECK(rejected > 100);
  CHECK(dropped > 100);
}

}  // namespace shapes_test
