// SAT first (D-EPA-11): the smallest edge axis, when it is proved, answers a
// penetration query before GJK and EPA run. Included by epa.hpp after
// epa_result.
#pragma once

#include "rigidref/detail/epa_values.hpp"
#include "rigidref/detail/hot.hpp"
#include <array>
#include <cstdint>
#include <optional>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// ---- SAT first: the smallest edge axis, when it is proved (D-EPA-11) ------------
//
// For two convex polygons the depth is the smallest overlap o / |n| over the
// edge normals of A and B (D-SAT-3), and the exact path finds that minimum
// (EPA, D-EPA-5, or D-GJK-11). When every overlap is proved positive the
// interiors meet (the separating axis theorem), and when one edge axis x is
// proved smaller than every other, its candidate (the argmax walk of
// epa_filtered_best) is the one the exact path picks: no polytope face can
// tie with it, since a face along x's edge of A - B has x's key (D-EPA-8) and
// every other face is farther. GJK, EPA's loop and the candidate search are
// then skipped; epa_fast_values still proves every value (and refuses
// parallel extreme edges). Otherwise the usual path runs.
//
// For each axis y, o_y is taken at a vertex pair found in T: the edge's own
// end point and the other polygon's vertex deepest along n_y, followed
// around the polygon as the normals turn (rotating calipers). Any vertex
// gives n_y . (A[i] - B[j]) <= the true overlap, so "o_y > 0" and
// "o_x^2 |n_y|^2 < o_y^2 |n_x|^2" proved on it hold for the true o_y.
// o_x itself is checked to be at the extreme vertex (the walk in candidate()).

// One edge axis: the vertex pair its walk found in T (o is taken there).
// Trivially constructible: the array below is not cleared on every query.
template <class T>
struct sat_axis {
  std::size_t ia, ib;
};

// Polygons with up to this many edges in all take the SAT-first route (a
// fixed array, no allocation); larger ones run GJK and EPA.
constexpr std::size_t sat_first_max_axes = 32;

// Per axis, in arrays (D-EPA-27): the two products whose difference is the
// overlap o, l = e.y (va.x - vb.x) and r = e.x (va.y - vb.y), both negated
// for an edge of B (then l - r is -(l - r) of the unnegated ones, exactly:
// negation is exact and rounding symmetric), and |n|^2 = e.x^2 + e.y^2; then
// the rigorous bounds lo <= exact <= hi on o^2 and |n|^2 (D-EPA-11 (6)) and
// o^2 in T for the minimum. Trivially constructible, not cleared per query.
template <class T>
struct sat_lanes {
  alignas(32) T l[sat_first_max_axes];
  alignas(32) T r[sat_first_max_axes];
  alignas(32) T n2[sat_first_max_axes];
  alignas(32) T o2[sat_first_max_axes];
  alignas(32) T o2_lo[sat_first_max_axes];
  alignas(32) T o2_hi[sat_first_max_axes];
  alignas(32) T n2_lo[sat_first_max_axes];
  alignas(32) T n2_hi[sat_first_max_axes];
};

