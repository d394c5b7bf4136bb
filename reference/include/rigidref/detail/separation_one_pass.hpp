// The separation certificate in one pass (D-GJK-17), and a circle's centre's
// closest feature found without GJK (D-GJK-19): the first certificate tried
// after GJK's loop (detail/core_query.hpp).
#pragma once

#include "rigidref/detail/gjk_loop.hpp"
#include "rigidref/detail/semi_static.hpp"
#include "rigidref/filter.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// ---- the certificate in one pass (D-GJK-17) ----------------------------------
//
// GJK's final simplex usually names the closest features already: one vertex
// pair (vertex-vertex), or two pairs sharing a vertex of one polygon (that
// vertex against an edge of the other). direct_certify_separation checks the
// optimality conditions of D-GJK-7 for those features in one pass over both
// polygons, each condition the sign of a degree-2 form of input points under
// a static bound (static_dot_sign, static_cross_sign), and strictly for every
// vertex that is not part of the features. Strict conditions make the closest
// pair unique, so it is the pair certify_separation finds, and the features
// give the values the exact path rounds. Anything not proved (a tie, an
// edge-edge simplex, a vertex projecting onto an edge's end) returns false and
// filtered_certify_separation runs as before.
template <class T>
bool direct_certify_separation(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const gjk_simplex<T>& s,
                               feature& fa, feature& fb) {
  // Forced exact (filter_force_exact()): every static sign below would be
  // "not proved", and the first one evaluated returns false; so the flag is
  // looked at once, where the first sign would be (issue 28).
  using semi_static::cross_is;
  using semi_static::cross_sign;
  using semi_static::dot_is;
  const std::size_t na = a.size(), nb = b.size();
  if (na == 2 || nb == 2 || na == 0 || nb == 0) return false;  // polygons (>= 3) or one-point cores (circles)
  if (s.size == 1) {
    const std::size_t i = s.p[0].ia, j = s.p[0].ib;
    const vec2<T>& p = a[i];
    const vec2<T>& q = b[j];
    if (p == q) return false;  // two one-point cores: n != 0 is not implied by (17.4)
    if ((na > 1 || nb > 1) && filter_force_exact()) return false;
    // n = q - p: every other vertex of A strictly below p along n, of B
    // strictly above q (which also proves n != 0).
    // (each test: the static sign proved to be the one wanted, dot_is / cross_is)
    for (std::size_t k = 0; k < na; ++k)
      if (k != i && !dot_is(p, q, p, a[k], -1)) return false;
    for (std::size_t k = 0; k < nb; ++k)
      if (k != j && !dot_is(p, q, q, b[k], 1)) return false;
    fa = {false, i};
    fb = {false, j};
    return true;
  }
  if (s.size != 2) return false;
  const minkowski_point<T>& m0 = s.p[0];
  const minkowski_point<T>& m1 = s.p[1];
  const bool vertex_of_a = m0.ia == m1.ia;
  if (vertex_of_a == (m0.ib == m1.ib)) return false;  // two vertices on each side: edge-edge
  // The edge (e0, e1) of polygon P and the vertex v = Q[iv] of the other, Q.
  const std::span<const vec2<T>> P = vertex_of_a ? b : a, Q = vertex_of_a ? a : b;
  const std::size_t k0 = vertex_of_a ? m0.ib : m0.ia, k1 = vertex_of_a ? m1.ib : m1.ia;
  const std::size_t n = P.size();
  // The successor of an index k < n without a division: k + 1, or 0 after
  // n - 1 (the same index as (k + 1) % n; the simplex's indices are < n). D-EPA-25
  auto succ = [n](std::size_t k) { return k + 1 == n ? std::size_t(0) : k + 1; };
  std::size_t e0 = 0;
  if (k1 == succ(k0))
    e0 = k0;
  else if (k0 == succ(k1))
    e0 = k1;
  else
    return false;  // not an edge
  const std::size_t e1 = succ(e0), iv = vertex_of_a ? m0.ia : m0.ib;
  const vec2<T>& p0 = P[e0];
  const vec2<T>& p1 = P[e1];
  const vec2<T>& v = Q[iv];
  // v projects into the open edge: e . (v - p0) > 0 > e . (v - p1).
  if (filter_force_exact()) return false;
  if (!dot_is(p0, p1, p0, v, 1) || !dot_is(p0, p1, p1, v, -1)) return false;
  // v's side of the edge's line, c = sign cross(e, v - p0) (c != 0: apart).
  // The direction d from v to the edge is -c perp(e), and
  // perp(e) . w = cross(e, w), so d . w < 0 iff c cross(e, w) > 0.
  const int c = cross_sign(p0, p1, p0, v);
  if (c == 0) return false;
  for (std::size_t k = 0; k < Q.size(); ++k)  // Q's other vertices strictly behind v
    if (k != iv && !cross_is(p0, p1, v, Q[k], c)) return false;
  for (std::size_t k = 0; k < n; ++k)  // P's vertices off the edge strictly beyond its line
    if (k != e0 && k != e1 && !cross_is(p0, p1, p0, P[k], -c)) return false;
  const feature vertex{false, iv}, edge{true, e0};
  fa = vertex_of_a ? vertex : edge;
  fb = vertex_of_a ? edge : vertex;
  return true;
}

// ---- a circle's centre: its closest feature without GJK (D-GJK-19) ------------
//
// Outside a convex polygon P, the exterior Voronoi regions of P's features
// partition the plane: the half-strip beyond edge k (q outside the edge's
// line, projecting into the open edge) and the wedge at vertex k (between the
// outward normals of its two edges). guess_point_features finds the region
// holding q in T, without GJK; it is only a guess, which
// direct_certify_separation then proves or refuses (so a rounding error here
// costs speed, never bits). No region (q inside P, or T's rounding): false.
template <class T>
bool guess_point_features(std::span<const vec2<T>> P, const vec2<T>& q, bool point_is_a, gjk_simplex<T>& s) {
  const std::size_t n = P.size();
  if (n < 3) return false;
  auto pair_of = [&](std::size_t k) -> minkowski_point<T> {
    return point_is_a ? minkowski_point<T>{q - P[k], 0, k} : minkowski_point<T>{P[k] - q, k, 0};
  };
  // after_previous: e_{k-1} . (q - P_k) >= 0, q at or beyond the end of edge k - 1.
  bool after_previous = dot(P[0] - P[n - 1], q - P[0]) >= 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t k1 = k + 1 == n ? 0 : k + 1;
    const vec2<T> e = P[k1] - P[k];
    const vec2<T> d = q - P[k];
    const T t = dot(e, d);
    if (t <= 0) {
      if (after_previous) {  // vertex k's wedge
        s.p[0] = pair_of(k);
        s.size = 1;
        return true;
      }
      after_previous = false;  // e . (q - P_{k+1}) = t - |e|^2 < 0
      continue;
    }
    const T t_end = dot(e, q - P[k1]);
    if (t_end < 0 && cross(e, d) < 0) {  // the open edge's strip, right of the counter-clockwise edge
      s.p[0] = pair_of(k);
      s.p[1] = pair_of(k1);
      s.size = 2;
      return true;
    }
    after_previous = t_end >= 0;
  }
  return false;
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
