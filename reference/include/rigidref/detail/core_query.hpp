// The exact stage of a query on two cores, in the order it runs: GJK's loop in
// T (detail/gjk_loop.hpp), then containment (detail/containment.hpp) for an
// intersecting claim, else the one-pass certificate, the filtered certificate,
// the exact certificate (detail/separation_*.hpp) and, last, GJK in exact
// arithmetic.
#pragma once

#include "rigidref/detail/containment.hpp"
#include "rigidref/detail/gjk_loop.hpp"
#include "rigidref/detail/mp_containment.hpp"
#include "rigidref/detail/mp_gjk_shadow.hpp"
#include "rigidref/detail/mp_inputs.hpp"
#include "rigidref/detail/mp_separation.hpp"
#include "rigidref/detail/semi_static.hpp"
#include "rigidref/detail/separation_exact.hpp"
#include "rigidref/detail/separation_filtered.hpp"
#include "rigidref/detail/separation_one_pass.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/filter.hpp"
#include <memory>
#include <optional>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// An optional exact value kept on the heap: empty, it is one null pointer,
// so a core_contact of the filtered paths is cheap to make (an inline
// std::optional<exact_pair> made GCC clear all 736 bytes of it with
// `rep stos` on every query, 10 % of a GJK query's time; issue 28).
template <class V>
class boxed_optional {
 public:
  boxed_optional() = default;
  boxed_optional(const boxed_optional& o) : p_(o.p_ ? std::make_unique<V>(*o.p_) : nullptr) {}
  boxed_optional(boxed_optional&&) noexcept = default;
  boxed_optional& operator=(const boxed_optional& o) {
    p_ = o.p_ ? std::make_unique<V>(*o.p_) : nullptr;
    return *this;
  }
  boxed_optional& operator=(boxed_optional&&) noexcept = default;
  boxed_optional& operator=(const V& v) {
    p_ = std::make_unique<V>(v);
    return *this;
  }
  const V& operator*() const { return *p_; }
  const V* operator->() const { return p_.get(); }
  bool has_value() const { return p_ != nullptr; }
  explicit operator bool() const { return has_value(); }

 private:
  std::unique_ptr<V> p_;
};

// The outcome of the exact stage for two cores (polygons or points).
template <class T>
struct core_contact {
  // The input vertices as exact rationals, converted on first use: the
  // filtered paths (D-GJK-13..16, D-EPA-8, D-EPA-9) often need none.
  const epoly& A() const {
    load();
    return A_;
  }
  const epoly& B() const {
    load();
    return B_;
  }
  void load() const {
    if (loaded_) return;
    if constexpr (is_cpp_bin_float_v<T>) {  // from the significand's bits (D-GJK-25)
      A_ = mp_exact_points(a);
      B_ = mp_exact_points(b);
    } else {
      A_ = exact_points(a);
      B_ = exact_points(b);
    }
    loaded_ = true;
  }
  mutable epoly A_, B_;
  mutable bool loaded_ = false;
  bool separated = false;
  // Exact values, present only when an exact path produced them (optional,
  // so the filtered queries construct no rationals).
  boxed_optional<exact_pair> closest;  // when separated
  bool strict_overlap = false;  // the origin is interior to A - B (depth > 0 proved)
  boxed_optional<evec> common;         // a common point when not separated
  vertex_pairs seed;  // simplex vertex pairs (EPA's start)
  int iterations = 0;
  bool capped = false;
  bool exact_fallback = false;
  // Separation proved by filtered_certify_separation (D-GJK-15): `closest` is
  // not filled; the closest features are fa, fb, and closest_pair() gives the
  // exact pair when it is needed.
  bool lazy_common = false;  // common not filled: it is barycentric_common(A, B, seed)
  bool lazy_closest = false;
  feature fa, fb;
  std::span<const vec2<T>> a, b;
};

// The exact closest pair of a separated core_contact (the stored one, or
// certify_separation's, which the filter reproduced step for step).
template <class T>
exact_pair closest_pair(const core_contact<T>& c) {
  if (!c.lazy_closest) return *c.closest;
  if constexpr (is_cpp_bin_float_v<T>) return mp_pair_of_features(c.a, c.b, c.fa, c.fb);  // D-GJK-25
  const separation_check s = certify_separation(c.A(), c.B(), c.seed);
  if (!s.separated) throw std::logic_error("GJK: filtered and exact certificates disagree (internal error)");
  return s.pair;
}

inline int automatic_cap(int requested, std::size_t na, std::size_t nb) {
  return requested > 0 ? requested : 32 + 4 * static_cast<int>(na + nb);
}

// What the caller of core_query needs and allows.
struct core_options {
  int cap = 0;               // GJK's iteration cap in T (automatic_cap)
  bool need_common = true;   // a common point when the cores meet (GJK; EPA needs none)
  bool point_first = true;   // a circle's centre: its feature without GJK's loop (D-GJK-19)
};

template <class T>
core_contact<T> core_from_run(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const core_options& opt,
                              const gjk_run<T>& run);

