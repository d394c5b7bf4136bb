// Separating-axis tests, the reference versions (derivations/sat.md):
//
//   sat(a, b)                  convex polygon against convex polygon
//   sat_rectangles(r1, r2)     rectangle against rectangle (4 axes, closed form)
//   collide_circles(...)       circle against circle
//   collide_polygon_circle(...) convex polygon against circle
//
// Every decision (separated / touching / intersecting, which axis is the
// minimum) is exact: the vertices are converted to integers over one common
// denominator (every binary float is a dyadic rational, D-SAT-7) and all
// overlaps are compared exactly. Rational results (the squared depth
// o^2/|n|^2, D-SAT-3, and the squared distance, D-SAT-4) are rounded once,
// so they are correctly rounded; the depth and the unit normal are square
// roots of exact rationals taken in the accumulator and rounded once, so they
// are within 1 ulp (D-SAT-9). In `exact` the depth and the normal are
// irrational: they are left 0 there, and depth_squared and `axis` carry the
// exact answer.
//
// This is a reference, not a fast path: the cost is O(n m) big-integer dot
// products per call.
#pragma once

#include "rigidref/closest_point.hpp"
#include "rigidref/detail/polygon_point.hpp"
#include "rigidref/polygon.hpp"

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

enum class contact_status { separated, touching, intersecting };

template <class T>
struct sat_result {
  contact_status status = contact_status::separated;
  // Penetration depth o/|n| (D-SAT-3): 0 unless intersecting. Floating T
  // only (within 1 ulp); 0 in exact.
  T depth{0};
  // o^2 / |n|^2, correctly rounded (exact in exact); 0 unless intersecting.
  T depth_squared{0};
  // Unit normal from A to B (moving B by depth * normal leaves the two
  // touching). When separated: the face normal of largest separation.
  // Floating T only (each component within 1 ulp); {0, 0} in exact.
  vec2<T> normal;
  // The same direction unnormalised: the outward normal of the reference
  // face (edge vector rotated), exact in exact, correctly rounded otherwise.
  vec2<T> axis;
  // The reference face: polygon 0 = A, 1 = B; edge i joins vertices i, i+1.
  int reference_polygon = 0;
  std::size_t reference_edge = 0;
  // Separated only: squared distance between the polygons (D-SAT-4),
  // correctly rounded; `distance` its square root (floating T, within 1 ulp).
  T distance_squared{0};
  T distance{0};
};

