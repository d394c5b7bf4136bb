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

// One edge axis: rigorous bounds lo <= exact <= hi on o^2 (o at the vertex
// pair found in T) and on |n|^2 (D-EPA-11 (6)), and that vertex pair. o and
// |n|^2 themselves are needed only by the running minimum, which keeps the
// smallest axis's in registers. Trivially constructible: the array below is
// not cleared on every query.
template <class T>
struct sat_axis {
  T o2_lo, o2_hi, n2_lo, n2_hi;
  std::size_t ia, ib;
};

// Polygons with up to this many edges in all take the SAT-first route (a
// fixed array, no allocation); larger ones run GJK and EPA.
constexpr std::size_t sat_first_max_axes = 32;

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

// D-EPA-11 (2)-(7) on the input lists: for every edge axis (A's edges, then
// B's) the overlap o at the vertex pair the walk finds proved positive, the
// bounds (6), and the axis `best` with the smallest o^2 / |n|^2 in T proved
// smaller than every other (7). False, with nothing decided, when any of it is
// not proved. The one scan of both routes: sat_first_best (D-EPA-11) and the
// lean route (D-EPA-13, detail/epa_sat_lean.hpp). Precondition:
// sat_first_applies(a.size(), b.size()). D-EPA-15
// One side of sat_first_scan's loop: the edges of A (OnA) or of B, the side a
// compile-time constant so that no select on it runs per axis (D-EPA-25).
// best, best_o2 = o_best * o_best and best_n2 = |n_best|^2 in T are the running
// minimum's state across both sides.
template <bool OnA, class T>
RIGIDREF_HOT bool sat_scan_side(std::span<const vec2<T>> a, std::span<const vec2<T>> b, std::size_t na,
                                std::array<sat_axis<T>, sat_first_max_axes>& axes, std::size_t& best, T& best_o2,
                                T& best_n2) {
  constexpr T u = std::numeric_limits<T>::epsilon() / 2;
  constexpr T tiny = std::numeric_limits<T>::min() / u;  // above it every rounding is relative
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
    sat_axis<T>& x = axes[i];
    x.ia = OnA ? k : arg;
    x.ib = OnA ? arg : k;
    // o = n . (A[ia] - B[ib]): (e.y, -e.x) . (A[k] - B[arg]) for A,
    // (-e.y, e.x) . (A[arg] - B[k]) for B. A[ia] and B[ib] are p0 and
    // other[arg] (the same points).
    const vec2<T>& va = OnA ? p0 : other[arg];
    const vec2<T>& vb = OnA ? other[arg] : p0;
    const fv<T> o = static_form2(T(e.y * (va.x - vb.x)), T(e.x * (va.y - vb.y)), true);
    // sign * o.v with sign +1 (A) or -1 (B): the same value as o.v or -o.v.
    const T xo = OnA ? o.v : T(-o.v);
    // o > 0 proved, else refused (separated, touching, or too close to tell).
    if (!(xo > o.e)) return false;
    const fv<T> n2 = static_length2(p0, p1);
    // (6): bounds with a margin of 16u for the roundings in forming them.
    x.o2_lo = T((xo - o.e) * (xo - o.e)) * T(1 - 16 * u);
    x.o2_hi = T((xo + o.e) * (xo + o.e)) * T(1 + 16 * u);
    x.n2_lo = T(n2.v - n2.e) * T(1 - 16 * u);
    x.n2_hi = T(n2.v + n2.e) * T(1 + 16 * u);
    // All four tests, one branch (each is a comparison without side effects).
    if (!((x.o2_lo > tiny) & (x.n2_lo > tiny) & is_finite(x.o2_hi) & is_finite(x.n2_hi))) return false;
    // o^2 / |n|^2 smallest in T, compared without dividing: o_i o_i n_best
    // < o_best o_best n_i, each product rounded as written.
    const T o2 = xo * xo;
    if (i == 0 || T(o2 * best_n2) < T(best_o2 * n2.v)) {
      best = i;
      best_o2 = o2;
      best_n2 = n2.v;
    }
  }
  return true;
}

// D-EPA-11 (2)-(7) on the input lists: for every edge axis (A's edges, then
// B's) the overlap o at the vertex pair the walk finds proved positive, the
// bounds (6), and the axis `best` with the smallest o^2 / |n|^2 in T proved
// smaller than every other (7). False, with nothing decided, when any of it is
// not proved. The one scan of both routes: sat_first_best (D-EPA-11) and the
// lean route (D-EPA-13, detail/epa_sat_lean.hpp). Precondition:
// sat_first_applies(a.size(), b.size()). D-EPA-15, D-EPA-25
template <class T>
RIGIDREF_HOT bool sat_first_scan(std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                                 std::array<sat_axis<T>, sat_first_max_axes>& axes, std::size_t& best) {
  const std::size_t na = a.size() >= 3 ? a.size() : 0, nb = b.size() >= 3 ? b.size() : 0;
  const std::size_t count = na + nb;
  constexpr T u = std::numeric_limits<T>::epsilon() / 2;
  constexpr T tiny = std::numeric_limits<T>::min() / u;  // above it every rounding is relative
  best = 0;
  T best_o2{0}, best_n2{0};
  if (!sat_scan_side<true, T>(a, b, na, axes, best, best_o2, best_n2) ||
      !sat_scan_side<false, T>(a, b, na, axes, best, best_o2, best_n2))
    return false;
  // (7): o_x^2 |n_y|^2 < o_y^2 |n_x|^2 for every other y, from the bounds.
  const sat_axis<T>& x = axes[best];
  const T x_o2_hi = x.o2_hi, x_n2_lo = x.n2_lo;
  for (std::size_t i = 0; i < count; ++i) {
    if (i == best) continue;
    const T lhs = x_o2_hi * axes[i].n2_hi, rhs = axes[i].o2_lo * x_n2_lo;
    if (!((T(lhs * T(1 + 4 * u)) < T(rhs * T(1 - 4 * u))) & (rhs > tiny) & is_finite(rhs))) return false;
  }
  return true;
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
