#include "check/ops.hpp"

#include "rigidref/convert.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/judge.hpp"

#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace rigidref::tools::check {

namespace {

using judge::exact_point;
using judge::point;
using judge::real;

std::string brief(const json& v) {
  std::string s = v.dump();
  return s.size() > 40 ? s.substr(0, 37) + "..." : s;
}

// ---- inputs: exact values, as rigidref eval reads them (a JSON number is
// a double first, a string a decimal or a fraction); anything else is
// invalid input, which the reference would reject too.

exact input_number(const json& v, const std::string& where) {
  if (v.is_number()) {
    const double d = v.get<double>();
    if (!std::isfinite(d)) throw invalid_input(where + ": not a finite number");
    return to_exact(d);
  }
  if (v.is_string()) {
    try {
      return parse_exact(v.get_ref<const std::string&>());
    } catch (const std::exception& e) {
      throw invalid_input(where + ": " + e.what());
    }
  }
  throw invalid_input(where + ": expected a number, got " + brief(v));
}

exact input_number_or(const json& o, const char* key, const exact& fallback, const std::string& where) {
  return o.contains(key) ? input_number(o[key], where + key) : fallback;
}

exact_point input_point(const json& v, const std::string& where) {
  if (!v.is_array() || v.size() != 2) throw invalid_input(where + ": expected an [x, y] pair, got " + brief(v));
  return {input_number(v[0], where + "[0]"), input_number(v[1], where + "[1]")};
}

std::vector<exact_point> input_points(const json& v, const std::string& where) {
  if (!v.is_array()) throw invalid_input(where + ": expected a list of [x, y], got " + brief(v));
  std::vector<exact_point> out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out.push_back(input_point(v[i], where + "[" + std::to_string(i) + "]"));
  return out;
}

const json& require(const json& request, const char* key) {
  const auto it = request.find(key);
  if (it == request.end()) throw invalid_input(std::string("missing field \"") + key + "\"");
  return *it;
}

std::string choice(const json& request, const char* key, std::initializer_list<const char*> allowed, const char* fallback) {
  if (!request.contains(key)) return fallback;
  const json& v = request[key];
  if (v.is_string())
    for (const char* a : allowed)
      if (v.get_ref<const std::string&>() == a) return a;
  std::string list;
  for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
  throw invalid_input(std::string(key) + ": expected one of " + list + ", got " + brief(v));
}

// A shape of docs/eval-protocol.md section 2.
judge::shape input_shape(const json& v, const std::string& name) {
  using judge::shape;
  if (v.is_array()) return shape::polygon(input_points(v, name));
  if (!v.is_object()) throw invalid_input(name + ": expected a shape (docs/eval-protocol.md section 2), got " + brief(v));
  const exact r = input_number_or(v, "radius", 0, name + ".");
  if (r < 0) throw invalid_input(name + ".radius: must be >= 0");
  if (v.contains("vertices")) return shape::polygon(input_points(v["vertices"], name + ".vertices"), r);
  if (v.contains("center")) {
    if (!v.contains("radius")) throw invalid_input(name + ": a circle needs \"center\" and \"radius\"");
    return shape::circle(input_point(v["center"], name + ".center"), r);
  }
  if (v.contains("point")) {
    if (v.contains("radius")) throw invalid_input(name + ": a point has no radius");
    return shape::single_point(input_point(v["point"], name + ".point"));
  }
  if (v.contains("segment")) {
    const json& s = v["segment"];
    if (!s.is_array() || s.size() != 2) throw invalid_input(name + ".segment: expected [[x1, y1], [x2, y2]]");
    return shape::segment(input_point(s[0], name + ".segment[0]"), input_point(s[1], name + ".segment[1]"), r);
  }
  throw invalid_input(name + ": expected a shape (docs/eval-protocol.md section 2), got " + brief(v));
}

// ---- the engine's result: each field read or, when malformed, a failing
// field of the verdict.

bool non_finite_text(const std::string& s) {
  for (const char* t : {"nan", "NaN", "-nan", "inf", "-inf", "+inf", "Infinity", "-Infinity", "+Infinity", "infinity",
                        "-infinity"})
    if (s == t) return true;
  return false;
}

class result_reader {
 public:
  result_reader(const json& result, judge::verdict& out) : result_(result), out_(out) {}

