// The simplicity test of require_simple_polygon (D-MASS-10) and its fast
// routes (D-MASS-17): an x-sweep that visits only the edge pairs whose
// x-extents overlap (every other pair fails segments_intersect's box test),
// and, for multiprecision and rational inputs that are all doubles, the same
// test on the double copy, where the filtered predicate decides almost
// every orientation in hardware. The decisions are those of the ordered
// O(n^2) scan: when the sweep finds a violation, the ordered scan runs to
// name the same first pair.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/detail/dyadic.hpp"
#include "rigidref/predicates.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// The first violation of D-MASS-10 (3, 4) in the order of the original scan:
// edge i's fold-back with edge i+1, then edge i against edges j > i+1.
struct simplicity_violation {
  enum kind_t { none, folds_back, intersect } kind = none;
  std::size_t i = 0, j = 0;
};

// Do the collinear neighbours a-b and b-c fold back onto each other? c lies
// on the ray from b through a: within segment ab, or a within segment bc.
template <class T>
bool folds_back(const vec2<T>& a, const vec2<T>& b, const vec2<T>& c) {
  return orientation(a, b, c) == 0 && (in_segment_box(a, b, c) || in_segment_box(b, c, a));
}

// Edges i and j (i < j) are not neighbours, cyclically.
inline bool non_adjacent_edges(std::size_t i, std::size_t j, std::size_t n) {
  return j >= i + 2 && !(i == 0 && j == n - 1);
}

// The original scan, O(n^2): the first violation in its order.
template <class T>
simplicity_violation first_violation(std::span<const vec2<T>> v) {
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i) {
    const vec2<T>& a = v[i];
    const vec2<T>& b = v[(i + 1) % n];
    if (folds_back(a, b, v[(i + 2) % n])) return {simplicity_violation::folds_back, i, (i + 1) % n};
    for (std::size_t j = i + 2; j < n; ++j)
      if (non_adjacent_edges(i, j, n) && segments_intersect(a, b, v[j], v[(j + 1) % n]))
        return {simplicity_violation::intersect, i, j};
  }
  return {};
}

// Is there any violation? The same set of decisions as first_violation, but
// only for the pairs whose closed x-extents overlap: for the others the box
// test of segments_intersect is false, whatever the order. D-MASS-17
template <class T>
bool any_violation(std::span<const vec2<T>> v) {
  using std::max;
  using std::min;
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i)
    if (folds_back(v[i], v[(i + 1) % n], v[(i + 2) % n])) return true;
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  auto lo = [&](std::size_t i) -> const T& { return min(v[i].x, v[(i + 1) % n].x); };
  auto hi = [&](std::size_t i) -> const T& { return max(v[i].x, v[(i + 1) % n].x); };
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return lo(a) < lo(b); });
  for (std::size_t s = 0; s < n; ++s) {
    const std::size_t e = order[s];
    const T& right = hi(e);
    for (std::size_t t = s + 1; t < n && !(right < lo(order[t])); ++t) {
      const std::size_t i = min(e, order[t]), j = max(e, order[t]);
      if (non_adjacent_edges(i, j, n) && segments_intersect(v[i], v[(i + 1) % n], v[j], v[(j + 1) % n]))
        return true;
    }
  }
  return false;
}

template <class T>
simplicity_violation find_violation(std::span<const vec2<T>> v) {
  if (!any_violation(v)) return {};
  return first_violation(v);
}

// d = x when the rational x is a double, without rational arithmetic:
// x = num / den in lowest terms is a double iff den = 2^k and num = +-m 2^z
// with m odd below 2^53 and m 2^(z-k) in double's range; ldexp builds it,
// and splitting the result back (exactly) shows whether it rounded. D-MASS-17
inline bool rational_as_double(const exact& x, double& d) {
  using boost::multiprecision::lsb;
  using boost::multiprecision::msb;
  const big_int num = numerator(x), den = denominator(x);
  if (num == 0) {
    d = 0;
    return true;
  }
  const unsigned long k = msb(den);
  if (lsb(den) != k) return false;  // not a power of two
  big_int m = num < 0 ? big_int(-num) : num;
  const unsigned long z = lsb(m);
  m >>= z;
  if (msb(m) >= 53) return false;  // more significant bits than a double holds
  const long e = long(z) - long(k);
  if (e < -1100 || e > 1100) return false;  // beyond double's range either way
  const unsigned long long odd = static_cast<unsigned long long>(m);
  d = std::ldexp(double(odd), int(e));  // exact unless it under- or overflows
  const split_value<double> back = split(d);
  if (!std::isfinite(d) || back.magnitude != odd || back.exponent != e) return false;
  if (num < 0) d = -d;
  return true;
}

// For a type wider than double (mp50, mp100, exact): the polygon as doubles
// when every coordinate is exactly a double, so that the predicates' double
// filter decides; false (and `out` unspecified) otherwise. D-MASS-17
template <class T>
bool exactly_doubles(std::span<const vec2<T>> v, std::vector<vec2<double>>& out) {
  static_assert(!std::is_floating_point_v<T>, "only for multiprecision and rational types");
  out.resize(v.size());
  auto one = [](const T& x, double& d) {
    if constexpr (is_exact_v<T>) {
      return rational_as_double(x, d);
    } else {
      d = static_cast<double>(x);
      return std::isfinite(d) && T(d) == x;
    }
  };
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!one(v[i].x, out[i].x) || !one(v[i].y, out[i].y)) return false;
  return true;
}

// The first violation of any polygon with at least 3 finite vertices.
template <class T>
simplicity_violation simplicity_test(std::span<const vec2<T>> v) {
  if constexpr (!std::is_floating_point_v<T>) {
    std::vector<vec2<double>> d;
    if (exactly_doubles(v, d)) return find_violation(std::span<const vec2<double>>(d));
  }
  return find_violation(v);
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
