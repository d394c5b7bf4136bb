#include "hunt/generators.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace rigidref::tools::hunt {

using json = nlohmann::json;

namespace {

constexpr double pi = 3.14159265358979323846;

struct pt {
  double x = 0, y = 0;
};

// Every input is a float written exactly, as in the committed case sets:
// float and double engines then solve the same problem.
double f32(double x) { return static_cast<double>(static_cast<float>(x)); }

json xy(pt p) { return json::array({f32(p.x), f32(p.y)}); }

pt turned(pt p, double radians) {
  const double c = std::cos(radians), s = std::sin(radians);
  return {c * p.x - s * p.y, s * p.x + c * p.y};
}

double size_of(const shape_params& s) { return std::pow(10.0, s.size_exp); }
double minor_of(const shape_params& s) { return size_of(s) * std::pow(10.0, -s.thin_exp); }

// Rounds to `digits` significant digits of the shape's size (0: keep).
double quantized(double x, const shape_params& s) {
  if (s.digits <= 0) return x;
  const double q = std::pow(10.0, std::floor(std::log10(size_of(s))) - s.digits + 1);
  return std::round(x / q) * q;
}

pt quantized(pt p, const shape_params& s) { return {quantized(p.x, s), quantized(p.y, s)}; }

// The polygon's vertices about the origin (not moved), in order.
std::vector<pt> outline(const shape_params& s) {
  const int n = std::clamp(s.n, 3, 64);
  double total = 0;
  for (int k = 0; k < n; ++k) total += std::max(1, s.gaps[static_cast<std::size_t>(k)]);
  std::vector<pt> v;
  double run = 0;
  const bool star = s.kind == 6 && n >= 6 && n % 2 == 0;
  for (int k = 0; k < n; ++k) {
    const double a = 2 * pi * run / total;
    run += std::max(1, s.gaps[static_cast<std::size_t>(k)]);
    const double r = star && k % 2 == 1 ? 0.4 : 1.0;
    v.push_back(turned({r * size_of(s) * std::cos(a), r * minor_of(s) * std::sin(a)}, s.turn_deg * pi / 180));
  }
  if (s.clockwise) std::reverse(v.begin(), v.end());
  return v;
}

pt offset_of(const shape_params& s) {
  const double k = std::pow(10.0, s.off_exp);
  return {s.off_x * k, s.off_y * k};
}

// The shape in the protocol's form, about `centre`.
json shape_json(const shape_params& s, pt centre) {
  const auto at = [&](pt p) { return quantized(pt{p.x + centre.x, p.y + centre.y}, s); };
  switch (s.kind) {
    case 1: return {{"center", xy(at({0, 0}))}, {"radius", f32(size_of(s))}};
    case 2: return {{"point", xy(at({0, 0}))}};
    case 3:
    case 4: {
      const pt e = turned({size_of(s), 0}, s.turn_deg * pi / 180);
      const json ends = json::array({xy(at({-e.x, -e.y})), xy(at(e))});
      if (ends[0] == ends[1]) throw std::invalid_argument("the segment's ends round to one point");
      json out = {{"segment", ends}};
      if (s.kind == 4) out["radius"] = f32(minor_of(s) / 2);
      return out;
    }
    default: {
      json v = json::array();
      for (const pt& p : outline(s)) {  // vertices that round to one point are one vertex
        const json q = xy(at(p));
        if (v.empty() || (q != v.back() && q != v.front())) v.push_back(q);
      }
      if (s.kind == 5) return {{"vertices", v}, {"radius", f32(minor_of(s) / 2)}};
      return v;
    }
  }
}

// How far the shape reaches from its centre along unit direction d (turned
// by `angle`): its support value.
double reach(const shape_params& s, pt d, double angle) {
  if (s.kind == 1) return size_of(s);
  double best = -1e300;
  for (const pt& p : outline(s)) {
    const pt q = turned(p, angle);
    best = std::max(best, q.x * d.x + q.y * d.y);
  }
  return best;
}

// step.pair and scene.run draw the same bodies; scene.run steps them
// `scene_steps` times.
bool with_bodies(const std::string& op) { return op == "step.pair" || op == "scene.run"; }

// ---- random parameters -----------------------------------------------------

struct drawer {
  rc::Random random;
  int operator()(int lo, int hi) {
    const int v = rc::gen::inRange(lo, hi + 1)(random.split()).value();
    return v;
  }
};

shape_params draw_shape(drawer& d, const std::vector<int>& kinds) {
  shape_params s;
  s.kind = kinds[static_cast<std::size_t>(d(0, static_cast<int>(kinds.size()) - 1))];
  // Mostly few vertices, sometimes many.
  s.n = d(0, 3) == 0 ? d(9, 64) : d(3, 8);
  for (int& g : s.gaps) g = d(0, 2) == 0 ? 1 + d(0, 3) : d(1, 100);
  s.size_exp = d(0, 2) == 0 ? d(-6, 6) : d(-1, 1);
  s.thin_exp = d(0, 4) == 0 ? d(1, 6) : 0;
  s.turn_deg = d(0, 359);
  if (d(0, 2) == 0) {
    s.off_x = d(-9, 9);
    s.off_y = d(-9, 9);
    s.off_exp = d(0, 6);
  }
  s.digits = d(0, 3) == 0 ? d(1, 8) : 0;
  s.clockwise = d(0, 3) == 0;
  return s;
}

case_params draw_case(const std::string& op, drawer& d) {
  case_params p;
  p.op = op;
  if (op == "mass.polygon") {
    p.a = draw_shape(d, {0, 0, 0, 6});
    p.density_exp = d(0, 3) == 0 ? d(-3, 3) : 0;
  } else if (op == "contact.manifold") {
    p.a = draw_shape(d, {0, 0, 1});
    p.b = draw_shape(d, {0, 0, 1});
  } else if (with_bodies(op)) {
    p.scene = d(0, 2);
    p.a = draw_shape(d, {0, 1});
    p.b = draw_shape(d, {0, 0, 1});
    for (shape_params* s : {&p.a, &p.b}) {  // bodies of sizes 0.1 .. 10, whole digits of float
      s->size_exp = d(-1, 1);
      s->off_x = s->off_y = s->off_exp = 0;
      s->thin_exp = std::min(s->thin_exp, 1);
      s->n = std::min(s->n, 12);
    }
    p.vx = d(-99, 99);
    p.vy = d(-99, 99);
    p.w = d(-30, 30);
    if (p.scene == 2) {
      p.vx1 = d(-99, 99);
      p.vy1 = d(-99, 99);
      p.w1 = d(-30, 30);
    }
    p.restitution_pc = d(0, 2) == 0 ? 100 * d(0, 1) : d(0, 100);
    p.friction_pc = d(0, 5) == 0 ? 0 : d(0, 150);
    p.gravity = p.scene != 2 && d(0, 1) == 1;
    p.overlap_permille = d(1, 30);
    p.direction_deg = d(0, 359);
    if (op == "scene.run") p.scene_steps = d(1, 120);
  } else {
    p.a = draw_shape(d, {0, 0, 0, 1, 2, 3, 4, 5});
    p.b = draw_shape(d, {0, 0, 0, 1, 2, 3, 4, 5});
    if (op == "gjk.distance" || op == "epa.penetration")
      if (p.a.kind != 0 && p.a.kind != 5 && p.b.kind != 0 && p.b.kind != 5) p.a.kind = 0;  // one polygon at least
  }
  if (op != "mass.polygon" && !with_bodies(op)) {
    p.direction_deg = d(0, 359);
    // Apart, touching and overlapping alike: centre distances around the
    // sum of the sizes, and near touching more often.
    const int mode = d(0, 2);
    p.gap = mode == 0 ? d(0, 200000) : mode == 1 ? d(90000, 110000) : d(99000, 101000);
  }
  return p;
}

// ---- shrinking ---------------------------------------------------------------

// Values from `target` towards `v`, simplest first (RapidCheck's integral
// shrinking): target, then halfway, ..., v - 1.
std::vector<int> towards(int v, int target) {
  std::vector<int> out;
  for (int diff = v - target; diff != 0; diff /= 2) out.push_back(v - diff);
  return out;
}

template <class Set>
void try_values(std::vector<case_params>& out, const case_params& p, int value, const std::vector<int>& candidates, Set set) {
  for (int c : candidates)
    if (c != value) {
      case_params q = p;
      set(q, c);
      out.push_back(q);
    }
}

// The shape's form: its kind, vertex count, offset and size.
void form_shrinks(std::vector<case_params>& out, const case_params& p, shape_params case_params::*which, bool moves) {
  const shape_params& s = p.*which;
  const auto field = [&](int shape_params::*f, int target) {
    try_values(out, p, s.*f, towards(s.*f, target), [&](case_params& q, int c) { (q.*which).*f = c; });
  };
  field(&shape_params::kind, 0);
  field(&shape_params::n, 3);
  if (moves) {
    field(&shape_params::off_x, 0);
    field(&shape_params::off_y, 0);
    field(&shape_params::off_exp, 0);
  }
  field(&shape_params::size_exp, 0);
}

// The shape's details: its thickness, digits, turn, spacing and orientation.
void detail_shrinks(std::vector<case_params>& out, const case_params& p, shape_params case_params::*which) {
  const shape_params& s = p.*which;
  const auto field = [&](int shape_params::*f, int target) {
    try_values(out, p, s.*f, towards(s.*f, target), [&](case_params& q, int c) { (q.*which).*f = c; });
  };
  field(&shape_params::thin_exp, 0);
  // Fewer digits: from full precision to 1, 2, ... digits; then fewer still.
  std::vector<int> digit_values;
  if (s.digits == 0)
    for (int k = 1; k <= 8; ++k) digit_values.push_back(k);
  else
    digit_values = towards(s.digits, 1);
  try_values(out, p, s.digits, digit_values, [&](case_params& q, int c) { (q.*which).digits = c; });
  field(&shape_params::turn_deg, 0);
  // A regular polygon, then one gap at a time.
  const int n = std::clamp(s.n, 3, 64);
  bool regular = true;
  for (int k = 0; k < n; ++k) regular = regular && s.gaps[static_cast<std::size_t>(k)] == 1;
  if (!regular) {
    case_params q = p;
    for (int& g : (q.*which).gaps) g = 1;
    out.push_back(q);
    for (int k = 0; k < n; ++k)
      if (s.gaps[static_cast<std::size_t>(k)] != 1) {
        case_params r = p;
        (r.*which).gaps[static_cast<std::size_t>(k)] = 1;
        out.push_back(r);
      }
  }
  if (s.clockwise) {
    case_params q = p;
    (q.*which).clockwise = false;
    out.push_back(q);
  }
}

}  // namespace

