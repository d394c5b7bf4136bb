// Judging a scene.run answer, a whole trajectory, law by law and against
// the closed forms the scene's configuration implies (derivations/
// scene_run.md D-SCENERUN-4..12). Expectations come from the bodies, never
// from an id or a label:
//   static_bodies   a static body stays where it was given, at rest
//   penetration     every pair's depth at every frame within the declared
//                   penetration_slop plus what one step's motion explains
//   tunnelling      no body's centre passes through a static body between
//                   two frames (record_every 1)
//   energy          total energy rises per step by at most the
//                   discretisation term, where the model guarantees it
//   momentum        linear and angular momentum kept (no gravity, no static body)
//   rest            bodies at rest in static equilibrium stay there
//   free_flight     no body can touch another: the ballistic trajectory,
//                   semi-implicit Euler's or the continuous one
//   ramp            one body on one face of a static polygon under gravity:
//                   sticks, slides or rolls by Coulomb's law
//   bounce          one body dropped onto a static face: u' = -e u* at
//                   every impact
//   head_on         two discs along their centre line, no gravity
// A law that does not apply is "not judged" with its reason.
// What eight engines fail here and why, class by class with the cause in
// each engine's source, and where these laws themselves are in doubt:
// derivations/engine_dynamics.md D-DYNENG-4 (the table), D-DYNENG-5 (Box2D
// 2.4.1, box2d-wasm, planck), D-DYNENG-6 (Box2D 3.1.1), D-DYNENG-7 (Chipmunk),
// D-DYNENG-8 (Rapier), D-DYNENG-9 (matter), D-DYNENG-10 (p2), D-DYNENG-11
// (where these laws are in doubt), D-DYNENG-12 (who passes the tunnelling family).
//
// Arithmetic: long double (64-bit significand) on the engine's numbers
// (doubles); budgets are 128 eps of the engine per step (the step.pair
// rule) on each law's scale, and never below long double's own epsilon.
#pragma once

#include "rigidref/judge/answer.hpp"
#include "rigidref/judge/rules.hpp"
#include "rigidref/judge/step.hpp"
#include "rigidref/judge/verdict.hpp"
#include "rigidref/scene_run.hpp"
#include "rigidref/step_pair.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::judge {

struct scene_case {
  std::vector<step_body_case> bodies;
  exact restitution = 0, friction = 0;
  exact dt = exact(1) / 60;
  exact_point gravity;
  long steps = 1, record_every = 1;
};

// One body's state in a frame, as the engine wrote it (finite: the reader
// turns a non-finite number into a failure before the judge).
struct scene_body_state {
  long double px = 0, py = 0, angle = 0, vx = 0, vy = 0, w = 0;
};

struct scene_frame_answer {
  long step = 0;
  std::vector<scene_body_state> bodies;
};

struct scene_answer {
  std::vector<scene_frame_answer> frames;
};

// The reference's checks of the scene (scene_run.hpp): a bad polygon,
// radius, density, dt, coefficient or step count is invalid_input, as
// `rigidref eval` says, so that check tells a rejected valid case from a
// case both reject.
inline void validate_scene_case(const scene_case& c) {
  scene_run_request<long double> q;
  const auto ld = [](const exact& x) { return static_cast<long double>(round_to<long double>(x)); };
  for (std::size_t i = 0; i < c.bodies.size(); ++i) {
    const step_body<long double> b = step_body_in<long double>(c.bodies[i]);
    q.bodies.push_back(b);
    rigidref::detail::as_scene_run([&] { return step_body_mass(b, rigidref::detail::scene_body_name(i)); });
  }
  q.restitution = ld(c.restitution);
  q.friction = ld(c.friction);
  q.dt = ld(c.dt);
  q.gravity = {ld(c.gravity.x), ld(c.gravity.y)};
  q.steps = c.steps;
  q.record_every = c.record_every;
  rigidref::detail::validate_scene(q);
}

