// The tolerance model of `rigidref check`: for each op, which result fields
// are compared, how their error is measured, and the budget in the engine's
// own epsilon; and the named allowances an engine may claim for what it
// approximates on purpose. README.md ("Checking an engine") documents both.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace rigidref::tools::check {

// How a field's error is measured (D-ENGINE-1). S is the field's scale; err = |x - r| / S.
enum class metric {
  flag,      // a boolean: must equal the reference (no error measure)
  relative,  // scalar, S = |r| (mass, area, inertia: always far from 0)
  scaled,    // scalar, S = max(|r|, L), L = size of the input shapes
  position,  // point, max-norm, S = max(|r|, L): coordinates carry the offset
  unit,      // unit vector, max-norm, S = 1
  matrix,    // 2x2 matrix, max-norm, S = max |r_ij|
  // Answers that need not equal the reference's (check_geometry.hpp):
  witness,     // closest point: its distance from its shape, and how far the two
               // points' distance is from the reference distance; S = max(d, L)
  separating,  // normal n: |depth along n - reference depth| and ||n| - 1| S;
               // S = max(depth, L)
};

struct field_rule {
  std::string_view name;
  metric how;
};

struct op_rule {
  std::string_view op;
  // Allowed error in the engine's epsilon. The budgets are what the plain
  // textbook algorithm reaches on well-conditioned input (an error analysis
  // in the style of Higham's gamma(n) = n u / (1 - n u)): about 2n rounding
  // errors for n-vertex sums (n <= 16 in the case sets: 32), a handful for
  // closed formulas. Larger errors come from conditioning (far from the
  // origin, needles, near-touching) or from bugs; the findings separate the
  // two, the budget does not hide either.
  double budget_eps;
  std::vector<field_rule> fields;
  std::string_view why;
};

inline const std::vector<op_rule>& op_rules() {
  static const std::vector<op_rule> rules = {
      {"mass.polygon", 32,
       {{"area", metric::relative}, {"centroid", metric::position}, {"mass", metric::relative},
        {"inertia", metric::relative}},
       "shoelace sums over n <= 16 vertices: gamma(2n)"},
      {"mass.triangle", 8, {{"inertia", metric::relative}}, "closed formula, a few roundings"},
      {"mass.regular_polygon", 16, {{"inertia", metric::relative}}, "closed formula with one cosine"},
      {"mass.circle", 4, {{"inertia", metric::relative}}, "m r^2 / 2: two roundings"},
      {"mass.rectangle", 4, {{"inertia", metric::relative}}, "m (w^2 + h^2) / 12: four roundings"},
      {"gjk.distance", 32,
       {{"intersecting", metric::flag}, {"distance", metric::scaled}, {"point_a", metric::witness},
        {"point_b", metric::witness}},
       "a few dozen roundings in the simplex solve, relative to the shape size"},
      {"epa.penetration", 32,
       {{"intersecting", metric::flag}, {"depth", metric::scaled}, {"normal", metric::separating}},
       "support points and one normalisation, relative to the shape size"},
      {"contact.manifold", 32,
       {{"normal", metric::separating}, {"points", metric::position}, {"separation", metric::scaled}},
       "clipping and one normalisation, relative to the shape size; judged whole: D-CONTACT-11..14"},
      {"sat.rectangles", 16, {{"overlap", metric::flag}, {"d3", metric::scaled}}, "a few dot products per axis"},
      {"mat2.sqrt", 16, {{"x", metric::matrix}}, "closed 2x2 formula; ill-conditioned matrices exceed it"},
      {"mat2.polar", 16, {{"q", metric::matrix}, {"s", metric::matrix}}, "closed 2x2 formula"},
      {"step.pair", 128, {},
       "laws, not fields (check/step_laws.hpp, D-STEP-9): 8 sweeps x 2 contacts x 2 rows of 2-rounding updates"},
      {"shape_match", 32, {{"angle", metric::scaled}, {"translation", metric::position}}, "sums over the points"},
  };
  return rules;
}

