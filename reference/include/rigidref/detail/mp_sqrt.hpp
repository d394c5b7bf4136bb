// The square root of an integer quotient rounded once to mp50 / mp100 without
// the accumulator's bit-by-bit square root (issue 28 item 10): a candidate
// from an integer Newton iteration, accepted only when an exact integer test
// proves that every value within a relative 2^-(p + 66) of the true root
// rounds to it. The accumulator route (RN_T of a few W operations, each far
// more precise) then gives the same bits. D-EPA-22
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/detail/mp_inputs.hpp"
#include "rigidref/scalar.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// An integer of at most R's precision (or a power of two) as R, exactly:
// Boost's conversion for cpp_bin_float (exact for such integers), else
// integer_to. D-EPA-22
template <class R>
R mp_exact_integer(const big_int& m) {
  if constexpr (is_cpp_bin_float_v<R>)
    return R(m);
  else
    return integer_to<R>(m);
}

// About floor(sqrt(N)) for N > 0 (a candidate only; the caller's test
// decides): from N >= 2^220, the root of N's top 104..105 bits in double-
// double arithmetic (one Newton step on the double root, about 100 correct
// bits), else the double root; then integer Newton steps, each doubling the
// correct bits, until they cover sqrt(N)'s.
template <class I>
I approx_isqrt(const I& N) {
  const long t = static_cast<long>(msb(N));
  if (t < 100) return I(static_cast<std::uint64_t>(std::sqrt(static_cast<double>(N))));
  I x;
  long bits = 50;
  if (t >= 220) {
    const long sh = (t - 104) & ~1L;  // even, N >> sh in [2^103, 2^106)
    const I top = N >> sh;
    constexpr std::uint64_t low53 = (std::uint64_t(1) << 53) - 1;
    const double nh = std::ldexp(static_cast<double>(static_cast<std::uint64_t>(top >> 53)), 53);  // exact
    const double nl = static_cast<double>(static_cast<std::uint64_t>(top & low53));                  // exact
    const double r = std::sqrt(nh);                     // about 2^52
    const double c = (std::fma(-r, r, nh) + nl) / (2 * r);  // r + c: sqrt(nh + nl) to about 2^-100
    // (r + c) 2^48 as an integer: r's integer part, then its fraction (0 or
    // 1/2) plus c, |c| < 2, to 48 bits.
    const double ri = std::floor(r);
    const auto frac = static_cast<std::int64_t>(std::ldexp((r - ri) + c, 48));
    x = ((I(static_cast<std::uint64_t>(ri)) << 48) + I(frac)) << (sh / 2 - 48);
    bits = 100;
  } else {
    const long sh = (t - 60) & ~1L;  // even
    const double d = static_cast<double>(static_cast<std::uint64_t>(N >> sh));  // < 2^62
    x = I(static_cast<std::uint64_t>(std::sqrt(d) * 1048576.0)) << (sh / 2 - 20);
  }
  for (; bits < t / 2 + 8; bits *= 2) x = (x + N / x) >> 1;
  return x;
}

// Integers of at most 4096 bits without heap allocation, for the test below
// when its operands are small enough (every product and shift is checked to
// stay below 4000 bits; `unchecked` never sees an overflow).
using mp_fixed_int = bmp::number<bmp::cpp_int_backend<4096, 4096, bmp::signed_magnitude, bmp::unchecked, void>,
                                 bmp::et_off>;

// Integers of at most 512, 768 and 1024 bits, for round_quotient
// (detail/mp_frame_values.hpp) and the root below when their operands are
// small enough: the narrowest type that holds them moves the least memory.
using mp_small_int = bmp::number<bmp::cpp_int_backend<1024, 1024, bmp::signed_magnitude, bmp::unchecked, void>,
                                 bmp::et_off>;
using mp_mid_int = bmp::number<bmp::cpp_int_backend<768, 768, bmp::signed_magnitude, bmp::unchecked, void>,
                               bmp::et_off>;
using mp_tiny_int = bmp::number<bmp::cpp_int_backend<512, 512, bmp::signed_magnitude, bmp::unchecked, void>,
                                bmp::et_off>;

