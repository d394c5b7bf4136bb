// Convex shapes as a core grown by a radius, the form engines use
// (docs/eval-protocol.md section 2): the set of points within `radius` of
// the core, the convex hull of 1, 2 or >= 3 points.
//
//   kind              core                         radius
//   point             one point                    0
//   circle            its centre                   r > 0
//   segment           two distinct points          0
//   capsule           two distinct points          r > 0
//   polygon           strictly convex, CCW, >= 3   0
//   rounded polygon   strictly convex, CCW, >= 3   r > 0
//
// gjk_distance and epa_penetration take them (shape_queries.hpp) and run on
// the cores, adding the radii once at the end (D-GJK-9, D-EPA-7). A segment's
// core is its two ends in the given order; the machinery reads it as the
// degenerate polygon a -> b -> a, whose two edges carry the two
// perpendiculars as outward normals (D-GJK-20).
//
// Bad input throws invalid_input: a non-finite coordinate or radius, a
// negative radius, a segment whose ends coincide, a polygon that
// make_convex_polygon rejects.
#pragma once

#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/support.hpp"
#include "rigidref/vec2.hpp"

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
struct convex_shape {
  std::vector<vec2<T>> core;  // 1 point, 2 distinct points, or a strictly convex CCW polygon
  T radius{0};                // >= 0
};

enum class shape_kind { point, circle, segment, capsule, polygon, rounded_polygon };

template <class T>
shape_kind kind_of(const convex_shape<T>& s) {
  const bool round = s.radius > 0;
  if (s.core.size() == 1) return round ? shape_kind::circle : shape_kind::point;
  if (s.core.size() == 2) return round ? shape_kind::capsule : shape_kind::segment;
  return round ? shape_kind::rounded_polygon : shape_kind::polygon;
}

namespace detail {

template <class T>
void require_shape_point(const vec2<T>& p, const char* what) {
  if (!is_finite(p.x) || !is_finite(p.y)) throw invalid_input(std::string(what) + " has a non-finite coordinate");
}

template <class T>
T require_shape_radius(const T& r) {
  if (!is_finite(r)) throw invalid_input("shape radius is not finite");
  if (r < 0) throw invalid_input("shape radius must be >= 0");
  return r;
}

}  // namespace detail

template <class T>
convex_shape<T> make_point(const vec2<T>& p) {
  detail::require_shape_point(p, "point");
  return {{p}, T(0)};
}

// A disc of radius r >= 0 about c (r = 0: the point c).
template <class T>
convex_shape<T> make_disc(const vec2<T>& c, const T& r) {
  detail::require_shape_point(c, "circle centre");
  return {{c}, detail::require_shape_radius(r)};
}

template <class T>
convex_shape<T> make_capsule(const vec2<T>& a, const vec2<T>& b, const T& r) {
  detail::require_shape_point(a, "segment start");
  detail::require_shape_point(b, "segment end");
  if (a == b) throw invalid_input("a segment needs two distinct ends");
  return {{a, b}, detail::require_shape_radius(r)};
}

template <class T>
convex_shape<T> make_segment(const vec2<T>& a, const vec2<T>& b) {
  return make_capsule(a, b, T(0));
}

template <class T>
convex_shape<T> make_rounded_polygon(std::span<const vec2<T>> vertices, const T& r) {
  const T radius = detail::require_shape_radius(r);
  return {make_convex_polygon(vertices).vertices, radius};
}

template <class T>
convex_shape<T> make_rounded_polygon(const std::vector<vec2<T>>& vertices, const T& r) {
  return make_rounded_polygon(std::span<const vec2<T>>(vertices), r);
}

template <class T>
convex_shape<T> to_shape(const convex_polygon<T>& p) {
  return {p.vertices, T(0)};
}

template <class T>
convex_shape<T> to_shape(const circle<T>& c) {
  return {{c.center}, c.radius};
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
