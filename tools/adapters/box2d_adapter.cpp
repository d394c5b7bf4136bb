// rigidref-box2d: answers eval requests with Box2D 2.4.1 (Debian libbox2d-dev),
// for `rigidref check`. Box2D computes in float.
//   mass.polygon     b2PolygonShape::Set + ComputeMass; inertia about the
//                    centroid as b2Body::ResetMassData forms it:
//                    I - m |c|^2, in float. A request by total "mass"
//                    is unsupported (Box2D takes a density).
//   gjk.distance     b2Distance on two b2DistanceProxy (identity
//                    transforms). Two plain polygons: radius 0, useRadii
//                    false. The other shapes: the core's points (a
//                    polygon as b2PolygonShape::Set leaves it, a circle's or
//                    point's centre, a segment's or capsule's two ends) with
//                    the shape's radius and useRadii true; b2DistanceProxy
//                    takes any core and radius, so rounded polygons and
//                    capsules are answered too.
//   epa.penetration  b2CollidePolygons for two plain polygons; for the other
//                    shapes the Collide* function the contact factory picks
//                    (as contact.manifold below: circles, points, segments;
//                    no capsules, rounded polygons or edge-edge). Depth and
//                    normal from the world manifold's deepest point,
//                    separations taken with the geometric radii (0 for
//                    polygons and edges, not their skin; a circle's own).
//                    Box2D prefers A's face unless B's separates by more
//                    than 0.1 b2_linearSlop: declared as the allowance
//                    reference_face_tolerance on depth.
//   contact.manifold b2CollidePolygons, b2CollidePolygonAndCircle,
//                    b2CollideCircles, b2CollideEdgeAndPolygon,
//                    b2CollideEdgeAndCircle, then b2WorldManifold::Initialize
//                    with each shape's own m_radius, as
//                    b2Contact::GetWorldManifold does: points midway between
//                    the surfaces, separations of the skinned shapes.
//                    Polygons and edges carry the skin b2_polygonRadius, so
//                    a separation is the geometric one less the skins: the
//                    sum is declared as the allowance polygon_radius.
//                    Box2D has no (circle, polygon), (circle, edge) or
//                    (polygon, edge) function; its contact factory
//                    (b2Contact::Create, s_registers[..].primary) swaps the
//                    two fixtures so that the polygon or edge is A. The
//                    adapter does the same and negates the normal back to
//                    "from a to b" (b2WorldManifold's normal points from A
//                    to B, b2_collision.h). Edge-edge has no function in
//                    Box2D (unsupported), nor do capsules or rounded
//                    polygons exist in 2.4 (unsupported); a point is a
//                    b2CircleShape of radius 0, a segment a two-sided
//                    b2EdgeShape.
//   step.pair        a b2World with the request's gravity, sleeping off,
//                    one body per side (b2_dynamicBody or b2_staticBody)
//                    with one fixture, stepped once by dt with 8 velocity
//                    and 3 position iterations: the counts Box2D's manual
//                    suggests ("The suggested iteration count for Box2D is
//                    8 for velocity and 3 for position", docs/hello.md of
//                    2.4.1) and its testbed uses (testbed/settings.h);
//                    reported in diagnostics.engine_settings and declared
//                    as the allowance solver_iterations = 8 (see
//                    step_pair: Box2D's velocity iterations are sweeps of
//                    sequential impulses, with a block solver for a
//                    two-point manifold's normal impulses). Both fixtures get the
//                    request's friction mu and restitution e, which Box2D's
//                    mixing rules (b2MixFriction = sqrt(f1 f2),
//                    b2MixRestitution = max) give back as mu and e.
//                    Impulses come from b2ContactListener::PostSolve, the
//                    normal and points from PreSolve (the manifold the solver
//                    uses, at the positions before the step). Conversion to
//                    the protocol: Box2D's normal points from fixture A to
//                    fixture B and which body is A is Box2D's choice, so it
//                    is negated when body1 is Box2D's B; Box2D's tangent is
//                    b2Cross(n, 1) = (n.y, -n.x), the protocol's
//                    t = (-n.y, n.x) is its negative, so jt = -tangentImpulse
//                    and jn = normalImpulse in either case (worked out next
//                    to the code). Allowances: restitution_threshold (the
//                    fixture default restitutionThreshold = 1 m/s: slower
//                    approaches get no bounce), polygon_radius and
//                    solver_iterations.
//                    Invalid bodies (non-convex, degenerate or non-finite
//                    polygon, radius or density <= 0, dt <= 0) are answered
//                    invalid_input before Box2D sees them.
//   scene.run        step.pair's bodies (read and made by the same
//                    functions) in one b2World, stepped `steps` times by dt
//                    with the same 8 and 3 iterations, sleeping off, no
//                    damping, warm starting and continuous physics on (the
//                    defaults); each frame is Box2D's state after that step.
//                    Allowances: step.pair's, and penetration_slop =
//                    b2_linearSlop (0.005 m: the overlap, skins included,
//                    that the position solver leaves at rest). Box2D clamps
//                    a step's translation at b2_maxTranslation (2 m) and
//                    rotation at b2_maxRotation (pi/2): engine_settings.
// Box2D polygons are convex with 3..8 vertices (b2_maxPolygonVertices): other
// inputs are answered "unsupported" (skipped by check, not failed). The cases
// run in a worker process: Debian builds Box2D with assertions on, and an
// assertion (e.g. a polygon smaller than the weld distance) aborts it; that
// case is answered with error code "crashed", which check counts as failed
// (D-ENGINE-3), and a fresh worker takes the next. Welding that leaves 3 or
// more vertices changes the polygon silently: diagnostics.vertices_used shows it and
// diagnostics.input_changes declares it (D-ENGINE-4). Inertia far from the
// origin: D-ENGINE-5; b2CollidePolygons and b2Distance: D-ENGINE-6.
// Answer lines: the result holds the op's fields only; the rest
// (vertices_used, iterations, manifold_points, swapped, per-contact solver
// notes, engine_settings) is under "diagnostics".
#include <rigidref/protocol/adapter_io.hpp>

