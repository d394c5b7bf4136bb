// Exact oracles for convex polygon pairs, in integer and rational arithmetic, written
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
//
// Both are computed in an integer frame (verify/integer_frame.hpp): integer
// coordinates, fractions compared by cross-multiplying, one rational built
// per answer (D-SAT-14).
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/verify/integer_frame.hpp"
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

// Squared point-segment distance in an integer frame (D-SAT-14), as num / den (den > 0,
// not reduced): |p - a|^2 or |p - b|^2 past an end, cross(ab, ap)^2 / |ab|^2
// inside (Lagrange's identity turns |ap|^2 - (ap.ab)^2 / |ab|^2 into it).
struct integer_fraction {
  oracle_int num, den;
};

inline integer_fraction point_segment_distance_squared(const vec2<oracle_int>& p, const vec2<oracle_int>& a,
                                                       const vec2<oracle_int>& b) {
  const vec2<oracle_int> ab = b - a;
  const vec2<oracle_int> ap = p - a;
  const oracle_int len2 = length_squared(ab);
  const oracle_int along = dot(ap, ab);
  if (len2 == 0 || along <= 0) return {length_squared(ap), oracle_int(1)};
  if (along >= len2) return {length_squared(vec2<oracle_int>(p - b)), oracle_int(1)};
  const oracle_int c = cross(ab, ap);
  return {oracle_int(c * c), len2};
}

inline bool fraction_less(const integer_fraction& x, const integer_fraction& y) {
  return x.num * y.den < y.num * x.den;
}

// A and B: convex polygons with at least 3 vertices, either orientation, in
// one integer frame (real coordinate = integer / frame.scale). Overlaps and
// squared distances scale by powers of frame.scale alike, so every
// comparison is made on integers and only the answers are divided back.
inline exact_collision exact_convex_collision(const integer_frame& frame) {
  const std::vector<vec2<oracle_int>>& a = frame.polygons.at(0);
  const std::vector<vec2<oracle_int>>& b = frame.polygons.at(1);
  if (a.size() < 3 || b.size() < 3) throw std::invalid_argument("exact_convex_collision: need polygons");
  const oracle_int scale2 = frame.scale * frame.scale;
  exact_collision out;
  bool have = false;
  bool separated = false;
  integer_fraction best_depth;  // o^2 / |n|^2 in the frame
  vec2<oracle_int> best_axis{oracle_int(0), oracle_int(0)};
  std::vector<vec2<oracle_int>> minimisers;
  auto project = [](const std::vector<vec2<oracle_int>>& poly, const vec2<oracle_int>& n) {
    oracle_int lo = dot(poly.front(), n), hi = lo;
    for (const auto& p : poly) {
      const oracle_int d = dot(p, n);
      if (d < lo) lo = d;
      if (d > hi) hi = d;
    }
    return std::pair<oracle_int, oracle_int>{lo, hi};
  };
  auto consider = [&](const std::vector<vec2<oracle_int>>& poly) {
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const vec2<oracle_int> e = poly[(i + 1) % poly.size()] - poly[i];
      if (e.x == 0 && e.y == 0) continue;
      const vec2<oracle_int> n{e.y, oracle_int(-e.x)};
      const auto [alo, ahi] = project(a, n);
      const auto [blo, bhi] = project(b, n);
      const oracle_int forward = ahi - blo;   // overlap if B is pushed along +n
      const oracle_int backward = bhi - alo;  // overlap if B is pushed along -n
      if (forward < 0 || backward < 0) separated = true;
      const bool use_forward = forward <= backward;
      const oracle_int& o = use_forward ? forward : backward;
      if (o < 0) continue;
      const vec2<oracle_int> axis = use_forward ? n : vec2<oracle_int>(-n);
      const integer_fraction value{oracle_int(o * o), length_squared(n)};
      auto same_direction = [&](const vec2<oracle_int>& m) { return cross(m, axis) == 0 && dot(m, axis) > 0; };
      if (!have || fraction_less(value, best_depth)) {
        have = true;
        best_depth = value;
        best_axis = axis;
        minimisers.assign(1, axis);
      } else if (!fraction_less(best_depth, value)) {
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
    integer_fraction best{oracle_int(-1), oracle_int(1)};
    bool found = false;
    auto closest = [&](const std::vector<vec2<oracle_int>>& points, const std::vector<vec2<oracle_int>>& edges) {
      for (std::size_t i = 0; i < edges.size(); ++i)
        for (const auto& p : points) {
          const integer_fraction d = point_segment_distance_squared(p, edges[i], edges[(i + 1) % edges.size()]);
          if (!found || fraction_less(d, best)) best = d;
          found = true;
        }
    };
    closest(a, b);
    closest(b, a);
    out.distance_squared = exact_ratio(best.num, best.den * scale2);
    return out;
  }
  out.intersecting = true;
  if (have) {
    out.depth_squared = exact_ratio(best_depth.num, best_depth.den * scale2);
    out.normal_axis = {exact_ratio(best_axis.x, frame.scale), exact_ratio(best_axis.y, frame.scale)};
  }
  out.touching = out.depth_squared == 0;
  out.minimising_axes = minimisers.size();
  return out;
}

// The same for polygons of any scalar type, taken exactly.
template <class T>
exact_collision exact_convex_collision(std::span<const vec2<T>> a, std::span<const vec2<T>> b) {
  return exact_convex_collision(make_integer_frame<T>({a, b}));
}

inline exact_collision exact_convex_collision(const std::vector<vec2<exact>>& a, const std::vector<vec2<exact>>& b) {
  return exact_convex_collision<exact>(std::span<const vec2<exact>>(a), std::span<const vec2<exact>>(b));
}

}  // namespace rigidref::verify
