// EPA's axis minimum over the shortlist's candidate axes (D-EPA-5), exactly and
// with the floating-point filter (D-EPA-8).
#pragma once

#include "rigidref/detail/containment.hpp"
#include "rigidref/detail/core_query.hpp"
#include "rigidref/detail/epa_loop.hpp"
#include "rigidref/filter.hpp"
#include <optional>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// The smallest exact overlap over the shortlist's candidate axes. D-EPA-5
template <class T>
axis_overlap epa_exact_axis(const epoly& A, const epoly& B, const epa_run<T>& run) {
  bool have = false;
  axis_overlap best;
  auto consider = [&](const evec& n, std::size_t ia, std::size_t ib) {
    if (is_zero_vec(n)) return;
    const axis_overlap c = overlap_along(A, B, n, ia, ib);
    if (!have || smaller_overlap(c, best)) {
      have = true;
      best = c;
    }
  };
  const std::size_t na = A.size(), nb = B.size();
  for (const auto& face : run.shortlist) {
    const evec w1 = A[face[0].ia] - B[face[0].ib];
    const evec w2 = A[face[1].ia] - B[face[1].ib];
    const evec e = w2 - w1;
    const std::size_t ia = face[0].ia, ib = face[0].ib;
    consider({e.y, exact(-e.x)}, ia, ib);
    for (const auto& m : face) {
      if (na > 1)
        for (std::size_t k : {(m.ia + na - 1) % na, m.ia}) {
          const evec ea = A[(k + 1) % na] - A[k];
          consider({ea.y, exact(-ea.x)}, ia, ib);
        }
      if (nb > 1)
        for (std::size_t k : {(m.ib + nb - 1) % nb, m.ib}) {
          const evec eb = B[(k + 1) % nb] - B[k];
          consider({exact(-eb.y), eb.x}, ia, ib);
        }
    }
  }
  for (const auto& m : run.near_supports) {
    if (na > 1)
      for (std::size_t k : {(m.ia + na - 1) % na, m.ia}) {
        const evec ea = A[(k + 1) % na] - A[k];
        consider({ea.y, exact(-ea.x)}, m.ia, m.ib);
      }
    if (nb > 1)
      for (std::size_t k : {(m.ib + nb - 1) % nb, m.ib}) {
        const evec eb = B[(k + 1) % nb] - B[k];
        consider({exact(-eb.y), eb.x}, m.ia, m.ib);
      }
  }
  if (!have) throw std::logic_error("EPA: empty shortlist (internal error)");
  return best;
}

// ---- the same minimum, filtered (D-EPA-8) -------------------------------------
//
// epa_filtered_axis makes exactly the decisions of epa_exact_axis, in the same
// order, with each decision taken in T under a proved error bound (filter.hpp,
// D-GJK-13) and evaluated exactly only when the bound does not decide it. Only
// the winning axis is evaluated in rationals.

// Which exact vector a candidate axis is: the outward normal of A's edge k, the
// negated outward normal of B's edge k, or the normal of the polytope face
// (A[i1] - B[j1], A[i2] - B[j2]). Faces along an edge of A or of B are the
// same vector as that edge's axis (D-EPA-8) and get its key.
struct epa_axis_key {
  int kind = 0;  // 0: A edge i1; 1: B edge j1; 2: face
  std::size_t i1 = 0, j1 = 0, i2 = 0, j2 = 0;
  bool operator==(const epa_axis_key&) const = default;
};

template <class T>
struct epa_fcand {
  epa_axis_key key;
  fvec<T> n;
  fv<T> o;
  fv<T> n2;  // |n|^2
  std::size_t ia = 0, ib = 0;
  std::optional<axis_overlap> ex;  // exact, computed on demand (no rationals built otherwise)
};

// The exact vector of key k, from the core's exact points (A, B as given).
template <class T>
evec epa_exact_normal(const core_contact<T>& cc, const epa_axis_key& k) {
  const std::size_t na = cc.A().size(), nb = cc.B().size();
  if (k.kind == 0) {
    const evec e = cc.A()[(k.i1 + 1) % na] - cc.A()[k.i1];
    return {e.y, exact(-e.x)};
  }
  if (k.kind == 1) {
    const evec e = cc.B()[(k.j1 + 1) % nb] - cc.B()[k.j1];
    return {exact(-e.y), e.x};
  }
  const evec e = (cc.A()[k.i2] - cc.B()[k.j2]) - (cc.A()[k.i1] - cc.B()[k.j1]);
  return {e.y, exact(-e.x)};
}

