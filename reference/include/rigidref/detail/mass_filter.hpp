// The certified fast path of polygon mass properties in float, double and
// long double (D-MASS-13..15): the fan sums of D-MASS-1..3 in unnormalised
// double words of W = wider_t<T> with an a priori error bound in units of
// u^2 times the sums' magnitudes (D-MASS-13), the final quotients with
// runtime bounds (D-MASS-14), and each output accepted only when its bound
// keeps the exact value inside one rounding cell of T (D-MASS-15). Then the
// output is the correctly rounded exact value; otherwise the caller runs
// the exact path. A triangle's tied centroid is decided by the side of the
// midpoint (D-MASS-18); x86-64 builds without -mfma pick an FMA copy at run
// time (D-MASS-18); magnitudes per axis (D-MASS-21); a triangle takes its
// own formulas (D-MASS-26); the rounding test by monotonicity (D-MASS-27);
// one reciprocal (D-MASS-28); the second moment per axis (D-MASS-29); the
// reciprocal from the sum's head (D-MASS-33); fewer instructions (D-MASS-34);
// two fan triangles at a time (D-MASS-37).
#pragma once

#include "rigidref/detail/fp_barrier.hpp"
#include "rigidref/detail/hot.hpp"
#include "rigidref/vec2.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <type_traits>

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__) && !defined(__FMA__)
#define RIGIDREF_MASS_FMA_DISPATCH 1
#include <immintrin.h>
#endif
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail::mass_filter {

// hi + lo, not normalised: |lo| <= lambda u M for the node's magnitude M.
template <class W>
struct cw {
  W hi{0};
  W lo{0};
};

template <class W>
RIGIDREF_HOT cw<W> two_sum(W a, W b) {  // D-EFT-1
  const W s = a + b;
  const W ap = s - b;
  const W bp = s - ap;
  return {s, W((a - ap) + (b - bp))};
}

// Hardware FMA where the compiler emits the instruction (-mfma), or, with F,
// in code compiled for the "fma" target after a run-time check (D-MASS-18);
// a call to libm's fma costs more than Dekker's product (bench/HISTORY.md,
// issue 18). Either way TwoProd is exact, so the bits are the same.
template <class W>
inline constexpr bool inline_fma_v =
#if defined(__FMA__)
    std::is_same_v<W, double> || std::is_same_v<W, float>;
#else
    false;
#endif

template <class W, bool F = false>
RIGIDREF_HOT cw<W> two_prod(W a, W b) {  // D-EFT-2: exact, barring under/overflow
  const W p = rounded(W(a * b));
  if constexpr (inline_fma_v<W>) {
    return {p, W(std::fma(a, b, -p))};
#if defined(__GNUC__) || defined(__clang__)
  } else if constexpr (F && std::is_same_v<W, double>) {
    return {p, __builtin_fma(a, b, -p)};  // the instruction: the caller's target has FMA
#endif
  } else {
    // Dekker's product (as eft::two_prod_dekker): exact only with p and the
    // splitting products rounded (detail/fp_barrier.hpp).
    constexpr W factor = W((1ull << ((std::numeric_limits<W>::digits + 1) / 2)) + 1);
    const W ca = rounded(W(factor * a)), cb = rounded(W(factor * b));
    const W ah = ca - (ca - a), bh = cb - (cb - b);
    const W al = a - ah, bl = b - bh;
    return {p, W(((ah * bh - p) + ah * bl + al * bh) + al * bl)};
  }
}

// D-MASS-13 (add): error <= (2 lambda + 1) u^2 M, lambda' = lambda + 1.
template <class W>
RIGIDREF_HOT cw<W> add(const cw<W>& x, const cw<W>& y) {
  const cw<W> s = two_sum(x.hi, y.hi);
  return {s.hi, W(s.lo + (x.lo + y.lo))};
}

template <class W>
RIGIDREF_HOT cw<W> neg(const cw<W>& x) {
  return {W(-x.hi), W(-x.lo)};
}

// D-MASS-13 (mul): error <= (lx ly + 3 (lx + ly) + 1) u^2 M, lambda' = 1 + lx + ly.
template <class W, bool F = false>
RIGIDREF_HOT cw<W> mul(const cw<W>& x, const cw<W>& y) {
  const cw<W> p = two_prod<W, F>(x.hi, y.hi);
  return {p.hi, W(p.lo + (x.hi * y.lo + x.lo * y.hi))};
}

template <class W>
RIGIDREF_HOT cw<W> normalise(const cw<W>& x) {
  return two_sum(x.hi, x.lo);
}

// FastTwoSum: exact when |a| >= |b| (or a = 0).
template <class W>
RIGIDREF_HOT cw<W> fast_two_sum(W a, W b) {
  const W s = a + b;
  return {s, W(b - (s - a))};
}

// A product of normalised values (or of one and an exact W) has |lo| < |hi|
// (or both zero), so FastTwoSum returns TwoSum's exact pair: the same
// values as normalise, in fewer steps (D-MASS-30).
template <class W>
RIGIDREF_HOT cw<W> normalise_product(const cw<W>& x) {
  return fast_two_sum(x.hi, x.lo);
}

// 1 / y for a normalised double word y from a first estimate th of it, by
// one Newton step (D-MASS-28): the remainder 1 - th y from the exact TwoProd,
// times th instead of a second division; normalised.
template <class W, bool F = false>
RIGIDREF_HOT cw<W> reciprocal_step(W th, const cw<W>& y) {
  const cw<W> p = two_prod<W, F>(th, y.hi);   // th y.hi = p.hi + p.lo exactly
  const W b = W(W(1) - p.hi) - p.lo;          // 1 - th y.hi, rounded once
  const W d = -rounded(W(th * y.lo));         // -th y.lo
  return fast_two_sum(th, W(W(b + d) * th));  // |tl| <= 3u |th| (1 + O(u))
}

// D-MASS-28 (D-MASS-22's division with x = 1): th = RN(1 / y.hi), then the
// step. Relative error <= 10u^2 (1 + O(u)) <= 16u^2, the figure D-MASS-14 uses.
template <class W, bool F = false>
RIGIDREF_HOT cw<W> reciprocal(const cw<W>& y) {
  return reciprocal_step<W, F>(W(1) / y.hi, y);
}

// 1 / y for y = TwoSum(h, l), the normalised value of an unnormalised pair
// (h, l), D-MASS-33: th = RN(1 / h) needs only the pair's head, so the
// division overlaps the normalisation, and the step runs on y itself. With
// |l| <= 2u |h| the relative error is <= 20u^2 (1 + O(u)) < 24u^2, inside
// what D-MASS-30 charges; otherwise th = RN(1 / y.hi), as `reciprocal`.
template <class W, bool F = false>
RIGIDREF_HOT cw<W> reciprocal_from_head(W h, W l, const cw<W>& y) {
  using std::abs;
  constexpr W u = std::numeric_limits<W>::epsilon() / 2;
  W th;
  if (abs(l) <= 2 * u * abs(h)) [[likely]] th = W(1) / h;  // a branch: no wait for y
  else th = W(1) / y.hi;
  return reciprocal_step<W, F>(th, y);
}

// x / k for a normalised double word x and a small positive integer k (3,
// 18), with multiplications by RN(1/k) instead of divisions: the quotient,
// the remainder x.hi - k qh by the exact TwoProd, the correction; normalised.
// Error <= 12 u^2 |result.hi| (D-MASS-26).
template <class W, bool F>
RIGIDREF_HOT cw<W> div_small(const cw<W>& x, W k) {
  const W inv = W(1) / k;  // RN(1/k), a constant after inlining
  const W qh = x.hi * inv;
  const cw<W> p = two_prod<W, F>(k, qh);
  const W rem = W(x.hi - p.hi) - p.lo;  // x.hi - p.hi exact (Sterbenz)
  return fast_two_sum(qh, W(W(rem + x.lo) * inv));  // |ql| <= 4u |qh|
}

// The inputs the bounds of D-MASS-13..14 cover: every coordinate and the
// amount zero or of magnitude in [2^-60, 2^60], so that nothing underflows
// or overflows in W (D-MASS-13).
template <class W>
RIGIDREF_HOT bool in_range(W x) {
  using std::abs;
  const W a = abs(x);  // NaN fails both comparisons
  return a == 0 || (a >= W(0x1p-60) && a <= W(0x1p60));
}

template <class W>
struct sums {
  cw<W> twice_area, first_x, first_y, second;
  W mag_area = 0, mag_first_x = 0, mag_first_y = 0, mag_second = 0;  // |.|-evaluations on the hi parts

  // D-MASS-21: per fan triangle, |Px||Qy| + |Py||Qx| <= 2 dx dy, |Px| + |Qx| <= 2 dx,
  // and the bracket of D-MASS-3 <= 3 (dx^2 + dy^2), all on the hi parts; m = n - 2.
  void set_magnitudes(std::size_t n, W dx, W dy) {
    const W mc = W(n - 2) * (2 * dx * dy);
    mag_area = mc;
    mag_first_x = mc * (2 * dx);
    mag_first_y = mc * (2 * dy);
    mag_second = mc * (3 * (dx * dx + dy * dy));
  }
};

// The fan sums of D-MASS-1..3 about v0 (as polygon_fan_sums) and bounds on
// their magnitudes from the largest |d| per axis (D-MASS-13, D-MASS-21).
template <class T, class W, bool F = false>
RIGIDREF_HOT sums<W> fan_sums(std::span<const vec2<T>> v) {
  using std::abs;
  sums<W> s;
  const W ox = W(v[0].x), oy = W(v[0].y);
  const cw<W> px0 = two_sum(W(v[1].x), W(-ox)), py0 = two_sum(W(v[1].y), W(-oy));
  cw<W> px = px0, py = py0;
  cw<W> ppx = mul<W, F>(px, px), ppy = mul<W, F>(py, py);  // Px^2, Py^2
  cw<W> second_x, second_y;  // D-MASS-29: the second moment per axis
  W dx = abs(px.hi), dy = abs(py.hi);  // max |d.hi| per axis
  for (std::size_t i = 2; i < v.size(); ++i) {
    const cw<W> qx = two_sum(W(v[i].x), W(-ox)), qy = two_sum(W(v[i].y), W(-oy));
    const cw<W> c = add(mul<W, F>(px, qy), neg(mul<W, F>(py, qx)));  // D-MASS-1
    s.twice_area = add(s.twice_area, c);
    s.first_x = add(s.first_x, mul<W, F>(c, add(px, qx)));  // D-MASS-2
    s.first_y = add(s.first_y, mul<W, F>(c, add(py, qy)));
    const cw<W> qqx = mul<W, F>(qx, qx), qqy = mul<W, F>(qy, qy);
    const cw<W> bx = add(add(ppx, mul<W, F>(px, qx)), qqx), by = add(add(ppy, mul<W, F>(py, qy)), qqy);
    second_x = add(second_x, mul<W, F>(c, bx));  // D-MASS-3, x part
    second_y = add(second_y, mul<W, F>(c, by));
    dx = std::max(dx, W(abs(qx.hi)));
    dy = std::max(dy, W(abs(qy.hi)));
    px = qx;
    py = qy;
    ppx = qqx;
    ppy = qqy;
  }
  s.second = add(second_x, second_y);
  s.set_magnitudes(v.size(), dx, dy);
  return s;
}

#if defined(RIGIDREF_MASS_FMA_DISPATCH)
// D-MASS-24: fan_sums<double, double, true> with the x and y lanes of each
// step in one SSE register: every lane runs exactly the scalar operations
// (TwoSum, TwoProd by FMA, the same additions in the same order), and the
// steps that mix x and y (the cross product, |Q|^2, P.Q) stay scalar as
// there, so the sums and magnitudes are the scalar ones, bit for bit.
namespace xy {
// One unnormalised double word per lane: two lanes in an SSE register (an
// (x, y) pair), four in an AVX one (two pairs, D-MASS-37). The operations
// below are the scalar ones of the same name, lane by lane.
// The lanes' types are GCC's vector types (the intrinsics' __m128d and
// __m256d convert to them implicitly; as template arguments those would lose
// their may_alias attribute).
typedef double v2 __attribute__((vector_size(16)));
typedef double v4 __attribute__((vector_size(32)));
template <class V>
struct cw_lanes {
  V hi, lo;
};
using cw2 = cw_lanes<v2>;
using cw4 = cw_lanes<v4>;

// fma(a, b, -c) per lane.
__attribute__((target("fma"), always_inline)) inline v2 fmsub(v2 a, v2 b, v2 c) { return _mm_fmsub_pd(a, b, c); }
__attribute__((target("fma"), always_inline)) inline v4 fmsub(v4 a, v4 b, v4 c) { return _mm256_fmsub_pd(a, b, c); }

template <class V>
__attribute__((target("fma"), always_inline)) inline cw_lanes<V> two_sum_lanes(V a, V b) {
  const V s = a + b;
  const V ap = s - b;
  const V bp = s - ap;
  return {s, (a - ap) + (b - bp)};
}
// Not templates: an intrinsic's __m128d or __m256d converts to the lanes' type.
__attribute__((target("fma"), always_inline)) inline cw2 two_sum(v2 a, v2 b) { return two_sum_lanes(a, b); }
__attribute__((target("fma"), always_inline)) inline cw4 two_sum(v4 a, v4 b) { return two_sum_lanes(a, b); }

template <class V>
__attribute__((target("fma"), always_inline)) inline cw_lanes<V> mul(const cw_lanes<V>& x, const cw_lanes<V>& y) {
  const V p = x.hi * y.hi;
  const V e = fmsub(x.hi, y.hi, p);  // fma(a, b, -p): TwoProd's low part
  return {p, e + (x.hi * y.lo + x.lo * y.hi)};
}

template <class V>
__attribute__((target("fma"), always_inline)) inline cw_lanes<V> add(const cw_lanes<V>& x, const cw_lanes<V>& y) {
  const cw_lanes<V> s = two_sum_lanes(x.hi, y.hi);
  return {s.hi, s.lo + (x.lo + y.lo)};
}

// div_small(x, 3) per lane (D-MASS-26): the product by RN(1/3), the
// remainder by FMA, FastTwoSum.
__attribute__((target("fma"), always_inline)) inline cw2 div3(const cw2& x) {
  const v2 three = {3, 3}, inv = {1.0 / 3, 1.0 / 3};
  const v2 qh = x.hi * inv;
  const v2 ph = three * qh, pl = fmsub(three, qh, ph);
  const v2 ql = ((x.hi - ph) - pl + x.lo) * inv;
  const v2 h = qh + ql;
  return {h, ql - (h - qh)};
}

__attribute__((target("fma"), always_inline)) inline cw<double> lane(const cw2& x, int i) {
  return {x.hi[i], x.lo[i]};
}

__attribute__((target("fma"), always_inline)) inline cw2 swap(const cw2& x) {
  return {_mm_shuffle_pd(x.hi, x.hi, 1), _mm_shuffle_pd(x.lo, x.lo, 1)};
}

__attribute__((target("fma"), always_inline)) inline cw2 broadcast(const cw<double>& x) {
  return {_mm_set1_pd(x.hi), _mm_set1_pd(x.lo)};
}

__attribute__((target("fma"), always_inline)) inline __m128d abs(__m128d x) {
  return _mm_andnot_pd(_mm_set1_pd(-0.0), x);
}

// (a, b, c, d) to (d, c, a, b): with (P_x, P_y, Q_x, Q_y), each lane's
// partner in the cross product P x Q, and P.Q's second factor (D-MASS-36).
__attribute__((target("fma"), always_inline)) inline cw4 cross_partners(const cw4& x) {
  return {_mm256_permute_pd(_mm256_permute2f128_pd(x.hi, x.hi, 1), 0b1001),
          _mm256_permute_pd(_mm256_permute2f128_pd(x.lo, x.lo, 1), 0b1001)};
}

// (x, y) to (y, x) in each half.
__attribute__((target("fma"), always_inline)) inline cw4 swap(const cw4& x) {
  return {_mm256_permute_pd(x.hi, 0b0101), _mm256_permute_pd(x.lo, 0b0101)};
}

// (low, the low half of x): a pair and the first pair of x.
__attribute__((target("fma"), always_inline)) inline cw4 join(const cw2& low, const cw4& x) {
  return {_mm256_insertf128_pd(_mm256_castpd128_pd256(low.hi), _mm256_castpd256_pd128(x.hi), 1),
          _mm256_insertf128_pd(_mm256_castpd128_pd256(low.lo), _mm256_castpd256_pd128(x.lo), 1)};
}

__attribute__((target("fma"), always_inline)) inline cw2 high(const cw4& x) {
  return {_mm256_extractf128_pd(x.hi, 1), _mm256_extractf128_pd(x.lo, 1)};
}
}  // namespace xy

__attribute__((target("fma"))) inline sums<double> fan_sums_xy(std::span<const vec2<double>> v) {
  sums<double> s;
  const __m128d neg_o = _mm_set_pd(-v[0].y, -v[0].x);
  const __m256d neg_o4 = _mm256_set_pd(-v[0].y, -v[0].x, -v[0].y, -v[0].x);
  xy::cw2 p = xy::two_sum(_mm_set_pd(v[1].y, v[1].x), neg_o);  // (px, py) = two_sum(v1 - v0)
  xy::cw2 p2 = xy::mul(p, p);  // (Px^2, Py^2)
  __m128d d = xy::abs(p.hi);  // max |d.hi| per axis
  // A fan triangle's c (D-MASS-1) and the product c (P + Q, b) of its four
  // moment terms, (first_x, first_y, second_x, second_y) in one AVX
  // register (D-MASS-31), per lane `mul`'s operations.
  struct fan_term {
    cw<double> c;
    __m256d th, tl;
  };
  auto times_c = [](const cw<double>& c, __m256d fh, __m256d fl) __attribute__((target("fma"), always_inline)) {
    const __m256d ch = _mm256_set1_pd(c.hi), cl = _mm256_set1_pd(c.lo);
    const __m256d th = ch * fh;  // mul(c, f): TwoProd by FMA, then the cross terms
    return fan_term{c, th, _mm256_fmsub_pd(ch, fh, th) + (ch * fl + cl * fh)};
  };
  // One triangle, vertex i, in two lanes.
  auto term = [&](std::size_t i) __attribute__((target("fma"), always_inline)) {
    const xy::cw2 q = xy::two_sum(_mm_set_pd(v[i].y, v[i].x), neg_o);
    const xy::cw2 cross = xy::mul(p, xy::swap(q));  // (px qy, py qx)
    const cw<double> c = add(xy::lane(cross, 0), neg(xy::lane(cross, 1)));  // D-MASS-1
    const xy::cw2 q2 = xy::mul(q, q);
    const xy::cw2 pq = xy::add(p, q);                           // D-MASS-2's P + Q
    const xy::cw2 b = xy::add(xy::add(p2, xy::mul(p, q)), q2);  // D-MASS-3's (b_x, b_y)
    d = _mm_max_pd(d, xy::abs(q.hi));
    p = q;
    p2 = q2;
    return times_c(c, _mm256_insertf128_pd(_mm256_castpd128_pd256(pq.hi), b.hi, 1),
                   _mm256_insertf128_pd(_mm256_castpd128_pd256(pq.lo), b.lo, 1));
  };
  // Two triangles, vertices i and i + 1, in four lanes (D-MASS-37): the
  // same operations per lane as two calls of `term`.
  auto pair = [&](std::size_t i, fan_term& first, fan_term& second) __attribute__((target("fma"), always_inline)) {
    const xy::cw4 q = xy::two_sum(_mm256_loadu_pd(&v[i].x), neg_o4);  // (q_i, q_i+1)
    const xy::cw4 pp = xy::join(p, q);                               // (p, q_i)
    const xy::cw4 cross = xy::mul(pp, xy::swap(q));
    const xy::cw4 crossed = xy::swap(cross);
    const xy::cw4 c = xy::add(cross, {-crossed.hi, -crossed.lo});  // lanes 0 and 2
    const xy::cw4 q2 = xy::mul(q, q);
    const xy::cw4 pq = xy::add(pp, q);
    const xy::cw4 b = xy::add(xy::add(xy::join(p2, q2), xy::mul(pp, q)), q2);
    d = _mm_max_pd(d, _mm_max_pd(xy::abs(_mm256_castpd256_pd128(q.hi)), xy::abs(_mm256_extractf128_pd(q.hi, 1))));
    p = xy::high(q);
    p2 = xy::high(q2);
    first = times_c({c.hi[0], c.lo[0]}, _mm256_permute2f128_pd(pq.hi, b.hi, 0x20),
                    _mm256_permute2f128_pd(pq.lo, b.lo, 0x20));
    second = times_c({c.hi[2], c.lo[2]}, _mm256_permute2f128_pd(pq.hi, b.hi, 0x31),
                     _mm256_permute2f128_pd(pq.lo, b.lo, 0x31));
  };
  // The first triangle: add() to the zero sums returns the term with each
  // part plus +0 (D-MASS-34: TwoSum(0, h) = (h + 0, +0)), the same values.
  fan_term t, t2;
  std::size_t i = 2;
  if (v.size() >= 4) {
    pair(2, t, t2);
    i = 4;
  } else {
    t = term(2);
    i = 3;
  }
  const __m256d zero = _mm256_setzero_pd();
  s.twice_area = {t.c.hi + 0.0, t.c.lo + 0.0};
  __m256d acc_hi = t.th + zero, acc_lo = t.tl + zero;
  auto accumulate = [&](const fan_term& x) __attribute__((target("fma"), always_inline)) {
    s.twice_area = add(s.twice_area, x.c);
    const __m256d sh = acc_hi + x.th;  // add(acc, t): TwoSum, then the low parts
    const __m256d ap = sh - x.th;
    const __m256d bp = sh - ap;
    acc_lo = ((acc_hi - ap) + (x.th - bp)) + (acc_lo + x.tl);
    acc_hi = sh;
  };
  if (i == 4) accumulate(t2);
  for (; i + 1 < v.size(); i += 2) {
    pair(i, t, t2);
    accumulate(t);
    accumulate(t2);
  }
  if (i < v.size()) accumulate(term(i));
  const xy::cw2 first = {_mm256_castpd256_pd128(acc_hi), _mm256_castpd256_pd128(acc_lo)};
  const xy::cw2 second = {_mm256_extractf128_pd(acc_hi, 1), _mm256_extractf128_pd(acc_lo, 1)};
  s.second = add(xy::lane(second, 0), xy::lane(second, 1));  // D-MASS-29
  s.first_x = xy::lane(first, 0);
  s.first_y = xy::lane(first, 1);
  s.set_magnitudes(v.size(), d[0], d[1]);  // D-MASS-21, as fan_sums
  return s;
}
#endif

// The centroid lines of D-MASS-14 (with D-MASS-30): g = (F / 3)(1 / A2), the
// centroid v0 + g and |g|^2, each with its bound.
template <class W>
struct centroid_lines {
  cw<W> gx, gy, cx, cy, gg;
  W e_gx, e_gy, e_cx, e_cy, g2, e_gg;
};

template <class W, bool F>
RIGIDREF_HOT centroid_lines<W> centroid_of(const cw<W>& fx, const cw<W>& fy, const cw<W>& r, W ox, W oy, W e_d3,
                                           W e_first_x, W e_first_y, W inv_den) {
  using std::abs;
  constexpr W u = std::numeric_limits<W>::epsilon() / 2;
  constexpr W u2 = u * u;
  centroid_lines<W> c;
  const cw<W> fx3 = div_small<W, F>(fx, W(3)), fy3 = div_small<W, F>(fy, W(3));
  c.gx = normalise_product(mul<W, F>(fx3, r));  // centroid - v0
  c.gy = normalise_product(mul<W, F>(fy3, r));
  c.e_gx = (2 * abs(c.gx.hi) * e_d3 + e_first_x) * 2 * inv_den + 48 * u2 * abs(c.gx.hi);
  c.e_gy = (2 * abs(c.gy.hi) * e_d3 + e_first_y) * 2 * inv_den + 48 * u2 * abs(c.gy.hi);
  c.cx = normalise(add(cw<W>{ox, 0}, c.gx));
  c.cy = normalise(add(cw<W>{oy, 0}, c.gy));
  c.e_cx = c.e_gx + 3 * u2 * (abs(ox) + 2 * abs(c.gx.hi));
  c.e_cy = c.e_gy + 3 * u2 * (abs(oy) + 2 * abs(c.gy.hi));
  c.gg = add(mul<W, F>(c.gx, c.gx), mul<W, F>(c.gy, c.gy));
  c.g2 = c.gx.hi * c.gx.hi + c.gy.hi * c.gy.hi;
  c.e_gg = c.e_gx * (4 * abs(c.gx.hi) + c.e_gx) + c.e_gy * (4 * abs(c.gy.hi) + c.e_gy) + 32 * u2 * c.g2;
  return c;
}

#if defined(RIGIDREF_MASS_FMA_DISPATCH)
// D-MASS-31: centroid_of<double, true> with x and y in the lanes of one SSE
// register, each lane the scalar operations in the same order (TwoProd by
// FMA, as there), so every value is the scalar one, bit for bit.
__attribute__((target("fma"))) inline centroid_lines<double> centroid_of_xy(const cw<double>& fx, const cw<double>& fy,
                                                                          const cw<double>& r, double ox, double oy,
                                                                          double e_d3, double e_first_x,
                                                                          double e_first_y, double inv_den) {
  constexpr double u2 = 0x1p-106;
  const xy::cw2 f3 = xy::div3({_mm_set_pd(fy.hi, fx.hi), _mm_set_pd(fy.lo, fx.lo)});  // div_small(f, 3)
  const xy::cw2 gp = xy::mul(f3, xy::broadcast(r));
  const __m128d gh = gp.hi + gp.lo;  // normalise_product: FastTwoSum
  const xy::cw2 g = {gh, gp.lo - (gh - gp.hi)};
  const __m128d ag = xy::abs(g.hi);
  const __m128d e_g = (2 * ag * e_d3 + _mm_set_pd(e_first_y, e_first_x)) * 2 * inv_den + 48 * u2 * ag;
  const __m128d o = _mm_set_pd(oy, ox);
  const xy::cw2 sum = xy::add(xy::cw2{o, _mm_setzero_pd()}, g);
  const xy::cw2 cxy = xy::two_sum(sum.hi, sum.lo);  // normalise
  const __m128d e_c = e_g + 3 * u2 * (xy::abs(o) + 2 * ag);
  const xy::cw2 g2p = xy::mul(g, g);
  const __m128d hh = g.hi * g.hi, t = e_g * (4 * ag + e_g);
  centroid_lines<double> c;
  c.gx = xy::lane(g, 0);
  c.gy = xy::lane(g, 1);
  c.e_gx = e_g[0];
  c.e_gy = e_g[1];
  c.cx = xy::lane(cxy, 0);
  c.cy = xy::lane(cxy, 1);
  c.e_cx = e_c[0];
  c.e_cy = e_c[1];
  c.gg = add(xy::lane(g2p, 0), xy::lane(g2p, 1));
  c.g2 = hh[0] + hh[1];
  c.e_gg = t[0] + t[1] + 32 * u2 * c.g2;
  return c;
}
#endif

// The T neighbour of a finite nonzero r, away from zero if `away`, else
// toward it: one step of the encoding for float and double (no libm call),
// std::nextafter otherwise. An overflow gives infinity, as nextafter does.
template <class T>
RIGIDREF_HOT T neighbour(T r, bool away) {
  if constexpr (std::is_same_v<T, double> || std::is_same_v<T, float>) {
    using U = std::conditional_t<std::is_same_v<T, double>, std::uint64_t, std::uint32_t>;
    const U bits = std::bit_cast<U>(r);
    return std::bit_cast<T>(away ? U(bits + 1) : U(bits - 1));
  } else {
    const bool up = away == (r > 0);
    return std::nextafter(r, up ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity());
  }
}

// D-MASS-15: out = RN_T(exact) when |exact - (h + l)| <= err keeps the exact
// value strictly closer to r = RN_T(h) than half the gap from r to its
// neighbour on that side. False when that is not certain.
// For T = W (double, long double), D-MASS-27: y - h lies in [lo, hi], and
// RN is monotone, so RN(h + lo) = RN(h + hi) = h gives RN(y) = h.
template <class T, class W>
RIGIDREF_HOT bool certain_rounding(const cw<W>& x, W err, T& out) {
  using std::abs;
  if constexpr (std::is_same_v<T, W>) {
    const W h = x.hi;
    const W e = err * W(1 + 0x1p-20) + abs(x.lo) * W(0x1p-20);  // rounding l -+ e stays outside [l - err, l + err]
    const W lo = x.lo - e, hi = x.lo + e;
    if (!(abs(h) < std::numeric_limits<W>::max() && h != 0 && W(h + lo) == h && W(h + hi) == h)) return false;
    out = h;
    return true;
  }
  const T r = static_cast<T>(x.hi);
  const W rw = W(r);
  if (!(abs(rw) <= W(std::numeric_limits<T>::max())) || r == 0) return false;
  const W off = (x.hi - rw) + x.lo;  // x.hi - rw exact; the sum rounds (relative u)
  const T next = neighbour(r, (off < 0) == (r < 0));
  if (!(abs(next) <= std::numeric_limits<T>::max())) return false;  // beyond lies overflow
  const W half_gap = abs(W(next) - rw) / 2;  // exact
  // D-MASS-27: the second test keeps y off the cell's edge on r's other side,
  // where the gap may be half as wide (r a power of two).
  if (!(abs(off) * W(1 + 0x1p-20) + err < half_gap && err < half_gap / 2)) return false;
  out = r;
  return true;
}

// The sign of a + b + c + d + e + f, exactly: Shewchuk's Grow-Expansion
// gives a nonoverlapping expansion whose largest nonzero component has the
// sign of the sum (D-MASS-18; no term may overflow, sums never underflow).
template <class W>
RIGIDREF_HOT int sign_of_sum(const W (&t)[6]) {
  W e[6];
  int k = 0;
  for (const W x : t) {
    W q = x;
    for (int i = 0; i < k; ++i) {
      const cw<W> s = two_sum(q, e[i]);
      q = s.hi;
      e[i] = s.lo;
    }
    e[k++] = q;
  }
  for (int i = k - 1; i >= 0; --i)
    if (e[i] != 0) return e[i] > 0 ? 1 : -1;
  return 0;
}

// D-MASS-18: a triangle's centroid coordinate y = (a + b + c) / 3 where
// D-MASS-15 cannot decide: x = (h, l) with |y - x| <= err lies next to the
// midpoint m = r + half between r = RN_T(h) and its neighbour on the side
// of x. The side of m is the sign of (a + b + c) - 3 r - 3 half, a sum of
// six exact W values (3 r by TwoProd); on m itself ties go to even, as
// round_to does. False when the interval may reach past r's other
// midpoints (then the exact path answers). float and double only.
template <class T, class W, bool F>
RIGIDREF_HOT bool triangle_centroid_by_midpoint(T a, T b, T c, const cw<W>& x, W err, T& out) {
  using std::abs;
  if constexpr (!(std::is_same_v<T, double> || std::is_same_v<T, float>)) {
    return false;
  } else {
    const T r = static_cast<T>(x.hi);
    const W rw = W(r);
    if (!(abs(rw) <= W(std::numeric_limits<T>::max())) || r == 0) return false;
    const W off = (x.hi - rw) + x.lo;
    const T next = neighbour(r, (off < 0) == (r < 0));
    if (!(abs(next) <= std::numeric_limits<T>::max())) return false;
    const W half = (W(next) - rw) / 2;  // exact, signed toward x
    // y within [r - |half|/2, r + 3 |half|) on x's side: its rounding is r or next.
    if (!(err < abs(half) / 4 && abs(off) * W(1 + 0x1p-20) + err < 2 * abs(half))) return false;
    const cw<W> three_r = two_prod<W, F>(W(3), rw);
    const W terms[6] = {W(a), W(b), W(c), W(-three_r.hi), W(-three_r.lo), W(-3 * half)};
    const int side = sign_of_sum(terms) * (half > 0 ? 1 : -1);  // > 0: beyond m, toward next
    using U = std::conditional_t<std::is_same_v<T, double>, std::uint64_t, std::uint32_t>;
    const bool r_even = (std::bit_cast<U>(r) & 1) == 0;
    out = side > 0 || (side == 0 && !r_even) ? next : r;
    return true;
  }
}

// The five outputs; certified[i] says whether output i is correctly rounded.
template <class T>
struct rounded {
  T area, centroid_x, centroid_y, mass, inertia;
  bool certified[5] = {false, false, false, false, false};
  bool all() const { return certified[0] && certified[1] && certified[2] && certified[3] && certified[4]; }
};

#if defined(RIGIDREF_MASS_FMA_DISPATCH)
// certain_rounding<double> (T = W) on four values at once, D-MASS-27: the
// same operations per lane, so the same answers; bit k of the result for
// lane k. The FMA copy runs on processors with AVX (FMA implies it).
__attribute__((target("fma"))) inline int certain_rounding4(__m256d h, __m256d l, __m256d err) {
  const __m256d magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffff));
  const __m256d e = err * _mm256_set1_pd(1 + 0x1p-20) + _mm256_and_pd(l, magnitude) * _mm256_set1_pd(0x1p-20);
  const __m256d lo = l - e, hi = l + e;
  const __m256d a = _mm256_and_pd(h, magnitude);
  const __m256d finite_nonzero = _mm256_and_pd(_mm256_cmp_pd(a, _mm256_set1_pd(std::numeric_limits<double>::max()),
                                                             _CMP_LT_OQ),
                                               _mm256_cmp_pd(a, _mm256_setzero_pd(), _CMP_GT_OQ));
  const __m256d stays = _mm256_and_pd(_mm256_cmp_pd(h + lo, h, _CMP_EQ_OQ), _mm256_cmp_pd(h + hi, h, _CMP_EQ_OQ));
  return _mm256_movemask_pd(_mm256_and_pd(finite_nonzero, stays));
}
__attribute__((target("fma"))) inline int certain_rounding4(const double (&hs)[4], const double (&ls)[4],
                                                            const double (&errs)[4]) {
  return certain_rounding4(_mm256_loadu_pd(hs), _mm256_loadu_pd(ls), _mm256_loadu_pd(errs));
}
// The first four of five outputs, the lanes built in registers (a 256-bit
// load of four separate stores would wait for them: no store forwarding).
__attribute__((target("fma"))) inline int certain_rounding4(const cw<double> (&x)[5], const double (&err)[5]) {
  return certain_rounding4(_mm256_set_pd(x[3].hi, x[2].hi, x[1].hi, x[0].hi),
                           _mm256_set_pd(x[3].lo, x[2].lo, x[1].lo, x[0].lo),
                           _mm256_set_pd(err[3], err[2], err[1], err[0]));
}
#endif

