// The ShapeMatching article's scene (seed 001, 剛体の衝突 4 PositionBased
// (ShapeMatching), the articles' collision-shapeMatching.html with
// WorldShapeMatching.js): the page's set-up and World.step() with its
// projectWalls and projectCollision, ported faithfully (own C++, every
// operation in the JS order, quirks kept and commented), on top of the
// BodyShapeMatching.js port (articles/shape_matching.hpp), the helpers
// WorldShapeMatching.js shares word for word with collision-force.html and
// BodyForce.js (articles/collision_helpers.hpp: sap, supportEdge,
// closestSegmentPoint with its lerp) and the port of our gjk_epa.js
// (articles/scene_force.hpp, detail::js_gjk / js_epa).
// derivations/scenes.md: the step D-SCENE-6, projectWalls D-SCENE-7,
// projectCollision and its quirks D-SCENE-8, shape matching and energy
// D-SCENE-9, the reference model D-SCENE-10, the golden comparison D-SCENE-11.
//
// Golden data: data/golden/scene_shape_matching.json, made by running the page
// and the three modules unmodified in Node (data/generate/scene_shape_matching.js)
// with our math.js and gjk_epa.js. tests/scene_shape_matching_test.cpp checks
// the article model against it bit for bit (double, V8's libm values,
// D-SCENE-11).
//
// Two models on the same position-based step (D-SCENE-6):
//  - shape_matching_model::article: the page's code;
//  - shape_matching_model::reference: the same step with rigidref's
//    components (D-SCENE-10): EPA from epa.hpp on the convex hulls, the
//    penetration = EPA's depth, support features with a scale-aware
//    tolerance and a vertex-vertex case (never "Weird collision"), and the
//    closest PROPER rotation (shape_matching.hpp's rigidref::shape_match), so
//    a mirrored goal shape (det Apq < 0) cannot happen.
//
// Use (T = float, double, long double, mp50):
//   auto s = make_shape_matching_scene<T>(shape_matching_libm<T>{}, shape_matching_model::article);
//   world_step(s);                          // one World.step() = one rendered frame
//   scene_snapshot<T> snap = snapshot(s);   // rigidref/scene_state.hpp; snap.step = s.step_count
//   s.last_gjk                              // that step's projectCollision calls
// V8's libm, double only (bit-identical to the golden run):
//   auto table = read_v8_libm_table(golden_json["js_libm"]);
//   auto s = make_shape_matching_scene<double>(shape_matching_v8_libm(table));
//   table->misses                           // arguments V8 never saw (C library used)
#pragma once

#include "rigidref/articles/collision_helpers.hpp"
#include "rigidref/articles/create_polygon_points.hpp"
#include "rigidref/articles/scene_force.hpp"
#include "rigidref/articles/shape_matching.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/convex_hull.hpp"
#include "rigidref/epa.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/predicates.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/scene_state.hpp"
#include "rigidref/shape_matching.hpp"
#include "rigidref/vec2.hpp"

#include <boost/math/constants/constants.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::articles {

// The libm calls the page makes: Math.cos / Math.sin (worldShape on every
// use, the wall normals, createPolygonPoints), Math.atan2 (updateFromShape)
// and ** (createPolygonPoints' inertia). Defaults: the C library's (ADL for
// mp50). Members are callables, so this is a Libm for shape_matching.hpp.
template <class T>
struct shape_matching_libm {
  std::function<T(const T&)> cos = [](const T& x) {
    using std::cos;
    return T(cos(x));
  };
  std::function<T(const T&)> sin = [](const T& x) {
    using std::sin;
    return T(sin(x));
  };
  std::function<T(const T&, const T&)> atan2 = [](const T& y, const T& x) {
    using std::atan2;
    return T(atan2(y, x));
  };
  std::function<T(const T&)> pow3 = [](const T& x) {  // JS x ** 3
    using std::pow;
    return T(pow(x, 3));
  };
};

// The Force Based scene's libm (cos, sin, **) with an atan2 added (empty:
// the C library's), for drivers that hold a scene_libm.
template <class T>
shape_matching_libm<T> shape_matching_libm_from(const scene_libm<T>& l,
                                                std::function<T(const T&, const T&)> atan2 = {}) {
  shape_matching_libm<T> out;
  out.cos = l.cos;
  out.sin = l.sin;
  out.pow3 = l.pow3;
  if (atan2) out.atan2 = std::move(atan2);
  return out;
}

