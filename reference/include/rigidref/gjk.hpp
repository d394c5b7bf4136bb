// GJK (Gilbert, Johnson and Keerthi 1988, in the form of van den Bergen 1999
// and Ericson, "Real-Time Collision Detection", ch. 9): intersection test,
// distance and closest points of two convex polygons or circles.
// derivations/gjk.md derives every step (anchors D-GJK-n).
//
// Design ("identify features in T, evaluate exactly, round once"):
//
//  1. GJK runs in T on the support mapping of A - B (support.hpp) and stops
//     with a simplex of at most three Minkowski points, each naming a vertex
//     of A and a vertex of B (D-GJK-4, D-GJK-5).
//  2. The simplex's claim is then checked in exact rational arithmetic on the
//     input vertices, which every binary T converts exactly:
//       - "intersecting": the exact simplex must contain the origin
//         (D-GJK-6); its barycentric weights give a common point.
//       - "separated": starting from the simplex's vertices, a local
//         vertex-edge search finds a pair (p, q), p in A, q in B, and the
//         optimality conditions of D-GJK-7 are verified exactly: with
//         n = q - p, p maximises n . x over A and q minimises it over B.
//         These conditions prove |q - p| is the distance.
//     A claim that fails its check (near touching, where T's rounding may
//     decide either way) falls back to an exact search (brute-force pairs,
//     then GJK itself in exact arithmetic); the result says so in
//     `exact_fallback`. Every intersecting / touching / separated decision is
//     therefore exact.
//  3. The distance is sqrt(|q - p|^2) with |q - p|^2 an exact rational,
//     evaluated in the accumulator and rounded once (D-GJK-8): within 1 ulp.
//
// Speed (float, double, long double; filter.hpp): each exact decision above is
// first evaluated in T with a proved error bound and taken there when the
// bound decides it (D-GJK-13..15); each result is rounded from double words
// of the inputs when a rounding test proves it is the value the exact path
// would give (D-GJK-16). Otherwise the exact path runs, unchanged: the
// results are the same bits either way. The exact rationals of the inputs are
// converted only when an exact path needs them.
//
// Circles: GJK runs on the circle's centre (a one-point core), and the radii
// are subtracted in the accumulator before the one rounding (D-GJK-9).
//
// Never NaN, never an infinite loop: every loop has a cap; reaching GJK's cap
// in T is reported as status cap_reached (the values are then those of the
// exact fallback, still correct), never as a silent "no intersection".
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/predicates.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/support.hpp"
#include "rigidref/vec2.hpp"

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace rigidref {

enum class collision_status {
  converged,         // the answer is certified (separated, or overlapping with depth > 0)
  touching,          // the closed shapes share boundary points only: distance 0 and depth 0
  degenerate_input,  // the answer exists but a direction is undefined (coincident circle centres)
  cap_reached,       // the iteration cap in T was reached; values come from the exact fallback
};

inline const char* to_string(collision_status s) {
  switch (s) {
    case collision_status::converged: return "converged";
    case collision_status::touching: return "touching";
    case collision_status::degenerate_input: return "degenerate_input";
    case collision_status::cap_reached: return "cap_reached";
  }
  return "?";
}

struct gjk_options {
  // Iteration cap of GJK in T; 0: automatic, 32 + 4 (n_A + n_B). In exact
  // arithmetic GJK on polygons ends within about n_A + n_B iterations.
  int max_iterations = 0;
  // A circle's centre outside a polygon: its closest feature is found
  // directly and proved, without GJK's loop (D-GJK-19; iterations is then
  // 0). The values are the same either way; false always runs GJK.
  bool point_first = true;
};

template <class T>
struct gjk_result {
  collision_status status = collision_status::converged;
  bool intersecting = false;  // the closed shapes share a point (touching counts)
  T distance{0};              // >= 0; 0 when intersecting
  vec2<T> point_a{};          // closest point on A (a common point when intersecting)
  vec2<T> point_b{};          // closest point on B (the same common point when intersecting)
  int iterations = 0;         // GJK iterations in T
  bool exact_fallback = false;  // T's simplex could not be certified; exact search used
};

namespace detail {

using evec = vec2<exact>;
using epoly = std::vector<evec>;

// Pairs (vertex of A, vertex of B): a simplex's (at most 3) and the two that
// interior_by_chord adds, EPA's seed. Fixed capacity, so a query allocates
// nothing for them.
class vertex_pairs {
 public:
  using value_type = std::pair<std::size_t, std::size_t>;
  static constexpr std::size_t capacity = 5;
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const value_type& operator[](std::size_t i) const { return v_[i]; }
  value_type& operator[](std::size_t i) { return v_[i]; }
  const value_type* begin() const { return v_.data(); }
  const value_type* end() const { return v_.data() + n_; }
  void push_back(const value_type& p) {
    if (n_ == capacity) throw std::logic_error("vertex_pairs: more than 5 pairs (internal error)");
    v_[n_++] = p;
  }

 private:
  std::array<value_type, capacity> v_{};
  std::size_t n_ = 0;
};

template <class T>
bool is_zero_vec(const vec2<T>& v) {
  return v.x == 0 && v.y == 0;
}

// ---- GJK in T (also instantiated with T = exact for the fallback) ----------

template <class T>
struct gjk_simplex {
  std::array<minkowski_point<T>, 3> p{};
  int size = 0;
  bool has(const minkowski_point<T>& m) const {
    for (int i = 0; i < size; ++i)
      if (p[i].same_pair(m)) return true;
    return false;
  }
};

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
    closest_on_segment(p0, p1, s, v);
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
    closest_on_segment(full.p[k], full.p[(k + 1) % 3], sub, vk, side[k]);
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

// ---- exact checks -----------------------------------------------------------

// to_exact for the builtin types: the significand as one integer M (odd after
// removing trailing zeros) and a power of two, M 2^p; M / 2^-p is already in
// lowest terms, so the rational is the same canonical value to_exact gives.
template <class T>
exact fast_to_exact(const T& x) {
  static_assert(std::is_floating_point_v<T> && std::numeric_limits<T>::digits <= 64);
  using std::frexp;
  using std::isfinite;
  using std::ldexp;
  if (!isfinite(x)) return to_exact(x);  // throws invalid_input, as before
  if (x == 0) return exact(0);
  int e = 0;
  const T m = frexp(x < 0 ? T(-x) : x, &e);  // [0.5, 1), exact
  constexpr int digits = std::numeric_limits<T>::digits;
  std::uint64_t M = static_cast<std::uint64_t>(ldexp(m, digits));  // exact integer < 2^digits
  int p = e - digits;
  while ((M & 1u) == 0) {
    M >>= 1;
    ++p;
  }
  exact q = p >= 0 ? exact(big_int(M) << p) : exact(big_int(M), big_int(1) << (-p));
  return x < 0 ? exact(-q) : q;
}

template <class T>
epoly exact_points(std::span<const vec2<T>> v) {
  epoly out;
  out.reserve(v.size());
  if constexpr (filter_enabled_v<T>) {
    for (const auto& p : v) out.push_back({fast_to_exact(p.x), fast_to_exact(p.y)});
  } else {
    for (const auto& p : v) out.push_back({to_exact(p.x), to_exact(p.y)});
  }
  return out;
}

// Index of a vertex maximising n . v, walking uphill from `start`. On a
// strictly convex polygon n . v_i is unimodal around the cycle, so a vertex
// no lower than both neighbours is a global maximum (D-GJK-7).
inline std::size_t exact_argmax(const epoly& v, const evec& n, std::size_t start) {
  const std::size_t count = v.size();
  if (count == 1) return 0;
  std::size_t i = start % count;
  exact value = dot(n, v[i]);
  for (std::size_t step = 0; step < count; ++step) {
    const std::size_t next = (i + 1) % count, prev = (i + count - 1) % count;
    const exact vn = dot(n, v[next]);
    if (vn > value) {
      i = next;
      value = vn;
      continue;
    }
    const exact vp = dot(n, v[prev]);
    if (vp > value) {
      i = prev;
      value = vp;
      continue;
    }
    break;
  }
  return i;
}

// Closest point of the closed segment [a, b] to p (a == b allowed). The
// seed article's distLine (D-GJK-10), exactly.
inline evec closest_on_segment_exact(const evec& a, const evec& b, const evec& p) {
  const evec ab = b - a;
  const exact len2 = length_squared(ab);
  if (len2 == 0) return a;
  exact t = dot(p - a, ab) / len2;
  if (t <= 0) return a;
  if (t >= 1) return b;
  return a + t * ab;
}

struct exact_pair {
  evec p, q;  // p in A, q in B
  exact d2;   // |q - p|^2
  std::size_t ia = 0, ib = 0;  // a vertex of A next to p, of B next to q
};

// The closest of: vertex A[ia] against the edges of B at B[ib], and vertex
// B[ib] against the edges of A at A[ia].
// The rational specification of local_closest_int, which certify_separation
// uses (D-GJK-12); kept as the reference formulation.
inline exact_pair local_closest(const epoly& A, const epoly& B, std::size_t ia, std::size_t ib) {
  exact_pair best{A[ia], B[ib], length_squared(B[ib] - A[ia]), ia, ib};
  auto consider = [&](const evec& p, const evec& q) {
    const exact d2 = length_squared(q - p);
    if (d2 < best.d2) best = {p, q, d2, ia, ib};
  };
  const std::size_t nb = B.size(), na = A.size();
  if (nb > 1)
    for (std::size_t j : {(ib + nb - 1) % nb, ib}) consider(A[ia], closest_on_segment_exact(B[j], B[(j + 1) % nb], A[ia]));
  if (na > 1)
    for (std::size_t i : {(ia + na - 1) % na, ia}) consider(closest_on_segment_exact(A[i], A[(i + 1) % na], B[ib]), B[ib]);
  return best;
}

// D-GJK-7: with n = q - p != 0, (p, q) is a closest pair iff p maximises
// n . x over A and q minimises it over B. Sets ka, kb to the extreme
// vertices found (the next start when the test fails).
// Specification of optimal_pair_int (D-GJK-12).
inline bool optimal_pair(const epoly& A, const epoly& B, const exact_pair& c, std::size_t& ka, std::size_t& kb) {
  const evec n = c.q - c.p;
  ka = exact_argmax(A, n, c.ia);
  kb = exact_argmax(B, -n, c.ib);
  return dot(n, A[ka]) <= dot(n, c.p) && dot(n, B[kb]) >= dot(n, c.q);
}

struct separation_check {
  bool separated = false;
  exact_pair pair;         // closest pair when separated
  bool brute_force = false;
};

// ---- the certificate in an integer frame (D-GJK-12) ---------------------------
//
// certify_separation below makes exactly the decisions of the rational
// formulation above (local_closest, optimal_pair, exact_argmax), on integer
// coordinates: every vertex x of A and B becomes X = (x - o) s, an integer,
// with s the common (power-of-two) denominator and o = A[0]. A point on a
// segment is kept homogeneous, (P, w) with w > 0 standing for P / w; a
// squared distance is a fraction N / D with D > 0 compared by
// cross-multiplication; a direction is any positive multiple of q - p. No
// gcd, no division; the rational pair is built once, for the answer.

struct ivec {
  big_int x, y;
};
inline ivec operator-(const ivec& a, const ivec& b) { return {a.x - b.x, a.y - b.y}; }
inline big_int idot(const ivec& a, const ivec& b) { return a.x * b.x + a.y * b.y; }

struct int_frame {
  big_int scale{1};
  evec origin;
  std::vector<ivec> A, B;
};

inline int_frame make_int_frame(const epoly& A, const epoly& B) {
  int_frame f;
  for (const epoly* s : {&A, &B})
    for (const evec& p : *s) {
      f.scale = boost::multiprecision::lcm(f.scale, big_int(denominator(p.x)));
      f.scale = boost::multiprecision::lcm(f.scale, big_int(denominator(p.y)));
    }
  f.origin = A.front();
  const exact s(f.scale);
  for (const epoly* src : {&A, &B}) {
    std::vector<ivec>& dst = src == &A ? f.A : f.B;
    dst.reserve(src->size());
    for (const evec& p : *src)
      dst.push_back({numerator(exact((p.x - f.origin.x) * s)), numerator(exact((p.y - f.origin.y) * s))});
  }
  return f;
}

struct hpoint {
  ivec P;          // the point is P / w
  big_int w{1};    // > 0
};

// closest_on_segment_exact in homogeneous form: t = num / len2 is never
// formed; t <= 0 iff num <= 0 and t >= 1 iff num >= len2 (len2 > 0).
inline hpoint closest_on_segment_int(const ivec& a, const ivec& b, const ivec& p) {
  const ivec ab = b - a;
  const big_int len2 = idot(ab, ab);
  if (len2 == 0) return {a, big_int(1)};
  const big_int num = idot(p - a, ab);
  if (num <= 0) return {a, big_int(1)};
  if (num >= len2) return {b, big_int(1)};
  return {{a.x * len2 + num * ab.x, a.y * len2 + num * ab.y}, len2};
}

struct int_pair {
  hpoint p, q;       // p on A, q on B
  ivec n;            // (p.w q.w) (q - p) in frame units: a positive multiple of q - p
  big_int N, D{1};   // |q - p|^2 = N / D in frame units, D > 0
  std::size_t ia = 0, ib = 0;
};

inline int_pair make_int_pair(const hpoint& p, const hpoint& q, std::size_t ia, std::size_t ib) {
  int_pair c{p, q, {q.P.x * p.w - p.P.x * q.w, q.P.y * p.w - p.P.y * q.w}, {}, {}, ia, ib};
  c.N = idot(c.n, c.n);
  const big_int ww = p.w * q.w;
  c.D = ww * ww;
  return c;
}

// N1 / D1 < N2 / D2 with D1, D2 > 0.
inline bool closer(const int_pair& x, const int_pair& y) { return x.N * y.D < y.N * x.D; }

inline int_pair local_closest_int(const int_frame& f, std::size_t ia, std::size_t ib) {
  const auto& A = f.A;
  const auto& B = f.B;
  int_pair best = make_int_pair({A[ia], big_int(1)}, {B[ib], big_int(1)}, ia, ib);
  auto consider = [&](const hpoint& p, const hpoint& q) {
    int_pair c = make_int_pair(p, q, ia, ib);
    if (closer(c, best)) best = std::move(c);
  };
  const std::size_t nb = B.size(), na = A.size();
  if (nb > 1)
    for (std::size_t j : {(ib + nb - 1) % nb, ib})
      consider({A[ia], big_int(1)}, closest_on_segment_int(B[j], B[(j + 1) % nb], A[ia]));
  if (na > 1)
    for (std::size_t i : {(ia + na - 1) % na, ia})
      consider(closest_on_segment_int(A[i], A[(i + 1) % na], B[ib]), {B[ib], big_int(1)});
  return best;
}

// exact_argmax on frame coordinates: comparisons of n . v between vertices
// are unchanged by the translation, the positive scale and a positive
// multiple of n.
inline std::size_t int_argmax(const std::vector<ivec>& v, const ivec& n, std::size_t start) {
  const std::size_t count = v.size();
  if (count == 1) return 0;
  std::size_t i = start % count;
  big_int value = idot(n, v[i]);
  for (std::size_t step = 0; step < count; ++step) {
    const std::size_t next = (i + 1) % count, prev = (i + count - 1) % count;
    big_int vn = idot(n, v[next]);
    if (vn > value) {
      i = next;
      value = std::move(vn);
      continue;
    }
    big_int vp = idot(n, v[prev]);
    if (vp > value) {
      i = prev;
      value = std::move(vp);
      continue;
    }
    break;
  }
  return i;
}

// optimal_pair: n . A[ka] <= n . p becomes (n . A[ka]) p.w <= n . P (p.w > 0).
inline bool optimal_pair_int(const int_frame& f, const int_pair& c, std::size_t& ka, std::size_t& kb) {
  const ivec neg{big_int(-c.n.x), big_int(-c.n.y)};
  ka = int_argmax(f.A, c.n, c.ia);
  kb = int_argmax(f.B, neg, c.ib);
  return idot(c.n, f.A[ka]) * c.p.w <= idot(c.n, c.p.P) && idot(c.n, f.B[kb]) * c.q.w >= idot(c.n, c.q.P);
}

// Back to the input's coordinates: x = o + P / (w s), |q - p|^2 = N / (D s^2).
inline exact_pair to_exact_pair(const int_frame& f, const int_pair& c) {
  auto point = [&](const hpoint& h) {
    const exact den(h.w * f.scale);
    return evec{f.origin.x + exact(h.P.x) / den, f.origin.y + exact(h.P.y) / den};
  };
  return {point(c.p), point(c.q), exact(c.N) / exact(c.D * f.scale * f.scale), c.ia, c.ib};
}

// Certifies separation (D-GJK-7): the best vertex-edge pair around the
// simplex's vertices, then a descent that moves to the extreme vertices
// found by the failed test while the distance decreases, then (if that
// stalls) all vertex-edge pairs. Not separated means the closed shapes meet.
// Evaluated in the integer frame (D-GJK-12): the same steps and decisions
// as with local_closest / optimal_pair on the rationals.
inline separation_check certify_separation(const epoly& A, const epoly& B,
                                           const vertex_pairs& start) {
  separation_check out;
  const int_frame f = make_int_frame(A, B);
  int_pair best;
  bool have = false;
  for (const auto& s1 : start)
    for (const auto& s2 : start) {
      int_pair c = local_closest_int(f, s1.first, s2.second);
      if (!have || closer(c, best)) {
        have = true;
        best = std::move(c);
      }
    }
  const std::size_t steps = 2 * (A.size() + B.size()) + 8;
  for (std::size_t step = 0; step < steps; ++step) {
    if (best.N == 0) return out;  // a common point
    std::size_t ka = 0, kb = 0;
    if (optimal_pair_int(f, best, ka, kb)) {
      out.separated = true;
      out.pair = to_exact_pair(f, best);
      return out;
    }
    int_pair next = local_closest_int(f, ka, kb);
    for (int_pair c : {local_closest_int(f, ka, best.ib), local_closest_int(f, best.ia, kb)})
      if (closer(c, next)) next = std::move(c);
    if (!closer(next, best)) break;
    best = std::move(next);
  }
  // Brute force: the smallest vertex-edge distance is the distance when the
  // shapes are disjoint; it passes D-GJK-7 exactly then.
  out.brute_force = true;
  have = false;
  for (std::size_t i = 0; i < A.size(); ++i)
    for (std::size_t j = 0; j < B.size(); ++j) {
      int_pair c = local_closest_int(f, i, j);
      if (!have || closer(c, best)) {
        have = true;
        best = std::move(c);
      }
    }
  if (best.N == 0) return out;
  std::size_t ka = 0, kb = 0;
  if (optimal_pair_int(f, best, ka, kb)) {
    out.separated = true;
    out.pair = to_exact_pair(f, best);
  }
  return out;
}

// ---- the certificate, filtered (D-GJK-15) ------------------------------------
//
// filtered_certify_separation follows certify_separation step for step on the
// T coordinates with the error bounds of filter.hpp (D-GJK-13): the
// classification of each closest point on a segment, every squared-distance
// comparison, every argmax step and both optimality tests. Ties that are exact
// by construction (the same pair of features; an edge's end points against a
// direction perpendicular to that edge) are decided structurally. When any
// other decision is not proved, or the search would reach the brute-force
// stage, it gives up and certify_separation runs instead, so the outcome is
// always the exact one.

struct feature {
  bool edge = false;  // false: vertex i; true: the open edge (i, i + 1)
  std::size_t i = 0;
  bool operator==(const feature&) const = default;
};

template <class T>
struct fpair {
  feature fa, fb;   // the closest point on A, on B
  fv<T> N, D;       // |q - p|^2 = N / D, D > 0
  fvec<T> n;        // a positive multiple of q - p
  std::size_t ia = 0, ib = 0;  // local_closest's arguments
};

template <class T>
struct certify_filter {
  std::span<const vec2<T>> a, b;
  bool gave_up = false;

  fvec<T> pt(bool on_a, std::size_t k) const { return fvec_exact(on_a ? a[k] : b[k]); }
  std::size_t count(bool on_a) const { return on_a ? a.size() : b.size(); }

  // A certain sign, or give up.
  int sign(const fv<T>& x) {
    const int s = fsign(x);
    if (s == 0) gave_up = true;
    return s;
  }

  // closest_on_segment_int(P[e], P[e + 1], p): which feature, D-GJK-10.
  feature segment_feature(bool on_a, std::size_t e, const fvec<T>& p) {
    const std::size_t e1 = (e + 1) % count(on_a);
    const fvec<T> a0 = pt(on_a, e), a1 = pt(on_a, e1);
    const fvec<T> ab = fsub(a1, a0);
    if (sign(fdot(fsub(p, a0), ab)) <= 0) return {false, e};  // num <= 0 (or gave up)
    if (sign(fdot(fsub(p, a1), ab)) >= 0) return {false, e1};  // num - len2 = (p - b) . ab >= 0
    return {true, e};
  }

  // The pair of features as squared distance and direction.
  fpair<T> make(const feature& fa, const feature& fb, std::size_t ia, std::size_t ib) {
    fpair<T> c;
    c.fa = fa;
    c.fb = fb;
    c.ia = ia;
    c.ib = ib;
    auto cross = [](const fvec<T>& u, const fvec<T>& v) { return fsub(fmul(u.x, v.y), fmul(u.y, v.x)); };
    if (!fa.edge && !fb.edge) {
      c.n = fsub(pt(false, fb.i), pt(true, fa.i));
      c.N = fdot(c.n, c.n);
      c.D = fexact(T(1));
      return c;
    }
    // A vertex against the interior of an edge of the other shape: the
    // distance is |cross(e, w)| / |e| and q - p is perpendicular to e.
    const bool edge_on_b = fb.edge;
    const std::size_t e0 = edge_on_b ? fb.i : fa.i, e1 = (e0 + 1) % count(!edge_on_b ? true : false);
    const fvec<T> p0 = pt(!edge_on_b, e0), p1 = pt(!edge_on_b, e1);
    const fvec<T> v = edge_on_b ? pt(true, fa.i) : pt(false, fb.i);
    const fvec<T> e = fsub(p1, p0);
    const fv<T> cr = cross(e, fsub(v, p0));
    c.N = fmul(cr, cr);
    c.D = fdot(e, e);
    const int sc = sign(cr);
    // q - p = (cross / |e|^2) (e.y, -e.x) for a vertex p of A (q on B's edge),
    // and (cross / |e|^2) (-e.y, e.x) for a vertex q of B (p on A's edge).
    fvec<T> perp = edge_on_b ? fvec<T>{e.y, fneg(e.x)} : fvec<T>{fneg(e.y), e.x};
    c.n = sc > 0 ? perp : fvec<T>{fneg(perp.x), fneg(perp.y)};
    return c;
  }

  // closer(x, y): N_x D_y < N_y D_x.
  bool closer(const fpair<T>& x, const fpair<T>& y) {
    if (x.fa == y.fa && x.fb == y.fb) {
      ++filter_stats().structural;
      return false;
    }
    return sign(fsub(fmul(x.N, y.D), fmul(y.N, x.D))) < 0;
  }

  fpair<T> local_closest(std::size_t ia, std::size_t ib) {
    fpair<T> best = make({false, ia}, {false, ib}, ia, ib);
    auto consider = [&](const feature& fa, const feature& fb) {
      if (gave_up) return;
      fpair<T> c = make(fa, fb, ia, ib);
      if (!gave_up && closer(c, best)) best = c;
    };
    const std::size_t nb = b.size(), na = a.size();
    if (nb > 1)
      for (std::size_t j : {(ib + nb - 1) % nb, ib}) consider({false, ia}, segment_feature(false, j, pt(true, ia)));
    if (na > 1)
      for (std::size_t i : {(ia + na - 1) % na, ia}) consider(segment_feature(true, i, pt(false, ib)), {false, ib});
    return best;
  }

  // Sign of n . (P[j] - P[i]); 0 only for an edge's end points when n is
  // perpendicular to that edge (the closest point lies inside it).
  int step_sign(const fpair<T>& c, bool on_a, std::size_t j, std::size_t i) {
    const feature& f = on_a ? c.fa : c.fb;
    if (f.edge) {
      const std::size_t e1 = (f.i + 1) % count(on_a);
      if ((i == f.i && j == e1) || (i == e1 && j == f.i)) {
        ++filter_stats().structural;
        return 0;
      }
    }
    return sign(fdot(c.n, fsub(pt(on_a, j), pt(on_a, i))));
  }

  // int_argmax(P, +-n, start).
  std::size_t argmax(const fpair<T>& c, bool on_a, int dir, std::size_t start) {
    const std::size_t cnt = count(on_a);
    if (cnt == 1) return 0;
    std::size_t i = start % cnt;
    for (std::size_t step = 0; step < cnt && !gave_up; ++step) {
      const std::size_t next = (i + 1) % cnt, prev = (i + cnt - 1) % cnt;
      if (dir * step_sign(c, on_a, next, i) > 0) {
        i = next;
        continue;
      }
      if (gave_up) break;
      if (dir * step_sign(c, on_a, prev, i) > 0) {
        i = prev;
        continue;
      }
      break;
    }
    return i;
  }

  // n . (P[k] - x) for the closest point x on P: x's vertex, or the first end
  // point of x's edge (n is perpendicular to that edge). Exactly 0 when P[k]
  // is x's vertex or an end point of x's edge.
  int level_sign(const fpair<T>& c, bool on_a, std::size_t k) {
    const feature& f = on_a ? c.fa : c.fb;
    if (k == f.i || (f.edge && k == (f.i + 1) % count(on_a))) {
      ++filter_stats().structural;
      return 0;
    }
    return sign(fdot(c.n, fsub(pt(on_a, k), pt(on_a, f.i))));
  }

  // optimal_pair_int.
  bool optimal(const fpair<T>& c, std::size_t& ka, std::size_t& kb) {
    ka = argmax(c, true, 1, c.ia);
    if (gave_up) return false;
    kb = argmax(c, false, -1, c.ib);
    if (gave_up) return false;
    const int sa = level_sign(c, true, ka);
    if (gave_up) return false;
    if (sa > 0) return false;
    const int sb = level_sign(c, false, kb);
    return !gave_up && sb >= 0;
  }
};

// certify_separation's answer when every decision is proved in T (true, and
// `out` is the closest pair of features), false when the filter gave up or the
// shapes are not proved separated by the same steps. D-GJK-15
template <class T>
bool filtered_certify_separation(std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                                 const vertex_pairs& start, fpair<T>& out) {
  certify_filter<T> f{a, b};
  fpair<T> best;
  bool have = false;
  for (const auto& s1 : start)
    for (const auto& s2 : start) {
      fpair<T> c = f.local_closest(s1.first, s2.second);
      if (f.gave_up) return false;
      if (!have || f.closer(c, best)) {
        have = true;
        best = c;
      }
      if (f.gave_up) return false;
    }
  const std::size_t steps = 2 * (a.size() + b.size()) + 8;
  for (std::size_t step = 0; step < steps; ++step) {
    if (f.sign(best.N) <= 0) return false;  // N == 0: not separated; the exact path decides
    std::size_t ka = 0, kb = 0;
    const bool opt = f.optimal(best, ka, kb);
    if (f.gave_up) return false;
    if (opt) {
      out = best;
      return true;
    }
    fpair<T> next = f.local_closest(ka, kb);
    for (int k = 0; k < 2 && !f.gave_up; ++k) {
      fpair<T> c = k == 0 ? f.local_closest(ka, best.ib) : f.local_closest(best.ia, kb);
      if (!f.gave_up && f.closer(c, next)) next = c;
    }
    if (f.gave_up) return false;
    const bool progress = f.closer(next, best);
    if (f.gave_up || !progress) return false;  // the brute-force stage: exact path
    best = next;
  }
  return false;
}

// ---- the certificate in one pass (D-GJK-17) ----------------------------------
//
// GJK's final simplex usually names the closest features already: one vertex
// pair (vertex-vertex), or two pairs sharing a vertex of one polygon (that
// vertex against an edge of the other). direct_certify_separation checks the
// optimality conditions of D-GJK-7 for those features in one pass over both
// polygons, each condition the sign of a degree-2 form of input points under
// a static bound (static_dot_sign, static_cross_sign), and strictly for every
// vertex that is not part of the features. Strict conditions make the closest
// pair unique, so it is the pair certify_separation finds, and the features
// give the values the exact path rounds. Anything not proved (a tie, an
// edge-edge simplex, a vertex projecting onto an edge's end) returns false and
// filtered_certify_separation runs as before.
template <class T>
bool direct_certify_separation(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const gjk_simplex<T>& s,
                               feature& fa, feature& fb) {
  const std::size_t na = a.size(), nb = b.size();
  if (na == 2 || nb == 2 || na == 0 || nb == 0) return false;  // polygons (>= 3) or one-point cores (circles)
  if (s.size == 1) {
    const std::size_t i = s.p[0].ia, j = s.p[0].ib;
    const vec2<T>& p = a[i];
    const vec2<T>& q = b[j];
    if (p == q) return false;  // two one-point cores: n != 0 is not implied by (17.4)
    // n = q - p: every other vertex of A strictly below p along n, of B
    // strictly above q (which also proves n != 0).
    for (std::size_t k = 0; k < na; ++k)
      if (k != i && static_dot_sign(p, q, p, a[k]) >= 0) return false;
    for (std::size_t k = 0; k < nb; ++k)
      if (k != j && static_dot_sign(p, q, q, b[k]) <= 0) return false;
    fa = {false, i};
    fb = {false, j};
    return true;
  }
  if (s.size != 2) return false;
  const minkowski_point<T>& m0 = s.p[0];
  const minkowski_point<T>& m1 = s.p[1];
  const bool vertex_of_a = m0.ia == m1.ia;
  if (vertex_of_a == (m0.ib == m1.ib)) return false;  // two vertices on each side: edge-edge
  // The edge (e0, e1) of polygon P and the vertex v = Q[iv] of the other, Q.
  const std::span<const vec2<T>> P = vertex_of_a ? b : a, Q = vertex_of_a ? a : b;
  const std::size_t k0 = vertex_of_a ? m0.ib : m0.ia, k1 = vertex_of_a ? m1.ib : m1.ia;
  const std::size_t n = P.size();
  std::size_t e0 = 0;
  if (k1 == (k0 + 1) % n)
    e0 = k0;
  else if (k0 == (k1 + 1) % n)
    e0 = k1;
  else
    return false;  // not an edge
  const std::size_t e1 = (e0 + 1) % n, iv = vertex_of_a ? m0.ia : m0.ib;
  const vec2<T>& p0 = P[e0];
  const vec2<T>& p1 = P[e1];
  const vec2<T>& v = Q[iv];
  // v projects into the open edge: e . (v - p0) > 0 > e . (v - p1).
  if (static_dot_sign(p0, p1, p0, v) <= 0 || static_dot_sign(p0, p1, p1, v) >= 0) return false;
  // v's side of the edge's line, c = sign cross(e, v - p0) (c != 0: apart).
  // The direction d from v to the edge is -c perp(e), and
  // perp(e) . w = cross(e, w), so d . w < 0 iff c cross(e, w) > 0.
  const int c = static_cross_sign(p0, p1, p0, v);
  if (c == 0) return false;
  for (std::size_t k = 0; k < Q.size(); ++k)  // Q's other vertices strictly behind v
    if (k != iv && c * static_cross_sign(p0, p1, v, Q[k]) <= 0) return false;
  for (std::size_t k = 0; k < n; ++k)  // P's vertices off the edge strictly beyond its line
    if (k != e0 && k != e1 && c * static_cross_sign(p0, p1, p0, P[k]) >= 0) return false;
  const feature vertex{false, iv}, edge{true, e0};
  fa = vertex_of_a ? vertex : edge;
  fb = vertex_of_a ? edge : vertex;
  return true;
}

// ---- a circle's centre: its closest feature without GJK (D-GJK-19) ------------
//
// Outside a convex polygon P, the exterior Voronoi regions of P's features
// partition the plane: the half-strip beyond edge k (q outside the edge's
// line, projecting into the open edge) and the wedge at vertex k (between the
// outward normals of its two edges). guess_point_features finds the region
// holding q in T, without GJK; it is only a guess, which
// direct_certify_separation then proves or refuses (so a rounding error here
// costs speed, never bits). No region (q inside P, or T's rounding): false.
template <class T>
bool guess_point_features(std::span<const vec2<T>> P, const vec2<T>& q, bool point_is_a, gjk_simplex<T>& s) {
  const std::size_t n = P.size();
  if (n < 3) return false;
  auto pair_of = [&](std::size_t k) -> minkowski_point<T> {
    return point_is_a ? minkowski_point<T>{q - P[k], 0, k} : minkowski_point<T>{P[k] - q, k, 0};
  };
  // after_previous: e_{k-1} . (q - P_k) >= 0, q at or beyond the end of edge k - 1.
  bool after_previous = dot(P[0] - P[n - 1], q - P[0]) >= 0;
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t k1 = k + 1 == n ? 0 : k + 1;
    const vec2<T> e = P[k1] - P[k];
    const vec2<T> d = q - P[k];
    const T t = dot(e, d);
    if (t <= 0) {
      if (after_previous) {  // vertex k's wedge
        s.p[0] = pair_of(k);
        s.size = 1;
        return true;
      }
      after_previous = false;  // e . (q - P_{k+1}) = t - |e|^2 < 0
      continue;
    }
    const T t_end = dot(e, q - P[k1]);
    if (t_end < 0 && cross(e, d) < 0) {  // the open edge's strip, right of the counter-clockwise edge
      s.p[0] = pair_of(k);
      s.p[1] = pair_of(k1);
      s.size = 2;
      return true;
    }
    after_previous = t_end >= 0;
  }
  return false;
}

// ---- rounding once, without rationals, when provably the same (D-GJK-16) ------
//
// A value the exact path rounds once (a distance, a coordinate, a component
// of a unit normal) is evaluated in double words of the input coordinates
// (accumulator<T>::type) with a bound on its error; the rounded T value is
// used when the bound, widened by the exact path's own double-word error
// where it has one, proves that the exact path gives the same T value.

// nextafter(r, +-infinity) for a finite nonzero r; for float and double a
// step of the bit pattern (the library call was 2-5 % of a query).
template <class T>
RIGIDREF_HOT T next_representable(const T& r, bool up) {
  if constexpr ((std::is_same_v<T, double> || std::is_same_v<T, float>) && std::numeric_limits<T>::is_iec559) {
    using U = std::conditional_t<std::is_same_v<T, double>, std::uint64_t, std::uint32_t>;
    U bits = std::bit_cast<U>(r);
    if ((r > 0) == up)
      ++bits;  // away from zero
    else
      --bits;  // toward zero
    return std::bit_cast<T>(bits);
  } else {
    using std::nextafter;
    return nextafter(r, up ? std::numeric_limits<T>::infinity() : -std::numeric_limits<T>::infinity());
  }
}

template <class T>
struct rounding_filter {
  using W = wider_t<T>;
  using DW = double_word<W>;
  static constexpr W u = std::numeric_limits<W>::epsilon() / 2;
  static constexpr W u2 = u * u;
  // Slack for the roundings in evaluating a bound in W (a few per bound).
  static constexpr W up = 1 + W(1) / W(1099511627776.0);  // 1 + 2^-40
  // A relative bound rho <= 2^-9 is taken of a computed value y~ (and of the
  // exact value it stands for: |y| <= |y~| (1 + rho)); 1.002 covers that
  // factor, the cross terms rho_1 rho_2 and the roundings of the bound.
  static constexpr W rel = W(1.002);
  // Double-word arithmetic keeps its relative error bounds away from
  // underflow and overflow: every nonzero intermediate must lie in [lo, hi].
  static W tiny() { return std::ldexp(std::numeric_limits<W>::min(), 2 * std::numeric_limits<W>::digits + 16); }
  static W huge() { return std::ldexp(std::numeric_limits<W>::max(), -16); }
  static bool in_range(const DW& x) {
    using std::abs;
    using std::isfinite;
    if (!isfinite(x.hi) || !isfinite(x.lo)) return false;
    const W m = abs(x.hi);
    return m == 0 ? x.lo == 0 : (m >= tiny() && m <= huge());
  }
  static bool is_zero(const DW& x) { return x.hi == 0 && x.lo == 0; }
  // x - y exactly (TwoSum of two W values; T values are W values).
  static DW diff(const T& x, const T& y) {
    const DW d = eft::two_sum(W(x), W(-W(y)));
    return {d.hi, d.lo == 0 ? W(0) : d.lo};
  }
  // The T value r with: every real within `delta` of y rounds to r. False when
  // that is not proved (y near a midpoint of T, or outside the safe range).
  static bool rounds_to(const DW& y, W delta, T& r) {
    using std::abs;
    using std::isfinite;
    if (filter_force_exact() || !in_range(y) || y.hi == 0 || !isfinite(delta)) return false;
    r = round_to_nearest<T>(y);
    if (!isfinite(r) || r == 0) return false;
    const T r_up = next_representable(r, true);
    const T r_dn = next_representable(r, false);
    if (!isfinite(r_up) || !isfinite(r_dn)) return false;
    const W rw = W(r);
    const W gap_up = W(r_up) - rw, gap_dn = rw - W(r_dn);  // exact
    const W half = (gap_up < gap_dn ? gap_up : gap_dn) / 2;
    const W d = (y.hi - rw) + y.lo;  // y.hi - rw exact (Sterbenz)
    return ((abs(d) * (1 + 4 * u) + delta) * up) < half;
  }
  // offset_rounded's coordinate x_i + s u_i for s != 0 (D-GJK-18, D-EPA-9 (6)):
  // x_i in double words with its own error ex and the exact path's error mx
  // in it, u_i a unit-vector component with relative error rho_u. The sum's
  // own error adds (rho_u + 8 u^2) |s u_i| + 4 u^2 |result|, the exact path's
  // 64 u^2 |s u_i| + 8 u^2 |result|.
  static bool offset_rounds_to(const DW& x, W ex, W mx, const DW& ui, W rho_u, const T& s, T& r) {
    using std::abs;
    const DW w = times(ui, W(s));
    const DW y = x + w;
    if (!in_range(w) || !in_range(y)) return false;
    const W delta = ex + (rho_u + 8 * u2) * abs(w.hi) + 4 * u2 * abs(y.hi);
    const W m = mx + 64 * u2 * abs(w.hi) + 8 * u2 * abs(y.hi);
    return rounds_to(y, (delta + m) * rel, r);
  }
};

// ---- separated cores, without rationals (D-GJK-16, D-GJK-18) --------------------
//
// Polygons, and circles as their centre (a one-point core) and a radius
// (D-GJK-9). When the cores are certified apart with closest features fa, fb,
// every value the exact path rounds (distance_from_core, penetration_from_core)
// is one of: the core distance d = |q - p| against r = ra + rb, d - ra - rb,
// ra + rb - d, the unit vector u = (q - p) / d, a centre offset by a radius
// along u, a closest point of a polygon, or the common point of D-GJK-9.
// Each is evaluated here in
// double words with a bound on its own error; the bound of the exact path's own
// double-word error is added, and the T value is used when rounds_to proves it
// (D-GJK-16). Anything not proved (d within the bounds of r, a rounding near a
// midpoint) returns false and the exact path runs.
template <class T>
struct separated_values {
  bool apart = false;       // d > ra + rb, proved
  T distance{0}, depth{0};  // d - ra - rb when apart, ra + rb - d when not
  vec2<T> point_a{}, point_b{}, normal{}, common{};
};

template <class T>
bool fast_separated_values(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const feature& fa, const feature& fb,
                           const T& ra, const T& rb, bool for_epa, separated_values<T>& out) {
  using R = rounding_filter<T>;
  using W = typename R::W;
  using DW = typename R::DW;
  using std::abs;
  const W u2 = R::u2;
  auto plus0 = [](const T& x) { return x == 0 ? T(0) : x; };  // round_to gives +0 for 0
  // A closest point of a core: a T vertex (exact) or a point on an edge, in
  // double words with an error bound per coordinate.
  struct dpoint {
    vec2<T> v{};  // the coordinates that are T values (both for a vertex)
    DW x, y;      // the others, in double words with errors ex, ey
    W ex = 0, ey = 0;
    bool exact_x = true, exact_y = true;  // a point on an axis-parallel edge keeps one
  };
  dpoint P, Q;
  DW d, ux, uy;  // u is needed for a normal or a radius offset only
  W e_d = 0;
  const bool need_u = for_epa || ra != 0 || rb != 0;
  if (!fa.edge && !fb.edge) {
    P.v = a[fa.i];
    Q.v = b[fb.i];
    const DW dx = R::diff(Q.v.x, P.v.x), dy = R::diff(Q.v.y, P.v.y);
    const DW s2 = dx * dx + dy * dy;
    d = sqrt(s2);
    if (!R::in_range(dx) || !R::in_range(dy) || !R::in_range(s2) || !R::in_range(d) || !(d.hi > 0)) return false;
    e_d = 16 * u2 * abs(d.hi) * R::rel;
    if (need_u) {
      ux = R::is_zero(dx) ? DW(W(0)) : DW(dx / d);
      uy = R::is_zero(dy) ? DW(W(0)) : DW(dy / d);
    }
  } else {
    // A vertex v of one core and the interior of the edge (p0, p1) of the
    // other (a polygon, whose radius is 0).
    const bool edge_on_b = fb.edge;
    const std::span<const vec2<T>> E = edge_on_b ? b : a;
    const std::size_t e0 = edge_on_b ? fb.i : fa.i;
    const vec2<T>& p0 = E[e0];
    const vec2<T>& p1 = E[(e0 + 1) % E.size()];
    const vec2<T>& v = edge_on_b ? a[fa.i] : b[fb.i];
    const DW ex = R::diff(p1.x, p0.x), ey = R::diff(p1.y, p0.y);
    const DW wx = R::diff(v.x, p0.x), wy = R::diff(v.y, p0.y);
    const DW c1 = ex * wy, c2 = ey * wx;
    const DW cr = c1 - c2;  // cross(e, w)
    const W ecr = (8 * u2 * (abs(c1.hi) + abs(c2.hi)) + 4 * u2 * abs(cr.hi)) * R::up;
    const DW m1 = wx * ex, m2 = wy * ey;
    const DW num = m1 + m2;  // w . e
    const W enum_ = (8 * u2 * (abs(m1.hi) + abs(m2.hi)) + 4 * u2 * abs(num.hi)) * R::up;
    const DW len2 = ex * ex + ey * ey;
    const DW len = sqrt(len2);
    for (const DW* x : std::initializer_list<const DW*>{&ex, &ey, &wx, &wy, &c1, &c2, &cr, &m1, &m2, &num, &len2, &len})
      if (!R::in_range(*x)) return false;
    if (!(abs(cr.hi) > 1024 * ecr) || !(num.hi > 1024 * enum_)) return false;
    const W rho_cr = (ecr / abs(cr.hi)) * R::rel, rho_num = (enum_ / num.hi) * R::rel;
    d = abs(cr) / len;
    if (!R::in_range(d)) return false;
    e_d = ((rho_cr + 40 * u2) * abs(d.hi)) * R::rel;
    // u = sign(cross) (e.y, -e.x) / |e| for a vertex of A, sign(cross) (-e.y, e.x) / |e| for a vertex of B.
    const bool pos = (cr.hi > 0) == edge_on_b;
    const DW nx = pos ? ey : -ey, ny = pos ? -ex : ex;
    if (need_u) {
      ux = R::is_zero(nx) ? DW(W(0)) : DW(nx / len);
      uy = R::is_zero(ny) ? DW(W(0)) : DW(ny / len);
    }
    // The point on the edge, p0 + (num / |e|^2) e.
    dpoint on_edge;
    on_edge.exact_x = on_edge.exact_y = false;
    const DW t = num / len2;
    if (!R::in_range(t)) return false;
    const W rho_t = rho_num + 40 * u2;
    for (int i = 0; i < 2; ++i) {
      const DW& ei = i == 0 ? ex : ey;
      const T p0i = i == 0 ? p0.x : p0.y;
      DW& c = i == 0 ? on_edge.x : on_edge.y;
      W& ec = i == 0 ? on_edge.ex : on_edge.ey;
      if (R::is_zero(ei)) {  // the coordinate is p0's, exactly
        (i == 0 ? on_edge.exact_x : on_edge.exact_y) = true;
        (i == 0 ? on_edge.v.x : on_edge.v.y) = p0i;
        continue;
      }
      const DW w = t * ei;
      c = DW(W(p0i)) + w;
      if (!R::in_range(w) || (!R::is_zero(c) && !R::in_range(c))) return false;
      ec = ((rho_t + 8 * u2) * abs(w.hi) * R::rel + 4 * u2 * abs(c.hi)) * R::rel;
    }
    dpoint vertex;
    vertex.v = v;
    P = edge_on_b ? vertex : on_edge;
    Q = edge_on_b ? on_edge : vertex;
  }
  for (const DW* x : {&ux, &uy})
    if (!R::is_zero(*x) && !R::in_range(*x)) return false;
  const W rho_u = 40 * u2;  // own relative error of u (D-GJK-16)
  // d against r = ra + rb (exact as a double word): the exact path decides
  // d^2 > r^2 exactly; a gap larger than d's error bound proves the same sign.
  const DW r = eft::two_sum(W(ra), W(rb));
  const DW gap = d - r;
  if (!R::in_range(gap) || !(abs(gap.hi) > (e_d + 4 * u2 * abs(gap.hi)) * R::rel)) return false;
  out.apart = gap.hi > 0;
  auto exact_at = [](const dpoint& X, int i) { return i == 0 ? X.exact_x : X.exact_y; };
  auto coord = [&](const dpoint& X, int i) -> DW {
    return exact_at(X, i) ? DW(W(i == 0 ? X.v.x : X.v.y)) : (i == 0 ? X.x : X.y);
  };
  auto coord_error = [&](const dpoint& X, int i) -> W { return exact_at(X, i) ? W(0) : (i == 0 ? X.ex : X.ey); };
  // offset_rounded(X, q - p, s), coordinate i: round_vec(X) when s == 0 (a
  // correct rounding); otherwise X is a centre and the exact path evaluates
  // X_i + (s / |n|) n_i in double words, within 64 u^2 |s u_i| + 8 u^2 |result|.
  auto offset = [&](const dpoint& X, int i, const T& sv, T& out_r) -> bool {
    const DW& ui = i == 0 ? ux : uy;
    if (sv == 0) {
      if (exact_at(X, i)) {
        out_r = plus0(i == 0 ? X.v.x : X.v.y);
        return true;
      }
      const DW x = coord(X, i);
      if (R::is_zero(x)) return false;
      return R::rounds_to(x, coord_error(X, i), out_r);
    }
    if (!X.exact_x || !X.exact_y) return false;  // a radius is on a circle's side: X is its centre
    const T xi = i == 0 ? X.v.x : X.v.y;
    if (R::is_zero(ui)) {  // n_i = 0 exactly: the exact path adds an exact zero
      out_r = plus0(xi);
      return true;
    }
    return R::offset_rounds_to(DW(W(xi)), W(0), W(0), ui, rho_u, sv, out_r);
  };
  const T neg_rb = -rb;
  const bool want_points = for_epa || out.apart;
  if (want_points)
    for (int i = 0; i < 2; ++i) {
      if (!offset(P, i, ra, i == 0 ? out.point_a.x : out.point_a.y)) return false;
      if (!offset(Q, i, neg_rb, i == 0 ? out.point_b.x : out.point_b.y)) return false;
    }
  if (out.apart) {
    // sqrt(d^2) - ra - rb, left to right as the exact path; its own error is
    // 6 u^2 d (D-GJK-16) plus 3 u^2 per subtraction (none without radii).
    const bool radii = ra != 0 || rb != 0;
    const DW t1 = d - DW(W(ra));
    const DW y = t1 - DW(W(rb));
    if (!R::in_range(y) || (!R::is_zero(t1) && !R::in_range(t1))) return false;
    const W sums = radii ? W(abs(t1.hi) + abs(y.hi)) : W(0);
    const W delta = e_d + 4 * u2 * sums;
    const W m = 64 * u2 * abs(d.hi) + 8 * u2 * sums;
    if (!R::rounds_to(y, (delta + m) * R::rel, out.distance)) return false;
  } else if (for_epa) {
    // (ra + rb) - d: the sum is exact.
    const DW y = r - d;
    if (!R::in_range(y)) return false;
    const W delta = e_d + 4 * u2 * abs(y.hi);
    const W m = 64 * u2 * abs(d.hi) + 8 * u2 * abs(y.hi);
    if (!R::rounds_to(y, (delta + m) * R::rel, out.depth)) return false;
  } else {
    // The common point p + t (q - p), t = ra / d when the exact path's
    // double-word d exceeds ra, else 1 (D-GJK-9): the branch is proved first.
    const DW dr = d - DW(W(ra));
    if (!R::is_zero(dr) && !R::in_range(dr)) return false;
    if (!(abs(dr.hi) > (e_d + 64 * u2 * abs(d.hi) + 4 * u2 * abs(dr.hi)) * R::rel)) return false;
    const bool toward = dr.hi > 0;  // ra < d
    for (int i = 0; i < 2; ++i) {
      T& rc = i == 0 ? out.common.x : out.common.y;
      if (toward && ra != 0) {
        if (!offset(P, i, ra, rc)) return false;  // p + ra u, the same expression
        continue;
      }
      // t = 0 (ra == 0): from_exact(p_i) rounded; t = 1: from_exact(p_i) +
      // from_exact(q_i - p_i), which is q_i within 2 u^2 (|p_i| + |q_i - p_i|) + 4 u^2 |q_i|.
      const dpoint& X = toward ? P : Q;
      if (toward && exact_at(X, i)) {  // from_exact of a T value is exact
        rc = plus0(i == 0 ? X.v.x : X.v.y);
        continue;
      }
      const DW x = coord(X, i);
      if (R::is_zero(x)) return false;
      W m = 2 * u2 * abs(x.hi);
      if (!toward) {
        const DW pi = coord(P, i);
        m = 2 * u2 * (abs(pi.hi) + abs((x - pi).hi)) + 4 * u2 * abs(x.hi);
      }
      if (!R::rounds_to(x, (coord_error(X, i) + m) * R::rel, rc)) return false;
    }
  }
  if (for_epa)
    for (int i = 0; i < 2; ++i) {
      const DW& ui = i == 0 ? ux : uy;
      T& rn = i == 0 ? out.normal.x : out.normal.y;
      if (R::is_zero(ui)) {
        rn = T(0);
        continue;
      }
      if (!R::rounds_to(ui, (rho_u + 64 * u2) * abs(ui.hi) * R::rel, rn)) return false;
    }
  return true;
}

// The common point of a triangle simplex that strictly contains the origin,
// rounded: (c0 A0 + c1 A1 + c2 A2) / (c0 + c1 + c2) with c_k = cross(w_k+1,
// w_k+2), the barycentric form of D-GJK-6 (correctly rounded by the exact
// path). False when the rounding is not proved. D-GJK-16
template <class T>
bool fast_common(std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                 const vertex_pairs& idx, vec2<T>& out) {
  using R = rounding_filter<T>;
  using W = typename R::W;
  using DW = typename R::DW;
  using std::abs;
  const W u2 = R::u2;
  if (idx.size() != 3) return false;
  std::array<DW, 3> wx, wy, c;
  std::array<W, 3> ec;
  for (std::size_t k = 0; k < 3; ++k) {
    wx[k] = R::diff(a[idx[k].first].x, b[idx[k].second].x);
    wy[k] = R::diff(a[idx[k].first].y, b[idx[k].second].y);
  }
  for (std::size_t k = 0; k < 3; ++k) {
    const std::size_t i = (k + 1) % 3, j = (k + 2) % 3;
    const DW t1 = wx[i] * wy[j], t2 = wy[i] * wx[j];
    c[k] = t1 - t2;
    ec[k] = (8 * u2 * (abs(t1.hi) + abs(t2.hi)) + 4 * u2 * abs(c[k].hi)) * R::up;
    if (!R::in_range(wx[k]) || !R::in_range(wy[k]) || !R::in_range(t1) || !R::in_range(t2) || !R::in_range(c[k]))
      return false;
  }
  const DW s1 = c[0] + c[1];
  const DW D = s1 + c[2];
  const W eD = (((ec[0] + ec[1]) + ec[2]) + 4 * u2 * abs(s1.hi) + 4 * u2 * abs(D.hi)) * R::up;
  if (!R::in_range(s1) || !R::in_range(D) || !(abs(D.hi) > 1024 * eD)) return false;
  const W rho_D = (eD / abs(D.hi)) * R::rel;
  for (int dim = 0; dim < 2; ++dim) {
    std::array<DW, 3> p;
    W eX = 0;
    for (std::size_t k = 0; k < 3; ++k) {
      const T ak = dim == 0 ? a[idx[k].first].x : a[idx[k].first].y;
      p[k] = c[k] * DW(W(ak));
      if (!R::in_range(p[k])) return false;
      eX += ec[k] * abs(W(ak)) * R::up + 8 * u2 * abs(p[k].hi);
    }
    const DW s = p[0] + p[1];
    const DW X = s + p[2];
    eX = (eX * R::up + 4 * u2 * abs(s.hi) + 4 * u2 * abs(X.hi)) * R::up;
    if (!R::in_range(s) || !R::in_range(X) || !(abs(X.hi) > 1024 * eX)) return false;
    const W rho_X = (eX / abs(X.hi)) * R::rel;
    const DW q = X / D;
    T& r = dim == 0 ? out.x : out.y;
    if (!R::in_range(q) || !R::rounds_to(q, ((rho_X + rho_D) * W(1.002) + 16 * u2) * abs(q.hi) * R::rel, r))
      return false;
  }
  return true;
}

struct containment {
  bool contains = false;
  bool strict = false;  // origin in the interior of the simplex (hence of A - B)
  evec common;          // a point of A and of B (when contains)
};

// Does the exact simplex (vertex pairs) contain the origin? D-GJK-6
inline containment exact_simplex_contains(const epoly& A, const epoly& B,
                                          const vertex_pairs& idx) {
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
        // Barycentric weights of the origin (D-GJK-6).
        const exact l0 = cross(w[1], w[2]) / D, l1 = cross(w[2], w[0]) / D, l2 = cross(w[0], w[1]) / D;
        out.contains = true;
        out.strict = strict;
        out.common = l0 * A[idx[0].first] + l1 * A[idx[1].first] + l2 * A[idx[2].first];
        return out;
      }
      return out;
    }
  }
  // Segments (a flat triangle, or a 2-simplex) and points.
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

