// Rounding once, without rationals, when provably the same (D-GJK-16): the
// test that lets a value evaluated in double words stand for the exact path's
// rounded value (detail/separated_values.hpp, detail/epa_values.hpp).
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/detail/hot.hpp"
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// ---- rounding once, without rationals, when provably the same (D-GJK-16) ------
//
// A value the exact path rounds once (a distance, a coordinate, a component
// of a unit normal) is evaluated in double words of the input coordinates
// (accumulator<T>::type) with a bound on its error; the rounded T value is
// used when the bound, widened by the exact path's own double-word error
// where it has one, proves that the exact path gives the same T value.

// nextafter(r, +-infinity) for a finite nonzero r; for float and double a
// step of the bit pattern (the library call was 2-5 % of a query).
template <class T>
RIGIDREF_HOT T next_representable(const T& r, bool up) {
  if constexpr ((std::is_same_v<T, double> || std::is_same_v<T, float>) && std::numeric_limits<T>::is_iec559) {
    using U = std::conditional_t<std::is_same_v<T, double>, std::uint64_t, std::uint32_t>;
    U bits = std::bit_cast<U>(r);
    if ((r > 0) == up)
      ++bits;  // away from zero
    else
      --bits;  // toward zero
    return std::bit_cast<T>(bits);
  } else {
    using std::nextafter;
    return nextafter(r, up ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity());
  }
}

template <class T>
struct rounding_filter {
  using W = wider_t<T>;
  using DW = double_word<W>;
  static constexpr W u = std::numeric_limits<W>::epsilon() / 2;
  static constexpr W u2 = u * u;
  // Slack for the roundings in evaluating a bound in W (a few per bound).
  static constexpr W up = 1 + W(1) / W(1099511627776.0);  // 1 + 2^-40
  // A relative bound rho <= 2^-9 is taken of a computed value y~ (and of the
  // exact value it stands for: |y| <= |y~| (1 + rho)); 1.002 covers that
  // factor, the cross terms rho_1 rho_2 and the roundings of the bound.
  static constexpr W rel = W(1.002);
  // Double-word arithmetic keeps its relative error bounds away from
  // underflow and overflow: every nonzero intermediate must lie in [lo, hi].
  static W tiny() { return std::ldexp(std::numeric_limits<W>::min(), 2 * std::numeric_limits<W>::digits + 16); }
  static W huge() { return std::ldexp(std::numeric_limits<W>::max(), -16); }
  static bool in_range(const DW& x) {
    using std::abs;
    using std::isfinite;
    if (!isfinite(x.hi) || !isfinite(x.lo)) return false;
    const W m = abs(x.hi);
    return m == 0 ? x.lo == 0 : (m >= tiny() && m <= huge());
  }
  static bool is_zero(const DW& x) { return x.hi == 0 && x.lo == 0; }
  // x - y exactly (TwoSum of two W values; T values are W values).
  static DW diff(const T& x, const T& y) {
    const DW d = eft::two_sum(W(x), W(-W(y)));
    return {d.hi, d.lo == 0 ? W(0) : d.lo};
  }
  // The T value r with: every real within `delta` of y rounds to r. False when
  // that is not proved (y near a midpoint of T, or outside the safe range).
  static bool rounds_to(const DW& y, W delta, T& r) {
    using std::abs;
    using std::isfinite;
    if (filter_force_exact() || !in_range(y) || y.hi == 0 || !isfinite(delta)) return false;
    r = round_to_nearest<T>(y);
    if (!isfinite(r) || r == 0) return false;
    const T r_up = next_representable(r, true);
    const T r_dn = next_representable(r, false);
    if (!isfinite(r_up) || !isfinite(r_dn)) return false;
    const W rw = W(r);
    const W gap_up = W(r_up) - rw, gap_dn = rw - W(r_dn);  // exact
    const W half = (gap_up < gap_dn ? gap_up : gap_dn) / 2;
    const W d = (y.hi - rw) + y.lo;  // y.hi - rw exact (Sterbenz)
    return ((abs(d) * (1 + 4 * u) + delta) * up) < half;
  }
  // offset_rounded's coordinate x_i + s u_i for s != 0 (D-GJK-18, D-EPA-9 (6)):
  // x_i in double words with its own error ex and the exact path's error mx
  // in it, u_i a unit-vector component with relative error rho_u. The sum's
  // own error adds (rho_u + 8 u^2) |s u_i| + 4 u^2 |result|, the exact path's
  // 64 u^2 |s u_i| + 8 u^2 |result|.
  static bool offset_rounds_to(const DW& x, W ex, W mx, const DW& ui, W rho_u, const T& s, T& r) {
    using std::abs;
    const DW w = times(ui, W(s));
    const DW y = x + w;
    if (!in_range(w) || !in_range(y)) return false;
    const W delta = ex + (rho_u + 8 * u2) * abs(w.hi) + 4 * u2 * abs(y.hi);
    const W m = mx + 64 * u2 * abs(w.hi) + 8 * u2 * abs(y.hi);
    return rounds_to(y, (delta + m) * rel, r);
  }
};

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
