// Semi-static filters in double (issue 28): decisions and values whose error
// bound is a compile-time constant times magnitudes the evaluation already
// computed, instead of a running bound per operation (filter.hpp) or general
// double-word arithmetic (detail/rounding_filter.hpp). Each routine answers
// only when its bound proves the exact path's answer, and says "not proved"
// otherwise; the caller then runs the route it ran before, unchanged, so the
// results are the same bits either way. derivations/gjk.md, D-GJK-21..23.
#pragma once

#include "rigidref/double_word.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/detail/collision_common.hpp"
#include "rigidref/detail/fma_clones.hpp"
#include "rigidref/detail/hot.hpp"
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

#include "rigidref/detail/fp_begin.hpp"

// RIGIDREF_FMA_CLONES (detail/fma_clones.hpp): the routines below are cloned
// for FMA; TwoProd is exact either way, so the bits do not depend on the
// clone. D-GJK-22

namespace rigidref::detail::semi_static {

inline constexpr double u = 0x1p-53;      // unit roundoff of double
inline constexpr double u2 = 0x1p-106;    // u^2
inline constexpr double eta = 0x1p-1074;  // smallest subnormal: a product's absolute rounding error is <= eta / 2
// Covers the roundings in evaluating a bound (a few dozen, each by at most a
// factor 1 + u): (1 + u)^64 < 1 + 2^-40.
inline constexpr double up = 1 + 0x1p-40;
inline constexpr double down = 1 - 0x1p-40;

// How often each semi-static step answered (`proved`) or handed over to the
// route it stands in front of (`refused`), per thread: for tests and reports.
struct counters {
  std::uint64_t proved = 0, refused = 0;
};
enum step { containment, common_point, separated_values, steps };
inline counters& stats(step k) {
  static thread_local counters c[steps];
  return c[k];
}
inline bool count(step k, bool proved) {
  ++(proved ? stats(k).proved : stats(k).refused);
  return proved;
}

// static_cross_sign and static_dot_sign of filter.hpp (D-GJK-17) without
// their per-call look at filter_force_exact(): for callers that look once per
// query and then prove nothing when it is set. Same value, same bound.
template <class T>
RIGIDREF_HOT int form2_sign(const T& l, const T& r, bool difference) {
  using std::abs;
  constexpr T uu = std::numeric_limits<T>::epsilon() / 2;
  const T v = difference ? T(l - r) : T(l + r);
  const T sum = abs(l) + abs(r);
  if (!(sum > std::numeric_limits<T>::min() / uu / uu)) return 0;
  const T e = (3 + 16 * uu) * uu * sum;
  return v > e ? 1 : (-v > e ? -1 : 0);
}
// form2_sign(l, r, difference) == want (want 1 or -1): the same test with
// the sign folded into the value, for callers that need one sign.
template <class T>
RIGIDREF_HOT bool form2_is(const T& l, const T& r, bool difference, int want) {
  using std::abs;
  constexpr T uu = std::numeric_limits<T>::epsilon() / 2;
  const T v = difference ? T(l - r) : T(l + r);
  const T sum = abs(l) + abs(r);
  const T e = (3 + 16 * uu) * uu * sum;
  return sum > std::numeric_limits<T>::min() / uu / uu && (want > 0 ? v : T(-v)) > e;
}
template <class T>
RIGIDREF_HOT bool cross_is(const vec2<T>& a, const vec2<T>& b, const vec2<T>& c, const vec2<T>& d, int want) {
  return form2_is(T((b.x - a.x) * (d.y - c.y)), T((b.y - a.y) * (d.x - c.x)), true, want);
}
template <class T>
RIGIDREF_HOT bool dot_is(const vec2<T>& a, const vec2<T>& b, const vec2<T>& c, const vec2<T>& d, int want) {
  return form2_is(T((b.x - a.x) * (d.x - c.x)), T((b.y - a.y) * (d.y - c.y)), false, want);
}
template <class T>
RIGIDREF_HOT int cross_sign(const vec2<T>& a, const vec2<T>& b, const vec2<T>& c, const vec2<T>& d) {
  return form2_sign(T((b.x - a.x) * (d.y - c.y)), T((b.y - a.y) * (d.x - c.x)), true);
}
template <class T>
RIGIDREF_HOT int dot_sign(const vec2<T>& a, const vec2<T>& b, const vec2<T>& c, const vec2<T>& d) {
  return form2_sign(T((b.x - a.x) * (d.x - c.x)), T((b.y - a.y) * (d.y - c.y)), false);
}

// The containment test of D-GJK-6 on the triangle of vertex pairs idx, by the
// signs of the three forms cross(w_k, w_k+1), w_k = a_k - b_k, each a degree-2
// form of input points with Shewchuk's bound (static_cross_sign, D-GJK-17).
// 1: all three proved of one sign, so the origin is strictly inside
// (exact_simplex_contains answers contains and strict); -1: not proved (the
// caller runs the filter of D-GJK-14, then the exact test). D-GJK-21
template <class T>
RIGIDREF_HOT int static_triangle_contains(std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                                          const vertex_pairs& idx) {
  if (idx.size() != 3) return -1;
  int first = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    const std::size_t k1 = k == 2 ? 0 : k + 1;
    const int s = static_cross_sign(b[idx[k].second], a[idx[k].first], b[idx[k1].second], a[idx[k1].first]);
    if (s == 0) return -1;
    if (k == 0)
      first = s;
    else if (s != first)
      return -1;
  }
  return 1;
}

