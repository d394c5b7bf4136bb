// Judging gjk.distance, epa.penetration and sat.rectangles
// (derivations/judge.md D-JUDGE-8..10). The reference runs in 100 digits
// (its decisions are exact, its values rounded once: D-GJK-20).
//   - intersecting: must equal the reference's, unless the shapes are within
//     the op's budget of touching (plus the allowances that name the flag);
//     how far from touching is the reference distance, or for overlapping
//     shapes the reference depth (D-JUDGE-8).
//   - distance, depth: scaled, S = max(value, L).
//   - point_a, point_b: on their shapes, the reference distance apart,
//     within 32 eps max(distance, L) + 6 eps M, M the shapes' reach from
//     the origin; reported on S = max(distance, L, M).
//   - normal: the depth along it equals the reference depth, |n| = 1.
#pragma once

#include "rigidref/articles/rectangle_sat.hpp"
#include "rigidref/epa.hpp"
#include "rigidref/gjk.hpp"
#include "rigidref/judge/answer.hpp"
#include "rigidref/judge/measure.hpp"
#include "rigidref/judge/rules.hpp"
#include "rigidref/judge/shape.hpp"
#include "rigidref/judge/verdict.hpp"
#include "rigidref/shape_queries.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::judge {

struct pair_case {
  shape a, b;
};

struct gjk_answer {
  std::optional<bool> intersecting;
  std::optional<real> distance;
  std::optional<point> point_a, point_b;
};

struct epa_answer {
  std::optional<bool> intersecting;
  std::optional<real> depth;
  std::optional<point> normal;
};

// The references, exactly from their 100-digit values.
struct gjk_reference {
  bool intersecting = false;
  exact distance;
  exact_point point_a, point_b;  // when apart
};
struct epa_reference {
  bool intersecting = false;
  exact depth, distance;  // distance: when apart
  exact_point normal;     // when intersecting
};

inline gjk_reference reference_gjk(const pair_case& c) {
  const gjk_result<mp100> g = gjk_distance<mp100>(make_shape<mp100>(c.a), make_shape<mp100>(c.b));
  return {g.intersecting, to_exact(g.distance), exact_of(g.point_a), exact_of(g.point_b)};
}

inline epa_reference reference_epa(const pair_case& c) {
  const epa_result<mp100> r = epa_penetration<mp100>(make_shape<mp100>(c.a), make_shape<mp100>(c.b));
  return {r.intersecting, to_exact(r.depth), to_exact(r.distance), exact_of(r.normal)};
}

// The witnesses' budget for the roundings of results of size M: an honest
// engine rounds a witness coordinate at most 4 times at size M (the shape's
// transform, the two-point convex combination counting 2, the radius step),
// (eps/2) M each, so the point is within 2 sqrt2 eps M of its shape and the
// two points within 4 sqrt2 = 5.66 eps M of the distance apart (D-JUDGE-4).
inline constexpr long long witness_reach_eps = 6;

