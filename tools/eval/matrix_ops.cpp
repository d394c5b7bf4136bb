// `rigidref eval` ops on 2x2 matrices and point sets: mat2.sqrt, mat2.polar
// and shape_match (reference/include/rigidref/matrix_sqrt.hpp, polar.hpp,
// shape_matching.hpp). Field names and results are those of
// docs/eval-protocol.md; optional extras are documented per op.
//
// Matrices are row lists [[a, b], [c, d]] in and out; reals follow the same
// input and output rules as every op (eval_json.hpp). All three ops need a
// square root, so "exact" is unsupported for each of them (after the fields
// have been read, so a malformed request is still invalid_input).
#include "eval/op_table.hpp"

#include "rigidref/errors.hpp"
#include "rigidref/mat2.hpp"
#include "rigidref/matrix_sqrt.hpp"
#include "rigidref/polar.hpp"
#include "rigidref/shape_matching.hpp"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rigidref::tools::eval {
// This file's own names: the op files compile as one unit (tools/CMakeLists.txt).
namespace matrix_ops {

const char* status_name(fit_status s) { return s == fit_status::ok ? "ok" : "undetermined"; }

// Every real of these results is printed with +0 for a zero: the sign of a
// zero carries no information here (the -0 of a rotation's -sin 0, of a
// product with a negative entry, ...), and the articles' JavaScript prints
// -0 as 0 too (JSON.stringify).
template <class T>
T plus_zero(const T& x) {
  return x == 0 ? T(0) : x;
}

template <class T>
ojson real_out(const T& x, std::string_view field) {
  return real_value(plus_zero(x), field);
}

template <class T>
ojson point_out(const vec2<T>& p, std::string_view field) {
  return point_value(vec2<T>{plus_zero(p.x), plus_zero(p.y)}, field);
}

template <class T>
ojson matrix_out(const mat2<T>& m, std::string_view field) {
  return matrix_value(mat2<T>{plus_zero(m.a), plus_zero(m.b), plus_zero(m.c), plus_zero(m.d)}, field);
}

// mat2.sqrt: m, method -> x, the principal square root (x*x = m, the
// eigenvalues of x in the open right half-plane, or 0 for m = 0).
//   method "default" (when absent): rigidref::principal_sqrt, the reference
//     (accumulator precision, one rounding per entry, D-MSQRT-4);
//   "cayley_hamilton", "diagonalization": the article's two methods,
//     evaluated in the requested precision as the article does (D-MSQRT-1, 2).
// Every method decides the domain exactly (D-MSQRT-3): no real principal
// square root (det < 0, a real eigenvalue <= 0 other than m = 0, or m
// nilpotent and nonzero) is domain_error. "exact": unsupported, every method.
struct mat2_sqrt {
  template <class T>
  static ojson run(const fields& f) {
    const mat2<T> m = f.matrix<T>("m");
    const std::string method = f.choice("method", {"cayley_hamilton", "diagonalization", "default"}, "default");
    mat2<T> x;
    if constexpr (is_exact_v<T>) {
      throw unsupported("mat2.sqrt (method \"" + method +
                        "\") needs square roots: not available in exact arithmetic (use mp50 or mp100)");
    } else if (method == "default") {
      x = principal_sqrt(m);
    } else if (method == "cayley_hamilton") {
      x = sqrt_cayley_hamilton(m);
    } else {
      x = sqrt_diagonalization(m);
    }
    ojson r = ojson::object();
    r["x"] = matrix_out(x, "x");
    return r;
  }
};

// mat2.polar: m, side ("right", the default: m = q*s; "left": m = s*q) ->
// q (orthogonal), s (symmetric positive semidefinite), det_q (the JSON
// integer +1 or -1; the sign of det m, D-POLAR-1..2). q is the same for both
// sides. For a singular m, q is not determined by m; the library's choice is
// the rotation unless the rotation form vanishes (polar.hpp).
// Extra optional fields: closest_rotation (the rotation r maximising
// tr(r^T m), which is q when det_q = +1 and what shape matching needs when
// det_q = -1, D-POLAR-3), closest_rotation_angle (r = [[cos, -sin],
// [sin, cos]], in (-pi, pi]) and closest_rotation_unique (false when every
// rotation is equally close, a + d = c - b = 0; r is then the identity).
struct mat2_polar {
  template <class T>
  static ojson run(const fields& f) {
    const mat2<T> m = f.matrix<T>("m");
    const std::string side = f.choice("side", {"right", "left"}, "right");
    const polar_result<T> p = side == "right" ? polar_right(m) : polar_left(m);  // unsupported in exact
    const rotation_result<T> rot = closest_rotation(m);
    ojson r = ojson::object();
    r["q"] = matrix_out(p.q, "q");
    r["s"] = matrix_out(p.s, "s");
    r["det_q"] = p.det_q;
    r["closest_rotation"] = matrix_out(rot.r, "closest_rotation");
    r["closest_rotation_angle"] = real_out(rot.angle, "closest_rotation_angle");
    r["closest_rotation_unique"] = rot.unique;
    return r;
  }
};

// shape_match: rest, current (lists of [x, y], same length >= 1), weights
// (optional list of reals >= 0 with a positive sum, one per point; default
// all 1) -> angle, rotation, translation: goal_i = rotation*(rest_i - c_rest)
// + c_current and translation = c_current - rotation*c_rest (D-SHAPE-4).
// Extra optional fields:
//   rotation_status: "ok", or "undetermined" when the data do not determine
//     the rotation (sum w q.p = sum w q x p = 0 up to rounding noise: fewer
//     than two distinct weighted rest or current points, or a symmetric
//     configuration). The answer is then still ok:true, with the identity
//     rotation and angle 0, and this status says so (the protocol's "say so
//     with a clear result": every goal and the translation are still the
//     valid answer for the identity).
//   rest_centroid, current_centroid: the weighted centroids;
//   goals: goal_i for every point, in input order;
//   linear_status: "ok", or "undetermined" when Aqq is singular (the rest
//     points are collinear or coincide);
//   apq = sum w p q^T, aqq = sum w q q^T (Mueller et al.'s order), and
//   linear = apq aqq^-1, the best linear map (D-SHAPE-5), present only when
//     linear_status is "ok" (never a made-up matrix).
struct shape_match_op {
  template <class T>
  static ojson run(const fields& f) {
    const std::vector<vec2<T>> rest = f.points<T>("rest", "points");
    const std::vector<vec2<T>> current = f.points<T>("current", "points");
    const std::vector<T> weights = f.has("weights") ? f.reals<T>("weights") : std::vector<T>{};
    // The library reads an empty weight list as "all 1"; a request that
    // gives "weights": [] for a nonempty point list has the wrong length.
    if (f.has("weights") && weights.empty() && !rest.empty())
      throw invalid_input("weights must have one entry per point (" + std::to_string(rest.size()) + "), got 0");
    const shape_match_result<T> s = shape_match<T>(std::span<const vec2<T>>(rest), std::span<const vec2<T>>(current),
                                                   std::span<const T>(weights));  // unsupported in exact
    ojson r = ojson::object();
    r["angle"] = real_out(s.angle, "angle");
    r["rotation"] = matrix_out(s.rotation, "rotation");
    r["translation"] = point_out(s.translation, "translation");
    r["rotation_status"] = status_name(s.rotation_status);
    r["rest_centroid"] = point_out(s.rest_centroid, "rest_centroid");
    r["current_centroid"] = point_out(s.current_centroid, "current_centroid");
    ojson goals = ojson::array();
    for (std::size_t i = 0; i < s.goals.size(); ++i)
      goals.push_back(point_out(s.goals[i], "goals[" + std::to_string(i) + "]"));
    r["goals"] = std::move(goals);
    r["linear_status"] = status_name(s.linear_status);
    r["apq"] = matrix_out(s.apq, "apq");
    r["aqq"] = matrix_out(s.aqq, "aqq");
    if (s.linear_status == fit_status::ok) r["linear"] = matrix_out(s.linear, "linear");
    return r;
  }
};

}  // namespace matrix_ops

void add_matrix_ops(op_table& table) {
  using namespace matrix_ops;
  add_op<mat2_sqrt>(table, "mat2.sqrt",
         {"principal square root of a 2x2 matrix",
          "m, method (cayley_hamilton, diagonalization, default)",
          "x"});
  add_op<mat2_polar>(table, "mat2.polar",
         {"polar decomposition of a 2x2 matrix",
          "m, side (right, left)",
          "q, s, det_q"});
  add_op<shape_match_op>(table, "shape_match",
         {"optimal rigid fit of rest points to current points (shape matching)",
          "rest, current, weights",
          "angle, rotation, translation"});
}

}  // namespace rigidref::tools::eval
