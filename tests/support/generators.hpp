// RapidCheck generators for rigidref's inputs.
//
// RapidCheck's arbitrary<double> never produces subnormals, infinities or
// wide exponents, and gen::inRange is integer-only (DESIGN.md), so every
// real here is built from integers: mantissa and exponent, or Pythagorean
// rationals for exact rotations and unit vectors.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/polygon.hpp"
#include "rigidref/vec2.hpp"

#include <rapidcheck.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace rigidref::testing::gen {

// Doubles over the whole finite range: 53-bit signed mantissa times 2^e.
// Includes subnormals (small e) and values near the overflow threshold.
inline rc::Gen<double> wide_double() {
  return rc::gen::apply(
      [](std::int64_t m, int e) { return std::ldexp(static_cast<double>(m), e); },
      rc::gen::inRange<std::int64_t>(-(std::int64_t(1) << 53) + 1, std::int64_t(1) << 53),
      rc::gen::inRange(-1074 - 52, 971 + 1));
}

// The values a careless implementation gets wrong, on purpose.
inline rc::Gen<double> special_double() {
  constexpr double inf = std::numeric_limits<double>::infinity();
  return rc::gen::element(0.0, -0.0, std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::min(),
                          std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(), inf, -inf,
                          std::numeric_limits<double>::quiet_NaN(), 1.0, -1.0, 0.5);
}

// A value exactly representable in T: `bits`-bit integer mantissa times 2^e,
// e in [emin, emax], clamped so the value stays finite and normal in T
// (float's range is 2^-126..2^128). bits <= 62.
template <class T>
rc::Gen<T> representable(int bits, int emin, int emax) {
  if constexpr (!is_exact_v<T>) {
    emax = std::min(emax, static_cast<int>(std::numeric_limits<T>::max_exponent) - bits - 1);
    emin = std::max(emin, static_cast<int>(std::numeric_limits<T>::min_exponent));
  }
  return rc::gen::apply(
      [](std::int64_t m, int e) {
        using std::ldexp;
        using boost::multiprecision::ldexp;
        if constexpr (is_exact_v<T>) return e >= 0 ? T(m) * T(big_int(1) << e) : T(m) / T(big_int(1) << -e);
        else return T(ldexp(T(m), e));
      },
      rc::gen::inRange<std::int64_t>(-(std::int64_t(1) << bits) + 1, std::int64_t(1) << bits),
      rc::gen::inRange(emin, emax + 1));
}

// An exact rational near the midpoint between two consecutive doubles
// (offset by -1, 0 or +1 units of 2^-40 of the half-ulp), with the double
// it must round to: the hard cases of round_to.
struct near_tie_case {
  exact value;
  double expected;
};
inline rc::Gen<near_tie_case> near_tie_double() {
  return rc::gen::apply(
      [](std::int64_t m, int e, int side) {
        const double lo = std::ldexp(static_cast<double>(m), e);  // m odd or even: both tie directions
        const double hi = std::nextafter(lo, std::numeric_limits<double>::infinity());
        const exact mid = (to_exact(lo) + to_exact(hi)) / 2;
        const exact half_gap = (to_exact(hi) - to_exact(lo)) / 2;
        const exact value = mid + half_gap * side / exact(big_int(1) << 40);
        double expected = side < 0 ? lo : (side > 0 ? hi : (std::fmod(static_cast<double>(m), 2.0) == 0 ? lo : hi));
        return near_tie_case{value, expected};
      },
      rc::gen::inRange<std::int64_t>(std::int64_t(1) << 52, std::int64_t(1) << 53),
      rc::gen::inRange(-1074, 960), rc::gen::inRange(-1, 2));
}

// A rational point on the unit circle, (1 - t^2, 2t) / (1 + t^2), t = p/q.
// Exact rotations and unit normals come from these.
inline rc::Gen<vec2<exact>> unit_rational() {
  return rc::gen::apply(
      [](int p, int q) {
        const exact t(p, q);
        const exact d = 1 + t * t;
        return vec2<exact>{(1 - t * t) / d, 2 * t / d};
      },
      rc::gen::inRange(-200, 201), rc::gen::inRange(1, 201));
}

// An integer Pythagorean rotation (a, b, c) with a^2 + b^2 = c^2: rotating an
// integer polygon by [[a,-b],[b,a]] gives integers again (scaled by c).
struct pythagorean {
  std::int64_t a, b, c;
};
inline rc::Gen<pythagorean> pythagorean_triple() {
  return rc::gen::apply(
      [](int m, int n, bool swap) {
        const std::int64_t a = std::int64_t(m) * m - std::int64_t(n) * n, b = 2 * std::int64_t(m) * n,
                           c = std::int64_t(m) * m + std::int64_t(n) * n;
        return swap ? pythagorean{b, a, c} : pythagorean{a, b, c};
      },
      rc::gen::inRange(2, 40), rc::gen::inRange(1, 2), rc::gen::arbitrary<bool>());
}