  // Every key must be one of the op's result fields (docs/eval-protocol.md 3).
  void only(const judge::op_rule& rule) {
    for (const auto& [key, value] : result_.items())
      if (!judge::is_result_field(rule, key))
        out_.fail("unknown result field", "unknown result field \"" + key + "\" (" + std::string(rule.op) +
                                              " defines: " + list(rule.result_fields) + "; diagnostics go in \"diagnostics\")");
  }

  std::optional<real> number(const char* key) { return number_at(result_, key, key); }
  std::optional<bool> flag(const char* key) {
    if (!result_.contains(key)) return std::nullopt;
    if (!result_[key].is_boolean()) return malformed(key, "expected true or false, got " + brief(result_[key]));
    return result_[key].get<bool>();
  }
  std::optional<point> pair(const char* key) { return pair_at(result_, key, key); }

  std::optional<real> number_at(const json& o, const char* key, const std::string& path) {
    if (!o.contains(key)) return std::nullopt;
    return value(o[key], path);
  }
  std::optional<point> pair_at(const json& o, const char* key, const std::string& path) {
    if (!o.contains(key)) return std::nullopt;
    return pair_value(o[key], path);
  }
  std::optional<real> value(const json& v, const std::string& path) {
    if (v.is_null()) return real::not_finite();
    if (v.is_number()) {
      const double d = v.get<double>();
      return std::isfinite(d) ? real(d) : real::not_finite();
    }
    if (v.is_string()) {
      const std::string& s = v.get_ref<const std::string&>();
      if (non_finite_text(s)) return real::not_finite();
      try {
        return real(parse_exact(s));
      } catch (const std::exception&) {
        return malformed(path, "expected a number, got " + brief(v));
      }
    }
    return malformed(path, "expected a number, got " + brief(v));
  }
  std::optional<point> pair_value(const json& v, const std::string& path) {
    if (!v.is_array() || v.size() != 2) return malformed(path, "expected an [x, y] pair, got " + brief(v));
    const std::optional<real> x = value(v[0], path), y = value(v[1], path);
    if (!x || !y) return std::nullopt;
    return point(*x, *y);
  }
  std::optional<judge::matrix_answer> matrix(const char* key) {
    if (!result_.contains(key)) return std::nullopt;
    const json& m = result_[key];
    if (!m.is_array() || m.size() != 2 || !m[0].is_array() || !m[1].is_array() || m[0].size() != 2 || m[1].size() != 2)
      return malformed(key, "expected [[a, b], [c, d]], got " + brief(m));
    const auto a = value(m[0][0], key), b = value(m[0][1], key), c = value(m[1][0], key), d = value(m[1][1], key);
    if (!a || !b || !c || !d) return std::nullopt;
    return judge::matrix_answer{*a, *b, *c, *d};
  }
  // Keys of a nested object must be among `allowed`.
  bool keys_within(const json& o, const std::string& path, std::initializer_list<const char*> allowed) {
    if (!o.is_object()) {
      malformed(path, "expected an object, got " + brief(o));
      return false;
    }
    bool ok = true;
    for (const auto& [key, value] : o.items()) {
      bool known = false;
      for (const char* a : allowed) known = known || key == a;
      if (!known) {
        std::string names;
        for (const char* a : allowed) names += (names.empty() ? "" : ", ") + std::string(a);
        out_.fail("unknown result field", "unknown result field \"" + path + "." + key + "\" (allowed: " + names + ")");
        ok = false;
      }
    }
    return ok;
  }
  std::nullopt_t malformed(const std::string& path, const std::string& what) {
    out_.add(judge::malformed_field(path, what));
    return std::nullopt;
  }
  std::nullopt_t not_finite(const std::string& path) {
    out_.add(judge::not_finite_field(path));
    return std::nullopt;
  }
  const json& raw() const { return result_; }