// The nearest neighbours' half gap of a finite nonzero double r: the
// smaller of (next up - r) / 2 and (r - next down) / 2, a power of two (0
// when a neighbour is not finite).
inline double half_gap(double r) {
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(r);
  const double away = std::bit_cast<double>(bits + 1), toward = std::bit_cast<double>(bits - 1);
  if (!std::isfinite(away)) return 0;
  const double g_away = std::abs(away - r), g_toward = std::abs(r - toward);  // exact
  return (g_away < g_toward ? g_away : g_toward) / 2;
}

// The Ziv test of D-GJK-22 for a quotient x = X / D of two values known as
// double words within absolute bounds eX, eD (hi + lo not normalised): r is
// RN(x), proved by the residual X - r D, when |X - r D| < h |D| with h the
// half gap around r. False when that is not proved.
RIGIDREF_HOT bool quotient_rounds_to(double Xh, double Xl, double eX, double Dh, double Dl, double eD,
                                            double& r) {
  using std::abs;
  // The candidate: Xh / Dh with one Newton correction (any value would do,
  // the residual test below is what proves it; this one is RN(x) but near a
  // midpoint).
  const double r0 = Xh / Dh;
  const double_word<double> p0 = eft::two_prod(r0, Dh);
  r = r0 + ((((Xh - p0.hi) - p0.lo) + Xl) - r0 * Dl) / Dh;
  if (!std::isfinite(r) || r == 0) return false;
  const double h = half_gap(r);
  const double Dmin = ((abs(Dh) - abs(Dl)) * down - eD * up) * down;  // <= |D|
  if (!(h > 0) || !(Dmin > 0)) return false;
  const double rhs = (h * Dmin) * down;
  if (!(rhs > 0x1p-1000)) return false;  // keep h Dmin out of the subnormal range
  const double_word<double> p = eft::two_prod(r, Dh);
  const double_word<double> g = eft::two_sum(Xh, -p.hi);
  const double m = r * Dl;
  const double tail = ((g.lo + Xl) - p.lo) - m;
  const double gt = g.hi + tail;
  const double sum_t = (abs(g.lo) + abs(Xl)) + (abs(p.lo) + abs(m));
  const double err = ((eX + abs(r) * eD) + (3.01 * u) * sum_t + (1.01 * u) * abs(m) + (u * abs(gt) + 2 * eta)) * up;
  return (abs(gt) + err) * up < rhs;
}