// And back: the Force Based scene's libm (it has no atan2) from this one.
template <class T>
scene_libm<T> force_scene_libm_from(const shape_matching_libm<T>& l) {
  scene_libm<T> out;
  out.cos = l.cos;
  out.sin = l.sin;
  out.pow3 = l.pow3;
  return out;
}

// V8's values by argument bits, as recorded in the golden file's js_libm
// (double only). An argument V8 never saw falls back to the C library and is
// counted in `misses` (a bit-identical run has none).
struct v8_libm_table {
  std::unordered_map<std::uint64_t, std::uint64_t> cos, sin, pow3;
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> atan2;  // (y, x) -> result
  int misses = 0;
};

// Fills a v8_libm_table from the golden document's "js_libm" object (any
// nlohmann-like JSON type: rows of "0x..." strings, [arg, result] or
// [y, x, result] for atan2).
template <class Json>
std::shared_ptr<v8_libm_table> read_v8_libm_table(const Json& js_libm) {
  auto bits = [](const Json& j) {
    return static_cast<std::uint64_t>(std::stoull(j.template get<std::string>(), nullptr, 16));
  };
  auto t = std::make_shared<v8_libm_table>();
  // A table may lack a function (the Force Based page never calls atan2).
  for (const char* f : {"cos", "sin", "pow3"}) {
    if (!js_libm.contains(f)) continue;
    auto& dst = std::string(f) == "cos" ? t->cos : std::string(f) == "sin" ? t->sin : t->pow3;
    for (const auto& r : js_libm.at(f)) dst[bits(r.at(0))] = bits(r.at(1));
  }
  if (js_libm.contains("atan2"))
    for (const auto& r : js_libm.at("atan2")) t->atan2[{bits(r.at(0)), bits(r.at(1))}] = bits(r.at(2));
  return t;
}

// The scene's libm answering from the table (the table is shared: misses
// are counted there).
inline shape_matching_libm<double> shape_matching_v8_libm(std::shared_ptr<v8_libm_table> t) {
  auto b = [](double x) { return std::bit_cast<std::uint64_t>(x); };
  auto d = [](std::uint64_t u) { return std::bit_cast<double>(u); };
  shape_matching_libm<double> l;
  l.cos = [t, b, d](const double& x) {
    const auto it = t->cos.find(b(x));
    if (it == t->cos.end()) return ++t->misses, std::cos(x);
    return d(it->second);
  };
  l.sin = [t, b, d](const double& x) {
    const auto it = t->sin.find(b(x));
    if (it == t->sin.end()) return ++t->misses, std::sin(x);
    return d(it->second);
  };
  l.atan2 = [t, b, d](const double& y, const double& x) {
    const auto it = t->atan2.find({b(y), b(x)});
    if (it == t->atan2.end()) return ++t->misses, std::atan2(y, x);
    return d(it->second);
  };
  l.pow3 = [t, b, d](const double& x) {
    const auto it = t->pow3.find(b(x));
    if (it == t->pow3.end()) return ++t->misses, std::pow(x, 3);
    return d(it->second);
  };
  return l;
}

enum class shape_matching_model { article, reference };

// WorldShapeMatching.js's constants, each converted once from its decimal.
template <class T>
struct sm_constants {
  T g = from_string<T>("9.8");                 // const g = 9.8
  T dt = from_string<T>("0.02");               // const dt = 0.02
  T wall_restitution = from_string<T>("0.9");  // const wall_restitution = 0.9
  T wall_friction = from_string<T>("0.02");    // const wall_friction = 0.02
  T attenuation = shape_match_attenuation<T>();  // BodyShapeMatching.js shapeMatchAttenuation = 0.98
  int n_iterations = 4;                        // World: this.nIterations = 4
  // Reference model only (D-SCENE-10): two support points within
  // feature_tolerance * (the polygon's circumradius about its vertex mean)
  // along n make an edge. 0.01 is the article's absolute 0.01 for a body of
  // circumradius 1.
  T feature_tolerance = from_string<T>("0.01");
};

template <class T>
struct sm_wall {
  vec2<T> position{};
  vec2<T> normal{};  // unit: (-sin a, cos a)
};

