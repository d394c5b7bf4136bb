// The values of a query rounded from double words, without rationals, when
// the rounding filter proves them (D-GJK-16, D-GJK-18): the fast path of
// distance_from_core (detail/gjk_values.hpp) and of EPA's separated case.
#pragma once

#include "rigidref/detail/collision_common.hpp"
#include "rigidref/detail/rounding_filter.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// ---- separated cores, without rationals (D-GJK-16, D-GJK-18) --------------------
//
// Polygons, and circles as their centre (a one-point core) and a radius
// (D-GJK-9). When the cores are certified apart with closest features fa, fb,
// every value the exact path rounds (distance_from_core, penetration_from_core)
// is one of: the core distance d = |q - p| against r = ra + rb, d - ra - rb,
// ra + rb - d, the unit vector u = (q - p) / d, a centre offset by a radius
// along u, a closest point of a polygon, or the common point of D-GJK-9.
// Each is evaluated here in
// double words with a bound on its own error; the bound of the exact path's own
// double-word error is added, and the T value is used when rounds_to proves it
// (D-GJK-16). Anything not proved (d within the bounds of r, a rounding near a
// midpoint) returns false and the exact path runs.
template <class T>
struct separated_values {
  bool apart = false;       // d > ra + rb, proved
  T distance{0}, depth{0};  // d - ra - rb when apart, ra + rb - d when not
  vec2<T> point_a{}, point_b{}, normal{}, common{};
};

// A closest point of a core: a T vertex (exact) or a point on an edge, in
// double words with an error bound per coordinate.
template <class T>
struct dw_point {
  using W = typename rounding_filter<T>::W;
  using DW = typename rounding_filter<T>::DW;
  vec2<T> v{};  // the coordinates that are T values (both for a vertex)
  DW x, y;      // the others, in double words with errors ex, ey
  W ex = 0, ey = 0;
  bool exact_x = true, exact_y = true;  // a point on an axis-parallel edge keeps one
  bool exact_at(int i) const { return i == 0 ? exact_x : exact_y; }
  T value(int i) const { return i == 0 ? v.x : v.y; }
  DW coord(int i) const { return exact_at(i) ? DW(W(value(i))) : (i == 0 ? x : y); }
  W coord_error(int i) const { return exact_at(i) ? W(0) : (i == 0 ? ex : ey); }
};

// Two cores certified apart with closest features fa, fb, measured in double
// words: the closest points P (on A's core) and Q (on B's), the core distance
// d with its error bound e_d, the unnormalised direction (nx, ny) from P to Q
// with its length, and whether d > ra + rb is proved (`apart`).
template <class T>
struct separated_cores {
  using W = typename rounding_filter<T>::W;
  using DW = typename rounding_filter<T>::DW;
  dw_point<T> P, Q;
  DW d;
  W e_d = 0;
  DW nx, ny, nlen;  // u = (nx / nlen, ny / nlen)
  DW ux, uy;        // set by unit_direction
  DW r;             // ra + rb, exact as a double word
  bool apart = false;
  static constexpr W rho_u = 40 * rounding_filter<T>::u2;  // own relative error of u (D-GJK-16)
};

