// The square root of an integer quotient rounded once to mp50 / mp100 without
// the accumulator's bit-by-bit square root (issue 28 item 10): a candidate
// from an integer Newton iteration, accepted only when an exact integer test
// proves that every value within a relative 2^-(p + 66) of the true root
// rounds to it. The accumulator route (RN_T of a few W operations, each far
// more precise) then gives the same bits. D-EPA-22
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/double_word.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/detail/mp_inputs.hpp"
#include "rigidref/detail/mp_limbs.hpp"
#include "rigidref/scalar.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
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

// |X|'s top 106 bits (all of them when fewer) as a double word: |X| ~=
// (w.hi + w.lo) 2^e, the double word exact (two 53-bit halves). X != 0.
template <class I>
double_word<double> mp_top_bits(const I& X, long& e) {
  const I a = X < 0 ? I(-X) : X;
  const long t = static_cast<long>(msb(a));
  e = t > 105 ? t - 105 : 0;
  const I top = a >> e;  // < 2^106
  constexpr std::uint64_t low53 = (std::uint64_t(1) << 53) - 1;
  // Normalised (|lo| <= ulp(hi) / 2, hi = 0 only for 0), as double-word
  // arithmetic needs; the sum is exact (D-EFT-1: hi >= 2^53 > lo, or hi = 0).
  return eft::fast_two_sum(std::ldexp(static_cast<double>(static_cast<std::uint64_t>(top >> 53)), 53),
                           static_cast<double>(static_cast<std::uint64_t>(top & low53)));
}

// mp_top_bits for integers of our own: the two 53-bit halves read from the
// limbs that hold them, without copying and shifting the whole integer
// (the same bits, so the same double word).
template <unsigned K>
double_word<double> mp_top_bits(const mp_limb_int<K>& X, long& e) {
  const long t = static_cast<long>(msb(X));
  e = t > 105 ? t - 105 : 0;
  // Bits [from, from + 53) of |X|.
  const auto bits53 = [&X](long from) {
    const unsigned q = static_cast<unsigned>(from / 64), r = static_cast<unsigned>(from % 64);
    std::uint64_t v = X.limb_at(q) >> r;
    if (r > 64 - 53) v |= X.limb_at(q + 1) << (64 - r);
    return v & ((std::uint64_t(1) << 53) - 1);
  };
  return eft::fast_two_sum(static_cast<double>(bits53(e + 53)) * 0x1p53, static_cast<double>(bits53(e)));
}

// An integer of about 100 bits near w 2^F (w a normalised double word,
// w.hi != 0): w.hi's 53 bits, then w.lo to 47 more; F is returned.
template <class I>
I mp_integer_near(const double_word<double>& w, long& F) {
  // |w.hi| in [2^(x-1), 2^x): x from the exponent bits of a normal w.hi
  // (frexp's x), and the scalings by 2^(53 - x) as products with that power
  // of two when it is normal: RN of the same reals as ldexp, without the
  // libm calls.
  const int biased = static_cast<int>((std::bit_cast<std::uint64_t>(w.hi) >> 52) & 0x7ff);
  int x = 0;
  if (biased != 0)
    x = biased - 1022;
  else
    std::frexp(w.hi, &x);
  const int n = 53 - x;
  const bool normal_scale = n >= -1022 && n <= 1023;
  const double scale = normal_scale ? std::bit_cast<double>(static_cast<std::uint64_t>(n + 1023) << 52) : 0.0;
  const double lo = w.hi < 0 ? -w.lo : w.lo;
  const double a = normal_scale ? std::abs(w.hi) * scale : std::ldexp(std::abs(w.hi), n);  // an integer in [2^52, 2^53)
  const double f = normal_scale ? lo * scale : std::ldexp(lo, n);                           // |f| <= 1/2
  F = 100 - x;
  const I m = (I(static_cast<std::uint64_t>(a)) << 47) + I(static_cast<std::int64_t>(f * 0x1p47));
  return w.hi < 0 ? I(-m) : m;
}

// x 2^shift (x != 0) stays below 2^room: the integers' width is never
// passed (each width's room in mp_sqrt_quotient).
template <class I>
bool fits_in(const I& x, long shift, long room) {
  return static_cast<long>(msb(x)) + shift < room;
}