template <class T>
struct epa_filter {
  std::span<const vec2<T>> a, b;
  const core_contact<T>& cc;  // its exact points are converted only for a fallback

  evec exact_normal(const epa_axis_key& k) const { return epa_exact_normal(cc, k); }

  fvec<T> filtered_normal(const epa_axis_key& k) const {
    const std::size_t na = a.size(), nb = b.size();
    if (k.kind == 0) {
      const fvec<T> e = fsub(fvec_exact(a[(k.i1 + 1) % na]), fvec_exact(a[k.i1]));
      return {e.y, fneg(e.x)};
    }
    if (k.kind == 1) {
      const fvec<T> e = fsub(fvec_exact(b[(k.j1 + 1) % nb]), fvec_exact(b[k.j1]));
      return {fneg(e.y), e.x};
    }
    const fvec<T> w1 = fsub(fvec_exact(a[k.i1]), fvec_exact(b[k.j1]));
    const fvec<T> w2 = fsub(fvec_exact(a[k.i2]), fvec_exact(b[k.j2]));
    const fvec<T> e = fsub(w2, w1);
    return {e.y, fneg(e.x)};
  }

  const axis_overlap& exact_of(epa_fcand<T>& c) const {
    if (!c.ex) {
      axis_overlap x;
      x.n = exact_normal(c.key);
      x.o = dot(x.n, cc.A()[c.ia]) - dot(x.n, cc.B()[c.ib]);
      x.ia = c.ia;
      x.ib = c.ib;
      c.ex = std::move(x);
    }
    return *c.ex;
  }

  // Sign of n . (P[j] - P[i]) for P = A (on_a) or B, n the candidate's normal.
  int compare(const epa_axis_key& k, const fvec<T>& n, bool on_a, std::size_t j, std::size_t i) const {
    const auto P = on_a ? a : b;
    const std::size_t count = P.size();
    // An edge's own normal against its two end points: exactly 0 (D-EPA-8).
    if (k.kind == (on_a ? 0 : 1)) {
      const std::size_t e0 = on_a ? k.i1 : k.j1, e1 = (e0 + 1) % count;
      if ((i == e0 && j == e1) || (i == e1 && j == e0)) {
        ++filter_stats().structural;
        return 0;
      }
    }
    // An edge normal: n . w = -+cross(e, w), one degree-2 form of input points
    // under the static bound (D-GJK-17); a face normal: the running bound.
    int s = 0;
    if (k.kind == 0)
      s = -static_cross_sign(a[k.i1], a[(k.i1 + 1) % a.size()], P[i], P[j]);
    else if (k.kind == 1)
      s = static_cross_sign(b[k.j1], b[(k.j1 + 1) % b.size()], P[i], P[j]);
    else
      s = fsign(fdot(n, fsub(fvec_exact(P[j]), fvec_exact(P[i]))));
    if (s != 0) {
      ++filter_stats().certain;
      return s;
    }
    ++filter_stats().fallback;
    const epoly& E = on_a ? cc.A() : cc.B();
    const exact d = dot(exact_normal(k), E[j] - E[i]);
    return d > 0 ? 1 : (d < 0 ? -1 : 0);
  }

  // exact_argmax(P, sign * n, start), step for step.
  std::size_t argmax(const epa_axis_key& k, const fvec<T>& n, bool on_a, int sign, std::size_t start) const {
    return uphill_walk(on_a ? a.size() : b.size(), start,
                       [&](std::size_t j, std::size_t i) { return sign * compare(k, n, on_a, j, i) > 0; });
  }

  epa_fcand<T> candidate(const epa_axis_key& k, const fvec<T>& n, std::size_t ia0, std::size_t ib0) const {
    epa_fcand<T> c;
    c.key = k;
    c.n = n;
    // An edge's own polygon is extreme along the edge's outward normal at the
    // edge itself (convex_polygon is strictly convex and counter-clockwise):
    // no search there. exact_argmax from ia0 (ib0) stops at one of the
    // edge's two end points; both give the same overlap and, with the
    // partner rule of epa_witnesses, the same witnesses (D-EPA-8).
    c.ia = k.kind == 0 ? k.i1 : argmax(k, n, true, 1, ia0);
    c.ib = k.kind == 1 ? k.j1 : argmax(k, n, false, -1, ib0);
    c.o = fdot(n, fsub(fvec_exact(a[c.ia]), fvec_exact(b[c.ib])));
    c.n2 = fdot(n, n);
    return c;
  }

