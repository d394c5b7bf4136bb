// rigidref-box2d-v3: answers eval requests with Box2D v3 (3.1), built from the
// source tree the user names (-DRIGIDREF_BOX2D_V3_SOURCE=<dir>), for
// `rigidref check`. Box2D v3 computes in float. The engine name carries the
// version b2GetVersion() reports.
//   Shapes for the manifold functions, mass and step.pair, as a v3 user
//   makes them from vertices: a polygon through b2ComputeHull and
//   b2MakePolygon(hull, radius) (a rounded polygon keeps its radius); a
//   circle or point as b2Circle (radius 0 for a point); a segment as
//   b2Segment; a capsule as b2Capsule (its two centres and radius).
//   b2ComputeHull welds points closer than B2_LINEAR_SLOP, drops collinear
//   ones and starts where it likes: diagnostics.vertices_used shows what it
//   kept, diagnostics.input_changes declares a change. An empty hull (the
//   points too close together or on a line) is Box2D refusing a valid
//   polygon: error "engine_error", which check counts as failed. More than
//   B2_MAX_POLYGON_VERTICES (8) vertices, or a polygon that is not convex,
//   is unsupported (Box2D polygons are convex with 3..8 vertices).
//   mass.polygon     a dynamic body with the polygon (b2CreatePolygonShape
//                    at the request's density): b2Body_GetMass,
//                    b2Body_GetLocalCenterOfMass and
//                    b2Body_GetRotationalInertia (about the centre of mass,
//                    as b2UpdateBodyMassData forms it); area = mass / density.
//   gjk.distance     b2ShapeDistance on b2MakeProxy(core points, count,
//                    radius) of each shape, the points as given (no hull,
//                    as Box2D's own test/test_distance.c builds its
//                    proxies), identity transforms, useRadii true. Box2D subtracts the radii only when the cores are
//                    more than 0.1 B2_LINEAR_SLOP apart (distance.c): below
//                    that the answer is the cores' distance. intersecting =
//                    (distance == 0).
//   epa.penetration  v3 has no EPA: the manifold function the contact
//                    registry picks (contact.c, b2AddType) answers it, as
//                    contact.manifold below; depth = -(the smallest point
//                    separation) when it is <= 0, normal = the manifold's
//                    (negated when the registry made b Box2D's A). Box2D v3
//                    polygons have no skin: separations are geometric,
//                    radii included.
//   contact.manifold b2CollidePolygons, b2CollidePolygonAndCircle,
//                    b2CollidePolygonAndCapsule, b2CollideCircles,
//                    b2CollideCapsules, b2CollideCapsuleAndCircle,
//                    b2CollideSegmentAndPolygon, b2CollideSegmentAndCircle,
//                    b2CollideSegmentAndCapsule; the pairs the registry
//                    registers the other way round are swapped as it swaps
//                    them, and the normal negated back to "from a to b".
//                    There is no segment-segment function (unsupported).
//                    Points are the manifold's world points (midway between
//                    the surfaces); v3 also returns speculative points of
//                    shapes apart by up to B2_SPECULATIVE_DISTANCE
//                    (4 B2_LINEAR_SLOP), declared as prediction_distance.
//   step.pair        a b2World from b2DefaultWorldDef (soft contacts:
//                    contactHertz 30, damping ratio 10, push speed 3 m/s;
//                    restitution threshold 1 m/s) with the request's
//                    gravity, sleeping off, one body per side with one
//                    shape, stepped once by dt with 4 sub-steps: the count
//                    Box2D v3's documentation and samples use
//                    (docs/hello.md, samples/settings.h). Both shapes get
//                    the request's friction and restitution, which the
//                    default mixing (sqrt(f1 f2), max(e1, e2)) gives back.
//                    Body angles go in through b2MakeRot and come out
//                    through b2Rot_GetAngle, as a v3 user sets and reads
//                    them (both are polynomial approximations in v3.1:
//                    b2ComputeCosSin, b2Atan2; diagnostics.rotation holds
//                    the cosine and sine Box2D keeps). Contacts: the
//                    manifold of b2Body_GetContactData (computed at the
//                    pre-step poses), its points with separation <= 0
//                    (speculative ones only under diagnostics), points and
//                    normals only: a soft step
//                    applies each point's impulse once per sub-step with
//                    warm starting inside the step, and Box2D keeps only
//                    the last accumulated value (normalImpulse) and a sum
//                    of accumulated values (totalNormalImpulse), neither
//                    of which is the impulse the step applied; both are
//                    under diagnostics, jn and jt are not answered (the
//                    friction cone is then not judged). Allowances:
//                    restitution_threshold 1 and solver_iterations 8 (each
//                    sub-step makes one biased, soft sweep and one relax
//                    sweep, rigid, over the contacts: 8 sweeps in all).
//   scene.run        step.pair's bodies (read and made by the same
//                    functions) in one world of the same settings,
//                    b2World_Step'd `steps` times by dt with 4 sub-steps;
//                    each frame is Box2D's state after that step. v3 keeps
//                    a rotation as cosine and sine: the angle is
//                    b2Rot_GetAngle plus the whole turns counted step by
//                    step (and those of the angle given). Allowances:
//                    step.pair's and penetration_slop = B2_LINEAR_SLOP
//                    (0.005 m), v3's length tolerance. v3.1.1's contact bias
//                    has no slop (contact_solver.c pushes every overlap out,
//                    softly): what stays at rest is the soft contacts' sag,
//                    measured 9e-5 m for a 1 m box on the ground (g 10).
// The cases run in a worker process (a v3 built with assertions aborts on
// some inputs); an abort is answered "crashed", which check counts as failed,
// and a fresh worker takes the next case.
// What v3 gets wrong, and why (derivations/engines.md, "Box2D v3.1.1"): the
// hull's weld size (D-ENGINE-12), b2ShapeDistance's absolute overlap test
// (D-ENGINE-13) and its radii threshold (D-ENGINE-14), the soft sub-stepped
// step and its restitution target (D-ENGINE-15).
#include <rigidref/protocol/adapter_io.hpp>