 private:
  static std::string list(const std::vector<std::string_view>& v) {
    std::string s;
    for (std::string_view x : v) s += (s.empty() ? "" : ", ") + std::string(x);
    return s;
  }
  const json& result_;
  judge::verdict& out_;
};

// The fields the reader found wrong, then the library's verdict.
judge::verdict merged(judge::verdict read_errors, judge::verdict judged) {
  for (judge::field_verdict& f : read_errors.fields) judged.add(std::move(f));
  for (const std::string& r : read_errors.failures) judged.fail(r);
  return judged;
}

// ---- the ops -----------------------------------------------------------

using op_judge = std::function<judged(const json& request, result_reader& read, judge::verdict& read_errors,
                                      const judge::engine& e)>;

judged plain(judge::verdict read_errors, judge::verdict v) { return {merged(std::move(read_errors), std::move(v)), {}, {}, {}}; }

judge::mass_polygon_case mass_polygon_case_of(const json& q) {
  judge::mass_polygon_case c;
  c.vertices = input_points(require(q, "vertices"), "vertices");
  if (q.contains("density")) c.density = input_number(q["density"], "density");
  if (q.contains("mass")) c.mass = input_number(q["mass"], "mass");
  return c;
}

judge::pair_case pair_case_of(const json& q) { return {input_shape(require(q, "a"), "a"), input_shape(require(q, "b"), "b")}; }

judge::rectangle_case rectangle_of(const json& q, const char* name) {
  const json& v = require(q, name);
  const std::string base = std::string(name) + ".";
  if (!v.is_object()) throw invalid_input(std::string(name) + ": expected {\"center\", \"width\", \"height\", \"angle\"}");
  return {input_point(require(v, "center"), base + "center"), input_number(require(v, "width"), base + "width"),
          input_number(require(v, "height"), base + "height"), input_number(require(v, "angle"), base + "angle")};
}

judge::exact_matrix matrix_of(const json& q) {
  const json& m = require(q, "m");
  if (!m.is_array() || m.size() != 2 || !m[0].is_array() || !m[1].is_array() || m[0].size() != 2 || m[1].size() != 2)
    throw invalid_input("m: expected [[a, b], [c, d]], got " + brief(m));
  return {input_number(m[0][0], "m[0][0]"), input_number(m[0][1], "m[0][1]"), input_number(m[1][0], "m[1][0]"),
          input_number(m[1][1], "m[1][1]")};
}

judge::step_body_case step_body_of(const json& q, const char* name) {
  const json& o = require(q, name);
  const std::string base = std::string(name) + ".";
  if (!o.is_object()) throw invalid_input(std::string(name) + ": expected an object");
  judge::step_body_case b;
  if (o.contains("radius")) {
    b.is_circle = true;
    b.radius = input_number(o["radius"], base + "radius");
  } else {
    b.vertices = input_points(require(o, "vertices"), base + "vertices");
  }
  if (o.contains("position")) b.position = input_point(o["position"], base + "position");
  b.angle = input_number_or(o, "angle", 0, base);
  if (o.contains("velocity")) b.velocity = input_point(o["velocity"], base + "velocity");
  b.angular_velocity = input_number_or(o, "angular_velocity", 0, base);
  b.density = input_number_or(o, "density", 1, base);
  if (o.contains("static")) {
    if (!o["static"].is_boolean()) throw invalid_input(base + "static: expected true or false");
    b.is_static = o["static"].get<bool>();
  }
  return b;
}

judge::step_case step_case_of(const json& q) {
  if (q.contains("at_contacts"))
    throw unsupported("at_contacts is an eval extension; rigidref check judges the engine's own detection");
  judge::step_case c;
  c.body1 = step_body_of(q, "body1");
  c.body2 = step_body_of(q, "body2");
  c.restitution = input_number_or(q, "restitution", 0, "");
  c.friction = input_number_or(q, "friction", 0, "");
  c.dt = input_number_or(q, "dt", exact(1) / 60, "");
  if (q.contains("gravity")) c.gravity = input_point(q["gravity"], "gravity");
  return c;
}

judge::scene_case scene_case_of(const json& q) {
  judge::scene_case c;
  const json& list = require(q, "bodies");
  if (!list.is_array() || list.empty()) throw invalid_input("bodies: expected a non-empty list of bodies");
  if (list.size() > scene_max_bodies) throw invalid_input("bodies: at most " + std::to_string(scene_max_bodies) + " bodies");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json one = json{{"body", list[i]}};
    judge::step_body_case b = step_body_of(one, "body");
    c.bodies.push_back(std::move(b));
  }
  c.restitution = input_number_or(q, "restitution", 0, "");
  c.friction = input_number_or(q, "friction", 0, "");
  c.dt = input_number_or(q, "dt", exact(1) / 60, "");
  if (q.contains("gravity")) c.gravity = input_point(q["gravity"], "gravity");
  const auto whole = [&](const char* name, long lo, long hi, long fallback) {
    if (!q.contains(name)) return fallback;
    const exact x = input_number(q[name], name);
    if (denominator(x) != 1 || x < lo || x > hi)
      throw invalid_input(std::string(name) + ": expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi));
    return static_cast<long>(numerator(x));
  };
  c.steps = whole("steps", 1, scene_max_steps, 0);
  if (c.steps == 0) throw invalid_input("steps: required");
  c.record_every = whole("record_every", 1, c.steps, 1);
  return c;
}

// The frames of a scene.run answer: as many as requested, each at its
// step, every body, every number finite; else the case fails here.
std::optional<judge::scene_answer> scene_answer_of(const judge::scene_case& c, result_reader& r) {
  if (!r.raw().contains("frames")) return std::nullopt;
  const json& list = r.raw()["frames"];
  const std::size_t want = static_cast<std::size_t>(c.steps / c.record_every);
  if (!list.is_array()) return r.malformed("frames", "expected a list of frames"), std::nullopt;
  if (list.size() != want)
    return r.malformed("frames", "expected " + std::to_string(want) + " frames (steps / record_every), got " +
                                     std::to_string(list.size())),
           std::nullopt;
  judge::scene_answer a;
  for (std::size_t k = 0; k < list.size(); ++k) {
    const std::string at = "frames[" + std::to_string(k) + "]";
    const json& f = list[k];
    const long step = static_cast<long>(k + 1) * c.record_every;
    if (!f.is_object() || !f.contains("step") || !f["step"].is_number() || f["step"].get<double>() != static_cast<double>(step))
      return r.malformed(at, "expected \"step\": " + std::to_string(step)), std::nullopt;
    if (!r.keys_within(f, at, {"step", "bodies"})) return std::nullopt;
    if (!f.contains("bodies") || !f["bodies"].is_array() || f["bodies"].size() != c.bodies.size())
      return r.malformed(at, "expected \"bodies\": one state per body (" + std::to_string(c.bodies.size()) + ")"),
             std::nullopt;
    judge::scene_frame_answer one;
    one.step = step;
    for (std::size_t i = 0; i < c.bodies.size(); ++i) {
      const std::string bat = at + ".bodies[" + std::to_string(i) + "]";
      const json& b = f["bodies"][i];
      if (!r.keys_within(b, bat, {"position", "angle", "velocity", "angular_velocity"})) return std::nullopt;
      for (const char* key : {"position", "angle", "velocity", "angular_velocity"})
        if (!b.contains(key)) return r.malformed(bat, std::string("expected \"") + key + "\""), std::nullopt;
      const std::optional<point> p = r.pair_at(b, "position", bat + ".position"), v = r.pair_at(b, "velocity", bat + ".velocity");
      const std::optional<real> a_ = r.number_at(b, "angle", bat + ".angle"), w = r.number_at(b, "angular_velocity", bat + ".angular_velocity");
      if (!p || !v || !a_ || !w) return std::nullopt;
      for (const real* x : {&p->x, &p->y, &v->x, &v->y, &*a_, &*w})
        if (!x->finite()) return r.not_finite(bat), std::nullopt;
      const auto ld = [](const real& x) { return static_cast<long double>(round_to<long double>(x.value())); };
      one.bodies.push_back({ld(p->x), ld(p->y), ld(*a_), ld(v->x), ld(v->y), ld(*w)});
    }
    a.frames.push_back(std::move(one));
  }
  return a;
}

const std::map<std::string, op_judge, std::less<>>& op_judges() {
  static const std::map<std::string, op_judge, std::less<>> table = {
      {"mass.polygon",
       [](const json& q, result_reader& r, judge::verdict& errors, const judge::engine& e) {
         judge::mass_polygon_answer a;
         a.area = r.number("area");
         a.centroid = r.pair("centroid");
         a.mass = r.number("mass");
         a.inertia = r.number("inertia");
         return plain(std::move(errors), judge::judge_mass_polygon(mass_polygon_case_of(q), a, e));
       }},
      {"mass.triangle",
       [](const json& q, result_reader& r, judge::verdict& errors, const judge::engine& e) {
         judge::mass_triangle_case c{input_points(require(q, "vertices"), "vertices"), input_number(require(q, "mass"), "mass"),
                                     choice(q, "model", {"reference", "article"}, "reference") == "article"};
         return plain(std::move(errors), judge::judge_mass_triangle(c, r.number("inertia"), e));
       }},
      {"mass.regular_polygon",
       [](const json& q, result_reader& r, judge::verdict& errors, const judge::engine& e) {
         const exact sides = input_number(require(q, "sides"), "sides");
         if (denominator(sides) != 1 || sides < 3 || sides > 1000000)
           throw invalid_input("sides: expected an integer in [3, 1000000]");
         judge::mass_regular_polygon_case c{static_cast<long long>(numerator(sides)),
                                            input_number(require(q, "radius"), "radius"),
                                            input_number(require(q, "mass"), "mass"),
                                            choice(q, "formula", {"article", "closed_form"}, "closed_form") == "article"};
         return plain(std::move(errors), judge::judge_mass_regular_polygon(c, r.number("inertia"), e));
       }},
      {"mass.circle",
       [](const json& q, result_reader& r, judge::verdict& errors, const judge::engine& e) {
         return plain(std::move(errors), judge::judge_mass_circle(input_number(require(q, "radius"), "radius"),
                                                                  input_number(require(q, "mass"), "mass"),
                                                                  r.number("inertia"), e));
       }},
      {"mass.rectangle",
       [](const json& q, result_reader& r, judge::verdict& errors, const judge::engine& e) {
         return plain(std::move(errors),
                      judge::judge_mass_rectangle(input_number(require(q, "width"), "width"),
                                                  input_number(require(q, "height"), "height"),
                                                  input_number(require(q, "mass"), "mass"), r.number("inertia"), e));
       }},
      {"gjk.distance",
       [](const json& q, result_reader& r, judge::verdict& errors, const judge::engine& e) {
         judge::gjk_answer a;
         a.intersecting = r.flag("intersecting");
         a.distance = r.number("distance");
         a.point_a = r.pair("point_a");
         a.point_b = r.pair("point_b");
         return plain(std::move(errors), judge::judge_gjk_distance(pair_case_of(q), a, e));
       }},
      {"epa.penetration",
       [](const json& q, result_reader& r, judge::verdict& errors, const judge::engine& e) {
         judge::epa_answer a;
         a.intersecting = r.flag("intersecting");
         a.depth = r.number("depth");
         a.normal = r.pair("normal");
         return plain(std::move(errors), judge::judge_epa_penetration(pair_case_of(q), a, e));
       }},
      {"contact.manifold",
       [](const json& q, result_reader& r, judge::verdict& errors, const judge::engine& e) {
         const judge::pair_case c = pair_case_of(q);
         double margin = 0;
         if (q.contains("relative_margin")) {
           margin = static_cast<double>(round_to<double>(input_number(q["relative_margin"], "relative_margin")));
           if (!(margin >= 0)) throw invalid_input("relative_margin: must be >= 0");
         }
         judge::manifold_answer a;
         a.normal = r.pair("normal");
         if (r.raw().contains("points")) {
           const json& list = r.raw()["points"];
           if (!list.is_array()) {
             r.malformed("points", "expected a list");
           } else {
             std::vector<judge::manifold_point_answer> points;
             bool ok = true;
             for (std::size_t i = 0; i < list.size(); ++i) {
               const std::string at = "points[" + std::to_string(i) + "]";
               if (!r.keys_within(list[i], at, {"point", "separation", "reference_point", "feature_a", "feature_b"})) {
                 ok = false;
                 continue;
               }
               const std::optional<point> p = r.pair_at(list[i], "point", at + ".point");
               if (!p) {
                 if (!list[i].contains("point")) r.malformed(at, "expected {\"point\": [x, y], \"separation\": s}");
                 ok = false;
                 continue;
               }
               points.push_back({*p, r.number_at(list[i], "separation", at + ".separation")});
             }
             if (ok) a.points = std::move(points);
           }
         }
         if (!a.points && errors.failed()) return plain(std::move(errors), judge::verdict{});
         return plain(std::move(errors), judge::judge_contact_manifold(c.a, c.b, a, e, margin));
       }},
      {"sat.rectangles",
       [](const json& q, result_reader& r, judge::verdict& errors, const judge::engine& e) {
         judge::sat_rectangles_answer a;
         a.overlap = r.flag("overlap");
         if (r.raw().contains("d3")) {
           const json& d = r.raw()["d3"];
           if (!d.is_array() || d.size() != 4) {
             r.malformed("d3", "expected 4 numbers (axes n1, t1, n2, t2)");
           } else {
             std::array<real, 4> v;
             bool ok = true;
             for (std::size_t i = 0; i < 4; ++i) {
               const std::optional<real> x = r.value(d[i], "d3");
               ok = ok && x.has_value();
               if (x) v[i] = *x;
             }
             if (ok) a.d3 = v;
           }
         }
         return plain(std::move(errors), judge::judge_sat_rectangles(rectangle_of(q, "r1"), rectangle_of(q, "r2"), a, e));
       }},
      {"mat2.sqrt",
       [](const json& q, result_reader& r, judge::verdict& errors, const judge::engine& e) {
         const std::string m = choice(q, "method", {"cayley_hamilton", "diagonalization", "default"}, "default");
         const judge::sqrt_method method = m == "default"           ? judge::sqrt_method::principal
                                           : m == "cayley_hamilton" ? judge::sqrt_method::cayley_hamilton
                                                                    : judge::sqrt_method::diagonalization;
         return plain(std::move(errors), judge::judge_mat2_sqrt(matrix_of(q), method, r.matrix("x"), e));
       }},
      {"mat2.polar",
       [](const json& q, result_reader& r, judge::verdict& errors, const judge::engine& e) {
         const bool right = choice(q, "side", {"right", "left"}, "right") == "right";
         return plain(std::move(errors), judge::judge_mat2_polar(matrix_of(q), right, r.matrix("q"), r.matrix("s"), e));
       }},
      {"shape_match",
       [](const json& q, result_reader& r, judge::verdict& errors, const judge::engine& e) {
         judge::shape_match_case c;
         c.rest = input_points(require(q, "rest"), "rest");
         c.current = input_points(require(q, "current"), "current");
         if (q.contains("weights")) {
           const json& w = q["weights"];
           if (!w.is_array()) throw invalid_input("weights: expected a list of numbers");
           for (std::size_t i = 0; i < w.size(); ++i) c.weights.push_back(input_number(w[i], "weights"));
           if (c.weights.empty() && !c.rest.empty()) throw invalid_input("weights must have one entry per point");
         }
         return plain(std::move(errors), judge::judge_shape_match(c, r.number("angle"), r.pair("translation"), e));
       }},
      {"step.pair",
       [](const json& q, result_reader& r, judge::verdict& errors, const judge::engine& e) {
         judge::step_case c = step_case_of(q);
         judge::engine with_threshold = e;
         if (q.contains("restitution_threshold")) {  // an eval extension: the engine claims this threshold
           const exact t = input_number(q["restitution_threshold"], "restitution_threshold");
           if (t > with_threshold.allowance("restitution_threshold")) with_threshold.allowances["restitution_threshold"] = t;
         }
         judge::step_answer a;
         for (const char* name : {"body1_after", "body2_after"}) {
           if (!r.raw().contains(name)) continue;
           const json& b = r.raw()[name];
           if (!r.keys_within(b, name, {"position", "angle", "velocity", "angular_velocity"})) continue;
           const std::optional<point> v = r.pair_at(b, "velocity", std::string(name) + ".velocity");
           const std::optional<real> w = r.number_at(b, "angular_velocity", std::string(name) + ".angular_velocity");
           if (!v || !w) {
             if (!b.contains("velocity") || !b.contains("angular_velocity"))
               r.malformed(name, "expected \"velocity\" and \"angular_velocity\"");
             continue;
           }
           (std::string(name) == "body1_after" ? a.body1_after : a.body2_after) = judge::body_after_answer{*v, *w};
         }
         if (r.raw().contains("contacts")) {
           const json& list = r.raw()["contacts"];
           if (!list.is_array()) {
             r.malformed("contacts", "expected a list");
           } else {
             std::vector<judge::step_contact_answer> contacts;
             for (std::size_t i = 0; i < list.size(); ++i) {
               const std::string at = "contacts[" + std::to_string(i) + "]";
               const json& k = list[i];
               if (!r.keys_within(k, at, {"point", "points", "normal", "jn", "jt", "separation"})) continue;
               judge::step_contact_answer one;
               const std::optional<point> n = r.pair_at(k, "normal", at + ".normal");
               if (!n) {
                 if (!k.contains("normal")) r.malformed(at, "a contact needs \"normal\"");
                 continue;
               }
               one.normal = *n;
               if (k.contains("point")) {
                 if (const std::optional<point> p = r.pair_at(k, "point", at + ".point")) one.points.push_back(*p);
               } else if (k.contains("points") && k["points"].is_array()) {
                 for (const json& p : k["points"])
                   if (const std::optional<point> x = r.pair_value(p, at + ".points")) one.points.push_back(*x);
               } else {
                 r.malformed(at, "a contact needs \"point\" or \"points\"");
                 continue;
               }
               one.jn = r.number_at(k, "jn", at + ".jn");
               one.jt = r.number_at(k, "jt", at + ".jt");
               contacts.push_back(std::move(one));
             }
             a.contacts = std::move(contacts);
           }
         }
         judge::step_verdict s = judge::judge_step_pair(c, a, with_threshold);
         judge::verdict laws = s;
         judged out{merged(std::move(errors), s), std::move(s), std::move(laws), std::nullopt};
         return out;
       }},
      {"scene.run",
       [](const json& q, result_reader& r, judge::verdict& errors, const judge::engine& e) {
         const judge::scene_case c = scene_case_of(q);
         judge::validate_scene_case(c);  // the reference rejects what eval rejects
         judge::engine with_threshold = e;
         if (q.contains("restitution_threshold")) {  // an eval extension: the engine claims this threshold
           const exact t = input_number(q["restitution_threshold"], "restitution_threshold");
           if (t > with_threshold.allowance("restitution_threshold")) with_threshold.allowances["restitution_threshold"] = t;
         }
         const std::optional<judge::scene_answer> a = scene_answer_of(c, r);
         if (!a) return plain(std::move(errors), judge::verdict{});
         judge::scene_verdict s = judge::judge_scene_run(c, *a, with_threshold);
         judge::verdict laws = s;
         judged out{merged(std::move(errors), laws), std::nullopt, laws, std::move(s)};
         return out;
       }},
  };
  return table;
}

}  // namespace

