// The collision campaign (`rigidref campaign`): many random and adversarial
// convex polygon pairs per type through gjk_distance, epa_penetration and
// sat, each compared with the exact oracle of collision_oracle.hpp.
//
// Per pair and per algorithm:
//   - decisions: intersecting and touching (SAT: separated / touching /
//     intersecting) must equal the oracle's, exactly;
//   - values: GJK distance, EPA depth, distance and unit normal, SAT depth,
//     depth^2, distance and normal, in eps of T against the bounds of
//     internal/bounds.hpp (1 ulp / 1.5 eps; depth^2 correctly rounded);
//     a value that must be exactly 0 (distance of an intersecting pair, depth
//     of a touching or separated pair) must be 0;
//   - time: every query is timed with steady_clock; a query above the limit
//     is rerun once, and counts as a hang only when the rerun is over it too,
//     in wall time and in CPU time (a shared machine can preempt a call:
//     that is counted as "slow", not as a hang);
//   - statuses: cap_reached and exact_fallback are counted (reported, not
//     failures: the values are still certified);
//   - circles (float, double, long double): circles built from the pair (a
//     centre at B's first vertex, against A in both orders, and against a
//     second circle) must get the same bits through the filter as with the
//     filter forced off (filter_agreement.hpp); a difference counts under
//     "bound".
//
// Adversarial kinds build their pairs in exact dyadic arithmetic: integer
// polygons (an exact integer convex hull), scaled by 16, then B is moved by
// a translation computed exactly so that it touches A at a chosen feature,
// optionally pushed in or out by a dyadic multiple of the face normal. Every
// coordinate is an integer times 2^-4 below 2^digits(T), so T holds it
// exactly and the pair the algorithms see is the pair that was built.
// Kinds:
//   random          full-precision random polygons (random_convex_polygon of
//                   collision_accuracy.hpp), 3..8 vertices, about half overlapping
//   touching        B's extreme vertex on a dyadic point of an edge of A: touching
//                   (or separated when the point misses the edge's closed segment)
//   parallel        B = -c A (every edge antiparallel to one of A's) or two
//                   axis-aligned rectangles; facing parallel edges touching,
//                   overlapping or separated by a push of j/16 across the face
//   shared-vertex   a vertex of B on a vertex of A: touching when B lies in A's
//                   normal cone there, overlapping otherwise
//   needle          lattice needles (aspect up to ~4e6) against polygons or needles
//   far             both shapes offset by 2^(min(digits(T)-2, 60)-4) (float 2^18,
//                   double 2^47, long double and mp 2^56), touching or pushed by up to 40/16
//   size-ratio      radius ratio 2^9..2^15, the small one at the big one's boundary
//   collinear       collinear (edge midpoints) and repeated vertices, either
//                   orientation, any start vertex (GJK/EPA take the list as is;
//                   SAT takes it without the repeats, which it rejects by contract)
#pragma once

#include "rigidref/epa.hpp"
#include "rigidref/gjk.hpp"
#include "rigidref/sat.hpp"
#include "rigidref/verify/accuracy.hpp"
#include "rigidref/internal/bounds.hpp"
#include "rigidref/internal/collision_accuracy.hpp"
#include "rigidref/verify/collision_oracle.hpp"
#include "rigidref/internal/filter_agreement.hpp"
#include "rigidref/verify/random.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

