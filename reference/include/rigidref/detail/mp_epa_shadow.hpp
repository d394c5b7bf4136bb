// EPA's loop for mp50 / mp100 with its decisions taken in double (issue 28
// item 10): epa_core in T, step for step, where every T value is carried as
// a double with a proved bound on its distance to the T value. A decision the
// double proves is epa_core's; one it does not is computed in T from the
// vertex pairs, as epa_core computes it. So the shortlist, the near supports,
// the iteration count and the cap are epa_core's, bit for bit. D-EPA-30
#pragma once

#include "rigidref/detail/collision_common.hpp"
#include "rigidref/detail/epa_loop.hpp"
#include "rigidref/detail/mp_shadow_ops.hpp"
#include "rigidref/detail/mp_sqrt.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

template <class T>
class mp_shadow_epa : mp_shadow_pair<T> {
  using base = mp_shadow_pair<T>;
  using typename base::point;
  using base::in_T;
  using base::make_point;
  using base::w_of;

 public:
  mp_shadow_epa(std::span<const vec2<T>> a, std::span<const vec2<T>> b) : base(a, b) {}

  // epa_core(a, b, seed, cap)'s run (with `values`, also the points' w; the
  // callers in penetration_from_core read the pairs only). False, with
  // nothing computed, for a seed that is not a triangle around the origin in
  // T, or an input out of D-GJK-25's range: the caller runs epa_core.
  bool run(const vertex_pairs& seed, int cap, bool values, epa_run<T>& out) {
    if (seed.size() != 3 || !this->read_inputs()) return false;
    if (!start(seed)) return false;
    static const double eps = static_cast<double>(epsilon<T>());  // a power of two: exact; once a type
    int iterations = 0;
    for (;;) {
      const std::size_t m = faces_.size();
      // scale = max |w| over the starts: |max |X_i| - max |x_i|| <= max e_i.
      fv<double> scale{0.0, 0.0};
      for (const face& f : faces_)
        for (const fv<double>* c : {&f.start.w.x, &f.start.w.y}) {
          scale.v = std::max(scale.v, std::abs(c->v));
          scale.e = std::max(scale.e, c->e);
        }
      // margin = 256 eps scale and tol = 16 eps scale are exact in T.
      margin_ = fmul(fexact(256 * eps), scale);
      tol_ = fmul(fexact(16 * eps), scale);
      have_scale_T_ = false;
      for (std::size_t i = 0; i < m; ++i)
        if (!faces_[i].fresh) shadow_values(i);
      std::optional<std::size_t> best_final;
      for (std::size_t i = 0; i < m; ++i)
        if (faces_[i].final_edge && (!best_final || less(i, *best_final))) best_final = i;
      std::size_t j = m;
      for (std::size_t i = 0; i < m; ++i) {
        if (faces_[i].final_edge || len_zero(i)) continue;
        if (best_final && beyond_margin(i, best_final)) continue;
        if (j == m || less(i, j)) j = i;
      }
      if (j == m) {
        collect(best_final, false, values, out);
        break;
      }
      if (iterations >= cap) {
        out.capped = true;
        collect(best_final, true, values, out);
        break;
      }
      ++iterations;
      const point s = base::support(faces_[j].normal, [&] { return T_normal(j); });  // D-EPA-3
      const point& p0 = faces_[j].start;
      const point& p1 = faces_[(j + 1) % m].start;
      const bool same = s.same_pair(p0) || s.same_pair(p1);
      if (same || support_adds_nothing(j, s)) {
        if (!same) out.near_supports.push_back(this->minkowski_of(s, values));
        faces_[j].final_edge = true;
        continue;
      }
      stale(j);
      faces_.insert(faces_.begin() + static_cast<std::ptrdiff_t>(j + 1), face{s});
      // The reflex vertices beside s go, as in epa_core (D-EPA-3).
      std::size_t at = j + 1;
      for (;;) {
        const std::size_t k = faces_.size();
        if (k <= 3) break;
        const std::size_t p1i = (at + k - 1) % k, p2i = (at + k - 2) % k;
        if (this->orientation_of(faces_[p2i].start, faces_[p1i].start, faces_[at].start) <= 0) {
          faces_.erase(faces_.begin() + static_cast<std::ptrdiff_t>(p1i));
          if (p1i < at) --at;
          stale((at + faces_.size() - 1) % faces_.size());
          continue;
        }
        const std::size_t n1 = (at + 1) % k, n2 = (at + 2) % k;
        if (this->orientation_of(faces_[at].start, faces_[n1].start, faces_[n2].start) <= 0) {
          faces_.erase(faces_.begin() + static_cast<std::ptrdiff_t>(n1));
          if (n1 < at) --at;
          stale(at);
          continue;
        }
        break;
      }
    }
    out.iterations = iterations;
    return true;
  }

