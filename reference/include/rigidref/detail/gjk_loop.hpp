// GJK's loop in T (D-GJK-4, D-GJK-5), also instantiated with T = exact for the
// exact fallback: the first stage of a query (detail/core_query.hpp).
#pragma once

#include "rigidref/detail/collision_common.hpp"
#include "rigidref/detail/mp_support.hpp"
#include "rigidref/predicates.hpp"
#include "rigidref/support.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// ---- GJK in T (also instantiated with T = exact for the fallback) ----------

// The slots past `size` name no vertex pair (indices npos), which also keeps
// the compiler from zeroing the whole run with a string instruction (a
// measurable part of a query, issue 28).
inline constexpr std::size_t no_vertex = static_cast<std::size_t>(-1);
template <class T>
struct gjk_simplex {
  std::array<minkowski_point<T>, 3> p{minkowski_point<T>{{}, no_vertex, no_vertex},
                                      minkowski_point<T>{{}, no_vertex, no_vertex},
                                      minkowski_point<T>{{}, no_vertex, no_vertex}};
  int size = 0;
  bool has(const minkowski_point<T>& m) const {
    for (int i = 0; i < size; ++i)
      if (p[i].same_pair(m)) return true;
    return false;
  }
};

// orientation(p0.w, p1.w, origin) not computed yet.
constexpr int unknown_side = 2;

// orientation(a, b, origin), the same exact sign, as the sign of cross(a, b)
// (the identity cross(b - a, -a) = cross(a, b)): two products and one
// difference under orientation's bound, orientation_exact when not proved.
// D-GJK-24
template <class T>
RIGIDREF_HOT int origin_side(const vec2<T>& a, const vec2<T>& b) {
  if constexpr (std::is_floating_point_v<T>) {
    using std::abs;
    const T l = a.x * b.y, r = a.y * b.x;
    const T det = l - r;
    const T sum = abs(l) + abs(r);
    constexpr T u = std::numeric_limits<T>::epsilon() / 2;
    const T bound = (3 + 16 * u) * u * sum;
    if (sum > std::numeric_limits<T>::min() / u / u && (det > bound || -det > bound)) return det > 0 ? 1 : -1;
    return orientation_exact(a, b, vec2<T>{});
  } else {
    return orientation(a, b, vec2<T>{});
  }
}

// The closest point of a segment from w0 along e to the origin when it lies
// strictly inside (den = e.e, o the exact orientation(w0, w0 + e, origin),
// nonzero): v = w0 - (w0.e / e.e) e, the component of w0 perpendicular to e,
// as v = (cross(e, w0) / e.e) perp(e), perp(e) = (-e.y, e.x). In this form v
// is perpendicular to the segment even when it is tiny (van den Bergen);
// its side is the exact one, cross(e, w0) > 0 iff o < 0. D-GJK-4
template <class T>
RIGIDREF_HOT vec2<T> segment_interior(const vec2<T>& w0, const vec2<T>& e, const T& den, int o) {
  T sc = cross(e, w0);
  if ((sc > 0) != (o < 0)) sc = -sc;
  return (sc / den) * vec2<T>{T(-e.y), e.x};
}

// Closest point v of the segment [w0, w1] to the origin; returns the
// smallest sub-simplex that contains it: 0 the point w0, 1 the point w1, 2
// the segment. `side` is the exact orientation(w0, w1, origin) when the
// caller has it. D-GJK-4
template <class T>
RIGIDREF_HOT int segment_closest(const vec2<T>& w0, const vec2<T>& w1, vec2<T>& v, int side = unknown_side) {
  const vec2<T> e = w1 - w0;
  const T num = -dot(w0, e);
  const T den = dot(e, e);
  if (num <= 0 || den == 0) {
    v = w0;
    return 0;
  }
  if (num >= den) {
    v = w1;
    return 1;
  }
  // The origin on the segment's line (exact predicate on the T points): v = 0.
  const int o = side != unknown_side ? side : origin_side(w0, w1);
  if (o == 0) {
    v = {};
    return 2;
  }
  v = segment_interior(w0, e, den, o);
  return 2;
}