namespace rigidref::verify {

inline constexpr const char* campaign_kinds[] = {"random",   "touching", "parallel",   "shared-vertex",
                                                 "needle",   "far",      "size-ratio", "collinear"};
inline constexpr std::size_t campaign_kind_count = sizeof(campaign_kinds) / sizeof(campaign_kinds[0]);

template <class T>
struct campaign_pair {
  std::vector<vec2<T>> a, b;  // as given to gjk_distance / epa_penetration
  std::vector<vec2<T>> sat_a, sat_b;  // as given to sat (repeated vertices removed)
  std::string variant;  // which sub-construction made it
};

namespace detail {

using ipt = std::array<std::int64_t, 2>;
__extension__ typedef __int128 i128;  // products of coordinates up to 2^62 (GCC, Clang)
using ipoly = std::vector<ipt>;

inline i128 icross(const ipt& o, const ipt& a, const ipt& b) {
  return static_cast<i128>(a[0] - o[0]) * (b[1] - o[1]) - static_cast<i128>(a[1] - o[1]) * (b[0] - o[0]);
}
inline i128 idot(const ipt& n, const ipt& p) {
  return static_cast<i128>(n[0]) * p[0] + static_cast<i128>(n[1]) * p[1];
}

// Strictly convex hull, counter-clockwise (Andrew's monotone chain, exact).
inline ipoly hull(ipoly pts) {
  std::sort(pts.begin(), pts.end());
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  if (pts.size() < 3) return {};
  ipoly h(2 * pts.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && icross(h[k - 2], h[k - 1], pts[i]) <= 0) --k;
    h[k++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && icross(h[k - 2], h[k - 1], pts[i - 1]) <= 0) --k;
    h[k++] = pts[i - 1];
  }
  h.resize(k - 1);
  if (h.size() < 3) return {};
  return h;
}

// An integer convex polygon with 3..max_n vertices: n points at random
// angles on a circle of radius r (rounded to integers), their hull.
inline ipoly integer_convex(rng& g, int max_n, double r) {
  const double two_pi = 2 * std::acos(-1.0);
  for (;;) {
    const int n = uniform_int(g, 3, max_n);
    const double aspect = std::uniform_real_distribution<double>(0.3, 1)(g);
    const double turn = two_pi * std::uniform_real_distribution<double>(0, 1)(g);
    ipoly pts;
    for (int i = 0; i < n; ++i) {
      const double t = two_pi * std::uniform_real_distribution<double>(0, 1)(g);
      const double x = r * std::cos(t), y = r * aspect * std::sin(t);
      pts.push_back({std::llround(x * std::cos(turn) - y * std::sin(turn)),
                     std::llround(x * std::sin(turn) + y * std::cos(turn))});
    }
    ipoly h = hull(pts);
    if (h.size() >= 3) return h;
  }
}

inline ipoly scaled(const ipoly& p, std::int64_t s) {
  ipoly out;
  for (const auto& q : p) out.push_back({q[0] * s, q[1] * s});
  return out;
}
inline ipoly translated(const ipoly& p, const ipt& t) {
  ipoly out;
  for (const auto& q : p) out.push_back({q[0] + t[0], q[1] + t[1]});
  return out;
}
inline ipt outward_normal(const ipoly& p, std::size_t i) {  // counter-clockwise p
  const ipt& a = p[i];
  const ipt& b = p[(i + 1) % p.size()];
  return {b[1] - a[1], a[0] - b[0]};
}
// A vertex of p minimising n . x (a random one of two on a tie).
inline std::size_t argmin_dot(rng& g, const ipoly& p, const ipt& n) {
  std::vector<std::size_t> best{0};
  i128 v = idot(n, p[0]);
  for (std::size_t i = 1; i < p.size(); ++i) {
    const i128 d = idot(n, p[i]);
    if (d < v) {
      v = d;
      best = {i};
    } else if (d == v) {
      best.push_back(i);
    }
  }
  return best[static_cast<std::size_t>(uniform_int(g, 0, static_cast<int>(best.size()) - 1))];
}

// Units: every coordinate below is in 1/16 (the final values are x / 16).
constexpr std::int64_t unit = 16;

// B (in units) moved so that its extreme vertex along -n(edge i of A) lands
// on A[i] + k/16 (A[i+1] - A[i]), k in 0..16 (or slightly beyond when
// `overhang`), then pushed by j/16 along the coordinate axis nearest to the
// face normal n (j < 0 overlaps, j > 0 separates, by at most j/16).
inline ipoly face_contact(rng& g, const ipoly& a, const ipoly& b, std::size_t i, int j, bool overhang) {
  const ipt n = outward_normal(a, i);
  const ipt& p = a[i];
  const ipt& q = a[(i + 1) % a.size()];
  const int k = overhang ? uniform_int(g, -4, 20) : uniform_int(g, 0, 16);
  // p, q, b are in units; P = p + k (q - p) / 16, exact because units are 16.
  const ipt P{p[0] + k * (q[0] - p[0]) / unit, p[1] + k * (q[1] - p[1]) / unit};
  const std::size_t s = argmin_dot(g, b, n);
  // The push: j units along the axis direction d closest to n (n . d > 0),
  // so the gap or depth is at most j/16 whatever the edge's length.
  const ipt d = (n[0] < 0 ? -n[0] : n[0]) >= (n[1] < 0 ? -n[1] : n[1]) ? ipt{n[0] > 0 ? 1 : -1, 0}
                                                                       : ipt{0, n[1] > 0 ? 1 : -1};
  const ipt t{P[0] - b[s][0] + j * d[0], P[1] - b[s][1] + j * d[1]};
  return translated(b, t);
}

// A face-contact push: mostly touching (j = 0), else -3..3.
inline int push(rng& g) { return uniform_int(g, 0, 2) == 0 ? uniform_int(g, -3, 3) : 0; }

inline std::int64_t egcd(std::int64_t a, std::int64_t b, std::int64_t& x, std::int64_t& y) {
  if (b == 0) {
    x = a >= 0 ? 1 : -1;
    y = 0;
    return a >= 0 ? a : -a;
  }
  std::int64_t x1 = 0, y1 = 0;
  const std::int64_t d = egcd(b, a % b, x1, y1);
  x = y1;
  y = x1 - (a / b) * y1;
  return d;
}

// A lattice needle: p0, p0 + w, p0 + L u + w, p0 + L u with cross(u, w) = 1
// (a parallelogram of area L), or the triangle p0, p0 + L u, p0 + w.
inline ipoly needle(rng& g, int max_len_exp) {
  for (;;) {
    const std::int64_t ux = uniform_int(g, -32, 32), uy = uniform_int(g, -32, 32);
    std::int64_t x = 0, y = 0;
    if (ux == 0 && uy == 0) continue;
    if (egcd(ux, uy, x, y) != 1) continue;
    // ux x + uy y = 1: w = (-y, x) has cross(u, w) = ux x + uy y = 1.
    const ipt w{-y, x};
    const std::int64_t L = std::int64_t(1) << uniform_int(g, 3, max_len_exp);
    const ipt p0{uniform_int(g, -64, 64), uniform_int(g, -64, 64)};
    ipoly p{p0, {p0[0] + L * ux, p0[1] + L * uy}, {p0[0] + L * ux + w[0], p0[1] + L * uy + w[1]}, {p0[0] + w[0], p0[1] + w[1]}};
    if (uniform_int(g, 0, 2) == 0) p.erase(p.begin() + 2);
    ipoly h = hull(p);
    if (h.size() >= 3) return h;
  }
}

template <class T>
T to_t(std::int64_t v) {
  using std::ldexp;
  using boost::multiprecision::ldexp;
  const T x = T(static_cast<long long>(v));
  return ldexp(x, -4);  // units of 1/16
}

// Every coordinate must be exact in T (|v| < 2^digits).
template <class T>
bool representable(const ipoly& p) {
  const int d = std::min(digits<T>(), 62);
  const std::int64_t lim = std::int64_t(1) << d;
  for (const auto& q : p)
    if (q[0] >= lim || q[0] <= -lim || q[1] >= lim || q[1] <= -lim) return false;
  return true;
}

template <class T>
std::vector<vec2<T>> to_poly(const ipoly& p) {
  std::vector<vec2<T>> out;
  for (const auto& q : p) out.push_back({to_t<T>(q[0]), to_t<T>(q[1])});
  return out;
}

// Either orientation, any start vertex.
template <class V>
void shuffle_order(rng& g, std::vector<V>& v) {
  if (uniform_int(g, 0, 1) == 1) std::reverse(v.begin(), v.end());
  std::rotate(v.begin(), v.begin() + uniform_int(g, 0, static_cast<int>(v.size()) - 1), v.end());
}

// Collinear (edge midpoints; exact: units are 16, the hull's vertices even)
// and repeated vertices added to a counter-clockwise polygon in units.
inline ipoly with_collinear(rng& g, const ipoly& p, int extra) {
  ipoly out = p;
  for (int e = 0; e < extra; ++e) {
    const std::size_t i = static_cast<std::size_t>(uniform_int(g, 0, static_cast<int>(out.size()) - 1));
    const ipt& a = out[i];
    const ipt& b = out[(i + 1) % out.size()];
    if (uniform_int(g, 0, 2) == 0) {
      out.insert(out.begin() + static_cast<std::ptrdiff_t>(i + 1), a);  // a repeat
    } else if ((a[0] + b[0]) % 2 == 0 && (a[1] + b[1]) % 2 == 0 && !(a == b)) {
      out.insert(out.begin() + static_cast<std::ptrdiff_t>(i + 1), ipt{(a[0] + b[0]) / 2, (a[1] + b[1]) / 2});
    }
  }
  return out;
}

template <class V>
std::vector<V> without_repeats(const std::vector<V>& v) {
  std::vector<V> out;
  for (const auto& p : v)
    if (out.empty() || !(out.back() == p)) out.push_back(p);
  while (out.size() > 1 && out.front() == out.back()) out.pop_back();
  return out;
}

}  // namespace detail

