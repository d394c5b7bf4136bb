// Polygon mass properties: the cost of rigidref's accuracy guarantee.
//
// Every backend runs on the same convex polygons (fixed seed, one set per n),
// so time ratios in one run are meaningful:
//   mass/rigidref_double_{simple,basic}  polygon_mass_from_density<double>
//   mass/rigidref_mp50_{basic,simple}    the same in 50-digit cpp_bin_float
//   mass/naive_shoelace_double           textbook formula, no guarantee
//   mass/box2d_float_ComputeMass         Box2D 2.4.1, n <= b2_maxPolygonVertices
// Each iteration computes one polygon, cycling through the set. See README.md.
#include "rigidref/mass.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"
#include "rigidref/verify/random.hpp"

#include "bench_support.hpp"

#include <benchmark/benchmark.h>
#include <box2d/box2d.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace {

using rigidref::mass_properties;
using rigidref::mp50;
using rigidref::polygon_check;
using rigidref::vec2;

constexpr std::uint64_t polygon_seed = 20240601;
// Several polygons per n so branch predictors cannot learn one input.
constexpr std::size_t polygons_per_n = 16;
// Short runs by default (~30 benchmarks in well under a minute); a
// --benchmark_min_time on the command line comes later and wins.
constexpr const char* default_min_time_flag = "--benchmark_min_time=0.25";

// A regular n-gon whose vertex angles are jittered by up to +-30% of a
// sector, stretched into an ellipse, rotated, scaled and moved off the
// origin. Points on an ellipse in angle order are strictly convex with edges
// far above Box2D's weld distance, so b2PolygonShape::Set keeps all n.
std::vector<vec2<double>> jittered_convex_polygon(rigidref::verify::rng& g, int n) {
  using rigidref::verify::uniform;
  const double two_pi = 2 * std::acos(-1.0);
  const double sector = two_pi / n;
  const double aspect = uniform(g, 0.6, 1.0);
  const double radius = uniform(g, 0.5, 2.0);
  const double turn = uniform(g, 0.0, two_pi);
  const double cx = uniform(g, -4.0, 4.0), cy = uniform(g, -4.0, 4.0);
  std::vector<vec2<double>> v;
  for (int k = 0; k < n; ++k) {
    const double a = k * sector + uniform(g, -0.3, 0.3) * sector;
    const double ex = radius * std::cos(a), ey = radius * aspect * std::sin(a);
    v.push_back({cx + ex * std::cos(turn) - ey * std::sin(turn), cy + ex * std::sin(turn) + ey * std::cos(turn)});
  }
  return v;
}

// The polygon set for n, in double. Seeded per n, so the set does not depend
// on which benchmark asks first.
const std::vector<std::vector<vec2<double>>>& polygons(int n) {
  static std::map<int, std::vector<std::vector<vec2<double>>>> cache;
  auto& set = cache[n];
  if (set.empty()) {
    rigidref::verify::rng g(polygon_seed + static_cast<std::uint64_t>(n));
    for (std::size_t i = 0; i < polygons_per_n; ++i) set.push_back(jittered_convex_polygon(g, n));
  }
  return set;
}

// The same polygons in T (double -> mp50 is exact).
template <class T>
std::vector<std::vector<vec2<T>>> polygons_in(int n) {
  std::vector<std::vector<vec2<T>>> out;
  for (const auto& poly : polygons(n)) {
    std::vector<vec2<T>> w;
    for (const auto& p : poly) w.push_back({T(p.x), T(p.y)});
    out.push_back(std::move(w));
  }
  return out;
}

// The textbook shoelace sums about the origin, no shift and no checks: the
// speed of the formula alone, with its cancellation far from the origin.
mass_properties<double> naive_shoelace_mass(std::span<const vec2<double>> v, double density) {
  double twice_area = 0, first_x = 0, first_y = 0, second = 0;
  for (std::size_t i = 0, j = v.size() - 1; i < v.size(); j = i++) {
    const vec2<double>& p = v[j];
    const vec2<double>& q = v[i];
    const double c = rigidref::cross(p, q);
    twice_area += c;
    first_x += c * (p.x + q.x);
    first_y += c * (p.y + q.y);
    second += c * (rigidref::dot(p, p) + rigidref::dot(p, q) + rigidref::dot(q, q));
  }
  const double area = twice_area / 2;
  const double mass = density * area;
  const vec2<double> centroid{first_x / (3 * twice_area), first_y / (3 * twice_area)};
  const double inertia_about_origin = density * second / 12;
  return {area, centroid, mass, inertia_about_origin - mass * rigidref::length_squared(centroid)};
}

bool close(double a, double b, double rel) { return std::abs(a - b) <= rel * std::abs(b); }

void annotate(benchmark::State& state, int n, const std::string& label) {
  state.SetLabel(label);
  state.counters["n"] = n;
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * n);  // vertices/s
}

