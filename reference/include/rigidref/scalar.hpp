// The scalar types rigidref supports, in one place, and their traits.
//
// Every algorithm is a template over one of these. Binary floating types are
// tested in ulps against an oracle; `exact` (rational) runs the algorithms
// whose answer is a rational function of the inputs, with no rounding at all.
#pragma once

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>

#include <cmath>
#include <limits>
#include <string_view>
#include <tuple>
#include <type_traits>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

namespace bmp = boost::multiprecision;

// Expression templates are off everywhere: `auto s = a + b;` must be a value.
using mp50 = bmp::number<bmp::cpp_bin_float<50>, bmp::et_off>;
using mp100 = bmp::number<bmp::cpp_bin_float<100>, bmp::et_off>;
using big_int = bmp::number<bmp::cpp_int_backend<>, bmp::et_off>;
using exact = bmp::number<bmp::rational_adaptor<bmp::cpp_int_backend<>>, bmp::et_off>;

// The binary floating types, in increasing precision.
using floating_scalars = std::tuple<float, double, long double, mp50, mp100>;
// Every type, for algorithms that are rational functions of their inputs.
using all_scalars = std::tuple<float, double, long double, mp50, mp100, exact>;

template <class T>
inline constexpr bool is_exact_v = std::is_same_v<T, exact>;

template <class T>
inline constexpr bool is_binary_floating_v =
    std::is_floating_point_v<T> ||
    (bmp::is_number<T>::value && bmp::number_category<T>::value == bmp::number_kind_floating_point);

// Name used in reports and in the eval protocol's "precision" field; an
// optional scalar (mpfr.hpp) adds its own specialisation.
template <class T>
struct scalar_label;
template <>
struct scalar_label<float> { static constexpr std::string_view value = "float"; };
template <>
struct scalar_label<double> { static constexpr std::string_view value = "double"; };
template <>
struct scalar_label<long double> { static constexpr std::string_view value = "long double"; };
template <>
struct scalar_label<mp50> { static constexpr std::string_view value = "mp50"; };
template <>
struct scalar_label<mp100> { static constexpr std::string_view value = "mp100"; };
template <>
struct scalar_label<exact> { static constexpr std::string_view value = "exact"; };

template <class T>
constexpr std::string_view scalar_name() {
  return scalar_label<T>::value;
}

// Binary digits of the significand (0 for exact: it has no rounding).
template <class T>
constexpr int digits() {
  if constexpr (is_exact_v<T>) return 0;
  else return std::numeric_limits<T>::digits;
}

// Machine epsilon (2^(1-digits)); the unit in which errors are reported.
template <class T>
T epsilon() {
  static_assert(!is_exact_v<T>, "exact arithmetic has no epsilon");
  return std::numeric_limits<T>::epsilon();
}

// True when fma(a, b, c) is a single rounding for T. Boost 1.74's
// cpp_bin_float fma is a multiply then an add (DESIGN.md), so the
// error-free product falls back to Dekker's split there. (mpfr.hpp sets it
// for MPFR, whose fma is fused.)
template <class T>
inline constexpr bool has_fused_fma_v = std::is_floating_point_v<T>;

// A type with at least twice T's significand and T's exponent range, used to
// carry intermediate results of double_word arithmetic for narrow types.
// float -> double makes a double_word<double> (106 bits) the accumulator for
// float, which leaves margin for cancellation (mass.hpp uses this).
template <class T>
struct wider { using type = T; };
template <>
struct wider<float> { using type = double; };
template <class T>
using wider_t = typename wider<T>::type;

// isfinite for every scalar (ADL finds Boost's for multiprecision types).
template <class T>
bool is_finite(const T& x) {
  if constexpr (is_exact_v<T>) {
    return true;
  } else {
    using std::isfinite;
    return isfinite(x);
  }
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