// One pair of the given kind, a pure function of the generator state.
template <class T>
campaign_pair<T> campaign_generate(rng& g, const std::string& kind) {
  using detail::argmin_dot, detail::face_contact, detail::integer_convex, detail::ipoly, detail::ipt, detail::needle;
  using detail::outward_normal, detail::push, detail::representable, detail::scaled, detail::shuffle_order;
  using detail::to_poly, detail::translated, detail::unit, detail::with_collinear;
  campaign_pair<T> out;
  if (kind == "random") {
    const T ra = uniform<T>(g, T(0.5), T(2)), rb = uniform<T>(g, T(0.5), T(2));
    const vec2<T> ca{uniform<T>(g, T(-1), T(1)), uniform<T>(g, T(-1), T(1))};
    const double phi = 2 * std::acos(-1.0) * std::uniform_real_distribution<double>(0, 1)(g);
    const T dist = T(ra + rb) * uniform<T>(g, T(0.1), T(1.6));
    const vec2<T> cb{T(ca.x + dist * T(std::cos(phi))), T(ca.y + dist * T(std::sin(phi)))};
    out.a = random_convex_polygon<T>(g, uniform_int(g, 3, 8), ra, ca);
    out.b = random_convex_polygon<T>(g, uniform_int(g, 3, 8), rb, cb);
    out.variant = "random";
  } else {
    const int dig = digits<T>();
    // Largest integer radius (before the x16 units) that keeps every coordinate exact.
    const double rmax = std::ldexp(1.0, std::min(dig - 6, 20));
    ipoly A, B;
    for (int attempt = 0;; ++attempt) {
      const double r1 = std::min(rmax, std::ldexp(1.0, uniform_int(g, 3, 10)));
      const double r2 = std::min(rmax, std::ldexp(1.0, uniform_int(g, 3, 10)));
      if (kind == "touching") {
        A = scaled(integer_convex(g, 8, r1), unit);
        B = scaled(integer_convex(g, 8, r2), unit);
        const std::size_t i = static_cast<std::size_t>(uniform_int(g, 0, static_cast<int>(A.size()) - 1));
        const bool over = uniform_int(g, 0, 3) == 0;
        B = face_contact(g, A, B, i, 0, over);
        out.variant = over ? "vertex-on-edge line" : "vertex-on-edge";
      } else if (kind == "parallel") {
        if (uniform_int(g, 0, 3) == 0) {
          const std::int64_t w1 = uniform_int(g, 1, 64), h1 = uniform_int(g, 1, 64), w2 = uniform_int(g, 1, 64),
                             h2 = uniform_int(g, 1, 64);
          A = scaled({{0, 0}, {w1, 0}, {w1, h1}, {0, h1}}, unit);
          // Offsets in units: multiples of 16 (edges flush) or of 8, +-1.
          auto off = [&](std::int64_t lo, std::int64_t hi) {
            std::int64_t v = uniform_int(g, static_cast<int>(lo), static_cast<int>(hi)) * 8;
            if (uniform_int(g, 0, 3) == 0) v += uniform_int(g, -1, 1);
            return v;
          };
          B = translated(scaled({{0, 0}, {w2, 0}, {w2, h2}, {0, h2}}, unit),
                         {off(-2 * w2 - 1, 2 * w1 + 1), off(-2 * h2 - 1, 2 * h1 + 1)});
          out.variant = "axis-aligned rectangles";
        } else {
          A = scaled(integer_convex(g, 8, r1), unit);
          const std::int64_t c = uniform_int(g, 1, 3);
          ipoly nb;
          for (const auto& p : A) nb.push_back({-c * p[0], -c * p[1]});
          const std::size_t i = static_cast<std::size_t>(uniform_int(g, 0, static_cast<int>(A.size()) - 1));
          B = face_contact(g, A, nb, i, push(g), uniform_int(g, 0, 3) == 0);
          out.variant = "B = -cA facing edges";
        }
      } else if (kind == "shared-vertex") {
        A = scaled(integer_convex(g, 8, r1), unit);
        B = scaled(integer_convex(g, 8, r2), unit);
        const std::size_t i = static_cast<std::size_t>(uniform_int(g, 0, static_cast<int>(A.size()) - 1));
        if (uniform_int(g, 0, 1) == 0) {
          // n inside A's normal cone at A[i]: B's extreme vertex on A[i] touches there only.
          const ipt n1 = outward_normal(A, (i + A.size() - 1) % A.size()), n2 = outward_normal(A, i);
          const ipt n{n1[0] + n2[0], n1[1] + n2[1]};
          const std::size_t s = argmin_dot(g, B, n);
          B = translated(B, {A[i][0] - B[s][0], A[i][1] - B[s][1]});
          out.variant = "vertex on vertex, in the normal cone";
        } else {
          const std::size_t s = static_cast<std::size_t>(uniform_int(g, 0, static_cast<int>(B.size()) - 1));
          B = translated(B, {A[i][0] - B[s][0], A[i][1] - B[s][1]});
          out.variant = "vertex on vertex, any";
        }
      } else if (kind == "needle") {
        const int len_exp = std::min(12, dig - 12);
        A = scaled(needle(g, len_exp), unit);
        B = uniform_int(g, 0, 1) == 0 ? scaled(needle(g, len_exp), unit) : scaled(integer_convex(g, 8, r2), unit);
        if (uniform_int(g, 0, 1) == 0) {
          const std::size_t i = static_cast<std::size_t>(uniform_int(g, 0, static_cast<int>(A.size()) - 1));
          B = face_contact(g, A, B, i, push(g), false);
          out.variant = "face contact on a needle";
        } else {
          // B's first vertex near a random point of A's long diagonal.
          const std::size_t far_i = A.size() / 2;
          const int k = uniform_int(g, 0, 16);
          const ipt P{A[0][0] + k * (A[far_i][0] - A[0][0]) / unit + uniform_int(g, -8, 8),
                      A[0][1] + k * (A[far_i][1] - A[0][1]) / unit + uniform_int(g, -8, 8)};
          B = translated(B, {P[0] - B[0][0], P[1] - B[0][1]});
          out.variant = "crossing near a needle";
        }
      } else if (kind == "far") {
        const double rf = std::min(rmax, std::ldexp(1.0, uniform_int(g, 2, 8)));
        A = scaled(integer_convex(g, 8, rf), unit);
        B = scaled(integer_convex(g, 8, std::min(rmax, std::ldexp(1.0, uniform_int(g, 2, 8)))), unit);
        const std::size_t i = static_cast<std::size_t>(uniform_int(g, 0, static_cast<int>(A.size()) - 1));
        B = face_contact(g, A, B, i, uniform_int(g, 0, 1) == 0 ? 0 : uniform_int(g, -40, 40), true);
        const int fe = std::min(dig - 2, 60);  // in units (1/16): the offset is 2^(fe - 4)
        const std::int64_t F = std::int64_t(1) << fe;
        const ipt off{(uniform_int(g, 0, 1) ? F : -F) + uniform_int(g, -1000, 1000),
                      (uniform_int(g, 0, 1) ? F : -F) + uniform_int(g, -1000, 1000)};
        A = translated(A, off);
        B = translated(B, off);
        out.variant = "offset 2^" + std::to_string(fe - 4);
      } else if (kind == "size-ratio") {
        const int big_exp = std::min(dig - 10, uniform_int(g, 12, 16));
        A = scaled(integer_convex(g, 8, std::ldexp(1.0, big_exp)), unit);
        B = scaled(integer_convex(g, 8, std::ldexp(1.0, uniform_int(g, 1, 3))), unit);
        const std::size_t i = static_cast<std::size_t>(uniform_int(g, 0, static_cast<int>(A.size()) - 1));
        B = face_contact(g, A, B, i, push(g), false);
        out.variant = "big A, small B";
        if (uniform_int(g, 0, 1) == 0) {
          std::swap(A, B);
          out.variant = "small A, big B";
        }
      } else if (kind == "collinear") {
        A = scaled(integer_convex(g, 5, r1), unit);
        B = scaled(integer_convex(g, 5, r2), unit);
        const std::size_t i = static_cast<std::size_t>(uniform_int(g, 0, static_cast<int>(A.size()) - 1));
        B = face_contact(g, A, B, i, push(g), uniform_int(g, 0, 3) == 0);
        A = with_collinear(g, A, uniform_int(g, 0, 3));
        B = with_collinear(g, B, uniform_int(g, 1, 3));
        out.variant = "collinear and repeated vertices";
      } else {
        throw invalid_input("unknown campaign kind: " + kind);
      }
      if (representable<T>(A) && representable<T>(B)) break;
      if (attempt > 100) throw std::logic_error("campaign: cannot build an exact pair of kind " + kind);
    }
    out.a = to_poly<T>(A);
    out.b = to_poly<T>(B);
  }
  shuffle_order(g, out.a);
  shuffle_order(g, out.b);
  if (uniform_int(g, 0, 1) == 1) std::swap(out.a, out.b);
  out.sat_a = detail::without_repeats(out.a);
  out.sat_b = detail::without_repeats(out.b);
  return out;
}