// The article's Body as World.step uses it.
template <class T>
struct sm_body {
  body_state<T> rigid;  // shape (centred rest shape), pos, ang: what worldShape reads
  vec2<T> old_pos{};
  T old_ang{0};
  vec2<T> vel{};
  T ang_vel{0};
  T mass{1};
  // mass * createPolygonPoints' inertia: the article's Body ignores it (no
  // torque anywhere); kept for the energy (scene_state.hpp).
  T inertia{1};
  std::optional<std::vector<vec2<T>>> collision;  // collisionShape; null outside a step
};

// One projectCollision call.
template <class T>
struct sm_gjk_call {
  int iter = 0;              // relaxation round 0..n_iterations-1
  std::size_t a = 0, b = 0;  // bodyA, bodyB (body indices; b < a)
  bool hit = false;
  vec2<T> n{};               // EPA's normal, A to B (hit only)
  T dist{0};                 // EPA's depth (hit only; the article ignores it)
  int a_points = 0, b_points = 0;  // supportEdge sizes along n and -n
  T penetration{0};          // the displacement length used (hit only)
};

// What shapeMatch() produced, over the run (D-SCENE-9, D-SCENE-10).
template <class T>
struct sm_goal_stats {
  long shape_matches = 0;  // shapeMatch() calls with a collisionShape
  long mirrored = 0;       // goal polygons whose orientation is the rest shape's mirror image
  long nonfinite = 0;      // goal polygons with a NaN or infinite coordinate
  // max over calls and vertex pairs of | |g_i - g_j| - |q_i - q_j| |, in
  // units of eps(T) * (1 + the largest |coordinate| of the goals): how far
  // the goals are from a rigid copy of the rest shape (finite calls only).
  T max_distance_error_ulps{0};
};

// One vertex on or behind a wall in projectWalls (D-SCENE-7).
struct sm_wall_hit {
  int iter = 0;                            // relaxation round
  std::size_t body = 0, vertex = 0, wall = 0;
  bool projected = false;                  // still behind after the velocity move: put on the wall
};

template <class T>
struct shape_matching_scene {
  std::vector<sm_wall<T>> walls;
  std::vector<sm_body<T>> bodies;
  sm_constants<T> k{};
  shape_matching_libm<T> libm{};
  shape_matching_model model = shape_matching_model::article;
  // The article calls projectCollision(body, other) with 2 arguments, so
  // gravityBias is always 0 (D-SCENE-8). true: gravityBias = irelax, what
  // the forEach(..., irelax) evidently meant. Off by default in both models.
  bool gravity_bias_from_irelax = false;
  int step_count = 0;
  int current_iter = 0;                  // the relaxation round being run (for the event records)
  int first_wall_contact_step = 0;       // the first step in which projectWalls moved a vertex (0: none yet)
  std::vector<sm_gjk_call<T>> last_gjk;  // projectCollision calls in the last step
  std::vector<sm_wall_hit> last_walls;   // projectWalls' moves in the last step (discrete events)
  sm_goal_stats<T> goals{};
  long vertex_vertex_contacts = 0;  // reference model: 1 + 1 support features (the article would throw)
};

namespace detail {

// |p| as math.js's getLength(): sqrt(x*x + y*y).
template <class T>
T sm_length(const vec2<T>& v) {
  using std::sqrt;
  return T(sqrt(T(v.x * v.x + v.y * v.y)));
}


// The reference support feature: indices of the vertices within
// tol of the largest p.v, the best first, at most 2 (the two largest).
template <class T>
std::vector<std::size_t> sm_support_feature(const std::vector<vec2<T>>& pts, const vec2<T>& v, const T& tol) {
  std::size_t best = 0, second = pts.size();
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const T d = T(pts[i].x * v.x + pts[i].y * v.y);
    const T db = T(pts[best].x * v.x + pts[best].y * v.y);
    if (d > db) {
      second = best;
      best = i;
    } else if (second == pts.size() || d > T(pts[second].x * v.x + pts[second].y * v.y)) {
      second = i;
    }
  }
  if (second < pts.size()) {
    const T gap = T(T(pts[best].x * v.x + pts[best].y * v.y) - T(pts[second].x * v.x + pts[second].y * v.y));
    if (gap < tol) return {best, second};
  }
  return {best};
}

