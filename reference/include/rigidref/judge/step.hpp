// Judging one step.pair answer law by law (derivations/step.md D-STEP-9,
// D-STEP-10), exactly on the engine's values, each law with its own verdict:
//   linear_momentum   m1 v1' + m2 v2' = m1 v1 + m2 v2 (two dynamic bodies, g = 0)
//   angular_momentum  sum m c x v + I w about the origin, c the PRE-step
//                     centres of mass, v' the post-step velocities (g = 0)
//   restitution       u_n' = -e u_n at each active contact approaching faster
//                     than the allowance restitution_threshold
//   no_approach       u_n' >= 0 at every contact after the step
//   friction_cone     |jt| <= mu jn (and jn >= 0) wherever impulses are reported
//   energy            kinetic energy after <= before (v* = v + g h), where the
//                     model guarantees it: e = 0, or mu = 0 with one contact
//                     (Newton restitution with friction can gain energy,
//                     D-IMPULSE-11)
//   velocities        v', w' against the reference model
//   velocities_at_engine_contacts
//                     the same, the reference evaluated at the engine's own
//                     contact points and normals (D-DYNENG-3): detection
//                     and response judged apart. A diagnostic: reported,
//                     not part of the case's verdict.
// Which engine mechanisms break the momentum laws (position correction,
// impulses applied at different points) is D-DYNENG-1; how each engine
// applies restitution and friction, which the restitution and cone laws
// meet, is D-DYNENG-2 (derivations/engine_dynamics.md).
// Contact laws use the engine's own points and normals where it reports
// them (what its solver used), the reference's otherwise. Budgets: the
// rule of "step.pair" (eps of the engine) times the law's scale, plus, for
// an engine whose solver stops after k sweeps (allowance solver_iterations
// = k), the distance of the reference's own projected Gauss-Seidel after k
// sweeps from the exact solution (D-STEP-10).
#pragma once

#include "rigidref/judge/answer.hpp"
#include "rigidref/judge/measure.hpp"
#include "rigidref/judge/rules.hpp"
#include "rigidref/judge/verdict.hpp"
#include "rigidref/mass.hpp"
#include "rigidref/solver.hpp"
#include "rigidref/step_pair.hpp"

