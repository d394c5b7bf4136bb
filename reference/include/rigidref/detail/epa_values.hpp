// EPA's depth, normal and witnesses: rounded from double words when provably
// the exact path's bits (D-EPA-9), else from the exact axis, once (D-EPA-6).
// Included by epa.hpp after epa_result.
#pragma once

#include "rigidref/detail/epa_axis.hpp"
#include "rigidref/detail/gjk_values.hpp"
#include "rigidref/detail/rounding_filter.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// ---- depth, normal and witnesses without rationals, when provably the same ----
//
// D-EPA-9: for an axis that is an edge normal of A or B, every value of
// D-EPA-6 is a short expression in double words of the input coordinates
// (accumulator<T>::type). Each is evaluated with a bound on its error; the
// result is the T value it rounds to when the bound (plus, for the values the
// exact path evaluates in double words, a bound on that path's own error)
// proves that the exact path gives the same T value. Otherwise the exact path
// runs (filter_stats().exact_values).

// The values of D-EPA-9 for the edge axis of A's edge k (on_a) or B's edge k,
// the overlap taken at A[ia] - B[ib], the witness vertex on A (vertex_a) or on
// B: the decisions (o > 0 proved, the partner tests) are the caller's. Pure:
// true with `out`'s depth, normal and witnesses filled when every rounding is
// proved, false otherwise. Shared by epa_fast_values and the lean SAT-first
// route (D-EPA-13), so both evaluate the same expressions.
template <class T>
RIGIDREF_HOT bool epa_edge_values(std::span<const vec2<T>> a, std::span<const vec2<T>> b, bool on_a, std::size_t k,
                                  std::size_t ia, std::size_t ib, bool vertex_a, const T& ra, const T& rb,
                                  epa_result<T>& out) {
  using R = rounding_filter<T>;
  using W = typename R::W;
  using DW = typename R::DW;
  using std::abs;
  const W u2 = R::u2;
  // n exactly, as double words (D-EPA-9 (1)).
  DW nx, ny;
  if (on_a) {
    const std::size_t k1 = k + 1 == a.size() ? 0 : k + 1;
    const DW ex = R::diff(a[k1].x, a[k].x), ey = R::diff(a[k1].y, a[k].y);
    nx = ey;
    ny = -ex;
  } else {
    const std::size_t k1 = k + 1 == b.size() ? 0 : k + 1;
    const DW ex = R::diff(b[k1].x, b[k].x), ey = R::diff(b[k1].y, b[k].y);
    nx = -ey;
    ny = ex;
  }
  const DW dx = R::diff(a[ia].x, b[ib].x), dy = R::diff(a[ia].y, b[ib].y);
  // o = n . (A[ia] - B[ib]) (D-EPA-9 (2)).
  const DW p1 = nx * dx, p2 = ny * dy;
  const DW o = p1 + p2;
  const W eo = (8 * u2 * (abs(p1.hi) + abs(p2.hi)) + 4 * u2 * abs(o.hi)) * R::up;
  const DW q1 = nx * nx, q2 = ny * ny;
  const DW n2 = q1 + q2;
  const DW len = sqrt(n2);
  for (const DW* x : std::initializer_list<const DW*>{&nx, &ny, &dx, &dy, &p1, &p2, &o, &q1, &q2, &n2, &len})
    if (!R::in_range(*x)) return false;
  if (!(o.hi > 0) || !(eo < o.hi / 1024)) return false;
  const W rho_o = (eo / o.hi) * R::rel;  // relative error of o
  // Depth o / |n| (D-EPA-9 (3)); the exact path's own double-word error is
  // below 64 u^2 of it (D-EPA-9 (5)).
  const DW depth = o / len;
  T depth_r{0};
  if (ra == 0 && rb == 0) {
    if (!R::rounds_to(depth, ((rho_o + 40 * u2) * abs(depth.hi) + 64 * u2 * abs(depth.hi)) * R::rel, depth_r))
      return false;
  } else {
    // Circles (D-EPA-7, D-EPA-9 (6)): (core depth + ra) + rb, left to right as
    // the exact path, 3 u^2 per addition on each side.
    const DW t1 = depth + DW(W(ra));
    const DW y = t1 + DW(W(rb));
    if (!R::in_range(depth) || !R::in_range(t1) || !R::in_range(y)) return false;
    const W delta = (rho_o + 40 * u2) * abs(depth.hi) + 4 * u2 * (abs(t1.hi) + abs(y.hi));
    const W m = 64 * u2 * abs(depth.hi) + 8 * u2 * (abs(t1.hi) + abs(y.hi));
    if (!R::rounds_to(y, (delta + m) * R::rel, depth_r)) return false;
  }
  // The unit normal n / |n|: the numerators are exact. unit[i] (relative
  // error 40 u^2) also offsets the witnesses of a circle below.
  vec2<T> normal;
  std::array<DW, 2> unit;
  for (int i = 0; i < 2; ++i) {
    const DW& ni = i == 0 ? nx : ny;
    T& r = i == 0 ? normal.x : normal.y;
    if (R::is_zero(ni)) {
      r = T(0);
      continue;
    }
    unit[static_cast<std::size_t>(i)] = ni / len;
    const DW& q = unit[static_cast<std::size_t>(i)];
    if (!R::rounds_to(q, (40 * u2 + 64 * u2) * abs(q.hi) * R::rel, r)) return false;
  }
  // Witnesses (D-EPA-6): a vertex on one side, that vertex -/+ w* on the other,
  // w* = (o / |n|^2) n.
  const vec2<T>& v = vertex_a ? a[ia] : b[ib];
  const DW t = o / n2;
  if (!R::in_range(t)) return false;
  const W rho_t = rho_o + 40 * u2;
  // The radius on each witness's side: offset_rounded(x, n, s) is round_vec(x)
  // for s == 0 and otherwise x_i + (s / |n|) n_i in double words
  // (rounding_filter::offset_rounds_to; the exact path's from_exact of a
  // rational x adds 2 u^2 |x_i|). D-EPA-9 (6)
  const T s_vertex = vertex_a ? ra : T(-rb), s_other = vertex_a ? T(-rb) : ra;
  vec2<T> other, vertex;
  for (int i = 0; i < 2; ++i) {
    const DW& ni = i == 0 ? nx : ny;
    const DW& ui = unit[static_cast<std::size_t>(i)];
    const T vi = i == 0 ? v.x : v.y;
    T& r = i == 0 ? other.x : other.y;
    T& rv = i == 0 ? vertex.x : vertex.y;
    if (s_vertex == 0 || R::is_zero(ni)) {
      rv = vi == 0 ? T(0) : vi;  // round_vec gives +0 for 0; an exact zero offset keeps the vertex
    } else if (!R::offset_rounds_to(DW(W(vi)), W(0), W(0), ui, 40 * u2, s_vertex, rv)) {
      return false;
    }
    if (R::is_zero(ni)) {  // w*_i = 0 and no offset: the coordinate is the vertex's
      r = vi == 0 ? T(0) : vi;
      continue;
    }
    const DW w = t * ni;
    const DW p = vertex_a ? DW(W(vi)) - w : DW(W(vi)) + w;
    if (!R::in_range(w) || !R::in_range(p)) return false;
    const W ep = ((rho_t + 8 * u2) * abs(w.hi) * R::rel + 4 * u2 * abs(p.hi)) * R::rel;
    if (s_other == 0) {
      if (!R::rounds_to(p, ep, r)) return false;
    } else if (!R::offset_rounds_to(p, ep, 2 * u2 * abs(p.hi), ui, 40 * u2, s_other, r)) {
      return false;
    }
  }
  out.depth = depth_r;
  out.normal = normal;
  out.point_a = vertex_a ? vertex : other;
  out.point_b = vertex_a ? other : vertex;
  return true;
}

