// Exact containment of the origin in GJK's simplex (D-GJK-6), its filtered
// form (D-GJK-14), and exact overlaps along axes (D-GJK-11): the intersecting
// branch of a query (detail/core_query.hpp) and EPA's exact minimum.
#pragma once

#include "rigidref/detail/gjk_loop.hpp"
#include "rigidref/detail/separation_exact.hpp"
#include "rigidref/filter.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

struct containment {
  bool contains = false;
  bool strict = false;  // origin in the interior of the simplex (hence of A - B)
  evec common;          // a point of A and of B (when contains)
};

// Does the exact simplex (vertex pairs) contain the origin? D-GJK-6
// Decided on the integer frame of D-GJK-12 (W = s w; every sign is the
// rational one and every ratio the same rational, D-GJK-31); only the common
// point is formed in rationals.
inline containment exact_simplex_contains(const epoly& A, const epoly& B,
                                          const vertex_pairs& idx) {
  containment out;
  const int_frame f = make_int_frame(A, B);
  const auto icross = [](const ivec& a, const ivec& b) { return big_int(a.x * b.y - a.y * b.x); };
  std::vector<ivec> w;
  for (const auto& [i, j] : idx) w.push_back(f.A[i] - f.B[j]);
  if (w.size() == 3) {
    const big_int D = icross(w[1] - w[0], w[2] - w[0]);
    if (D != 0) {
      const int sd = D > 0 ? 1 : -1;
      bool inside = true, strict = true;
      for (int k = 0; k < 3; ++k) {
        // orientation(w_k, w_k+1, origin): the sign of cross(w_k+1 - w_k, -w_k).
        const ivec& a = w[static_cast<std::size_t>(k)];
        const big_int det = icross(w[static_cast<std::size_t>((k + 1) % 3)] - a, ivec{big_int(-a.x), big_int(-a.y)});
        const int s = det > 0 ? 1 : (det < 0 ? -1 : 0);
        if (s == -sd) inside = false;
        if (s == 0) strict = false;
      }
      if (inside) {
        // Barycentric weights of the origin (D-GJK-6): s^2 cancels in each ratio.
        // Boost 1.74's rational of cpp_int rejects a negative denominator: the
        // sign goes to the numerator.
        const auto ratio = [&](const ivec& p, const ivec& q) {
          return D > 0 ? exact(icross(p, q), D) : exact(big_int(-icross(p, q)), big_int(-D));
        };
        const exact l0 = ratio(w[1], w[2]), l1 = ratio(w[2], w[0]), l2 = ratio(w[0], w[1]);
        out.contains = true;
        out.strict = strict;
        out.common = l0 * A[idx[0].first] + l1 * A[idx[1].first] + l2 * A[idx[2].first];
        return out;
      }
      return out;
    }
  }
  // Segments (a flat triangle, or a 2-simplex) and points.
  for (std::size_t i = 0; i < w.size(); ++i)
    for (std::size_t j = i; j < w.size(); ++j) {
      const ivec& wi = w[i];
      const ivec& wj = w[j];
      if (icross(wi, wj) != 0 || idot(wi, wj) > 0) continue;
      if (i == j || (wi.x == wj.x && wi.y == wj.y)) {
        if (!(wi.x == 0 && wi.y == 0)) continue;
        out.contains = true;
        out.common = A[idx[i].first];
        return out;
      }
      const ivec d = wj - wi;
      const exact t(big_int(-idot(wi, d)), idot(d, d));
      out.contains = true;
      out.common = A[idx[i].first] + t * (A[idx[j].first] - A[idx[i].first]);
      return out;
    }
  return out;
}