 private:
  // A face of EPA's polygon: its start, its normal, length and distance as
  // filtered doubles (an infinite bound: not known in double), and, once a
  // decision needed them, their T values: the normal alone for a support
  // search at a near tie (no root), all three for a comparison.
  struct T_face {
    vec2<T> normal;
    T len, dist;
    bool have_len_dist = false;
  };
  struct face {
    explicit face(const point& p) : start(p) {}
    point start;
    fvec<double> normal{};
    fv<double> len{}, dist{};
    bool final_edge = false, fresh = false;
    std::optional<T_face> in_T;
  };

  std::vector<face>& faces_ = buffer();
  fv<double> margin_{}, tol_{};
  bool have_scale_T_ = false;
  T margin_T_{0}, tol_T_{0};

  static std::vector<face>& buffer() {
    static thread_local std::vector<face> f;
    return f;
  }

  static constexpr fv<double> unknown{0.0, std::numeric_limits<double>::infinity()};

  void stale(std::size_t i) {
    faces_[i].final_edge = false;
    faces_[i].fresh = false;
    faces_[i].in_T.reset();
  }

  // hull_ccw_into and polytope_contains_origin of epa_core on a triangle
  // seed; false where epa_core takes another route (collinear seed, or the
  // origin not inside: its supports around the simplex).
  bool start(const vertex_pairs& seed) {
    std::array<point, 3> p{make_point(seed[0].first, seed[0].second), make_point(seed[1].first, seed[1].second),
                           make_point(seed[2].first, seed[2].second)};
    const int o = this->orientation_of(p[0], p[1], p[2]);
    if (o == 0) return false;
    std::size_t m = 0;
    for (std::size_t i = 1; i < 3; ++i)
      if (before(p[i], p[m])) m = i;
    const std::size_t n1 = (m + 1) % 3, n2 = (m + 2) % 3;
    const std::array<point, 3> poly{p[m], o > 0 ? p[n1] : p[n2], o > 0 ? p[n2] : p[n1]};
    for (std::size_t i = 0; i < 3; ++i)
      if (this->origin_side_of(poly[i], poly[(i + 1) % 3]) < 0) return false;
    faces_.clear();
    for (const point& q : poly) faces_.push_back(face{q});
    return true;
  }

  // convex_hull's order: w.x, then w.y, in T.
  bool before(const point& p, const point& q) const {
    const int s = fsign(fsub(q.w.x, p.w.x));
    if (s != 0) return s > 0;
    in_T();
    const vec2<T> wp = w_of(p), wq = w_of(q);
    return wp.x < wq.x || (wp.x == wq.x && wp.y < wq.y);
  }

  // The face's normal (e.y, -e.x), e = next - start, its length
  // RN(sqrt(RN(n . n))) and distance RN(RN(n . start) / len) (0 when len is
  // 0), as filtered doubles. D-EPA-30 (2)
  void shadow_values(std::size_t i) {
    face& f = faces_[i];
    const point& next = faces_[(i + 1) % faces_.size()].start;
    const fvec<double> e{mp_sub(next.w.x, f.start.w.x), mp_sub(next.w.y, f.start.w.y)};
    f.normal = {e.y, fneg(e.x)};
    f.fresh = true;
    f.in_T.reset();
    fv<double> len, q;
    if (mp_sqrt_of(mp_dot(f.normal, f.normal), len) && fsign(len) > 0 &&
        mp_div(mp_dot(f.normal, f.start.w), len, q)) {
      f.len = len;
      f.dist = q;
      return;
    }
    // T's own values, read back as filtered doubles.
    const T_face& t = T_values(i);
    if (!mp_filtered_input(t.len, f.len)) f.len = unknown;
    if (!mp_filtered_input(t.dist, f.dist)) f.dist = unknown;
  }

  // The face's normal in T, as epa_core computes it.
  const vec2<T>& T_normal(std::size_t i) {
    face& f = faces_[i];
    if (!f.in_T) {
      in_T();
      const vec2<T> e = w_of(faces_[(i + 1) % faces_.size()].start) - w_of(f.start);
      f.in_T = T_face{{e.y, T(-e.x)}, T(0), T(0), false};
    }
    return f.in_T->normal;
  }