// mp_sqrt_quotient's steps in the integer type I (big_int or mp_fixed_int);
// `room` bounds the bits a shifted value may reach (false beyond it).
template <class T, class I>
bool mp_sqrt_quotient_in(I num, const I& den, long e2, long room, T& out) {
  using std::ldexp;
  using boost::multiprecision::ldexp;
  constexpr long p = std::numeric_limits<T>::digits;
  constexpr long s = 64;  // the margin: 2^-s of half a T ulp
  // The accumulator's own error (a few W operations, each within 2^4 W ulps)
  // must stay below the margin 2^-(p + s + 1) relative: D-EPA-22.
  static_assert(std::numeric_limits<typename accumulator<T>::type>::digits >= p + s + 5 + 4);
  if (num <= 0 || den <= 0) return false;
  auto fits = [&](const I& x, long shift) { return static_cast<long>(msb(x)) + shift < room; };
  if (e2 % 2 != 0) {  // make the exponent even: sqrt(q) = sqrt(num / den) 2^h
    if (!fits(num, 1)) return false;
    num <<= 1;
    --e2;
  }
  const long h = e2 / 2;
  // N = floor(num / den 2^(2j)) with about 2 (p + 8) bits; sqrt(N) ~ root 2^(j - h).
  const long lq = static_cast<long>(msb(num)) - static_cast<long>(msb(den));
  const long j = (2 * (p + 8) - lq + 1) / 2;
  if (!fits(num, 2 * j) || !fits(den, -2 * j)) return false;
  const I N = den == 1 ? I(j >= 0 ? I(num << (2 * j)) : I(num >> (-2 * j)))
                       : (j >= 0 ? I((num << (2 * j)) / den) : I(num / (den << (-2 * j))));
  if (N <= 0) return false;
  const I S = approx_isqrt(N);
  if (S <= 0) return false;
  // Candidate y = Y 2^e, Y of p bits: S rounded to p bits.
  const long b = static_cast<long>(msb(S)) + 1;
  if (b <= p) return false;
  I Y = S >> (b - p);
  if (bit_test(S, static_cast<unsigned>(b - p - 1))) ++Y;
  long e = (b - p) - j + h;
  if (msb(Y) == static_cast<unsigned>(p)) {  // carried into 2^p
    Y >>= 1;
    ++e;
  }
  // At the bottom of a binade the lower midpoint is closer: refuse.
  if (Y == (I(1) << (p - 1))) return false;
  if (e < -(1L << 24) || e > (1L << 24)) return false;
  // L = ((2Y - 1) 2^s + 1) 2^(e - 1 - s), H = ((2Y + 1) 2^s - 1) 2^(e - 1 - s),
  // strictly inside the midpoints around y by 2^(e - 1 - s); test
  // L^2 < num / den 2^e2 < H^2 in integers.
  const I Lm = (((2 * Y) - 1) << s) + 1, Hm = (((2 * Y) + 1) << s) - 1;
  if (!fits(den, 2 * (p + s + 2))) return false;  // Hm^2 den
  const long E = 2 * (e - 1 - s) - e2;  // L^2 = Lm^2 2^(E + e2)
  I lhs_l = Lm * Lm * den, lhs_h = Hm * Hm * den, rhs = num;
  if (E >= 0) {
    if (!fits(lhs_h, E)) return false;
    lhs_l <<= E;
    lhs_h <<= E;
  } else {
    if (!fits(rhs, -E)) return false;
    rhs <<= -E;
  }
  if (!(lhs_l < rhs && rhs < lhs_h)) return false;
  out = ldexp(mp_exact_integer<T>(big_int(Y)), static_cast<int>(e));
  ++mp_route_stats().sqrt_proved;
  return true;
}

// RN_T(sqrt(num / den * 2^e2)) for num > 0, den > 0, when proved that every
// real within relative 2^-(p + 66) of the root (p = T's precision) rounds to
// the same T value; false otherwise (the caller keeps its own route).
// D-EPA-22
template <class T>
bool mp_sqrt_quotient(const big_int& num, const big_int& den, long e2, T& out) {
  static_assert(is_cpp_bin_float_v<T>);
  if (num <= 0 || den <= 0) return false;
  // Up to 6 limbs each on 768 bits, up to 8 on 1024 (every shift and
  // product is checked; a refusal for room takes the next width, and the
  // 4096-bit steps prove the same roots).
  if (num.backend().size() <= 6 && den.backend().size() <= 6 &&
      mp_sqrt_quotient_in<T, mp_mid_int>(mp_mid_int(num), mp_mid_int(den), e2, 740, out))
    return true;
  if (num.backend().size() <= 8 && den.backend().size() <= 8 &&
      mp_sqrt_quotient_in<T, mp_small_int>(mp_small_int(num), mp_small_int(den), e2, 1000, out))
    return true;
  if (msb(num) < 1800 && msb(den) < 1200)
    return mp_sqrt_quotient_in<T, mp_fixed_int>(mp_fixed_int(num), mp_fixed_int(den), e2, 4000, out);
  return mp_sqrt_quotient_in<T, big_int>(num, den, e2, 1L << 40, out);
}

// sqrt(x) of an mp value as Boost's sqrt gives it: cpp_bin_float's eval_sqrt
// rounds the root of the significand to nearest (an integer square root and
// its remainder), so a root proved by mp_sqrt_quotient is its result; zero,
// negative, non-finite or unproved arguments go to Boost's. D-EPA-22
template <class T>
T rounded_sqrt(const T& x) {
  if constexpr (is_cpp_bin_float_v<T>) {
    using std::isfinite;
    if (x > 0 && isfinite(x) && !filter_force_exact()) {
      using B = typename T::backend_type;
      static_assert(std::numeric_limits<T>::digits == static_cast<int>(B::bit_count));
      unsigned z = 0;
      const big_int m = mp_odd_significand(x, z);
      const long q = static_cast<long>(x.backend().exponent()) - (static_cast<long>(B::bit_count) - 1) + z;
      T r;
      if (mp_sqrt_quotient<T>(m, big_int(1), q, r)) return r;
    }
    return boost::multiprecision::sqrt(x);
  } else {
    using std::sqrt;
    return sqrt(x);
  }
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