// The common point of a triangle simplex that strictly contains the origin:
// (c0 A0 + c1 A1 + c2 A2) / (c0 + c1 + c2) per coordinate, c_k =
// cross(w_k+1, w_k+2), w_k = A_k - B_k, correctly rounded (the exact path's
// round_vec of barycentric_common). D-GJK-22
RIGIDREF_FMA_CLONES inline bool triangle_common(std::span<const vec2<double>> a, std::span<const vec2<double>> b,
                                         const vertex_pairs& idx, vec2<double>& out) {
  using std::abs;
  if (idx.size() != 3) return false;
  // Range guard, once: every coordinate within 2^250 (no overflow anywhere).
  double wx[3], ex[3], wy[3], ey[3], ax[3], ay[3];
  double big = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    const vec2<double>& p = a[idx[k].first];
    const vec2<double>& q = b[idx[k].second];
    ax[k] = p.x;
    ay[k] = p.y;
    big = std::max({big, abs(p.x), abs(p.y), abs(q.x), abs(q.y)});
    const double_word<double> dx = eft::two_sum(p.x, -q.x), dy = eft::two_sum(p.y, -q.y);
    wx[k] = dx.hi;
    ex[k] = dx.lo;
    wy[k] = dy.hi;
    ey[k] = dy.lo;
  }
  if (!(big <= 0x1p250)) return false;
  // c_k = s + t with s + sl = p - q exact, p, q TwoProd heads of the head
  // products; t the tails and cross terms in plain double. |c_k - (ch + cl)|
  // <= 18 u^2 S + 4 eta, S = max_k (|p| + |q|). D-GJK-22 (1)
  double ch[3], cl[3];
  double S = 0;
  for (std::size_t k = 0; k < 3; ++k) {
    const std::size_t i = k == 2 ? 0 : k + 1, j = k == 0 ? 2 : k - 1;  // k+1, k+2 mod 3
    const double_word<double> p = eft::two_prod(wx[i], wy[j]), q = eft::two_prod(wy[i], wx[j]);
    const double_word<double> s = eft::two_sum(p.hi, -q.hi);
    const double t = (s.lo + (p.lo - q.lo)) + ((wx[i] * ey[j] + ex[i] * wy[j]) - (wy[i] * ex[j] + ey[i] * wx[j]));
    const double_word<double> c = eft::two_sum(s.hi, t);
    ch[k] = c.hi;
    cl[k] = c.lo;
    S = std::max(S, abs(p.hi) + abs(q.hi));
  }
  const double err_c = (18 * u2 * S + 4 * eta) * up;
  // D = c0 + c1 + c2: heads by TwoSum, tails in plain double. D-GJK-22 (2)
  const double_word<double> d1 = eft::two_sum(ch[0], ch[1]);
  const double_word<double> d2 = eft::two_sum(d1.hi, ch[2]);
  const double Dh = d2.hi, Dl = ((cl[0] + cl[1]) + cl[2]) + (d1.lo + d2.lo);
  const double C = (abs(ch[0]) + abs(ch[1])) + abs(ch[2]);
  const double err_D = (3 * err_c + 10 * u2 * C) * up;
  for (int dim = 0; dim < 2; ++dim) {
    const double* A = dim == 0 ? ax : ay;
    // X = sum c_k A_k: heads by TwoProd and TwoSum, tails in plain double. D-GJK-22 (3)
    const double_word<double> p0 = eft::two_prod(ch[0], A[0]), p1 = eft::two_prod(ch[1], A[1]),
                              p2 = eft::two_prod(ch[2], A[2]);
    const double_word<double> x1 = eft::two_sum(p0.hi, p1.hi);
    const double_word<double> x2 = eft::two_sum(x1.hi, p2.hi);
    const double Xl = ((((((p0.lo + cl[0] * A[0]) + p1.lo) + cl[1] * A[1]) + p2.lo) + cl[2] * A[2]) + x1.lo) + x2.lo;
    const double P = (abs(p0.hi) + abs(p1.hi)) + abs(p2.hi);
    const double sumA = (abs(A[0]) + abs(A[1])) + abs(A[2]);
    const double err_X = (sumA * err_c + 30 * u2 * P + 8 * eta) * up;
    double r = 0;
    if (!quotient_rounds_to(x2.hi, Xl, err_X, Dh, Dl, err_D, r)) return false;
    (dim == 0 ? out.x : out.y) = r;
  }
  return true;
}


