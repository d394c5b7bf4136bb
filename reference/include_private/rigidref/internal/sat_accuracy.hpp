// Accuracy runs for sat.hpp and the article's rectangle test, against the
// exact oracle of verify/collision_oracle.hpp (written independently of the
// SAT code): a reproducible corpus of convex polygon pairs per type, and the
// error tables for the report. Shared by `rigidref report`
// (tools/report/report.cpp) and tests/sat_test.cpp.
//
// Functions measured (error in eps of T, Boost.Math style):
//   "sat depth"           depth o/|n| against sqrt of the oracle's o^2/|n|^2 (230 digits)
//   "sat depth_squared"   against the oracle's exact o^2/|n|^2 (D-SAT-3)
//   "sat distance"        separated pairs, against sqrt of the oracle's squared distance (D-SAT-4)
//   "sat normal"          each component, where the oracle's minimising axis is unique
//   "sat.rectangles depth"          the reference rectangle SAT (D-RECT-5)
//   "sat.rectangles article depth"  the article's min d3 (D-RECT-1) against the
//                                   exact depth of the rectangle it describes
// plus, for the article, how often its overlap verdict differs from the exact one.
#pragma once

#include "rigidref/articles/rectangle_sat.hpp"
#include "rigidref/sat.hpp"
#include "rigidref/verify/accuracy.hpp"
#include "rigidref/verify/collision_oracle.hpp"
#include "rigidref/verify/oracle_sqrt.hpp"
#include "rigidref/verify/random.hpp"

#include <boost/math/constants/constants.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace rigidref::verify {

template <class T>
struct polygon_pair_case {
  std::string label;
  std::vector<vec2<T>> a, b;
};

namespace detail {

// A convex polygon: 3..max_n points on a circle of radius r around c, at
// angles start + 2 pi (i + 0.8 j_i) / n with j_i uniform in [0, 1) (gaps
// between 0.2 and 1.8 of the even spacing), computed in T. Returns empty
// when rounding made it non-convex (the caller retries).
template <class T>
std::vector<vec2<T>> random_convex(rng& g, const vec2<T>& c, const T& r, int max_n) {
  using std::cos;
  using std::sin;
  const int n = uniform_int(g, 3, max_n);
  const T two_pi = boost::math::constants::two_pi<T>();
  std::vector<T> angles;
  const T start = uniform01<T>(g) * two_pi;
  for (int i = 0; i < n; ++i) angles.push_back(T(start + two_pi * (T(i) + T(0.8) * uniform01<T>(g)) / T(n)));
  std::vector<vec2<T>> v;
  for (const T& t : angles) v.push_back({T(c.x + r * T(cos(t))), T(c.y + r * T(sin(t)))});
  if (uniform_int(g, 0, 1) == 1) std::reverse(v.begin(), v.end());
  try {
    rigidref::detail::require_convex(std::span<const vec2<T>>(v), "corpus polygon");
  } catch (const invalid_input&) {
    return {};
  }
  return v;
}

template <class T>
std::string describe_polygon(const std::vector<vec2<T>>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ",[" : "[") + to_string(v[i].x) + "," + to_string(v[i].y) + "]";
  return s + "]";
}

using verify::sqrt_oracle;  // verify/oracle_sqrt.hpp

}  // namespace detail

