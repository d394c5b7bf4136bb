// Integer frames for the exact oracles (D-SAT-14): every coordinate of a
// binary float is an integer times a power of two, so a whole pair of
// polygons, multiplied by one common power of two, has integer coordinates,
// and every predicate and sum the oracles need is integer arithmetic. A
// rational type pays a gcd after every operation; here the only gcd is the
// one that builds each returned rational, once, from an integer numerator
// and denominator. Exact (rational) inputs take the lcm of their
// denominators instead of a power of two.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::verify {

// The oracles' integers: cpp_int, header-only like the rest of rigidref (a
// measured alternative, GMP's mpz, is in bench/HISTORY.md "Oracle speed").
using oracle_int = big_int;

// Polygons in one frame: real coordinate = integer / scale.
struct integer_frame {
  std::vector<std::vector<vec2<oracle_int>>> polygons;
  oracle_int scale = 1;
};

namespace detail {

// x = sign * magnitude * 2^exponent with an integer magnitude (0 for x = 0).
struct dyadic {
  oracle_int significand;  // signed
  int exponent = 0;
};

template <class T>
dyadic to_dyadic(const T& x) {
  if (!std::isfinite(x)) throw invalid_input("non-finite value has no exact rational value");
  dyadic d;
  if (x == 0) return d;
  int e = 0;
  const T f = std::frexp(x < 0 ? T(-x) : x, &e);  // in [0.5, 1), exact
  constexpr int p = std::numeric_limits<T>::digits;
  static_assert(p <= 64, "the significand must fit in 64 bits");
  // f * 2^p is an integer below 2^p <= 2^64, exact in T and in uint64.
  std::uint64_t m = static_cast<std::uint64_t>(std::ldexp(f, p));
  // Trailing zero bits go to the exponent: an integer-valued input keeps a
  // small integer instead of a p-bit one.
  const int zeros = std::countr_zero(m);
  m >>= zeros;
  d.significand = oracle_int(m);
  if (x < 0) d.significand = -d.significand;
  d.exponent = e - p + zeros;
  return d;
}

}  // namespace detail

// The polygons' coordinates in one integer frame, exactly.
template <class T>
integer_frame make_integer_frame(std::initializer_list<std::span<const vec2<T>>> polygons) {
  integer_frame frame;
  if constexpr (std::is_floating_point_v<T>) {
    // Common power of two: the lowest exponent over all coordinates.
    std::vector<detail::dyadic> coords;
    int lowest = 0;
    bool any = false;
    for (const auto& poly : polygons)
      for (const auto& p : poly)
        for (const T* c : {&p.x, &p.y}) {
          coords.push_back(detail::to_dyadic(*c));
          if (*c != 0 && (!any || coords.back().exponent < lowest)) lowest = coords.back().exponent;
          any = any || *c != 0;
        }
    const int shift = lowest < 0 ? -lowest : 0;  // integers stay integers
    frame.scale = oracle_int(1) << shift;
    std::size_t k = 0;
    for (const auto& poly : polygons) {
      std::vector<vec2<oracle_int>> out;
      out.reserve(poly.size());
      for (std::size_t i = 0; i < poly.size(); ++i, k += 2) {
        auto lift = [&](const detail::dyadic& d) {
          return d.significand == 0 ? oracle_int(0) : oracle_int(d.significand << (d.exponent + shift));
        };
        out.push_back({lift(coords[k]), lift(coords[k + 1])});
      }
      frame.polygons.push_back(std::move(out));
    }
  } else {
    // Multiprecision floats and rationals: through the exact value, scaled
    // by the lcm of the denominators (a power of two for binary floats).
    std::vector<exact> values;
    oracle_int scale = 1;
    for (const auto& poly : polygons)
      for (const auto& p : poly)
        for (const T* c : {&p.x, &p.y}) {
          values.push_back(to_exact(*c));
          scale = lcm(scale, oracle_int(denominator(values.back())));
        }
    frame.scale = scale;
    std::size_t k = 0;
    for (const auto& poly : polygons) {
      std::vector<vec2<oracle_int>> out;
      out.reserve(poly.size());
      for (std::size_t i = 0; i < poly.size(); ++i, k += 2) {
        auto lift = [&](const exact& q) {
          return oracle_int(oracle_int(numerator(q)) * oracle_int(scale / oracle_int(denominator(q))));
        };
        out.push_back({lift(values[k]), lift(values[k + 1])});
      }
      frame.polygons.push_back(std::move(out));
    }
  }
  return frame;
}

// num / den as a canonical rational; den != 0.
inline exact exact_ratio(const oracle_int& num, const oracle_int& den) {
  return exact(big_int(num), big_int(den));
}

}  // namespace rigidref::verify

#include "rigidref/detail/fp_end.hpp"
