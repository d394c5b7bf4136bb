// Turning a measured error into a field verdict (D-JUDGE-4, D-ENGINE-1): the error and
// the allowed amount are exact; both are reported in the engine's epsilon
// on the field's scale S, error_eps = |x - r| / (eps S), and the field
// passes when |x - r| <= budget + allowances (absolute), exactly.
#pragma once

#include "rigidref/detail/unreduced_ratio.hpp"
#include "rigidref/judge/answer.hpp"
#include "rigidref/judge/rules.hpp"
#include "rigidref/judge/shape.hpp"
#include "rigidref/judge/verdict.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::judge {

// What a field may be off by: `allowed` (absolute), reported on `scale`.
struct tolerance {
  exact allowed;  // budget eps S (or the conditioned bound) plus allowances
  exact scale;    // S
};

// The declared allowances that widen `field`, summed (amounts as absolute values).
inline exact allowance_for(const engine& e, std::string_view field) {
  exact sum = 0;
  for (const auto& [name, amount] : e.allowances)
    if (allowance_widens(name, field)) sum += abs_of(amount);
  return sum;
}

// Every declared allowance must be known (rules.hpp), with an amount >= 0.
inline void validate_allowances(const engine& e) {
  for (const auto& [name, amount] : e.allowances) {
    if (find_allowance(name) == nullptr) throw std::invalid_argument("allowances: unknown allowance \"" + name + "\"");
    if (amount < 0) throw std::invalid_argument("allowances: \"" + name + "\" must be >= 0");
  }
}

// The amount num / den (den > 0, reduced or not) in eps on scale.
inline double in_eps(const big_int& amount_num, const big_int& amount_den, const exact& eps, const exact& scale) {
  if (amount_num == 0) return 0;
  if (eps == 0 || scale == 0) return std::numeric_limits<double>::infinity();
  // amount / (eps scale) as one ratio of integers, rounded once: the same
  // double as reducing the quotient first (round_ratio_to depends on the
  // value only), without its gcds.
  const big_int num = amount_num * denominator(eps) * denominator(scale);
  const big_int den = amount_den * numerator(eps) * numerator(scale);
  const bool negative = (num < 0) != (den < 0);
  return rigidref::detail::round_ratio_to<double>(num < 0 ? big_int(-num) : num, den < 0 ? big_int(-den) : den,
                                                  negative);
}
inline double in_eps(const exact& amount, const exact& eps, const exact& scale) {
  return in_eps(numerator(amount), denominator(amount), eps, scale);
}

// A field measured: `diff` against `allowed` (unreduced), reported on
// `scale`; `what` names the field in the detail (e.g. "points[1].separation
// (against sigma)").
inline field_verdict measured(const std::string& field, const std::string& what, const exact& diff,
                              const detail::ratio& allowed, const exact& scale, const exact& eps,
                              const std::string& why = "") {
  field_verdict f;
  f.field = field;
  f.reason = field;
  f.error_eps = in_eps(diff, eps, scale);
  f.budget_eps = in_eps(allowed.num, allowed.den, eps, scale);
  f.pass = detail::at_most(diff, allowed);
  f.detail = what + ": off by " + format_eps(f.error_eps) + " eps (budget " + format_eps(f.budget_eps) + " eps" +
             (why.empty() ? "" : ", " + why) + ")";
  return f;
}
inline field_verdict measured(const std::string& field, const std::string& what, const exact& diff,
                              const tolerance& t, const exact& eps, const std::string& why = "") {
  return measured(field, what, diff, detail::ratio_of(t.allowed), t.scale, eps, why);
}

inline field_verdict not_finite_field(const std::string& field) {
  field_verdict f;
  f.field = field;
  f.pass = false;
  f.reason = "not finite";
  f.error_eps = std::numeric_limits<double>::infinity();
  f.detail = field + " is not finite (NaN or infinite in the engine)";
  return f;
}

inline field_verdict malformed_field(const std::string& field, const std::string& detail) {
  field_verdict f;
  f.field = field;
  f.pass = false;
  f.reason = field + " shape";
  f.error_eps = std::numeric_limits<double>::infinity();
  f.detail = field + ": " + detail;
  return f;
}

inline field_verdict not_judged(const std::string& field, const std::string& why) {
  field_verdict f;
  f.field = field;
  f.judged = false;
  f.detail = why;
  return f;
}

inline bool all_finite(const std::vector<real>& x) {
  return std::all_of(x.begin(), x.end(), [](const real& v) { return v.finite(); });
}

inline exact max_abs(const std::vector<exact>& v) {
  exact m = 0;
  for (const exact& x : v) m = std::max(m, abs_of(x));
  return m;
}

// max |x_i - r_i| over finite x (the caller checked all_finite and sizes).
inline exact max_difference(const std::vector<real>& x, const std::vector<exact>& r) {
  exact d = 0;
  for (std::size_t i = 0; i < x.size(); ++i) d = std::max(d, abs_of(exact(x[i].value() - r[i])));
  return d;
}

// A field with a fixed budget in eps on the metric's scale (relative,
// scaled, position, matrix): the engine's numbers x against the reference
// r. `size` is L (D-JUDGE-4); `allowance` the sum of the declared
// allowances that name the field.
inline field_verdict fixed_budget(const std::string& field, metric how, const std::vector<real>& x,
                                  const std::vector<exact>& r, double budget_eps, const exact& eps,
                                  const exact& size, const exact& allowance) {
  if (!all_finite(x)) return not_finite_field(field);
  if (x.size() != r.size())
    return malformed_field(field, "the engine gave " + std::to_string(x.size()) + " numbers, the reference " +
                                      std::to_string(r.size()));
  exact scale = max_abs(r);
  if (how == metric::scaled || how == metric::position) scale = std::max(scale, size);
  const exact budget = exact(static_cast<long long>(budget_eps)) * eps * scale;
  return measured(field, field, max_difference(x, r), {exact(budget + allowance), scale}, eps);
}

}  // namespace rigidref::judge

#include "rigidref/detail/fp_end.hpp"
