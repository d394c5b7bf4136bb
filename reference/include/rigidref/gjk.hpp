// GJK (Gilbert, Johnson and Keerthi 1988, in the form of van den Bergen 1999
// and Ericson, "Real-Time Collision Detection", ch. 9): intersection test,
// distance and closest points of two convex polygons or circles.
// derivations/gjk.md derives every step (anchors D-GJK-n).
//
// Design ("identify features in T, evaluate exactly, round once"):
//
//  1. GJK runs in T on the support mapping of A - B (support.hpp) and stops
//     with a simplex of at most three Minkowski points, each naming a vertex
//     of A and a vertex of B (D-GJK-4, D-GJK-5).
//  2. The simplex's claim is then checked in exact rational arithmetic on the
//     input vertices, which every binary T converts exactly:
//       - "intersecting": the exact simplex must contain the origin
//         (D-GJK-6); its barycentric weights give a common point.
//       - "separated": starting from the simplex's vertices, a local
//         vertex-edge search finds a pair (p, q), p in A, q in B, and the
//         optimality conditions of D-GJK-7 are verified exactly: with
//         n = q - p, p maximises n . x over A and q minimises it over B.
//         These conditions prove |q - p| is the distance.
//     A claim that fails its check (near touching, where T's rounding may
//     decide either way) falls back to an exact search (brute-force pairs,
//     then GJK itself in exact arithmetic); the result says so in
//     `exact_fallback`. Every intersecting / touching / separated decision is
//     therefore exact.
//  3. The distance is sqrt(|q - p|^2) with |q - p|^2 an exact rational,
//     evaluated in the accumulator and rounded once (D-GJK-8): within 1 ulp.
//
// Speed (float, double, long double; filter.hpp): each exact decision above is
// first evaluated in T with a proved error bound and taken there when the
// bound decides it (D-GJK-13..15); each result is rounded from double words
// of the inputs when a rounding test proves it is the value the exact path
// would give (D-GJK-16). Otherwise the exact path runs, unchanged: the
// results are the same bits either way. The exact rationals of the inputs are
// converted only when an exact path needs them.
//
// Circles: GJK runs on the circle's centre (a one-point core), and the radii
// are subtracted in the accumulator before the one rounding (D-GJK-9).
//
// Never NaN, never an infinite loop: every loop has a cap; reaching GJK's cap
// in T is reported as status cap_reached (the values are then those of the
// exact fallback, still correct), never as a silent "no intersection".
//
// Route map of a query (each stage in detail/, in the order it runs):
//   a circle's centre: its feature first     detail/separation_one_pass.hpp
//   GJK's loop in T                          detail/gjk_loop.hpp
//   intersecting: exact containment          detail/containment.hpp
//   separated: one-pass certificate          detail/separation_one_pass.hpp
//            -> filtered certificate         detail/separation_filtered.hpp
//            -> exact certificate            detail/separation_exact.hpp
//            -> exact GJK                    detail/core_query.hpp
//   the stages in order                      detail/core_query.hpp
//   values: rounding filter, else exact      detail/separated_values.hpp,
//                                            detail/rounding_filter.hpp,
//                                            detail/gjk_values.hpp
#pragma once

#include "rigidref/collision_status.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/support.hpp"
#include "rigidref/vec2.hpp"

#include <span>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

struct gjk_options {
  // Iteration cap of GJK in T; 0: automatic, 32 + 4 (n_A + n_B). In exact
  // arithmetic GJK on polygons ends within about n_A + n_B iterations.
  int max_iterations = 0;
  // A circle's centre outside a polygon: its closest feature is found
  // directly and proved, without GJK's loop (D-GJK-19; iterations is then
  // 0). The values are the same either way; false always runs GJK.
  bool point_first = true;
};

template <class T>
struct gjk_result {
  collision_status status = collision_status::converged;
  bool intersecting = false;  // the closed shapes share a point (touching counts)
  T distance{0};              // >= 0; 0 when intersecting
  vec2<T> point_a{};          // closest point on A (a common point when intersecting)
  vec2<T> point_b{};          // closest point on B (the same common point when intersecting)
  int iterations = 0;         // GJK iterations in T
  bool exact_fallback = false;  // T's simplex could not be certified; exact search used
};

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"

// The machinery; it needs gjk_result above.
#include "rigidref/detail/gjk_values.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

// ---- public API ------------------------------------------------------------------

template <class T>
gjk_result<T> gjk_distance(const convex_polygon<T>& a, const convex_polygon<T>& b, const gjk_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "gjk_distance needs a binary floating type (sqrt)");
  const std::span<const vec2<T>> sa(a.vertices), sb(b.vertices);
  const detail::core_options co{.cap = detail::automatic_cap(opt.max_iterations, sa.size(), sb.size())};
  if constexpr (std::is_same_v<T, double>) return detail::polygon_distance_double(sa, sb, co);  // issue 28
  const auto c = detail::core_query<T>(sa, sb, co);
  return detail::distance_from_core<T>(c, T(0), T(0));
}

template <class T>
gjk_result<T> gjk_distance(const convex_polygon<T>& a, const circle<T>& b, const gjk_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "gjk_distance needs a binary floating type (sqrt)");
  const std::span<const vec2<T>> sa(a.vertices);
  const auto c = detail::core_query<T>(sa, detail::one_point(b.center),
                                       {.cap = detail::automatic_cap(opt.max_iterations, sa.size(), 1),
                                        .point_first = opt.point_first});
  return detail::distance_from_core<T>(c, T(0), b.radius);
}

template <class T>
gjk_result<T> gjk_distance(const circle<T>& a, const convex_polygon<T>& b, const gjk_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "gjk_distance needs a binary floating type (sqrt)");
  const std::span<const vec2<T>> sb(b.vertices);
  const auto c = detail::core_query<T>(detail::one_point(a.center), sb,
                                       {.cap = detail::automatic_cap(opt.max_iterations, 1, sb.size()),
                                        .point_first = opt.point_first});
  return detail::distance_from_core<T>(c, a.radius, T(0));
}

template <class T>
gjk_result<T> gjk_distance(const circle<T>& a, const circle<T>& b, const gjk_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "gjk_distance needs a binary floating type (sqrt)");
  const auto c = detail::core_query<T>(detail::one_point(a.center), detail::one_point(b.center),
                                       {.cap = detail::automatic_cap(opt.max_iterations, 1, 1)});
  return detail::distance_from_core<T>(c, a.radius, b.radius);
}

// Vertex lists: validated by make_convex_polygon (throws invalid_input).
template <class T>
gjk_result<T> gjk_distance(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const gjk_options& opt = {}) {
  return gjk_distance(make_convex_polygon(a), make_convex_polygon(b), opt);
}

// Intersection test only (touching counts as intersecting).
template <class T>
bool gjk_intersect(const convex_polygon<T>& a, const convex_polygon<T>& b, const gjk_options& opt = {}) {
  return gjk_distance(a, b, opt).intersecting;
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