// The core distance and closest points; false when a bound is not proved
// (the d against ra + rb decision included).
template <class T>
bool measure_separated_cores(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const feature& fa,
                             const feature& fb, const T& ra, const T& rb, separated_cores<T>& g) {
  using R = rounding_filter<T>;
  using W = typename R::W;
  using DW = typename R::DW;
  using std::abs;
  const W u2 = R::u2;
  if (!fa.edge && !fb.edge) {
    g.P.v = a[fa.i];
    g.Q.v = b[fb.i];
    const DW dx = R::diff(g.Q.v.x, g.P.v.x), dy = R::diff(g.Q.v.y, g.P.v.y);
    const DW s2 = dx * dx + dy * dy;
    g.d = sqrt(s2);
    if (!R::in_range(dx) || !R::in_range(dy) || !R::in_range(s2) || !R::in_range(g.d) || !(g.d.hi > 0)) return false;
    g.e_d = 16 * u2 * abs(g.d.hi) * R::rel;
    g.nx = dx;
    g.ny = dy;
    g.nlen = g.d;
  } else {
    // A vertex v of one core and the interior of the edge (p0, p1) of the
    // other (a polygon, whose radius is 0).
    const bool edge_on_b = fb.edge;
    const std::span<const vec2<T>> E = edge_on_b ? b : a;
    const std::size_t e0 = edge_on_b ? fb.i : fa.i;
    const vec2<T>& p0 = E[e0];
    const vec2<T>& p1 = E[(e0 + 1) % E.size()];
    const vec2<T>& v = edge_on_b ? a[fa.i] : b[fb.i];
    const DW ex = R::diff(p1.x, p0.x), ey = R::diff(p1.y, p0.y);
    const DW wx = R::diff(v.x, p0.x), wy = R::diff(v.y, p0.y);
    const DW c1 = ex * wy, c2 = ey * wx;
    const DW cr = c1 - c2;  // cross(e, w)
    const W ecr = (8 * u2 * (abs(c1.hi) + abs(c2.hi)) + 4 * u2 * abs(cr.hi)) * R::up;
    const DW m1 = wx * ex, m2 = wy * ey;
    const DW num = m1 + m2;  // w . e
    const W enum_ = (8 * u2 * (abs(m1.hi) + abs(m2.hi)) + 4 * u2 * abs(num.hi)) * R::up;
    const DW len2 = ex * ex + ey * ey;
    const DW len = sqrt(len2);
    for (const DW* x : std::initializer_list<const DW*>{&ex, &ey, &wx, &wy, &c1, &c2, &cr, &m1, &m2, &num, &len2, &len})
      if (!R::in_range(*x)) return false;
    if (!(abs(cr.hi) > 1024 * ecr) || !(num.hi > 1024 * enum_)) return false;
    const W rho_cr = (ecr / abs(cr.hi)) * R::rel, rho_num = (enum_ / num.hi) * R::rel;
    g.d = abs(cr) / len;
    if (!R::in_range(g.d)) return false;
    g.e_d = ((rho_cr + 40 * u2) * abs(g.d.hi)) * R::rel;
    // u = sign(cross) (e.y, -e.x) / |e| for a vertex of A, sign(cross) (-e.y, e.x) / |e| for a vertex of B.
    const bool pos = (cr.hi > 0) == edge_on_b;
    g.nx = pos ? ey : -ey;
    g.ny = pos ? -ex : ex;
    g.nlen = len;
    // The point on the edge, p0 + (num / |e|^2) e.
    dw_point<T> on_edge;
    on_edge.exact_x = on_edge.exact_y = false;
    const DW t = num / len2;
    if (!R::in_range(t)) return false;
    const W rho_t = rho_num + 40 * u2;
    for (int i = 0; i < 2; ++i) {
      const DW& ei = i == 0 ? ex : ey;
      const T p0i = i == 0 ? p0.x : p0.y;
      DW& c = i == 0 ? on_edge.x : on_edge.y;
      W& ec = i == 0 ? on_edge.ex : on_edge.ey;
      if (R::is_zero(ei)) {  // the coordinate is p0's, exactly
        (i == 0 ? on_edge.exact_x : on_edge.exact_y) = true;
        (i == 0 ? on_edge.v.x : on_edge.v.y) = p0i;
        continue;
      }
      const DW w = t * ei;
      c = DW(W(p0i)) + w;
      if (!R::in_range(w) || (!R::is_zero(c) && !R::in_range(c))) return false;
      ec = ((rho_t + 8 * u2) * abs(w.hi) * R::rel + 4 * u2 * abs(c.hi)) * R::rel;
    }
    dw_point<T> vertex;
    vertex.v = v;
    g.P = edge_on_b ? vertex : on_edge;
    g.Q = edge_on_b ? on_edge : vertex;
  }
  // d against r = ra + rb (exact as a double word): the exact path decides
  // d^2 > r^2 exactly; a gap larger than d's error bound proves the same sign.
  g.r = eft::two_sum(W(ra), W(rb));
  const DW gap = g.d - g.r;
  if (!R::in_range(gap) || !(abs(gap.hi) > (g.e_d + 4 * u2 * abs(gap.hi)) * R::rel)) return false;
  g.apart = gap.hi > 0;
  return true;
}

