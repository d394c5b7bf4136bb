// The fan sums of mp50 and mp100 polygons whose coordinates have short
// significands (doubles, as every JSON request), in fixed-width integers
// (D-MASS-20). The accumulator's own evaluation of these sums is exact for
// such polygons (every intermediate fits its precision), so the integer
// sums, scaled, are the same numbers it computes, at a fraction of the cost
// of 400-bit floating-point products.
#pragma once

#include "rigidref/detail/mass_exact.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail::mass_wide_sums {

// Fixed-width integers on the stack: no allocation, no overflow check (the
// bound of D-MASS-20 keeps every value below 2^(fixed_bits - 1) for 512 bits,
// below 2^(narrow_bits - 1) for 320, used when that suffices).
template <unsigned Bits>
using fixed_int = bmp::number<bmp::cpp_int_backend<Bits, Bits, bmp::signed_magnitude, bmp::unchecked, void>,
                              bmp::et_off>;
inline constexpr int fixed_bits = 500;
inline constexpr int narrow_bits = 308;

// x = (negative ? -1 : 1) * magnitude * 2^exponent with magnitude below
// 2^64; false when x's significand has more than 64 bits or x is not finite.
struct short_value {
  std::uint64_t magnitude = 0;
  bool negative = false;
  long exponent = LONG_MAX;  // LONG_MAX for zero
};

template <unsigned D>
bool split_short(const bmp::number<bmp::cpp_bin_float<D>, bmp::et_off>& x, short_value& out) {
  using backend = bmp::cpp_bin_float<D>;
  const backend& b = x.backend();
  out = short_value{};
  if (b.exponent() == backend::exponent_zero) return true;
  if (b.exponent() == backend::exponent_infinity || b.exponent() == backend::exponent_nan) return false;
  // b = bits 2^(exponent - bit_count + 1), bits normalised to bit_count bits.
  using rep = bmp::number<typename backend::rep_type, bmp::et_off>;
  rep bits(b.bits());
  const unsigned long low = bmp::lsb(bits);
  if (backend::bit_count - low > 64) return false;
  bits >>= low;
  out.magnitude = bits.template convert_to<std::uint64_t>();
  out.negative = b.sign();
  out.exponent = long(b.exponent()) - long(backend::bit_count) + 1 + long(low);
  return true;
}

template <class W>
struct sums {
  W twice_area, first_x, first_y, second;
};

// x 2^scale in W, for |x| < 2^P (P = W's bits): exact, W's normalised form
// written directly (a P-bit significand S, |x 2^scale| = S 2^(E - P + 1)),
// the value W(x) then ldexp gives, without their generic conversion.
template <class W, class I>
W exact_in(const I& x, int scale) {
  using backend = typename W::backend_type;
  using rep = bmp::number<typename backend::rep_type, bmp::et_off>;
  if (x == 0) return W(0);
  const I m = x < 0 ? I(-x) : x;
  const unsigned bits = unsigned(msb(m)) + 1;
  rep s(m);
  s <<= backend::bit_count - bits;
  W out;
  out.backend().bits() = s.backend();
  out.backend().exponent() = int(bits) - 1 + scale;
  out.backend().sign() = x < 0;
  return out;
}

#if defined(__SIZEOF_INT128__)
// integer_fan_sums (mass_exact.hpp) for integers X_i, Y_i below 2^61 in
// magnitude (D-MASS-38): each d_i = X_i - X_0 is below 2^62, so d_i, P + Q,
// c = P x Q (below 2^125) and the bracket |P|^2 + P.Q + |Q|^2 (below
// 3 2^125) are exact in 64- and 128-bit integers; only the products of
// degree 3 and 4 and the sums over the fan use I. The same integers.
template <class I>
mass_exact::fan_integers<I> narrow_fan_sums(std::span<const std::int64_t> xs, std::span<const std::int64_t> ys) {
  __extension__ typedef __int128 i128;  // GCC and clang; __extension__: no -Wpedantic warning
  mass_exact::fan_integers<I> f;
  const std::int64_t ox = xs[0], oy = ys[0];
  std::int64_t px = xs[1] - ox, py = ys[1] - oy;
  i128 pp = i128(px) * px + i128(py) * py;
  for (std::size_t i = 2; i < xs.size(); ++i) {
    const std::int64_t qx = xs[i] - ox, qy = ys[i] - oy;
    const i128 c = i128(px) * qy - i128(py) * qx;
    const i128 qq = i128(qx) * qx + i128(qy) * qy;
    const I ci(c);
    f.twice_area += ci;
    f.first_x += ci * I(px + qx);
    f.first_y += ci * I(py + qy);
    f.second += ci * I(pp + (i128(px) * qx + i128(py) * qy) + qq);
    px = qx;
    py = qy;
    pp = qq;
  }
  return f;
}
#endif

