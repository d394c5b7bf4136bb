// GJK's loop for mp50 / mp100 with its decisions taken in double (issue 28
// item 10): the loop of gjk_core in T, step for step, where every T value is
// carried as a double with a proved bound on its distance to the T value
// (not to the exact one: each T rounding is part of the bound). A decision
// the double proves is the T loop's; one it does not is computed in T from
// the vertex pairs, exactly as the T loop computes it. So the claim, the
// vertex pairs and the iteration count are gjk_core's, bit for bit, and T's
// arithmetic runs only at near ties. D-GJK-32
#pragma once

#include "rigidref/detail/gjk_loop.hpp"
#include "rigidref/detail/mp_shadow_ops.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// ---- the loop ---------------------------------------------------------------

template <class T>
class mp_shadow_gjk : mp_shadow_pair<T> {
  using base = mp_shadow_pair<T>;
  using typename base::point;
  using base::a_;
  using base::b_;
  using base::in_T;
  using base::make_point;
  using base::sign_of;
  using base::w_of;

 public:
  mp_shadow_gjk(std::span<const vec2<T>> a, std::span<const vec2<T>> b) : base(a, b) {}

  // gjk_core(a, b, cap)'s claim, iteration count and vertex pairs; with
  // `values`, also its simplex points and v (the callers in core_query read
  // the pairs only). False, with nothing computed, when an input is out of
  // D-GJK-25's range: the caller runs gjk_core.
  bool run(int cap, bool values, gjk_run<T>& out) {
    if (!this->read_inputs()) return false;
    std::array<point, 3> s{};
    int n = 1;
    s[0] = make_point(0, 0);
    shadow_v v = at_point(s[0]);
    static const double tol = static_cast<double>(T(16 * epsilon<T>()));  // a power of two: exact; once a type
    gjk_claim claim = gjk_claim::cap;
    int iterations = 0;
    for (int it = 0; it < cap; ++it) {
      iterations = it + 1;
      if (is_zero(v)) {
        claim = gjk_claim::intersecting;
        break;
      }
      const point m = support(v);
      bool known = false;
      for (int k = 0; k < n; ++k) known = known || s[k].same_pair(m);
      if (known) {
        claim = gjk_claim::separated;
        break;
      }
      // vv - vw <= tol vv in T (tol vv is exact in T: a power of two).
      const fv<double> vv = mp_dot(v.s, v.s), vw = mp_dot(v.s, m.w);
      const int gap = fsign(fsub(mp_sub(vv, vw), fmul(fexact(tol), vv)));
      const bool stop = gap != 0 ? gap < 0 : gap_stops(v, m);
      if (stop) {
        claim = gjk_claim::separated;
        break;
      }
      const shadow_v before = v;
      s[static_cast<std::size_t>(n++)] = m;
      if (reduce(s, n, v)) {
        claim = gjk_claim::intersecting;
        break;
      }
      // !(dot(v, v) < vv): no progress in T.
      const int progress = fsign(fsub(vv, mp_dot(v.s, v.s)));
      if (progress != 0 ? progress < 0 : !shrinks(before, v)) {
        claim = gjk_claim::separated;
        break;
      }
    }
    out.claim = claim;
    out.iterations = iterations;
    out.simplex.size = n;
    for (int k = 0; k < n; ++k) {
      auto& p = out.simplex.p[static_cast<std::size_t>(k)];
      p.ia = s[static_cast<std::size_t>(k)].ia;
      p.ib = s[static_cast<std::size_t>(k)].ib;
      if (values) p.w = w_of(s[static_cast<std::size_t>(k)]);
    }
    if (values) out.v = v_of(v);
    return true;
  }

 private:
  // v as filtered doubles and how T computed it: a vertex pair's w, the
  // interior formula of segment_closest on [p0, p1] (side: the exact
  // orientation), or 0.
  enum class made { at_point, on_segment, zero };
  struct shadow_v {
    fvec<double> s;
    made how = made::zero;
    point p0, p1;
    int side = 0;
  };

  static shadow_v at_point(const point& p) { return {p.w, made::at_point, p, p, 0}; }

  vec2<T> v_of(const shadow_v& v) const {
    if (v.how == made::zero) return {};
    if (v.how == made::at_point) return w_of(v.p0);
    // segment_closest's interior point, its part (2) and side (o) decided:
    // the same operations on the same values, so the same bits.
    const vec2<T> w0 = w_of(v.p0), e = w_of(v.p1) - w0;
    return segment_interior(w0, e, T(dot(e, e)), v.side);
  }

  // is_zero_vec(v) in T.
  bool is_zero(const shadow_v& v) const {
    if (v.how == made::zero) return true;
    if (fsign(v.s.x) != 0 || fsign(v.s.y) != 0) return false;
    if (v.how == made::at_point) return this->w_is_zero(v.p0);
    in_T();
    return is_zero_vec(v_of(v));
  }

  // minkowski_support(a, b, -v) (D-GJK-27, D-GJK-32 (4)).
  point support(const shadow_v& v) const {
    return base::support({fneg(v.s.x), fneg(v.s.y)}, [&] { return vec2<T>(-v_of(v)); });
  }

  // The duality-gap stop in T, not proved in double.
  RIGIDREF_COLD bool gap_stops(const shadow_v& v, const point& m) const {
    in_T();
    const vec2<T> vt = v_of(v);
    const T vv = dot(vt, vt);
    const T vw = dot(vt, w_of(m));
    return vv - vw <= T(16 * epsilon<T>()) * vv;
  }