#include <boost/math/constants/constants.hpp>

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::judge {

struct step_body_case {
  bool is_circle = false;
  std::vector<exact_point> vertices;  // polygon: body frame, about the body origin
  exact radius = 0;                   // circle: centred on the body origin
  exact_point position;               // the body origin
  exact angle = 0;
  exact_point velocity;  // of the centre of mass
  exact angular_velocity = 0;
  exact density = 1;
  bool is_static = false;
};

struct step_case {
  step_body_case body1, body2;
  exact restitution = 0, friction = 0;
  exact dt = exact(1) / 60;
  exact_point gravity;
};

struct body_after_answer {
  point velocity;
  real angular_velocity;
};

// One entry of the engine's contacts: a point (with its own impulses) or an
// arbiter's points sharing one total impulse (Chipmunk).
struct step_contact_answer {
  std::vector<point> points;
  point normal;
  std::optional<real> jn, jt;
};

struct step_answer {
  std::optional<body_after_answer> body1_after, body2_after;
  std::optional<std::vector<step_contact_answer>> contacts;
};

// One contact as the restitution law sees it (for plots): the normal
// velocities before (v*) and after, rounded to double; judged: the approach
// beats the threshold, and then pass is the law's verdict at this point.
struct contact_velocities {
  double e = 0, un_before = 0, un_after = 0;
  bool judged = false, pass = true;
};

struct step_verdict : verdict {
  std::vector<contact_velocities> contacts;  // the contacts the laws used, in order
};

// A case's body in T, every number rounded once (step.pair's and
// scene.run's references and the judge's own geometry).
template <class T>
step_body<T> step_body_in(const step_body_case& b) {
  step_body<T> o;
  o.is_circle = b.is_circle;
  for (const exact_point& p : b.vertices) o.vertices.push_back({round_to<T>(p.x), round_to<T>(p.y)});
  o.radius = round_to<T>(b.radius);
  o.position = {round_to<T>(b.position.x), round_to<T>(b.position.y)};
  o.angle = round_to<T>(b.angle);
  o.velocity = {round_to<T>(b.velocity.x), round_to<T>(b.velocity.y)};
  o.angular_velocity = round_to<T>(b.angular_velocity);
  o.density = round_to<T>(b.density);
  o.is_static = b.is_static;
  return o;
}

// The reference step in 100 digits, optionally with a restitution threshold
// and at given contacts (step_pair.hpp).
inline step_pair_result<mp100> reference_step(const step_case& c, const exact& threshold = 0,
                                              const std::optional<std::vector<step_contact<mp100>>>& at = std::nullopt) {
  const auto body = [](const step_body_case& b) { return step_body_in<mp100>(b); };
  step_pair_request<mp100> q;
  q.body1 = body(c.body1);
  q.body2 = body(c.body2);
  q.restitution = round_to<mp100>(c.restitution);
  q.friction = round_to<mp100>(c.friction);
  q.dt = round_to<mp100>(c.dt);
  q.gravity = {round_to<mp100>(c.gravity.x), round_to<mp100>(c.gravity.y)};
  q.restitution_threshold = round_to<mp100>(threshold);
  q.given_contacts = at;
  return step_pair<mp100>(q);
}

namespace step_detail {

using Q = exact;
using V = exact_point;

inline Q norm1(const V& v) { return abs_of(v.x) + abs_of(v.y); }
inline V cross_wr(const Q& w, const V& r) { return {exact(-w * r.y), exact(w * r.x)}; }

// A body with its exact mass properties (D-STEP-2; a circle's pi and the
// rotation in 100 digits, then exactly: 1e-100 relative).
struct body {
  bool is_static = false;
  Q mass = 0, inertia = 0, w = 0;
  V center, v;  // pre-step centre of mass; velocity after gravity (v*)
};

inline body read_body(const step_body_case& o, const V& g_dt) {
  body b;
  b.is_static = o.is_static;
  V centroid{};
  if (o.is_circle) {
    b.mass = o.density * to_exact(boost::math::constants::pi<mp100>()) * o.radius * o.radius;
    b.inertia = b.mass * o.radius * o.radius / 2;
  } else {
    const mass_properties<Q> m =
        polygon_mass_from_density<Q>(std::span<const V>(o.vertices), o.density > 0 ? o.density : Q(1));
    b.mass = m.mass;
    b.inertia = m.inertia;
    centroid = m.centroid;
  }
  using std::cos;
  using std::sin;
  const mp100 angle = round_to<mp100>(o.angle);
  const Q c = to_exact(mp100(cos(angle))), s = to_exact(mp100(sin(angle)));
  b.center = o.position + V{exact(c * centroid.x - s * centroid.y), exact(s * centroid.x + c * centroid.y)};
  if (!b.is_static) {
    b.v = o.velocity + g_dt;
    b.w = o.angular_velocity;
  }
  return b;
}

struct after {
  V v;
  Q w = 0;
};

struct contact {
  V point, normal;
  std::optional<Q> jn, jt;
  bool per_point = true;  // jn, jt belong to this point alone
};

// How much the contact solve can magnify rounding in the velocities: with
// J the contact rows (a normal row per point of the reference, and a
// tangent row with friction) and M the bodies' masses, the velocities
// change by M^-1 J^T lambda with J v' = target on the active rows, and a
// perturbation of relative size u in J or the target moves v' (in the
// M-norm) by up to about u sigma_max / sigma_min of J M^-1/2, its largest
// over its smallest nonzero singular value: the square root of the
// condition number of K = J M^-1 J^T on its range. K is singular whenever
// there are more rows than the bodies' 3 or 6 degrees of freedom (two
// points with friction on one dynamic body), and the velocities are unique
// all the same, hence the range. The eigenvalues of K (at most 4 x 4) by
// cyclic Jacobi in 100 digits: a budget needs no exact value (D-STEP-9,
// law 7).
inline mp100 contact_conditioning(const std::vector<body>& b, const std::vector<step_contact<mp100>>& contacts,
                                  const Q& friction) {
  struct row {
    V point, dir;
  };
  std::vector<row> rows;
  for (const step_contact<mp100>& k : contacts) {
    const V p = exact_of(k.point), n = exact_of(k.normal);
    rows.push_back({p, n});
    if (friction > 0) rows.push_back({p, V{exact(-n.y), n.x}});
  }
  const std::size_t m = rows.size();
  if (m == 0) return mp100(1);
  // K_ij = sum over the dynamic bodies of d_i.d_j / m + c_i c_j / I, c_i =
  // r_i x d_i: each c_i and 1/m, 1/I once, and K_ji = K_ij (the same exact
  // value, so the same rounding), which is a third of the exact products.
  struct dynamic_body {
    Q inv_mass, inv_inertia;
    std::vector<Q> arm_cross;  // c_i of every row about this body's centre
  };
  std::vector<dynamic_body> dyn;
  for (const body& q : b) {
    if (q.is_static) continue;
    dynamic_body d{Q(1 / q.mass), Q(1 / q.inertia), {}};
    for (const row& r : rows) {
      const V ri = r.point - q.center;
      d.arm_cross.push_back(ri.x * r.dir.y - ri.y * r.dir.x);
    }
    dyn.push_back(std::move(d));
  }
  std::vector<std::vector<mp100>> K(m, std::vector<mp100>(m, mp100(0)));
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = i; j < m; ++j) {
      const Q dd = rows[i].dir.x * rows[j].dir.x + rows[i].dir.y * rows[j].dir.y;
      Q sum = 0;
      for (const dynamic_body& d : dyn) sum += dd * d.inv_mass + d.arm_cross[i] * d.arm_cross[j] * d.inv_inertia;
      K[i][j] = round_to<mp100>(sum);
      K[j][i] = K[i][j];
    }
  using std::abs;
  using std::sqrt;
  // A sweep is a function of K alone: once one leaves K as it was, every
  // later sweep would too, so stopping there gives the same K as the 100.
  std::vector<std::vector<mp100>> before;
  for (int sweep = 0; sweep < 100; ++sweep) {
    mp100 off = 0;
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = i + 1; j < m; ++j) off += abs(K[i][j]);
    if (off == 0) break;
    if (sweep > 0 && K == before) break;
    before = K;
    for (std::size_t p = 0; p < m; ++p)
      for (std::size_t q = p + 1; q < m; ++q) {
        if (K[p][q] == 0) continue;
        const mp100 theta = mp100((K[q][q] - K[p][p]) / (2 * K[p][q]));
        const mp100 t = mp100((theta >= 0 ? mp100(1) : mp100(-1)) / (abs(theta) + sqrt(mp100(theta * theta + 1))));
        const mp100 c = mp100(1 / sqrt(mp100(t * t + 1))), s = mp100(t * c);
        for (std::size_t k = 0; k < m; ++k) {  // K <- K G, then G^T K
          const mp100 kp = K[k][p], kq = K[k][q];
          K[k][p] = mp100(c * kp - s * kq);
          K[k][q] = mp100(s * kp + c * kq);
        }
        for (std::size_t k = 0; k < m; ++k) {
          const mp100 pk = K[p][k], qk = K[q][k];
          K[p][k] = mp100(c * pk - s * qk);
          K[q][k] = mp100(s * pk + c * qk);
        }
      }
  }
  mp100 largest = 0;
  for (std::size_t i = 0; i < m; ++i) largest = std::max(largest, mp100(abs(K[i][i])));
  if (largest == 0) return mp100(1);
  mp100 smallest = largest;
  for (std::size_t i = 0; i < m; ++i) {
    const mp100 e = abs(K[i][i]);
    if (e > mp100(largest * mp100("1e-40")) && e < smallest) smallest = e;  // the range: nonzero eigenvalues
  }
  return std::max(mp100(1), mp100(sqrt(mp100(largest / smallest))));
}