// The rounding test of D-MASS-15 (D-MASS-27 for T = W) on the five outputs
// (area, centroid x and y, mass, inertia) with their final bounds; true when
// all five are certified.
template <class T, class W, bool F>
RIGIDREF_HOT bool certify(const cw<W> (&x)[5], const W (&err)[5], rounded<T>& out) {
  T* const value[5] = {&out.area, &out.centroid_x, &out.centroid_y, &out.mass, &out.inertia};
#if defined(RIGIDREF_MASS_FMA_DISPATCH)
  if constexpr (F && std::is_same_v<T, double>) {
    const int ok = certain_rounding4(x, err);
    for (int k = 0; k < 4; ++k) *value[k] = x[k].hi;
    const bool inertia = certain_rounding<T>(x[4], err[4], out.inertia);
    if (ok == 15 && inertia) [[likely]] {  // the usual case: five constant flags (D-MASS-34)
      for (bool& c : out.certified) c = true;
      return true;
    }
    for (int k = 0; k < 4; ++k) out.certified[k] = (ok >> k) & 1;
    out.certified[4] = inertia;
    return false;
  }
#endif
  for (int k = 0; k < 5; ++k) out.certified[k] = certain_rounding<T>(x[k], err[k], *value[k]);
  return out.all();
}

// The triangle's own formulas (detail/mass_triangle.hpp, D-MASS-26).
template <class T, class W, bool F>
bool try_triangle_mass(std::span<const vec2<T>> v, const T& amount, bool amount_is_density, rounded<T>& out);