#include "box2d_float_input.hpp"
#include "scene_run_io.hpp"


#include <box2d/box2d.h>
#include <box2d/collision.h>
#include <box2d/math_functions.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace {

using namespace rigidref::protocol;
using namespace rigidref::adapters;

constexpr int sub_steps = 4;


b2Vec2 b2v(const point& p) { return b2Vec2{static_cast<float>(p.x), static_cast<float>(p.y)}; }

std::vector<point> vertices_of(const b2Polygon& p) {
  std::vector<point> out;
  for (int i = 0; i < p.count; ++i) out.push_back({p.vertices[i].x, p.vertices[i].y});
  return out;
}

// The polygon a v3 user gets from these (float) vertices: b2ComputeHull,
// then b2MakePolygon. Declares input `field` changed (`prefix` names the
// part of the field) where the hull did not keep the vertices as given.
b2Polygon make_polygon(const std::vector<point>& v, double radius, ojson& line, const std::string& field,
                       const std::string& prefix = "") {
  if (v.size() < 3 || v.size() > B2_MAX_POLYGON_VERTICES)
    throw unsupported_case("Box2D polygons have 3 to 8 vertices, this one has " + std::to_string(v.size()));
  if (!strictly_convex(v)) throw unsupported_case("Box2D polygons are convex; this one is not");
  std::vector<b2Vec2> b;
  for (const point& p : v) b.push_back(b2v(p));
  const b2Hull hull = b2ComputeHull(b.data(), static_cast<int>(b.size()));
  if (hull.count == 0)
    throw engine_error("engine_error", "b2ComputeHull returned an empty hull (it welds points closer than "
                                      "B2_LINEAR_SLOP and drops collinear ones)");
  const b2Polygon p = b2MakePolygon(&hull, static_cast<float>(radius));
  const std::string change = polygon_change(v, vertices_of(p), "b2ComputeHull");
  if (!change.empty()) declare_input_change(line, field, prefix + change);
  return p;
}

std::vector<point> float_points(ojson& line, const char* field) {
  std::vector<point> v = to_float_grid(points(line.at(field), field), field);
  line[field] = points_json(v);
  return v;
}

// A world of Box2D's defaults with sleeping off and no gravity unless given.
b2WorldId make_world(b2Vec2 gravity) {
  b2WorldDef def = b2DefaultWorldDef();
  def.gravity = gravity;
  def.enableSleep = false;
  return b2CreateWorld(&def);
}

