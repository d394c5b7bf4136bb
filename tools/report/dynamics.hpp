// The report's dynamics section: the per-case law records of `rigidref
// check --dynamics-out` committed as data/validation/results/*-dynamics.jsonl
// (check/dynamics_records.hpp; the ctests engine_*-dynamics keep them
// current) and a user's own (rigidref report --engine-results DIR), read
// back as a table of one row per engine and law (cases judged, pass, fail,
// not judged) and, per engine, a scatter plot of each contact's normal
// velocity after the step against -e times the one before
// (derivations/engine_dynamics.md).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace rigidref::tools {

struct dynamics_law_row {
  std::string engine, law;
  long judged = 0, pass = 0, fail = 0, not_judged = 0;  // judged = pass + fail
};

// One contact of one case: x = -e u_n before (v*), y = u_n after; verdict
// of the restitution law at that point: "pass", "fail" or "not judged".
struct dynamics_point {
  double x = 0, y = 0;
  std::string verdict;
};

struct dynamics_engine {
  std::string engine, file;  // the engine's name in the records, the file it came from
  long cases = 0;
  std::vector<dynamics_point> points;
};

struct dynamics_records {
  std::vector<dynamics_law_row> rows;     // engines in file order, laws in the judge's order
  std::vector<dynamics_engine> engines;
};

// Every *-dynamics.jsonl in `dir`, files in name order. A case without
// "laws" (the engine rejected it, a number was not finite) counts as not
// judged for every law. Throws std::runtime_error on a line that is not a
// record.
dynamics_records read_dynamics_records(const std::filesystem::path& dir);

// The committed directory's records (none when it does not exist), then
// those of each user directory in `more` (rigidref report --engine-results),
// each engine's file named by its path. A directory of `more` without
// dynamics records adds nothing; one that is not a directory throws
// std::runtime_error.
dynamics_records read_dynamics_records(const std::filesystem::path& committed,
                                       const std::vector<std::filesystem::path>& more);

// The table as text (the terminal report) and as HTML with the plots.
std::string dynamics_table_text(const dynamics_records& records);
std::string dynamics_section_html(const dynamics_records& records);

}  // namespace rigidref::tools
