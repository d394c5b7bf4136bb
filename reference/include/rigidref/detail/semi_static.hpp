// Semi-static filters in double (issue 28): decisions and values whose error
// bound is a compile-time constant times magnitudes the evaluation already
// computed, instead of a running bound per operation (filter.hpp) or general
// double-word arithmetic (detail/rounding_filter.hpp). Each routine answers
// only when its bound proves the exact path's answer, and says "not proved"
// otherwise; the caller then runs the route it ran before, unchanged, so the
// results are the same bits either way. derivations/gjk.md, D-GJK-21..22.
#pragma once

#include "rigidref/double_word.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/detail/collision_common.hpp"
#include "rigidref/detail/hot.hpp"
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>

#include "rigidref/detail/fp_begin.hpp"

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
inline bool triangle_common(std::span<const vec2<double>> a, std::span<const vec2<double>> b,
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

}  // namespace rigidref::detail::semi_static

#include "rigidref/detail/fp_end.hpp"
