// Scene properties shared by tests/scene_reference_test.cpp and the report
// (derivations/scene_reference.md):
//  - the momentum identities of one step (D-SCENEREF-7), evaluated exactly on
//    the rounded states, for the reference model and for the article model
//    (articles/scene_force.hpp), where the force resets break them;
//  - the kinematic identity x' = x + v' dt (the article's position
//    corrections break it);
//  - the discrete events of a step (contact set, feature ids, clamps; for the
//    article: wall counts, gates, sap/GJK hits) and the first step where two
//    precisions disagree on them (D-SCENEREF-9).
#pragma once

#include "rigidref/articles/scene_force.hpp"
#include "rigidref/articles/scene_shape_matching.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/scene_reference.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace rigidref::verify {

namespace detail {

inline double to_d(const exact& q) { return static_cast<double>(q); }
inline exact ex_abs(const exact& q) { return q < 0 ? exact(-q) : q; }
template <class T>
exact ex(const T& x) { return to_exact(x); }
template <class T>
exact ex_norm1(const vec2<T>& v) { return ex_abs(ex(v.x)) + ex_abs(ex(v.y)); }

}  // namespace detail

// The residuals of D-SCENEREF-7 for one step, exact on the rounded values.
// linear = |Delta p - sum m g dt - sum wall impulses|_inf; angular = the same
// for the angular momentum about the origin (gravity's and the wall impulses'
// moments about the origin). scale: the magnitudes the rounding errors are
// relative to (D-SCENEREF-7): sum m (|v| + |v'| + g dt) + sum (|l_n| + |l_t|),
// and the same times the lever arms for the angular one.
struct momentum_residual {
  double linear = 0, angular = 0;
  double linear_scale = 0, angular_scale = 0;
  double position = 0;  // max |x' - x - v' dt|_inf and |theta' - theta - w' dt| (kinematic identity)
  double position_scale = 0;
};

template <class T>
momentum_residual reference_momentum_residual(const scene_snapshot<T>& before, const scene_snapshot<T>& after,
                                              const scene_step_record<T>& rec, const T& g, const T& dt) {
  using detail::ex, detail::ex_abs, detail::ex_norm1, detail::to_d;
  const exact G = ex(g), DT = ex(dt);
  exact px = 0, py = 0, L = 0, sl = 0, sa = 0, pos = 0, spos = 0;
  for (std::size_t i = 0; i < before.bodies.size(); ++i) {
    const auto& a = before.bodies[i];
    const auto& b = after.bodies[i];
    const exact m = ex(a.mass), I = ex(a.inertia);
    const exact dvx = ex(b.vel.x) - ex(a.vel.x), dvy = ex(b.vel.y) - ex(a.vel.y);
    px += m * dvx;
    py += m * dvy + m * G * DT;  // minus gravity's impulse (0, -m g dt)
    const exact x = ex(a.pos.x), y = ex(a.pos.y);
    const exact L1 = I * ex(b.ang_vel) + m * (ex(b.pos.x) * ex(b.vel.y) - ex(b.pos.y) * ex(b.vel.x));
    const exact L0 = I * ex(a.ang_vel) + m * (x * ex(a.vel.y) - y * ex(a.vel.x));
    L += L1 - L0 - x * (-m * G * DT);  // minus gravity's moment x cross (0, -m g dt)
    const exact speeds = ex_norm1(a.vel) + ex_norm1(b.vel) + G * DT;
    sl += m * speeds;
    sa += I * (ex_abs(ex(a.ang_vel)) + ex_abs(ex(b.ang_vel))) + m * (ex_norm1(a.pos) + ex_norm1(b.pos)) * speeds;
    for (const exact& d : {ex(b.pos.x) - x - ex(b.vel.x) * DT, ex(b.pos.y) - y - ex(b.vel.y) * DT,
                          ex(b.ang) - ex(a.ang) - ex(b.ang_vel) * DT})
      pos = std::max(pos, ex_abs(d));
    spos = std::max({spos, ex_norm1(b.pos), ex_abs(ex(b.ang))});
  }
  for (const auto& c : rec.contacts) {
    const exact ln = ex(c.normal_impulse), lt = ex(c.tangent_impulse);
    const exact nx = ex(c.normal.x), ny = ex(c.normal.y);
    const exact jx = ln * nx - lt * ny, jy = ln * ny + lt * nx;  // lambda_n n + lambda_t (-n.y, n.x)
    const exact mag = ex_abs(ln) + ex_abs(lt);
    sl += mag;
    sa += mag * ex_norm1(c.point);
    if (!c.id.wall) continue;  // pair impulses cancel (D-SCENEREF-7)
    px -= jx;
    py -= jy;
    L -= ex(c.point.x) * jy - ex(c.point.y) * jx;
  }
  momentum_residual r;
  r.linear = to_d(std::max(ex_abs(px), ex_abs(py)));
  r.angular = to_d(ex_abs(L));
  r.linear_scale = to_d(sl);
  r.angular_scale = to_d(sa);
  r.position = to_d(pos);
  r.position_scale = to_d(spos);
  return r;
}

