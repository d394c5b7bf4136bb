// `rigidref report`: the verification report (accuracy tables and verdicts).
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

struct report_options {
  std::uint64_t seed = 20261122;
  double scale = 1.0;      // multiplies every case count
  bool quick = false;      // about a tenth of the cases
  bool worst = false;      // print every row's worst case, not only failures and findings
  std::string only_type;   // restrict to one precision ("" = all)
  std::string csv_dir;     // write plot-ready CSV files here ("" = none)
  std::string html_path;   // write the HTML page here ("" = none)
  std::string out_dir;     // --out: report.html, csv/ and derivations/*.html here ("" = none)
  std::size_t cases = 0;   // --cases: polygons per builtin type (0 = the default 2000)
  std::string only_topic;  // --only: mass, matrix, collision, solver ("" = all)
  std::vector<std::string> engine_results;  // --engine-results: a user's summary directories, shown
                                            // beside the committed data/validation/results/
  bool scene_table = false;  // --scene-table: print the scene.run engine x law table (Markdown) only
};

void add_report_options(CLI::App& cmd, report_options& opts);

// Prints the table on `out`, progress on `err`; returns 0 if every bound
// holds, 1 otherwise, 2 when an --engine-results directory cannot be read
// (said before anything is measured).
int run_report(const report_options& opts, std::ostream& out, std::ostream& err);

}  // namespace rigidref::tools
