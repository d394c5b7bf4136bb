// Ports of the articles' small collision helpers, quirks kept and commented
// (derivations/sat.md, D-SAT-10..13). Written in C++ from the article code,
// not copied:
//
//   seed 000 (物理シミュレーション 剛体の衝突 2, collision-force.html and
//   BodyForce.js):  sap, supportEdge, closestSegmentPoint (with lerp)
//   seed 004 (自作2D物理エンジンを作った話):  distLine, the point-in-triangle test
//
// The JS runs in doubles; the ports are templates so the same formula can be
// run in every type (the double instantiation is the article's arithmetic).
// Where the JS depends on math.js, which the seeds do not contain (its
// conventions: data/README.md), the assumption is stated at the use.
#pragma once

#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::articles {

// ---- sap (collision-force.html) ------------------------------------------------

// Sweep and prune along v: every polygon's interval [min p.v, max p.v], the
// 2n endpoints sorted by value, then swept keeping the set of open
// intervals. Returns pairs[i] = the indices j < i whose intervals overlap
// polygon i's, in the order the sweep found them (the JS's pairs array;
// body i then collides with each body j in pairs[i]). D-SAT-10
//
// Quirks:
//   - JS Array.prototype.sort with (a, b) => a[0] - b[0] is stable (ES2019),
//     so equal values keep their insertion order [min_0, max_0, min_1, max_1,
//     ...]. Two intervals that only touch (max_i == min_j) are therefore
//     reported when j's entry was pushed before i's exit, i.e. only when the
//     later-indexed polygon is on the left: whether a touching pair is found
//     depends on the polygons' order in the array (D-SAT-10). std::stable_sort
//     with `<` reproduces it.
//   - The JS does not check for NaN (the comparator would be inconsistent);
//     the port throws invalid_input for non-finite coordinates instead.
template <class T>
std::vector<std::vector<std::size_t>> sap(const std::vector<std::vector<vec2<T>>>& polygons, const vec2<T>& v) {
  struct endpoint {
    T value;
    std::size_t index;
  };
  std::vector<endpoint> proj;
  for (std::size_t i = 0; i < polygons.size(); ++i) {
    if (polygons[i].empty()) throw invalid_input("sap: empty polygon");
    bool have = false;
    T lo{0}, hi{0};
    for (const auto& p : polygons[i]) {
      if (!is_finite(p.x) || !is_finite(p.y)) throw invalid_input("sap: non-finite coordinate");
      const T d = p.x * v.x + p.y * v.y;  // p.dot(v)
      if (!have || d < lo) lo = d;        // Math.min(min, dot), min = +inf first
      if (!have || d > hi) hi = d;        // Math.max(max, dot)
      have = true;
    }
    proj.push_back({lo, i});
    proj.push_back({hi, i});
  }
  std::stable_sort(proj.begin(), proj.end(), [](const endpoint& a, const endpoint& b) { return a.value < b.value; });
  std::vector<std::vector<std::size_t>> pairs(polygons.size());
  std::vector<std::size_t> inside;  // a JS Set: iterates in insertion order
  for (const auto& [value, i] : proj) {
    (void)value;
    const auto it = std::find(inside.begin(), inside.end(), i);
    if (it != inside.end()) {
      inside.erase(it);
    } else {
      pairs[i].clear();  // pairs[i] = []
      for (std::size_t j : inside) {
        if (i < j)
          pairs[j].push_back(i);
        else
          pairs[i].push_back(j);
      }
      inside.push_back(i);
    }
  }
  return pairs;
}

// ---- supportEdge (BodyForce.js) -------------------------------------------------

// The article's constant: two support points within 0.01 (absolute) along v
// make an edge. In T this is the double 0.01 converted, the JS's value.
template <class T>
T support_edge_tolerance() {
  return T(0.01);
}

