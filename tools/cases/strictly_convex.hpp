// Shared by the case sets: whether a float polygon is strictly convex as
// written (every turn of one sign, none flat), by the exact orientation test.
#pragma once

#include "rigidref/predicates.hpp"
#include "rigidref/vec2.hpp"

#include <cstddef>
#include <vector>

namespace rigidref::tools {

inline bool strictly_convex(const std::vector<vec2<float>>& v) {
  int sign = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const int o = orientation(v[i], v[(i + 1) % v.size()], v[(i + 2) % v.size()]);
    if (o == 0 || (sign != 0 && o != sign)) return false;
    sign = o;
  }
  return true;
}

}  // namespace rigidref::tools
