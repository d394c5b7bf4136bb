// Scenarios and measurements for the sequential-impulse solver (solver.hpp,
// derivations/solver.md) shared by tests/solver_test.cpp and the report:
// seeded random box stacks with 2–5 contacts, the complementarity residual
// after N sweeps (D-SOLVER-7), evaluated exactly on the rounded outputs;
// and the measured effect of each quirk of the BodyForce.js port
// (D-BODYFORCE-1..8) on the scenes of tests/body_force_test.cpp.
#pragma once

#include "rigidref/articles/body_force.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/solver.hpp"
#include "rigidref/verify/random.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace rigidref::verify {

// A stack described by small integers (so RapidCheck can shrink it). Box i
// (1-based, body index i; body 0 is the static ground) has half-width w_i,
// half-height 1, centre (x_i / 4, 2i - 1), mass m_i, inertia m_i (w_i^2 + 1) / 3
// (a uniform box, D-MASS formulas), and rests on box i-1 (or the ground)
// through `contacts` points on its bottom face y = 2(i - 1). Three or more
// points on one face with one normal make the contact matrix singular and
// PGS crawl (D-SOLVER-8): random_stack gives a level of 3 contacts distinct
// normals 40-80 degrees apart (normal_step 6), a body resting in a V seat.
struct stack_level {
  int contacts = 2;   // 1..4
  int half_width = 1; // 1..4
  int x_quarters = 0; // centre x = x_quarters / 4
  int mass = 1;       // 1..8
  int vx = 0, vy = 0, w = 0;  // velocity (vx, vy) / 8, angular velocity w / 8
  int restitution = 0;        // e_i = restitution / 4, 0..4
  int tilt = 0;               // normal = (2 s, 1 - s^2) / (1 + s^2), s = tilt / 16
  int depth = 0;              // penetration depth / 64
  int normal_step = 0;        // contact j uses tilt + normal_step * j (0: one normal per level)
};
struct stack_spec {
  std::vector<stack_level> levels;  // 1..3
  int friction = 0;                 // mu = friction / 4 for every body (sqrt(mu mu) = mu, exact)
  int beta_quarters = 0;            // beta = beta_quarters / 4
};

struct solver_problem {
  std::vector<solver_body<exact>> bodies;
  std::vector<solver_contact<exact>> contacts;
  solver_params<exact> params;
};

inline solver_problem build_stack(const stack_spec& s) {
  solver_problem p;
  solver_body<exact> ground;
  ground.is_static = true;
  ground.friction = exact(s.friction, 4);
  p.bodies.push_back(ground);
  for (std::size_t i = 0; i < s.levels.size(); ++i) {
    const stack_level& L = s.levels[i];
    const int level = static_cast<int>(i) + 1;
    solver_body<exact> b;
    b.mass = L.mass;
    b.inertia = exact(L.mass) * (L.half_width * L.half_width + 1) / 3;
    b.position = {exact(L.x_quarters, 4), exact(2 * level - 1)};
    b.velocity = {exact(L.vx, 8), exact(L.vy, 8)};
    b.angular_velocity = exact(L.w, 8);
    b.friction = exact(s.friction, 4);
    b.restitution = exact(L.restitution, 4);
    p.bodies.push_back(b);
    for (int j = 0; j < L.contacts; ++j) {
      const exact t(L.tilt + L.normal_step * j, 16);
      const vec2<exact> n{2 * t / (1 + t * t), (1 - t * t) / (1 + t * t)};
      solver_contact<exact> c;
      c.body_a = i;  // the body below (0 = ground)
      c.body_b = i + 1;
      // Spread over the bottom face: x = x_c + w (2j - (k-1)) / k.
      c.point = {b.position.x + exact(L.half_width * (2 * j - (L.contacts - 1)), L.contacts),
                 exact(2 * (level - 1))};
      c.normal = n;
      c.penetration = exact(L.depth, 64);
      p.contacts.push_back(c);
    }
  }
  p.params.iterations = 1;
  p.params.beta = exact(s.beta_quarters, 4);
  p.params.slop = exact(1, 128);
  p.params.dt = exact(1, 64);
  return p;
}

