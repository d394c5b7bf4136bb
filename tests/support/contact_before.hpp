// collide_polygons as it was before D-CONTACT-16 (commit 7f11343): every
// decision on cpp_rational. Kept as the reference of the differential test in
// tests/contact_test.cpp ("the integer frame gives the same manifold"); not
// a second implementation in use.
#pragma once

#include "rigidref/contact.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace contact_before {

using namespace rigidref;

namespace detail {

using Q = rigidref::exact;
using P = rigidref::vec2<rigidref::exact>;

inline P perp_out(const P& e, int turn) {  // outward normal of edge e of a polygon turning `turn`
  return turn > 0 ? P{e.y, Q(-e.x)} : P{Q(-e.y), e.x};
}

inline int turn_of(const std::vector<P>& v) {
  Q twice_area = 0;
  for (std::size_t i = 0; i < v.size(); ++i) twice_area += cross(v[i], v[(i + 1) % v.size()]);
  return twice_area > 0 ? 1 : -1;  // nonzero: require_convex has run
}

// The maximal run of collinear edges containing edge i: its first and last
// vertex (input order). D-CONTACT-2
struct run {
  std::size_t first, last;
};
inline run face_run(const std::vector<P>& v, std::size_t i) {
  const std::size_t n = v.size();
  auto edge = [&](std::size_t k) { return v[(k + 1) % n] - v[k % n]; };
  std::size_t first = i, last = (i + 1) % n;
  // Walk back while the previous edge is collinear with edge i (and forward likewise).
  // A convex polygon with nonzero area has at least two non-collinear edges,
  // so both walks stop.
  while (cross(edge((first + n - 1) % n), edge(i)) == 0) first = (first + n - 1) % n;
  while (cross(edge(last), edge(i)) == 0) last = (last + 1) % n;
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
inline bool less_cosine(const Q& d1, const Q& n1, const Q& d2, const Q& n2) {
  return d1 * abs(d1) * n2 < d2 * abs(d2) * n1;
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
  using detail::P, detail::Q, detail::clipped, detail::face_run, detail::less_cosine, detail::perp_out, detail::run,
      detail::size_of, detail::turn_of, detail::within_margin;
  if (!(opt.relative_margin >= 0) || !std::isfinite(opt.relative_margin))
    throw invalid_input("contact: relative_margin must be finite and >= 0");
  // D-CONTACT-1: the SAT's exact decision (status, reference face).
  const sat_result<T> s = rigidref::detail::sat_decision<T>(a, b);  // validates both polygons; no distance needed
  const std::vector<P> va = rigidref::detail::exact_vertices(a), vb = rigidref::detail::exact_vertices(b);
  const std::vector<P>& ref = s.reference_polygon == 0 ? va : vb;
  const std::vector<P>& inc = s.reference_polygon == 0 ? vb : va;
  const int ref_turn = turn_of(ref), inc_turn = turn_of(inc);
  const std::size_t nr = ref.size(), ni = inc.size();

  contact_manifold<T> out;
  out.status = s.status;
  out.normal = s.normal;
  out.axis = s.axis;
  out.reference_polygon = s.reference_polygon;
  out.reference_edge = s.reference_edge;

  // D-CONTACT-2: the reference face (run) and its outward normal.
  const run rf = face_run(ref, s.reference_edge);
  out.reference_first = rf.first;
  out.reference_last = rf.last;
  const P v1 = ref[rf.first], v2 = ref[rf.last];
  const P tangent = v2 - v1;
  // The SAT edge's own outward normal (|n| = |axis|; the run's normal is a
  // positive multiple of it).
  const P n = perp_out(ref[(s.reference_edge + 1) % nr] - ref[s.reference_edge], ref_turn);
  const Q n2 = length_squared(n);

  // D-CONTACT-6: the margin m = relative_margin * L.
  const Q margin = to_exact(opt.relative_margin) * std::min(size_of(va), size_of(vb));
  // The SAT's best face separation (largest separation when apart): no
  // contact when it exceeds the margin.
  {
    Q deepest_inc = dot(inc[0] - v1, n);
    for (const auto& p : inc) deepest_inc = std::min(deepest_inc, Q(dot(p - v1, n)));
    if (!within_margin(deepest_inc, n2, margin)) return out;
  }

  // D-CONTACT-3: incident face = most anti-parallel outward normal.
  std::size_t best = 0;
  Q best_d = 0, best_n2 = 0;
  for (std::size_t k = 0; k < ni; ++k) {
    const P e = inc[(k + 1) % ni] - inc[k];
    if (e.x == 0 && e.y == 0) continue;  // repeated vertex: no face
    const P m = perp_out(e, inc_turn);
    const Q d = dot(m, n), m2 = length_squared(m);
    if (best_n2 == 0 || less_cosine(d, m2, best_d, best_n2)) {
      best = k;
      best_d = d;
      best_n2 = m2;
    }
  }
  const run fi = face_run(inc, best);
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
    mp.point = {rigidref::detail::rounded<T>(c.p.x, "contact point x"), rigidref::detail::rounded<T>(c.p.y, "contact point y")};
    const P proj = c.p - (sep_scaled / n2) * n;
    mp.reference_point = {rigidref::detail::rounded<T>(proj.x, "reference point x"),
                          rigidref::detail::rounded<T>(proj.y, "reference point y")};
    mp.separation_scaled = rigidref::detail::rounded<T>(sep_scaled, "separation");
    if constexpr (!is_exact_v<T>) {
      const T m = rigidref::detail::sqrt_rounded<T>(sep_scaled * sep_scaled / n2, "separation");
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

}  // namespace contact_before

#include "rigidref/detail/fp_end.hpp"
