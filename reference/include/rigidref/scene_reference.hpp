// The reference model of a small 2D world: static walls (infinite lines) and
// convex polygon bodies, stepped with rigidref's correct components
// (derivations/scene_reference.md, D-SCENEREF-1..9):
//
//   mass        polygon_mass_from_mass (mass.hpp): centroid and polar moment
//               (D-SCENEREF-1);
//   contacts    wall vs polygon: every vertex at or below the wall line, with
//               the wall's own (exact) normal; polygon vs polygon: the clipping
//               manifold (contact.hpp collide_polygons, SAT reference face),
//               EPA's depth (epa.hpp) recorded beside it (D-SCENEREF-2);
//   solver      sequential impulses (solver.hpp's rows and updates,
//               D-SOLVER-4, -5, -9) with per-contact coefficients and a
//               restitution threshold (D-SCENEREF-3), run by the adapter
//               solve_contacts_per_contact below;
//   integrator  semi-implicit Euler: v += g dt, solve, x += v dt (D-SCENEREF-4).
//
// make_force_reference_scene<T>() builds the Force Based page's initial
// conditions (D-SCENE-1) on it (D-SCENEREF-5). Every step records the contact
// set (with feature ids) and the impulses applied (D-SCENEREF-6), so the
// momentum identity (D-SCENEREF-7) and the discrete events of two precisions
// can be compared (internal/scene_checks.hpp).
//
// Types: float, double, long double, mp50 (cos/sin are needed, so not exact).
// A non-finite state is never returned: step() throws invalid_input naming the
// body and the step instead.
#pragma once

#include "rigidref/contact.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/epa.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/mass.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/scene_state.hpp"
#include "rigidref/solver.hpp"
#include "rigidref/vec2.hpp"

#include <boost/math/constants/constants.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
struct ref_body {
  std::vector<vec2<T>> shape;  // local vertices, counter-clockwise, centroid at the origin
  T mass{1};
  T inertia{1};                // polar moment about the centroid (mass.hpp)
  vec2<T> pos{};               // the centroid, world
  T ang{0};
  vec2<T> vel{};
  T ang_vel{0};
};

template <class T>
struct ref_wall {
  vec2<T> position{};
  vec2<T> normal{};  // unit, out of the wall into the free space
  T friction{0};     // mu of a wall contact
  T restitution{0};  // e of a wall contact
};

template <class T>
struct ref_params {
  T g = from_string<T>("9.8");
  T dt = from_string<T>("0.02");
  T pair_friction = from_string<T>("0.5");     // mu of a body-body contact
  T pair_restitution = from_string<T>("0.4");  // e of a body-body contact
  // Restitution only when the contact approaches faster than this (D-SCENEREF-3):
  // a resting contact gains g dt = 0.196 m/s per step and must not bounce.
  T restitution_threshold = from_string<T>("0.3");
  T beta = from_string<T>("0.2");    // Baumgarte factor
  T slop = from_string<T>("0.005");  // allowed penetration (m)
  int iterations = 10;
  bool warm_start = true;
};

// The identity of one contact point (D-SCENEREF-6). Wall contact: body
// `body` against wall `other`, feature_a = the body's vertex. Pair contact:
// bodies body < other, features of contact.hpp (polygon 0 = body, 1 = other).
struct scene_contact_id {
  bool wall = true;
  std::size_t body = 0;
  std::size_t other = 0;
  contact_feature feature_a{}, feature_b{};
  auto key() const {
    return std::make_tuple(wall ? 0 : 1, body, other, feature_a.polygon, static_cast<int>(feature_a.type), feature_a.index,
                           feature_b.polygon, static_cast<int>(feature_b.type), feature_b.index);
  }
  friend bool operator==(const scene_contact_id& a, const scene_contact_id& b) { return a.key() == b.key(); }
  friend bool operator<(const scene_contact_id& a, const scene_contact_id& b) { return a.key() < b.key(); }
};