// D-MASS-13..15. False when an input is outside the covered range (nothing
// certified) or some output's bound straddles a rounding boundary (that
// output not certified): the caller computes those exactly. Orientation either way; a zero or uncertain area is left to the
// exact path as well.
template <class T, bool F>
RIGIDREF_HOT bool try_polygon_mass_with(std::span<const vec2<T>> v, const T& amount, bool amount_is_density,
                                        rounded<T>& out, bool range_known = false) {
  using W = std::conditional_t<std::is_same_v<T, float>, double, T>;
  using std::abs;
  constexpr W u = std::numeric_limits<W>::epsilon() / 2;
  constexpr W u2 = u * u;
  constexpr W tiny = W(0x1p-1000);  // covers the products of bounds that underflow (D-MASS-14)
  if (v.size() > (std::size_t(1) << 20)) return false;
  if (!in_range(W(amount))) return false;
  if (!range_known)  // else polygon_basics_in_range has checked every coordinate
    for (const vec2<T>& p : v)
      if (!in_range(W(p.x)) || !in_range(W(p.y))) return false;
  if (v.size() == 3) return try_triangle_mass<T, W, F>(v, amount, amount_is_density, out);  // D-MASS-26

#if defined(RIGIDREF_MASS_FMA_DISPATCH)
  const sums<W> s = [&] {
    if constexpr (F && std::is_same_v<T, double>) return fan_sums_xy(v);  // D-MASS-24
    else return fan_sums<T, W, F>(v);
  }();
#else
  const sums<W> s = fan_sums<T, W, F>(v);
#endif
  // D-MASS-13: beta(m) u^2 M per sum, times 8 (M <= 2 M^, the (1 + O(u))
  // factors, the rounding of this very bound).
  const W m = W(v.size() - 2);
  const W mm1 = m * (m - 1);
  const W e_twice_area = 8 * (15 + 9 * m + mm1) * u2 * s.mag_area;
  const W e_first_x = 8 * (45 + 15 * m + mm1) * u2 * s.mag_first_x;
  const W e_first_y = 8 * (45 + 15 * m + mm1) * u2 * s.mag_first_y;
  const W e_second = 8 * (108 + 23 * m + mm1) * u2 * s.mag_second;  // D-MASS-29

  const cw<W> a2 = normalise(s.twice_area), fx = normalise(s.first_x), fy = normalise(s.first_y),
              sec = normalise(s.second);
  if (!(abs(a2.hi) > 4 * e_twice_area)) return false;  // zero, or its sign uncertain
  // Clockwise: every sum has the other sign. The quotients F / A2 and S / A2
  // keep theirs (each operation below is odd, RN symmetric), so only the area
  // flips (D-MASS-33).
  const cw<W> area = a2.hi < 0 ? cw<W>{W(-a2.hi / 2), W(-a2.lo / 2)} : cw<W>{W(a2.hi / 2), W(a2.lo / 2)};
  // D-MASS-14: each line's bound from the previous ones; op errors in u^2.
  const W e_area = e_twice_area / 2;
  // D-MASS-23's one division, now of A2 (D-MASS-30): 1 / A2 by the reciprocal
  // while F / 3 and S / 3 are formed beside it, then products; den = RN(3 |A2.hi|).
  const W e_d3 = 3 * e_twice_area + 24 * u2 * abs(a2.hi);
  const W den = 3 * abs(a2.hi);
  if (!(e_d3 <= den / 8)) return false;
  const cw<W> r = reciprocal_from_head<W, F>(s.twice_area.hi, s.twice_area.lo, a2);  // D-MASS-33
  const W inv_den = abs(r.hi) * (W(1) / 3 * W(1 + 0x1p-40));  // >= 1 / den: products, not divisions (D-MASS-28)
  const W ox = W(v[0].x), oy = W(v[0].y);
#if defined(RIGIDREF_MASS_FMA_DISPATCH)
  const centroid_lines<W> c = [&] {
    if constexpr (F && std::is_same_v<W, double>) return centroid_of_xy(fx, fy, r, ox, oy, e_d3, e_first_x, e_first_y, inv_den);
    else return centroid_of<W, F>(fx, fy, r, ox, oy, e_d3, e_first_x, e_first_y, inv_den);
  }();
#else
  const centroid_lines<W> c = centroid_of<W, F>(fx, fy, r, ox, oy, e_d3, e_first_x, e_first_y, inv_den);
#endif
  const cw<W>&cx = c.cx, &cy = c.cy, &gg = c.gg;
  const W e_cx = c.e_cx, e_cy = c.e_cy, g2 = c.g2, e_gg = c.e_gg;
  const cw<W> sec3 = div_small<W, F>(sec, W(3));
  const cw<W> sec6{sec3.hi / 2, sec3.lo / 2};            // second / 6, exact halving
  const cw<W> j = normalise_product(mul<W, F>(sec6, r));  // second / (6 twice_area)
  const W e_j = (2 * abs(j.hi) * 2 * e_d3 + e_second) * inv_den + 48 * u2 * abs(j.hi);
  const cw<W> per_area = normalise(add(j, neg(gg)));  // D-MASS-4
  const W e_per_area = e_j + e_gg + 20 * u2 * (abs(j.hi) + g2);
  const W amt = W(amount);
  cw<W> mass{amt, 0};
  W e_mass = 0;
  if (amount_is_density) {
    mass = normalise_product(mul<W, F>(area, cw<W>{amt, 0}));
    e_mass = amt * e_area + 8 * u2 * amt * abs(area.hi);
  }
  const cw<W> inertia = normalise_product(mul<W, F>(mass, per_area));
  const W e_inertia = e_mass * (2 * abs(per_area.hi) + e_per_area) + 2 * abs(mass.hi) * e_per_area +
                      32 * u2 * abs(mass.hi) * abs(per_area.hi);
  // D-MASS-15, each bound doubled for its own rounding, plus tiny.
  return certify<T, W, F>({area, cx, cy, mass, inertia},
                          {2 * e_area + tiny, 2 * e_cx + tiny, 2 * e_cy + tiny, 2 * e_mass + tiny, 2 * e_inertia + tiny},
                          out);
}

