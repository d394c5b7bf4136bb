// `rigidref eval` ops impulse.wall and impulse.pair: single-contact impulse
// with restitution and friction (reference/include/rigidref/impulse.hpp,
// derivations/impulse.md). Field names and results are those of
// docs/eval-protocol.md. Optional extras:
//   - results also carry "separating" (true when the normal approach velocity
//     is >= 0: then jn = jt = 0, sticking = false, the velocities are
//     unchanged and mu_cr is null, D-IMPULSE-9);
//   - "mu_cr" is null when no finite friction coefficient makes the contact
//     stick (coupled model, sticking impulse with jn* <= 0, D-IMPULSE-8);
//   - impulse.pair bodies accept "static": true (infinite mass and inertia;
//     "mass" and "inertia" may then be omitted; its velocity is unchanged).
// Every output is a rational function of the inputs (the protocol's fixed
// tangent needs no square root), so "exact" is supported; the normal must be
// a unit vector (exactly in "exact", within 8 eps otherwise).
#include "eval/op_table.hpp"

#include "rigidref/errors.hpp"
#include "rigidref/impulse.hpp"

#include <string>

namespace rigidref::tools::eval {
// This file's own names: the op files compile as one unit (tools/CMakeLists.txt).
namespace impulse_ops {

// A field lookup: the request itself (impulse.wall) or a body object
// (impulse.pair's body1 / body2); error paths are prefixed with `prefix`.
struct lookup {
  const fields* request = nullptr;
  const json* object = nullptr;
  std::string prefix;

  const json* find(const char* name) const {
    if (request) return request->has(name) ? &request->require(name) : nullptr;
    const auto it = object->find(name);
    return it == object->end() ? nullptr : &*it;
  }
  const json& require(const char* name) const {
    const json* v = find(name);
    if (!v) throw invalid_input("missing field \"" + prefix + name + "\"");
    return *v;
  }
  template <class T>
  T real(const char* name) const {
    return real_from_json<T>(require(name), prefix + name);
  }
  template <class T>
  vec2<T> vector(const char* name) const {
    return pair_from_json<T>(require(name), prefix + name);
  }
};

template <class T>
contact_body<T> body_fields(const lookup& l, bool allow_static) {
  contact_body<T> b;
  if (const json* st = l.find("static"); allow_static && st) {
    if (!st->is_boolean()) throw invalid_input(l.prefix + "static: expected true or false, got " + brief(*st));
    b.is_static = st->get<bool>();
  }
  if (!b.is_static) {
    b.mass = l.real<T>("mass");
    b.inertia = l.real<T>("inertia");
  }
  b.velocity = l.vector<T>("velocity");
  b.angular_velocity = l.real<T>("angular_velocity");
  b.r = l.vector<T>("r");
  return b;
}

lookup body_object(const fields& f, const char* name) {
  const json& o = f.require(name);
  if (!o.is_object()) throw invalid_input(std::string(name) + ": expected an object {\"mass\", \"inertia\", \"velocity\", \"angular_velocity\", \"r\"}, got " + brief(o));
  return lookup{nullptr, &o, std::string(name) + "."};
}

impulse_model model_field(const fields& f) {
  if (!f.has("model")) throw invalid_input("missing field \"model\" (\"article\" or \"coupled\")");
  return f.choice("model", {"article", "coupled"}, "") == "article" ? impulse_model::article
                                                                    : impulse_model::coupled;
}

template <class T>
ojson mu_cr_value(const std::optional<T>& mu) {
  return mu ? real_value(*mu, "mu_cr") : ojson(nullptr);
}

template <class T>
ojson body_after_value(const body_velocity<T>& v, const char* name) {
  ojson o = ojson::object();
  o["velocity"] = point_value(v.velocity, std::string(name) + ".velocity");
  o["angular_velocity"] = real_value(v.angular_velocity, std::string(name) + ".angular_velocity");
  return o;
}

// impulse.wall (D-IMPULSE-1..10): the body is "body2" of the pair, the wall a
// static "body1"; normal out of the wall towards the body.
struct impulse_wall_op {
  template <class T>
  static ojson run(const fields& f) {
    const lookup top{&f, nullptr, ""};
    const contact_body<T> body = body_fields<T>(top, false);
    const vec2<T> n = top.vector<T>("normal");
    const T e = f.real<T>("restitution");
    const T mu = f.real<T>("friction");
    const wall_impulse_result<T> r = impulse_wall<T>(body, n, e, mu, model_field(f));
    ojson o = ojson::object();
    o["jn"] = real_value(r.jn, "jn");
    o["jt"] = real_value(r.jt, "jt");
    o["mu_cr"] = mu_cr_value(r.mu_cr);
    o["sticking"] = r.sticking;
    o["separating"] = r.separating;
    o["velocity_after"] = point_value(r.velocity_after, "velocity_after");
    o["angular_velocity_after"] = real_value(r.angular_velocity_after, "angular_velocity_after");
    return o;
  }
};

// impulse.pair (D-IMPULSE-1..10): impulse on body2 jn n + jt t, on body1 its negative.
struct impulse_pair_op {
  template <class T>
  static ojson run(const fields& f) {
    const lookup top{&f, nullptr, ""};
    const contact_body<T> b1 = body_fields<T>(body_object(f, "body1"), true);
    const contact_body<T> b2 = body_fields<T>(body_object(f, "body2"), true);
    const vec2<T> n = top.vector<T>("normal");
    const T e = f.real<T>("restitution");
    const T mu = f.real<T>("friction");
    const pair_impulse_result<T> r = impulse_pair<T>(b1, b2, n, e, mu, model_field(f));
    ojson o = ojson::object();
    o["jn"] = real_value(r.jn, "jn");
    o["jt"] = real_value(r.jt, "jt");
    o["mu_cr"] = mu_cr_value(r.mu_cr);
    o["sticking"] = r.sticking;
    o["separating"] = r.separating;
    o["body1_after"] = body_after_value(r.body1_after, "body1_after");
    o["body2_after"] = body_after_value(r.body2_after, "body2_after");
    return o;
  }
};

}  // namespace impulse_ops

void add_impulse_ops(op_table& table) {
  using namespace impulse_ops;
  add_op<impulse_wall_op>(table, "impulse.wall",
         {"one contact against a static wall: impulse with restitution and friction",
          "mass, inertia, velocity, angular_velocity, r, normal, restitution, friction, model",
          "jn, jt, mu_cr, sticking, separating, velocity_after, angular_velocity_after"});
  add_op<impulse_pair_op>(table, "impulse.pair",
         {"one contact between two bodies: impulse with restitution and friction",
          "body1, body2: {mass, inertia, velocity, angular_velocity, r, static}, normal, restitution, friction, model",
          "jn, jt, mu_cr, sticking, separating, body1_after, body2_after"});
}

}  // namespace rigidref::tools::eval