template <class T>
core_contact<T> core_query(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const core_options& opt) {
  const int cap = opt.cap;
  core_contact<T> c;
  c.a = a;
  c.b = b;
  if constexpr (filter_enabled_v<T>) {
    // A circle's centre against a polygon: its closest feature found directly
    // and proved by the one-pass certificate; GJK's loop is skipped
    // (D-GJK-19; iterations is then 0).
    if (opt.point_first && (a.size() == 1) != (b.size() == 1)) {
      const bool point_is_a = a.size() == 1;
      gjk_simplex<T> s;
      if (guess_point_features<T>(point_is_a ? b : a, point_is_a ? a[0] : b[0], point_is_a, s) &&
          direct_certify_separation<T>(a, b, s, c.fa, c.fb)) {
        ++filter_stats().certain;
        c.seed = simplex_indices(s);
        c.separated = true;
        c.lazy_closest = true;
        return c;
      }
    }
  }
  if constexpr (is_cpp_bin_float_v<T>)
    return core_from_run<T>(a, b, opt, mp_gjk_core(a, b, cap, false));  // D-GJK-32
  else
    return core_from_run<T>(a, b, opt, gjk_core(a, b, cap));
}

// The stages of core_query after GJK's loop in T, on its run (the point-first
// step above leaves nothing behind when it fails).
template <class T>
core_contact<T> core_from_run(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const core_options& opt,
                              const gjk_run<T>& run) {
  core_contact<T> c;
  c.a = a;
  c.b = b;
  c.iterations = run.iterations;
  c.capped = run.claim == gjk_claim::cap;
  c.seed = simplex_indices(run.simplex);
  bool decided_outside = false;
  if constexpr (filter_enabled_v<T>) {
    if (run.claim == gjk_claim::intersecting) {
      // Three static signs first (D-GJK-21), then the running-bound filter.
      int f = semi_static::static_triangle_contains<T>(a, b, c.seed);
      if (c.seed.size() == 3) semi_static::count(semi_static::containment, f == 1);
      if (f == 1)
        ++filter_stats().certain;
      else
        f = filtered_simplex_contains<T>(a, b, c.seed);
      if (f == 1) {  // contains and strict: interior_by_chord is not needed (D-GJK-14)
        c.strict_overlap = true;
        c.lazy_common = opt.need_common;  // barycentric_common when needed (D-GJK-16)
        return c;
      }
      decided_outside = f == 0;
    }
  }
  if constexpr (is_cpp_bin_float_v<T>) {
    if (run.claim == gjk_claim::intersecting) {
      // The signs of exact_simplex_contains in double on the mp inputs (D-GJK-25).
      const int f = mp_filtered_simplex_contains<T>(a, b, c.seed);
      if (f == 1) {  // contains and strict; the common point is barycentric_common (D-GJK-16)
        ++mp_route_stats().containment;
        c.strict_overlap = true;
        c.lazy_common = opt.need_common;
        return c;
      }
      decided_outside = f == 0;
    }
  }
  if (run.claim == gjk_claim::intersecting && !decided_outside) {
    const containment k = exact_simplex_contains(c.A(), c.B(), c.seed);
    if (k.contains) {
      c.strict_overlap = k.strict || interior_by_chord(c.A(), c.B(), c.seed);
      c.common = k.common;
      return c;
    }
  }
  if constexpr (filter_enabled_v<T>) {
    if (run.claim != gjk_claim::intersecting && direct_certify_separation<T>(a, b, run.simplex, c.fa, c.fb)) {
      ++filter_stats().certain;  // D-GJK-17 (polygons and circles' centres)
      c.separated = true;
      c.lazy_closest = true;
      return c;
    }
    if (a.size() > 1 && b.size() > 1) {  // the step-by-step filter is for polygons only (D-GJK-15)
      fpair<T> fp;
      if (filtered_certify_separation<T>(a, b, c.seed, fp)) {
        ++filter_stats().certain;
        c.separated = true;
        c.lazy_closest = true;
        c.fa = fp.fa;
        c.fb = fp.fb;
        return c;
      }
      ++filter_stats().fallback;
    }
  }
  if constexpr (is_cpp_bin_float_v<T>) {
    // certify_separation's decisions in double on the mp inputs (D-GJK-25);
    // polygons only, as D-GJK-15.
    if (a.size() > 1 && b.size() > 1 && mp_filtered_certify_separation<T>(a, b, c.seed, c.fa, c.fb)) {
      ++mp_route_stats().separation;
      c.separated = true;
      c.lazy_closest = true;
      return c;
    }
  }
  const separation_check s = certify_separation(c.A(), c.B(), c.seed);
  if (s.separated) {
    c.separated = true;
    c.closest = s.pair;
    c.exact_fallback = s.brute_force;
    return c;
  }
  // The closed shapes meet, but T's simplex did not show it: GJK in exact
  // arithmetic finds a simplex that does (finite for polygons).
  c.exact_fallback = true;
  const int exact_cap = 64 + 8 * static_cast<int>(a.size() + b.size());
  const gjk_run<exact> er = gjk_core<exact>(c.A(), c.B(), exact_cap);
  c.seed = simplex_indices(er.simplex);
  const containment k = exact_simplex_contains(c.A(), c.B(), c.seed);
  if (er.claim != gjk_claim::intersecting || !k.contains)
    throw no_convergence("GJK: exact fallback did not confirm the intersection (internal error)");
  c.strict_overlap = k.strict || interior_by_chord(c.A(), c.B(), c.seed);
  c.common = k.common;
  return c;
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
