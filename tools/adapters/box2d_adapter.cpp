// rigidref-box2d: answers eval requests with Box2D 2.4.1 (Debian libbox2d-dev),
// for `rigidref check`. Box2D computes in float.
//   mass.polygon     b2PolygonShape::Set + ComputeMass; inertia about the
//                    centroid as b2Body::ResetMassData forms it:
//                    I - m |c|^2, in float.
//   gjk.distance     b2Distance on two b2DistanceProxy (radius 0, useRadii
//                    false, identity transforms).
//   epa.penetration  b2CollidePolygons; depth and normal from the world
//                    manifold's deepest point, separations taken with radius
//                    0 (the geometric polygons). Box2D prefers A's face unless
//                    B's separates by more than 0.1 b2_linearSlop: declared
//                    as the allowance reference_face_tolerance on depth.
// Box2D polygons are convex with 3..8 vertices (b2_maxPolygonVertices): other
// inputs are answered "unsupported" (skipped by check, not failed). Each case
// runs in its own process: Debian builds Box2D with assertions on, and an
// assertion (e.g. a polygon smaller than the weld distance) aborts; that
// case is answered with error code "crashed", which check counts as failed
// (D-ENGINE-3). Welding that leaves 3 or more vertices changes the polygon
// silently: "vertices_used" shows it (D-ENGINE-4). Inertia far from the
// origin: D-ENGINE-5; b2CollidePolygons and b2Distance: D-ENGINE-6.
#include "adapter_io.hpp"

#include "rigidref/predicates.hpp"

#include <box2d/box2d.h>
#include <box2d/b2_distance.h>

#include <algorithm>
#include <vector>

namespace {

using namespace rigidref::adapters;

// Convex with every turn strictly one way (exact predicate on the floats).
bool strictly_convex(const std::vector<point>& v) {
  int sign = 0;
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i) {
    const rigidref::vec2<double> a{v[i].x, v[i].y}, b{v[(i + 1) % n].x, v[(i + 1) % n].y},
        c{v[(i + 2) % n].x, v[(i + 2) % n].y};
    const int o = rigidref::orientation(a, b, c);
    if (o == 0 || (sign != 0 && o != sign)) return false;
    sign = o;
  }
  return true;
}

b2PolygonShape box2d_polygon(const std::vector<point>& v) {
  if (v.size() < 3 || v.size() > b2_maxPolygonVertices)
    throw unsupported_case("Box2D polygons have 3 to 8 vertices, this one has " + std::to_string(v.size()));
  if (!strictly_convex(v)) throw unsupported_case("Box2D polygons are convex; this one is not");
  std::vector<b2Vec2> b;
  for (const point& p : v) b.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
  b2PolygonShape shape;
  shape.Set(b.data(), static_cast<int32>(b.size()));
  return shape;
}

std::vector<point> float_points(ojson& line, const char* field) {
  std::vector<point> v = to_float_grid(points(line.at(field), field));
  line[field] = points_json(v);
  return v;
}

void mass_polygon(ojson& line) {
  const std::vector<point> v = float_points(line, "vertices");
  const float density = static_cast<float>(line.contains("density") ? number(line["density"], "density") : 1.0);
  line["density"] = static_cast<double>(density);
  const b2PolygonShape shape = box2d_polygon(v);
  b2MassData md;
  shape.ComputeMass(&md, density);
  const float inertia = md.I - md.mass * b2Dot(md.center, md.center);  // b2Body::ResetMassData
  line["result"] = {{"area", static_cast<double>(md.mass / density)},
                    {"centroid", vec_json(md.center.x, md.center.y)},
                    {"mass", static_cast<double>(md.mass)},
                    {"inertia", static_cast<double>(inertia)},
                    {"vertices_used", shape.m_count}};  // fewer than given: Set welded or dropped some
}

void gjk_distance(ojson& line) {
  const b2PolygonShape a = box2d_polygon(float_points(line, "a"));
  const b2PolygonShape b = box2d_polygon(float_points(line, "b"));
  b2DistanceInput in;
  in.proxyA.Set(a.m_vertices, a.m_count, 0.0f);
  in.proxyB.Set(b.m_vertices, b.m_count, 0.0f);
  in.transformA.SetIdentity();
  in.transformB.SetIdentity();
  in.useRadii = false;
  b2SimplexCache cache;
  cache.count = 0;
  b2DistanceOutput out;
  b2Distance(&out, &cache, &in);
  const bool intersecting = out.distance == 0.0f;
  ojson r = {{"intersecting", intersecting}, {"distance", static_cast<double>(out.distance)}};
  if (!intersecting) {
    r["point_a"] = vec_json(out.pointA.x, out.pointA.y);
    r["point_b"] = vec_json(out.pointB.x, out.pointB.y);
  }
  r["iterations"] = out.iterations;
  r["vertices_used"] = ojson::array({a.m_count, b.m_count});
  line["result"] = r;
}

void epa_penetration(ojson& line) {
  const b2PolygonShape a = box2d_polygon(float_points(line, "a"));
  const b2PolygonShape b = box2d_polygon(float_points(line, "b"));
  b2Transform identity;
  identity.SetIdentity();
  b2Manifold m;
  b2CollidePolygons(&m, &a, identity, &b, identity);
  ojson r;
  if (m.pointCount == 0) {
    r = {{"intersecting", false}, {"depth", 0.0}};
  } else {
    b2WorldManifold wm;
    wm.Initialize(&m, identity, 0.0f, identity, 0.0f);  // radius 0: geometric separations
    float deepest = wm.separations[0];
    for (int i = 1; i < m.pointCount; ++i) deepest = std::min(deepest, wm.separations[i]);
    const bool intersecting = deepest <= 0.0f;
    r = {{"intersecting", intersecting},
         {"depth", intersecting ? static_cast<double>(-deepest) : 0.0},
         {"normal", vec_json(wm.normal.x, wm.normal.y)},
         {"manifold_points", m.pointCount}};
    if (!intersecting) r.erase("normal");
  }
  line["allowances"] = {{"reference_face_tolerance", static_cast<double>(0.1f * b2_linearSlop)}};
  line["result"] = r;
}

}  // namespace

int main() {
  return run_adapter("box2d-2.4.1", "float",
                     {{"mass.polygon", mass_polygon}, {"gjk.distance", gjk_distance},
                      {"epa.penetration", epa_penetration}},
                     /*isolate=*/true, /*seconds_per_case=*/5);  // Debian's Box2D keeps its assertions: b2Assert aborts
}