// exact_simplex_contains for a triangle whose orientation and three edge
// sides are all proved in T (D-GJK-14): 1 when the origin is strictly inside
// (then exact_simplex_contains answers contains and strict), 0 when it is
// proved outside a non-flat triangle (contains false), -1 when the filter does
// not decide (a point, a segment, a sign not proved): the caller runs
// exact_simplex_contains.
template <class T>
int filtered_simplex_contains(std::span<const vec2<T>> a, std::span<const vec2<T>> b,
                              const vertex_pairs& idx) {
  if (idx.size() != 3) {  // a point or a segment: the exact test decides
    ++filter_stats().fallback;
    return -1;
  }
  std::array<fvec<T>, 3> w;
  for (std::size_t k = 0; k < 3; ++k) w[k] = fsub(fvec_exact(a[idx[k].first]), fvec_exact(b[idx[k].second]));
  auto fcross = [](const fvec<T>& p, const fvec<T>& q) { return fsub(fmul(p.x, q.y), fmul(p.y, q.x)); };
  const int sd = fsign(fcross(fsub(w[1], w[0]), fsub(w[2], w[0])));
  if (sd == 0) {
    ++filter_stats().fallback;
    return -1;
  }
  bool inside = true;
  for (std::size_t k = 0; k < 3; ++k) {
    // orientation(w_k, w_k+1, origin) = sign(cross(w_k, w_k+1)).
    const int s = fsign(fcross(w[k], w[(k + 1) % 3]));
    if (s == 0) {
      ++filter_stats().fallback;
      return -1;
    }
    if (s == -sd) inside = false;
  }
  ++filter_stats().certain;
  return inside ? 1 : 0;
}