namespace scene_detail {

using ld = long double;

struct v2 {
  ld x = 0, y = 0;
};
inline v2 operator+(v2 a, v2 b) { return {a.x + b.x, a.y + b.y}; }
inline v2 operator-(v2 a, v2 b) { return {a.x - b.x, a.y - b.y}; }
inline v2 operator*(ld k, v2 a) { return {k * a.x, k * a.y}; }
inline ld dot(v2 a, v2 b) { return a.x * b.x + a.y * b.y; }
inline ld cross(v2 a, v2 b) { return a.x * b.y - a.y * b.x; }
inline ld norm(v2 a) { return std::sqrt(dot(a, a)); }
inline v2 rot(ld c, ld s, v2 p) { return {c * p.x - s * p.y, s * p.x + c * p.y}; }
inline ld to_ld(const exact& q) { return static_cast<ld>(round_to<long double>(q)); }
inline v2 to_v2(const exact_point& p) { return {to_ld(p.x), to_ld(p.y)}; }

// An angle difference in (-pi, pi]: engines may keep angles wrapped.
inline ld angle_diff(ld a, ld b) { return std::remainder(a - b, 2 * boost::math::constants::pi<ld>()); }

struct body {
  bool circle = false, fixed = false;
  ld radius = 0;               // circle
  std::vector<v2> local;       // polygon vertices about the origin, counter-clockwise
  v2 centroid;                 // about the origin, body frame
  ld mass = 0, inertia = 0;
  ld reach = 0;                // bounding radius about the centroid
  ld size = 0;                 // largest bounding-box side (2r of a circle)
};

// A frame: every body's centre of mass, angle, velocity, spin.
struct pose {
  v2 c;
  ld a = 0;
  v2 v;
  ld w = 0;
};

inline std::vector<v2> world(const body& b, const pose& p) {
  std::vector<v2> out;
  const ld c = std::cos(p.a), s = std::sin(p.a);
  for (const v2& q : b.local) out.push_back(p.c + rot(c, s, q - b.centroid));
  return out;
}

// The translational penetration depth (> 0) or minus the SAT separation
// (<= 0) of two convex polygons: the best face normal of either (D-SCENERUN-5).
inline ld sat_depth(const std::vector<v2>& a, const std::vector<v2>& b) {
  ld best = -std::numeric_limits<ld>::infinity();
  for (int pass = 0; pass < 2; ++pass) {
    const std::vector<v2>& p = pass == 0 ? a : b;
    const std::vector<v2>& q = pass == 0 ? b : a;
    for (std::size_t i = 0; i < p.size(); ++i) {
      const v2 e = p[(i + 1) % p.size()] - p[i];
      const ld len = norm(e);
      if (len == 0) continue;
      const v2 n{e.y / len, -e.x / len};  // outward for counter-clockwise
      ld lo = std::numeric_limits<ld>::infinity();
      for (const v2& x : q) lo = std::min(lo, dot(n, x - p[i]));
      best = std::max(best, lo);
    }
  }
  return -best;
}

// Signed distance from c to a convex polygon (> 0 outside).
inline ld signed_distance(v2 c, const std::vector<v2>& p) {
  ld face = -std::numeric_limits<ld>::infinity(), edge = std::numeric_limits<ld>::infinity();
  for (std::size_t i = 0; i < p.size(); ++i) {
    const v2 a = p[i], e = p[(i + 1) % p.size()] - a;
    const ld len2 = dot(e, e);
    if (len2 == 0) continue;
    const ld len = std::sqrt(len2);
    face = std::max(face, dot(v2{e.y / len, -e.x / len}, c - a));
    const ld t = std::clamp(dot(c - a, e) / len2, ld(0), ld(1));
    edge = std::min(edge, norm(c - (a + t * e)));
  }
  return face <= 0 ? face : edge;
}

// Depth of two bodies at their poses (> 0 overlapping).
inline ld depth(const body& a, const pose& pa, const body& b, const pose& pb) {
  if (a.circle && b.circle) return a.radius + b.radius - norm(pb.c - pa.c);
  if (a.circle) return a.radius - signed_distance(pa.c, world(b, pb));
  if (b.circle) return b.radius - signed_distance(pb.c, world(a, pa));
  return sat_depth(world(a, pa), world(b, pb));
}

inline bool inside(v2 c, const body& b, const pose& p) {
  if (b.circle) return norm(c - p.c) < b.radius;
  return signed_distance(c, world(b, p)) < 0;
}

// Does the segment from x to y cross the (convex) body?
inline bool segment_crosses(v2 x, v2 y, const body& b, const pose& p) {
  if (b.circle) {
    const v2 d = y - x;
    const ld t = dot(d, d) == 0 ? 0 : std::clamp(dot(p.c - x, d) / dot(d, d), ld(0), ld(1));
    return norm(x + t * d - p.c) < b.radius;
  }
  const std::vector<v2> w = world(b, p);
  ld lo = 0, hi = 1;  // clip the segment by every face's half plane
  const v2 d = y - x;
  for (std::size_t i = 0; i < w.size(); ++i) {
    const v2 e = w[(i + 1) % w.size()] - w[i];
    const v2 n{e.y, -e.x};
    const ld num = -dot(n, x - w[i]), den = dot(n, d);
    if (den == 0) {
      if (num < 0) return false;
    } else if (den > 0) {
      hi = std::min(hi, num / den);
    } else {
      lo = std::max(lo, num / den);
    }
    if (lo > hi) return false;
  }
  return lo < hi;
}

// Does the segment from x to y, crossing the (convex) body, leave it on the
// far side: through faces whose outward normals point apart (dot < 0), not
// across a corner between faces at a right angle or more? For a disc, the
// normals at the entry and exit points.
inline bool segment_passes_through(v2 x, v2 y, const body& b, const pose& p) {
  const v2 d = y - x;
  if (b.circle) {
    const ld dd = dot(d, d);
    if (dd == 0) return false;
    const ld t = dot(p.c - x, d) / dd;
    const ld miss2 = dot(x + t * d - p.c, x + t * d - p.c), r2 = b.radius * b.radius;
    if (miss2 >= r2) return false;
    const ld half = std::sqrt((r2 - miss2) / dd);
    const v2 in = x + (t - half) * d - p.c, out = x + (t + half) * d - p.c;
    return dot(in, out) < 0;
  }
  const std::vector<v2> w = world(b, p);
  ld lo = -std::numeric_limits<ld>::infinity(), hi = std::numeric_limits<ld>::infinity();
  v2 n_in{}, n_out{};
  for (std::size_t i = 0; i < w.size(); ++i) {
    const v2 e = w[(i + 1) % w.size()] - w[i];
    const v2 n{e.y, -e.x};
    const ld num = -dot(n, x - w[i]), den = dot(n, d);
    if (den > 0 && num / den < hi) hi = num / den, n_out = n;
    if (den < 0 && num / den > lo) lo = num / den, n_in = n;
  }
  return lo < hi && dot(n_in, n_out) < 0;
}

// A law's verdict from its worst frame: error and allowed amount on a scale.
inline field_verdict law(const std::string& name, ld error, ld allowed, ld scale, ld eps, const std::string& where,
                         const std::string& what) {
  field_verdict f;
  f.field = name;
  f.reason = name;
  const ld unit = eps * (scale > 0 ? scale : 1);
  f.error_eps = static_cast<double>(error / unit);
  f.budget_eps = static_cast<double>(allowed / unit);
  f.pass = error <= allowed;
  f.detail = name + ": " + what + " off by " + format_eps(f.error_eps) + " eps (budget " + format_eps(f.budget_eps) +
             " eps, scale " + format_eps(static_cast<double>(scale)) + ")" + (where.empty() ? "" : ", worst at " + where);
  return f;
}

// Tracks the worst (error - allowed) over frames.
struct worst {
  ld error = 0, allowed = 0, scale = 0, margin = -std::numeric_limits<ld>::infinity();
  std::string where, what;
  bool any = false;
  void see(ld e, ld a, ld s, const std::string& at, const std::string& w) {
    const ld m = e - a;
    if (!any || m > margin || (m == margin && e > error)) {
      error = e, allowed = a, scale = s, margin = m, where = at, what = w, any = true;
    }
  }
  field_verdict verdict(const std::string& name, ld eps) const { return law(name, error, allowed, scale, eps, where, what); }
};

}  // namespace scene_detail

// What the laws measure frame by frame, kept for plots (rigidref check
// --scenes-out, the report's scene section); never part of a verdict.
// Frame 0 is the request's state, frame k the answer's k-th frame.
struct scene_series {
  long double dt = 0;              // the step's length (s)
  std::vector<long> steps;         // the step of each frame, 0 first
  std::vector<long double> depth;  // per frame, the deepest overlap of two bodies (not both static); 0: none
  std::vector<long double> energy;  // per frame, kinetic + potential energy of the dynamic bodies; empty: none
  struct ramp_run {
    long double a = 0;  // the closed form's acceleration along the face (0: it sticks)
    std::string motion;  // "sticks", "slides", "rolls", "slides and spins up"
    std::vector<long double> along;  // per frame, the centre's distance down the face, up to the face's end
  };
  std::optional<ramp_run> ramp;  // where the ramp law judges the scene
  // Where the bounce law applies: per frame, the body's clearance above the
  // face (minus the depth), and the coefficient of restitution.
  std::vector<long double> bounce_gap;
  long double bounce_e = 0;
};

struct scene_verdict : verdict {
  std::string free_flight_form;  // "discrete", "continuous", "sub-stepped" when judged
  scene_series series;
};

