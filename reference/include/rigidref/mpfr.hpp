// Optional scalar: a 100-digit MPFR float (needs libmpfr-dev, link -lmpfr
// -lgmp). MPFR rounds every operation correctly and its fma is fused, so
// unlike cpp_bin_float (accumulator.hpp) double words work on it: it is the
// cross-check that the double-word path is right for a multiprecision type.
#pragma once

#include "rigidref/scalar.hpp"

#include <boost/multiprecision/mpfr.hpp>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

using mpfr100 = bmp::number<bmp::mpfr_float_backend<100>, bmp::et_off>;

template <>
struct scalar_label<mpfr100> { static constexpr std::string_view value = "mpfr100"; };

template <>
inline constexpr bool has_fused_fma_v<mpfr100> = true;

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
