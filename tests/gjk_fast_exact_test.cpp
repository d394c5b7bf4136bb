// The fast paths of gjk_distance<double> (filters, semi-static bounds, Ziv
// rounding tests: D-GJK-13..22) against the exact route they stand for
// (detail::filter_force_exact(), today's route): every public field of
// gjk_result the same bits. Corpus: the benchmarks' pairs (bench/bench_polygons.hpp,
// the distribution of collision_bench and circle_bench, without their 1e-3
// margin), pairs pushed to touching within rounding, and circles, each at
// offsets 0, 2^10 and 2^30. CI runs a bounded count; the sweep of 10^5 pairs
// per offset runs with the hidden tag:
//   test_gjk_fast_exact "[.gjk-diff-long]"
#include "../bench/bench_polygons.hpp"
#include "support/gjk_loop_f4fceec.hpp"
#include "rigidref/convex_hull.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/gjk.hpp"
#include "rigidref/verify/random.hpp"

#include <catch2/catch.hpp>
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace gjk_fast_exact_test {
using namespace rigidref;

namespace {

bool same_bits(double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); }

// iterations: compared for polygon pairs; a circle's centre outside a polygon
// is answered without GJK's loop on the fast path (D-GJK-19, iterations 0),
// which the forced exact route runs, as on f4fceec.
bool same_result(const gjk_result<double>& f, const gjk_result<double>& e, bool compare_iterations) {
  return (!compare_iterations || f.iterations == e.iterations) && f.status == e.status && f.intersecting == e.intersecting && same_bits(f.distance, e.distance) &&
         same_bits(f.point_a.x, e.point_a.x) && same_bits(f.point_a.y, e.point_a.y) &&
         same_bits(f.point_b.x, e.point_b.x) && same_bits(f.point_b.y, e.point_b.y) &&
         f.exact_fallback == e.exact_fallback;
}

struct diff_counts {
  long queries = 0, mismatches = 0, intersecting = 0, loops = 0, loop_mismatches = 0;
  filter_counters fast{};  // the fast runs' counters
  detail::semi_static::counters semi[detail::semi_static::steps]{};
};

// The loop of today against f4fceec's: the same claim, simplex, v and count.
void compare_loop(std::span<const vec2<double>> a, std::span<const vec2<double>> b, diff_counts& n) {
  const int cap = detail::automatic_cap(0, a.size(), b.size());
  const detail::gjk_run<double> now = detail::gjk_core(a, b, cap), then = f4fceec::gjk_core(a, b, cap);
  bool same = now.claim == then.claim && now.iterations == then.iterations && now.simplex.size == then.simplex.size &&
              same_bits(now.v.x, then.v.x) && same_bits(now.v.y, then.v.y);
  for (int k = 0; same && k < now.simplex.size; ++k) same = now.simplex.p[k].same_pair(then.simplex.p[k]);
  ++n.loops;
  if (!same) ++n.loop_mismatches;
}

template <class A, class B>
void compare_one(const A& a, const B& b, diff_counts& n) {
  const filter_counters before = filter_stats();
  detail::semi_static::counters semi_before[detail::semi_static::steps];
  for (int s = 0; s < detail::semi_static::steps; ++s)
    semi_before[s] = detail::semi_static::stats(detail::semi_static::step(s));
  const gjk_result<double> f = gjk_distance(a, b);
  const filter_counters after = filter_stats();
  for (int s = 0; s < detail::semi_static::steps; ++s) {
    n.semi[s].proved += detail::semi_static::stats(detail::semi_static::step(s)).proved - semi_before[s].proved;
    n.semi[s].refused += detail::semi_static::stats(detail::semi_static::step(s)).refused - semi_before[s].refused;
  }
  n.fast.certain += after.certain - before.certain;
  n.fast.fallback += after.fallback - before.fallback;
  n.fast.filtered_values += after.filtered_values - before.filtered_values;
  n.fast.exact_values += after.exact_values - before.exact_values;
  detail::filter_force_exact() = true;
  const gjk_result<double> e = gjk_distance(a, b);
  detail::filter_force_exact() = false;
  ++n.queries;
  if (f.intersecting) ++n.intersecting;
  if (!same_result(f, e, std::is_same_v<A, B>)) {
    ++n.mismatches;
    if (n.mismatches <= 5)
      UNSCOPED_INFO("mismatch: fast (" << f.intersecting << ", " << f.distance << ", " << f.point_a.x << ", "
                                       << f.point_a.y << ", " << f.point_b.x << ", " << f.point_b.y << ", it "
                                       << f.iterations << ") exact (" << e.intersecting << ", " << e.distance << ", "
                                       << e.point_a.x << ", " << e.point_a.y << ", " << e.point_b.x << ", "
                                       << e.point_b.y << ", it " << e.iterations << ")");
  }
}

std::vector<vec2<double>> shifted(std::vector<vec2<double>> p, vec2<double> d) {
  for (auto& v : p) v = v + d;
  return p;
}

// count pairs of each kind at the offset: bench-like polygon pairs, the same
// pairs pushed to touching (B moved by the rounded distance or depth along
// the rounded normal), and a polygon against a circle (both orders).
diff_counts run_corpus(std::uint64_t seed, long count, double offset) {
  using verify::uniform;
  verify::rng g(seed);
  diff_counts n;
  const vec2<double> o{offset, offset};
  for (long k = 0; k < count; ++k) {
    const vec2<double> ca{uniform(g, -4.0, 4.0), uniform(g, -4.0, 4.0)};
    const double phi = uniform(g, 0.0, 2 * std::acos(-1.0)), d = uniform(g, 0.0, 3.5);
    const vec2<double> cb{ca.x + d * std::cos(phi), ca.y + d * std::sin(phi)};
    const auto pa = bench::jittered_convex_polygon(g, verify::uniform_int(g, 3, 8), ca);
    const auto pb = bench::jittered_convex_polygon(g, verify::uniform_int(g, 3, 8), cb);
    const auto A = make_convex_polygon(shifted(pa, o));
    const auto B = make_convex_polygon(shifted(pb, o));
    compare_one(A, B, n);
    compare_loop(A.vertices, B.vertices, n);
    const std::vector<vec2<double>> centre{vec2<double>{cb.x + offset, cb.y + offset}};
    compare_loop(A.vertices, centre, n);
    // Near touching: move B by the closest points' difference (apart) so the
    // shapes touch within the rounding of that difference.
    const gjk_result<double> r = gjk_distance(A, B);
    if (!r.intersecting) {
      const vec2<double> step = r.point_a - r.point_b;
      const auto touching = make_convex_polygon(shifted(pb, o + step));
      compare_one(A, touching, n);
      compare_loop(A.vertices, touching.vertices, n);
    }
    const double radius = uniform(g, 0.2, 1.5);
    const auto disc = make_circle(vec2<double>{cb.x + offset, cb.y + offset}, radius);
    compare_one(A, disc, n);
    compare_one(disc, A, n);
  }
  return n;
}

// Small integer polygons: exact ties everywhere (collinear points, the
// origin on a simplex edge, touching), where the loop's exact signs matter.
diff_counts run_grid(std::uint64_t seed, long count, double offset) {
  verify::rng g(seed);
  diff_counts n;
  auto hull = [&](int cx, int cy) {
    for (;;) {
      std::vector<vec2<double>> pts;
      for (int i = 0; i < 6; ++i)
        pts.push_back({offset + cx + verify::uniform_int(g, -2, 2), offset + cy + verify::uniform_int(g, -2, 2)});
      const auto h = convex_hull_ccw(pts);
      if (h.size() >= 3) return make_convex_polygon(h);
    }
  };
  for (long k = 0; k < count; ++k) {
    const auto A = hull(0, 0), B = hull(verify::uniform_int(g, -4, 4), verify::uniform_int(g, -4, 4));
    compare_one(A, B, n);
    compare_loop(A.vertices, B.vertices, n);
  }
  return n;
}

void report(const char* what, const diff_counts& n) {
  const double values = static_cast<double>(n.fast.filtered_values + n.fast.exact_values);
  INFO(what << ": queries " << n.queries << " (intersecting " << n.intersecting << "), mismatches "
            << n.mismatches << "; fast path: values proved " << n.fast.filtered_values << ", values exact "
            << n.fast.exact_values << " (" << (values > 0 ? 100.0 * n.fast.exact_values / values : 0.0)
            << " %), decisions proved " << n.fast.certain << ", decisions exact " << n.fast.fallback);
  CHECK(n.mismatches == 0);
  CHECK(n.loop_mismatches == 0);
  CHECK(n.loops > 0);
  CHECK(n.queries > 0);
  // A fast path that never answers would pass the bits check: most values
  // must be proved without the exact route.
  CHECK(n.fast.filtered_values * 10 > n.fast.exact_values * 8);
  WARN(what << ": queries " << n.queries << ", mismatches " << n.mismatches << ", GJK loops against f4fceec "
            << n.loops << " (" << n.loop_mismatches << " different)" << ", values exact "
            << n.fast.exact_values << " of " << static_cast<long>(values) << "; semi-static proved/refused: containment "
            << n.semi[0].proved << "/" << n.semi[0].refused << ", common point " << n.semi[1].proved << "/"
            << n.semi[1].refused << ", separated values " << n.semi[2].proved << "/" << n.semi[2].refused);
}

}  // namespace

