// The benchmarks' convex polygons (collision_bench.cpp, circle_bench.cpp):
// jittered regular n-gons, generic coordinates, every edge long.
#pragma once

#include "rigidref/vec2.hpp"
#include "rigidref/verify/random.hpp"

#include <cmath>
#include <vector>

namespace rigidref::bench {

// A regular n-gon with jittered vertex angles, stretched, rotated, scaled
// (radius 0.5..2) and placed at c: strictly convex, every edge far above
// Box2D's weld distance.
inline std::vector<vec2<double>> jittered_convex_polygon(rigidref::verify::rng& g, int n, vec2<double> c) {
  using rigidref::verify::uniform;
  const double two_pi = 2 * std::acos(-1.0);
  const double sector = two_pi / n;
  const double aspect = uniform(g, 0.6, 1.0), radius = uniform(g, 0.5, 2.0), turn = uniform(g, 0.0, two_pi);
  std::vector<vec2<double>> v;
  for (int k = 0; k < n; ++k) {
    const double a = k * sector + uniform(g, -0.3, 0.3) * sector;
    const double ex = radius * std::cos(a), ey = radius * aspect * std::sin(a);
    v.push_back({c.x + ex * std::cos(turn) - ey * std::sin(turn), c.y + ex * std::sin(turn) + ey * std::cos(turn)});
  }
  return v;
}

}  // namespace rigidref::bench
