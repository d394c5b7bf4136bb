// Reference sequential-impulse contact solver (projected Gauss–Seidel) for
// several bodies and contacts, after seed 004 (自作2D物理エンジンを作った話,
// snippet 4 of the articles' snippets-edo.js). derivations/solver.md
// derives every step (anchors D-SOLVER-n).
//
//   bodies    mass, inertia, position, velocity, angular velocity (rad/s;
//             the seed stores degrees/s and converts at both ends, D-SOLVER-1),
//             friction and restitution coefficients (per body, as the seed);
//             is_static: inverse mass and inverse inertia 0.
//   contacts  the two body indices, the world contact point (r_a, r_b are
//             taken from the bodies' positions), the unit normal from A to B,
//             the penetration depth (>= 0 overlapping), and, for warm
//             starting, the accumulated impulses of the previous step.
//   params    iterations, Baumgarte factor beta (seed: contactBias), slop, dt,
//             warm start on/off.
//
// Conventions (D-SOLVER-1, D-SOLVER-2): u = (velocity of B's contact point)
// - (A's), tangent t = (-n.y, n.x); the impulse on B is lambda_n n + lambda_t t
// and on A its negative (the seed writes the impulse on A with u_seed = -u,
// so its accumulated normal impulse is <= 0 and ours is >= 0).
// Combined coefficients (D-SOLVER-3): mu = sqrt(mu_A mu_B), e = (e_A + e_B)/2.
// Velocity target (D-SOLVER-4): b = -e min(u_n0, 0) + (beta/dt) max(0, depth - slop).
// Iteration (D-SOLVER-5): per contact, normal then tangent, accumulated
// impulses clamped: lambda_n >= 0, |lambda_t| <= mu lambda_n.
// Fixed points are the solutions of the contact complementarity problem
// (D-SOLVER-6); the residual reported is the natural-map residual (D-SOLVER-7).
//
// One contact (D-SOLVER-10): the coupled impulse of impulse.hpp is a fixed
// point of this iteration; one sweep is the article's decoupled impulse
// only when K_nt = 0; from a cold start the sweeps converge to the coupled
// impulse when K_nt^2 < K_nn K_tt (stick) and mu |K_nt| < K_nn (slide).
//
// Numerics: the iteration runs in T (no exact evaluation-and-round here, unlike
// impulse.hpp): every step is a rational function of the inputs (given unit
// normals), so T = exact runs it without rounding and the exact tests check
// the invariants that hold at every iteration (D-SOLVER-8). The only square
// root is mu = sqrt(mu_A mu_B); in exact it must be a perfect square.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/detail/hot.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
struct solver_body {
  T mass{1};
  T inertia{1};
  vec2<T> position{};
  vec2<T> velocity{};
  T angular_velocity{0};  // radians per second (D-SOLVER-1)
  T friction{0};          // mu_i >= 0; a contact uses sqrt(mu_A mu_B) (D-SOLVER-3)
  T restitution{0};       // e_i in [0, 1]; a contact uses (e_A + e_B) / 2
  bool is_static = false;
};

template <class T>
struct solver_contact {
  std::size_t body_a = 0;
  std::size_t body_b = 0;
  vec2<T> point{};     // world contact point
  vec2<T> normal{};    // unit normal, from A to B
  T penetration{0};    // overlap depth >= 0
  T normal_impulse{0};   // warm start: accumulated lambda_n of the previous step (>= 0)
  T tangent_impulse{0};  // warm start: accumulated lambda_t of the previous step
};

template <class T>
struct solver_params {
  int iterations = 10;
  T beta{0};             // Baumgarte factor (seed: ns.contactBias), in [0, 1]
  T slop{0};             // allowed penetration, >= 0
  T dt{T(1) / T(64)};    // time step > 0
  bool warm_start = false;
  bool record_residuals = false;  // residual after every sweep into residual_history
  // Row order within a sweep (D-STEP-10): each contact's normal row then its
  // tangent row (the seed's); or every tangent row, then every normal row
  // (Box2D's b2ContactSolver). Both have the same fixed points; after a
  // fixed number of sweeps they differ.
  enum class order { normal_then_tangent, tangents_first };
  order row_order = order::normal_then_tangent;
};

