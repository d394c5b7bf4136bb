// The separation certificate with the floating-point filter (D-GJK-15): the
// stage after the one-pass certificate (detail/separation_one_pass.hpp); when
// it gives up, detail/separation_exact.hpp runs.
#pragma once

#include "rigidref/detail/collision_common.hpp"
#include "rigidref/filter.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// ---- the certificate, filtered (D-GJK-15) ------------------------------------
//
// filtered_certify_separation follows certify_separation step for step on the
// T coordinates with the error bounds of filter.hpp (D-GJK-13): the
// classification of each closest point on a segment, every squared-distance
// comparison, every argmax step and both optimality tests. Ties that are exact
// by construction (the same pair of features; an edge's end points against a
// direction perpendicular to that edge) are decided structurally. When any
// other decision is not proved, or the search would reach the brute-force
// stage, it gives up and certify_separation runs instead, so the outcome is
// always the exact one.

template <class T>
struct fpair {
  feature fa, fb;   // the closest point on A, on B
  fv<T> N, D;       // |q - p|^2 = N / D, D > 0
  fvec<T> n;        // a positive multiple of q - p
  std::size_t ia = 0, ib = 0;  // local_closest's arguments
};

template <class T>
struct certify_filter {
  std::span<const vec2<T>> a, b;
  bool gave_up = false;
  // Inputs known within a bound instead of exactly (mp inputs as doubles,
  // D-GJK-25): when given, pt() reads them; a and b then hold their values.
  std::span<const fvec<T>> a_in{}, b_in{};

  fvec<T> pt(bool on_a, std::size_t k) const {
    if (!a_in.empty()) return on_a ? a_in[k] : b_in[k];
    return fvec_exact(on_a ? a[k] : b[k]);
  }
  std::size_t count(bool on_a) const { return on_a ? a.size() : b.size(); }

  // A certain sign, or give up.
  int sign(const fv<T>& x) {
    const int s = fsign(x);
    if (s == 0) gave_up = true;
    return s;
  }

  // closest_on_segment_int(P[e], P[e + 1], p): which feature, D-GJK-10.
  feature segment_feature(bool on_a, std::size_t e, const fvec<T>& p) {
    const std::size_t e1 = (e + 1) % count(on_a);
    const fvec<T> a0 = pt(on_a, e), a1 = pt(on_a, e1);
    const fvec<T> ab = fsub(a1, a0);
    if (sign(fdot(fsub(p, a0), ab)) <= 0) return {false, e};  // num <= 0 (or gave up)
    if (sign(fdot(fsub(p, a1), ab)) >= 0) return {false, e1};  // num - len2 = (p - b) . ab >= 0
    return {true, e};
  }

  // The pair of features as squared distance and direction.
  fpair<T> make(const feature& fa, const feature& fb, std::size_t ia, std::size_t ib) {
    fpair<T> c;
    c.fa = fa;
    c.fb = fb;
    c.ia = ia;
    c.ib = ib;
    auto cross = [](const fvec<T>& u, const fvec<T>& v) { return fsub(fmul(u.x, v.y), fmul(u.y, v.x)); };
    if (!fa.edge && !fb.edge) {
      c.n = fsub(pt(false, fb.i), pt(true, fa.i));
      c.N = fdot(c.n, c.n);
      c.D = fexact(T(1));
      return c;
    }
    // A vertex against the interior of an edge of the other shape: the
    // distance is |cross(e, w)| / |e| and q - p is perpendicular to e.
    const bool edge_on_b = fb.edge;
    const std::size_t e0 = edge_on_b ? fb.i : fa.i, e1 = (e0 + 1) % count(!edge_on_b ? true : false);
    const fvec<T> p0 = pt(!edge_on_b, e0), p1 = pt(!edge_on_b, e1);
    const fvec<T> v = edge_on_b ? pt(true, fa.i) : pt(false, fb.i);
    const fvec<T> e = fsub(p1, p0);
    const fv<T> cr = cross(e, fsub(v, p0));
    c.N = fmul(cr, cr);
    c.D = fdot(e, e);
    const int sc = sign(cr);
    // q - p = (cross / |e|^2) (e.y, -e.x) for a vertex p of A (q on B's edge),
    // and (cross / |e|^2) (-e.y, e.x) for a vertex q of B (p on A's edge).
    fvec<T> perp = edge_on_b ? fvec<T>{e.y, fneg(e.x)} : fvec<T>{fneg(e.y), e.x};
    c.n = sc > 0 ? perp : fvec<T>{fneg(perp.x), fneg(perp.y)};
    return c;
  }

  // closer(x, y): N_x D_y < N_y D_x.
  bool closer(const fpair<T>& x, const fpair<T>& y) {
    if (x.fa == y.fa && x.fb == y.fb) {
      ++filter_stats().structural;
      return false;
    }
    return sign(fsub(fmul(x.N, y.D), fmul(y.N, x.D))) < 0;
  }