// (2)-(6) of D-EPA-11 on every axis of the walks: o > 0 proved (else
// separated, touching, or too close to tell), the bounds with a margin of
// 16u for the roundings in forming them, all of them normal and finite; o^2
// in T. True when every axis passes. One pass without a branch, each axis's
// operations those of static_form2 and static_length2 (D-EPA-27).
template <class T>
RIGIDREF_HOT bool sat_bounds(sat_lanes<T>& w, std::size_t count) {
  using std::abs;
  constexpr T u = std::numeric_limits<T>::epsilon() / 2;
  constexpr T tiny = std::numeric_limits<T>::min() / u;       // above it every rounding is relative
  constexpr T guard = std::numeric_limits<T>::min() / u / u;  // static_form2's and static_length2's
  bool proved = true;
  for (std::size_t i = 0; i < count; ++i) {
    const T l = w.l[i], r = w.r[i], n2 = w.n2[i];
    const T xo = l - r;
    const T sum = abs(l) + abs(r);
    const T oe = (3 + 16 * u) * u * sum;      // static_form2's bound
    const T ne = 5 * u * n2 * fconst<T>::up;  // static_length2's
    const T o2_lo = T((xo - oe) * (xo - oe)) * T(1 - 16 * u);
    const T o2_hi = T((xo + oe) * (xo + oe)) * T(1 + 16 * u);
    const T n2_lo = T(n2 - ne) * T(1 - 16 * u);
    const T n2_hi = T(n2 + ne) * T(1 + 16 * u);
    proved &= (sum > guard) & (xo > oe) & (n2 > guard) & (o2_lo > tiny) & (n2_lo > tiny) & is_finite(o2_hi) &
              is_finite(n2_hi);
    w.o2[i] = T(xo * xo);
    w.o2_lo[i] = o2_lo;
    w.o2_hi[i] = o2_hi;
    w.n2_lo[i] = n2_lo;
    w.n2_hi[i] = n2_hi;
  }
  return proved;
}

// (7) of D-EPA-11: o_x^2 |n_y|^2 < o_y^2 |n_x|^2 proved from the bounds for
// every axis y among the first `count` other than x = best; one pass
// without a branch (D-EPA-27).
template <class T>
RIGIDREF_HOT bool sat_smallest(const sat_lanes<T>& w, std::size_t count, std::size_t best) {
  constexpr T u = std::numeric_limits<T>::epsilon() / 2;
  constexpr T tiny = std::numeric_limits<T>::min() / u;  // above it every rounding is relative
  const T x_o2_hi = w.o2_hi[best], x_n2_lo = w.n2_lo[best];
  bool smallest = true;
  for (std::size_t i = 0; i < count; ++i) {
    const T lhs = x_o2_hi * w.n2_hi[i], rhs = w.o2_lo[i] * x_n2_lo;
    smallest &= (i == best) | ((T(lhs * T(1 + 4 * u)) < T(rhs * T(1 - 4 * u))) & (rhs > tiny) & is_finite(rhs));
  }
  return smallest;
}

#if defined(__GNUC__) || defined(__clang__)
#define RIGIDREF_SAT_LANES 1
// Four doubles per vector (GCC's and clang's vector extension; two SSE2
// registers where AVX is off): lane by lane the scalar roundings.
typedef double sat_v4 __attribute__((vector_size(32)));
typedef long long sat_m4 __attribute__((vector_size(32)));

