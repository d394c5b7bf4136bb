// GJK distance (reference/include/rigidref/gjk.hpp), every binary type:
// derivations/gjk.md made executable.
//
// Truth comes from the exact oracle (verify/collision_oracle.hpp, written
// independently of gjk.hpp) or, for circles, from exact point-segment
// distances; square roots at 230 digits. Inputs are integers (or dyadic
// rationals) that every tested type represents exactly, so the exact
// oracle judges the very polygon the code saw.
//
// Tolerances, each from the derivation:
//  - decisions (intersecting, touching) are exact: compared with ==;
//  - polygon distance: sqrt of an exact rational rounded once, so within
//    1 ulp of the correctly rounded value (D-GJK-8);
//  - circle distance: sqrt(d^2) - r in the accumulator then rounded, so the
//    relative error is at most u + 8 u_acc (d_c + r) / |d| (D-GJK-9);
//  - closest points: exact points rounded per coordinate, so each is within
//    u (|x| + |y|) <= eps (|x^| + |y^|) of its shape (D-GJK-8);
//  - swapping A and B, and translating both by a vector T represents
//    exactly, leave the exact |q - p|^2 unchanged, hence the distance is
//    bit-identical (D-GJK-7);
//  - translating B by t changes the exact distance by at most |t|
//    (1-Lipschitz), and each computed distance is within eps of its own.
#include "support/collision_test_helpers.hpp"
#include "support/exact_helpers.hpp"
#include "support/generators.hpp"
#include "support/matchers.hpp"
#include "support/show_exact.hpp"

#include "rigidref/epa.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/gjk.hpp"
#include "rigidref/internal/collision_accuracy.hpp"
#include "rigidref/verify/collision_oracle.hpp"
#include "rigidref/internal/filter_agreement.hpp"

#include <rapidcheck/catch.h>

#include <algorithm>
#include <cmath>
#include <random>

#include <iostream>
#include <limits>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace gjk_test {

using namespace rigidref;

namespace gen = rigidref::testing::gen;

namespace {

using namespace rigidref::testing::collision;

template <class T>
void check_against_oracle(const EP& ea, const EP& eb) {
  RC_PRE(gen::exactly_representable<T>(ea) && gen::exactly_representable<T>(eb));
  RC_PRE(is_convex_input(ea) && is_convex_input(eb));
  const auto o = verify::exact_convex_collision(ea, eb);
  const gjk_result<T> r = gjk_distance(poly_of<T>(ea), poly_of<T>(eb));
  RC_ASSERT(r.status != collision_status::cap_reached);
  RC_ASSERT(r.intersecting == o.intersecting);
  RC_ASSERT((r.status == collision_status::touching) == o.touching);
  RC_ASSERT(dist2_to_polygon(ex(r.point_a), ea) <= point_bound2(r.point_a));
  RC_ASSERT(dist2_to_polygon(ex(r.point_b), eb) <= point_bound2(r.point_b));
  if (o.intersecting) {
    RC_ASSERT(r.distance == T(0));
    RC_ASSERT(r.point_a == r.point_b);  // a common point
  } else {
    RC_ASSERT(verify::ulps_from_rounded(r.distance, verify::sqrt_oracle(o.distance_squared)) <= 1);
    // |point_b - point_a| is the distance up to the points' rounding.
    const exact slack = to_exact(epsilon<T>()) * (eabs(to_exact(r.point_a.x)) + eabs(to_exact(r.point_a.y)) +
                                                  eabs(to_exact(r.point_b.x)) + eabs(to_exact(r.point_b.y)));
    const exact d = to_exact(r.distance);
    const exact hi = d * (1 + to_exact(epsilon<T>())) + slack;
    const exact lo = d * (1 - to_exact(epsilon<T>())) - slack;
    const exact sep2 = length_squared(ex(r.point_b) - ex(r.point_a));
    RC_ASSERT(sep2 <= hi * hi);
    RC_ASSERT(lo <= 0 || sep2 >= lo * lo);
  }
}

rc::Gen<EV> near_offset() {
  return rc::gen::apply([](int x, int y) { return EV{exact(x), exact(y)}; }, rc::gen::inRange(-(3 << 20), 3 << 20),
                        rc::gen::inRange(-(3 << 20), 3 << 20));
}

}  // namespace

// ---- agreement with the exact oracle -------------------------------------------

