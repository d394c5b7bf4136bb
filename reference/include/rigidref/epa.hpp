// EPA, the expanding polytope algorithm (van den Bergen 2001; Ericson,
// "Real-Time Collision Detection", ch. 9): penetration depth, unit normal
// from A to B and witness points of two overlapping convex polygons or
// circles. derivations/epa.md derives every step (anchors D-EPA-n).
//
// Conventions (D-EPA-1): depth is the length of the shortest translation of
// B that makes the closed shapes touch; `normal` is its unit direction, from
// A to B, so translating B by depth * normal leaves A and B touching.
// point_a (on A) and point_b (on B) are witness points with
// point_a - point_b = depth * normal (before rounding each coordinate).
//
// Design ("identify features in T, evaluate exactly, round once"):
//  1. GJK (gjk.hpp) decides exactly whether the closed shapes meet and, when
//     the origin is interior to its exact simplex, hands that simplex to EPA.
//  2. EPA grows a polygon inside A - B in T (D-EPA-2, D-EPA-3). It stops when
//     every face within a margin of the closest final face is final (its
//     support point adds nothing); those faces are the shortlist (D-EPA-4).
//  3. For each shortlisted face, the face's own normal and the edge normals
//     of A and B at its vertices are candidate axes; the overlap of each is
//     evaluated exactly, and the smallest o / |n| wins (D-EPA-5). The depth
//     sqrt(o^2 / |n|^2), the normal n / |n| and the witnesses are evaluated
//     from exact rationals in the accumulator and rounded once (D-EPA-6).
//  Touching contacts (the origin on the boundary of GJK's simplex), a
//  polytope that does not contain the origin in T, and EPA's cap use the
//  exact minimum over every edge normal instead (D-GJK-11); the result says
//  so in `exact_fallback` and, for the cap, status cap_reached.
//
// Circles: EPA runs on the cores (a circle's core is its centre) and the
// radii are added to the core depth before rounding (D-EPA-7). Two circles
// with coincident centres have no defined normal: status degenerate_input,
// normal (1, 0) by convention, depth ra + rb.
#pragma once

#include "rigidref/gjk.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace rigidref {

struct epa_options {
  int max_iterations = 0;      // EPA's cap in T; 0: automatic, 32 + 4 (n_A + n_B)
  int gjk_max_iterations = 0;  // GJK's cap in T; 0: automatic (gjk_options)
};

template <class T>
struct epa_result {
  collision_status status = collision_status::converged;
  bool intersecting = false;  // the closed shapes share a point (touching counts)
  T depth{0};                 // >= 0; 0 when touching or not intersecting
  vec2<T> normal{};           // unit, from A to B (when apart: direction from point_a to point_b)
  vec2<T> point_a{};          // witness on A (when apart: closest point)
  vec2<T> point_b{};          // witness on B (when apart: closest point)
  T distance{0};              // separation when not intersecting, else 0
  int iterations = 0;         // GJK + EPA iterations in T
  bool exact_fallback = false;
};

namespace detail {

template <class T>
struct epa_run {
  std::vector<std::array<minkowski_point<T>, 2>> shortlist;
  int iterations = 0;
  bool capped = false;
  bool degenerate = false;  // no polygon around the origin in T: use the exact fallback
};

// Convex hull, counter-clockwise, of a few points (Andrew's monotone chain
// with the exact orientation predicate on the T values).
template <class T>
std::vector<minkowski_point<T>> hull_ccw(std::vector<minkowski_point<T>> pts) {
  std::sort(pts.begin(), pts.end(), [](const minkowski_point<T>& p, const minkowski_point<T>& q) {
    return p.w.x < q.w.x || (p.w.x == q.w.x && p.w.y < q.w.y);
  });
  std::vector<minkowski_point<T>> u;
  for (const auto& p : pts)
    if (u.empty() || !(u.back().w == p.w)) u.push_back(p);
  if (u.size() < 3) return u;
  std::vector<minkowski_point<T>> h(2 * u.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    while (k >= 2 && orientation(h[k - 2].w, h[k - 1].w, u[i].w) <= 0) --k;
    h[k++] = u[i];
  }
  for (std::size_t i = u.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && orientation(h[k - 2].w, h[k - 1].w, u[i - 1].w) <= 0) --k;
    h[k++] = u[i - 1];
  }
  h.resize(k - 1);
  return h;
}

