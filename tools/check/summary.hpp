// `rigidref check`'s judged cases, their summary and their shard records
// (docs/scale-out.md). The single run, a shard and the merge of shards add
// cases in line order to the same summary, so a merge prints what the single
// run prints.
//
// One case, one story (docs/eval-protocol.md 4.3): the table's worst error
// and worst line, the failure counts, the printed worst cases and the
// --verdicts records all come from the same case_outcome: its worst field,
// every failing field with its error and budget, and its id, label, family.
//
// Shard records (JSON Lines), in file order:
//   {"record":"header", "tool":"rigidref check", "format":2, "shard":K, "of":N}
//   {"record":"case", ... case_record(): line, id, label, family, engine, op,
//    verdict, error_eps (a number or "inf"), field, failures, fields, detail;
//    for failing and unreadable cases also request, engine_result, reference_result}
//   ... one per judged (non-blank) line of the shard, lines ascending
//   {"record":"end", "lines": lines read, "judged": case records written,
//    "input": FNV-1a 64 of every line read (shards of one stream agree)}
#pragma once

#include "rigidref/judge/scene.hpp"
#include "rigidref/judge/step.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace rigidref::tools::check {

using json = nlohmann::json;

enum class verdict { pass, fail, skipped, both_reject, unreadable };

const char* verdict_name(verdict v);
verdict verdict_of(const std::string& name);  // throws std::invalid_argument

// One judged field (the failing ones, and the worst), as printed and recorded.
struct field_outcome {
  std::string field, reason, detail;
  double error_eps = 0, budget_eps = 0;
  bool pass = true;
};

struct case_outcome {
  std::size_t line = 0;
  json id;                 // the case's "id" (null when absent)
  std::string label, family;
  std::string engine = "?", op = "?", precision = "double";
  verdict v = verdict::unreadable;
  double error_eps = 0;      // the worst judged field's error in the engine's epsilon
  std::string worst_field;   // ... and its name
  std::vector<std::string> failures;  // every failure's short reason, in order
  std::vector<field_outcome> fields;  // every failing field, then the worst if it passed
  std::string detail;        // every failure's detail, the worst first; or why skipped/unreadable
  std::string request;       // the reference request line, to reproduce
  json engine_result, reference_result;
  bool reference_pending = false;  // failing, reference_result not computed yet (summary::complete_worst)
  json laws;  // step.pair: one verdict per law
  std::optional<judge::step_verdict> step;  // step.pair, when the laws judged it (--dynamics-out)
  std::optional<judge::scene_verdict> scene;  // scene.run, when the laws judged it (--scenes-out)
};

// Fills worst_field, error_eps, failures, fields and detail from a verdict.
void take_verdict(case_outcome& c, const judge::verdict& v);

inline constexpr int record_format = 2;

json case_record(const case_outcome& c);
case_outcome case_of(const json& record);  // throws json::exception, std::invalid_argument

// What --cases found: the ids of the case set, per op, and which the
// answers matched.
struct coverage {
  std::map<std::string, std::vector<std::string>> ids_by_op;  // the case set's ids (as JSON text), per op
  std::set<std::string> answered;                             // ids answered at least once
};

class summary {
 public:
  void add(case_outcome c);  // in line order
  // The tables, the coverage (when `cases` is given), the worst `worst`
  // failing cases and "L lines, F failing"; returns the number of failures
  // (failing cases, cases without an answer, groups over max_skipped).
  std::size_t print(std::size_t lines, std::size_t worst, std::ostream& out, const coverage* cases = nullptr,
                    double max_skipped = 1.0);
  // Calls `attach` on each of the `worst` failing cases print will show whose
  // reference is still pending: only those need one.
  void complete_worst(std::size_t worst, const std::function<void(case_outcome&)>& attach);

 private:
  struct group {
    std::size_t cases = 0, pass = 0, fail = 0, skipped = 0, both_reject = 0, unreadable = 0;
    double worst_eps = 0;
    std::size_t worst_line = 0;
    bool worst_failing = false;  // the worst is a failing case's (failing cases outrank passing ones)
    std::map<std::string, std::size_t> failures;  // by short reason, every reason of every case
  };
  std::map<std::pair<std::string, std::string>, group> groups_;
  std::map<std::tuple<std::string, std::string, std::string>, group> families_;
  std::vector<case_outcome> failing_;
  void sort_failing();  // worst first; stable, so print and complete_worst agree
};

}  // namespace rigidref::tools::check