// The distance of a k-sweep projected Gauss-Seidel from the exact solution
// (D-STEP-10): the larger over the two Gauss-Seidel row orders engines use
// (solver_params order), as (velocity amount, contact amount) for the velocities law and the
// contact laws. One step from a fresh contact starts from zero impulses
// with or without warm starting.
struct sweep_distance {
  Q velocities = 0, contact = 0;
};

// `detected` is reference_step(c, threshold), which the judge has already
// computed: its contacts are the ones the k sweeps replay.
inline sweep_distance sweeps_short_of_exact(const step_case& c, const std::vector<body>& b, const Q& threshold,
                                            long long sweeps, const after exact_after[2], const Q& reach,
                                            const Q arm[2], const step_pair_result<mp100>& detected) {
  if (detected.contacts.empty() || (b[0].is_static && b[1].is_static)) return {};
  std::vector<solver_body<mp100>> sb(2);
  for (int i = 0; i < 2; ++i) {
    sb[i].mass = b[i].is_static ? mp100(1) : round_to<mp100>(b[i].mass);
    sb[i].inertia = b[i].is_static ? mp100(1) : round_to<mp100>(b[i].inertia);
    sb[i].position = {round_to<mp100>(b[i].center.x), round_to<mp100>(b[i].center.y)};
    sb[i].velocity = {round_to<mp100>(b[i].v.x), round_to<mp100>(b[i].v.y)};
    sb[i].angular_velocity = round_to<mp100>(b[i].w);
    sb[i].is_static = b[i].is_static;
  }
  std::vector<solver_contact<mp100>> sc;
  std::vector<contact_coefficients<mp100>> k;
  for (const step_contact<mp100>& d : detected.contacts) {
    solver_contact<mp100> s;
    s.body_a = 0;
    s.body_b = 1;
    s.point = d.point;
    s.normal = d.normal;
    sc.push_back(s);
    k.push_back({round_to<mp100>(c.friction), round_to<mp100>(c.restitution)});
  }
  sweep_distance out;
  using order = solver_params<mp100>::order;
  for (const order row_order : {order::normal_then_tangent, order::tangents_first}) {
    solver_params<mp100> p;
    p.iterations = static_cast<int>(sweeps);
    p.dt = round_to<mp100>(c.dt);
    p.row_order = row_order;
    const solver_result<mp100> r = solve_contacts(sb, sc, k, round_to<mp100>(threshold), p);
    Q contact_amount = 0;
    for (int i = 0; i < 2; ++i) {
      if (b[i].is_static) continue;
      const Q dv = norm1(exact_of(r.velocity[i]) - exact_after[i].v);
      const Q dw = abs_of(exact(to_exact(r.angular_velocity[i]) - exact_after[i].w));
      // In each law's own metric: the velocities law weighs body i's spin
      // by its arm R_i, the contact laws by the reach of any contact.
      out.velocities = std::max({out.velocities, dv, exact(dw * arm[i])});
      contact_amount += dv + dw * reach;
    }
    out.contact = std::max(out.contact, contact_amount);
  }
  return out;
}

}  // namespace step_detail

