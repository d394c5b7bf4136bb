// The values of an mp GJK query from an integer frame instead of rationals
// (D-GJK-26): the input coordinates involved as integers times one power of
// two, the closest pair or the common point as quotients of integers, and
// each quotient rounded once, correctly (no gcd anywhere). The same rationals
// as the exact route's, rounded the same way, so the same bits.
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/detail/collision_common.hpp"
#include "rigidref/detail/mp_inputs.hpp"
#include "rigidref/detail/mp_round.hpp"
#include "rigidref/detail/mp_sqrt.hpp"

#include <array>
#include <bit>
#include <limits>
#include <optional>
#include <span>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// round_quotient's steps in the integer type I (big_int, or mp_small_int
// when the operands are small: the same integers, so the same result,
// without heap allocation); false, with nothing computed, when a shifted
// operand would reach `room` bits. D-GJK-26
template <class R, class I>
bool round_quotient_in(I num, I den, long e2, long room, R& out) {
  using std::ldexp;
  using boost::multiprecision::ldexp;
  if (num == 0) {
    out = R(0);
    return true;
  }
  bool negative = num < 0;
  if (num < 0) num = -num;
  if (den < 0) {
    den = -den;
    negative = !negative;
  }
  const int p = std::numeric_limits<R>::digits;
  const long min_exp = std::numeric_limits<R>::min_exponent - 1;
  const long max_exp = std::numeric_limits<R>::max_exponent - 1;
  const long bn = static_cast<long>(msb(num)), bd = static_cast<long>(msb(den));
  // floor(log2(num / den)) + e2.
  long e = bn - bd;
  if ((e >= 0 ? bd + e : bn - e) + 1 >= room) return false;
  const bool at_least = e >= 0 ? num >= (den << e) : (num << (-e)) >= den;
  e = (at_least ? e : e - 1) + e2;
  if (e > max_exp) {
    out = negative ? -std::numeric_limits<R>::infinity() : std::numeric_limits<R>::infinity();
    return true;
  }
  const long ulp_exp = (e < min_exp ? min_exp : e) - (p - 1);
  // m = floor(num / den * 2^(e2 - ulp_exp)).
  const long shift = e2 - ulp_exp;
  if ((shift >= 0 ? bn + shift : bd - shift) + 2 >= room) return false;
  I m;
  if (den == 1) {  // a dyadic value: the same m and remainder test by shifts
    const unsigned drop = shift < 0 ? static_cast<unsigned>(-shift) : 0u;
    m = shift >= 0 ? I(num << shift) : I(num >> drop);
    if (drop > 0) {
      const bool half = bit_test(num, drop - 1);
      const bool rest = lsb(num) < drop - 1;
      if (half && (rest || (m & 1) != 0)) m += 1;
    }
  } else {
    if (shift >= 0) num <<= shift;
    else den <<= -shift;
    m = num / den;
    const I twice_rem = (num - m * den) * 2;
    if (twice_rem > den || (twice_rem == den && (m & 1) != 0)) m += 1;
  }
  if (m == 0) {
    out = negative ? R(-0.0) : R(0);
    return true;
  }
  R result;
  if constexpr (is_cpp_bin_float_v<R>) {
    if (msb(m) == static_cast<unsigned>(p - 1))
      result = mp_from_significand<R>(m, ulp_exp);  // p bits: written in directly
    else
      result = ldexp(R(m), static_cast<int>(ulp_exp));  // 2^p after a carry, or fewer bits: exact
  } else {
    result = ldexp(mp_exact_integer<R>(big_int(m)), static_cast<int>(ulp_exp));
  }
  out = negative ? R(-result) : result;
  return true;
}