template <class T>
bool polytope_contains_origin(const std::vector<minkowski_point<T>>& poly) {
  if (poly.size() < 3) return false;
  for (std::size_t i = 0; i < poly.size(); ++i)
    if (orientation(poly[i].w, poly[(i + 1) % poly.size()].w, vec2<T>{}) < 0) return false;
  return true;
}

// EPA in T. D-EPA-2..4
template <class T>
epa_run<T> epa_core(std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                    const std::vector<std::pair<std::size_t, std::size_t>>& seed, int cap) {
  using std::abs;
  using std::sqrt;
  epa_run<T> run;
  std::vector<minkowski_point<T>> pts;
  for (const auto& [i, j] : seed) pts.push_back({a[i] - b[j], i, j});
  std::vector<minkowski_point<T>> poly = hull_ccw(pts);
  if (!polytope_contains_origin(poly)) {
    // A segment or point simplex (or rounding): add supports around it.
    if (pts.size() == 2) {
      const vec2<T> e = pts[1].w - pts[0].w;
      pts.push_back(minkowski_support(a, b, vec2<T>{T(-e.y), e.x}));
      pts.push_back(minkowski_support(a, b, vec2<T>{e.y, T(-e.x)}));
    }
    for (const vec2<T>& d : {vec2<T>{1, 0}, vec2<T>{-1, 0}, vec2<T>{0, 1}, vec2<T>{0, -1}})
      pts.push_back(minkowski_support(a, b, d));
    poly = hull_ccw(pts);
    if (!polytope_contains_origin(poly)) {
      run.degenerate = true;
      return run;
    }
  }
  std::vector<bool> final_edge(poly.size(), false);  // edge i: poly[i] -> poly[i + 1]
  const T eps = epsilon<T>();
  for (;;) {
    const std::size_t m = poly.size();
    std::vector<T> dist(m);
    std::vector<vec2<T>> normal(m);
    std::vector<T> len(m);
    T scale{0};
    for (const auto& p : poly) scale = std::max<T>(scale, std::max<T>(abs(p.w.x), abs(p.w.y)));
    // D-EPA-4: rounding moves a face distance by a few eps * scale; faces
    // closer than `margin` to the best final face are evaluated exactly.
    const T margin = 256 * eps * scale, tol = 16 * eps * scale;
    bool have_final = false;
    T best_final{0};
    for (std::size_t i = 0; i < m; ++i) {
      const vec2<T> e = poly[(i + 1) % m].w - poly[i].w;
      normal[i] = {e.y, T(-e.x)};  // outward for a counter-clockwise polygon
      len[i] = sqrt(dot(normal[i], normal[i]));
      dist[i] = len[i] > 0 ? T(dot(normal[i], poly[i].w) / len[i]) : T(0);  // D-EPA-2
      if (final_edge[i] && (!have_final || dist[i] < best_final)) {
        have_final = true;
        best_final = dist[i];
      }
    }
    std::size_t j = m;
    for (std::size_t i = 0; i < m; ++i) {
      if (final_edge[i] || len[i] == 0) continue;
      if (have_final && dist[i] > best_final + margin) continue;
      if (j == m || dist[i] < dist[j]) j = i;
    }
    auto collect = [&](bool include_open) {
      T lowest = have_final ? best_final : T(0);
      bool have_lowest = have_final;
      if (include_open)
        for (std::size_t i = 0; i < m; ++i)
          if (len[i] > 0 && (!have_lowest || dist[i] < lowest)) {
            have_lowest = true;
            lowest = dist[i];
          }
      for (std::size_t i = 0; i < m; ++i)
        if ((final_edge[i] || (include_open && len[i] > 0)) && dist[i] <= lowest + margin)
          run.shortlist.push_back({poly[i], poly[(i + 1) % m]});
    };
    if (j == m) {
      collect(false);
      return run;
    }
    if (run.iterations >= cap) {
      run.capped = true;
      collect(true);
      return run;
    }
    ++run.iterations;
    const minkowski_point<T> s = minkowski_support(a, b, normal[j]);  // D-EPA-3
    const T sd = dot(normal[j], s.w) / len[j];
    if (s.same_pair(poly[j]) || s.same_pair(poly[(j + 1) % m]) || sd - dist[j] <= tol) {
      final_edge[j] = true;
      continue;
    }
    poly.insert(poly.begin() + static_cast<std::ptrdiff_t>(j + 1), s);
    final_edge[j] = false;
    final_edge.insert(final_edge.begin() + static_cast<std::ptrdiff_t>(j + 1), false);
    // s may also lie beyond the neighbouring faces: remove the vertices that
    // became reflex, so the polygon stays convex (D-EPA-3).
    std::size_t at = j + 1;
    for (;;) {
      const std::size_t k = poly.size();
      if (k <= 3) break;
      const std::size_t p1 = (at + k - 1) % k, p2 = (at + k - 2) % k;
      if (orientation(poly[p2].w, poly[p1].w, poly[at].w) <= 0) {
        poly.erase(poly.begin() + static_cast<std::ptrdiff_t>(p1));
        final_edge.erase(final_edge.begin() + static_cast<std::ptrdiff_t>(p1));
        if (p1 < at) --at;
        final_edge[(at + poly.size() - 1) % poly.size()] = false;
        continue;
      }
      const std::size_t n1 = (at + 1) % k, n2 = (at + 2) % k;
      if (orientation(poly[at].w, poly[n1].w, poly[n2].w) <= 0) {
        poly.erase(poly.begin() + static_cast<std::ptrdiff_t>(n1));
        final_edge.erase(final_edge.begin() + static_cast<std::ptrdiff_t>(n1));
        if (n1 < at) --at;
        final_edge[at] = false;
        continue;
      }
      break;
    }
  }
}

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
  if (!have) throw std::logic_error("EPA: empty shortlist (internal error)");
  return best;
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

