// The Force Based article's scene (seed 000, 物理シミュレーション 剛体の衝突 2,
// the articles' collision-force.html): its set-up and its simulate()
// loop, ported faithfully (own C++, quirks kept and commented), on top of the
// BodyForce.js port (articles/body_force.hpp) and the page's helpers
// (articles/collision_helpers.hpp: sap, supportEdge, closestSegmentPoint).
// derivations/scenes.md, D-SCENE-1..5.
//
// Golden data: data/golden/scene_force.json, made by running the page and
// BodyForce.js unmodified in Node (data/generate/scene_force.js) with our
// math.js and gjk_epa.js. tests/scene_force_test.cpp checks this port against
// it bit for bit.
//
// Contact provider (gjk_epa.js is missing from the seeds, D-SCENE-4):
//  - force_contact_provider::js_port (default): a port of OUR
//    data/generate/gjk_epa.js, operation for operation, so in double it gives
//    the bits the golden run got;
//  - force_contact_provider::reference: rigidref's GJK/EPA (epa.hpp): exact
//    feature choice, normal rounded once. It can differ from gjk_epa.js in the
//    last bits of n (gjk_epa.js normalises a rounded Minkowski edge), on
//    touching contacts (epa.hpp reports intersecting with depth 0, which is
//    not a hit here; gjk_epa.js says no hit), and when two faces are equally
//    close (each picks by its own rule).
//
// libm: the page calls Math.cos / Math.sin (worldShape, the wall normals,
// createPolygonPoints) and ** (createPolygonPoints). V8's results are not
// glibc's (1 ulp apart on about 2.5 % of the scene's arguments with Node
// 20.20.2), so the scene takes them from a scene_libm, which the golden test
// fills with V8's recorded values. body_force.hpp's world_shape() calls
// std::cos / std::sin itself; see project_walls_with() for how the scene's
// libm is used there without changing that header.
#pragma once

#include "rigidref/articles/body_force.hpp"
#include "rigidref/articles/collision_helpers.hpp"
#include "rigidref/articles/create_polygon_points.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/epa.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/scene_state.hpp"
#include "rigidref/vec2.hpp"

#include <boost/math/constants/constants.hpp>

#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::articles {

// The libm calls the page makes. Defaults: the C library's (ADL for mp50).
template <class T>
struct scene_libm {
  std::function<T(const T&)> cos = [](const T& x) {
    using std::cos;
    return T(cos(x));
  };
  std::function<T(const T&)> sin = [](const T& x) {
    using std::sin;
    return T(sin(x));
  };
  std::function<T(const T&)> pow3 = [](const T& x) {  // JS x ** 3
    using std::pow;
    return T(pow(x, 3));
  };
};

enum class force_contact_provider { js_port, reference };

// What one projectCollision call saw (for the tests and the CLI).
template <class T>
struct scene_gjk_call {
  std::size_t a = 0, b = 0;  // this, other (body indices)
  bool hit = false;
  vec2<T> n{};               // EPA's normal (hit only)
  T dist{0};                 // EPA's depth (hit only; unused by the article)
  int a_points = 0, b_points = 0;  // supportEdge sizes: 2 + 2 edge-edge, else vertex-edge
  bf_collision_trace<T> impulse{};  // what project_collision did (hit only)
};

template <class T>
struct force_scene {
  std::vector<bf_wall<T>> walls;
  std::vector<bf_body<T>> bodies;
  bf_constants<T> k{};
  scene_libm<T> libm{};
  force_contact_provider provider = force_contact_provider::js_port;
  int step_count = 0;                       // simulate() calls so far
  std::vector<scene_gjk_call<T>> last_gjk;  // projectCollision calls in the last step
  std::vector<std::vector<bf_wall_trace<T>>> last_walls;  // per body, per wall, in the last step
};