// The generator of pair `index` of `kind`: every pair is reproducible alone.
inline rng campaign_rng(std::uint64_t seed, std::size_t kind, std::uint64_t index) {
  std::seed_seq s{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32),
                  static_cast<std::uint32_t>(kind), static_cast<std::uint32_t>(index),
                  static_cast<std::uint32_t>(index >> 32)};
  return rng(s);
}

// ---- checking one pair ----------------------------------------------------------

// Running totals for one (type, kind).
struct campaign_row {
  std::string type, kind;
  std::size_t pairs = 0;
  std::size_t decision_mismatches = 0;  // pairs with any decision different from the oracle's
  std::size_t bound_failures = 0;       // pairs with any value outside its bound
  std::size_t errors = 0;               // pairs where a query threw
  std::size_t hangs = 0;                // queries over the time limit twice
  std::size_t slow_once = 0;            // over the wall limit, but not twice and in CPU time (preempted)
  std::size_t gjk_caps = 0, epa_caps = 0;
  std::size_t gjk_fallbacks = 0, epa_fallbacks = 0;
  std::size_t touching = 0, intersecting = 0, separated = 0;  // the oracle's verdicts
  double worst_eps = 0, worst_ulps = 0;
  std::string worst_metric, worst_case;
  double max_query_ms = 0;
  std::string max_query_what;
  std::vector<std::string> failures;  // the first few, in full
  bool failed() const { return decision_mismatches + bound_failures + errors + hangs > 0; }
};