const std::vector<std::string>& hunt_ops() {
  static const std::vector<std::string> ops = {"mass.polygon", "gjk.distance", "epa.penetration", "contact.manifold",
                                               "step.pair", "scene.run"};
  return ops;
}

std::vector<case_params> shrinks_of(const case_params& p) {
  std::vector<case_params> out;
  const auto field = [&](int case_params::*f, int target) {
    try_values(out, p, p.*f, towards(p.*f, target), [&](case_params& q, int c) { q.*f = c; });
  };
  const bool pair = p.op != "mass.polygon";
  if (with_bodies(p.op)) {
    if (p.op == "scene.run") field(&case_params::scene_steps, 1);
    field(&case_params::scene, 0);
    form_shrinks(out, p, &case_params::b, false);
    detail_shrinks(out, p, &case_params::b);
    if (p.scene == 2) {
      form_shrinks(out, p, &case_params::a, false);
      detail_shrinks(out, p, &case_params::a);
      field(&case_params::direction_deg, 0);
    }
    for (int case_params::*v : {&case_params::vx, &case_params::vy, &case_params::w, &case_params::vx1,
                                &case_params::vy1, &case_params::w1})
      field(v, 0);
    // A coefficient goes to 0, or to 1 from above, or else as low as it
    // still fails: where a law breaks from some value on, the shrunk case
    // sits just past that value.
    for (int case_params::*c : {&case_params::restitution_pc, &case_params::friction_pc}) {
      std::vector<int> values;
      if (p.*c > 100) values.push_back(100);
      for (int v : towards(p.*c, 0)) values.push_back(v);
      try_values(out, p, p.*c, values, [&](case_params& q, int v) { q.*c = v; });
    }
    if (p.gravity) {
      case_params q = p;
      q.gravity = false;
      out.push_back(q);
    }
    field(&case_params::overlap_permille, 10);
    return out;
  }
  // The forms first; then, for a pair, how far apart (so that a failure
  // that starts at some depth or distance shrinks to just past it before
  // the details, which could make the shapes too thin to reach it); then
  // the details.
  form_shrinks(out, p, &case_params::a, true);
  if (pair) {
    form_shrinks(out, p, &case_params::b, false);
    field(&case_params::gap, 0);
    field(&case_params::direction_deg, 0);
    detail_shrinks(out, p, &case_params::a);
    detail_shrinks(out, p, &case_params::b);
  } else {
    detail_shrinks(out, p, &case_params::a);
    field(&case_params::density_exp, 0);
  }
  return out;
}

