// The pieces shared by the mp loops with their decisions in double (GJK's,
// D-GJK-32; EPA's, D-EPA-30): a T operation's result as a filtered double
// with a bound on its distance to the T value, and the two polygons' inputs,
// vertex pairs and support searches (issue 28 item 10).
#pragma once

#include "rigidref/detail/gjk_loop.hpp"
#include "rigidref/detail/mp_inputs.hpp"
#include "rigidref/detail/mp_support.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/vec2.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// ---- the filtered value of a T operation's result (D-GJK-32 (1), (2)) ------

// x bounds an exact result X; RN_T(X) is within 2^-p |X| <= 2^-160 (|x.v| +
// x.e) more (p >= 161), the scaling's own rounding within u or eta.
RIGIDREF_HOT fv<double> mp_rounded(const fv<double>& x) {
  using std::abs;
  return {x.v, ((x.e + (abs(x.v) + x.e) * 0x1p-160) + 2 * fconst<double>::eta) * fconst<double>::up};
}

RIGIDREF_HOT fv<double> mp_sub(const fv<double>& a, const fv<double>& b) { return mp_rounded(fsub(a, b)); }
RIGIDREF_HOT fv<double> mp_mul(const fv<double>& a, const fv<double>& b) { return mp_rounded(fmul(a, b)); }

// a.x b.x + a.y b.y and a.x b.y - a.y b.x as T computes them (vec2.hpp):
// two rounded products, one rounded sum.
RIGIDREF_HOT fv<double> mp_dot(const fvec<double>& a, const fvec<double>& b) {
  return mp_rounded(fadd(mp_mul(a.x, b.x), mp_mul(a.y, b.y)));
}
RIGIDREF_HOT fv<double> mp_cross(const fvec<double>& a, const fvec<double>& b) {
  return mp_sub(mp_mul(a.x, b.y), mp_mul(a.y, b.x));
}

// a / b: |A/B - a/b| <= (e_a |b| + |a| e_b) / (|b| (|b| - e_b)), the double
// quotient's rounding u |q| + eta, then T's. False when |b| <= e_b (B may be
// 0). D-GJK-32 (2)
RIGIDREF_HOT bool mp_div(const fv<double>& a, const fv<double>& b, fv<double>& out) {
  using std::abs;
  constexpr double u = fconst<double>::u;
  const double ab = abs(b.v);
  const double low = (ab - b.e) * (1 - 2 * u);  // <= |B|
  if (!(low > 0)) return false;
  const double q = a.v / b.v;
  const double e = (a.e * ab + abs(a.v) * b.e) / (ab * low) + u * abs(q) + fconst<double>::eta;
  out = mp_rounded({q, e * fconst<double>::up * fconst<double>::up});
  return true;
}

// RN_T(sqrt(X)) for X >= 0: with |X - x| <= e and x - e > 0,
// |sqrt(X) - sqrt(x)| <= e / (sqrt(X) + sqrt(x)) <= e / sqrt(x - e); the
// double root's rounding u sqrt(x), then T's. False when x - e may be <= 0.
// D-EPA-30 (1)
RIGIDREF_HOT bool mp_sqrt_of(const fv<double>& x, fv<double>& out) {
  constexpr double u = fconst<double>::u;
  const double low = (x.v - x.e) * (1 - 2 * u);  // <= X
  if (!(low > 0)) return false;
  const double r = std::sqrt(x.v);
  const double e = x.e / std::sqrt(low) + u * r + fconst<double>::eta;
  out = mp_rounded({r, e * fconst<double>::up * fconst<double>::up});
  return true;
}

// A vertex pair (ia, ib) and w = a[ia] - b[ib] (in T) as filtered doubles.
struct mp_shadow_point {
  std::size_t ia = 0, ib = 0;
  fvec<double> w;
  bool same_pair(const mp_shadow_point& o) const { return ia == o.ia && ib == o.ib; }
};

// The two polygons of a query: their mp vertices and the filtered doubles of
// them (read once per query), the vertex pairs' w, and support searches.
template <class T>
class mp_shadow_pair {
  static_assert(is_cpp_bin_float_v<T> && std::numeric_limits<T>::digits >= 161);

 public:
  using point = mp_shadow_point;

  mp_shadow_pair(std::span<const vec2<T>> a, std::span<const vec2<T>> b) : a_(a), b_(b) {}

  // False when an input is out of D-GJK-25's range.
  bool read_inputs() {
    fa_.resize(a_.size());
    fb_.resize(b_.size());
    for (std::size_t i = 0; i < a_.size(); ++i)
      if (!mp_filtered_point(a_[i], fa_[i])) return false;
    for (std::size_t i = 0; i < b_.size(); ++i)
      if (!mp_filtered_point(b_[i], fb_[i])) return false;
    return true;
  }

