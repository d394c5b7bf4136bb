// rigidref-chipmunk: answers mass.polygon, contact.manifold, step.pair and scene.run
// with Chipmunk2D 7 (Debian libchipmunk-dev; cpFloat is double), for
// `rigidref check`.
//   area      |cpAreaForPoly(n, v, 0)|: Chipmunk's area is signed by winding,
//             clockwise positive (documented in chipmunk.h); the protocol's is
//             positive in either orientation.
//   centroid  cpCentroidForPoly(n, v).
//   inertia   cpMomentForPoly(m, n, v, -centroid, 0), the documented way to
//             get the moment about the centroid; m = density * area in double
//             (one rounding of the adapter's, far inside the budget).
// Chipmunk's formulas are shoelace sums, valid for any simple polygon, so the
// adapter passes concave polygons too (Chipmunk's poly *shapes* are convex;
// these helpers do not check). A request by total "mass" is unsupported.
// What was measured: D-ENGINE-7.
//
// contact.manifold  cpShapesCollide on shapes of a static body at the origin
//                   (cpShapeCacheBB for the identity transform): polygons
//                   and rounded polygons are cpPolyShapeNew (a Chipmunk
//                   polygon has a radius), circles and points cpCircleShapeNew
//                   (radius 0 for a point), segments and capsules
//                   cpSegmentShapeNew with the radius. The normal points from
//                   a to b (cpShapesCollide negates it when cpCollide ordered
//                   the shapes by type, circle < segment < polygon); each
//                   point is reported as pointA (on a), and "separation" is
//                   the returned distance as it is (when cpShapesCollide
//                   swapped the shapes that distance has the wrong sign,
//                   D-ENGINE-16); pointA and pointB go to
//                   diagnostics.points. cpPolyShapeNew takes the convex hull
//                   of the vertices (diagnostics.vertices_used, and
//                   diagnostics.input_changes where the hull differs).
// step.pair         a cpSpace with the request's gravity, sleeping off
//                   (sleepTimeThreshold = INFINITY, also the default), the
//                   default 10 iterations (cpSpaceNew; declared as the
//                   allowance solver_iterations, see step_pair), stepped
//                   once by dt with cpSpaceStep. A dynamic body is cpBodyNew(0, 0) whose
//                   mass, moment and centre of gravity come from its shape's
//                   density (cpShapeSetDensity); a static body is
//                   cpBodyNewStatic. cpBodySetPosition/GetPosition are the
//                   body origin, Set/GetVelocity the velocity of the centre
//                   of gravity (cpBody.c). Chipmunk multiplies the shapes'
//                   elasticities and frictions (cpArbiterUpdate), so each
//                   shape gets sqrt(e) and sqrt(mu); where the product differs
//                   from the request's value in the last bit the line gives
//                   Chipmunk's and declares it (diagnostics.input_changes).
//                   Impulses: Chipmunk's public
//                   API gives the total impulse of an arbiter
//                   (cpArbiterTotalImpulse, from a post-solve handler), not
//                   the per-point ones: one "contacts" entry per arbiter, with
//                   its points listed, converted to the impulse on body2 along
//                   n (body1 to body2) and t = (-n.y, n.x).
//                   Note the order of cpSpaceStep: positions move first with
//                   the velocities given, then collisions are found and the
//                   velocities solved (cpSpaceStep.c).
// scene.run         step.pair's bodies (read and added by the same
//                   functions) in one cpSpace with the same settings,
//                   cpSpaceStep'd `steps` times by dt; each frame is
//                   Chipmunk's state after that step. Warm starting carries
//                   the arbiters' impulses from step to step. Allowances:
//                   solver_iterations and penetration_slop = the space's
//                   collisionSlop (0.1 by default: an overlap Chipmunk does
//                   not push out). As cpSpaceStep moves positions before
//                   it updates velocities, a position lags its velocity by
//                   one step (engine_settings.step_order).
#include <rigidref/protocol/adapter_io.hpp>

#include "scene_run_io.hpp"

#include <chipmunk/chipmunk.h>

#include <cmath>
#include <utility>
#include <vector>

