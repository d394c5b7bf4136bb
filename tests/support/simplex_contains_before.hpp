// exact_simplex_contains as it was before D-GJK-31 (commit 35e317e): every
// sign and ratio on cpp_rational. Kept as the reference of the differential
// test in tests/collision_oracle_frames_test.cpp; not a second implementation
// in use.
#pragma once

#include "rigidref/detail/containment.hpp"

#include <vector>

namespace simplex_contains_before {

using rigidref::exact;
using rigidref::detail::containment;
using rigidref::detail::epoly;
using rigidref::detail::evec;
using rigidref::detail::vertex_pairs;

inline containment exact_simplex_contains(const epoly& A, const epoly& B, const vertex_pairs& idx) {
  using rigidref::orientation;
  using rigidref::detail::is_zero_vec;
  containment out;
  std::vector<evec> w;
  for (const auto& [i, j] : idx) w.push_back(A[i] - B[j]);
  const evec origin{};
  if (w.size() == 3) {
    const exact D = cross(w[1] - w[0], w[2] - w[0]);
    if (D != 0) {
      const int sd = D > 0 ? 1 : -1;
      bool inside = true, strict = true;
      for (int k = 0; k < 3; ++k) {
        const int s = orientation(w[static_cast<std::size_t>(k)], w[static_cast<std::size_t>((k + 1) % 3)], origin);
        if (s == -sd) inside = false;
        if (s == 0) strict = false;
      }
      if (inside) {
        const exact l0 = cross(w[1], w[2]) / D, l1 = cross(w[2], w[0]) / D, l2 = cross(w[0], w[1]) / D;
        out.contains = true;
        out.strict = strict;
        out.common = l0 * A[idx[0].first] + l1 * A[idx[1].first] + l2 * A[idx[2].first];
        return out;
      }
      return out;
    }
  }
  for (std::size_t i = 0; i < w.size(); ++i)
    for (std::size_t j = i; j < w.size(); ++j) {
      const evec& wi = w[i];
      const evec& wj = w[j];
      if (cross(wi, wj) != 0 || dot(wi, wj) > 0) continue;
      if (i == j || wi == wj) {
        if (!is_zero_vec(wi)) continue;
        out.contains = true;
        out.common = A[idx[i].first];
        return out;
      }
      const exact t = dot(-wi, wj - wi) / length_squared(wj - wi);
      out.contains = true;
      out.common = A[idx[i].first] + t * (A[idx[j].first] - A[idx[i].first]);
      return out;
    }
  return out;
}

}  // namespace simplex_contains_before