inline stack_spec random_stack(rng& g) {
  stack_spec s;
  int total = 0;
  do {
    s.levels.clear();
    total = 0;
    const int n = uniform_int(g, 1, 3);
    for (int i = 0; i < n; ++i) {
      stack_level L;
      L.contacts = uniform_int(g, 1, 3);
      L.half_width = uniform_int(g, 1, 4);
      L.x_quarters = uniform_int(g, -4, 4);
      L.mass = uniform_int(g, 1, 8);
      L.vx = uniform_int(g, -16, 16);
      L.vy = uniform_int(g, -32, 8);
      L.w = uniform_int(g, -8, 8);
      L.restitution = uniform_int(g, 0, 4);
      L.tilt = uniform_int(g, -3, 3);
      L.depth = uniform_int(g, 0, 4);
      L.normal_step = L.contacts == 3 ? 6 : 0;
      total += L.contacts;
      s.levels.push_back(L);
    }
  } while (total < 2 || total > 5);
  s.friction = uniform_int(g, 0, 4);
  s.beta_quarters = uniform_int(g, 0, 1);
  return s;
}

// The problem in T (every input rounded once) and back in exact: what T sees.
template <class T>
std::vector<solver_body<T>> bodies_to(const std::vector<solver_body<exact>>& b) {
  std::vector<solver_body<T>> out;
  for (const auto& x : b)
    out.push_back({round_to<T>(x.mass), round_to<T>(x.inertia), {round_to<T>(x.position.x), round_to<T>(x.position.y)},
                   {round_to<T>(x.velocity.x), round_to<T>(x.velocity.y)}, round_to<T>(x.angular_velocity),
                   round_to<T>(x.friction), round_to<T>(x.restitution), x.is_static});
  return out;
}
template <class T>
std::vector<solver_contact<T>> contacts_to(const std::vector<solver_contact<exact>>& c) {
  std::vector<solver_contact<T>> out;
  for (const auto& x : c)
    out.push_back({x.body_a, x.body_b, {round_to<T>(x.point.x), round_to<T>(x.point.y)},
                   {round_to<T>(x.normal.x), round_to<T>(x.normal.y)}, round_to<T>(x.penetration),
                   round_to<T>(x.normal_impulse), round_to<T>(x.tangent_impulse)});
  return out;
}
template <class T>
solver_params<T> params_to(const solver_params<exact>& p) {
  solver_params<T> out;
  out.iterations = p.iterations;
  out.beta = round_to<T>(p.beta);
  out.slop = round_to<T>(p.slop);
  out.dt = round_to<T>(p.dt);
  out.warm_start = p.warm_start;
  out.record_residuals = p.record_residuals;
  return out;
}
template <class T>
solver_problem as_seen_by(const solver_problem& p) {
  solver_problem s;
  for (const auto& b : bodies_to<T>(p.bodies))
    s.bodies.push_back({to_exact(b.mass), to_exact(b.inertia), {to_exact(b.position.x), to_exact(b.position.y)},
                        {to_exact(b.velocity.x), to_exact(b.velocity.y)}, to_exact(b.angular_velocity),
                        to_exact(b.friction), to_exact(b.restitution), b.is_static});
  for (const auto& c : contacts_to<T>(p.contacts))
    s.contacts.push_back({c.body_a, c.body_b, {to_exact(c.point.x), to_exact(c.point.y)},
                          {to_exact(c.normal.x), to_exact(c.normal.y)}, to_exact(c.penetration),
                          to_exact(c.normal_impulse), to_exact(c.tangent_impulse)});
  s.params = p.params;
  s.params.beta = to_exact(round_to<T>(p.params.beta));
  s.params.slop = to_exact(round_to<T>(p.params.slop));
  s.params.dt = to_exact(round_to<T>(p.params.dt));
  return s;
}

