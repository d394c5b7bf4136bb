// The filter's promise, checked: a query answered through the floating-point
// filter (filter.hpp; D-GJK-13..18, D-EPA-8..10) gives the same bits as the
// same query with the filter forced off (every decision and every rounding
// on the exact path). Used by the collision tests and by the campaign.
#pragma once

#include "rigidref/epa.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/gjk.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace rigidref::verify {

// Sets rigidref::detail::filter_force_exact() for its lifetime (this thread).
class force_exact_scope {
 public:
  // rigidref::detail spelled in full: plain `detail::` here means
  // rigidref::verify::detail once a verify header has declared it.
  force_exact_scope() : previous_(rigidref::detail::filter_force_exact()) {
    rigidref::detail::filter_force_exact() = true;
  }
  ~force_exact_scope() { rigidref::detail::filter_force_exact() = previous_; }
  force_exact_scope(const force_exact_scope&) = delete;
  force_exact_scope& operator=(const force_exact_scope&) = delete;

 private:
  bool previous_;
};

template <class T>
bool same_bits(const T& x, const T& y) {
  using std::signbit;
  return x == y && signbit(x) == signbit(y);
}

template <class T>
bool same_bits(const vec2<T>& x, const vec2<T>& y) {
  return same_bits(x.x, y.x) && same_bits(x.y, y.y);
}

// x filtered, y forced exact. The routes without a loop (EPA's SAT first,
// D-EPA-11; GJK's and EPA's closest feature of a circle's centre, D-GJK-19;
// both give iterations 0) exist only with the filter on: their values must be
// the exact path's bit for bit, but how they were found (iterations,
// exact_fallback) differs by design.
template <class R>
bool same_route(const R& x, const R& y) {
  return x.iterations == 0 || (x.iterations == y.iterations && x.exact_fallback == y.exact_fallback);
}

template <class T>
bool same_result(const epa_result<T>& x, const epa_result<T>& y) {
  return same_route(x, y) && x.status == y.status && x.intersecting == y.intersecting && same_bits(x.depth, y.depth) &&
         same_bits(x.distance, y.distance) && same_bits(x.normal, y.normal) && same_bits(x.point_a, y.point_a) &&
         same_bits(x.point_b, y.point_b);
}

template <class T>
bool same_result(const gjk_result<T>& x, const gjk_result<T>& y) {
  return same_route(x, y) && x.status == y.status && x.intersecting == y.intersecting &&
         same_bits(x.distance, y.distance) && same_bits(x.point_a, y.point_a) && same_bits(x.point_b, y.point_b);
}

// Circle queries built from a polygon pair: a circle centred at B's first
// vertex (on A's boundary in the campaign's touching kinds) with radius half
// B's first edge's L1 length, against A in both orders, and a circle of the
// same radius at A's first vertex against it. Empty when every filtered answer
// equals the forced-exact one; otherwise which query differed.
template <class T>
std::string circle_filter_disagreement(const std::vector<vec2<T>>& a, const std::vector<vec2<T>>& b) {
  using std::abs;
  using std::isfinite;
  if (a.empty() || b.size() < 2) return {};
  const T r = T(T(abs(T(b[1].x - b[0].x)) + abs(T(b[1].y - b[0].y))) / 2);
  if (!(r > 0) || !isfinite(r)) return {};
  const convex_polygon<T> pa = make_convex_polygon(std::span<const vec2<T>>(a));
  const circle<T> c = make_circle(b[0], r), d = make_circle(a[0], r);
  auto check = [&](const char* what, auto query) -> std::string {
    const auto filtered = query();
    decltype(query()) exact_path;
    {
      const force_exact_scope force;
      exact_path = query();
    }
    return same_result(filtered, exact_path) ? std::string() : std::string(what);
  };
  for (const std::string& s :
       {check("gjk(polygon, circle)", [&] { return gjk_distance(pa, c); }),
        check("gjk(circle, polygon)", [&] { return gjk_distance(c, pa); }),
        check("epa(polygon, circle)", [&] { return epa_penetration(pa, c); }),
        check("epa(circle, polygon)", [&] { return epa_penetration(c, pa); }),
        check("gjk(circle, circle)", [&] { return gjk_distance(d, c); }),
        check("epa(circle, circle)", [&] { return epa_penetration(d, c); })})
    if (!s.empty()) return s;
  return {};
}

}  // namespace rigidref::verify