  point make_point(std::size_t ia, std::size_t ib) const {
    return {ia, ib, {mp_sub(fa_[ia].x, fb_[ib].x), mp_sub(fa_[ia].y, fb_[ib].y)}};
  }
  // The T value, as the T loops compute it.
  vec2<T> w_of(const point& p) const { return a_[p.ia] - b_[p.ib]; }
  minkowski_point<T> minkowski_of(const point& p, bool values) const {
    return {values ? w_of(p) : vec2<T>{}, p.ia, p.ib};
  }
  // RN_T(a - b) = 0 iff a = b.
  bool w_is_zero(const point& p) const { return a_[p.ia].x == b_[p.ib].x && a_[p.ia].y == b_[p.ib].y; }

  static int sign_of(const T& x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }
  // A decision not proved in double, taken in T (counted for the tests).
  static void in_T() { ++mp_route_stats().loop_in_T; }

  // The exact sign of cross(p1.w - p0.w, p2.w - p0.w) of the T points
  // (orientation), proved in double or computed in T.
  int orientation_of(const point& p0, const point& p1, const point& p2) const {
    const fvec<double> e1 = fsub(p1.w, p0.w), e2 = fsub(p2.w, p0.w);
    const int s = fsign(fsub(fmul(e1.x, e2.y), fmul(e1.y, e2.x)));
    if (s != 0) return s;
    in_T();
    return orientation(w_of(p0), w_of(p1), w_of(p2));
  }
  // orientation(p0.w, p1.w, 0): the exact sign of cross(p0.w, p1.w).
  int origin_side_of(const point& p0, const point& p1) const {
    const int s = fsign(fsub(fmul(p0.w.x, p1.w.y), fmul(p0.w.y, p1.w.x)));
    if (s != 0) return s;
    in_T();
    return origin_side(w_of(p0), w_of(p1));
  }

  // minkowski_support(a, b, d) as mp_minkowski_support gives it, d the
  // filtered value of T's direction, dt() that direction in T: each search in
  // double (D-GJK-27), else, at a near tie, the first maximum in T among the
  // points not proved below the one with the largest double value
  // (D-GJK-32 (4)); dt() is formed at most once.
  template <class Direction>
  point support(const fvec<double>& d, Direction&& dt) const {
    const fvec<double> nd{fneg(d.x), fneg(d.y)};
    const auto in_a = [&](std::size_t i, fvec<double>& p) { return (p = fa_[i], true); };
    const auto in_b = [&](std::size_t i, fvec<double>& p) { return (p = fb_[i], true); };
    std::size_t ia = 0, ib = 0;
    const bool proved_a = mp_filtered_support_search(a_.size(), in_a, d, ia);
    const bool proved_b = mp_filtered_support_search(b_.size(), in_b, nd, ib);
    if (!proved_a || !proved_b) {
      const vec2<T> t = dt();
      if (!proved_a) ia = near_tie(a_, fa_, d, t);
      if (!proved_b) ib = near_tie(b_, fb_, nd, vec2<T>(-t));
    }
    return make_point(ia, ib);
  }

 protected:
  std::span<const vec2<T>> a_, b_;

 private:
  std::vector<fvec<double>>& fa_ = buffer(0);
  std::vector<fvec<double>>& fb_ = buffer(1);

  static std::vector<fvec<double>>& buffer(int k) {
    static thread_local std::array<std::vector<fvec<double>>, 2> b;
    return b[static_cast<std::size_t>(k)];
  }

  // support_index(P, dt) in T, d the filtered value of dt.
  RIGIDREF_COLD std::size_t near_tie(std::span<const vec2<T>> P, const std::vector<fvec<double>>& fp,
                                     const fvec<double>& d, const vec2<T>& dt) const {
    in_T();
    const auto value_of = [&](std::size_t i, fv<double>& f, double& r) {
      if (i == 0) {  // v[0]'s value: exactly 0 in T
        f = {0.0, 0.0};
        r = 0;
        return;
      }
      const fvec<double> e = fsub(fp[i], fp[0]);
      f = fdot(e, d);
      r = mp_dot_rounding(e, d);
    };
    std::size_t k = 0;
    fv<double> fk{0.0, 0.0};
    double rk = 0;
    for (std::size_t i = 1; i < P.size(); ++i) {
      fv<double> f;
      double r;
      value_of(i, f, r);
      if (f.v > fk.v) {
        k = i;
        fk = f;
        rk = r;
      }
    }
    bool have = false;
    std::size_t best = 0;
    T best_value{0};
    for (std::size_t i = 0; i < P.size(); ++i) {
      if (i != k) {  // proved below P[k]'s value in T: not a maximum
        fv<double> f;
        double r;
        value_of(i, f, r);
        const fv<double> diff = fsub(f, fk);
        if (fsign(fv<double>{diff.v, (diff.e + r + rk) * fconst<double>::up}) < 0) continue;
      }
      const T value = i == 0 ? T(0) : T(dot(vec2<T>(P[i] - P[0]), dt));
      if (!have || value > best_value) {
        have = true;
        best = i;
        best_value = value;
      }
    }
    return best;
  }

};

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