  // The face's values in T, as epa_core computes them.
  const T_face& T_values(std::size_t i) {
    T_normal(i);
    face& f = faces_[i];
    T_face& t = *f.in_T;
    if (!t.have_len_dist) {
      t.len = rounded_sqrt(T(dot(t.normal, t.normal)));
      t.dist = t.len > 0 ? T(dot(t.normal, w_of(f.start)) / t.len) : T(0);
      t.have_len_dist = true;
    }
    return t;
  }

  void scale_T() {
    if (have_scale_T_) return;
    using std::abs;
    T scale{0};
    for (const face& f : faces_) {
      const vec2<T> w = w_of(f.start);
      scale = std::max<T>(scale, std::max<T>(abs(w.x), abs(w.y)));
    }
    const T eps = epsilon<T>();
    margin_T_ = 256 * eps * scale;
    tol_T_ = 16 * eps * scale;
    have_scale_T_ = true;
  }

  // f.len == 0 in T (len >= 0).
  bool len_zero(std::size_t i) {
    if (fsign(faces_[i].len) > 0) return false;
    return T_values(i).len == 0;
  }

  // dist_i < dist_k in T.
  bool less(std::size_t i, std::size_t k) {
    const int s = fsign(fsub(faces_[k].dist, faces_[i].dist));
    if (s != 0) return s > 0;
    return T_values(i).dist < T_values(k).dist;
  }

  // dist_i > RN(lowest + margin) in T, lowest the distance of face k (0
  // without one).
  bool beyond_margin(std::size_t i, const std::optional<std::size_t>& k) { return !within_margin(i, k); }

  // dist_i <= RN(lowest + margin) in T.
  bool within_margin(std::size_t i, const std::optional<std::size_t>& k) {
    // The lowest face itself: margin >= 0 and RN is monotone, so
    // RN(dist_i + margin) >= dist_i, in T as in any precision; the double
    // cannot see it (the margin is 2^-159 of the scale), and T's root and
    // quotient are not needed. D-EPA-30 (7)
    if (k && *k == i) return true;
    const fv<double> lowest = k ? faces_[*k].dist : fv<double>{0.0, 0.0};
    const fv<double> threshold = mp_rounded(fadd(lowest, margin_));
    const int s = fsign(fsub(faces_[i].dist, threshold));
    if (s != 0) return s < 0;
    scale_T();
    const T lowest_T = k ? T_values(*k).dist : T(0);
    const T t = lowest_T + margin_T_;
    return T_values(i).dist <= t;
  }

  // sd - dist <= tol in T, sd = RN(RN(n . s) / len) of face j (D-EPA-3).
  bool support_adds_nothing(std::size_t j, const point& s) {
    const face& f = faces_[j];
    fv<double> sd;
    if (mp_div(mp_dot(f.normal, s.w), f.len, sd)) {
      const int c = fsign(fsub(mp_sub(sd, f.dist), tol_));
      if (c != 0) return c < 0;
    }
    scale_T();
    const T_face& t = T_values(j);
    const T sdt = dot(t.normal, w_of(s)) / t.len;
    return sdt - t.dist <= tol_T_;
  }

  // epa_core's collect: the final faces (and, with include_open, the open
  // ones of positive length) within the margin of the lowest distance.
  void collect(const std::optional<std::size_t>& best_final, bool include_open, bool values, epa_run<T>& out) {
    const std::size_t m = faces_.size();
    std::optional<std::size_t> lowest = best_final;
    if (include_open)
      for (std::size_t i = 0; i < m; ++i)
        if (!len_zero(i) && (!lowest || less(i, *lowest))) lowest = i;
    for (std::size_t i = 0; i < m; ++i)
      if ((faces_[i].final_edge || (include_open && !len_zero(i))) && within_margin(i, lowest))
        out.shortlist.push_back(
            {this->minkowski_of(faces_[i].start, values), this->minkowski_of(faces_[(i + 1) % m].start, values)});
  }
};

// epa_core(a, b, seed, cap) for mp50 / mp100: the loop above, or epa_core
// itself where it refuses and under filter_force_exact(). With `values`,
// every field of the run; without, the vertex pairs, counts and flags, all
// that penetration_from_core reads for these types.
template <class T>
epa_run<T> mp_epa_core(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const vertex_pairs& seed, int cap,
                       bool values) {
  if (!filter_force_exact()) {
    epa_run<T> r;
    if (mp_shadow_epa<T>(a, b).run(seed, cap, values, r)) {
      ++mp_route_stats().epa_loop;
      return r;
    }
  }
  return epa_core<T>(a, b, seed, cap);
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
