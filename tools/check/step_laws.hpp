// `rigidref check` for step.pair: an engine's step is judged law by law
// (derivations/step.md D-STEP-9), in exact arithmetic on the printed values,
// each law with its own verdict:
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
// Which engine mechanisms break the momentum laws (position correction,
// impulses applied at different points) is D-DYNENG-1; how each engine
// applies restitution and friction, which the restitution and cone laws
// meet, is D-DYNENG-2 (derivations/engine_dynamics.md).
//   velocities        v', w' against the reference model (rigidref eval)
//   velocities_at_engine_contacts
//                     the same, the reference evaluated at the engine's own
//                     contact points and normals (D-DYNENG-3): detection
//                     and response judged apart. A diagnostic: reported per
//                     case, not part of the case's verdict.
// Contact laws use the engine's own points and normals where it reports
// them (what its solver used), the reference's otherwise. Budgets: the rule
// of "step.pair" in rules.hpp (eps of the engine) times the law's scale,
// plus the allowance solver_iterations (absolute, a velocity) where a
// velocity is compared.
#pragma once

#include "check/rules.hpp"
#include "eval/eval.hpp"
#include "protocol/json.hpp"

#include "rigidref/convert.hpp"
#include "rigidref/mass.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <boost/math/constants/constants.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace rigidref::tools::check {

struct law_verdict {
  std::string law;
  bool judged = false;  // false: does not apply to this case (e.g. gravity on, a static body)
  bool pass = true;
  double error_eps = 0;  // worst error over the law's budget unit (eps times the law's scale)
  std::string detail;    // why it failed, or why it was not judged
  bool decides_case = true;  // false: a diagnostic verdict, reported but not in the case's pass/fail
};

// One contact as the restitution law sees it: the normal velocities of the
// relative velocity at the point before (v*) and after the step, rounded to
// double for plotting; judged: the approach beats the threshold, and then
// pass is the restitution law's verdict at this point alone.
struct contact_velocities {
  double e = 0, un_before = 0, un_after = 0;
  bool judged = false, pass = true;
};

struct step_judgement {
  std::vector<law_verdict> laws;
  std::vector<contact_velocities> contacts;  // the contacts the laws used, in order
  bool pass = true;
  double worst_eps = 0;
  std::string worst_law, failure, detail;
};

// An engine number that is null or not finite.
struct step_non_finite : std::runtime_error {
  using std::runtime_error::runtime_error;
};