namespace detail {

inline std::optional<exact_point> finite_point(const point& p) {
  if (!p.x.finite() || !p.y.finite()) return std::nullopt;
  return exact_point{p.x.value(), p.y.value()};
}

// The flag against the reference; `apart_or_deep` is how far the shapes
// are from touching (D-JUDGE-8).
inline field_verdict judge_flag(const char* op, const char* name, bool given, bool reference, const exact& apart_or_deep,
                                const exact& size, const engine& e) {
  field_verdict f;
  f.field = name;
  f.reason = name;
  if (given == reference) {
    f.detail = std::string(name) + ": as the reference";
    return f;
  }
  const exact allowed = exact(static_cast<long long>(find_op_rule(op)->budget_eps)) * e.precision.epsilon * size +
                        allowance_for(e, name);
  const std::string says = std::string(name) + ": engine says " + (given ? "true" : "false") + ", reference " +
                           (reference ? "true" : "false") + " (the shapes are " + format_value(apart_or_deep) +
                           (reference ? " deep" : " apart");
  if (apart_or_deep <= allowed) {
    f.detail = says + ", within the budget of touching)";
    return f;
  }
  f.pass = false;
  f.error_eps = std::numeric_limits<double>::infinity();
  f.detail = says + ")";
  return f;
}

inline field_verdict missing_required(const char* name) {
  field_verdict f;
  f.field = name;
  f.pass = false;
  f.reason = std::string(name) + " missing";
  f.error_eps = std::numeric_limits<double>::infinity();
  f.detail = std::string("the answer has no \"") + name + "\"";
  return f;
}

inline exact pair_size(const pair_case& c) { return std::max(size_of(c.a), size_of(c.b)); }

// An answer without a field (check asks this of an engine's error line: does
// the reference take the case?) is held to nothing the query computes, so
// the query runs only where its shapes alone cannot tell (D-JUDGE-12): the
// shapes made as the reference makes them throw where it would; within a
// reach of 2^1000 no value of the 100-digit query can overflow, so it takes
// the pair. True when the pair is taken; false when only the query can say.
inline bool reference_takes_shapes(const pair_case& c) {
  (void)make_shape<mp100>(c.a);
  (void)make_shape<mp100>(c.b);
  static const exact limit = exact(big_int(1) << 1000);
  return reach_of(c.a) <= limit && reach_of(c.b) <= limit;
}

inline bool no_field(const gjk_answer& a) { return !a.intersecting && !a.distance && !a.point_a && !a.point_b; }
inline bool no_field(const epa_answer& a) { return !a.intersecting && !a.depth && !a.normal; }

// The verdict of an answer without a field, once the reference takes it.
inline verdict nothing_given() {
  verdict out;
  out.add(missing_required("intersecting"));
  out.finish();
  return out;
}

// A flag alone says nothing measurable: the op's value must be given too
// (D-JUDGE-3). `given`: whether the answer has it (judged or not finite).
inline void require_a_value(verdict& out, bool given, const char* value) {
  if (!given && out.result == outcome::pass)
    out.fail("nothing judged", std::string("only the flag was given: the answer must give \"") + value + "\" too");
}

}  // namespace detail

inline verdict judge_gjk_distance(const pair_case& c, const gjk_answer& a, const engine& e) {
  if (detail::no_field(a)) {
    if (!detail::reference_takes_shapes(c)) (void)reference_gjk(c);
    return detail::nothing_given();
  }
  const gjk_reference r = reference_gjk(c);
  const exact& eps = e.precision.epsilon;
  const exact size = detail::pair_size(c);
  const double budget = find_op_rule("gjk.distance")->budget_eps;
  verdict out;
  if (!a.intersecting) {
    out.add(detail::missing_required("intersecting"));
  } else {
    // Overlapping shapes have distance 0: their depth says how far from touching.
    const exact measure = r.distance != 0 ? r.distance : (*a.intersecting == r.intersecting ? exact(0) : reference_epa(c).depth);
    out.add(detail::judge_flag("gjk.distance", "intersecting", *a.intersecting, r.intersecting, measure, size, e));
  }
  if (a.distance)
    out.add(fixed_budget("distance", metric::scaled, {*a.distance}, {r.distance}, budget, eps, size,
                         allowance_for(e, "distance")));
  // A witness is a point: its coordinates carry the shapes' distance from
  // the origin, M, and their roundings at size M cost up to 6 eps M; the
  // rest of its error is on the scale of the distance: 32 eps max(d, L)
  // (D-JUDGE-4). Reported on S = max(d, L, M).
  const exact near = std::max(r.distance, size);
  const exact reach = std::max(reach_of(c.a), reach_of(c.b));
  const exact scale = std::max(near, reach);
  const exact witness_budget =
      exact(static_cast<long long>(budget)) * eps * near + exact(witness_reach_eps) * eps * reach;
  for (const bool on_a : {true, false}) {
    const char* name = on_a ? "point_a" : "point_b";
    const std::optional<point>& p = on_a ? a.point_a : a.point_b;
    if (!p) continue;
    if (r.intersecting) {
      out.add(not_judged(name, std::string(name) + ": the reference pair intersects (no closest points)"));
      continue;
    }
    const std::optional<exact_point> x = detail::finite_point(*p);
    if (!x) {
      out.add(not_finite_field(name));
      continue;
    }
    exact diff = distance_to_shape(on_a ? c.a : c.b, *x);
    const std::optional<point>& other = on_a ? a.point_b : a.point_a;
    if (other)
      if (const std::optional<exact_point> q = detail::finite_point(*other))
        diff = std::max(diff, abs_of(exact(sqrt_exact(length_squared(*x - *q)) - r.distance)));
    const exact allowed = witness_budget + allowance_for(e, name);
    out.add(measured(name, std::string(name) + " (off its shape, or the points not the distance apart)", diff,
                     {allowed, scale}, eps));
  }
  detail::require_a_value(out, a.distance.has_value(), "distance");
  out.finish();
  return out;
}

