// EPA, the expanding polytope algorithm (van den Bergen 2001; Ericson,
// "Real-Time Collision Detection", ch. 9): penetration depth, unit normal
// from A to B and witness points of two overlapping convex polygons or
// circles. derivations/epa.md derives every step (anchors D-EPA-n).
//
// Conventions (D-EPA-1): depth is the length of the shortest translation of
// B that makes the closed shapes touch; `normal` is its unit direction, from
// A to B, so translating B by depth * normal leaves A and B touching.
// point_a (on A) and point_b (on B) are witness points with
// point_a - point_b = depth * normal (before rounding each coordinate).
//
// Design ("identify features in T, evaluate exactly, round once"):
//  1. GJK (gjk.hpp) decides exactly whether the closed shapes meet and, when
//     the origin is interior to its exact simplex, hands that simplex to EPA.
//  2. EPA grows a polygon inside A - B in T (D-EPA-2, D-EPA-3). It stops when
//     every face within a margin of the closest final face is final (its
//     support point adds nothing); those faces are the shortlist (D-EPA-4).
//  3. For each shortlisted face, the face's own normal and the edge normals
//     of A and B at its vertices are candidate axes; the overlap of each is
//     evaluated exactly, and the smallest o / |n| wins (D-EPA-5). The depth
//     sqrt(o^2 / |n|^2), the normal n / |n| and the witnesses are evaluated
//     from exact rationals in the accumulator and rounded once (D-EPA-6).
//  Touching contacts (the origin on the boundary of GJK's simplex), a
//  polytope that does not contain the origin in T, and EPA's cap use the
//  exact minimum over every edge normal instead (D-GJK-11); the result says
//  so in `exact_fallback` and, for the cap, status cap_reached.
//
// Speed (float, double, long double): step 3's decisions go through the
// floating-point filter of filter.hpp (D-EPA-8), and for an edge-normal axis
// the depth, normal and witnesses are rounded from double words when a
// rounding test proves the exact path's bits (D-EPA-9); the exact path runs
// otherwise. Results are identical either way.
//
// SAT first (D-EPA-11): for two polygons (or a polygon and a circle's centre)
// whose every edge overlap is proved positive and whose smallest o / |n| is
// proved unique, that edge axis is the one step 3 would pick; GJK and EPA are
// skipped and the values are rounded as above (the same bits; iterations 0).
//
// Circles: EPA runs on the cores (a circle's core is its centre) and the
// radii are added to the core depth before rounding (D-EPA-7). Two circles
// with coincident centres have no defined normal: status degenerate_input,
// normal (1, 0) by convention, depth ra + rb.
//
// Route map of a query (each stage in detail/, in the order it runs):
//   SAT first, lean (D-EPA-13)               detail/epa_sat_lean.hpp
//   SAT first (when the lean route is unsure) detail/epa_sat_first.hpp
//   two polygons in double, apart (D-EPA-14)  detail/epa_query.hpp, semi_static.hpp
//   else GJK's exact stage                   detail/core_query.hpp (gjk.hpp)
//   EPA's loop in T                          detail/epa_loop.hpp
//   its axis minimum (filtered, exact)       detail/epa_axis.hpp
//   depth, normal, witnesses                 detail/epa_values.hpp
//   the stages in order                      detail/epa_query.hpp
#pragma once

#include "rigidref/collision_status.hpp"
#include "rigidref/gjk.hpp"

#include <span>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

struct epa_options {
  int max_iterations = 0;      // EPA's cap in T; 0: automatic, 32 + 4 (n_A + n_B)
  int gjk_max_iterations = 0;  // GJK's cap in T; 0: automatic (gjk_options)
  // Two polygons that overlap by a proved margin, or a polygon and a circle
  // whose centre is inside it, are answered by their smallest edge axis
  // without GJK and EPA (D-EPA-11; iterations is then 0).
  // The values are the same either way; false runs GJK and EPA (with
  // point_first below for a circle's centre outside the polygon).
  bool sat_first = true;
  // A circle whose centre is outside a polygon: the centre's closest feature
  // is found without GJK's loop (D-GJK-19, as gjk_options::point_first).
  bool point_first = true;
};

template <class T>
struct epa_result {
  collision_status status = collision_status::converged;
  bool intersecting = false;  // the closed shapes share a point (touching counts)
  T depth{0};                 // >= 0; 0 when touching or not intersecting
  vec2<T> normal{};           // unit, from A to B (when apart: direction from point_a to point_b)
  vec2<T> point_a{};          // witness on A (when apart: closest point)
  vec2<T> point_b{};          // witness on B (when apart: closest point)
  T distance{0};              // separation when not intersecting, else 0
  int iterations = 0;         // GJK + EPA iterations in T; 0 when SAT first answered (D-EPA-11)
  bool exact_fallback = false;
};

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"

// The machinery; it needs epa_result above.
#include "rigidref/detail/epa_query.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
epa_result<T> epa_penetration(const convex_polygon<T>& a, const convex_polygon<T>& b, const epa_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "epa_penetration needs a binary floating type (sqrt)");
  return detail::penetration_of_cores<T>(a.vertices, b.vertices, T(0), T(0), opt);
}

template <class T>
epa_result<T> epa_penetration(const convex_polygon<T>& a, const circle<T>& b, const epa_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "epa_penetration needs a binary floating type (sqrt)");
  return detail::penetration_of_cores<T>(a.vertices, detail::one_point(b.center), T(0), b.radius, opt);
}

template <class T>
epa_result<T> epa_penetration(const circle<T>& a, const convex_polygon<T>& b, const epa_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "epa_penetration needs a binary floating type (sqrt)");
  return detail::penetration_of_cores<T>(detail::one_point(a.center), b.vertices, a.radius, T(0), opt);
}

template <class T>
epa_result<T> epa_penetration(const circle<T>& a, const circle<T>& b, const epa_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "epa_penetration needs a binary floating type (sqrt)");
  return detail::penetration_of_cores<T>(detail::one_point(a.center), detail::one_point(b.center), a.radius, b.radius,
                                         opt);
}

template <class T>
epa_result<T> epa_penetration(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const epa_options& opt = {}) {
  return epa_penetration(make_convex_polygon(a), make_convex_polygon(b), opt);
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
