// The certified fast path of a triangle's mass properties (n = 3,
// D-MASS-26): the triangle's own formulas, with no division by the area.
// The centroid is (a + b + c) / 3 per coordinate and the inertia
// mass (|P|^2 + |Q|^2 - P.Q) / 18 with P, Q the edges from v0; the area and
// mass are D-MASS-13..14's values. Every output goes through the rounding
// test of D-MASS-15 (a tied centroid through D-MASS-18), so a certified
// output is the correctly rounded exact value, as the general filter's.
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

// D-MASS-26. Certifies the outputs it can (out.certified), true when all
// five are: same contract as try_polygon_mass_with, whose range checks ran.
template <class T, class W, bool F>
RIGIDREF_HOT bool try_triangle_mass(std::span<const vec2<T>> v, const T& amount, bool amount_is_density,
                                    rounded<T>& out) {
  using std::abs;
  constexpr W u = std::numeric_limits<W>::epsilon() / 2;
  constexpr W u2 = u * u;
  constexpr W tiny = W(0x1p-1000);  // as D-MASS-14
  const W ox = W(v[0].x), oy = W(v[0].y);
  const cw<W> px = two_sum(W(v[1].x), W(-ox)), py = two_sum(W(v[1].y), W(-oy));  // P = v1 - v0, exact
  const cw<W> qx = two_sum(W(v[2].x), W(-ox)), qy = two_sum(W(v[2].y), W(-oy));  // Q = v2 - v0
  // Twice the area: D-MASS-13's node c, (lambda, beta) = (4, 15).
  const cw<W> c = add(mul<W, F>(px, qy), neg(mul<W, F>(py, qx)));
  const W e_twice_area = 8 * 15 * u2 * (abs(px.hi * qy.hi) + abs(py.hi * qx.hi));
  cw<W> a2 = normalise(c);
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
  const cw<W> pp = add(mul<W, F>(px, px), mul<W, F>(py, py));
  const cw<W> qq = add(mul<W, F>(qx, qx), mul<W, F>(qy, qy));
  const cw<W> pq = add(mul<W, F>(px, qx), mul<W, F>(py, qy));
  const cw<W> sq = normalise(add(add(pp, qq), neg(pq)));
  const W e_sq = 512 * u2 * abs(sq.hi);
  const cw<W> msq = normalise_product(mul<W, F>(mass, sq));
  const W e_msq = e_mass * (2 * abs(sq.hi) + e_sq) + 2 * abs(mass.hi) * e_sq + 32 * u2 * abs(mass.hi) * abs(sq.hi);
  const cw<W> inertia = div_small<W, F>(msq, W(18));
  const W e_inertia = e_msq * (W(1) / 18 * W(1 + 0x1p-40)) + 12 * u2 * abs(inertia.hi);  // >= e_msq / 18
  W e_cx, e_cy;
  const cw<W> cx = triangle_centroid<W, F>(W(v[0].x), W(v[1].x), W(v[2].x), e_cx);
  const cw<W> cy = triangle_centroid<W, F>(W(v[0].y), W(v[1].y), W(v[2].y), e_cy);
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