rc::Gen<case_params> case_generator(const std::string& op) {
  if (std::find(hunt_ops().begin(), hunt_ops().end(), op) == hunt_ops().end())
    throw std::invalid_argument("hunt has no generator for op \"" + op + "\"");
  return rc::Gen<case_params>([op](const rc::Random& random, int) {
    drawer d{random};
    return rc::shrinkable::shrinkRecur(draw_case(op, d), [](const case_params& p) {
      return rc::seq::fromContainer(shrinks_of(p));
    });
  });
}

json request_of(const case_params& p) {
  json r = {{"op", p.op}};
  if (p.op == "mass.polygon") {
    r["vertices"] = shape_json(p.a, offset_of(p.a));
    if (p.density_exp != 0) r["density"] = f32(std::pow(10.0, p.density_exp));
    return r;
  }
  if (with_bodies(p.op)) {
    const auto body = [](const shape_params& s, pt position, double angle, pt v, double w, bool fixed) {
      json b = s.kind == 1 ? json{{"radius", f32(size_of(s))}} : json{{"vertices", shape_json(s, {0, 0})}};
      b["position"] = xy(position);
      b["angle"] = f32(angle);
      b["velocity"] = xy(v);
      b["angular_velocity"] = f32(w);
      b["density"] = 1;
      if (fixed) b["static"] = true;
      return b;
    };
    shape_params a = p.a, b = p.b;
    a.turn_deg = b.turn_deg = 0;  // the body's angle turns it
    const double angle2 = p.b.turn_deg * pi / 180, angle1 = p.a.turn_deg * pi / 180;
    const double smaller = std::min(size_of(b), p.scene == 2 ? size_of(a) : size_of(b));
    const double overlap = smaller * p.overlap_permille / 1000.0;
    const pt v2{p.vx / 10.0, p.vy / 10.0};
    if (p.scene == 0 || p.scene == 1) {
      const double half = std::max(5.0, 5 * size_of(b));
      shape_params ground;
      ground.kind = 0;
      json box = json::array();
      if (p.scene == 0) {  // the ground's top face is y = 0
        for (pt q : {pt{-half, -half / 10}, pt{half, -half / 10}, pt{half, 0}, pt{-half, 0}}) box.push_back(xy(q));
        const double low = reach(b, {0, -1}, angle2);
        r["body1"] = {{"vertices", box}, {"position", {0, 0}}, {"angle", 0}, {"velocity", {0, 0}},
                      {"angular_velocity", 0}, {"density", 1}, {"static", true}};
        r["body2"] = body(b, {0, low - overlap}, angle2, v2, p.w / 10.0, false);
      } else {  // the wall's left face is x = 0
        for (pt q : {pt{0, -half}, pt{half / 10, -half}, pt{half / 10, half}, pt{0, half}}) box.push_back(xy(q));
        const double right = reach(b, {1, 0}, angle2);
        r["body1"] = {{"vertices", box}, {"position", {0, 0}}, {"angle", 0}, {"velocity", {0, 0}},
                      {"angular_velocity", 0}, {"density", 1}, {"static", true}};
        r["body2"] = body(b, {-(right - overlap), 0}, angle2, v2, p.w / 10.0, false);
      }
      r["gravity"] = p.gravity ? json::array({0, f32(-9.8)}) : json::array({0, 0});
    } else {
      const double dir = p.direction_deg * pi / 180;
      const pt d{std::cos(dir), std::sin(dir)};
      const double distance = reach(a, d, angle1) + reach(b, {-d.x, -d.y}, angle2) - overlap;
      r["body1"] = body(a, {0, 0}, angle1, {p.vx1 / 10.0, p.vy1 / 10.0}, p.w1 / 10.0, false);
      r["body2"] = body(b, {d.x * distance, d.y * distance}, angle2, v2, p.w / 10.0, false);
      r["gravity"] = json::array({0, 0});
    }
    r["restitution"] = f32(p.restitution_pc / 100.0);
    r["friction"] = f32(p.friction_pc / 100.0);
    r["dt"] = f32(1.0 / 60);
    if (p.op == "scene.run") {  // the same two bodies, stepped scene_steps times
      r["bodies"] = json::array({r["body1"], r["body2"]});
      r.erase("body1");
      r.erase("body2");
      r["steps"] = std::clamp(p.scene_steps, 1, 120);
      r["record_every"] = 1;
    }
    return r;
  }
  // Pairs: a where its offset puts it, b at the given direction and centre
  // distance (in 1e-5 of the sum of the sizes).
  const pt ca = offset_of(p.a);
  const double dir = p.direction_deg * pi / 180;
  const double distance = (size_of(p.a) + size_of(p.b)) * p.gap / 100000.0;
  const pt cb{ca.x + distance * std::cos(dir), ca.y + distance * std::sin(dir)};
  r["a"] = shape_json(p.a, ca);
  r["b"] = shape_json(p.b, cb);
  return r;
}