// u = (q - p) / d, needed for a normal or a radius offset only.
template <class T>
bool unit_direction(separated_cores<T>& g) {
  using R = rounding_filter<T>;
  using W = typename R::W;
  using DW = typename R::DW;
  g.ux = R::is_zero(g.nx) ? DW(W(0)) : DW(g.nx / g.nlen);
  g.uy = R::is_zero(g.ny) ? DW(W(0)) : DW(g.ny / g.nlen);
  for (const DW* x : {&g.ux, &g.uy})
    if (!R::is_zero(*x) && !R::in_range(*x)) return false;
  return true;
}

template <class T>
T plus_zero(const T& x) {
  return x == 0 ? T(0) : x;  // round_to gives +0 for 0
}

// offset_rounded(X, q - p, s), coordinate i: round_vec(X) when s == 0 (a
// correct rounding); otherwise X is a centre and the exact path evaluates
// X_i + (s / |n|) n_i in double words, within 64 u^2 |s u_i| + 8 u^2 |result|.
// A nonzero s needs unit_direction.
template <class T>
bool offset_coordinate(const separated_cores<T>& g, const dw_point<T>& X, int i, const T& sv, T& out_r) {
  using R = rounding_filter<T>;
  using W = typename R::W;
  using DW = typename R::DW;
  const DW& ui = i == 0 ? g.ux : g.uy;
  if (sv == 0) {
    if (X.exact_at(i)) {
      out_r = plus_zero(X.value(i));
      return true;
    }
    const DW x = X.coord(i);
    if (R::is_zero(x)) return false;
    return R::rounds_to(x, X.coord_error(i), out_r);
  }
  if (!X.exact_x || !X.exact_y) return false;  // a radius is on a circle's side: X is its centre
  const T xi = X.value(i);
  if (R::is_zero(ui)) {  // n_i = 0 exactly: the exact path adds an exact zero
    out_r = plus_zero(xi);
    return true;
  }
  return R::offset_rounds_to(DW(W(xi)), W(0), W(0), ui, g.rho_u, sv, out_r);
}

// The closest points offset by the radii: P + ra u on A, Q - rb u on B.
template <class T>
bool round_points(const separated_cores<T>& g, const T& ra, const T& rb, vec2<T>& point_a, vec2<T>& point_b) {
  const T neg_rb = -rb;
  for (int i = 0; i < 2; ++i) {
    if (!offset_coordinate(g, g.P, i, ra, i == 0 ? point_a.x : point_a.y)) return false;
    if (!offset_coordinate(g, g.Q, i, neg_rb, i == 0 ? point_b.x : point_b.y)) return false;
  }
  return true;
}

// sqrt(d^2) - ra - rb (apart), left to right as the exact path; its own error
// is 6 u^2 d (D-GJK-16) plus 3 u^2 per subtraction (none without radii).
template <class T>
bool round_distance(const separated_cores<T>& g, const T& ra, const T& rb, T& distance) {
  using R = rounding_filter<T>;
  using W = typename R::W;
  using DW = typename R::DW;
  using std::abs;
  const W u2 = R::u2;
  const bool radii = ra != 0 || rb != 0;
  const DW t1 = g.d - DW(W(ra));
  const DW y = t1 - DW(W(rb));
  if (!R::in_range(y) || (!R::is_zero(t1) && !R::in_range(t1))) return false;
  const W sums = radii ? W(abs(t1.hi) + abs(y.hi)) : W(0);
  const W delta = g.e_d + 4 * u2 * sums;
  const W m = 64 * u2 * abs(g.d.hi) + 8 * u2 * sums;
  return R::rounds_to(y, (delta + m) * R::rel, distance);
}