template <class T>
struct solver_contact_state {
  T normal_impulse{0};   // accumulated lambda_n >= 0
  T tangent_impulse{0};  // accumulated lambda_t, |lambda_t| <= mu lambda_n
  T friction{0};         // mu = sqrt(mu_A mu_B)
  T restitution{0};      // e = (e_A + e_B) / 2
  T target{0};           // b of D-SOLVER-4: lambda_n > 0 only if u_n' = b
  T un_before{0};        // u_n of the velocities given (before any impulse)
  T ut_before{0};
};

template <class T>
struct solver_result {
  std::vector<vec2<T>> velocity;
  std::vector<T> angular_velocity;
  std::vector<solver_contact_state<T>> contacts;
  std::vector<T> residual_history;  // D-SOLVER-7 after each sweep (if record_residuals)
  T residual{0};                    // D-SOLVER-7 at the end
};

// D-SOLVER-7: the complementarity report of a state (velocities + impulses).
// residual = max over contacts and rows of |K_rr (lambda_r - P(lambda_r - w_r / K_rr))|,
// the velocity change one more projected step would make; 0 exactly at a
// solution. The other fields are the conditions one by one.
template <class T>
struct complementarity_report {
  T residual{0};
  T min_normal_impulse{0};      // >= 0 always (clamped)
  T min_gap{0};                 // min over contacts of w_n = u_n' - b (>= 0 at a solution)
  T max_product{0};             // max |lambda_n w_n| (0 at a solution)
  T max_cone_excess{0};         // max |lambda_t| - mu lambda_n (<= 0 always after a sweep)
  T max_stick_slip{0};          // max |u_t'| over contacts strictly inside the cone
  T max_slide_along{0};         // max lambda_t u_t' over contacts on the cone edge (<= 0 at a solution)
};

namespace detail {

// The sweeps' innermost helpers, inline for -Og builds (tools/test.sh):
// GCC at -Og inlines only what is declared so, and keeps even some of those
// as calls, hence RIGIDREF_HOT for the row helpers. row_dot and row_cross
// are vec2.hpp's dot and cross, the same operations in the same order;
// declaring those inline instead would change how GCC inlines the
// collision queries at -O3, which the benchmarks time.
template <class T>
RIGIDREF_HOT T row_dot(const vec2<T>& a, const vec2<T>& b) {
  return a.x * b.x + a.y * b.y;
}
template <class T>
RIGIDREF_HOT T row_cross(const vec2<T>& a, const vec2<T>& b) {
  return a.x * b.y - a.y * b.x;
}
template <class T>
inline T solver_max(const T& a, const T& b) { return a < b ? b : a; }
template <class T>
inline T solver_min(const T& a, const T& b) { return a < b ? a : b; }
template <class T>
inline T solver_abs(const T& a) { return a < 0 ? T(-a) : a; }

// sqrt for the combined friction: in exact only perfect squares (D-SOLVER-3).
template <class T>
T solver_sqrt(const T& x) {
  if constexpr (is_exact_v<T>) {
    const big_int p = numerator(x), q = denominator(x);
    const big_int sp = sqrt(p), sq = sqrt(q);
    if (sp * sp != p || sq * sq != q)
      throw unsupported("solver: sqrt(mu_A mu_B) = sqrt(" + brief_text(x) +
                        ") is irrational; in exact give frictions whose product is a square");
    return T(sp) / T(sq);
  } else {
    using std::sqrt;
    return sqrt(x);
  }
}

template <class T>
struct solver_row_data {
  std::size_t a, b;
  T ima, iia, imb, iib;  // inverse masses and inertias (0: static)
  vec2<T> ra, rb, n, t;
  T knn, ktt;
};

template <class T>
void check_finite(const T& x, const std::string& what) {
  if (!is_finite(x)) throw invalid_input("solver: " + what + " must be finite");
}

// check_finite with the label built only for the message: solver_prepare
// runs once per step of a scene, and formatting "body i." for every field of
// every body was a large part of it.
template <class T, class Label>
void check_finite_lazy(const T& x, const Label& who, const char* field) {
  if (!is_finite(x)) check_finite(x, who() + field);
}

// D-SOLVER-11: |n.x^2 + n.y^2 - 1| <= 8 eps_T proved in double for T = float
// or double (false: not proved, the caller evaluates it exactly). The
// products, the sum and the subtraction of 1 each round once:
//   |d - (|n|^2 - 1)| <= 2.01u s + 1.01u |d|,
// s and d the computed sum and difference, u = 2^-53; 3.01u (s + |d|) also
// covers the roundings of the test itself (an underflow in the products
// matters only for s < 2^-1000, where |d| > 1/2 refuses anyway).
template <class T>
bool unit_normal_proved(const T& x, const T& y) {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
    const double dx = x, dy = y;  // exact
    const double s = dx * dx + dy * dy;
    const double d = s - 1;
    const double ad = d < 0 ? -d : d;
    const double bound = 3.01 * 0x1p-53 * (s + ad);
    const double limit = 8 * static_cast<double>(std::numeric_limits<T>::epsilon());
    return ad + bound <= limit;  // false for NaN
  } else {
    return false;
  }
}