// D-EPA-27: the pass of sat_first_scan for double, four axes at a time,
// each lane the scalar pass's operations. count <= sat_first_max_axes; the
// lanes past count are filled with an axis that passes every test.
RIGIDREF_HOT bool sat_bounds_lanes(sat_lanes<double>& w, std::size_t count) {
  constexpr double u = 0x1p-53;
  constexpr double tiny = std::numeric_limits<double>::min() / u;
  constexpr double guard = std::numeric_limits<double>::min() / u / u;
  constexpr double big = std::numeric_limits<double>::max();
  constexpr double c_oe = (3 + 16 * u) * u, c_ne = 5 * u, up = fconst<double>::up;
  constexpr double lo16 = 1 - 16 * u, hi16 = 1 + 16 * u;
  const sat_m4 magnitude = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
  for (std::size_t i = count; i % 4 != 0; ++i) {
    w.l[i] = 1;
    w.r[i] = 0;
    w.n2[i] = 1;
  }
  sat_m4 ok = {-1, -1, -1, -1};
  for (std::size_t i = 0; i < count; i += 4) {
    const sat_v4 l = *reinterpret_cast<const sat_v4*>(&w.l[i]), r = *reinterpret_cast<const sat_v4*>(&w.r[i]),
                 n2 = *reinterpret_cast<const sat_v4*>(&w.n2[i]);
    const sat_v4 xo = l - r;
    const sat_v4 sum = (sat_v4)((sat_m4)l & magnitude) + (sat_v4)((sat_m4)r & magnitude);
    const sat_v4 oe = c_oe * sum;
    const sat_v4 ne = (c_ne * n2) * up;
    const sat_v4 o2_lo = ((xo - oe) * (xo - oe)) * lo16;
    const sat_v4 o2_hi = ((xo + oe) * (xo + oe)) * hi16;
    const sat_v4 n2_lo = (n2 - ne) * lo16;
    const sat_v4 n2_hi = (n2 + ne) * hi16;
    const sat_v4 abs_o2_hi = (sat_v4)((sat_m4)o2_hi & magnitude), abs_n2_hi = (sat_v4)((sat_m4)n2_hi & magnitude);
    ok &= (sum > guard) & (xo > oe) & (n2 > guard) & (o2_lo > tiny) & (n2_lo > tiny) & (abs_o2_hi <= big) &
          (abs_n2_hi <= big);  // is_finite: |x| <= DBL_MAX
    *reinterpret_cast<sat_v4*>(&w.o2[i]) = xo * xo;
    *reinterpret_cast<sat_v4*>(&w.o2_lo[i]) = o2_lo;
    *reinterpret_cast<sat_v4*>(&w.o2_hi[i]) = o2_hi;
    *reinterpret_cast<sat_v4*>(&w.n2_lo[i]) = n2_lo;
    *reinterpret_cast<sat_v4*>(&w.n2_hi[i]) = n2_hi;
  }
  return (ok[0] & ok[1] & ok[2] & ok[3]) != 0;
}

// (7) of D-EPA-11 for double, four axes at a time (D-EPA-27): every axis but
// `best` among the first `count` passes the scalar loop's test.
RIGIDREF_HOT bool sat_smallest_lanes(const sat_lanes<double>& w, std::size_t count, std::size_t best) {
  constexpr double u = 0x1p-53;
  constexpr double tiny = std::numeric_limits<double>::min() / u;
  constexpr double big = std::numeric_limits<double>::max();
  constexpr double lo4 = 1 - 4 * u, hi4 = 1 + 4 * u;
  const sat_m4 magnitude = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
  const double x_o2_hi = w.o2_hi[best], x_n2_lo = w.n2_lo[best];
  const long long b = static_cast<long long>(best), n = static_cast<long long>(count);
  sat_m4 index = {0, 1, 2, 3};
  sat_m4 ok = {-1, -1, -1, -1};
  for (std::size_t i = 0; i < count; i += 4) {
    const sat_v4 lhs = x_o2_hi * *reinterpret_cast<const sat_v4*>(&w.n2_hi[i]);
    const sat_v4 rhs = *reinterpret_cast<const sat_v4*>(&w.o2_lo[i]) * x_n2_lo;
    const sat_m4 pass =
        ((lhs * hi4) < (rhs * lo4)) & (rhs > tiny) & ((sat_v4)((sat_m4)rhs & magnitude) <= big);
    ok &= pass | (index == b) | (index >= n);
    index += 4;
  }
  return (ok[0] & ok[1] & ok[2] & ok[3]) != 0;
}
#endif

// A guess in T, deciding only whether to try the route: are the projections
// of A and B apart along the line between their vertex averages? Most
// separated pairs are, and the scan below would find their separating axis
// only after computing the axes before it.
#if defined(__GNUC__) && !defined(__clang__)
// Two doubles per register (GCC's vector extension): lane by lane the same
// roundings as the scalar operations.
typedef double centre_pair __attribute__((vector_size(16)));

// The vertex sum in order, s = (((0 + v0) + v1) + v2) ..., both coordinates
// in one register, two vertices per step.
inline centre_pair centre_sum(std::span<const vec2<double>> v) {
  centre_pair s = {0.0, 0.0};
  const std::size_t n = v.size();
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    s = s + centre_pair{v[i].x, v[i].y};
    s = s + centre_pair{v[i + 1].x, v[i + 1].y};
  }
  if (i < n) s = s + centre_pair{v[i].x, v[i].y};
  return s;
}

