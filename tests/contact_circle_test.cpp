// Circle manifolds (reference/include/rigidref/contact_circle.hpp,
// derivations/contact.md D-CONTACT-15).
//
// Judges, independent of contact_circle.hpp and detail/polygon_point.hpp:
//   - hand-worked cases (values derived in the comments);
//   - an oracle written here from the definitions: inside by edge signs,
//     the squared distance as the minimum over edges of the point-segment
//     distance (verify/collision_oracle.hpp), the closest point by clamping
//     on the minimising edge, the nearest edge line by s^2/|e|^2; the
//     irrational values (separation, points on a circle) in 230 digits;
//   - the circle SAT (sat.hpp), whose status and normal the manifold must
//     repeat bit for bit.
// Tolerances: the separation within 1 ulp (rounded once from the
// accumulator, D-CONTACT-15); a polygon's reference point correctly rounded
// (0 ulps, it is rational); a point on a circle c + r a/|a| within 1 ulp or,
// where its coordinate cancels, within 4 eps^2 (|c_i| + r) absolute: the
// accumulator carries at least twice T's precision (D-MASS-5, D-CONTACT-15).
#include "support/collision_test_helpers.hpp"

#include "rigidref/contact_circle.hpp"
#include "rigidref/verify/accuracy.hpp"

#include <rapidcheck/catch.h>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace contact_circle_test {

using namespace rigidref;
using namespace rigidref::testing::collision;
using O = verify::oracle_float;

