// Continuous collision of the reference scene model (scene_run.hpp) against
// static bodies (derivations/scene_run.md, D-SCENERUN-14).
//
// A step moves a dynamic body's centre of mass along the straight segment
// c -> c + h v and its angle by h w. When that segment enters a static body
// the body started apart from, semi-implicit Euler would carry it through
// (a disc at 300 m/s past a 0.1 m wall); the step is then cut at the time of
// impact, found by conservative advancement: from t = 0, t += d(t) / S with
// d the distance of the shapes (GJK) and S >= the fastest approach of any
// of the body's points over the whole step (h |v| + h |w| R for a polygon,
// h |v| for a disc, whose shape does not turn), so t never passes the first
// touch. It stops when d is at the rounding of the coordinates, so that the
// next step finds the contact and solves it.
#pragma once

#include "rigidref/gjk.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/step_pair.hpp"
#include "rigidref/support.hpp"
#include "rigidref/vec2.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// Does the segment from a to b reach the interior of the body (at pose p)
// while a is outside it? Cyrus-Beck clipping against the faces of a polygon,
// the closest point of the segment for a disc.
template <class T>
bool centre_path_enters(const vec2<T>& a, const vec2<T>& b, const step_body<T>& body, const pose<T>& p) {
  const vec2<T> d = b - a;
  if (body.is_circle) {
    const vec2<T> ac = a - p.origin;
    const T r2 = T(body.radius * body.radius);
    if (T(ac.x * ac.x + ac.y * ac.y) >= r2 && T(ac.x * ac.x + ac.y * ac.y) > 0) {
      const T len2 = T(d.x * d.x + d.y * d.y);
      T u = len2 > 0 ? T(-(ac.x * d.x + ac.y * d.y) / len2) : T(0);
      u = std::clamp(u, T(0), T(1));
      const vec2<T> q{T(ac.x + u * d.x), T(ac.y + u * d.y)};
      return T(q.x * q.x + q.y * q.y) < r2;
    }
    return false;
  }
  const std::vector<vec2<T>> w = world_vertices(body, p);
  const std::size_t n = w.size();
  T twice_area{0};
  for (std::size_t k = 0; k < n; ++k) twice_area += T(w[k].x * w[(k + 1) % n].y - w[(k + 1) % n].x * w[k].y);
  const T sign = twice_area > 0 ? T(1) : T(-1);
  T enter{0}, leave{1};
  bool a_outside = false;
  for (std::size_t k = 0; k < n; ++k) {
    const vec2<T> e = w[(k + 1) % n] - w[k];
    const vec2<T> out_n{T(sign * e.y), T(-sign * e.x)};  // outward for either orientation
    const T fa = T(out_n.x * (a.x - w[k].x) + out_n.y * (a.y - w[k].y));  // > 0: outside this face
    const T fd = T(out_n.x * d.x + out_n.y * d.y);
    if (fa >= 0) a_outside = true;
    if (fd == 0) {
      if (fa >= 0) return false;  // parallel to the face, outside it
      continue;
    }
    const T t = T(-fa / fd);
    if (fd < 0) enter = std::max(enter, t);
    else leave = std::min(leave, t);
  }
  return a_outside && enter < leave;
}

// The distance of two bodies' shapes at the given poses (0 when they touch
// or overlap).
template <class T>
T shape_distance(const step_body<T>& b1, const pose<T>& p1, const step_body<T>& b2, const pose<T>& p2) {
  if (b1.is_circle && b2.is_circle) return gjk_distance(circle<T>{p1.origin, b1.radius}, circle<T>{p2.origin, b2.radius}).distance;
  if (b1.is_circle) return gjk_distance(circle<T>{p1.origin, b1.radius}, make_convex_polygon(world_vertices(b2, p2))).distance;
  if (b2.is_circle) return gjk_distance(make_convex_polygon(world_vertices(b1, p1)), circle<T>{p2.origin, b2.radius}).distance;
  return gjk_distance(make_convex_polygon(world_vertices(b1, p1)), make_convex_polygon(world_vertices(b2, p2))).distance;
}

// The pose of a body whose centre of mass moves from c by t h v and whose
// angle turns from a by t h w.
template <class T>
pose<T> pose_along(const step_mass<T>& m, const vec2<T>& c, const T& a, const vec2<T>& hv,
                   const T& hw, const T& t) {
  using std::cos;
  using std::sin;
  const T angle = T(a + t * hw);
  pose<T> p{T(cos(angle)), T(sin(angle)), {}, {T(c.x + t * hv.x), T(c.y + t * hv.y)}};
  p.origin = p.center - rotate(p.c, p.s, m.centroid);
  return p;
}

// The fraction t in [0, 1] of the step (motion hv, hw from centre c and
// angle a) at which the moving body first comes within `touch` of the static
// one, or 1 when it does not; never past the first touch (D-SCENERUN-14).
template <class T>
T time_of_impact(const step_body<T>& mover, const step_mass<T>& m, const T& reach, const vec2<T>& c, const T& a,
                 const vec2<T>& hv, const T& hw, const step_body<T>& fixed, const pose<T>& fixed_pose, const T& touch) {
  using std::abs;
  using std::sqrt;
  const T speed = T(sqrt(T(hv.x * hv.x + hv.y * hv.y)) + (mover.is_circle ? T(0) : T(abs(hw) * reach)));
  if (!(speed > 0)) return T(1);
  T t{0};
  // Each round advances by the distance over the bound; a disc meeting a
  // face head-on stops in one round, at 30 degrees in about 16; a thin
  // triangle spinning at 11 rad/s, whose bound is mostly its spin, needed
  // more than 64 (rigidref hunt). The cap leaves the body short of the
  // touch, never past it; the next step goes on.
  for (int round = 0; round < 4096; ++round) {
    const T d = shape_distance(mover, pose_along(m, c, a, hv, hw, t), fixed, fixed_pose);
    if (d <= touch) return t;
    t = T(t + d / speed);
    if (t >= 1) return T(1);
  }
  return t;
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