// max (Top) or min over v of dot(d, p), as the scalar loop finds it from the
// start value dot(d, v[0]): even vertices in lane 0, odd ones in lane 1, each
// lane keeping its running value by the scalar rule (replaced only by a
// strictly larger / smaller value, so a NaN dot never enters unless the start
// is NaN, in both lanes then), the lanes merged by the same rule. The same
// value up to the sign of a zero, which the caller's comparison ignores.
template <bool Top>
double centre_extreme(std::span<const vec2<double>> v, double dx, double dy) {
  const double first = dx * v[0].x + dy * v[0].y;
  const centre_pair X = {dx, dx}, Y = {dy, dy};
  centre_pair m = {first, first};
  const std::size_t n = v.size();
  std::size_t i = 0;
  for (; i + 2 <= n; i += 2) {
    const centre_pair t = X * centre_pair{v[i].x, v[i + 1].x} + Y * centre_pair{v[i].y, v[i + 1].y};
    m = Top ? (m < t ? t : m) : (t < m ? t : m);
  }
  if (i < n) {
    const centre_pair t = X * centre_pair{v[i].x, v[i].x} + Y * centre_pair{v[i].y, v[i].y};
    m = Top ? (m < t ? t : m) : (t < m ? t : m);
  }
  return Top ? (m[0] < m[1] ? m[1] : m[0]) : (m[1] < m[0] ? m[1] : m[0]);
}
#endif

template <class T>
bool apart_along_centres(std::span<const vec2<T>> a, std::span<const vec2<T>> b) {
#if defined(__GNUC__) && !defined(__clang__)
  if constexpr (std::is_same_v<T, double>) {
    // The scalar loops below, two lanes at a time: the same decision.
    const centre_pair sa = centre_sum(a), sb = centre_sum(b);
    const double fa = static_cast<double>(static_cast<std::int64_t>(a.size())),
                 fb = static_cast<double>(static_cast<std::int64_t>(b.size()));
    const centre_pair d = centre_pair{fa, fa} * sb - centre_pair{fb, fb} * sa;
    return centre_extreme<true>(a, d[0], d[1]) < centre_extreme<false>(b, d[0], d[1]);
  }
#endif
  vec2<T> sa{}, sb{};
  for (const auto& p : a) sa = sa + p;
  for (const auto& p : b) sb = sb + p;
  // (mean of B - mean of A) times n_A n_B: the direction, without dividing.
  // The counts through a signed type: the same values, one conversion
  // instruction each instead of the unsigned 64-bit sequence.
  const vec2<T> d = T(static_cast<std::int64_t>(a.size())) * sb - T(static_cast<std::int64_t>(b.size())) * sa;
  T top_a = dot(d, a[0]), low_b = dot(d, b[0]);
  for (const auto& p : a) top_a = std::max(top_a, dot(d, p));
  for (const auto& p : b) low_b = std::min(low_b, dot(d, p));
  return top_a < low_b;
}

// Whether D-EPA-11 considers the pair at all: no two-point core (a segment's
// two perpendiculars are axes its proof does not cover: GJK and EPA answer
// it, D-GJK-20), and 1..sat_first_max_axes edges in all (a circle's core, one
// point, has none).
template <class T>
RIGIDREF_HOT bool sat_first_applies(std::size_t na_all, std::size_t nb_all) {
  if (na_all == 2 || nb_all == 2) return false;
  const std::size_t count = (na_all >= 3 ? na_all : 0) + (nb_all >= 3 ? nb_all : 0);
  return count != 0 && count <= sat_first_max_axes;
}

