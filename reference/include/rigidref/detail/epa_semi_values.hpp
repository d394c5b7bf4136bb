// The values of epa_edge_values (D-EPA-9) for two polygons in double,
// semi-static: TwoProd heads with plain-double tails and compile-time bounds,
// one reciprocal of |n| instead of four double-word divisions, and each
// rounding accepted only with a margin that also proves epa_edge_values'
// own tests pass, so that answering here changes no field of any result.
// Included by epa_sat_lean.hpp. D-EPA-23
#pragma once

#include "rigidref/detail/dw_lanes.hpp"
#include "rigidref/detail/semi_static.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail::semi_static {

// How often edge_values answered (proved) or handed over to epa_edge_values
// (refused), per thread: for tests.
inline counters& edge_values_stats() {
  static thread_local counters c;
  return c;
}
inline bool count_edge_values(bool proved) {
  ++(proved ? edge_values_stats().proved : edge_values_stats().refused);
  return proved;
}

// dw_rounds_to with the margin of D-EPA-23 (4): r = RN(y) proved with every
// real within `delta` of y, and (|y - r| + delta) (1 + 16u) (1 + 2^-40) below
// the half gap, so that the rounding test of epa_edge_values (rounding_filter::
// rounds_to) passes too for a value within `delta` of y, delta covering its
// own error and its own delta.
RIGIDREF_HOT bool edge_rounds_to(const double_word<double>& y, double delta, double& r) {
  using std::abs;
  r = y.hi + y.lo;
  if (!std::isfinite(r) || r == 0) return false;
  const double h = half_gap(r);
  const double d = (y.hi - r) + y.lo;  // y.hi - r exact (Sterbenz)
  return ((abs(d) + delta) * (1 + 16 * u)) * up < h;
}

// 1 / sqrt(N) of a double word N = hi + lo (hi > 0, normalised) within a
// relative rho_inv of 1 / sqrt(hi + lo): s0 = RN(1 / RN(sqrt(hi))), one Newton
// step s0 + s0 e / 2 on e = 1 - N s0^2 (s0^2 by TwoProd, N s0^2 a double-word
// product), as an unnormalised pair. One square root and one division on the
// chain instead of a double-word root and a double-word division. False when
// |e| > 2^-40. D-EPA-23 (3)
struct inv_sqrt {
  double hi = 0, lo = 0, rho = 0;
};
// inverse_sqrt from a given start s0 (any double: the bound holds for every
// s0 that passes the test on e; D-EPA-26).
RIGIDREF_HOT bool inverse_sqrt_from(double s0, double hi, double lo, inv_sqrt& out) {
  using std::abs;
  const double_word<double> sq = eft::two_prod(s0, s0);
  const double_word<double> q = double_word<double>(hi, lo) * sq;
  const double e = (1 - q.hi) - q.lo;  // 1 - q.hi exact (Sterbenz: |q - 1| < 2^-40)
  if (!(abs(e) <= 0x1p-40)) return false;
  const double c = (s0 * e) * 0.5;
  const double_word<double> s = eft::fast_two_sum(s0, c);
  out = {s.hi, s.lo, ((2.6 * u2 + u * abs(e) + 0.4 * (e * e)) * 1.01) * up};
  return true;
}
RIGIDREF_HOT bool inverse_sqrt(double hi, double lo, inv_sqrt& out) {
  return inverse_sqrt_from(1 / std::sqrt(hi), hi, lo, out);
}

// The start RN(1 / RN(sqrt(g))) for g = RN(RN(x^2) + RN(y^2)), x and y the
// heads of the differences whose squares make N: g is within a few ulps of
// N's hi and ready a few operations after the differences, so the root and
// the division run beside the forms of N instead of after them (D-EPA-26).
RIGIDREF_HOT double inverse_sqrt_guess(double x, double y) { return 1 / std::sqrt(x * x + y * y); }

// What edge_values computes before its per-coordinate steps (D-EPA-23 (1)-(4)
// up to the depth), for the two copies of those steps below.
struct edge_head {
  exact_diff nx, ny;
  double_word<double> s, depth;
  double rho_u = 0, rho_w = 0, po = 0;
};