// The integer sums of D-MASS-16 in I, scaled into W (exact: D-MASS-20).
// `bits`: every |X_i| is below 2^bits.
template <class I, class W>
void integer_sums(const std::vector<short_value>& xs, const std::vector<short_value>& ys, long e, long bits,
                  sums<W>& out) {
  using boost::multiprecision::ldexp;
  const std::size_t n = xs.size();
  mass_exact::fan_integers<I> f;
#if defined(__SIZEOF_INT128__)
  if (bits <= 61 && n <= 64) {  // D-MASS-38
    std::int64_t nx[64], ny[64];
    auto small = [e](const short_value& s) {
      const std::int64_t r =
          std::int64_t(s.magnitude << unsigned(s.exponent == LONG_MAX ? 0 : s.exponent - e));  // below 2^61
      return s.negative ? -r : r;
    };
    for (std::size_t i = 0; i < n; ++i) {
      nx[i] = small(xs[i]);
      ny[i] = small(ys[i]);
    }
    f = narrow_fan_sums<I>(std::span<const std::int64_t>(nx, n), std::span<const std::int64_t>(ny, n));
  } else
#endif
  {
    auto integer = [e](const short_value& s) {
      I r = s.magnitude;
      r <<= unsigned(s.exponent == LONG_MAX ? 0 : s.exponent - e);
      return s.negative ? I(-r) : r;
    };
    const I ox = integer(xs[0]), oy = integer(ys[0]);
    f = mass_exact::integer_fan_sums<I>(
        n, ox, oy, [&](std::size_t i) { return integer(xs[i]); }, [&](std::size_t i) { return integer(ys[i]); });
  }
  // Exact conversions (at most P - 1 bits) and exact scalings.
  out.twice_area = exact_in<W>(f.twice_area, int(2 * e));
  out.first_x = exact_in<W>(f.first_x, int(3 * e));
  out.first_y = exact_in<W>(f.first_y, int(3 * e));
  out.second = exact_in<W>(f.second, int(4 * e));
}

// D-MASS-20: the fan sums of D-MASS-1..3 about v0 as the accumulator W
// computes them (polygon_fan_sums), when every coordinate has a significand
// of at most 64 bits and every intermediate integer fits in P - 1 bits (P the
// smaller of W's precision and fixed_bits); false otherwise (the caller then
// runs the accumulator).
template <class T, class W>
bool exact_fan_sums(std::span<const vec2<T>> v, sums<W>& out) {
  using boost::multiprecision::ldexp;
  const std::size_t n = v.size();
  if (n < 3 || n > (std::size_t(1) << 20)) return false;
  std::vector<short_value> xs(n), ys(n);
  long e = LONG_MAX;
  for (std::size_t i = 0; i < n; ++i) {
    if (!split_short(v[i].x, xs[i]) || !split_short(v[i].y, ys[i])) return false;
    e = std::min(e, std::min(xs[i].exponent, ys[i].exponent));
  }
  if (e == LONG_MAX || e < -(1L << 18) || e > (1L << 18)) return false;  // all zero, or far exponents
  // The integers X_i = x_i / 2^e have at most `bits` bits; so has |d_i| <= 2 max |X_i| + 1.
  long bits = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (const short_value* s : {&xs[i], &ys[i]})
      if (s->magnitude != 0) bits = std::max(bits, long(std::bit_width(s->magnitude)) + (s->exponent - e));
  const long d_bits = bits + 1;
  const long n_bits = long(std::bit_width(12 * n));  // 12 n D^4 bounds every node of degree 4
  const long precision = std::min<long>(std::numeric_limits<W>::digits, fixed_bits);
  if (4 * d_bits + n_bits > precision - 1) return false;
  if (4 * d_bits + n_bits <= narrow_bits - 1) integer_sums<fixed_int<320>>(xs, ys, e, bits, out);
  else integer_sums<fixed_int<512>>(xs, ys, e, bits, out);
  return true;
}

}  // namespace rigidref::detail::mass_wide_sums

#include "rigidref/detail/fp_end.hpp"
