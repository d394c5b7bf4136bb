// The inputs the two Box2D adapters (rigidref-box2d, rigidref-box2d-v3)
// read alike: a polygon's strict convexity on its floats, and the bodies and
// scalars of step.pair and scene.run rounded to float (Box2D computes in
// float), written back into the line as Box2D is given them.
#pragma once

#include <rigidref/protocol/adapter_io.hpp>

#include "rigidref/predicates.hpp"

#include <string>
#include <vector>

namespace rigidref::adapters {

using namespace rigidref::protocol;

// Convex with every turn strictly one way (exact predicate on the floats).
inline bool strictly_convex(const std::vector<point>& v) {
  int sign = 0;
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i) {
    const rigidref::vec2<double> a{v[i].x, v[i].y}, b{v[(i + 1) % n].x, v[(i + 1) % n].y},
        c{v[(i + 2) % n].x, v[(i + 2) % n].y};
    const int o = rigidref::orientation(a, b, c);
    if (o == 0 || (sign != 0 && o != sign)) return false;
    sign = o;
  }
  return true;
}

// A positive input rounded to float: unsupported where float makes it 0.
inline double positive_float(double x, const std::string& what) {
  if (!(x > 0)) throw std::invalid_argument(what + ": must be > 0");
  const double f = to_float(x, what);
  if (!(f > 0)) throw unsupported_case(what + ": " + ojson(x).dump() + " is 0 in float");
  return f;
}

struct body_request {
  bool is_static = false;
  bool polygon = false;
  std::vector<point> vertices;
  double radius = 0;
  point position{0, 0}, velocity{0, 0};
  double angle = 0, angular_velocity = 0, density = 1;
};

// Reads a body (step.pair's body1/body2, scene.run's bodies[i]), checks it
// (invalid_input) and rewrites it with the floats Box2D is given.
inline body_request read_body(ojson& j, const std::string& what) {
  if (!j.is_object()) throw std::invalid_argument(what + ": expected an object");
  body_request b;
  b.is_static = j.value("static", false);
  if (j.contains("vertices") == j.contains("radius"))
    throw std::invalid_argument(what + ": give \"vertices\" (a convex polygon) or \"radius\" (a circle)");
  if (j.contains("vertices")) {
    b.polygon = true;
    const ojson& list = j["vertices"];
    if (!list.is_array()) throw std::invalid_argument(what + ".vertices: expected a list of [x, y]");
    for (std::size_t i = 0; i < list.size(); ++i) b.vertices.push_back(finite_point(list[i], what + ".vertices"));
    b.vertices = to_float_grid(b.vertices, what + ".vertices");
    if (!convex_polygon(b.vertices))
      throw std::invalid_argument(what + ".vertices: not a convex polygon with an area (in float)");
    j["vertices"] = points_json(b.vertices);
  } else {
    b.radius = positive_float(finite_number(j["radius"], what + ".radius"), what + ".radius");
    j["radius"] = b.radius;
  }
  const auto vec = [&](const char* field, point fallback) {
    if (!j.contains(field)) return fallback;
    point p = finite_point(j[field], what + "." + field);
    p = {to_float(p.x, what + "." + field), to_float(p.y, what + "." + field)};
    j[field] = vec_json(p.x, p.y);
    return p;
  };
  const auto scalar = [&](const char* field, double fallback) {
    if (!j.contains(field)) return fallback;
    const double x = to_float(finite_number(j[field], what + "." + field), what + "." + field);
    j[field] = x;
    return x;
  };
  b.position = vec("position", {0, 0});
  b.velocity = vec("velocity", {0, 0});
  b.angle = scalar("angle", 0);
  b.angular_velocity = scalar("angular_velocity", 0);
  if (!b.is_static && !j.contains("density")) throw std::invalid_argument(what + ": a dynamic body needs \"density\"");
  if (j.contains("density")) {
    b.density = positive_float(finite_number(j["density"], what + ".density"), what + ".density");
    j["density"] = b.density;
  }
  return b;
}

inline double read_step_scalar(ojson& line, const char* field, bool positive) {
  const double given = finite_number(line.at(field), field);
  if (positive) {
    const double x = positive_float(given, field);
    line[field] = x;
    return x;
  }
  if (given < 0) throw std::invalid_argument(std::string(field) + ": must be >= 0");
  const double x = to_float(given, field);
  line[field] = x;
  return x;
}

// As above, `fallback` rounded to float when the field is absent (scene.run's
// defaults); an absent field stays absent in the line.
inline double read_step_scalar(ojson& line, const char* field, bool positive, double fallback) {
  if (!line.contains(field)) return to_float(fallback, field);
  return read_step_scalar(line, field, positive);
}

// "gravity" (default [0, 0]) rounded to float, written back as Box2D is given it.
inline point read_gravity(ojson& line) {
  if (!line.contains("gravity")) return {0, 0};
  point g = finite_point(line["gravity"], "gravity");
  g = {to_float(g.x, "gravity"), to_float(g.y, "gravity")};
  line["gravity"] = vec_json(g.x, g.y);
  return g;
}

}  // namespace rigidref::adapters