namespace detail {

// ---- our gjk_epa.js, ported (D-SCENE-4) -------------------------------------

template <class T>
struct js_mink {
  vec2<T> p, a, b;  // a[i] - b[j], and the two vertices
};

template <class T>
std::size_t js_support_index(const std::vector<vec2<T>>& pts, const T& dx, const T& dy) {
  std::size_t best = 0;
  T best_dot = T(pts[0].x * dx + pts[0].y * dy);
  for (std::size_t i = 1; i < pts.size(); ++i) {
    const T t = T(pts[i].x * dx + pts[i].y * dy);
    if (t > best_dot) {  // strict: the first of equal dots wins
      best_dot = t;
      best = i;
    }
  }
  return best;
}

template <class T>
js_mink<T> js_support(const std::vector<vec2<T>>& a, const std::vector<vec2<T>>& b, const T& dx, const T& dy) {
  const std::size_t i = js_support_index(a, dx, dy);
  const std::size_t j = js_support_index(b, T(-dx), T(-dy));
  return {{T(a[i].x - b[j].x), T(a[i].y - b[j].y)}, a[i], b[j]};
}

// gjk_epa.js gjk(a, b): the simplex when the origin is in A - B's triangle
// (boundary included), nothing when apart or touching.
template <class T>
std::optional<std::vector<js_mink<T>>> js_gjk(const std::vector<vec2<T>>& a, const std::vector<vec2<T>>& b) {
  js_mink<T> s = js_support(a, b, T(1), T(0));
  std::vector<js_mink<T>> simplex{s};
  T dx = -s.p.x, dy = -s.p.y;
  for (int it = 0; it < 64; ++it) {
    if (dx == 0 && dy == 0) return std::nullopt;
    s = js_support(a, b, dx, dy);
    if (T(s.p.x * dx + s.p.y * dy) <= 0) return std::nullopt;
    simplex.push_back(s);
    const vec2<T> A = s.p;
    const T aox = -A.x, aoy = -A.y;
    if (simplex.size() == 2) {
      const vec2<T> B = simplex[0].p;
      const T abx = B.x - A.x, aby = B.y - A.y;
      T px = -aby, py = abx;
      if (T(px * aox + py * aoy) < 0) {
        px = aby;
        py = -abx;
      }
      dx = px;
      dy = py;
      continue;
    }
    const vec2<T> B = simplex[1].p, C = simplex[0].p;
    const T abx = B.x - A.x, aby = B.y - A.y;
    const T acx = C.x - A.x, acy = C.y - A.y;
    T abpx = -aby, abpy = abx;
    if (T(abpx * acx + abpy * acy) > 0) {
      abpx = aby;
      abpy = -abx;
    }
    if (T(abpx * aox + abpy * aoy) > 0) {
      simplex.erase(simplex.begin());
      dx = abpx;
      dy = abpy;
      continue;
    }
    T acpx = -acy, acpy = acx;
    if (T(acpx * abx + acpy * aby) > 0) {
      acpx = acy;
      acpy = -acx;
    }
    if (T(acpx * aox + acpy * aoy) > 0) {
      simplex.erase(simplex.begin() + 1);
      dx = acpx;
      dy = acpy;
      continue;
    }
    return simplex;
  }
  return std::nullopt;
}

// gjk_epa.js epa(a, b, ...simplex): the normal n and depth (the witness
// points p, q are not computed: BodyForce.js never reads them).
template <class T>
std::pair<vec2<T>, T> js_epa(const std::vector<vec2<T>>& a, const std::vector<vec2<T>>& b,
                             std::vector<js_mink<T>> poly) {
  using std::sqrt;
  if (poly.size() != 3) throw invalid_input("gjk_epa port: epa needs the 3-point simplex");
  const T e1x = poly[1].p.x - poly[0].p.x, e1y = poly[1].p.y - poly[0].p.y;
  const T e2x = poly[2].p.x - poly[0].p.x, e2y = poly[2].p.y - poly[0].p.y;
  if (T(e1x * e2y - e1y * e2x) < 0) std::swap(poly[1], poly[2]);
  const T tol = from_string<T>("1e-10");
  T bd{0}, nx{0}, ny{0};
  for (int rounds = 1;; ++rounds) {
    bool have = false;
    std::size_t bi = 0;
    bd = std::numeric_limits<T>::infinity();
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const vec2<T> p0 = poly[i].p, p1 = poly[(i + 1) % poly.size()].p;
      const T ex = p1.x - p0.x, ey = p1.y - p0.y;
      const T len = sqrt(T(ex * ex + ey * ey));
      const T cx = T(ey / len), cy = T(-ex / len);
      const T dist = T(cx * p0.x + cy * p0.y);
      if (dist < bd) {  // bd starts at +Infinity; a NaN distance is never taken, as in JS
        bd = dist;
        bi = i;
        nx = cx;
        ny = cy;
        have = true;
      }
    }
    if (!have) throw invalid_input("gjk_epa port: degenerate polytope");
    const js_mink<T> s = js_support(a, b, nx, ny);
    const T sd = T(s.p.x * nx + s.p.y * ny);
    if (T(sd - bd) <= tol) break;
    if (rounds >= 64) break;
    poly.insert(poly.begin() + static_cast<std::ptrdiff_t>(bi) + 1, s);
  }
  return {{nx, ny}, bd};
}

}  // namespace detail

// ---- set-up ----------------------------------------------------------------