// The contact point velocity difference u = (v_b + w_b x r_b) - (v_a + w_a x r_a).
template <class T>
RIGIDREF_HOT vec2<T> solver_relative(const solver_row_data<T>& c, const std::vector<vec2<T>>& v, const std::vector<T>& w) {
  const vec2<T> pa{T(v[c.a].x - w[c.a] * c.ra.y), T(v[c.a].y + w[c.a] * c.ra.x)};
  const vec2<T> pb{T(v[c.b].x - w[c.b] * c.rb.y), T(v[c.b].y + w[c.b] * c.rb.x)};
  return pb - pa;
}

// Apply P to B and -P to A (D-SOLVER-2).
template <class T>
RIGIDREF_HOT void solver_apply(const solver_row_data<T>& c, const vec2<T>& P, std::vector<vec2<T>>& v, std::vector<T>& w) {
  v[c.a] = v[c.a] - c.ima * P;
  w[c.a] = T(w[c.a] - c.iia * row_cross(c.ra, P));
  v[c.b] = v[c.b] + c.imb * P;
  w[c.b] = T(w[c.b] + c.iib * row_cross(c.rb, P));
}

// K(a, b) = sum a.b / m + (r x a)(r x b) / I (D-IMPULSE-2), the diagonal entries.
template <class T>
inline T solver_k(const solver_row_data<T>& c, const vec2<T>& a) {
  const T ca = row_cross(c.ra, a), cb = row_cross(c.rb, a);
  return T((c.ima + c.imb) * row_dot(a, a) + c.iia * ca * ca + c.iib * cb * cb);
}

template <class T>
std::vector<solver_row_data<T>> solver_prepare(const std::vector<solver_body<T>>& bodies,
                                               const std::vector<solver_contact<T>>& contacts) {
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    const solver_body<T>& b = bodies[i];
    const auto who = [i] { return "body " + std::to_string(i) + "."; };
    check_finite_lazy(b.position.x, who, "position");
    check_finite_lazy(b.position.y, who, "position");
    check_finite_lazy(b.velocity.x, who, "velocity");
    check_finite_lazy(b.velocity.y, who, "velocity");
    check_finite_lazy(b.angular_velocity, who, "angular_velocity");
    check_finite_lazy(b.friction, who, "friction");
    check_finite_lazy(b.restitution, who, "restitution");
    if (b.friction < 0) throw invalid_input("solver: " + who() + "friction must be >= 0");
    if (b.restitution < 0 || b.restitution > 1) throw invalid_input("solver: " + who() + "restitution must be in [0, 1]");
    if (!b.is_static) {
      check_finite_lazy(b.mass, who, "mass");
      check_finite_lazy(b.inertia, who, "inertia");
      if (b.mass <= 0) throw invalid_input("solver: " + who() + "mass must be > 0 (use is_static for infinite mass)");
      if (b.inertia <= 0) throw invalid_input("solver: " + who() + "inertia must be > 0 (use is_static)");
    }
  }
  std::vector<solver_row_data<T>> rows;
  for (std::size_t k = 0; k < contacts.size(); ++k) {
    const solver_contact<T>& c = contacts[k];
    const auto who = [k] { return "contact " + std::to_string(k) + "."; };
    if (c.body_a >= bodies.size() || c.body_b >= bodies.size())
      throw invalid_input("solver: " + who() + "body index out of range");
    if (c.body_a == c.body_b) throw invalid_input("solver: " + who() + "body_a == body_b");
    const solver_body<T>& A = bodies[c.body_a];
    const solver_body<T>& B = bodies[c.body_b];
    if (A.is_static && B.is_static) throw invalid_input("solver: " + who() + "both bodies are static");
    check_finite_lazy(c.point.x, who, "point");
    check_finite_lazy(c.point.y, who, "point");
    check_finite_lazy(c.normal.x, who, "normal");
    check_finite_lazy(c.normal.y, who, "normal");
    check_finite_lazy(c.penetration, who, "penetration");
    check_finite_lazy(c.normal_impulse, who, "normal_impulse");
    check_finite_lazy(c.tangent_impulse, who, "tangent_impulse");
    if (c.penetration < 0) throw invalid_input("solver: " + who() + "penetration must be >= 0");
    if (c.normal_impulse < 0) throw invalid_input("solver: " + who() + "normal_impulse (warm start) must be >= 0");
    // Unit normal: exactly in exact, within 8 eps in a binary type (as
    // D-IMPULSE-9); in float and double first proved in double (D-SOLVER-11).
    if (!unit_normal_proved(c.normal.x, c.normal.y)) {
      const exact nn = to_exact(c.normal.x) * to_exact(c.normal.x) + to_exact(c.normal.y) * to_exact(c.normal.y);
      if constexpr (is_exact_v<T>) {
        if (nn != 1) throw invalid_input("solver: " + who() + "normal must be a unit vector (exactly, in exact)");
      } else {
        const exact d = nn - 1;
        if ((d < 0 ? exact(-d) : d) > 8 * to_exact(epsilon<T>()))
          throw invalid_input("solver: " + who() + "normal must be a unit vector");
      }
    }
    solver_row_data<T> r;
    r.a = c.body_a;
    r.b = c.body_b;
    r.ima = A.is_static ? T(0) : T(T(1) / A.mass);
    r.iia = A.is_static ? T(0) : T(T(1) / A.inertia);
    r.imb = B.is_static ? T(0) : T(T(1) / B.mass);
    r.iib = B.is_static ? T(0) : T(T(1) / B.inertia);
    r.ra = c.point - A.position;
    r.rb = c.point - B.position;
    r.n = c.normal;
    r.t = {T(-c.normal.y), c.normal.x};
    r.knn = solver_k(r, r.n);
    r.ktt = solver_k(r, r.t);
    rows.push_back(r);
  }
  return rows;
}