// A candidate S ~= sqrt(num / den) 2^j of at least `bits` bits, j returned
// (false when a shift would leave `room`). The start is the double-word
// root of the quotient of num's and den's top bits (about 100 correct
// bits); each step adds the Newton correction c = d / (2 den R) to R, with
// d = num 2^(2j) - den R^2 exact in integers and only the quotient in
// double words, so each step gains about 94 bits (the double word's 104
// bits less a margin) while the residual stays exact. No integer division.
template <class I>
bool mp_root_candidate(const I& num, const I& den, long bits, long room, I& R, long& j) {
  long en = 0, ed = 0;
  const double_word<double> q = mp_top_bits(num, en) / mp_top_bits(den, ed);
  long E = en - ed;  // num / den ~= q 2^E
  double_word<double> qe = q;
  if (E % 2 != 0) {  // even exponent: the root halves it
    qe = {2 * q.hi, 2 * q.lo};
    --E;
  }
  long F = 0;
  R = mp_integer_near<I>(sqrt(qe), F);  // ~= sqrt(qe) 2^F = sqrt(num / den) 2^(F - E/2)
  j = F - E / 2;
  constexpr long g = 94;
  for (long have = static_cast<long>(msb(R)) + 1; have < bits; have += g) {
    if (R <= 0) return false;
    if (!fits_in(den, 2 * static_cast<long>(msb(R)) + 2, room)) return false;  // den R^2 < 2^room
    I DR = den * R;  // den R, then den R^2 and 2 den R
    I rhs = DR * R, lhs = num;
    const long d_scale = j >= 0 ? 0 : 2 * j;  // d below is num 2^(2j) - den R^2 times 2^-d_scale
    if (j >= 0) {
      if (!fits_in(lhs, 2 * j, room)) return false;
      lhs <<= 2 * j;
    } else {
      if (!fits_in(rhs, -2 * j, room)) return false;
      rhs <<= -2 * j;
    }
    const I d = lhs - rhs;
    if (!fits_in(R, g, room)) return false;
    R <<= g;
    j += g;
    if (d == 0) continue;  // R was exact
    long e_d = 0, e_D = 0;
    double_word<double> c = mp_top_bits(d, e_d) / mp_top_bits(DR, e_D);  // |d| / (den R), up to 2^e
    c = {c.hi / 2, c.lo / 2};
    if (d < 0) c = -c;
    long Fc = 0;
    I C = mp_integer_near<I>(c, Fc);  // c 2^(e_d - e_D + g) = C 2^shift
    const long shift = e_d + d_scale - e_D + g - Fc;
    if (shift >= 0) {
      if (!fits_in(C < 0 ? I(-C) : C, shift, room)) return false;
      C <<= shift;
    } else {
      C >>= -shift;  // toward zero: a candidate
    }
    R += C;
  }
  return R > 0;
}

// Integers of at most 4096 bits without heap allocation, for the test below
// when its operands are small enough (every product and shift is checked to
// stay below 4000 bits; `unchecked` never sees an overflow).
using mp_fixed_int = bmp::number<bmp::cpp_int_backend<4096, 4096, bmp::signed_magnitude, bmp::unchecked, void>,
                                 bmp::et_off>;

// Integers of at most 512 and 1024 bits, for round_quotient
// (detail/mp_frame_values.hpp) when its operands are small enough: the
// narrowest type that holds them moves the least memory.
using mp_small_int = bmp::number<bmp::cpp_int_backend<1024, 1024, bmp::signed_magnitude, bmp::unchecked, void>,
                                 bmp::et_off>;
using mp_tiny_int = bmp::number<bmp::cpp_int_backend<512, 512, bmp::signed_magnitude, bmp::unchecked, void>,
                                bmp::et_off>;

// Y 2^e in T (a cpp_bin_float) for an integer Y of exactly T's p bits
// (2^(p-1) <= Y < 2^p) and an exponent inside T's range: exact. The
// significand is written into T directly (cpp_bin_float keeps Y 2^e as its
// p-bit significand Y and exponent e + p - 1), which saves Boost's general
// conversion of an integer and ldexp (about half of a root's time).
// Y: mp_limb_int, a Boost integer or big_int.
template <class T, class I>
T mp_from_significand(const I& Y, long e) {
  using B = typename T::backend_type;
  static_assert(std::numeric_limits<T>::digits == static_cast<int>(B::bit_count));
  T r;
  auto& bits = r.backend().bits();
  constexpr unsigned n = (B::bit_count + 63) / 64;
  bits.resize(n, n);
  static_assert(sizeof(*bits.limbs()) == sizeof(std::uint64_t));
  for (unsigned i = 0; i < n; ++i) {
    if constexpr (requires { Y.limb_at(0u); })
      bits.limbs()[i] = Y.limb_at(i);
    else
      bits.limbs()[i] = i < Y.backend().size() ? static_cast<std::uint64_t>(Y.backend().limbs()[i]) : 0;
  }
  bits.normalize();
  r.backend().exponent() = static_cast<typename B::exponent_type>(e + std::numeric_limits<T>::digits - 1);
  r.backend().sign() = false;
  return r;
}

