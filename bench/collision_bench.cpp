// GJK distance, EPA penetration and SAT: what rigidref's certified answers
// cost against Box2D 2.4.1 and libccd 2.1, on the same polygon pairs.
//
//   gjk/rigidref_double        gjk_distance<double>: features in double, decision and distance certified exactly
//   gjk/box2d_float_b2Distance b2Distance (float, no radii, identity transforms, empty cache)
//   gjk/libccd_GJKIntersect    ccdGJKIntersect on prisms (libccd 2.1 has no GJK distance: a yes/no only)
//   gjk/rigidref_mp50          gjk_distance<mp50>
//   epa/rigidref_double        epa_penetration<double>
//   epa/box2d_float_b2CollidePolygons  b2CollidePolygons (float; a contact manifold, not EPA)
//   epa/libccd_GJKPenetration  ccdGJKPenetration (GJK + EPA) on prisms
//   epa/libccd_MPRPenetration  ccdMPRPenetration on prisms
//   epa/rigidref_mp50          epa_penetration<mp50>
//   sat/rigidref_double        sat<double> (exact integer SAT)
//   floor/gjk_loop_double      GJK's own loop in double, |v| as the distance, uncertified
//   floor/epa_loop_double      GJK's and EPA's loops in double, the closest face's distance, uncertified
// The floor rows are not an API: they time the first step of gjk_distance and
// epa_penetration (detail::gjk_core, detail::epa_core) alone, to show what the
// certification and the correct rounding cost on top, and their counter
// worst_eps is the textbook estimate's error against the exact oracle.
// Each benchmark takes a subset: all pairs, only overlapping ones, only
// separated ones (/subset:0,1,2). Each iteration answers one pair, cycling
// through the subset. Shapes are built outside the timed loop (rigidref's
// convex_polygon, Box2D's b2PolygonShape, libccd's prisms). See README.md.
#include "rigidref/epa.hpp"
#include "rigidref/gjk.hpp"
#include "rigidref/sat.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/verify/accuracy.hpp"
#include "rigidref/verify/collision_oracle.hpp"
#include "rigidref/verify/random.hpp"

#include "bench_polygons.hpp"
#include "bench_support.hpp"

#include <benchmark/benchmark.h>
#include <box2d/box2d.h>
#include <ccd/ccd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace {

using rigidref::convex_polygon;
using rigidref::mp50;
using rigidref::vec2;

constexpr std::uint64_t corpus_seed = 20261122;
constexpr std::size_t pairs_per_class = 32;  // 32 overlapping + 32 separated
constexpr const char* default_min_time_flag = "--benchmark_min_time=0.2";

struct bench_pair {
  std::vector<vec2<double>> a, b;  // double; Box2D gets them rounded to float
  bool overlapping = false;        // rigidref's exact decision
};

// The corpus: pairs with 3..8 vertices each, 32 overlapping and 32
// separated (decided exactly), none within 1e-3 of touching so that
// Box2D's float rounding cannot flip a decision.
const std::vector<bench_pair>& corpus() {
  static const std::vector<bench_pair> pairs = [] {
    rigidref::verify::rng g(corpus_seed);
    using rigidref::verify::uniform;
    std::vector<bench_pair> out;
    std::size_t over = 0, apart = 0;
    while (over < pairs_per_class || apart < pairs_per_class) {
      const vec2<double> ca{uniform(g, -4.0, 4.0), uniform(g, -4.0, 4.0)};
      const double phi = uniform(g, 0.0, 2 * std::acos(-1.0)), d = uniform(g, 0.5, 3.5);
      const vec2<double> cb{ca.x + d * std::cos(phi), ca.y + d * std::sin(phi)};
      bench_pair p{rigidref::bench::jittered_convex_polygon(g, rigidref::verify::uniform_int(g, 3, 8), ca),
                   rigidref::bench::jittered_convex_polygon(g, rigidref::verify::uniform_int(g, 3, 8), cb), false};
      const auto pa = rigidref::make_convex_polygon(p.a), pb = rigidref::make_convex_polygon(p.b);
      const auto e = rigidref::epa_penetration(pa, pb);
      p.overlapping = e.intersecting;
      if (p.overlapping ? e.depth < 1e-3 : e.distance < 1e-3) continue;
      std::size_t& count = p.overlapping ? over : apart;
      if (count >= pairs_per_class) continue;
      ++count;
      out.push_back(std::move(p));
    }
    return out;
  }();
  return pairs;
}

