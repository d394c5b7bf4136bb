// The values of epa_edge_values (D-EPA-9) for two polygons in double,
// semi-static: TwoProd heads with plain-double tails and compile-time bounds,
// one reciprocal of |n| instead of four double-word divisions, and each
// rounding accepted only with a margin that also proves epa_edge_values'
// own tests pass, so that answering here changes no field of any result.
// Included by epa_sat_lean.hpp. D-EPA-23
#pragma once

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

// epa_edge_values<double>(a, b, on_a, k, ia, ib, vertex_a, 0, 0, out) where
// this proves it answers, with its answer; false otherwise (the caller then
// runs epa_edge_values itself). Radii 0 only. D-EPA-23
RIGIDREF_FMA_CLONES inline bool edge_values(std::span<const vec2<double>> a, std::span<const vec2<double>> b, bool on_a,
                                            std::size_t k, std::size_t ia, std::size_t ib, bool vertex_a,
                                            epa_result<double>& out) {
  using std::abs;
  using DW = double_word<double>;
  const std::span<const vec2<double>> E = on_a ? a : b;
  const vec2<double>& e0 = E[k];
  const vec2<double>& e1 = E[k + 1 == E.size() ? 0 : k + 1];
  const vec2<double>& pa = a[ia];
  const vec2<double>& pb = b[ib];
  // (1) Range: coordinates within 2^200, nonzero differences at least 2^-200.
  if (!(std::max({abs(e0.x), abs(e0.y), abs(e1.x), abs(e1.y), abs(pa.x), abs(pa.y), abs(pb.x), abs(pb.y)}) <=
        0x1p200))
    return false;
  const exact_diff ex = diff(e1.x, e0.x), ey = diff(e1.y, e0.y);
  const exact_diff dx = diff(pa.x, pb.x), dy = diff(pa.y, pb.y);
  for (const double h : {ex.h, ey.h, dx.h, dy.h})
    if (h != 0 && !(abs(h) >= 0x1p-200)) return false;
  // n = (e.y, -e.x) on A's edge, (-e.y, e.x) on B's (D-EPA-9 (1)).
  const exact_diff nx = on_a ? ey : exact_diff{-ey.h, -ey.l};
  const exact_diff ny = on_a ? exact_diff{-ex.h, -ex.l} : ex;
  // (2) o = n . d and |n|^2 by form2 (D-GJK-22 (1)); P the heads' magnitudes.
  const double P = abs(nx.h * dx.h) + abs(ny.h * dy.h);
  const bounded o = form2(nx, ny, dx, dy, false);
  const bounded n2 = form2(nx, ny, nx, ny, false);
  const double rho_o = relative(o), rho_n2 = relative(n2);
  if (rho_o < 0 || rho_n2 < 0 || !(o.hi >= 0x1p-480)) return false;
  // epa_edge_values' own guard eo < o~ / 1024, from its bound (3).
  if (!((8.2 * u2 * P + 4.1 * u2 * o.hi) * up < o.hi * 0x1p-11)) return false;
  // (3) s = 1 / |n|, depth = o s, unit_i = n_i s, w_i = depth unit_i.
  const double rho_len = rho_n2 * 0.5 * 1.01 + 5 * u2;
  const DW len = sqrt(DW(n2.hi, n2.lo));
  const DW s = DW(1.0) / len;
  const double rho_s = (rho_len + 16 * u2) * 1.01;
  const DW depth = DW(o.hi, o.lo) * s;
  const double rho_d = (rho_o + rho_s + 5 * u2) * 1.01;
  // (4) epa_edge_values' bounds, from above: its error and its delta.
  const double po = (P / o.hi) * 1.01;
  const double delta_d = ((rho_d + (16.4 * po + 220) * u2) * abs(depth.hi)) * 1.01;
  if (!edge_rounds_to(depth, delta_d, out.depth)) return false;
  const double rho_u = (rho_s + 5 * u2) * 1.01;
  const double rho_w = (rho_d + rho_u + 5 * u2) * 1.01;
  const vec2<double>& v = vertex_a ? pa : pb;
  vec2<double> other;
  for (int i = 0; i < 2; ++i) {
    const exact_diff& ni = i == 0 ? nx : ny;
    const double vi = i == 0 ? v.x : v.y;
    double& nr = i == 0 ? out.normal.x : out.normal.y;
    double& pr = i == 0 ? other.x : other.y;
    if (ni.h == 0) {  // an exact zero: +0 for the normal, the vertex's coordinate
      nr = 0;
      pr = plus_zero(vi);
      continue;
    }
    const DW unit = DW(ni.h, ni.l) * s;
    if (!edge_rounds_to(unit, ((rho_u + 150 * u2) * abs(unit.hi)) * 1.01, nr)) return false;
    const DW w = depth * unit;
    if (!(abs(w.hi) >= 0x1p-890)) return false;  // epa_edge_values' in_range of w and of o / |n|^2
    const DW p = vertex_a ? DW(vi) - w : DW(vi) + w;
    if (!in_band(p.hi)) return false;
    const double ep = ((rho_w * abs(w.hi) + 4 * u2 * abs(p.hi)) * 1.01 +
                       2 * ((8.2 * po + 53) * u2 * abs(w.hi) + 4.1 * u2 * abs(p.hi))) *
                      1.01;
    if (!edge_rounds_to(p, ep, pr)) return false;
  }
  const vec2<double> vertex{plus_zero(v.x), plus_zero(v.y)};
  out.point_a = vertex_a ? vertex : other;
  out.point_b = vertex_a ? other : vertex;
  return true;
}

}  // namespace rigidref::detail::semi_static

#include "rigidref/detail/fp_end.hpp"