  // dot(v, v) < dot(before, before) in T, not proved in double.
  RIGIDREF_COLD bool shrinks(const shadow_v& before, const shadow_v& v) const {
    in_T();
    const vec2<T> b = v_of(before), n = v_of(v);
    return dot(n, n) < dot(b, b);
  }

  // origin_side(w0, w1): the exact sign of cross(w0, w1) of the T points.
  int side_of(const point& p0, const point& p1) const { return this->origin_side_of(p0, p1); }

  // segment_closest(p0.w, p1.w, v, side) in T: the part, v's shadow.
  int segment(const point& p0, const point& p1, int side, shadow_v& v) const {
    const fvec<double> e{mp_sub(p1.w.x, p0.w.x), mp_sub(p1.w.y, p0.w.y)};
    const fv<double> num = fneg(mp_dot(p0.w, e)), den = mp_dot(e, e);
    int sn = fsign(num);
    if (sn == 0) {
      in_T();
      const vec2<T> w0 = w_of(p0);
      sn = sign_of(T(-dot(w0, vec2<T>(w_of(p1) - w0))));
    }
    if (sn <= 0) {  // num <= 0 (den == 0 implies num == 0)
      v = at_point(p0);
      return 0;
    }
    // num > 0, so e != 0 and den > 0 in T (T has no underflow here).
    int sd = fsign(fsub(num, den));
    if (sd == 0) {
      in_T();
      const vec2<T> w0 = w_of(p0), et = w_of(p1) - w0;
      const T nt = -dot(w0, et), dt = dot(et, et);
      sd = nt >= dt ? 1 : -1;
    }
    if (sd >= 0) {  // num >= den
      v = at_point(p1);
      return 1;
    }
    const int o = side != unknown_side ? side : side_of(p0, p1);
    if (o == 0) {
      v = {{}, made::zero, p0, p1, 0};
      return 2;
    }
    v.how = made::on_segment;
    v.p0 = p0;
    v.p1 = p1;
    v.side = o;
    // sc = cross(e, w0), its sign made the exact side's, then (sc / den) perp(e).
    fv<double> sc = mp_cross(e, p0.w);
    int ss = fsign(sc);
    if (ss == 0) {
      in_T();
      const vec2<T> w0 = w_of(p0);
      ss = sign_of(cross(vec2<T>(w_of(p1) - w0), w0));
    }
    if ((ss > 0) != (o < 0)) sc = fneg(sc);
    fv<double> q;
    if (ss == 0 || !mp_div(sc, den, q)) {  // T's own value, read back as a filtered double
      const vec2<T> vt = v_of(v);
      if (!mp_filtered_input(vt.x, v.s.x)) v.s.x = {0.0, std::numeric_limits<double>::infinity()};
      if (!mp_filtered_input(vt.y, v.s.y)) v.s.y = {0.0, std::numeric_limits<double>::infinity()};
      return 2;
    }
    v.s = {mp_mul(q, fneg(e.y)), mp_mul(q, e.x)};
    return 2;
  }

  // reduce_simplex in T.
  bool reduce(std::array<point, 3>& s, int& n, shadow_v& v) const {
    if (n == 2) {
      const int part = segment(s[0], s[1], unknown_side, v);
      if (part != 2) {
        if (part == 1) s[0] = s[1];
        n = 1;
      }
      return is_zero(v);
    }
    std::array<int, 3> side{};
    bool pos = false, neg = false;
    for (std::size_t k = 0; k < 3; ++k) {
      side[k] = side_of(s[k], s[k == 2 ? 0 : k + 1]);
      pos = pos || side[k] > 0;
      neg = neg || side[k] < 0;
    }
    if (pos != neg) {
      v = {{}, made::zero, s[0], s[0], 0};
      return true;
    }
    std::size_t best_k = 0;
    int best_part = 0;
    fv<double> best{};
    for (std::size_t k = 0; k < 3; ++k) {
      shadow_v vk;
      const int part = segment(s[k], s[k == 2 ? 0 : k + 1], side[k], vk);
      const fv<double> vv = mp_dot(vk.s, vk.s);
      bool better = k == 0;
      if (!better) {
        const int c = fsign(fsub(best, vv));
        if (c != 0) {
          better = c > 0;
        } else {
          in_T();
          const vec2<T> x = v_of(vk), y = v_of(v);
          better = dot(x, x) < dot(y, y);
        }
      }
      if (better) {
        best = vv;
        best_k = k;
        best_part = part;
        v = vk;
      }
    }
    if (best_part != 2 || best_k != 0) {
      const point p0 = s[best_k], p1 = s[best_k == 2 ? 0 : best_k + 1];
      if (best_part == 2) {
        s[0] = p0;
        s[1] = p1;
        n = 2;
      } else {
        s[0] = best_part == 0 ? p0 : p1;
        n = 1;
      }
    } else {
      n = 2;
    }
    return is_zero(v);
  }
};

// gjk_core(a, b, cap) for mp50 / mp100: the loop above, or gjk_core itself
// for inputs out of its range and under filter_force_exact(). With
// `values`, every field of the run; without, the claim, iteration count and
// vertex pairs, all that core_from_run reads for these types.
template <class T>
gjk_run<T> mp_gjk_core(std::span<const vec2<T>> a, std::span<const vec2<T>> b, int cap, bool values) {
  if (!filter_force_exact()) {
    gjk_run<T> r;
    if (mp_shadow_gjk<T>(a, b).run(cap, values, r)) {
      ++mp_route_stats().loop;
      return r;
    }
  }
  return gjk_core(a, b, cap);
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