// ---- separated polygons: distance and closest points (D-GJK-23) -----------------

// A value y within `err` of hi + lo (a normalised double word).
struct bounded {
  double hi = 0, lo = 0, err = 0;
};

// The exact difference x - y of two doubles, as a normalised double word.
struct exact_diff {
  double h, l;
};
RIGIDREF_HOT exact_diff diff(double x, double y) {
  const double_word<double> d = eft::two_sum(x, -y);
  return {d.hi, d.lo};
}

// The degree-2 form U x V (cross) or U . V (dot) of exact double-word vectors:
// TwoProd heads, plain-double tails, err = 18 u^2 (|p| + |q|) + 4 eta.
// D-GJK-22 (1), D-GJK-23
RIGIDREF_HOT bounded form2(const exact_diff& ux, const exact_diff& uy, const exact_diff& vx, const exact_diff& vy,
                           bool cross) {
  using std::abs;
  const double_word<double> p = eft::two_prod(ux.h, cross ? vy.h : vx.h);
  const double_word<double> q = eft::two_prod(uy.h, cross ? vx.h : vy.h);
  double t;
  double_word<double> s;
  if (cross) {
    s = eft::two_sum(p.hi, -q.hi);
    t = (s.lo + (p.lo - q.lo)) + ((ux.h * vy.l + ux.l * vy.h) - (uy.h * vx.l + uy.l * vx.h));
  } else {
    s = eft::two_sum(p.hi, q.hi);
    t = (s.lo + (p.lo + q.lo)) + ((ux.h * vx.l + ux.l * vx.h) + (uy.h * vy.l + uy.l * vy.h));
  }
  const double_word<double> c = eft::two_sum(s.hi, t);
  return {c.hi, c.lo, (18 * u2 * (abs(p.hi) + abs(q.hi)) + 4 * eta) * up};
}

// |x| in [2^-800, 2^800] (false for NaN): where the relative bounds of
// double-word arithmetic hold with every underflow below 2^-100 u^2 |x|.
RIGIDREF_HOT bool in_band(double x) {
  const double m = x < 0 ? -x : x;
  return m >= 0x1p-800 && m <= 0x1p800;
}

// The relative bound of a bounded value whose error is below 2^-10 of it, or
// a negative number when it is not.
RIGIDREF_HOT double relative(const bounded& y) {
  using std::abs;
  const double m = (abs(y.hi) - abs(y.lo)) * down;
  if (!in_band(y.hi) || !(m > 1024 * y.err)) return -1;
  return (y.err / m) * up;
}

// rounds_to of D-GJK-16 for a double word y: RN(y) = r proved when every real
// within delta of y rounds to r.
RIGIDREF_HOT bool dw_rounds_to(const double_word<double>& y, double delta, double& r) {
  using std::abs;
  r = y.hi + y.lo;
  if (!std::isfinite(r) || r == 0) return false;
  const double h = half_gap(r);
  const double d = (y.hi - r) + y.lo;  // y.hi - r exact (Sterbenz)
  return (abs(d) * (1 + 4 * u) + delta) * up < h;
}

// x, computed where this is called: the empty asm takes it as an input, so
// the compiler cannot sink its computation past the checks that precede its
// first use (a square root and a division started early, D-EPA-26).
RIGIDREF_HOT double issued_here(double x) {
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
  __asm__ volatile("" : : "x"(x));
#elif (defined(__GNUC__) || defined(__clang__)) && defined(__aarch64__)
  __asm__ volatile("" : : "w"(x));
#endif
  return x;
}

