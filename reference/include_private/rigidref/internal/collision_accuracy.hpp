// Accuracy runs for gjk.hpp and epa.hpp against the exact oracle
// (collision_oracle.hpp), on a reproducible corpus of convex polygon pairs.
// Shared by the tests and, when wired, `rigidref report`: the table a user
// reads is the table the tests enforce.
//
// Rows: "gjk.distance" (separated pairs), "epa.depth" (overlapping pairs),
// "epa.normal" (each component, pairs with a unique minimising axis). The
// oracle's distance and depth are square roots of exact rationals; they are
// taken at 230 digits (oracle_float) and converted exactly, far below any
// ulp of the tested types. Intersecting/touching/separated decisions are
// compared exactly and counted in `decision_mismatches` (must be 0).
#pragma once

#include "rigidref/epa.hpp"
#include "rigidref/gjk.hpp"
#include "rigidref/verify/accuracy.hpp"
#include "rigidref/internal/bounds.hpp"
#include "rigidref/verify/collision_oracle.hpp"
#include "rigidref/verify/oracle_sqrt.hpp"
#include "rigidref/verify/random.hpp"

#include <boost/math/constants/constants.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace rigidref::verify {

// Bounds for these rows: internal/bounds.hpp (gjk.distance, epa.depth,
// epa.normal; D-GJK-8, D-EPA-6).

template <class T>
struct collision_case {
  std::string label;
  std::vector<vec2<T>> a, b;
};

// A convex polygon with n vertices at random angles on a circle of radius r
// about c, rounded to T; nullopt-free: retried until make_convex_polygon
// accepts it (rounding can make nearly coincident angles collinear).
template <class T>
std::vector<vec2<T>> random_convex_polygon(rng& g, int n, const T& r, const vec2<T>& c) {
  const double two_pi = 2 * boost::math::constants::pi<double>();
  for (;;) {
    std::vector<double> angles;
    for (int i = 0; i < n; ++i) angles.push_back(two_pi * std::uniform_real_distribution<double>(0, 1)(g));
    std::sort(angles.begin(), angles.end());
    std::vector<vec2<T>> v;
    for (double t : angles) v.push_back({T(c.x + r * T(std::cos(t))), T(c.y + r * T(std::sin(t)))});
    try {
      (void)make_convex_polygon(std::span<const vec2<T>>(v));
      return v;
    } catch (const invalid_input&) {
    }
  }
}

// Pairs: separated, overlapping, deep, far from the origin (1e6), and size
// ratios up to 1e3. Vertices carry T's full precision (uniform centres).
template <class T>
std::vector<collision_case<T>> collision_corpus(std::uint64_t seed, std::size_t count) {
  static_assert(is_binary_floating_v<T>);
  rng g(seed ^ 0x9e3779b97f4a7c15ULL);
  std::vector<collision_case<T>> out;
  const double two_pi = 2 * boost::math::constants::pi<double>();
  for (std::size_t k = 0; k < count; ++k) {
    const int kind = static_cast<int>(k % 5);
    const T ra = uniform<T>(g, T(0.5), T(2));
    T rb = uniform<T>(g, T(0.5), T(2));
    if (kind == 4) rb = ra * log_uniform<T>(g, -3, 3);
    const T far = kind == 3 ? T(1e6) : T(0);
    const vec2<T> ca{T(far + uniform<T>(g, T(-1), T(1))), T(far + uniform<T>(g, T(-1), T(1)))};
    const double phi = two_pi * std::uniform_real_distribution<double>(0, 1)(g);
    T s;
    switch (kind) {
      case 0: s = uniform<T>(g, T(1.05), T(2)); break;    // separated (circumcircles apart)
      case 1: s = uniform<T>(g, T(0.05), T(0.95)); break;  // overlapping
      case 2: s = uniform<T>(g, T(0), T(0.3)); break;      // deep
      default: s = uniform<T>(g, T(0.2), T(1.5)); break;   // either
    }
    const T dist = s * (ra + rb);
    const vec2<T> cb{T(ca.x + dist * T(std::cos(phi))), T(ca.y + dist * T(std::sin(phi)))};
    const char* labels[] = {"separated", "overlapping", "deep", "far 1e6", "size ratio"};
    collision_case<T> c{labels[kind], random_convex_polygon<T>(g, uniform_int(g, 3, 9), ra, ca),
                        random_convex_polygon<T>(g, uniform_int(g, 3, 9), rb, cb)};
    out.push_back(std::move(c));
  }
  return out;
}

template <class T>
std::string describe_collision_case(const collision_case<T>& c) {
  auto poly = [](const std::vector<vec2<T>>& v) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ",[" : "[") + to_string(v[i].x) + "," + to_string(v[i].y) + "]";
    return s + "]";
  };
  return c.label + " a=" + poly(c.a) + " b=" + poly(c.b);
}

struct collision_accuracy_table {
  std::vector<error_stats> stats;  // gjk.distance, epa.depth, epa.normal
  std::size_t cases = 0;
  std::size_t decision_mismatches = 0;  // intersecting / touching disagreeing with the oracle
  std::size_t exact_fallbacks = 0;      // results that needed the exact fallback
  std::string first_mismatch;
};

// `depth_eps`, when given, receives the relative error (in eps of T) of
// every EPA depth, for the report's distribution plot.
template <class T>
collision_accuracy_table collision_accuracy(std::uint64_t seed, std::size_t count,
                                            std::vector<double>* depth_eps = nullptr) {
  collision_accuracy_table t;
  error_stats dist = make_stats<T>("gjk.distance");
  error_stats depth = make_stats<T>("epa.depth");
  error_stats normal = make_stats<T>("epa.normal");
  for (const auto& c : collision_corpus<T>(seed, count)) {
    ++t.cases;
    const exact_collision o = exact_convex_collision<T>(std::span<const vec2<T>>(c.a), std::span<const vec2<T>>(c.b));
    const auto pa = make_convex_polygon<T>(c.a), pb = make_convex_polygon<T>(c.b);
    const gjk_result<T> g = gjk_distance(pa, pb);
    const epa_result<T> e = epa_penetration(pa, pb);
    t.exact_fallbacks += (g.exact_fallback ? 1 : 0) + (e.exact_fallback ? 1 : 0);
    const bool g_touch = g.status == collision_status::touching, e_touch = e.status == collision_status::touching;
    if (g.intersecting != o.intersecting || e.intersecting != o.intersecting || g_touch != o.touching ||
        e_touch != o.touching) {
      if (t.decision_mismatches++ == 0) t.first_mismatch = describe_collision_case(c);
    }
    auto describe = [&] { return describe_collision_case(c); };
    if (!o.intersecting) {
      dist.add(g.distance, sqrt_oracle(o.distance_squared), describe);
      dist.add(e.distance, sqrt_oracle(o.distance_squared), describe);
    } else if (!o.touching) {
      depth.add(e.depth, sqrt_oracle(o.depth_squared), describe);
      if (depth_eps) depth_eps->push_back(relative_error_eps(e.depth, sqrt_oracle(o.depth_squared)));
      if (o.minimising_axes == 1) {
        const exact n2 = length_squared(o.normal_axis);
        const exact len = sqrt_oracle(n2);
        normal.add(e.normal.x, exact(o.normal_axis.x / len), describe);
        normal.add(e.normal.y, exact(o.normal_axis.y / len), describe);
      }
    }
  }
  t.stats = {dist, depth, normal};
  return t;
}

}  // namespace rigidref::verify