// A simple polygon with exact rational vertices: points on a circle
// (convex) or at varying radii (star-shaped, generally concave), in angular
// order, either orientation, cyclically shifted. Simple by construction.
inline rc::Gen<std::vector<vec2<exact>>> rational_polygon(bool convex) {
  return rc::gen::apply(
      [convex](std::vector<int> ts, std::vector<int> radii, bool clockwise, int shift) {
        // Three fixed angles (t = -2, 0, 2: about -127, 0 and 127 degrees) keep
        // every angular gap below 180 degrees, so the radial polygon is simple.
        ts.insert(ts.end(), {-128, 0, 128});
        std::sort(ts.begin(), ts.end());
        ts.erase(std::unique(ts.begin(), ts.end()), ts.end());
        std::vector<vec2<exact>> v;
        for (std::size_t i = 0; i < ts.size(); ++i) {
          const exact t(ts[i], 64);  // t = tan(angle/2): increasing t, increasing angle
          const exact d = 1 + t * t;
          const exact r = convex ? exact(1) : exact(radii[i % radii.size()], 10);
          v.push_back({r * (1 - t * t) / d, r * 2 * t / d});
        }
        if (clockwise) std::reverse(v.begin(), v.end());
        if (!v.empty()) std::rotate(v.begin(), v.begin() + (shift % static_cast<int>(v.size())), v.end());
        return v;
      },
      rc::gen::container<std::vector<int>>(rc::gen::inRange(-2000, 2001)),
      rc::gen::nonEmpty(rc::gen::container<std::vector<int>>(rc::gen::inRange(2, 11))), rc::gen::arbitrary<bool>(),
      rc::gen::inRange(0, 1000));
}

// A simple polygon with integer coordinates (|x|, |y| < 2^20 before the
// offset), exactly representable in every type: the rational polygon scaled
// by 2^20 and rounded, kept only if still simple.
inline rc::Gen<std::vector<vec2<exact>>> integer_polygon(bool convex) {
  return rc::gen::suchThat(rc::gen::map(rational_polygon(convex),
                                        [](std::vector<vec2<exact>> v) {
                                          for (auto& p : v) {
                                            p.x = exact(big_int(numerator(p.x * (1 << 20)) / denominator(p.x * (1 << 20))));
                                            p.y = exact(big_int(numerator(p.y * (1 << 20)) / denominator(p.y * (1 << 20))));
                                          }
                                          return v;
                                        }),
                           [](const std::vector<vec2<exact>>& v) {
                             try {
                               require_simple_polygon<exact>(v);
                               return true;
                             } catch (const invalid_input&) {
                               return false;
                             }
                           });
}

// An integer translation with coordinates up to max_abs (1e8 by default:
// exact in double and wider; float callers pass less than 2^24).
inline rc::Gen<vec2<exact>> far_offset(int max_abs = 100'000'000) {
  return rc::gen::apply([](int x, int y) { return vec2<exact>{exact(x), exact(y)}; },
                        rc::gen::inRange(-max_abs, max_abs + 1), rc::gen::inRange(-max_abs, max_abs + 1));
}

// A needle: integer rectangle of length `aspect` and width 1, aspect up to
// max_aspect (1e6 by default), rotated by an integer Pythagorean rotation.
inline rc::Gen<std::vector<vec2<exact>>> needle(int max_aspect = 1'000'000) {
  return rc::gen::apply(
      [](int aspect, pythagorean r) {
        std::vector<vec2<exact>> base{{0, 0}, {aspect, 0}, {aspect, 1}, {0, 1}};
        for (auto& p : base) p = {exact(r.a) * p.x - exact(r.b) * p.y, exact(r.b) * p.x + exact(r.a) * p.y};
        return base;
      },
      rc::gen::inRange(1, max_aspect + 1), pythagorean_triple());
}

// Exact vertices into T (callers choose inputs T represents exactly; a
// mismatch is caught by the round-trip check).
template <class T>
std::vector<vec2<T>> to_type(const std::vector<vec2<exact>>& v) {
  std::vector<vec2<T>> out;
  for (const auto& p : v) {
    out.push_back({round_to<T>(p.x), round_to<T>(p.y)});
  }
  return out;
}

template <class T>
bool exactly_representable(const std::vector<vec2<exact>>& v) {
  for (const auto& p : v)
    if (to_exact(round_to<T>(p.x)) != p.x || to_exact(round_to<T>(p.y)) != p.y) return false;
  return true;
}

}  // namespace rigidref::testing::gen