// The common point of exact_simplex_contains for a triangle that contains the
// origin (barycentric weights, D-GJK-6), the same expression.
inline evec barycentric_common(const epoly& A, const epoly& B,
                               const vertex_pairs& idx) {
  std::vector<evec> w;
  for (const auto& [i, j] : idx) w.push_back(A[i] - B[j]);
  const exact D = cross(w[1] - w[0], w[2] - w[0]);
  const exact l0 = cross(w[1], w[2]) / D, l1 = cross(w[2], w[0]) / D, l2 = cross(w[0], w[1]) / D;
  return l0 * A[idx[0].first] + l1 * A[idx[1].first] + l2 * A[idx[2].first];
}

// The origin on the boundary of the simplex is still interior to A - B when
// it lies inside a chord [W_i, W_j] of A - B and A - B reaches strictly
// beyond the chord's line on both sides (then a quadrilateral of points of
// A - B has the open chord inside it). Checked with exact supports; on
// success the two support pairs are added to `idx` (EPA's seed). D-GJK-6
inline bool interior_by_chord(const epoly& A, const epoly& B, vertex_pairs& idx) {
  for (std::size_t i = 0; i < idx.size(); ++i)
    for (std::size_t j = i + 1; j < idx.size(); ++j) {
      const evec wi = A[idx[i].first] - B[idx[i].second];
      const evec wj = A[idx[j].first] - B[idx[j].second];
      if (wi == wj || is_zero_vec(wi) || is_zero_vec(wj)) continue;
      if (cross(wi, wj) != 0 || dot(wi, wj) >= 0) continue;  // origin not strictly inside [wi, wj]
      const evec e = wj - wi;
      const evec n{exact(-e.y), e.x};
      vertex_pairs extra;
      for (const evec& d : {n, evec{exact(-n.x), exact(-n.y)}}) {
        const std::size_t ka = exact_argmax(A, d, idx[i].first), kb = exact_argmax(B, -d, idx[i].second);
        if (!(dot(d, A[ka] - B[kb]) > 0)) return false;  // the chord lies on the boundary
        extra.push_back({ka, kb});
      }
      for (const auto& e2 : extra) idx.push_back(e2);
      return true;
    }
  return false;
}