// A result in T as exact numbers, with the set-up (mu, e, target b, u before)
// recomputed exactly from the problem T saw, so that the exact
// complementarity report measures T's outputs against T's inputs. The normal
// T saw is not exactly unit: the check is skipped by evaluating the rows
// directly (rigidref::detail::solver_report), which needs no |n| = 1 (D-IMPULSE-2).
// rigidref::detail is spelled in full: plain `detail::` here would mean
// rigidref::verify::detail once a verify header has declared it.
template <class T>
complementarity_report<exact> exact_report(const solver_problem& seen, const solver_result<T>& r) {
  std::vector<rigidref::detail::solver_row_data<exact>> rows;
  std::vector<solver_contact_state<exact>> st;
  std::vector<vec2<exact>> v0, v;
  std::vector<exact> w0, w;
  for (std::size_t i = 0; i < seen.bodies.size(); ++i) {
    v0.push_back(seen.bodies[i].velocity);
    w0.push_back(seen.bodies[i].angular_velocity);
    v.push_back({to_exact(r.velocity[i].x), to_exact(r.velocity[i].y)});
    w.push_back(to_exact(r.angular_velocity[i]));
  }
  for (std::size_t k = 0; k < seen.contacts.size(); ++k) {
    const auto& c = seen.contacts[k];
    const auto& A = seen.bodies[c.body_a];
    const auto& B = seen.bodies[c.body_b];
    rigidref::detail::solver_row_data<exact> d;
    d.a = c.body_a;
    d.b = c.body_b;
    d.ima = A.is_static ? exact(0) : exact(1 / A.mass);
    d.iia = A.is_static ? exact(0) : exact(1 / A.inertia);
    d.imb = B.is_static ? exact(0) : exact(1 / B.mass);
    d.iib = B.is_static ? exact(0) : exact(1 / B.inertia);
    d.ra = c.point - A.position;
    d.rb = c.point - B.position;
    d.n = c.normal;
    d.t = {exact(-c.normal.y), c.normal.x};
    d.knn = rigidref::detail::solver_k(d, d.n);
    d.ktt = rigidref::detail::solver_k(d, d.t);
    rows.push_back(d);
    solver_contact_state<exact> s;
    s.friction = to_exact(round_to<T>(rigidref::detail::solver_sqrt(exact(A.friction * B.friction))));
    s.restitution = (A.restitution + B.restitution) / 2;
    const vec2<exact> u = rigidref::detail::solver_relative(d, v0, w0);
    s.un_before = dot(d.n, u);
    s.ut_before = dot(d.t, u);
    const exact ex = c.penetration - seen.params.slop;
    s.target = -s.restitution * (s.un_before < 0 ? s.un_before : exact(0)) +
               seen.params.beta * (ex > 0 ? ex : exact(0)) / seen.params.dt;
    s.normal_impulse = to_exact(r.contacts[k].normal_impulse);
    s.tangent_impulse = to_exact(r.contacts[k].tangent_impulse);
    st.push_back(s);
  }
  return rigidref::detail::solver_report(rows, st, v, w);
}

// Scale of a problem: the largest |velocity target| or contact-point speed
// before, which sets the size of every velocity the solver produces.
inline exact velocity_scale(const solver_problem& p) {
  exact s = 0;
  const auto mag = [](const exact& x) { return x < 0 ? exact(-x) : x; };
  for (const auto& b : p.bodies) s = std::max({s, mag(b.velocity.x), mag(b.velocity.y), mag(b.angular_velocity) * 8});
  s = std::max(s, mag(p.params.beta) * exact(4, 64) / p.params.dt);
  return s == 0 ? exact(1) : s;
}

