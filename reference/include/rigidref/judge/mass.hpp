// Judging the mass ops (derivations/judge.md D-JUDGE-5..7).
//
// mass.polygon: each field within gamma_{n-1} sum + gamma_12 rounding +
// gamma_4 kappa_abs of the exact value: the textbook shoelace's error bound
// in a frame at the polygon (its summands, and their own roundings) and the
// exact componentwise condition number of the field (condition.hpp). A correct float or double implementation of the
// textbook formula, about the polygon's origin or its first vertex, passes
// on well-conditioned polygons of any size the protocol allows; summing in
// absolute coordinates far from the origin, inertia about the origin,
// unsigned areas, a reversed sign, ... fail.
// The others: closed formulas, a fixed budget relative to the value.
#pragma once

#include "rigidref/articles/create_polygon_points.hpp"
#include "rigidref/articles/triangle_inertia.hpp"
#include "rigidref/judge/answer.hpp"
#include "rigidref/judge/condition.hpp"
#include "rigidref/judge/measure.hpp"
#include "rigidref/judge/rules.hpp"
#include "rigidref/judge/verdict.hpp"
#include "rigidref/mass.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::judge {

struct mass_polygon_case {
  std::vector<exact_point> vertices;  // any simple polygon, either orientation
  std::optional<exact> density;       // default 1 when neither is given
  std::optional<exact> mass;          // the total mass instead of the density

  template <class T>
  static mass_polygon_case with_density(const std::vector<vec2<T>>& v, const T& rho) {
    mass_polygon_case c;
    for (const vec2<T>& p : v) c.vertices.push_back({to_exact(p.x), to_exact(p.y)});
    c.density = to_exact(rho);
    return c;
  }
};

struct mass_polygon_answer {
  std::optional<real> area;
  std::optional<point> centroid;
  std::optional<real> mass;
  std::optional<real> inertia;
};

// The reference (exact; throws invalid_input for a case it rejects).
inline mass_properties<exact> reference_mass_polygon(const mass_polygon_case& c) {
  const std::span<const exact_point> v(c.vertices);
  if (c.density && c.mass) throw invalid_input("give either \"density\" or \"mass\", not both");
  return c.mass ? polygon_mass_from_mass<exact>(v, *c.mass) : polygon_mass_from_density<exact>(v, c.density.value_or(1));
}

// gamma_k in the engine's unit roundoff u = eps / 2, exactly.
inline exact gamma_of(std::size_t k, const exact& eps) {
  const exact ku = exact(static_cast<long long>(k)) * eps / 2;
  return ku / (1 - ku);
}

// A field whose budget is at least the value itself (its scale): no digit
// of it can be asked of a correct implementation in this precision, so it
// is not judged, and says why (D-JUDGE-6).
inline field_verdict ill_conditioned(const std::string& field, const exact& allowed, const exact& scale, const engine& e) {
  field_verdict f = not_judged(field, field + ": ill-conditioned in " + e.precision.name + ": its budget, " +
                                          format_eps(in_eps(allowed, e.precision.epsilon, scale)) +
                                          " eps, is not below the value itself");
  f.ill_conditioned = true;
  return f;
}

inline verdict judge_mass_polygon(const mass_polygon_case& c, const mass_polygon_answer& a, const engine& e) {
  const mass_properties<exact> r = reference_mass_polygon(c);
  verdict out;
  // No field to judge (check asks this of an engine's error line: does the
  // reference take the case?): the condition numbers below, most of the
  // cost, would judge nothing. They throw only where the reference has.
  if (!a.area && !a.centroid && !a.mass && !a.inertia) {
    out.finish();
    return out;
  }
  const std::span<const exact_point> v(c.vertices);
  const std::optional<exact> rho = c.mass ? std::nullopt : std::optional<exact>(c.density.value_or(1));
  const mass_condition_terms k = polygon_mass_condition_terms(v, rho, c.mass);
  const exact& eps = e.precision.epsilon;
  const std::size_t n = c.vertices.size();
  // The textbook's own rounding in a frame at the polygon, and the few
  // roundings of moving the inputs into that frame and the result out of it.
  const exact g_sum = gamma_of(n - 1, eps), g_round = gamma_of(12, eps), g_shift = gamma_of(4, eps);
  // Each budget as one unreduced ratio: the same rational as summing the
  // reduced terms, without a gcd of their integers (D-JUDGE-11).
  const auto bound = [&](const mass_condition_terms::field& f) {
    return detail::plus(detail::plus(detail::times(f.sum, g_sum), detail::times(f.rounding, g_round)),
                        detail::times(f.kappa, g_shift));
  };
  const std::string why = "n = " + std::to_string(n);
  // A scalar field relative to its value (D-JUDGE-5).
  const auto scalar = [&](const char* name, const std::optional<real>& x, const exact& ref,
                          const mass_condition_terms::field& f) {
    if (!x) return;
    if (!x->finite()) return out.add(not_finite_field(name));
    const exact scale = abs_of(ref);
    const detail::ratio allowed = detail::plus(bound(f), allowance_for(e, name));
    if (detail::at_least(allowed, scale)) {
      // No digit can be asked, but area, mass and inertia are positive
      // whatever the conditioning: a value <= 0 is wrong.
      if (x->value() <= 0) {
        field_verdict f = malformed_field(name, "not positive (" + format_value(x->value()) +
                                                    "), in a case too ill-conditioned to judge its digits");
        f.reason = name;
        return out.add(std::move(f));
      }
      return out.add(ill_conditioned(name, detail::reduced(allowed), scale, e));
    }
    out.add(measured(name, name, abs_of(exact(x->value() - ref)), allowed, scale, eps,
                     why + ", kappa " + format_eps(in_eps(f.kappa.num, f.kappa.den, 1, scale)) + ", sum " +
                         format_eps(in_eps(f.sum.num, f.sum.den, 1, scale))));
  };
  scalar("area", a.area, r.area, k.area);
  if (a.centroid) {
    if (!a.centroid->x.finite() || !a.centroid->y.finite()) {
      out.add(not_finite_field("centroid"));
    } else {
      // Position metric: reported on max(|c|, L), coordinates carry their offset.
      const exact scale = std::max({abs_of(r.centroid.x), abs_of(r.centroid.y), size_of(shape::polygon(c.vertices))});
      const exact dx = abs_of(exact(a.centroid->x.value() - r.centroid.x));
      const exact dy = abs_of(exact(a.centroid->y.value() - r.centroid.y));
      const exact extra = allowance_for(e, "centroid");
      const detail::ratio ax = detail::plus(bound(k.centroid_x), extra), ay = detail::plus(bound(k.centroid_y), extra);
      const detail::ratio& wider = ax < ay ? ay : ax;
      if (detail::at_least(wider, scale)) {
        out.add(ill_conditioned("centroid", detail::reduced(wider), scale, e));
        out.finish();
        return out;
      }
      // Each coordinate against its own bound; reported by the worse ratio:
      // dx / ax >= dy / ay, cross-multiplied (every denominator is positive).
      const bool x_worse = numerator(dx) * ay.num * ax.den * denominator(dy) >=
                           numerator(dy) * ax.num * ay.den * denominator(dx);
      field_verdict f = measured("centroid", "centroid", x_worse ? dx : dy, x_worse ? ax : ay, scale, eps, why);
      f.pass = detail::at_most(dx, ax) && detail::at_most(dy, ay);
      out.add(std::move(f));
    }
  }
  scalar("mass", a.mass, r.mass, k.mass);
  scalar("inertia", a.inertia, r.inertia, k.inertia);
  out.finish();
  return out;
}

