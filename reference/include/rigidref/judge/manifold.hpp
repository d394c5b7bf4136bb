// Judging a contact.manifold answer: not by equality with the reference's
// points (engines report the incident point, the midpoint of the two
// surfaces, or a point on either one, and may keep speculative points), but
// by what every correct manifold satisfies (derivations/contact.md,
// D-CONTACT-11..15):
//   - the normal n: B moved by depth(n) along n just separates, and depth(n)
//     is the reference depth (pairs that touch or overlap); for a separated
//     pair, n separates them (D-CONTACT-12);
//   - each point x: the line x + t n meets both shapes, and x is outside
//     neither by more than |sigma(x)| (D-CONTACT-13), where sigma(x), the
//     signed distance along that line from A's exit to B's entry, is what
//     its "separation" must equal (D-CONTACT-11);
//   - no clearly penetrating reference point is missing (D-CONTACT-14).
// Shapes are convex polygons or circles. Every measure is exact on the
// engine's values; the square roots in 100 digits (D-ENGINE-2).
#pragma once

#include "rigidref/contact.hpp"
#include "rigidref/contact_circle.hpp"
#include "rigidref/judge/answer.hpp"
#include "rigidref/judge/measure.hpp"
#include "rigidref/judge/rules.hpp"
#include "rigidref/judge/shape.hpp"
#include "rigidref/judge/verdict.hpp"
#include "rigidref/sat.hpp"
#include "rigidref/support.hpp"

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::judge {

struct manifold_point_answer {
  point at;                       // "point"
  std::optional<real> separation;
};

struct manifold_answer {
  std::optional<point> normal;
  std::optional<std::vector<manifold_point_answer>> points;
};

struct manifold_reference {
  bool separated = false;
  exact depth;
  std::vector<exact> separations;  // of its points
};

// The reference manifold in 100 digits (contact.hpp, contact_circle.hpp):
// polygons and circles; other shapes are unsupported.
inline manifold_reference reference_manifold(const shape& a, const shape& b, double relative_margin = 0) {
  using P = vec2<mp100>;
  const auto check = [](const shape& s, const char* name) {
    if (s.form == shape::kind::polygon && s.radius > 0)
      throw unsupported(std::string(name) + ": a rounded polygon (radius > 0) is not supported by contact.manifold");
    if (s.form == shape::kind::point || s.form == shape::kind::segment)
      throw unsupported(std::string(name) + ": points, segments and capsules are not supported by contact.manifold");
  };
  check(a, "a");
  check(b, "b");
  const auto polygon = [](const shape& s, const char* name) {
    std::vector<P> v;
    for (const exact_point& p : s.core) v.push_back({round_to<mp100>(p.x), round_to<mp100>(p.y)});
    try {
      make_convex_polygon<mp100>(v);
    } catch (const invalid_input& e) {
      throw invalid_input(std::string(name) + ": " + e.what());
    }
    return v;
  };
  const auto disc = [](const shape& s) {
    return make_circle(P{round_to<mp100>(s.core[0].x), round_to<mp100>(s.core[0].y)}, round_to<mp100>(s.radius));
  };
  contact_options options;
  options.relative_margin = relative_margin;
  contact_manifold<mp100> m;
  mp100 depth = 0;
  const bool round_a = a.form == shape::kind::circle, round_b = b.form == shape::kind::circle;
  if (!round_a && !round_b) {
    const std::vector<P> pa = polygon(a, "a"), pb = polygon(b, "b");
    depth = rigidref::detail::sat_decision<mp100>(std::span<const P>(pa), std::span<const P>(pb)).depth;
    m = collide_polygons<mp100>(pa, pb, options);
  } else if (!round_a) {
    const std::vector<P> pa = polygon(a, "a");
    const circle<mp100> cb = disc(b);
    m = collide_polygon_circle_manifold<mp100>(std::span<const P>(pa), cb, options);
    depth = collide_polygon_circle<mp100>(pa, cb.center, cb.radius).depth;
  } else if (!round_b) {
    const circle<mp100> ca = disc(a);
    const std::vector<P> pb = polygon(b, "b");
    m = collide_circle_polygon_manifold<mp100>(ca, std::span<const P>(pb), options);
    depth = collide_polygon_circle<mp100>(pb, ca.center, ca.radius).depth;
  } else {
    const circle<mp100> ca = disc(a), cb = disc(b);
    m = collide_circles_manifold<mp100>(ca, cb, options);
    depth = collide_circles<mp100>(ca.center, ca.radius, cb.center, cb.radius).depth;
  }
  manifold_reference r;
  r.separated = m.status == contact_status::separated;
  r.depth = to_exact(depth);
  for (const manifold_point<mp100>& p : m.points) r.separations.push_back(to_exact(p.separation));
  return r;
}

namespace detail {

using P = exact_point;

inline int turn_of(const std::vector<P>& v) {
  exact twice_area = 0;
  for (std::size_t i = 0; i < v.size(); ++i) twice_area += cross(v[i], v[(i + 1) % v.size()]);
  return twice_area > 0 ? 1 : -1;  // the reference accepted the polygon: nonzero area
}

// Where the line x + t n (n unnormalised) meets a convex polygon:
// t in [t_lo, t_hi]. When it misses, `miss` is its distance from the
// polygon and [t_lo, t_hi] is taken on the parallel line that touches it
// (through the nearest vertex or edge). D-CONTACT-11
struct line_hit {
  exact miss = 0;
  exact t_lo, t_hi;
};

inline line_hit line_through_polygon(const std::vector<P>& v, const P& x, const P& n, const exact& n_len) {
  const exact n2 = length_squared(n);
  // Lateral coordinate u(y) = cross(n, y - x): the line is u = 0.
  exact u_min = cross(n, v[0] - x), u_max = u_min;
  for (const P& y : v) {
    const exact u = cross(n, y - x);
    u_min = std::min(u_min, u);
    u_max = std::max(u_max, u);
  }
  line_hit h;
  if (u_min > 0 || u_max < 0) {
    const exact u_touch = u_min > 0 ? u_min : u_max;
    h.miss = abs_of(u_touch) / n_len;
    std::optional<exact> lo, hi;
    for (const P& y : v) {
      if (cross(n, y - x) != u_touch) continue;
      const exact t = dot(n, y - x) / n2;
      lo = lo ? std::min(*lo, t) : t;
      hi = hi ? std::max(*hi, t) : t;
    }
    h.t_lo = *lo;
    h.t_hi = *hi;
    return h;
  }
  // The line meets the polygon: intersect the half-planes m.(y - v_i) <= 0.
  const int turn = turn_of(v);
  std::optional<exact> lo, hi;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const P e = v[(i + 1) % v.size()] - v[i];
    const P m = turn > 0 ? P{e.y, exact(-e.x)} : P{exact(-e.y), e.x};
    const exact mn = dot(m, n);
    if (mn == 0) continue;  // parallel to the line, which meets the polygon: no bound
    const exact t = dot(m, v[i] - x) / mn;
    if (mn > 0) hi = hi ? std::min(*hi, t) : t;
    else lo = lo ? std::max(*lo, t) : t;
  }
  // A bounded polygon bounds a line that meets it on both sides.
  h.t_lo = *lo;
  h.t_hi = *hi;
  return h;
}

// Where the line x + t n meets the disc |y - c| <= r: t0 -+ h with
// t0 = (c - x).n/|n|^2 and h = sqrt(r^2 |n|^2 - u^2)/|n|^2, u = cross(n, c - x).
// When it misses (|u| > r|n|), `miss` is |u|/|n| - r and t_lo = t_hi = t0,
// on the parallel line through the disc's nearest point. D-CONTACT-15
inline line_hit line_through_disc(const P& c, const exact& r, const P& x, const P& n, const exact& n_len) {
  const exact n2 = length_squared(n);
  const exact u = cross(n, c - x);
  const exact t0 = dot(n, c - x) / n2;
  line_hit h;
  const exact chord2 = r * r * n2 - u * u;
  if (chord2 < 0) {
    h.miss = abs_of(u) / n_len - r;
    h.t_lo = h.t_hi = t0;
    return h;
  }
  const exact half = sqrt_exact(chord2) / n2;
  h.t_lo = t0 - half;
  h.t_hi = t0 + half;
  return h;
}

inline line_hit line_through_shape(const shape& s, const P& x, const P& n, const exact& n_len) {
  return s.core.size() == 1 ? line_through_disc(s.core[0], s.radius, x, n, n_len)
                            : line_through_polygon(s.core, x, n, n_len);
}

// sigma(x): A's exit to B's entry along the unit direction of n. D-CONTACT-11
struct line_separation {
  exact sigma;
  exact miss;  // the larger distance by which the line misses A or B
};

inline line_separation separation_at(const shape& a, const shape& b, const P& x, const P& n, const exact& n_len) {
  const line_hit ha = line_through_shape(a, x, n, n_len), hb = line_through_shape(b, x, n, n_len);
  return {exact((hb.t_lo - ha.t_hi) * n_len), std::max(ha.miss, hb.miss)};
}

}  // namespace detail

