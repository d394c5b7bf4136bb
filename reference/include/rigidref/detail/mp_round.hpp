// The one rounding of an mp accumulator value to mp50 / mp100 by Boost's
// narrowing conversion instead of through an exact rational (D-GJK-25): both
// round the same binary value w to nearest, ties to even, so the bits are
// the same; the rational route stays for zero (its sign), non-finite values,
// exponents far from the normal range, and when the filter is forced off.
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/detail/mp_inputs.hpp"
#include "rigidref/filter.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

template <class T>
T round_accumulated(const typename accumulator<T>::type& w) {
  if constexpr (is_cpp_bin_float_v<T>) {
    using std::isfinite;
    if (!filter_force_exact() && isfinite(w) && w != 0) {
      const long E = static_cast<long>(w.backend().exponent());
      if (E > -(1L << 24) && E < (1L << 24)) {
        ++mp_route_stats().narrow_rounding;
        return T(w);  // copy_and_round: to nearest, ties to even
      }
    }
  }
  return accumulator<T>::round(w);
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
