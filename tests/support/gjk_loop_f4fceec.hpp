// GJK's loop in T exactly as on main at f4fceec (reference/include/rigidref/
// detail/gjk_loop.hpp there), kept for tests/gjk_fast_exact_test.cpp: the
// loop of today must give the same runs (claim, simplex, v, iterations)
// bit for bit. Uses the library's gjk_simplex, gjk_run and gjk_claim.
#pragma once

#include "rigidref/detail/gjk_loop.hpp"

namespace rigidref::f4fceec {

using detail::gjk_claim;
using detail::gjk_run;
using detail::gjk_simplex;
using detail::is_zero_vec;

// orientation(p0.w, p1.w, origin) not computed yet.
constexpr int unknown_side = 2;

// Closest point of the segment [p0.w, p1.w] to the origin; keeps the
// smallest sub-simplex that contains it. `side` is the exact
// orientation(p0.w, p1.w, origin) when the caller has it. D-GJK-4
template <class T>
void closest_on_segment(const minkowski_point<T>& p0, const minkowski_point<T>& p1, gjk_simplex<T>& out,
                        vec2<T>& v, int side = unknown_side) {
  const vec2<T> e = p1.w - p0.w;
  const T num = -dot(p0.w, e);
  const T den = dot(e, e);
  if (num <= 0 || den == 0) {
    out.p[0] = p0;
    out.size = 1;
    v = p0.w;
    return;
  }
  if (num >= den) {
    out.p[0] = p1;
    out.size = 1;
    v = p1.w;
    return;
  }
  out.p[0] = p0;
  out.p[1] = p1;
  out.size = 2;
  // The origin on the segment's line (exact predicate on the T points): v = 0.
  const int o = side != unknown_side ? side : orientation(p0.w, p1.w, vec2<T>{});
  if (o == 0) {
    v = {};
    return;
  }
  // v = p0 - (p0.e / e.e) e is the component of p0 perpendicular to e:
  // v = (cross(e, p0) / e.e) perp(e), perp(e) = (-e.y, e.x). In this form v
  // is perpendicular to the segment even when it is tiny (van den Bergen);
  // its side is the exact one, cross(e, p0) > 0 iff o < 0.
  T s = cross(e, p0.w);
  if ((s > 0) != (o < 0)) s = -s;
  v = (s / den) * vec2<T>{T(-e.y), e.x};
}

// Replaces the simplex by the smallest sub-simplex containing its point
// closest to the origin, sets v to that point; true when the origin is in
// the (closed) simplex. D-GJK-4
template <class T>
bool reduce_simplex(gjk_simplex<T>& s, vec2<T>& v) {
  if (s.size == 1) {
    v = s.p[0].w;
    return is_zero_vec(v);
  }
  if (s.size == 2) {
    const auto p0 = s.p[0], p1 = s.p[1];
    f4fceec::closest_on_segment(p0, p1, s, v);
    return is_zero_vec(v);
  }
  const vec2<T> origin{};
  const int d = orientation(s.p[0].w, s.p[1].w, s.p[2].w);
  std::array<int, 3> side{unknown_side, unknown_side, unknown_side};
  if (d != 0) {
    bool inside = true;
    for (int k = 0; k < 3; ++k) {
      side[k] = orientation(s.p[k].w, s.p[(k + 1) % 3].w, origin);
      if (side[k] == -d) inside = false;
    }
    if (inside) {
      v = {};
      return true;
    }
  }
  // Outside (or a flat triangle): the best of the three edges.
  const gjk_simplex<T> full = s;
  bool have = false;
  T best{0};
  for (int k = 0; k < 3; ++k) {
    gjk_simplex<T> sub;
    vec2<T> vk;
    f4fceec::closest_on_segment(full.p[k], full.p[(k + 1) % 3], sub, vk, side[k]);
    const T vv = dot(vk, vk);
    if (!have || vv < best) {
      have = true;
      best = vv;
      s = sub;
      v = vk;
    }
  }
  return is_zero_vec(v);
}

// GJK distance iteration (D-GJK-5). Stops when the origin is in the simplex,
// when the support point adds nothing (same vertex pair, or the duality gap
// |v|^2 - v.w is within 16 eps of |v|^2), when |v| stops decreasing, or at
// the cap.
template <class T>
gjk_run<T> gjk_core(std::span<const vec2<T>> a, std::span<const vec2<T>> b, int cap) {
  gjk_run<T> r;
  r.simplex.p[0] = {a[0] - b[0], 0, 0};
  r.simplex.size = 1;
  r.v = r.simplex.p[0].w;
  T tol{0};
  if constexpr (!is_exact_v<T>) tol = 16 * epsilon<T>();
  for (int it = 0; it < cap; ++it) {
    r.iterations = it + 1;
    if (is_zero_vec(r.v)) {
      r.claim = gjk_claim::intersecting;
      return r;
    }
    const minkowski_point<T> m = minkowski_support(a, b, -r.v);
    if (r.simplex.has(m)) {
      r.claim = gjk_claim::separated;
      return r;
    }
    const T vv = dot(r.v, r.v);
    const T vw = dot(r.v, m.w);
    if (vv - vw <= tol * vv) {  // D-GJK-5: no point of A - B is closer by more than the gap
      r.claim = gjk_claim::separated;
      return r;
    }
    r.simplex.p[static_cast<std::size_t>(r.simplex.size++)] = m;
    if (f4fceec::reduce_simplex(r.simplex, r.v)) {
      r.claim = gjk_claim::intersecting;
      return r;
    }
    if (!(dot(r.v, r.v) < vv)) {  // no progress in T: stop, let the exact check decide
      r.claim = gjk_claim::separated;
      return r;
    }
  }
  r.claim = gjk_claim::cap;
  return r;
}


}  // namespace rigidref::f4fceec
