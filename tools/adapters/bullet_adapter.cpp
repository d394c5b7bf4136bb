// rigidref-bullet: answers gjk.distance and epa.penetration with Bullet 3.24
// (Debian libbullet-dev), for `rigidref check`.
//   rigidref-bullet                  btGjkEpaSolver2::Distance and
//                                    btGjkEpaSolver2::Penetration
//   rigidref-bullet --pair-detector  btGjkPairDetector::getClosestPoints with
//                                    btVoronoiSimplexSolver and
//                                    btMinkowskiPenetrationDepthSolver (the
//                                    pair Bullet's own 2D example, Planar2D,
//                                    gives btConvex2dConvex2dAlgorithm); it
//                                    answers both ops
//
// Precision. Debian ships two builds of Bullet 3.24: the default one
// (libBulletCollision.so, pkg-config "bullet", find_package(Bullet)) is float,
// and a second one (libBulletCollision-float64.so, pkg-config
// "bullet-float64") is compiled with BT_USE_DOUBLE_PRECISION. This adapter
// links the default, what a Bullet user gets without asking: btScalar is
// float, every input is rounded to float and the answer line gives the
// floats Bullet used. (Compiled with BT_USE_DOUBLE_PRECISION and linked to the
// float64 libraries, the same source says "double" and rounds nothing.)
//
// The 2D embedding. Bullet is 3D; its own 2D support is btConvex2dShape
// ("allows to use arbitrary convex shapes as 2d convex shapes, with the Z
// component assumed to be 0", btConvex2dShape.h) around a shape in the
// z = 0 plane, as in Bullet's example examples/Planar2D (a triangle as a
// btConvexHullShape at z = 0 inside a btConvex2dShape). btGjkPairDetector
// and btMinkowskiPenetrationDepthSolver see that both shapes are 2D
// (isConvex2d) and set the z of every support point to 0; btGjkEpaSolver2
// does not look at the shape type and works in 3D on the same shapes.
//   polygon          btConvexHullShape of the vertices at z = 0 (the hull's
//                    support function is the polygon's for a convex input)
//   rounded polygon  the same, margin = radius
//   circle           btSphereShape(radius) at the centre (the transform's
//                    origin); a ball's section by z = 0 is the disc
//   point            btSphereShape(0) at the point
//   segment/capsule  btCapsuleShapeX(radius, length) rotated into the
//                    segment's direction about z, at the midpoint; its
//                    core is the segment, its margin the radius. The
//                    endpoints Bullet uses (midpoint +- the rotated half
//                    length, in float) are written back into the line and,
//                    where they differ from the given ones rounded to
//                    float, declared (diagnostics.input_changes).
// Every shape is wrapped in a btConvex2dShape. Transforms are the identity
// except for circles, points and capsules, which Bullet places by their
// transform.
//
// Margins. Every Bullet convex shape is a core grown by a margin (the
// collision margin, CONVEX_DISTANCE_MARGIN = 0.04 by default for hulls;
// spheres and capsules: the radius). Bullet's documentation asks for a
// smaller margin on small objects ("you need to make sure to set a smaller
// collision margin, using the 'setMargin' API", btCollisionMargin.h); the
// case sets hold shapes of size 1e-3. The adapter sets each margin to what
// the protocol's shape means: 0 for polygons, points and segments, the
// radius for rounded polygons, circles and capsules (a sphere's and a
// capsule's margin is their radius already). So Bullet is asked exactly the
// protocol's question and no allowance is declared for the margin.
//
// Conventions converted (each one tested in tests/adapters_cpp_test.cpp):
//   - btGjkEpaSolver2::Distance works on the cores (it calls Initialize with
//     withmargins = false, btGjkEpa2.cpp) and returns normal = (w0 - w1)/|.|,
//     from B to A, with w0 on A and w1 on B. The rounded shapes' distance is
//     the cores' distance less both margins, and their closest points are
//     the core points moved by each margin towards the other shape, as
//     Bullet's own callers do it (btGjkPairDetector subtracts
//     marginA + marginB and moves pointOnA/pointOnB; the one-shape
//     btGjkEpaSolver2::SignedDistance does the same).
//   - btGjkEpaSolver2::Penetration (usemargins = true, its default) returns
//     normal = -epa.m_normal and witnesses[0] - witnesses[1] =
//     epa.m_normal * depth: Bullet's normal points from B to A and the
//     protocol's (translate b by depth * normal) is its negative.
//   - btGjkPairDetector reports addContactPoint(normalOnBInWorld,
//     pointInWorld, depth): the normal "on B" points from B to A, the point
//     is on B, depth < 0 is a penetration; point on A = point + normal *
//     depth (btManifoldResult::addContactPoint forms it so).
//   - btGjkEpaSolver2 works in shape a's frame (Initialize maps b into it:
//     m_toshape0 = wtrs0.inverseTimes(wtrs1)). Distance and Penetration map
//     the witnesses back to the world (wtrs0 * w) but not the normal, which
//     stays in a's frame; btGjkEpa2.h does not say so. It matters when a's
//     transform rotates (a segment or capsule, a btCapsuleShapeX turned along
//     its segment), so the adapter turns the normal by a's basis.
// Answer lines: the result holds the op's fields (status included); what
// else Bullet says goes to "diagnostics": the z components it returns
// (normal_z, point_z: 0 when it stayed in the plane), the cores' distance
// (core_distance), btGjkPairDetector's last_used_method and
// degenerate_simplex.
//
// The cases run in a worker process with a time limit per case: Bullet's GJK
// has iteration caps, but a failing case should cost that case only.
#include <rigidref/protocol/adapter_io.hpp>