template <class T>
T sm_circumradius(const std::vector<vec2<T>>& pts) {
  using std::sqrt;
  vec2<T> c{T(0), T(0)};
  for (const auto& p : pts) c = c + p;
  c = {T(c.x / T(pts.size())), T(c.y / T(pts.size()))};
  T r2{0};
  for (const auto& p : pts) r2 = std::max(r2, T(dot(p - c, p - c)));
  return T(sqrt(r2));
}

// Records how close the goals of a shapeMatch() are to a rigid copy of the
// rest shape, and whether they are mirrored.
template <class T>
void sm_note_goals(sm_goal_stats<T>& st, const std::vector<vec2<T>>& rest, const std::vector<vec2<T>>& goals) {
  using std::abs;
  ++st.shape_matches;
  for (const auto& g : goals)
    if (!is_finite(g.x) || !is_finite(g.y)) {
      ++st.nonfinite;
      return;
    }
  // A regular polygon: its first three vertices give its orientation exactly.
  if (orientation(goals[0], goals[1], goals[2]) != orientation(rest[0], rest[1], rest[2])) ++st.mirrored;
  T scale{1};
  for (const auto& g : goals) scale = std::max({scale, T(1 + abs(g.x)), T(1 + abs(g.y))});
  for (std::size_t i = 0; i < goals.size(); ++i)
    for (std::size_t j = i + 1; j < goals.size(); ++j) {
      const T e = T(abs(T(sm_length(goals[i] - goals[j]) - sm_length(rest[i] - rest[j]))));
      st.max_distance_error_ulps = std::max(st.max_distance_error_ulps, T(e / T(epsilon<T>() * scale)));
    }
}

}  // namespace detail

// ---- set-up ----------------------------------------------------------------

// The page's set-up (D-SCENE-6): walls through the origin at -0.3 and 0.5 rad
// with normal (-sin a, cos a); three squares createPolygonPoints((0, 0), r, 4)
// of radius 2 at (7, 14) angle pi/4, radius 1 at (-12, 14), radius 1.5 at
// (-8, 14) moving at (2, 0); all of mass 1.
template <class T>
shape_matching_scene<T> make_shape_matching_scene(shape_matching_libm<T> libm = {},
                                                  shape_matching_model model = shape_matching_model::article) {
  shape_matching_scene<T> s;
  s.libm = std::move(libm);
  s.model = model;
  for (const char* angle : {"-0.3", "0.5"}) {
    const T a = from_string<T>(angle);
    s.walls.push_back({{T(0), T(0)}, {T(-s.libm.sin(a)), s.libm.cos(a)}});
  }
  // createPolygonPoints(new Vector2(0, 0), radius, 4) with the scene's libm.
  auto square = [&](const T& radius) {
    return create_polygon_points<T>({T(0), T(0)}, radius, 4, s.libm.cos, s.libm.sin, s.libm.pow3);
  };
  auto add = [&](const T& radius, const vec2<T>& pos, const T& ang, const vec2<T>& vel) {
    const polygon_points<T> poly = square(radius);
    sm_body<T> b;
    b.rigid = make_body<T>(poly.shape, pos, ang);  // the shape minus its centerOfMass
    b.old_pos = pos;
    b.old_ang = ang;
    b.vel = vel;
    b.mass = T(1);
    b.inertia = T(b.mass * poly.inertia);
    s.bodies.push_back(std::move(b));
  };
  add(T(2), {T(7), T(14)}, T(boost::math::constants::pi<T>() / 4), {T(0), T(0)});
  add(T(1), {T(-12), T(14)}, T(0), {T(0), T(0)});
  add(from_string<T>("1.5"), {T(-8), T(14)}, T(0), {T(2), T(0)});
  return s;
}

// get worldShape with the scene's libm.
template <class T>
std::vector<vec2<T>> sm_world_shape(const shape_matching_scene<T>& s, const sm_body<T>& b) {
  return world_shape(b.rigid, s.libm);
}

// ---- World.projectWalls ----------------------------------------------------

