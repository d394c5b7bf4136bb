// A GJK query's values from its exact stage (D-GJK-8, D-GJK-9): rounded from
// double words when detail/separated_values.hpp proves them, else from the
// exact rationals, once. Included by gjk.hpp after gjk_result.
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/detail/core_query.hpp"
#include "rigidref/detail/mp_frame_values.hpp"
#include "rigidref/detail/mp_round.hpp"
#include "rigidref/detail/separated_values.hpp"
#include "rigidref/errors.hpp"
#include <string>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// ---- rounding once ------------------------------------------------------------

// sqrt(q) for an exact q >= 0, evaluated in the accumulator and rounded once.
// D-GJK-8
template <class T>
T sqrt_rounded(const exact& q) {
  using A = accumulator<T>;
  if (q == 0) return T(0);
  return round_accumulated<T>(A::sqrt(A::from_exact(q)));
}

template <class T>
vec2<T> round_vec(const evec& p) {
  return {round_to<T>(p.x), round_to<T>(p.y)};
}

// p + s n / |n| for exact p, n (n != 0) and a T scalar s, in the accumulator,
// rounded once per coordinate. D-GJK-9
template <class T>
vec2<T> offset_rounded(const evec& p, const evec& n, const T& s) {
  using A = accumulator<T>;
  using W = typename A::type;
  if (s == 0) return round_vec<T>(p);
  const W len = A::sqrt(A::from_exact(length_squared(n)));
  const W k = A::from(s) / len;
  return {round_accumulated<T>(A::from_exact(p.x) + k * A::from_exact(n.x)), round_accumulated<T>(A::from_exact(p.y) + k * A::from_exact(n.y))};
}

// Inputs near T's overflow threshold can give a distance or a point that T
// cannot hold: an input error, never an infinity handed back.
template <class T>
const gjk_result<T>& require_finite_result(const gjk_result<T>& r) {
  for (const T* x : {&r.distance, &r.point_a.x, &r.point_a.y, &r.point_b.x, &r.point_b.y})
    if (!is_finite(*x))
      throw invalid_input("GJK: the result overflows " + std::string(scalar_name<T>()) +
                          ": the input is too large for this precision");
  return r;
}

// ---- the opening shared by distance_from_core and penetration_from_core ------

// A result's fields that come from the exact stage.
template <class Result, class T>
Result result_from_core(const core_contact<T>& c) {
  Result out;
  out.iterations = c.iterations;
  out.exact_fallback = c.exact_fallback || c.capped;
  return out;
}

inline collision_status status_of(bool capped, bool touching) {
  return capped ? collision_status::cap_reached : (touching ? collision_status::touching : collision_status::converged);
}

// ra + rb, exactly; formed only where an exact path needs it.
template <class T>
exact exact_radii(const T& ra, const T& rb) {
  return exact(to_exact(ra) + to_exact(rb));
}

// Counts a value computed from double words (filtered) or exactly, in
// filter_stats; returns `filtered`.
inline bool count_values(bool filtered) {
  ++(filtered ? filter_stats().filtered_values : filter_stats().exact_values);
  return filtered;
}

// Separated cores on the exact path: the closest pair, n = q - p and
// r = ra + rb.
struct separated_exact {
  exact_pair closest;
  evec n;
  exact r;
};

template <class T>
separated_exact separated_exact_of(const core_contact<T>& c, const T& ra, const T& rb) {
  separated_exact e{closest_pair(c), {}, exact_radii(ra, rb)};
  e.n = e.closest.q - e.closest.p;
  return e;
}