// The energy balance of one step (D-SCENEREF-8), exact on the rounded values:
//   E' - E = W + g dt P_y - 1/2 sum m g^2 dt^2,
// W = the solver's work sum lambda (u_before + u_after)/2 over the contacts'
// rows (from the record), P_y = the wall impulses' vertical sum (pair
// impulses cancel). residual = |left - right|; scale = sum |lambda| (|u_b| +
// |u_a|) + sum m (|v|^2 + |v'|^2 + g dt (|v_y| + |v'_y|)) + the potential terms.
struct energy_balance {
  double delta_e = 0;       // E' - E
  double solver_work = 0;   // W
  double lift = 0;          // g dt P_y
  double gravity_loss = 0;  // 1/2 sum m g^2 dt^2
  double residual = 0, scale = 0;
  double bias_work = 0;     // sum lambda_n b_bias (the record's bias_work_bound)
};

template <class T>
energy_balance reference_energy_balance(const scene_snapshot<T>& before, const scene_snapshot<T>& after,
                                        const scene_step_record<T>& rec, const T& g, const T& dt) {
  using detail::ex, detail::ex_abs, detail::ex_norm1, detail::to_d;
  const exact G = ex(g), DT = ex(dt);
  exact de = 0, loss = 0, scale = 0, py = 0, work = 0;
  for (std::size_t i = 0; i < before.bodies.size(); ++i) {
    const auto& a = before.bodies[i];
    const auto& b = after.bodies[i];
    const exact m = ex(a.mass), I = ex(a.inertia);
    auto energy = [&](const scene_body_state<T>& s) {
      const exact vx = ex(s.vel.x), vy = ex(s.vel.y), w = ex(s.ang_vel);
      return m * (vx * vx + vy * vy) / 2 + I * w * w / 2 + m * G * ex(s.pos.y);
    };
    de += energy(b) - energy(a);
    loss += m * G * G * DT * DT / 2;
    scale += m * (ex_norm1(a.vel) * ex_norm1(a.vel) + ex_norm1(b.vel) * ex_norm1(b.vel)) +
             I * (ex(a.ang_vel) * ex(a.ang_vel) + ex(b.ang_vel) * ex(b.ang_vel)) +
             m * G * (ex_abs(ex(a.pos.y)) + ex_abs(ex(b.pos.y)));
  }
  for (const auto& c : rec.contacts) {
    const exact ln = ex(c.normal_impulse), lt = ex(c.tangent_impulse);
    work += ln * (ex(c.un_before) + ex(c.un_after)) / 2 + lt * (ex(c.ut_before) + ex(c.ut_after)) / 2;
    scale += (ex_abs(ln) + ex_abs(lt)) * (ex_abs(ex(c.un_before)) + ex_abs(ex(c.un_after)) + ex_abs(ex(c.ut_before)) +
                                          ex_abs(ex(c.ut_after)));
    if (c.id.wall) py += ln * ex(c.normal.y) + lt * ex(c.normal.x);  // (lambda_n n + lambda_t (-n.y, n.x)).y
  }
  energy_balance r;
  r.delta_e = to_d(de);
  r.solver_work = to_d(work);
  r.lift = to_d(G * DT * py);
  r.gravity_loss = to_d(loss);
  r.residual = to_d(ex_abs(de - (work + G * DT * py - loss)));
  r.scale = to_d(scale);
  r.bias_work = static_cast<double>(rec.bias_work_bound);
  return r;
}

// One step of the article model, with what the momentum identity expects:
// gravity plus the wall impulses projectWalls computed (force after
// begin_frame + projectWalls, times dt), against the momentum change that
// happened. simulate() runs once on `s`.
struct article_momentum_step {
  int step = 0;
  double expected_x = 0, expected_y = 0;  // sum F_walls dt (gravity + wall impulses)
  double actual_x = 0, actual_y = 0;      // sum m (v' - v)
  double violation = 0;                   // |actual - expected|_inf
  double position = 0;                    // max |x' - x - v' dt|_inf over bodies (y corrections, push-outs)
  bool pair_hit = false;                  // projectCollision ran its impulse this step
};