template <class T>
complementarity_report<T> solver_report(const std::vector<solver_row_data<T>>& rows,
                                        const std::vector<solver_contact_state<T>>& st,
                                        const std::vector<vec2<T>>& v, const std::vector<T>& w) {
  complementarity_report<T> rep;
  bool first = true;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const solver_row_data<T>& c = rows[k];
    const solver_contact_state<T>& s = st[k];
    const vec2<T> u = solver_relative(c, v, w);
    const T wn = T(dot(c.n, u) - s.target);
    const T wt = dot(c.t, u);
    const T bound = T(s.friction * s.normal_impulse);
    // Natural map (D-SOLVER-7): K (lambda - P(lambda - w/K)).
    const T rn = solver_abs(T(c.knn * s.normal_impulse - solver_max(T(c.knn * s.normal_impulse - wn), T(0))));
    const T lt_star = T(s.tangent_impulse - wt / c.ktt);
    const T lt_proj = solver_min(solver_max(lt_star, T(-bound)), bound);
    const T rt = solver_abs(T(c.ktt * (s.tangent_impulse - lt_proj)));
    const T prod = solver_abs(T(s.normal_impulse * wn));
    const T excess = T(solver_abs(s.tangent_impulse) - bound);
    if (first) {
      rep.residual = solver_max(rn, rt);
      rep.min_normal_impulse = s.normal_impulse;
      rep.min_gap = wn;
      rep.max_product = prod;
      rep.max_cone_excess = excess;
      first = false;
    } else {
      rep.residual = solver_max(rep.residual, solver_max(rn, rt));
      rep.min_normal_impulse = solver_min(rep.min_normal_impulse, s.normal_impulse);
      rep.min_gap = solver_min(rep.min_gap, wn);
      rep.max_product = solver_max(rep.max_product, prod);
      rep.max_cone_excess = solver_max(rep.max_cone_excess, excess);
    }
    if (solver_abs(s.tangent_impulse) < bound) rep.max_stick_slip = solver_max(rep.max_stick_slip, solver_abs(wt));
    else if (bound > 0) rep.max_slide_along = solver_max(rep.max_slide_along, T(s.tangent_impulse * wt));
  }
  return rep;
}

}  // namespace detail

// Each contact's own coefficients, for scenes that set them per contact
// (walls against bodies, say) instead of combining the bodies' (D-SOLVER-3).
template <class T>
struct contact_coefficients {
  T friction{0};
  T restitution{0};
};