// edge_values' range checks, forms, reciprocal and depth (out.depth set);
// false where edge_values refuses. D-EPA-23
RIGIDREF_HOT bool edge_values_head(std::span<const vec2<double>> a, std::span<const vec2<double>> b, bool on_a,
                                   std::size_t k, std::size_t ia, std::size_t ib, epa_result<double>& out,
                                   edge_head& h) {
  using std::abs;
  using DW = double_word<double>;
  const std::span<const vec2<double>> E = on_a ? a : b;
  const vec2<double>& e0 = E[k];
  const vec2<double>& e1 = E[k + 1 == E.size() ? 0 : k + 1];
  const vec2<double>& pa = a[ia];
  const vec2<double>& pb = b[ib];
  // |n|^2 = |e|^2: the start of 1 / |n| first, its root and division beside
  // the checks and forms below (D-EPA-26).
  const double s0 = issued_here(inverse_sqrt_guess(e1.x - e0.x, e1.y - e0.y));
  // (1) Range: coordinates within 2^200, nonzero differences at least 2^-200.
  if (!(std::max({abs(e0.x), abs(e0.y), abs(e1.x), abs(e1.y), abs(pa.x), abs(pa.y), abs(pb.x), abs(pb.y)}) <=
        0x1p200))
    return false;
  const exact_diff ex = diff(e1.x, e0.x), ey = diff(e1.y, e0.y);
  const exact_diff dx = diff(pa.x, pb.x), dy = diff(pa.y, pb.y);
  for (const double d : {ex.h, ey.h, dx.h, dy.h})
    if (d != 0 && !(abs(d) >= 0x1p-200)) return false;
  // n = (e.y, -e.x) on A's edge, (-e.y, e.x) on B's (D-EPA-9 (1)).
  h.nx = on_a ? ey : exact_diff{-ey.h, -ey.l};
  h.ny = on_a ? exact_diff{-ex.h, -ex.l} : ex;
  const exact_diff &nx = h.nx, &ny = h.ny;
  // (2) o = n . d and |n|^2 by form2 (D-GJK-22 (1)); P the heads' magnitudes.
  const double P = abs(nx.h * dx.h) + abs(ny.h * dy.h);
  const bounded o = form2(nx, ny, dx, dy, false);
  const bounded n2 = form2(nx, ny, nx, ny, false);
  const double rho_o = relative(o), rho_n2 = relative(n2);
  if (rho_o < 0 || rho_n2 < 0 || !(o.hi >= 0x1p-480)) return false;
  // epa_edge_values' own guard eo < o~ / 1024, from its bound (3).
  if (!((8.2 * u2 * P + 4.1 * u2 * o.hi) * up < o.hi * 0x1p-11)) return false;
  // (3) s = 1 / |n|, depth = o s, unit_i = n_i s, w_i = depth unit_i.
  inv_sqrt is;
  if (!inverse_sqrt_from(s0, n2.hi, n2.lo, is)) return false;  // D-EPA-26
  h.s = DW(is.hi, is.lo);
  const double rho_s = (rho_n2 * 0.5 * 1.01 + is.rho) * 1.01;
  h.depth = DW(o.hi, o.lo) * h.s;
  const double rho_d = (rho_o + rho_s + 5 * u2) * 1.01;
  // (4) epa_edge_values' bounds, from above: its error and its delta.
  h.po = (P / o.hi) * 1.01;
  const double delta_d = ((rho_d + (16.4 * h.po + 220) * u2) * abs(h.depth.hi)) * 1.01;
  if (!edge_rounds_to(h.depth, delta_d, out.depth)) return false;
  h.rho_u = (rho_s + 5 * u2) * 1.01;
  h.rho_w = (rho_d + h.rho_u + 5 * u2) * 1.01;
  return true;
}

// edge_values' last step: the vertex and the point on the other polygon.
RIGIDREF_HOT void edge_values_points(std::span<const vec2<double>> a, std::span<const vec2<double>> b,
                                     std::size_t ia, std::size_t ib, bool vertex_a, const vec2<double>& other,
                                     epa_result<double>& out) {
  const vec2<double>& v = vertex_a ? a[ia] : b[ib];
  const vec2<double> vertex{plus_zero(v.x), plus_zero(v.y)};
  out.point_a = vertex_a ? vertex : other;
  out.point_b = vertex_a ? other : vertex;
}