template <class T>
struct scene_contact_record {
  scene_contact_id id;
  vec2<T> point{};      // world point where the impulse acts
  vec2<T> normal{};     // unit; wall: the wall normal; pair: from body to other
  T penetration{0};     // >= 0
  T normal_impulse{0};  // accumulated lambda_n (on `body` for a wall, on `other` for a pair)
  T tangent_impulse{0};
  T friction{0}, restitution{0};
  // Normal and tangential relative velocity (other minus body; for a wall,
  // body minus wall) before the solver (after gravity) and after it: the
  // solver's work is sum lambda (u_before + u_after) / 2 (D-SCENEREF-8).
  T un_before{0}, ut_before{0}, un_after{0}, ut_after{0};
  bool bounce = false;  // restitution applied (approach faster than the threshold)
  bool biased = false;  // Baumgarte bias active (penetration > slop)
  vec2<T> impulse() const { return {T(normal_impulse * normal.x - tangent_impulse * normal.y),
                                    T(normal_impulse * normal.y + tangent_impulse * normal.x)}; }
};

// What one step did (D-SCENEREF-6).
template <class T>
struct scene_step_record {
  int step = 0;  // the step number after it (1 for the first step)
  std::vector<scene_contact_record<T>> contacts;  // sorted by id
  std::vector<vec2<T>> wall_impulse;              // per body: sum of its wall contacts' impulses
  std::vector<T> wall_moment;                     // per body: sum of point x impulse (about the origin)
  std::vector<vec2<T>> pair_impulse;              // per body: sum of pair impulses on it (+P on other, -P on body)
  std::vector<std::pair<std::size_t, std::size_t>> broad_pairs;  // bounding boxes overlap
  std::vector<T> pair_epa_depth;                  // EPA depth per broad pair (0 unless the SAT says overlapping)
  T bias_work_bound{0};  // sum over contacts of lambda_n * (beta/dt) max(0, depth - slop) (D-SCENEREF-8)
  T solver_work{0};      // sum over contacts of lambda_n (un_before + un_after)/2 + lambda_t (ut_before + ut_after)/2
};

template <class T>
struct reference_world {
  std::vector<ref_wall<T>> walls;
  std::vector<ref_body<T>> bodies;
  ref_params<T> params{};
  int step_count = 0;
  scene_step_record<T> last{};  // the record of the last step
};

// ---- the solver with per-contact coefficients -------------------------------

// solve_contacts (solver.hpp) with each contact's friction and restitution,
// and restitution only above `threshold` (D-SCENEREF-3). With threshold 0
// and the bodies' combined coefficients it gives the seed rule's bits
// (tests/scene_reference_test.cpp).
template <class T>
solver_result<T> solve_contacts_per_contact(const std::vector<solver_body<T>>& bodies,
                                            const std::vector<solver_contact<T>>& contacts,
                                            const std::vector<T>& friction, const std::vector<T>& restitution,
                                            const T& threshold, const solver_params<T>& params) {
  if (friction.size() != restitution.size())
    throw invalid_input("scene_reference: one friction and one restitution per contact");
  std::vector<contact_coefficients<T>> k;
  for (std::size_t i = 0; i < friction.size(); ++i) k.push_back({friction[i], restitution[i]});
  return solve_contacts(bodies, contacts, k, threshold, params);
}

namespace detail {

template <class T>
void scene_require_finite(const T& x, const std::string& what, int step) {
  if (!is_finite(x))
    throw invalid_input("scene_reference: " + what + " is not finite at step " + std::to_string(step) + " (" +
                        std::string(scalar_name<T>()) + ")");
}

template <class T>
std::vector<vec2<T>> world_vertices(const ref_body<T>& b) {
  using std::cos;
  using std::sin;
  const T c = T(cos(b.ang)), s = T(sin(b.ang));
  std::vector<vec2<T>> out;
  out.reserve(b.shape.size());
  for (const auto& p : b.shape) out.push_back({T(c * p.x - s * p.y + b.pos.x), T(s * p.x + c * p.y + b.pos.y)});
  return out;
}

template <class T>
bool boxes_overlap(const std::vector<vec2<T>>& a, const std::vector<vec2<T>>& b) {
  auto box = [](const std::vector<vec2<T>>& v) {
    T xl = v[0].x, xh = v[0].x, yl = v[0].y, yh = v[0].y;
    for (const auto& p : v) {
      if (p.x < xl) xl = p.x;
      if (p.x > xh) xh = p.x;
      if (p.y < yl) yl = p.y;
      if (p.y > yh) yh = p.y;
    }
    return std::array<T, 4>{xl, xh, yl, yh};
  };
  const auto A = box(a), B = box(b);
  return !(A[1] < B[0] || B[1] < A[0] || A[3] < B[2] || B[3] < A[2]);
}

}  // namespace detail

