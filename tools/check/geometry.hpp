// Geometry that `rigidref check` needs to judge answers that are not unique:
// closest points of shapes (polygons, circles, points, segments, capsules,
// rounded polygons: a core and a radius) with parallel faces (any pair along the faces is
// right) and the normal of a penetration with several minimal directions (a
// box and itself). Such answers are judged by what they claim, not by
// equality with the reference's choice:
//   - a closest point must lie on its shape, and the two points must be the
//     reference distance apart;
//   - a normal n must separate: translating B by depth(n) n, where depth(n)
//     = max_A a.n - min_B b.n (|n| = 1), must take as little as the
//     reference depth.
// Everything in exact arithmetic; the few square roots in 100 digits (D-ENGINE-2).
#pragma once

#include "protocol/json.hpp"

#include "rigidref/convert.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/verify/collision_oracle.hpp"

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rigidref::tools::check {

// A shape of docs/eval-protocol.md section 2 as a core and a radius: the
// core is `polygon` (>= 3 vertices, or the 2 ends of a segment) or, when
// that is empty, the point `center` (a circle's centre, or a point).
struct exact_shape {
  std::vector<vec2<exact>> polygon;  // >= 3: a polygon; 2: a segment; empty: the point `center`
  vec2<exact> center;
  exact radius = 0;
};

inline exact exact_of(const nlohmann::json& v, const std::string& where) {
  if (v.is_number()) return to_exact(v.get<double>());
  if (v.is_string()) return parse_exact(v.get_ref<const std::string&>());
  throw std::invalid_argument(where + ": expected a number");
}

inline vec2<exact> exact_pair_of(const nlohmann::json& p, const std::string& where) {
  return {exact_of(p.at(0), where), exact_of(p.at(1), where)};
}

// Every form of docs/eval-protocol.md section 2 (the eval answered it, so it
// is well formed): a list of [x, y], {"vertices", "radius"?}, {"center",
// "radius"}, {"point"}, {"segment", "radius"?}.
inline std::optional<exact_shape> shape_of(const nlohmann::json& request, const char* name) {
  const auto it = request.find(name);
  if (it == request.end()) return std::nullopt;
  exact_shape s;
  const nlohmann::json& v = *it;
  if (v.is_object()) {
    if (v.contains("radius")) s.radius = exact_of(v["radius"], name);
    if (v.contains("center")) s.center = exact_pair_of(v["center"], name);
    if (v.contains("point")) s.center = exact_pair_of(v["point"], name);
    if (v.contains("segment"))
      for (const auto& p : v["segment"]) s.polygon.push_back(exact_pair_of(p, name));
    if (v.contains("vertices"))
      for (const auto& p : v["vertices"]) s.polygon.push_back(exact_pair_of(p, name));
    return s;
  }
  for (const auto& p : v) s.polygon.push_back(exact_pair_of(p, name));
  return s;
}

inline exact sqrt_exact(const exact& x) {
  using std::sqrt;
  const mp100 r = sqrt(round_to<mp100>(x));
  return to_exact(r);
}

inline exact abs_of(const exact& x) { return x < 0 ? exact(-x) : x; }

// Distance from p to the core: 0 inside a polygon core.
inline exact distance_to_core(const exact_shape& s, const vec2<exact>& p) {
  if (s.polygon.empty()) return sqrt_exact(length_squared(p - s.center));
  const auto& v = s.polygon;
  if (v.size() == 2) return sqrt_exact(verify::point_segment_distance_squared(p, v[0], v[1]));
  int sign = 0;
  bool inside = true;
  exact best = -1;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const vec2<exact>& a = v[i];
    const vec2<exact>& b = v[(i + 1) % v.size()];
    const exact side = cross(b - a, p - a);
    const int sg = side > 0 ? 1 : side < 0 ? -1 : 0;
    if (sg != 0) {
      if (sign != 0 && sg != sign) inside = false;
      sign = sg;
    }
    const exact d = verify::point_segment_distance_squared(p, a, b);
    if (best < 0 || d < best) best = d;
  }
  return inside ? exact(0) : sqrt_exact(best);
}

// Distance from p to the shape: to the core for radius 0 (0 inside a
// polygon), else to the boundary at the radius, |d_core - r| (a witness of a
// rounded shape lies on its boundary).
inline exact distance_to_shape(const exact_shape& s, const vec2<exact>& p) {
  const exact d = distance_to_core(s, p);
  return s.radius == 0 ? d : abs_of(exact(d - s.radius));
}

// max over s of x.n (support value): the core's, plus r |n|.
inline exact support_value(const exact_shape& s, const vec2<exact>& n) {
  exact best = s.polygon.empty() ? dot(s.center, n) : dot(s.polygon.front(), n);
  for (const auto& p : s.polygon) best = std::max(best, dot(p, n));
  if (s.radius != 0) best += s.radius * sqrt_exact(length_squared(n));
  return best;
}

// How far B must move along the unit direction of n to separate from A.
inline exact depth_along(const exact_shape& a, const exact_shape& b, const vec2<exact>& n) {
  const exact len = sqrt_exact(length_squared(n));
  if (len == 0) throw std::invalid_argument("normal is the zero vector");
  return (support_value(a, n) + support_value(b, -n)) / len;
}

}  // namespace rigidref::tools::check