#if defined(RIGIDREF_MASS_FMA_DISPATCH)
// D-MASS-18: the same filter compiled for the "fma" target, for processors
// that have it (checked once); TwoProd is exact either way, so the bits are
// those of the generic build.
template <class T>
__attribute__((target("fma"), noinline, flatten)) bool try_polygon_mass_fma(std::span<const vec2<T>> v, const T& amount,
                                                                    bool amount_is_density, rounded<T>& out,
                                                                    bool range_known = false) {
  return try_polygon_mass_with<T, true>(v, amount, amount_is_density, out, range_known);
}

inline bool cpu_has_fma() {
  static const bool has = __builtin_cpu_supports("fma");
  return has;
}
#endif

// The generic copy out of line, so that the dispatch below stays a jump.
template <class T>
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
bool try_polygon_mass_generic(std::span<const vec2<T>> v, const T& amount, bool amount_is_density, rounded<T>& out,
                              bool range_known) {
  return try_polygon_mass_with<T, false>(v, amount, amount_is_density, out, range_known);
}

// range_known: the caller has seen polygon_basics_in_range(v) hold.
template <class T>
bool try_polygon_mass(std::span<const vec2<T>> v, const T& amount, bool amount_is_density, rounded<T>& out,
                      bool range_known = false) {
#if defined(RIGIDREF_MASS_FMA_DISPATCH)
  if constexpr (std::is_same_v<std::conditional_t<std::is_same_v<T, float>, double, T>, double>)
    if (cpu_has_fma()) return try_polygon_mass_fma<T>(v, amount, amount_is_density, out, range_known);
#endif
  return try_polygon_mass_generic<T>(v, amount, amount_is_density, out, range_known);
}

