// mp50 / mp100 inputs read from their binary representation (issue 28 item 10):
// the exact rational of a coordinate without to_exact's 32-bit peeling, and a
// double with a proved bound on its distance to the coordinate, so that the
// filter of filter.hpp (D-GJK-13) can decide signs of mp inputs in double
// (D-GJK-25). Only for cpp_bin_float numbers; the builtin types have their
// own routes.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/detail/collision_common.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/scalar.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <span>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// How often the mp route's steps proved their answer in this thread (for
// tests and the report; the answers never depend on them).
struct mp_route_counters {
  std::uint64_t containment = 0, separation = 0, narrow_rounding = 0, frame_values = 0, epa_axis = 0,
                sqrt_proved = 0, support = 0, loop = 0, loop_in_T = 0, epa_loop = 0;
};
inline mp_route_counters& mp_route_stats() {
  static thread_local mp_route_counters c;
  return c;
}

template <class T>
struct is_cpp_bin_float : std::false_type {};
template <unsigned D>
struct is_cpp_bin_float<bmp::number<bmp::cpp_bin_float<D>, bmp::et_off>> : std::true_type {};
template <class T>
inline constexpr bool is_cpp_bin_float_v = is_cpp_bin_float<T>::value;

// The significand of a finite nonzero cpp_bin_float x without its z trailing
// zero bits (|x| = m 2^(z + exponent - bit_count + 1), m odd): read from one
// 64-bit window when its significant bits fit in one (a double's do), which
// needs no heap allocation, else limb by limb.
template <class T>
big_int mp_odd_significand(const T& x, unsigned& z) {
  using B = typename T::backend_type;
  const auto& bits = x.backend().bits();
  const unsigned n = bits.size();
  const auto* limbs = bits.limbs();
  unsigned j0 = 0;
  while (j0 + 1 < n && limbs[j0] == 0) ++j0;
  z = 64 * j0 + static_cast<unsigned>(std::countr_zero(static_cast<std::uint64_t>(limbs[j0])));
  constexpr unsigned top = B::bit_count - 1;  // the significand's leading bit
  if (top - z < 64) {
    const unsigned sh = z % 64;
    std::uint64_t w = static_cast<std::uint64_t>(limbs[j0]) >> sh;
    if (sh != 0 && j0 + 1 < n) w |= static_cast<std::uint64_t>(limbs[j0 + 1]) << (64 - sh);
    return big_int(w);
  }
  big_int m = 0;
  for (unsigned j = n; j-- > 0;) {
    m <<= 64;
    m += static_cast<std::uint64_t>(limbs[j]);
  }
  m >>= z;
  return m;
}

// The rational of a finite nonzero cpp_bin_float from its odd significand
// (mp_odd_significand): the same rational as to_exact(x) (rationals are
// normalised).
template <class T>
exact mp_to_exact(const T& x) {
  static_assert(is_cpp_bin_float_v<T>);
  using std::isfinite;
  if (!isfinite(x) || x == 0) return to_exact(x);
  using B = typename T::backend_type;
  unsigned low = 0;
  const big_int m = mp_odd_significand(x, low);
  const long p = static_cast<long>(x.backend().exponent()) - (static_cast<long>(B::bit_count) - 1) + low;
  exact q = p >= 0 ? exact(big_int(m << p)) : exact(m, big_int(1) << (-p));
  return x.backend().sign() ? exact(-q) : q;
}

template <class T>
epoly mp_exact_points(std::span<const vec2<T>> v) {
  epoly out;
  out.reserve(v.size());
  for (const auto& p : v) out.push_back({mp_to_exact(p.x), mp_to_exact(p.y)});
  return out;
}

// x as a filtered double (D-GJK-25): d = x's significand truncated to 53 bits,
// e = 2^(E - 52) with E the exponent of x's leading bit, so |x - d| < e
// (and e <= 2^-52 |d|). False (no proof) for non-finite x or |x| outside
// [2^-1000, 2^1000], where d or e would leave double's normal range.
template <class T>
bool mp_filtered_input(const T& x, fv<double>& out) {
  static_assert(is_cpp_bin_float_v<T>);
  using B = typename T::backend_type;
  static_assert(B::bit_count > 64);
  // Zero, infinities and NaN by cpp_bin_float's reserved exponents (no
  // comparison against a temporary T: most of this function's time).
  const auto exponent = x.backend().exponent();
  if (exponent == B::exponent_zero) {
    out = {0.0, 0.0};
    return true;
  }
  if (exponent == B::exponent_infinity || exponent == B::exponent_nan) return false;
  const long E = static_cast<long>(exponent);
  if (E < -1000 || E > 1000) return false;
  // The top 53 bits of the significand: its top bit is bit bit_count - 1.
  const auto& bits = x.backend().bits();
  constexpr unsigned top = B::bit_count - 1;
  constexpr unsigned limb_bits = 64;
  const unsigned hi_limb = top / limb_bits, hi_pos = top % limb_bits;
  const std::uint64_t l1 = static_cast<std::uint64_t>(bits.limbs()[hi_limb]);
  const std::uint64_t l0 = static_cast<std::uint64_t>(bits.limbs()[hi_limb - 1]);
  // 128-bit window with the leading bit at position 64 + hi_pos; keep 53 bits.
  const unsigned shift = 64 + hi_pos - 52;  // right shift of the window
  std::uint64_t m;
  if (shift >= 64)
    m = l1 >> (shift - 64);
  else
    m = (l1 << (64 - shift)) | (l0 >> shift);
  m &= (std::uint64_t(1) << 53) - 1;
  // 2^(E - 52) exactly: from its bits when normal, else ldexp.
  const double scale = E - 52 >= -1022 ? std::bit_cast<double>(static_cast<std::uint64_t>(E - 52 + 1023) << 52)
                                       : std::ldexp(1.0, static_cast<int>(E - 52));
  const double d = static_cast<double>(m) * scale;  // exact: 53 bits, |d| >= 2^-1000, normal
  out = {x.backend().sign() ? -d : d, scale};
  return true;
}

template <class T>
bool mp_filtered_point(const vec2<T>& p, fvec<double>& out) {
  return mp_filtered_input(p.x, out.x) && mp_filtered_input(p.y, out.y);
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