template <class T>
vertex_pairs simplex_indices(const gjk_simplex<T>& s) {
  vertex_pairs out;
  for (int k = 0; k < s.size; ++k) out.push_back({s.p[static_cast<std::size_t>(k)].ia, s.p[static_cast<std::size_t>(k)].ib});
  return out;
}

// Overlap of A and B along the axis n: max_A n.x - min_B n.x (>= 0 when the
// projections overlap; moving B by o/|n|^2 n makes them touch). D-GJK-11
struct axis_overlap {
  evec n;
  exact o;
  std::size_t ia = 0, ib = 0;  // extreme vertices
};

inline axis_overlap overlap_along(const epoly& A, const epoly& B, const evec& n, std::size_t ia0, std::size_t ib0) {
  const std::size_t ia = exact_argmax(A, n, ia0);
  const std::size_t ib = exact_argmax(B, -n, ib0);
  return {n, exact(dot(n, A[ia]) - dot(n, B[ib])), ia, ib};
}

// x.o / |x.n| < y.o / |y.n| (both axes nonzero), exactly.
inline bool smaller_overlap(const axis_overlap& x, const axis_overlap& y) {
  const bool xn = x.o < 0, yn = y.o < 0;
  if (xn != yn) return xn;
  const exact lhs = x.o * x.o * length_squared(y.n);
  const exact rhs = y.o * y.o * length_squared(x.n);
  return xn ? lhs > rhs : lhs < rhs;
}

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

