// `rigidref eval` ops step.pair, one time step of two bodies that may touch
// (reference/include/rigidref/step_pair.hpp, derivations/step.md), and
// scene.run, many steps of many bodies (scene_run.hpp, derivations/
// scene_run.md): "bodies" a list of step.pair's bodies, "steps" (1..100000),
// "record_every" (default 1). Fields
// and defaults are those of docs/eval-protocol.md and of the adapters'
// shared reader (tools/adapters/js/lib/adapter_io.mjs stepRequest): a body's
// position, angle, velocity, angular_velocity default to 0, density to 1,
// static to false; restitution and friction to 0, dt to 1/60, gravity to
// [0, 0]. The optional "restitution_threshold" (default 0) restricts
// restitution to faster approaches, as Box2D does (D-STEP-6); `rigidref
// check` sets it from an engine's declared allowance. The optional
// "at_contacts" ([{"point", "normal"}], an extension) replaces the contact
// detection by those contacts (D-DYNENG-3): check judges an engine's response
// at the engine's own contacts this way. Extra result fields:
// each contact's "separation", and "sweeps" (sequential-impulse sweeps).
// cos, sin and pi are needed: "exact" is unsupported (use mp100).
#include "eval/op_table.hpp"

#include "rigidref/errors.hpp"
#include "rigidref/scene_run.hpp"
#include "rigidref/step_pair.hpp"

#include <string>

