// Contact manifolds with a circle: polygon-circle, circle-polygon and
// circle-circle (derivations/contact.md, D-CONTACT-15). A circle touches a
// convex shape at one point, so the manifold has at most one point:
//
//   - the normal n is the circle SAT's (sat.hpp, D-SAT-8), oriented from A
//     to B: from the closest point of the polygon to the centre, or the
//     nearest edge's outward normal when the centre is inside; between two
//     circles, from centre to centre ((1, 0) when they coincide);
//   - `point` is on the circle that does not hold the reference (the
//     polygon, or A for two circles): its centre moved by its radius
//     towards the other shape;
//   - `reference_point` is on the reference shape: the polygon's closest
//     boundary point (or the centre's foot on the nearest edge), or A's
//     circle point c_A + r_A n;
//   - `separation` = (point on B - point on A) . n, < 0 penetrating, so
//     reference_point = point - separation n (reference on A) or point +
//     separation n (reference on B), as for polygons (D-CONTACT-4).
//
// Decisions are exact (the status and the margin test compare squared
// distances); the separation is rounded once from the accumulator (within
// 1 ulp, as the circle depth of D-SAT-8); a polygon's reference point is
// rational and correctly rounded; a point on a circle, c + r a/|a|, is
// accumulated and rounded once (D-CONTACT-15 gives its bound).
#pragma once

#include "rigidref/contact.hpp"
#include "rigidref/detail/polygon_point.hpp"
#include "rigidref/support.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {
namespace detail {

// sqrt(D2) - R in the accumulator, without cancellation: (D2 - R^2) /
// (sqrt(D2) + R) outside, -(R + sqrt(D2)) for a centre inside a polygon
// (D2 then the squared distance to the nearest edge line). D-CONTACT-15
template <class T>
typename accumulator<T>::type circle_separation(const exact& D2, const exact& R, bool inside) {
  using A = accumulator<T>;
  if (inside) return A::from_exact(exact(-R)) - A::sqrt(A::from_exact(D2));
  const exact num = D2 - R * R;
  if (num == 0) return A::from_exact(exact(0));
  return A::from_exact(num) / (A::sqrt(A::from_exact(D2)) + A::from_exact(R));
}

// c + r a / |a| per coordinate, accumulated and rounded once. D-CONTACT-15
template <class T>
vec2<T> circle_point(const vec2<exact>& c, const exact& r, const vec2<exact>& a) {
  using A = accumulator<T>;
  const typename A::type len = A::sqrt(A::from_exact(length_squared(a)));
  const auto coordinate = [&](const exact& ci, const exact& ai) {
    if (ai == 0 || r == 0) return rounded<T>(ci, "contact point");
    return A::round(A::from_exact(ci) + A::from_exact(exact(r * ai)) / len);
  };
  return {coordinate(c.x, a.x), coordinate(c.y, a.y)};
}

inline exact checked_margin(double relative_margin, const exact& size) {
  if (!(relative_margin >= 0) || !std::isfinite(relative_margin))
    throw invalid_input("contact: relative_margin must be finite and >= 0");
  return to_exact(relative_margin) * size;
}

// The one point of a circle manifold, from exact geometry. `axis`: from A
// to B, unnormalised; `circle_is_b`: the incident circle is B (its point
// is c - r n) or A (c + r n).
template <class T>
manifold_point<T> circle_manifold_point(const vec2<exact>& axis, const vec2<exact>& center, const exact& radius,
                                        bool circle_is_b, const typename accumulator<T>::type& separation) {
  using A = accumulator<T>;
  manifold_point<T> mp;
  mp.point = circle_point<T>(center, circle_is_b ? exact(-radius) : radius, axis);
  mp.separation = A::round(separation);
  mp.separation_scaled = A::round(separation * A::sqrt(A::from_exact(length_squared(axis))));
  return mp;
}

inline contact_status status_of(const exact& D2, const exact& R, bool inside) {
  if (inside) return contact_status::intersecting;
  return D2 > R * R ? contact_status::separated
                    : (D2 == R * R ? contact_status::touching : contact_status::intersecting);
}

// Polygon p against circle (c, r), with the polygon on side `polygon_side`
// (0 = A, 1 = B). D-CONTACT-15
template <class T>
contact_manifold<T> polygon_circle_manifold(std::span<const vec2<T>> polygon, const circle<T>& circ,
                                            int polygon_side, const contact_options& opt) {
  require_convex(polygon, polygon_side == 0 ? "polygon A" : "polygon B");
  require_finite_point(circ.center, polygon_side == 0 ? "circle B center" : "circle A center");
  const exact r = checked_radius(circ.radius, polygon_side == 0 ? "circle B radius" : "circle A radius");
  const std::vector<vec2<exact>> p = exact_vertices(polygon);
  const vec2<exact> c = exact_of(circ.center);
  const exact margin = checked_margin(opt.relative_margin, std::min(size_of(p), exact(2 * r)));
  const polygon_point_geometry g = polygon_point(p, c);
  // g.axis points from the polygon to the centre: A to B when the polygon is A.
  const vec2<exact> axis = polygon_side == 0 ? g.axis : vec2<exact>{exact(-g.axis.x), exact(-g.axis.y)};
  contact_manifold<T> m;
  m.status = status_of(g.distance_squared, r, g.inside);
  m.normal = unit_of<T>(axis);
  m.axis = {rounded<T>(axis.x, "axis"), rounded<T>(axis.y, "axis")};
  m.reference_polygon = polygon_side;
  m.reference_edge = m.reference_first = g.edge;
  m.reference_last = (g.edge + 1) % p.size();
  // Kept when separation <= margin: inside always; else sqrt(D2) - r <= m.
  const exact reach = r + margin;
  if (g.inside || g.distance_squared <= reach * reach) {
    manifold_point<T> mp = circle_manifold_point<T>(axis, c, r, polygon_side == 0,
                                                    circle_separation<T>(g.distance_squared, r, g.inside));
    mp.reference_point = {rounded<T>(g.closest.x, "reference point"), rounded<T>(g.closest.y, "reference point")};
    const contact_feature on_polygon{polygon_side, g.at_vertex ? feature_type::vertex : feature_type::face,
                                     g.at_vertex ? g.vertex : g.edge};
    const contact_feature on_circle{1 - polygon_side, feature_type::vertex, 0};
    mp.feature_a = polygon_side == 0 ? on_polygon : on_circle;
    mp.feature_b = polygon_side == 0 ? on_circle : on_polygon;
    m.points.push_back(mp);
  }
  return m;
}

}  // namespace detail