// The page's set-up (D-SCENE-1): walls through the origin at -0.3 and 0.5 rad,
// normal (-sin a, cos a); body 0 a square (createPolygonPoints(0, 1, 4)) at
// (-8, 10), angle pi/4, velocity (2, 0); body 1 a triangle at (8, 10), angle 0,
// at rest; both of mass 1.
template <class T>
force_scene<T> make_force_scene(scene_libm<T> libm = {},
                                force_contact_provider provider = force_contact_provider::js_port) {
  force_scene<T> s;
  s.libm = std::move(libm);
  s.provider = provider;
  for (const char* angle : {"-0.3", "0.5"}) {
    const T a = from_string<T>(angle);
    s.walls.push_back({{T(0), T(0)}, {T(-s.libm.sin(a)), s.libm.cos(a)}});
  }
  // createPolygonPoints(new Vector2(0, 0), 1, nsides) with the scene's libm.
  auto polygon = [&](int nsides) {
    return create_polygon_points<T>({T(0), T(0)}, T(1), nsides, s.libm.cos, s.libm.sin, s.libm.pow3);
  };
  const T one{1};
  const auto square = polygon(4);
  s.bodies.push_back(make_bf_body<T>(square.shape, square.inertia, {T(-8), T(10)},
                                     T(boost::math::constants::pi<T>() / 4), one));
  s.bodies[0].vel = {T(2), T(0)};
  s.bodies[0].ang_vel = 0;
  const auto triangle = polygon(3);
  // The page: "//Math.PI / 4, // for nsides = 4" commented out, 0 for nsides = 3.
  s.bodies.push_back(make_bf_body<T>(triangle.shape, triangle.inertia, {T(8), T(10)}, T(0), one));
  return s;
}

// ---- one simulate() --------------------------------------------------------

// `get worldShape()` with the scene's libm: R(ang) p + pos computed as the
// JS's Matrix3.mulVectors does, (c x + (-s) y) + pos.x * 1 = c x - s y + pos.x.
template <class T>
std::vector<vec2<T>> scene_world_shape(const bf_body<T>& b, const scene_libm<T>& libm) {
  const T c = libm.cos(b.ang), s = libm.sin(b.ang);
  std::vector<vec2<T>> out;
  for (const auto& p : b.shape) out.push_back({T(c * p.x - s * p.y + b.pos.x), T(s * p.x + c * p.y + b.pos.y)});
  return out;
}

// projectWalls (body_force.hpp's project_walls) with the scene's libm. That
// function rotates the shape itself with std::cos/std::sin; it is given a
// copy of the body whose shape is already rotated with the scene's libm
// (q = (c x - s y, s x + c y), rounded as the JS rounds it) and whose angle is
// 0, so its own rotation is by cos 0 = 1, sin 0 = 0 exactly: 1 q.x - 0 q.y +
// pos.x = q.x + pos.x, the JS's sum (a q.x of -0 would turn into +0 before
// adding pos.x, which changes nothing unless pos.x is 0 too). project_walls
// reads no other use of `ang`. Everything it mutates is copied back.
template <class T>
std::vector<bf_wall_trace<T>> project_walls_with(bf_body<T>& body, const std::vector<bf_wall<T>>& walls, const scene_libm<T>& libm,
                        const bf_constants<T>& k) {
  bf_body<T> proxy = body;
  const T c = libm.cos(body.ang), s = libm.sin(body.ang);
  for (auto& p : proxy.shape) p = {T(c * p.x - s * p.y), T(s * p.x + c * p.y)};
  proxy.ang = 0;
  auto trace = project_walls(proxy, walls, k);
  body.force = proxy.force;
  body.torque = proxy.torque;
  body.r = proxy.r;
  body.pos = proxy.pos;
  return trace;
}

