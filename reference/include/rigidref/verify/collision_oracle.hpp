// Exact oracles for convex polygon pairs, in rational arithmetic, written
// independently of the GJK/EPA/SAT code they judge.
//
// Distance: for disjoint convex polygons the closest pair of points is a
// vertex of one polygon and a point of an edge of the other, so the squared
// distance is the minimum of squared point-segment distances, each a rational
// function of the vertices (derivations/sat.md, D-SAT-4).
//
// Penetration: the Minkowski difference A - B of two convex polygons has its
// edge normals among the edge normals of A and B, so the penetration depth is
// the smallest overlap over those axes; with an unnormalised axis n the
// overlap is o/|n| and its square o^2/|n|^2 is rational (D-SAT-3).
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/vec2.hpp"

#include <cstddef>
#include <span>
#include <stdexcept>
#include <vector>

namespace rigidref::verify {

template <class T>
std::vector<vec2<exact>> exact_polygon(std::span<const vec2<T>> vertices) {
  std::vector<vec2<exact>> v;
  v.reserve(vertices.size());
  for (const auto& p : vertices) v.push_back({to_exact(p.x), to_exact(p.y)});
  return v;
}

// Squared distance from p to the closed segment [a, b], exactly.
inline exact point_segment_distance_squared(const vec2<exact>& p, const vec2<exact>& a, const vec2<exact>& b) {
  const vec2<exact> ab = b - a;
  const exact len2 = length_squared(ab);
  exact t = len2 == 0 ? exact(0) : exact(dot(p - a, ab) / len2);
  if (t < 0) t = 0;
  if (t > 1) t = 1;
  const vec2<exact> q = a + t * ab;
  return length_squared(p - q);
}

struct exact_axis_overlap {
  exact overlap_squared_over_norm;  // o^2 / |n|^2; meaningful when o >= 0
  exact overlap;                    // o, along the unnormalised axis n
  vec2<exact> axis;                 // n, oriented so that moving B by +n separates
};

// Projection interval of a polygon onto an (unnormalised) axis.
inline std::pair<exact, exact> project(const std::vector<vec2<exact>>& poly, const vec2<exact>& n) {
  exact lo = dot(poly.front(), n), hi = lo;
  for (const auto& p : poly) {
    const exact d = dot(p, n);
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  return {lo, hi};
}

struct exact_collision {
  bool intersecting = false;  // closed sets share a point (touching counts)
  bool touching = false;      // share boundary points only: distance 0 and depth 0
  exact distance_squared;     // 0 when intersecting
  exact depth_squared;        // 0 when not intersecting
  vec2<exact> normal_axis;    // unnormalised; direction from A to B of the minimising axis
  std::size_t minimising_axes = 0;  // how many distinct axis directions reach the minimum depth
};

// A and B: convex polygons with at least 3 vertices, either orientation.
inline exact_collision exact_convex_collision(const std::vector<vec2<exact>>& a, const std::vector<vec2<exact>>& b) {
  if (a.size() < 3 || b.size() < 3) throw std::invalid_argument("exact_convex_collision: need polygons");
  exact_collision out;
  bool have = false;
  bool separated = false;
  std::vector<vec2<exact>> minimisers;
  auto consider = [&](const std::vector<vec2<exact>>& poly) {
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const vec2<exact> e = poly[(i + 1) % poly.size()] - poly[i];
      if (e.x == 0 && e.y == 0) continue;
      const vec2<exact> n{e.y, exact(-e.x)};
      const auto [alo, ahi] = project(a, n);
      const auto [blo, bhi] = project(b, n);
      const exact forward = ahi - blo;   // overlap if B is pushed along +n
      const exact backward = bhi - alo;  // overlap if B is pushed along -n
      if (forward < 0 || backward < 0) separated = true;
      const bool use_forward = forward <= backward;
      const exact o = use_forward ? forward : backward;
      const vec2<exact> axis = use_forward ? n : -n;
      const exact value = o * o / length_squared(n);
      auto same_direction = [&](const vec2<exact>& m) { return cross(m, axis) == 0 && dot(m, axis) > 0; };
      if (o < 0) continue;
      if (!have || value < out.depth_squared) {
        have = true;
        out.depth_squared = value;
        out.normal_axis = axis;
        minimisers.assign(1, axis);
      } else if (value == out.depth_squared) {
        bool seen = false;
        for (const auto& m : minimisers) seen = seen || same_direction(m);
        if (!seen) minimisers.push_back(axis);
      }
    }
  };
  consider(a);
  consider(b);
  if (separated) {
    out.intersecting = false;
    out.depth_squared = 0;
    out.normal_axis = {};
    out.minimising_axes = 0;
    exact best = -1;
    for (std::size_t i = 0; i < b.size(); ++i)
      for (const auto& p : a) {
        const exact d = point_segment_distance_squared(p, b[i], b[(i + 1) % b.size()]);
        if (best < 0 || d < best) best = d;
      }
    for (std::size_t i = 0; i < a.size(); ++i)
      for (const auto& p : b) {
        const exact d = point_segment_distance_squared(p, a[i], a[(i + 1) % a.size()]);
        if (d < best) best = d;
      }
    out.distance_squared = best;
    return out;
  }
  out.intersecting = true;
  out.distance_squared = 0;
  out.touching = out.depth_squared == 0;
  out.minimising_axes = minimisers.size();
  return out;
}

}  // namespace rigidref::verify