// ---- closed formulas: a fixed budget relative to the value (D-JUDGE-7) ----

namespace detail {

inline verdict judge_inertia(const char* op, const std::optional<real>& x, const exact& ref, const engine& e) {
  verdict out;
  if (x) {
    const op_rule* rule = find_op_rule(op);
    out.add(fixed_budget("inertia", metric::relative, {*x}, {ref}, rule->budget_eps, e.precision.epsilon, 0,
                         allowance_for(e, "inertia")));
  }
  out.finish();
  return out;
}

}  // namespace detail

struct mass_triangle_case {
  std::vector<exact_point> vertices;  // 3
  exact mass;
  bool article_model = false;  // "model": "article": the article's absolute-coordinate formula
};

inline exact reference_mass_triangle(const mass_triangle_case& c) {
  const std::span<const exact_point> s(c.vertices);
  if (!c.article_model) return triangle_inertia<exact>(s, c.mass);
  if (c.vertices.size() != 3)
    throw invalid_input("a triangle needs exactly 3 vertices, got " + std::to_string(c.vertices.size()));
  if (!(c.mass > 0)) throw invalid_input("mass must be finite and > 0");
  if (cross(c.vertices[1] - c.vertices[0], c.vertices[2] - c.vertices[0]) == 0)
    throw invalid_input("triangle is degenerate (zero area)");
  return articles::triangle_inertia<exact>(s, c.mass);
}

inline verdict judge_mass_triangle(const mass_triangle_case& c, const std::optional<real>& inertia, const engine& e) {
  return detail::judge_inertia("mass.triangle", inertia, reference_mass_triangle(c), e);
}

struct mass_regular_polygon_case {
  long long sides = 3;
  exact radius, mass;
  bool article_formula = false;  // "formula": "article" (createPolygonPoints) instead of the closed form
};

// In 100 digits (a cosine), then exactly.
inline exact reference_mass_regular_polygon(const mass_regular_polygon_case& c) {
  if (c.sides < 3 || c.sides > 1000000) throw invalid_input("sides: expected an integer in [3, 1000000]");
  const mp100 radius = round_to<mp100>(c.radius), mass = round_to<mp100>(c.mass);
  const int n = static_cast<int>(c.sides);
  if (!c.article_formula) return to_exact(regular_polygon_inertia<mp100>(n, radius, mass));
  if (!(c.radius > 0) || !(c.mass > 0)) throw invalid_input("radius and mass must be > 0");
  return to_exact(mp100(articles::create_polygon_inertia<mp100>(radius, n) * mass));
}

inline verdict judge_mass_regular_polygon(const mass_regular_polygon_case& c, const std::optional<real>& inertia,
                                          const engine& e) {
  return detail::judge_inertia("mass.regular_polygon", inertia, reference_mass_regular_polygon(c), e);
}

inline verdict judge_mass_circle(const exact& radius, const exact& mass, const std::optional<real>& inertia,
                                 const engine& e) {
  return detail::judge_inertia("mass.circle", inertia, circle_inertia<exact>(radius, mass), e);
}

inline verdict judge_mass_rectangle(const exact& width, const exact& height, const exact& mass,
                                    const std::optional<real>& inertia, const engine& e) {
  return detail::judge_inertia("mass.rectangle", inertia, rectangle_inertia<exact>(width, height, mass), e);
}

}  // namespace rigidref::judge

#include "rigidref/detail/fp_end.hpp"