// What an engine approximates on purpose, declared per answer line as
// "allowances": {"name": amount}. The amount is added, absolute, to the
// tolerance of the listed fields.
struct allowance_rule {
  std::string_view name;
  std::vector<std::string_view> fields;
  std::string_view meaning;
};

inline const std::vector<allowance_rule>& allowance_rules() {
  static const std::vector<allowance_rule> rules = {
      {"polygon_radius", {"intersecting", "distance", "depth", "point_a", "point_b", "points", "separation"},
       "the engine keeps a skin of this radius around polygons (Box2D: b2_polygonRadius = 2 b2_linearSlop);\n"
       "its contact flag is that of the skinned shapes"},
      {"epa_tolerance", {"depth", "normal"},
       "the engine stops expanding the polytope when the depth improves by less than this (libccd: epa_tolerance)"},
      {"mpr_tolerance", {"depth", "normal"},
       "the engine stops refining the portal when it moves by less than this (libccd: mpr_tolerance)"},
      {"reference_face_tolerance", {"depth"},
       "the engine keeps one polygon's face as reference unless the other's separates by more than this\n"
       "(Box2D b2CollidePolygons: 0.1 b2_linearSlop), so its depth may exceed the minimum by up to this"},
      {"restitution_threshold", {"restitution"},
       "step.pair: the engine bounces only contacts approaching faster than this (Box2D: 1 m/s);\n"
       "the restitution law skips slower ones and the reference is evaluated with the same threshold"},
      {"solver_iterations", {"restitution", "no_approach", "velocities"},
       "step.pair: the engine stops its iterative contact solver after a fixed sweep count; this\n"
       "velocity (absolute) bounds the residual it leaves"},
      {"distance_tolerance", {"distance", "point_a", "point_b"},
       "the engine stops the GJK distance iteration when it improves by less than this"},
      {"prediction_distance", {},
       "contact.manifold: the engine also reports points of shapes apart by up to this (speculative\n"
       "contacts; Rapier: normalizedPredictionDistance * lengthUnit). Declared for the record: such\n"
       "points are judged like any other (D-CONTACT-14), so it widens no tolerance"},
  };
  return rules;
}

inline const op_rule* find_op_rule(std::string_view op) {
  for (const op_rule& r : op_rules())
    if (r.op == op) return &r;
  return nullptr;
}

inline const allowance_rule* find_allowance(std::string_view name) {
  for (const allowance_rule& a : allowance_rules())
    if (a.name == name) return &a;
  return nullptr;
}

// The two tables above as text, for `rigidref check --help`.
inline std::string rules_help() {
  std::string text = "Budgets per op (in the engine's epsilon) and the fields judged:\n";
  for (const op_rule& r : op_rules()) {
    std::string fields;
    for (const field_rule& f : r.fields) fields += (fields.empty() ? "" : ", ") + std::string(f.name);
    std::string budget = std::to_string(static_cast<int>(r.budget_eps));
    text += "  " + std::string(r.op) + std::string(22 - std::min<std::size_t>(21, r.op.size()), ' ') + budget +
            std::string(5 - std::min<std::size_t>(4, budget.size()), ' ') + fields + "  (" + std::string(r.why) + ")\n";
  }
  text += "Allowances (\"allowances\": {\"name\": amount}, added to the tolerance of the fields listed):\n";
  for (const allowance_rule& a : allowance_rules()) {
    std::string fields;
    for (std::string_view f : a.fields) fields += (fields.empty() ? "" : ", ") + std::string(f);
    std::string meaning(a.meaning);
    for (std::size_t i = meaning.find('\n'); i != std::string::npos; i = meaning.find('\n', i + 1))
      meaning.replace(i, 1, "\n    ");
    text += "  " + std::string(a.name) + " (" + fields + "):\n    " + meaning + "\n";
  }
  return text;
}

}  // namespace rigidref::tools::check
