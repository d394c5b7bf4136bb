// SAT first without detours (D-EPA-13): the route of D-EPA-11 with the same
// decisions and the same values, evaluated on the input spans directly (no
// core_contact, no filtered candidate walk, no modulo per step). Refuses
// exactly where D-EPA-11 refuses, except that a decision its static bounds
// cannot prove is handed back ("unsure") so that the caller runs D-EPA-11's
// route, whose exact fallback may still decide it. Included by epa_query.hpp.
#pragma once

#include "rigidref/detail/epa_sat_first.hpp"
#include "rigidref/detail/epa_semi_values.hpp"
#include "rigidref/detail/epa_values.hpp"
#include "rigidref/detail/fma_clones.hpp"

#ifndef RIGIDREF_FLATTEN
#if defined(__GNUC__) || defined(__clang__)
#define RIGIDREF_FLATTEN __attribute__((flatten))
#else
#define RIGIDREF_FLATTEN
#endif
#endif

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// FMA by runtime dispatch (D-EPA-13, detail/fma_clones.hpp): the route calls
// std::fma only where double_word.hpp does (TwoProd, the double-word
// product), correctly rounded as a call or as the instruction: the same bits.

enum class lean_outcome { answered, refused, unsure };

// How this thread's lean routes ended (tests: the fallback rate): the SAT-first
// route (D-EPA-13), and the separated polygons' semi-static steps (D-EPA-14),
// answered or handed to the route of f4fceec after GJK claimed them apart.
struct lean_counters {
  std::uint64_t answered = 0, refused = 0, unsure = 0;
  std::uint64_t apart_answered = 0, apart_refused = 0;
};

inline lean_counters& epa_lean_stats() {
  static thread_local lean_counters c;
  return c;
}

// For tests: when true, this thread's penetration queries skip the lean routes
// (D-EPA-13, D-EPA-14) and take D-EPA-11's route and GJK's as at f4fceec (the differential test compares the
// two bit for bit, `iterations` and `exact_fallback` included).
inline bool& epa_lean_disabled() {
  static thread_local bool off = false;
  return off;
}

// D-EPA-13. Preconditions (the caller's): the filter is on and not forced
// exact, sat_first_applies, and !apart_along_centres(a, b).
// `flatten` inlines every call of the route into each clone, the rounding
// tests of rounding_filter.hpp included (each was a call, five per answer:
// about 3 % of an overlapping query). Inlining changes no operation:
// contraction stays off (fp_begin.hpp), std::fma is correctly rounded as a
// call or an instruction.
template <class T>
RIGIDREF_FMA_CLONES RIGIDREF_FLATTEN lean_outcome sat_first_lean_route(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const T& ra, const T& rb,
                            epa_result<T>& out) {
  const std::size_t na = a.size() >= 3 ? a.size() : 0, nb = b.size() >= 3 ? b.size() : 0;
  const std::size_t count = na + nb;
  // D-EPA-11 (2)-(7): the scan of sat_first_best (D-EPA-15).
  std::array<sat_axis<T>, sat_first_max_axes> axes;
  std::size_t best = 0;
  if (!sat_first_scan<T>(a, b, axes, best)) return lean_outcome::refused;
  const sat_axis<T>& x = axes[best];
  // The other polygon's vertex must be strictly extreme along x: both its
  // neighbours strictly on the inner side of the edge direction, by the
  // static signs D-EPA-8's compare uses (D-GJK-17). Proved, this is the
  // candidate walk staying put and both partner tests of D-EPA-9 answering
  // "no partner"; not proved, D-EPA-11's route decides (exactly if need be).
  const bool on_a = best < na;
  const std::size_t k = on_a ? best : best - na;
  const std::span<const vec2<T>> own = on_a ? a : b, other = on_a ? b : a;
  const vec2<T>& p0 = own[k];
  const vec2<T>& p1 = own[k + 1 == own.size() ? 0 : k + 1];
  const std::size_t v = on_a ? x.ib : x.ia, m = other.size();
  if (m > 1) {
    const std::size_t next = v + 1 == m ? 0 : v + 1, prev = v == 0 ? m - 1 : v - 1;
    if (static_cross_sign(p0, p1, other[v], other[next]) != -1 || static_cross_sign(p0, p1, other[v], other[prev]) != -1)
      return lean_outcome::unsure;
  }
  // epa_fast_values' first test: o > 0 under the running bound of D-GJK-13 at
  // the candidate's vertex pair, as epa_filter::candidate computes it.
  fvec<T> n;
  if (on_a) {
    const fvec<T> e = fsub(fvec_exact(p1), fvec_exact(p0));
    n = {e.y, fneg(e.x)};
  } else {
    const fvec<T> e = fsub(fvec_exact(p1), fvec_exact(p0));
    n = {fneg(e.y), e.x};
  }
  if (fsign(fdot(n, fsub(fvec_exact(a[x.ia]), fvec_exact(b[x.ib])))) <= 0) return lean_outcome::refused;
  // The witness vertex is the other polygon's (its partner test found none);
  // on A's edge the edge's own end point has its structural partner.
  // Polygons in double: the semi-static values first, which answer only where
  // epa_edge_values answers, with its answer (D-EPA-23).
  epa_result<T> r;
  bool semi = false;
  if constexpr (std::is_same_v<T, double>) {
    if (ra == 0 && rb == 0)
      semi = semi_static::count_edge_values(semi_static::edge_values(a, b, on_a, k, x.ia, x.ib, !on_a, r));
  }
  if (!semi && !epa_edge_values<T>(a, b, on_a, k, x.ia, x.ib, !on_a, ra, rb, r)) return lean_outcome::refused;
  filter_stats().certain += 2 * count + 1;  // the signs just proved
  ++filter_stats().filtered_values;
  r.intersecting = true;
  r.status = collision_status::converged;
  out = require_finite_result(r);
  return lean_outcome::answered;
}

template <class T>
lean_outcome sat_first_lean(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const T& ra, const T& rb,
                            epa_result<T>& out) {
  const lean_outcome l = sat_first_lean_route<T>(a, b, ra, rb, out);
  lean_counters& c = epa_lean_stats();
  (l == lean_outcome::answered ? c.answered : l == lean_outcome::unsure ? c.unsure : c.refused) += 1;
  return l;
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