namespace {

using namespace rigidref::protocol;
using rigidref::adapters::body_state;
using rigidref::adapters::read_scene_counts;
using rigidref::adapters::run_scene;
using rigidref::adapters::scene_bodies;
using rigidref::adapters::scene_body_name;
using rigidref::adapters::scene_counts;

void mass_polygon(ojson& line) {
  const double density = polygon_density(line);
  const std::vector<point> v = points(line.at("vertices"), "vertices");
  if (v.size() < 3) throw unsupported_case("fewer than 3 vertices");
  std::vector<cpVect> c;
  for (const point& p : v) c.push_back(cpv(p.x, p.y));
  const int n = static_cast<int>(c.size());
  const double area = std::fabs(cpAreaForPoly(n, c.data(), 0.0));
  const cpVect centroid = cpCentroidForPoly(n, c.data());
  const double mass = density * area;
  const double inertia = cpMomentForPoly(mass, n, c.data(), cpvneg(centroid), 0.0);
  line["result"] = {{"area", area}, {"centroid", vec_json(centroid.x, centroid.y)}, {"inertia", inertia}};
}


// ---- contact.manifold: cpShapesCollide --------------------------------------

// A Chipmunk shape on `body` (at the origin, identity transform) for a
// protocol shape: polygons (rounded ones too: a Chipmunk polygon has a
// radius) through cpPolyShapeNew, circles and points (radius 0) through
// cpCircleShapeNew, segments and capsules through cpSegmentShapeNew.
cpShape* make_chipmunk_shape(cpBody* body, const shape& s) {
  switch (s.form) {
    case shape::kind::polygon: {
      if (!convex_polygon(s.core)) throw std::invalid_argument("a polygon must be convex and have an area");
      std::vector<cpVect> v;
      for (const point& p : s.core) v.push_back(cpv(p.x, p.y));
      // cpPolyShapeNew takes the convex hull of the points (cpConvexHull, tolerance 0).
      return cpPolyShapeNew(body, static_cast<int>(v.size()), v.data(), cpTransformIdentity, s.radius);
    }
    case shape::kind::circle:
    case shape::kind::point: return cpCircleShapeNew(body, s.radius, cpv(s.core[0].x, s.core[0].y));
    case shape::kind::segment:
      return cpSegmentShapeNew(body, cpv(s.core[0].x, s.core[0].y), cpv(s.core[1].x, s.core[1].y), s.radius);
  }
  return nullptr;
}

// The vertices a cpPolyShape keeps (the hull cpPolyShapeNew took).
std::vector<point> polygon_vertices(const cpShape* s) {
  std::vector<point> out;
  for (int i = 0; i < cpPolyShapeGetCount(s); ++i) out.push_back({cpPolyShapeGetVert(s, i).x, cpPolyShapeGetVert(s, i).y});
  return out;
}

// Declares input `field` changed where cpPolyShapeNew's hull is not the
// polygon `given`; `prefix` names the part of the field ("vertices: ").
void declare_hull_change(ojson& line, const std::string& field, const std::string& prefix,
                         const std::vector<point>& given, const cpShape* s) {
  const std::string change = polygon_change(given, polygon_vertices(s), "cpPolyShapeNew (convex hull)");
  if (!change.empty()) declare_input_change(line, field, prefix + change);
}

void contact_manifold(ojson& line) {
  const shape sa = parse_shape(line.at("a"), "a"), sb = parse_shape(line.at("b"), "b");
  cpBody* body = cpBodyNewStatic();
  cpShape* a = make_chipmunk_shape(body, sa);
  cpShape* b = make_chipmunk_shape(body, sb);
  if (sa.form == shape::kind::polygon) declare_hull_change(line, "a", "", sa.core, a);
  if (sb.form == shape::kind::polygon) declare_hull_change(line, "b", "", sb.core, b);
  cpShapeCacheBB(a);  // world-space data for the body's (identity) transform
  cpShapeCacheBB(b);
  const cpContactPointSet set = cpShapesCollide(a, b);
  ojson r;
  ojson points = ojson::array(), on_shapes = ojson::array();
  if (set.count > 0) {
    // cpShapesCollide flips the normal back when cpCollide swapped the
    // shapes (it orders them by type): the normal points from a to b.
    r["normal"] = vec_json(set.normal.x, set.normal.y);
    for (int i = 0; i < set.count; ++i) {
      const auto& p = set.points[i];
      // pointA is on a's surface, pointB on b's; "separation" is the
      // returned distance as it is (see derivations/engines.md on its sign).
      points.push_back({{"point", vec_json(p.pointA.x, p.pointA.y)}, {"separation", p.distance}});
      on_shapes.push_back({{"point_a", vec_json(p.pointA.x, p.pointA.y)}, {"point_b", vec_json(p.pointB.x, p.pointB.y)}});
    }
  }
  r["points"] = points;
  ojson& notes = diagnostics(line);
  notes["points"] = on_shapes;  // the result's points in order: Chipmunk's pointA (on a) and pointB (on b)
  // cpCollide puts the shape of the lower type first (circle < segment < polygon).
  const auto type_rank = [](const shape& s) {
    return s.form == shape::kind::polygon ? 2 : s.form == shape::kind::segment ? 1 : 0;
  };
  notes["swapped"] = type_rank(sa) > type_rank(sb);
  if (sa.form == shape::kind::polygon || sb.form == shape::kind::polygon)
    notes["vertices_used"] = ojson::array({sa.form == shape::kind::polygon ? cpPolyShapeGetCount(a) : 0,
                                           sb.form == shape::kind::polygon ? cpPolyShapeGetCount(b) : 0});
  cpShapeFree(a);
  cpShapeFree(b);
  cpBodyFree(body);
  line["result"] = r;
}

// ---- step.pair: cpSpace ------------------------------------------------------

struct body_request {
  bool is_static = false;
  bool polygon = false;
  std::vector<point> vertices;
  double radius = 0;
  point position{0, 0}, velocity{0, 0};
  double angle = 0, angular_velocity = 0, density = 1;
};

body_request read_body(const ojson& j, const std::string& what) {
  if (!j.is_object()) throw std::invalid_argument(what + ": expected an object");
  body_request b;
  b.is_static = j.value("static", false);
  if (j.contains("vertices") == j.contains("radius"))
    throw std::invalid_argument(what + ": give \"vertices\" (a convex polygon) or \"radius\" (a circle)");
  if (j.contains("vertices")) {
    b.polygon = true;
    const ojson& list = j["vertices"];
    if (!list.is_array()) throw std::invalid_argument(what + ".vertices: expected a list of [x, y]");
    for (std::size_t i = 0; i < list.size(); ++i) b.vertices.push_back(finite_point(list[i], what + ".vertices"));
    if (!convex_polygon(b.vertices)) throw std::invalid_argument(what + ".vertices: not a convex polygon with an area");
  } else {
    b.radius = finite_number(j["radius"], what + ".radius");
    if (!(b.radius > 0)) throw std::invalid_argument(what + ".radius: must be > 0");
  }
  if (j.contains("position")) b.position = finite_point(j["position"], what + ".position");
  if (j.contains("velocity")) b.velocity = finite_point(j["velocity"], what + ".velocity");
  if (j.contains("angle")) b.angle = finite_number(j["angle"], what + ".angle");
  if (j.contains("angular_velocity")) b.angular_velocity = finite_number(j["angular_velocity"], what + ".angular_velocity");
  if (!b.is_static && !j.contains("density")) throw std::invalid_argument(what + ": a dynamic body needs \"density\"");
  if (j.contains("density")) b.density = finite_number(j["density"], what + ".density");
  if (!(b.density > 0)) throw std::invalid_argument(what + ".density: must be > 0");
  return b;
}

struct arbiter_log {
  cpBody* body1 = nullptr;
  ojson contacts = ojson::array();
};

// Chipmunk's post-solve callback: the arbiter's total impulse (the public API
// has no per-point impulse: cpArbiterTotalImpulse sums the contacts' jnAcc,
// jtAcc, which live in the private cpContact struct).
void post_solve(cpArbiter* arb, cpSpace*, cpDataPointer data) {
  arbiter_log& log = *static_cast<arbiter_log*>(data);
  cpBody *ba, *bb;
  cpArbiterGetBodies(arb, &ba, &bb);
  // cpArbiterGetNormal points from the arbiter's first shape to its second;
  // cpArbiterTotalImpulse is the impulse on the first (it returns -sum of
  // n jn + t jt, the sum being what the solver applies to its second body,
  // or +sum when the arbiter is swapped: cpArbiter.c).
  const cpVect n_ab = cpArbiterGetNormal(arb);
  const cpVect j_first = cpArbiterTotalImpulse(arb);
  const bool body1_first = ba == log.body1;
  const cpVect n = body1_first ? n_ab : cpvneg(n_ab);           // from body1 to body2
  const cpVect j2 = body1_first ? cpvneg(j_first) : j_first;      // the impulse on body2
  const cpVect t = cpv(-n.y, n.x);
  const cpContactPointSet set = cpArbiterGetContactPointSet(arb);
  ojson points = ojson::array();
  for (int i = 0; i < set.count; ++i)
    points.push_back(vec_json(set.points[i].pointA.x, set.points[i].pointA.y));
  log.contacts.push_back({{"points", points}, {"normal", vec_json(n.x, n.y)}, {"jn", cpvdot(j2, n)}, {"jt", cpvdot(j2, t)}});
}

// The scalars of step.pair and scene.run: restitution, friction, dt
// (`defaults`: scene.run's 0, 0, 1/60 when absent; step.pair requires
// them) and gravity (default [0, 0]).
struct step_scalars {
  double e = 0, mu = 0, dt = 1.0 / 60.0;
  point g{0, 0};
};

step_scalars read_step_scalars(const ojson& line, bool defaults) {
  step_scalars s;
  const auto field = [&](const char* name, double fallback) {
    return defaults && !line.contains(name) ? fallback : finite_number(line.at(name), name);
  };
  s.e = field("restitution", 0.0);
  s.mu = field("friction", 0.0);
  s.dt = field("dt", 1.0 / 60.0);
  if (s.e < 0) throw std::invalid_argument("restitution: must be >= 0");
  if (s.mu < 0) throw std::invalid_argument("friction: must be >= 0");
  if (!(s.dt > 0)) throw std::invalid_argument("dt: must be > 0");
  if (line.contains("gravity")) s.g = finite_point(line["gravity"], "gravity");
  return s;
}

// Chipmunk combines per-shape values by multiplication (cpArbiterUpdate:
// arb->e = a->e * b->e, arb->u = a->u * b->u), so each shape gets sqrt(e)
// and sqrt(mu); the products Chipmunk forms are written back into the line
// when they differ from the request's in the last bit. Returns the shapes'
// {elasticity, friction}.
std::pair<double, double> shape_coefficients(ojson& line, double e, double mu) {
  const double shape_e = std::sqrt(e), shape_mu = std::sqrt(mu);
  const double used_e = shape_e * shape_e, used_mu = shape_mu * shape_mu;
  if (used_e != e) {
    line["restitution"] = used_e;
    declare_input_change(line, "restitution",
                         "Chipmunk multiplies the shapes' elasticities (cpArbiterUpdate: e = e_a e_b); each shape "
                         "got sqrt(e), and sqrt(e)^2 = " + ojson(used_e).dump() + " is not " + ojson(e).dump() +
                         " in double");
  }
  if (used_mu != mu) {
    line["friction"] = used_mu;
    declare_input_change(line, "friction",
                         "Chipmunk multiplies the shapes' frictions (cpArbiterUpdate: u = u_a u_b); each shape "
                         "got sqrt(mu), and sqrt(mu)^2 = " + ojson(used_mu).dump() + " is not " + ojson(mu).dump() +
                         " in double");
  }
  return {shape_e, shape_mu};
}

// A space with the request's gravity and sleeping off, Chipmunk's defaults otherwise.
cpSpace* make_space(point g) {
  cpSpace* space = cpSpaceNew();
  cpSpaceSetGravity(space, cpv(g.x, g.y));
  // Sleeping is off by default (sleepTimeThreshold = INFINITY); set it anyway.
  cpSpaceSetSleepTimeThreshold(space, INFINITY);
  return space;
}

// A body of step.pair or scene.run, added to `space` with its one shape
// (elasticity shape_e, friction shape_mu). `field` is the request's input
// that holds the body ("body1", "bodies"), `prefix` names it in a declared
// hull change ("vertices: ", "bodies[3].vertices: ").
std::pair<cpBody*, cpShape*> add_body(cpSpace* space, const body_request& b, double shape_e, double shape_mu,
                                      ojson& line, const std::string& field, const std::string& prefix) {
  cpBody* body = b.is_static ? cpBodyNewStatic() : cpBodyNew(0, 0);  // mass from the shape's density
  cpShape* s;
  if (b.polygon) {
    std::vector<cpVect> v;
    for (const point& p : b.vertices) v.push_back(cpv(p.x, p.y));
    s = cpPolyShapeNew(body, static_cast<int>(v.size()), v.data(), cpTransformIdentity, 0.0);
    declare_hull_change(line, field, prefix, b.vertices, s);
  } else {
    s = cpCircleShapeNew(body, b.radius, cpvzero);  // centred on the body origin
  }
  cpShapeSetElasticity(s, shape_e);
  cpShapeSetFriction(s, shape_mu);
  if (!b.is_static) cpShapeSetDensity(s, b.density);  // sets the body's mass, moment and centre of gravity
  // Angle before position: cpBodySetPosition places the origin with the
  // current rotation; cpBodySetAngle turns about the centre of gravity.
  cpBodySetAngle(body, b.angle);
  cpBodySetPosition(body, cpv(b.position.x, b.position.y));  // the body origin (cpBody.c)
  cpSpaceAddBody(space, body);
  cpSpaceAddShape(space, s);  // after the body is placed: static shapes are indexed once
  if (!b.is_static) {
    cpBodySetVelocity(body, cpv(b.velocity.x, b.velocity.y));  // of the centre of gravity
    cpBodySetAngularVelocity(body, b.angular_velocity);
  }
  return {body, s};
}

// Chipmunk's settings of a space (step.pair, scene.run), for
// diagnostics.engine_settings; `warm_starting_effect` says what warm
// starting does in that op.
ojson engine_settings(cpSpace* space, int iterations, const char* warm_starting_effect, double shape_e,
                      double shape_mu) {
  return {{"iterations", iterations},
          {"iterations_meaning",
           "projected Gauss-Seidel sweeps over the arbiters' contact points (cpArbiterApplyImpulse: "
           "normal and friction impulse per point; the overlap's bias impulse apart)"},
          {"iterations_source", "cpSpaceNew's default (cpSpaceInit: iterations = 10)"},
          {"warm_starting", true},
          {"warm_starting_effect", warm_starting_effect},
          {"sleep_time_threshold", "infinity (sleeping off)"},
          {"idle_speed_threshold", cpSpaceGetIdleSpeedThreshold(space)},
          {"damping", cpSpaceGetDamping(space)},
          {"collision_slop", cpSpaceGetCollisionSlop(space)},
          {"collision_bias", cpSpaceGetCollisionBias(space)},
          {"collision_persistence", cpSpaceGetCollisionPersistence(space)},
          {"shape_elasticity", shape_e},
          {"shape_friction", shape_mu},
          {"combine_rule", "e = e1 e2, mu = mu1 mu2 (each shape: sqrt)"}};
}

void free_space(cpSpace* space, const std::vector<std::pair<cpBody*, cpShape*>>& made) {
  for (const auto& [body, s] : made) {
    cpSpaceRemoveShape(space, s);
    cpSpaceRemoveBody(space, body);
    cpShapeFree(s);
    cpBodyFree(body);
  }
  cpSpaceFree(space);
}

void step_pair(ojson& line) {
  const body_request req[2] = {read_body(line.at("body1"), "body1"), read_body(line.at("body2"), "body2")};
  const step_scalars in = read_step_scalars(line, /*defaults=*/false);
  const auto [shape_e, shape_mu] = shape_coefficients(line, in.e, in.mu);
  const double dt = in.dt;

  cpSpace* space = make_space(in.g);
  arbiter_log log;
  cpCollisionHandler* handler = cpSpaceAddDefaultCollisionHandler(space);
  handler->postSolveFunc = post_solve;
  handler->userData = &log;

  std::vector<std::pair<cpBody*, cpShape*>> made;
  cpBody* bodies[2];
  cpShape* shapes[2];
  for (int i = 0; i < 2; ++i) {
    made.push_back(add_body(space, req[i], shape_e, shape_mu, line, i == 0 ? "body1" : "body2", "vertices: "));
    bodies[i] = made.back().first;
    shapes[i] = made.back().second;
  }
  log.body1 = bodies[0];
  // Chipmunk's solver (cpSpaceStep.c): after the cached impulses, it sweeps
  // `iterations` times over the arbiters, each contact point applying its
  // normal impulse (clamped >= 0, with the bias impulse for the overlap kept
  // apart as a pseudo-velocity) and its friction impulse (clamped to the
  // cone): projected Gauss-Seidel, one sweep per iteration. Warm starting
  // is always on (cpArbiterApplyCachedImpulse), with no effect in this one
  // step: the first cpSpaceStep scales the cache by dt_coef = 0 (prev_dt is
  // 0) and a new arbiter has no cached impulses.
  const int iterations = cpSpaceGetIterations(space);
  cpSpaceStep(space, dt);

  ojson r;
  for (int i = 0; i < 2; ++i) {
    const cpBody* b = bodies[i];
    const cpVect p = cpBodyGetPosition(b), v = cpBodyGetVelocity(b);
    r[i == 0 ? "body1_after" : "body2_after"] = {{"position", vec_json(p.x, p.y)},
                                                 {"angle", cpBodyGetAngle(b)},
                                                 {"velocity", vec_json(v.x, v.y)},
                                                 {"angular_velocity", cpBodyGetAngularVelocity(b)}};
  }
  r["contacts"] = log.contacts;
  ojson& notes = diagnostics(line);
  if (req[0].polygon || req[1].polygon) {
    ojson used = ojson::array();
    for (int i = 0; i < 2; ++i) used.push_back(req[i].polygon ? cpPolyShapeGetCount(shapes[i]) : 0);
    notes["vertices_used"] = used;
  }
  notes["engine_settings"] =
      engine_settings(space, iterations,
                      "none in this one step: the first cpSpaceStep scales cached impulses by dt_coef = 0, "
                      "and a new arbiter has none",
                      shape_e, shape_mu);
  notes["engine_settings"]["impulses"] = "per arbiter: cpArbiterTotalImpulse (no per-point impulse in the public API)";
  line["allowances"] = {{"solver_iterations", iterations}};
  free_space(space, made);
  line["result"] = r;
}

// ---- scene.run: cpSpace over many steps --------------------------------------

// step.pair's bodies in one space, cpSpaceStep'd `steps` times by dt; each
// frame is Chipmunk's state after that step (cpBodyGetPosition: the body
// origin; cpBodyGetVelocity: the centre of gravity's).
void scene_run(ojson& line) {
  const scene_counts counts = read_scene_counts(line);
  ojson& list = scene_bodies(line);
  std::vector<body_request> req;
  for (std::size_t i = 0; i < list.size(); ++i) req.push_back(read_body(list[i], scene_body_name(i)));
  const step_scalars in = read_step_scalars(line, /*defaults=*/true);
  const auto [shape_e, shape_mu] = shape_coefficients(line, in.e, in.mu);

  cpSpace* space = make_space(in.g);
  std::vector<std::pair<cpBody*, cpShape*>> made;
  ojson used = ojson::array();
  bool any_polygon = false;
  for (std::size_t i = 0; i < req.size(); ++i) {
    made.push_back(add_body(space, req[i], shape_e, shape_mu, line, "bodies", scene_body_name(i) + ".vertices: "));
    used.push_back(req[i].polygon ? cpPolyShapeGetCount(made.back().second) : 0);
    any_polygon = any_polygon || req[i].polygon;
  }
  const int iterations = cpSpaceGetIterations(space);
  line["result"] = run_scene(
      counts, made.size(), [&] { cpSpaceStep(space, in.dt); },
      [&](std::size_t i) {
        const cpBody* b = made[i].first;
        const cpVect p = cpBodyGetPosition(b), v = cpBodyGetVelocity(b);
        return body_state{p.x, p.y, cpBodyGetAngle(b), v.x, v.y, cpBodyGetAngularVelocity(b)};
      },
      line);

  ojson& notes = diagnostics(line);
  if (any_polygon) notes["vertices_used"] = used;
  ojson settings = engine_settings(space, iterations,
                                   "each step starts from the arbiters' impulses of the last step, scaled by "
                                   "dt / previous dt",
                                   shape_e, shape_mu);
  settings["step_order"] =
      "cpSpaceStep moves the positions with the velocities the step starts from, then finds the "
      "contacts and updates the velocities (gravity, impulses): a position lags its velocity by one step";
  notes["engine_settings"] = settings;
  // collisionSlop: the overlap Chipmunk leaves uncorrected at rest (the bias
  // impulse pushes out only the part beyond it).
  line["allowances"] = {{"solver_iterations", iterations}, {"penetration_slop", cpSpaceGetCollisionSlop(space)}};
  free_space(space, made);
}

}  // namespace

int main() {
  // The cases in a worker process: Chipmunk stops the process on a failed
  // cpAssertHard (e.g. a body that is not sane), which then costs one case.
  return run_adapter("chipmunk-7.0.3", "double",
                     {{"mass.polygon", mass_polygon}, {"contact.manifold", contact_manifold}, {"step.pair", step_pair},
                      {"scene.run", scene_run}},
                     isolation::worker, /*seconds_per_case=*/5);
}