// epa_edge_values<double>(a, b, on_a, k, ia, ib, vertex_a, 0, 0, out) where
// this proves it answers, with its answer; false otherwise (the caller then
// runs epa_edge_values itself). Radii 0 only. The coordinates one at a time:
// the copy for processors without FMA (edge_values picks the lanes where it
// has it, so an FMA clone of this one would never run). D-EPA-23
inline bool edge_values_scalar(std::span<const vec2<double>> a, std::span<const vec2<double>> b, bool on_a,
                               std::size_t k, std::size_t ia, std::size_t ib, bool vertex_a, epa_result<double>& out) {
  using std::abs;
  using DW = double_word<double>;
  edge_head h;
  if (!edge_values_head(a, b, on_a, k, ia, ib, out, h)) return false;
  const vec2<double>& v = vertex_a ? a[ia] : b[ib];
  vec2<double> other;
  for (int i = 0; i < 2; ++i) {
    const exact_diff& ni = i == 0 ? h.nx : h.ny;
    const double vi = i == 0 ? v.x : v.y;
    double& nr = i == 0 ? out.normal.x : out.normal.y;
    double& pr = i == 0 ? other.x : other.y;
    if (ni.h == 0) {  // an exact zero: +0 for the normal, the vertex's coordinate
      nr = 0;
      pr = plus_zero(vi);
      continue;
    }
    const DW unit = DW(ni.h, ni.l) * h.s;
    if (!edge_rounds_to(unit, ((h.rho_u + 150 * u2) * abs(unit.hi)) * 1.01, nr)) return false;
    const DW w = h.depth * unit;
    if (!(abs(w.hi) >= 0x1p-890)) return false;  // epa_edge_values' in_range of w and of o / |n|^2
    const DW p = vertex_a ? DW(vi) - w : DW(vi) + w;
    if (!in_band(p.hi)) return false;
    const double ep = ((h.rho_w * abs(w.hi) + 4 * u2 * abs(p.hi)) * 1.01 +
                       2 * ((8.2 * h.po + 53) * u2 * abs(w.hi) + 4.1 * u2 * abs(p.hi))) *
                      1.01;
    if (!edge_rounds_to(p, ep, pr)) return false;
  }
  edge_values_points(a, b, ia, ib, vertex_a, other, out);
  return true;
}

#if defined(RIGIDREF_DW_LANES)
// edge_values_scalar with the two coordinates in the lanes of one register
// (detail/dw_lanes.hpp), each lane the scalar loop's operations, a zero
// coordinate of n exempt from the lane's tests as the loop skips it: the
// same verdict and values. For processors with FMA. D-EPA-28
__attribute__((target("fma"), noinline, flatten)) inline bool edge_values_lanes(
    std::span<const vec2<double>> a, std::span<const vec2<double>> b, bool on_a, std::size_t k, std::size_t ia,
    std::size_t ib, bool vertex_a, epa_result<double>& out) {
  namespace L = dw_lanes;
  using L::dw2, L::v2d, L::v2m, L::splat, L::vabs;
  edge_head h;
  if (!edge_values_head(a, b, on_a, k, ia, ib, out, h)) return false;
  const vec2<double>& v = vertex_a ? a[ia] : b[ib];
  const v2d nh = {h.nx.h, h.ny.h}, vv = {v.x, v.y};
  const v2m zero = nh == splat(0);
  const dw2 unit = L::mul(dw2{nh, v2d{h.nx.l, h.ny.l}}, dw2{splat(h.s.hi), splat(h.s.lo)});
  v2d nr, pr;
  v2m ok = L::edge_rounds_to(unit, (splat(h.rho_u + 150 * u2) * vabs(unit.hi)) * 1.01, nr);
  const dw2 w = L::mul(dw2{splat(h.depth.hi), splat(h.depth.lo)}, unit);
  ok &= vabs(w.hi) >= 0x1p-890;
  const dw2 p = L::add(dw2{vv, splat(0)}, vertex_a ? dw2{-w.hi, -w.lo} : w);  // DW(vi) -+ w
  ok &= L::in_band(p.hi);
  const v2d aw = vabs(w.hi), ap = vabs(p.hi);
  const v2d ep = ((h.rho_w * aw + 4 * u2 * ap) * 1.01 + 2 * (((8.2 * h.po + 53) * u2) * aw + 4.1 * u2 * ap)) * 1.01;
  ok &= L::edge_rounds_to(p, ep, pr);
  ok |= zero;
  if (!(ok[0] & ok[1])) return false;
  // A zero coordinate: +0 for the normal, the vertex's coordinate (+0 for -0).
  const v2d plus = (v2d)((v2m)vv & ~(vv == splat(0)));
  nr = (v2d)((v2m)nr & ~zero);
  pr = (v2d)(((v2m)pr & ~zero) | ((v2m)plus & zero));
  out.normal = {nr[0], nr[1]};
  edge_values_points(a, b, ia, ib, vertex_a, vec2<double>{pr[0], pr[1]}, out);
  return true;
}
#endif