// Kinds, cycled: "penetrating" (centers 0.05..0.6 of the circumradius sum
// apart), "near-contact" (0.8..1), "separated" (1.1..3), "far-offset"
// (penetrating, both moved by ~1e8; 1e3 in float), "size-ratio" (radii 1e4
// apart, the small one 0.3..0.7 of the big radius from its center).
// Floating T only.
template <class T>
std::vector<polygon_pair_case<T>> sat_corpus(std::uint64_t seed, std::size_t count) {
  static_assert(!is_exact_v<T>);
  using std::cos;
  using std::sin;
  rng g(seed ^ 0x5a7c011du);
  std::vector<polygon_pair_case<T>> out;
  const char* kinds[] = {"penetrating", "near-contact", "separated", "far-offset", "size-ratio"};
  const T far = std::is_same_v<T, float> ? T(1000) : T(100000000);
  while (out.size() < count) {
    const std::string kind = kinds[out.size() % 5];
    T ra = log_uniform<T>(g, -1, 1), rb = log_uniform<T>(g, -1, 1);
    if (kind == "size-ratio") rb = ra * T(1e-4);
    T lo = 0.05, hi = 0.6;
    if (kind == "near-contact") lo = 0.8, hi = 1.0;
    if (kind == "separated") lo = 1.1, hi = 3;
    if (kind == "size-ratio") lo = 0.3, hi = 0.7;  // the small polygon well inside A's circle
    const T dist = (kind == "size-ratio" ? ra : T(ra + rb)) * uniform<T>(g, lo, hi);
    const T phi = uniform01<T>(g) * boost::math::constants::two_pi<T>();
    vec2<T> ca{T(0), T(0)};
    if (kind == "far-offset") ca = {T(far * uniform<T>(g, T(0.5), T(1))), T(-far * uniform<T>(g, T(0.5), T(1)))};
    const vec2<T> cb{T(ca.x + dist * T(cos(phi))), T(ca.y + dist * T(sin(phi)))};
    auto a = detail::random_convex<T>(g, ca, ra, 8);
    auto b = detail::random_convex<T>(g, cb, rb, 8);
    if (a.empty() || b.empty()) continue;
    out.push_back({kind, std::move(a), std::move(b)});
  }
  return out;
}

template <class T>
std::vector<error_stats> sat_accuracy(std::uint64_t seed, std::size_t count) {
  error_stats depth = make_stats<T>("sat depth");
  error_stats depth2 = make_stats<T>("sat depth_squared");
  error_stats distance = make_stats<T>("sat distance");
  error_stats normal = make_stats<T>("sat normal");
  for (const auto& c : sat_corpus<T>(seed, count)) {
    const auto describe = [&] {
      return c.label + " a=" + detail::describe_polygon(c.a) +
             " b=" + detail::describe_polygon(c.b);
    };
    const sat_result<T> got = sat<T>(c.a, c.b);
    const exact_collision want = exact_convex_collision<T>(std::span<const vec2<T>>(c.a), std::span<const vec2<T>>(c.b));
    if (want.intersecting && !want.touching) {
      depth2.add(got.depth_squared, want.depth_squared, describe);
      depth.add(got.depth, detail::sqrt_oracle(want.depth_squared), describe);
      if (want.minimising_axes == 1) {
        const exact n2 = length_squared(want.normal_axis);
        auto comp = [&](const exact& v) {
          const exact m = detail::sqrt_oracle(v * v / n2);
          return v < 0 ? exact(-m) : m;
        };
        if (want.normal_axis.x != 0) normal.add(got.normal.x, comp(want.normal_axis.x), describe);
        if (want.normal_axis.y != 0) normal.add(got.normal.y, comp(want.normal_axis.y), describe);
      }
    } else if (!want.intersecting) {
      distance.add(got.distance, detail::sqrt_oracle(want.distance_squared), describe);
    }
  }
  return {depth, depth2, distance, normal};
}

// Rectangles for the rectangle tables: {center, width, height, angle} with
// the kinds of sat_corpus (aspect up to 1e2, "needle" aspect 1e4).
template <class T>
struct rectangle_pair_case {
  std::string label;
  articles::article_rectangle<T> r1, r2;
};

