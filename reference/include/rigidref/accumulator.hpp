// The arithmetic a T result is accumulated in before its one final rounding
// (D-MASS-5): about twice T's precision, so a rational result rounds to
// within 1 ulp of its correctly rounded value.
//
//   float, double, long double  double_word<wider_t<T>> (D-EFT-1..5)
//   mpfr100 (mpfr.hpp)          double_word<mpfr100>: MPFR rounds correctly
//   mp50, mp100                 cpp_bin_float with 2x + 20 decimal digits
//   exact                       exact (no rounding at all)
//
// The accumulator also provides sqrt, atan2 (rounded to T), abs, a strict
// `less` and its unit roundoff, for matrix_sqrt.hpp, polar.hpp and
// shape_matching.hpp.
//
// Why not double words for cpp_bin_float: in Boost 1.74 its subtraction is
// not always correctly rounded when the subtrahend is below about one ulp of
// the minuend (measured: 30 of 20000 random a - b in mp50, 17 in mp100; kept
// in tests/double_word_test.cpp). TwoSum and Fast2Sum need correct rounding
// to be exact, so double words of cpp_bin_float silently lose their low
// part. A wider cpp_bin_float does not rely on any operation being exact.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/double_word.hpp"
#include "rigidref/scalar.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
struct accumulator {
  static_assert(is_binary_floating_v<T>, "no accumulator for this scalar type");
  using type = double_word<wider_t<T>>;
  static type from(const T& x) { return type(static_cast<wider_t<T>>(x)); }
  // An exact value to within the double word's precision (hi, then the rest).
  // For a builtin W, the same bits without the rational subtraction: a q
  // that W holds is hi with lo = +0 (D-PRED-4), most others take one
  // integer division (D-PRED-7).
  static type from_exact(const exact& q) {
    using W = wider_t<T>;
    if constexpr (std::is_floating_point_v<W>) {
      W hi, lo;
      if (detail::round_dyadic(q, hi)) return type(hi, W(0));
      if (detail::round_to_word(q, hi, lo)) return type(hi, lo);
    }
    const W hi = round_to<W>(q);
    return type(hi, round_to<W>(q - to_exact(hi)));
  }
  static T round(const type& w) { return round_to_nearest<T>(w); }
  static bool negative(const type& w) { return is_negative(w); }
  static bool zero(const type& w) { return w.hi == 0; }
  static type sqrt(const type& w) { return rigidref::sqrt(w); }
  // Unit roundoff of the double word, about u^2.
  static type unit() {
    using std::ldexp;
    return type(ldexp(wider_t<T>(1), -2 * std::numeric_limits<wider_t<T>>::digits + 1));
  }
  static type abs(const type& w) { return rigidref::abs(w); }
  static bool less(const type& x, const type& y) { return is_negative(x - y); }
  // atan2(y, x) rounded to T: libm's atan2 of the leading parts (for float
  // in double, then rounded; glibc documents <= 1 ulp for double).
  static T atan2(const type& y, const type& x) {
    using std::atan2;
    return static_cast<T>(atan2(y.hi, x.hi));
  }
};

template <unsigned Digits10>
struct accumulator<bmp::number<bmp::cpp_bin_float<Digits10>, bmp::et_off>> {
  using T = bmp::number<bmp::cpp_bin_float<Digits10>, bmp::et_off>;
  using type = bmp::number<bmp::cpp_bin_float<2 * Digits10 + 20>, bmp::et_off>;
  static type from(const T& x) { return type(x); }  // exact: more digits, wider exponent
  static type from_exact(const exact& q) { return round_to<type>(q); }
  static T round(const type& w) { return round_to<T>(to_exact(w)); }
  static bool negative(const type& w) { return w < 0; }
  static bool zero(const type& w) { return w == 0; }
  static type sqrt(const type& w) { return boost::multiprecision::sqrt(w); }
  static type unit() { return std::numeric_limits<type>::epsilon() / 2; }
  static type abs(const type& w) { return boost::multiprecision::abs(w); }
  static bool less(const type& x, const type& y) { return x < y; }
  // atan2 at the accumulator's precision, rounded once: Boost 1.74's atan2
  // in T itself is off by up to ~3.4 eps at 100 digits (measured, D-SHAPE-4).
  static T atan2(const type& y, const type& x) { return round_to<T>(to_exact(type(boost::multiprecision::atan2(y, x)))); }
};

template <>
struct accumulator<exact> {
  using type = exact;
  static type from(const exact& x) { return x; }
  static type from_exact(const exact& q) { return q; }
  static exact round(const exact& w) { return w; }
  static bool negative(const exact& w) { return w < 0; }
  static bool zero(const exact& w) { return w == 0; }
};

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
