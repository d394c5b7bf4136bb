// The certified fast path of a triangle's mass properties (n = 3,
// D-MASS-26): the triangle's own formulas, with no division by the area.
// The centroid is (a + b + c) / 3 per coordinate and the inertia
// mass (|P|^2 + |Q|^2 - P.Q) / 18 with P, Q the edges from v0; the area and
// mass are D-MASS-13..14's values. Every output goes through the rounding
// test of D-MASS-15 (a tied centroid through D-MASS-18), so a certified
// output is the correctly rounded exact value, as the general filter's.
// The FMA copy forms the products four lanes at a time (D-MASS-36).
#pragma once

#include "rigidref/detail/hot.hpp"
#include "rigidref/detail/mass_filter.hpp"
#include "rigidref/vec2.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail::mass_filter {

// A centroid coordinate (a + b + c) / 3 and its bound (D-MASS-26): the sum
// to u^2 (|s1| + |s2|), then / 3.
template <class W, bool F>
RIGIDREF_HOT cw<W> triangle_centroid(W a, W b, W c, W& err) {
  using std::abs;
  constexpr W u = std::numeric_limits<W>::epsilon() / 2;
  const cw<W> s1 = two_sum(a, b);
  const cw<W> s2 = two_sum(s1.hi, c);
  const cw<W> g = div_small<W, F>(two_sum(s2.hi, W(s1.lo + s2.lo)), W(3));
  err = 2 * (u * u) * ((abs(s1.hi) + abs(s2.hi)) / 3 + 12 * abs(g.hi)) + W(0x1p-1000);
  return g;
}

// The triangle's forms (D-MASS-26): twice the area c = P x Q, |P|^2, |Q|^2
// and P.Q as D-MASS-13 nodes, P = v1 - v0, Q = v2 - v0 exactly, and
// mc = |P_x.hi Q_y.hi| + |P_y.hi Q_x.hi| for c's bound.
template <class W>
struct triangle_forms {
  cw<W> c, pp, qq, pq;
  W mc = 0;
};

template <class T, class W, bool F>
RIGIDREF_HOT triangle_forms<W> triangle_forms_of(std::span<const vec2<T>> v) {
  using std::abs;
  const W ox = W(v[0].x), oy = W(v[0].y);
  const cw<W> px = two_sum(W(v[1].x), W(-ox)), py = two_sum(W(v[1].y), W(-oy));  // P = v1 - v0, exact
  const cw<W> qx = two_sum(W(v[2].x), W(-ox)), qy = two_sum(W(v[2].y), W(-oy));  // Q = v2 - v0
  triangle_forms<W> f;
  f.c = add(mul<W, F>(px, qy), neg(mul<W, F>(py, qx)));
  f.mc = abs(px.hi * qy.hi) + abs(py.hi * qx.hi);
  f.pp = add(mul<W, F>(px, px), mul<W, F>(py, py));
  f.qq = add(mul<W, F>(qx, qx), mul<W, F>(qy, qy));
  f.pq = add(mul<W, F>(px, qx), mul<W, F>(py, qy));
  return f;
}

// Both centroid coordinates (triangle_centroid of x and of y).
template <class W>
struct triangle_centre {
  cw<W> x, y;
  W ex = 0, ey = 0;
};

template <class T, class W, bool F>
RIGIDREF_HOT triangle_centre<W> triangle_centre_of(std::span<const vec2<T>> v) {
  triangle_centre<W> g;
  g.x = triangle_centroid<W, F>(W(v[0].x), W(v[1].x), W(v[2].x), g.ex);
  g.y = triangle_centroid<W, F>(W(v[0].y), W(v[1].y), W(v[2].y), g.ey);
  return g;
}

#if defined(RIGIDREF_MASS_FMA_DISPATCH)
// D-MASS-36: triangle_forms_of<double, double, true> four lanes at a time:
// (P_x, P_y, Q_x, Q_y) by one TwoSum, the eight products of `mul` in two
// AVX multiplications (P Q', P P with Q' = (Q_y, Q_x, P_x, P_y)), the four
// sums in one `add`. Each lane runs the scalar operations in the same order
// (mul is symmetric bit for bit: its two cross terms are added, and addition
// commutes), so every value is the scalar one.
__attribute__((target("fma"))) inline triangle_forms<double> triangle_forms_xy(std::span<const vec2<double>> v) {
  static_assert(sizeof(vec2<double>) == 2 * sizeof(double));
  const __m256d o = _mm256_set_pd(-v[0].y, -v[0].x, -v[0].y, -v[0].x);
  const __m256d w = _mm256_loadu_pd(&v[1].x);  // v1.x, v1.y, v2.x, v2.y
  const xy::cw4 d = xy::two_sum(w, o);  // (P_x, P_y, Q_x, Q_y)
  const xy::cw4 m1 = xy::mul(d, xy::cross_partners(d));  // (P_x Q_y, P_y Q_x, Q_x P_x, Q_y P_y)
  const xy::cw4 m2 = xy::mul(d, d);                        // (P_x^2, P_y^2, Q_x^2, Q_y^2)
  // add(x, y) on (c, pp, pq, qq): x = (P_x Q_y, P_x^2, Q_x P_x, Q_x^2),
  // y = (-(P_y Q_x), P_y^2, Q_y P_y, Q_y^2).
  const __m256d flip = _mm256_set_pd(0.0, 0.0, 0.0, -0.0);
  const xy::cw4 x = {_mm256_unpacklo_pd(m1.hi, m2.hi), _mm256_unpacklo_pd(m1.lo, m2.lo)};
  const xy::cw4 y = {_mm256_xor_pd(_mm256_unpackhi_pd(m1.hi, m2.hi), flip),
                     _mm256_xor_pd(_mm256_unpackhi_pd(m1.lo, m2.lo), flip)};
  const xy::cw4 r = xy::add(x, y);
  triangle_forms<double> f;
  f.c = {r.hi[0], r.lo[0]};
  f.pp = {r.hi[1], r.lo[1]};
  f.pq = {r.hi[2], r.lo[2]};
  f.qq = {r.hi[3], r.lo[3]};
  f.mc = std::abs(m1.hi[0]) + std::abs(m1.hi[1]);
  return f;
}

