// The judge's rules, one table: for each op, the result fields an answer may
// give, the fields judged and how their error is measured, what an answer
// must give at least, and the budget in the engine's own epsilon with the
// anchor of its derivation; and the allowances an engine may declare for
// what it approximates on purpose. `rigidref check --help`,
// docs/eval-protocol.md section 4 and README.md list the same (a test keeps
// them in step). derivations/judge.md D-JUDGE-1..
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::judge {

// How a field's error is measured (D-JUDGE-4). S is the field's scale; the
// error in eps is |x - r| / (eps S).
enum class metric {
  flag,        // a boolean: must equal the reference, unless the shapes are near touching (D-JUDGE-8)
  relative,    // scalar, S = |r|
  scaled,      // scalar, S = max(|r|, L), L = size of the input shapes
  position,    // point, max-norm, S = max(|r|, L): coordinates carry their offset
  matrix,      // 2x2 matrix, max-norm, S = max |r_ij|
  witness,     // closest point: on its shape, and the two points the reference distance apart; S = max(d, L)
  separating,  // normal n: depth along n against the reference depth, and |n| against 1; S = max(depth, L)
  conditioned, // scalar or point: a budget per case from the textbook's bound and the condition number (D-JUDGE-5, 6)
  whole,       // judged as a whole by the op's own judge (contact.manifold, step.pair, scene.run)
};

struct field_rule {
  std::string_view name;
  metric how;
};

struct op_rule {
  std::string_view op;
  double budget_eps;  // fixed budget in the engine's epsilon; 0 for conditioned and whole ops
  std::vector<field_rule> judged;               // in the order they are judged and reported
  std::vector<std::string_view> result_fields;  // every field a result may carry (the protocol's)
  std::vector<std::string_view> required;       // an answer must give each of these
  bool needs_a_value = true;                    // ... and at least one judged value besides flags
  std::string_view why;                         // the budget's reason, with its anchor
};

inline const std::vector<op_rule>& op_rules() {
  static const std::vector<op_rule> rules = {
      {"mass.polygon", 0,
       {{"area", metric::conditioned}, {"centroid", metric::conditioned}, {"mass", metric::conditioned},
        {"inertia", metric::conditioned}},
       {"area", "centroid", "mass", "inertia"},
       {},
       true,
       "per case: the textbook's bound in a frame at the polygon, gamma(n-1) sum + gamma(12) rounding,\n"
       "       plus gamma(4) times the exact condition number (D-JUDGE-5, D-JUDGE-6)"},
      {"mass.triangle", 8, {{"inertia", metric::relative}}, {"inertia"}, {"inertia"}, true,
       "closed formula, at most 16 roundings (D-JUDGE-7)"},
      {"mass.regular_polygon", 16, {{"inertia", metric::relative}}, {"inertia"}, {"inertia"}, true,
       "closed formula with one cosine, at most 32 roundings (D-JUDGE-7)"},
      {"mass.circle", 4, {{"inertia", metric::relative}}, {"inertia"}, {"inertia"}, true,
       "m r^2 / 2, at most 8 roundings (D-JUDGE-7)"},
      {"mass.rectangle", 4, {{"inertia", metric::relative}}, {"inertia"}, {"inertia"}, true,
       "m (w^2 + h^2) / 12, at most 8 roundings (D-JUDGE-7)"},
      {"gjk.distance", 32,
       {{"intersecting", metric::flag}, {"distance", metric::scaled}, {"point_a", metric::witness},
        {"point_b", metric::witness}},
       {"intersecting", "distance", "point_a", "point_b", "status"},
       {"intersecting"},
       true,
       "a simplex solve on support differences, 64 roundings of the shapes' size (D-JUDGE-9)"},
      {"epa.penetration", 32,
       {{"intersecting", metric::flag}, {"depth", metric::scaled}, {"normal", metric::separating}},
       {"intersecting", "depth", "normal", "point_a", "point_b", "status"},
       {"intersecting"},
       true,
       "support values along a normalised direction, 64 roundings of the shapes' size (D-JUDGE-9)"},
      {"contact.manifold", 32, {{"manifold", metric::whole}},
       {"status", "depth", "normal", "reference", "points"},
       {"points"},
       false,
       "clipping and one normalisation of the shapes' size; judged whole: D-CONTACT-11..14"},
      {"sat.rectangles", 16, {{"overlap", metric::flag}, {"d3", metric::scaled}}, {"overlap", "d3"}, {"overlap"},
       true, "a few dot products per axis, 32 roundings (D-JUDGE-7)"},
      {"mat2.sqrt", 16, {{"x", metric::matrix}}, {"x"}, {"x"}, true,
       "closed 2x2 formula, 32 roundings; ill-conditioned matrices exceed it (D-JUDGE-7)"},
      {"mat2.polar", 16, {{"q", metric::matrix}, {"s", metric::matrix}}, {"q", "s", "det_q", "closest_rotation", "closest_rotation_angle", "closest_rotation_unique"}, {}, true,
       "closed 2x2 formula, 32 roundings (D-JUDGE-7)"},
      {"step.pair", 128, {{"laws", metric::whole}}, {"body1_after", "body2_after", "contacts", "sweeps"},
       {"body1_after", "body2_after"}, false,
       "laws, not fields (D-STEP-9); the solver's sweeps: solver_iterations (D-STEP-10)"},
      {"scene.run", 128, {{"laws", metric::whole}}, {"frames", "sweeps", "max_contacts"}, {"frames"}, false,
       "laws and closed forms over the frames, 128 eps per step on each law's scale (D-SCENERUN-4..13)"},
      {"shape_match", 32, {{"angle", metric::scaled}, {"translation", metric::position}},
       {"angle", "rotation", "translation", "rotation_status", "rest_centroid", "current_centroid", "goals", "linear_status",
        "apq", "aqq", "linear"},
       {}, true, "sums over the points, 64 roundings (D-JUDGE-7)"},
  };
  return rules;
}

// What an engine approximates on purpose, declared per answer as
// {"name": amount}: what the amount widens and what it means.
struct allowance_rule {
  std::string_view name;
  std::vector<std::string_view> fields;  // the fields or laws it concerns
  std::string_view meaning;
  bool added = true;  // true: an absolute amount added to those fields' tolerance; false: a
                      // setting the op's judge reads (a threshold, an iteration count)
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
      {"distance_tolerance", {"distance", "point_a", "point_b"},
       "the engine stops the GJK distance iteration when it improves by less than this"},
      {"restitution_threshold", {"restitution"},
       "step.pair: the engine bounces only contacts approaching faster than this (Box2D: 1 m/s);\n"
       "the restitution law skips slower ones and the reference is evaluated with the same threshold",
       false},
      {"solver_iterations", {"restitution", "no_approach", "velocities"},
       "step.pair: the engine's contact solver makes this many velocity sweeps (an integer >= 1); the\n"
       "judge runs the reference's projected Gauss-Seidel for as many sweeps from the same start and\n"
       "allows its distance from the exact solution (D-STEP-10)",
       false},
      {"penetration_slop", {"penetration", "rest", "ramp"},
       "scene.run: the overlap the engine keeps between resting bodies on purpose (Box2D: b2_linearSlop);\n"
       "each contact may settle by this (D-SCENERUN-5, D-SCENERUN-9)"},
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

// True when the allowance's amount is added to the field's tolerance.
inline bool allowance_widens(std::string_view allowance, std::string_view field) {
  const allowance_rule* a = find_allowance(allowance);
  return a != nullptr && a->added && std::find(a->fields.begin(), a->fields.end(), field) != a->fields.end();
}

inline bool is_result_field(const op_rule& rule, std::string_view field) {
  return std::find(rule.result_fields.begin(), rule.result_fields.end(), field) != rule.result_fields.end();
}

// The two tables as text, for `rigidref check --help`.
inline std::string rules_help() {
  std::string text = "Budgets per op (in the engine's epsilon) and the fields judged:\n";
  for (const op_rule& r : op_rules()) {
    std::string fields;
    for (const field_rule& f : r.judged) fields += (fields.empty() ? "" : ", ") + std::string(f.name);
    const std::string budget = r.budget_eps > 0 ? std::to_string(static_cast<int>(r.budget_eps)) : "case";
    text += "  " + std::string(r.op) + std::string(22 - std::min<std::size_t>(21, r.op.size()), ' ') + budget +
            std::string(6 - std::min<std::size_t>(5, budget.size()), ' ') + fields + "\n      (" + std::string(r.why) +
            ")\n";
  }
  text += "Allowances (\"allowances\": {\"name\": amount}, added to the tolerance of the fields listed):\n";
  for (const allowance_rule& a : allowance_rules()) {
    std::string fields;
    for (std::string_view f : a.fields) fields += (fields.empty() ? "" : ", ") + std::string(f);
    std::string meaning(a.meaning);
    for (std::size_t i = meaning.find('\n'); i != std::string::npos; i = meaning.find('\n', i + 1))
      meaning.replace(i, 1, "\n    ");
    text += "  " + std::string(a.name) + " (" + (fields.empty() ? "none" : fields) + "):\n    " + meaning + "\n";
  }
  return text;
}

}  // namespace rigidref::judge

#include "rigidref/detail/fp_end.hpp"
