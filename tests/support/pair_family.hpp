// The random pairs of the route-differential tests (test_epa_lean_diff,
// test_mp_route_diff): the benchmarks' family, a jittered 3..8-gon and a
// second one (or a circle of the returned radius about cb), centres 0..3.5
// apart (overlapping, separated and near-touching pairs), and every fifth
// pair (k % 5 == 4) B = -A shifted a little (parallel edges: ties a route
// must refuse).
#pragma once

#include "rigidref/vec2.hpp"
#include "rigidref/verify/random.hpp"

#include "../bench/bench_polygons.hpp"

#include <cmath>
#include <vector>

namespace rigidref::testing {

struct family_pair {
  std::vector<vec2<double>> a, b;
  vec2<double> ca, cb;  // the centres of A and B (B's is the circle's)
  double radius = 0;
};

inline family_pair draw_family_pair(verify::rng& g, long k) {
  using verify::uniform;
  family_pair p;
  p.ca = {uniform(g, -4.0, 4.0), uniform(g, -4.0, 4.0)};
  const vec2<double>& ca = p.ca;
  const double phi = uniform(g, 0.0, 2 * std::acos(-1.0)), d = uniform(g, 0.0, 3.5);
  p.cb = {ca.x + d * std::cos(phi), ca.y + d * std::sin(phi)};
  p.a = bench::jittered_convex_polygon(g, verify::uniform_int(g, 3, 8), ca);
  if (k % 5 == 4) {
    const double eps = std::ldexp(uniform(g, -1.0, 1.0), -static_cast<int>(k % 60));
    for (const auto& v : p.a) p.b.push_back({-v.x + p.cb.x + ca.x, -v.y + p.cb.y + ca.y + eps});
  } else {
    p.b = bench::jittered_convex_polygon(g, verify::uniform_int(g, 3, 8), p.cb);
  }
  p.radius = uniform(g, 0.2, 1.5);
  return p;
}

}  // namespace rigidref::testing