// The velocity change the accumulated impulses stand for: max over contacts
// of lambda_n (1/m_a + 1/m_b + |r_a|^2/I_a + |r_b|^2/I_b) (>= K_nn lambda_n).
// Rounding errors of applying lambda to the velocities scale with it, so it
// joins velocity_scale in tolerances when internal impulses are large.
template <class T>
exact impulse_velocity_scale(const solver_problem& seen, const solver_result<T>& r) {
  exact s = 0;
  for (std::size_t k = 0; k < seen.contacts.size(); ++k) {
    const auto& c = seen.contacts[k];
    exact w = 0;
    for (std::size_t i : {c.body_a, c.body_b}) {
      const auto& b = seen.bodies[i];
      if (b.is_static) continue;
      const vec2<exact> rr = c.point - b.position;
      w += 1 / b.mass + dot(rr, rr) / b.inertia;
    }
    const exact l = to_exact(r.contacts[k].normal_impulse);
    const exact t = to_exact(r.contacts[k].tangent_impulse);
    s = std::max(s, w * ((l < 0 ? exact(-l) : l) + (t < 0 ? exact(-t) : t)));
  }
  return s;
}

struct solver_convergence_stats {
  int cases = 0;
  int iterations = 0;
  double max_residual = 0;           // max over cases of the exact D-SOLVER-7 residual, absolute
  double max_relative_residual = 0;  // divided by velocity_scale
  double max_cone_excess = 0;
  double min_gap = 0;                // most negative u_n' - b
  int nonmonotone_cases = 0;         // residual_history increased somewhere
};

// N seeded random stacks (2–5 contacts), solved in T with `iterations`
// sweeps; the residual of T's outputs evaluated exactly.
// friction: -1 keeps the random friction, otherwise every body gets friction/4.
template <class T>
solver_convergence_stats stack_convergence(std::uint64_t seed, int cases, int iterations, int friction = -1) {
  rng g(seed);
  solver_convergence_stats st;
  st.iterations = iterations;
  st.min_gap = 0;
  for (int k = 0; k < cases; ++k) {
    stack_spec spec = random_stack(g);
    if (friction >= 0) spec.friction = friction;
    solver_problem p = build_stack(spec);
    p.params.iterations = iterations;
    p.params.record_residuals = true;
    const solver_problem seen = as_seen_by<T>(p);
    const solver_result<T> r = solve_contacts<T>(bodies_to<T>(p.bodies), contacts_to<T>(p.contacts), params_to<T>(p.params));
    const complementarity_report<exact> rep = exact_report(seen, r);
    const double res = static_cast<double>(rep.residual);
    st.max_residual = std::max(st.max_residual, res);
    st.max_relative_residual = std::max(st.max_relative_residual, static_cast<double>(rep.residual / velocity_scale(seen)));
    st.max_cone_excess = std::max(st.max_cone_excess, static_cast<double>(rep.max_cone_excess));
    st.min_gap = std::min(st.min_gap, static_cast<double>(rep.min_gap));
    for (std::size_t i = 1; i < r.residual_history.size(); ++i)
      if (r.residual_history[i] > r.residual_history[i - 1]) {
        ++st.nonmonotone_cases;
        break;
      }
    ++st.cases;
  }
  return st;
}


// ---- the BodyForce.js port's quirks, measured (derivations/solver.md) ----------

