// A body of the dynamics case sets (step.pair's dynamics set and scene.run's
// scenes) and its JSON, every number a float written exactly.
#pragma once

#include "protocol/json.hpp"

#include "rigidref/vec2.hpp"

#include <vector>

namespace rigidref::tools {

struct case_body {
  std::vector<vec2<float>> vertices;  // local frame, about the body origin; empty for a circle
  float radius = 0;
  vec2<float> position{0, 0}, velocity{0, 0};
  float angle = 0, angular_velocity = 0, density = 1;
  bool is_static = false;
};

inline eval::ojson vec_json(const vec2<float>& p) { return eval::ojson::array({static_cast<double>(p.x), static_cast<double>(p.y)}); }

inline eval::ojson body_json(const case_body& b) {
  eval::ojson j = eval::ojson::object();
  if (b.vertices.empty()) {
    j["radius"] = static_cast<double>(b.radius);
  } else {
    eval::ojson list = eval::ojson::array();
    for (const auto& p : b.vertices) list.push_back(vec_json(p));
    j["vertices"] = list;
  }
  j["position"] = vec_json(b.position);
  j["angle"] = static_cast<double>(b.angle);
  j["velocity"] = vec_json(b.velocity);
  j["angular_velocity"] = static_cast<double>(b.angular_velocity);
  j["density"] = static_cast<double>(b.density);
  j["static"] = b.is_static;
  return j;
}

}  // namespace rigidref::tools
