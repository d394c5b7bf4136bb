// The final rounding of the mp50 and mp100 mass outputs (D-MASS-19): the
// wide cpp_bin_float of the accumulator rounded to T directly, to nearest
// with ties to even, from its significand, instead of through an exact
// rational (to_exact, then round_to's big-integer division). The same value
// by construction: round_to is that rounding of the same number.
#pragma once

#include "rigidref/scalar.hpp"

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>

#include <limits>
#include <optional>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail::mass_round {

template <class W>
inline constexpr bool is_cpp_bin_float_v = false;
template <unsigned D>
inline constexpr bool is_cpp_bin_float_v<bmp::number<bmp::cpp_bin_float<D>, bmp::et_off>> = true;

// RN_T(w) for a finite w of the wide type W (more bits than T, and W's
// exponent range inside T's), or nothing when w is zero, not finite or its
// exponent is outside [-2^20, 2^20] (the caller then rounds through an exact
// rational). Both are cpp_bin_float: a normalised significand of bit_count
// bits (top bit set) and a binary exponent of the same convention, so the
// rounding is one on the significand's bits. D-MASS-19
template <class T, class W>
std::optional<T> round_wide(const W& w) {
  using wide_backend = typename W::backend_type;
  using narrow_backend = typename T::backend_type;
  constexpr unsigned P = wide_backend::bit_count, p = narrow_backend::bit_count;
  static_assert(P > p + 1);
  const wide_backend& b = w.backend();
  if (b.exponent() == wide_backend::exponent_zero || b.exponent() == wide_backend::exponent_infinity ||
      b.exponent() == wide_backend::exponent_nan)
    return std::nullopt;
  if (b.exponent() < -(1 << 20) || b.exponent() > (1 << 20)) return std::nullopt;
  using wide_rep = bmp::number<typename wide_backend::rep_type, bmp::et_off>;
  using narrow_rep = bmp::number<typename narrow_backend::rep_type, bmp::et_off>;
  const wide_rep bits(b.bits());
  wide_rep top = bits >> (P - p);  // the p leading bits: RN_T's lower candidate (toward zero)
  const bool half = bit_test(bits, P - p - 1);
  const bool sticky = lsb(bits) < P - p - 1;  // bits is nonzero (its top bit is set)
  auto exponent = b.exponent();
  if (half && (sticky || bit_test(top, 0))) {  // round to nearest, ties to even
    top += 1;
    if (bit_test(top, p)) {  // carried into a new binade: 2^p
      top >>= 1;
      ++exponent;
    }
  }
  T out;
  out.backend().bits() = narrow_rep(top).backend();
  out.backend().exponent() = exponent;
  out.backend().sign() = b.sign();
  return out;
}

}  // namespace rigidref::detail::mass_round

#include "rigidref/detail/fp_end.hpp"