// Distance of two cores with radii ra, rb (0 for polygons). D-GJK-8, D-GJK-9
template <class T>
gjk_result<T> distance_from_core(const core_contact<T>& c, const T& ra, const T& rb) {
  using A = accumulator<T>;
  using W = typename A::type;
  gjk_result<T> out = result_from_core<gjk_result<T>>(c);
  if (c.separated) {
    if constexpr (filter_enabled_v<T>) {
      if constexpr (std::is_same_v<T, double>) {  // two polygons: semi-static, D-GJK-23
        if (c.lazy_closest && ra == 0 && rb == 0 && c.a.size() > 1 && c.b.size() > 1 && !filter_force_exact() &&
            semi_static::count(semi_static::separated_values,
                               semi_static::separated_polygon_values(c.a, c.b, c.fa, c.fb, out.distance, out.point_a,
                                                                     out.point_b))) {
          count_values(true);
          out.intersecting = false;
          out.status = status_of(c.capped, false);
          return require_finite_result(out);
        }
      }
      separated_values<T> rv;  // D-GJK-16, D-GJK-18
      if (c.lazy_closest && count_values(fast_distance_values<T>(c.a, c.b, c.fa, c.fb, ra, rb, rv))) {
        out.intersecting = !rv.apart;
        out.distance = rv.apart ? rv.distance : T(0);
        out.point_a = rv.apart ? rv.point_a : rv.common;
        out.point_b = rv.apart ? rv.point_b : rv.common;
        out.status = status_of(c.capped, false);
        return require_finite_result(out);
      }
    }
    if constexpr (is_cpp_bin_float_v<T>) {  // polygons without radii: an integer frame (D-GJK-26)
      if (c.lazy_closest && ra == 0 && rb == 0 && !filter_force_exact() &&
          mp_separated_values<T>(c.a, c.b, c.fa, c.fb, out.distance, out.point_a, out.point_b)) {
        ++mp_route_stats().frame_values;
        out.intersecting = false;  // |q - p|^2 > 0 = (ra + rb)^2: the certificate proved N > 0
        out.status = status_of(c.capped, false);
        return require_finite_result(out);
      }
    }
    const separated_exact e = separated_exact_of(c, ra, rb);
    const exact_pair& closest = e.closest;
    const exact& d2 = closest.d2;
    const evec& n = e.n;
    const exact& r = e.r;
    if (d2 > r * r) {
      out.intersecting = false;
      const W d = A::sqrt(A::from_exact(d2)) - A::from(ra) - A::from(rb);
      out.distance = round_accumulated<T>(d);
      out.point_a = offset_rounded<T>(closest.p, n, ra);
      out.point_b = offset_rounded<T>(closest.q, n, T(-rb));
      out.status = status_of(c.capped, false);
      return require_finite_result(out);
    }
    // The cores are apart but the rounded shapes meet: a common point at
    // distance min(ra, d) from p along n.
    out.intersecting = true;
    out.distance = T(0);
    const W d = A::sqrt(A::from_exact(d2));
    const W ra_w = A::from(ra);
    const W t = A::less(ra_w, d) ? W(ra_w / d) : W(A::from(T(1)));
    const vec2<T> common{round_accumulated<T>(A::from_exact(closest.p.x) + t * A::from_exact(n.x)),
                         round_accumulated<T>(A::from_exact(closest.p.y) + t * A::from_exact(n.y))};
    out.point_a = common;
    out.point_b = common;
    out.status = status_of(c.capped, d2 == r * r);
    return require_finite_result(out);
  }
  out.intersecting = true;
  out.distance = T(0);
  bool have_point = false;
  if constexpr (filter_enabled_v<T>) {
    if (c.lazy_common) {
      if constexpr (std::is_same_v<T, double>)  // semi-static, D-GJK-22
        have_point = !filter_force_exact() && semi_static::count(semi_static::common_point, semi_static::triangle_common(c.a, c.b, c.seed, out.point_a));
      if (have_point)
        count_values(true);
      else
        have_point = count_values(fast_common<T>(c.a, c.b, c.seed, out.point_a));  // D-GJK-16
    }
  }
  if constexpr (is_cpp_bin_float_v<T>) {  // D-GJK-26
    if (c.lazy_common && !filter_force_exact() && mp_common_point<T>(c.a, c.b, c.seed, out.point_a)) {
      ++mp_route_stats().frame_values;
      have_point = true;
    }
  }
  if (!have_point) out.point_a = round_vec<T>(c.lazy_common ? barycentric_common(c.A(), c.B(), c.seed) : *c.common);
  out.point_b = out.point_a;
  bool touching = false;
  if (!c.strict_overlap && exact_radii(ra, rb) == 0) {
    // The origin is on the boundary of the simplex: it is on the boundary of
    // A - B iff some edge normal has zero overlap (exact, D-GJK-11).
    // Two coincident points: A - B is the origin alone, depth 0 (D-EPA-12).
    touching = (c.a.size() == 1 && c.b.size() == 1) || exact_min_overlap(c.A(), c.B()).o == 0;
    out.exact_fallback = true;
  }
  out.status = status_of(c.capped, touching);
  return require_finite_result(out);
}

// gjk_distance of two polygons in double: GJK's loop, then straight to the
// semi-static steps (D-GJK-21..23) without building a core_contact; the
// first step not proved hands the same run to core_from_run and
// distance_from_core, the route of core_query (same decisions, same bits;
// the counters as that route counts them). Issue 28.
inline gjk_result<double> polygon_distance_double(std::span<const vec2<double>> a, std::span<const vec2<double>> b,
                                                  const core_options& opt) {
  if (a.size() < 3 || b.size() < 3) return distance_from_core<double>(core_query<double>(a, b, opt), 0.0, 0.0);
  const gjk_run<double> run = gjk_core(a, b, opt.cap);
  if (run.claim != gjk_claim::cap && !filter_force_exact()) {
    gjk_result<double> out;
    out.iterations = run.iterations;
    out.status = collision_status::converged;
    if (run.claim == gjk_claim::intersecting) {
      const vertex_pairs seed = simplex_indices(run.simplex);
      if (semi_static::static_triangle_contains<double>(a, b, seed) == 1 &&
          semi_static::triangle_common(a, b, seed, out.point_a)) {
        semi_static::count(semi_static::containment, true);
        ++filter_stats().certain;
        semi_static::count(semi_static::common_point, true);
        count_values(true);
        out.intersecting = true;
        out.distance = 0;
        out.point_b = out.point_a;
        return require_finite_result(out);
      }
    } else {
      feature fa, fb;
      if (direct_certify_separation<double>(a, b, run.simplex, fa, fb) &&
          semi_static::separated_polygon_values(a, b, fa, fb, out.distance, out.point_a, out.point_b)) {
        ++filter_stats().certain;
        semi_static::count(semi_static::separated_values, true);
        count_values(true);
        out.intersecting = false;
        return require_finite_result(out);
      }
    }
  }
  return distance_from_core<double>(core_from_run<double>(a, b, opt, run), 0.0, 0.0);
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