template <class T>
epa_result<T> penetration_from_core(const core_contact<T>& c, std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                                    const T& ra, const T& rb, int cap) {
  using A = accumulator<T>;
  using W = typename A::type;
  epa_result<T> out;
  out.iterations = c.iterations;
  out.exact_fallback = c.exact_fallback || c.capped;
  const exact r = to_exact(ra) + to_exact(rb);
  if (c.separated) {
    const exact& d2 = c.closest.d2;
    const evec n = c.closest.q - c.closest.p;
    const W d = A::sqrt(A::from_exact(d2));
    out.normal = unit_rounded<T>(n);
    out.point_a = offset_rounded<T>(c.closest.p, n, ra);
    out.point_b = offset_rounded<T>(c.closest.q, n, T(-rb));
    if (d2 > r * r) {
      out.intersecting = false;
      out.distance = A::round(d - A::from(ra) - A::from(rb));
      out.status = c.capped ? collision_status::cap_reached : collision_status::converged;
      return require_finite_result(out);
    }
    // Cores apart, rounded shapes overlapping: depth = ra + rb - |q - p|
    // along the core direction (D-EPA-7).
    out.intersecting = true;
    const bool touching = d2 == r * r;  // exact: then the depth is exactly 0
    out.depth = touching ? T(0) : A::round(A::from(ra) + A::from(rb) - d);
    out.status = c.capped ? collision_status::cap_reached
                          : (touching ? collision_status::touching : collision_status::converged);
    return require_finite_result(out);
  }
  out.intersecting = true;
  if (c.A.size() == 1 && c.B.size() == 1) {  // coincident circle centres
    out.status = collision_status::degenerate_input;
    out.normal = {T(1), T(0)};
    out.depth = A::round(A::from(ra) + A::from(rb));
    out.point_a = round_vec<T>(c.A[0] + evec{to_exact(ra), exact(0)});
    out.point_b = round_vec<T>(c.B[0] - evec{to_exact(rb), exact(0)});
    return require_finite_result(out);
  }
  bool fallback = !c.strict_overlap || c.capped;
  bool epa_capped = false;
  axis_overlap ax;
  if (!fallback) {
    const epa_run<T> run = epa_core<T>(a, b, c.seed, cap);
    out.iterations += run.iterations;
    epa_capped = run.capped;
    if (run.degenerate || run.capped) {
      fallback = true;
    } else {
      ax = epa_exact_axis(c.A, c.B, run);
      if (ax.o < 0) fallback = true;  // impossible once GJK proved the overlap; kept as a guard
    }
  }
  if (fallback) {
    out.exact_fallback = true;
    ax = exact_min_overlap(c.A, c.B);  // D-GJK-11
  }
  const exact n2 = length_squared(ax.n);
  const W core_depth = A::sqrt(A::from_exact(ax.o * ax.o / n2));
  out.depth = A::round(core_depth + A::from(ra) + A::from(rb));  // D-EPA-6, D-EPA-7
  out.normal = unit_rounded<T>(ax.n);
  const auto [pa, pb] = epa_witnesses(c.A, c.B, ax);
  out.point_a = offset_rounded<T>(pa, ax.n, ra);
  out.point_b = offset_rounded<T>(pb, ax.n, T(-rb));
  const bool touching = ax.o == 0 && r == 0;
  out.status = (c.capped || epa_capped) ? collision_status::cap_reached
                                        : (touching ? collision_status::touching : collision_status::converged);
  return require_finite_result(out);
}

}  // namespace detail

