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
// Speed (float, double, long double): step 3's decisions go through the
// floating-point filter of filter.hpp (D-EPA-8), and for an edge-normal axis
// the depth, normal and witnesses are rounded from double words when a
// rounding test proves the exact path's bits (D-EPA-9); the exact path runs
// otherwise. Results are identical either way.
//
// SAT first (D-EPA-11): for two polygons (or a polygon and a circle's centre)
// whose every edge overlap is proved positive and whose smallest o / |n| is
// proved unique, that edge axis is the one step 3 would pick; GJK and EPA are
// skipped and the values are rounded as above (the same bits; iterations 0).
//
// Circles: EPA runs on the cores (a circle's core is its centre) and the
// radii are added to the core depth before rounding (D-EPA-7). Two circles
// with coincident centres have no defined normal: status degenerate_input,
// normal (1, 0) by convention, depth ra + rb.
#pragma once

#include "rigidref/convex_hull.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/gjk.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

namespace rigidref {

struct epa_options {
  int max_iterations = 0;      // EPA's cap in T; 0: automatic, 32 + 4 (n_A + n_B)
  int gjk_max_iterations = 0;  // GJK's cap in T; 0: automatic (gjk_options)
  // Two polygons that overlap by a proved margin, or a polygon and a circle
  // whose centre is inside it, are answered by their smallest edge axis
  // without GJK and EPA (D-EPA-11; iterations is then 0).
  // The values are the same either way; false runs GJK and EPA (with
  // point_first below for a circle's centre outside the polygon).
  bool sat_first = true;
  // A circle whose centre is outside a polygon: the centre's closest feature
  // is found without GJK's loop (D-GJK-19, as gjk_options::point_first).
  bool point_first = true;
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
  int iterations = 0;         // GJK + EPA iterations in T; 0 when SAT first answered (D-EPA-11)
  bool exact_fallback = false;
};

namespace detail {

template <class T>
struct epa_run {
  std::vector<std::array<minkowski_point<T>, 2>> shortlist;
  // Supports that closed a face only within the rounding tolerance (not the
  // face's own vertex pair): the true face of A - B there is at one of them,
  // so their edges are candidates too (D-EPA-4).
  std::vector<minkowski_point<T>> near_supports;
  int iterations = 0;
  bool capped = false;
  bool degenerate = false;  // no polygon around the origin in T: use the exact fallback
};

// Convex hull, counter-clockwise, of a few Minkowski points, into `out`
// (convex_hull.hpp).
template <class T>
void hull_ccw_into(const std::vector<minkowski_point<T>>& pts, std::vector<minkowski_point<T>>& out) {
  convex_hull_ccw_into(pts, [](const minkowski_point<T>& p) -> const vec2<T>& { return p.w; }, out);
}

template <class T>
bool polytope_contains_origin(const std::vector<minkowski_point<T>>& poly) {
  if (poly.size() < 3) return false;
  for (std::size_t i = 0; i < poly.size(); ++i)
    if (orientation(poly[i].w, poly[(i + 1) % poly.size()].w, vec2<T>{}) < 0) return false;
  return true;
}

// EPA's working polygon and its per-face values, kept between calls on this
// thread so that a query allocates nothing once they have grown. Face i is
// poly[i] -> poly[i + 1]; its values are recomputed only when `fresh[i]` is
// 0, i.e. when one of its end points changed (the same expressions, so the
// same values as recomputing every face every iteration). D-EPA-10
template <class T>
struct epa_workspace {
  std::vector<minkowski_point<T>> pts, poly;
  std::vector<char> final_edge, fresh;
  std::vector<T> dist, len;
  std::vector<vec2<T>> normal;
};

template <class T>
epa_workspace<T>& epa_scratch() {
  static thread_local epa_workspace<T> w;
  return w;
}

// EPA in T. D-EPA-2..4
template <class T>
epa_run<T> epa_core(std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                    const vertex_pairs& seed, int cap) {
  using std::abs;
  using std::sqrt;
  epa_run<T> run;
  epa_workspace<T>& ws = epa_scratch<T>();
  std::vector<minkowski_point<T>>& pts = ws.pts;
  std::vector<minkowski_point<T>>& poly = ws.poly;
  pts.clear();
  for (const auto& [i, j] : seed) pts.push_back({a[i] - b[j], i, j});
  hull_ccw_into(pts, poly);
  if (!polytope_contains_origin(poly)) {
    // A segment or point simplex (or rounding): add supports around it.
    if (pts.size() == 2) {
      const vec2<T> e = pts[1].w - pts[0].w;
      pts.push_back(minkowski_support(a, b, vec2<T>{T(-e.y), e.x}));
      pts.push_back(minkowski_support(a, b, vec2<T>{e.y, T(-e.x)}));
    }
    for (const vec2<T>& d : {vec2<T>{1, 0}, vec2<T>{-1, 0}, vec2<T>{0, 1}, vec2<T>{0, -1}})
      pts.push_back(minkowski_support(a, b, d));
    hull_ccw_into(pts, poly);
    if (!polytope_contains_origin(poly)) {
      run.degenerate = true;
      return run;
    }
  }
  std::vector<char>& final_edge = ws.final_edge;
  std::vector<char>& fresh = ws.fresh;
  std::vector<T>& dist = ws.dist;
  std::vector<T>& len = ws.len;
  std::vector<vec2<T>>& normal = ws.normal;
  final_edge.assign(poly.size(), 0);
  fresh.assign(poly.size(), 0);
  dist.assign(poly.size(), T(0));
  len.assign(poly.size(), T(0));
  normal.assign(poly.size(), vec2<T>{});
  auto erase_face = [&](std::size_t i) {
    const auto at = static_cast<std::ptrdiff_t>(i);
    poly.erase(poly.begin() + at);
    final_edge.erase(final_edge.begin() + at);
    fresh.erase(fresh.begin() + at);
    dist.erase(dist.begin() + at);
    len.erase(len.begin() + at);
    normal.erase(normal.begin() + at);
  };
  const T eps = epsilon<T>();
  for (;;) {
    const std::size_t m = poly.size();
    T scale{0};
    for (const auto& p : poly) scale = std::max<T>(scale, std::max<T>(abs(p.w.x), abs(p.w.y)));
    // D-EPA-4: rounding moves a face distance by a few eps * scale; faces
    // closer than `margin` to the best final face are evaluated exactly.
    const T margin = 256 * eps * scale, tol = 16 * eps * scale;
    bool have_final = false;
    T best_final{0};
    for (std::size_t i = 0; i < m; ++i) {
      if (!fresh[i]) {
        const vec2<T> e = poly[(i + 1) % m].w - poly[i].w;
        normal[i] = {e.y, T(-e.x)};  // outward for a counter-clockwise polygon
        len[i] = sqrt(dot(normal[i], normal[i]));
        dist[i] = len[i] > 0 ? T(dot(normal[i], poly[i].w) / len[i]) : T(0);  // D-EPA-2
        fresh[i] = 1;
      }
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
      if (!s.same_pair(poly[j]) && !s.same_pair(poly[(j + 1) % m])) run.near_supports.push_back(s);
      final_edge[j] = 1;
      continue;
    }
    const auto ins = static_cast<std::ptrdiff_t>(j + 1);
    poly.insert(poly.begin() + ins, s);
    final_edge[j] = 0;
    fresh[j] = 0;
    final_edge.insert(final_edge.begin() + ins, 0);
    fresh.insert(fresh.begin() + ins, 0);
    dist.insert(dist.begin() + ins, T(0));
    len.insert(len.begin() + ins, T(0));
    normal.insert(normal.begin() + ins, vec2<T>{});
    // s may also lie beyond the neighbouring faces: remove the vertices that
    // became reflex, so the polygon stays convex (D-EPA-3).
    std::size_t at = j + 1;
    for (;;) {
      const std::size_t k = poly.size();
      if (k <= 3) break;
      const std::size_t p1 = (at + k - 1) % k, p2 = (at + k - 2) % k;
      if (orientation(poly[p2].w, poly[p1].w, poly[at].w) <= 0) {
        erase_face(p1);
        if (p1 < at) --at;
        const std::size_t before = (at + poly.size() - 1) % poly.size();
        final_edge[before] = 0;
        fresh[before] = 0;
        continue;
      }
      const std::size_t n1 = (at + 1) % k, n2 = (at + 2) % k;
      if (orientation(poly[at].w, poly[n1].w, poly[n2].w) <= 0) {
        erase_face(n1);
        if (n1 < at) --at;
        final_edge[at] = 0;
        fresh[at] = 0;
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

template <class T>
struct epa_filter {
  std::span<const vec2<T>> a, b;
  const core_contact<T>& cc;  // its exact points are converted only for a fallback

  evec exact_normal(const epa_axis_key& k) const {
    const std::size_t na = a.size(), nb = b.size();
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
    const std::size_t count = on_a ? a.size() : b.size();
    if (count == 1) return 0;
    std::size_t i = start % count;
    for (std::size_t step = 0; step < count; ++step) {
      const std::size_t next = (i + 1) % count, prev = (i + count - 1) % count;
      if (sign * compare(k, n, on_a, next, i) > 0) {
        i = next;
        continue;
      }
      if (sign * compare(k, n, on_a, prev, i) > 0) {
        i = prev;
        continue;
      }
      break;
    }
    return i;
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

// ---- SAT first: the smallest edge axis, when it is proved (D-EPA-11) ------------
//
// For two convex polygons the depth is the smallest overlap o / |n| over the
// edge normals of A and B (D-SAT-3), and the exact path finds that minimum
// (EPA, D-EPA-5, or D-GJK-11). When every overlap is proved positive the
// interiors meet (the separating axis theorem), and when one edge axis x is
// proved smaller than every other, its candidate (the argmax walk of
// epa_filtered_best) is the one the exact path picks: no polytope face can
// tie with it, since a face along x's edge of A - B has x's key (D-EPA-8) and
// every other face is farther. GJK, EPA's loop and the candidate search are
// then skipped; epa_fast_values still proves every value (and refuses
// parallel extreme edges). Otherwise the usual path runs.
//
// For each axis y, o_y is taken at a vertex pair found in T: the edge's own
// end point and the other polygon's vertex deepest along n_y, followed
// around the polygon as the normals turn (rotating calipers). Any vertex
// gives n_y . (A[i] - B[j]) <= the true overlap, so "o_y > 0" and
// "o_x^2 |n_y|^2 < o_y^2 |n_x|^2" proved on it hold for the true o_y.
// o_x itself is checked to be at the extreme vertex (the walk in candidate()).

// One edge axis: o and |n|^2 in T, rigorous bounds lo <= exact <= hi on o^2
// (o at the vertex pair found in T) and on |n|^2 (D-EPA-11 (6)), and that
// vertex pair. Trivially constructible: the array below is not cleared on
// every query.
template <class T>
struct sat_axis {
  T o, n2, o2_lo, o2_hi, n2_lo, n2_hi;
  std::size_t ia, ib;
};

// Polygons with up to this many edges in all take the SAT-first route (a
// fixed array, no allocation); larger ones run GJK and EPA.
constexpr std::size_t sat_first_max_axes = 32;

// A guess in T, deciding only whether to try the route: are the projections
// of A and B apart along the line between their vertex averages? Most
// separated pairs are, and the scan below would find their separating axis
// only after computing the axes before it.
template <class T>
bool apart_along_centres(std::span<const vec2<T>> a, std::span<const vec2<T>> b) {
  vec2<T> sa{}, sb{};
  for (const auto& p : a) sa = sa + p;
  for (const auto& p : b) sb = sb + p;
  // (mean of B - mean of A) times n_A n_B: the direction, without dividing.
  const vec2<T> d = T(a.size()) * sb - T(b.size()) * sa;
  T top_a = dot(d, a[0]), low_b = dot(d, b[0]);
  for (const auto& p : a) top_a = std::max(top_a, dot(d, p));
  for (const auto& p : b) low_b = std::min(low_b, dot(d, p));
  return top_a < low_b;
}

template <class T>
std::optional<epa_fcand<T>> sat_first_best(const epa_filter<T>& f) {
  const std::span<const vec2<T>> a = f.a, b = f.b;
  // Axes: the edges of each polygon; a circle's core (one point) has none.
  const std::size_t na = a.size() >= 3 ? a.size() : 0, nb = b.size() >= 3 ? b.size() : 0;
  const std::size_t count = na + nb;
  if (count == 0 || count > sat_first_max_axes) return std::nullopt;
  if (apart_along_centres(a, b)) return std::nullopt;
  constexpr T u = std::numeric_limits<T>::epsilon() / 2;
  constexpr T tiny = std::numeric_limits<T>::min() / u;  // above it every rounding is relative
  auto key_of = [na](std::size_t i) { return i < na ? epa_axis_key{0, i, 0, 0, 0} : epa_axis_key{1, 0, i - na, 0, 0}; };
  std::array<sat_axis<T>, sat_first_max_axes> axes;
  std::size_t best = 0;
  for (int side = 0; side < 2; ++side) {
    const bool on_a = side == 0;
    const std::span<const vec2<T>> own = on_a ? a : b, other = on_a ? b : a;
    const std::size_t m = other.size();
    std::size_t arg = 0;
    for (std::size_t k = 0; k < (on_a ? na : nb); ++k) {
      const vec2<T>& p0 = own[k];
      const vec2<T>& p1 = own[(k + 1) % own.size()];
      // How far the other polygon's vertex j lies on the inner (left) side
      // of the edge's line, cross(e, v_j - p0): the deepest one is B's
      // vertex minimising n . b for an edge of A (outward normal (e.y, -e.x)),
      // A's vertex maximising n . a for an edge of B (n = (-e.y, e.x)).
      const vec2<T> e = p1 - p0;
      auto depth = [&](std::size_t j) { return cross(e, other[j] - p0); };
      if (k == 0) {
        for (std::size_t j = 1; j < m; ++j)
          if (depth(j) > depth(arg)) arg = j;
      } else {
        for (std::size_t step = 0; step < m && depth((arg + 1) % m) > depth(arg); ++step) arg = (arg + 1) % m;
      }
      const std::size_t i = on_a ? k : na + k;
      sat_axis<T>& x = axes[i];
      x.ia = on_a ? k : arg;
      x.ib = on_a ? arg : k;
      // o = n . (A[ia] - B[ib]): (e.y, -e.x) . (A[k] - B[arg]) for A,
      // (-e.y, e.x) . (A[arg] - B[k]) for B.
      const vec2<T>& va = a[x.ia];
      const vec2<T>& vb = b[x.ib];
      const fv<T> o = static_form2(T(e.y * (va.x - vb.x)), T(e.x * (va.y - vb.y)), true);
      const T sign = on_a ? T(1) : T(-1);
      x.o = sign * o.v;
      // o > 0 proved, else the route is refused (separated, touching, or too close to tell).
      if (filter_force_exact() || !(x.o > o.e)) return std::nullopt;
      const fv<T> n2 = static_length2(p0, p1);
      x.n2 = n2.v;
      // (6): bounds with a margin of 16u for the roundings in forming them.
      x.o2_lo = T((x.o - o.e) * (x.o - o.e)) * T(1 - 16 * u);
      x.o2_hi = T((x.o + o.e) * (x.o + o.e)) * T(1 + 16 * u);
      x.n2_lo = T(n2.v - n2.e) * T(1 - 16 * u);
      x.n2_hi = T(n2.v + n2.e) * T(1 + 16 * u);
      if (!(x.o2_lo > tiny) || !(x.n2_lo > tiny) || !is_finite(x.o2_hi) || !is_finite(x.n2_hi)) return std::nullopt;
      // o^2 / |n|^2 smallest in T, compared without dividing.
      if (i > 0 && x.o * x.o * axes[best].n2 < axes[best].o * axes[best].o * x.n2) best = i;
    }
  }
  // (7): o_x^2 |n_y|^2 < o_y^2 |n_x|^2 for every other y, from the bounds.
  const sat_axis<T>& x = axes[best];
  for (std::size_t i = 0; i < count; ++i) {
    if (i == best) continue;
    const T lhs = x.o2_hi * axes[i].n2_hi, rhs = axes[i].o2_lo * x.n2_lo;
    if (!(T(lhs * T(1 + 4 * u)) < T(rhs * T(1 - 4 * u))) || !(rhs > tiny) || !is_finite(rhs)) return std::nullopt;
  }
  filter_stats().certain += 2 * count - 1;  // the signs just proved
  // The true overlap along x is at the other polygon's extreme vertex: the
  // walk must not leave the one found in T.
  const epa_axis_key k = key_of(best);
  epa_fcand<T> c = f.candidate(k, f.filtered_normal(k), x.ia, x.ib);
  if (c.ia != x.ia || c.ib != x.ib) return std::nullopt;
  return c;
}

// ---- depth, normal and witnesses without rationals, when provably the same ----
//
// D-EPA-9: for an axis that is an edge normal of A or B, every value of
// D-EPA-6 is a short expression in double words of the input coordinates
// (accumulator<T>::type). Each is evaluated with a bound on its error; the
// result is the T value it rounds to when the bound (plus, for the values the
// exact path evaluates in double words, a bound on that path's own error)
// proves that the exact path gives the same T value. Otherwise the exact path
// runs (filter_stats().exact_values).

template <class T>
bool epa_fast_values(const epa_filter<T>& f, epa_fcand<T>& c, const T& ra, const T& rb, epa_result<T>& out) {
  using R = rounding_filter<T>;
  using W = typename R::W;
  using DW = typename R::DW;
  using std::abs;
  const W u2 = R::u2;
  if (c.key.kind == 2) return false;
  if (fsign(c.o) <= 0) return false;
  const auto& a = f.a;
  const auto& b = f.b;
  const std::size_t na = a.size(), nb = b.size();
  // n exactly, as double words (D-EPA-9 (1)).
  DW nx, ny;
  if (c.key.kind == 0) {
    const std::size_t k = c.key.i1, k1 = (k + 1) % na;
    const DW ex = R::diff(a[k1].x, a[k].x), ey = R::diff(a[k1].y, a[k].y);
    nx = ey;
    ny = -ex;
  } else {
    const std::size_t k = c.key.j1, k1 = (k + 1) % nb;
    const DW ex = R::diff(b[k1].x, b[k].x), ey = R::diff(b[k1].y, b[k].y);
    nx = -ey;
    ny = ex;
  }
  const DW dx = R::diff(a[c.ia].x, b[c.ib].x), dy = R::diff(a[c.ia].y, b[c.ib].y);
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
  // w* = (o / |n|^2) n. Partners (a neighbour at the same level along n) are
  // exact decisions, filtered like the argmax.
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
  const vec2<T>& v = vertex_a ? a[c.ia] : b[c.ib];
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

// D-EPA-11 before GJK: true, with `out` filled, when the smallest edge axis
// and every value are proved; then `iterations` is 0. a and b are polygons or
// a circle's centre (radius ra, rb; 0 for a polygon), at least one a polygon.
template <class T>
bool sat_first_penetration(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const T& ra, const T& rb,
                           epa_result<T>& out) {
  core_contact<T> c;  // only for an exact sign the filter cannot give (compare)
  c.a = a;
  c.b = b;
  const epa_filter<T> f{a, b, c};
  std::optional<epa_fcand<T>> best = sat_first_best(f);
  epa_result<T> r;
  if (!best || !epa_fast_values(f, *best, ra, rb, r)) return false;
  ++filter_stats().filtered_values;
  r.intersecting = true;
  r.status = collision_status::converged;
  out = require_finite_result(r);
  return true;
}

template <class T>
epa_result<T> penetration_from_core(const core_contact<T>& c, std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                                    const T& ra, const T& rb, int cap) {
  using A = accumulator<T>;
  using W = typename A::type;
  epa_result<T> out;
  out.iterations = c.iterations;
  out.exact_fallback = c.exact_fallback || c.capped;
  // ra + rb, exactly; formed only where an exact path needs it.
  auto radii = [&] { return exact(to_exact(ra) + to_exact(rb)); };
  if (c.separated) {
    if constexpr (filter_enabled_v<T>) {
      if (c.lazy_closest) {
        separated_values<T> rv;
        if (fast_separated_values<T>(c.a, c.b, c.fa, c.fb, ra, rb, true, rv)) {  // D-GJK-16, D-GJK-18
          ++filter_stats().filtered_values;
          out.intersecting = !rv.apart;
          out.distance = rv.apart ? rv.distance : T(0);
          out.depth = rv.apart ? T(0) : rv.depth;
          out.normal = rv.normal;
          out.point_a = rv.point_a;
          out.point_b = rv.point_b;
          out.status = c.capped ? collision_status::cap_reached : collision_status::converged;
          return require_finite_result(out);
        }
        ++filter_stats().exact_values;
      }
    }
    const exact_pair closest = closest_pair(c);
    const exact& d2 = closest.d2;
    const evec n = closest.q - closest.p;
    const exact r = radii();
    const W d = A::sqrt(A::from_exact(d2));
    out.normal = unit_rounded<T>(n);
    out.point_a = offset_rounded<T>(closest.p, n, ra);
    out.point_b = offset_rounded<T>(closest.q, n, T(-rb));
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
  if (c.a.size() == 1 && c.b.size() == 1) {  // coincident circle centres
    out.status = collision_status::degenerate_input;
    out.normal = {T(1), T(0)};
    out.depth = A::round(A::from(ra) + A::from(rb));
    out.point_a = round_vec<T>(c.A()[0] + evec{to_exact(ra), exact(0)});
    out.point_b = round_vec<T>(c.B()[0] - evec{to_exact(rb), exact(0)});
    return require_finite_result(out);
  }
  bool fallback = !c.strict_overlap || c.capped;
  bool epa_capped = false;
  std::optional<axis_overlap> ax_;  // the winning axis, exactly (not built on the filtered path)
  if (!fallback) {
    const epa_run<T> run = epa_core<T>(a, b, c.seed, cap);
    out.iterations += run.iterations;
    epa_capped = run.capped;
    if (run.degenerate || run.capped) {
      fallback = true;
    } else {
      if constexpr (filter_enabled_v<T>) {
        const epa_filter<T> f{a, b, c};
        epa_fcand<T> best = epa_filtered_best(f, run);
        if (epa_fast_values(f, best, ra, rb, out)) {  // D-EPA-9: o > 0 proved, so neither touching nor fallback
          ++filter_stats().filtered_values;
          out.status = collision_status::converged;
          return require_finite_result(out);
        }
        ++filter_stats().exact_values;
        ax_ = f.exact_of(best);
      } else {
        ax_ = epa_exact_axis(c.A(), c.B(), run);
      }
      if (ax_->o < 0) fallback = true;  // impossible once GJK proved the overlap; kept as a guard
    }
  }
  if (fallback) {
    out.exact_fallback = true;
    ax_ = exact_min_overlap(c.A(), c.B());  // D-GJK-11
  }
  const axis_overlap& ax = *ax_;
  const exact n2 = length_squared(ax.n);
  const W core_depth = A::sqrt(A::from_exact(ax.o * ax.o / n2));
  out.depth = A::round(core_depth + A::from(ra) + A::from(rb));  // D-EPA-6, D-EPA-7
  out.normal = unit_rounded<T>(ax.n);
  const auto [pa, pb] = epa_witnesses(c.A(), c.B(), ax);
  out.point_a = offset_rounded<T>(pa, ax.n, ra);
  out.point_b = offset_rounded<T>(pb, ax.n, T(-rb));
  const bool touching = ax.o == 0 && radii() == 0;
  out.status = (c.capped || epa_capped) ? collision_status::cap_reached
                                        : (touching ? collision_status::touching : collision_status::converged);
  return require_finite_result(out);
}

// The query on two cores (a polygon's vertices, or a circle's centre with its
// radius; 0 for a polygon): SAT first where it applies (D-EPA-11), else GJK
// and EPA.
template <class T>
epa_result<T> penetration_of_cores(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const T& ra, const T& rb,
                                   const epa_options& opt) {
  if constexpr (filter_enabled_v<T>) {
    epa_result<T> out;
    if (opt.sat_first && sat_first_penetration<T>(a, b, ra, rb, out)) return out;
  }
  const auto c = core_query<T>(a, b, automatic_cap(opt.gjk_max_iterations, a.size(), b.size()), false, opt.point_first);
  return penetration_from_core<T>(c, a, b, ra, rb, automatic_cap(opt.max_iterations, a.size(), b.size()));
}

}  // namespace detail

template <class T>
epa_result<T> epa_penetration(const convex_polygon<T>& a, const convex_polygon<T>& b, const epa_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "epa_penetration needs a binary floating type (sqrt)");
  return detail::penetration_of_cores<T>(a.vertices, b.vertices, T(0), T(0), opt);
}

template <class T>
epa_result<T> epa_penetration(const convex_polygon<T>& a, const circle<T>& b, const epa_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "epa_penetration needs a binary floating type (sqrt)");
  return detail::penetration_of_cores<T>(a.vertices, detail::one_point(b.center), T(0), b.radius, opt);
}

template <class T>
epa_result<T> epa_penetration(const circle<T>& a, const convex_polygon<T>& b, const epa_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "epa_penetration needs a binary floating type (sqrt)");
  return detail::penetration_of_cores<T>(detail::one_point(a.center), b.vertices, a.radius, T(0), opt);
}

template <class T>
epa_result<T> epa_penetration(const circle<T>& a, const circle<T>& b, const epa_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "epa_penetration needs a binary floating type (sqrt)");
  return detail::penetration_of_cores<T>(detail::one_point(a.center), detail::one_point(b.center), a.radius, b.radius,
                                         opt);
}

template <class T>
epa_result<T> epa_penetration(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const epa_options& opt = {}) {
  return epa_penetration(make_convex_polygon(a), make_convex_polygon(b), opt);
}

}  // namespace rigidref