// Indices of the support feature of pts in direction v: [second best, best]
// when the two largest p.v differ by less than 0.01, else [best]. D-SAT-11
//
// Quirks:
//   - The tolerance is absolute, in the units of p.v: scaling the shape (or v)
//     by s scales the gap and flips the answer (D-SAT-11). v is the unit EPA
//     normal in the article, so it is a length in world units.
//   - Ties: `dot > maxdot` is strict, so among equal dots the first vertex is
//     `best` and a later equal one becomes `best2`; the edge comes back as
//     [best2, best], later vertex first.
//   - With three or more vertices within the tolerance only two are returned,
//     and with one vertex the -Infinity sentinel makes the gap infinite.
template <class T>
std::vector<std::size_t> support_edge(const std::vector<vec2<T>>& pts, const vec2<T>& v) {
  if (pts.empty()) throw invalid_input("supportEdge: no points");  // the JS returns [undefined]
  bool have1 = false, have2 = false;                               // maxdot, maxdot2 still -Infinity?
  T maxdot{0}, maxdot2{0};
  std::size_t best = 0, best2 = 0;
  for (std::size_t k = 0; k < pts.size(); ++k) {
    const T dot = pts[k].x * v.x + pts[k].y * v.y;
    if (!have1 || dot > maxdot) {
      if (have1) {
        maxdot2 = maxdot;
        best2 = best;
        have2 = true;
      }
      maxdot = dot;
      best = k;
      have1 = true;
    } else if (!have2 || dot > maxdot2) {
      maxdot2 = dot;
      best2 = k;
      have2 = true;
    }
  }
  if (have2) {
    const T gap = maxdot - maxdot2;  // Math.abs(maxdot - maxdot2); >= 0 here
    if (gap < support_edge_tolerance<T>()) return {best2, best};
  }
  return {best};
}

// ---- closestSegmentPoint and its lerp (BodyForce.js) ------------------------------

// BodyForce.js's lerp (glMatrix style, a + t (b - a) per component). In the
// JS out_x and out_y are undeclared, hence implicit globals; harmless to the
// result. (Named segment_lerp: shape_matching.hpp's articles::lerp is the
// same formula from the other module, and both headers may share a unit.)
template <class T>
vec2<T> segment_lerp(const vec2<T>& a, const vec2<T>& b, const T& t) {
  const T out_x = a.x + t * (b.x - a.x);
  const T out_y = a.y + t * (b.y - a.y);
  return {out_x, out_y};
}

// The point of segment qr closest to p, as the article computes it. D-SAT-12
//
// math.js is missing from the seeds; assumed: getLength() = sqrt(x*x + y*y)
// and normalized() = (x / len, y / len), the usual definitions.
// Quirks:
//   - s < 0.00001 (absolute) treats the segment as the point q: a segment of
//     length 1e-6 in a small model is collapsed, one of 1e-4 is not; not
//     scale aware (D-SAT-12).
//   - d is compared with s after normalising, then lerp(q, r, d/s): two
//     roundings more than the exact clamp.
template <class T>
vec2<T> closest_segment_point(const vec2<T>& p, const vec2<T>& q, const vec2<T>& r) {
  if constexpr (is_exact_v<T>) {
    throw unsupported("closestSegmentPoint normalises with a square root: not available in exact");
  } else {
    using std::sqrt;
    const vec2<T> qr{T(r.x - q.x), T(r.y - q.y)};  // r.subV(q)
    const T s = sqrt(qr.x * qr.x + qr.y * qr.y);   // qr.getLength()
    if (s < T(0.00001)) return q;                  // degenerate segment
    const vec2<T> v{T(qr.x / s), T(qr.y / s)};     // qr.normalized()
    const vec2<T> u{T(p.x - q.x), T(p.y - q.y)};   // p.subV(q)
    const T d = u.x * v.x + u.y * v.y;             // u.dot(v)
    if (d < 0) return q;
    if (d > s) return r;
    return segment_lerp(q, r, T(d / s));  // lerp(q, r, d/s)
  }
}

// ---- distLine (seed 004) ----------------------------------------------------------

