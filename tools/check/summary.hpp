// `rigidref check`'s judged cases, their summary (the table per engine and
// op, the worst failing cases, the line count) and their shard records
// (docs/scale-out.md). The single run, a shard and the merge of shards add
// cases in line order to the same summary, so a merge prints what the single
// run prints.
// Shard records (JSON Lines), in file order:
//   {"record":"header", "tool":"rigidref check", "format":1, "shard":K, "of":N}
//   {"record":"case", "line", "engine", "op", "verdict", "error_eps" (a
//    number, or "inf"), "field", "failure", "detail"; for failing and
//    unreadable cases also "request", "engine_result", "reference_result"}
//   ... one per judged (non-blank) line of the shard, lines ascending
//   {"record":"end", "lines": lines read, "judged": case records written,
//    "input": FNV-1a 64 of every line read (shards of one stream agree)}
#pragma once

#include "check/step_laws.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rigidref::tools::check {

using json = nlohmann::json;

enum class verdict { pass, fail, skipped, both_reject, unreadable };

const char* verdict_name(verdict v);
verdict verdict_of(const std::string& name);  // throws std::invalid_argument

struct case_outcome {
  std::size_t line = 0;
  std::string engine = "?", op = "?", precision = "double";
  verdict v = verdict::unreadable;
  double error_eps = 0;     // worst field error in the engine's epsilon
  std::string worst_field;  // where it was
  std::string detail;       // why it failed / was skipped
  std::string failure;      // short reason: the failing field, "rejected", "crashed", ...
  std::string request;      // the reference request line, to reproduce
  json engine_result, reference_result;
  json laws;  // step.pair: one verdict per law (check/step_laws.hpp)
  json id;    // the case's "id", if any
  std::optional<step_judgement> step;  // step.pair, when the laws judged it (--dynamics-out)
};

inline constexpr int record_format = 1;

json case_record(const case_outcome& c);
case_outcome case_of(const json& record);  // throws json::exception, std::invalid_argument

class summary {
 public:
  void add(case_outcome c);  // in line order
  // The table, the worst `worst` failing cases and "L lines, F failing";
  // returns the number of failing cases.
  std::size_t print(std::size_t lines, std::size_t worst, std::ostream& out);

 private:
  struct group {
    std::size_t cases = 0, pass = 0, fail = 0, skipped = 0, both_reject = 0, unreadable = 0;
    double worst_eps = 0;
    std::size_t worst_line = 0;
    std::map<std::string, std::size_t> failures;  // by short reason
  };
  std::map<std::pair<std::string, std::string>, group> groups_;
  std::vector<case_outcome> failing_;
};

}  // namespace rigidref::tools::check
