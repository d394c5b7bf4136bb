// Convex shapes for GJK and EPA (gjk.hpp, epa.hpp), their support mappings
// and the support mapping of the Minkowski difference A - B.
// derivations/gjk.md derives every formula (anchors D-GJK-n).
//
// Shapes:
//   convex_polygon<T>  strictly convex, counter-clockwise vertices. Built by
//                      make_convex_polygon from any vertex list that describes
//                      a convex polygon: either orientation, any starting
//                      vertex, with repeated consecutive vertices and
//                      collinear (180-degree) vertices allowed and removed.
//                      Everything else throws invalid_input: fewer than 3
//                      distinct non-collinear vertices (zero area), a
//                      non-finite coordinate, a reflex vertex, a
//                      self-intersection (e.g. a pentagram, whose every turn
//                      has the same sign). All decisions are exact
//                      (predicates.hpp), so a list is accepted in every type
//                      that represents it exactly, or in none.
//   circle<T>          centre and radius > 0 (finite).
//
// The support mapping s_X(d) is a point of X that maximises d . x (D-GJK-1);
// for A - B it is s_A(d) - s_B(-d) (D-GJK-2). GJK and EPA use the index
// form, which also names the feature (vertex) of each shape.
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/polygon.hpp"
#include "rigidref/predicates.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
struct convex_polygon {
  std::vector<vec2<T>> vertices;  // strictly convex, counter-clockwise, >= 3
};

template <class T>
struct circle {
  vec2<T> center;
  T radius;
};

// Validates and canonicalises (see the header comment). O(n^2) for the exact
// simplicity test. D-GJK-3
template <class T>
convex_polygon<T> make_convex_polygon(std::span<const vec2<T>> input) {
  if (input.size() < 3)
    throw invalid_input("a convex polygon needs at least 3 vertices, got " + std::to_string(input.size()));
  require_finite(input);
  // Drop repeated consecutive vertices (cyclically).
  std::vector<vec2<T>> v;
  for (const auto& p : input)
    if (v.empty() || !(v.back() == p)) v.push_back(p);
  while (v.size() > 1 && v.front() == v.back()) v.pop_back();
  // A type wider than double whose vertices are all doubles (the judge's
  // 100-digit reference of an engine's input): every orientation is decided
  // on the doubles, the same exact sign through the double filter instead of
  // wide arithmetic (D-GJK-3).
  std::vector<vec2<double>> d;
  bool on_doubles = false;
  if constexpr (!std::is_floating_point_v<T>) on_doubles = detail::exactly_doubles(std::span<const vec2<T>>(v), d);
  const auto orient = [&](std::size_t i, std::size_t j, std::size_t k) {
    return on_doubles ? orientation(d[i], d[j], d[k]) : orientation(v[i], v[j], v[k]);
  };
  // Drop collinear vertices that lie between their neighbours; a collinear
  // vertex that folds back (a spike) is kept so the simplicity test rejects it.
  bool changed = true;
  while (changed && v.size() >= 3) {
    changed = false;
    for (std::size_t i = 0; i < v.size() && v.size() >= 3; ++i) {
      const std::size_t ia = (i + v.size() - 1) % v.size(), ic = (i + 1) % v.size();
      const vec2<T>& a = v[ia];
      const vec2<T>& b = v[i];
      const vec2<T>& c = v[ic];
      if (orient(ia, i, ic) == 0 && in_segment_box(a, c, b) && !(a == c)) {
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(i));
        if (on_doubles) d.erase(d.begin() + static_cast<std::ptrdiff_t>(i));
        changed = true;
        break;
      }
    }
  }
  if (v.size() < 3)
    throw invalid_input("polygon has fewer than 3 distinct non-collinear vertices (zero area)");
  require_simple_polygon<T>(v);
  int sign = 0;
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i) {
    const int o = orient(i, (i + 1) % n, (i + 2) % n);
    if (o == 0)
      throw invalid_input("polygon has a degenerate (folded) vertex at " + std::to_string((i + 1) % n));
    if (sign == 0) sign = o;
    if (o != sign) throw invalid_input("polygon is not convex: reflex vertex " + std::to_string((i + 1) % n));
  }
  if (sign < 0) std::reverse(v.begin(), v.end());
  return {std::move(v)};
}

template <class T>
convex_polygon<T> make_convex_polygon(const std::vector<vec2<T>>& input) {
  return make_convex_polygon(std::span<const vec2<T>>(input));
}

template <class T>
circle<T> make_circle(const vec2<T>& center, const T& radius) {
  if (!is_finite(center.x) || !is_finite(center.y)) throw invalid_input("circle centre is not finite");
  if (!is_finite(radius) || !(radius > 0)) throw invalid_input("circle radius must be finite and > 0");
  return {center, radius};
}

// Index of a vertex maximising d . v (first one on ties), evaluated in T as
// d . (v_i - v_0): the same argmax, without the rounding of a large common
// offset (a polygon at 1e6 would otherwise compare values of size 1e6 |d|).
// D-GJK-1
template <class T>
std::size_t support_index(std::span<const vec2<T>> v, const vec2<T>& d) {
  std::size_t best = 0;
  T best_value{0};
  for (std::size_t i = 1; i < v.size(); ++i) {
    const T value = dot(v[i] - v[0], d);
    if (value > best_value) {
      best = i;
      best_value = value;
    }
  }
  return best;
}

template <class T>
vec2<T> support(const convex_polygon<T>& p, const vec2<T>& d) {
  return p.vertices[support_index(std::span<const vec2<T>>(p.vertices), d)];
}

// Circle: c + r d/|d| (D-GJK-1), with the unit vector evaluated in the
// accumulator and rounded once per coordinate; d = 0 gives the centre + (r, 0).
template <class T>
vec2<T> support(const circle<T>& c, const vec2<T>& d) {
  using A = accumulator<T>;
  using W = typename A::type;
  const W dx = A::from(d.x), dy = A::from(d.y);
  const W len2 = dx * dx + dy * dy;
  if (A::zero(len2)) return {T(c.center.x + c.radius), c.center.y};
  const W len = A::sqrt(len2);
  const W r = A::from(c.radius);
  return {A::round(A::from(c.center.x) + r * dx / len), A::round(A::from(c.center.y) + r * dy / len)};
}

// One vertex of the Minkowski difference A - B: w = a[ia] - b[ib] (D-GJK-2).
template <class T>
struct minkowski_point {
  vec2<T> w;
  std::size_t ia = 0;
  std::size_t ib = 0;
  bool same_pair(const minkowski_point& o) const { return ia == o.ia && ib == o.ib; }
};

// s_{A-B}(d) = s_A(d) - s_B(-d). D-GJK-2
template <class T>
minkowski_point<T> minkowski_support(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const vec2<T>& d) {
  const std::size_t ia = support_index(a, d);
  const std::size_t ib = support_index(b, -d);
  return {a[ia] - b[ib], ia, ib};
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