#include "box2d_float_input.hpp"
#include "scene_run_io.hpp"


#include <box2d/box2d.h>
#include <box2d/b2_distance.h>

#include <algorithm>
#include <vector>

// Box2D 2.4.1's switch for the two-point block solver (b2_contact_solver.cpp,
// exported by the library, default true).
extern bool g_blockSolve;

namespace {

using namespace rigidref::protocol;
using namespace rigidref::adapters;


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
  std::vector<point> v = to_float_grid(points(line.at(field), field), field);
  line[field] = points_json(v);
  return v;
}

// The vertices b2PolygonShape::Set kept (it welds close ones and takes the
// hull, starting where it likes).
std::vector<point> vertices_of(const b2PolygonShape& shape) {
  std::vector<point> out;
  for (int i = 0; i < shape.m_count; ++i) out.push_back({shape.m_vertices[i].x, shape.m_vertices[i].y});
  return out;
}

// Declares input `field` changed where Set did not keep the polygon `given`.
void declare_polygon_change(ojson& line, const std::string& field, const std::vector<point>& given,
                            const b2PolygonShape& shape) {
  const std::string change = polygon_change(given, vertices_of(shape), "b2PolygonShape::Set");
  if (!change.empty()) declare_input_change(line, field, change);
}

void mass_polygon(ojson& line) {
  const double density_given = polygon_density(line);
  const std::vector<point> v = float_points(line, "vertices");
  const float density = static_cast<float>(to_float(density_given, "density"));
  if (!(density > 0)) throw unsupported_case("density: " + ojson(density_given).dump() + " is 0 in float");
  if (line.contains("density")) line["density"] = static_cast<double>(density);
  const b2PolygonShape shape = box2d_polygon(v);
  b2MassData md;
  shape.ComputeMass(&md, density);
  const float inertia = md.I - md.mass * b2Dot(md.center, md.center);  // b2Body::ResetMassData
  line["result"] = {{"area", static_cast<double>(md.mass / density)},
                    {"centroid", vec_json(md.center.x, md.center.y)},
                    {"mass", static_cast<double>(md.mass)},
                    {"inertia", static_cast<double>(inertia)}};
  diagnostics(line)["vertices_used"] = shape.m_count;  // fewer than given: Set welded or dropped some
  declare_polygon_change(line, "vertices", v, shape);
}

// ---- contact.manifold ------------------------------------------------------

