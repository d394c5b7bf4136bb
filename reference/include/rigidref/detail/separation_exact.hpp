// The exact separation certificate (D-GJK-7), in rationals and, as run, in an
// integer frame (D-GJK-12): the stage after the filtered certificate
// (detail/separation_filtered.hpp) gives up, and the reference the filtered
// stages reproduce.
#pragma once

#include "rigidref/detail/collision_common.hpp"
#include "rigidref/predicates.hpp"

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::detail {

// Index of a vertex maximising n . v, walking uphill from `start`
// (uphill_walk, D-GJK-7); the current vertex's value is kept, not recomputed.
inline std::size_t exact_argmax(const epoly& v, const evec& n, std::size_t start) {
  if (v.size() == 1) return 0;
  exact value = dot(n, v[start % v.size()]);
  return uphill_walk(v.size(), start, [&](std::size_t j, std::size_t) {
    exact vj = dot(n, v[j]);
    if (!(vj > value)) return false;
    value = std::move(vj);
    return true;
  });
}

struct exact_pair {
  evec p, q;  // p in A, q in B
  exact d2;   // |q - p|^2
  std::size_t ia = 0, ib = 0;  // a vertex of A next to p, of B next to q
};

struct separation_check {
  bool separated = false;
  exact_pair pair;         // closest pair when separated
  bool brute_force = false;
};

// ---- the certificate in an integer frame (D-GJK-12) ---------------------------
//
// certify_separation below makes exactly the decisions of D-GJK-7 on the
// rationals (the closest point of a segment by the seed article's distLine,
// D-GJK-10; the vertex-edge pairs around a vertex pair; the optimality test
// with exact_argmax), on integer coordinates: every vertex x of A and B
// becomes X = (x - o) s, an integer, with s the common (power-of-two)
// denominator and o = A[0]. A point on a
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

// The frame's integers when every denominator is a power of two, as it is
// for every builtin floating input (D-GJK-29): the lcm is the largest
// denominator 2^k and (p - o) s is numerator(p) shifted left by k less p's
// own exponent, without a gcd or a division. False (f untouched) when a
// denominator is not a power of two.
inline bool dyadic_int_frame(const epoly& A, const epoly& B, int_frame& f) {
  using bmp::lsb;
  using bmp::msb;
  // The numerator and denominator in place (numerator() and denominator() copy).
  const auto num = [](const exact& x) -> const auto& { return x.backend().data().numerator(); };
  const auto den = [](const exact& x) -> const auto& { return x.backend().data().denominator(); };
  unsigned k = 0;
  for (const epoly* s : {&A, &B})
    for (const evec& p : *s)
      for (const exact* x : {&p.x, &p.y}) {
        const auto& d = den(*x);
        const unsigned e = msb(d);
        if (lsb(d) != e) return false;
        if (e > k) k = e;
      }
  const auto scaled = [&](const exact& x) {
    big_int v(num(x));
    v <<= k - msb(den(x));
    return v;
  };
  f.scale = big_int(1) << k;
  f.origin = A.front();
  const big_int ox = scaled(f.origin.x), oy = scaled(f.origin.y);
  const auto map = [&](const epoly& src, std::vector<ivec>& dst) {
    dst.reserve(src.size());
    for (const evec& p : src) dst.push_back({big_int(scaled(p.x) - ox), big_int(scaled(p.y) - oy)});
  };
  map(A, f.A);
  map(B, f.B);
  return true;
}

inline int_frame make_int_frame(const epoly& A, const epoly& B) {
  int_frame f;
  if (dyadic_int_frame(A, B, f)) return f;
  for (const epoly* s : {&A, &B})
    for (const evec& p : *s) {
      f.scale = boost::multiprecision::lcm(f.scale, big_int(denominator(p.x)));
      f.scale = boost::multiprecision::lcm(f.scale, big_int(denominator(p.y)));
    }
  f.origin = A.front();
  // (p - o) s: s is a multiple of every denominator.
  const big_int ox = on_scale(f.origin.x, f.scale), oy = on_scale(f.origin.y, f.scale);
  const auto map = [&](const epoly& src, std::vector<ivec>& dst) {  // A and B may be one object
    dst.reserve(src.size());
    for (const evec& p : src) dst.push_back({big_int(on_scale(p.x, f.scale) - ox), big_int(on_scale(p.y, f.scale) - oy)});
  };
  map(A, f.A);
  map(B, f.B);
  return f;
}

struct hpoint {
  ivec P;          // the point is P / w
  big_int w{1};    // > 0
};

// Closest point of the closed segment [a, b] to p (a == b allowed): the seed
// article's distLine (D-GJK-10) in homogeneous form: t = num / len2 is never
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

// The closest of: vertex A[ia] against the edges of B at B[ib], and vertex
// B[ib] against the edges of A at A[ia] (the first smallest, in this order).
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
  if (v.size() == 1) return 0;
  big_int value = idot(n, v[start % v.size()]);
  return uphill_walk(v.size(), start, [&](std::size_t j, std::size_t) {
    big_int vj = idot(n, v[j]);
    if (!(vj > value)) return false;
    value = std::move(vj);
    return true;
  });
}

// D-GJK-7: with n = q - p != 0, (p, q) is a closest pair iff p maximises
// n . x over A and q minimises it over B; ka, kb are the extreme vertices
// found (the next start when the test fails). In the frame,
// n . A[ka] <= n . p becomes (n . A[ka]) p.w <= n . P (p.w > 0).
inline bool optimal_pair_int(const int_frame& f, const int_pair& c, std::size_t& ka, std::size_t& kb) {
  const ivec neg{big_int(-c.n.x), big_int(-c.n.y)};
  ka = int_argmax(f.A, c.n, c.ia);
  kb = int_argmax(f.B, neg, c.ib);
  return idot(c.n, f.A[ka]) * c.p.w <= idot(c.n, c.p.P) && idot(c.n, f.B[kb]) * c.q.w >= idot(c.n, c.q.P);
}

// Back to the input's coordinates: x = o + P / (w s), |q - p|^2 = N / (D s^2).
// With O = o s an integer (s is a multiple of o's denominators), x is the one
// fraction (O w + P) / (w s): one reduction to lowest terms per value, the
// same canonical rational as the sum of two quotients (D-GJK-29).
inline exact_pair to_exact_pair(const int_frame& f, const int_pair& c) {
  const big_int ox = on_scale(f.origin.x, f.scale), oy = on_scale(f.origin.y, f.scale);
  auto point = [&](const hpoint& h) {
    const big_int den = h.w * f.scale;
    return evec{exact(big_int(ox * h.w + h.P.x), den), exact(big_int(oy * h.w + h.P.y), den)};
  };
  return {point(c.p), point(c.q), exact(c.N, big_int(c.D * f.scale * f.scale)), c.ia, c.ib};
}

// Certifies separation (D-GJK-7): the best vertex-edge pair around the
// simplex's vertices, then a descent that moves to the extreme vertices
// found by the failed test while the distance decreases, then (if that
// stalls) all vertex-edge pairs. Not separated means the closed shapes meet.
// Evaluated in the integer frame (D-GJK-12): the same steps and decisions
// as on the rationals.
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

}  // namespace rigidref::detail

#include "rigidref/detail/fp_end.hpp"