// One side of sat_first_scan's walks: the edges of A (OnA) or of B, the side
// a compile-time constant so that no select on it runs per axis (D-EPA-25):
// each axis's vertex pair and the operands of its forms (D-EPA-27). False at
// the first axis whose o is not positive in T (the scan then refuses).
template <bool OnA, class T>
RIGIDREF_HOT bool sat_walk_side(std::span<const vec2<T>> a, std::span<const vec2<T>> b, std::size_t na,
                                std::array<sat_axis<T>, sat_first_max_axes>& axes, sat_lanes<T>& w) {
  const std::span<const vec2<T>> own = OnA ? a : b, other = OnA ? b : a;
  const std::size_t m = other.size(), n_own = OnA ? na : (b.size() >= 3 ? b.size() : 0);
  std::size_t arg = 0;
  for (std::size_t k = 0; k < n_own; ++k) {
    const vec2<T>& p0 = own[k];
    const vec2<T>& p1 = own[k + 1 == own.size() ? 0 : k + 1];
    // How far the other polygon's vertex j lies on the inner (left) side
    // of the edge's line, cross(e, v_j - p0): the deepest one is B's
    // vertex minimising n . b for an edge of A (outward normal (e.y, -e.x)),
    // A's vertex maximising n . a for an edge of B (n = (-e.y, e.x)). The
    // first edge scans every vertex, the next ones walk on from the last
    // deepest (rotating calipers); each depth is computed once.
    const vec2<T> e = p1 - p0;
    auto depth = [&](std::size_t j) { return cross(e, other[j] - p0); };
    T at = depth(arg);
    if (k == 0) {
      // The first maximum, kept by selects (a branch per vertex is
      // mispredicted at random): the same comparisons, the same argmax.
      for (std::size_t j = 1; j < m; ++j) {
        const T dj = depth(j);
        const bool deeper = dj > at;
        arg = deeper ? j : arg;
        at = deeper ? dj : at;
      }
    } else {
      for (std::size_t step = 0; step < m; ++step) {
        const std::size_t next = arg + 1 == m ? 0 : arg + 1;
        const T dn = depth(next);
        if (!(dn > at)) break;
        arg = next;
        at = dn;
      }
    }
    const std::size_t i = OnA ? k : na + k;
    axes[i].ia = OnA ? k : arg;
    axes[i].ib = OnA ? arg : k;
    // o = n . (A[ia] - B[ib]): (e.y, -e.x) . (A[k] - B[arg]) for A,
    // (-e.y, e.x) . (A[arg] - B[k]) for B. A[ia] and B[ib] are p0 and
    // other[arg] (the same points).
    const vec2<T>& va = OnA ? p0 : other[arg];
    const vec2<T>& vb = OnA ? other[arg] : p0;
    const T l = T(e.y * (va.x - vb.x)), r = T(e.x * (va.y - vb.y));
    w.l[i] = OnA ? l : T(-l);
    w.r[i] = OnA ? r : T(-r);
    w.n2[i] = T(e.x * e.x + e.y * e.y);  // static_length2's value
    // o > 0 in T is necessary for o > its bound: a separated pair stops at
    // its separating axis, without walking the rest (D-EPA-27).
    if (!(T(w.l[i] - w.r[i]) > 0)) return false;
  }
  return true;
}