namespace detail {

struct ipoint {
  big_int x, y;
};
inline ipoint operator-(const ipoint& a, const ipoint& b) { return {a.x - b.x, a.y - b.y}; }
inline big_int idot(const ipoint& a, const ipoint& b) { return a.x * b.x + a.y * b.y; }
inline big_int icross(const ipoint& a, const ipoint& b) { return a.x * b.y - a.y * b.x; }

// The squared distance from p to the segment [a, b] on the frame's integers
// (D-SAT-15): num / den with den > 0, not reduced.
struct ifraction {
  big_int num, den;
};

inline ifraction point_segment_distance_squared_integer(const ipoint& p, const ipoint& a, const ipoint& b) {
  const ipoint ab = b - a, ap = p - a;
  const big_int len2 = idot(ab, ab), along = idot(ap, ab);
  if (len2 == 0 || along <= 0) return {idot(ap, ap), big_int(1)};  // t = 0
  if (along >= len2) {                                               // t = 1
    const ipoint bp = p - b;
    return {idot(bp, bp), big_int(1)};
  }
  const big_int c = icross(ab, ap);  // |ap|^2 - (ap.ab)^2 / |ab|^2 = cross(ab, ap)^2 / |ab|^2
  return {big_int(c * c), len2};
}

// Exact rational points -> integers over one common denominator `scale`,
// translated so that `origin` maps to 0 (D-SAT-7). Scaling and translating
// change no decision: every overlap scales by scale^2, every axis by scale.
struct integer_frame {
  big_int scale{1};
  ipoint origin;  // the origin times scale
  // (p - origin) scale: scale is a multiple of every denominator.
  ipoint map(const vec2<exact>& p) const {
    return {big_int(on_scale(p.x, scale) - origin.x), big_int(on_scale(p.y, scale) - origin.y)};
  }
};

inline integer_frame make_frame(const std::vector<const std::vector<vec2<exact>>*>& sets) {
  integer_frame f;
  for (const auto* s : sets)
    for (const auto& p : *s) {
      f.scale = boost::multiprecision::lcm(f.scale, big_int(denominator(p.x)));
      f.scale = boost::multiprecision::lcm(f.scale, big_int(denominator(p.y)));
    }
  const vec2<exact>& o = sets.front()->front();
  f.origin = {on_scale(o.x, f.scale), on_scale(o.y, f.scale)};
  return f;
}

template <class T>
std::vector<vec2<exact>> exact_vertices(std::span<const vec2<T>> v) {
  std::vector<vec2<exact>> out;
  out.reserve(v.size());
  for (const auto& p : v) out.push_back({to_exact(p.x), to_exact(p.y)});
  return out;
}

// Exact orientation of a convex polygon: +1 counter-clockwise, -1 clockwise
// (twice the signed area, by the shoelace sum on integers).
inline int integer_orientation(const std::vector<ipoint>& p) {
  big_int twice_area = 0;
  for (std::size_t i = 0; i < p.size(); ++i) twice_area += icross(p[i], p[(i + 1) % p.size()]);
  return twice_area > 0 ? 1 : (twice_area < 0 ? -1 : 0);
}

// Throws invalid_input unless v is a simple convex polygon with nonzero area
// (collinear vertices allowed, either orientation). Exact (D-SAT-1).
template <class T>
void require_convex(std::span<const vec2<T>> v, const char* name) {
  try {
    require_simple_polygon(v);
  } catch (const invalid_input& e) {
    throw invalid_input(std::string(name) + ": " + e.what());
  }
  const std::size_t n = v.size();
  int sign = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int o = orientation(v[i], v[(i + 1) % n], v[(i + 2) % n]);
    if (o == 0) continue;
    if (sign == 0)
      sign = o;
    else if (o != sign)
      throw invalid_input(std::string(name) + ": polygon is not convex (turn at vertex " + std::to_string((i + 1) % n) +
                          " has the wrong sign)");
  }
  if (sign == 0) throw invalid_input(std::string(name) + ": polygon has zero area (all vertices collinear)");
}

// One candidate axis: the outward face normal n of a face (of A; of B
// negated), and the overlap o = max_a n.a - min_b n.b along it (D-SAT-2).
struct axis_candidate {
  big_int overlap;
  ipoint n;
  big_int n2;
  int polygon;
  std::size_t edge;
};

// o1^2/|n1|^2 < o2^2/|n2|^2 for o1, o2 >= 0, exactly (D-SAT-3).
inline bool smaller_depth(const axis_candidate& a, const axis_candidate& b) {
  return a.overlap * a.overlap * b.n2 < b.overlap * b.overlap * a.n2;
}

struct exact_sat {
  contact_status status;
  axis_candidate best;     // minimum overlap (or, when separated, largest separation)
  exact distance_squared;  // in integer-frame units^2 (divide by scale^2)
  bool has_distance = true;  // false: the separated distance was not asked for
};