struct box2d_shape {
  b2Shape::Type type = b2Shape::e_polygon;
  b2PolygonShape polygon;
  b2CircleShape circle;
  b2EdgeShape edge;
  const b2Shape& get() const {
    if (type == b2Shape::e_circle) return circle;
    if (type == b2Shape::e_edge) return edge;
    return polygon;
  }
};

// The Box2D shape for a protocol shape (already rounded to float); declares
// the input `field` changed where Set did not keep the polygon.
box2d_shape make_box2d_shape(const shape& s, ojson& line, const std::string& field) {
  box2d_shape b;
  switch (s.form) {
    case shape::kind::polygon:
      if (!convex_polygon(s.core)) throw std::invalid_argument("a polygon must be convex and have an area");
      if (s.radius > 0)
        throw unsupported_case("Box2D 2.4 has no rounded polygons (every polygon has the fixed skin b2_polygonRadius)");
      b.type = b2Shape::e_polygon;
      b.polygon = box2d_polygon(s.core);
      declare_polygon_change(line, field, s.core, b.polygon);
      break;
    case shape::kind::circle:
    case shape::kind::point:  // a circle of radius 0
      b.type = b2Shape::e_circle;
      b.circle.m_p.Set(static_cast<float>(s.core[0].x), static_cast<float>(s.core[0].y));
      b.circle.m_radius = static_cast<float>(s.radius);
      break;
    case shape::kind::segment:
      if (s.radius > 0) throw unsupported_case("Box2D 2.4 has no capsules (an edge has the fixed skin b2_polygonRadius)");
      b.type = b2Shape::e_edge;
      b.edge.SetTwoSided(b2Vec2(static_cast<float>(s.core[0].x), static_cast<float>(s.core[0].y)),
                         b2Vec2(static_cast<float>(s.core[1].x), static_cast<float>(s.core[1].y)));
      break;
  }
  return b;
}

// Box2D's manifold of A and B, with A the shape Box2D's contact factory puts
// first: returns true when it swapped them.
bool collide(b2Manifold& m, const box2d_shape& a, const box2d_shape& b, const b2Transform& xf) {
  using T = b2Shape::Type;
  const T ta = a.type, tb = b.type;
  if (ta == T::e_polygon && tb == T::e_polygon) b2CollidePolygons(&m, &a.polygon, xf, &b.polygon, xf);
  else if (ta == T::e_polygon && tb == T::e_circle) b2CollidePolygonAndCircle(&m, &a.polygon, xf, &b.circle, xf);
  else if (ta == T::e_circle && tb == T::e_circle) b2CollideCircles(&m, &a.circle, xf, &b.circle, xf);
  else if (ta == T::e_edge && tb == T::e_polygon) b2CollideEdgeAndPolygon(&m, &a.edge, xf, &b.polygon, xf);
  else if (ta == T::e_edge && tb == T::e_circle) b2CollideEdgeAndCircle(&m, &a.edge, xf, &b.circle, xf);
  else if (ta == T::e_edge && tb == T::e_edge) throw unsupported_case("Box2D has no edge-edge collision");
  else return (collide(m, b, a, xf), true);  // b2Contact::Create swaps: the polygon or edge is A
  return false;
}

// "a" and "b" rounded to float, written back into the line as Box2D is given them.
std::pair<shape, shape> float_shapes(ojson& line) {
  shape sa = to_float_shape(parse_shape(line.at("a"), "a"), "a");
  shape sb = to_float_shape(parse_shape(line.at("b"), "b"), "b");
  line["a"] = shape_json(sa, line["a"]);
  line["b"] = shape_json(sb, line["b"]);
  return {sa, sb};
}