// Convex polygon A (either orientation) against circle B. D-CONTACT-15
template <class T>
contact_manifold<T> collide_polygon_circle_manifold(std::span<const vec2<T>> a, const circle<T>& b,
                                                    const contact_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "a circle manifold needs a square root");
  return detail::polygon_circle_manifold<T>(a, b, 0, opt);
}

// Circle A against convex polygon B: the reference is B. D-CONTACT-15
template <class T>
contact_manifold<T> collide_circle_polygon_manifold(const circle<T>& a, std::span<const vec2<T>> b,
                                                    const contact_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "a circle manifold needs a square root");
  return detail::polygon_circle_manifold<T>(b, a, 1, opt);
}

// Circle A against circle B: the reference is A. Coincident centres: the
// normal (1, 0) by convention (as collide_circles), the pair intersecting.
// D-CONTACT-15
template <class T>
contact_manifold<T> collide_circles_manifold(const circle<T>& a, const circle<T>& b, const contact_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "a circle manifold needs a square root");
  detail::require_finite_point(a.center, "circle 1 center");
  detail::require_finite_point(b.center, "circle 2 center");
  const exact ra = detail::checked_radius(a.radius, "circle 1 radius");
  const exact rb = detail::checked_radius(b.radius, "circle 2 radius");
  const vec2<exact> ca = detail::exact_of(a.center), cb = detail::exact_of(b.center);
  const exact margin = detail::checked_margin(opt.relative_margin, 2 * std::min(ra, rb));
  const vec2<exact> d = cb - ca;
  const exact D2 = length_squared(d);
  const vec2<exact> axis = D2 == 0 ? vec2<exact>{exact(1), exact(0)} : d;
  const exact R = ra + rb;
  contact_manifold<T> m;
  m.status = detail::status_of(D2, R, false);
  m.normal = detail::unit_of<T>(axis);
  m.axis = {detail::rounded<T>(axis.x, "axis"), detail::rounded<T>(axis.y, "axis")};
  m.reference_polygon = 0;
  const exact reach = R + margin;
  if (D2 <= reach * reach) {
    manifold_point<T> mp = detail::circle_manifold_point<T>(axis, cb, rb, true, detail::circle_separation<T>(D2, R, false));
    mp.reference_point = detail::circle_point<T>(ca, ra, axis);
    mp.feature_a = {0, feature_type::vertex, 0};
    mp.feature_b = {1, feature_type::vertex, 0};
    m.points.push_back(mp);
  }
  return m;
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