#if defined(RIGIDREF_MASS_FMA_DISPATCH)
// D-MASS-35: polygon_basics_in_range for double with two vertices per AVX
// register, (v[k], v[k+1]) against (v[k-1], v[k]) for the repeated-vertex
// test: the same per-coordinate and per-vertex tests as the SSE2 loop, so
// the same answer. n >= 3; a trailing odd vertex re-tests v[n-2] with it.
__attribute__((target("fma"))) inline bool polygon_basics_in_range_avx(const vec2<double>* v, std::size_t n) {
  const __m256d magnitude = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffff));
  const __m256d lo = _mm256_set1_pd(0x1p-60), hi = _mm256_set1_pd(0x1p60), zero = _mm256_setzero_pd();
  __m256d in = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));  // lanes still in range
  __m256d repeated = zero;  // lanes 0 and 2: some vertex equals the previous one in x and y
  auto test = [&](__m256d p, __m256d prev) __attribute__((target("fma"), always_inline)) {
    const __m256d a = _mm256_and_pd(p, magnitude);  // NaN fails every comparison below
    in = _mm256_and_pd(in, _mm256_and_pd(_mm256_cmp_pd(a, hi, _CMP_LE_OQ),
                                         _mm256_or_pd(_mm256_cmp_pd(a, lo, _CMP_GE_OQ),
                                                      _mm256_cmp_pd(a, zero, _CMP_EQ_OQ))));
    const __m256d same = _mm256_cmp_pd(p, prev, _CMP_EQ_OQ);
    repeated = _mm256_or_pd(repeated, _mm256_and_pd(same, _mm256_permute_pd(same, 0b0101)));
  };
  // (v[n-1], v[0]): the closing edge first
  test(_mm256_loadu_pd(&v[0].x),
       _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(&v[n - 1].x)), _mm_loadu_pd(&v[0].x), 1));
  std::size_t k = 2;
  for (; k + 1 < n; k += 2) test(_mm256_loadu_pd(&v[k].x), _mm256_loadu_pd(&v[k - 1].x));
  if (k < n) test(_mm256_loadu_pd(&v[n - 2].x), _mm256_loadu_pd(&v[n - 3].x));  // n odd: v[n-1]
  return _mm256_movemask_pd(in) == 15 && (_mm256_movemask_pd(repeated) & 5) == 0;
}
#endif