// The simplex [p0, p1] reduced to segment_closest's answer.
template <class T>
RIGIDREF_HOT void keep_segment_part(const minkowski_point<T>& p0, const minkowski_point<T>& p1, int part,
                                    gjk_simplex<T>& out) {
  if (part == 2) {
    out.p[0] = p0;
    out.p[1] = p1;
    out.size = 2;
  } else {
    out.p[0] = part == 0 ? p0 : p1;
    out.size = 1;
  }
}

// Replaces the simplex by the smallest sub-simplex containing its point
// closest to the origin, sets v to that point; true when the origin is in
// the (closed) simplex. D-GJK-4
// Inlined into gjk_core, its one caller; the pairs move only when the kept
// part is not already at the front (issue 28).
template <class T>
RIGIDREF_HOT bool reduce_simplex(gjk_simplex<T>& s, vec2<T>& v) {
  if (s.size == 1) {
    v = s.p[0].w;
    return is_zero_vec(v);
  }
  if (s.size == 2) {
    const int part = segment_closest(s.p[0].w, s.p[1].w, v);
    if (part != 2) {  // one point: p0 stays at the front, or p1 moves there
      if (part == 1) s.p[0] = s.p[1];
      s.size = 1;
    }
    return is_zero_vec(v);
  }
  // The origin is in the closed triangle iff the triangle is not flat and no
  // side is -orientation(p0, p1, p2). With c_k = cross(w_k, w_k+1), that
  // orientation is sign(c_0 + c_1 + c_2): so the test is "the nonzero sides
  // all agree, and one is nonzero", without the triangle's own orientation;
  // the sides are those segment_closest would compute. D-GJK-24
  std::array<int, 3> side{};
  bool pos = false, neg = false;
  for (int k = 0; k < 3; ++k) {
    side[k] = origin_side(s.p[k].w, s.p[k == 2 ? 0 : k + 1].w);
    pos = pos || side[k] > 0;
    neg = neg || side[k] < 0;
  }
  if (pos != neg) {
    v = {};
    return true;
  }
  // Outside (or a flat triangle): the best of the three edges (the first on
  // ties), the simplex rebuilt once at the end.
  int best_k = 0, best_part = 0;
  T best{0};
  for (int k = 0; k < 3; ++k) {
    vec2<T> vk;
    const int part = segment_closest(s.p[k].w, s.p[k == 2 ? 0 : k + 1].w, vk, side[k]);
    const T vv = dot(vk, vk);
    if (k == 0 || vv < best) {
      best = vv;
      best_k = k;
      best_part = part;
      v = vk;
    }
  }
  if (best_part != 2 || best_k != 0) {  // edge 0 kept whole is already in place
    const auto p0 = s.p[best_k], p1 = s.p[best_k == 2 ? 0 : best_k + 1];
    keep_segment_part(p0, p1, best_part, s);
  } else {
    s.size = 2;
  }
  return is_zero_vec(v);
}

// support_index (support.hpp, D-GJK-1) with the same arithmetic and the same
// tie rule (the first maximum), the running maximum kept by selects instead
// of a branch per vertex, which the processor mispredicts at random.
template <class T>
RIGIDREF_HOT std::size_t support_index_select(std::span<const vec2<T>> v, const vec2<T>& d) {
  std::size_t best = 0;
  T best_value{0};
  const vec2<T> v0 = v[0];
  for (std::size_t i = 1; i < v.size(); ++i) {
    const T value = dot(v[i] - v0, d);
    const bool better = value > best_value;
    best = better ? i : best;
    best_value = better ? value : best_value;
  }
  return best;
}

template <class T>
RIGIDREF_HOT minkowski_point<T> loop_support(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const vec2<T>& d) {
  if constexpr (std::is_floating_point_v<T>) {
    const std::size_t ia = support_index_select(a, d);
    const std::size_t ib = support_index_select(b, -d);
    return {a[ia] - b[ib], ia, ib};
  } else if constexpr (is_cpp_bin_float_v<T>) {
    return mp_minkowski_support(a, b, d);  // the same index, filtered: D-GJK-27
  } else {
    return minkowski_support(a, b, d);
  }
}

enum class gjk_claim { separated, intersecting, cap };

template <class T>
struct gjk_run {
  gjk_claim claim = gjk_claim::cap;
  gjk_simplex<T> simplex;
  vec2<T> v{};
  int iterations = 0;
};

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
    const minkowski_point<T> m = loop_support(a, b, -r.v);
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
    if (reduce_simplex(r.simplex, r.v)) {
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

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