void contact_manifold(ojson& line) {
  const auto [sa, sb] = float_shapes(line);
  const box2d_shape a = make_box2d_shape(sa, line, "a"), b = make_box2d_shape(sb, line, "b");
  b2Transform identity;
  identity.SetIdentity();
  b2Manifold m;
  const bool swapped = collide(m, a, b, identity);
  const box2d_shape& first = swapped ? b : a;
  const box2d_shape& second = swapped ? a : b;
  ojson r;
  ojson points = ojson::array();
  if (m.pointCount > 0) {
    b2WorldManifold wm;
    wm.Initialize(&m, identity, first.get().m_radius, identity, second.get().m_radius);
    const b2Vec2 n = swapped ? -wm.normal : wm.normal;  // Box2D's normal: from its A to its B
    r["normal"] = vec_json(n.x, n.y);
    for (int i = 0; i < m.pointCount; ++i)
      points.push_back({{"point", vec_json(wm.points[i].x, wm.points[i].y)},
                        {"separation", static_cast<double>(wm.separations[i])}});
  }
  r["points"] = points;
  diagnostics(line)["swapped"] = swapped;  // b2Contact::Create made b Box2D's A
  ojson used = ojson::array();
  for (const box2d_shape* s : {&a, &b}) used.push_back(s->type == b2Shape::e_polygon ? s->polygon.m_count : 0);
  if (a.type == b2Shape::e_polygon || b.type == b2Shape::e_polygon) diagnostics(line)["vertices_used"] = used;
  // The skins Box2D adds (b2_polygonRadius on each polygon and edge) shift
  // every separation by their sum.
  const float skins = (a.type == b2Shape::e_circle ? 0.0f : b2_polygonRadius) +
                      (b.type == b2Shape::e_circle ? 0.0f : b2_polygonRadius);
  if (skins > 0) line["allowances"] = {{"polygon_radius", static_cast<double>(skins)}};
  line["result"] = r;
}

void gjk_distance_polygons(ojson& line) {
  const std::vector<point> va = float_points(line, "a"), vb = float_points(line, "b");
  const b2PolygonShape a = box2d_polygon(va), b = box2d_polygon(vb);
  declare_polygon_change(line, "a", va, a);
  declare_polygon_change(line, "b", vb, b);
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
  line["result"] = r;
  diagnostics(line)["iterations"] = out.iterations;
  diagnostics(line)["vertices_used"] = ojson::array({a.m_count, b.m_count});
}

void epa_penetration_polygons(ojson& line) {
  const std::vector<point> va = float_points(line, "a"), vb = float_points(line, "b");
  const b2PolygonShape a = box2d_polygon(va), b = box2d_polygon(vb);
  declare_polygon_change(line, "a", va, a);
  declare_polygon_change(line, "b", vb, b);
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
    r = {{"intersecting", intersecting}, {"depth", intersecting ? static_cast<double>(-deepest) : 0.0}};
    if (intersecting) r["normal"] = vec_json(wm.normal.x, wm.normal.y);
  }
  diagnostics(line)["manifold_points"] = m.pointCount;
  line["allowances"] = {{"reference_face_tolerance", static_cast<double>(0.1f * b2_linearSlop)}};
  line["result"] = r;
}


// ---- gjk.distance and epa.penetration on the other shapes ------------------

bool plain_polygons(const ojson& line) { return line.at("a").is_array() && line.at("b").is_array(); }

// b2Distance's input for a protocol shape (rounded to float): the core's
// points and the radius. b2DistanceProxy takes any core and radius, so every
// form goes through: a polygon (rounded or not) as b2PolygonShape::Set leaves
// it (3..8 vertices, welded), a circle or point as its centre, a segment or
// capsule as its two ends. `storage` keeps the points the proxy points to.
int proxy_for(const shape& s, b2DistanceProxy& proxy, std::vector<b2Vec2>& storage, ojson& line,
              const std::string& field) {
  if (s.form == shape::kind::polygon) {
    if (!convex_polygon(s.core)) throw std::invalid_argument("a polygon must be convex and have an area");
    const b2PolygonShape p = box2d_polygon(s.core);
    declare_polygon_change(line, field, s.core, p);
    storage.assign(p.m_vertices, p.m_vertices + p.m_count);
  } else {
    storage.clear();
    for (const point& q : s.core) storage.emplace_back(static_cast<float>(q.x), static_cast<float>(q.y));
  }
  proxy.Set(storage.data(), static_cast<int32>(storage.size()), static_cast<float>(s.radius));
  return s.form == shape::kind::polygon ? static_cast<int>(storage.size()) : 0;
}