struct campaign_limits {
  double max_query_ms = 50;  // for pairs with at most 8 vertices each; scaled by (n / 8)^2 above
  std::size_t keep_failures = 3;
};

template <class T>
std::string describe_pair(const campaign_pair<T>& p) {
  auto poly = [](const std::vector<vec2<T>>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ",[" : "[") + to_string(v[i].x) + "," + to_string(v[i].y) + "]";
    return s + "]";
  };
  return "a=" + poly(p.a) + " b=" + poly(p.b);
}

template <class T>
void campaign_check(const campaign_pair<T>& p, const std::string& where, const campaign_limits& lim, campaign_row& row) {
  using clock = std::chrono::steady_clock;
  ++row.pairs;
  const std::string full = where + " (" + p.variant + ") " + describe_pair(p);
  auto fail = [&](const std::string& why) {
    if (row.failures.size() < lim.keep_failures) row.failures.push_back(why + ": " + full);
  };
  const exact_collision o = exact_convex_collision<T>(std::span<const vec2<T>>(p.a), std::span<const vec2<T>>(p.b));
  (o.touching ? row.touching : (o.intersecting ? row.intersecting : row.separated))++;
  const std::size_t nmax = std::max(p.a.size(), p.b.size());
  const double limit_ms = lim.max_query_ms * std::max(1.0, (static_cast<double>(nmax) / 8) * (static_cast<double>(nmax) / 8));
  bool hang = false;
  // Runs f, timed by steady_clock (wall) and std::clock (this process's CPU
  // time; the campaign is single-threaded). Over the wall limit: rerun once.
  // A hang is a query over the limit in wall time on both runs AND in CPU
  // time on the rerun, so that preemption on a shared machine (the wall
  // clock keeps running while the process waits for a core) is reported as
  // "slow", not as a hang. An infinite loop exceeds both.
  auto timed = [&](const char* what, auto&& f) {
    auto t0 = clock::now();
    auto r = f();
    double ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
    if (ms > limit_ms) {
      t0 = clock::now();
      const std::clock_t c0 = std::clock();
      r = f();
      const double cpu = 1000.0 * static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
      const double again = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
      if (again > limit_ms && cpu > limit_ms) {
        ++row.hangs;
        hang = true;
        fail(std::string(what) + " took " + std::to_string(ms) + " ms and " + std::to_string(again) + " ms wall, " +
             std::to_string(cpu) + " ms CPU (limit " + std::to_string(limit_ms) + " ms)");
      } else {
        ++row.slow_once;
      }
      ms = std::min(ms, again);
    }
    if (ms > row.max_query_ms) {
      row.max_query_ms = ms;
      row.max_query_what = std::string(what) + " " + where;
    }
    return r;
  };
  bool decision_bad = false, bound_bad = false;
  auto measure = [&](const char* metric, const T& computed, const exact& truth) {
    const accuracy_bound* b = find_bound(metric, digits<T>());
    const double ulps = ulps_from_rounded(computed, truth);
    const double eps = relative_error_eps(computed, truth);
    if (row.worst_case.empty() || eps > row.worst_eps) {
      row.worst_eps = eps;
      row.worst_metric = metric;
      row.worst_ulps = ulps;
      row.worst_case = full + " " + metric + " computed=" + to_string(computed) +
                       " oracle=" + error_stats::exact_to_text(truth);
    }
    if (b == nullptr || ulps > b->max_ulps || eps > b->max_eps) {
      if (!bound_bad)
        fail(std::string("bound: ") + metric + " " + std::to_string(ulps) + " ulps, " + std::to_string(eps) +
             " eps, computed=" + to_string(computed) + " oracle=" + error_stats::exact_to_text(truth));
      bound_bad = true;
    }
  };
  auto must_be_zero = [&](const char* what, const T& v) {
    if (v != 0) {
      if (!bound_bad) fail(std::string(what) + " must be exactly 0, got " + to_string(v));
      bound_bad = true;
    }
  };
  auto decision = [&](const char* what, bool ok, const std::string& got) {
    if (!ok) {
      if (!decision_bad) fail(std::string("decision: ") + what + " " + got);
      decision_bad = true;
    }
  };
  // Each 230-digit root once per pair (the distance is measured for GJK,
  // EPA and SAT, the depth for EPA and SAT).
  std::optional<exact> distance_root, depth_root;
  const auto root_of_distance = [&]() -> const exact& {
    if (!distance_root) distance_root = sqrt_oracle(o.distance_squared);
    return *distance_root;
  };
  const auto root_of_depth = [&]() -> const exact& {
    if (!depth_root) depth_root = sqrt_oracle(o.depth_squared);
    return *depth_root;
  };
  const std::string want = o.touching ? "touching" : (o.intersecting ? "intersecting" : "separated");
  const std::span<const vec2<T>> sa(p.a), sb(p.b);
  try {
    // ---- GJK
    const gjk_result<T> g = timed("gjk", [&] { return gjk_distance<T>(sa, sb); });
    if (g.status == collision_status::cap_reached) ++row.gjk_caps;
    if (g.exact_fallback) ++row.gjk_fallbacks;
    const bool g_touch = g.status == collision_status::touching;
    decision("gjk", g.intersecting == o.intersecting && g_touch == o.touching,
             std::string("intersecting=") + (g.intersecting ? "true" : "false") + " status=" + to_string(g.status) +
                 ", oracle " + want);
    if (!o.intersecting) measure("gjk.distance", g.distance, root_of_distance());
    else must_be_zero("gjk distance of an intersecting pair", g.distance);
    // ---- EPA
    const epa_result<T> e = timed("epa", [&] { return epa_penetration<T>(sa, sb); });
    if (e.status == collision_status::cap_reached) ++row.epa_caps;
    if (e.exact_fallback) ++row.epa_fallbacks;
    const bool e_touch = e.status == collision_status::touching;
    decision("epa", e.intersecting == o.intersecting && e_touch == o.touching,
             std::string("intersecting=") + (e.intersecting ? "true" : "false") + " status=" + to_string(e.status) +
                 ", oracle " + want);
    if (!o.intersecting) {
      measure("gjk.distance", e.distance, root_of_distance());
      must_be_zero("epa depth of a separated pair", e.depth);
    } else if (o.touching) {
      must_be_zero("epa depth of a touching pair", e.depth);
    } else {
      measure("epa.depth", e.depth, root_of_depth());
      if (o.minimising_axes == 1) {
        const exact len = sqrt_oracle(length_squared(o.normal_axis));
        measure("epa.normal", e.normal.x, exact(o.normal_axis.x / len));
        measure("epa.normal", e.normal.y, exact(o.normal_axis.y / len));
      }
    }
    // ---- SAT
    const sat_result<T> s = timed("sat", [&] { return sat<T>(p.sat_a, p.sat_b); });
    const contact_status cs = o.touching ? contact_status::touching
                                         : (o.intersecting ? contact_status::intersecting : contact_status::separated);
    decision("sat", s.status == cs,
             std::string("status=") +
                 (s.status == contact_status::separated ? "separated"
                                                        : (s.status == contact_status::touching ? "touching" : "intersecting")) +
                 ", oracle " + want);
    if (!o.intersecting) {
      measure("sat distance", s.distance, root_of_distance());
      must_be_zero("sat depth of a separated pair", s.depth);
    } else if (o.touching) {
      must_be_zero("sat depth of a touching pair", s.depth);
    } else {
      measure("sat depth", s.depth, root_of_depth());
      measure("sat depth_squared", s.depth_squared, o.depth_squared);
      if (o.minimising_axes == 1) {
        const exact n2 = length_squared(o.normal_axis);
        auto comp = [&](const exact& v) {
          const exact m = sqrt_oracle(v * v / n2);
          return v < 0 ? exact(-m) : m;
        };
        measure("sat normal", s.normal.x, comp(o.normal_axis.x));
        measure("sat normal", s.normal.y, comp(o.normal_axis.y));
      }
    }
    // ---- circles: the filtered answers are the exact path's, bit for bit
    // (D-GJK-18, D-EPA-9 (6)); their accuracy is the exact path's (D-GJK-9).
    if constexpr (filter_enabled_v<T>) {
      const std::string differs = circle_filter_disagreement(p.a, p.b);
      if (!differs.empty()) {
        if (!bound_bad) fail("circle: " + differs + " differs from the forced-exact path");
        bound_bad = true;
      }
    }
  } catch (const std::exception& ex) {
    ++row.errors;
    fail(std::string("exception: ") + ex.what());
  }
  (void)hang;
  if (decision_bad) ++row.decision_mismatches;
  if (bound_bad) ++row.bound_failures;
}

}  // namespace rigidref::verify