// (ra + rb) - d (not apart): the sum is exact.
template <class T>
bool round_depth(const separated_cores<T>& g, T& depth) {
  using R = rounding_filter<T>;
  using W = typename R::W;
  using DW = typename R::DW;
  using std::abs;
  const W u2 = R::u2;
  const DW y = g.r - g.d;
  if (!R::in_range(y)) return false;
  const W delta = g.e_d + 4 * u2 * abs(y.hi);
  const W m = 64 * u2 * abs(g.d.hi) + 8 * u2 * abs(y.hi);
  return R::rounds_to(y, (delta + m) * R::rel, depth);
}

// The common point p + t (q - p) of cores not apart, t = ra / d when the
// exact path's double-word d exceeds ra, else 1 (D-GJK-9): the branch is
// proved first. A nonzero ra needs unit_direction.
template <class T>
bool round_common(const separated_cores<T>& g, const T& ra, vec2<T>& common) {
  using R = rounding_filter<T>;
  using W = typename R::W;
  using DW = typename R::DW;
  using std::abs;
  const W u2 = R::u2;
  const DW dr = g.d - DW(W(ra));
  if (!R::is_zero(dr) && !R::in_range(dr)) return false;
  if (!(abs(dr.hi) > (g.e_d + 64 * u2 * abs(g.d.hi) + 4 * u2 * abs(dr.hi)) * R::rel)) return false;
  const bool toward = dr.hi > 0;  // ra < d
  for (int i = 0; i < 2; ++i) {
    T& rc = i == 0 ? common.x : common.y;
    if (toward && ra != 0) {
      if (!offset_coordinate(g, g.P, i, ra, rc)) return false;  // p + ra u, the same expression
      continue;
    }
    // t = 0 (ra == 0): from_exact(p_i) rounded; t = 1: from_exact(p_i) +
    // from_exact(q_i - p_i), which is q_i within 2 u^2 (|p_i| + |q_i - p_i|) + 4 u^2 |q_i|.
    const dw_point<T>& X = toward ? g.P : g.Q;
    if (toward && X.exact_at(i)) {  // from_exact of a T value is exact
      rc = plus_zero(X.value(i));
      continue;
    }
    const DW x = X.coord(i);
    if (R::is_zero(x)) return false;
    W m = 2 * u2 * abs(x.hi);
    if (!toward) {
      const DW pi = g.P.coord(i);
      m = 2 * u2 * (abs(pi.hi) + abs((x - pi).hi)) + 4 * u2 * abs(x.hi);
    }
    if (!R::rounds_to(x, (X.coord_error(i) + m) * R::rel, rc)) return false;
  }
  return true;
}

// The unit normal u, rounded per coordinate. Needs unit_direction.
template <class T>
bool round_normal(const separated_cores<T>& g, vec2<T>& normal) {
  using R = rounding_filter<T>;
  using W = typename R::W;
  using DW = typename R::DW;
  using std::abs;
  const W u2 = R::u2;
  for (int i = 0; i < 2; ++i) {
    const DW& ui = i == 0 ? g.ux : g.uy;
    T& rn = i == 0 ? normal.x : normal.y;
    if (R::is_zero(ui)) {
      rn = T(0);
      continue;
    }
    if (!R::rounds_to(ui, (g.rho_u + 64 * u2) * abs(ui.hi) * R::rel, rn)) return false;
  }
  return true;
}

// distance_from_core's values: distance and closest points when apart, the
// common point otherwise.
template <class T>
bool fast_distance_values(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const feature& fa, const feature& fb,
                          const T& ra, const T& rb, separated_values<T>& out) {
  separated_cores<T> g;
  if (!measure_separated_cores(a, b, fa, fb, ra, rb, g)) return false;
  if ((ra != 0 || rb != 0) && !unit_direction(g)) return false;
  out.apart = g.apart;
  if (g.apart) return round_points(g, ra, rb, out.point_a, out.point_b) && round_distance(g, ra, rb, out.distance);
  return round_common(g, ra, out.common);
}

