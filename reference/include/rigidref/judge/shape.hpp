// The shapes of the collision ops as the judge sees them (docs/eval-protocol.md
// section 2: a core grown by a radius), in exact arithmetic, and the
// geometry it needs to judge answers that are not unique (D-JUDGE-10):
//   - a closest point must lie on its shape, and the two points must be the
//     reference distance apart;
//   - a normal n must separate: translating B by depth(n) n, where depth(n)
//     = max_A a.n - min_B b.n (|n| = 1), must take as little as the
//     reference depth.
// Everything exact; the few square roots in 100 digits (D-ENGINE-2).
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/convex_shape.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/support.hpp"
#include "rigidref/vec2.hpp"
#include "rigidref/verify/collision_oracle.hpp"

#include <algorithm>
#include <span>
#include <stdexcept>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::judge {

using exact_point = vec2<exact>;

struct shape {
  enum class kind { polygon, circle, point, segment };
  kind form = kind::polygon;
  std::vector<exact_point> core;  // polygon vertices (>= 3), the circle's centre, the point, the two ends
  exact radius = 0;               // a rounded polygon's or a capsule's radius; a circle's radius

  static shape polygon(std::vector<exact_point> vertices, exact r = 0) { return {kind::polygon, std::move(vertices), r}; }
  static shape circle(exact_point centre, exact r) { return {kind::circle, {centre}, r}; }
  static shape single_point(exact_point p) { return {kind::point, {p}, 0}; }
  static shape segment(exact_point a, exact_point b, exact r = 0) { return {kind::segment, {a, b}, r}; }

  // From any scalar's points, exactly.
  template <class T>
  static shape polygon_of(std::span<const vec2<T>> vertices, const T& r = T(0)) {
    std::vector<exact_point> v;
    v.reserve(vertices.size());
    for (const vec2<T>& p : vertices) v.push_back({to_exact(p.x), to_exact(p.y)});
    return polygon(std::move(v), to_exact(r));
  }
  template <class T>
  static shape polygon_of(const std::vector<vec2<T>>& vertices, const T& r = T(0)) {
    return polygon_of(std::span<const vec2<T>>(vertices), r);
  }
};

// The library's shape in T (the reference runs in mp100): the same
// validation as `rigidref eval` (a polygon must be convex, a circle's radius
// > 0, a segment's ends distinct, ...), invalid_input otherwise.
template <class T>
convex_shape<T> make_shape(const shape& s) {
  std::vector<vec2<T>> core;
  core.reserve(s.core.size());
  for (const exact_point& p : s.core) core.push_back({round_to<T>(p.x), round_to<T>(p.y)});
  const T r = round_to<T>(s.radius);
  switch (s.form) {
    case shape::kind::polygon: return make_rounded_polygon<T>(core, r);
    case shape::kind::circle:
      if (core.size() != 1) throw invalid_input("a circle has one centre");
      return to_shape(make_circle(core[0], r));
    case shape::kind::point:
      if (core.size() != 1) throw invalid_input("a point is one point");
      if (s.radius != 0) throw invalid_input("a point has no radius (a disc is a circle)");
      return make_point(core[0]);
    case shape::kind::segment:
      if (core.size() != 2) throw invalid_input("a segment has two ends");
      return make_capsule(core[0], core[1], r);
  }
  throw invalid_input("unknown shape form");
}

// L: the size of the input shapes, the largest bounding-box side of the
// cores or 2r of a rounded shape (D-JUDGE-4).
inline exact size_of(const shape& s) {
  exact size = 2 * (s.radius < 0 ? exact(-s.radius) : s.radius);
  if (s.core.empty()) return size;
  // The extremes by address: no rational is copied until the two widths.
  const exact *lo_x = &s.core[0].x, *hi_x = lo_x, *lo_y = &s.core[0].y, *hi_y = lo_y;
  for (const exact_point& p : s.core) {
    if (p.x < *lo_x) lo_x = &p.x;
    if (*hi_x < p.x) hi_x = &p.x;
    if (p.y < *lo_y) lo_y = &p.y;
    if (*hi_y < p.y) hi_y = &p.y;
  }
  return std::max({size, exact(*hi_x - *lo_x), exact(*hi_y - *lo_y)});
}

inline exact_point exact_of(const vec2<mp100>& p) { return {to_exact(p.x), to_exact(p.y)}; }

inline exact sqrt_exact(const exact& x) {
  using std::sqrt;
  const mp100 r = sqrt(round_to<mp100>(x));
  return to_exact(r);
}

inline exact abs_of(const exact& x) { return x < 0 ? exact(-x) : x; }

