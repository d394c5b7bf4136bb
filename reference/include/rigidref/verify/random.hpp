// Reproducible random inputs for every scalar type: a 64-bit Mersenne
// Twister seeded by the caller, and uniform values carrying all of T's
// significand bits (not just a double's), so inputs exercise the whole type.
#pragma once

#include "rigidref/scalar.hpp"

#include <cmath>
#include <cstdint>
#include <random>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::verify {

using rng = std::mt19937_64;

// Uniform in [0, 1), with max(64, digits(T)) random bits, exact in T.
template <class T>
T uniform01(rng& g) {
  using std::ldexp;
  using boost::multiprecision::ldexp;
  const int bits = is_exact_v<T> ? 64 : digits<T>();
  T out = 0;
  int have = 0;
  while (have < bits) {
    const int take = bits - have < 32 ? bits - have : 32;
    const std::uint64_t chunk = g() >> (64 - take);
    have += take;
    if constexpr (is_exact_v<T>) {
      out += T(chunk) / T(big_int(1) << have);
    } else {
      out += ldexp(T(static_cast<double>(chunk)), -have);
    }
  }
  return out;
}

template <class T>
T uniform(rng& g, const T& lo, const T& hi) {
  return lo + (hi - lo) * uniform01<T>(g);
}

// 10^u with u uniform in [lo_exp, hi_exp]: scales spread over decades.
template <class T>
T log_uniform(rng& g, double lo_exp, double hi_exp) {
  using std::pow;
  const double e = lo_exp + (hi_exp - lo_exp) * std::uniform_real_distribution<double>(0, 1)(g);
  return T(std::pow(10.0, e));
}

inline int uniform_int(rng& g, int lo, int hi) {
  return std::uniform_int_distribution<int>(lo, hi)(g);
}

}  // namespace rigidref::verify

#include "rigidref/detail/fp_end.hpp"
