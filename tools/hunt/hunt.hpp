// `rigidref hunt`: property-based search of a live engine. Cases drawn by
// RapidCheck generators (hunt/generators.hpp) go to a running adapter; each
// answer is judged as `rigidref check --cases` judges it; every failure of a
// new kind (op and failing field or law) is shrunk, through the adapter, to
// the simplest case that still fails on that field.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

namespace CLI {
class App;  // <CLI/CLI.hpp> only in the files that add the options: 7 s of compiler time a file
}  // namespace CLI

namespace rigidref::tools {

struct hunt_options {
  std::string adapter;              // the adapter's command line (run by /bin/sh)
  std::string op;                   // one of hunt::hunt_ops()
  std::size_t cases = 3000;         // cases to draw
  std::uint64_t seed = 20261127;    // the whole run is a function of it
  std::string out;                  // one answer line per distinct failure ("" = none)
  double time = 0;                  // stop drawing after this many seconds (0 = no limit)
  double case_timeout = 10;         // seconds per answer before the adapter counts as hung
  std::size_t max_shrink_asks = 2000;  // answers spent shrinking one failure, at most
  bool maximize = false;            // also search for the largest error in eps
  bool adapter_stderr = false;      // let the adapter's standard error through
};

void add_hunt_options(CLI::App& cmd, hunt_options& opts);

// Summary on `out`, progress on `err`. Returns 0 when no case failed, 1 when
// a counterexample was found, 2 on bad usage (an unknown op, an adapter
// that cannot be started).
int run_hunt(const hunt_options& opts, std::ostream& out, std::ostream& err);

}  // namespace rigidref::tools