// The SAT on integer polygons (D-SAT-2, D-SAT-3). Tie rule: the first axis
// in the order A's edges 0..n-1, then B's edges 0..m-1, wins.
// with_distance = false skips the separated distance (n*m exact point-segment
// distances, the quadratic part that dominates for large polygons).
inline exact_sat integer_sat(const std::vector<ipoint>& a, const std::vector<ipoint>& b, bool with_distance = true) {
  const int oa = integer_orientation(a), ob = integer_orientation(b);
  std::vector<axis_candidate> axes;
  auto add_faces = [&](const std::vector<ipoint>& poly, int turn, int which) {
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const ipoint e = poly[(i + 1) % poly.size()] - poly[i];
      // Outward normal: e rotated by -90 degrees for a counter-clockwise
      // polygon, +90 for a clockwise one; B's face normals are negated so
      // that every axis points from A towards B.
      ipoint n = turn > 0 ? ipoint{e.y, -e.x} : ipoint{-e.y, e.x};
      if (which == 1) n = {-n.x, -n.y};
      big_int amax = idot(a.front(), n), bmin = idot(b.front(), n);
      for (const auto& p : a) {
        const big_int d = idot(p, n);
        if (d > amax) amax = d;
      }
      for (const auto& p : b) {
        const big_int d = idot(p, n);
        if (d < bmin) bmin = d;
      }
      axes.push_back({amax - bmin, n, idot(n, n), which, i});
    }
  };
  add_faces(a, oa, 0);
  add_faces(b, ob, 1);
  exact_sat out{contact_status::intersecting, axes.front(), exact(0)};
  bool separated = false;
  for (const auto& c : axes) separated = separated || c.overlap < 0;
  if (separated) {
    // Largest separation -o/|n| among separating axes (o < 0).
    bool have = false;
    for (const auto& c : axes) {
      if (c.overlap >= 0) continue;
      if (!have || smaller_depth(out.best, c)) out.best = c;
      have = true;
    }
    out.status = contact_status::separated;
    out.has_distance = with_distance;
    if (!with_distance) return out;
    // D-SAT-4: the closest pair is a vertex of one and a point of an edge of
    // the other. Compared on integers, one rational at the end (D-SAT-15).
    ifraction best{big_int(0), big_int(0)};  // den 0: none yet
    auto scan = [&](const std::vector<ipoint>& pts, const std::vector<ipoint>& poly) {
      for (std::size_t i = 0; i < poly.size(); ++i)
        for (const auto& p : pts) {
          ifraction d = point_segment_distance_squared_integer(p, poly[i], poly[(i + 1) % poly.size()]);
          if (best.den == 0 || d.num * best.den < best.num * d.den) best = std::move(d);
        }
    };
    scan(a, b);
    scan(b, a);
    out.distance_squared = exact(best.num, best.den);
    return out;
  }
  for (const auto& c : axes)
    if (smaller_depth(c, out.best)) out.best = c;
  out.status = out.best.overlap == 0 ? contact_status::touching : contact_status::intersecting;
  return out;
}

// Rounds the exact answer into a sat_result<T> (D-SAT-9). The frame's scale
// s: real overlap = o / s^2, real axis = n / s, real distance^2 = d / s^2.
template <class T>
sat_result<T> finish(const exact_sat& e, const big_int& scale) {
  sat_result<T> out;
  out.status = e.status;
  out.reference_polygon = e.best.polygon;
  out.reference_edge = e.best.edge;
  const exact s(scale);
  const exact nx = exact(e.best.n.x) / s, ny = exact(e.best.n.y) / s;
  out.axis = {detail::rounded<T>(nx, "axis x"), detail::rounded<T>(ny, "axis y")};
  const exact n2(e.best.n2);
  if (e.status == contact_status::intersecting) {
    const exact o(e.best.overlap);
    const exact d2 = o * o / (n2 * s * s);  // (o/s^2)^2 / (|n|^2/s^2)
    out.depth_squared = detail::rounded<T>(d2, "depth squared");
    if constexpr (!is_exact_v<T>) out.depth = detail::sqrt_rounded<T>(d2, "depth");
  }
  if (e.status == contact_status::separated && e.has_distance) {
    const exact d2 = e.distance_squared / (s * s);
    out.distance_squared = detail::rounded<T>(d2, "distance squared");
    if constexpr (!is_exact_v<T>) out.distance = detail::sqrt_rounded<T>(d2, "distance");
  }
  if constexpr (!is_exact_v<T>) {
    // n / |n| componentwise as sign * sqrt(n_x^2 / |n|^2): a rational under the root.
    auto unit = [&](const big_int& c) {
      const T m = detail::sqrt_rounded<T>(exact(c * c) / n2, "normal");
      return c < 0 ? T(-m) : m;
    };
    out.normal = {unit(e.best.n.x), unit(e.best.n.y)};
  }
  return out;
}

