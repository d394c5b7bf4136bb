// The engine validation summaries committed in data/validation/results/
// (`rigidref check` writes them, the ctests engine_* keep them current),
// and a user's own (`rigidref check ... > DIR/myengine-mass.txt`, shown with
// `rigidref report --engine-results DIR`), read back and shown as an engine
// x op matrix: one row per engine, one column per op, each cell pass / fail
// / skipped and the worst error. Engines and ops come from the files, so a
// new summary file shows up without a code change.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace rigidref::tools {

// One line of a summary table (docs/eval-protocol.md, `rigidref check`).
struct engine_summary_row {
  std::string engine, op;
  long cases = 0, pass = 0, fail = 0, skipped = 0, reject = 0;
  std::string worst_eps;  // as written: "6.93e+05", "inf", "0"
  long worst_line = 0;    // 0: no case was judged (all skipped or rejected)
  std::string file;       // the summary file: its name, e.g. "box2d-mass.txt", or its path for a user's
};

// The table rows of every *.txt file in `dir`, files in name order; lines
// that are not table rows (the header, the failure lists) are skipped.
std::vector<engine_summary_row> read_engine_summaries(const std::filesystem::path& dir);

// The committed directory's rows (none when it does not exist), then those
// of each user directory in `more` (--engine-results), in order, each named
// by its path ("results/myengine-mass.txt") so that a cell tells a user's
// summary from a committed one. Throws std::runtime_error, naming the
// directory, for one of `more` that is not a directory or holds no summary
// table (a *.txt file with a table row).
std::vector<engine_summary_row> read_engine_summaries(const std::filesystem::path& committed,
                                                      const std::vector<std::filesystem::path>& more);

// The matrix as an HTML table (class "engine-matrix"); every cell carries
// data-engine and data-op. Engines in order of first appearance, ops sorted.
std::string engine_matrix_html(const std::vector<engine_summary_row>& rows);

}  // namespace rigidref::tools