namespace {

using circle_scalars = std::tuple<float, double, long double, mp50>;

template <class T>
std::vector<vec2<T>> square() {
  return {{T(-1), T(-1)}, {T(1), T(-1)}, {T(1), T(1)}, {T(-1), T(1)}};
}

exact from_oracle(const O& x) { return to_exact(x); }

O oracle(const exact& q) { return round_to<O>(q); }

O oracle_sqrt(const exact& q) {
  using std::sqrt;
  return sqrt(oracle(q));
}

// A point on a circle, judged as the header says: 1 ulp, or 4 eps^2 (|c| + r).
template <class T>
bool close_circle_point(const T& computed, const exact& truth, const exact& c, const exact& r) {
  if (verify::ulps_from_rounded(computed, truth) <= 1) return true;
  const exact e = to_exact(epsilon<T>());
  return eabs(exact(to_exact(computed) - truth)) <= 4 * e * e * (eabs(c) + r);
}

template <class T>
void check_feature(const contact_feature& f, int polygon, feature_type type, std::size_t index) {
  CHECK(f.polygon == polygon);
  CHECK(f.type == type);
  CHECK(f.index == index);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("circle manifold: a square and a circle by hand (D-CONTACT-15)", "[contact][circle]",
                        circle_scalars) {
  using T = TestType;
  const std::vector<vec2<T>> a = square<T>();
  // Edges: 0 bottom, 1 right, 2 top, 3 left.
  SECTION("centre above the top face, overlapping by 1/2") {
    const contact_manifold<T> m = collide_polygon_circle_manifold<T>(a, circle<T>{{T(0), T(1.5)}, T(1)});
    CHECK(m.status == contact_status::intersecting);
    CHECK_VEC(m.normal, (vec2<T>{T(0), T(1)}));
    CHECK(m.reference_polygon == 0);
    REQUIRE(m.points.size() == 1);
    CHECK_VEC(m.points[0].point, (vec2<T>{T(0), T(0.5)}));  // (0, 1.5) - 1 (0, 1)
    CHECK_VEC(m.points[0].reference_point, (vec2<T>{T(0), T(1)}));
    CHECK(m.points[0].separation == T(-0.5));  // 1/2 - 1
    check_feature<T>(m.points[0].feature_a, 0, feature_type::face, 2);
    check_feature<T>(m.points[0].feature_b, 1, feature_type::vertex, 0);
  }
  SECTION("centre inside, 1/2 below the top face: the nearest edge line") {
    const contact_manifold<T> m = collide_polygon_circle_manifold<T>(a, circle<T>{{T(0), T(0.5)}, T(1)});
    CHECK(m.status == contact_status::intersecting);
    CHECK_VEC(m.normal, (vec2<T>{T(0), T(1)}));
    REQUIRE(m.points.size() == 1);
    CHECK_VEC(m.points[0].point, (vec2<T>{T(0), T(-0.5)}));
    CHECK_VEC(m.points[0].reference_point, (vec2<T>{T(0), T(1)}));
    CHECK(m.points[0].separation == T(-1.5));  // -(1 + 1/2)
  }
  SECTION("centre beyond a corner: the vertex is the feature") {
    // c = (2, 2), r = 2: q = (1, 1), d = sqrt 2, s = sqrt 2 - 2, n = (1, 1)/sqrt 2,
    // point = (2 - sqrt 2, 2 - sqrt 2).
    const contact_manifold<T> m = collide_polygon_circle_manifold<T>(a, circle<T>{{T(2), T(2)}, T(2)});
    CHECK(m.status == contact_status::intersecting);
    REQUIRE(m.points.size() == 1);
    const exact root2 = from_oracle(oracle_sqrt(exact(2)));
    CHECK(verify::ulps_from_rounded(m.normal.x, from_oracle(oracle_sqrt(exact(1, 2)))) <= 1);
    CHECK(m.normal.x == m.normal.y);
    CHECK(verify::ulps_from_rounded(m.points[0].separation, exact(root2 - 2)) <= 1);
    CHECK(verify::ulps_from_rounded(m.points[0].point.x, exact(2 - root2)) <= 1);
    CHECK_VEC(m.points[0].reference_point, (vec2<T>{T(1), T(1)}));
    check_feature<T>(m.points[0].feature_a, 0, feature_type::vertex, 2);
  }
  SECTION("apart: no point at margin 0, one within a relative margin") {
    const circle<T> b{{T(0), T(3)}, T(1)};  // s = 2 - 1 = 1
    const contact_manifold<T> m0 = collide_polygon_circle_manifold<T>(a, b);
    CHECK(m0.status == contact_status::separated);
    CHECK_VEC(m0.normal, (vec2<T>{T(0), T(1)}));
    CHECK(m0.points.empty());
    // L = min(2, 2r) = 2: relative margin 1/2 gives m = 1 = s, kept (s <= m);
    // 0.375 gives 0.75 < s, dropped.
    CHECK(collide_polygon_circle_manifold<T>(a, b, {.relative_margin = 0.5}).points.size() == 1);
    CHECK(collide_polygon_circle_manifold<T>(a, b, {.relative_margin = 0.375}).points.empty());
    const contact_manifold<T> m1 = collide_polygon_circle_manifold<T>(a, b, {.relative_margin = 0.5});
    CHECK(m1.points[0].separation == T(1));
    CHECK_VEC(m1.points[0].point, (vec2<T>{T(0), T(2)}));
  }
  SECTION("touching: one point, separation 0") {
    const contact_manifold<T> m = collide_polygon_circle_manifold<T>(a, circle<T>{{T(0), T(2)}, T(1)});
    CHECK(m.status == contact_status::touching);
    REQUIRE(m.points.size() == 1);
    CHECK(m.points[0].separation == T(0));
    CHECK_VEC(m.points[0].point, (vec2<T>{T(0), T(1)}));
  }
  SECTION("circle A against polygon B: the reference is B, the normal from A to B") {
    const contact_manifold<T> m = collide_circle_polygon_manifold<T>(circle<T>{{T(0), T(1.5)}, T(1)}, a);
    CHECK(m.reference_polygon == 1);
    CHECK_VEC(m.normal, (vec2<T>{T(0), T(-1)}));
    REQUIRE(m.points.size() == 1);
    CHECK_VEC(m.points[0].point, (vec2<T>{T(0), T(0.5)}));  // c_A + r_A n
    CHECK_VEC(m.points[0].reference_point, (vec2<T>{T(0), T(1)}));  // point + separation n
    CHECK(m.points[0].separation == T(-0.5));
    check_feature<T>(m.points[0].feature_a, 0, feature_type::vertex, 0);
    check_feature<T>(m.points[0].feature_b, 1, feature_type::face, 2);
  }
  SECTION("bad input is a typed error") {
    CHECK_THROWS_AS(collide_polygon_circle_manifold<T>(a, circle<T>{{T(0), T(0)}, T(0)}), invalid_input);
    CHECK_THROWS_AS(collide_polygon_circle_manifold<T>(a, circle<T>{{T(0), T(0)}, T(1)}, {.relative_margin = -1}),
                    invalid_input);
    CHECK_THROWS_AS(collide_circles_manifold<T>(circle<T>{{T(0), T(0)}, T(1)}, circle<T>{{T(0), T(0)}, T(-1)}),
                    invalid_input);
  }
}

TEMPLATE_LIST_TEST_CASE("circle manifold: two circles by hand (D-CONTACT-15)", "[contact][circle]", circle_scalars) {
  using T = TestType;
  // c_A = (0, 0), r_A = 2; c_B = (3, 4), r_B = 4: |d| = 5, n = (3/5, 4/5),
  // s = 5 - 6 = -1, point = c_B - 4 n = (3/5, 4/5), reference = 2 n = (6/5, 8/5).
  const contact_manifold<T> m =
      collide_circles_manifold<T>(circle<T>{{T(0), T(0)}, T(2)}, circle<T>{{T(3), T(4)}, T(4)});
  CHECK(m.status == contact_status::intersecting);
  CHECK(verify::ulps_from_rounded(m.normal.x, exact(3, 5)) <= 1);
  CHECK(verify::ulps_from_rounded(m.normal.y, exact(4, 5)) <= 1);
  REQUIRE(m.points.size() == 1);
  CHECK(m.points[0].separation == T(-1));
  CHECK(verify::ulps_from_rounded(m.points[0].point.x, exact(3, 5)) <= 1);
  CHECK(verify::ulps_from_rounded(m.points[0].point.y, exact(4, 5)) <= 1);
  CHECK(verify::ulps_from_rounded(m.points[0].reference_point.x, exact(6, 5)) <= 1);
  CHECK(verify::ulps_from_rounded(m.points[0].reference_point.y, exact(8, 5)) <= 1);
  // Touching (r_B = 3) and apart (r_B = 2).
  const contact_manifold<T> t = collide_circles_manifold<T>(circle<T>{{T(0), T(0)}, T(2)}, circle<T>{{T(3), T(4)}, T(3)});
  CHECK(t.status == contact_status::touching);
  REQUIRE(t.points.size() == 1);
  CHECK(t.points[0].separation == T(0));
  CHECK(collide_circles_manifold<T>(circle<T>{{T(0), T(0)}, T(2)}, circle<T>{{T(3), T(4)}, T(2)}).points.empty());
  // Coincident centres: normal (1, 0) by convention, separation -(r_A + r_B).
  const contact_manifold<T> c = collide_circles_manifold<T>(circle<T>{{T(1), T(1)}, T(1)}, circle<T>{{T(1), T(1)}, T(2)});
  CHECK_VEC(c.normal, (vec2<T>{T(1), T(0)}));
  REQUIRE(c.points.size() == 1);
  CHECK(c.points[0].separation == T(-3));
  CHECK_VEC(c.points[0].point, (vec2<T>{T(-1), T(1)}));
  CHECK_VEC(c.points[0].reference_point, (vec2<T>{T(2), T(1)}));
}

namespace {

struct circle_case {
  EP polygon;
  EV center;
  exact radius;
};

void showValue(const circle_case& c, std::ostream& os) {
  os << "polygon=";
  for (const auto& p : c.polygon) os << "[" << p.x << "," << p.y << "]";
  os << " center=[" << c.center.x << "," << c.center.y << "] r=" << c.radius;
}

// An integer polygon (radius ~2^20) and a circle near it: the centre a
// vertex or an edge midpoint moved by an integer offset, or inside; the
// radius an integer up to the polygon's size, or one that makes the pair
// touch exactly at a vertex. Then both moved by a far offset.
template <class T>
rc::Gen<circle_case> polygon_and_circle() {
  return rc::gen::exec([] {
    circle_case c;
    c.polygon = *sat_convex_polygon(8);
    const std::size_t i = *rc::gen::inRange<std::size_t>(0, c.polygon.size());
    const EV v = c.polygon[i], w = c.polygon[(i + 1) % c.polygon.size()];
    const int where = *rc::gen::inRange(0, 3);
    c.center = where == 0 ? v : where == 1 ? EV{exact((v.x + w.x) / 2), exact((v.y + w.y) / 2)} : EV{exact(0), exact(0)};
    const int spread = 1 << *rc::gen::inRange(0, 21);
    c.center = c.center + EV{exact(*rc::gen::inRange(-spread, spread + 1)), exact(*rc::gen::inRange(-spread, spread + 1))};
    c.radius = exact(*rc::gen::inRange(1, 1 << 21));
    const int offset = max_offset<T>();
    const EV far{exact(*rc::gen::inRange(-offset, offset + 1)), exact(*rc::gen::inRange(-offset, offset + 1))};
    c.polygon = translate(c.polygon, far);
    c.center = c.center + far;
    return c;
  });
}

// The oracle's view of a polygon and a point: inside, the squared distance
// (to the polygon, or to the nearest edge line when inside), and the edges
// that attain it.
struct oracle_geometry {
  bool inside;
  exact d2;
  std::vector<std::size_t> edges;
};

oracle_geometry oracle_polygon_point(const EP& p, const EV& c) {
  oracle_geometry g{rigidref::testing::collision::inside(c, p), exact(-1), {}};
  for (std::size_t i = 0; i < p.size(); ++i) {
    const EV& u = p[i];
    const EV& v = p[(i + 1) % p.size()];
    exact d2;
    if (g.inside) {
      const exact s = cross(v - u, c - u);
      d2 = s * s / length_squared(v - u);
    } else {
      d2 = verify::point_segment_distance_squared(c, u, v);
    }
    if (g.d2 < 0 || d2 < g.d2) {
      g.d2 = d2;
      g.edges = {i};
    } else if (d2 == g.d2) {
      g.edges.push_back(i);
    }
  }
  return g;
}

// Clamp c onto edge [u, v] (the closest point on the segment).
EV clamp_on(const EV& c, const EV& u, const EV& v) {
  exact t = dot(c - u, v - u) / length_squared(v - u);
  t = t < 0 ? exact(0) : t > 1 ? exact(1) : t;
  return u + t * (v - u);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("circle manifold against the oracle (D-CONTACT-15)", "[contact][circle][oracle]",
                        circle_scalars) {
  using T = TestType;
  rc::prop("polygon A, circle B: status, normal, separation, points", [] {
    const circle_case c = *polygon_and_circle<T>();
    const std::vector<vec2<T>> a = gen::to_type<T>(c.polygon);
    const circle<T> b{{round_to<T>(c.center.x), round_to<T>(c.center.y)}, round_to<T>(c.radius)};
    const contact_manifold<T> m = collide_polygon_circle_manifold<T>(a, b);
    const circle_result<T> sat = collide_polygon_circle<T>(a, b.center, b.radius);
    RC_ASSERT(m.status == sat.status);
    RC_ASSERT(m.normal == sat.normal);
    RC_ASSERT(m.points.size() == (m.status == contact_status::separated ? 0u : 1u));
    if (m.points.empty()) return;
    const manifold_point<T>& p = m.points[0];
    const oracle_geometry g = oracle_polygon_point(c.polygon, c.center);
    // The separation: sqrt(d2) - r outside, -(r + sqrt(d2)) inside.
    const O root = oracle_sqrt(g.d2);
    const exact s_true = from_oracle(g.inside ? O(-(oracle(c.radius) + root)) : O(root - oracle(c.radius)));
    RC_ASSERT(verify::ulps_from_rounded(p.separation, s_true) <= 1);
    // The reference point on the polygon, and the feature that holds it.
    const std::size_t k = p.feature_a.type == feature_type::face ? p.feature_a.index : 0;
    EV q_true;
    if (g.inside) {
      RC_ASSERT(p.feature_a.type == feature_type::face);
      RC_ASSERT(std::find(g.edges.begin(), g.edges.end(), k) != g.edges.end());
      const EV u = c.polygon[k], e = c.polygon[(k + 1) % c.polygon.size()] - u;
      const EV m{e.y, exact(-e.x)};  // a normal of the edge; the foot does not depend on its sign
      q_true = c.center - (dot(c.center - u, m) / length_squared(m)) * m;
    } else {
      q_true = clamp_on(c.center, c.polygon[g.edges[0]], c.polygon[(g.edges[0] + 1) % c.polygon.size()]);
      if (p.feature_a.type == feature_type::vertex) RC_ASSERT(c.polygon[p.feature_a.index] == q_true);
    }
    RC_ASSERT(verify::ulps_from_rounded(p.reference_point.x, q_true.x) == 0);
    RC_ASSERT(verify::ulps_from_rounded(p.reference_point.y, q_true.y) == 0);
    // The point on the circle: c - r n, n from q_true (outside) or the
    // nearest edge's outward normal (inside): both are (c - q)/|c - q| up to
    // sign, the sign that makes n point from A to B.
    EV axis = c.center - q_true;
    if (g.inside) {
      const EV u = c.polygon[k], e = c.polygon[(k + 1) % c.polygon.size()] - u;
      const exact twice_area = [&] {
        exact t = 0;
        for (std::size_t i = 0; i < c.polygon.size(); ++i) t += cross(c.polygon[i], c.polygon[(i + 1) % c.polygon.size()]);
        return t;
      }();
      axis = twice_area > 0 ? EV{e.y, exact(-e.x)} : EV{exact(-e.y), e.x};
    }
    const O len = oracle_sqrt(length_squared(axis));
    const exact px = from_oracle(oracle(c.center.x) - oracle(c.radius) * oracle(axis.x) / len);
    const exact py = from_oracle(oracle(c.center.y) - oracle(c.radius) * oracle(axis.y) / len);
    RC_ASSERT(close_circle_point(p.point.x, px, c.center.x, c.radius));
    RC_ASSERT(close_circle_point(p.point.y, py, c.center.y, c.radius));
    // Circle A against polygon B is the mirror image: the same point and
    // separation, the normal negated, the features swapped.
    const contact_manifold<T> mirror = collide_circle_polygon_manifold<T>(b, a);
    RC_ASSERT(mirror.normal == (vec2<T>{T(-m.normal.x), T(-m.normal.y)}));
    RC_ASSERT(mirror.points.size() == 1u);
    RC_ASSERT(mirror.points[0].point == p.point);
    RC_ASSERT(mirror.points[0].reference_point == p.reference_point);
    RC_ASSERT(mirror.points[0].separation == p.separation);
    RC_ASSERT(mirror.points[0].feature_b.index == p.feature_a.index);
  });
  rc::prop("two circles: status, normal, separation, points", [] {
    const int spread = 1 << *rc::gen::inRange(0, 21);
    const EV ca{exact(*rc::gen::inRange(-spread, spread + 1)), exact(*rc::gen::inRange(-spread, spread + 1))};
    const EV cb{exact(*rc::gen::inRange(-spread, spread + 1)), exact(*rc::gen::inRange(-spread, spread + 1))};
    const exact ra(*rc::gen::inRange(1, spread + 1)), rb(*rc::gen::inRange(1, spread + 1));
    const circle<T> a{{round_to<T>(ca.x), round_to<T>(ca.y)}, round_to<T>(ra)};
    const circle<T> b{{round_to<T>(cb.x), round_to<T>(cb.y)}, round_to<T>(rb)};
    const contact_manifold<T> m = collide_circles_manifold<T>(a, b);
    const circle_result<T> sat = collide_circles<T>(a.center, a.radius, b.center, b.radius);
    RC_ASSERT(m.status == sat.status);
    RC_ASSERT(m.normal == sat.normal);
    RC_ASSERT(m.points.size() == (m.status == contact_status::separated ? 0u : 1u));
    if (m.points.empty()) return;
    const EV d = cb - ca;
    const exact D2 = length_squared(d);
    const O len = oracle_sqrt(D2);
    RC_ASSERT(verify::ulps_from_rounded(m.points[0].separation, from_oracle(O(len - oracle(exact(ra + rb))))) <= 1);
    if (D2 == 0) return;  // the convention, checked by hand above
    const exact px = from_oracle(oracle(cb.x) - oracle(rb) * oracle(d.x) / len);
    const exact py = from_oracle(oracle(cb.y) - oracle(rb) * oracle(d.y) / len);
    const exact qx = from_oracle(oracle(ca.x) + oracle(ra) * oracle(d.x) / len);
    const exact qy = from_oracle(oracle(ca.y) + oracle(ra) * oracle(d.y) / len);
    RC_ASSERT(close_circle_point(m.points[0].point.x, px, cb.x, rb));
    RC_ASSERT(close_circle_point(m.points[0].point.y, py, cb.y, rb));
    RC_ASSERT(close_circle_point(m.points[0].reference_point.x, qx, ca.x, ra));
    RC_ASSERT(close_circle_point(m.points[0].reference_point.y, qy, ca.y, ra));
  });
}

}  // namespace contact_circle_test
