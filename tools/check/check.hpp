// `rigidref check`: judge another engine's answers against the reference.
#pragma once

#include "check/summary.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace CLI {
class App;  // <CLI/CLI.hpp> only in the files that add the options: 7 s of compiler time a file
}  // namespace CLI

namespace rigidref::tools {

struct check_options {
  std::string results = "-";  // answer file, "-" = standard input (positional or --results)
  std::string cases;          // the case set the answers must answer ("" = not held to cases)
  double max_skipped = 1.0;   // a group (engine, op) with more skipped cases than this fraction fails
  std::size_t worst = 5;      // failing cases printed in full
  std::string verdicts;       // write one JSON line per case here ("" = none)
  std::string shard;          // "K/N": judge lines L with (L-1) mod N == K-1 (docs/scale-out.md)
  std::string cases_out;      // shard records of every judged case ("-" = stdout); "" = none
  std::vector<std::string> merge;  // shard record files to merge instead of judging
  std::string dynamics_out;   // one record per step.pair case here ("" = none)
  std::string scenes_out;     // one record per scene.run case here ("" = none)
};

void add_check_options(CLI::App& cmd, check_options& opts);

// One answer line judged against the case it answers, exactly as `rigidref
// check ANSWERS --cases CASES` judges it (rigidref hunt judges each answer
// so). Never throws: an unreadable line is a case_outcome of verdict
// unreadable.
check::case_outcome judge_answer_to_case(const std::string& answer_text, const nlohmann::json& the_case);

// Prints the summary on `out`, progress on `err`. Returns 0 when every case
// passes (or is skipped by the engine), 1 when any fails or cannot be read,
// 2 when the results file cannot be opened. With --shard and no
// --cases-out the shard records go to `out` (check/summary.hpp) instead of
// the summary.
int run_check(const check_options& opts, std::istream& stdin_stream, std::ostream& out, std::ostream& err);

// --merge FILES...: the summary of the single run from its shards' records
// (check/merge.cpp); 2 when they are not shards 1..N of one stream.
int run_check_merge(const check_options& opts, std::ostream& out, std::ostream& err);

}  // namespace rigidref::tools
