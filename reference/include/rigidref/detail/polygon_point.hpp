// Where a point (a circle's centre) lies against a convex polygon, exactly
// (D-SAT-8): outside, the closest boundary point and its feature; inside or
// on the boundary, the edge whose line is nearest. Shared by the circle SAT
// (sat.hpp, collide_polygon_circle) and the circle manifolds
// (contact_circle.hpp), so both decide from the same exact geometry.
#pragma once

#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <cstddef>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

struct polygon_point_geometry {
  bool inside = false;  // in the closed polygon (the boundary counts)
  // Outside: |c - q|^2, q the closest boundary point. Inside: the squared
  // distance from c to the nearest edge's line.
  exact distance_squared = 0;
  // Outside: q. Inside: the projection of c on the nearest edge's line.
  vec2<exact> closest;
  // Outside: c - q. Inside: the nearest edge's outward normal, the edge
  // vector rotated (unnormalised).
  vec2<exact> axis;
  // The edge holding q (or the nearest edge); edge i joins v_i and v_{i+1}.
  std::size_t edge = 0;
  // Outside and q a vertex of the polygon: its index.
  bool at_vertex = false;
  std::size_t vertex = 0;
};

// p: the polygon's exact vertices (convex, either orientation, nonzero area).
// Ties between edges go to the first index.
inline polygon_point_geometry polygon_point(const std::vector<vec2<exact>>& p, const vec2<exact>& c) {
  const std::size_t n = p.size();
  exact twice_area = 0;
  for (std::size_t i = 0; i < n; ++i) twice_area += cross(p[i], p[(i + 1) % n]);
  const int turn = twice_area > 0 ? 1 : -1;
  polygon_point_geometry g;
  g.inside = true;
  for (std::size_t i = 0; i < n; ++i)
    if (cross(p[(i + 1) % n] - p[i], c - p[i]) * turn < 0) g.inside = false;
  exact best = -1;
  if (!g.inside) {
    for (std::size_t i = 0; i < n; ++i) {
      const vec2<exact> ab = p[(i + 1) % n] - p[i];
      exact t = dot(c - p[i], ab) / length_squared(ab);
      if (t < 0) t = 0;
      if (t > 1) t = 1;
      const vec2<exact> q = p[i] + t * ab;
      const exact d2 = length_squared(c - q);
      if (best < 0 || d2 < best) {
        best = d2;
        g.closest = q;
        g.edge = i;
        g.at_vertex = t == 0 || t == 1;
        g.vertex = t == 1 ? (i + 1) % n : i;
      }
    }
    g.distance_squared = best;
    g.axis = c - g.closest;
    return g;
  }
  // Inside or on the boundary: the nearest edge line, smallest s^2/|e|^2
  // with s = e x (c - p_i).
  for (std::size_t i = 0; i < n; ++i) {
    const vec2<exact> e = p[(i + 1) % n] - p[i];
    const exact s = cross(e, c - p[i]);
    const exact d2 = s * s / length_squared(e);
    if (best < 0 || d2 < best) {
      best = d2;
      g.edge = i;
    }
  }
  const vec2<exact> e = p[(g.edge + 1) % n] - p[g.edge];
  g.axis = turn > 0 ? vec2<exact>{e.y, exact(-e.x)} : vec2<exact>{exact(-e.y), e.x};
  g.distance_squared = best;
  // c - ((c - p_i).m / |m|^2) m: on the edge's line, c's foot.
  const exact t = dot(c - p[g.edge], g.axis) / length_squared(g.axis);
  g.closest = c - t * g.axis;
  return g;
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