// Largest solver_iterations the judge will replay (each sweep in 100 digits).
inline constexpr long long max_judged_sweeps = 10000;

inline step_verdict judge_step_pair(const step_case& c, const step_answer& ans, const engine& e) {
  using namespace step_detail;
  const op_rule* rule = find_op_rule("step.pair");
  const Q& eps = e.precision.epsilon;
  const Q budget = Q(static_cast<long long>(rule->budget_eps)) * eps;
  const Q threshold = e.allowance("restitution_threshold");
  std::optional<long long> sweeps;
  if (e.declares("solver_iterations")) {
    const Q k = e.allowance("solver_iterations");
    if (denominator(k) != 1 || k < 1 || k > max_judged_sweeps)
      throw std::invalid_argument("allowances: solver_iterations must be an integer sweep count in [1, " +
                                  std::to_string(max_judged_sweeps) + "]");
    sweeps = static_cast<long long>(numerator(k));
  }
  step_verdict out;
  // The reference first: a case it rejects throws before any answer is read.
  const step_pair_result<mp100> ref0 = reference_step(c, threshold);
  if (!ans.body1_after || !ans.body2_after) {
    out.fail("body_after missing", "the answer needs \"body1_after\" and \"body2_after\" with velocity and "
                                   "angular_velocity");
    return out;
  }
  // Every engine number the laws read must be finite.
  std::vector<std::pair<std::string, const real*>> numbers;
  for (const auto& [name, a] : {std::pair{"body1_after", &*ans.body1_after}, std::pair{"body2_after", &*ans.body2_after}}) {
    numbers.push_back({std::string(name) + ".velocity", &a->velocity.x});
    numbers.push_back({std::string(name) + ".velocity", &a->velocity.y});
    numbers.push_back({std::string(name) + ".angular_velocity", &a->angular_velocity});
  }
  if (ans.contacts)
    for (std::size_t i = 0; i < ans.contacts->size(); ++i) {
      const step_contact_answer& k = (*ans.contacts)[i];
      const std::string at = "contacts[" + std::to_string(i) + "]";
      numbers.push_back({at + ".normal", &k.normal.x});
      numbers.push_back({at + ".normal", &k.normal.y});
      for (const point& p : k.points) {
        numbers.push_back({at + ".point", &p.x});
        numbers.push_back({at + ".point", &p.y});
      }
      if (k.jn) numbers.push_back({at + ".jn", &*k.jn});
      if (k.jt) numbers.push_back({at + ".jt", &*k.jt});
    }
  for (const auto& [name, x] : numbers)
    if (!x->finite()) {
      out.add(not_finite_field(name));
      return out;
    }

  const V g_dt{exact(c.dt * c.gravity.x), exact(c.dt * c.gravity.y)};
  const std::vector<body> b = {read_body(c.body1, g_dt), read_body(c.body2, g_dt)};
  const after a[2] = {{V{ans.body1_after->velocity.x.value(), ans.body1_after->velocity.y.value()},
                       ans.body1_after->angular_velocity.value()},
                      {V{ans.body2_after->velocity.x.value(), ans.body2_after->velocity.y.value()},
                       ans.body2_after->angular_velocity.value()}};
  const auto contacts_of = [](const std::vector<step_contact_answer>& list) {
    std::vector<contact> out;
    for (const step_contact_answer& k : list) {
      contact one;
      one.normal = {k.normal.x.value(), k.normal.y.value()};
      if (k.jn) one.jn = k.jn->value();
      if (k.jt) one.jt = k.jt->value();
      one.per_point = k.points.size() == 1;
      for (const point& p : k.points) {
        one.point = {p.x.value(), p.y.value()};
        out.push_back(one);
      }
    }
    return out;
  };
  std::vector<contact> contacts;
  if (ans.contacts) contacts = contacts_of(*ans.contacts);
  if (contacts.empty())
    for (const step_contact<mp100>& k : ref0.contacts) {
      contact one;
      one.point = exact_of(k.point);
      one.normal = exact_of(k.normal);
      one.jn = to_exact(k.jn);
      one.jt = to_exact(k.jt);
      contacts.push_back(one);
    }

  // A law measured: err against budget * scale + allowance (absolute).
  const auto judge_law = [&](field_verdict& v, const Q& err, const Q& scale, const Q& allowance) {
    v.judged = true;
    const double err_eps = in_eps(err, eps, scale);
    const double budget_eps = in_eps(exact(budget * scale + allowance), eps, scale);
    if (!(err_eps <= v.error_eps)) v.error_eps = err_eps;
    v.budget_eps = std::max(v.budget_eps, budget_eps);
    if (err > budget * scale + allowance) v.pass = false;
  };
  const auto law = [](const char* name) {
    field_verdict v;
    v.field = name;
    v.reason = name;
    v.judged = false;
    return v;
  };
  const auto finish_detail = [](field_verdict& v, const std::string& what) {
    if (!v.pass && v.detail.empty())
      v.detail = v.field + ": " + what + " (" + format_eps(v.error_eps) + " eps, budget " + format_eps(v.budget_eps) +
                 " eps)";
  };
  const bool dynamic_pair = !b[0].is_static && !b[1].is_static;
  const bool no_gravity = c.gravity.x == 0 && c.gravity.y == 0;
  const std::string not_conserved = !dynamic_pair ? "a static body takes momentum" : "gravity adds momentum";

  {  // linear momentum (D-STEP-9.1)
    field_verdict v = law("linear_momentum");
    if (dynamic_pair && no_gravity) {
      V before, now;
      Q scale = 0;
      for (int i = 0; i < 2; ++i) {
        before = before + b[i].mass * b[i].v;
        now = now + b[i].mass * a[i].v;
        scale += b[i].mass * (norm1(b[i].v) + norm1(a[i].v));
      }
      const Q err = norm1(now - before);
      judge_law(v, err, scale, 0);
      finish_detail(v, "|delta p| = " + format_value(err));
    } else {
      v.detail = not_conserved;
    }
    out.add(v);
  }
  {  // angular momentum about the origin, pre-step centres (D-STEP-9.2)
    field_verdict v = law("angular_momentum");
    if (dynamic_pair && no_gravity) {
      Q before = 0, now = 0, scale = 0;
      for (int i = 0; i < 2; ++i) {
        before += b[i].mass * cross(b[i].center, b[i].v) + b[i].inertia * b[i].w;
        now += b[i].mass * cross(b[i].center, a[i].v) + b[i].inertia * a[i].w;
        scale += b[i].mass * norm1(b[i].center) * (norm1(b[i].v) + norm1(a[i].v)) +
                 b[i].inertia * (abs_of(b[i].w) + abs_of(a[i].w));
      }
      const Q err = abs_of(exact(now - before));
      judge_law(v, err, scale, 0);
      finish_detail(v, "|delta L| = " + format_value(err));
    } else {
      v.detail = not_conserved;
    }
    out.add(v);
  }

  // The exact solution and, for an engine that stops after k sweeps, how
  // far k sweeps of projected Gauss-Seidel can be from it (D-STEP-10).
  const step_pair_result<mp100>& ref = ref0;
  const after exact_after[2] = {{exact_of(ref.body1_after.velocity), to_exact(ref.body1_after.angular_velocity)},
                                {exact_of(ref.body2_after.velocity), to_exact(ref.body2_after.angular_velocity)}};
  // Each body's lever arm R_i (D-STEP-9 law 7): the farthest from its centre
  // of the engine's contacts AND the reference's. The reference's are found
  // by the judge from the inputs alone, so no report of the engine's can
  // shrink R_i below the arm at the true contacts (a disc's contact reported
  // at its centre would otherwise give it R = 0 and leave its spin unjudged);
  // reported points only add arms. reach: the largest arm of both bodies.
  Q arm[2] = {0, 0};
  for (const contact& k : contacts)
    for (int i = 0; i < 2; ++i) arm[i] = std::max(arm[i], norm1(k.point - b[i].center));
  for (const step_contact<mp100>& k : ref.contacts)
    for (int i = 0; i < 2; ++i) arm[i] = std::max(arm[i], norm1(exact_of(k.point) - b[i].center));
  const Q reach = std::max(arm[0], arm[1]);
  sweep_distance short_of;
  if (sweeps) short_of = sweeps_short_of_exact(c, b, threshold, *sweeps, exact_after, reach, arm, ref);

  // Contact-point relative velocities before (v*) and after, lever arms from
  // the pre-step centres (D-STEP-9.3).
  Q vscale = 0;
  field_verdict rest = law("restitution"), approach = law("no_approach"), cone = law("friction_cone");
  for (const contact& k : contacts) {
    V u0, u1;
    Q s = 0;
    for (int i = 0; i < 2; ++i) {
      const V r = k.point - b[i].center;
      const Q sign = i == 0 ? Q(-1) : Q(1);
      const V p0 = b[i].v + cross_wr(b[i].w, r), p1 = a[i].v + cross_wr(a[i].w, r);
      u0 = u0 + sign * p0;
      u1 = u1 + sign * p1;
      s += norm1(b[i].v) + norm1(a[i].v) + (abs_of(b[i].w) + abs_of(a[i].w)) * norm1(r);
    }
    vscale = std::max(vscale, s);
    const Q un0 = dot(k.normal, u0), un1 = dot(k.normal, u1);
    contact_velocities point{static_cast<double>(round_to<double>(c.restitution)),
                             static_cast<double>(round_to<double>(un0)), static_cast<double>(round_to<double>(un1))};
    judge_law(approach, un1 < 0 ? Q(-un1) : Q(0), s, short_of.contact);
    finish_detail(approach, "u_n after = " + format_value(un1));
    if (un0 < -threshold) {  // restitution where the approach beats the threshold
      const bool active = k.jn ? *k.jn > 0 && k.per_point : false;
      const Q miss = un1 + c.restitution * un0;  // 0 when the law holds; < 0 too little bounce
      const Q err = active ? abs_of(miss) : (miss < 0 ? Q(-miss) : Q(0));
      judge_law(rest, err, s, short_of.contact);
      point.judged = true;
      point.pass = err <= budget * s + short_of.contact;
      finish_detail(rest, "u_n before " + format_value(un0) + ", after " + format_value(un1) + ", e = " +
                              format_value(c.restitution));
    }
    if (k.jn && k.jt) {
      const Q scale = abs_of(*k.jn) + abs_of(*k.jt);
      Q err = abs_of(*k.jt) - c.friction * *k.jn;
      if (*k.jn < 0) err = std::max(err, Q(-*k.jn));
      judge_law(cone, err > 0 ? err : Q(0), scale, 0);
      finish_detail(cone, "jn = " + format_value(*k.jn) + ", jt = " + format_value(*k.jt));
    }
    out.contacts.push_back(point);
  }
  if (contacts.empty()) {
    rest.detail = approach.detail = cone.detail = "no contact at the pre-step poses";
  } else {
    if (!rest.judged) rest.detail = "no contact approaches faster than the restitution threshold";
    if (!cone.judged) cone.detail = "no impulses reported (jn and jt) at any contact";
  }
  out.add(rest);
  out.add(approach);
  out.add(cone);
  {  // energy (D-STEP-9.4)
    field_verdict v = law("energy");
    if (c.restitution == 0 || (c.friction == 0 && contacts.size() <= 1)) {
      Q before = 0, now = 0;
      for (int i = 0; i < 2; ++i) {
        if (b[i].is_static) continue;
        before += (b[i].mass * dot(b[i].v, b[i].v) + b[i].inertia * b[i].w * b[i].w) / 2;
        now += (b[i].mass * dot(a[i].v, a[i].v) + b[i].inertia * a[i].w * a[i].w) / 2;
      }
      judge_law(v, now > before ? Q(now - before) : Q(0), before + now, 0);
      finish_detail(v, "kinetic energy " + format_value(before) + " -> " + format_value(now));
    } else {
      v.detail = "e > 0 with friction or several contacts: Newton restitution may gain energy (D-IMPULSE-11)";
    }
    out.add(v);
  }
  // The contact solve's conditioning widens the velocities' budget: a
  // correct solver in the engine's precision is off by about kappa u there.
  const Q kappa = to_exact(contact_conditioning(b, ref.contacts, c.friction));
  const auto conditioned = [&](const Q& allowance, const Q& scale) {
    return kappa > 1 ? exact(allowance + budget * scale * (kappa - 1)) : allowance;
  };
  // The engine's velocities against a reference step (D-STEP-9.5). Body i's
  // angular velocity's error counts at its own arm R_i, |dw_i| R_i: how much
  // it moves the velocities of its points at the contacts (the other body's
  // arm would weigh a small body's spin by a large body's radius: rigidref
  // hunt found rigidref's own double step failing so, a polygon of size 1
  // against a disc of radius 10).
  const auto compare_velocities = [&](field_verdict& v, const step_pair_result<mp100>& r, const Q& allowance) {
    const after rr[2] = {{exact_of(r.body1_after.velocity), to_exact(r.body1_after.angular_velocity)},
                         {exact_of(r.body2_after.velocity), to_exact(r.body2_after.angular_velocity)}};
    Q scale = vscale;
    for (int i = 0; i < 2; ++i)
      scale = std::max(scale, norm1(b[i].v) + norm1(rr[i].v) + (abs_of(b[i].w) + abs_of(rr[i].w)) * arm[i]);
    for (int i = 0; i < 2; ++i) {
      const Q err = std::max(norm1(a[i].v - rr[i].v), exact(abs_of(exact(a[i].w - rr[i].w)) * arm[i]));
      judge_law(v, err, scale, conditioned(allowance, scale));
      finish_detail(v, std::string(i == 0 ? "body1" : "body2") + ": velocity off the reference by " +
                           format_value(norm1(a[i].v - rr[i].v)) + ", angular velocity by " +
                           format_value(abs_of(exact(a[i].w - rr[i].w))));
    }
  };
  {  // velocities against the reference, with the engine's restitution threshold (D-STEP-9.5)
    field_verdict v = law("velocities");
    compare_velocities(v, ref, short_of.velocities);
    if (sweeps && v.pass)
      v.detail = "within the reference's own " + std::to_string(*sweeps) + " sweeps (" + format_value(short_of.velocities) +
                 " short of the exact solution)";
    out.add(v);
  }
  {  // the same at the engine's own contacts, detection apart from response (D-DYNENG-3)
    field_verdict v = law("velocities_at_engine_contacts");
    v.decides = false;
    if (!ans.contacts) {
      v.detail = "the engine reports no contacts";
    } else {
      const std::vector<contact> own = contacts_of(*ans.contacts);
      std::vector<step_contact<mp100>> at;
      for (const contact& k : own) {
        step_contact<mp100> s;
        s.point = {round_to<mp100>(k.point.x), round_to<mp100>(k.point.y)};
        s.normal = {round_to<mp100>(k.normal.x), round_to<mp100>(k.normal.y)};
        at.push_back(s);
      }
      try {
        compare_velocities(v, reference_step(c, threshold, at), short_of.velocities);
      } catch (const std::exception& x) {
        v.judged = false;
        v.detail = std::string("the reference does not take the engine's contacts: ") + x.what();
      }
    }
    out.add(v);
  }
  return out;
}

}  // namespace rigidref::judge

#include "rigidref/detail/fp_end.hpp"