inline verdict judge_epa_penetration(const pair_case& c, const epa_answer& a, const engine& e) {
  if (detail::no_field(a)) {
    if (!detail::reference_takes_shapes(c)) (void)reference_epa(c);
    return detail::nothing_given();
  }
  const epa_reference r = reference_epa(c);
  const exact& eps = e.precision.epsilon;
  const exact size = detail::pair_size(c);
  const double budget = find_op_rule("epa.penetration")->budget_eps;
  verdict out;
  if (!a.intersecting) {
    out.add(detail::missing_required("intersecting"));
  } else {
    // Separated shapes have depth 0: their distance says how far from touching.
    const exact measure = r.depth != 0 ? r.depth : r.distance;
    out.add(detail::judge_flag("epa.penetration", "intersecting", *a.intersecting, r.intersecting, measure, size, e));
  }
  if (a.depth)
    out.add(fixed_budget("depth", metric::scaled, {*a.depth}, {r.depth}, budget, eps, size, allowance_for(e, "depth")));
  if (a.normal) {
    if (!r.intersecting) {
      out.add(not_judged("normal", "normal: the reference pair does not intersect"));
    } else if (const std::optional<exact_point> n = detail::finite_point(*a.normal); !n) {
      out.add(not_finite_field("normal"));
    } else if (n->x == 0 && n->y == 0) {
      out.add(malformed_field("normal", "the zero vector"));
    } else {
      const exact scale = std::max(r.depth, size);
      const exact unit_error = abs_of(exact(sqrt_exact(length_squared(*n)) - 1));
      const exact diff = std::max(abs_of(exact(depth_along(c.a, c.b, *n) - r.depth)), exact(unit_error * scale));
      const exact allowed = exact(static_cast<long long>(budget)) * eps * scale + allowance_for(e, "normal");
      out.add(measured("normal", "normal (depth along it against the reference depth, |n| against 1)", diff,
                       {allowed, scale}, eps));
    }
  }
  detail::require_a_value(out, a.depth.has_value(), "depth");
  out.finish();
  return out;
}

// ---- sat.rectangles: the article's rectangle test (D-RECT-1..6) -----------

struct rectangle_case {
  exact_point center;
  exact width, height, angle;
};

struct sat_rectangles_answer {
  std::optional<bool> overlap;
  std::optional<std::array<real, 4>> d3;
};

inline articles::rectangle_sat_result<mp100> reference_sat_rectangles(const rectangle_case& r1, const rectangle_case& r2) {
  const auto to_mp = [](const rectangle_case& r) {
    if (!(r.width > 0) || !(r.height > 0)) throw invalid_input("width and height must be > 0");
    articles::article_rectangle<mp100> out;
    out.center = {round_to<mp100>(r.center.x), round_to<mp100>(r.center.y)};
    out.width = round_to<mp100>(r.width);
    out.height = round_to<mp100>(r.height);
    out.angle = round_to<mp100>(r.angle);
    return out;
  };
  return articles::rectangle_sat<mp100>(to_mp(r1), to_mp(r2));
}

inline verdict judge_sat_rectangles(const rectangle_case& r1, const rectangle_case& r2, const sat_rectangles_answer& a,
                                    const engine& e) {
  const articles::rectangle_sat_result<mp100> r = reference_sat_rectangles(r1, r2);
  verdict out;
  if (!a.overlap) {
    out.add(detail::missing_required("overlap"));
  } else {
    field_verdict f;
    f.field = f.reason = "overlap";
    f.pass = *a.overlap == r.overlap;
    f.error_eps = f.pass ? 0 : std::numeric_limits<double>::infinity();
    f.detail = f.pass ? "overlap: as the reference"
                      : std::string("overlap: engine says ") + (*a.overlap ? "true" : "false") + ", reference " +
                            (r.overlap ? "true" : "false");
    out.add(std::move(f));
  }
  if (a.d3) {
    std::vector<exact> ref;
    for (const mp100& d : r.d3()) ref.push_back(to_exact(d));
    const exact size = std::max({r1.width, r1.height, r2.width, r2.height});
    out.add(fixed_budget("d3", metric::scaled, std::vector<real>(a.d3->begin(), a.d3->end()), ref,
                         find_op_rule("sat.rectangles")->budget_eps, e.precision.epsilon, size, allowance_for(e, "d3")));
  }
  detail::require_a_value(out, a.d3.has_value(), "d3");
  out.finish();
  return out;
}

}  // namespace rigidref::judge

#include "rigidref/detail/fp_end.hpp"