void gjk_distance(ojson& line) {
  if (plain_polygons(line)) return gjk_distance_polygons(line);  // as before the other shapes
  const auto [sa, sb] = float_shapes(line);
  b2DistanceInput in;
  std::vector<b2Vec2> storage_a, storage_b;
  const int used_a = proxy_for(sa, in.proxyA, storage_a, line, "a"), used_b = proxy_for(sb, in.proxyB, storage_b, line, "b");
  in.transformA.SetIdentity();
  in.transformB.SetIdentity();
  // With useRadii, b2Distance takes the radii off the cores' distance and
  // moves the closest points out by them; it answers 0 (overlap) when the
  // cores are closer than b2_epsilon or the radii cover the gap.
  in.useRadii = true;
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
  line["result"] = r;
  diagnostics(line)["iterations"] = out.iterations;
  if (sa.form == shape::kind::polygon || sb.form == shape::kind::polygon)
    diagnostics(line)["vertices_used"] = ojson::array({used_a, used_b});
}

// The Collide* function the contact factory picks (as contact.manifold),
// depth and normal from the world manifold's deepest point with the
// geometric radii: 0 for a polygon and an edge (not their skin
// b2_polygonRadius), the circle's own radius (0 for a point).
void epa_penetration(ojson& line) {
  if (plain_polygons(line)) return epa_penetration_polygons(line);
  const auto [sa, sb] = float_shapes(line);
  const box2d_shape a = make_box2d_shape(sa, line, "a"), b = make_box2d_shape(sb, line, "b");
  b2Transform identity;
  identity.SetIdentity();
  b2Manifold m;
  const bool swapped = collide(m, a, b, identity);
  const shape& first = swapped ? sb : sa;
  const shape& second = swapped ? sa : sb;
  const auto geometric_radius = [](const shape& s) {
    return s.form == shape::kind::circle || s.form == shape::kind::point ? static_cast<float>(s.radius) : 0.0f;
  };
  ojson r;
  if (m.pointCount == 0) {
    r = {{"intersecting", false}, {"depth", 0.0}};
  } else {
    b2WorldManifold wm;
    wm.Initialize(&m, identity, geometric_radius(first), identity, geometric_radius(second));
    float deepest = wm.separations[0];
    for (int i = 1; i < m.pointCount; ++i) deepest = std::min(deepest, wm.separations[i]);
    const bool intersecting = deepest <= 0.0f;
    const b2Vec2 n = swapped ? -wm.normal : wm.normal;  // Box2D's normal: from its A to its B
    r = {{"intersecting", intersecting}, {"depth", intersecting ? static_cast<double>(-deepest) : 0.0}};
    if (intersecting) r["normal"] = vec_json(n.x, n.y);
  }
  diagnostics(line)["manifold_points"] = m.pointCount;
  diagnostics(line)["swapped"] = swapped;
  line["allowances"] = {{"reference_face_tolerance", static_cast<double>(0.1f * b2_linearSlop)}};
  line["result"] = r;
}

// ---- step.pair -------------------------------------------------------------

// A double already rounded to float (to_float), as Box2D's type.
float as_float(double x) { return static_cast<float>(x); }


// Records what b2ContactListener sees during the step.
struct contact_log : b2ContactListener {
  struct entry {
    const b2Contact* contact;
    b2Vec2 normal;
    b2Vec2 points[b2_maxManifoldPoints];
    int count = 0;
    bool solved = false;
    float normal_impulses[b2_maxManifoldPoints] = {};
    float tangent_impulses[b2_maxManifoldPoints] = {};
    int solves = 0;
  };
  std::vector<entry> entries;
  entry& find(const b2Contact* c) {
    for (entry& e : entries)
      if (e.contact == c) return e;
    entries.push_back(entry{});
    entries.back().contact = c;
    return entries.back();
  }
  void PreSolve(b2Contact* contact, const b2Manifold*) override {
    entry& e = find(contact);
    b2WorldManifold wm;
    contact->GetWorldManifold(&wm);  // at the positions the solver starts from
    e.normal = wm.normal;
    e.count = contact->GetManifold()->pointCount;
    for (int i = 0; i < e.count; ++i) e.points[i] = wm.points[i];
  }
  void PostSolve(b2Contact* contact, const b2ContactImpulse* impulse) override {
    entry& e = find(contact);
    ++e.solves;  // a second call in the same step comes from the TOI sub-step
    for (int i = 0; i < impulse->count; ++i) {
      e.normal_impulses[i] += impulse->normalImpulses[i];
      e.tangent_impulses[i] += impulse->tangentImpulses[i];
    }
    if (impulse->count > e.count) e.count = impulse->count;
  }
};