// M: how far from the origin the shape reaches, its largest core
// coordinate in magnitude plus its radius. A point on the shape carries
// coordinates this large, and each rounding of one costs up to (eps/2) M:
// the witnesses' budget has a term in M for them (D-JUDGE-4).
inline exact reach_of(const shape& s) {
  exact m = 0;
  for (const exact_point& p : s.core) m = std::max({m, abs_of(p.x), abs_of(p.y)});
  return m + (s.radius < 0 ? exact(-s.radius) : s.radius);
}

// The core as a polygon (>= 3 points), a segment (2) or a point (1).
inline const std::vector<exact_point>& core_of(const shape& s) { return s.core; }

// Distance from p to the core: 0 inside a polygon core. A polygon's edges
// are measured on integers: every coordinate times L, the common
// denominator, with p at the origin; an edge's squared distance is
// N / (D L^2), D = 1 at an end and |AB|^2 inside it (|AP|^2 - (AP.AB)^2 /
// |AB|^2 = (AB x AP)^2 / |AB|^2), compared by cross-multiplying. Only the
// least becomes a rational: the same one as measuring each edge in
// rationals, without a gcd per operation.
inline exact distance_to_core(const shape& s, const exact_point& p) {
  const auto& v = s.core;
  if (v.size() == 1) return sqrt_exact(length_squared(p - v[0]));
  if (v.size() == 2) return sqrt_exact(verify::point_segment_distance_squared(p, v[0], v[1]));
  big_int L = boost::multiprecision::lcm(big_int(denominator(p.x)), big_int(denominator(p.y)));
  for (const exact_point& q : v) {
    L = boost::multiprecision::lcm(L, big_int(denominator(q.x)));
    L = boost::multiprecision::lcm(L, big_int(denominator(q.y)));
  }
  const big_int px = rigidref::detail::on_scale(p.x, L), py = rigidref::detail::on_scale(p.y, L);
  std::vector<vec2<big_int>> d;  // the vertices less p, times L
  d.reserve(v.size());
  for (const exact_point& q : v)
    d.push_back({big_int(rigidref::detail::on_scale(q.x, L) - px), big_int(rigidref::detail::on_scale(q.y, L) - py)});
  int sign = 0;
  bool inside = true;
  big_int best_n = -1, best_d = 1;
  for (std::size_t i = 0; i < d.size(); ++i) {
    const vec2<big_int>& a = d[i];
    const vec2<big_int>& b = d[(i + 1) % d.size()];
    const vec2<big_int> ab{big_int(b.x - a.x), big_int(b.y - a.y)};
    // cross(b - a, p - a) with p at the origin.
    const big_int side = ab.y * a.x - ab.x * a.y;
    const int sg = side.sign();
    if (sg != 0) {
      if (sign != 0 && sg != sign) inside = false;
      sign = sg;
    }
    const big_int len2 = ab.x * ab.x + ab.y * ab.y;
    const big_int along = -(a.x * ab.x + a.y * ab.y);  // (p - a) . ab
    big_int n, den = 1;
    if (len2 == 0 || along <= 0) {
      n = a.x * a.x + a.y * a.y;
    } else if (along >= len2) {
      n = b.x * b.x + b.y * b.y;
    } else {
      n = side * side;
      den = len2;
    }
    if (best_n < 0 || n * best_d < best_n * den) {
      best_n = std::move(n);
      best_d = std::move(den);
    }
  }
  return inside ? exact(0) : sqrt_exact(exact(best_n, big_int(best_d * L * L)));
}

// Distance from p to the shape: to the core for radius 0 (0 inside a
// polygon), else to the boundary at the radius, |d_core - r| (a witness of
// a rounded shape lies on its boundary).
inline exact distance_to_shape(const shape& s, const exact_point& p) {
  const exact d = distance_to_core(s, p);
  return s.radius == 0 ? d : abs_of(exact(d - s.radius));
}

// How far x is outside the shape, a core grown by its radius (0 inside or on it).
inline exact outside_by(const shape& s, const exact_point& x) {
  return std::max(exact(0), exact(distance_to_core(s, x) - s.radius));
}

// max over s of x.n (support value): the core's, plus r |n|.
inline exact support_value(const shape& s, const exact_point& n) {
  exact best = dot(s.core.front(), n);
  for (const exact_point& p : s.core) best = std::max(best, dot(p, n));
  if (s.radius != 0) best += s.radius * sqrt_exact(length_squared(n));
  return best;
}

// How far B must move along the unit direction of n to separate from A.
inline exact depth_along(const shape& a, const shape& b, const exact_point& n) {
  const exact len = sqrt_exact(length_squared(n));
  if (len == 0) throw std::invalid_argument("normal is the zero vector");
  return (support_value(a, n) + support_value(b, -n)) / len;
}

}  // namespace rigidref::judge

#include "rigidref/detail/fp_end.hpp"