#include <btBulletCollisionCommon.h>
#include <BulletCollision/CollisionShapes/btConvex2dShape.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkEpa2.h>
#include <BulletCollision/NarrowPhaseCollision/btGjkPairDetector.h>
#include <BulletCollision/NarrowPhaseCollision/btMinkowskiPenetrationDepthSolver.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace {

using namespace rigidref::protocol;

#ifdef BT_USE_DOUBLE_PRECISION
constexpr const char* precision_name = "double";
#else
constexpr const char* precision_name = "float";
#endif

bool pair_detector = false;

struct bullet_shape {
  std::unique_ptr<btConvexShape> core;     // the 3D shape in the z = 0 plane
  std::unique_ptr<btConvex2dShape> shape;  // Bullet's 2D marker around it
  btTransform transform;
  btScalar margin = 0;
};

// Builds the Bullet shape for `s` (numbers already in btScalar) and rewrites
// `s` to what Bullet uses where Bullet computes it (a capsule's endpoints).
bullet_shape make_shape(shape& s) {
  bullet_shape b;
  b.transform.setIdentity();
  switch (s.form) {
    case shape::kind::polygon: {
      auto hull = std::make_unique<btConvexHullShape>();
      for (const point& p : s.core)
        hull->addPoint(btVector3(static_cast<btScalar>(p.x), static_cast<btScalar>(p.y), 0), false);
      hull->recalcLocalAabb();
      hull->setMargin(static_cast<btScalar>(s.radius));  // not CONVEX_DISTANCE_MARGIN: see the header
      b.core = std::move(hull);
      break;
    }
    case shape::kind::circle:
    case shape::kind::point: {
      b.core = std::make_unique<btSphereShape>(static_cast<btScalar>(s.radius));  // margin = radius
      b.transform.setOrigin(btVector3(static_cast<btScalar>(s.core[0].x), static_cast<btScalar>(s.core[0].y), 0));
      break;
    }
    case shape::kind::segment: {
      const btVector3 p1(static_cast<btScalar>(s.core[0].x), static_cast<btScalar>(s.core[0].y), 0);
      const btVector3 p2(static_cast<btScalar>(s.core[1].x), static_cast<btScalar>(s.core[1].y), 0);
      const btVector3 d = p2 - p1;
      const btScalar length = d.length();
      if (!(length > 0)) throw unsupported_case("the segment's length is 0 in Bullet's precision");
      const btScalar c = d.x() / length, sn = d.y() / length;
      b.core = std::make_unique<btCapsuleShapeX>(static_cast<btScalar>(s.radius), length);  // margin = radius
      b.transform.setBasis(btMatrix3x3(c, -sn, 0, sn, c, 0, 0, 0, 1));
      b.transform.setOrigin((p1 + p2) * btScalar(0.5));
      const btScalar h = static_cast<const btCapsuleShape&>(*b.core).getHalfHeight();
      const btVector3 e1 = b.transform * btVector3(-h, 0, 0), e2 = b.transform * btVector3(h, 0, 0);
      s.core = {{e1.x(), e1.y()}, {e2.x(), e2.y()}};
      break;
    }
  }
  b.shape = std::make_unique<btConvex2dShape>(b.core.get());
  b.margin = b.shape->getMargin();
  return b;
}

struct pair_input {
  shape a, b;
  bullet_shape ba, bb;
};