// Polygons beyond b2_maxPolygonVertices are unsupported (before Box2D sees them).
void check_polygon_sizes(const std::vector<body_request>& req) {
  for (const body_request& b : req)
    if (b.polygon && b.vertices.size() > b2_maxPolygonVertices)
      throw unsupported_case("Box2D polygons have 3 to 8 vertices, this one has " + std::to_string(b.vertices.size()));
}

// Every fixture gets mu; a contact uses b2MixFriction(mu, mu) = sqrt(mu mu),
// which is mu again (in binary floating point the square root of a rounded
// square is the number) unless mu mu underflows float: then the line gives
// Box2D's value and declares it.
void declare_mixed_friction(ojson& line, double mu) {
  const float mixed_mu = b2MixFriction(as_float(mu), as_float(mu));
  if (static_cast<double>(mixed_mu) != mu) {
    declare_input_change(line, "friction", "b2MixFriction(mu, mu) = sqrt(mu mu) in float is " +
                                               ojson(static_cast<double>(mixed_mu)).dump() + " (mu mu underflows)");
    line["friction"] = static_cast<double>(mixed_mu);
  }
}

// A body of step.pair or scene.run in `world`: one fixture with the
// request's friction mu and restitution e. `field` is the request's input
// that holds the body ("body1", "bodies"), `prefix` names it in a declared
// polygon change ("vertices: ", "bodies[3].vertices: "). Returns the body;
// `vertices_used` is what b2PolygonShape::Set kept (0 for a circle).
b2Body* create_body(b2World& world, const body_request& b, double e, double mu, ojson& line, const std::string& field,
                    const std::string& prefix, int& vertices_used) {
  b2BodyDef def;
  def.type = b.is_static ? b2_staticBody : b2_dynamicBody;
  def.position.Set(as_float(b.position.x), as_float(b.position.y));  // the body origin
  def.angle = as_float(b.angle);
  b2Body* body = world.CreateBody(&def);
  b2FixtureDef fd;
  b2PolygonShape polygon;
  b2CircleShape circle;
  vertices_used = 0;
  if (b.polygon) {
    polygon = box2d_polygon(b.vertices);  // unsupported if not strictly convex; may weld (vertices_used)
    vertices_used = polygon.m_count;
    const std::string change = polygon_change(b.vertices, vertices_of(polygon), "b2PolygonShape::Set");
    if (!change.empty()) declare_input_change(line, field, prefix + change);
    fd.shape = &polygon;
  } else {
    circle.m_radius = as_float(b.radius);  // centred on the body origin
    fd.shape = &circle;
  }
  fd.density = as_float(b.density);
  fd.friction = as_float(mu);        // b2MixFriction: sqrt(mu mu) (declare_mixed_friction)
  fd.restitution = as_float(e);      // b2MixRestitution: max(e, e) = e
  body->CreateFixture(&fd);          // ResetMassData: the centre of mass follows from the shape
  // Velocities of the centre of mass (b2Body::SetLinearVelocity), set once
  // the mass is known; a static body ignores them.
  body->SetLinearVelocity(b2Vec2(as_float(b.velocity.x), as_float(b.velocity.y)));
  body->SetAngularVelocity(as_float(b.angular_velocity));
  return body;
}

// Box2D's settings of a step (step.pair, scene.run), for
// diagnostics.engine_settings; `warm_starting_effect` says what warm
// starting does in that op.
ojson engine_settings(const b2World& world, int velocity_iterations, int position_iterations,
                      const char* warm_starting_effect) {
  return {{"velocity_iterations", velocity_iterations},
          {"velocity_iterations_meaning",
           "sweeps of sequential impulses over the contacts; a two-point manifold's normal "
           "impulses are solved as one block (g_blockSolve), exactly"},
          {"block_solve", g_blockSolve},
          {"position_iterations", position_iterations},
          {"iterations_source", "Box2D 2.4.1 docs/hello.md (suggested 8 and 3) and testbed/settings.h"},
          {"allow_sleeping", false},
          {"warm_starting", world.GetWarmStarting()},
          {"warm_starting_effect", warm_starting_effect},
          {"continuous_physics", world.GetContinuousPhysics()},
          {"sub_stepping", world.GetSubStepping()},
          {"linear_slop", static_cast<double>(b2_linearSlop)},
          {"polygon_radius", static_cast<double>(b2_polygonRadius)},
          {"restitution_threshold", 1.0},
          {"baumgarte", static_cast<double>(b2_baumgarte)},
          {"max_linear_correction", static_cast<double>(b2_maxLinearCorrection)},
          {"aabb_extension", static_cast<double>(b2_aabbExtension)}};
}