// Shortest distance from (px, py) to the segment (x0, y0)-(x1, y1), as the
// article's JS computes it: t = -(b / a), clamped, foot x = t dx + x0, then
// the Euclidean distance. D-SAT-13
//
// Quirks:
//   - `a === 0` is an exact test: dx*dx + dy*dy underflowing to 0 for a tiny
//     nonzero segment takes the point branch (harmless), and a huge segment
//     overflows a to Infinity, t to 0 or NaN (NaN comparisons are false, so
//     NaN passes both clamps and the result is NaN).
//   - The foot is rebuilt from t and subtracted from p: far from the origin
//     (offset 1e8, size 1) the final differences cancel and the distance
//     loses digits; the error is absolute, about eps * |offset| (D-SAT-13).
template <class T>
T dist_line(const T& x0, const T& y0, const T& x1, const T& y1, const T& px, const T& py) {
  if constexpr (is_exact_v<T>) {
    throw unsupported("distLine ends in Math.sqrt: not available in exact");
  } else {
    using std::sqrt;
    const T dx = x1 - x0;
    const T dy = y1 - y0;
    const T a = dx * dx + dy * dy;
    if (a == 0) return sqrt((x0 - px) * (x0 - px) + (y0 - py) * (y0 - py));
    const T b = dx * (x0 - px) + dy * (y0 - py);
    T t = -(b / a);
    if (t < T(0.0)) t = 0.0;
    if (t > T(1.0)) t = 1.0;
    const T x = t * dx + x0;
    const T y = t * dy + y0;
    return sqrt((x - px) * (x - px) + (y - py) * (y - py));
  }
}

// ---- point in triangle (seed 004) ------------------------------------------------

// Is `origin` strictly inside triangle v0 v1 v2? The article's test: the
// triangle's turn from cross(v1 - v0, v2 - v0) (CCW = -1 when negative), then
// for each edge cross(edge_k, origin - v_k) * CCW <= 0 means outside.
// vec2.cross is assumed to be a.x*b.y - a.y*b.x (the article's library is not
// in the seeds). D-SAT-6
//
// Quirks:
//   - Points on an edge or a vertex are outside (`<= 0` returns false): the
//     test is for the open triangle.
//   - A degenerate triangle (cross == 0) gets CCW = 1; every point is then
//     outside (the three edge directions cannot all agree), so it is
//     harmless, but it is decided by rounded crosses: near-degenerate
//     triangles can get the wrong turn and reject every point.
//   - All crosses are rounded: near an edge the answer can be wrong (measured
//     against the exact predicate in tests/collision_helpers_test.cpp).
template <class T>
bool point_in_triangle(const vec2<T>& origin, const vec2<T>& v0, const vec2<T>& v1, const vec2<T>& v2) {
  auto sub = [](const vec2<T>& a, const vec2<T>& b) { return vec2<T>{T(a.x - b.x), T(a.y - b.y)}; };
  auto crs = [](const vec2<T>& a, const vec2<T>& b) { return T(a.x * b.y - a.y * b.x); };
  const vec2<T> edge0 = sub(v1, v0);
  const vec2<T> edge1 = sub(v2, v1);
  const vec2<T> edge2 = sub(v0, v2);
  const vec2<T> ce0 = sub(v1, v0);
  const vec2<T> ce1 = sub(v2, v0);
  int ccw = 1;
  if (crs(ce0, ce1) < 0) ccw = -1;
  const vec2<T> cp0 = sub(origin, v0);
  if (crs(edge0, cp0) * T(ccw) <= 0) return false;
  const vec2<T> cp1 = sub(origin, v1);
  if (crs(edge1, cp1) * T(ccw) <= 0) return false;
  const vec2<T> cp2 = sub(origin, v2);
  if (crs(edge2, cp2) * T(ccw) <= 0) return false;
  return true;
}

}  // namespace rigidref::articles

#include "rigidref/detail/fp_end.hpp"