namespace detail {
// solve_contacts on the rows `prepared` already built from bodies and
// contacts (nullptr: build them here, after the parameters are checked).
template <class T>
solver_result<T> solve_contacts_on(const std::vector<solver_body<T>>& bodies, const std::vector<solver_contact<T>>& contacts,
                                   const std::vector<contact_coefficients<T>>& coefficients,
                                   const T& restitution_threshold, const solver_params<T>& params,
                                   const std::vector<solver_row_data<T>>* prepared) {
  if (params.iterations < 1) throw invalid_input("solver: iterations must be >= 1");
  detail::check_finite(params.beta, "beta");
  detail::check_finite(params.slop, "slop");
  detail::check_finite(params.dt, "dt");
  if (params.beta < 0 || params.beta > 1) throw invalid_input("solver: beta must be in [0, 1]");
  if (params.slop < 0) throw invalid_input("solver: slop must be >= 0");
  if (params.dt <= 0) throw invalid_input("solver: dt must be > 0");
  if (coefficients.size() != contacts.size())
    throw invalid_input("solver: one friction and one restitution per contact");
  detail::check_finite(restitution_threshold, "restitution threshold");
  if (restitution_threshold < 0) throw invalid_input("solver: the restitution threshold must be >= 0");
  for (const auto& k : coefficients) {
    detail::check_finite(k.friction, "friction");
    detail::check_finite(k.restitution, "restitution");
    if (k.friction < 0 || k.restitution < 0 || k.restitution > 1)
      throw invalid_input("solver: friction must be >= 0 and restitution in [0, 1]");
  }
  std::vector<detail::solver_row_data<T>> own;
  if (!prepared) own = detail::solver_prepare(bodies, contacts);
  const std::vector<detail::solver_row_data<T>>& rows = prepared ? *prepared : own;

  solver_result<T> out;
  for (const solver_body<T>& b : bodies) {
    out.velocity.push_back(b.velocity);
    out.angular_velocity.push_back(b.angular_velocity);
  }
  std::vector<vec2<T>>& v = out.velocity;
  std::vector<T>& w = out.angular_velocity;

  // Set-up, on the velocities given (before any impulse): D-SOLVER-3, D-SOLVER-4.
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const detail::solver_row_data<T>& c = rows[k];
    solver_contact_state<T> s;
    s.friction = coefficients[k].friction;
    s.restitution = coefficients[k].restitution;
    const vec2<T> u = detail::solver_relative(c, v, w);
    s.un_before = dot(c.n, u);
    s.ut_before = dot(c.t, u);
    // Below the threshold the contact is inelastic; threshold 0 keeps u_n as it is.
    const T approach = restitution_threshold > 0 && !(s.un_before < -restitution_threshold) ? T(0) : s.un_before;
    const T depth_excess = detail::solver_max(T(contacts[k].penetration - params.slop), T(0));
    s.target = T(-s.restitution * detail::solver_min(approach, T(0)) + params.beta * depth_excess / params.dt);
    out.contacts.push_back(s);
  }

  // Warm start (D-SOLVER-9): apply last step's accumulated impulses first.
  if (params.warm_start) {
    for (std::size_t k = 0; k < rows.size(); ++k) {
      solver_contact_state<T>& s = out.contacts[k];
      s.normal_impulse = contacts[k].normal_impulse;
      s.tangent_impulse = contacts[k].tangent_impulse;
      detail::solver_apply(rows[k], s.normal_impulse * rows[k].n + s.tangent_impulse * rows[k].t, v, w);
    }
  }

  // Projected Gauss–Seidel on accumulated impulses (D-SOLVER-5).
  const auto normal_row = [&](std::size_t k) {  // lambda_n <- max(0, lambda_n - (u_n - b) / K_nn)
    const detail::solver_row_data<T>& c = rows[k];
    solver_contact_state<T>& s = out.contacts[k];
    const T un = detail::row_dot(c.n, detail::solver_relative(c, v, w));
    const T candidate = T(s.normal_impulse - (un - s.target) / c.knn);
    const T next = detail::solver_max(candidate, T(0));
    const T delta = T(next - s.normal_impulse);
    s.normal_impulse = next;
    detail::solver_apply(c, delta * c.n, v, w);
  };
  const auto tangent_row = [&](std::size_t k) {  // lambda_t <- clamp(lambda_t - u_t / K_tt, -mu lambda_n, mu lambda_n)
    const detail::solver_row_data<T>& c = rows[k];
    solver_contact_state<T>& s = out.contacts[k];
    const T bound = T(s.friction * s.normal_impulse);
    const T ut = detail::row_dot(c.t, detail::solver_relative(c, v, w));
    const T candidate = T(s.tangent_impulse - ut / c.ktt);
    const T next = detail::solver_min(detail::solver_max(candidate, T(-bound)), bound);
    const T delta = T(next - s.tangent_impulse);
    s.tangent_impulse = next;
    detail::solver_apply(c, delta * c.t, v, w);
  };
  using row_order = typename solver_params<T>::order;
  for (int it = 0; it < params.iterations; ++it) {
    if (params.row_order == row_order::tangents_first) {
      for (std::size_t k = 0; k < rows.size(); ++k) tangent_row(k);
      for (std::size_t k = 0; k < rows.size(); ++k) normal_row(k);
    } else {
      for (std::size_t k = 0; k < rows.size(); ++k) {
        normal_row(k);
        tangent_row(k);
      }
    }
    if (params.record_residuals) out.residual_history.push_back(detail::solver_report(rows, out.contacts, v, w).residual);
  }
  out.residual = detail::solver_report(rows, out.contacts, v, w).residual;
  return out;
}
}  // namespace detail