// exact_simplex_contains for a triangle whose orientation and three edge
// sides are all proved in T (D-GJK-14): 1 when the origin is strictly inside
// (then exact_simplex_contains answers contains and strict), 0 when it is
// proved outside a non-flat triangle (contains false), -1 when the filter does
// not decide (a point, a segment, a sign not proved): the caller runs
// exact_simplex_contains.
template <class T>
int filtered_simplex_contains(std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                              const vertex_pairs& idx) {
  if (idx.size() != 3) {  // a point or a segment: the exact test decides
    ++filter_stats().fallback;
    return -1;
  }
  std::array<fvec<T>, 3> w;
  for (std::size_t k = 0; k < 3; ++k) w[k] = fsub(fvec_exact(a[idx[k].first]), fvec_exact(b[idx[k].second]));
  auto fcross = [](const fvec<T>& p, const fvec<T>& q) { return fsub(fmul(p.x, q.y), fmul(p.y, q.x)); };
  const int sd = fsign(fcross(fsub(w[1], w[0]), fsub(w[2], w[0])));
  if (sd == 0) {
    ++filter_stats().fallback;
    return -1;
  }
  bool inside = true;
  for (std::size_t k = 0; k < 3; ++k) {
    // orientation(w_k, w_k+1, origin) = sign(cross(w_k, w_k+1)).
    const int s = fsign(fcross(w[k], w[(k + 1) % 3]));
    if (s == 0) {
      ++filter_stats().fallback;
      return -1;
    }
    if (s == -sd) inside = false;
  }
  ++filter_stats().certain;
  return inside ? 1 : 0;
}

// The common point of exact_simplex_contains for a triangle that contains the
// origin (barycentric weights, D-GJK-6), the same expression.
inline evec barycentric_common(const epoly& A, const epoly& B,
                               const vertex_pairs& idx) {
  std::vector<evec> w;
  for (const auto& [i, j] : idx) w.push_back(A[i] - B[j]);
  const exact D = cross(w[1] - w[0], w[2] - w[0]);
  const exact l0 = cross(w[1], w[2]) / D, l1 = cross(w[2], w[0]) / D, l2 = cross(w[0], w[1]) / D;
  return l0 * A[idx[0].first] + l1 * A[idx[1].first] + l2 * A[idx[2].first];
}

// The origin on the boundary of the simplex is still interior to A - B when
// it lies inside a chord [W_i, W_j] of A - B and A - B reaches strictly
// beyond the chord's line on both sides (then a quadrilateral of points of
// A - B has the open chord inside it). Checked with exact supports; on
// success the two support pairs are added to `idx` (EPA's seed). D-GJK-6
// Run on the integer frame of D-GJK-12: W = s w, the chord's normal s n, and
// every sign and argmax the same as on the rationals (D-GJK-30).
inline bool interior_by_chord(const epoly& A, const epoly& B, vertex_pairs& idx) {
  const int_frame f = make_int_frame(A, B);
  const auto w = [&](std::size_t k) { return f.A[idx[k].first] - f.B[idx[k].second]; };
  const auto zero = [](const ivec& v) { return v.x == 0 && v.y == 0; };
  for (std::size_t i = 0; i < idx.size(); ++i)
    for (std::size_t j = i + 1; j < idx.size(); ++j) {
      const ivec wi = w(i), wj = w(j);
      if ((wi.x == wj.x && wi.y == wj.y) || zero(wi) || zero(wj)) continue;
      // origin not strictly inside [wi, wj]
      if (big_int(wi.x * wj.y - wi.y * wj.x) != 0 || idot(wi, wj) >= 0) continue;
      const ivec e = wj - wi;
      const ivec n{big_int(-e.y), e.x};
      vertex_pairs extra;
      for (const ivec& d : {n, ivec{big_int(-n.x), big_int(-n.y)}}) {
        const ivec neg{big_int(-d.x), big_int(-d.y)};
        const std::size_t ka = int_argmax(f.A, d, idx[i].first), kb = int_argmax(f.B, neg, idx[i].second);
        if (!(idot(d, f.A[ka] - f.B[kb]) > 0)) return false;  // the chord lies on the boundary
        extra.push_back({ka, kb});
      }
      for (const auto& e2 : extra) idx.push_back(e2);
      return true;
    }
  return false;
}

template <class T>
vertex_pairs simplex_indices(const gjk_simplex<T>& s) {
  vertex_pairs out;
  for (int k = 0; k < s.size; ++k) out.push_back({s.p[static_cast<std::size_t>(k)].ia, s.p[static_cast<std::size_t>(k)].ib});
  return out;
}