// D-MASS-36: triangle_centre_of<double, double, true> with x and y in the
// two lanes of one SSE register, triangle_centroid's operations per lane.
__attribute__((target("fma"))) inline triangle_centre<double> triangle_centre_xy(std::span<const vec2<double>> v) {
  constexpr double u = 0x1p-53;
  const __m128d a = _mm_loadu_pd(&v[0].x), b = _mm_loadu_pd(&v[1].x), c = _mm_loadu_pd(&v[2].x);
  const xy::cw2 s1 = xy::two_sum(a, b);
  const xy::cw2 s2 = xy::two_sum(s1.hi, c);
  const xy::cw2 t = xy::two_sum(s2.hi, s1.lo + s2.lo);
  const xy::cw2 q = xy::div3(t);
  const __m128d err = _mm_set1_pd(2 * (u * u)) * ((xy::abs(s1.hi) + xy::abs(s2.hi)) / 3 + 12 * xy::abs(q.hi)) +
                      _mm_set1_pd(0x1p-1000);
  triangle_centre<double> g;
  g.x = {q.hi[0], q.lo[0]};
  g.y = {q.hi[1], q.lo[1]};
  g.ex = err[0];
  g.ey = err[1];
  return g;
}
#endif

// D-MASS-26. Certifies the outputs it can (out.certified), true when all
// five are: same contract as try_polygon_mass_with, whose range checks ran.
template <class T, class W, bool F>
RIGIDREF_HOT bool try_triangle_mass(std::span<const vec2<T>> v, const T& amount, bool amount_is_density,
                                    rounded<T>& out) {
  using std::abs;
  constexpr W u = std::numeric_limits<W>::epsilon() / 2;
  constexpr W u2 = u * u;
  constexpr W tiny = W(0x1p-1000);  // as D-MASS-14
  const triangle_forms<W> f = [&] {
#if defined(RIGIDREF_MASS_FMA_DISPATCH)
    if constexpr (F && std::is_same_v<T, double>) return triangle_forms_xy(v);  // D-MASS-36
    else
#endif
      return triangle_forms_of<T, W, F>(v);
  }();
  // Twice the area: D-MASS-13's node c, (lambda, beta) = (4, 15).
  const W e_twice_area = 8 * 15 * u2 * f.mc;
  cw<W> a2 = normalise(f.c);
  if (!(abs(a2.hi) > 4 * e_twice_area)) return false;  // zero, or its sign uncertain
  if (a2.hi < 0) a2 = neg(a2);
  const cw<W> area{a2.hi / 2, a2.lo / 2};
  const W e_area = e_twice_area / 2;
  const W amt = W(amount);
  cw<W> mass{amt, 0};
  W e_mass = 0;
  if (amount_is_density) {  // as D-MASS-14
    mass = normalise_product(mul<W, F>(area, cw<W>{amt, 0}));
    e_mass = amt * e_area + 8 * u2 * amt * abs(area.hi);
  }
  // 18 per_area = |P|^2 + |Q|^2 - P.Q >= (|P|^2 + |Q|^2) / 2: no cancellation.
  const cw<W> sq = normalise(add(add(f.pp, f.qq), neg(f.pq)));
  const W e_sq = 512 * u2 * abs(sq.hi);
  const cw<W> msq = normalise_product(mul<W, F>(mass, sq));
  const W e_msq = e_mass * (2 * abs(sq.hi) + e_sq) + 2 * abs(mass.hi) * e_sq + 32 * u2 * abs(mass.hi) * abs(sq.hi);
  const cw<W> inertia = div_small<W, F>(msq, W(18));
  const W e_inertia = e_msq * (W(1) / 18 * W(1 + 0x1p-40)) + 12 * u2 * abs(inertia.hi);  // >= e_msq / 18
  const triangle_centre<W> g = [&] {
#if defined(RIGIDREF_MASS_FMA_DISPATCH)
    if constexpr (F && std::is_same_v<T, double>) return triangle_centre_xy(v);  // D-MASS-36
    else
#endif
      return triangle_centre_of<T, W, F>(v);
  }();
  const cw<W>&cx = g.x, &cy = g.y;
  const W e_cx = g.ex, e_cy = g.ey;
  // D-MASS-15, each bound doubled for its own rounding, plus tiny (the centroid's is final).
  if (certify<T, W, F>({area, cx, cy, mass, inertia},
                       {2 * e_area + tiny, e_cx, e_cy, 2 * e_mass + tiny, 2 * e_inertia + tiny}, out))
    return true;
  // D-MASS-18: a tied centroid coordinate decided by the side of the midpoint.
  if (!out.certified[1])
    out.certified[1] = triangle_centroid_by_midpoint<T, W, F>(v[0].x, v[1].x, v[2].x, cx, e_cx, out.centroid_x);
  if (!out.certified[2])
    out.certified[2] = triangle_centroid_by_midpoint<T, W, F>(v[0].y, v[1].y, v[2].y, cy, e_cy, out.centroid_y);
  return out.all();
}

}  // namespace rigidref::detail::mass_filter

#include "rigidref/detail/fp_end.hpp"