// D-SCENE-7. Each vertex of collisionShape (or of a copy of worldShape) that
// is on or behind a wall (dist <= 0) is moved by dt times the reflected
// velocity -0.9 v_n - 0.02 v_t of the BODY (body.vel, the same for every
// vertex: the rotation is ignored), then projected onto the wall if still
// behind it; the second wall sees the vertex the first one moved.
template <class T>
void sm_project_walls(shape_matching_scene<T>& s, sm_body<T>& body) {
  const auto& k = s.k;
  bool projected = false;
  std::vector<vec2<T>> poly = body.collision ? *body.collision : sm_world_shape(s, body);
  const auto body_index = static_cast<std::size_t>(&body - s.bodies.data());
  for (std::size_t iv = 0; iv < poly.size(); ++iv) {
    auto& vertex = poly[iv];
    vec2<T> p = vertex;
    for (std::size_t iw = 0; iw < s.walls.size(); ++iw) {
      const auto& wall = s.walls[iw];
      const vec2<T>& n = wall.normal;
      auto dist_of = [&](const vec2<T>& q) {  // normal.dot(q.subV(position))
        return T(n.x * T(q.x - wall.position.x) + n.y * T(q.y - wall.position.y));
      };
      T dist = dist_of(p);
      if (dist <= 0) {
        const T vn_len = T(n.x * body.vel.x + n.y * body.vel.y);  // wall.normal.dot(body.vel)
        vec2<T> vn{T(n.x * vn_len), T(n.y * vn_len)};
        vec2<T> vt{T(body.vel.x - vn.x), T(body.vel.y - vn.y)};
        vn = {T(vn.x * T(-k.wall_restitution)), T(vn.y * T(-k.wall_restitution))};
        vt = {T(vt.x * T(-k.wall_friction)), T(vt.y * T(-k.wall_friction))};
        const vec2<T> v{T(vn.x + vt.x), T(vn.y + vt.y)};
        p = {T(p.x + T(v.x * k.dt)), T(p.y + T(v.y * k.dt))};
        dist = dist_of(p);
        if (dist < 0) p = {T(p.x + T(n.x * T(-dist))), T(p.y + T(n.y * T(-dist)))};
        s.last_walls.push_back({s.current_iter, body_index, iv, iw, dist < 0});
        projected = true;
      }
    }
    vertex = p;
  }
  if (projected) {
    body.collision = std::move(poly);
    if (s.first_wall_contact_step == 0) s.first_wall_contact_step = s.step_count + 1;
  }
}

// ---- Body.shapeMatch -------------------------------------------------------

template <class T>
void sm_shape_match(shape_matching_scene<T>& s, sm_body<T>& body) {
  if (!body.collision) return;
  if (s.model == shape_matching_model::article) {
    // D-SHAPE-1..2: the goals R (x - src_cm) + dst_cm with the article's
    // R = Apq (Apq^T Apq)^(-1/2), a reflection when det Apq < 0.
    body.collision = shape_match_goals(body.rigid, *body.collision, s.libm);
  } else {
    // D-SCENE-10: the closest proper rotation (rigidref::shape_match).
    const std::vector<vec2<T>> world = sm_world_shape(s, body);
    body.collision = rigidref::shape_match<T>(std::span<const vec2<T>>(world),
                                              std::span<const vec2<T>>(*body.collision))
                         .goals;
  }
  detail::sm_note_goals(s.goals, body.rigid.shape, *body.collision);
}

// ---- World.projectCollision ------------------------------------------------