// edge_values_scalar, or its lanes where the processor has FMA (the same
// answer either way). D-EPA-23, D-EPA-28
inline bool edge_values(std::span<const vec2<double>> a, std::span<const vec2<double>> b, bool on_a, std::size_t k,
                        std::size_t ia, std::size_t ib, bool vertex_a, epa_result<double>& out) {
#if defined(RIGIDREF_DW_LANES)
  if (dw_lanes::available()) return edge_values_lanes(a, b, on_a, k, ia, ib, vertex_a, out);
#endif
  return edge_values_scalar(a, b, on_a, k, ia, ib, vertex_a, out);
}

// ---- separated polygons: distance, points and normal with one reciprocal ----

// distance_from_core's distance and closest points and the unit normal of
// penetration_from_core for two polygons (radii 0) certified apart with
// closest features fa, fb: the exact path's bits when true. The values of
// separated_polygon_values and separated_polygon_normal (D-GJK-23, D-EPA-14)
// from s = 1 / |N| (inverse_sqrt): the distance and the normal by products,
// the point on an edge from (w . e) s and e s. D-EPA-24
// The unit vector's coordinate q = (X or Y) s rounded, rho its relative
// error; an exact zero gives +0. The exact path's own error 64 u^2 (D-GJK-16).
RIGIDREF_HOT bool round_unit(const double_word<double>& q, double rho, double& out) {
  using std::abs;
  if (q.hi == 0) {
    out = 0;
    return true;
  }
  return in_band(q.hi) && dw_rounds_to(q, ((rho + exact_path_rel) * abs(q.hi) * 1.01) * up, out);
}

// separated_values_normal's steps before the unit vector (D-EPA-24): for two
// vertices (fa, fb both vertices) the forms, s = 1 / |N| and the distance;
// for a vertex and an edge the same from the edge's forms. False where
// separated_values_normal refuses.
struct separated_head {
  vertex_pair_forms vv;
  vertex_edge_forms ve;
  double_word<double> s;
  double rho_s = 0;
};
RIGIDREF_HOT bool separated_values_head(std::span<const vec2<double>> a, std::span<const vec2<double>> b,
                                        const feature& fa, const feature& fb, double& distance, separated_head& h) {
  using std::abs;
  using DW = double_word<double>;
  inv_sqrt is;
  if (!fa.edge && !fb.edge) {
    vertex_pair_forms& f = h.vv;  // shared with GJK's values (D-GJK-23)
    if (!vertex_pair_setup(a, b, fa, fb, f) ||
        !inverse_sqrt_from(inverse_sqrt_guess(f.dx.h, f.dy.h), f.s2.hi, f.s2.lo, is))  // D-EPA-26
      return false;
    h.s = DW(is.hi, is.lo);
    h.rho_s = (f.rho2 * 0.5 * 1.01 + is.rho) * 1.01;
    // d = |N|^2 s: the relative errors of both and 5 u^2 for the product (D-EFT-4).
    const DW d = DW(f.s2.hi, f.s2.lo) * h.s;
    if (!in_band(d.hi) || !in_band(h.s.hi)) return false;
    return dw_rounds_to(d, ((f.rho2 + h.rho_s + 5 * u2 + exact_path_rel) * abs(d.hi) * 1.01) * up, distance);
  }
  // A vertex v of one polygon and the open edge (p0, p1) of the other.
  vertex_edge_forms& f = h.ve;  // shared with GJK's values (D-GJK-23)
  if (!vertex_edge_setup(a, b, fa, fb, f)) return false;
  if (!inverse_sqrt_from(inverse_sqrt_guess(f.ex.h, f.ey.h), f.len2.hi, f.len2.lo, is)) return false;  // D-EPA-26
  h.s = DW(is.hi, is.lo);
  h.rho_s = (f.rho_len2 * 0.5 * 1.01 + is.rho) * 1.01;
  if (!in_band(h.s.hi)) return false;
  // d = |cross(e, w)| s.
  const DW d = abs(DW(f.cr.hi, f.cr.lo)) * h.s;
  if (!in_band(d.hi)) return false;
  return dw_rounds_to(d, ((f.rho_cr + h.rho_s + 5 * u2 + exact_path_rel) * abs(d.hi) * 1.01) * up, distance);
}