// The margin of mp_sqrt_quotient's test: 2^-s of half a T ulp. The
// accumulator's own error (a few W operations, each within 2^4 W ulps) must
// stay below 2^-(p + s + 1) relative: D-EPA-22.
inline constexpr long mp_sqrt_margin = 64;
template <class T>
constexpr bool mp_sqrt_margin_covers_accumulator() {
  return std::numeric_limits<typename accumulator<T>::type>::digits >=
         std::numeric_limits<T>::digits + mp_sqrt_margin + 5 + 4;
}

// The test's Hm^2 den (Hm of p + s + 2 bits) fits in `room`: checked before
// any work, so that a width too narrow refuses at once.
template <class T, class I>
bool mp_sqrt_test_fits(const I& den, long room) {
  return fits_in(den, 2 * (std::numeric_limits<T>::digits + mp_sqrt_margin + 2), room);
}

// The rounding and the exact test of mp_sqrt_quotient_in: RN_T of the root
// of num / den 2^(2h) (num, den > 0) from a candidate S ~= sqrt(num / den) 2^j
// of more than p bits, when proved.
template <class T, class I>
bool mp_sqrt_round_proved(const I& num, const I& den, long h, const I& S, long j, long room, T& out) {
  constexpr long p = std::numeric_limits<T>::digits;
  constexpr long s = mp_sqrt_margin;
  const long e2 = 2 * h;
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
  // Hm = Lm + 2 (2^s - 1) and Hm + Lm = 4 Y 2^s, so Hm^2 = Lm^2 + 8 (2^s - 1) 2^s Y:
  // Hm^2 den from Lm^2 den and Y den, the smaller product (every term is
  // below Hm^2 den, which fits).
  const I Lm = (((2 * Y) - 1) << s) + 1;
  const long E = 2 * (e - 1 - s) - e2;  // L^2 = Lm^2 2^(E + e2)
  const I yd = Y * den;
  I lhs_l = Lm * Lm * den, rhs = num;
  I lhs_h = lhs_l + ((yd << (2 * s + 3)) - (yd << (s + 3)));
  if (E >= 0) {
    if (!fits_in(lhs_h, E, room)) return false;
    lhs_l <<= E;
    lhs_h <<= E;
  } else {
    if (!fits_in(rhs, -E, room)) return false;
    rhs <<= -E;
  }
  if (!(lhs_l < rhs && rhs < lhs_h)) return false;
  out = mp_from_significand<T>(Y, e);
  ++mp_route_stats().sqrt_proved;
  return true;
}

// mp_sqrt_quotient's steps in the integer type I (mp_limb_int, mp_fixed_int
// or big_int); `room` bounds the bits a shifted value may reach (false
// beyond it).
template <class T, class I>
bool mp_sqrt_quotient_in(I num, const I& den, long e2, long room, T& out) {
  static_assert(mp_sqrt_margin_covers_accumulator<T>());
  if (num <= 0 || den <= 0) return false;
  if (!mp_sqrt_test_fits<T>(den, room)) return false;
  if (e2 % 2 != 0) {  // make the exponent even: sqrt(q) = sqrt(num / den) 2^h
    if (!fits_in(num, 1, room)) return false;
    num <<= 1;
    --e2;
  }
  // S ~= sqrt(num / den) 2^j with at least p + 20 bits.
  I S;
  long j = 0;
  if (!mp_root_candidate(num, den, std::numeric_limits<T>::digits + 20, room, S, j)) return false;
  return mp_sqrt_round_proved<T>(num, den, e2 / 2, S, j, room, out);
}

// RN_T(|v| / sqrt(den) 2^h) = RN_T(sqrt(v^2 / den 2^(2h))) in I from the
// candidate |v| Q, Q ~= 2^jq / sqrt(den) of at least p + 20 bits (so the
// product has them too), with the exact test of mp_sqrt_quotient_in; false
// for v = 0 or a refusal for room. D-EPA-22
template <class T, class I>
bool mp_shared_root_in(const big_int& v, const I& den, long h, const I& Q, long jq, long room, T& out) {
  static_assert(mp_sqrt_margin_covers_accumulator<T>());
  if (v == 0 || den <= 0 || !mp_sqrt_test_fits<T>(den, room)) return false;
  const I x(v < 0 ? big_int(-v) : v);
  const long x_bits = static_cast<long>(msb(x)) + 1;
  if (!fits_in(x, static_cast<long>(msb(Q)) + 1, room) || !fits_in(x, x_bits, room)) return false;
  return mp_sqrt_round_proved<T>(I(x * x), den, h, I(x * Q), jq, room, out);
}