// Reads "a" and "b", rounds them to Bullet's precision and writes back what
// Bullet uses.
pair_input read_pair(ojson& line) {
  pair_input in;
  in.a = parse_shape(line.at("a"), "a");
  in.b = parse_shape(line.at("b"), "b");
#ifndef BT_USE_DOUBLE_PRECISION
  in.a = to_float_shape(in.a, "a");
  in.b = to_float_shape(in.b, "b");
#endif
  for (const shape* s : {&in.a, &in.b})
    if (s->form == shape::kind::polygon && !convex_polygon(s->core))
      throw std::invalid_argument("a polygon must be convex and have an area");  // the protocol's rule
  const std::vector<point> given_a = in.a.core, given_b = in.b.core;
  in.ba = make_shape(in.a);
  in.bb = make_shape(in.b);
  for (const auto& [field, s, given] : {std::tuple{"a", &in.a, &given_a}, std::tuple{"b", &in.b, &given_b}}) {
    line[field] = shape_json(*s, line[field]);
    if (s->form == shape::kind::segment && (s->core[0].x != (*given)[0].x || s->core[0].y != (*given)[0].y ||
                                            s->core[1].x != (*given)[1].x || s->core[1].y != (*given)[1].y))
      declare_input_change(line, field,
                           "segment: Bullet's btCapsuleShapeX lies at the midpoint, turned onto the segment, with "
                           "half its length: its endpoints in " + std::string(precision_name) + " are " +
                               points_json(s->core).dump() + ", not the given " + points_json(*given).dump());
  }
  return in;
}

const char* status_name(btGjkEpaSolver2::sResults::eStatus s) {
  switch (s) {
    case btGjkEpaSolver2::sResults::Separated: return "Separated";
    case btGjkEpaSolver2::sResults::Penetrating: return "Penetrating";
    case btGjkEpaSolver2::sResults::GJK_Failed: return "GJK_Failed";
    case btGjkEpaSolver2::sResults::EPA_Failed: return "EPA_Failed";
  }
  return "?";
}

// The guess btGjkEpaPenetrationDepthSolver tries first: from A's origin to
// B's, (1, 0, 0) when they coincide (safeNormalize).
btVector3 first_guess(const pair_input& in) {
  btVector3 g = in.bb.transform.getOrigin() - in.ba.transform.getOrigin();
  return g.safeNormalize();
}

// btGjkEpaSolver2's normal (from B to A) turned from a's frame into the world
// (the conventions above).
btVector3 world_normal_solver2(const pair_input& in, const btGjkEpaSolver2::sResults& r) {
  return in.ba.transform.getBasis() * r.normal;
}

void gjk_distance_solver2(ojson& line) {
  pair_input in = read_pair(line);
  btGjkEpaSolver2::sResults r;
  const bool separated = btGjkEpaSolver2::Distance(in.ba.shape.get(), in.ba.transform, in.bb.shape.get(),
                                                   in.bb.transform, first_guess(in), r);
  ojson out;
  if (separated) {
    // Distance works on the cores; the shapes are the cores grown by the margins.
    const btScalar margins = in.ba.margin + in.bb.margin;
    const btScalar distance = r.distance - margins;
    if (distance > 0) {
      const btVector3 a_to_b = -world_normal_solver2(in, r);
      const btVector3 pa = r.witnesses[0] + a_to_b * in.ba.margin;
      const btVector3 pb = r.witnesses[1] - a_to_b * in.bb.margin;
      // GJK stops once the core distance rl is within GJK_ACCURACY rl of its
      // lower bound (btGjkEpa2.cpp: GJK_ACCURACY = 0.0001, relative).
      line["allowances"] = {{"distance_tolerance", 1e-4 * static_cast<double>(r.distance)}};
      out = {{"intersecting", false},
             {"distance", static_cast<double>(distance)},
             {"point_a", vec_json(pa.x(), pa.y())},
             {"point_b", vec_json(pb.x(), pb.y())}};
      if (pa.z() != 0 || pb.z() != 0) diagnostics(line)["point_z"] = vec_json(pa.z(), pb.z());
    } else {
      out = {{"intersecting", true}, {"distance", 0.0}};
    }
    diagnostics(line)["core_distance"] = static_cast<double>(r.distance);
  } else if (r.status == btGjkEpaSolver2::sResults::Penetrating) {
    out = {{"intersecting", true}, {"distance", 0.0}};
  } else {
    throw engine_error("no_convergence", std::string("btGjkEpaSolver2::Distance failed: status ") + status_name(r.status));
  }
  out["status"] = status_name(r.status);
  line["result"] = out;
}

void epa_penetration_solver2(ojson& line) {
  pair_input in = read_pair(line);
  btGjkEpaSolver2::sResults r;
  const bool penetrating = btGjkEpaSolver2::Penetration(in.ba.shape.get(), in.ba.transform, in.bb.shape.get(),
                                                        in.bb.transform, first_guess(in), r);  // usemargins = true
  ojson out;
  // EPA stops expanding when a face improves the depth by at most
  // EPA_ACCURACY = 0.0001 (btGjkEpa2.cpp, absolute).
  line["allowances"] = {{"epa_tolerance", 1e-4}};
  if (penetrating) {
    const btVector3 n = -world_normal_solver2(in, r);
    out = {{"intersecting", true}, {"depth", static_cast<double>(-r.distance)}, {"normal", vec_json(n.x(), n.y())}};
    diagnostics(line)["normal_z"] = static_cast<double>(n.z());
  } else if (r.status == btGjkEpaSolver2::sResults::Separated) {
    out = {{"intersecting", false}, {"depth", 0.0}};
  } else {
    throw engine_error("no_convergence", std::string("btGjkEpaSolver2::Penetration failed: status ") + status_name(r.status));
  }
  out["status"] = status_name(r.status);
  line["result"] = out;
}