// Box2D's velocity iterations: each is one sweep of sequential impulses
// over the contacts (b2ContactSolver::SolveVelocityConstraints): per
// contact the friction impulses point by point, then the normal ones,
// point by point for one point and jointly for two (g_blockSolve: the 2x2
// LCP of the manifold solved exactly by enumerating its four cases, with
// a fallback to sequential points when the pair is ill-conditioned). So
// the count is that of projected Gauss-Seidel sweeps, where a two-point
// manifold's normal block is one exact step. A TOI sub-step (continuous
// physics) runs the same count again on the contacts it solves, from
// zero impulses (b2World::SolveTOI: warmStarting false).
constexpr int velocity_iterations = 8, position_iterations = 3;

void step_pair(ojson& line) {
  std::vector<body_request> req = {read_body(line.at("body1"), "body1"), read_body(line.at("body2"), "body2")};
  const double e = read_step_scalar(line, "restitution", false);
  const double mu = read_step_scalar(line, "friction", false);
  const double dt = read_step_scalar(line, "dt", true);
  const point g = read_gravity(line);
  check_polygon_sizes(req);
  declare_mixed_friction(line, mu);

  b2World world(b2Vec2(as_float(g.x), as_float(g.y)));
  world.SetAllowSleeping(false);
  contact_log log;
  world.SetContactListener(&log);
  b2Body* bodies[2];
  int vertices_used[2] = {0, 0};
  for (int i = 0; i < 2; ++i)
    bodies[i] = create_body(world, req[static_cast<std::size_t>(i)], e, mu, line, i == 0 ? "body1" : "body2",
                            "vertices: ", vertices_used[i]);
  world.Step(as_float(dt), velocity_iterations, position_iterations);

  ojson r;
  for (int i = 0; i < 2; ++i) {
    const b2Body* b = bodies[i];
    r[i == 0 ? "body1_after" : "body2_after"] = {
        {"position", vec_json(b->GetPosition().x, b->GetPosition().y)},
        {"angle", static_cast<double>(b->GetAngle())},
        {"velocity", vec_json(b->GetLinearVelocity().x, b->GetLinearVelocity().y)},
        {"angular_velocity", static_cast<double>(b->GetAngularVelocity())}};
  }
  ojson contacts = ojson::array(), contact_notes = ojson::array();
  for (const contact_log::entry& c : log.entries) {
    if (c.solves == 0) continue;  // touching but not solved (cannot happen with two awake bodies)
    // Box2D applies -P to its body A and +P to its body B, with
    // P = normalImpulse n + tangentImpulse (n.y, -n.x), n from A to B.
    // If body1 is A: the protocol's n is Box2D's, t = (-n.y, n.x) is minus
    // Box2D's tangent, so jn = normalImpulse, jt = -tangentImpulse. If body1
    // is B: the protocol's n' = -n, t' = (-n'.y, n'.x) = (n.y, -n.x) is
    // Box2D's tangent, and the impulse on body2 (= A) is -P =
    // normalImpulse n' - tangentImpulse t': the same jn and jt.
    const bool body1_is_a = c.contact->GetFixtureA()->GetBody() == bodies[0];
    const b2Vec2 n = body1_is_a ? c.normal : -c.normal;
    for (int k = 0; k < c.count; ++k)
      contacts.push_back({{"point", vec_json(c.points[k].x, c.points[k].y)},
                          {"normal", vec_json(n.x, n.y)},
                          {"jn", static_cast<double>(c.normal_impulses[k])},
                          {"jt", static_cast<double>(-c.tangent_impulses[k])}});
    for (int k = 0; k < c.count; ++k)  // the same order as "contacts"
      contact_notes.push_back({{"box2d_body1_is_a", body1_is_a}, {"solves", c.solves}});
  }
  r["contacts"] = contacts;
  ojson& notes = diagnostics(line);
  notes["contacts"] = contact_notes;  // solves 2: a TOI sub-step solved the contact again (impulses summed)
  if (req[0].polygon || req[1].polygon) notes["vertices_used"] = ojson::array({vertices_used[0], vertices_used[1]});
  notes["engine_settings"] =
      engine_settings(world, velocity_iterations, position_iterations,
                      "none in this one step: a new contact has no impulses to start from, and a TOI "
                      "sub-step does not warm start");
  ojson allowances = {{"restitution_threshold", 1.0},  // b2FixtureDef::restitutionThreshold default
                      {"solver_iterations", velocity_iterations}};
  if (req[0].polygon || req[1].polygon)
    allowances["polygon_radius"] = static_cast<double>((req[0].polygon ? b2_polygonRadius : 0.0f) +
                                                       (req[1].polygon ? b2_polygonRadius : 0.0f));
  line["allowances"] = allowances;
  line["result"] = r;
}