std::vector<const bench_pair*> subset(int which) { return rigidref::bench::subset_of(corpus(), which); }

const char* subset_name(int which) { return which == 0 ? "all" : (which == 1 ? "overlapping" : "separated"); }

// ---- rigidref -----------------------------------------------------------------

template <class T>
std::vector<std::pair<convex_polygon<T>, convex_polygon<T>>> rigidref_shapes(int which) {
  std::vector<std::pair<convex_polygon<T>, convex_polygon<T>>> out;
  auto conv = [](const std::vector<vec2<double>>& v) {
    std::vector<vec2<T>> w;
    for (const auto& p : v) w.push_back({T(p.x), T(p.y)});
    return rigidref::make_convex_polygon(w);
  };
  for (const auto* p : subset(which)) out.push_back({conv(p->a), conv(p->b)});
  return out;
}

template <class T>
void bench_rigidref_gjk(benchmark::State& state) {
  const auto shapes = rigidref_shapes<T>(static_cast<int>(state.range(0)));
  rigidref::bench::cycle(state, shapes, [](const auto& s) { return rigidref::gjk_distance(s.first, s.second); });
  state.SetLabel(subset_name(static_cast<int>(state.range(0))));
}

template <class T>
void bench_rigidref_epa(benchmark::State& state) {
  const auto shapes = rigidref_shapes<T>(static_cast<int>(state.range(0)));
  rigidref::bench::cycle(state, shapes, [](const auto& s) { return rigidref::epa_penetration(s.first, s.second); });
  state.SetLabel(subset_name(static_cast<int>(state.range(0))));
}

void bench_rigidref_sat(benchmark::State& state) {
  const auto shapes = rigidref_shapes<double>(static_cast<int>(state.range(0)));
  rigidref::bench::cycle(state, shapes,
                         [](const auto& s) { return rigidref::sat<double>(s.first.vertices, s.second.vertices); });
  state.SetLabel(subset_name(static_cast<int>(state.range(0))));
}

// ---- the floor: the loops alone, uncertified -----------------------------------

// |v| of GJK's loop in double (0 when it claims an intersection).
double loop_distance(const convex_polygon<double>& a, const convex_polygon<double>& b) {
  const std::span<const vec2<double>> sa(a.vertices), sb(b.vertices);
  const auto r = rigidref::detail::gjk_core<double>(sa, sb, rigidref::detail::automatic_cap(0, sa.size(), sb.size()));
  return r.claim == rigidref::detail::gjk_claim::intersecting ? 0.0 : std::sqrt(rigidref::dot(r.v, r.v));
}

// EPA's loop in double seeded with GJK's simplex; the distance from the origin
// to the closest face it keeps (0 when GJK does not claim an intersection).
double loop_depth(const convex_polygon<double>& a, const convex_polygon<double>& b) {
  const std::span<const vec2<double>> sa(a.vertices), sb(b.vertices);
  const int cap = rigidref::detail::automatic_cap(0, sa.size(), sb.size());
  const auto r = rigidref::detail::gjk_core<double>(sa, sb, cap);
  if (r.claim != rigidref::detail::gjk_claim::intersecting) return 0.0;
  rigidref::detail::vertex_pairs seed;
  for (int k = 0; k < r.simplex.size; ++k) seed.push_back({r.simplex.p[k].ia, r.simplex.p[k].ib});
  const auto run = rigidref::detail::epa_core<double>(sa, sb, seed, cap);
  double best = std::numeric_limits<double>::infinity();
  for (const auto& f : run.shortlist) {
    const vec2<double> e = f[1].w - f[0].w;
    best = std::min(best, std::abs(rigidref::cross(f[0].w, f[1].w)) / std::sqrt(rigidref::dot(e, e)));
  }
  return best;
}

// Largest relative error, in double eps, of `estimate` over the shapes
// against the oracle's distance (depth = false) or depth (true).
template <class Estimate>
double worst_eps(const std::vector<std::pair<convex_polygon<double>, convex_polygon<double>>>& shapes, bool depth,
                 Estimate estimate) {
  using rigidref::verify::oracle_float;
  double worst = 0;
  for (const auto& s : shapes) {
    const auto ex = rigidref::verify::exact_convex_collision(
        rigidref::verify::exact_polygon<double>(s.first.vertices), rigidref::verify::exact_polygon<double>(s.second.vertices));
    const rigidref::exact& sq = depth ? ex.depth_squared : ex.distance_squared;
    const double got = estimate(s.first, s.second);
    if (sq == 0) {
      if (got != 0) return std::numeric_limits<double>::infinity();
      continue;
    }
    const oracle_float truth = sqrt(oracle_float(sq));
    const oracle_float err = abs(oracle_float(got) - truth) / truth / std::numeric_limits<double>::epsilon();
    worst = std::max(worst, static_cast<double>(err));
  }
  return worst;
}

