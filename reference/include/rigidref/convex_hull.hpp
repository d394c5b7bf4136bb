// Convex hull of a few points, counter-clockwise, without repeated or
// collinear points: Andrew's monotone chain with the exact orientation
// predicate (predicates.hpp) on the T coordinates. `pos(p)` gives a point's
// coordinates, so points that carry more (EPA's Minkowski points carry their
// vertex pair) keep it. Fewer than 3 distinct points come back sorted.
#pragma once

#include "rigidref/predicates.hpp"
#include "rigidref/vec2.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class P, class Pos>
std::vector<P> convex_hull_ccw(std::vector<P> pts, Pos pos) {
  std::sort(pts.begin(), pts.end(), [&](const P& p, const P& q) {
    return pos(p).x < pos(q).x || (pos(p).x == pos(q).x && pos(p).y < pos(q).y);
  });
  std::vector<P> u;  // one point per position, the first of equals
  for (const auto& p : pts)
    if (u.empty() || !(pos(u.back()) == pos(p))) u.push_back(p);
  if (u.size() < 3) return u;
  std::vector<P> h(2 * u.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < u.size(); ++i) {
    while (k >= 2 && orientation(pos(h[k - 2]), pos(h[k - 1]), pos(u[i])) <= 0) --k;
    h[k++] = u[i];
  }
  for (std::size_t i = u.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && orientation(pos(h[k - 2]), pos(h[k - 1]), pos(u[i - 1])) <= 0) --k;
    h[k++] = u[i - 1];
  }
  h.resize(k - 1);
  return h;
}

// The same hull into `out`, reusing its storage. Three points that turn (a
// GJK simplex, EPA's usual seed) skip the sort: the chain returns them
// counter-clockwise from the lexicographically smallest, written directly.
template <class P, class Pos>
void convex_hull_ccw_into(const std::vector<P>& pts, Pos pos, std::vector<P>& out) {
  if (pts.size() == 3) {
    const int o = orientation(pos(pts[0]), pos(pts[1]), pos(pts[2]));
    if (o != 0) {  // three distinct points, not collinear
      auto before = [&](const P& p, const P& q) {
        return pos(p).x < pos(q).x || (pos(p).x == pos(q).x && pos(p).y < pos(q).y);
      };
      std::size_t m = 0;
      for (std::size_t i = 1; i < 3; ++i)
        if (before(pts[i], pts[m])) m = i;
      const std::size_t n1 = (m + 1) % 3, n2 = (m + 2) % 3;  // a cycle of the same orientation o
      out.assign({pts[m], o > 0 ? pts[n1] : pts[n2], o > 0 ? pts[n2] : pts[n1]});
      return;
    }
  }
  out = convex_hull_ccw(pts, pos);
}

template <class T>
std::vector<vec2<T>> convex_hull_ccw(std::vector<vec2<T>> pts) {
  return convex_hull_ccw(std::move(pts), [](const vec2<T>& p) -> const vec2<T>& { return p; });
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
