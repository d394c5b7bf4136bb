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
//
// exact_core_collision (below) answers the same for cores of 1, 2 or >= 3
// points (points, segments, polygons; the shapes' radii are the caller's),
// with an explicit meeting test, since a flat Minkowski difference has no
// separating edge normal.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/verify/integer_frame.hpp"
#include "rigidref/vec2.hpp"

#include <cstddef>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

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

// ---- cores of 1, 2 or >= 3 points (shapes with radii) ---------------------------
//
// A core is one point, a segment (two points) or a convex polygon (>= 3
// points, either orientation); a shape is the set within its radius of its
// core. The oracle answers the cores only; the radii are applied by the
// caller: distance = d_core - (ra + rb), depth = core depth + ra + rb, or
// ra + rb - d_core when the cores are apart.
//  - Meeting: two convex cores share a point iff a vertex of one lies in the
//    other, or an edge of one crosses an edge of the other (closed segments,
//    collinear overlaps included): if neither boundary crosses the other,
//    one core contains the other, hence a vertex of it.
//  - Distance (cores apart): attained by a vertex of one core and an edge
//    of the other (D-SAT-4); a one-point core's only edge is the point itself.
//  - Depth (cores meet): the distance from the origin to the boundary of
//    A - B. If every edge of A and B is parallel to one line, A - B is a
//    point or a segment (empty interior): depth 0. Otherwise A - B is a
//    polygon whose edge normals are the perpendiculars of the cores' edges,
//    both signs for a segment (D-SAT-3): depth = min over them of o / |n|.
struct core_collision {
  bool intersecting = false;        // the cores share a point
  exact distance_squared;           // core distance squared; 0 when intersecting
  exact depth_squared;              // core depth squared; 0 when apart, touching or flat
  bool flat = false;                // A - B has empty interior
  vec2<exact> normal_axis;          // a minimising axis (from A to B), when depth > 0
  std::size_t minimising_axes = 0;  // distinct minimising directions (when depth > 0)
};