template <class T>
std::vector<rectangle_pair_case<T>> rectangle_corpus(std::uint64_t seed, std::size_t count) {
  using std::cos;
  using std::sin;
  rng g(seed ^ 0x7ec7a11eu);
  std::vector<rectangle_pair_case<T>> out;
  const char* kinds[] = {"penetrating", "near-contact", "separated", "needle", "axis-aligned"};
  const T two_pi = boost::math::constants::two_pi<T>();
  while (out.size() < count) {
    const std::string kind = kinds[out.size() % 5];
    auto make = [&](const vec2<T>& c) {
      articles::article_rectangle<T> r;
      r.center = c;
      r.width = log_uniform<T>(g, -1, 1);
      r.height = r.width * (kind == "needle" ? T(1e-4) : log_uniform<T>(g, -1, 0));
      r.angle = kind == "axis-aligned" ? T(0) : T(uniform01<T>(g) * two_pi);
      return r;
    };
    rectangle_pair_case<T> c{kind, make({T(0), T(0)}), {}};
    c.r2 = make({T(0), T(0)});
    const T reach = (c.r1.width + c.r1.height + c.r2.width + c.r2.height) / 2;
    T lo = 0.1, hi = 0.6;
    if (kind == "near-contact" || kind == "axis-aligned") lo = 0.3, hi = 0.8;
    if (kind == "separated") lo = 1.05, hi = 2;
    const T phi = uniform01<T>(g) * two_pi;
    const T dist = reach * uniform<T>(g, lo, hi);
    c.r2.center = {T(dist * T(cos(phi))), T(dist * T(sin(phi)))};
    out.push_back(c);
  }
  return out;
}

// The reference rectangle of an article rectangle: the same center, sizes
// and the axis (cos theta, sin theta) rounded in T (D-RECT-5).
template <class T>
rectangle<T> reference_rectangle(const articles::article_rectangle<T>& r) {
  return rectangle_from_angle<T>(r.center, r.width, r.height, r.angle);
}

struct verdict_stats {
  std::string function, type;
  std::size_t cases = 0, disagreements = 0;
  std::string first_disagreement;
};

template <class T>
std::vector<error_stats> rectangle_accuracy(std::uint64_t seed, std::size_t count, verdict_stats* verdicts = nullptr) {
  error_stats ref = make_stats<T>("sat.rectangles depth");
  error_stats art = make_stats<T>("sat.rectangles article depth");
  if (verdicts) *verdicts = {"sat.rectangles article overlap", std::string(scalar_name<T>()), 0, 0, {}};
  for (const auto& c : rectangle_corpus<T>(seed, count)) {
    const rectangle<T> q1 = reference_rectangle(c.r1), q2 = reference_rectangle(c.r2);
    const auto v1 = rectangle_vertices_exact(q1), v2 = rectangle_vertices_exact(q2);
    const exact_collision want = exact_convex_collision({v1.begin(), v1.end()}, {v2.begin(), v2.end()});
    const auto describe = [&] {
      return c.label + " r1={c=[" + to_string(c.r1.center.x) + "," + to_string(c.r1.center.y) +
             "],w=" + to_string(c.r1.width) + ",h=" + to_string(c.r1.height) + ",angle=" + to_string(c.r1.angle) +
             "} r2={c=[" + to_string(c.r2.center.x) + "," + to_string(c.r2.center.y) + "],w=" + to_string(c.r2.width) +
             ",h=" + to_string(c.r2.height) + ",angle=" + to_string(c.r2.angle) + "}";
    };
    const sat_result<T> got = sat_rectangles<T>(q1, q2);
    const articles::rectangle_sat_result<T> a = articles::rectangle_sat<T>(c.r1, c.r2);
    if (verdicts) {
      ++verdicts->cases;
      if (a.overlap != want.intersecting) {
        if (verdicts->disagreements == 0) verdicts->first_disagreement = describe();
        ++verdicts->disagreements;
      }
    }
    if (want.intersecting && !want.touching) {
      const exact truth = detail::sqrt_oracle(want.depth_squared);
      ref.add(got.depth, truth, describe);
      T m = a.axes[0].d3;
      for (const auto& ax : a.axes)
        if (ax.d3 < m) m = ax.d3;
      art.add(m, truth, describe);
    }
  }
  return {ref, art};
}

}  // namespace rigidref::verify