template <class T>
article_momentum_step article_momentum(articles::force_scene<T>& s) {
  using detail::ex, detail::ex_abs, detail::ex_norm1, detail::to_d;
  std::vector<articles::bf_body<T>> before = s.bodies;
  exact ex_x = 0, ex_y = 0;
  for (auto b : s.bodies) {  // phase 1 of simulate() on a copy (D-SCENE-2)
    articles::begin_frame(b, s.k);
    articles::project_walls_with(b, s.walls, s.libm, s.k);
    ex_x += ex(b.force.x) * ex(s.k.dt);
    ex_y += ex(b.force.y) * ex(s.k.dt);
  }
  articles::simulate(s);
  article_momentum_step r;
  r.step = s.step_count;
  exact ax = 0, ay = 0, pos = 0;
  for (std::size_t i = 0; i < s.bodies.size(); ++i) {
    const exact m = ex(s.bodies[i].mass);
    ax += m * (ex(s.bodies[i].vel.x) - ex(before[i].vel.x));
    ay += m * (ex(s.bodies[i].vel.y) - ex(before[i].vel.y));
    const exact DT = ex(s.k.dt);
    pos = std::max({pos, ex_abs(ex(s.bodies[i].pos.x) - ex(before[i].pos.x) - ex(s.bodies[i].vel.x) * DT),
                    ex_abs(ex(s.bodies[i].pos.y) - ex(before[i].pos.y) - ex(s.bodies[i].vel.y) * DT)});
  }
  for (const auto& c : s.last_gjk) r.pair_hit = r.pair_hit || c.hit;
  r.expected_x = to_d(ex_x);
  r.expected_y = to_d(ex_y);
  r.actual_x = to_d(ax);
  r.actual_y = to_d(ay);
  r.violation = to_d(std::max(ex_abs(ax - ex_x), ex_abs(ay - ex_y)));
  r.position = to_d(pos);
  return r;
}

// ---- discrete events (D-SCENEREF-9) -----------------------------------------

// Reference model: every contact id (body, wall or other body, feature ids)
// with its solver outcome: normal impulse active (lambda_n > 0), friction on
// the cone edge (|lambda_t| = mu lambda_n > 0), restitution applied, bias
// applied; and the broad-phase pairs.
template <class T>
std::string event_signature(const scene_step_record<T>& rec) {
  std::ostringstream o;
  for (const auto& p : rec.broad_pairs) o << "pair(" << p.first << "," << p.second << ") ";
  for (const auto& c : rec.contacts) {
    const auto f = [](const contact_feature& x) {
      return std::to_string(x.polygon) + (x.type == feature_type::vertex ? "v" : "f") + std::to_string(x.index);
    };
    o << (c.id.wall ? "W" : "B") << c.id.body << "-" << c.id.other << ":" << f(c.id.feature_a) << "/"
      << f(c.id.feature_b);
    const T bound = T(c.friction * c.normal_impulse);
    const bool edge = c.normal_impulse > 0 && (c.tangent_impulse == bound || c.tangent_impulse == -bound);
    o << "[" << (c.normal_impulse > 0 ? "n" : "-") << (edge ? "s" : "-") << (c.bounce ? "e" : "-")
      << (c.biased ? "b" : "-") << "] ";
  }
  return o.str();
}

// Article model: per body and wall the penetrating-vertex count, the gate
// (impulse or the 0.5 gravity torque), stick/slide and the y correction; per
// projectCollision call (one per sap pair) the GJK hit, the supportEdge
// sizes and stick/slide.
template <class T>
std::string event_signature(const articles::force_scene<T>& s) {
  std::ostringstream o;
  for (std::size_t i = 0; i < s.last_walls.size(); ++i)
    for (std::size_t w = 0; w < s.last_walls[i].size(); ++w) {
      const auto& t = s.last_walls[i][w];
      if (t.count == 0 && !(t.dist_min < 0)) continue;
      o << "W" << i << "-" << w << ":" << t.count << (t.impulse ? (t.stick ? "is" : "id") : "g")
        << (t.dist_min < 0 ? "y" : "") << " ";
    }
  for (const auto& c : s.last_gjk) {
    o << "sap(" << c.a << "," << c.b << ")";
    if (c.hit) o << ":hit" << c.a_points << c.b_points << (c.impulse.stick ? "s" : "d");
    o << " ";
  }
  return o.str();
}

// The first step at which a low-precision run (Lo) and a high-precision run
// (Hi) of the same scene disagree on the discrete events, and how far the
// states are apart at every step (max over bodies of |pos|, |ang|, |vel|,
// |ang_vel| differences, absolute, SI units).
struct divergence_report {
  int first_event_step = 0;  // 0: no disagreement within the steps run
  std::string low_events, high_events;
  double max_diff_before = 0;  // over the steps before first_event_step (all steps if none)
  std::vector<double> diff;    // diff[k - 1] after step k
  int steps_run = 0;
  std::string stopped;  // an exception that ended one run early
};

