// The reference contact manifold of two convex polygons, by clipping
// (derivations/contact.md, D-CONTACT-1..7). The construction is the one
// Catto presents for Box2D and Ericson describes (Real-Time Collision
// Detection, 5.x/9.x), written here from the mathematics:
//
//   1. reference face: the face the SAT picks (sat.hpp, exact decisions):
//      the face of minimum overlap, or of largest separation when apart;
//   2. incident face: the face of the other polygon whose outward normal is
//      most anti-parallel to the reference face's normal (exact comparison);
//   3. the incident face is clipped against the two side planes of the
//      reference face (the lines through its end vertices, perpendicular to
//      it);
//   4. each clipped point is kept when its separation from the reference
//      face is <= margin (margin 0 by default: penetrating or touching).
//
// Every decision (which face, which points survive) is exact: the inputs
// are dyadic rationals, the clipped points are rational functions of them
// (the normal is used unnormalised), and every comparison is made on
// rationals. The points are then rounded once per coordinate (correctly
// rounded in T, exact in exact); the separation is a rational over |n|, a
// square root of a rational, rounded once (within 1 ulp, D-SAT-9).
//
// Collinear vertices are allowed: a face is the maximal run of collinear
// edges through the SAT's edge (D-CONTACT-2), so a split face clips as one.
#pragma once

#include "rigidref/sat.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

enum class feature_type { vertex, face };

// One side of a contact point's identity (Box2D-style feature ids): on
// polygon `polygon` (0 = A, 1 = B), the vertex `index` or the face starting
// at vertex `index` (edge index = input edge i joining v_i and v_{i+1}; for
// a run of collinear edges, the edge the run is named by, D-CONTACT-2).
struct contact_feature {
  int polygon = 0;
  feature_type type = feature_type::vertex;
  std::size_t index = 0;
  friend bool operator==(const contact_feature&, const contact_feature&) = default;
};

template <class T>
struct manifold_point {
  // On the incident polygon's boundary: a vertex of the incident face or a
  // point where a side plane cut it (D-CONTACT-3). Correctly rounded.
  vec2<T> point;
  // Its orthogonal projection on the reference face's line, which lies on
  // the reference face segment (D-CONTACT-4). Correctly rounded.
  vec2<T> reference_point;
  // Signed distance from the reference face along its outward normal,
  // = (point on B - point on A) . normal (D-CONTACT-4): < 0 penetrating.
  // Floating T only (within 1 ulp); 0 in exact.
  T separation{0};
  // separation * |axis| = (point - face vertex) . axis with the unnormalised
  // axis: rational, correctly rounded (exact in exact).
  T separation_scaled{0};
  contact_feature feature_a, feature_b;
};

template <class T>
struct contact_manifold {
  contact_status status = contact_status::separated;  // sat.hpp's decision
  // Unit normal from A to B (floating T only; {0,0} in exact) and the same
  // direction unnormalised (the reference face's outward normal, negated
  // when the reference face is on B): exact in exact.
  vec2<T> normal;
  vec2<T> axis;
  int reference_polygon = 0;       // 0 = A, 1 = B
  std::size_t reference_edge = 0;  // sat.hpp's edge; the face is the run of collinear edges through it
  std::size_t reference_first = 0, reference_last = 0;  // the face's end vertices (input indices, in order)
  std::size_t incident_edge = 0;
  std::size_t incident_first = 0, incident_last = 0;
  std::vector<manifold_point<T>> points;  // 0, 1 or 2, in the incident face's vertex order
};

struct contact_options {
  // Points are kept when separation <= relative_margin * L, L the smaller of
  // the two polygons' sizes (largest bounding-box side), so the rule is the
  // same at every scale (D-CONTACT-6). 0 (default): separation <= 0.
  // Must be finite and >= 0; given as a double, converted exactly.
  double relative_margin = 0;
};