template <bool Depth>
void bench_floor(benchmark::State& state) {
  const auto shapes = rigidref_shapes<double>(static_cast<int>(state.range(0)));
  auto estimate = [](const convex_polygon<double>& a, const convex_polygon<double>& b) {
    return Depth ? loop_depth(a, b) : loop_distance(a, b);
  };
  state.counters["worst_eps"] = worst_eps(shapes, Depth, estimate);
  rigidref::bench::cycle(state, shapes, [&](const auto& s) { return estimate(s.first, s.second); });
  state.SetLabel(subset_name(static_cast<int>(state.range(0))));
}

// ---- Box2D (float) ----------------------------------------------------------------

struct box2d_pair {
  b2PolygonShape a, b;
  bool overlapping;
};

std::vector<box2d_pair> box2d_shapes(int which) {
  std::vector<box2d_pair> out;
  for (const auto* p : subset(which))
    out.push_back({rigidref::bench::box2d_polygon(p->a), rigidref::bench::box2d_polygon(p->b), p->overlapping});
  return out;
}

b2DistanceOutput box2d_distance(const box2d_pair& s) { return rigidref::bench::box2d_distance(s.a, s.b, false); }

void bench_box2d_distance(benchmark::State& state) {
  const auto shapes = box2d_shapes(static_cast<int>(state.range(0)));
  rigidref::bench::checked_box2d_distance_cycle(state, shapes, box2d_distance);
  state.SetLabel(subset_name(static_cast<int>(state.range(0))));
}

void bench_box2d_collide(benchmark::State& state) {
  const auto shapes = box2d_shapes(static_cast<int>(state.range(0)));
  b2Transform id;
  id.SetIdentity();
  auto collide = [&](const box2d_pair& s) {
    b2Manifold m;
    b2CollidePolygons(&m, &s.a, id, &s.b, id);
    return m;
  };
  // b2CollidePolygons adds polygon radii (2 b2_polygonRadius = 0.02 m) to its
  // test; the corpus keeps separated pairs 1e-3 apart, so only check that
  // every overlapping pair produced a manifold.
  rigidref::bench::checked_cycle(
      state, shapes, [&](const box2d_pair& s) { return !s.overlapping || collide(s).pointCount > 0; },
      "Box2D's b2CollidePolygons missed an overlapping corpus pair", collide);
  state.SetLabel(subset_name(static_cast<int>(state.range(0))));
}

// ---- libccd (double, prisms; the embedding of tools/adapters/ccd_adapter.cpp) -----

struct prism {
  std::vector<vec2<double>> base;
  double h = 1;
};

void ccd_support(const void* obj, const ccd_vec3_t* dir, ccd_vec3_t* out) {
  const prism& p = *static_cast<const prism*>(obj);
  std::size_t best = 0;
  double best_dot = p.base[0].x * dir->v[0] + p.base[0].y * dir->v[1];
  for (std::size_t i = 1; i < p.base.size(); ++i) {
    const double d = p.base[i].x * dir->v[0] + p.base[i].y * dir->v[1];
    if (d > best_dot) {
      best_dot = d;
      best = i;
    }
  }
  ccdVec3Set(out, p.base[best].x, p.base[best].y, dir->v[2] >= 0 ? p.h : -p.h);
}

void ccd_center(const void* obj, ccd_vec3_t* out) {
  const prism& p = *static_cast<const prism*>(obj);
  double x = 0, y = 0;
  for (const auto& q : p.base) {
    x += q.x;
    y += q.y;
  }
  ccdVec3Set(out, x / static_cast<double>(p.base.size()), y / static_cast<double>(p.base.size()), 0);
}

double size_of(const std::vector<vec2<double>>& v) {
  double lx = v[0].x, hx = v[0].x, ly = v[0].y, hy = v[0].y;
  for (const auto& p : v) {
    lx = std::min(lx, p.x);
    hx = std::max(hx, p.x);
    ly = std::min(ly, p.y);
    hy = std::max(hy, p.y);
  }
  return std::max(hx - lx, hy - ly);
}