// ---- scene.run -------------------------------------------------------------

// The bodies of step.pair in one b2World, stepped `steps` times by dt with
// the same iterations; each frame reads Box2D's own state (GetPosition: the
// body origin; GetLinearVelocity: the centre of mass's).
void scene_run(ojson& line) {
  const scene_counts counts = read_scene_counts(line);
  ojson& list = scene_bodies(line);
  std::vector<body_request> req;
  for (std::size_t i = 0; i < list.size(); ++i) req.push_back(read_body(list[i], scene_body_name(i)));
  const double e = read_step_scalar(line, "restitution", false, 0.0);
  const double mu = read_step_scalar(line, "friction", false, 0.0);
  const double dt = read_step_scalar(line, "dt", true, 1.0 / 60.0);
  const point g = read_gravity(line);
  check_polygon_sizes(req);
  declare_mixed_friction(line, mu);

  b2World world(b2Vec2(as_float(g.x), as_float(g.y)));
  world.SetAllowSleeping(false);
  std::vector<b2Body*> bodies;
  ojson used = ojson::array();
  int polygons = 0;
  for (std::size_t i = 0; i < req.size(); ++i) {
    int n = 0;
    bodies.push_back(create_body(world, req[i], e, mu, line, "bodies", scene_body_name(i) + ".vertices: ", n));
    used.push_back(n);
    if (req[i].polygon) ++polygons;
  }
  const float h = as_float(dt);
  line["result"] = run_scene(
      counts, bodies.size(), [&] { world.Step(h, velocity_iterations, position_iterations); },
      [&](std::size_t i) {
        const b2Body* b = bodies[i];
        const b2Vec2 p = b->GetPosition(), v = b->GetLinearVelocity();
        return body_state{p.x, p.y, b->GetAngle(), v.x, v.y, b->GetAngularVelocity()};
      },
      line);

  ojson& notes = diagnostics(line);
  if (polygons > 0) notes["vertices_used"] = used;
  notes["engine_settings"] =
      engine_settings(world, velocity_iterations, position_iterations,
                      "each step starts from the impulses of the contacts the last step kept");
  notes["engine_settings"]["max_translation"] = static_cast<double>(b2_maxTranslation);  // per step, clamped
  notes["engine_settings"]["max_rotation"] = static_cast<double>(b2_maxRotation);
  notes["engine_settings"]["damping"] = 0.0;  // b2BodyDef's linear and angular damping
  ojson allowances = {{"restitution_threshold", 1.0},  // b2FixtureDef::restitutionThreshold default
                      {"solver_iterations", velocity_iterations},
                      // Contacts hold the shapes b2_linearSlop into each other (with the skins)
                      {"penetration_slop", static_cast<double>(b2_linearSlop)}};
  // Two polygons touch at their skins' sum; a polygon and a circle at one skin.
  if (polygons > 0) allowances["polygon_radius"] = static_cast<double>((polygons > 1 ? 2.0f : 1.0f) * b2_polygonRadius);
  line["allowances"] = allowances;
}

}  // namespace

int main() {
  return run_adapter("box2d-2.4.1", "float",
                     {{"mass.polygon", mass_polygon}, {"gjk.distance", gjk_distance},
                      {"epa.penetration", epa_penetration}, {"contact.manifold", contact_manifold},
                      {"step.pair", step_pair}, {"scene.run", scene_run}},
                     isolation::worker, /*seconds_per_case=*/5);  // Debian's Box2D keeps its assertions: b2Assert aborts
}