TEMPLATE_LIST_TEST_CASE("GJK agrees with the exact oracle: decisions exact, distance within 1 ulp", "[gjk][oracle]",
                        floating_scalars) {
  using T = TestType;
  rc::prop("integer convex polygons, B offset", [] {
    const EP a = *convex_integer_polygon();
    const EP b = translate(*convex_integer_polygon(), *near_offset());
    check_against_oracle<T>(a, b);
  });
  rc::prop("both far from the origin", [] {
    const EV far = *gen::far_offset(max_offset<T>());
    const EP a = translate(*convex_integer_polygon(), far);
    const EP b = translate(translate(*convex_integer_polygon(), *near_offset()), far);
    check_against_oracle<T>(a, b);
  });
  rc::prop("needles (aspect up to 1e4) against polygons", [] {
    const EP a = *gen::needle(10'000);
    const EP b = translate(*convex_integer_polygon(), *gen::far_offset(1 << 21));
    check_against_oracle<T>(a, b);
  });
  rc::prop("small integer polygons: touching edges, shared vertices, collinear features", [] {
    const int far = *rc::gen::element(0, 1 << 20);
    const EV f{exact(far), exact(-far)};
    const EP a = translate(*small_integer_polygon(0, 0), f);
    const EP b = translate(*small_integer_polygon(*rc::gen::inRange(-12, 13), *rc::gen::inRange(-12, 13)), f);
    check_against_oracle<T>(a, b);
  });
  rc::prop("size ratio up to 1e4: a small box near a large polygon", [] {
    const int s = *rc::gen::inRange(1, 100);
    const EV at = *gen::far_offset(1 << 21);
    const EP box{at, at + EV{exact(s), exact(0)}, at + EV{exact(s), exact(s)}, at + EV{exact(0), exact(s)}};
    check_against_oracle<T>(*convex_integer_polygon(), box);
  });
}

TEMPLATE_LIST_TEST_CASE("GJK: symmetric and translation invariant bit for bit; 1-Lipschitz", "[gjk][properties]",
                        floating_scalars) {
  using T = TestType;
  rc::prop("swap A and B, translate both", [] {
    const EP a = *convex_integer_polygon();
    const EP b = translate(*convex_integer_polygon(), *near_offset());
    const EV t = *gen::far_offset(std::is_same_v<T, float> ? (1 << 21) : (1 << 26));
    RC_PRE(is_convex_input(a) && is_convex_input(b));
    RC_PRE(gen::exactly_representable<T>(translate(a, t)) && gen::exactly_representable<T>(translate(b, t)));
    const auto r = gjk_distance(poly_of<T>(a), poly_of<T>(b));
    const auto s = gjk_distance(poly_of<T>(b), poly_of<T>(a));
    const auto m = gjk_distance(poly_of<T>(translate(a, t)), poly_of<T>(translate(b, t)));
    RC_ASSERT(s.intersecting == r.intersecting);
    RC_ASSERT(m.intersecting == r.intersecting);
    RC_ASSERT(s.status == r.status);
    RC_ASSERT(s.distance == r.distance);
    RC_ASSERT(m.distance == r.distance);
  });
  rc::prop("translating B by t moves the distance by at most |t|", [] {
    const EP a = *convex_integer_polygon();
    const EP b = translate(*convex_integer_polygon(), *near_offset());
    const EV t{exact(*rc::gen::inRange(-(1 << 20), 1 << 20)), exact(*rc::gen::inRange(-(1 << 20), 1 << 20))};
    RC_PRE(is_convex_input(a) && is_convex_input(b));
    const exact d1 = to_exact(gjk_distance(poly_of<T>(a), poly_of<T>(b)).distance);
    const exact d2 = to_exact(gjk_distance(poly_of<T>(a), poly_of<T>(translate(b, t))).distance);
    const exact gap = eabs(d1 - d2) - to_exact(epsilon<T>()) * (d1 + d2);
    RC_ASSERT(gap <= 0 || gap * gap <= length_squared(t));
  });
}

// ---- named cases -------------------------------------------------------------------

namespace {
template <class T>
std::vector<vec2<T>> box(const T& x0, const T& y0, const T& x1, const T& y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}
}  // namespace

TEMPLATE_LIST_TEST_CASE("GJK named cases: parallel edges, touching, one-ulp gaps", "[gjk][named]", floating_scalars) {
  using T = TestType;
  const auto unit = make_convex_polygon(box<T>(0, 0, 1, 1));
  SECTION("unit squares one apart along parallel edges: distance exactly 1") {
    const auto r = gjk_distance(unit, make_convex_polygon(box<T>(2, 0, 3, 1)));
    CHECK(!r.intersecting);
    CHECK(r.status == collision_status::converged);
    CHECK(r.distance == T(1));
    CHECK(r.point_a.x == T(1));
    CHECK(r.point_b.x == T(2));
    CHECK(r.point_a.y == r.point_b.y);
  }
  SECTION("libccd #68 (EPA crash on touching boxes): squares sharing an edge touch") {
    const auto r = gjk_distance(unit, make_convex_polygon(box<T>(1, 0, 2, 1)));
    CHECK(r.intersecting);
    CHECK(r.status == collision_status::touching);
    CHECK(r.distance == T(0));
    CHECK(r.point_a.x == T(1));
  }
  SECTION("shared vertex only: touching at (1, 1)") {
    const auto r = gjk_distance(unit, make_convex_polygon(box<T>(1, 1, 2, 2)));
    CHECK(r.status == collision_status::touching);
    CHECK_VEC(r.point_a, (vec2<T>{1, 1}));
  }
  SECTION("half-edge contact of different sizes touches") {
    const auto r = gjk_distance(unit, make_convex_polygon(box<T>(1, T(0.5), 4, 3)));
    CHECK(r.status == collision_status::touching);
  }
  SECTION("one ulp apart: separated by exactly that ulp") {
    const T x = boost::math::float_next(T(1));
    const auto r = gjk_distance(unit, make_convex_polygon(box<T>(x, 0, 2, 1)));
    CHECK(!r.intersecting);
    CHECK(r.distance == T(x - 1));
  }
  SECTION("one ulp of overlap: intersecting, not touching") {
    const T x = boost::math::float_prior(T(1));
    const auto r = gjk_distance(unit, make_convex_polygon(box<T>(x, 0, 2, 1)));
    CHECK(r.intersecting);
    CHECK(r.status == collision_status::converged);
  }
  SECTION("vertex one ulp from an edge: separated, distance from the exact feature pair") {
    // Triangle tip at (1/2, 1 + ulp) above the square's top edge.
    const T y = boost::math::float_next(T(1));
    const std::vector<vec2<T>> tri{{T(0.5), y}, {T(2), T(3)}, {T(-1), T(3)}};
    const auto r = gjk_distance(unit, make_convex_polygon(tri));
    CHECK(!r.intersecting);
    CHECK(r.distance == T(y - 1));
    CHECK_VEC(r.point_b, (vec2<T>{T(0.5), y}));
  }
  SECTION("libccd #25 (cubes 2 wide at z = 0 and 1.9: depth 0 and NaN): 2D squares overlap, GJK says so") {
    const auto r = gjk_distance(make_convex_polygon(box<T>(-1, -1, 1, 1)),
                                make_convex_polygon(box<T>(-1, T(0.9), 1, T(2.9))));
    CHECK(r.intersecting);
    CHECK(r.status == collision_status::converged);
    CHECK(is_finite(r.point_a.x));
    CHECK(is_finite(r.point_a.y));
  }
}

TEST_CASE("GJK terminates without hanging on degenerate simplices (libccd #7/#25 family)", "[gjk][named]") {
  // Identical squares (A - B symmetric about the origin), a square inside a
  // larger one with shared edges, and a sliver: each must terminate with an
  // exact decision. (The libccd issue texts are cited in derivations/gjk.md
  // by the failure mode they report: touching boxes and non-termination.)
  const auto unit = make_convex_polygon(box<double>(0, 0, 1, 1));
  CHECK(gjk_distance(unit, unit).status == collision_status::converged);
  CHECK(gjk_distance(unit, make_convex_polygon(box<double>(0, 0, 2, 2))).intersecting);
  const std::vector<vec2<double>> sliver{{0, 1}, {1e8, 1}, {1e8, 1 + 1e-8}};
  const auto r = gjk_distance(unit, make_convex_polygon(sliver));
  CHECK(r.status == collision_status::touching);
}

TEMPLATE_LIST_TEST_CASE("GJK cap: never a silent answer", "[gjk][cap]", floating_scalars) {
  using T = TestType;
  // A 12-gon against a far triangle on the side opposite to the first
  // vertex (the starting guess): GJK needs several iterations.
  std::vector<vec2<T>> ring;
  const int xs[] = {10, 8, 5, 0, -5, -8, -10, -8, -5, 0, 5, 8};
  const int ys[] = {0, 5, 8, 10, 8, 5, 0, -5, -8, -10, -8, -5};
  for (int i = 0; i < 12; ++i) ring.push_back({T(xs[i]), T(ys[i])});
  const auto a = make_convex_polygon(ring);
  const auto b = make_convex_polygon(std::vector<vec2<T>>{{T(-30), T(7)}, {T(-40), T(9)}, {T(-35), T(20)}});
  const auto full = gjk_distance(a, b);
  REQUIRE(full.iterations > 1);
  const auto capped = gjk_distance(a, b, gjk_options{1});
  CHECK(capped.status == collision_status::cap_reached);
  CHECK(capped.exact_fallback);
  CHECK(capped.intersecting == full.intersecting);
  CHECK(capped.distance == full.distance);  // the exact fallback still answers
}

// ---- inputs --------------------------------------------------------------------------

TEST_CASE("convex polygon inputs: duplicates and collinear vertices are removed, the rest rejected", "[gjk][inputs]") {
  const std::vector<vec2<double>> clean{{0, 0}, {2, 0}, {2, 1}, {0, 1}};
  const std::vector<vec2<double>> noisy{{0, 0}, {1, 0}, {2, 0}, {2, 0}, {2, 1}, {1, 1}, {0, 1}, {0, 0.5}, {0, 0}};
  const std::vector<vec2<double>> clockwise{{0, 1}, {2, 1}, {2, 0}, {0, 0}};
  const auto p = make_convex_polygon(noisy);
  CHECK(p.vertices.size() == 4);
  const auto other = make_convex_polygon(std::vector<vec2<double>>{{3, 3}, {5, 4}, {4, 6}});
  const auto r0 = gjk_distance(make_convex_polygon(clean), other);
  CHECK(gjk_distance(p, other).distance == r0.distance);
  CHECK(gjk_distance(make_convex_polygon(clockwise), other).distance == r0.distance);

  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  using V = std::vector<vec2<double>>;
  CHECK_THROWS_AS(make_convex_polygon(V{{0, 0}, {1, 0}}), invalid_input);
  CHECK_THROWS_AS(make_convex_polygon(V{{0, 0}, {1, 0}, {nan, 1}}), invalid_input);
  CHECK_THROWS_AS(make_convex_polygon(V{{0, 0}, {1, 0}, {inf, 1}}), invalid_input);
  CHECK_THROWS_AS(make_convex_polygon(V{{0, 0}, {1, 0}, {2, 0}}), invalid_input);           // zero area
  CHECK_THROWS_AS(make_convex_polygon(V{{0, 0}, {1, 1}, {0, 0}, {1, 1}}), invalid_input);   // repeated
  CHECK_THROWS_AS(make_convex_polygon(V{{0, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 2}}), invalid_input);  // reflex
  // Pentagram: every turn has the same sign, but it is not simple.
  CHECK_THROWS_AS(make_convex_polygon(V{{0, 10}, {6, -8}, {-10, 3}, {10, 3}, {-6, -8}}), invalid_input);
  // A spike folding back along an edge.
  CHECK_THROWS_AS(make_convex_polygon(V{{0, 0}, {2, 0}, {1, 0}, {1, 1}}), invalid_input);
  CHECK_THROWS_AS(make_circle(vec2<double>{0, 0}, 0.0), invalid_input);
  CHECK_THROWS_AS(make_circle(vec2<double>{0, 0}, -1.0), invalid_input);
  CHECK_THROWS_AS(make_circle(vec2<double>{0, 0}, nan), invalid_input);
  CHECK_THROWS_AS(make_circle(vec2<double>{nan, 0}, 1.0), invalid_input);
  // A distance beyond FLT_MAX: an input error, not an infinity.
  CHECK_THROWS_AS(gjk_distance(make_convex_polygon(box<float>(-3e38f, 0, -2.9e38f, 1)),
                               make_convex_polygon(box<float>(2.9e38f, 0, 3e38f, 1))),
                  invalid_input);
  CHECK_THROWS_AS(gjk_distance<double>(std::span<const vec2<double>>(V{{0, 0}, {1, 0}}),
                                       std::span<const vec2<double>>(clean)),
                  invalid_input);
}

// ---- circles ---------------------------------------------------------------------------

TEMPLATE_LIST_TEST_CASE("GJK with circles: core distance minus radii", "[gjk][circle]", floating_scalars) {
  using T = TestType;
  SECTION("3-4-5 circles: distance exactly 2") {
    const auto r = gjk_distance(make_circle(vec2<T>{0, 0}, T(1)), make_circle(vec2<T>{3, 4}, T(2)));
    CHECK(!r.intersecting);
    CHECK(r.distance == T(2));
    CHECK_VEC(r.point_a, (vec2<T>{from_string<T>("0.6"), from_string<T>("0.8")}));  // rounded once from 3/5, 4/5
    CHECK_VEC(r.point_b, (vec2<T>{from_string<T>("1.8"), from_string<T>("2.4")}));
  }
  SECTION("externally tangent circles touch; coincident centres overlap") {
    const auto t = gjk_distance(make_circle(vec2<T>{0, 0}, T(2)), make_circle(vec2<T>{3, 4}, T(3)));
    CHECK(t.status == collision_status::touching);
    CHECK_VEC(t.point_a, (vec2<T>{from_string<T>("1.2"), from_string<T>("1.6")}));
    const auto c = gjk_distance(make_circle(vec2<T>{1, 1}, T(2)), make_circle(vec2<T>{1, 1}, T(3)));
    CHECK(c.intersecting);
    CHECK(c.status == collision_status::converged);
  }
  rc::prop("circle against polygon: decision exact, distance within the D-GJK-9 bound", [] {
    const EP poly = *convex_integer_polygon();
    const EV c = *near_offset();
    const int r = *rc::gen::inRange(1, 1 << 20);
    RC_PRE(is_convex_input(poly));
    const auto circ = make_circle(vec2<T>{round_to<T>(c.x), round_to<T>(c.y)}, T(r));
    const bool swap = *rc::gen::arbitrary<bool>();
    const gjk_result<T> g = swap ? gjk_distance(circ, poly_of<T>(poly)) : gjk_distance(poly_of<T>(poly), circ);
    const exact d2 = dist2_to_polygon(c, poly);
    const exact r2 = exact(r) * exact(r);
    RC_ASSERT(g.intersecting == (d2 <= r2));
    RC_ASSERT((g.status == collision_status::touching) == (d2 == r2));
    if (d2 > r2) {
      using O = verify::oracle_float;
      const O dc = sqrt(O(numerator(d2)) / O(denominator(d2)));
      const exact truth = to_exact(O(dc - O(r)));
      const double cond = static_cast<double>(round_to<double>(to_exact(O((dc + O(r)) / (dc - O(r))))));
      const double bound = 0.5 + 8 * static_cast<double>(round_to<double>(testing::accumulator_unit<T>() /
                                                                          to_exact(epsilon<T>()))) * cond;
      RC_ASSERT(verify::relative_error_eps(g.distance, truth) <= bound);
    }
  });
}

// D-GJK-19: a circle's centre outside a polygon is answered from its closest
// feature, found without GJK's loop and proved by the one-pass certificate
// (iterations 0). Every answer must be the loop's (point_first = false) bit
// for bit, in both orders, for GJK and for EPA; the route must be taken for
// generic centres outside and never for a centre inside or on the boundary.
TEMPLATE_TEST_CASE("closest feature first: a circle's centre outside a polygon", "[gjk][circle][filter]", float,
                   double, long double) {
  using T = TestType;
  using verify::same_result;
  const gjk_options gjk_loop{0, false};
  const epa_options epa_loop{0, 0, true, false};  // SAT first still answers centres inside
  // Both orders, both queries; returns how many of the four took the route.
  auto check_pair = [&](const convex_polygon<T>& p, const circle<T>& c) {
    const gjk_result<T> pc = gjk_distance(p, c), cp = gjk_distance(c, p);
    const epa_result<T> epc = epa_penetration(p, c), ecp = epa_penetration(c, p);
    CHECK(same_result(pc, gjk_distance(p, c, gjk_loop)));
    CHECK(same_result(cp, gjk_distance(c, p, gjk_loop)));
    CHECK(same_result(epc, epa_penetration(p, c, epa_loop)));
    CHECK(same_result(ecp, epa_penetration(c, p, epa_loop)));
    // Both orders and both queries share the route: when GJK takes it, so
    // does everything else (EPA alone also answers centres inside, D-EPA-11).
    CHECK((pc.iterations == 0) == (cp.iterations == 0));
    if (pc.iterations == 0) CHECK((epc.iterations == 0 && ecp.iterations == 0));
    return (pc.iterations == 0) + (cp.iterations == 0);
  };
  std::mt19937_64 rng(20261124);
  std::uniform_real_distribution<double> U(0, 1);
  int outside = 0, outside_taken = 0, inside_taken = 0;
  for (int k = 0; k < 300; ++k) {
    const int n = 3 + static_cast<int>(U(rng) * 6);
    const double r = 0.5 + 1.5 * U(rng), rot = 6.28 * U(rng);
    std::vector<vec2<T>> v;
    for (int i = 0; i < n; ++i) {
      const double t = (i + 0.6 * U(rng) - 0.3) * 6.283185307179586 / n + rot;
      v.push_back({static_cast<T>(r * std::cos(t)), static_cast<T>(r * 0.7 * std::sin(t))});
    }
    const convex_polygon<T> p = make_convex_polygon(v);
    const vec2<T> centre{static_cast<T>(8 * U(rng) - 4), static_cast<T>(8 * U(rng) - 4)};
    const circle<T> c = make_circle(centre, static_cast<T>(0.05 + 2.5 * U(rng)));
    const int taken = check_pair(p, c);
    const bool is_outside = dist2_to_polygon(ex(centre), detail::exact_points<T>(p.vertices)) > 0;
    outside += is_outside;
    (is_outside ? outside_taken : inside_taken) += taken;
  }
  INFO("centres outside " << outside << ", queries taken " << outside_taken << " of " << 2 * outside);
  CHECK(outside > 150);
  CHECK(inside_taken == 0);
  CHECK(outside_taken == 2 * outside);  // generic centres: the guess and the certificate always succeed
  // Integer polygons and centres: centres on edge lines, on the boundaries of
  // the vertex wedges (a tie between a vertex and an edge), on the boundary
  // itself, inside. Refusals are fine; other bits are not.
  const std::vector<std::vector<vec2<T>>> shapes{
      {{T(0), T(0)}, {T(2), T(0)}, {T(2), T(2)}, {T(0), T(2)}},
      {{T(0), T(0)}, {T(3), T(0)}, {T(0), T(1)}},
      {{T(0), T(0)}, {T(2), T(1)}, {T(1), T(3)}, {T(-1), T(2)}},
      {{T(0), T(0)}, {T(2), T(0)}, {T(3), T(1)}, {T(2), T(2)}, {T(0), T(2)}, {T(-1), T(1)}}};
  int grid_taken = 0, on_boundary_taken = 0;
  for (const auto& s : shapes) {
    const convex_polygon<T> p = make_convex_polygon(s);
    const EP exact_poly = detail::exact_points<T>(p.vertices);
    for (int x = -4; x <= 6; ++x)
      for (int y = -4; y <= 6; ++y)
        for (const int radius : {1, 2}) {
          const vec2<T> centre{T(x), T(y)};
          const int taken = check_pair(p, make_circle(centre, T(radius)));
          grid_taken += taken;
          if (dist2_to_polygon(EV{exact(x), exact(y)}, exact_poly) == 0) on_boundary_taken += taken;
        }
  }
  INFO("integer queries taken " << grid_taken);
  CHECK(grid_taken > 0);
  CHECK(on_boundary_taken == 0);
}

// ---- accuracy table ----------------------------------------------------------------------

TEMPLATE_LIST_TEST_CASE("collision accuracy table: GJK distance, EPA depth and normal", "[gjk][epa][accuracy]",
                        floating_scalars) {
  using T = TestType;
  const std::size_t count = digits<T>() > 64 ? 60 : 300;
  const auto t = verify::collision_accuracy<T>(20261122, count);
  INFO("first mismatch: " << t.first_mismatch);
  CHECK(t.decision_mismatches == 0);
  // On generic (non-touching) inputs the T simplex is always certified.
  CHECK(t.exact_fallbacks == 0);
  for (const auto& s : t.stats) {
    const auto* b = verify::find_bound(s.function, s.digits);
    REQUIRE(b != nullptr);
    INFO(s.function << " in " << s.type << ": " << s.cases << " cases, max " << s.max_ulps << " ulps, max "
                    << s.max_eps << " eps, rms " << s.rms_eps() << " eps; worst " << s.worst_case);
    CHECK(s.cases > 0);
    CHECK(s.max_ulps <= b->max_ulps);
    CHECK(s.max_eps <= b->max_eps);
    std::cout << s.type << " | " << s.function << " | cases " << s.cases << " | max ulps " << s.max_ulps
              << " | max eps " << s.max_eps << " | rms eps " << s.rms_eps() << "\n";
  }
}

}  // namespace gjk_test