struct ccd_pair {
  prism a, b;
  bool overlapping;
};

std::vector<ccd_pair> ccd_shapes(int which) {
  std::vector<ccd_pair> out;
  for (const auto* p : subset(which)) {
    const double h = std::max(size_of(p->a), size_of(p->b));
    out.push_back({{p->a, h}, {p->b, h / 2}, p->overlapping});  // A x [-h, h], B x [-h/2, h/2]
  }
  return out;
}

ccd_t ccd_setup() {
  ccd_t c;
  CCD_INIT(&c);  // default tolerances (epa/mpr 1e-4) and unbounded max_iterations, as in the adapter
  c.support1 = ccd_support;
  c.support2 = ccd_support;
  c.center1 = ccd_center;
  c.center2 = ccd_center;
  return c;
}

void bench_ccd_intersect(benchmark::State& state) {
  const auto shapes = ccd_shapes(static_cast<int>(state.range(0)));
  const ccd_t c = ccd_setup();
  for (const auto& s : shapes)
    if ((ccdGJKIntersect(&s.a, &s.b, &c) != 0) != s.overlapping) {
      state.SkipWithError("libccd's ccdGJKIntersect disagrees with the exact decision on a corpus pair");
      return;
    }
  rigidref::bench::cycle(state, shapes, [&](const ccd_pair& s) { return ccdGJKIntersect(&s.a, &s.b, &c); });
  state.SetLabel(subset_name(static_cast<int>(state.range(0))));
}

template <bool Mpr>
void bench_ccd_penetration(benchmark::State& state) {
  const auto shapes = ccd_shapes(static_cast<int>(state.range(0)));
  const ccd_t c = ccd_setup();
  auto run = [&](const ccd_pair& s, ccd_real_t& depth) {
    ccd_vec3_t dir, pos;
    return Mpr ? ccdMPRPenetration(&s.a, &s.b, &c, &depth, &dir, &pos)
               : ccdGJKPenetration(&s.a, &s.b, &c, &depth, &dir, &pos);
  };
  for (const auto& s : shapes) {
    ccd_real_t depth = 0;
    if ((run(s, depth) == 0) != s.overlapping) {
      state.SkipWithError("libccd's penetration disagrees with the exact decision on a corpus pair");
      return;
    }
  }
  rigidref::bench::cycle(state, shapes, [&](const ccd_pair& s) {
    ccd_real_t depth = 0;
    const int r = run(s, depth);
    return std::make_pair(r, depth);
  });
  state.SetLabel(subset_name(static_cast<int>(state.range(0))));
}

void register_benchmarks() {
  // With --benchmark_repetitions, also a "min" row (the fastest repetition):
  // on a shared machine it moves least (as in mass_bench.cpp).
  auto subsets = [](benchmark::internal::Benchmark* b) {
    rigidref::bench::with_min_row(b->ArgName("subset")->Arg(0)->Arg(1)->Arg(2));
  };
  subsets(benchmark::RegisterBenchmark("gjk/rigidref_double", bench_rigidref_gjk<double>));
  subsets(benchmark::RegisterBenchmark("gjk/box2d_float_b2Distance", bench_box2d_distance));
  subsets(benchmark::RegisterBenchmark("gjk/libccd_GJKIntersect", bench_ccd_intersect));
  subsets(benchmark::RegisterBenchmark("gjk/rigidref_mp50", bench_rigidref_gjk<mp50>));
  subsets(benchmark::RegisterBenchmark("epa/rigidref_double", bench_rigidref_epa<double>));
  subsets(benchmark::RegisterBenchmark("epa/box2d_float_b2CollidePolygons", bench_box2d_collide));
  subsets(benchmark::RegisterBenchmark("epa/libccd_GJKPenetration", bench_ccd_penetration<false>));
  subsets(benchmark::RegisterBenchmark("epa/libccd_MPRPenetration", bench_ccd_penetration<true>));
  subsets(benchmark::RegisterBenchmark("epa/rigidref_mp50", bench_rigidref_epa<mp50>));
  subsets(benchmark::RegisterBenchmark("sat/rigidref_double", bench_rigidref_sat));
  subsets(benchmark::RegisterBenchmark("floor/gjk_loop_double", bench_floor<false>));
  subsets(benchmark::RegisterBenchmark("floor/epa_loop_double", bench_floor<true>));
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  return rigidref::bench::run_benchmarks(argc, argv, default_min_time_flag);
}