struct body_force_quirk_effects {
  // D-BODYFORCE-1: triangle hitting the floor at (1/2, -2) m/s, edge contact.
  double wall_angular_impulse = 0;        // c r x P (kg m^2/s)
  double wall_rigid_angular_impulse = 0;  // r x P
  double wall_dL_contact = 0;             // change of angular momentum about the contact point
  // D-BODYFORCE-3: flat 1 kg box at rest on the floor.
  int rest_cycle_frames = 0;              // period of the velocity cycle (0: none found in 30 frames)
  double rest_max_speed = 0;              // m/s
  double rest_max_sink = 0;               // m, below the resting height, after integration
  double rest_energy_drift_per_second = 0;  // over 3 s (whole cycles)
  // D-BODYFORCE-2: kite resting on one vertex.
  double corner_spin_ratio_vs_pivot = 0;  // article's dw / pivoting body's dw in the first frame
  // D-BODYFORCE-4
  double tilted_wall_remaining_fraction = 0;  // penetration left / before, normal (-3/5, 4/5)
  double vertical_wall_energy_gain = 0;       // J per frame, 1 kg lifted by 0.1 m
  // D-BODYFORCE-6
  double gravity_deficit_per_hit = 0;     // kg m/s, 1 kg + 2 kg pair
  double pushout_overlap_left = 0;        // m, of 0.2 m
  double pushout_com_shift = 0;           // m, 1 kg + 2 kg
  // D-BODYFORCE-7
  double offset_contact_dL = 0;           // kg m^2/s, contact points 1/2 apart along t
  // Simulation (double): the kite released on its corner falls onto a side;
  // the largest speed of its centre over the fifth second (it never rests).
  double settled_corner_max_speed = 0;
};

