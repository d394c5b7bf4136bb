// A whole scene of rigid bodies (polygons and circles, dynamic or static)
// stepped many times: the reference model of the eval op scene.run
// (derivations/scene_run.md, D-SCENERUN-1..3). Each step is step.pair's step
// (step_pair.hpp, D-STEP-1..8) for every pair of bodies at once:
//
//   bodies     as step.pair's: vertices about the body origin, the velocity
//              of the centre of mass, a static body has zero velocity;
//   contacts   at the pre-step poses, every pair of bodies not both static
//              whose bounding circles meet, found as step.pair finds them
//              (clipping, one point for a circle), points apart by up to a
//              rounding margin included (D-SCENERUN-1);
//   impulses   v* = v + g h; one contact: the coupled impulse model (as
//              step.pair); several: sequential impulses over all contacts
//              swept until the complementarity residual is at rounding
//              level: the LCP solution, no position correction, the last
//              step's impulses as the warm start (D-SCENERUN-2);
//   integrate  semi-implicit Euler about the centre of mass, carried from
//              step to step (the body origin is derived for each frame, never
//              fed back) (D-SCENERUN-3); a step whose centre path would enter
//              a static body is cut at the time of impact (D-SCENERUN-14).
//
// Types: float, double, long double, mp50, mp100 (cos, sin, pi: no exact).
// Bad input is invalid_input; a state that overflows is invalid_input naming
// the body and the step; a step whose sweeps do not converge is
// no_convergence. No NaN is returned.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/detail/scene_continuous.hpp"
#include "rigidref/solver.hpp"
#include "rigidref/solver_modes.hpp"
#include "rigidref/step_pair.hpp"
#include "rigidref/vec2.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

// Limits of one request (docs/eval-protocol.md section 1.4).
inline constexpr long scene_max_steps = 100000;
inline constexpr std::size_t scene_max_bodies = 1000;

template <class T>
struct scene_run_request {
  std::vector<step_body<T>> bodies;
  T restitution{0};
  T friction{0};
  T dt{T(1) / T(60)};
  vec2<T> gravity{};
  T restitution_threshold{0};  // as step.pair's (D-STEP-6)
  long steps = 1;
  long record_every = 1;
  long max_sweeps = 200000;  // per step (D-SCENERUN-2)
};

template <class T>
struct scene_frame {
  long step = 0;
  std::vector<step_body_state<T>> bodies;  // in the request's order, static ones included
};

template <class T>
struct scene_run_result {
  std::vector<scene_frame<T>> frames;
  long sweeps = 0;            // over all steps
  std::size_t max_contacts = 0;  // the most contact points in one step
};

namespace detail {

inline std::string scene_body_name(std::size_t i) { return "bodies[" + std::to_string(i) + "]"; }

// step.pair's checks name their op; here they are scene.run's.
template <class F>
auto as_scene_run(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const invalid_input& e) {
    std::string m = e.what();
    const std::string from = "step.pair: ";
    if (m.rfind(from, 0) == 0) m = "scene.run: " + m.substr(from.size());
    throw invalid_input(m);
  }
}

template <class T>
void validate_scene(const scene_run_request<T>& q) {
  if (q.bodies.empty()) throw invalid_input("scene.run: bodies must not be empty");
  if (q.bodies.size() > scene_max_bodies)
    throw invalid_input("scene.run: at most " + std::to_string(scene_max_bodies) + " bodies, got " +
                        std::to_string(q.bodies.size()));
  if (q.steps < 1 || q.steps > scene_max_steps)
    throw invalid_input("scene.run: steps must be an integer from 1 to " + std::to_string(scene_max_steps));
  if (q.record_every < 1 || q.record_every > q.steps)
    throw invalid_input("scene.run: record_every must be an integer from 1 to steps");
  for (std::size_t i = 0; i < q.bodies.size(); ++i) {
    step_pair_request<T> one;  // step.pair's checks of a body and of the scene's numbers
    one.body1 = one.body2 = q.bodies[i];
    one.restitution = q.restitution;
    one.friction = q.friction;
    one.dt = q.dt;
    one.gravity = q.gravity;
    one.restitution_threshold = q.restitution_threshold;
    as_scene_run([&] {
      try {
        validate(one);
      } catch (const invalid_input& e) {
        std::string m = e.what();
        const std::string b1 = "body1";
        if (const std::size_t at = m.find(b1); at != std::string::npos) m.replace(at, b1.size(), scene_body_name(i));
        throw invalid_input(m);
      }
      return 0;
    });
  }
}