template <class T>
bool epa_fast_values(const epa_filter<T>& f, epa_fcand<T>& c, const T& ra, const T& rb, epa_result<T>& out) {
  if (c.key.kind == 2) return false;
  if (fsign(c.o) <= 0) return false;
  const std::size_t na = f.a.size(), nb = f.b.size();
  // Partners (a neighbour at the same level along n) are exact decisions,
  // filtered like the argmax.
  auto partner = [&](bool on_a, std::size_t k) -> std::size_t {
    const std::size_t count = on_a ? na : nb;
    if (count == 1) return k;
    const std::size_t next = (k + 1) % count, prev = (k + count - 1) % count;
    if (f.compare(c.key, c.n, on_a, next, k) == 0) return next;
    if (f.compare(c.key, c.n, on_a, prev, k) == 0) return prev;
    return k;
  };
  const bool vertex_a = partner(true, c.ia) == c.ia;
  if (!vertex_a && partner(false, c.ib) != c.ib) return false;  // parallel edges: exact path
  const bool on_a = c.key.kind == 0;
  return epa_edge_values<T>(f.a, f.b, on_a, on_a ? c.key.i1 : c.key.j1, c.ia, c.ib, vertex_a, ra, rb, out);
}

// Witness points p_a in A, p_b in B with p_a - p_b = (o / |n|^2) n for the
// minimising axis. D-EPA-6
inline std::pair<evec, evec> epa_witnesses(const epoly& A, const epoly& B, const axis_overlap& ax) {
  const evec& n = ax.n;
  const evec wstar = (ax.o / length_squared(n)) * n;
  auto partner = [&](const epoly& P, std::size_t k) -> std::size_t {  // neighbour at the same level, or k
    if (P.size() == 1) return k;
    const exact level = dot(n, P[k]);
    const std::size_t next = (k + 1) % P.size(), prev = (k + P.size() - 1) % P.size();
    if (dot(n, P[next]) == level) return next;
    if (dot(n, P[prev]) == level) return prev;
    return k;
  };
  const std::size_t ka = ax.ia, ka2 = partner(A, ax.ia);
  const std::size_t kb = ax.ib, kb2 = partner(B, ax.ib);
  if (ka == ka2) return {A[ka], A[ka] - wstar};
  if (kb == kb2) return {B[kb] + wstar, B[kb]};
  // Parallel edges: a tangent coordinate common to both edges (wstar has
  // tangent coordinate 0, so the intervals overlap for the minimising axis).
  const evec t{exact(-n.y), n.x};
  exact alo = dot(t, A[ka]), ahi = dot(t, A[ka2]);
  if (ahi < alo) std::swap(alo, ahi);
  exact blo = dot(t, B[kb]), bhi = dot(t, B[kb2]);
  if (bhi < blo) std::swap(blo, bhi);
  exact tau = alo < blo ? blo : alo;
  if (tau > ahi) tau = ahi;
  const evec pa = A[ka] + ((tau - dot(t, A[ka])) / length_squared(t)) * t;
  return {pa, pa - wstar};
}

template <class T>
vec2<T> unit_rounded(const evec& n) {
  using A = accumulator<T>;
  using W = typename A::type;
  const W len = A::sqrt(A::from_exact(length_squared(n)));
  return {A::round(A::from_exact(n.x) / len), A::round(A::from_exact(n.y) / len)};
}

// Inputs near T's overflow threshold can give a depth or a point that T
// cannot hold: an input error, never an infinity handed back.
template <class T>
const epa_result<T>& require_finite_result(const epa_result<T>& r) {
  for (const T* x : {&r.depth, &r.distance, &r.normal.x, &r.normal.y, &r.point_a.x, &r.point_a.y, &r.point_b.x,
                     &r.point_b.y})
    if (!is_finite(*x))
      throw invalid_input("EPA: the result overflows " + std::string(scalar_name<T>()) +
                          ": the input is too large for this precision");
  return r;
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