namespace step_laws {

using json = eval::json;
using Q = exact;
using V = vec2<exact>;

inline Q qabs(const Q& x) { return x < 0 ? Q(-x) : x; }
inline Q norm1(const V& v) { return qabs(v.x) + qabs(v.y); }
inline V cross_wr(const Q& w, const V& r) { return {-w * r.y, w * r.x}; }

inline Q num(const json& v, const std::string& where) {
  if (v.is_null()) throw step_non_finite(where + " is null (NaN or infinite in the engine)");
  if (v.is_number()) {
    const double d = v.get<double>();
    if (!std::isfinite(d)) throw step_non_finite(where + " is not finite");
    return to_exact(d);
  }
  if (v.is_string()) return parse_exact(v.get_ref<const std::string&>());
  throw std::invalid_argument(where + ": expected a number, got " + eval::brief(v));
}
inline Q num_or(const json& o, const char* f, const Q& fallback, const std::string& where) {
  return o.contains(f) ? num(o[f], where + "." + f) : fallback;
}
inline V vec(const json& v, const std::string& where) {
  if (!v.is_array() || v.size() != 2) throw std::invalid_argument(where + ": expected [x, y]");
  return {num(v[0], where + "[0]"), num(v[1], where + "[1]")};
}
inline V vec_or(const json& o, const char* f, const std::string& where) {
  return o.contains(f) ? vec(o[f], where + "." + f) : V{};
}

// A body of the request, with its exact mass properties (D-STEP-2; a
// circle's pi and the rotation in mp100, then exactly: 1e-100 relative).
struct body {
  bool is_static = false;
  Q mass = 0, inertia = 0, w = 0;
  V center, v;  // pre-step centre of mass; velocity after gravity (v*)
};

inline body read_body(const json& o, const std::string& name, const V& g_dt) {
  if (!o.is_object()) throw std::invalid_argument(name + ": expected an object");
  body b;
  b.is_static = o.value("static", false);
  const Q density = num_or(o, "density", 1, name);
  const V position = vec_or(o, "position", name);
  const mp100 angle = round_to<mp100>(num_or(o, "angle", 0, name));
  V centroid{};
  if (o.contains("radius")) {
    const Q r = num(o["radius"], name + ".radius");
    b.mass = density * to_exact(boost::math::constants::pi<mp100>()) * r * r;
    b.inertia = b.mass * r * r / 2;
  } else {
    std::vector<V> pts;
    for (const json& p : o.at("vertices")) pts.push_back(vec(p, name + ".vertices"));
    const mass_properties<Q> m = polygon_mass_from_density<Q>(std::span<const V>(pts), density > 0 ? density : Q(1));
    b.mass = m.mass;
    b.inertia = m.inertia;
    centroid = m.centroid;
  }
  using std::cos;
  using std::sin;
  const Q c = to_exact(mp100(cos(angle))), s = to_exact(mp100(sin(angle)));
  b.center = position + V{c * centroid.x - s * centroid.y, s * centroid.x + c * centroid.y};
  if (!b.is_static) {
    b.v = vec_or(o, "velocity", name) + g_dt;
    b.w = num_or(o, "angular_velocity", 0, name);
  }
  return b;
}

struct after {
  V v;
  Q w = 0;
};
inline after read_after(const json& result, const char* field) {
  const json& a = result.at(field);
  return {vec(a.at("velocity"), std::string(field) + ".velocity"),
          num(a.at("angular_velocity"), std::string(field) + ".angular_velocity")};
}

struct contact {
  V point, normal;
  std::optional<Q> jn, jt;
  bool per_point = true;  // jn, jt belong to this point alone
};

// The engine's contacts: {point, normal, jn, jt} per point, or per arbiter
// with "points" (Chipmunk: impulses are the arbiter's total).
inline std::vector<contact> read_contacts(const json& list, const std::string& where) {
  std::vector<contact> out;
  if (!list.is_array()) return out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& k = list[i];
    const std::string at = where + "[" + std::to_string(i) + "]";
    if (!k.is_object() || !k.contains("normal")) continue;
    contact c;
    c.normal = vec(k["normal"], at + ".normal");
    if (k.contains("jn")) c.jn = num(k["jn"], at + ".jn");
    if (k.contains("jt")) c.jt = num(k["jt"], at + ".jt");
    if (k.contains("point")) {
      c.point = vec(k["point"], at + ".point");
      out.push_back(c);
    } else if (k.contains("points") && k["points"].is_array()) {
      c.per_point = k["points"].size() == 1;
      for (const json& p : k["points"]) {
        c.point = vec(p, at + ".points");
        out.push_back(c);
      }
    }
  }
  return out;
}

inline law_verdict named_law(const char* name) {
  law_verdict v;
  v.law = name;
  return v;
}

inline double to_double(const Q& x) { return static_cast<double>(round_to<double>(x)); }

inline double ratio(const Q& err, const Q& budget) {
  if (err == 0) return 0;
  if (budget == 0) return std::numeric_limits<double>::infinity();
  return static_cast<double>(round_to<double>(err / budget));
}

}  // namespace step_laws

