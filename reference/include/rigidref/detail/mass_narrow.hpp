// mp50 and mp100: the centroid and the inertia certified from a narrower
// cpp_bin_float (p + 24 bits, rounded to 64-bit limbs) instead of the
// accumulator's three wide divisions. Each output is the accumulator route's
// RN_T(w) only when an interval about the narrow value, wide enough to hold w,
// rounds to one T value (D-MASS-32); otherwise the caller runs that route.
#pragma once

#include "rigidref/detail/mass_round.hpp"
#include "rigidref/scalar.hpp"

#include <boost/multiprecision/cpp_bin_float.hpp>

#include <optional>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail::mass_narrow {

template <class T>
struct certified {
  T centroid_x, centroid_y, inertia;
};

// RN_T of every point of [x - e, x + e] when they all agree, else nothing.
// round_wide is RN_T (D-MASS-19), monotone, so the two ends decide (D-MASS-27).
template <class T, class N>
std::optional<T> round_if_unique(const N& x, const N& e) {
  const std::optional<T> lo = mass_round::round_wide<T>(N(x - e));
  if (!lo) return std::nullopt;
  const std::optional<T> hi = mass_round::round_wide<T>(N(x + e));
  if (!hi || *hi != *lo) return std::nullopt;
  return lo;
}

template <class T>
using narrow_t = bmp::number<bmp::cpp_bin_float<(T::backend_type::bit_count + 24 + 63) / 64 * 64, bmp::digit_base_2>,
                             bmp::et_off>;

// Each narrow output and the radius about it that holds the accumulator
// route's value (before its rounding to T). D-MASS-32
template <class T>
struct narrow_outputs {
  narrow_t<T> centroid_x, radius_x, centroid_y, radius_y, inertia, radius_inertia;
};

// The sums are the exact fan sums of D-MASS-20 (twice_area > 0 after the sign
// flip), mass the accumulator's mass (W), v0 the first vertex. D-MASS-32
template <class T, class W>
narrow_outputs<T> outputs(const W& twice_area, const W& first_x, const W& first_y, const W& second, const T& v0x,
                          const T& v0y, const W& mass) {
  using N = narrow_t<T>;
  constexpr unsigned B = N::backend_type::bit_count;
  static_assert(B > T::backend_type::bit_count + 16 && B <= W::backend_type::bit_count, "N between T and W");
  using boost::multiprecision::abs;
  using boost::multiprecision::ldexp;
  const N r3 = N(1) / N(N(twice_area) * 3), r6 = ldexp(r3, -1);  // 1 / (3 A2), 1 / (6 A2)
  const N gx = N(first_x) * r3, gy = N(first_y) * r3;  // centroid - v0
  const N q = N(second) * r6;                           // second moment about v0 / area
  const N g2 = gx * gx + gy * gy;                       // |centroid - v0|^2
  const N m(mass);
  // D-MASS-32: radii 32 u (|v0| + |g|) and 64 u |m| (|q| + g2), u = 2^(1 - B).
  const int k = 1 - int(B);
  return {N(v0x) + gx, ldexp(N(abs(N(v0x)) + abs(gx)), k + 5),
          N(v0y) + gy, ldexp(N(abs(N(v0y)) + abs(gy)), k + 5),
          m * (q - g2), ldexp(N(abs(m) * N(abs(q) + g2)), k + 6)};
}

// The certified outputs, or nothing when one interval straddles a rounding
// boundary of T (the caller then runs the accumulator route). D-MASS-32
template <class T, class W>
std::optional<certified<T>> try_outputs(const W& twice_area, const W& first_x, const W& first_y, const W& second,
                                        const T& v0x, const T& v0y, const W& mass) {
  const narrow_outputs<T> o = outputs<T, W>(twice_area, first_x, first_y, second, v0x, v0y, mass);
  const std::optional<T> x = round_if_unique<T>(o.centroid_x, o.radius_x);
  if (!x) return std::nullopt;
  const std::optional<T> y = round_if_unique<T>(o.centroid_y, o.radius_y);
  if (!y) return std::nullopt;
  const std::optional<T> i = round_if_unique<T>(o.inertia, o.radius_inertia);
  if (!i) return std::nullopt;
  return certified<T>{*x, *y, *i};
}

}  // namespace rigidref::detail::mass_narrow

#include "rigidref/detail/fp_end.hpp"