// btGjkPairDetector's one contact point.
struct closest_result : btDiscreteCollisionDetectorInterface::Result {
  bool has = false;
  btVector3 normal_on_b, point_on_b;
  btScalar depth = 0;
  void setShapeIdentifiersA(int, int) override {}
  void setShapeIdentifiersB(int, int) override {}
  void addContactPoint(const btVector3& normalOnBInWorld, const btVector3& pointInWorld, btScalar d) override {
    has = true;
    normal_on_b = normalOnBInWorld;
    point_on_b = pointInWorld;
    depth = d;
  }
};

closest_result pair_detect(const pair_input& in, int& method, int& degenerate) {
  btVoronoiSimplexSolver simplex;
  btMinkowskiPenetrationDepthSolver penetration;
  btGjkPairDetector detector(in.ba.shape.get(), in.bb.shape.get(), &simplex, &penetration);
  btGjkPairDetector::ClosestPointInput input;  // m_maximumDistanceSquared = BT_LARGE_FLOAT
  input.m_transformA = in.ba.transform;
  input.m_transformB = in.bb.transform;
  closest_result r;
  detector.getClosestPoints(input, r, nullptr);
  method = detector.m_lastUsedMethod;
  degenerate = detector.m_degenerateSimplex;
  return r;
}

void gjk_distance_detector(ojson& line) {
  pair_input in = read_pair(line);
  int method = 0, degenerate = 0;
  const closest_result r = pair_detect(in, method, degenerate);
  if (!r.has) throw engine_error("no_convergence", "btGjkPairDetector reported no contact point");
  ojson out;
  if (r.depth > 0) {
    const btVector3 pa = r.point_on_b + r.normal_on_b * r.depth;  // the normal on B points from B to A
    out = {{"intersecting", false},
           {"distance", static_cast<double>(r.depth)},
           {"point_a", vec_json(pa.x(), pa.y())},
           {"point_b", vec_json(r.point_on_b.x(), r.point_on_b.y())}};
  } else {
    out = {{"intersecting", true}, {"distance", 0.0}};
  }
  diagnostics(line)["last_used_method"] = method;
  diagnostics(line)["degenerate_simplex"] = degenerate;
  line["result"] = out;
}

void epa_penetration_detector(ojson& line) {
  pair_input in = read_pair(line);
  int method = 0, degenerate = 0;
  const closest_result r = pair_detect(in, method, degenerate);
  if (!r.has) throw engine_error("no_convergence", "btGjkPairDetector reported no contact point");
  ojson out;
  if (r.depth <= 0) {
    const btVector3 n = -r.normal_on_b;  // from A to B
    out = {{"intersecting", true}, {"depth", static_cast<double>(-r.depth)}, {"normal", vec_json(n.x(), n.y())}};
    diagnostics(line)["normal_z"] = static_cast<double>(n.z());
  } else {
    out = {{"intersecting", false}, {"depth", 0.0}};
  }
  diagnostics(line)["last_used_method"] = method;
  diagnostics(line)["degenerate_simplex"] = degenerate;
  line["result"] = out;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--pair-detector") == 0) {
      pair_detector = true;
    } else {
      std::cerr << "usage: rigidref-bullet [--pair-detector] < requests.jsonl > answers.jsonl\n"
                   "  answers gjk.distance and epa.penetration with Bullet 3.24:\n"
                   "  btGjkEpaSolver2::Distance and ::Penetration by default; with --pair-detector\n"
                   "  btGjkPairDetector (btVoronoiSimplexSolver, btMinkowskiPenetrationDepthSolver)\n";
      return 2;
    }
  }
  const std::string engine = pair_detector ? "bullet-3.24-pair-detector" : "bullet-3.24-gjkepa2";
  std::map<std::string, op_handler> ops;
  if (pair_detector) {
    ops = {{"gjk.distance", gjk_distance_detector}, {"epa.penetration", epa_penetration_detector}};
  } else {
    ops = {{"gjk.distance", gjk_distance_solver2}, {"epa.penetration", epa_penetration_solver2}};
  }
  return run_adapter(engine, precision_name, ops, isolation::worker, /*seconds_per_case=*/5);
}