inline body_force_quirk_effects body_force_quirks() {
  using E = exact;
  using namespace rigidref::articles;
  const bf_constants<E> K{};
  body_force_quirk_effects q;
  const std::vector<bf_wall<E>> floor{{{0, 0}, {0, 1}}};
  const auto sq = [](const vec2<E>& pos, const E& m) {
    return make_bf_body<E>({{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}, E(2, 3), pos, E(0), m);
  };
  {
    bf_body<E> b = make_bf_body<E>({{0, 0}, {3, 0}, {0, 3}}, E(1), {0, E(99, 100)}, E(0), E(1));
    b.vel = {E(1, 2), E(-2)};
    begin_frame(b, K);
    project_walls(b, floor, K);
    const vec2<E> P = (b.force - vec2<E>{0, -b.mass * K.g}) * K.dt;
    const E A = b.torque * K.dt;
    q.wall_angular_impulse = static_cast<double>(A);
    q.wall_rigid_angular_impulse = static_cast<double>(cross(b.r, P));
    q.wall_dL_contact = static_cast<double>(A - cross(b.r, P));
  }
  {
    bf_constants<E> k = K;
    k.normalize = zero_normalize::keep_zero;
    bf_body<E> b = sq({0, 1}, E(1));
    const auto energy = [&](const bf_body<E>& x) {
      return x.mass * dot(x.vel, x.vel) / 2 + x.inertia * x.ang_vel * x.ang_vel / 2 + x.mass * k.g * x.pos.y;
    };
    const E e0 = energy(b);
    std::vector<E> vy;
    E max_speed = 0, max_sink = 0;
    for (int f = 0; f < 150; ++f) {
      begin_frame(b, k);
      project_walls(b, floor, k);
      integrate(b, k);
      vy.push_back(b.vel.y);
      if (-b.vel.y > max_speed) max_speed = -b.vel.y;
      if (1 - b.pos.y > max_sink) max_sink = 1 - b.pos.y;
    }
    for (int p = 1; p <= 10 && q.rest_cycle_frames == 0; ++p) {
      bool periodic = true;
      for (std::size_t i = p; i < 30; ++i) periodic = periodic && vy[i] == vy[i - p];
      if (periodic) q.rest_cycle_frames = p;
    }
    q.rest_max_speed = static_cast<double>(max_speed);
    q.rest_max_sink = static_cast<double>(max_sink);
    q.rest_energy_drift_per_second = static_cast<double>((energy(b) - e0) / 3);
  }
  {
    bf_body<E> b = make_bf_body<E>({{1, 0}, {3, 2}, {1, 4}, {0, 2}}, E(1), {0, 2}, E(0), E(1));
    begin_frame(b, K);
    project_walls(b, floor, K);
    const vec2<E> r = b.r;
    integrate(b, K);
    const E pivot = b.mass * K.g * r.x * K.dt / (b.inertia + b.mass * dot(r, r));
    q.corner_spin_ratio_vs_pivot = static_cast<double>(b.ang_vel / pivot);
  }
  {
    const std::vector<bf_wall<E>> wall{{{0, 0}, {E(-3, 5), E(4, 5)}}};
    bf_body<E> b = sq({0, E(13, 8)}, E(1));
    begin_frame(b, K);
    const auto tr = project_walls(b, wall, K);
    E after = 0;
    bool first = true;
    for (const auto& v : world_shape(b)) {
      const E d = wall[0].dist(v);
      if (first || d < after) after = d;
      first = false;
    }
    q.tilted_wall_remaining_fraction = static_cast<double>(after / tr[0].dist_min);
    const std::vector<bf_wall<E>> side{{{0, 0}, {1, 0}}};
    bf_body<E> s = sq({E(9, 10), E(5)}, E(1));
    s.vel = {E(-5), 0};
    begin_frame(s, K);
    const auto ts = project_walls(s, side, K);
    q.vertical_wall_energy_gain = static_cast<double>(s.mass * K.g * ts[0].y_correction);
  }
  const auto scene = [&](const E& offset, bf_body<E>& a, bf_body<E>& b, bf_contact<E>& c) {
    const E pen(1, 5);
    a = sq({0, 0}, E(1));
    b = sq({E(1, 2), 2 - pen}, E(2));
    b.vel = {1, -1};
    c.n = {0, 1};
    c.a_contact = {E(1, 4), 1};
    c.b_contact = {E(1, 4) + offset, 1 - pen};
    c.penetration = pen;
  };
  {
    bf_body<E> a, b;
    bf_contact<E> c;
    scene(E(0), a, b, c);
    const vec2<E> p0 = a.mass * a.vel + b.mass * b.vel, a0 = a.pos, b0 = b.pos;
    begin_frame(a, K);
    begin_frame(b, K);
    project_collision(a, b, c, K);
    q.pushout_overlap_left = static_cast<double>(c.penetration - dot(c.n, (b.pos - b0) - (a.pos - a0)));
    q.pushout_com_shift = static_cast<double>(dot(c.n, a.mass * (a.pos - a0) + b.mass * (b.pos - b0)) / (a.mass + b.mass));
    integrate(a, K);
    integrate(b, K);
    const vec2<E> p1 = a.mass * a.vel + b.mass * b.vel;
    q.gravity_deficit_per_hit = static_cast<double>((p1.y - p0.y) + (a.mass + b.mass) * K.g * K.dt);
  }
  {
    bf_body<E> a, b;
    bf_contact<E> c;
    scene(E(1, 2), a, b, c);
    begin_frame(a, K);
    begin_frame(b, K);
    const vec2<E> xa = a.pos, xb = b.pos, va = a.vel, vb = b.vel;
    const E wa = a.ang_vel, wb = b.ang_vel;
    project_collision(a, b, c, K);
    integrate(a, K);
    integrate(b, K);
    q.offset_contact_dL = static_cast<double>(a.mass * cross(xa, a.vel - va) + a.inertia * (a.ang_vel - wa) +
                                              b.mass * cross(xb, b.vel - vb) + b.inertia * (b.ang_vel - wb));
  }
  {
    bf_constants<double> k{};
    k.normalize = zero_normalize::keep_zero;
    bf_body<double> b = make_bf_body<double>({{1, 0}, {3, 2}, {1, 4}, {0, 2}}, 1.0, {0, 2}, 0.0, 1.0);
    const std::vector<bf_wall<double>> fl{{{0, 0}, {0, 1}}};
    for (int f = 0; f < 250; ++f) {
      begin_frame(b, k);
      project_walls(b, fl, k);
      integrate(b, k);
      if (f >= 200) q.settled_corner_max_speed = std::max(q.settled_corner_max_speed, std::sqrt(dot(b.vel, b.vel)));
    }
  }
  return q;
}

}  // namespace rigidref::verify
