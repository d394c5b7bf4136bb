// Binary floats as integers times powers of two (D-MASS-16, D-MASS-17):
// x = significand * 2^exponent with an integer significand, so that several
// values scaled by one common power of two are integers, and sums and
// products of them are exact integer arithmetic with no gcd per step.
#pragma once

#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <type_traits>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// x = (negative ? -1 : 1) * magnitude * 2^exponent, magnitude odd (below 2^digits).
template <class T>
struct split_value {
  unsigned long long magnitude = 0;
  bool negative = false;
  long exponent = LONG_MAX;  // LONG_MAX for zero
};

template <class T>
split_value<T> split(const T& x) {
  static_assert(std::is_floating_point_v<T>, "builtin binary floats only");
  split_value<T> s;
  if (x == 0) return s;
  int e = 0;
  const T m = std::frexp(x < 0 ? T(-x) : x, &e);  // [0.5, 1), exact
  constexpr int p = std::numeric_limits<T>::digits;
  static_assert(p <= 64, "the significand must fit in 64 bits");
  const unsigned long long whole = static_cast<unsigned long long>(std::ldexp(m, p));  // exact, below 2^p
  // Trailing zero bits go to the exponent: integer-valued inputs stay small.
  const int zeros = std::countr_zero(whole);
  s.magnitude = whole >> zeros;
  s.negative = x < 0;
  s.exponent = long(e) - p + zeros;
  return s;
}

inline big_int to_big(unsigned long long magnitude, bool negative, long shift) {
  big_int r = magnitude;
  r <<= shift;
  return negative ? big_int(-r) : r;
}

// The split value as an integer in units of 2^e (e at most its exponent).
template <class T>
big_int in_units(const split_value<T>& s, long e) {
  return s.exponent == LONG_MAX ? big_int(0) : to_big(s.magnitude, s.negative, s.exponent - e);
}

// The sign of cross(b - a, c - a) for finite builtin floats, exactly: the six
// coordinates in units of the least power of two among them are integers.
// D-MASS-17
// A non-finite coordinate is invalid_input, as in to_exact.
template <class T>
int orientation_in_integers(const vec2<T>& a, const vec2<T>& b, const vec2<T>& c) {
  for (const T& x : {a.x, a.y, b.x, b.y, c.x, c.y})
    if (!std::isfinite(x)) throw invalid_input("non-finite value has no exact rational value");
  const split_value<T> s[6] = {split(a.x), split(a.y), split(b.x), split(b.y), split(c.x), split(c.y)};
  long e = LONG_MAX;
  for (const split_value<T>& v : s) e = std::min(e, v.exponent);
  if (e == LONG_MAX) return 0;  // all six zero
  const big_int ax = in_units(s[0], e), ay = in_units(s[1], e);
  const big_int ux = in_units(s[2], e) - ax, uy = in_units(s[3], e) - ay;
  const big_int vx = in_units(s[4], e) - ax, vy = in_units(s[5], e) - ay;
  const big_int det = ux * vy - uy * vx;
  return det > 0 ? 1 : (det < 0 ? -1 : 0);
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
