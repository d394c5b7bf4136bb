// Geometry that `rigidref check` needs to judge answers that are not unique:
// closest points of shapes with parallel faces (any pair along the faces is
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

struct exact_shape {
  std::vector<vec2<exact>> polygon;  // empty for a circle
  vec2<exact> center;
  exact radius = 0;
};

inline exact exact_of(const nlohmann::json& v, const std::string& where) {
  if (v.is_number()) return to_exact(v.get<double>());
  if (v.is_string()) return parse_exact(v.get_ref<const std::string&>());
  throw std::invalid_argument(where + ": expected a number");
}

inline std::optional<exact_shape> shape_of(const nlohmann::json& request, const char* name) {
  const auto it = request.find(name);
  if (it == request.end()) return std::nullopt;
  exact_shape s;
  if (it->is_object()) {
    const nlohmann::json& c = (*it)["center"];
    s.center = {exact_of(c.at(0), name), exact_of(c.at(1), name)};
    s.radius = exact_of((*it)["radius"], name);
    return s;
  }
  for (const auto& p : *it) s.polygon.push_back({exact_of(p.at(0), name), exact_of(p.at(1), name)});
  return s;
}

inline exact sqrt_exact(const exact& x) {
  using std::sqrt;
  const mp100 r = sqrt(round_to<mp100>(x));
  return to_exact(r);
}

inline exact abs_of(const exact& x) { return x < 0 ? exact(-x) : x; }

// Distance from p to the boundary-or-inside of a convex polygon: 0 inside.
inline exact distance_to_shape(const exact_shape& s, const vec2<exact>& p) {
  if (s.polygon.empty()) return abs_of(exact(sqrt_exact(length_squared(p - s.center)) - s.radius));
  const auto& v = s.polygon;
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

// max over s of x.n (support value); circles: c.n + r |n|.
inline exact support_value(const exact_shape& s, const vec2<exact>& n) {
  if (s.polygon.empty()) return dot(s.center, n) + s.radius * sqrt_exact(length_squared(n));
  exact best = dot(s.polygon.front(), n);
  for (const auto& p : s.polygon) best = std::max(best, dot(p, n));
  return best;
}

// How far B must move along the unit direction of n to separate from A.
inline exact depth_along(const exact_shape& a, const exact_shape& b, const vec2<exact>& n) {
  const exact len = sqrt_exact(length_squared(n));
  if (len == 0) throw std::invalid_argument("normal is the zero vector");
  return (support_value(a, n) + support_value(b, -n)) / len;
}

}  // namespace rigidref::tools::check
