// What the benchmark programs share: main() with a default minimum time,
// the "min" statistic row, the loop that cycles through a corpus, and
// Box2D's polygon set-up and b2Distance call.
#pragma once

#include "rigidref/vec2.hpp"

#include <benchmark/benchmark.h>
#include <box2d/b2_distance.h>
#include <box2d/box2d.h>

#include <algorithm>
#include <cstddef>
#include <vector>

namespace rigidref::bench {

// With --benchmark_repetitions, also a "min" row (the fastest repetition): on
// a shared machine it moves least.
inline benchmark::internal::Benchmark* with_min_row(benchmark::internal::Benchmark* b) {
  return b->ComputeStatistics("min", [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); });
}

// Each iteration answers one item, cycling through them, so that branch
// predictors cannot learn a single input.
template <class Items, class Query>
void cycle(benchmark::State& state, const Items& items, Query query) {
  std::size_t i = 0;
  for (auto _ : state) {
    auto r = query(items[i]);
    benchmark::DoNotOptimize(r);
    if (++i == items.size()) i = 0;
  }
}

// cycle(), after checking `agrees` on every item (an engine's decision
// against the exact one); a disagreement is reported as the benchmark's
// error instead of a time.
template <class Items, class Agrees, class Query>
void checked_cycle(benchmark::State& state, const Items& items, Agrees agrees, const char* disagreement, Query query) {
  for (const auto& item : items)
    if (!agrees(item)) {
      state.SkipWithError(disagreement);
      return;
    }
  cycle(state, items, query);
}

// The corpus items of a subset: 0 all, 1 the overlapping ones, 2 the others
// (`overlapping` is the exact decision).
template <class Item>
std::vector<const Item*> subset_of(const std::vector<Item>& corpus, int which) {
  std::vector<const Item*> out;
  for (const auto& p : corpus)
    if (which == 0 || (which == 1) == p.overlapping) out.push_back(&p);
  return out;
}

// b2Distance on two shapes at the identity transform, with an empty cache.
inline b2DistanceOutput box2d_distance(const b2Shape& a, const b2Shape& b, bool use_radii) {
  b2DistanceInput in;
  in.proxyA.Set(&a, 0);
  in.proxyB.Set(&b, 0);
  in.transformA.SetIdentity();
  in.transformB.SetIdentity();
  in.useRadii = use_radii;
  b2SimplexCache cache;
  cache.count = 0;
  b2DistanceOutput out;
  b2Distance(&out, &cache, &in);
  return out;
}

// A Box2D polygon from double vertices rounded to float; Set() builds the hull
// and the normals (outside any timed loop).
inline b2PolygonShape box2d_polygon(const std::vector<vec2<double>>& v) {
  std::vector<b2Vec2> w;
  for (const auto& p : v) w.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
  b2PolygonShape s;
  s.Set(w.data(), static_cast<int32>(w.size()));
  return s;
}

// cycle() over `distance` (a b2Distance call), after checking that it decides
// every item (with its exact `overlapping`) as the exact path does.
template <class Items, class Distance>
void checked_box2d_distance_cycle(benchmark::State& state, const Items& items, Distance distance) {
  checked_cycle(
      state, items, [&](const auto& s) { return (distance(s).distance == 0.0f) == s.overlapping; },
      "Box2D's b2Distance disagrees with the exact decision on a corpus pair", distance);
}

// main(): the registered benchmarks, with `min_time_flag` (for example
// "--benchmark_min_time=0.2") applied unless the command line overrides it.
inline int run_benchmarks(int argc, char** argv, const char* min_time_flag) {
  std::vector<char*> args(argv, argv + argc + 1);  // keeps argv's trailing nullptr
  args.insert(args.begin() + 1, const_cast<char*>(min_time_flag));
  int args_count = argc + 1;
  benchmark::Initialize(&args_count, args.data());
  if (benchmark::ReportUnrecognizedArguments(args_count, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

}  // namespace rigidref::bench