std::string version_name() {
  const b2Version v = b2GetVersion();
  return "box2d-" + std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.revision);
}

void mass_polygon(ojson& line) {
  const double density_given = polygon_density(line);
  const std::vector<point> v = float_points(line, "vertices");
  const float density = static_cast<float>(to_float(density_given, "density"));
  if (!(density > 0)) throw unsupported_case("density: " + ojson(density_given).dump() + " is 0 in float");
  if (line.contains("density")) line["density"] = static_cast<double>(density);
  const b2Polygon polygon = make_polygon(v, 0, line, "vertices");
  const b2WorldId world = make_world(b2Vec2{0, 0});
  b2BodyDef body_def = b2DefaultBodyDef();
  body_def.type = b2_dynamicBody;
  const b2BodyId body = b2CreateBody(world, &body_def);
  b2ShapeDef shape_def = b2DefaultShapeDef();
  shape_def.density = density;
  b2CreatePolygonShape(body, &shape_def, &polygon);  // updateBodyMass: b2UpdateBodyMassData
  const float mass = b2Body_GetMass(body);
  const b2Vec2 centre = b2Body_GetLocalCenterOfMass(body);
  const float inertia = b2Body_GetRotationalInertia(body);
  b2DestroyWorld(world);
  line["result"] = {{"area", static_cast<double>(mass / density)},
                    {"centroid", vec_json(centre.x, centre.y)},
                    {"mass", static_cast<double>(mass)},
                    {"inertia", static_cast<double>(inertia)}};
  diagnostics(line)["vertices_used"] = polygon.count;
}

// ---- shapes and manifolds --------------------------------------------------

enum class v3_type { circle, capsule, segment, polygon };

struct v3_shape {
  v3_type type = v3_type::polygon;
  b2Circle circle{};
  b2Capsule capsule{};
  b2Segment segment{};
  b2Polygon polygon{};
};

v3_shape make_shape(const shape& s, ojson& line, const std::string& field) {
  v3_shape b;
  switch (s.form) {
    case shape::kind::polygon:
      if (!convex_polygon(s.core)) throw std::invalid_argument("a polygon must be convex and have an area");
      b.type = v3_type::polygon;
      b.polygon = make_polygon(s.core, s.radius, line, field);
      break;
    case shape::kind::circle:
    case shape::kind::point:  // a circle of radius 0
      b.type = v3_type::circle;
      b.circle = b2Circle{b2v(s.core[0]), static_cast<float>(s.radius)};
      break;
    case shape::kind::segment:
      if (s.radius > 0) {
        b.type = v3_type::capsule;
        b.capsule = b2Capsule{b2v(s.core[0]), b2v(s.core[1]), static_cast<float>(s.radius)};
      } else {
        b.type = v3_type::segment;
        b.segment = b2Segment{b2v(s.core[0]), b2v(s.core[1])};
      }
      break;
  }
  return b;
}

// Box2D's manifold of a and b in the order its contact registry puts them
// (contact.c, b2AddType: the first type of each registered pair is A);
// returns true when it swapped them.
bool collide(b2Manifold& m, const v3_shape& a, const v3_shape& b) {
  const b2Transform id = b2Transform_identity;
  using T = v3_type;
  const T ta = a.type, tb = b.type;
  if (ta == T::circle && tb == T::circle) m = b2CollideCircles(&a.circle, id, &b.circle, id);
  else if (ta == T::capsule && tb == T::circle) m = b2CollideCapsuleAndCircle(&a.capsule, id, &b.circle, id);
  else if (ta == T::capsule && tb == T::capsule) m = b2CollideCapsules(&a.capsule, id, &b.capsule, id);
  else if (ta == T::polygon && tb == T::circle) m = b2CollidePolygonAndCircle(&a.polygon, id, &b.circle, id);
  else if (ta == T::polygon && tb == T::capsule) m = b2CollidePolygonAndCapsule(&a.polygon, id, &b.capsule, id);
  else if (ta == T::polygon && tb == T::polygon) m = b2CollidePolygons(&a.polygon, id, &b.polygon, id);
  else if (ta == T::segment && tb == T::circle) m = b2CollideSegmentAndCircle(&a.segment, id, &b.circle, id);
  else if (ta == T::segment && tb == T::capsule) m = b2CollideSegmentAndCapsule(&a.segment, id, &b.capsule, id);
  else if (ta == T::segment && tb == T::polygon) m = b2CollideSegmentAndPolygon(&a.segment, id, &b.polygon, id);
  else if (ta == T::segment && tb == T::segment) throw unsupported_case("Box2D v3 has no segment-segment collision");
  else return (collide(m, b, a), true);  // the registry's pair is (b, a)
  return false;
}