// Overlap of A and B along the axis n: max_A n.x - min_B n.x (>= 0 when the
// projections overlap; moving B by o/|n|^2 n makes them touch). D-GJK-11
struct axis_overlap {
  evec n;
  exact o;
  std::size_t ia = 0, ib = 0;  // extreme vertices
};

inline axis_overlap overlap_along(const epoly& A, const epoly& B, const evec& n, std::size_t ia0, std::size_t ib0) {
  const std::size_t ia = exact_argmax(A, n, ia0);
  const std::size_t ib = exact_argmax(B, -n, ib0);
  return {n, exact(dot(n, A[ia]) - dot(n, B[ib])), ia, ib};
}

// xo / |x.n| < yo / |y.n| from the overlaps and |n|^2 (both axes nonzero),
// exactly: the signs first, then the squares cross-multiplied. In rationals
// and, on the integer frame, in integers (D-GJK-28).
template <class N>
bool smaller_overlap_ratio(const N& xo, const N& xn2, const N& yo, const N& yn2) {
  const bool xn = xo < 0, yn = yo < 0;
  if (xn != yn) return xn;
  const N lhs = xo * xo * yn2, rhs = yo * yo * xn2;
  return xn ? lhs > rhs : lhs < rhs;
}

// x.o / |x.n| < y.o / |y.n| (both axes nonzero), exactly.
inline bool smaller_overlap(const axis_overlap& x, const axis_overlap& y) {
  return smaller_overlap_ratio<exact>(x.o, length_squared(x.n), y.o, length_squared(y.n));
}

// The smallest overlap over every edge normal of A - B, exactly (the
// fallback of EPA and the touching test): the penetration depth is
// o / |n| for the minimiser when every overlap is >= 0. D-GJK-11
// Ties keep the first axis (A's edges, then B's): the normal convention when
// it is not unique (D-EPA-12). A two-point core contributes both of its
// perpendiculars (D-GJK-20).
//
// Run on the integer frame of D-GJK-12 (D-GJK-28): with X = (x - o) s, an
// axis N = s n and an overlap O = s^2 o, so every comparison (the uphill
// walks, the signs, o^2 |n'|^2 against o'^2 |n|^2) is the rational one
// times a positive power of s; only the winner goes back to rationals.
inline axis_overlap exact_min_overlap(const epoly& A, const epoly& B) {
  if (A.size() < 2 && B.size() < 2) throw std::logic_error("exact_min_overlap: two points have no axis");
  const int_frame f = make_int_frame(A, B);
  struct candidate {
    ivec n;
    big_int o;
    std::size_t ia = 0, ib = 0;
  };
  const auto smaller = [](const candidate& x, const candidate& y) {
    return smaller_overlap_ratio<big_int>(x.o, idot(x.n, x.n), y.o, idot(y.n, y.n));
  };
  bool have = false;
  candidate best;
  const auto consider = [&](ivec n) {
    const ivec neg{big_int(-n.x), big_int(-n.y)};
    const std::size_t ia = int_argmax(f.A, n, 0), ib = int_argmax(f.B, neg, 0);
    big_int o = idot(n, f.A[ia]) - idot(n, f.B[ib]);
    candidate c{std::move(n), std::move(o), ia, ib};
    if (!have || smaller(c, best)) {
      have = true;
      best = std::move(c);
    }
  };
  // The edge normals of A - B (D-GJK-11): A's outward normals, then B's
  // negated, in this order (ties keep the first).
  if (f.A.size() > 1)
    for (std::size_t i = 0; i < f.A.size(); ++i) {
      const ivec e = f.A[(i + 1) % f.A.size()] - f.A[i];
      consider({e.y, big_int(-e.x)});
    }
  if (f.B.size() > 1)
    for (std::size_t i = 0; i < f.B.size(); ++i) {
      const ivec e = f.B[(i + 1) % f.B.size()] - f.B[i];
      consider({big_int(-e.y), e.x});
    }
  return {evec{exact(best.n.x, f.scale), exact(best.n.y, f.scale)}, exact(best.o, big_int(f.scale * f.scale)),
          best.ia, best.ib};
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
