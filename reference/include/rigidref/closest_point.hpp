// Closest point on a segment, point-segment distance and point-in-triangle:
// the reference versions (derivations/sat.md).
//
// Every result here is a rational function of the inputs except the
// distance itself, so the rational parts are evaluated exactly and rounded
// once (correctly rounded), and the distance is the square root of the exact
// squared distance taken in the accumulator (accumulator.hpp) and rounded
// once (within 1 ulp). Point-in-triangle is decided by the exact orientation
// predicate (predicates.hpp, D-PRED-1), for either orientation of the
// triangle.
//
// The article versions of the same helpers (seed 000's closestSegmentPoint,
// seed 004's distLine and point-in-triangle) are in
// articles/collision_helpers.hpp.
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/predicates.hpp"
#include "rigidref/vec2.hpp"

#include <cmath>
#include <string>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

namespace detail {

template <class T>
vec2<exact> exact_of(const vec2<T>& p) {
  return {to_exact(p.x), to_exact(p.y)};
}

template <class T>
void require_finite_point(const vec2<T>& p, const char* what) {
  if (!is_finite(p.x) || !is_finite(p.y)) throw invalid_input(std::string(what) + " has a non-finite coordinate");
}

// q rounded to T, or invalid_input when it overflows T.
template <class T>
T rounded(const exact& q, const char* what) {
  const T x = round_to<T>(q);
  if (!is_finite(x))
    throw invalid_input(std::string("the result ") + what + " overflows " + std::string(scalar_name<T>()) +
                        ": the input is too large for this precision");
  return x;
}

// sqrt(q) for an exact q >= 0, rounded to T within 1 ulp (D-SAT-9): q is
// scaled by 4^-k into [1, 4) exactly, its square root taken in the
// accumulator (relative error a few u^2 of the accumulator) and rounded
// once, then scaled back by 2^k (exact in T unless the result is subnormal).
// The scaling keeps squared lengths of 1e300-sized inputs from overflowing.
template <class T>
T sqrt_rounded(const exact& q, const char* what) {
  static_assert(!is_exact_v<T>, "sqrt of a rational is not rational");
  using boost::multiprecision::ldexp;
  using std::ldexp;
  if (q < 0) throw domain_error(std::string("square root of a negative ") + what);
  if (q == 0) return T(0);
  const long e = detail::floor_log2(q);
  const long k = e >= 0 ? e / 2 : -((-e + 1) / 2);  // floor(e / 2)
  const exact scaled = k >= 0 ? exact(q / exact(big_int(1) << (2 * k))) : exact(q * exact(big_int(1) << (-2 * k)));
  using A = accumulator<T>;
  const T r = A::round(A::sqrt(A::from_exact(scaled)));
  const T out = ldexp(r, static_cast<int>(k));
  if (!is_finite(out))
    throw invalid_input(std::string("the result ") + what + " overflows " + std::string(scalar_name<T>()));
  return out;
}

}  // namespace detail

// The point of the closed segment [a, b] nearest p, and its parameter t in
// [0, 1] (point = a + t (b - a)). D-SAT-5
template <class T>
struct segment_point {
  vec2<T> point;
  T t;
};

// The exact closest point: t = clamp(dot(p - a, b - a) / |b - a|^2, 0, 1),
// t = 0 for a degenerate segment (a == b). Both coordinates and t are
// correctly rounded in T (exact in exact). D-SAT-5
template <class T>
segment_point<T> closest_point_on_segment(const vec2<T>& p, const vec2<T>& a, const vec2<T>& b) {
  detail::require_finite_point(p, "point");
  detail::require_finite_point(a, "segment start");
  detail::require_finite_point(b, "segment end");
  const vec2<exact> P = detail::exact_of(p), A = detail::exact_of(a), B = detail::exact_of(b);
  const vec2<exact> ab = B - A;
  const exact len2 = length_squared(ab);
  exact t = len2 == 0 ? exact(0) : exact(dot(P - A, ab) / len2);
  if (t < 0) t = 0;
  if (t > 1) t = 1;
  const vec2<exact> q = A + t * ab;
  return {{detail::rounded<T>(q.x, "closest point x"), detail::rounded<T>(q.y, "closest point y")},
          detail::rounded<T>(t, "segment parameter")};
}

// Exact squared distance from p to the closed segment [a, b] (D-SAT-5).
inline exact point_segment_distance_squared_exact(const vec2<exact>& p, const vec2<exact>& a, const vec2<exact>& b) {
  const vec2<exact> ab = b - a;
  const exact len2 = length_squared(ab);
  exact t = len2 == 0 ? exact(0) : exact(dot(p - a, ab) / len2);
  if (t < 0) t = 0;
  if (t > 1) t = 1;
  return length_squared(p - (a + t * ab));
}

// Squared distance, correctly rounded in T (exact in exact). D-SAT-5
template <class T>
T point_segment_distance_squared(const vec2<T>& p, const vec2<T>& a, const vec2<T>& b) {
  detail::require_finite_point(p, "point");
  detail::require_finite_point(a, "segment start");
  detail::require_finite_point(b, "segment end");
  return detail::rounded<T>(point_segment_distance_squared_exact(
                                     detail::exact_of(p), detail::exact_of(a), detail::exact_of(b)),
                                 "squared distance");
}

// Distance, within 1 ulp of the correctly rounded value (floating T only:
// the distance is irrational in general). D-SAT-5, D-SAT-9
// In exact: throws unsupported (use point_segment_distance_squared).
template <class T>
T point_segment_distance(const vec2<T>& p, const vec2<T>& a, const vec2<T>& b) {
  detail::require_finite_point(p, "point");
  detail::require_finite_point(a, "segment start");
  detail::require_finite_point(b, "segment end");
  if constexpr (is_exact_v<T>) {
    throw unsupported("the point-segment distance is irrational: use the squared distance in exact");
  } else {
    return detail::sqrt_rounded<T>(
        point_segment_distance_squared_exact(detail::exact_of(p), detail::exact_of(a),
                                             detail::exact_of(b)),
        "distance");
  }
}

enum class containment { outside, boundary, inside };

// Where p lies relative to the closed triangle abc, for either orientation
// of the triangle, decided by the exact orientation predicate (D-SAT-6).
// A degenerate (collinear) triangle is the segment hull of its vertices: p
// on it is `boundary`, everything else `outside`.
template <class T>
containment point_in_triangle(const vec2<T>& p, const vec2<T>& a, const vec2<T>& b, const vec2<T>& c) {
  detail::require_finite_point(p, "point");
  detail::require_finite_point(a, "triangle vertex a");
  detail::require_finite_point(b, "triangle vertex b");
  detail::require_finite_point(c, "triangle vertex c");
  const int o = orientation(a, b, c);
  if (o == 0) {
    const bool on = segments_intersect(p, p, a, b) || segments_intersect(p, p, b, c) || segments_intersect(p, p, c, a);
    return on ? containment::boundary : containment::outside;
  }
  // Orient every edge test so that "inside" is +1 whatever the triangle's turn.
  const int s0 = orientation(a, b, p) * o;
  const int s1 = orientation(b, c, p) * o;
  const int s2 = orientation(c, a, p) * o;
  if (s0 < 0 || s1 < 0 || s2 < 0) return containment::outside;
  if (s0 == 0 || s1 == 0 || s2 == 0) return containment::boundary;
  return containment::inside;
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