// A coordinate the exact path takes from an input point: round_to of a double
// gives the double, with -0 as +0.
RIGIDREF_HOT double plus_zero(double x) { return x == 0 ? 0.0 : x; }

// The exact path's distance, sqrt of the exact d^2 in the accumulator, is
// within 64 u^2 d of d (D-GJK-16); point coordinates are correctly rounded.
inline constexpr double exact_path_rel = 64 * u2;

// The larger magnitude as std::max({abs(x)...}) finds it (the first largest,
// by <), without the initializer list's array.
RIGIDREF_HOT double max_abs(double m) { return std::abs(m); }
template <class... R>
RIGIDREF_HOT double max_abs(double x, double y, R... rest) {
  const double ax = std::abs(x), ay = std::abs(y);
  return max_abs(ax < ay ? ay : ax, rest...);
}

// The closest features' set-up that GJK's values (separated_polygon_values)
// and EPA's (separated_values_normal, D-EPA-24) share, each false where both
// refused: coordinates within 2^250, the exact differences, the degree-2
// forms and their relative bounds. D-GJK-23
//
// Two vertices p = A[fa.i], q = B[fb.i]: d = q - p and |d|^2.
struct vertex_pair_forms {
  vec2<double> p, q;
  exact_diff dx, dy;
  bounded s2;
  double rho2;
};
RIGIDREF_HOT bool vertex_pair_setup(std::span<const vec2<double>> a, std::span<const vec2<double>> b,
                                    const feature& fa, const feature& fb, vertex_pair_forms& f) {
  f.p = a[fa.i];
  f.q = b[fb.i];
  if (!(max_abs(f.p.x, f.p.y, f.q.x, f.q.y) <= 0x1p250)) return false;
  f.dx = diff(f.q.x, f.p.x);
  f.dy = diff(f.q.y, f.p.y);
  f.s2 = form2(f.dx, f.dy, f.dx, f.dy, false);
  f.rho2 = relative(f.s2);
  return f.rho2 >= 0;
}
// A vertex v of one polygon and the open edge (p0, p1) of the other:
// e = p1 - p0, w = v - p0, cross(e, w), w . e (> 0) and |e|^2.
struct vertex_edge_forms {
  vec2<double> p0, v;
  bool edge_on_b;
  exact_diff ex, ey, wx, wy;
  bounded cr, num, len2;
  double rho_cr, rho_num, rho_len2;
};
RIGIDREF_HOT bool vertex_edge_setup(std::span<const vec2<double>> a, std::span<const vec2<double>> b,
                                    const feature& fa, const feature& fb, vertex_edge_forms& f) {
  f.edge_on_b = fb.edge;
  const std::span<const vec2<double>> E = f.edge_on_b ? b : a;
  const std::size_t e0 = f.edge_on_b ? fb.i : fa.i;
  f.p0 = E[e0];
  const vec2<double> p1 = E[e0 + 1 == E.size() ? 0 : e0 + 1];
  f.v = f.edge_on_b ? a[fa.i] : b[fb.i];
  if (!(max_abs(f.p0.x, f.p0.y, p1.x, p1.y, f.v.x, f.v.y) <= 0x1p250)) return false;
  f.ex = diff(p1.x, f.p0.x);
  f.ey = diff(p1.y, f.p0.y);
  f.wx = diff(f.v.x, f.p0.x);
  f.wy = diff(f.v.y, f.p0.y);
  f.cr = form2(f.ex, f.ey, f.wx, f.wy, true);    // cross(e, w)
  f.num = form2(f.wx, f.wy, f.ex, f.ey, false);  // w . e
  f.len2 = form2(f.ex, f.ey, f.ex, f.ey, false);
  f.rho_cr = relative(f.cr);
  f.rho_num = relative(f.num);
  f.rho_len2 = relative(f.len2);
  return f.rho_cr >= 0 && f.rho_num >= 0 && f.rho_len2 >= 0 && f.num.hi > 0;
}

