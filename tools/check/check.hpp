// `rigidref check`: judge another engine's answers against the reference.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <iosfwd>
#include <string>

namespace rigidref::tools {

struct check_options {
  std::string results = "-";  // answer file, "-" = standard input
  std::size_t worst = 5;      // failing cases printed in full
  std::string verdicts;       // write one JSON line per case here ("" = none)
  std::string dynamics_out;   // one record per step.pair case here ("" = none)
};

void add_check_options(CLI::App& cmd, check_options& opts);

// Prints the summary on `out`, progress on `err`. Returns 0 when every case
// passes (or is skipped by the engine), 1 when any fails or cannot be read,
// 2 when the results file cannot be opened.
int run_check(const check_options& opts, std::istream& stdin_stream, std::ostream& out, std::ostream& err);

}  // namespace rigidref::tools
