// The square root of an oracle value, correctly rounded (D-PRED-8), in
// less than half the time of Boost's sqrt for cpp_bin_float: Boost 1.74
// takes the integer square root of a 2 bit_count-bit significand one bit at
// a time (27 us at 230 digits); Newton's iteration at growing width and an
// exact rounding test take 12 us. Both give the value nearest to sqrt(v),
// so the bits are the same (tests/oracle_sqrt_test.cpp compares them).
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/verify/accuracy.hpp"

#include <cmath>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::verify {

namespace detail {

// A positive value m 2^e of F as integers: m has exactly bit_count bits.
struct scaled_significand {
  big_int m;
  long e = 0;
};

template <class F>
scaled_significand significand_of(const F& x) {
  using B = typename F::backend_type;
  scaled_significand out;
  out.m.backend() = x.backend().bits();
  out.e = static_cast<long>(x.backend().exponent()) - (static_cast<long>(B::bit_count) - 1);
  return out;
}

// The sign of x - y^2 for x = m 2^e and the midpoint y = odd 2^(j-1):
// m 2^e against odd^2 2^(2j-2), on integers.
inline int compare_square(const scaled_significand& x, const big_int& odd, long j) {
  const big_int sq = odd * odd;
  const long d = x.e - (2 * j - 2);
  const big_int l = d >= 0 ? big_int(x.m << d) : x.m;
  const big_int r = d >= 0 ? sq : big_int(sq << -d);
  return l < r ? -1 : (l > r ? 1 : 0);
}

// One Newton step y <- (y + v / y) / 2 carried in G (fewer digits while y
// has few correct ones).
template <class G, class F>
F newton_step(const F& v, const F& y) {
  const G vg(v), yg(y);
  const G next = G(yg + G(vg / yg)) / 2;
  return F(next);
}

}  // namespace detail

// sqrt(v) rounded to nearest in F (a cpp_bin_float number with et_off), the
// same value as Boost's sqrt. Zero, negative and non-finite v go to Boost's.
template <class F>
F correctly_rounded_sqrt(const F& v) {
  using B = typename F::backend_type;
  using std::sqrt;
  using boost::multiprecision::frexp;
  using boost::multiprecision::ldexp;
  const auto ve = v.backend().exponent();
  if (ve == B::exponent_zero || ve == B::exponent_infinity || ve == B::exponent_nan || v.backend().sign())
    return F(sqrt(v));
  // A start good to about 64 bits: v = f 2^e with e even, f in [0.5, 2).
  int e = 0;
  F f = frexp(v, &e);
  if (e % 2 != 0) {
    f = ldexp(f, 1);
    --e;
  }
  F y = ldexp(F(sqrt(static_cast<long double>(f))), e / 2);
  // Each step doubles the correct bits (64 -> 128 -> 256 -> 512 -> 1024),
  // up to bit_count; all but the last in a type just wide enough for them.
  constexpr unsigned P = B::bit_count;
  using F40 = bmp::number<bmp::cpp_bin_float<40>, bmp::et_off>;    // 136 bits
  using F80 = bmp::number<bmp::cpp_bin_float<80>, bmp::et_off>;    // 269 bits
  using F160 = bmp::number<bmp::cpp_bin_float<160>, bmp::et_off>;  // 535 bits
  y = detail::newton_step<F40>(v, y);
  if constexpr (P > 128) y = detail::newton_step<F80>(v, y);
  if constexpr (P > 256) y = detail::newton_step<F160>(v, y);
  // The last step without a division at full width: y + (v - y^2) / (2 y),
  // with v - y^2 exact in 2 P + 64 bits (it cancels to about P - 500 bits)
  // and the quotient, a correction some 2^-500 of y, in F80.
  using wide = bmp::number<bmp::cpp_bin_float<2 * P + 64, bmp::digit_base_2>, bmp::et_off>;
  const wide yw(y);
  const wide residual = wide(wide(v) - wide(yw * yw));
  const F80 correction = F80(F80(residual) / F80(2 * yw));
  y = F(y + F(correction));
  // Now |y - sqrt(v)| is within a few units of the last place. The nearest
  // c = mc 2^ec has sqrt(v) between the midpoints to its neighbours:
  // lo^2 <= v <= hi^2, hi = (2 mc + 1) 2^(ec-1), lo = (2 mc - 1) 2^(ec-1),
  // or (4 mc - 1) 2^(ec-2) when c is a power of two (its lower neighbour is
  // half an ulp closer). No tie: a midpoint's square has more significant
  // bits than v can hold.
  const detail::scaled_significand x = detail::significand_of(v);
  detail::scaled_significand c = detail::significand_of(y);
  const big_int top = big_int(1) << (P - 1);  // 2^(P-1): the smallest significand
  for (int step = 0; step < 8; ++step) {
    if (detail::compare_square(x, big_int(2 * c.m + 1), c.e) > 0) {  // v > hi^2: up one
      c.m += 1;
      if (c.m == (top << 1)) {
        c.m = top;
        ++c.e;
      }
      continue;
    }
    const bool power_of_two = c.m == top;
    const int below = power_of_two ? detail::compare_square(x, big_int(4 * c.m - 1), c.e - 1)
                                   : detail::compare_square(x, big_int(2 * c.m - 1), c.e);
    if (below < 0) {  // v < lo^2: down one
      if (power_of_two) {
        c.m = (top << 1) - 1;
        --c.e;
      } else {
        c.m -= 1;
      }
      continue;
    }
    return ldexp(F(c.m), static_cast<int>(c.e));  // c.m has P bits: exact
  }
  return F(sqrt(v));  // not reached: Newton leaves y within a few ulps
}

// sqrt(q) at 230 digits, as an exact rational: q's numerator and
// denominator in oracle_float, divided, and the root correctly rounded (the
// accuracy tables' oracle for a length from its square).
inline exact sqrt_oracle(const exact& q) {
  const oracle_float v = oracle_float(numerator(q)) / oracle_float(denominator(q));
  return to_exact(correctly_rounded_sqrt(v));
}

}  // namespace rigidref::verify

#include "rigidref/detail/fp_end.hpp"