// The smallest overlap over every edge normal of A - B, exactly (the
// fallback of EPA and the touching test): the penetration depth is
// o / |n| for the minimiser when every overlap is >= 0. D-GJK-11
inline axis_overlap exact_min_overlap(const epoly& A, const epoly& B) {
  const auto axes = minkowski_axes(A, B);
  if (axes.empty()) throw std::logic_error("exact_min_overlap: two points have no axis");
  bool have = false;
  axis_overlap best;
  for (const auto& n : axes) {
    const axis_overlap c = overlap_along(A, B, n, 0, 0);
    if (!have || smaller_overlap(c, best)) {
      have = true;
      best = c;
    }
  }
  return best;
}

// The outcome of the exact stage for two cores (polygons or points).
template <class T>
struct core_contact {
  // The input vertices as exact rationals, converted on first use: the
  // filtered paths (D-GJK-13..16, D-EPA-8, D-EPA-9) often need none.
  const epoly& A() const {
    load();
    return A_;
  }
  const epoly& B() const {
    load();
    return B_;
  }
  void load() const {
    if (loaded_) return;
    A_ = exact_points(a);
    B_ = exact_points(b);
    loaded_ = true;
  }
  mutable epoly A_, B_;
  mutable bool loaded_ = false;
  bool separated = false;
  // Exact values, present only when an exact path produced them (optional,
  // so the filtered queries construct no rationals).
  std::optional<exact_pair> closest;  // when separated
  bool strict_overlap = false;  // the origin is interior to A - B (depth > 0 proved)
  std::optional<evec> common;         // a common point when not separated
  vertex_pairs seed;  // simplex vertex pairs (EPA's start)
  int iterations = 0;
  bool capped = false;
  bool exact_fallback = false;
  // Separation proved by filtered_certify_separation (D-GJK-15): `closest` is
  // not filled; the closest features are fa, fb, and closest_pair() gives the
  // exact pair when it is needed.
  bool lazy_common = false;  // common not filled: it is barycentric_common(A, B, seed)
  bool lazy_closest = false;
  feature fa, fb;
  std::span<const vec2<T>> a, b;
};

