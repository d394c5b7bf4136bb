// Judging mat2.sqrt, mat2.polar and shape_match: closed 2x2 formulas and
// sums over points, a fixed budget per field (derivations/judge.md
// D-JUDGE-7). The reference runs in 100 digits.
#pragma once

#include "rigidref/judge/answer.hpp"
#include "rigidref/judge/measure.hpp"
#include "rigidref/judge/rules.hpp"
#include "rigidref/judge/verdict.hpp"
#include "rigidref/mat2.hpp"
#include "rigidref/matrix_sqrt.hpp"
#include "rigidref/polar.hpp"
#include "rigidref/shape_matching.hpp"

#include <array>
#include <optional>
#include <span>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::judge {

using exact_matrix = mat2<exact>;

// An engine's 2x2 matrix, rows [[a, b], [c, d]].
struct matrix_answer {
  real a, b, c, d;
};

inline mat2<mp100> to_mp100(const exact_matrix& m) {
  return {round_to<mp100>(m.a), round_to<mp100>(m.b), round_to<mp100>(m.c), round_to<mp100>(m.d)};
}

inline std::vector<exact> entries(const mat2<mp100>& m) {
  return {to_exact(m.a), to_exact(m.b), to_exact(m.c), to_exact(m.d)};
}

inline std::vector<real> entries(const matrix_answer& m) { return {m.a, m.b, m.c, m.d}; }

enum class sqrt_method { principal, cayley_hamilton, diagonalization };

inline verdict judge_mat2_sqrt(const exact_matrix& m, sqrt_method method, const std::optional<matrix_answer>& x,
                               const engine& e) {
  const mat2<mp100> q = to_mp100(m);
  const mat2<mp100> r = method == sqrt_method::principal         ? principal_sqrt(q)
                        : method == sqrt_method::cayley_hamilton ? sqrt_cayley_hamilton(q)
                                                                 : sqrt_diagonalization(q);
  verdict out;
  if (x)
    out.add(fixed_budget("x", metric::matrix, entries(*x), entries(r), find_op_rule("mat2.sqrt")->budget_eps,
                         e.precision.epsilon, 0, allowance_for(e, "x")));
  out.finish();
  return out;
}

inline verdict judge_mat2_polar(const exact_matrix& m, bool right_side, const std::optional<matrix_answer>& q,
                                const std::optional<matrix_answer>& s, const engine& e) {
  const mat2<mp100> mm = to_mp100(m);
  const polar_result<mp100> p = right_side ? polar_right(mm) : polar_left(mm);
  const double budget = find_op_rule("mat2.polar")->budget_eps;
  verdict out;
  if (q)
    out.add(fixed_budget("q", metric::matrix, entries(*q), entries(p.q), budget, e.precision.epsilon, 0,
                         allowance_for(e, "q")));
  if (s)
    out.add(fixed_budget("s", metric::matrix, entries(*s), entries(p.s), budget, e.precision.epsilon, 0,
                         allowance_for(e, "s")));
  out.finish();
  return out;
}

struct shape_match_case {
  std::vector<exact_point> rest, current;
  std::vector<exact> weights;  // empty: all 1
};

inline verdict judge_shape_match(const shape_match_case& c, const std::optional<real>& angle,
                                 const std::optional<point>& translation, const engine& e) {
  const auto to_mp = [](const std::vector<exact_point>& v) {
    std::vector<vec2<mp100>> out;
    for (const exact_point& p : v) out.push_back({round_to<mp100>(p.x), round_to<mp100>(p.y)});
    return out;
  };
  const std::vector<vec2<mp100>> rest = to_mp(c.rest), current = to_mp(c.current);
  std::vector<mp100> w;
  for (const exact& x : c.weights) w.push_back(round_to<mp100>(x));
  const shape_match_result<mp100> r = shape_match<mp100>(std::span<const vec2<mp100>>(rest),
                                                         std::span<const vec2<mp100>>(current), std::span<const mp100>(w));
  exact size = 0;
  for (const std::vector<exact_point>* list : {&c.rest, &c.current})
    if (!list->empty()) {
      exact lo_x = list->front().x, hi_x = lo_x, lo_y = list->front().y, hi_y = lo_y;
      for (const exact_point& p : *list) {
        lo_x = std::min(lo_x, p.x);
        hi_x = std::max(hi_x, p.x);
        lo_y = std::min(lo_y, p.y);
        hi_y = std::max(hi_y, p.y);
      }
      size = std::max({size, exact(hi_x - lo_x), exact(hi_y - lo_y)});
    }
  const double budget = find_op_rule("shape_match")->budget_eps;
  verdict out;
  if (angle)
    out.add(fixed_budget("angle", metric::scaled, {*angle}, {to_exact(r.angle)}, budget, e.precision.epsilon, size,
                         allowance_for(e, "angle")));
  if (translation)
    out.add(fixed_budget("translation", metric::position, {translation->x, translation->y},
                         {to_exact(r.translation.x), to_exact(r.translation.y)}, budget, e.precision.epsilon, size,
                         allowance_for(e, "translation")));
  out.finish();
  return out;
}

}  // namespace rigidref::judge

#include "rigidref/detail/fp_end.hpp"