TEST_CASE("gjk fast path: same bits as the exact route (bounded)", "[gjk][filter][diff]") {
  for (const double offset : {0.0, 0x1p10, 0x1p30}) {
    const diff_counts n = run_corpus(20261122, 700, offset);
    report(offset == 0 ? "offset 0" : (offset < 1e6 ? "offset 2^10" : "offset 2^30"), n);
  }
}

TEST_CASE("gjk fast path: same bits on integer polygons with exact ties", "[gjk][filter][diff]") {
  for (const double offset : {0.0, 0x1p30}) {
    const diff_counts n = run_grid(11, 500, offset);
    INFO("grid, offset " << offset << ": queries " << n.queries << " mismatches " << n.mismatches << " loops "
                         << n.loops << " loop mismatches " << n.loop_mismatches);
    CHECK(n.mismatches == 0);
    CHECK(n.loop_mismatches == 0);
  }
}

TEST_CASE("gjk fast path: same bits as the exact route (10^5 pairs per offset)", "[.gjk-diff-long]") {
  for (const double offset : {0.0, 0x1p10, 0x1p30}) {
    const diff_counts n = run_corpus(7, 100000, offset);
    report(offset == 0 ? "offset 0" : (offset < 1e6 ? "offset 2^10" : "offset 2^30"), n);
    const diff_counts m = run_grid(13, 20000, offset);
    WARN("grid: queries " << m.queries << ", mismatches " << m.mismatches << ", loops " << m.loops << " ("
                          << m.loop_mismatches << " different)");
    CHECK(m.mismatches == 0);
    CHECK(m.loop_mismatches == 0);
  }
}

}  // namespace gjk_fast_exact_test