// num / den * 2^e2 rounded to nearest, ties to even, in R (a binary floating
// type): round_to<R> of that rational, step for step (its result depends only
// on the value), without forming the rational. den != 0.
template <class R>
R round_quotient(const big_int& num, const big_int& den, long e2) {
  R out;
  // At most 6 limbs each on 512 bits, at most 14 on 1024: every shift is
  // checked against the room (500, 1000); a refusal takes the next width.
  if (num.backend().size() <= 6 && den.backend().size() <= 6 &&
      round_quotient_in<R, mp_tiny_int>(mp_tiny_int(num), mp_tiny_int(den), e2, 500, out))
    return out;
  if (num.backend().size() <= 14 && den.backend().size() <= 14 &&
      round_quotient_in<R, mp_small_int>(mp_small_int(num), mp_small_int(den), e2, 1000, out))
    return out;
  round_quotient_in<R, big_int>(num, den, e2, std::numeric_limits<long>::max() / 4, out);
  return out;
}

// Coordinates of mp values as integers X with x = X 2^k (one k for all):
// the integer of each finite value of `xs` in one frame; false when a value
// is not finite or the exponents spread over more than 4096 bits (then the
// caller takes the rational route).
template <class T, std::size_t N>
bool mp_to_frame(const std::array<const T*, N>& xs, std::array<big_int, N>& out, long& k) {
  using std::isfinite;
  using B = typename T::backend_type;
  std::array<long, N> low{};
  long lo = std::numeric_limits<long>::max(), hi = std::numeric_limits<long>::min();
  for (std::size_t i = 0; i < N; ++i) {
    const T& x = *xs[i];
    if (!isfinite(x)) return false;
    if (x == 0) {
      out[i] = 0;
      continue;
    }
    unsigned z = 0;
    big_int m = mp_odd_significand(x, z);
    low[i] = static_cast<long>(x.backend().exponent()) - (static_cast<long>(B::bit_count) - 1) + z;
    out[i] = x.backend().sign() ? big_int(-m) : m;
    lo = std::min(lo, low[i]);
    hi = std::max(hi, low[i]);
  }
  if (lo == std::numeric_limits<long>::max()) lo = hi = 0;  // all zero
  if (hi - lo > 4096) return false;
  for (std::size_t i = 0; i < N; ++i)
    if (out[i] != 0) out[i] <<= (low[i] - lo);
  k = lo;
  return true;
}