std::pair<shape, shape> float_shapes(ojson& line) {
  shape sa = to_float_shape(parse_shape(line.at("a"), "a"), "a");
  shape sb = to_float_shape(parse_shape(line.at("b"), "b"), "b");
  line["a"] = shape_json(sa, line["a"]);
  line["b"] = shape_json(sb, line["b"]);
  return {sa, sb};
}

ojson vertices_used(const v3_shape& a, const v3_shape& b) {
  return ojson::array({a.type == v3_type::polygon ? a.polygon.count : 0, b.type == v3_type::polygon ? b.polygon.count : 0});
}

void contact_manifold(ojson& line) {
  const auto [sa, sb] = float_shapes(line);
  const v3_shape a = make_shape(sa, line, "a"), b = make_shape(sb, line, "b");
  b2Manifold m{};
  const bool swapped = collide(m, a, b);
  ojson r;
  ojson points = ojson::array();
  if (m.pointCount > 0) {
    const b2Vec2 n = swapped ? b2Neg(m.normal) : m.normal;  // Box2D's normal: from its A to its B
    r["normal"] = vec_json(n.x, n.y);
    for (int i = 0; i < m.pointCount; ++i)
      points.push_back({{"point", vec_json(m.points[i].point.x, m.points[i].point.y)},
                        {"separation", static_cast<double>(m.points[i].separation)}});
  }
  r["points"] = points;
  diagnostics(line)["swapped"] = swapped;
  if (a.type == v3_type::polygon || b.type == v3_type::polygon) diagnostics(line)["vertices_used"] = vertices_used(a, b);
  line["allowances"] = {{"prediction_distance", static_cast<double>(4.0f * 0.005f)}};  // B2_SPECULATIVE_DISTANCE
  line["result"] = r;
}

void epa_penetration(ojson& line) {
  const auto [sa, sb] = float_shapes(line);
  const v3_shape a = make_shape(sa, line, "a"), b = make_shape(sb, line, "b");
  b2Manifold m{};
  const bool swapped = collide(m, a, b);
  ojson r;
  if (m.pointCount == 0) {
    r = {{"intersecting", false}, {"depth", 0.0}};
  } else {
    float deepest = m.points[0].separation;
    for (int i = 1; i < m.pointCount; ++i) deepest = std::min(deepest, m.points[i].separation);
    const bool intersecting = deepest <= 0.0f;
    const b2Vec2 n = swapped ? b2Neg(m.normal) : m.normal;
    r = {{"intersecting", intersecting}, {"depth", intersecting ? static_cast<double>(-deepest) : 0.0}};
    if (intersecting) r["normal"] = vec_json(n.x, n.y);
  }
  diagnostics(line)["manifold_points"] = m.pointCount;
  diagnostics(line)["swapped"] = swapped;
  if (a.type == v3_type::polygon || b.type == v3_type::polygon) diagnostics(line)["vertices_used"] = vertices_used(a, b);
  line["result"] = r;
}

// A shape's proxy as a v3 user makes it for b2ShapeDistance, and as
// Box2D's own test/test_distance.c does: b2MakeProxy on the core points as
// given (no hull: a proxy takes any 1..8 points) and the radius. b2MakeProxy
// keeps only the first B2_MAX_POLYGON_VERTICES points, silently: a longer
// polygon is unsupported here.
b2ShapeProxy proxy_for(const shape& s) {
  if (s.form == shape::kind::polygon) {
    if (!convex_polygon(s.core)) throw std::invalid_argument("a polygon must be convex and have an area");
    if (s.core.size() > B2_MAX_POLYGON_VERTICES)
      throw unsupported_case("b2MakeProxy takes 1 to 8 points, this polygon has " + std::to_string(s.core.size()));
  }
  std::vector<b2Vec2> core;
  for (const point& q : s.core) core.push_back(b2v(q));
  return b2MakeProxy(core.data(), static_cast<int>(core.size()), static_cast<float>(s.radius));
}

