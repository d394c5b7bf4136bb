// A penetration query on two cores, in the order it runs: SAT first
// (detail/epa_sat_first.hpp), else GJK's exact stage (detail/core_query.hpp),
// EPA's loop, its axis minimum and the values. Included by epa.hpp after
// epa_result.
#pragma once

#include "rigidref/detail/core_query.hpp"
#include "rigidref/detail/epa_axis.hpp"
#include "rigidref/detail/epa_loop.hpp"
#include "rigidref/detail/epa_sat_first.hpp"
#include "rigidref/detail/epa_sat_lean.hpp"
#include "rigidref/detail/epa_values.hpp"
#include "rigidref/detail/gjk_values.hpp"
#include "rigidref/detail/mp_epa.hpp"
#include "rigidref/detail/mp_epa_shadow.hpp"
#include "rigidref/filter.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

template <class T>
epa_result<T> penetration_from_core(const core_contact<T>& c, std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                                    const T& ra, const T& rb, int cap) {
  using A = accumulator<T>;
  using W = typename A::type;
  epa_result<T> out = result_from_core<epa_result<T>>(c);
  if (c.separated) {
    if constexpr (filter_enabled_v<T>) {
      separated_values<T> rv;  // D-GJK-16, D-GJK-18
      if (c.lazy_closest && count_values(fast_penetration_values<T>(c.a, c.b, c.fa, c.fb, ra, rb, rv))) {
        out.intersecting = !rv.apart;
        out.distance = rv.apart ? rv.distance : T(0);
        out.depth = rv.apart ? T(0) : rv.depth;
        out.normal = rv.normal;
        out.point_a = rv.point_a;
        out.point_b = rv.point_b;
        out.status = status_of(c.capped, false);
        return require_finite_result(out);
      }
    }
    if (mp_epa_separated<T>(c, ra, rb, out)) return require_finite_result(out);  // D-EPA-21
    const separated_exact e = separated_exact_of(c, ra, rb);
    const exact_pair& closest = e.closest;
    const exact& d2 = closest.d2;
    const evec& n = e.n;
    const exact& r = e.r;
    const W d = A::sqrt(A::from_exact(d2));
    out.normal = unit_rounded<T>(n);
    out.point_a = offset_rounded<T>(closest.p, n, ra);
    out.point_b = offset_rounded<T>(closest.q, n, T(-rb));
    if (d2 > r * r) {
      out.intersecting = false;
      out.distance = A::round(d - A::from(ra) - A::from(rb));
      out.status = status_of(c.capped, false);
      return require_finite_result(out);
    }
    // Cores apart, rounded shapes overlapping: depth = ra + rb - |q - p|
    // along the core direction (D-EPA-7).
    out.intersecting = true;
    const bool touching = d2 == r * r;  // exact: then the depth is exactly 0
    out.depth = touching ? T(0) : A::round(A::from(ra) + A::from(rb) - d);
    out.status = status_of(c.capped, touching);
    return require_finite_result(out);
  }
  out.intersecting = true;
  if (c.a.size() == 1 && c.b.size() == 1) {  // coincident centres or points (D-EPA-12)
    // With radii the normal is undefined (degenerate_input); two points
    // without radii merely touch (depth 0). Either way normal (1, 0).
    out.status = exact_radii(ra, rb) == 0 ? collision_status::touching : collision_status::degenerate_input;
    out.normal = {T(1), T(0)};
    out.depth = A::round(A::from(ra) + A::from(rb));
    out.point_a = round_vec<T>(c.A()[0] + evec{to_exact(ra), exact(0)});
    out.point_b = round_vec<T>(c.B()[0] - evec{to_exact(rb), exact(0)});
    return require_finite_result(out);
  }
  bool fallback = !c.strict_overlap || c.capped;
  bool epa_capped = false;
  std::optional<axis_overlap> ax_;  // the winning axis, exactly (not built on the filtered path)
  if (!fallback) {
    epa_run<T> run;
    if constexpr (is_cpp_bin_float_v<T>)
      run = mp_epa_core<T>(a, b, c.seed, cap, false);  // D-EPA-30
    else
      run = epa_core<T>(a, b, c.seed, cap);
    out.iterations += run.iterations;
    epa_capped = run.capped;
    if (run.degenerate || run.capped) {
      fallback = true;
    } else {
      if constexpr (filter_enabled_v<T>) {
        const epa_filter<T> f{a, b, c};
        epa_fcand<T> best = epa_filtered_best(f, run);
        // D-EPA-9: o > 0 proved, so neither touching nor fallback.
        if (count_values(epa_fast_values(f, best, ra, rb, out))) {
          out.status = collision_status::converged;
          return require_finite_result(out);
        }
        ax_ = f.exact_of(best);
      } else {
        if (mp_epa_overlap<T>(c, a, b, run, ra, rb, ax_, out)) return require_finite_result(out);  // D-EPA-20
        if (!ax_) ax_ = epa_exact_axis(c.A(), c.B(), run);
      }
      if (ax_->o < 0) fallback = true;  // impossible once GJK proved the overlap; kept as a guard
    }
  }
  if (fallback) {
    out.exact_fallback = true;
    ax_ = exact_min_overlap(c.A(), c.B());  // D-GJK-11
  }
  const axis_overlap& ax = *ax_;
  const exact n2 = length_squared(ax.n);
  const W core_depth = A::sqrt(A::from_exact(ax.o * ax.o / n2));
  out.depth = A::round(core_depth + A::from(ra) + A::from(rb));  // D-EPA-6, D-EPA-7
  out.normal = unit_rounded<T>(ax.n);
  const auto [pa, pb] = epa_witnesses(c.A(), c.B(), ax);
  out.point_a = offset_rounded<T>(pa, ax.n, ra);
  out.point_b = offset_rounded<T>(pb, ax.n, T(-rb));
  out.status = status_of(c.capped || epa_capped, ax.o == 0 && exact_radii(ra, rb) == 0);
  return require_finite_result(out);
}