// Judges the answer's frames (already read, every number finite, frame
// count and steps as requested) against the scene (D-SCENERUN-4..12).
inline scene_verdict judge_scene_run(const scene_case& c, const scene_answer& a, const engine& e) {
  using namespace scene_detail;
  scene_verdict out;
  const op_rule* rule = find_op_rule("scene.run");
  const ld eps = std::max(to_ld(e.precision.epsilon), std::numeric_limits<ld>::epsilon());
  const ld budget = rule != nullptr ? ld(rule->budget_eps) : ld(128);
  const ld slop = to_ld(e.allowance("penetration_slop"));
  // polygon_radius: both skins of a pair, as the collision ops declare it.
  const ld skin = to_ld(e.allowance("polygon_radius"));
  const ld threshold = to_ld(e.allowance("restitution_threshold"));
  const ld h = to_ld(c.dt), mu = to_ld(c.friction), rest_e = to_ld(c.restitution);
  const v2 g = to_v2(c.gravity);
  const ld gn = norm(g);
  const std::size_t n = c.bodies.size();

  // Bodies: mass properties in long double (D-STEP-2).
  std::vector<body> bodies(n);
  std::size_t dynamic = 0, fixed = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const step_body_case& s = c.bodies[i];
    body& b = bodies[i];
    b.circle = s.is_circle;
    b.fixed = s.is_static;
    (b.fixed ? fixed : dynamic) += 1;
    step_body<ld> q = step_body_in<ld>(s);
    q.density = s.density > 0 ? to_ld(s.density) : ld(1);
    q.is_static = false;
    const step_mass<ld> m = step_body_mass(q, "bodies[" + std::to_string(i) + "]");
    b.mass = m.mass, b.inertia = m.inertia, b.centroid = {m.centroid.x, m.centroid.y};
    b.radius = q.radius;
    if (b.circle) {
      b.reach = b.radius;
      b.size = 2 * b.radius;
    } else {
      ld area = 0, lx = 1e300L, hx = -1e300L, ly = 1e300L, hy = -1e300L;
      for (const vec2<ld>& p : q.vertices) {
        b.local.push_back({p.x, p.y});
        lx = std::min(lx, p.x), hx = std::max(hx, p.x), ly = std::min(ly, p.y), hy = std::max(hy, p.y);
      }
      for (std::size_t k = 0; k < b.local.size(); ++k) area += cross(b.local[k], b.local[(k + 1) % b.local.size()]);
      if (area < 0) std::reverse(b.local.begin(), b.local.end());
      for (const v2& p : b.local) b.reach = std::max(b.reach, norm(p - b.centroid));
      b.size = std::max(hx - lx, hy - ly);
    }
  }

  // Frames: 0 is the request's state; then the engine's, centres of mass.
  const auto to_pose = [&](const body& b, v2 origin, ld angle, v2 v, ld w) {
    pose p;
    p.a = angle;
    p.c = origin + rot(std::cos(angle), std::sin(angle), b.centroid);
    p.v = b.fixed ? v2{} : v;
    p.w = b.fixed ? 0 : w;
    return p;
  };
  std::vector<std::vector<pose>> frames;
  std::vector<long> step_of;
  frames.emplace_back();
  step_of.push_back(0);
  for (std::size_t i = 0; i < n; ++i) {
    const step_body_case& s = c.bodies[i];
    frames[0].push_back(to_pose(bodies[i], to_v2(s.position), to_ld(s.angle), to_v2(s.velocity), to_ld(s.angular_velocity)));
  }
  std::vector<std::vector<scene_body_state>> raw;  // the engine's own numbers, for static_bodies
  for (const scene_frame_answer& f : a.frames) {
    std::vector<pose> one;
    for (std::size_t i = 0; i < n; ++i) {
      const scene_body_state& s = f.bodies[i];
      pose p;
      p.a = s.angle;
      p.c = v2{s.px, s.py} + rot(std::cos(s.angle), std::sin(s.angle), bodies[i].centroid);
      p.v = {s.vx, s.vy};
      p.w = s.w;
      one.push_back(p);
    }
    frames.push_back(std::move(one));
    step_of.push_back(f.step);
    raw.push_back(f.bodies);
  }
  const std::size_t K = frames.size() - 1;
  const bool every_step = c.record_every == 1;
  out.series.dt = h;
  out.series.steps = step_of;
  out.series.depth.assign(K + 1, 0);
  const auto at = [&](std::size_t k) { return "step " + std::to_string(step_of[k]); };
  const auto coord = [&](std::size_t k, std::size_t i) {
    const pose& p = frames[k][i];
    return std::abs(p.c.x) + std::abs(p.c.y) + bodies[i].reach;
  };

  // ---- static_bodies (D-SCENERUN-4) ----------------------------------------
  if (fixed == 0) {
    out.add(not_judged("static_bodies", "no static body"));
  } else {
    worst wo;
    for (std::size_t k = 1; k <= K; ++k)
      for (std::size_t i = 0; i < n; ++i) {
        if (!bodies[i].fixed) continue;
        const step_body_case& s = c.bodies[i];
        const scene_body_state& r = raw[k - 1][i];
        const ld scale = std::abs(to_ld(s.position.x)) + std::abs(to_ld(s.position.y)) + bodies[i].size;
        const ld moved = std::max({std::abs(r.px - to_ld(s.position.x)), std::abs(r.py - to_ld(s.position.y)),
                                   std::abs(angle_diff(r.angle, to_ld(s.angle))) * bodies[i].reach,
                                   (std::abs(r.vx) + std::abs(r.vy) + std::abs(r.w) * bodies[i].reach) * h});
        wo.see(moved, 4 * eps * scale, scale, at(k) + ", body " + std::to_string(i), "a static body's pose");
      }
    out.add(wo.verdict("static_bodies", eps));
  }

  // ---- penetration (D-SCENERUN-5) -------------------------------------------
  {
    // A pair's depth grows in a step by at most h times the fastest relative
    // motion of two of its material points in that step (semi-implicit
    // Euler moves with the new velocities, a position-first engine with the
    // old ones): from the deeper of the last frame's depth and the slop.
    worst wo;
    std::vector<std::vector<ld>> last_speed(n, std::vector<ld>(n, 0)), last_depth(n, std::vector<ld>(n, 0));
    const ld r = static_cast<ld>(c.record_every);
    for (std::size_t k = 0; k <= K; ++k)
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
          if (bodies[i].fixed && bodies[j].fixed) continue;
          const pose &pi = frames[k][i], &pj = frames[k][j];
          const ld u = norm(pi.v - pj.v) + std::abs(pi.w) * bodies[i].reach + std::abs(pj.w) * bodies[j].reach;
          const ld u_step = std::max(u, last_speed[i][j]);
          last_speed[i][j] = u;
          const ld d = norm(pj.c - pi.c) > bodies[i].reach + bodies[j].reach ? ld(0) : std::max(depth(bodies[i], pi, bodies[j], pj), ld(0));
          const ld before = last_depth[i][j];
          last_depth[i][j] = d;
          out.series.depth[k] = std::max(out.series.depth[k], d);
          if (k == 0 || d == 0) continue;
          const ld scale = std::max(coord(k, i), coord(k, j));
          const ld allowed = std::max(before, slop) + r * h * u_step + budget * eps * scale;
          wo.see(d, allowed, scale,
                 at(k) + ", bodies " + std::to_string(i) + " and " + std::to_string(j) + " (depth " +
                     format_eps(static_cast<double>(d)) + ", " + format_eps(static_cast<double>(before)) + " before)",
                 "depth");
        }
    if (!wo.any)
      out.add(not_judged("penetration", "no two bodies overlap in any frame"));
    else
      out.add(wo.verdict("penetration", eps));
  }

  // ---- tunnelling (D-SCENERUN-6) ----------------------------------------------
  if (fixed == 0) {
    out.add(not_judged("tunnelling", "no static body"));
  } else if (!every_step) {
    out.add(not_judged("tunnelling", "record_every > 1: the path between frames is not known"));
  } else {
    std::string found;
    for (std::size_t k = 1; k <= K && found.empty(); ++k)
      for (std::size_t i = 0; i < n && found.empty(); ++i)
        for (std::size_t j = 0; j < n && found.empty(); ++j) {
          if (bodies[i].fixed || !bodies[j].fixed) continue;
          // Apart at one frame at least: a body sliding in contact over a
          // corner, overlapping by the allowed depth at both frames, may
          // carry its centre across the corner.
          // Overlapping j at one frame, a centre that only cuts across a
          // corner (in through one face, out through a neighbour at a right
          // angle: sliding off the end of the ground while sunk into it) has
          // not passed through (D-SCENERUN-6).
          const v2 x = frames[k - 1][i].c, y = frames[k][i].c;
          if (inside(x, bodies[j], frames[0][j]) || inside(y, bodies[j], frames[0][j]) ||
              !segment_crosses(x, y, bodies[j], frames[0][j]))
            continue;
          const bool apart0 = depth(bodies[i], frames[k - 1][i], bodies[j], frames[0][j]) < 0;
          const bool apart1 = depth(bodies[i], frames[k][i], bodies[j], frames[0][j]) < 0;
          if ((apart0 && apart1) || ((apart0 || apart1) && segment_passes_through(x, y, bodies[j], frames[0][j])))
            found = at(k) + ": body " + std::to_string(i) + "'s centre passed through static body " + std::to_string(j);
        }
    field_verdict f;
    f.field = f.reason = "tunnelling";
    f.pass = found.empty();
    f.error_eps = found.empty() ? 0 : std::numeric_limits<double>::infinity();
    f.detail = found.empty() ? "tunnelling: no centre passed through a static body" : "tunnelling: " + found;
    out.add(f);
  }

  // ---- the configuration: contacts at the start (D-SCENERUN-9) ----------------
  // step.pair's detection in long double at the request's poses, with a
  // margin of 2^-40 of the coordinates, so exactly touching faces count.
  std::vector<step_body<ld>> start(n);
  std::vector<rigidref::detail::pose<ld>> start_pose(n);
  for (std::size_t i = 0; i < n; ++i) {
    const step_body<ld>& q = start[i] = step_body_in<ld>(c.bodies[i]);
    const pose& f = frames[0][i];
    start_pose[i] = {std::cos(q.angle), std::sin(q.angle), q.position, {f.c.x, f.c.y}};
  }
  const auto touching = [&](std::size_t i, std::size_t j) {
    const ld margin = std::ldexp(std::max(coord(0, i), coord(0, j)), -40);
    if (norm(frames[0][j].c - frames[0][i].c) > bodies[i].reach + bodies[j].reach + margin)
      return std::vector<step_contact<ld>>{};
    return rigidref::detail::contacts_of(start[i], start_pose[i], start[j], start_pose[j], margin);
  };
  // Support depth: contacts hop by hop from a static body (D-SCENERUN-9);
  // a body with no chain to one counts as n hops.
  // Which pairs (not both static) touch at the start, found once.
  std::optional<std::vector<std::vector<bool>>> near_memo;
  const auto touching_at_start = [&]() -> const std::vector<std::vector<bool>>& {
    if (near_memo) return *near_memo;
    std::vector<std::vector<bool>> near(n, std::vector<bool>(n, false));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j)
        near[i][j] = near[j][i] = !(bodies[i].fixed && bodies[j].fixed) && !touching(i, j).empty();
    near_memo = std::move(near);
    return *near_memo;
  };
  std::optional<std::vector<std::size_t>> hops_memo;
  const auto support_hops = [&]() -> const std::vector<std::size_t>& {
    if (hops_memo) return *hops_memo;
    std::vector<std::size_t> hops(n, n);
    for (std::size_t i = 0; i < n; ++i)
      if (bodies[i].fixed) hops[i] = 0;
    const std::vector<std::vector<bool>>& near = touching_at_start();
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j)
          if (i != j && !bodies[i].fixed && near[i][j] && hops[j] + 1 < hops[i]) {
            hops[i] = hops[j] + 1;
            changed = true;
          }
    }
    hops_memo = std::move(hops);
    return *hops_memo;
  };
  // Side-by-side spread (D-SCENERUN-9): between dynamic bodies touching at
  // the start with a contact normal across gravity, each contact of a row of
  // skinned bodies may open by the skins; a body may be pushed by every
  // contact between it and its row's far end (its eccentricity in the graph
  // of side contacts), and is carried by what spreads under it.
  const auto spread_hops = [&]() {
    std::vector<std::size_t> out_hops(n, 0);
    if (skin == 0 || gn == 0) return out_hops;
    const v2 down = (1 / gn) * g;
    std::vector<std::vector<std::size_t>> side(n);
    const std::vector<std::vector<bool>>& near = touching_at_start();
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        if (bodies[i].fixed || bodies[j].fixed || !near[i][j]) continue;
        const std::vector<step_contact<ld>> k = touching(i, j);
        if (!k.empty() && std::abs(dot(v2{k[0].normal.x, k[0].normal.y}, down)) <= 1e-6L) {
          side[i].push_back(j);
          side[j].push_back(i);
        }
      }
    for (std::size_t i = 0; i < n; ++i) {  // breadth first: the farthest body of i's row
      std::vector<std::size_t> dist(n, n);
      std::vector<std::size_t> queue{i};
      dist[i] = 0;
      for (std::size_t q = 0; q < queue.size(); ++q)
        for (const std::size_t j : side[queue[q]])
          if (dist[j] == n) {
            dist[j] = dist[queue[q]] + 1;
            out_hops[i] = std::max(out_hops[i], dist[j]);
            queue.push_back(j);
          }
    }
    const std::vector<std::size_t>& hops = support_hops();
    for (std::size_t d = 1; d <= n; ++d)  // carried: in order of support depth
      for (std::size_t i = 0; i < n; ++i)
        if (!bodies[i].fixed && hops[i] == d)
          for (std::size_t j = 0; j < n; ++j)
            if (!bodies[j].fixed && near[i][j] && hops[j] + 1 == d) out_hops[i] = std::max(out_hops[i], out_hops[j]);
    return out_hops;
  };
  bool all_at_rest = dynamic > 0;
  for (std::size_t i = 0; i < n; ++i)
    if (!bodies[i].fixed && (frames[0][i].v.x != 0 || frames[0][i].v.y != 0 || frames[0][i].w != 0)) all_at_rest = false;

  // ---- energy (D-SCENERUN-7) --------------------------------------------------
  const auto energy = [&](std::size_t k) {
    ld E = 0, S = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (bodies[i].fixed) continue;
      const pose& p = frames[k][i];
      const ld kin = bodies[i].mass * dot(p.v, p.v) / 2 + bodies[i].inertia * p.w * p.w / 2;
      const ld pot = -bodies[i].mass * dot(g, p.c);
      E += kin + pot;
      S += kin + bodies[i].mass * gn * (std::abs(p.c.x) + std::abs(p.c.y));
    }
    return std::pair<ld, ld>{E, S};
  };
  if (dynamic > 0)
    for (std::size_t k = 0; k <= K; ++k) out.series.energy.push_back(energy(k).first);
  bool one_disc = dynamic == 1;
  for (std::size_t i = 0; i < n; ++i)
    if (!bodies[i].fixed && !bodies[i].circle) one_disc = false;
  if (dynamic == 0) {
    out.add(not_judged("energy", "no dynamic body"));
  } else if (!(rest_e == 0 || (mu == 0 && one_disc))) {
    out.add(not_judged("energy", "restitution > 0 with friction or several contacts: Newton's restitution may "
                                 "gain energy (D-IMPULSE-11)"));
  } else if (!every_step) {
    out.add(not_judged("energy", "record_every > 1: the per-step bound needs every step"));
  } else {
    // Per step: the impulses' potential-energy term and the O(h^2) term
    // of a first-order integrator; beyond that, at most the settling of
    // every body by its support depth times (slop + skins), spent once
    // over the run (D-SCENERUN-7).
    ld excess = 0, settle = 0, scale_max = 0;
    std::string first;
    for (std::size_t i = 0; i < n; ++i)
      if (!bodies[i].fixed) settle += bodies[i].mass * gn * static_cast<ld>(std::min(support_hops()[i], n)) * (slop + skin);
    for (std::size_t k = 1; k <= K; ++k) {
      const auto [E0, S0] = energy(k - 1);
      const auto [E1, S1] = energy(k);
      ld bound = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (bodies[i].fixed) continue;
        // The potential energy a first-order step may add beyond the kinetic
        // energy the impulses took: max over the integrators of m h g.(v_{k-1} - v_k).
        const ld lift = dot(g, frames[k - 1][i].v - frames[k][i].v);
        ld base = std::max(lift, ld(0));
        // A step cut at a time of impact (apart from a static body at its
        // start, touching it at its end) moves the body by a fraction of
        // that: up to m h g.v_{k-1} more (D-SCENERUN-7, D-SCENERUN-14).
        const ld fall = dot(g, frames[k - 1][i].v);
        if (fall > base)
          for (std::size_t j = 0; j < n; ++j) {
            if (!bodies[j].fixed) continue;
            const ld touch = slop + skin + budget * eps * std::max(coord(k, i), coord(0, j));
            if (depth(bodies[i], frames[k - 1][i], bodies[j], frames[0][j]) < -touch &&
                depth(bodies[i], frames[k][i], bodies[j], frames[0][j]) >= -touch) {
              base = fall;
              break;
            }
          }
        bound += bodies[i].mass * (h * base + h * h * gn * gn / 2);
      }
      const ld scale = std::max(S0, S1);
      scale_max = std::max(scale_max, scale);
      const ld over = E1 - E0 - bound - budget * eps * scale;
      if (over > 0) {
        excess += over;
        if (first.empty()) first = at(k);
      }
    }
    // One step's rounding on top: the excess is a sum of roundings at most.
    field_verdict f = law("energy", excess, settle + budget * eps * scale_max, std::max(scale_max, ld(1e-300L)), eps, first,
                          "energy gained beyond the per-step bounds");
    out.add(f);
  }

  // ---- momentum (D-SCENERUN-8) --------------------------------------------------
  if (fixed != 0 || gn != 0 || dynamic < 2) {
    const std::string why = fixed != 0 ? "a static body" : gn != 0 ? "gravity" : "one body";
    out.add(not_judged("linear_momentum", why));
    out.add(not_judged("angular_momentum", why));
  } else {
    const auto momenta = [&](std::size_t k) {
      v2 P;
      ld L = 0, SP = 0, SL = 0;
      for (std::size_t i = 0; i < n; ++i) {
        const pose& p = frames[k][i];
        const body& b = bodies[i];
        P = P + b.mass * p.v;
        L += b.mass * cross(p.c, p.v) + b.inertia * p.w;
        SP += b.mass * norm(p.v);
        SL += b.mass * (std::abs(p.c.x) + std::abs(p.c.y) + b.reach) * norm(p.v) + b.inertia * std::abs(p.w);
      }
      return std::tuple<v2, ld, ld, ld>{P, L, SP, SL};
    };
    // Every step keeps both to rounding (D-SCENERUN-8), so each step's
    // change is judged, not the drift from the start: a position correction
    // that moves bodies without changing their velocities changes L once by
    // far more than one step's rounding, yet less than the drift allowance
    // of all the steps before it (Box2D 2.4.1 on `glancing`).
    worst wp, wl;
    for (std::size_t k = 1; k <= K; ++k) {
      const auto [P0, L0, SP0, SL0] = momenta(k - 1);
      const auto [P, L, SP, SL] = momenta(k);
      const ld steps = static_cast<ld>(step_of[k] - step_of[k - 1]);
      wp.see(norm(P - P0), budget * eps * steps * std::max(SP, SP0), std::max(SP, SP0), at(k), "linear momentum change in a step");
      wl.see(std::abs(L - L0), budget * eps * steps * std::max(SL, SL0), std::max(SL, SL0), at(k),
             "angular momentum change in a step");
    }
    out.add(wp.verdict("linear_momentum", eps));
    out.add(wl.verdict("angular_momentum", eps));
  }

  // ---- rest (D-SCENERUN-9) ------------------------------------------------------
  if (!all_at_rest) {
    out.add(not_judged("rest", "a body starts moving"));
  } else {
    // In equilibrium when the reference's first step leaves every body at
    // rest: v' = 0 solves the contact LCP.
    scene_run_request<double> q;
    for (std::size_t i = 0; i < n; ++i) {
      step_body<double> b = step_body_in<double>(c.bodies[i]);  // at rest: no velocity to carry
      b.velocity = {};
      b.angular_velocity = 0;
      if (!(c.bodies[i].density > 0)) b.density = 1;  // a static body's density is never used
      q.bodies.push_back(b);
    }
    q.friction = static_cast<double>(mu);
    q.restitution = static_cast<double>(rest_e);
    q.dt = static_cast<double>(h);
    q.gravity = {static_cast<double>(g.x), static_cast<double>(g.y)};
    q.restitution_threshold = static_cast<double>(threshold);
    q.steps = 1;
    std::optional<std::string> moves;
    try {
      const scene_run_result<double> r = scene_run(q);
      for (std::size_t i = 0; i < n && !moves; ++i) {
        const step_body_state<double>& b = r.frames[0].bodies[i];
        const ld speed = std::abs(b.velocity.x) + std::abs(b.velocity.y) + std::abs(b.angular_velocity) * bodies[i].reach;
        if (speed > 1e-9L * (gn * h + 1e-300L)) moves = "body " + std::to_string(i) + " is not in equilibrium (the reference moves it)";
      }
    } catch (const std::exception& x) {
      moves = std::string("the reference step failed: ") + x.what();
    }
    if (moves) {
      out.add(not_judged("rest", *moves));
    } else {
      // Each contact in the support chain may settle by the slop and the skins.
      const std::vector<std::size_t>& hops = support_hops();
      // Rounding: a resting body's velocity after each solve is within
      // kappa eps g h of zero, kappa the largest mass ratio of two dynamic
      // bodies in contact (the reference's own tolerance, D-SCENERUN-2), so
      // it may drift by h times that per step (D-SCENERUN-9).
      ld kappa = 1;
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
          if (!bodies[i].fixed && !bodies[j].fixed && touching_at_start()[i][j])
            kappa = std::max({kappa, bodies[i].mass / bodies[j].mass, bodies[j].mass / bodies[i].mass});
      const std::vector<std::size_t> spread = spread_hops();
      worst wo;
      for (std::size_t k = 1; k <= K; ++k)
        for (std::size_t i = 0; i < n; ++i) {
          if (bodies[i].fixed) continue;
          const ld settle = static_cast<ld>(std::min(hops[i], n)) * (slop + skin) + static_cast<ld>(spread[i]) * skin;
          const ld scale = coord(k, i) + static_cast<ld>(step_of[k]) * gn * h * h * kappa;
          const ld moved = std::max(norm(frames[k][i].c - frames[0][i].c),
                                    std::abs(angle_diff(frames[k][i].a, frames[0][i].a)) * bodies[i].reach);
          wo.see(moved, settle + budget * eps * scale, scale, at(k) + ", body " + std::to_string(i), "drift from rest");
        }
      out.add(wo.verdict("rest", eps));
    }
  }

  // ---- free_flight (D-SCENERUN-10) ------------------------------------------------
  {
    // Applies when no two bodies' bounding circles can meet on the ballistic
    // paths (semi-implicit Euler's; the continuous path lies within reach),
    // between frames too: a fast body may be on either side of another at
    // two frames (D-SCENERUN-10).
    const auto ballistic = [&](std::size_t i, long s) {
      const pose& p = frames[0][i];
      if (bodies[i].fixed) return p.c;
      const ld t = static_cast<ld>(s) * h;
      return p.c + t * p.v + (h * h * static_cast<ld>(s) * static_cast<ld>(s + 1) / 2) * g;
    };
    std::optional<std::string> meets;
    if (dynamic == 0) meets = "no dynamic body";
    for (std::size_t i = 0; i < n && !meets; ++i)
      for (std::size_t j = i + 1; j < n && !meets; ++j) {
        if (bodies[i].fixed && bodies[j].fixed) continue;
        const ld reach = (bodies[i].reach + bodies[j].reach) * (1 + 1e-6L) + gn * h * h * c.steps;
        for (long s = 0; s < c.steps && !meets; ++s) {
          // The closest the relative position comes to zero on the chord
          // from step s to step s + 1.
          const v2 a = ballistic(j, s) - ballistic(i, s), b = ballistic(j, s + 1) - ballistic(i, s + 1);
          const v2 ab = b - a;
          const ld len2 = dot(ab, ab);
          const ld u = len2 == 0 ? ld(0) : std::clamp(-dot(a, ab) / len2, ld(0), ld(1));
          if (norm(a + u * ab) <= reach) meets = "bodies " + std::to_string(i) + " and " + std::to_string(j) + " may touch";
        }
      }
    if (meets && every_step) {
      // Bodies meet somewhere: each step in which a body stays clear of every
      // other is a free-flight step: v_k = v_{k-1} + g h, w_k = w_{k-1}
      // (D-SCENERUN-10). Clear: apart by more than the slop, the skins and
      // rounding at the step's end, and at its start by more than that plus
      // how far any point of either body may have gone within the step: its
      // path need not be the chord (a time-of-impact sub-step goes to the
      // surface and back), but its speed is at most the larger of |v_{k-1} +
      // g h| and |v_k|, its spin of |w_{k-1}| and |w_k|. SAT's separation is at
      // most the distance. An engine that caps speed or spin (Box2D 2.4.1's
      // b2_maxTranslation: 120 m/s at h = 1/60) fails here.
      const auto travel = [&](std::size_t i, std::size_t k) {
        const pose &p0 = frames[k - 1][i], &p = frames[k][i];
        const ld path = std::max({norm(p.c - p0.c), h * norm(p0.v + h * g), h * norm(p.v)});
        const ld turn = std::max({std::abs(angle_diff(p.a, p0.a)), h * std::abs(p.w), h * std::abs(p0.w)});
        return path + turn * bodies[i].reach;
      };
      worst wo;
      for (std::size_t k = 1; k <= K; ++k)
        for (std::size_t i = 0; i < n; ++i) {
          if (bodies[i].fixed) continue;
          bool alone = true;
          for (std::size_t j = 0; j < n && alone; ++j) {
            if (j == i) continue;
            const ld clear = slop + skin + budget * eps * std::max(coord(k, i), coord(k, j));
            const ld moved = travel(i, k) + travel(j, k) + clear;
            const v2 d0 = frames[k - 1][j].c - frames[k - 1][i].c;
            if (norm(d0) > bodies[i].reach + bodies[j].reach + moved) continue;  // bounding circles far apart
            alone = -depth(bodies[i], frames[k - 1][i], bodies[j], frames[k - 1][j]) > moved &&
                    -depth(bodies[i], frames[k][i], bodies[j], frames[k][j]) > clear;
          }
          if (!alone) continue;
          const pose &p0 = frames[k - 1][i], &p = frames[k][i];
          const ld vscale = norm(p0.v) + gn * h + std::abs(p0.w) * bodies[i].reach;
          wo.see(norm(p.v - (p0.v + h * g)) + std::abs(p.w - p0.w) * bodies[i].reach, budget * eps * vscale, vscale,
                 at(k) + ", body " + std::to_string(i), "velocity and spin in a step clear of every body");
        }
      if (!wo.any)
        out.add(not_judged("free_flight", *meets + ", and no body is clear of the others for a whole step"));
      else
        out.add(wo.verdict("free_flight", eps));
    } else if (meets) {
      out.add(not_judged("free_flight", *meets + "; record_every > 1: the steps between frames are not known"));
    } else {
      // Per form, the worst margin over frames; velocity and spin alike.
      worst disc, cont, band, rest_of;
      bool explicit_side = false;
      for (std::size_t k = 1; k <= K; ++k)
        for (std::size_t i = 0; i < n; ++i) {
          if (bodies[i].fixed) continue;
          const pose &p0 = frames[0][i], &p = frames[k][i];
          const long st = step_of[k];
          const ld sd = static_cast<ld>(st), t = sd * h;
          const v2 D = ballistic(i, st), C = p0.c + t * p0.v + (t * t / 2) * g;
          const ld scale = std::abs(p0.c.x) + std::abs(p0.c.y) + std::abs(D.x) + std::abs(D.y) + t * norm(p0.v) + bodies[i].size;
          const ld tol = budget * eps * sd * scale;
          const std::string where = at(k) + ", body " + std::to_string(i);
          disc.see(norm(p.c - D), tol, scale, where, "centre against semi-implicit Euler's");
          cont.see(norm(p.c - C), tol, scale, where, "centre against the continuous trajectory");
          // Within semi-implicit Euler's O(h) error of the continuous form,
          // on either side: sub-stepped (towards D) or position first
          // (explicit Euler, 2C - D) (D-SCENERUN-10).
          const v2 dc = D - C;
          const ld u = dot(dc, dc) == 0 ? 0 : std::clamp(dot(p.c - C, dc) / dot(dc, dc), ld(-1), ld(1));
          band.see(norm(p.c - (C + u * dc)), tol, scale, where, "centre against the O(h) band");
          if (u < 0) explicit_side = true;
          const ld vscale = norm(p0.v) + t * gn + std::abs(p0.w) * bodies[i].reach;
          rest_of.see(norm(p.v - (p0.v + t * g)) + std::abs(p.w - p0.w) * bodies[i].reach, budget * eps * sd * vscale, vscale,
                      where, "velocity and spin");
          const ld ascale = std::abs(p0.a) + t * std::abs(p0.w) + 1;
          // An engine that turns a unit complex rotation by (1, h w) and
          // normalises it turns by atan(h w): (h w)^3 / 3 less per step (D-SCENERUN-10).
          const ld hw = h * std::abs(p0.w);
          rest_of.see(std::abs(angle_diff(p.a, p0.a + t * p0.w)), budget * eps * sd * ascale + sd * hw * hw * hw / 3, ascale,
                      where, "angle");
        }
      const worst* pos = disc.margin <= 0 ? &disc : cont.margin <= 0 ? &cont : &band;
      out.free_flight_form = pos == &disc ? "discrete" : pos == &cont ? "continuous"
                             : explicit_side   ? "position-first (explicit Euler)"
                                               : "sub-stepped";
      field_verdict f = pos->margin >= rest_of.margin ? pos->verdict("free_flight", eps) : rest_of.verdict("free_flight", eps);
      f.detail += "; the engine follows the " + out.free_flight_form + " form";
      out.add(f);
    }
  }

  // ---- ramp and bounce: one dynamic body on a static polygon ----------------------
  std::optional<std::size_t> ground, mover;
  if (n == 2 && fixed == 1) {
    ground = bodies[0].fixed ? 0 : 1;
    mover = 1 - *ground;
    if (bodies[*ground].circle) ground.reset();
  }
  // The face of the static polygon with outward normal nn, if any: its ends.
  const auto face_with_normal = [&](std::size_t s, v2 nn) -> std::optional<std::pair<v2, v2>> {
    const std::vector<v2> w = world(bodies[s], frames[0][s]);
    for (std::size_t k = 0; k < w.size(); ++k) {
      const v2 e = w[(k + 1) % w.size()] - w[k];
      const v2 out_n = (1 / norm(e)) * v2{e.y, -e.x};
      if (std::abs(cross(out_n, nn)) <= 1e-12L && dot(out_n, nn) > 0) return std::pair<v2, v2>{w[k], w[(k + 1) % w.size()]};
    }
    return std::nullopt;
  };

  // ---- ramp (D-SCENERUN-11) ---------------------------------------------------------
  {
    std::optional<std::string> why;
    std::vector<step_contact<ld>> k0;
    v2 nn;
    if (!ground) why = "not one dynamic body on one static polygon";
    else if (!all_at_rest) why = "the body starts moving";
    else if (gn == 0) why = "no gravity";
    if (!why) {
      const std::size_t i = std::min(*ground, *mover), j = std::max(*ground, *mover);
      k0 = touching(i, j);
      const std::size_t want = bodies[*mover].circle ? 1 : 2;
      if (k0.size() != want) why = "the body does not rest on one face";
      else {
        nn = v2{k0[0].normal.x, k0[0].normal.y};
        if (*ground != i) nn = -1 * nn;  // from the ground to the body
        if (!face_with_normal(*ground, nn)) why = "the body does not rest on one face";
        else if (dot(nn, g) >= 0) why = "the face does not hold the body up";
        else if (std::abs(cross(nn, g)) <= 1e-12L * gn) why = "the face is level (the rest law judges it)";
      }
    }
    if (why) {
      out.add(not_judged("ramp", *why));
    } else {
      const body& b = bodies[*mover];
      const ld cos_t = -dot(nn, g) / gn, sin_t = std::abs(cross(nn, g)) / gn;
      v2 td = g - dot(g, nn) * nn;
      td = (1 / norm(td)) * td;  // downhill
      const v2 perp{-nn.y, nn.x};
      const auto [fa, fb] = *face_with_normal(*ground, nn);
      const ld f_lo = std::min(dot(fa, td), dot(fb, td)), f_hi = std::max(dot(fa, td), dot(fb, td));
      ld p_lo = 1e300L, p_hi = -1e300L;
      for (const step_contact<ld>& k : k0) {
        const ld x = dot(v2{k.point.x, k.point.y}, td);
        p_lo = std::min(p_lo, x), p_hi = std::max(p_hi, x);
      }
      ld a = 0, alpha = 0;  // acceleration along td, angular acceleration
      // A disc's contact point may lie up to the declared slop and skins
      // inside it (Box2D's midway in the skin): its lever arm rho is then
      // in [r - slop - skin, r], and a and alpha in the range that spans
      // (a_alt, alpha_alt at the short arm; D-SCENERUN-11).
      ld a_alt = 0, alpha_alt = 0;
      std::string motion;
      std::optional<std::string> skip;
      const ld boundary = 1e-9L;
      if (b.circle) {
        const ld side = dot(td, perp) > 0 ? 1 : -1;
        const ld r = b.radius, rho = std::max(r - slop - skin, r / 2);
        if (std::abs(3 * mu * cos_t - sin_t) <= boundary * sin_t) skip = "mu is at tan(theta)/3";
        else if (3 * mu * cos_t > sin_t) {
          // Rolling about the contact point at rho: a = g sin / (1 + I / (m rho^2)), I = m r^2 / 2.
          a = gn * sin_t * 2 / 3;
          alpha = side * a / r;
          a_alt = gn * sin_t / (1 + r * r / (2 * rho * rho));
          alpha_alt = side * a_alt / rho;
          motion = "rolls";
        } else {
          a = a_alt = gn * (sin_t - mu * cos_t);
          alpha = side * 2 * mu * gn * cos_t / r;
          alpha_alt = side * 2 * mu * gn * cos_t * rho / (r * r);
          motion = "slides and spins up";
        }
      } else {
        if (std::abs(mu * cos_t - sin_t) <= boundary * sin_t) skip = "mu is at tan(theta)";
        else {
          const bool sticks = mu * cos_t > sin_t;
          a = a_alt = sticks ? 0 : gn * (sin_t - mu * cos_t);
          motion = sticks ? "sticks" : "slides";
          // No tipping: the contact force's line through the centre of
          // mass meets the contact segment (D-SCENERUN-11).
          const v2 force = sticks ? (-1 / gn) * g : nn - mu * td;
          const v2 c0 = frames[0][*mover].c;
          const v2 on = v2{k0[0].point.x, k0[0].point.y};
          const ld lambda = dot(on - c0, nn) / dot(force, nn);
          const ld x = dot(c0 + lambda * force, td);
          if (!(x > p_lo && x < p_hi)) skip = "the body would tip over";
        }
      }
      if (skip) {
        out.add(not_judged("ramp", *skip));
      } else {
        worst disc, cont, band, other;
        const pose& p0 = frames[0][*mover];
        std::size_t judged = 0;
        scene_series::ramp_run run{a, motion, {0}};
        const ld settle = slop + skin;
        for (std::size_t k = 1; k <= K; ++k) {
          const long st = step_of[k];
          const ld sd = static_cast<ld>(st), t = sd * h;
          const ld travel_d = a * h * h * sd * (sd + 1) / 2, travel_c = a * t * t / 2, travel_e = a * h * h * sd * (sd - 1) / 2;
          if (p_hi + travel_d > f_hi || p_lo + travel_d < f_lo) break;  // off the face's end
          // How far x is outside the range between its values at a and at a_alt.
          const auto outside = [](ld x, ld at_a, ld at_alt) {
            return std::max({std::min(at_a, at_alt) - x, x - std::max(at_a, at_alt), ld(0)});
          };
          const ld k_alt = a == 0 ? 1 : a_alt / a;  // every travel is linear in a
          ++judged;
          const pose& p = frames[k][*mover];
          const v2 dc = p.c - p0.c;
          const ld along = dot(dc, td), normal_off = std::abs(dot(dc, nn));
          run.along.push_back(along);
          const ld scale = std::abs(p0.c.x) + std::abs(p0.c.y) + travel_d + b.size;
          const ld tol = budget * eps * sd * scale;
          const std::string where = at(k);
          const ld off_n = std::max(ld(0), normal_off - settle);
          disc.see(std::max(outside(along, travel_d, k_alt * travel_d), off_n), tol, scale, where,
                   "distance along the face (" + motion + ")");
          cont.see(std::max(outside(along, travel_c, k_alt * travel_c), off_n), tol, scale, where,
                   "distance along the face (" + motion + ")");
          // The O(h) band, at a and at a_alt.
          const ld lo = std::min({travel_e, travel_d, k_alt * travel_e, k_alt * travel_d});
          const ld hi = std::max({travel_e, travel_d, k_alt * travel_e, k_alt * travel_d});
          band.see(std::max(std::max({lo - along, along - hi, ld(0)}), off_n), tol, scale, where,
                   "distance along the face (" + motion + ")");
          const ld vscale = a * t + gn * h;
          other.see(outside(dot(p.v, td), a * t, a_alt * t), budget * eps * sd * vscale, vscale, where,
                    "speed along the face (" + motion + ")");
          const ld wscale = (std::abs(alpha) * t + gn * h / b.reach) * b.reach;
          other.see(outside(p.w, alpha * t, alpha_alt * t) * b.reach, budget * eps * sd * wscale, wscale, where,
                    "spin (" + motion + ")");
          if (!b.circle) {
            const ld ascale = std::abs(p0.a) + 1;
            other.see(std::abs(angle_diff(p.a, p0.a)) * b.reach, settle + budget * eps * sd * ascale * b.reach,
                      ascale * b.reach, where, "tilt (" + motion + ")");
          }
        }
        if (judged == 0) {
          out.add(not_judged("ramp", "the body leaves the face before the first frame"));
        } else {
          out.series.ramp = std::move(run);
          const worst* pos = disc.margin <= 0 ? &disc : cont.margin <= 0 ? &cont : &band;
          field_verdict f = pos->margin >= other.margin ? pos->verdict("ramp", eps) : other.verdict("ramp", eps);
          f.detail += "; the body " + motion + " (a = " + format_eps(static_cast<double>(a)) + ")";
          out.add(f);
        }
      }
    }
  }

  // ---- bounce (D-SCENERUN-12) ---------------------------------------------------------
  {
    std::optional<std::string> why;
    const v2 up = gn > 0 ? (-1 / gn) * g : v2{};
    if (!ground) why = "not one dynamic body on one static polygon";
    else if (gn == 0) why = "no gravity";
    else if (!every_step) why = "record_every > 1: each impact step is needed";
    else if (frames[0][*mover].w != 0 || std::abs(cross(frames[0][*mover].v, up)) > 0) why = "the body does not fall straight";
    else if (!face_with_normal(*ground, up)) why = "no level face";
    else if (depth(bodies[0], frames[0][0], bodies[1], frames[0][1]) > 0) why = "the body starts overlapping";
    else if (!bodies[*mover].circle && !face_with_normal(*mover, -1 * up)) why = "the body does not land on a face";
    else {
      const auto [fa, fb] = *face_with_normal(*ground, up);
      const v2 side{up.y, -up.x};
      const ld lo = std::min(dot(fa, side), dot(fb, side)), hi = std::max(dot(fa, side), dot(fb, side));
      const std::vector<v2> w = bodies[*mover].circle ? std::vector<v2>{frames[0][*mover].c} : world(bodies[*mover], frames[0][*mover]);
      const ld r = bodies[*mover].circle ? bodies[*mover].radius : 0;
      for (const v2& p : w)
        if (dot(p, side) - r < lo || dot(p, side) + r > hi) why = "the body does not fall onto the face";
      if (!why && dot(frames[0][*mover].c, up) < dot(fa, up)) why = "the body is below the face";
    }
    if (why) {
      out.add(not_judged("bounce", *why));
    } else {
      for (std::size_t k = 0; k <= K; ++k)
        out.series.bounce_gap.push_back(-depth(bodies[*ground], frames[0][*ground], bodies[*mover], frames[k][*mover]));
      out.series.bounce_e = rest_e;
      const v2 up = (-1 / gn) * g;
      worst wo;
      std::size_t impacts = 0;
      for (std::size_t k = 1; k <= K; ++k) {
        const pose &p0 = frames[k - 1][*mover], &p = frames[k][*mover];
        const v2 vstar = p0.v + h * g;
        const ld scale = norm(vstar) + gn * h;
        const ld tol = budget * eps * scale;
        if (norm(p.v - vstar) + std::abs(p.w - p0.w) * bodies[*mover].reach <= tol) continue;  // no impulse
        ++impacts;
        const ld us = dot(vstar, up);  // < 0: approaching the face
        const ld expected = us < 0 ? (-us > threshold ? -rest_e * us : ld(0)) : us;
        const ld err = std::max({std::abs(dot(p.v, up) - expected), std::abs(cross(up, p.v) - cross(up, vstar)),
                                 std::abs(p.w) * bodies[*mover].reach});
        wo.see(err, tol, scale,
               at(k) + " (u* " + format_eps(static_cast<double>(us)) + ", u' " +
                   format_eps(static_cast<double>(dot(p.v, up))) + ", expected " + format_eps(static_cast<double>(expected)) + ")",
               "normal velocity after the impact against -e u*");
      }
      if (impacts == 0)
        out.add(not_judged("bounce", "no impact in the frames"));
      else
        out.add(wo.verdict("bounce", eps));
    }
  }

  // ---- head_on (D-SCENERUN-13) ----------------------------------------------------------
  {
    std::optional<std::string> why;
    v2 d;
    if (n != 2 || fixed != 0 || !bodies[0].circle || !bodies[1].circle) why = "not two dynamic discs";
    else if (gn != 0) why = "gravity";
    else {
      d = frames[0][1].c - frames[0][0].c;
      d = (1 / norm(d)) * d;
      for (std::size_t i = 0; i < 2; ++i)
        if (frames[0][i].w != 0 || std::abs(cross(frames[0][i].v, d)) > 1e-12L * norm(frames[0][i].v))
          why = "a disc does not move along the centre line";
      if (!why && dot(frames[0][0].v - frames[0][1].v, d) <= 0) why = "the discs do not approach";
      if (!why && depth(bodies[0], frames[0][0], bodies[1], frames[0][1]) > 0) why = "the discs start overlapping";
    }
    std::optional<std::size_t> hit;
    if (!why) {
      for (std::size_t k = 1; k <= K && !hit; ++k)
        for (std::size_t i = 0; i < 2; ++i)
          if (norm(frames[k][i].v - frames[0][i].v) > budget * eps * (norm(frames[0][0].v) + norm(frames[0][1].v))) hit = k;
      if (!hit) why = "no impact in the frames";
    }
    if (why) {
      out.add(not_judged("head_on", *why));
    } else {
      const ld m1 = bodies[0].mass, m2 = bodies[1].mass;
      const ld u = dot(frames[0][0].v - frames[0][1].v, d);
      const ld e_used = u > threshold ? rest_e : 0;
      const v2 v1 = frames[0][0].v - ((1 + e_used) * m2 / (m1 + m2) * u) * d;
      const v2 v2_ = frames[0][1].v + ((1 + e_used) * m1 / (m1 + m2) * u) * d;
      const ld scale = norm(frames[0][0].v) + norm(frames[0][1].v);
      worst wo;
      const pose &a1 = frames[*hit][0], &a2 = frames[*hit][1];
      wo.see(std::max({norm(a1.v - v1), norm(a2.v - v2_), std::abs(a1.w) * bodies[0].reach, std::abs(a2.w) * bodies[1].reach}),
             budget * eps * scale, scale, at(*hit), "velocities after the impact");
      out.add(wo.verdict("head_on", eps));
    }
  }

  return out;
}

}  // namespace rigidref::judge

#include "rigidref/detail/fp_end.hpp"
