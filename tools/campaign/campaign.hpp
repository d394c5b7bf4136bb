// `rigidref campaign`: the long collision campaign (not in CI): many random
// and adversarial convex pairs per type through GJK, EPA and SAT, each
// compared with the exact oracle (internal/collision_campaign.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;  // <CLI/CLI.hpp> only in the files that add the options: 7 s of compiler time a file
}  // namespace CLI

namespace rigidref::tools {

struct campaign_options {
  std::size_t pairs = 1000000;       // per type (float, double, long double)
  std::size_t mp_pairs = 0;          // per mp type; 0: pairs / 10
  std::string type = "double";       // float, double, long double, mp50, mp100, all
  std::uint64_t seed = 20261122;
  std::vector<std::string> kinds;    // empty: all
  std::uint64_t first = 0;           // index of the first pair (reproduce one pair)
  double max_query_ms = 50;
  std::string shard;                 // "K/N": the slice to run (docs/scale-out.md); "" = all
  std::string pairs_out;             // JSON Lines records of every pair run ("-" = stdout); "" = none
  std::vector<std::string> merge;    // shard files to merge instead of running
};

void add_campaign_options(CLI::App& cmd, campaign_options& opts);

// Table on `out`, progress and timing on `err` every 2 s; returns 0 if no
// pair fails and no query hangs, 1 otherwise, 2 on bad usage or (merge)
// inconsistent shard files. With --shard and no --pairs-out the records go
// to `out` and the slice's table is not printed.
int run_campaign(const campaign_options& opts, std::ostream& out, std::ostream& err);

// `--merge FILES...`: the summary the single run would have printed, from
// the records of its shards (campaign/merge.cpp).
int run_campaign_merge(const std::vector<std::string>& files, std::ostream& out, std::ostream& err);

}  // namespace rigidref::tools