template <class T>
epa_result<T> epa_penetration(const convex_polygon<T>& a, const convex_polygon<T>& b, const epa_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "epa_penetration needs a binary floating type (sqrt)");
  const std::span<const vec2<T>> sa(a.vertices), sb(b.vertices);
  const auto c = detail::core_query<T>(sa, sb, detail::automatic_cap(opt.gjk_max_iterations, sa.size(), sb.size()));
  return detail::penetration_from_core<T>(c, sa, sb, T(0), T(0),
                                          detail::automatic_cap(opt.max_iterations, sa.size(), sb.size()));
}

template <class T>
epa_result<T> epa_penetration(const convex_polygon<T>& a, const circle<T>& b, const epa_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "epa_penetration needs a binary floating type (sqrt)");
  const std::span<const vec2<T>> sa(a.vertices), sb = detail::one_point(b.center);
  const auto c = detail::core_query<T>(sa, sb, detail::automatic_cap(opt.gjk_max_iterations, sa.size(), 1));
  return detail::penetration_from_core<T>(c, sa, sb, T(0), b.radius,
                                          detail::automatic_cap(opt.max_iterations, sa.size(), 1));
}

template <class T>
epa_result<T> epa_penetration(const circle<T>& a, const convex_polygon<T>& b, const epa_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "epa_penetration needs a binary floating type (sqrt)");
  const std::span<const vec2<T>> sa = detail::one_point(a.center), sb(b.vertices);
  const auto c = detail::core_query<T>(sa, sb, detail::automatic_cap(opt.gjk_max_iterations, 1, sb.size()));
  return detail::penetration_from_core<T>(c, sa, sb, a.radius, T(0),
                                          detail::automatic_cap(opt.max_iterations, 1, sb.size()));
}

template <class T>
epa_result<T> epa_penetration(const circle<T>& a, const circle<T>& b, const epa_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "epa_penetration needs a binary floating type (sqrt)");
  const std::span<const vec2<T>> sa = detail::one_point(a.center), sb = detail::one_point(b.center);
  const auto c = detail::core_query<T>(sa, sb, detail::automatic_cap(opt.gjk_max_iterations, 1, 1));
  return detail::penetration_from_core<T>(c, sa, sb, a.radius, b.radius, detail::automatic_cap(opt.max_iterations, 1, 1));
}

template <class T>
epa_result<T> epa_penetration(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const epa_options& opt = {}) {
  return epa_penetration(make_convex_polygon(a), make_convex_polygon(b), opt);
}

}  // namespace rigidref