// penetration_from_core's values of separated cores: witnesses, distance
// (apart) or depth (not apart), and the normal.
template <class T>
bool fast_penetration_values(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const feature& fa,
                             const feature& fb, const T& ra, const T& rb, separated_values<T>& out) {
  separated_cores<T> g;
  if (!measure_separated_cores(a, b, fa, fb, ra, rb, g) || !unit_direction(g)) return false;
  out.apart = g.apart;
  if (!round_points(g, ra, rb, out.point_a, out.point_b)) return false;
  if (g.apart ? !round_distance(g, ra, rb, out.distance) : !round_depth(g, out.depth)) return false;
  return round_normal(g, out.normal);
}

// The common point of a triangle simplex that strictly contains the origin,
// rounded: (c0 A0 + c1 A1 + c2 A2) / (c0 + c1 + c2) with c_k = cross(w_k+1,
// w_k+2), the barycentric form of D-GJK-6 (correctly rounded by the exact
// path). False when the rounding is not proved. D-GJK-16
template <class T>
bool fast_common(std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                 const vertex_pairs& idx, vec2<T>& out) {
  using R = rounding_filter<T>;
  using W = typename R::W;
  using DW = typename R::DW;
  using std::abs;
  const W u2 = R::u2;
  if (idx.size() != 3) return false;
  std::array<DW, 3> wx, wy, c;
  std::array<W, 3> ec;
  for (std::size_t k = 0; k < 3; ++k) {
    wx[k] = R::diff(a[idx[k].first].x, b[idx[k].second].x);
    wy[k] = R::diff(a[idx[k].first].y, b[idx[k].second].y);
  }
  for (std::size_t k = 0; k < 3; ++k) {
    const std::size_t i = (k + 1) % 3, j = (k + 2) % 3;
    const DW t1 = wx[i] * wy[j], t2 = wy[i] * wx[j];
    c[k] = t1 - t2;
    ec[k] = (8 * u2 * (abs(t1.hi) + abs(t2.hi)) + 4 * u2 * abs(c[k].hi)) * R::up;
    if (!R::in_range(wx[k]) || !R::in_range(wy[k]) || !R::in_range(t1) || !R::in_range(t2) || !R::in_range(c[k]))
      return false;
  }
  const DW s1 = c[0] + c[1];
  const DW D = s1 + c[2];
  const W eD = (((ec[0] + ec[1]) + ec[2]) + 4 * u2 * abs(s1.hi) + 4 * u2 * abs(D.hi)) * R::up;
  if (!R::in_range(s1) || !R::in_range(D) || !(abs(D.hi) > 1024 * eD)) return false;
  const W rho_D = (eD / abs(D.hi)) * R::rel;
  for (int dim = 0; dim < 2; ++dim) {
    std::array<DW, 3> p;
    W eX = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      const T ak = dim == 0 ? a[idx[k].first].x : a[idx[k].first].y;
      p[k] = c[k] * DW(W(ak));
      if (!R::in_range(p[k])) return false;
      eX += ec[k] * abs(W(ak)) * R::up + 8 * u2 * abs(p[k].hi);
    }
    const DW s = p[0] + p[1];
    const DW X = s + p[2];
    eX = (eX * R::up + 4 * u2 * abs(s.hi) + 4 * u2 * abs(X.hi)) * R::up;
    if (!R::in_range(s) || !R::in_range(X) || !(abs(X.hi) > 1024 * eX)) return false;
    const W rho_X = (eX / abs(X.hi)) * R::rel;
    const DW q = X / D;
    T& r = dim == 0 ? out.x : out.y;
    if (!R::in_range(q) || !R::rounds_to(q, ((rho_X + rho_D) * W(1.002) + 16 * u2) * abs(q.hi) * R::rel, r))
      return false;
  }
  return true;
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