void gjk_distance(ojson& line) {
  const auto [sa, sb] = float_shapes(line);
  b2DistanceInput in{};
  in.proxyA = proxy_for(sa);
  in.proxyB = proxy_for(sb);
  in.transformA = b2Transform_identity;
  in.transformB = b2Transform_identity;
  in.useRadii = true;
  b2SimplexCache cache{};
  const b2DistanceOutput out = b2ShapeDistance(&in, &cache, nullptr, 0);
  const bool intersecting = out.distance == 0.0f;
  ojson r = {{"intersecting", intersecting}, {"distance", static_cast<double>(out.distance)}};
  if (!intersecting) {
    r["point_a"] = vec_json(out.pointA.x, out.pointA.y);
    r["point_b"] = vec_json(out.pointB.x, out.pointB.y);
  }
  line["result"] = r;
  diagnostics(line)["iterations"] = out.iterations;
}

// ---- step.pair -------------------------------------------------------------


// The default mixing gives friction sqrt(mu mu): mu unless mu mu underflows
// float; then the line gives Box2D's value and declares it.
void declare_mixed_friction(ojson& line, float mu) {
  const float mixed_mu = std::sqrt(mu * mu);
  if (mixed_mu != mu) {
    declare_input_change(line, "friction", "sqrt(mu mu) in float is " + ojson(static_cast<double>(mixed_mu)).dump() +
                                               " (mu mu underflows)");
    line["friction"] = static_cast<double>(mixed_mu);
  }
}

// A body of step.pair or scene.run in `world`, with one shape of friction
// mu and restitution e. `field` is the request's input that holds the body
// ("body1", "bodies"), `prefix` names it in a declared hull change ("",
// "bodies[3].vertices: "); `used` is the hull's vertex count (0 for a circle).
b2BodyId create_body(b2WorldId world, const body_request& b, float e, float mu, ojson& line, const std::string& field,
                     const std::string& prefix, int& used) {
  b2BodyDef def = b2DefaultBodyDef();
  def.type = b.is_static ? b2_staticBody : b2_dynamicBody;
  def.position = b2v(b.position);  // the body origin
  def.rotation = b2MakeRot(static_cast<float>(b.angle));
  const b2BodyId body = b2CreateBody(world, &def);
  b2ShapeDef sd = b2DefaultShapeDef();
  sd.density = static_cast<float>(b.density);
  sd.material.friction = mu;
  sd.material.restitution = e;
  used = 0;
  if (b.polygon) {
    const b2Polygon p = make_polygon(b.vertices, 0, line, field, prefix);
    used = p.count;
    b2CreatePolygonShape(body, &sd, &p);
  } else {
    const b2Circle c{b2Vec2{0, 0}, static_cast<float>(b.radius)};  // centred on the body origin
    b2CreateCircleShape(body, &sd, &c);
  }
  // Velocities of the centre of mass, set once the mass is known.
  b2Body_SetLinearVelocity(body, b2v(b.velocity));
  b2Body_SetAngularVelocity(body, static_cast<float>(b.angular_velocity));
  return body;
}

// Box2D v3's settings of a step (step.pair, scene.run), for
// diagnostics.engine_settings.
ojson engine_settings(const char* impulses) {
  const b2WorldDef defaults = b2DefaultWorldDef();
  return {{"sub_steps", sub_steps},
          {"sub_steps_source", "Box2D v3 docs/hello.md and samples/settings.h (4)"},
          {"contact_hertz", static_cast<double>(defaults.contactHertz)},
          {"contact_damping_ratio", static_cast<double>(defaults.contactDampingRatio)},
          {"max_contact_push_speed", static_cast<double>(defaults.maxContactPushSpeed)},
          {"restitution_threshold", static_cast<double>(defaults.restitutionThreshold)},
          {"maximum_linear_speed", static_cast<double>(defaults.maximumLinearSpeed)},
          {"enable_continuous", defaults.enableContinuous},
          {"enable_sleep", false},
          {"warm_starting", true},
          {"speculative_distance", static_cast<double>(4.0f * 0.005f)},
          {"impulses", impulses}};
}

