// EPA's loop in T (D-EPA-2..4): grows a polygon inside A - B from GJK's
// simplex and shortlists the faces nearest the origin, for the axis minimum
// (detail/epa_axis.hpp).
#pragma once

#include "rigidref/convex_hull.hpp"
#include "rigidref/detail/collision_common.hpp"
#include "rigidref/support.hpp"
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace rigidref::detail {

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

}  // namespace rigidref::detail