  fpair<T> local_closest(std::size_t ia, std::size_t ib) {
    fpair<T> best = make({false, ia}, {false, ib}, ia, ib);
    auto consider = [&](const feature& fa, const feature& fb) {
      if (gave_up) return;
      fpair<T> c = make(fa, fb, ia, ib);
      if (!gave_up && closer(c, best)) best = c;
    };
    const std::size_t nb = b.size(), na = a.size();
    if (nb > 1)
      for (std::size_t j : {(ib + nb - 1) % nb, ib}) consider({false, ia}, segment_feature(false, j, pt(true, ia)));
    if (na > 1)
      for (std::size_t i : {(ia + na - 1) % na, ia}) consider(segment_feature(true, i, pt(false, ib)), {false, ib});
    return best;
  }

  // Sign of n . (P[j] - P[i]); 0 only for an edge's end points when n is
  // perpendicular to that edge (the closest point lies inside it).
  int step_sign(const fpair<T>& c, bool on_a, std::size_t j, std::size_t i) {
    const feature& f = on_a ? c.fa : c.fb;
    if (f.edge) {
      const std::size_t e1 = (f.i + 1) % count(on_a);
      if ((i == f.i && j == e1) || (i == e1 && j == f.i)) {
        ++filter_stats().structural;
        return 0;
      }
    }
    return sign(fdot(c.n, fsub(pt(on_a, j), pt(on_a, i))));
  }

  // int_argmax(P, +-n, start).
  std::size_t argmax(const fpair<T>& c, bool on_a, int dir, std::size_t start) {
    return uphill_walk(
        count(on_a), start, [&](std::size_t j, std::size_t i) { return dir * step_sign(c, on_a, j, i) > 0; },
        [&] { return gave_up; });
  }

  // n . (P[k] - x) for the closest point x on P: x's vertex, or the first end
  // point of x's edge (n is perpendicular to that edge). Exactly 0 when P[k]
  // is x's vertex or an end point of x's edge.
  int level_sign(const fpair<T>& c, bool on_a, std::size_t k) {
    const feature& f = on_a ? c.fa : c.fb;
    if (k == f.i || (f.edge && k == (f.i + 1) % count(on_a))) {
      ++filter_stats().structural;
      return 0;
    }
    return sign(fdot(c.n, fsub(pt(on_a, k), pt(on_a, f.i))));
  }

  // optimal_pair_int.
  bool optimal(const fpair<T>& c, std::size_t& ka, std::size_t& kb) {
    ka = argmax(c, true, 1, c.ia);
    if (gave_up) return false;
    kb = argmax(c, false, -1, c.ib);
    if (gave_up) return false;
    const int sa = level_sign(c, true, ka);
    if (gave_up) return false;
    if (sa > 0) return false;
    const int sb = level_sign(c, false, kb);
    return !gave_up && sb >= 0;
  }
};

// certify_separation's answer when every decision is proved in T (true, and
// `out` is the closest pair of features), false when the filter gave up or the
// shapes are not proved separated by the same steps. D-GJK-15
template <class T>
bool filtered_certify_separation(std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                                 const vertex_pairs& start, fpair<T>& out, std::span<const fvec<T>> a_in = {},
                                 std::span<const fvec<T>> b_in = {}) {
  certify_filter<T> f{a, b, false, a_in, b_in};
  fpair<T> best;
  bool have = false;
  for (const auto& s1 : start)
    for (const auto& s2 : start) {
      fpair<T> c = f.local_closest(s1.first, s2.second);
      if (f.gave_up) return false;
      if (!have || f.closer(c, best)) {
        have = true;
        best = c;
      }
      if (f.gave_up) return false;
    }
  const std::size_t steps = 2 * (a.size() + b.size()) + 8;
  for (std::size_t step = 0; step < steps; ++step) {
    if (f.sign(best.N) <= 0) return false;  // N == 0: not separated; the exact path decides
    std::size_t ka = 0, kb = 0;
    const bool opt = f.optimal(best, ka, kb);
    if (f.gave_up) return false;
    if (opt) {
      out = best;
      return true;
    }
    fpair<T> next = f.local_closest(ka, kb);
    for (int k = 0; k < 2 && !f.gave_up; ++k) {
      fpair<T> c = k == 0 ? f.local_closest(ka, best.ib) : f.local_closest(best.ia, kb);
      if (!f.gave_up && f.closer(c, next)) next = c;
    }
    if (f.gave_up) return false;
    const bool progress = f.closer(next, best);
    if (f.gave_up || !progress) return false;  // the brute-force stage: exact path
    best = next;
  }
  return false;
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
