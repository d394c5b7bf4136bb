// `rigidref check --cases CASES`: answers held to their cases
// (docs/eval-protocol.md 4.1, derivations/judge.md D-JUDGE-3).
//   - every case is answered exactly once, matched by "id": a missing, a
//     repeated and an unknown id each fail;
//   - the answer's inputs equal the case's, each number exactly or rounded
//     to the answer's declared precision; any other difference fails as
//     "inputs changed" unless the answer declares it in
//     diagnostics.input_changes {"<field>": "<why>"}, and then the answer is
//     judged on the case's own value of that field.
#pragma once

#include "check/summary.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace rigidref::tools::check {

using json = nlohmann::json;

// Fields of a case that are not inputs: never compared, never judged
// (shrink_steps, original and hunt are what `rigidref hunt --out` adds).
inline bool is_case_metadata(const std::string& key) {
  return key == "id" || key == "label" || key == "family" || key == "shrink_steps" || key == "original" ||
         key == "hunt";
}

class case_set {
 public:
  // Reads a case file (JSON Lines of eval requests with unique ids); throws
  // std::runtime_error naming the line.
  static case_set load(const std::string& path);
  // A set of one case (`rigidref hunt` judges each answer against the case it
  // sent); throws std::invalid_argument when it has no "id" or string "op".
  static case_set of(const json& one_case);

  const json* find(const json& id) const;  // nullptr for an unknown id
  const coverage& ids() const { return coverage_; }
  coverage& ids() { return coverage_; }
  std::size_t size() const { return by_id_.size(); }

 private:
  std::map<std::string, json> by_id_;  // id as JSON text -> the case line
  coverage coverage_;
};

struct held_inputs {
  json request;                       // what is judged: the case's fields, the answer's values
  std::vector<std::string> changed;   // undeclared differences, each "path: case X, answer Y"
  std::vector<std::string> declared;  // fields whose declared change was set back to the case's value
};

// The answer line's inputs against its case (throws std::invalid_argument
// for an unknown precision). The inputs the request keeps are moved out of
// `answer_line` (copying them cost about 2 % of a collision file's check).
held_inputs hold_to_case(const json& case_line, json& answer_line, const std::string& precision,
                         const json& declared_changes);

}  // namespace rigidref::tools::check