// A body from its world-independent polygon: mass properties by
// polygon_mass_from_mass (D-SCENEREF-1), the shape re-centred on its
// centroid (pos is then where the centroid goes).
template <class T>
ref_body<T> make_ref_body(const std::vector<vec2<T>>& polygon, const T& mass, const vec2<T>& pos, const T& ang) {
  const mass_properties<T> m = polygon_mass_from_mass<T>(std::span<const vec2<T>>(polygon), mass);
  if (!(m.area > 0)) throw invalid_input("scene_reference: a body's polygon must be counter-clockwise");
  ref_body<T> b;
  for (const auto& p : polygon) b.shape.push_back(p - m.centroid);
  b.mass = m.mass;
  b.inertia = m.inertia;
  b.pos = pos;
  b.ang = ang;
  return b;
}

// One step (D-SCENEREF-4): gravity into the velocities, contacts on the
// positions at the start of the step, the solver, then the positions.
template <class T>
void step(reference_world<T>& wd) {
  const ref_params<T>& P = wd.params;
  const std::size_t nb = wd.bodies.size(), nw = wd.walls.size();
  const int next_step = wd.step_count + 1;
  // Warm-start cache: last step's impulses by contact id (D-SOLVER-9).
  std::map<scene_contact_id, std::pair<T, T>> cache;
  for (const auto& c : wd.last.contacts) cache[c.id] = {c.normal_impulse, c.tangent_impulse};

  scene_step_record<T> rec;
  rec.step = next_step;
  rec.wall_impulse.assign(nb, vec2<T>{});
  rec.wall_moment.assign(nb, T(0));
  rec.pair_impulse.assign(nb, vec2<T>{});

  // Solver bodies: the dynamic bodies, then one static body per wall.
  std::vector<solver_body<T>> sb;
  for (const auto& b : wd.bodies) {
    solver_body<T> s;
    s.mass = b.mass;
    s.inertia = b.inertia;
    s.position = b.pos;
    s.velocity = {b.vel.x, T(b.vel.y - P.g * P.dt)};  // D-SCENEREF-4: v + g dt first
    s.angular_velocity = b.ang_vel;
    sb.push_back(s);
  }
  for (const auto& w : wd.walls) {
    solver_body<T> s;
    s.position = w.position;
    s.is_static = true;
    sb.push_back(s);
  }

  // Contacts (D-SCENEREF-2).
  std::vector<std::vector<vec2<T>>> world;
  for (const auto& b : wd.bodies) world.push_back(detail::world_vertices(b));
  std::vector<scene_contact_record<T>> found;
  for (std::size_t i = 0; i < nb; ++i)
    for (std::size_t w = 0; w < nw; ++w)
      for (std::size_t k = 0; k < world[i].size(); ++k) {
        const T d = dot(wd.walls[w].normal, world[i][k] - wd.walls[w].position);
        if (d > 0) continue;
        scene_contact_record<T> c;
        c.id = {true, i, w, contact_feature{0, feature_type::vertex, k}, contact_feature{1, feature_type::face, 0}};
        c.point = world[i][k];
        c.normal = wd.walls[w].normal;
        c.penetration = T(-d);
        c.friction = wd.walls[w].friction;
        c.restitution = wd.walls[w].restitution;
        found.push_back(c);
      }
  for (std::size_t i = 0; i < nb; ++i)
    for (std::size_t j = i + 1; j < nb; ++j) {
      if (!detail::boxes_overlap(world[i], world[j])) continue;
      rec.broad_pairs.push_back({i, j});
      const contact_manifold<T> m = collide_polygons<T>(world[i], world[j]);
      // EPA's depth beside the manifold, for overlapping pairs (the SAT's
      // decision; touching and apart record 0).
      T depth{0};
      if (m.status == contact_status::intersecting) {
        const epa_result<T> e =
            epa_penetration<T>(std::span<const vec2<T>>(world[i]), std::span<const vec2<T>>(world[j]));
        if (e.intersecting) depth = e.depth;
      }
      rec.pair_epa_depth.push_back(depth);
      for (const auto& p : m.points) {
        scene_contact_record<T> c;
        c.id = {false, i, j, p.feature_a, p.feature_b};
        // Midway between the incident point and its projection on the
        // reference face: both bodies see the same point (D-SCENEREF-2).
        c.point = {T((p.point.x + p.reference_point.x) / 2), T((p.point.y + p.reference_point.y) / 2)};
        c.normal = m.normal;
        c.penetration = p.separation < 0 ? T(-p.separation) : T(0);
        c.friction = P.pair_friction;
        c.restitution = P.pair_restitution;
        found.push_back(c);
      }
    }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.id < b.id; });

  std::vector<solver_contact<T>> sc;
  std::vector<T> mu, e;
  for (const auto& c : found) {
    solver_contact<T> s;
    // Wall: A = the wall (static), B = the body, normal out of the wall = A to B.
    s.body_a = c.id.wall ? nb + c.id.other : c.id.body;
    s.body_b = c.id.wall ? c.id.body : c.id.other;
    s.point = c.point;
    s.normal = c.normal;
    s.penetration = c.penetration;
    if (P.warm_start) {
      const auto it = cache.find(c.id);
      if (it != cache.end()) {
        s.normal_impulse = it->second.first;
        s.tangent_impulse = it->second.second;
      }
    }
    sc.push_back(s);
    mu.push_back(c.friction);
    e.push_back(c.restitution);
  }
  solver_params<T> sp;
  sp.iterations = P.iterations;
  sp.beta = P.beta;
  sp.slop = P.slop;
  sp.dt = P.dt;
  sp.warm_start = P.warm_start;
  const solver_result<T> r = solve_contacts_per_contact(sb, sc, mu, e, P.restitution_threshold, sp);

  for (std::size_t k = 0; k < found.size(); ++k) {
    scene_contact_record<T>& c = found[k];
    const solver_contact_state<T>& s = r.contacts[k];
    c.normal_impulse = s.normal_impulse;
    c.tangent_impulse = s.tangent_impulse;
    c.un_before = s.un_before;
    c.ut_before = s.ut_before;
    {  // u after: (v_b + w_b x r_b) - (v_a + w_a x r_a), r from the positions the solver used
      const std::size_t ia = sc[k].body_a, ib = sc[k].body_b;
      const vec2<T> ra = c.point - sb[ia].position, rb = c.point - sb[ib].position;
      const vec2<T> pa{T(r.velocity[ia].x - r.angular_velocity[ia] * ra.y), T(r.velocity[ia].y + r.angular_velocity[ia] * ra.x)};
      const vec2<T> pb{T(r.velocity[ib].x - r.angular_velocity[ib] * rb.y), T(r.velocity[ib].y + r.angular_velocity[ib] * rb.x)};
      const vec2<T> u = pb - pa;
      c.un_after = dot(c.normal, u);
      c.ut_after = dot(vec2<T>{T(-c.normal.y), c.normal.x}, u);
    }
    rec.solver_work = T(rec.solver_work + T(s.normal_impulse * T(c.un_before + c.un_after) / 2) +
                        T(s.tangent_impulse * T(c.ut_before + c.ut_after) / 2));
    c.bounce = s.un_before < -P.restitution_threshold && c.restitution > 0;
    c.biased = c.penetration > P.slop;
    const vec2<T> J = c.impulse();
    if (c.id.wall) {
      rec.wall_impulse[c.id.body] = rec.wall_impulse[c.id.body] + J;
      rec.wall_moment[c.id.body] = T(rec.wall_moment[c.id.body] + cross(c.point, J));
    } else {
      rec.pair_impulse[c.id.other] = rec.pair_impulse[c.id.other] + J;
      rec.pair_impulse[c.id.body] = rec.pair_impulse[c.id.body] - J;
    }
    if (c.biased)
      rec.bias_work_bound = T(rec.bias_work_bound + s.normal_impulse * P.beta * (c.penetration - P.slop) / P.dt);
  }
  rec.contacts = std::move(found);

  // Positions from the new velocities (semi-implicit Euler), then the check.
  for (std::size_t i = 0; i < nb; ++i) {
    ref_body<T>& b = wd.bodies[i];
    b.vel = r.velocity[i];
    b.ang_vel = r.angular_velocity[i];
    b.pos = b.pos + b.vel * P.dt;
    b.ang = T(b.ang + b.ang_vel * P.dt);
    const std::string who = "body " + std::to_string(i) + " ";
    detail::scene_require_finite(b.pos.x, who + "position", next_step);
    detail::scene_require_finite(b.pos.y, who + "position", next_step);
    detail::scene_require_finite(b.ang, who + "angle", next_step);
    detail::scene_require_finite(b.vel.x, who + "velocity", next_step);
    detail::scene_require_finite(b.vel.y, who + "velocity", next_step);
    detail::scene_require_finite(b.ang_vel, who + "angular velocity", next_step);
  }
  wd.last = std::move(rec);
  wd.step_count = next_step;
}

