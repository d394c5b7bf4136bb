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

#include "rigidref/detail/mp_sqrt.hpp"
#include "rigidref/detail/mp_support.hpp"

#include "rigidref/detail/fp_begin.hpp"

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

// A face of EPA's polygon: from `start` to the next face's start (counter-
// clockwise). Its values are recomputed only when `fresh` is false, i.e. when
// one of its end points changed (the same expressions, so the same values as
// recomputing every face every iteration). D-EPA-10
template <class T>
struct epa_face {
  minkowski_point<T> start;
  vec2<T> normal{};         // outward, of length len
  T len{0};                 // |normal| = |edge|
  T dist{0};                // the face line's distance from the origin (D-EPA-2)
  bool final_edge = false;  // its support point adds nothing
  bool fresh = false;       // normal, len, dist are up to date
};

// EPA's working polygon, kept between calls on this thread so that a query
// allocates nothing once it has grown.
template <class T>
struct epa_workspace {
  std::vector<minkowski_point<T>> pts, poly;
  std::vector<epa_face<T>> faces;
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
  std::vector<epa_face<T>>& faces = ws.faces;
  faces.clear();
  for (const auto& p : poly) faces.push_back(epa_face<T>{p});
  auto stale = [&](std::size_t i) {  // an end point of face i changed
    faces[i].final_edge = false;
    faces[i].fresh = false;
  };
  const T eps = epsilon<T>();
  for (;;) {
    const std::size_t m = faces.size();
    T scale{0};
    for (const auto& f : faces) scale = std::max<T>(scale, std::max<T>(abs(f.start.w.x), abs(f.start.w.y)));
    // D-EPA-4: rounding moves a face distance by a few eps * scale; faces
    // closer than `margin` to the best final face are evaluated exactly.
    const T margin = 256 * eps * scale, tol = 16 * eps * scale;
    bool have_final = false;
    T best_final{0};
    for (std::size_t i = 0; i < m; ++i) {
      epa_face<T>& f = faces[i];
      if (!f.fresh) {
        const vec2<T> e = faces[(i + 1) % m].start.w - f.start.w;
        f.normal = {e.y, T(-e.x)};  // outward for a counter-clockwise polygon
        f.len = rounded_sqrt(T(dot(f.normal, f.normal)));  // sqrt; mp: D-EPA-22
        f.dist = f.len > 0 ? T(dot(f.normal, f.start.w) / f.len) : T(0);  // D-EPA-2
        f.fresh = true;
      }
      if (f.final_edge && (!have_final || f.dist < best_final)) {
        have_final = true;
        best_final = f.dist;
      }
    }
    std::size_t j = m;
    for (std::size_t i = 0; i < m; ++i) {
      const epa_face<T>& f = faces[i];
      if (f.final_edge || f.len == 0) continue;
      if (have_final && f.dist > best_final + margin) continue;
      if (j == m || f.dist < faces[j].dist) j = i;
    }
    auto collect = [&](bool include_open) {
      T lowest = have_final ? best_final : T(0);
      bool have_lowest = have_final;
      if (include_open)
        for (const auto& f : faces)
          if (f.len > 0 && (!have_lowest || f.dist < lowest)) {
            have_lowest = true;
            lowest = f.dist;
          }
      for (std::size_t i = 0; i < m; ++i)
        if ((faces[i].final_edge || (include_open && faces[i].len > 0)) && faces[i].dist <= lowest + margin)
          run.shortlist.push_back({faces[i].start, faces[(i + 1) % m].start});
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
    const minkowski_point<T> s = any_minkowski_support(a, b, faces[j].normal);  // D-EPA-3; mp: D-GJK-27
    const T sd = dot(faces[j].normal, s.w) / faces[j].len;
    const minkowski_point<T>& p0 = faces[j].start;
    const minkowski_point<T>& p1 = faces[(j + 1) % m].start;
    if (s.same_pair(p0) || s.same_pair(p1) || sd - faces[j].dist <= tol) {
      if (!s.same_pair(p0) && !s.same_pair(p1)) run.near_supports.push_back(s);
      faces[j].final_edge = true;
      continue;
    }
    stale(j);
    faces.insert(faces.begin() + static_cast<std::ptrdiff_t>(j + 1), epa_face<T>{s});
    // s may also lie beyond the neighbouring faces: remove the vertices that
    // became reflex, so the polygon stays convex (D-EPA-3).
    std::size_t at = j + 1;
    for (;;) {
      const std::size_t k = faces.size();
      if (k <= 3) break;
      auto w = [&](std::size_t i) -> const vec2<T>& { return faces[i].start.w; };
      const std::size_t p1i = (at + k - 1) % k, p2i = (at + k - 2) % k;
      if (orientation(w(p2i), w(p1i), w(at)) <= 0) {
        faces.erase(faces.begin() + static_cast<std::ptrdiff_t>(p1i));
        if (p1i < at) --at;
        stale((at + faces.size() - 1) % faces.size());
        continue;
      }
      const std::size_t n1 = (at + 1) % k, n2 = (at + 2) % k;
      if (orientation(w(at), w(n1), w(n2)) <= 0) {
        faces.erase(faces.begin() + static_cast<std::ptrdiff_t>(n1));
        if (n1 < at) --at;
        stale(at);
        continue;
      }
      break;
    }
  }
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