// Two validated convex polygons, exactly and on their integer frame (D-SAT-7).
struct framed_pair {
  std::vector<vec2<exact>> a, b;
  integer_frame frame;
  std::vector<ipoint> ia, ib;
};

template <class T>
framed_pair frame_pair(std::span<const vec2<T>> a, std::span<const vec2<T>> b) {
  require_convex(a, "polygon A");
  require_convex(b, "polygon B");
  framed_pair f{exact_vertices(a), exact_vertices(b), {}, {}, {}};
  f.frame = make_frame({&f.a, &f.b});
  f.ia.reserve(f.a.size());
  f.ib.reserve(f.b.size());
  for (const auto& p : f.a) f.ia.push_back(f.frame.map(p));
  for (const auto& p : f.b) f.ib.push_back(f.frame.map(p));
  return f;
}

template <class T>
sat_result<T> sat_of(std::span<const vec2<T>> a, std::span<const vec2<T>> b, bool with_distance) {
  const framed_pair f = frame_pair(a, b);
  return finish<T>(integer_sat(f.ia, f.ib, with_distance), f.frame.scale);
}

// sat() without the separated distance (distance and distance_squared are
// left 0): the decision, reference face, axis, normal and depth, for the
// contact manifold (D-CONTACT-1), in O(n (n + m)) integer operations
// instead of also n*m exact point-segment distances. On a pair already
// framed (the manifold goes on with the same frame).
template <class T>
sat_result<T> sat_decision(const framed_pair& f) {
  return finish<T>(integer_sat(f.ia, f.ib, false), f.frame.scale);
}
template <class T>
sat_result<T> sat_decision(std::span<const vec2<T>> a, std::span<const vec2<T>> b) {
  return sat_of<T>(a, b, false);
}

}  // namespace detail

// SAT for two convex polygons (either orientation, collinear vertices
// allowed; invalid_input for non-convex, degenerate or non-finite input).
// D-SAT-1, D-SAT-2, D-SAT-3, D-SAT-4
template <class T>
sat_result<T> sat(std::span<const vec2<T>> a, std::span<const vec2<T>> b) {
  return detail::sat_of<T>(a, b, true);
}

template <class T>
sat_result<T> sat(const std::vector<vec2<T>>& a, const std::vector<vec2<T>>& b) {
  return sat<T>(std::span<const vec2<T>>(a), std::span<const vec2<T>>(b));
}

// ---- rectangles ---------------------------------------------------------------

// A rectangle: center, width along `axis`, height along axis rotated by +90
// degrees. `axis` need not be unit: the rectangle is exactly
// center +- (width/2) axis +- (height/2) perp(axis), whose sides are
// width |axis| and height |axis| (D-RECT-5). With axis = (cos, sin) rounded
// in T that is the intended rectangle scaled by 1 +- 1 ulp; with a rational
// unit axis (Pythagorean) it is exact.
template <class T>
struct rectangle {
  vec2<T> center;
  T width{1};
  T height{1};
  vec2<T> axis{T(1), T(0)};
};