namespace detail {

using Q = exact;
using P = vec2<exact>;

// The decisions below run on the integer frame of D-SAT-7 (sat.hpp):
// edges, cross and dot products are then integers, without a gcd per
// operation. Each decision compares quantities of one degree in the
// coordinate differences, so the scale L and the translation change none of
// them (the shoelace sum of a closed polygon does not move with a
// translation). D-CONTACT-16
inline ipoint perp_out(const ipoint& e, int turn) {  // outward normal of edge e of a polygon turning `turn`
  return turn > 0 ? ipoint{e.y, big_int(-e.x)} : ipoint{big_int(-e.y), e.x};
}

inline int turn_of(const std::vector<ipoint>& v) {
  big_int twice_area = 0;
  for (std::size_t i = 0; i < v.size(); ++i) twice_area += icross(v[i], v[(i + 1) % v.size()]);
  return twice_area > 0 ? 1 : -1;  // nonzero: require_convex has run
}

// The maximal run of collinear edges containing edge i: its first and last
// vertex (input order). D-CONTACT-2
struct run {
  std::size_t first, last;
};
inline run face_run(const std::vector<ipoint>& v, std::size_t i) {
  const std::size_t n = v.size();
  auto edge = [&](std::size_t k) { return v[(k + 1) % n] - v[k % n]; };
  std::size_t first = i, last = (i + 1) % n;
  // Walk back while the previous edge is collinear with edge i (and forward likewise).
  // A convex polygon with nonzero area has at least two non-collinear edges,
  // so both walks stop.
  const ipoint ei = edge(i);
  while (icross(edge((first + n - 1) % n), ei) == 0) first = (first + n - 1) % n;
  while (icross(edge(last), ei) == 0) last = (last + 1) % n;
  return {first, last};
}

// Bounding-box size: the larger of the x and y extents.
inline Q size_of(const std::vector<P>& v) {
  Q xlo = v[0].x, xhi = v[0].x, ylo = v[0].y, yhi = v[0].y;
  for (const auto& p : v) {
    xlo = std::min(xlo, p.x), xhi = std::max(xhi, p.x);
    ylo = std::min(ylo, p.y), yhi = std::max(yhi, p.y);
  }
  return std::max(Q(xhi - xlo), Q(yhi - ylo));
}

// s / |n| <= m for m >= 0, exactly (|n|^2 = n2 > 0). D-CONTACT-6
inline bool within_margin(const Q& s, const Q& n2, const Q& m) {
  if (s <= 0) return true;
  return s * s <= m * m * n2;
}

// d / |n|: a strictly increasing key for "most anti-parallel", compared
// exactly as sign-preserving squares d|d| / |n|^2. D-CONTACT-3
inline bool less_cosine(const big_int& d1, const big_int& n1, const big_int& d2, const big_int& n2) {
  return big_int(d1 * abs(d1) * n2) < big_int(d2 * abs(d2) * n1);
}

struct clipped {
  P p;
  bool is_vertex;          // an incident vertex (not cut)
  std::size_t vertex;      // incident vertex index (is_vertex)
  std::size_t cut_vertex;  // reference vertex whose side plane cut it (!is_vertex)
};

}  // namespace detail

