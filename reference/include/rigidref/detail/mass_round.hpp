// The final rounding of the mp50 and mp100 mass outputs (D-MASS-19): the
// wide cpp_bin_float of the accumulator rounded to T directly, to nearest
// with ties to even, from its significand, instead of through an exact
// rational (to_exact, then round_to's big-integer division). The same value
// by construction: round_to is that rounding of the same number.
#pragma once

#include "rigidref/scalar.hpp"

#include <boost/multiprecision/cpp_bin_float.hpp>

#include <limits>
#include <optional>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail::mass_round {

template <class W>
inline constexpr bool is_cpp_bin_float_v = false;
template <unsigned D>
inline constexpr bool is_cpp_bin_float_v<bmp::number<bmp::cpp_bin_float<D>, bmp::et_off>> = true;

// RN_T(w) for a finite w of the wide type W (more digits than T, and W's
// exponent range inside T's), or nothing when w is zero, not finite or its
// exponent is outside [-2^20, 2^20] (the caller then rounds through an exact
// rational). D-MASS-19
template <class T, class W>
std::optional<T> round_wide(const W& w) {
  using boost::multiprecision::floor;
  using boost::multiprecision::frexp;
  using boost::multiprecision::isfinite;
  using boost::multiprecision::ldexp;
  static_assert(std::numeric_limits<W>::digits > std::numeric_limits<T>::digits);
  if (!isfinite(w) || w == 0) return std::nullopt;
  constexpr int p = std::numeric_limits<T>::digits;
  int e = 0;
  const W m = frexp(w < 0 ? W(-w) : w, &e);  // m in [0.5, 1), w = m 2^e: exact
  if (e < -(1 << 20) || e > (1 << 20)) return std::nullopt;
  const W scaled = ldexp(m, p);  // in [2^(p-1), 2^p): exact
  W whole = floor(scaled);       // the significand of T's lower candidate: exact
  const W fraction = scaled - whole;  // exact: the low bits of scaled (as in to_exact)
  const W half(0.5);
  if (fraction > half || (fraction == half && floor(ldexp(whole, -1)) != ldexp(whole, -1))) whole += 1;  // exact
  const T out = ldexp(static_cast<T>(whole), e - p);  // whole <= 2^p has at most p bits: exact
  return w < 0 ? T(-out) : out;
}

}  // namespace rigidref::detail::mass_round

#include "rigidref/detail/fp_end.hpp"