// D-SCENE-8. Throws invalid_input("Weird collision") where the JS throws
// (article model only).
template <class T>
sm_gjk_call<T> sm_project_collision(shape_matching_scene<T>& s, std::size_t ia, std::size_t ib, int irelax) {
  sm_body<T>& A = s.bodies[ia];
  sm_body<T>& B = s.bodies[ib];
  std::vector<vec2<T>> a = A.collision ? *A.collision : sm_world_shape(s, A);
  std::vector<vec2<T>> b = B.collision ? *B.collision : sm_world_shape(s, B);
  sm_gjk_call<T> call;
  call.iter = irelax;
  call.a = ia;
  call.b = ib;
  const bool article = s.model == shape_matching_model::article;
  vec2<T> n{};
  if (article) {
    const auto hit = detail::js_gjk(a, b);
    if (!hit) return call;
    const auto [normal, depth] = detail::js_epa(a, b, *hit);
    n = normal;
    call.dist = depth;
  } else {
    const std::vector<vec2<T>> ha = convex_hull_ccw(a), hb = convex_hull_ccw(b);
    if (ha.size() < 3 || hb.size() < 3) return call;  // a collapsed shape: no area, no contact
    const epa_result<T> r = epa_penetration<T>(std::span<const vec2<T>>(ha), std::span<const vec2<T>>(hb));
    if (!r.intersecting || !(r.depth > 0)) return call;  // touching is no hit (as in gjk_epa.js)
    n = r.normal;
    call.dist = r.depth;
  }
  call.hit = true;
  call.n = n;
  const vec2<T> minus_n{T(n.x * -1), T(n.y * -1)};  // n.mulS(-1)
  std::vector<std::size_t> ap, bp;
  if (article) {
    ap = support_edge(a, n);
    bp = support_edge(b, minus_n);
  } else {
    ap = detail::sm_support_feature(a, n, T(s.k.feature_tolerance * detail::sm_circumradius(a)));
    bp = detail::sm_support_feature(b, minus_n, T(s.k.feature_tolerance * detail::sm_circumradius(b)));
  }
  call.a_points = static_cast<int>(ap.size());
  call.b_points = static_cast<int>(bp.size());

  T mass_a = A.mass, mass_b = B.mass;
  if (s.gravity_bias_from_irelax && irelax != 0) {  // if (gravityBias) with gravityBias = irelax
    const T bias = T(irelax);
    if (A.rigid.pos.y > B.rigid.pos.y)
      mass_a = T(mass_a + T(mass_b * bias));
    else
      mass_b = T(mass_b + T(mass_a * bias));
  }
  const std::size_t total = ap.size() + bp.size();
  T penetration{0};
  if (article) {
    // aPoints / bPoints hold the vertex objects; a.lastIndexOf(aPoints[k]) is
    // their index (every array entry is a distinct object: mulVectors, map
    // and the splices below make new ones), so the splices replace a[ap[k]].
    // (Not reproduced: with a NaN coordinate the JS supportEdge can return
    // undefined, lastIndexOf gives -1 and splice(-1, 1, p) replaces the LAST
    // vertex; the scene never has a NaN, tests/scene_shape_matching_test.cpp.)
    if (total == 4) {
      // Edge-edge: centerOfMass of the four points (reduce, then / 4), each
      // edge's point closest to it, penetration = their distance.
      const vec2<T> center = center_of_mass(std::vector<vec2<T>>{a[ap[0]], a[ap[1]], b[bp[0]], b[bp[1]]});
      const vec2<T> a_contact = closest_segment_point(center, a[ap[0]], a[ap[1]]);
      const vec2<T> b_contact = closest_segment_point(center, b[bp[0]], b[bp[1]]);
      penetration = detail::sm_length(vec2<T>{T(a_contact.x - b_contact.x), T(a_contact.y - b_contact.y)});
    } else {
      if (total != 3) throw invalid_input("Weird collision");
      if (ap.size() == 2) {
        const vec2<T> a_contact = closest_segment_point(b[bp[0]], a[ap[0]], a[ap[1]]);
        penetration = detail::sm_length(vec2<T>{T(a_contact.x - b[bp[0]].x), T(a_contact.y - b[bp[0]].y)});
      } else {
        const vec2<T> b_contact = closest_segment_point(a[ap[0]], b[bp[0]], b[bp[1]]);
        penetration = detail::sm_length(vec2<T>{T(a[ap[0]].x - b_contact.x), T(a[ap[0]].y - b_contact.y)});
      }
    }
  } else {
    // D-SCENE-10: the minimum translation distance along n.
    penetration = call.dist;
    if (total == 2) ++s.vertex_vertex_contacts;
  }
  call.penetration = penetration;
  // n.mulS((-penetration * massA) / (massA + massB)) and (penetration * massB) / (...).
  const T fa = T(T(-penetration * mass_a) / T(mass_a + mass_b));
  const T fb = T(T(penetration * mass_b) / T(mass_a + mass_b));
  const vec2<T> da{T(n.x * fa), T(n.y * fa)}, db{T(n.x * fb), T(n.y * fb)};
  // Every displaced point is computed from the points before any splice.
  std::vector<std::pair<std::size_t, vec2<T>>> new_a, new_b;
  for (std::size_t i : ap) new_a.push_back({i, {T(a[i].x + da.x), T(a[i].y + da.y)}});
  for (std::size_t i : bp) new_b.push_back({i, {T(b[i].x + db.x), T(b[i].y + db.y)}});
  for (const auto& [i, p] : new_a) a[i] = p;
  for (const auto& [i, p] : new_b) b[i] = p;
  A.collision = std::move(a);
  B.collision = std::move(b);
  return call;
}