std::vector<case_params> neighbours_of(const case_params& p) {
  std::vector<case_params> out;
  const auto step = [&](auto set, int value, int lo, int hi, int by) {
    for (int v : {value - by, value + by})
      if (v >= lo && v <= hi) {
        case_params q = p;
        set(q, v);
        out.push_back(q);
      }
  };
  for (shape_params case_params::*which : {&case_params::a, &case_params::b}) {
    if (which == &case_params::b && p.op == "mass.polygon") continue;
    const shape_params& s = p.*which;
    const auto shape_step = [&](int shape_params::*f, int lo, int hi, int by) {
      step([&](case_params& q, int v) { (q.*which).*f = v; }, s.*f, lo, hi, by);
    };
    const bool bodies = with_bodies(p.op);
    shape_step(&shape_params::n, 3, bodies ? 12 : 64, 1);
    shape_step(&shape_params::size_exp, bodies ? -1 : -6, bodies ? 1 : 6, 1);
    shape_step(&shape_params::thin_exp, 0, bodies ? 1 : 6, 1);
    shape_step(&shape_params::turn_deg, 0, 359, 5);
    shape_step(&shape_params::digits, 0, 8, 1);
    if (!bodies) {
      shape_step(&shape_params::off_exp, 0, 6, 1);
      shape_step(&shape_params::off_x, -9, 9, 1);
    }
  }
  const auto own = [&](int case_params::*f, int lo, int hi, int by) {
    step([&](case_params& q, int v) { q.*f = v; }, p.*f, lo, hi, by);
  };
  if (with_bodies(p.op)) {
    if (p.op == "scene.run") own(&case_params::scene_steps, 1, 120, 10);
    for (int case_params::*v : {&case_params::vx, &case_params::vy}) own(v, -99, 99, 5);
    own(&case_params::w, -30, 30, 2);
    own(&case_params::restitution_pc, 0, 100, 5);
    own(&case_params::friction_pc, 0, 150, 5);
    own(&case_params::overlap_permille, 1, 100, 2);
  } else if (p.op == "mass.polygon") {
    own(&case_params::density_exp, -3, 3, 1);
  } else {
    own(&case_params::gap, 0, 200000, 10);
    own(&case_params::gap, 0, 200000, 1000);
    own(&case_params::direction_deg, 0, 359, 5);
  }
  return out;
}