namespace rigidref::tools::eval {
// This file's own names: the op files compile as one unit (tools/CMakeLists.txt).
namespace step_ops {

template <class T>
vec2<T> pair_field(const fields& f, const char* name, const std::string& prefix) {
  if (!f.has(name)) return {};
  return pair_from_json<T>(f.require(name), prefix + name);
}

template <class T>
T real_field(const fields& f, const char* name, const std::string& prefix, const T& fallback) {
  return f.has(name) ? real_from_json<T>(f.require(name), prefix + name) : fallback;
}

template <class T>
step_body<T> body_of(const json& o, const std::string& name) {
  const std::string prefix = name + ".";
  if (!o.is_object())
    throw invalid_input(name + ": expected a body object {\"vertices\" or \"radius\", \"position\", ...}, got " +
                        brief(o));
  const fields f(o);
  step_body<T> b;
  if (f.has("vertices") == f.has("radius"))
    throw invalid_input(name + ": give \"vertices\" (a convex polygon) or \"radius\" (a circle)");
  if (f.has("vertices")) {
    try {
      b.vertices = f.points<T>("vertices");
    } catch (const invalid_input& e) {
      throw invalid_input(prefix + e.what());
    }
  } else {
    b.is_circle = true;
    b.radius = real_from_json<T>(f.require("radius"), prefix + "radius");
  }
  b.position = pair_field<T>(f, "position", prefix);
  b.angle = real_field<T>(f, "angle", prefix, T(0));
  b.velocity = pair_field<T>(f, "velocity", prefix);
  b.angular_velocity = real_field<T>(f, "angular_velocity", prefix, T(0));
  b.density = real_field<T>(f, "density", prefix, T(1));
  if (f.has("static")) {
    const json& s = f.require("static");
    if (!s.is_boolean()) throw invalid_input(prefix + "static: expected true or false, got " + brief(s));
    b.is_static = s.get<bool>();
  }
  return b;
}

template <class T>
step_body<T> body_field(const fields& top, const char* name) {
  return body_of<T>(top.require(name), name);
}

// "at_contacts": [{"point": [x, y], "normal": [x, y]}, ...] (D-DYNENG-3).
template <class T>
std::vector<step_contact<T>> contacts_field(const json& list) {
  if (!list.is_array()) throw invalid_input("at_contacts: expected a list of {\"point\", \"normal\"}, got " + brief(list));
  // A step has one or two contacts per pair; more given ones only make the
  // sweeps to the LCP solution longer (D-STEP-7), so they are capped.
  constexpr std::size_t max_given_contacts = 16;
  if (list.size() > max_given_contacts)
    throw invalid_input("at_contacts: at most " + std::to_string(max_given_contacts) + " contacts, got " +
                        std::to_string(list.size()));
  std::vector<step_contact<T>> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string prefix = "at_contacts[" + std::to_string(i) + "].";
    if (!list[i].is_object()) throw invalid_input(prefix + ": expected {\"point\", \"normal\"}, got " + brief(list[i]));
    const fields f(list[i]);
    if (!f.has("point") || !f.has("normal")) throw invalid_input(prefix + ": needs \"point\" and \"normal\"");
    step_contact<T> c;
    c.point = pair_field<T>(f, "point", prefix);
    c.normal = pair_field<T>(f, "normal", prefix);
    out.push_back(c);
  }
  return out;
}

template <class T>
ojson state_value(const step_body_state<T>& s, const std::string& name) {
  ojson o = ojson::object();
  o["position"] = point_value(s.position, name + ".position");
  o["angle"] = real_value(s.angle, name + ".angle");
  o["velocity"] = point_value(s.velocity, name + ".velocity");
  o["angular_velocity"] = real_value(s.angular_velocity, name + ".angular_velocity");
  return o;
}

// step.pair (D-STEP-1..8).
struct step_pair_op {
  template <class T>
  static ojson run(const fields& f) {
    if constexpr (is_exact_v<T>) {
      throw unsupported(
          "step.pair needs cos and sin (the angle) and pi (a circle's mass), which exact (rational) arithmetic "
          "does not have: use mp100");
    } else {
      step_pair_request<T> q;
      q.body1 = body_field<T>(f, "body1");
      q.body2 = body_field<T>(f, "body2");
      q.restitution = real_field<T>(f, "restitution", "", T(0));
      q.friction = real_field<T>(f, "friction", "", T(0));
      q.dt = real_field<T>(f, "dt", "", T(T(1) / T(60)));
      q.gravity = pair_field<T>(f, "gravity", "");
      q.restitution_threshold = real_field<T>(f, "restitution_threshold", "", T(0));
      if (f.has("at_contacts")) q.given_contacts = contacts_field<T>(f.require("at_contacts"));
      const step_pair_result<T> r = step_pair<T>(q);
      ojson o = ojson::object();
      o["body1_after"] = state_value(r.body1_after, "body1_after");
      o["body2_after"] = state_value(r.body2_after, "body2_after");
      ojson contacts = ojson::array();
      for (std::size_t i = 0; i < r.contacts.size(); ++i) {
        const step_contact<T>& c = r.contacts[i];
        const std::string name = "contacts[" + std::to_string(i) + "]";
        ojson k = ojson::object();
        k["point"] = point_value(c.point, name + ".point");
        k["normal"] = point_value(c.normal, name + ".normal");
        k["jn"] = real_value(c.jn, name + ".jn");
        k["jt"] = real_value(c.jt, name + ".jt");
        k["separation"] = real_value(c.separation, name + ".separation");
        contacts.push_back(k);
      }
      o["contacts"] = contacts;
      o["sweeps"] = r.sweeps;
      return o;
    }
  }
};

// scene.run (D-SCENERUN-1..3): many steps of many bodies.
struct scene_run_op {
  template <class T>
  static ojson run(const fields& f) {
    if constexpr (is_exact_v<T>) {
      throw unsupported(
          "scene.run needs cos and sin (the angles) and pi (a circle's mass), which exact (rational) arithmetic "
          "does not have: use mp100");
    } else {
      scene_run_request<T> q;
      const json& list = f.require("bodies");
      if (!list.is_array()) throw invalid_input("bodies: expected a list of body objects, got " + brief(list));
      if (list.size() > scene_max_bodies)
        throw invalid_input("bodies: at most " + std::to_string(scene_max_bodies) + " bodies, got " +
                            std::to_string(list.size()));
      for (std::size_t i = 0; i < list.size(); ++i) q.bodies.push_back(body_of<T>(list[i], "bodies[" + std::to_string(i) + "]"));
      q.restitution = real_field<T>(f, "restitution", "", T(0));
      q.friction = real_field<T>(f, "friction", "", T(0));
      q.dt = real_field<T>(f, "dt", "", T(T(1) / T(60)));
      q.gravity = pair_field<T>(f, "gravity", "");
      q.restitution_threshold = real_field<T>(f, "restitution_threshold", "", T(0));
      q.steps = static_cast<long>(f.integer("steps", 1, scene_max_steps));
      q.record_every = f.has("record_every") ? static_cast<long>(f.integer("record_every", 1, q.steps)) : 1;
      const scene_run_result<T> r = scene_run<T>(q);
      ojson frames = ojson::array();
      for (const scene_frame<T>& fr : r.frames) {
        ojson bodies = ojson::array();
        for (std::size_t i = 0; i < fr.bodies.size(); ++i)
          bodies.push_back(state_value(fr.bodies[i], "frames[" + std::to_string(fr.step) + "].bodies[" + std::to_string(i) + "]"));
        ojson one = ojson::object();
        one["step"] = fr.step;
        one["bodies"] = std::move(bodies);
        frames.push_back(std::move(one));
      }
      ojson o = ojson::object();
      o["frames"] = std::move(frames);
      o["sweeps"] = r.sweeps;
      o["max_contacts"] = r.max_contacts;
      return o;
    }
  }
};

}  // namespace step_ops

void add_step_ops(op_table& table) {
  using namespace step_ops;
  add_op<step_pair_op>(table, "step.pair",
         {"one time step of two bodies (polygons or circles): contacts, impulses, semi-implicit Euler",
          "body1, body2: {vertices | radius, position, angle, velocity, angular_velocity, density, static}, "
          "restitution, friction, dt, gravity, restitution_threshold, at_contacts: [{point, normal}]",
          "body1_after, body2_after: {position, angle, velocity, angular_velocity}, contacts: [{point, normal, jn, jt, "
          "separation}], sweeps"});
  add_op<scene_run_op>(table, "scene.run",
         {"many steps of many bodies (polygons or circles): step.pair's step for every pair at once",
          "bodies: [{vertices | radius, position, angle, velocity, angular_velocity, density, static}], steps "
          "(1..100000), record_every, restitution, friction, dt, gravity, restitution_threshold",
          "frames: [{step, bodies: [{position, angle, velocity, angular_velocity}]}], sweeps, max_contacts"});
}

}  // namespace rigidref::tools::eval