// distance_from_core's distance and closest points and the unit normal of
// penetration_from_core for two polygons (radii 0) certified apart with
// closest features fa, fb: the exact path's bits when true, the coordinates
// one at a time: the copy for processors without FMA (as edge_values_scalar).
// D-EPA-24
inline bool separated_values_scalar(std::span<const vec2<double>> a, std::span<const vec2<double>> b,
                                    const feature& fa, const feature& fb, double& distance, vec2<double>& pa,
                                    vec2<double>& pb, vec2<double>& normal) {
  using std::abs;
  using DW = double_word<double>;
  separated_head h;
  if (!separated_values_head(a, b, fa, fb, distance, h)) return false;
  const DW& s = h.s;
  const double rho_u = (h.rho_s + 5 * u2) * 1.01;
  if (!fa.edge && !fb.edge) {
    const vertex_pair_forms& f = h.vv;
    if (!round_unit(DW(f.dx.h, f.dx.l) * s, rho_u, normal.x) || !round_unit(DW(f.dy.h, f.dy.l) * s, rho_u, normal.y))
      return false;
    pa = {plus_zero(f.p.x), plus_zero(f.p.y)};
    pb = {plus_zero(f.q.x), plus_zero(f.q.y)};
    return true;
  }
  const vertex_edge_forms& f = h.ve;
  // e s, the unit edge vector: the normal is sign (e.y, -e.x) s with the sign
  // of cross(e, w) (proved by rho_cr), and the point on the edge is
  // p0 + ((w . e) s) (e s).
  const DW ux = DW(f.ex.h, f.ex.l) * s, uy = DW(f.ey.h, f.ey.l) * s;
  const bool pos = (f.cr.hi > 0) == f.edge_on_b;
  if (!round_unit(pos ? uy : -uy, rho_u, normal.x) || !round_unit(pos ? -ux : ux, rho_u, normal.y)) return false;
  const DW tau = DW(f.num.hi, f.num.lo) * s;
  const double rho_w = (f.rho_num + h.rho_s + rho_u + 10 * u2) * 1.01;
  vec2<double> on_edge;
  for (int i = 0; i < 2; ++i) {
    const exact_diff& ei = i == 0 ? f.ex : f.ey;
    const double p0i = i == 0 ? f.p0.x : f.p0.y;
    double& out = i == 0 ? on_edge.x : on_edge.y;
    if (ei.h == 0) {  // an axis-parallel edge: the coordinate is p0's, exactly
      out = plus_zero(p0i);
      continue;
    }
    // w = tau (e_i s), DW x DW within 5 u^2; p0_i + w within 3 u^2 / (1 - 4u) of the sum.
    const DW w = tau * (i == 0 ? ux : uy);
    const DW c = DW(p0i) + w;
    if (!in_band(w.hi) || !in_band(c.hi)) return false;
    if (!dw_rounds_to(c, (((rho_w)*abs(w.hi) + 4 * u2 * abs(c.hi)) * 1.01) * up, out)) return false;
  }
  const vec2<double> vertex{plus_zero(f.v.x), plus_zero(f.v.y)};
  pa = f.edge_on_b ? vertex : on_edge;
  pb = f.edge_on_b ? on_edge : vertex;
  return true;
}

#if defined(RIGIDREF_DW_LANES)
// round_unit per lane: an exact zero head gives +0 and passes.
__attribute__((target("fma"), always_inline)) inline dw_lanes::v2m round_unit_lanes(const dw_lanes::dw2& q,
                                                                                   double rho, dw_lanes::v2d& out) {
  namespace L = dw_lanes;
  const L::v2m zero = q.hi == L::splat(0);
  const L::v2m ok = L::in_band(q.hi) &
                    L::rounds_to(q, (((rho + exact_path_rel) * L::vabs(q.hi)) * 1.01) * up, out);
  out = (L::v2d)((L::v2m)out & ~zero);
  return ok | zero;
}