void step_pair(ojson& line) {
  body_request req[2] = {read_body(line.at("body1"), "body1"), read_body(line.at("body2"), "body2")};
  const float e = static_cast<float>(read_step_scalar(line, "restitution", false));
  const float mu = static_cast<float>(read_step_scalar(line, "friction", false));
  const float dt = static_cast<float>(read_step_scalar(line, "dt", true));
  const point g = read_gravity(line);
  declare_mixed_friction(line, mu);
  const b2WorldId world = make_world(b2v(g));
  b2BodyId bodies[2];
  int used[2] = {0, 0};
  for (int i = 0; i < 2; ++i)
    bodies[i] = create_body(world, req[i], e, mu, line, i == 0 ? "body1" : "body2", "", used[i]);
  b2World_Step(world, dt, sub_steps);

  ojson r;
  ojson rotations = ojson::array();
  for (int i = 0; i < 2; ++i) {
    const b2BodyId b = bodies[i];
    const b2Vec2 p = b2Body_GetPosition(b), v = b2Body_GetLinearVelocity(b);
    const b2Rot q = b2Body_GetRotation(b);
    r[i == 0 ? "body1_after" : "body2_after"] = {{"position", vec_json(p.x, p.y)},
                                                 {"angle", static_cast<double>(b2Rot_GetAngle(q))},
                                                 {"velocity", vec_json(v.x, v.y)},
                                                 {"angular_velocity", static_cast<double>(b2Body_GetAngularVelocity(b))}};
    rotations.push_back({{"cosine", static_cast<double>(q.c)}, {"sine", static_cast<double>(q.s)}});
  }
  ojson contacts = ojson::array(), notes = ojson::array();
  const int capacity = b2Body_GetContactCapacity(bodies[0]);
  std::vector<b2ContactData> data(static_cast<std::size_t>(std::max(capacity, 1)));
  const int count = b2Body_GetContactData(bodies[0], data.data(), capacity);
  for (int c = 0; c < count; ++c) {
    const b2Manifold& m = data[static_cast<std::size_t>(c)].manifold;
    const bool body1_is_a = B2_ID_EQUALS(b2Shape_GetBody(data[static_cast<std::size_t>(c)].shapeIdA), bodies[0]);
    const b2Vec2 n = body1_is_a ? m.normal : b2Neg(m.normal);  // Box2D's normal: from shape A to shape B
    for (int k = 0; k < m.pointCount; ++k) {
      const b2ManifoldPoint& mp = m.points[k];
      // A speculative point (shapes apart by up to B2_SPECULATIVE_DISTANCE)
      // is no contact at the pre-step poses: diagnostics only.
      const bool speculative = mp.separation > 0.0f;
      if (!speculative) contacts.push_back({{"point", vec_json(mp.point.x, mp.point.y)}, {"normal", vec_json(n.x, n.y)}});
      notes.push_back({{"point", vec_json(mp.point.x, mp.point.y)},
                       {"speculative", speculative},
                       {"box2d_body1_is_a", body1_is_a},
                       {"separation", static_cast<double>(mp.separation)},
                       {"normal_impulse", static_cast<double>(mp.normalImpulse)},
                       {"tangent_impulse", static_cast<double>(mp.tangentImpulse)},
                       {"total_normal_impulse", static_cast<double>(mp.totalNormalImpulse)},
                       {"normal_velocity", static_cast<double>(mp.normalVelocity)}});
    }
  }
  b2DestroyWorld(world);
  r["contacts"] = contacts;
  ojson& d = diagnostics(line);
  d["manifold_points"] = notes;  // every point of Box2D's manifold, with its own impulse records
  d["rotation"] = rotations;
  if (req[0].polygon || req[1].polygon) d["vertices_used"] = ojson::array({used[0], used[1]});
  const b2WorldDef defaults = b2DefaultWorldDef();
  d["engine_settings"] = engine_settings(
      "not answered: a soft step applies each impulse per sub-step with warm starting; Box2D keeps no per-step total");
  line["allowances"] = {{"restitution_threshold", static_cast<double>(defaults.restitutionThreshold)},
                        {"solver_iterations", 2 * sub_steps}};
  line["result"] = r;
}

// ---- scene.run -------------------------------------------------------------