// epa_penetration of two polygons in double once SAT first did not answer:
// GJK's loop, and for a separated claim the one-pass certificate (D-GJK-17)
// and the semi-static values (D-GJK-23, D-EPA-14) without a core_contact;
// the first step not proved hands the same run to core_from_run and
// penetration_from_core, the route of core_query (same decisions, same
// bits). D-EPA-14
inline epa_result<double> polygon_penetration_double(std::span<const vec2<double>> a,
                                                     std::span<const vec2<double>> b, const epa_options& opt) {
  const core_options copt{.cap = automatic_cap(opt.gjk_max_iterations, a.size(), b.size()),
                          .need_common = false,
                          .point_first = opt.point_first};
  const gjk_run<double> run = gjk_core(a, b, copt.cap);
  if (run.claim == gjk_claim::separated) {
    // The values in locals, the result built once they are proved: a
    // default-initialised epa_result up front was zeroed by `rep stos`
    // (about 4 % of a separated query's cycles).
    double distance;
    vec2<double> pa, pb, normal;
    feature fa, fb;
    const bool proved = direct_certify_separation<double>(a, b, run.simplex, fa, fb) &&
                        semi_static::separated_values_normal(a, b, fa, fb, distance, pa, pb, normal);  // D-EPA-24
    ++(proved ? epa_lean_stats().apart_answered : epa_lean_stats().apart_refused);
    if (proved) {
      ++filter_stats().certain;
      count_values(true);
      // Finite by construction, so no require_finite_result: each value is a
      // rounding dw_rounds_to proved finite, +0, or an input coordinate
      // within 2^250 (the range check of the set-up).
      return epa_result<double>{.status = collision_status::converged,
                                .intersecting = false,
                                .depth = 0.0,
                                .normal = normal,
                                .point_a = pa,
                                .point_b = pb,
                                .distance = distance,
                                .iterations = run.iterations,
                                .exact_fallback = false};
    }
  }
  return penetration_from_core<double>(core_from_run<double>(a, b, copt, run), a, b, 0.0, 0.0,
                                       automatic_cap(opt.max_iterations, a.size(), b.size()));
}

// The query on two cores (a polygon's vertices, or a circle's centre with its
// radius; 0 for a polygon): SAT first where it applies (D-EPA-11), else GJK
// and EPA.
template <class T>
epa_result<T> penetration_of_cores(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const T& ra, const T& rb,
                                   const epa_options& opt) {
  if constexpr (filter_enabled_v<T>) {
    epa_result<T> out;
    if (epa_lean_disabled()) {
      if (opt.sat_first && sat_first_penetration<T>(a, b, ra, rb, out)) return out;
    } else if (opt.sat_first && !filter_force_exact() && sat_first_applies<T>(a.size(), b.size()) &&
               !apart_along_centres(a, b)) {
      // D-EPA-13: D-EPA-11's route without detours; where its static signs do
      // not decide, D-EPA-11's own route (it refuses everything else too).
      const lean_outcome l = sat_first_lean<T>(a, b, ra, rb, out);
      if (l == lean_outcome::answered) return out;
      if (l == lean_outcome::unsure && sat_first_penetration<T>(a, b, ra, rb, out)) return out;
    }
    if constexpr (std::is_same_v<T, double>) {  // D-EPA-14
      if (!epa_lean_disabled() && !filter_force_exact() && ra == 0 && rb == 0 && a.size() >= 3 && b.size() >= 3)
        return polygon_penetration_double(a, b, opt);
    }
  }
  const auto c = core_query<T>(a, b, {.cap = automatic_cap(opt.gjk_max_iterations, a.size(), b.size()),
                                      .need_common = false,
                                      .point_first = opt.point_first});
  return penetration_from_core<T>(c, a, b, ra, rb, automatic_cap(opt.max_iterations, a.size(), b.size()));
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