inline verdict judge_contact_manifold(const shape& a, const shape& b, const manifold_answer& ans, const engine& e,
                                      double relative_margin = 0) {
  using detail::P;
  const manifold_reference ref = reference_manifold(a, b, relative_margin);
  const exact& eps = e.precision.epsilon;
  const double budget_eps = find_op_rule("contact.manifold")->budget_eps;
  const exact budget = exact(static_cast<long long>(budget_eps)) * eps;
  const exact size = std::max(size_of(a), size_of(b));
  verdict out;
  const auto record = [&](const std::string& field, const std::string& what, const exact& diff, const exact& scale) {
    out.add(measured(field, what, diff, {exact(budget * scale + allowance_for(e, field)), scale}, eps));
  };
  if (!ans.points) {
    out.add(malformed_field("points", "the answer has no \"points\" list"));
    return out;
  }
  const std::vector<manifold_point_answer>& points = *ans.points;

  // D-CONTACT-14: the clearly penetrating reference points must have
  // engine counterparts (at least as many points).
  std::size_t deep = 0;
  for (const exact& s : ref.separations) {
    const exact scale = std::max(abs_of(s), size);
    if (s < 0 && -s > budget * scale + allowance_for(e, "separation")) ++deep;
  }
  if (points.size() < deep) {
    out.fail_field("points", "points missing", "the engine gives " + std::to_string(points.size()) + " points, the reference " +
                                   std::to_string(deep) + " clearly penetrating ones");
    return out;
  }
  if (points.empty()) {
    // Nothing claimed, nothing missing: the pair is apart (or only touching) in both.
    field_verdict f;
    f.field = "points";
    f.detail = "points: none, and no reference point is clearly penetrating";
    out.add(std::move(f));
    return out;
  }

  // D-CONTACT-12: the normal.
  if (!ans.normal) {
    out.fail_field("normal", "normal missing", "the engine gives points but no \"normal\"");
    return out;
  }
  if (!ans.normal->x.finite() || !ans.normal->y.finite()) {
    out.add(not_finite_field("normal"));
    return out;
  }
  const P n{ans.normal->x.value(), ans.normal->y.value()};
  if (n.x == 0 && n.y == 0) {
    out.add(malformed_field("normal", "the zero vector"));
    return out;
  }
  const exact n_len = sqrt_exact(length_squared(n));
  const exact along = depth_along(a, b, n);
  if (ref.separated) {
    // Any separating direction will do; it must not make the pair overlap.
    record("normal", "normal (overlap along it, the pair being separated)",
           std::max({exact(0), along, exact(abs_of(exact(n_len - 1)) * size)}), size);
  } else {
    const exact scale = std::max(ref.depth, size);
    record("normal", "normal (depth along it against the reference depth)",
           std::max(abs_of(exact(along - ref.depth)), exact(abs_of(exact(n_len - 1)) * scale)), scale);
  }

  // D-CONTACT-11, D-CONTACT-13: each point.
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::string where = "points[" + std::to_string(i) + "]";
    const manifold_point_answer& p = points[i];
    if (!p.at.x.finite() || !p.at.y.finite()) {
      out.add(not_finite_field(where + ".point"));
      continue;
    }
    const P x{p.at.x.value(), p.at.y.value()};
    const detail::line_separation ls = detail::separation_at(a, b, x, n, n_len);
    const exact reach = abs_of(ls.sigma);
    const exact outside =
        std::max({exact(0), exact(outside_by(a, x) - reach), exact(outside_by(b, x) - reach)});
    // The point's coordinates carry its offset from the origin, and so does
    // every separation computed from them (D-CONTACT-11, D-CONTACT-13).
    const exact offset = std::max(abs_of(x.x), abs_of(x.y));
    record("points", where + ".point (outside a shape, or its normal line misses one)", std::max(ls.miss, outside),
           std::max(offset, size));
    if (p.separation) {
      if (!p.separation->finite()) {
        out.add(not_finite_field(where + ".separation"));
        continue;
      }
      record("separation", where + ".separation (against the signed distance along the normal there)",
             abs_of(exact(p.separation->value() - ls.sigma)), std::max({reach, size, offset}));
    }
  }
  return out;
}

}  // namespace rigidref::judge

#include "rigidref/detail/fp_end.hpp"