json describe(const case_params& p) {
  const auto shape = [](const shape_params& s) {
    static const char* names[] = {"polygon", "circle", "point", "segment", "capsule", "rounded polygon", "star"};
    json d = {{"kind", names[std::clamp(s.kind, 0, 6)]}, {"size", size_of(s)}};
    if (s.kind == 0 || s.kind == 5 || s.kind == 6) d["vertices"] = std::clamp(s.n, 3, 64);
    if (s.thin_exp != 0) d["aspect"] = std::pow(10.0, s.thin_exp);
    if (s.off_x != 0 || s.off_y != 0) d["offset"] = std::hypot(offset_of(s).x, offset_of(s).y);
    d["digits"] = s.digits == 0 ? json("full") : json(s.digits);
    return d;
  };
  json d = json::object();
  if (!with_bodies(p.op) || p.scene == 2) d["a"] = shape(p.a);  // a ground or a wall is fixed
  if (p.op != "mass.polygon") {
    d["b"] = shape(p.b);
    d["b"].erase("offset");  // b is placed from a (direction and centre distance)
  }
  if (p.op != "mass.polygon" && !with_bodies(p.op)) d["centre_distance"] = p.gap / 100000.0;
  if (with_bodies(p.op)) {
    if (p.op == "scene.run") d["steps"] = p.scene_steps;
    d["scene"] = p.scene == 0 ? "ground" : p.scene == 1 ? "wall" : "pair";
    d["restitution"] = p.restitution_pc / 100.0;
    d["friction"] = p.friction_pc / 100.0;
  }
  return d;
}

}  // namespace rigidref::tools::hunt