judge::engine engine_of(const std::string& precision, const json& allowances) {
  judge::engine e(judge::precision::named(precision));
  if (!allowances.is_null()) {
    if (!allowances.is_object()) throw std::invalid_argument("allowances: expected an object {\"name\": amount}");
    for (const auto& [name, amount] : allowances.items()) {
      if (judge::find_allowance(name) == nullptr) throw std::invalid_argument("allowances: unknown allowance \"" + name + "\"");
      exact value;
      try {
        value = input_number(amount, "allowances." + name);
      } catch (const std::exception& x) {
        throw std::invalid_argument(x.what());
      }
      e.allowances[name] = value < 0 ? exact(-value) : value;
    }
  }
  return e;
}

judged judge_answer(const std::string& op, const json& request, const json& result, const judge::engine& engine) {
  const auto it = op_judges().find(op);
  const judge::op_rule* rule = judge::find_op_rule(op);
  if (it == op_judges().end() || rule == nullptr)
    throw std::invalid_argument("rigidref check has no tolerance rule for op \"" + op + "\"");
  judge::verdict read_errors;
  result_reader reader(result, read_errors);
  reader.only(*rule);
  judged out = it->second(request, reader, read_errors, engine);
  out.verdict.finish();
  return out;
}

void reference_accepts(const std::string& op, const json& request) {
  // The same as judging an empty answer: the reference runs first and throws
  // when it rejects the case.
  const judge::engine any;
  (void)judge_answer(op, request, json::object(), any);
}

}  // namespace rigidref::tools::check