// Axis from an angle, cos and sin in T (floating T only).
// In exact: throws unsupported (cos/sin are not rational; give the axis as a
// rational unit vector instead).
template <class T>
rectangle<T> rectangle_from_angle(const vec2<T>& center, const T& width, const T& height, const T& angle) {
  if constexpr (is_exact_v<T>) {
    throw unsupported("a rectangle from an angle needs cos/sin: give a rational unit axis in exact");
  } else {
    using std::cos;
    using std::sin;
    if (!is_finite(angle)) throw invalid_input("rectangle angle is not finite");
    return {center, width, height, {T(cos(angle)), T(sin(angle))}};
  }
}

namespace detail {

template <class T>
void require_rectangle(const rectangle<T>& r, const char* name) {
  if (!is_finite(r.center.x) || !is_finite(r.center.y) || !is_finite(r.width) || !is_finite(r.height) ||
      !is_finite(r.axis.x) || !is_finite(r.axis.y))
    throw invalid_input(std::string(name) + " has a non-finite value");
  if (!(r.width > 0) || !(r.height > 0)) throw invalid_input(std::string(name) + " needs width > 0 and height > 0");
  if (r.axis.x == 0 && r.axis.y == 0) throw invalid_input(std::string(name) + " has a zero axis");
}

}  // namespace detail

// The rectangle's vertices, exactly, counter-clockwise: edge 0 faces
// -perp(axis), edge 1 +axis, edge 2 +perp(axis), edge 3 -axis. D-RECT-5
template <class T>
std::array<vec2<exact>, 4> rectangle_vertices_exact(const rectangle<T>& r) {
  const vec2<exact> c = detail::exact_of(r.center), u = detail::exact_of(r.axis);
  const vec2<exact> v{exact(-u.y), u.x};
  const exact hw = to_exact(r.width) / 2, hh = to_exact(r.height) / 2;
  return {c - hw * u - hh * v, c + hw * u - hh * v, c + hw * u + hh * v, c - hw * u + hh * v};
}