// The separated pair of two polygons named by features fa, fb (D-GJK-7, as in
// mp_pair_of_features), without radii: distance and closest points rounded as
// distance_from_core rounds them from the exact pair (D-GJK-8, D-GJK-9 with
// ra = rb = 0): distance = RN_T(sqrt_W(RN_W(d2)) - 0 - 0), points RN_T(p),
// RN_T(q). With `normal`, also EPA's unit normal of n = q - p as unit_rounded
// rounds it (D-EPA-21). False when the frame is refused.
template <class T>
bool mp_separated_values(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const feature& fa,
                         const feature& fb, T& distance, vec2<T>& pa, vec2<T>& pb, vec2<T>* normal = nullptr) {
  using A = accumulator<T>;
  using W = typename A::type;
  // The points: v (a vertex), and either a vertex w or an edge [e0, e1].
  const bool edge = fa.edge || fb.edge;
  const bool vertex_on_a = !fa.edge;
  const vec2<T>& v = vertex_on_a ? a[fa.i] : b[fb.i];
  std::span<const vec2<T>> other = vertex_on_a ? b : a;
  const std::size_t oi = vertex_on_a ? fb.i : fa.i;
  const vec2<T>& w0 = other[oi];
  const vec2<T>& w1 = other[(oi + 1) % other.size()];
  std::array<big_int, 6> X;
  long k = 0;
  if (!mp_to_frame<T, 6>({&v.x, &v.y, &w0.x, &w0.y, &w1.x, &w1.y}, X, k)) return false;
  const big_int vx = X[0], vy = X[1];
  // The point on the other shape as (ox, oy) / L.
  big_int ox = X[2], oy = X[3], L = 1;
  if (edge) {
    const big_int ex = X[4] - X[2], ey = X[5] - X[3];
    L = ex * ex + ey * ey;
    const big_int t = (vx - X[2]) * ex + (vy - X[3]) * ey;  // t / L in (0, 1)
    ox = X[2] * L + t * ex;
    oy = X[3] * L + t * ey;
  }
  const big_int nx = ox - vx * L, ny = oy - vy * L;  // (other - v) L
  const big_int N2 = nx * nx + ny * ny, L2 = L * L;
  // The W route's square root, formed only when D-EPA-22 does not decide.
  std::optional<W> len;
  auto root = [&]() -> const W& {
    if (!len) len = A::sqrt(round_quotient<W>(N2, L2, 2 * k));
    return *len;
  };
  if (!mp_sqrt_quotient<T>(N2, L2, 2 * k, distance))  // D-EPA-22
    distance = round_accumulated<T>(root() - A::from(T(0)) - A::from(T(0)));
  if (normal) {  // n = q - p = +-(nx, ny) / L: RN_T(RN_W(n_i) / sqrt_W(RN_W(|n|^2)))
    const big_int sx = vertex_on_a ? nx : big_int(-nx), sy = vertex_on_a ? ny : big_int(-ny);
    // sign(x) |x| / sqrt(N2) (D-EPA-22): both candidates from one reciprocal
    // root of N2 (mp_shared_roots), each with its own test.
    std::array<T, 2> shared;
    std::array<bool, 2> proved{};
    mp_shared_roots<T, 2>({&sx, &sy}, N2, {0, 0}, shared, proved);
    auto unit = [&](const big_int& x, std::size_t i) {
      if (x == 0) return T(0);
      if (proved[i]) return x < 0 ? T(-shared[i]) : shared[i];
      T r;
      if (mp_sqrt_quotient<T>(big_int(x * x), N2, 0, r)) return x < 0 ? T(-r) : r;
      return round_accumulated<T>(round_quotient<W>(x, L, k) / root());
    };
    *normal = {unit(sx, 0), unit(sy, 1)};
  }
  // RN_T of the vertex is the vertex (+0 for a zero, as round_to gives).
  const vec2<T> rv{v.x == 0 ? T(0) : v.x, v.y == 0 ? T(0) : v.y};
  const vec2<T> ro{round_quotient<T>(ox, L, k), round_quotient<T>(oy, L, k)};
  pa = vertex_on_a ? rv : ro;
  pb = vertex_on_a ? ro : rv;
  return true;
}

// The common point of a triangle that strictly contains the origin
// (barycentric_common, D-GJK-6): per coordinate X / D with c_k =
// cross(w_k+1, w_k+2), D = c_0 + c_1 + c_2, X = sum c_k a_k, rounded once to T.
template <class T>
bool mp_common_point(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const vertex_pairs& idx,
                     vec2<T>& out) {
  if (idx.size() != 3) return false;
  std::array<big_int, 12> X;
  long k = 0;
  const vec2<T>&a0 = a[idx[0].first], &a1 = a[idx[1].first], &a2 = a[idx[2].first];
  const vec2<T>&b0 = b[idx[0].second], &b1 = b[idx[1].second], &b2 = b[idx[2].second];
  if (!mp_to_frame<T, 12>({&a0.x, &a0.y, &a1.x, &a1.y, &a2.x, &a2.y, &b0.x, &b0.y, &b1.x, &b1.y, &b2.x, &b2.y}, X, k))
    return false;
  std::array<big_int, 3> wx, wy;
  for (std::size_t i = 0; i < 3; ++i) {
    wx[i] = X[2 * i] - X[6 + 2 * i];
    wy[i] = X[2 * i + 1] - X[6 + 2 * i + 1];
  }
  std::array<big_int, 3> c;
  for (std::size_t i = 0; i < 3; ++i) {
    const std::size_t j = (i + 1) % 3, l = (i + 2) % 3;
    c[i] = wx[j] * wy[l] - wy[j] * wx[l];
  }
  const big_int D = c[0] + c[1] + c[2];
  if (D == 0) return false;
  const big_int Xx = c[0] * X[0] + c[1] * X[2] + c[2] * X[4];
  const big_int Xy = c[0] * X[1] + c[1] * X[3] + c[2] * X[5];
  out = {round_quotient<T>(Xx, D, k), round_quotient<T>(Xy, D, k)};
  return true;
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
