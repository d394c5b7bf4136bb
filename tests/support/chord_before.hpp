// interior_by_chord as it was before D-GJK-30 (commit 35e317e): every sign
// and uphill walk on cpp_rational. Kept as the reference of the differential
// test in tests/collision_oracle_frames_test.cpp; not a second implementation
// in use.
#pragma once

#include "rigidref/detail/containment.hpp"

namespace chord_before {

using rigidref::exact;
using rigidref::detail::epoly;
using rigidref::detail::evec;
using rigidref::detail::vertex_pairs;

inline bool interior_by_chord(const epoly& A, const epoly& B, vertex_pairs& idx) {
  using rigidref::detail::exact_argmax;
  using rigidref::detail::is_zero_vec;
  for (std::size_t i = 0; i < idx.size(); ++i)
    for (std::size_t j = i + 1; j < idx.size(); ++j) {
      const evec wi = A[idx[i].first] - B[idx[i].second];
      const evec wj = A[idx[j].first] - B[idx[j].second];
      if (wi == wj || is_zero_vec(wi) || is_zero_vec(wj)) continue;
      if (cross(wi, wj) != 0 || dot(wi, wj) >= 0) continue;
      const evec e = wj - wi;
      const evec n{exact(-e.y), e.x};
      vertex_pairs extra;
      for (const evec& d : {n, evec{exact(-n.x), exact(-n.y)}}) {
        const std::size_t ka = exact_argmax(A, d, idx[i].first), kb = exact_argmax(B, -d, idx[i].second);
        if (!(dot(d, A[ka] - B[kb]) > 0)) return false;
        extra.push_back({ka, kb});
      }
      for (const auto& e2 : extra) idx.push_back(e2);
      return true;
    }
  return false;
}

}  // namespace chord_before
