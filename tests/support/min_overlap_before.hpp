// exact_min_overlap as it was before D-GJK-28 (commit f7d0d36): every axis,
// uphill walk and comparison on cpp_rational. Kept as the reference of the
// differential test in tests/collision_oracle_frames_test.cpp; not a second
// implementation in use.
#pragma once

#include "rigidref/detail/containment.hpp"

#include <stdexcept>
#include <vector>

namespace min_overlap_before {

using rigidref::exact;
using rigidref::detail::axis_overlap;
using rigidref::detail::epoly;
using rigidref::detail::evec;

// The outward normals of A's edges and the negated outward normals of B's
// edges: the edge normals of A - B (D-GJK-11).
inline std::vector<evec> minkowski_axes(const epoly& A, const epoly& B) {
  std::vector<evec> out;
  if (A.size() > 1)
    for (std::size_t i = 0; i < A.size(); ++i) {
      const evec e = A[(i + 1) % A.size()] - A[i];
      out.push_back({e.y, exact(-e.x)});
    }
  if (B.size() > 1)
    for (std::size_t i = 0; i < B.size(); ++i) {
      const evec e = B[(i + 1) % B.size()] - B[i];
      out.push_back({exact(-e.y), e.x});
    }
  return out;
}

inline axis_overlap exact_min_overlap(const epoly& A, const epoly& B) {
  const auto axes = minkowski_axes(A, B);
  if (axes.empty()) throw std::logic_error("exact_min_overlap: two points have no axis");
  bool have = false;
  axis_overlap best;
  for (const auto& n : axes) {
    const axis_overlap c = rigidref::detail::overlap_along(A, B, n, 0, 0);
    if (!have || rigidref::detail::smaller_overlap(c, best)) {
      have = true;
      best = c;
    }
  }
  return best;
}

}  // namespace min_overlap_before