// Rectangle SAT in closed form (D-RECT-5): along the unnormalised axis u1 of
// R1 the overlap is (w1/2)|u1|^2 + (w2/2)|u1.u2| + (h2/2)|u1 x u2| - |u1.(c2-c1)|,
// and likewise for perp(u1), u2, perp(u2): four exact overlaps, the same
// numbers the general SAT finds on the vertices. The reference face and
// distance use the vertex numbering of rectangle_vertices_exact.
template <class T>
sat_result<T> sat_rectangles(const rectangle<T>& r1, const rectangle<T>& r2) {
  detail::require_rectangle(r1, "rectangle 1");
  detail::require_rectangle(r2, "rectangle 2");
  using detail::ipoint;
  const std::array<vec2<exact>, 4> q1 = rectangle_vertices_exact(r1), q2 = rectangle_vertices_exact(r2);
  const std::vector<vec2<exact>> v1(q1.begin(), q1.end()), v2(q2.begin(), q2.end());
  // Common frame: the integers must also hold w/2 u and h/2 perp(u), which
  // are differences of vertices, and the centers (vertex midpoints).
  std::vector<vec2<exact>> extra{detail::exact_of(r1.center), detail::exact_of(r2.center)};
  const detail::integer_frame f = detail::make_frame({&v1, &v2, &extra});
  const ipoint c1 = f.map(extra[0]), c2 = f.map(extra[1]);
  // Half-edge vectors in the frame: a = (w/2) u, b = (h/2) perp(u).
  const ipoint a1 = f.map(v1[1]) - f.map(v1[0]), b1 = f.map(v1[3]) - f.map(v1[0]);
  const ipoint a2 = f.map(v2[1]) - f.map(v2[0]), b2 = f.map(v2[3]) - f.map(v2[0]);
  // a1, b1 are full edge vectors w u and h perp(u) (scaled); the half
  // extents along an axis n are |n.a|/2 + |n.b|/2. Work with 2 * overlap to
  // stay in integers.
  const ipoint d = c2 - c1;
  struct face {
    ipoint n;  // the axis, in the direction of its polygon's edge normal
    int polygon;
    std::size_t plus_edge, minus_edge;  // edge whose outward normal is +n, -n
  };
  const std::array<face, 4> faces{face{a1, 0, 1, 3}, face{b1, 0, 2, 0}, face{a2, 1, 1, 3}, face{b2, 1, 2, 0}};
  std::vector<detail::axis_candidate> axes;
  for (const auto& fc : faces) {
    const big_int twice_half_extents = abs(idot(fc.n, a1)) + abs(idot(fc.n, b1)) + abs(idot(fc.n, a2)) +
                                       abs(idot(fc.n, b2));  // 2 (half extent of R1 + of R2) along n
    const big_int dn = idot(fc.n, d);
    const big_int twice_overlap = twice_half_extents - 2 * abs(dn);
    // Direction from A to B: +n when B's center is on the +n side (ties: +n).
    const bool plus = dn >= 0;
    const ipoint dir = plus ? fc.n : ipoint{-fc.n.x, -fc.n.y};
    // Reference face: A's face with outward normal dir, or B's face with outward normal -dir.
    const std::size_t edge =
        fc.polygon == 0 ? (plus ? fc.plus_edge : fc.minus_edge) : (plus ? fc.minus_edge : fc.plus_edge);
    axes.push_back({twice_overlap, dir, detail::idot(dir, dir), fc.polygon, edge});
  }
  // Overlaps are 2x in these candidates; comparisons of o^2/|n|^2 are unaffected.
  detail::exact_sat e{contact_status::intersecting, axes.front(), exact(0)};
  bool separated = false;
  for (const auto& c : axes) separated = separated || c.overlap < 0;
  if (separated) {
    bool have = false;
    for (const auto& c : axes) {
      if (c.overlap >= 0) continue;
      if (!have || detail::smaller_depth(e.best, c)) e.best = c;
      have = true;
    }
    e.status = contact_status::separated;
    exact best = -1;
    for (int pass = 0; pass < 2; ++pass) {
      const auto& pts = pass == 0 ? v1 : v2;
      const auto& poly = pass == 0 ? v2 : v1;
      for (std::size_t i = 0; i < 4; ++i)
        for (const auto& p : pts) {
          const exact dd = point_segment_distance_squared_exact(p, poly[i], poly[(i + 1) % 4]);
          if (best < 0 || dd < best) best = dd;
        }
    }
    e.distance_squared = best * exact(f.scale) * exact(f.scale);  // back into frame units
  } else {
    for (const auto& c : axes)
      if (detail::smaller_depth(c, e.best)) e.best = c;
    e.status = e.best.overlap == 0 ? contact_status::touching : contact_status::intersecting;
  }
  // Undo the factor 2: overlap o = twice_overlap / 2, exact in rationals below.
  sat_result<T> out = detail::finish<T>(e, f.scale);
  if (e.status == contact_status::intersecting) {
    const exact s(f.scale);
    const exact o = exact(e.best.overlap) / 2;
    const exact d2 = o * o / (exact(e.best.n2) * s * s);
    out.depth_squared = detail::rounded<T>(d2, "depth squared");
    if constexpr (!is_exact_v<T>) out.depth = detail::sqrt_rounded<T>(d2, "depth");
  }
  return out;
}

// ---- circles -----------------------------------------------------------------

template <class T>
struct circle_result {
  contact_status status = contact_status::separated;
  T depth{0};                  // penetration depth (intersecting); floating T only, within 1 ulp
  vec2<T> normal;              // unit normal from the first shape to the second; floating T only
  bool normal_defined = true;  // false for concentric circles (normal then (1, 0))
};