// The exact closest pair of a separated core_contact (the stored one, or
// certify_separation's, which the filter reproduced step for step).
template <class T>
exact_pair closest_pair(const core_contact<T>& c) {
  if (!c.lazy_closest) return *c.closest;
  const separation_check s = certify_separation(c.A(), c.B(), c.seed);
  if (!s.separated) throw std::logic_error("GJK: filtered and exact certificates disagree (internal error)");
  return s.pair;
}

inline int automatic_cap(int requested, std::size_t na, std::size_t nb) {
  return requested > 0 ? requested : 32 + 4 * static_cast<int>(na + nb);
}

template <class T>
core_contact<T> core_query(std::span<const vec2<T>> a, std::span<const vec2<T>> b, int cap, bool need_common = true,
                           bool point_first = true) {
  core_contact<T> c;
  c.a = a;
  c.b = b;
  if constexpr (filter_enabled_v<T>) {
    // A circle's centre against a polygon: its closest feature found directly
    // and proved by the one-pass certificate; GJK's loop is skipped
    // (D-GJK-19; iterations is then 0).
    if (point_first && (a.size() == 1) != (b.size() == 1)) {
      const bool point_is_a = a.size() == 1;
      gjk_simplex<T> s;
      if (guess_point_features<T>(point_is_a ? b : a, point_is_a ? a[0] : b[0], point_is_a, s) &&
          direct_certify_separation<T>(a, b, s, c.fa, c.fb)) {
        ++filter_stats().certain;
        c.seed = simplex_indices(s);
        c.separated = true;
        c.lazy_closest = true;
        return c;
      }
    }
  }
  const gjk_run<T> run = gjk_core(a, b, cap);
  c.iterations = run.iterations;
  c.capped = run.claim == gjk_claim::cap;
  c.seed = simplex_indices(run.simplex);
  bool decided_outside = false;
  if constexpr (filter_enabled_v<T>) {
    if (run.claim == gjk_claim::intersecting) {
      const int f = filtered_simplex_contains<T>(a, b, c.seed);
      if (f == 1) {  // contains and strict: interior_by_chord is not needed (D-GJK-14)
        c.strict_overlap = true;
        c.lazy_common = need_common;  // barycentric_common when needed (D-GJK-16)
        return c;
      }
      decided_outside = f == 0;
    }
  }
  if (run.claim == gjk_claim::intersecting && !decided_outside) {
    const containment k = exact_simplex_contains(c.A(), c.B(), c.seed);
    if (k.contains) {
      c.strict_overlap = k.strict || interior_by_chord(c.A(), c.B(), c.seed);
      c.common = k.common;
      return c;
    }
  }
  if constexpr (filter_enabled_v<T>) {
    if (run.claim != gjk_claim::intersecting && direct_certify_separation<T>(a, b, run.simplex, c.fa, c.fb)) {
      ++filter_stats().certain;  // D-GJK-17 (polygons and circles' centres)
      c.separated = true;
      c.lazy_closest = true;
      return c;
    }
    if (a.size() > 1 && b.size() > 1) {  // the step-by-step filter is for polygons only (D-GJK-15)
      fpair<T> fp;
      if (filtered_certify_separation<T>(a, b, c.seed, fp)) {
        ++filter_stats().certain;
        c.separated = true;
        c.lazy_closest = true;
        c.fa = fp.fa;
        c.fb = fp.fb;
        return c;
      }
      ++filter_stats().fallback;
    }
  }
  const separation_check s = certify_separation(c.A(), c.B(), c.seed);
  if (s.separated) {
    c.separated = true;
    c.closest = s.pair;
    c.exact_fallback = s.brute_force;
    return c;
  }
  // The closed shapes meet, but T's simplex did not show it: GJK in exact
  // arithmetic finds a simplex that does (finite for polygons).
  c.exact_fallback = true;
  const int exact_cap = 64 + 8 * static_cast<int>(a.size() + b.size());
  const gjk_run<exact> er = gjk_core<exact>(c.A(), c.B(), exact_cap);
  c.seed = simplex_indices(er.simplex);
  const containment k = exact_simplex_contains(c.A(), c.B(), c.seed);
  if (er.claim != gjk_claim::intersecting || !k.contains)
    throw no_convergence("GJK: exact fallback did not confirm the intersection (internal error)");
  c.strict_overlap = k.strict || interior_by_chord(c.A(), c.B(), c.seed);
  c.common = k.common;
  return c;
}