// A body's state carried between steps: centre of mass and angle (D-SCENERUN-3).
template <class T>
struct scene_state {
  vec2<T> center{};
  T angle{0};
  vec2<T> velocity{};
  T angular_velocity{0};
};

// The largest distance from the centre of mass to the body's surface.
template <class T>
T bounding_radius(const step_body<T>& b, const step_mass<T>& m) {
  if (b.is_circle) return b.radius;
  using std::sqrt;
  T r{0};
  for (const vec2<T>& v : b.vertices) {
    const vec2<T> d = v - m.centroid;
    r = std::max(r, T(sqrt(T(d.x * d.x + d.y * d.y))));
  }
  return r;
}

}  // namespace detail

// The scene, stepped `steps` times (D-SCENERUN-1..3).
template <class T>
scene_run_result<T> scene_run(const scene_run_request<T>& q) {
  using detail::step_require_finite_result;
  detail::validate_scene(q);
  const std::size_t n = q.bodies.size();
  std::vector<step_mass<T>> mass(n);
  std::vector<T> reach(n);
  std::vector<detail::scene_state<T>> state(n);
  for (std::size_t i = 0; i < n; ++i) {
    const step_body<T>& b = q.bodies[i];
    mass[i] = detail::as_scene_run([&] { return step_body_mass(b, detail::scene_body_name(i)); });
    // Bounding circles are widened by a relative 2^-20 so that a contact of
    // exactly touching bodies is never lost to the rounding of the radius.
    reach[i] = T(detail::bounding_radius(b, mass[i]) * (1 + T(1) / T(1 << 20)));
    const detail::pose<T> p = detail::pose_of(b, mass[i]);
    state[i] = {p.center, b.angle, b.is_static ? vec2<T>{} : b.velocity, b.is_static ? T(0) : b.angular_velocity};
  }

  // Warm start: the impulses of the last step, per pair and point index.
  std::map<std::tuple<std::size_t, std::size_t, std::size_t>, std::pair<T, T>> last;
  scene_run_result<T> out;
  for (long step = 1; step <= q.steps; ++step) {
    std::vector<step_body<T>> now(n);
    std::vector<detail::pose<T>> pose(n);
    using std::cos;
    using std::sin;
    for (std::size_t i = 0; i < n; ++i) {
      now[i] = q.bodies[i];
      if (q.bodies[i].is_static) {  // exactly where it was given
        pose[i] = detail::pose_of(q.bodies[i], mass[i]);
        continue;
      }
      now[i].angle = state[i].angle;
      const T c = T(cos(state[i].angle)), s = T(sin(state[i].angle));
      now[i].position = state[i].center - detail::rotate(c, s, mass[i].centroid);
      pose[i] = {c, s, now[i].position, state[i].center};
    }

    // D-SCENERUN-1: contacts at the pre-step poses.
    std::vector<solver_contact<T>> sc;
    std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> keys;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        if (q.bodies[i].is_static && q.bodies[j].is_static) continue;
        using std::abs;
        // Points apart by up to 64 eps of the coordinates' magnitude are
        // contacts too: rounding must not take a resting contact away
        // (D-SCENERUN-1).
        const auto far = [&](std::size_t b) { return T(abs(state[b].center.x) + abs(state[b].center.y) + reach[b]); };
        const T margin = T(64 * epsilon<T>() * std::max(far(i), far(j)));
        const vec2<T> d = state[j].center - state[i].center;
        const T r = reach[i] + reach[j] + margin;
        if (T(d.x * d.x + d.y * d.y) > T(r * r)) continue;
        const std::vector<step_contact<T>> k = detail::contacts_of(now[i], pose[i], now[j], pose[j], margin);
        for (std::size_t m = 0; m < k.size(); ++m) {
          solver_contact<T> c;
          c.body_a = i;
          c.body_b = j;
          c.point = k[m].point;
          c.normal = k[m].normal;
          if (const auto it = last.find({i, j, m}); it != last.end()) {
            c.normal_impulse = it->second.first;
            c.tangent_impulse = it->second.second;
          }
          sc.push_back(c);
          keys.emplace_back(i, j, m);
        }
      }
    out.max_contacts = std::max(out.max_contacts, sc.size());

    // D-SCENERUN-2: gravity, then the LCP solution by sweeps.
    std::vector<vec2<T>> v(n);
    std::vector<T> w(n);
    for (std::size_t i = 0; i < n; ++i) {
      v[i] = q.bodies[i].is_static ? vec2<T>{} : state[i].velocity + q.dt * q.gravity;
      w[i] = q.bodies[i].is_static ? T(0) : state[i].angular_velocity;
    }
    last.clear();
    if (sc.size() == 1) {  // one contact: the coupled model, exact (D-STEP-6); sweeps may cycle (D-SOLVER-10)
      const solver_contact<T>& k = sc[0];
      const std::size_t ab[2] = {k.body_a, k.body_b};
      contact_body<T> cb[2];
      for (int m = 0; m < 2; ++m) {
        const std::size_t i = ab[m];
        cb[m].mass = mass[i].mass;
        cb[m].inertia = mass[i].inertia;
        cb[m].velocity = v[i];
        cb[m].angular_velocity = w[i];
        cb[m].r = k.point - state[i].center;
        cb[m].is_static = q.bodies[i].is_static;
      }
      const T e = q.restitution_threshold > 0 && !detail::approaches_faster(cb[0], cb[1], k.normal, q.restitution_threshold)
                      ? T(0)
                      : q.restitution;
      const pair_impulse_result<T> r = impulse_pair<T>(cb[0], cb[1], k.normal, e, q.friction, impulse_model::coupled);
      last[keys[0]] = {r.jn, r.jt};
      const body_velocity<T>* after[2] = {&r.body1_after, &r.body2_after};
      for (int m = 0; m < 2; ++m)
        if (!q.bodies[ab[m]].is_static) {
          v[ab[m]] = after[m]->velocity;
          w[ab[m]] = after[m]->angular_velocity;
        }
    } else if (!sc.empty()) {
      std::vector<solver_body<T>> sb(n);
      for (std::size_t i = 0; i < n; ++i) {
        sb[i].mass = mass[i].mass;
        sb[i].inertia = mass[i].inertia;
        sb[i].position = state[i].center;
        sb[i].velocity = v[i];
        sb[i].angular_velocity = w[i];
        sb[i].is_static = q.bodies[i].is_static;
      }
      const std::vector<contact_coefficients<T>> k(sc.size(), {q.friction, q.restitution});
      solver_params<T> sp;
      sp.iterations = 64;
      sp.dt = q.dt;
      sp.warm_start = true;
      // The residual is a velocity: its scale is the largest contact-point
      // speed (D-SOLVER-7), as in step.pair (D-STEP-7).
      using std::abs;
      T scale{0};
      for (const solver_contact<T>& c : sc)
        for (const std::size_t i : {c.body_a, c.body_b}) {
          const vec2<T> r = c.point - state[i].center;
          scale = std::max(scale, T(abs(v[i].x) + abs(v[i].y) + abs(w[i]) * T(abs(r.x) + abs(r.y))));
        }
      // Between two dynamic bodies the rounding floor of the residual grows
      // with their mass ratio (an impulse rounded on the heavy body is seen
      // by the light one), so the tolerance does too (D-SCENERUN-2).
      T ratio{1};
      for (const solver_contact<T>& c : sc)
        if (!q.bodies[c.body_a].is_static && !q.bodies[c.body_b].is_static)
          ratio = std::max({ratio, T(mass[c.body_a].mass / mass[c.body_b].mass), T(mass[c.body_b].mass / mass[c.body_a].mass)});
      const T tolerance = T(64 * epsilon<T>() * (1 + q.restitution) * scale * ratio);
      solver_result<T> r;
      for (long sweeps = 0;;) {
        r = solve_contacts(sb, sc, k, q.restitution_threshold, sp);
        sweeps += sp.iterations;
        out.sweeps += sp.iterations;
        if (r.residual <= tolerance) break;
        // A few contacts whose sweeps creep: solved by their modes (D-SCENERUN-2).
        if (sweeps == 4096 && sc.size() <= solver_modes_max_contacts)
          if (const auto by_modes = solve_contacts_by_modes(sb, sc, k, q.restitution_threshold, sp, tolerance);
              by_modes && by_modes->residual <= tolerance) {
            r = *by_modes;
            break;
          }
        if (sweeps >= q.max_sweeps)
          throw no_convergence("scene.run: step " + std::to_string(step) + ": sequential impulses over " +
                               std::to_string(sc.size()) + " contact points did not reach the LCP solution in " +
                               std::to_string(sweeps) + " sweeps (residual " + to_string(to_exact(r.residual)) + ")");
        for (std::size_t j = 0; j < sc.size(); ++j) {
          sc[j].normal_impulse = r.contacts[j].normal_impulse;
          sc[j].tangent_impulse = r.contacts[j].tangent_impulse;
        }
      }
      for (std::size_t j = 0; j < sc.size(); ++j)
        last[keys[j]] = {r.contacts[j].normal_impulse, r.contacts[j].tangent_impulse};
      for (std::size_t i = 0; i < n; ++i)
        if (!q.bodies[i].is_static) {
          v[i] = r.velocity[i];
          w[i] = r.angular_velocity[i];
        }
    }

    // D-SCENERUN-3: semi-implicit Euler about the centre of mass, cut at the
    // time of impact where the centre's path would enter a static body the
    // body started apart from (D-SCENERUN-14).
    for (std::size_t i = 0; i < n; ++i) {
      if (q.bodies[i].is_static) continue;
      detail::scene_state<T>& s = state[i];
      const vec2<T> hv = q.dt * v[i];
      const T hw = T(q.dt * w[i]);
      T cut{1};
      for (std::size_t j = 0; j < n; ++j) {
        if (!q.bodies[j].is_static) continue;
        using std::abs;
        const vec2<T> end = s.center + hv;
        const vec2<T> mid{T((s.center.x + end.x) / 2), T((s.center.y + end.y) / 2)};
        const vec2<T> dm = mid - pose[j].center;
        const T half = T(abs(hv.x) + abs(hv.y));
        if (T(abs(dm.x) + abs(dm.y)) > T(2 * reach[j] + half)) continue;  // the path stays far from j
        if (!detail::centre_path_enters(s.center, end, q.bodies[j], pose[j])) continue;
        const auto far = [&](std::size_t b) { return T(abs(state[b].center.x) + abs(state[b].center.y) + reach[b]); };
        const T touch = T(16 * epsilon<T>() * std::max(far(i), far(j)));
        if (detail::shape_distance(now[i], pose[i], q.bodies[j], pose[j]) <= touch) continue;  // in contact: solved
        cut = std::min(cut, detail::time_of_impact(now[i], mass[i], reach[i], s.center, s.angle, hv, hw, q.bodies[j],
                                                   pose[j], touch));
      }
      s.velocity = v[i];
      s.angular_velocity = w[i];
      if (cut < 1) {
        s.center = detail::pose_along(mass[i], s.center, s.angle, hv, hw, cut).center;
        s.angle = T(s.angle + cut * hw);
      } else {
        s.center = s.center + q.dt * v[i];
        s.angle = T(s.angle + q.dt * w[i]);
      }
      const std::string who = detail::scene_body_name(i) + " at step " + std::to_string(step);
      for (const T* x : {&s.center.x, &s.center.y, &s.angle, &s.velocity.x, &s.velocity.y, &s.angular_velocity})
        detail::as_scene_run([&] {
          step_require_finite_result(*x, who);
          return 0;
        });
    }

    if (step % q.record_every == 0) {
      scene_frame<T> f;
      f.step = step;
      for (std::size_t i = 0; i < n; ++i) {
        if (q.bodies[i].is_static) {
          f.bodies.push_back({q.bodies[i].position, q.bodies[i].angle, vec2<T>{}, T(0)});
          continue;
        }
        const detail::scene_state<T>& s = state[i];
        const T c = T(cos(s.angle)), sn = T(sin(s.angle));
        f.bodies.push_back({s.center - detail::rotate(c, sn, mass[i].centroid), s.angle, s.velocity, s.angular_velocity});
      }
      out.frames.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