  int o_sign(epa_fcand<T>& c) const {
    const int s = fsign(c.o);
    if (s != 0) {
      ++filter_stats().certain;
      return s;
    }
    ++filter_stats().fallback;
    const exact& o = exact_of(c).o;
    return o > 0 ? 1 : (o < 0 ? -1 : 0);
  }

  // smaller_overlap(x, y), decided in T when the bound allows.
  bool smaller(epa_fcand<T>& x, epa_fcand<T>& y) const {
    const bool xn = o_sign(x) < 0, yn = o_sign(y) < 0;
    if (xn != yn) return xn;
    const fv<T> lhs = fmul(fmul(x.o, x.o), y.n2);
    const fv<T> rhs = fmul(fmul(y.o, y.o), x.n2);
    const int s = fsign(fsub(lhs, rhs));
    if (s != 0) {
      ++filter_stats().certain;
      return xn ? s > 0 : s < 0;
    }
    ++filter_stats().fallback;
    return smaller_overlap(exact_of(x), exact_of(y));
  }
};

// epa_exact_axis for T with a filter (filter_enabled_v<T>): the winning
// candidate, its exact axis_overlap on demand (f.exact_of). D-EPA-8
template <class T>
epa_fcand<T> epa_filtered_best(const epa_filter<T>& f, const epa_run<T>& run) {
  const std::size_t na = f.a.size(), nb = f.b.size();
  static thread_local std::vector<epa_axis_key> seen;  // kept between calls: no allocation per query
  seen.clear();
  bool have = false;
  epa_fcand<T> best;
  auto consider = [&](const epa_axis_key& k, std::size_t ia, std::size_t ib) {
    // A vector already considered cannot win again: its overlap ratio equals
    // the earlier one's, and smaller_overlap is strict.
    for (const auto& s : seen)
      if (s == k) return;
    seen.push_back(k);
    const fvec<T> n = f.filtered_normal(k);
    if (k.kind == 2) {  // is_zero_vec(n), exactly
      if (fsign(n.x) == 0 && fsign(n.y) == 0) {
        ++filter_stats().fallback;
        if (is_zero_vec(f.exact_normal(k))) return;
      } else {
        ++filter_stats().certain;
      }
    }
    epa_fcand<T> c = f.candidate(k, n, ia, ib);
    if (!have || f.smaller(c, best)) {
      have = true;
      best = std::move(c);
    }
  };
  for (const auto& face : run.shortlist) {
    const std::size_t ia = face[0].ia, ib = face[0].ib;
    epa_axis_key fk{2, face[0].ia, face[0].ib, face[1].ia, face[1].ib};
    if (fk.j1 == fk.j2 && na > 1 && fk.i2 == (fk.i1 + 1) % na) fk = {0, fk.i1, 0, 0, 0};
    else if (fk.i1 == fk.i2 && nb > 1 && fk.j2 == (fk.j1 + 1) % nb) fk = {1, 0, fk.j1, 0, 0};
    consider(fk, ia, ib);
    for (const auto& m : face) {
      if (na > 1)
        for (std::size_t k : {(m.ia + na - 1) % na, m.ia}) consider({0, k, 0, 0, 0}, ia, ib);
      if (nb > 1)
        for (std::size_t k : {(m.ib + nb - 1) % nb, m.ib}) consider({1, 0, k, 0, 0}, ia, ib);
    }
  }
  for (const auto& m : run.near_supports) {  // the same candidates as epa_exact_axis, in its order
    if (na > 1)
      for (std::size_t k : {(m.ia + na - 1) % na, m.ia}) consider({0, k, 0, 0, 0}, m.ia, m.ib);
    if (nb > 1)
      for (std::size_t k : {(m.ib + nb - 1) % nb, m.ib}) consider({1, 0, k, 0, 0}, m.ia, m.ib);
  }
  if (!have) throw std::logic_error("EPA: empty shortlist (internal error)");
  return best;
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