// D-MASS-25: one pass that implies both require_polygon_basics (it would not
// throw: at least 3 vertices, all finite, no two cyclically consecutive
// vertices equal) and the filter's range condition on every coordinate
// (in_range implies finite). False when any of it fails: the caller then
// runs require_polygon_basics itself, which throws its usual error or passes.
template <class T>
RIGIDREF_HOT bool polygon_basics_in_range(std::span<const vec2<T>> v) {
  using W = std::conditional_t<std::is_same_v<T, float>, double, T>;
  const std::size_t n = v.size();
  if (n < 3 || n > (std::size_t(1) << 20)) return false;
#if defined(__SSE2__)
  if constexpr (std::is_same_v<T, double> && sizeof(vec2<double>) == 2 * sizeof(double)) {
#if defined(RIGIDREF_MASS_FMA_DISPATCH)
    if (cpu_has_fma()) return polygon_basics_in_range_avx(v.data(), n);  // D-MASS-35
#endif
    // The same tests on (x, y) pairs, without branches (D-MASS-27).
    const __m128d magnitude = _mm_castsi128_pd(_mm_set1_epi64x(0x7fffffffffffffff));
    const __m128d lo = _mm_set1_pd(0x1p-60), hi = _mm_set1_pd(0x1p60), zero = _mm_setzero_pd();
    __m128d in = _mm_castsi128_pd(_mm_set1_epi64x(-1));  // lanes still in range
    __m128d repeated = zero;  // lane 0: some vertex equals the previous one in x and y
    __m128d prev = _mm_loadu_pd(&v[n - 1].x);  // the closing edge first
    for (std::size_t i = 0; i < n; ++i) {
      const __m128d p = _mm_loadu_pd(&v[i].x);
      const __m128d a = _mm_and_pd(p, magnitude);  // NaN fails every comparison below
      in = _mm_and_pd(in, _mm_and_pd(_mm_cmple_pd(a, hi), _mm_or_pd(_mm_cmpge_pd(a, lo), _mm_cmpeq_pd(a, zero))));
      const __m128d same = _mm_cmpeq_pd(p, prev);
      repeated = _mm_or_pd(repeated, _mm_and_pd(same, _mm_unpackhi_pd(same, same)));
      prev = p;
    }
    return _mm_movemask_pd(in) == 3 && (_mm_movemask_pd(repeated) & 1) == 0;
  }
#endif
  bool ok = true;
  for (std::size_t i = 0; i + 1 < n; ++i)
    ok &= in_range(W(v[i].x)) & in_range(W(v[i].y)) & !(v[i] == v[i + 1]);
  ok &= in_range(W(v[n - 1].x)) & in_range(W(v[n - 1].y)) & !(v[n - 1] == v[0]);
  return ok;
}

}  // namespace rigidref::detail::mass_filter

#include "rigidref/detail/fp_end.hpp"

#include "rigidref/detail/mass_triangle.hpp"  // try_triangle_mass, declared above