// ---- rounding once ------------------------------------------------------------

// sqrt(q) for an exact q >= 0, evaluated in the accumulator and rounded once.
// D-GJK-8
template <class T>
T sqrt_rounded(const exact& q) {
  using A = accumulator<T>;
  if (q == 0) return T(0);
  return A::round(A::sqrt(A::from_exact(q)));
}

template <class T>
vec2<T> round_vec(const evec& p) {
  return {round_to<T>(p.x), round_to<T>(p.y)};
}

// p + s n / |n| for exact p, n (n != 0) and a T scalar s, in the accumulator,
// rounded once per coordinate. D-GJK-9
template <class T>
vec2<T> offset_rounded(const evec& p, const evec& n, const T& s) {
  using A = accumulator<T>;
  using W = typename A::type;
  if (s == 0) return round_vec<T>(p);
  const W len = A::sqrt(A::from_exact(length_squared(n)));
  const W k = A::from(s) / len;
  return {A::round(A::from_exact(p.x) + k * A::from_exact(n.x)), A::round(A::from_exact(p.y) + k * A::from_exact(n.y))};
}

// Inputs near T's overflow threshold can give a distance or a point that T
// cannot hold: an input error, never an infinity handed back.
template <class T>
const gjk_result<T>& require_finite_result(const gjk_result<T>& r) {
  for (const T* x : {&r.distance, &r.point_a.x, &r.point_a.y, &r.point_b.x, &r.point_b.y})
    if (!is_finite(*x))
      throw invalid_input("GJK: the result overflows " + std::string(scalar_name<T>()) +
                          ": the input is too large for this precision");
  return r;
}