// BodyForce.js projectCollision, up to the impulse (which is body_force.hpp's
// project_collision): worldShape of both, Gjk.gjk, Gjk.epa, supportEdge,
// closestSegmentPoint (D-SCENE-3). Throws invalid_input("Weird collision")
// where the JS throws "Weird collision".
template <class T>
scene_gjk_call<T> scene_project_collision(force_scene<T>& s, std::size_t ia, std::size_t ib) {
  using std::sqrt;
  bf_body<T>& A = s.bodies[ia];
  bf_body<T>& B = s.bodies[ib];
  const std::vector<vec2<T>> a = scene_world_shape(A, s.libm);
  const std::vector<vec2<T>> b = scene_world_shape(B, s.libm);
  scene_gjk_call<T> call;
  call.a = ia;
  call.b = ib;
  vec2<T> n{};
  if (s.provider == force_contact_provider::js_port) {
    const auto hit = detail::js_gjk(a, b);
    if (!hit) return call;
    const auto [normal, depth] = detail::js_epa(a, b, *hit);
    n = normal;
    call.dist = depth;
  } else {
    const epa_result<T> r = epa_penetration<T>(std::span<const vec2<T>>(a), std::span<const vec2<T>>(b));
    if (!r.intersecting || !(r.depth > 0)) return call;  // touching is no hit (as in gjk_epa.js)
    n = r.normal;
    call.dist = r.depth;
  }
  call.hit = true;
  call.n = n;
  const auto ap = support_edge(a, n);
  const auto bp = support_edge(b, vec2<T>{T(n.x * -1), T(n.y * -1)});  // n.mulS(-1)
  std::vector<vec2<T>> aPoints, bPoints;
  for (auto i : ap) aPoints.push_back(a[i]);
  for (auto i : bp) bPoints.push_back(b[i]);
  auto length = [](const vec2<T>& v) { return T(sqrt(T(v.x * v.x + v.y * v.y))); };  // getLength()
  call.a_points = static_cast<int>(aPoints.size());
  call.b_points = static_cast<int>(bPoints.size());
  bf_contact<T> c;
  c.n = n;
  if (aPoints.size() + bPoints.size() == 4) {
    // Edge-edge: centerOfMass([...aPoints, ...bPoints]) (reduce from the first
    // point, then / 4), each edge's point closest to it.
    vec2<T> sum = aPoints[0];
    for (const auto& p : {aPoints[1], bPoints[0], bPoints[1]}) sum = {T(sum.x + p.x), T(sum.y + p.y)};
    const vec2<T> center{T(sum.x / 4), T(sum.y / 4)};
    c.a_contact = closest_segment_point(center, aPoints[0], aPoints[1]);
    c.b_contact = closest_segment_point(center, bPoints[0], bPoints[1]);
    c.penetration = length(c.a_contact - c.b_contact);
  } else {
    if (aPoints.size() + bPoints.size() != 3) throw invalid_input("Weird collision");
    if (aPoints.size() == 2) {
      c.a_contact = closest_segment_point(bPoints[0], aPoints[0], aPoints[1]);
      c.b_contact = bPoints[0];
      c.penetration = length(c.a_contact - bPoints[0]);
    } else {
      c.b_contact = closest_segment_point(aPoints[0], bPoints[0], bPoints[1]);
      c.a_contact = aPoints[0];
      c.penetration = length(aPoints[0] - c.b_contact);
    }
  }
  // Quirk (D-BODYFORCE-6, D-SCENE-3): this resets both bodies' force and
  // torque, so a pair in contact loses gravity and the wall impulses.
  call.impulse = project_collision(A, B, c, s.k);
  return call;
}

// The page's simulate() (D-SCENE-2): begin frame + projectWalls per body,
// sap on the world shapes along (1, 0), projectCollision for each pair
// (body i with each j in pairs[i], j < i), then semi-implicit Euler.
template <class T>
void simulate(force_scene<T>& s) {
  s.last_gjk.clear();
  s.last_walls.clear();
  for (auto& body : s.bodies) {
    begin_frame(body, s.k);
    s.last_walls.push_back(project_walls_with(body, s.walls, s.libm, s.k));
  }
  std::vector<std::vector<vec2<T>>> shapes;
  for (const auto& body : s.bodies) shapes.push_back(scene_world_shape(body, s.libm));
  const auto pairs = sap(shapes, vec2<T>{T(1), T(0)});
  for (std::size_t i = 0; i < s.bodies.size(); ++i)
    for (std::size_t j : pairs[i]) s.last_gjk.push_back(scene_project_collision(s, i, j));
  for (auto& body : s.bodies) integrate(body, s.k);  // D-SCENE-5
  ++s.step_count;
}

// The scene's state for the CLI, the report and the scene properties
// (scene_state.hpp): world shapes with the scene's libm, inertia as the
// article's this.inertia (mass times createPolygonPoints' value).
template <class T>
scene_snapshot<T> snapshot(const force_scene<T>& s) {
  scene_snapshot<T> out;
  out.step = s.step_count;
  for (const auto& b : s.bodies)
    out.bodies.push_back({b.pos, b.ang, b.vel, b.ang_vel, b.mass, b.inertia, scene_world_shape(b, s.libm)});
  for (const auto& w : s.walls) out.walls.push_back({w.position, w.normal});
  return out;
}

}  // namespace rigidref::articles

#include "rigidref/detail/fp_end.hpp"