// Judges one step.pair answer line. `request` is the line without the
// engine's fields; `reference` the reference model's result (mp100).
inline step_judgement judge_step_pair(const eval::json& line, const eval::json& request,
                                      const eval::json& reference, const exact& eps) {
  using namespace step_laws;
  const op_rule* rule = find_op_rule("step.pair");
  const Q budget = Q(static_cast<long long>(rule->budget_eps)) * eps;
  Q threshold = 0, solver_allowance = 0;
  if (const auto a = line.find("allowances"); a != line.end()) {
    if (!a->is_object()) throw std::invalid_argument("allowances: expected an object {\"name\": amount}");
    for (const auto& [name, amount] : a->items()) {
      if (find_allowance(name) == nullptr) throw std::invalid_argument("allowances: unknown allowance \"" + name + "\"");
      if (name == "restitution_threshold") threshold = qabs(num(amount, "allowances." + name));
      if (name == "solver_iterations") solver_allowance = qabs(num(amount, "allowances." + name));
    }
  }
  const json& result = line.at("result");
  const Q dt = num_or(request, "dt", Q(1) / 60, "");
  const V g = vec_or(request, "gravity", "");
  const Q e = num_or(request, "restitution", 0, ""), mu = num_or(request, "friction", 0, "");
  const body b[2] = {read_body(request.at("body1"), "body1", V{dt * g.x, dt * g.y}),
                     read_body(request.at("body2"), "body2", V{dt * g.x, dt * g.y})};
  const after a[2] = {read_after(result, "body1_after"), read_after(result, "body2_after")};
  std::vector<contact> contacts = read_contacts(result.contains("contacts") ? result["contacts"] : json(), "contacts");
  if (contacts.empty()) contacts = read_contacts(reference.contains("contacts") ? reference["contacts"] : json(), "reference contacts");

  step_judgement out;
  const auto record = [&](law_verdict v) {
    if (!v.decides_case) {
      out.laws.push_back(std::move(v));
      return;
    }
    if (v.judged && !v.pass) {
      out.pass = false;
      out.failure += (out.failure.empty() ? "" : ", ") + v.law;
      out.detail += (out.detail.empty() ? "" : "; ") + v.law + ": " + v.detail;
    }
    if (v.judged && (v.error_eps > out.worst_eps || out.worst_law.empty())) {
      out.worst_eps = v.error_eps;
      out.worst_law = v.law;
    }
    out.laws.push_back(std::move(v));
  };
  const auto judge = [](law_verdict& v, const Q& err, const Q& scale, const Q& absolute_allowance, const Q& unit) {
    v.judged = true;
    v.error_eps = std::max(v.error_eps, ratio(err, unit * scale));
    if (err > unit * scale + absolute_allowance) v.pass = false;
  };
  const bool dynamic_pair = !b[0].is_static && !b[1].is_static;
  const bool no_gravity = g.x == 0 && g.y == 0;
  const std::string not_conserved = !dynamic_pair ? "a static body takes momentum" : "gravity adds momentum";

  {  // linear momentum (D-STEP-9.1)
    law_verdict v = named_law("linear_momentum");
    if (dynamic_pair && no_gravity) {
      V before, now;
      Q scale = 0;
      for (int i = 0; i < 2; ++i) {
        before = before + b[i].mass * b[i].v;
        now = now + b[i].mass * a[i].v;
        scale += b[i].mass * (norm1(b[i].v) + norm1(a[i].v));
      }
      const Q err = norm1(now - before);
      judge(v, err, scale, 0, budget);
      if (!v.pass) v.detail = "|delta p| = " + std::to_string(static_cast<double>(err)) + " (" + std::to_string(v.error_eps) + " budget units)";
    } else {
      v.detail = not_conserved;
    }
    record(v);
  }
  {  // angular momentum about the origin, pre-step centres (D-STEP-9.2)
    law_verdict v = named_law("angular_momentum");
    if (dynamic_pair && no_gravity) {
      Q before = 0, now = 0, scale = 0;
      for (int i = 0; i < 2; ++i) {
        before += b[i].mass * cross(b[i].center, b[i].v) + b[i].inertia * b[i].w;
        now += b[i].mass * cross(b[i].center, a[i].v) + b[i].inertia * a[i].w;
        scale += b[i].mass * norm1(b[i].center) * (norm1(b[i].v) + norm1(a[i].v)) +
                 b[i].inertia * (qabs(b[i].w) + qabs(a[i].w));
      }
      const Q err = qabs(now - before);
      judge(v, err, scale, 0, budget);
      if (!v.pass) v.detail = "|delta L| = " + std::to_string(static_cast<double>(err));
    } else {
      v.detail = not_conserved;
    }
    record(v);
  }
  // Contact-point relative velocities before (v*) and after, lever arms from
  // the pre-step centres (D-STEP-9.3).
  Q vscale = 0;
  law_verdict rest = named_law("restitution"), approach = named_law("no_approach"), cone = named_law("friction_cone");
  for (const contact& c : contacts) {
    V u0, u1;
    Q s = 0;
    for (int i = 0; i < 2; ++i) {
      const V r = c.point - b[i].center;
      const Q sign = i == 0 ? Q(-1) : Q(1);
      const V p0 = b[i].v + cross_wr(b[i].w, r), p1 = a[i].v + cross_wr(a[i].w, r);
      u0 = u0 + sign * p0;
      u1 = u1 + sign * p1;
      s += norm1(b[i].v) + norm1(a[i].v) + (qabs(b[i].w) + qabs(a[i].w)) * norm1(r);
    }
    vscale = std::max(vscale, s);
    const Q un0 = dot(c.normal, u0), un1 = dot(c.normal, u1);
    contact_velocities point{to_double(e), to_double(un0), to_double(un1)};
    // no_approach: u_n' >= 0
    if (un1 < 0) judge(approach, Q(-un1), s, solver_allowance, budget);
    else judge(approach, 0, s, solver_allowance, budget);
    if (!approach.pass && approach.detail.empty()) approach.detail = "u_n after = " + std::to_string(static_cast<double>(un1));
    // restitution: where the approach beats the threshold and the contact is active
    if (un0 < -threshold) {
      const bool active = c.jn ? *c.jn > 0 && c.per_point : false;
      const Q miss = un1 + e * un0;  // 0 when the law holds; < 0 too little bounce
      const Q err = active ? qabs(miss) : (miss < 0 ? Q(-miss) : Q(0));
      judge(rest, err, s, solver_allowance, budget);
      point.judged = true;
      point.pass = err <= budget * s + solver_allowance;
      if (!rest.pass && rest.detail.empty())
        rest.detail = "u_n before " + std::to_string(static_cast<double>(un0)) + ", after " +
                      std::to_string(static_cast<double>(un1)) + ", e = " + std::to_string(static_cast<double>(e));
    }
    if (c.jn && c.jt) {
      const Q scale = qabs(*c.jn) + qabs(*c.jt);
      Q err = qabs(*c.jt) - mu * *c.jn;
      if (*c.jn < 0) err = std::max(err, Q(-*c.jn));
      judge(cone, err > 0 ? err : Q(0), scale, 0, budget);
      if (!cone.pass && cone.detail.empty())
        cone.detail = "jn = " + std::to_string(static_cast<double>(*c.jn)) + ", jt = " + std::to_string(static_cast<double>(*c.jt));
    }
    out.contacts.push_back(point);
  }
  if (contacts.empty()) {
    const char* none = "no contact at the pre-step poses";
    rest.detail = approach.detail = cone.detail = none;
  } else {
    if (!rest.judged) rest.detail = "no contact approaches faster than the restitution threshold";
    if (!cone.judged) cone.detail = "no impulses reported (jn and jt) at any contact";
  }
  record(rest);
  record(approach);
  record(cone);
  {  // energy (D-STEP-9.4)
    law_verdict v = named_law("energy");
    if (e == 0 || (mu == 0 && contacts.size() <= 1)) {
      Q before = 0, now = 0;
      for (int i = 0; i < 2; ++i) {
        if (b[i].is_static) continue;
        before += (b[i].mass * dot(b[i].v, b[i].v) + b[i].inertia * b[i].w * b[i].w) / 2;
        now += (b[i].mass * dot(a[i].v, a[i].v) + b[i].inertia * a[i].w * a[i].w) / 2;
      }
      judge(v, now > before ? Q(now - before) : Q(0), before + now, 0, budget);
      if (!v.pass) v.detail = "kinetic energy " + std::to_string(static_cast<double>(before)) + " -> " + std::to_string(static_cast<double>(now));
    } else {
      v.detail = "e > 0 with friction or several contacts: Newton restitution may gain energy (D-IMPULSE-11)";
    }
    record(v);
  }
  // The reference's step for `q` (mp100), with the engine's restitution threshold.
  const auto reference_step = [&](json q) {
    q["precision"] = "mp100";
    if (threshold > 0) q["restitution_threshold"] = to_string(threshold);
    return json::parse(answer_line(eval::to_json_text(q)));
  };
  // The engine's velocities against a reference step `ref`, lever arms up to
  // the contacts `at` (D-STEP-9.5).
  const auto compare_velocities = [&](law_verdict& v, const json& ref, const std::vector<contact>& at) {
    const after r[2] = {read_after(ref, "body1_after"), read_after(ref, "body2_after")};
    Q reach = 0;
    for (const contact& c : at)
      for (int i = 0; i < 2; ++i) reach = std::max(reach, norm1(c.point - b[i].center));
    Q scale = vscale;
    for (int i = 0; i < 2; ++i) scale = std::max(scale, norm1(b[i].v) + norm1(r[i].v) + (qabs(b[i].w) + qabs(r[i].w)) * reach);
    for (int i = 0; i < 2; ++i) {
      const Q err = std::max(norm1(a[i].v - r[i].v), qabs(a[i].w - r[i].w) * reach);
      judge(v, err, scale, solver_allowance, budget);
      if (!v.pass && v.detail.empty())
        v.detail = std::string(i == 0 ? "body1" : "body2") + ": velocity off the reference by " +
                   std::to_string(static_cast<double>(norm1(a[i].v - r[i].v))) + ", angular velocity by " +
                   std::to_string(static_cast<double>(qabs(a[i].w - r[i].w)));
    }
  };
  {  // velocities against the reference, with the engine's restitution threshold (D-STEP-9.5)
    law_verdict v = named_law("velocities");
    json ref = reference;
    if (threshold > 0) {
      const json answer = reference_step(request);
      if (!answer.value("ok", false)) throw std::invalid_argument("the reference rejected the threshold: " + answer.dump());
      ref = answer["result"];
    }
    compare_velocities(v, ref, contacts);
    record(v);
  }
  {  // the same at the engine's own contacts, detection apart from response (D-DYNENG-3)
    law_verdict v = named_law("velocities_at_engine_contacts");
    v.decides_case = false;
    const bool reported = result.contains("contacts") && result["contacts"].is_array();
    if (!reported) {
      v.detail = "the engine reports no contacts";
    } else {
      const std::vector<contact> own = read_contacts(result["contacts"], "contacts");
      // In mp100 text: the engine's numbers (double or shorter) read back exactly.
      const auto text = [](const Q& x) { return to_string(round_to<mp100>(x)); };
      json at = json::array();
      for (const contact& c : own)
        at.push_back({{"point", {text(c.point.x), text(c.point.y)}}, {"normal", {text(c.normal.x), text(c.normal.y)}}});
      json q = request;
      q["at_contacts"] = at;
      const json answer = reference_step(q);
      if (!answer.value("ok", false)) {
        v.detail = "the reference does not take the engine's contacts: " + answer["error"].value("message", "");
      } else {
        compare_velocities(v, answer["result"], own);
      }
    }
    record(v);
  }
  return out;
}

// The per-law verdicts as JSON, for --verdicts.
inline eval::json laws_json(const step_judgement& j) {
  eval::json o = eval::json::object();
  for (const law_verdict& v : j.laws)
    o[v.law] = v.judged ? eval::json{{"pass", v.pass}, {"error", v.error_eps}} : eval::json("not judged");
  return o;
}

}  // namespace rigidref::tools::check