// One full solve: set-up (D-SOLVER-3, D-SOLVER-4), optional warm start
// (D-SOLVER-9), `iterations` projected Gauss–Seidel sweeps (D-SOLVER-5), with
// the friction and restitution of each contact given. Restitution acts only
// on contacts approaching faster than `restitution_threshold` (0: always, the
// seed's rule; derivations/scene_reference.md D-SCENEREF-3 for a threshold).
template <class T>
solver_result<T> solve_contacts(const std::vector<solver_body<T>>& bodies, const std::vector<solver_contact<T>>& contacts,
                                const std::vector<contact_coefficients<T>>& coefficients,
                                const T& restitution_threshold, const solver_params<T>& params) {
  return detail::solve_contacts_on<T>(bodies, contacts, coefficients, restitution_threshold, params, nullptr);
}

// The seed's rule (D-SOLVER-3): each contact's friction is sqrt(mu_A mu_B),
// its restitution (e_A + e_B) / 2, restitution at any approach speed.
template <class T>
solver_result<T> solve_contacts(const std::vector<solver_body<T>>& bodies, const std::vector<solver_contact<T>>& contacts,
                                const solver_params<T>& params) {
  // Prepared first: it validates the bodies and contacts before sqrt sees
  // them, and the solve reuses its rows.
  const std::vector<detail::solver_row_data<T>> rows = detail::solver_prepare(bodies, contacts);
  std::vector<contact_coefficients<T>> k;
  for (const solver_contact<T>& c : contacts) {
    const solver_body<T>& A = bodies[c.body_a];
    const solver_body<T>& B = bodies[c.body_b];
    k.push_back({detail::solver_sqrt(T(A.friction * B.friction)), T((A.restitution + B.restitution) / 2)});
  }
  return detail::solve_contacts_on(bodies, contacts, k, T(0), params, &rows);
}

// The complementarity conditions of a result, one by one (D-SOLVER-7), on the
// problem it was solved from. Evaluated in T; call it with T = exact on exact
// copies to get the exact residual of rounded outputs.
template <class T>
complementarity_report<T> solver_complementarity(const std::vector<solver_body<T>>& bodies,
                                                 const std::vector<solver_contact<T>>& contacts,
                                                 const solver_result<T>& result) {
  const std::vector<detail::solver_row_data<T>> rows = detail::solver_prepare(bodies, contacts);
  return detail::solver_report(rows, result.contacts, result.velocity, result.angular_velocity);
}

// The dual objective f(lambda) = 1/2 |Delta v|_M^2 + sum lambda_n (u_n0 - b) + lambda_t u_t0,
// (D-SOLVER-6): Gauss–Seidel minimises it coordinate by coordinate, so with
// mu = 0 it never increases from sweep to sweep.
template <class T>
T solver_dual_objective(const std::vector<solver_body<T>>& bodies, const solver_result<T>& result) {
  T f{0};
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].is_static) continue;
    const vec2<T> dv = result.velocity[i] - bodies[i].velocity;
    const T dw = T(result.angular_velocity[i] - bodies[i].angular_velocity);
    f = T(f + (bodies[i].mass * dot(dv, dv) + bodies[i].inertia * dw * dw) / 2);
  }
  for (const solver_contact_state<T>& s : result.contacts)
    f = T(f + s.normal_impulse * (s.un_before - s.target) + s.tangent_impulse * s.ut_before);
  return f;
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
