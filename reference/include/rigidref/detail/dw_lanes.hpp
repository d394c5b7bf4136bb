// Double words in the two lanes of an SSE register, with FMA: the x and y
// coordinates of a value computed side by side, each lane the scalar
// operations of double_word.hpp in the same order (TwoSum, FastTwoSum,
// DWTimesDW's FMA algorithm, AccurateDWPlusDW), so each lane is the scalar
// value bit for bit. For code compiled for the "fma" target and called only
// where the processor has it (available()). D-EPA-28, D-EPA-29
#pragma once

#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define RIGIDREF_DW_LANES 1
#include <immintrin.h>

#include <cstdint>
#include <limits>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail::dw_lanes {

typedef double v2d __attribute__((vector_size(16)));
typedef long long v2m __attribute__((vector_size(16)));             // comparison masks
typedef unsigned long long v2u __attribute__((vector_size(16)));    // encodings, wrapping

// Whether the processor has FMA (always, in a build for a target with it).
inline bool available() {
#if defined(__FMA__)
  return true;
#else
  static const bool has = __builtin_cpu_supports("fma");
  return has;
#endif
}

#define RIGIDREF_LANE __attribute__((target("fma"), always_inline)) inline

struct dw2 {
  v2d hi, lo;
};

RIGIDREF_LANE v2d splat(double x) { return v2d{x, x}; }
RIGIDREF_LANE v2d vabs(v2d x) {
  const v2m magnitude = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
  return (v2d)((v2m)x & magnitude);
}
RIGIDREF_LANE v2m finite(v2d x) { return vabs(x) <= splat(std::numeric_limits<double>::max()); }

// eft::two_sum and eft::fast_two_sum per lane.
RIGIDREF_LANE dw2 two_sum(v2d a, v2d b) {
  const v2d s = a + b;
  const v2d ap = s - b;
  const v2d bp = s - ap;
  const v2d da = a - ap;
  const v2d db = b - bp;
  return {s, da + db};
}
RIGIDREF_LANE dw2 fast_two_sum(v2d a, v2d b) {
  const v2d s = a + b;
  const v2d z = s - a;
  return {s, b - z};
}

// operator*(x, y) of double_word.hpp with FMA (D-EFT-4), per lane; the
// operands' order matters (the FMAs are not symmetric).
RIGIDREF_LANE dw2 mul(const dw2& x, const dw2& y) {
  const v2d ch = x.hi * y.hi;
  const v2d cl1 = (v2d)_mm_fmsub_pd((__m128d)x.hi, (__m128d)y.hi, (__m128d)ch);  // fma(x.hi, y.hi, -ch)
  const v2d tl0 = x.lo * y.lo;
  const v2d tl1 = (v2d)_mm_fmadd_pd((__m128d)x.hi, (__m128d)y.lo, (__m128d)tl0);
  const v2d cl2 = (v2d)_mm_fmadd_pd((__m128d)x.lo, (__m128d)y.hi, (__m128d)tl1);
  const v2d cl3 = cl1 + cl2;
  return fast_two_sum(ch, cl3);
}

// operator+(x, y) of double_word.hpp (AccurateDWPlusDW, D-EFT-3), per lane.
RIGIDREF_LANE dw2 add(const dw2& x, const dw2& y) {
  const dw2 s = two_sum(x.hi, y.hi);
  const dw2 t = two_sum(x.lo, y.lo);
  const v2d c = s.lo + t.hi;
  const dw2 v = fast_two_sum(s.hi, c);
  const v2d w = t.lo + v.lo;
  return fast_two_sum(v.hi, w);
}

// semi_static::half_gap per lane: the smaller half gap to r's neighbours, 0
// when the neighbour away from zero is not finite.
RIGIDREF_LANE v2d half_gap(v2d r) {
  const v2u bits = (v2u)r, one = {1, 1};  // unsigned: -0 - 1 wraps, as in the scalar code
  const v2d away = (v2d)(bits + one), toward = (v2d)(bits - one);
  const v2d g_away = vabs(away - r), g_toward = vabs(r - toward);
  const v2d g = (v2d)(((v2m)g_away & (g_away < g_toward)) | ((v2m)g_toward & ~(g_away < g_toward))) / 2;
  return (v2d)((v2m)g & finite(away));
}

// semi_static::edge_rounds_to per lane (r = RN(y) proved with D-EPA-23's
// margin): the lanes' verdicts (-1 or 0) and r.
RIGIDREF_LANE v2m edge_rounds_to(const dw2& y, v2d delta, v2d& r) {
  constexpr double u = 0x1p-53, up = 1 + 0x1p-40;
  r = y.hi + y.lo;
  const v2d h = half_gap(r);
  const v2d d = (y.hi - r) + y.lo;
  return finite(r) & (r != 0) & (((vabs(d) + delta) * (1 + 16 * u)) * up < h);
}

// semi_static::dw_rounds_to per lane (r = RN(y) proved with every real
// within delta of y): the lanes' verdicts and r.
RIGIDREF_LANE v2m rounds_to(const dw2& y, v2d delta, v2d& r) {
  constexpr double u = 0x1p-53, up = 1 + 0x1p-40;
  r = y.hi + y.lo;
  const v2d h = half_gap(r);
  const v2d d = (y.hi - r) + y.lo;
  return finite(r) & (r != 0) & ((vabs(d) * (1 + 4 * u) + delta) * up < h);
}

// semi_static::in_band per lane.
RIGIDREF_LANE v2m in_band(v2d x) {
  const v2d m = vabs(x);
  return (m >= 0x1p-800) & (m <= 0x1p800);
}

}  // namespace rigidref::detail::dw_lanes

#include "rigidref/detail/fp_end.hpp"
#endif