namespace detail {

template <class Lo, class Hi>
double body_diff(const vec2<Lo>& p1, const Lo& a1, const vec2<Lo>& v1, const Lo& w1, const vec2<Hi>& p2, const Hi& a2,
                 const vec2<Hi>& v2, const Hi& w2) {
  // The difference is taken in Hi (every Lo value converts exactly), then rounded to double.
  auto d = [](const Lo& x, const Hi& y) {
    const Hi t = Hi(static_cast<long double>(x)) - y;
    return std::fabs(static_cast<double>(t));
  };
  return std::max({d(p1.x, p2.x), d(p1.y, p2.y), d(a1, a2), d(v1.x, v2.x), d(v1.y, v2.y), d(w1, w2)});
}

// The largest body_diff over the bodies of two snapshots of one scene.
template <class Lo, class Hi>
double snapshot_diff(const scene_snapshot<Lo>& a, const scene_snapshot<Hi>& b) {
  double m = 0;
  for (std::size_t i = 0; i < a.bodies.size() && i < b.bodies.size(); ++i) {
    const auto& x = a.bodies[i];
    const auto& y = b.bodies[i];
    m = std::max(m, body_diff(x.pos, x.ang, x.vel, x.ang_vel, y.pos, y.ang, y.vel, y.ang_vel));
  }
  return m;
}

template <class Step, class Sig, class Diff>
divergence_report run_divergence(int steps, Step&& step_both, Sig&& signatures, Diff&& diff) {
  divergence_report r;
  for (int k = 1; k <= steps; ++k) {
    try {
      step_both();
    } catch (const std::exception& e) {
      r.stopped = "step " + std::to_string(k) + ": " + e.what();
      break;
    }
    r.steps_run = k;
    const double dk = diff();
    r.diff.push_back(dk);
    if (r.first_event_step == 0) {
      const auto [lo, hi] = signatures();
      if (lo != hi) {
        r.first_event_step = k;
        r.low_events = lo;
        r.high_events = hi;
      } else {
        r.max_diff_before = std::max(r.max_diff_before, dk);
      }
    }
  }
  return r;
}

}  // namespace detail

template <class Lo, class Hi>
divergence_report reference_divergence(int steps) {
  reference_world<Lo> lo = make_force_reference_scene<Lo>();
  reference_world<Hi> hi = make_force_reference_scene<Hi>();
  return detail::run_divergence(
      steps, [&] { step(lo); step(hi); },
      [&] { return std::make_pair(event_signature(lo.last), event_signature(hi.last)); },
      [&] { return detail::snapshot_diff(snapshot(lo), snapshot(hi)); });
}

template <class Lo, class Hi>
divergence_report article_divergence(int steps) {
  articles::force_scene<Lo> lo = articles::make_force_scene<Lo>();
  articles::force_scene<Hi> hi = articles::make_force_scene<Hi>();
  return detail::run_divergence(
      steps, [&] { articles::simulate(lo); articles::simulate(hi); },
      [&] { return std::make_pair(event_signature(lo), event_signature(hi)); },
      [&] { return detail::snapshot_diff(snapshot(lo), snapshot(hi)); });
}

// Shape-matching scene (both models): per relaxation round the wall moves
// (body, vertex, wall, projected onto it or not) and the projectCollision
// calls (pair, hit, supportEdge sizes).
template <class T>
std::string event_signature(const articles::shape_matching_scene<T>& s) {
  std::ostringstream o;
  for (const auto& h : s.last_walls)
    o << "W" << h.iter << ":" << h.body << "." << h.vertex << "-" << h.wall << (h.projected ? "p" : "") << " ";
  for (const auto& c : s.last_gjk) {
    o << "sap" << c.iter << "(" << c.a << "," << c.b << ")";
    if (c.hit) o << ":hit" << c.a_points << c.b_points;
    o << " ";
  }
  return o.str();
}

template <class Lo, class Hi>
divergence_report shape_matching_divergence(int steps, articles::shape_matching_model model) {
  auto lo = articles::make_shape_matching_scene<Lo>({}, model);
  auto hi = articles::make_shape_matching_scene<Hi>({}, model);
  return detail::run_divergence(
      steps, [&] { articles::world_step(lo); articles::world_step(hi); },
      [&] { return std::make_pair(event_signature(lo), event_signature(hi)); },
      [&] { return detail::snapshot_diff(snapshot(lo), snapshot(hi)); });
}

}  // namespace rigidref::verify