// RN_T(|v_i| / sqrt(den) 2^h_i) for values v_i sharing one den > 0: one
// reciprocal root Q ~= 2^jq / sqrt(den) (mp_root_candidate of 1 / den) gives
// every candidate |v_i| Q, and each root keeps its own exact test, on the
// narrowest width that holds its operands (as mp_sqrt_quotient chooses it:
// v_i^2 takes twice v_i's limbs). A root not proved (v_i = 0, no width, a
// refusal) keeps proved[i] false for the caller's own route. D-EPA-22
template <class T, std::size_t N>
void mp_shared_roots(const std::array<const big_int*, N>& v, const big_int& den, const std::array<long, N>& h,
                     std::array<T, N>& out, std::array<bool, N>& proved) {
  static_assert(is_cpp_bin_float_v<T>);
  proved.fill(false);
  const std::size_t d_limbs = den.backend().size();
  if (den <= 0 || d_limbs > 12) return;
  // Q on the narrowest width whose room its Newton step keeps, carried in 24
  // limbs to each root's width: the same integer.
  using wide = mp_limb_int<24>;
  const wide den_w(den);
  wide Q;
  long jq = 0;
  constexpr long bits = std::numeric_limits<T>::digits + 20;
  const auto reciprocal = [&](auto one, long room) {
    using I = decltype(one);
    I q;
    if (!mp_root_candidate(one, I(den), bits, room, q, jq)) return false;
    Q = wide(q);
    return true;
  };
  if (!(d_limbs <= 6 && reciprocal(mp_limb_int<12>(1), 740)) && !(d_limbs <= 8 && reciprocal(mp_limb_int<16>(1), 1000)) &&
      !reciprocal(wide(1), 1500))
    return;
  for (std::size_t i = 0; i < N; ++i) {
    const std::size_t v_limbs = v[i]->backend().size();
    if (v_limbs <= 3 && d_limbs <= 6 && Q.top_bit() < 12 * 64 - 64 &&
        mp_shared_root_in<T>(*v[i], mp_limb_int<12>(den), h[i], mp_limb_int<12>(Q), jq, 740, out[i]))
      proved[i] = true;
    else if (v_limbs <= 4 && d_limbs <= 8 && Q.top_bit() < 16 * 64 - 64 &&
             mp_shared_root_in<T>(*v[i], mp_limb_int<16>(den), h[i], mp_limb_int<16>(Q), jq, 1000, out[i]))
      proved[i] = true;
    else if (v_limbs <= 6 && mp_shared_root_in<T>(*v[i], den_w, h[i], Q, jq, 1500, out[i]))
      proved[i] = true;
  }
}

// RN_T(sqrt(num / den * 2^e2)) for num > 0, den > 0, when proved that every
// real within relative 2^-(p + 66) of the root (p = T's precision) rounds to
// the same T value; false otherwise (the caller keeps its own route).
// D-EPA-22
template <class T>
bool mp_sqrt_quotient(const big_int& num, const big_int& den, long e2, T& out) {
  static_assert(is_cpp_bin_float_v<T>);
  if (num <= 0 || den <= 0) return false;
  // Up to 6 limbs each on 12 limbs, up to 8 on 16, up to 12 on 24 (every
  // shift and product is checked; a refusal for room takes the next width,
  // and the 4096-bit steps prove the same roots).
  if (num.backend().size() <= 6 && den.backend().size() <= 6 &&
      mp_sqrt_quotient_in<T, mp_limb_int<12>>(mp_limb_int<12>(num), mp_limb_int<12>(den), e2, 740, out))
    return true;
  if (num.backend().size() <= 8 && den.backend().size() <= 8 &&
      mp_sqrt_quotient_in<T, mp_limb_int<16>>(mp_limb_int<16>(num), mp_limb_int<16>(den), e2, 1000, out))
    return true;
  // mp100's test needs den + 800 bits: its roots mostly start here.
  if (num.backend().size() <= 12 && den.backend().size() <= 12 &&
      mp_sqrt_quotient_in<T, mp_limb_int<24>>(mp_limb_int<24>(num), mp_limb_int<24>(den), e2, 1500, out))
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