template <class T>
void bench_rigidref(benchmark::State& state, polygon_check check, const std::string& label) {
  const int n = static_cast<int>(state.range(0));
  const auto set = polygons_in<T>(n);
  const T density(1);
  std::size_t i = 0;
  for (auto _ : state) {
    mass_properties<T> mp = rigidref::polygon_mass_from_density<T>(set[i], density, check);
    benchmark::DoNotOptimize(mp.inertia);
    i = (i + 1) % polygons_per_n;
  }
  annotate(state, n, label);
}

void bench_naive_shoelace(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto& set = polygons(n);
  // Same quantity as rigidref, so the times compare like with like.
  for (const auto& poly : set) {
    const double want = rigidref::polygon_mass_from_density<double>(poly, 1.0).inertia;
    if (!close(naive_shoelace_mass(poly, 1.0).inertia, want, 1e-9)) {
      state.SkipWithError("naive shoelace disagrees with rigidref");
      return;
    }
  }
  std::size_t i = 0;
  for (auto _ : state) {
    mass_properties<double> mp = naive_shoelace_mass(set[i], 1.0);
    benchmark::DoNotOptimize(mp.inertia);
    i = (i + 1) % polygons_per_n;
  }
  annotate(state, n, "naive shoelace double, about origin, no checks");
}

// Box2D works in float. Set() builds a hull and normals, so it runs here,
// outside the timed loop; only ComputeMass is timed (a call into libbox2d.so).
void bench_box2d(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const auto& set = polygons(n);
  std::vector<b2PolygonShape> shapes(polygons_per_n);
  for (std::size_t k = 0; k < polygons_per_n; ++k) {
    b2Vec2 points[b2_maxPolygonVertices];
    for (int j = 0; j < n; ++j)
      points[j].Set(static_cast<float>(set[k][j].x), static_cast<float>(set[k][j].y));
    shapes[k].Set(points, n);
    if (shapes[k].m_count != n) {
      state.SkipWithError("Box2D's hull dropped vertices");
      return;
    }
    // b2MassData::I is about the shape origin: centroidal = I - m |c|^2.
    b2MassData md;
    shapes[k].ComputeMass(&md, 1.0f);
    const double centroidal = double(md.I) - double(md.mass) * (double(md.center.x) * md.center.x +
                                                                double(md.center.y) * md.center.y);
    if (!close(centroidal, rigidref::polygon_mass_from_density<double>(set[k], 1.0).inertia, 1e-3)) {
      state.SkipWithError("Box2D disagrees with rigidref beyond float accuracy");
      return;
    }
  }
  b2MassData md;
  std::size_t i = 0;
  for (auto _ : state) {
    shapes[i].ComputeMass(&md, 1.0f);
    benchmark::DoNotOptimize(md);
    i = (i + 1) % polygons_per_n;
  }
  annotate(state, n, "Box2D 2.4.1 float ComputeMass, I about origin (n <= b2_maxPolygonVertices = 8)");
}

benchmark::internal::Benchmark* with_sizes(benchmark::internal::Benchmark* b, std::initializer_list<int> sizes) {
  for (int n : sizes) b->Arg(n);
  // With --benchmark_repetitions: the fastest repetition is the least disturbed
  // by other processes on a shared machine. (For the vertices/s counter "min"
  // is the slowest rate; read the time column.)
  return rigidref::bench::with_min_row(b)->ArgName("n");
}

void register_benchmarks() {
  const std::initializer_list<int> all_sizes = {3, 4, 6, 8, 16, 32, 64};
  with_sizes(benchmark::RegisterBenchmark("mass/rigidref_double_simple", bench_rigidref<double>,
                                          polygon_check::simple, "rigidref double, polygon_check::simple"),
             all_sizes);
  with_sizes(benchmark::RegisterBenchmark("mass/rigidref_double_basic", bench_rigidref<double>,
                                          polygon_check::basic, "rigidref double, polygon_check::basic"),
             all_sizes);
  with_sizes(benchmark::RegisterBenchmark("mass/naive_shoelace_double", bench_naive_shoelace), all_sizes);
  with_sizes(benchmark::RegisterBenchmark("mass/box2d_float_ComputeMass", bench_box2d), {3, 4, 6, 8});
  with_sizes(benchmark::RegisterBenchmark("mass/rigidref_mp50_basic", bench_rigidref<mp50>, polygon_check::basic,
                                          "rigidref mp50, polygon_check::basic"),
             {3, 8, 64});
  with_sizes(benchmark::RegisterBenchmark("mass/rigidref_mp50_simple", bench_rigidref<mp50>, polygon_check::simple,
                                          "rigidref mp50, polygon_check::simple"),
             {8});
}

}  // namespace

int main(int argc, char** argv) {
  register_benchmarks();
  return rigidref::bench::run_benchmarks(argc, argv, default_min_time_flag);
}
