// A user's own engine tests, as an engine author writes them: Box2D 2.4.1's
// float answers judged in Catch2 by rigidref's installed judge, without
// JSON, with the same verdicts as `rigidref check`; through the umbrella
// header, whose use a first test shows on its own (the unit square's mass
// properties, exactly, and the distance of two unit squares 1 apart).
#include <catch2/catch.hpp>  // main: Catch2::Catch2WithMain (CMakeLists.txt)

#include <box2d/b2_distance.h>
#include <box2d/box2d.h>

#include <rigidref/rigidref.hpp>

#include <vector>

namespace j = rigidref::judge;
using rigidref::vec2;

namespace {

// A hexagon off the origin, in float, as the engine takes it.
const std::vector<vec2<float>> hexagon{{3.0f, 1.0f}, {4.5f, 0.75f}, {5.25f, 2.0f}, {4.75f, 3.5f}, {3.25f, 3.25f}, {2.5f, 2.0f}};

b2MassData box2d_mass(const std::vector<vec2<float>>& v) {
  std::vector<b2Vec2> points;
  for (const auto& p : v) points.push_back({p.x, p.y});
  b2PolygonShape shape;
  shape.Set(points.data(), static_cast<int32>(points.size()));
  b2MassData md;
  shape.ComputeMass(&md, 1.0f);
  return md;
}

}  // namespace

TEST_CASE("the umbrella header: exact mass properties and a GJK distance") {
  using rigidref::exact;
  const std::vector<vec2<exact>> square{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const auto m = rigidref::polygon_mass_from_density<exact>(square, exact(1));
  CHECK(m.area == 1);
  CHECK(m.inertia == exact(1, 6));
  const std::vector<vec2<double>> pa{{0, 0}, {1, 0}, {1, 1}, {0, 1}}, pb{{2, 0}, {3, 0}, {3, 1}, {2, 1}};
  const auto d = rigidref::gjk_distance(rigidref::make_convex_polygon<double>(pa), rigidref::make_convex_polygon<double>(pb));
  CHECK(!d.intersecting);
  CHECK(d.distance == 1.0);
}

TEST_CASE("Box2D's mass properties of a hexagon pass rigidref's judge") {
  const b2MassData md = box2d_mass(hexagon);
  // b2Body::ResetMassData: the inertia about the centre of mass, in float.
  const float inertia = md.I - md.mass * b2Dot(md.center, md.center);
  j::mass_polygon_answer answer;
  answer.mass = md.mass;
  answer.centroid = j::point(md.center.x, md.center.y);
  answer.inertia = inertia;
  const j::verdict v = j::judge_mass_polygon(j::mass_polygon_case::with_density(hexagon, 1.0f), answer,
                                             j::engine::working_in<float>());
  INFO(v.detail());
  CHECK(v.passed());
  CHECK(v.judged_count() == 3);
  for (const j::field_verdict& f : v.fields) CHECK(f.error_eps <= f.budget_eps);
}

TEST_CASE("rigidref's judge fails a wrong use of Box2D: the inertia about the body origin") {
  const b2MassData md = box2d_mass(hexagon);
  j::mass_polygon_answer answer;
  answer.inertia = md.I;  // b2MassData::I is about the body origin, not the centroid
  const j::verdict v = j::judge_mass_polygon(j::mass_polygon_case::with_density(hexagon, 1.0f), answer,
                                             j::engine::working_in<float>());
  CHECK(v.failed());
  CHECK(v.failures == std::vector<std::string>{"inertia"});
}

TEST_CASE("Box2D's b2Distance of two boxes passes rigidref's judge") {
  b2PolygonShape a, b;
  a.SetAsBox(1.0f, 0.5f, b2Vec2(0.0f, 0.0f), 0.3f);
  b.SetAsBox(0.75f, 0.75f, b2Vec2(3.0f, 1.25f), -0.2f);
  b2DistanceInput in;
  in.proxyA.Set(&a, 0);
  in.proxyB.Set(&b, 0);
  in.transformA.SetIdentity();
  in.transformB.SetIdentity();
  in.useRadii = false;  // the polygons themselves, without Box2D's skin
  b2SimplexCache cache;
  cache.count = 0;
  b2DistanceOutput out;
  b2Distance(&out, &cache, &in);
  const auto shape_of = [](const b2PolygonShape& s) {
    std::vector<vec2<float>> v;
    for (int32 i = 0; i < s.m_count; ++i) v.push_back({s.m_vertices[i].x, s.m_vertices[i].y});
    return j::shape::polygon_of(v);
  };
  j::gjk_answer answer;
  answer.intersecting = out.distance <= 0.0f;
  answer.distance = out.distance;
  answer.point_a = j::point(out.pointA.x, out.pointA.y);
  answer.point_b = j::point(out.pointB.x, out.pointB.y);
  const j::verdict v = j::judge_gjk_distance({shape_of(a), shape_of(b)}, answer, j::engine::working_in<float>());
  INFO(v.detail());
  CHECK(v.passed());
  // The same answer with the distance measured along x alone (a wrong
  // norm) fails.
  answer.distance = out.pointB.x - out.pointA.x;
  CHECK(j::judge_gjk_distance({shape_of(a), shape_of(b)}, answer, j::engine::working_in<float>()).failed());
}