template <class T>
scene_snapshot<T> snapshot(const reference_world<T>& wd) {
  scene_snapshot<T> s;
  s.step = wd.step_count;
  for (const auto& b : wd.bodies) {
    scene_body_state<T> o;
    o.pos = b.pos;
    o.ang = b.ang;
    o.vel = b.vel;
    o.ang_vel = b.ang_vel;
    o.mass = b.mass;
    o.inertia = b.inertia;
    o.world_shape = detail::world_vertices(b);
    s.bodies.push_back(std::move(o));
  }
  for (const auto& w : wd.walls) s.walls.push_back({w.position, w.normal});
  return s;
}

// The Force Based page's scene (D-SCENE-1) in the reference model
// (D-SCENEREF-5): the same walls, shapes (circumradius-1 square and triangle
// of createPolygonPoints, vertices cos/sin(2 pi i / n)), positions, angles,
// velocities and masses; coefficients from BodyForce.js's constants: walls
// e = 0.5, mu = 0.1; pairs e = 0.4, mu = 0.5; g = 9.8, dt = 0.02.
template <class T>
reference_world<T> make_force_reference_scene() {
  using std::cos;
  using std::sin;
  reference_world<T> wd;
  for (const char* angle : {"-0.3", "0.5"}) {
    const T a = from_string<T>(angle);
    ref_wall<T> w;
    w.normal = {T(-sin(a)), T(cos(a))};
    w.friction = from_string<T>("0.1");
    w.restitution = from_string<T>("0.5");
    wd.walls.push_back(w);
  }
  auto polygon = [](int n) {
    const T delta = T(boost::math::constants::pi<T>() * 2 / n);
    std::vector<vec2<T>> pts;
    for (int i = 0; i < n; ++i) pts.push_back({T(cos(T(delta * i))), T(sin(T(delta * i)))});
    return pts;
  };
  const T one{1};
  wd.bodies.push_back(make_ref_body<T>(polygon(4), one, {T(-8), T(10)}, T(boost::math::constants::pi<T>() / 4)));
  wd.bodies[0].vel = {T(2), T(0)};
  wd.bodies.push_back(make_ref_body<T>(polygon(3), one, {T(8), T(10)}, T(0)));
  return wd;
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
