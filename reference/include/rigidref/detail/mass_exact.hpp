// The exact path of polygon mass properties in float, double and long double
// (D-MASS-16): every coordinate is an integer times 2^e for one common e, so
// the fan sums of D-MASS-1..3 are integers (no rational, no gcd per step)
// and each output is one rational, rounded once by round_to.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/detail/dyadic.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail::mass_exact {

inline exact times_power_of_two(big_int num, big_int den, long e) {
  if (e >= 0) num <<= e;
  else den <<= -e;
  return exact(num, den);
}

// The integer fan sums of D-MASS-16 (counter-clockwise), the common
// exponent e and the integer first vertex; each output is built on demand.
struct integer_sums {
  big_int twice_area, first_x, first_y, second, ox, oy;
  long e = 0;
  exact area() const { return times_power_of_two(twice_area, big_int(2), 2 * e); }
  // centroid = v0 + first / (3 twice_area) = (3 A X0 + F) 2^e / (3 A)
  exact centroid_x() const { return times_power_of_two(3 * twice_area * ox + first_x, 3 * twice_area, e); }
  exact centroid_y() const { return times_power_of_two(3 * twice_area * oy + first_y, 3 * twice_area, e); }
  // D-MASS-4: second/(6A) - |F|^2/(9A^2) = (3 A second - 2 |F|^2) / (18 A^2), times 2^(2e)
  exact per_area() const {
    return times_power_of_two(3 * twice_area * second - 2 * (first_x * first_x + first_y * first_y),
                              18 * twice_area * twice_area, 2 * e);
  }
};

// D-MASS-16. Returns false for zero area.
// The fan sums of D-MASS-1..3 about vertex 0 on integer coordinates x(i),
// y(i) (i < n, n >= 3; ox = x(0), oy = y(0)), in the integer type I: exact
// when I holds every product (big_int here; fixed widths in
// detail/mass_wide_sums.hpp, D-MASS-20).
template <class I>
struct fan_integers {
  I twice_area = 0, first_x = 0, first_y = 0, second = 0;
};

template <class I, class X, class Y>
fan_integers<I> integer_fan_sums(std::size_t n, const I& ox, const I& oy, X x, Y y) {
  fan_integers<I> f;
  I px = x(1) - ox, py = y(1) - oy;
  I pp = px * px + py * py;
  for (std::size_t i = 2; i < n; ++i) {
    const I qx = x(i) - ox, qy = y(i) - oy;
    const I c = px * qy - py * qx;
    const I qq = qx * qx + qy * qy;
    f.twice_area += c;
    f.first_x += c * (px + qx);
    f.first_y += c * (py + qy);
    f.second += c * (pp + (px * qx + py * qy) + qq);
    px = qx;
    py = qy;
    pp = qq;
  }
  return f;
}

template <class T>
bool polygon_sums(std::span<const vec2<T>> v, integer_sums& out) {
  const std::size_t n = v.size();
  std::vector<split_value<T>> sx(n), sy(n);
  long e = LONG_MAX;
  for (std::size_t i = 0; i < n; ++i) {
    sx[i] = split(v[i].x);
    sy[i] = split(v[i].y);
    e = std::min(e, std::min(sx[i].exponent, sy[i].exponent));
  }
  if (e == LONG_MAX) return false;  // every coordinate zero
  auto integer = [e](const split_value<T>& s) { return in_units(s, e); };
  // Integers X_i = p_i / 2^e, d_i = X_i - X_0: D-MASS-1..3 in exact integers.
  const big_int ox = integer(sx[0]), oy = integer(sy[0]);
  const fan_integers<big_int> f = integer_fan_sums<big_int>(
      n, ox, oy, [&](std::size_t i) { return integer(sx[i]); }, [&](std::size_t i) { return integer(sy[i]); });
  if (f.twice_area == 0) return false;
  const int sign = f.twice_area < 0 ? -1 : 1;  // clockwise: every sum flips sign
  out.twice_area = sign * f.twice_area;
  out.first_x = sign * f.first_x;
  out.first_y = sign * f.first_y;
  out.second = sign * f.second;
  out.ox = ox;
  out.oy = oy;
  out.e = e;
  return true;
}

}  // namespace rigidref::detail::mass_exact

#include "rigidref/detail/fp_end.hpp"