// ---- World.step ------------------------------------------------------------

// D-SCENE-6: predict, then nIterations rounds of (walls, shapeMatch, pairs,
// shapeMatch), then updateFromShape and the velocities from the positions.
template <class T>
void world_step(shape_matching_scene<T>& s) {
  const auto& k = s.k;
  s.last_gjk.clear();
  s.last_walls.clear();
  // Apply external force: vel += (0, -g dt); pos = oldPos + vel dt; ang = oldAng + angVel dt.
  const T gdt = T(-k.g * k.dt);  // JS -g * dt = (-g) * dt
  for (auto& b : s.bodies) {
    b.vel = {T(b.vel.x + T(0)), T(b.vel.y + gdt)};
    b.rigid.pos = {T(b.old_pos.x + T(b.vel.x * k.dt)), T(b.old_pos.y + T(b.vel.y * k.dt))};
    b.rigid.ang = T(b.old_ang + T(b.ang_vel * k.dt));
  }
  for (int irelax = 0; irelax < k.n_iterations; ++irelax) {
    s.current_iter = irelax;
    for (auto& b : s.bodies) sm_project_walls(s, b);
    for (auto& b : s.bodies) sm_shape_match(s, b);
    // Quirk: sap sees the worldShapes (the predicted poses), not the
    // collisionShapes the pairs actually use.
    std::vector<std::vector<vec2<T>>> shapes;
    for (const auto& b : s.bodies) shapes.push_back(sm_world_shape(s, b));
    const auto pairs = sap(shapes, vec2<T>{T(1), T(0)});
    // Quirk (D-SCENE-8): pairs[i].forEach(j => this.projectCollision(body, this.bodies[j]), irelax)
    // hands irelax to forEach as thisArg; projectCollision gets no gravityBias.
    for (std::size_t i = 0; i < s.bodies.size(); ++i)
      for (std::size_t j : pairs[i]) s.last_gjk.push_back(sm_project_collision(s, i, j, irelax));
    for (auto& b : s.bodies) sm_shape_match(s, b);
  }
  for (auto& b : s.bodies) {
    if (!b.collision) continue;
    if (s.model == shape_matching_model::article) {
      const shape_update<T> u = update_from_shape(b.rigid, *b.collision, s.libm);
      b.rigid.pos = u.body.pos;
      b.rigid.ang = u.body.ang;
    } else {
      // The same attenuated update with the proper rotation's angle (in (-pi, pi]).
      const std::vector<vec2<T>> world = sm_world_shape(s, b);
      const auto r = rigidref::shape_match<T>(std::span<const vec2<T>>(world), std::span<const vec2<T>>(*b.collision));
      b.rigid.ang = T(b.rigid.ang + T(r.angle * k.attenuation));
      b.rigid.pos = lerp(b.rigid.pos, r.current_centroid, k.attenuation);
    }
    b.collision.reset();
  }
  for (auto& b : s.bodies) {
    b.vel = {T(T(b.rigid.pos.x - b.old_pos.x) / k.dt), T(T(b.rigid.pos.y - b.old_pos.y) / k.dt)};
    b.old_pos = b.rigid.pos;
    b.ang_vel = T(T(b.rigid.ang - b.old_ang) / k.dt);
    b.old_ang = b.rigid.ang;
  }
  ++s.step_count;
}

// ---- what the CLI and the report read --------------------------------------

template <class T>
scene_snapshot<T> snapshot(const shape_matching_scene<T>& s) {
  scene_snapshot<T> out;
  out.step = s.step_count;
  for (const auto& b : s.bodies)
    out.bodies.push_back({b.rigid.pos, b.rigid.ang, b.vel, b.ang_vel, b.mass, b.inertia, sm_world_shape(s, b)});
  for (const auto& w : s.walls) out.walls.push_back({w.position, w.normal});
  return out;
}

}  // namespace rigidref::articles

#include "rigidref/detail/fp_end.hpp"