// Distance of two cores with radii ra, rb (0 for polygons). D-GJK-8, D-GJK-9
template <class T>
gjk_result<T> distance_from_core(const core_contact<T>& c, const T& ra, const T& rb) {
  using A = accumulator<T>;
  using W = typename A::type;
  gjk_result<T> out;
  out.iterations = c.iterations;
  out.exact_fallback = c.exact_fallback || c.capped;
  // ra + rb, exactly; formed only where an exact path needs it.
  auto radii = [&] { return exact(to_exact(ra) + to_exact(rb)); };
  if (c.separated) {
    if constexpr (filter_enabled_v<T>) {
      if (c.lazy_closest) {
        separated_values<T> rv;
        if (fast_separated_values<T>(c.a, c.b, c.fa, c.fb, ra, rb, false, rv)) {  // D-GJK-16, D-GJK-18
          ++filter_stats().filtered_values;
          out.intersecting = !rv.apart;
          out.distance = rv.apart ? rv.distance : T(0);
          out.point_a = rv.apart ? rv.point_a : rv.common;
          out.point_b = rv.apart ? rv.point_b : rv.common;
          out.status = c.capped ? collision_status::cap_reached : collision_status::converged;
          return require_finite_result(out);
        }
        ++filter_stats().exact_values;
      }
    }
    const exact_pair closest = closest_pair(c);
    const exact& d2 = closest.d2;
    const evec n = closest.q - closest.p;
    const exact r = radii();
    if (d2 > r * r) {
      out.intersecting = false;
      const W d = A::sqrt(A::from_exact(d2)) - A::from(ra) - A::from(rb);
      out.distance = A::round(d);
      out.point_a = offset_rounded<T>(closest.p, n, ra);
      out.point_b = offset_rounded<T>(closest.q, n, T(-rb));
      out.status = c.capped ? collision_status::cap_reached : collision_status::converged;
      return require_finite_result(out);
    }
    // The cores are apart but the rounded shapes meet: a common point at
    // distance min(ra, d) from p along n.
    out.intersecting = true;
    out.distance = T(0);
    const W d = A::sqrt(A::from_exact(d2));
    const W ra_w = A::from(ra);
    const W t = A::less(ra_w, d) ? W(ra_w / d) : W(A::from(T(1)));
    const vec2<T> common{A::round(A::from_exact(closest.p.x) + t * A::from_exact(n.x)),
                         A::round(A::from_exact(closest.p.y) + t * A::from_exact(n.y))};
    out.point_a = common;
    out.point_b = common;
    const bool touching = d2 == r * r;
    out.status = c.capped ? collision_status::cap_reached
                          : (touching ? collision_status::touching : collision_status::converged);
    return require_finite_result(out);
  }
  out.intersecting = true;
  out.distance = T(0);
  bool have_point = false;
  if constexpr (filter_enabled_v<T>) {
    if (c.lazy_common) {
      have_point = fast_common<T>(c.a, c.b, c.seed, out.point_a);  // D-GJK-16
      ++(have_point ? filter_stats().filtered_values : filter_stats().exact_values);
    }
  }
  if (!have_point) out.point_a = round_vec<T>(c.lazy_common ? barycentric_common(c.A(), c.B(), c.seed) : *c.common);
  out.point_b = out.point_a;
  bool touching = false;
  if (!c.strict_overlap && radii() == 0) {
    // The origin is on the boundary of the simplex: it is on the boundary of
    // A - B iff some edge normal has zero overlap (exact, D-GJK-11).
    touching = exact_min_overlap(c.A(), c.B()).o == 0;
    out.exact_fallback = true;
  }
  out.status = c.capped ? collision_status::cap_reached
                        : (touching ? collision_status::touching : collision_status::converged);
  return require_finite_result(out);
}

template <class T>
std::span<const vec2<T>> one_point(const vec2<T>& p) {
  return std::span<const vec2<T>>(&p, 1);
}

}  // namespace detail

// ---- public API ------------------------------------------------------------------

template <class T>
gjk_result<T> gjk_distance(const convex_polygon<T>& a, const convex_polygon<T>& b, const gjk_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "gjk_distance needs a binary floating type (sqrt)");
  const std::span<const vec2<T>> sa(a.vertices), sb(b.vertices);
  const auto c = detail::core_query<T>(sa, sb, detail::automatic_cap(opt.max_iterations, sa.size(), sb.size()));
  return detail::distance_from_core<T>(c, T(0), T(0));
}

template <class T>
gjk_result<T> gjk_distance(const convex_polygon<T>& a, const circle<T>& b, const gjk_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "gjk_distance needs a binary floating type (sqrt)");
  const std::span<const vec2<T>> sa(a.vertices);
  const auto c = detail::core_query<T>(sa, detail::one_point(b.center),
                                       detail::automatic_cap(opt.max_iterations, sa.size(), 1), true, opt.point_first);
  return detail::distance_from_core<T>(c, T(0), b.radius);
}

template <class T>
gjk_result<T> gjk_distance(const circle<T>& a, const convex_polygon<T>& b, const gjk_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "gjk_distance needs a binary floating type (sqrt)");
  const std::span<const vec2<T>> sb(b.vertices);
  const auto c = detail::core_query<T>(detail::one_point(a.center), sb,
                                       detail::automatic_cap(opt.max_iterations, 1, sb.size()), true, opt.point_first);
  return detail::distance_from_core<T>(c, a.radius, T(0));
}

template <class T>
gjk_result<T> gjk_distance(const circle<T>& a, const circle<T>& b, const gjk_options& opt = {}) {
  static_assert(is_binary_floating_v<T>, "gjk_distance needs a binary floating type (sqrt)");
  const auto c = detail::core_query<T>(detail::one_point(a.center), detail::one_point(b.center),
                                       detail::automatic_cap(opt.max_iterations, 1, 1));
  return detail::distance_from_core<T>(c, a.radius, b.radius);
}

// Vertex lists: validated by make_convex_polygon (throws invalid_input).
template <class T>
gjk_result<T> gjk_distance(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const gjk_options& opt = {}) {
  return gjk_distance(make_convex_polygon(a), make_convex_polygon(b), opt);
}

// Intersection test only (touching counts as intersecting).
template <class T>
bool gjk_intersect(const convex_polygon<T>& a, const convex_polygon<T>& b, const gjk_options& opt = {}) {
  return gjk_distance(a, b, opt).intersecting;
}

}  // namespace rigidref
