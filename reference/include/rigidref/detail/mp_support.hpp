// support_index for mp50 / mp100 with its comparisons decided in double
// (issue 28 item 10): the mp values it compares are within a tiny proved
// distance of the exact ones, the doubles of the inputs of D-GJK-25 within a
// proved one, so a comparison proved on the doubles is the mp comparison's
// outcome. Any comparison not proved hands the whole search to
// support_index in T. D-GJK-27
#pragma once

#include "rigidref/detail/mp_inputs.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/support.hpp"

#include <cmath>
#include <limits>
#include <span>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// A bound on |RN_T((x1 - x0) dx + (y1 - y0) dy) - exact| for the value T
// computes (three roundings of T, each within 2^-p relative, p >= 113):
// 2^-160 times an upper bound of |x1 - x0| |dx| + |y1 - y0| |dy| from the
// filtered differences, plus 2 eta for the double scaling. D-GJK-27
inline double mp_dot_rounding(const fvec<double>& e, const fvec<double>& d) {
  using std::abs;
  const double m = ((abs(e.x.v) + e.x.e) * (abs(d.x.v) + d.x.e) + (abs(e.y.v) + e.y.e) * (abs(d.y.v) + d.y.e)) *
                   fconst<double>::up;
  // m 2^-160 as a product with an exact power of two: RN of the same real as
  // ldexp (a libm call, 4 % of an mp50 EPA query).
  return m * 0x1p-160 + 2 * fconst<double>::eta;
}

// support_index(v, d) (support.hpp: the first maximum of dot(v[i] - v[0], d)
// in T, against 0 for v[0]), every comparison proved in double, on n points
// given as filtered doubles by point(i, out) (false: out of D-GJK-25's
// range); false when a comparison is not proved. D-GJK-27
template <class Point>
bool mp_filtered_support_search(std::size_t n, Point&& point, const fvec<double>& d, std::size_t& out) {
  fvec<double> v0;
  if (!point(std::size_t{0}, v0)) return false;
  std::size_t best = 0;
  fv<double> best_value{0.0, 0.0};  // v[0]: exactly 0 in T too
  double best_round = 0;
  for (std::size_t i = 1; i < n; ++i) {
    fvec<double> vi;
    if (!point(i, vi)) return false;
    const fvec<double> e = fsub(vi, v0);
    const fv<double> value = fdot(e, d);
    const double round = mp_dot_rounding(e, d);
    const fv<double> diff = fsub(value, best_value);
    const fv<double> gap{diff.v, (diff.e + round + best_round) * fconst<double>::up};
    const int s = fsign(gap);
    if (s == 0) return false;
    if (s > 0) {
      best = i;
      best_value = value;
      best_round = round;
    }
  }
  out = best;
  ++mp_route_stats().support;
  return true;
}

// The search on the mp points themselves, each read as a filtered double.
template <class T>
bool mp_filtered_support_index(std::span<const vec2<T>> v, const fvec<double>& d, std::size_t& out) {
  static_assert(std::numeric_limits<T>::digits >= 113);
  return mp_filtered_support_search(
      v.size(), [&](std::size_t i, fvec<double>& p) { return mp_filtered_point(v[i], p); }, d, out);
}

// minkowski_support(a, b, d) for mp inputs, each search filtered when every
// comparison is proved, else support_index in T. D-GJK-27
template <class T>
minkowski_point<T> mp_minkowski_support(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const vec2<T>& d) {
  fvec<double> fd;
  std::size_t ia = 0, ib = 0;
  const bool have_d = !filter_force_exact() && mp_filtered_point(d, fd);
  if (!have_d || !mp_filtered_support_index(a, fd, ia)) ia = support_index(a, d);
  if (!have_d || !mp_filtered_support_index(b, fvec<double>{fneg(fd.x), fneg(fd.y)}, ib)) ib = support_index(b, vec2<T>(-d));
  return {a[ia] - b[ib], ia, ib};
}

// minkowski_support for EPA's loop: the filtered search for mp types
// (D-GJK-27), minkowski_support itself for every other type.
template <class T>
minkowski_point<T> any_minkowski_support(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const vec2<T>& d) {
  if constexpr (is_cpp_bin_float_v<T>)
    return mp_minkowski_support(a, b, d);
  else
    return minkowski_support(a, b, d);
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