// A body's angle over the steps. v3 keeps a rotation as its cosine and sine
// only, and b2Rot_GetAngle answers in [-pi, pi]: the angle is that value
// plus the whole turns counted from step to step (a jump of more than pi
// between two steps is a turn: v3 clamps the angular speed at
// B2_MAX_ROTATION / dt, so a body turns by at most pi/4 in a step). While no
// turn is counted the value is b2Rot_GetAngle's as it is.
struct angle_track {
  double last = 0;  // b2Rot_GetAngle after the previous step
  long turns = 0;
  double next(double raw) {
    if (raw - last > M_PI) --turns;
    else if (raw - last < -M_PI) ++turns;
    last = raw;
    return turns == 0 ? raw : raw + 2 * M_PI * static_cast<double>(turns);
  }
};

// step.pair's bodies in one b2World, b2World_Step'd `steps` times by dt with
// the same 4 sub-steps; each frame is Box2D's state after that step
// (b2Body_GetPosition: the body origin; b2Body_GetLinearVelocity: the centre
// of mass's).
void scene_run(ojson& line) {
  const scene_counts counts = read_scene_counts(line);
  ojson& list = scene_bodies(line);
  std::vector<body_request> req;
  for (std::size_t i = 0; i < list.size(); ++i) req.push_back(read_body(list[i], scene_body_name(i)));
  const float e = static_cast<float>(read_step_scalar(line, "restitution", false, 0.0));
  const float mu = static_cast<float>(read_step_scalar(line, "friction", false, 0.0));
  const float dt = static_cast<float>(read_step_scalar(line, "dt", true, 1.0 / 60.0));
  const point g = read_gravity(line);
  declare_mixed_friction(line, mu);
  const b2WorldId world = make_world(b2v(g));
  std::vector<b2BodyId> bodies;
  std::vector<angle_track> angles;
  ojson used = ojson::array();
  bool any_polygon = false;
  for (std::size_t i = 0; i < req.size(); ++i) {
    int n = 0;
    bodies.push_back(create_body(world, req[i], e, mu, line, "bodies", scene_body_name(i) + ".vertices: ", n));
    used.push_back(n);
    any_polygon = any_polygon || req[i].polygon;
    // The turns of the angle given: b2MakeRot keeps none of them.
    angle_track a;
    a.last = b2Rot_GetAngle(b2Body_GetRotation(bodies.back()));
    a.turns = std::lround((req[i].angle - a.last) / (2 * M_PI));
    angles.push_back(a);
  }
  line["result"] = run_scene(
      counts, bodies.size(), [&] { b2World_Step(world, dt, sub_steps); },
      [&](std::size_t i) {
        const b2BodyId b = bodies[i];
        const b2Vec2 p = b2Body_GetPosition(b), v = b2Body_GetLinearVelocity(b);
        const double angle = angles[i].next(b2Rot_GetAngle(b2Body_GetRotation(b)));
        return body_state{p.x, p.y, angle, v.x, v.y, b2Body_GetAngularVelocity(b)};
      },
      line);
  b2DestroyWorld(world);

  ojson& d = diagnostics(line);
  if (any_polygon) d["vertices_used"] = used;
  ojson settings = engine_settings("not part of scene.run's result");
  settings["angle"] = "b2Rot_GetAngle (in [-pi, pi]) plus the whole turns counted step by step";
  settings["linear_slop"] = static_cast<double>(0.005f * b2GetLengthUnitsPerMeter());  // B2_LINEAR_SLOP
  d["engine_settings"] = settings;
  const b2WorldDef defaults = b2DefaultWorldDef();
  line["allowances"] = {{"restitution_threshold", static_cast<double>(defaults.restitutionThreshold)},
                        {"solver_iterations", 2 * sub_steps},
                        // B2_LINEAR_SLOP, v3's length tolerance (its contacts sag far less: see the top)
                        {"penetration_slop", static_cast<double>(0.005f * b2GetLengthUnitsPerMeter())}};
}

}  // namespace

int main() {
  return run_adapter(version_name(), "float",
                     {{"mass.polygon", mass_polygon}, {"gjk.distance", gjk_distance},
                      {"epa.penetration", epa_penetration}, {"contact.manifold", contact_manifold},
                      {"step.pair", step_pair}, {"scene.run", scene_run}},
                     isolation::worker, /*seconds_per_case=*/5);
}
