// Exact-polygon helpers shared by the collision tests (gjk_test.cpp,
// epa_test.cpp): exact distances to a convex polygon, the rounding bound of
// a point, and generators of small integer convex polygons full of exact
// coincidences (touching edges, shared vertices, collinear features).
#pragma once

#include "support/generators.hpp"

#include "rigidref/predicates.hpp"
#include "rigidref/sat.hpp"
#include "rigidref/support.hpp"
#include "rigidref/verify/collision_oracle.hpp"

#include <catch2/catch.hpp>
#include <rapidcheck.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// Component-wise: Catch's printer for vec2 of multiprecision types
// (support/matchers.hpp) trips a GCC 12 -Wrestrict false positive.
#define CHECK_VEC(a, b)          \
  do {                           \
    const auto va_ = (a);        \
    const auto vb_ = (b);        \
    CHECK(va_.x == vb_.x);       \
    CHECK(va_.y == vb_.y);       \
  } while (0)

namespace rigidref::testing::collision {

namespace gen = rigidref::testing::gen;

using EP = std::vector<vec2<exact>>;
using EV = vec2<exact>;

inline EP translate(EP v, const EV& t) {
  for (auto& p : v) p = p + t;
  return v;
}

template <class T>
EV ex(const vec2<T>& p) {
  return {to_exact(p.x), to_exact(p.y)};
}

inline exact eabs(const exact& x) { return x < 0 ? exact(-x) : x; }

// p inside or on a convex polygon of either orientation, exactly.
inline bool inside(const EV& p, const EP& poly) {
  int sign = 0;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const int o = orientation(poly[i], poly[(i + 1) % poly.size()], p);
    if (o == 0) continue;
    if (sign == 0) sign = o;
    if (o != sign) return false;
  }
  return true;
}

// Squared distance from p to a convex polygon (0 inside), exactly.
inline exact dist2_to_polygon(const EV& p, const EP& poly) {
  if (inside(p, poly)) return exact(0);
  exact best = -1;
  for (std::size_t i = 0; i < poly.size(); ++i) {
    const exact d = verify::point_segment_distance_squared(p, poly[i], poly[(i + 1) % poly.size()]);
    if (best < 0 || d < best) best = d;
  }
  return best;
}

// (eps (|x| + |y|))^2: a rounded exact point is within this of the point.
template <class T>
exact point_bound2(const vec2<T>& p) {
  const exact b = to_exact(epsilon<T>()) * (eabs(to_exact(p.x)) + eabs(to_exact(p.y)));
  return b * b;
}

template <class T>
convex_polygon<T> poly_of(const EP& v) {
  return make_convex_polygon(gen::to_type<T>(v));
}

inline bool is_convex_input(const EP& v) {
  try {
    (void)make_convex_polygon<exact>(v);
    return true;
  } catch (const invalid_input&) {
    return false;
  }
}

// Small integer polygons: the convex hull of 3 to 7 points with coordinates
// in [-r, r] about (cx, cy), r <= 8. Contacts between them are full of
// exact coincidences: touching edges, shared vertices, collinear features.
inline EP hull_of(EP v) {
  std::sort(v.begin(), v.end(), [](const EV& a, const EV& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  EP h(2 * v.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    while (k >= 2 && orientation(h[k - 2], h[k - 1], v[i]) <= 0) --k;
    h[k++] = v[i];
  }
  for (std::size_t i = v.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && orientation(h[k - 2], h[k - 1], v[i - 1]) <= 0) --k;
    h[k++] = v[i - 1];
  }
  h.resize(k > 0 ? k - 1 : 0);
  return h;
}

inline rc::Gen<EP> small_integer_polygon(int cx, int cy) {
  return rc::gen::suchThat(
      rc::gen::map(rc::gen::pair(rc::gen::inRange(1, 9),
                                 rc::gen::container<std::vector<std::pair<int, int>>>(
                                     7, rc::gen::pair(rc::gen::inRange(-8, 9), rc::gen::inRange(-8, 9)))),
                   [cx, cy](const std::pair<int, std::vector<std::pair<int, int>>>& in) {
                     EP v;
                     const int r = in.first;
                     const std::size_t count = 3 + static_cast<std::size_t>(r % 5);
                     for (std::size_t i = 0; i < count && i < in.second.size(); ++i)
                       v.push_back({exact(cx + in.second[i].first * r / 8), exact(cy + in.second[i].second * r / 8)});
                     return hull_of(v);
                   }),
      [](const EP& v) { return v.size() >= 3 && is_convex_input(v); });
}

// The generator's integer polygons are convex before their coordinates are
// truncated to integers; a few become reflex after it. Keep the convex ones,
// thinned to at most 16 vertices (a subset of a convex polygon's vertices is
// convex; the exact oracle is O((n + m)^2) and CI time matters).
inline rc::Gen<EP> convex_integer_polygon() {
  return rc::gen::suchThat(rc::gen::map(gen::integer_polygon(true),
                                        [](EP v) {
                                          const std::size_t step = (v.size() + 15) / 16;
                                          EP out;
                                          for (std::size_t i = 0; i < v.size(); i += step) out.push_back(v[i]);
                                          return out;
                                        }),
                           is_convex_input);
}

// Largest offset T represents exactly together with 2^21-sized integer polygons.
template <class T>
int max_offset() {
  return std::is_same_v<T, float> ? (1 << 22) : 100'000'000;
}

// Strictly convex, as sat.hpp requires (collinear vertices rejected).
inline bool sat_convex(const EP& v) {
  try {
    detail::require_convex(std::span<const vec2<exact>>(v), "polygon");
    return true;
  } catch (const invalid_input&) {
    return false;
  }
}

// At most `keep` vertices of a polygon in convex position, evenly strided
// (a subset of points in convex position is in convex position).
inline EP thin(EP v, std::size_t keep) {
  if (v.size() <= keep) return v;
  EP out;
  for (std::size_t i = 0; i < keep; ++i) out.push_back(v[i * v.size() / keep]);
  return out;
}

// Integer polygons thinned to `keep` vertices, strictly convex.
inline rc::Gen<EP> sat_convex_polygon(std::size_t keep) {
  return rc::gen::suchThat(
      rc::gen::map(gen::integer_polygon(true), [keep](EP v) { return thin(std::move(v), keep); }), sat_convex);
}

// A generated pair of polygons and the kind of configuration it is.
struct pair_case {
  EP a, b;
  std::string kind;
};

// RapidCheck prints counterexamples with this (found by ADL).
inline void showValue(const pair_case& c, std::ostream& os) {
  os << c.kind << " a=";
  for (const auto& p : c.a) os << "[" << p.x << "," << p.y << "]";
  os << " b=";
  for (const auto& p : c.b) os << "[" << p.x << "," << p.y << "]";
}

}  // namespace rigidref::testing::collision