// D-EPA-11 (2)-(7) on the input lists: for every edge axis (A's edges, then
// B's) the overlap o at the vertex pair the walk finds proved positive, the
// bounds (6), and the axis `best` with the smallest o^2 / |n|^2 in T proved
// smaller than every other (7). False, with nothing decided, when any of it is
// not proved. The one scan of both routes: sat_first_best (D-EPA-11) and the
// lean route (D-EPA-13, detail/epa_sat_lean.hpp). Precondition:
// sat_first_applies(a.size(), b.size()). D-EPA-15, D-EPA-25, D-EPA-27:
// the walks first, then every axis's tests and bounds in one pass without a
// branch (each lane's operations as static_form2's and static_length2's), so
// the compiler may run it on vectors; any axis not proved refuses the whole
// scan, as the first one did.
template <class T>
RIGIDREF_HOT bool sat_first_scan(std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                                 std::array<sat_axis<T>, sat_first_max_axes>& axes, std::size_t& best) {
  const std::size_t na = a.size() >= 3 ? a.size() : 0, nb = b.size() >= 3 ? b.size() : 0;
  const std::size_t count = na + nb;
  sat_lanes<T> w;
  if (!sat_walk_side<true, T>(a, b, na, axes, w) || !sat_walk_side<false, T>(a, b, na, axes, w)) return false;
  // (2)-(6), D-EPA-27.
  bool proved;
#if defined(RIGIDREF_SAT_LANES)
  if constexpr (std::is_same_v<T, double>)
    proved = sat_bounds_lanes(w, count);
  else
#endif
    proved = sat_bounds(w, count);
  if (!proved) return false;
  // o^2 / |n|^2 smallest in T, compared without dividing: o_i o_i n_best
  // < o_best o_best n_i, each product rounded as written; the first axis
  // wins a tie.
  best = 0;
  T best_o2 = w.o2[0], best_n2 = w.n2[0];
  for (std::size_t i = 1; i < count; ++i) {
    if (T(w.o2[i] * best_n2) < T(best_o2 * w.n2[i])) {
      best = i;
      best_o2 = w.o2[i];
      best_n2 = w.n2[i];
    }
  }
  // (7): o_x^2 |n_y|^2 < o_y^2 |n_x|^2 for every other y, from the bounds.
#if defined(RIGIDREF_SAT_LANES)
  if constexpr (std::is_same_v<T, double>) return sat_smallest_lanes(w, count, best);
#endif
  return sat_smallest(w, count, best);
}

template <class T>
std::optional<epa_fcand<T>> sat_first_best(const epa_filter<T>& f) {
  const std::span<const vec2<T>> a = f.a, b = f.b;
  if (!sat_first_applies<T>(a.size(), b.size())) return std::nullopt;
  if (apart_along_centres(a, b)) return std::nullopt;
  if (filter_force_exact()) return std::nullopt;  // nothing is proved then
  const std::size_t na = a.size() >= 3 ? a.size() : 0, count = na + (b.size() >= 3 ? b.size() : 0);
  std::array<sat_axis<T>, sat_first_max_axes> axes;
  std::size_t best = 0;
  if (!sat_first_scan<T>(a, b, axes, best)) return std::nullopt;
  filter_stats().certain += 2 * count - 1;  // the signs just proved
  // The true overlap along x is at the other polygon's extreme vertex: the
  // walk must not leave the one found in T.
  const sat_axis<T>& x = axes[best];
  const epa_axis_key k = best < na ? epa_axis_key{0, best, 0, 0, 0} : epa_axis_key{1, 0, best - na, 0, 0};
  epa_fcand<T> c = f.candidate(k, f.filtered_normal(k), x.ia, x.ib);
  if (c.ia != x.ia || c.ib != x.ib) return std::nullopt;
  return c;
}

// D-EPA-11 before GJK: true, with `out` filled, when the smallest edge axis
// and every value are proved; then `iterations` is 0. a and b are polygons or
// a circle's centre (radius ra, rb; 0 for a polygon), at least one a polygon.
template <class T>
bool sat_first_penetration(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const T& ra, const T& rb,
                           epa_result<T>& out) {
  core_contact<T> c;  // only for an exact sign the filter cannot give (compare)
  c.a = a;
  c.b = b;
  const epa_filter<T> f{a, b, c};
  std::optional<epa_fcand<T>> best = sat_first_best(f);
  epa_result<T> r;
  if (!best || !epa_fast_values(f, *best, ra, rb, r)) return false;
  ++filter_stats().filtered_values;
  r.intersecting = true;
  r.status = collision_status::converged;
  out = require_finite_result(r);
  return true;
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