namespace detail {

// (R^2 - L2) / (R + sqrt(L2)) = R - sqrt(L2) without cancellation (D-SAT-8);
// numerator exact, denominator a sum of nonnegative terms.
template <class T>
T radius_minus_root(const exact& R, const exact& L2) {
  using A = accumulator<T>;
  const exact num = R * R - L2;
  if (num == 0) return T(0);
  const auto den = A::from_exact(R) + A::sqrt(A::from_exact(L2));
  return A::round(A::from_exact(num) / den);
}

template <class T>
vec2<T> unit_of(const vec2<exact>& v) {
  const exact n2 = length_squared(v);
  auto comp = [&](const exact& c) {
    const T m = detail::sqrt_rounded<T>(c * c / n2, "normal");
    return c < 0 ? T(-m) : m;
  };
  return {comp(v.x), comp(v.y)};
}

template <class T>
exact checked_radius(const T& r, const char* name) {
  if (!is_finite(r) || !(r > 0)) throw invalid_input(std::string(name) + " must be finite and > 0");
  return to_exact(r);
}

}  // namespace detail

// Circle against circle: status exact from |c2 - c1|^2 against (r1 + r2)^2;
// depth r1 + r2 - |c2 - c1| evaluated as in D-SAT-8; normal (c2 - c1)/|c2 - c1|.
template <class T>
circle_result<T> collide_circles(const vec2<T>& c1, const T& r1, const vec2<T>& c2, const T& r2) {
  detail::require_finite_point(c1, "circle 1 center");
  detail::require_finite_point(c2, "circle 2 center");
  const exact R = detail::checked_radius(r1, "circle 1 radius") + detail::checked_radius(r2, "circle 2 radius");
  const vec2<exact> d = detail::exact_of(c2) - detail::exact_of(c1);
  const exact L2 = length_squared(d);
  circle_result<T> out;
  out.status =
      L2 > R * R ? contact_status::separated : (L2 == R * R ? contact_status::touching : contact_status::intersecting);
  if constexpr (!is_exact_v<T>) {
    if (L2 == 0) {
      out.normal = {T(1), T(0)};
      out.normal_defined = false;
    } else {
      out.normal = detail::unit_of<T>(d);
    }
    if (out.status == contact_status::intersecting) out.depth = detail::radius_minus_root<T>(R, L2);
  }
  return out;
}

// Convex polygon A against circle B (center c, radius r), D-SAT-8:
//   center outside A: distance d to A (D-SAT-4 with one point); depth r - d,
//     normal from the closest point of A to c;
//   center inside or on A: depth r + (distance from c to the nearest edge
//     line), normal the outward normal of that edge.
// The status compares d^2 with r^2 exactly.
template <class T>
circle_result<T> collide_polygon_circle(std::span<const vec2<T>> a, const vec2<T>& c, const T& r) {
  detail::require_convex(a, "polygon");
  detail::require_finite_point(c, "circle center");
  const exact R = detail::checked_radius(r, "circle radius");
  const detail::polygon_point_geometry g = detail::polygon_point(detail::exact_vertices(a), detail::exact_of(c));
  circle_result<T> out;
  if (!g.inside) {
    const exact& best = g.distance_squared;
    out.status = best > R * R ? contact_status::separated
                              : (best == R * R ? contact_status::touching : contact_status::intersecting);
    if constexpr (!is_exact_v<T>) {
      out.normal = detail::unit_of<T>(g.axis);
      if (out.status == contact_status::intersecting) out.depth = detail::radius_minus_root<T>(R, best);
    }
    return out;
  }
  // Inside or on the boundary: the nearest edge line; its outward normal.
  out.status = contact_status::intersecting;
  if constexpr (!is_exact_v<T>) {
    out.normal = detail::unit_of<T>(g.axis);
    using A = accumulator<T>;
    out.depth = A::round(A::from_exact(R) + A::sqrt(A::from_exact(g.distance_squared)));
  }
  return out;
}

template <class T>
circle_result<T> collide_polygon_circle(const std::vector<vec2<T>>& a, const vec2<T>& c, const T& r) {
  return collide_polygon_circle<T>(std::span<const vec2<T>>(a), c, r);
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