// separated_values_scalar with the two coordinates of the unit vector and
// of the point on the edge in the lanes of one register (detail/dw_lanes.hpp),
// each lane the scalar operations, an axis-parallel edge's zero coordinate
// exempt as the loop skips it: the same verdict and values. D-EPA-29
__attribute__((target("fma"), noinline, flatten)) inline bool separated_values_lanes(
    std::span<const vec2<double>> a, std::span<const vec2<double>> b, const feature& fa, const feature& fb,
    double& distance, vec2<double>& pa, vec2<double>& pb, vec2<double>& normal) {
  namespace L = dw_lanes;
  using L::dw2, L::v2d, L::v2m, L::splat;
  separated_head h;
  if (!separated_values_head(a, b, fa, fb, distance, h)) return false;
  const dw2 s = {splat(h.s.hi), splat(h.s.lo)};
  const double rho_u = (h.rho_s + 5 * u2) * 1.01;
  v2d nr;
  if (!fa.edge && !fb.edge) {
    const vertex_pair_forms& f = h.vv;
    const v2m ok = round_unit_lanes(L::mul(dw2{v2d{f.dx.h, f.dy.h}, v2d{f.dx.l, f.dy.l}}, s), rho_u, nr);
    if (!(ok[0] & ok[1])) return false;
    normal = {nr[0], nr[1]};
    pa = {plus_zero(f.p.x), plus_zero(f.p.y)};
    pb = {plus_zero(f.q.x), plus_zero(f.q.y)};
    return true;
  }
  const vertex_edge_forms& f = h.ve;
  const dw2 u = L::mul(dw2{v2d{f.ex.h, f.ey.h}, v2d{f.ex.l, f.ey.l}}, s);  // (ux, uy)
  // The normal (+-uy, -+ux): the lanes swapped, their signs flipped exactly.
  const bool pos = (f.cr.hi > 0) == f.edge_on_b;
  const v2d sign = pos ? v2d{1, -1} : v2d{-1, 1};
  const dw2 nq = {v2d{u.hi[1], u.hi[0]} * sign, v2d{u.lo[1], u.lo[0]} * sign};
  v2m ok = round_unit_lanes(nq, rho_u, nr);
  const double_word<double> tau = double_word<double>(f.num.hi, f.num.lo) * h.s;
  const double rho_w = (f.rho_num + h.rho_s + rho_u + 10 * u2) * 1.01;
  const v2d p0 = {f.p0.x, f.p0.y};
  const v2m flat = v2d{f.ex.h, f.ey.h} == splat(0);  // an axis-parallel edge's zero coordinate
  const dw2 w = L::mul(dw2{splat(tau.hi), splat(tau.lo)}, u);
  const dw2 c = L::add(dw2{p0, splat(0)}, w);
  v2d on;
  ok &= (L::in_band(w.hi) & L::in_band(c.hi) &
         L::rounds_to(c, (((rho_w * L::vabs(w.hi)) + 4 * u2 * L::vabs(c.hi)) * 1.01) * up, on)) |
        flat;
  if (!(ok[0] & ok[1])) return false;
  const v2d p0_plus = (v2d)((v2m)p0 & ~(p0 == splat(0)));  // plus_zero
  on = (v2d)(((v2m)on & ~flat) | ((v2m)p0_plus & flat));
  normal = {nr[0], nr[1]};
  const vec2<double> on_edge{on[0], on[1]};
  const vec2<double> vertex{plus_zero(f.v.x), plus_zero(f.v.y)};
  pa = f.edge_on_b ? vertex : on_edge;
  pb = f.edge_on_b ? on_edge : vertex;
  return true;
}
#endif

// separated_values_scalar, or its lanes where the processor has FMA (the
// same answer either way). D-EPA-24, D-EPA-29
inline bool separated_values_normal(std::span<const vec2<double>> a, std::span<const vec2<double>> b,
                                    const feature& fa, const feature& fb, double& distance, vec2<double>& pa,
                                    vec2<double>& pb, vec2<double>& normal) {
#if defined(RIGIDREF_DW_LANES)
  if (dw_lanes::available()) return separated_values_lanes(a, b, fa, fb, distance, pa, pb, normal);
#endif
  return separated_values_scalar(a, b, fa, fb, distance, pa, pb, normal);
}

}  // namespace rigidref::detail::semi_static

#include "rigidref/detail/fp_end.hpp"