// distance_from_core's values for two polygons (radii 0) certified apart with
// closest features fa, fb: the distance and both closest points, the same
// bits as the exact path when true. D-GJK-23
RIGIDREF_FMA_CLONES inline bool separated_polygon_values(std::span<const vec2<double>> a, std::span<const vec2<double>> b,
                                     const feature& fa, const feature& fb, double& distance, vec2<double>& pa,
                                     vec2<double>& pb) {
  using std::abs;
  if (!fa.edge && !fb.edge) {
    vertex_pair_forms f;
    if (!vertex_pair_setup(a, b, fa, fb, f)) return false;
    const double_word<double> d = sqrt(double_word<double>(f.s2.hi, f.s2.lo));
    if (!in_band(d.hi)) return false;
    // sqrt: half the input's relative error (with its square), 5 u^2 of its own (D-GJK-16).
    const double delta = ((f.rho2 * 0.5 * 1.01 + 5 * u2 + exact_path_rel) * abs(d.hi) * 1.01) * up;
    if (!dw_rounds_to(d, delta, distance)) return false;
    pa = {plus_zero(f.p.x), plus_zero(f.p.y)};
    pb = {plus_zero(f.q.x), plus_zero(f.q.y)};
    return true;
  }
  vertex_edge_forms f;
  if (!vertex_edge_setup(a, b, fa, fb, f)) return false;
  const double_word<double> L2(f.len2.hi, f.len2.lo);
  const double_word<double> len = sqrt(L2);
  const double rho_len = f.rho_len2 * 0.5 * 1.01 + 5 * u2;
  // d = |cross| / |e|: DW / DW within 15 u^2 + 56 u^3 (D-EFT-5), the inputs'
  // relative errors added (their products and the roundings of the bound in 1.01).
  const double_word<double> d = abs(double_word<double>(f.cr.hi, f.cr.lo)) / len;
  if (!in_band(len.hi) || !in_band(d.hi)) return false;
  const double delta_d = ((f.rho_cr + rho_len + 16 * u2 + exact_path_rel) * abs(d.hi) * 1.01) * up;
  if (!dw_rounds_to(d, delta_d, distance)) return false;
  // The point on the edge, p0 + t e, t = (w . e) / |e|^2, coordinate by coordinate.
  const double_word<double> t = double_word<double>(f.num.hi, f.num.lo) / L2;
  if (!in_band(t.hi)) return false;
  const double rho_t = f.rho_num + f.rho_len2 + 16 * u2;
  vec2<double> on_edge;
  for (int i = 0; i < 2; ++i) {
    const exact_diff& ei = i == 0 ? f.ex : f.ey;
    const double p0i = i == 0 ? f.p0.x : f.p0.y;
    double& out = i == 0 ? on_edge.x : on_edge.y;
    if (ei.h == 0) {  // an axis-parallel edge: the coordinate is p0's, exactly
      out = plus_zero(p0i);
      continue;
    }
    // t e_i: DW x DW within 5 u^2 (D-EFT-4); p0_i + w: DW + DW within 3 u^2 / (1 - 4u) of the sum.
    const double_word<double> w = t * double_word<double>(ei.h, ei.l);
    const double_word<double> c = double_word<double>(p0i) + w;
    if (!in_band(w.hi) || !in_band(c.hi)) return false;
    const double delta = (((rho_t + 8 * u2) * abs(w.hi) + 4 * u2 * abs(c.hi)) * 1.01) * up;
    if (!dw_rounds_to(c, delta, out)) return false;
  }
  const vec2<double> vertex{plus_zero(f.v.x), plus_zero(f.v.y)};
  pa = f.edge_on_b ? vertex : on_edge;
  pb = f.edge_on_b ? on_edge : vertex;
  return true;
}

}  // namespace rigidref::detail::semi_static

#include "rigidref/detail/fp_end.hpp"
