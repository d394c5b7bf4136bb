// Error measurement in the style of Boost.Math's test tables: for a function
// and a type, the max and RMS relative error in epsilons of that type, the max
// distance in ulps from the correctly rounded oracle value, and the worst case
// with its inputs printed at full precision.
//
// Every oracle is given as an exact rational: either the exact answer, or a
// 230-digit value (oracle_float) converted exactly, whose own error is far
// below any ulp of the tested types.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/scalar.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::verify {

// High-precision arithmetic for oracles of non-rational functions: more than
// twice mp100's digits, so rounding the oracle to mp100 is not a coin toss.
using oracle_float = bmp::number<bmp::cpp_bin_float<230>, bmp::et_off>;

// Distance in ulps of T between `computed` and the correctly rounded value of
// `truth`: 0 means correctly rounded, 1 means one representable step away.
// For exact T: 0 when equal, +infinity otherwise.
template <class T>
double ulps_from_rounded(const T& computed, const exact& truth) {
  if constexpr (is_exact_v<T>) {
    return computed == truth ? 0.0 : std::numeric_limits<double>::infinity();
  } else {
    return ulp_distance(computed, round_to<T>(truth));
  }
}

// |computed - truth| / |truth| in units of epsilon of T (Boost.Math's
// measure). truth == 0: 0 when computed is 0, else +infinity.
template <class T>
double relative_error_eps(const T& computed, const exact& truth) {
  if constexpr (is_exact_v<T>) {
    return computed == truth ? 0.0 : std::numeric_limits<double>::infinity();
  } else {
    if (!is_finite(computed)) return std::numeric_limits<double>::infinity();
    // With computed = cn / cd, truth = N / D and epsilon = en / ed (cd, D,
    // ed > 0): |computed - truth| / |truth| / epsilon is the ratio of the
    // integers |cn D - N cd| ed and cd |N| en, rounded once to double: the
    // same rational as before, without a gcd per operation.
    const exact c = to_exact(computed), eps = to_exact(epsilon<T>());
    const big_int N = numerator(truth), D = denominator(truth);
    const big_int cd = denominator(c);
    big_int diff = numerator(c) * D - N * cd;
    if (diff == 0) return 0.0;
    if (N == 0) return std::numeric_limits<double>::infinity();
    if (diff < 0) diff = -diff;
    return static_cast<double>(
        rigidref::detail::round_ratio_to<double>(big_int(diff * denominator(eps)), big_int(cd * abs(N) * numerator(eps)), false));
  }
}

// Accumulated errors of one function in one type.
struct error_stats {
  std::string function;
  std::string type;
  int digits = 0;
  std::size_t cases = 0;
  double max_ulps = 0;
  double max_eps = 0;
  double sum_sq_eps = 0;
  std::string worst_case;  // inputs, computed and oracle values at full precision

  double rms_eps() const { return cases == 0 ? 0.0 : std::sqrt(sum_sq_eps / static_cast<double>(cases)); }

  // Adds one comparison; `describe` is only called for a new worst case.
  template <class T>
  void add(const T& computed, const exact& truth, const std::function<std::string()>& describe) {
    const double ulps = ulps_from_rounded(computed, truth);
    const double eps = relative_error_eps(computed, truth);
    ++cases;
    sum_sq_eps += std::isfinite(eps) ? eps * eps : std::numeric_limits<double>::infinity();
    const bool worse = ulps > max_ulps || (ulps == max_ulps && eps > max_eps) || worst_case.empty();
    if (eps > max_eps) max_eps = eps;
    if (worse) {
      max_ulps = ulps;
      worst_case = describe() + " computed=" + to_string(computed) + " oracle=" + exact_to_text(truth);
    }
  }

  // The oracle as a 40-significant-digit decimal, readable for huge rationals.
  static std::string exact_to_text(const exact& q) {
    if (denominator(q) == 1 && msb(abs(numerator(q)) + 1) < 128) return q.str();
    return round_to<oracle_float>(q).str(40, std::ios_base::scientific);
  }
};

template <class T>
error_stats make_stats(std::string function) {
  error_stats s;
  s.function = std::move(function);
  s.type = std::string(scalar_name<T>());
  s.digits = digits<T>();
  return s;
}

}  // namespace rigidref::verify

#include "rigidref/detail/fp_end.hpp"
