// Polygon against circle: what rigidref's certified answers cost against
// Box2D 2.4.1 on the same shapes.
//
//   gjk/rigidref_double               gjk_distance<double>(polygon, circle)
//   gjk/box2d_float_b2Distance        b2Distance, polygon and circle proxies, useRadii = true (float)
//   epa/rigidref_double               epa_penetration<double>(polygon, circle)
//   epa/box2d_float_b2CollidePolygonAndCircle  Box2D's polygon-circle manifold (float)
//
// Subsets (/subset:0,1,2): all pairs, overlapping, apart. Among the
// overlapping pairs some have the centre inside the polygon (the EPA case of
// D-EPA-9 (6)) and some only the disc reaching over an edge or vertex
// (D-GJK-18). Shapes are built outside the timed loop. See README.md.
#include "rigidref/epa.hpp"
#include "rigidref/gjk.hpp"
#include "rigidref/verify/random.hpp"

#include "bench_polygons.hpp"
#include "bench_support.hpp"

#include <benchmark/benchmark.h>
#include <box2d/b2_collision.h>
#include <box2d/box2d.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using rigidref::vec2;

constexpr std::uint64_t corpus_seed = 20261123;
constexpr std::size_t pairs_per_class = 32;  // 32 overlapping + 32 apart
constexpr const char* default_min_time_flag = "--benchmark_min_time=0.2";

struct circle_pair {
  std::vector<vec2<double>> polygon;
  vec2<double> centre;
  double radius = 1;
  bool overlapping = false;  // rigidref's exact decision
  bool centre_inside = false;
};

// Pairs within 1e-3 of touching are skipped, so that Box2D's float rounding
// cannot flip a decision.
const std::vector<circle_pair>& corpus() {
  static const std::vector<circle_pair> pairs = [] {
    rigidref::verify::rng g(corpus_seed);
    using rigidref::verify::uniform;
    std::vector<circle_pair> out;
    std::size_t over = 0, apart = 0;
    while (over < pairs_per_class || apart < pairs_per_class) {
      const vec2<double> c{uniform(g, -4.0, 4.0), uniform(g, -4.0, 4.0)};
      const double phi = uniform(g, 0.0, 2 * std::acos(-1.0)), d = uniform(g, 0.0, 3.5);
      circle_pair p{rigidref::bench::jittered_convex_polygon(g, rigidref::verify::uniform_int(g, 3, 8), c),
                    {c.x + d * std::cos(phi), c.y + d * std::sin(phi)}, uniform(g, 0.2, 1.5)};
      const auto poly = rigidref::make_convex_polygon(p.polygon);
      const auto disc = rigidref::make_circle(p.centre, p.radius);
      const auto e = rigidref::epa_penetration(poly, disc);
      p.overlapping = e.intersecting;
      p.centre_inside = rigidref::gjk_distance(poly, rigidref::make_circle(p.centre, 1e-300)).intersecting;
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

std::vector<const circle_pair*> subset(int which) { return rigidref::bench::subset_of(corpus(), which); }

const char* subset_name(int which) { return which == 0 ? "all" : (which == 1 ? "overlapping" : "apart"); }

// ---- rigidref -----------------------------------------------------------------

struct rigidref_pair {
  rigidref::convex_polygon<double> polygon;
  rigidref::circle<double> disc;
};

std::vector<rigidref_pair> rigidref_shapes(int which) {
  std::vector<rigidref_pair> out;
  for (const auto* p : subset(which))
    out.push_back({rigidref::make_convex_polygon(p->polygon), rigidref::make_circle(p->centre, p->radius)});
  return out;
}

template <bool Epa>
void bench_rigidref(benchmark::State& state) {
  const auto shapes = rigidref_shapes(static_cast<int>(state.range(0)));
  if constexpr (Epa)
    rigidref::bench::cycle(state, shapes, [](const rigidref_pair& s) { return rigidref::epa_penetration(s.polygon, s.disc); });
  else
    rigidref::bench::cycle(state, shapes, [](const rigidref_pair& s) { return rigidref::gjk_distance(s.polygon, s.disc); });
  state.SetLabel(subset_name(static_cast<int>(state.range(0))));
}

// ---- Box2D (float) ----------------------------------------------------------------

struct box2d_pair {
  b2PolygonShape polygon;
  b2CircleShape disc;
  bool overlapping;
};

std::vector<box2d_pair> box2d_shapes(int which) {
  std::vector<box2d_pair> out;
  for (const auto* p : subset(which)) {
    box2d_pair s;
    s.polygon = rigidref::bench::box2d_polygon(p->polygon);
    s.polygon.m_radius = 0;  // rigidref's polygons have no skin
    s.disc.m_p.Set(static_cast<float>(p->centre.x), static_cast<float>(p->centre.y));
    s.disc.m_radius = static_cast<float>(p->radius);
    s.overlapping = p->overlapping;
    out.push_back(s);
  }
  return out;
}

b2DistanceOutput box2d_distance(const box2d_pair& s) { return rigidref::bench::box2d_distance(s.polygon, s.disc, true); }

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
    b2CollidePolygonAndCircle(&m, &s.polygon, id, &s.disc, id);
    return m;
  };
  rigidref::bench::checked_cycle(
      state, shapes, [&](const box2d_pair& s) { return (collide(s).pointCount > 0) == s.overlapping; },
      "Box2D's b2CollidePolygonAndCircle disagrees with the exact decision on a corpus pair", collide);
  state.SetLabel(subset_name(static_cast<int>(state.range(0))));
}

void register_benchmarks() {
  auto subsets = [](benchmark::internal::Benchmark* b) {
    rigidref::bench::with_min_row(b->ArgName("subset")->Arg(0)->Arg(1)->Arg(2));
  };
  subsets(benchmark::RegisterBenchmark("gjk/rigidref_double", bench_rigidref<false>));
  subsets(benchmark::RegisterBenchmark("gjk/box2d_float_b2Distance", bench_box2d_distance));
  subsets(benchmark::RegisterBenchmark("epa/rigidref_double", bench_rigidref<true>));
  subsets(benchmark::RegisterBenchmark("epa/box2d_float_b2CollidePolygonAndCircle", bench_box2d_collide));
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  std::size_t inside = 0;
  for (const auto& p : corpus()) inside += p.centre_inside ? 1 : 0;
  benchmark::AddCustomContext("circle corpus", std::to_string(corpus().size()) + " pairs, " + std::to_string(inside) +
                                                   " with the centre inside the polygon");
  return rigidref::bench::run_benchmarks(argc, argv, default_min_time_flag);
}