namespace detail {

using ivec = vec2<oracle_int>;
using icore = std::vector<ivec>;

inline int isign(const oracle_int& x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }

inline int iorient(const ivec& a, const ivec& b, const ivec& c) {
  return isign(oracle_int((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)));
}

// p on the closed segment [a, b] (a == b allowed).
inline bool on_closed_segment(const ivec& p, const ivec& a, const ivec& b) {
  if (iorient(a, b, p) != 0) return false;
  return (p.x - a.x) * (p.x - b.x) <= 0 && (p.y - a.y) * (p.y - b.y) <= 0;
}

// The closed segments [a, b] and [c, d] share a point (textbook
// orientation test with its collinear cases).
inline bool closed_segments_meet(const ivec& a, const ivec& b, const ivec& c, const ivec& d) {
  const int o1 = iorient(a, b, c), o2 = iorient(a, b, d), o3 = iorient(c, d, a), o4 = iorient(c, d, b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return on_closed_segment(c, a, b) || on_closed_segment(d, a, b) || on_closed_segment(a, c, d) ||
         on_closed_segment(b, c, d);
}

inline bool in_core(const ivec& p, const icore& k) {
  if (k.size() == 1) return p == k[0];
  if (k.size() == 2) return on_closed_segment(p, k[0], k[1]);
  int sign = 0;
  for (std::size_t i = 0; i < k.size(); ++i) {
    const int o = iorient(k[i], k[(i + 1) % k.size()], p);
    if (o == 0) continue;
    if (sign == 0) sign = o;
    if (o != sign) return false;
  }
  return true;
}

// The core's edges as (start, end); one degenerate edge for a point, one
// edge for a segment.
inline std::vector<std::pair<ivec, ivec>> core_edges(const icore& k) {
  std::vector<std::pair<ivec, ivec>> out;
  if (k.size() <= 2) {
    out.push_back({k.front(), k.back()});
    return out;
  }
  for (std::size_t i = 0; i < k.size(); ++i) out.push_back({k[i], k[(i + 1) % k.size()]});
  return out;
}

}  // namespace detail

inline core_collision exact_core_collision(const integer_frame& frame) {
  using detail::icore;
  using detail::ivec;
  const icore& a = frame.polygons.at(0);
  const icore& b = frame.polygons.at(1);
  if (a.empty() || b.empty()) throw std::invalid_argument("exact_core_collision: empty core");
  const oracle_int scale2 = frame.scale * frame.scale;
  const auto ea = detail::core_edges(a), eb = detail::core_edges(b);
  core_collision out;
  bool meet = false;
  for (const auto& p : a) meet = meet || detail::in_core(p, b);
  for (const auto& q : b) meet = meet || detail::in_core(q, a);
  for (const auto& [p0, p1] : ea)
    for (const auto& [q0, q1] : eb) meet = meet || detail::closed_segments_meet(p0, p1, q0, q1);
  out.intersecting = meet;
  if (!meet) {
    bool found = false;
    integer_fraction best{oracle_int(0), oracle_int(1)};
    auto closest = [&](const icore& points, const std::vector<std::pair<ivec, ivec>>& edges) {
      for (const auto& [e0, e1] : edges)
        for (const auto& p : points) {
          const integer_fraction d = point_segment_distance_squared(p, e0, e1);
          if (!found || fraction_less(d, best)) best = d;
          found = true;
        }
    };
    closest(a, eb);
    closest(b, ea);
    out.distance_squared = exact_ratio(best.num, best.den * scale2);
    return out;
  }
  // Flat A - B: every nonzero edge of both cores parallel to the first one.
  std::vector<ivec> dirs;
  for (const auto* edges : {&ea, &eb})
    for (const auto& [e0, e1] : *edges)
      if (!(e0 == e1)) dirs.push_back(e1 - e0);
  bool flat = true;
  for (const auto& d : dirs) flat = flat && cross(dirs.front(), d) == 0;
  out.flat = dirs.empty() || flat;
  if (out.flat) return out;
  auto project = [](const icore& k, const ivec& n) {
    oracle_int lo = dot(k.front(), n), hi = lo;
    for (const auto& p : k) {
      const oracle_int d = dot(p, n);
      if (d < lo) lo = d;
      if (d > hi) hi = d;
    }
    return std::pair<oracle_int, oracle_int>{lo, hi};
  };
  bool have = false;
  integer_fraction best;
  std::vector<ivec> minimisers;
  for (const auto& e : dirs) {
    const ivec n{e.y, oracle_int(-e.x)};
    const auto [alo, ahi] = project(a, n);
    const auto [blo, bhi] = project(b, n);
    for (const bool forward : {true, false}) {
      const oracle_int o = forward ? oracle_int(ahi - blo) : oracle_int(bhi - alo);
      const ivec axis = forward ? n : ivec(-n);
      const integer_fraction value{oracle_int(o * o), length_squared(n)};
      if (!have || fraction_less(value, best)) {
        have = true;
        best = value;
        minimisers.assign(1, axis);
      } else if (!fraction_less(best, value)) {
        bool seen = false;
        for (const auto& m : minimisers) seen = seen || (cross(m, axis) == 0 && dot(m, axis) > 0);
        if (!seen) minimisers.push_back(axis);
      }
    }
  }
  out.depth_squared = exact_ratio(best.num, best.den * scale2);
  out.normal_axis = {exact_ratio(minimisers.front().x, frame.scale), exact_ratio(minimisers.front().y, frame.scale)};
  out.minimising_axes = minimisers.size();
  return out;
}

template <class T>
core_collision exact_core_collision(std::span<const vec2<T>> a, std::span<const vec2<T>> b) {
  return exact_core_collision(make_integer_frame<T>({a, b}));
}

}  // namespace rigidref::verify

#include "rigidref/detail/fp_end.hpp"
