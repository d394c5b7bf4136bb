// exact_simplex_contains for mp inputs, decided in double when the filter
// proves it (D-GJK-25): the signs of filtered_simplex_contains (D-GJK-14), on
// doubles within a proved distance of the mp coordinates.
#pragma once

#include "rigidref/detail/collision_common.hpp"
#include "rigidref/detail/mp_inputs.hpp"
#include "rigidref/filter.hpp"

#include <array>
#include <span>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// 1 when the triangle of Minkowski points is proved to contain the origin
// strictly (then exact_simplex_contains answers contains and strict), 0 when
// it is proved not to contain it (a non-flat triangle, a side proved
// negative), -1 when not proved (a point, a segment, a sign not proved, an
// input out of range). The filter counters are not touched: the mp route
// reports no filter statistics.
template <class T>
int mp_filtered_simplex_contains(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const vertex_pairs& idx) {
  if (idx.size() != 3) return -1;
  std::array<fvec<double>, 3> w;
  for (std::size_t k = 0; k < 3; ++k) {
    fvec<double> p, q;
    if (!mp_filtered_point(a[idx[k].first], p) || !mp_filtered_point(b[idx[k].second], q)) return -1;
    w[k] = fsub(p, q);
  }
  auto fcross = [](const fvec<double>& p, const fvec<double>& q) { return fsub(fmul(p.x, q.y), fmul(p.y, q.x)); };
  const int sd = fsign(fcross(fsub(w[1], w[0]), fsub(w[2], w[0])));
  if (sd == 0) return -1;
  bool inside = true;
  for (std::size_t k = 0; k < 3; ++k) {
    const int s = fsign(fcross(w[k], w[(k + 1) % 3]));  // orientation(w_k, w_k+1, origin)
    if (s == 0) return -1;
    if (s == -sd) inside = false;
  }
  return inside ? 1 : 0;
}

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