// The contact manifold of convex polygons A and B (either orientation,
// collinear vertices allowed; invalid_input for non-convex, degenerate or
// non-finite input, or a bad margin). D-CONTACT-1..6
template <class T>
contact_manifold<T> collide_polygons(std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                                     const contact_options& opt = {}) {
  using detail::P, detail::Q, detail::clipped, detail::face_run, detail::less_cosine, detail::run, detail::size_of,
      detail::turn_of, detail::within_margin;
  if (!(opt.relative_margin >= 0) || !std::isfinite(opt.relative_margin))
    throw invalid_input("contact: relative_margin must be finite and >= 0");
  // Both polygons validated, exactly and on the integer frame of D-SAT-7.
  const detail::framed_pair f = detail::frame_pair(a, b);
  // D-CONTACT-1: the SAT's exact decision (status, reference face); no distance needed.
  const sat_result<T> s = detail::sat_decision<T>(f);
  const std::vector<P>& ref = s.reference_polygon == 0 ? f.a : f.b;
  const std::vector<P>& inc = s.reference_polygon == 0 ? f.b : f.a;
  // D-CONTACT-16: the decisions on integers, X = (x - origin) L, on the same frame.
  const big_int& L = f.frame.scale;
  const std::vector<detail::ipoint>& iref = s.reference_polygon == 0 ? f.ia : f.ib;
  const std::vector<detail::ipoint>& iinc = s.reference_polygon == 0 ? f.ib : f.ia;
  const int ref_turn = turn_of(iref), inc_turn = turn_of(iinc);
  const std::size_t nr = ref.size(), ni = inc.size();

  contact_manifold<T> out;
  out.status = s.status;
  out.normal = s.normal;
  out.axis = s.axis;
  out.reference_polygon = s.reference_polygon;
  out.reference_edge = s.reference_edge;

  // D-CONTACT-2: the reference face (run) and its outward normal.
  const run rf = face_run(iref, s.reference_edge);
  out.reference_first = rf.first;
  out.reference_last = rf.last;
  const P v1 = ref[rf.first], v2 = ref[rf.last];
  const P tangent = v2 - v1;
  // The SAT edge's own outward normal (|n| = |axis|; the run's normal is a
  // positive multiple of it): N = n L on integers.
  const detail::ipoint N =
      detail::perp_out(iref[(s.reference_edge + 1) % nr] - iref[s.reference_edge], ref_turn);
  const P n{Q(N.x, L), Q(N.y, L)};
  const Q n2 = length_squared(n);

  // D-CONTACT-6: the margin m = relative_margin * L (0 without a margin).
  const Q margin = opt.relative_margin == 0 ? Q(0)
                                            : Q(to_exact(opt.relative_margin) * std::min(size_of(f.a), size_of(f.b)));
  // The SAT's best face separation (largest separation when apart): no
  // contact when it exceeds the margin. (P - V1) . N = L^2 (p - v1) . n.
  {
    const detail::ipoint& V1 = iref[rf.first];
    big_int deepest = detail::idot(iinc[0] - V1, N);
    for (const auto& p : iinc) deepest = std::min(deepest, big_int(detail::idot(p - V1, N)));
    if (!within_margin(Q(deepest, big_int(L * L)), n2, margin)) return out;
  }

  // D-CONTACT-3: incident face = most anti-parallel outward normal (d and
  // |m|^2 both times L^2: the comparison is unchanged).
  std::size_t best = 0;
  big_int best_d = 0, best_n2 = 0;
  for (std::size_t k = 0; k < ni; ++k) {
    const detail::ipoint e = iinc[(k + 1) % ni] - iinc[k];
    if (e.x == 0 && e.y == 0) continue;  // repeated vertex: no face
    const detail::ipoint m = detail::perp_out(e, inc_turn);
    const big_int d = detail::idot(m, N), m2 = detail::idot(m, m);
    if (best_n2 == 0 || less_cosine(d, m2, best_d, best_n2)) {
      best = k;
      best_d = d;
      best_n2 = m2;
    }
  }
  const run fi = face_run(iinc, best);
  out.incident_edge = best;
  out.incident_first = fi.first;
  out.incident_last = fi.last;

  // D-CONTACT-3: clip [w1, w2] to the slab 0 <= (p - v1).t <= |t|^2.
  std::vector<clipped> seg{{inc[fi.first], true, fi.first, 0}, {inc[fi.last], true, fi.last, 0}};
  auto clip = [&](const P& origin, const P& dir, std::size_t cut_vertex) {
    // Keep dot(p - origin, dir) <= 0.
    std::vector<clipped> kept;
    if (seg.size() < 2) {
      for (const auto& c : seg)
        if (dot(c.p - origin, dir) <= 0) kept.push_back(c);
      seg = kept;
      return;
    }
    const Q d0 = dot(seg[0].p - origin, dir), d1 = dot(seg[1].p - origin, dir);
    if (d0 <= 0) kept.push_back(seg[0]);
    if (d1 <= 0) kept.push_back(seg[1]);
    if ((d0 < 0 && d1 > 0) || (d0 > 0 && d1 < 0)) {
      const Q t = d0 / (d0 - d1);
      const P p = seg[0].p + t * (seg[1].p - seg[0].p);
      clipped c{p, false, 0, cut_vertex};
      if (d0 > 0)
        kept.insert(kept.begin(), c);
      else
        kept.push_back(c);
    }
    seg = kept;
  };
  clip(v1, P{Q(-tangent.x), Q(-tangent.y)}, rf.first);  // side plane through v1
  clip(v2, tangent, rf.last);                              // side plane through v2
  // Two equal survivors (the incident face meets the slab in one point) are
  // one contact point.
  if (seg.size() == 2 && seg[0].p == seg[1].p) seg.pop_back();

  // D-CONTACT-4, D-CONTACT-5: separations, projections, rounding once.
  const int inc_poly = 1 - s.reference_polygon;
  for (const auto& c : seg) {
    const Q sep_scaled = dot(c.p - v1, n);
    if (!within_margin(sep_scaled, n2, margin)) continue;
    manifold_point<T> mp;
    mp.point = {detail::rounded<T>(c.p.x, "contact point x"), detail::rounded<T>(c.p.y, "contact point y")};
    const P proj = c.p - (sep_scaled / n2) * n;
    mp.reference_point = {detail::rounded<T>(proj.x, "reference point x"),
                          detail::rounded<T>(proj.y, "reference point y")};
    mp.separation_scaled = detail::rounded<T>(sep_scaled, "separation");
    if constexpr (!is_exact_v<T>) {
      const T m = detail::sqrt_rounded<T>(sep_scaled * sep_scaled / n2, "separation");
      mp.separation = sep_scaled < 0 ? T(-m) : m;
    }
    const contact_feature on_inc = c.is_vertex ? contact_feature{inc_poly, feature_type::vertex, c.vertex}
                                               : contact_feature{inc_poly, feature_type::face, out.incident_edge};
    const contact_feature on_ref = c.is_vertex
                                       ? contact_feature{s.reference_polygon, feature_type::face, out.reference_edge}
                                       : contact_feature{s.reference_polygon, feature_type::vertex, c.cut_vertex};
    mp.feature_a = s.reference_polygon == 0 ? on_ref : on_inc;
    mp.feature_b = s.reference_polygon == 0 ? on_inc : on_ref;
    out.points.push_back(mp);
  }
  return out;
}

template <class T>
contact_manifold<T> collide_polygons(const std::vector<vec2<T>>& a, const std::vector<vec2<T>>& b,
                                     const contact_options& opt = {}) {
  return collide_polygons<T>(std::span<const vec2<T>>(a), std::span<const vec2<T>>(b), opt);
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
