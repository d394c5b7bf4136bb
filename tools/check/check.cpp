// `rigidref check`: reads an engine's answers (JSON Lines, the answer lines
// of docs/eval-protocol.md section 4), holds each to its case (--cases),
// and judges it with the library's judge (rigidref/judge.hpp: the
// reference exactly or in 100 digits, every field against its budget,
// derivations/judge.md). Errors are measured in exact arithmetic on the
// engine's printed values, so the judge adds no rounding of its own.
#include "check/case_set.hpp"
#include "check/check.hpp"
#include "check/dynamics_records.hpp"
#include "check/lenient_json.hpp"
#include "check/ops.hpp"
#include "check/scene_records.hpp"
#include "check/summary.hpp"
#include "eval/eval.hpp"
#include "protocol/fast_json.hpp"
#include "protocol/input_file.hpp"
#include "protocol/json.hpp"
#include "protocol/json_error.hpp"
#include "protocol/limits.hpp"
#include "protocol/read_line.hpp"
#include "shard/shard.hpp"

#include "rigidref/errors.hpp"
#include "rigidref/judge/rules.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace rigidref::tools {

void add_check_options(CLI::App& cmd, check_options& opts) {
  cmd.add_option("answers,--results", opts.results,
                 "Answer file (JSON Lines: each line a case's fields plus the engine's \"result\" or \"error\",\n"
                 "its \"engine\" name and working \"precision\"); \"-\" or none reads standard input")
      ->capture_default_str();
  cmd.add_option("--cases", opts.cases,
                 "The case set the answers answer (e.g. data/validation/mass.jsonl): every case must be answered\n"
                 "exactly once (matched by \"id\"), with the case's own inputs (up to rounding to the engine's\n"
                 "precision, or declared in diagnostics.input_changes); missing, repeated and unknown ids fail");
  cmd.add_option("--max-skipped", opts.max_skipped,
                 "Fail an engine and op with more skipped cases (answered \"unsupported\") than this fraction")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd.add_option("--worst", opts.worst, "Print this many failing cases in full, worst first")->capture_default_str();
  cmd.add_option("--verdicts", opts.verdicts,
                 "Also write one JSON line per case here: id, label, family, verdict, the worst field and its\n"
                 "error, and every failing field with its error and budget in eps");
  CLI::Option* shard_opt =
      cmd.add_option("--shard", opts.shard,
                     "Judge only the lines L with (L-1) mod N == K-1 (slice K of N, K in 1..N; every line is\n"
                     "read, line numbers stay global) and write one JSON Lines record per judged case to\n"
                     "standard output (or to --cases-out); --merge of shards 1..N prints the single run's\n"
                     "summary. GNU parallel or a Slurm job array runs the shards (docs/scale-out.md)")
          ->check(shard::validate);
  CLI::Option* out_opt = cmd.add_option(
      "--cases-out", opts.cases_out,
      "Also write the shard records (a header, one record per judged case, an end record with the\n"
      "line count and a digest of the input) to this file (\"-\": standard output)");
  CLI::Option* merge_opt =
      cmd.add_option("--merge", opts.merge,
                     "Merge the records of shards 1..N of one answer stream and print the summary of the\n"
                     "single run (with --cases: the coverage of the whole set). Refuses (exit 2) a missing,\n"
                     "repeated or unfinished shard, shards of different inputs or of different N, and missing\n"
                     "or repeated lines")
          ->expected(1, -1);
  for (CLI::Option* o : {cmd.get_option("--results"), cmd.get_option("--verdicts"), shard_opt, out_opt})
    merge_opt->excludes(o);
  cmd.add_option("--dynamics-out", opts.dynamics_out,
                 "Also write one JSON line per step.pair case here: each law's verdict and each contact's\n"
                 "normal velocity before and after (check/dynamics_records.hpp)");
  cmd.add_option("--scenes-out", opts.scenes_out,
                 "Also write one JSON line per scene.run case here: each law's verdict and the per-frame\n"
                 "series the laws measure (energy, deepest overlap, distance down a ramp, bounce heights;\n"
                 "check/scene_records.hpp), for the report's scene section");
  cmd.footer(judge::rules_help());
}

namespace {

using eval::json;
using check::case_outcome;
using check::case_set;
using check::field_outcome;
using check::held_inputs;
using check::verdict;
using check::verdict_name;
using namespace check;

// Top-level fields of an answer line that are the engine's, not the case's.
bool is_engine_field(const std::string& key) {
  return key == "engine" || key == "precision" || key == "result" || key == "error" || key == "allowances" ||
         key == "diagnostics" || key == "ok";
}

// The reference answer object for a request (rigidref eval: exact where the
// op allows it, else 100 digits), for printing and reproducing a failure.
json reference_answer(json request) {
  request["precision"] = "exact";
  json answer = json::parse(answer_line(eval::to_json_text(request)));
  if (!answer.value("ok", false) && answer["error"].value("code", "") == "unsupported") {
    request["precision"] = "mp100";
    answer = json::parse(answer_line(eval::to_json_text(request)));
  }
  return answer;
}

// A failing case's reference answer, for its printout and its reproduce
// command (which asks for the precision the reference was computed in).
void attach_reference(case_outcome& c) {
  c.reference_pending = false;
  try {
    json request = json::parse(c.request);
    if (c.op == "scene.run") {
      // Judged by laws, not against a trajectory; the reference's own
      // trajectory (minutes in 100 digits for a pyramid) is one eval away.
      request["precision"] = "double";
      c.reference_result = "judged by laws; the reference's trajectory: the reproduce command";
    } else {
      const json answer = reference_answer(request);
      c.reference_result = answer.value("ok", false) ? answer["result"] : answer["error"];
      request["precision"] = answer.value("precision", "exact");  // the reproduce command gives this answer
    }
    c.request = eval::to_json_text(request);
  } catch (const std::exception& e) {
    c.reference_result = e.what();
  }
}

struct id_tracker {
  std::set<std::string> seen;
};

// judge_line's work; `request` is the request judged, complete once
// `request_built` is set (an early return or an exception may leave it unset).
case_outcome judge_line_body(const std::string& text, std::size_t line_number, const case_set* cases, id_tracker& ids,
                             json& request, bool& request_built) {
  case_outcome c;
  c.line = line_number;
  try {
    if (text.size() > eval::limits::max_answer_line_bytes)
      throw std::invalid_argument("answer line longer than " + std::to_string(eval::limits::max_answer_line_bytes) +
                                  " bytes" + eval::limits::limit_note("max_answer_line_bytes"));
    // Deeper lines would overflow the stack of the recursive JSON writers.
    if (eval::limits::nesting_depth(text) > eval::limits::max_nesting)
      throw std::invalid_argument("JSON nested deeper than " + std::to_string(eval::limits::max_nesting) +
                                  " levels" + eval::limits::limit_note("max_nesting"));
    json line;
    try {
      line = parse_json(non_finite_tokens_as_null(text));
    } catch (const json::exception& e) {
      throw std::invalid_argument("not JSON: " + describe_json_error(e, line_number));
    }
    if (!line.is_object()) throw std::invalid_argument("an answer line must be a JSON object");
    if (line.contains("id")) c.id = line["id"];
    if (line.contains("label") && line["label"].is_string()) c.label = line["label"].get<std::string>();
    if (line.contains("family") && line["family"].is_string()) c.family = line["family"].get<std::string>();
    c.engine = line.contains("engine") && line["engine"].is_string() ? line["engine"].get<std::string>() : "?";
    if (!line.contains("op") || !line["op"].is_string()) throw std::invalid_argument("missing string field \"op\"");
    c.op = line["op"].get<std::string>();
    if (judge::find_op_rule(c.op) == nullptr)
      throw std::invalid_argument("rigidref check has no tolerance rule for op \"" + c.op + "\"");
    if (line.contains("precision") && !line["precision"].is_string())
      throw std::invalid_argument("precision: expected a string");
    c.precision = line.value("precision", std::string("double"));
    const judge::engine engine = engine_of(c.precision, line.contains("allowances") ? line["allowances"] : json());
    const json diagnostics = line.contains("diagnostics") ? line["diagnostics"] : json();
    if (!diagnostics.is_null() && !diagnostics.is_object())
      throw std::invalid_argument("diagnostics: expected an object");
    if (!line.contains("error") && !(line.contains("result") && line["result"].is_object()))
      throw std::invalid_argument("an answer line needs \"result\" (an object) or \"error\"");

    // The inputs judged: the case's (--cases) or the line's own.
    request = json::object();
    std::vector<std::string> changed;
    if (cases != nullptr) {
      const json* the_case = cases->find(c.id);
      if (the_case == nullptr) {
        c.v = verdict::fail;
        c.failures = {"unknown id"};
        c.detail = "id " + c.id.dump() + " is not a case of the case set";
        return c;
      }
      if (!ids.seen.insert(c.id.dump()).second) {
        c.v = verdict::fail;
        c.failures = {"repeated id"};
        c.detail = "id " + c.id.dump() + " was answered before";
        return c;
      }
      if (the_case->value("op", "") != c.op) changed.push_back("op: case " + the_case->value("op", "") + ", answer " + c.op);
      if (c.label.empty() && the_case->contains("label")) c.label = the_case->value("label", "");
      if (c.family.empty() && the_case->contains("family")) c.family = the_case->value("family", "");
      const json declared = diagnostics.is_object() && diagnostics.contains("input_changes") ? diagnostics["input_changes"] : json();
      held_inputs held = hold_to_case(*the_case, line, c.precision, declared);
      request = std::move(held.request);
      changed.insert(changed.end(), held.changed.begin(), held.changed.end());
    } else {
      for (const auto& [key, value] : line.items())
        if (!is_engine_field(key) && !is_case_metadata(key)) request[key] = value;
    }
    request["op"] = c.op;
    request_built = true;
    c.engine_result = line.contains("result") ? line["result"] : line["error"];
    if (!changed.empty()) {
      c.v = verdict::fail;
      c.failures = {"inputs changed"};
      for (const std::string& d : changed) c.detail += (c.detail.empty() ? "inputs changed: " : "; ") + d;
      c.fields = {{"inputs", "inputs changed", c.detail, std::numeric_limits<double>::infinity(), 0, false}};
      c.error_eps = std::numeric_limits<double>::infinity();
      c.worst_field = "inputs";
      return c;
    }

    if (line.contains("error")) {
      const std::string code = line["error"].is_object() ? line["error"].value("code", "") : "";
      try {
        reference_accepts(c.op, request);
      } catch (const unsupported& e) {
        c.v = verdict::skipped;
        c.detail = std::string("the reference does not take this case: ") + e.what();
        return c;
      } catch (const invalid_input&) {
        c.v = verdict::both_reject;
        return c;
      } catch (const domain_error&) {
        c.v = verdict::both_reject;
        return c;
      } catch (const no_convergence&) {
        c.v = verdict::both_reject;
        return c;
      }
      if (code == "unsupported") {
        c.v = verdict::skipped;
        c.detail = line["error"].is_object() ? line["error"].value("message", "") : "";
        if (c.detail.empty()) c.detail = "the engine does not handle this case";
        return c;
      }
      c.v = verdict::fail;
      c.failures = {code == "crashed" ? "crashed" : "rejected valid"};
      c.detail = "the engine rejected a valid case: " + line["error"].dump();
      return c;
    }

    try {
      judged j = judge_answer(c.op, request, line["result"], engine);
      take_verdict(c, j.verdict);
      if (j.laws) {
        c.laws = json::object();
        for (const judge::field_verdict& f : j.laws->fields)
          c.laws[f.field] = f.judged ? json{{"pass", f.pass}, {"error_eps", std::isinf(f.error_eps) ? json(nullptr) : json(f.error_eps)},
                                            {"budget_eps", f.budget_eps}}
                                     : json("not judged");
      }
      if (j.step) c.step = std::move(j.step);
      if (j.scene) c.scene = std::move(j.scene);
    } catch (const unsupported& e) {
      c.v = verdict::skipped;
      c.detail = std::string("the reference does not take this case: ") + e.what();
    } catch (const invalid_input& e) {
      c.v = verdict::fail;
      c.failures = {"accepted invalid"};
      c.detail = std::string("the engine answered a case the reference rejects: ") + e.what();
    } catch (const domain_error& e) {
      c.v = verdict::fail;
      c.failures = {"accepted invalid"};
      c.detail = std::string("the engine answered a case the reference rejects: ") + e.what();
    } catch (const no_convergence& e) {
      c.v = verdict::fail;
      c.failures = {"accepted invalid"};
      c.detail = std::string("the engine answered a case the reference does not solve: ") + e.what();
    }
  } catch (const std::exception& e) {
    c.v = verdict::unreadable;
    c.failures = {"unreadable"};
    c.detail = e.what();
  }
  return c;
}

// One answer line judged. The request is written out as text only for a
// failing case, the one use of it (records, printout, reproduce command):
// serialising every line's was 4-9 % of check.
case_outcome judge_line(const std::string& text, std::size_t line_number, const case_set* cases, id_tracker& ids) {
  json request;
  bool request_built = false;
  case_outcome c = judge_line_body(text, line_number, cases, ids, request, request_built);
  if (request_built && (c.v == verdict::fail || c.v == verdict::unreadable)) c.request = eval::to_json_text(request);
  return c;
}

// A --verdicts line: the same story as the summary and the printed case.
json verdict_record(const case_outcome& c) {
  json v = {{"line", c.line},     {"id", c.id},       {"label", c.label},   {"family", c.family},
            {"engine", c.engine}, {"op", c.op},       {"verdict", verdict_name(c.v)}, {"field", c.worst_field},
            {"detail", c.detail}, {"failures", c.failures}};
  v["error_eps"] = std::isinf(c.error_eps) ? json(nullptr) : json(c.error_eps);
  json fields = json::array();
  for (const field_outcome& f : c.fields)
    fields.push_back({{"field", f.field},
                      {"reason", f.reason},
                      {"pass", f.pass},
                      {"error_eps", std::isinf(f.error_eps) ? json(nullptr) : json(f.error_eps)},
                      {"budget_eps", std::isinf(f.budget_eps) ? json(nullptr) : json(f.budget_eps)},
                      {"detail", f.detail}});
  v["fields"] = std::move(fields);
  if (!c.laws.is_null()) v["laws"] = c.laws;
  return v;
}

}  // namespace

check::case_outcome judge_answer_to_case(const std::string& answer_text, const nlohmann::json& the_case) {
  try {
    const case_set one = case_set::of(the_case);
    id_tracker ids;
    return judge_line(answer_text, 1, &one, ids);
  } catch (const std::exception& e) {
    case_outcome c;
    c.line = 1;
    c.failures = {"unreadable"};
    c.detail = e.what();
    return c;
  }
}

int run_check(const check_options& opts, std::istream& stdin_stream, std::ostream& out, std::ostream& err) {
  if (!opts.merge.empty()) return run_check_merge(opts, out, err);
  shard::spec slice;
  try {
    if (!opts.shard.empty()) slice = shard::parse(opts.shard);
  } catch (const std::invalid_argument& e) {
    err << "rigidref check: " << e.what() << "\n";
    return 2;
  }
  std::optional<input_file> file;
  std::istream* in = &stdin_stream;
  if (!opts.results.empty() && opts.results != "-") {
    try {
      file.emplace(opts.results);
    } catch (const input_error& e) {
      err << "rigidref check: " << e.what() << "\n";
      return 2;
    }
    in = &file->stream();
  }
  std::ofstream verdicts;
  if (!opts.verdicts.empty()) {
    verdicts.open(opts.verdicts);
    if (!verdicts) {
      err << "rigidref check: cannot write " << opts.verdicts << "\n";
      return 2;
    }
  }
  // With --shard and no --cases-out the records are the output.
  std::ofstream records_file;
  std::ostream* records = nullptr;
  try {
    records = shard::records_stream(opts.cases_out, !opts.shard.empty(), out, records_file);
  } catch (const std::runtime_error& e) {
    err << "rigidref check: " << e.what() << "\n";
    return 2;
  }
  if (records)
    *records << json{{"record", "header"}, {"tool", "rigidref check"}, {"format", check::record_format},
                     {"shard", slice.k}, {"of", slice.n}}.dump()
             << '\n';
  const std::string who = opts.shard.empty() ? "rigidref check: " : "rigidref check: shard " + slice.text() + ": ";
  check::summary sum;
  shard::digest input;
  std::ofstream dynamics;
  if (!opts.dynamics_out.empty()) {
    dynamics.open(opts.dynamics_out);
    if (!dynamics) {
      err << "rigidref check: cannot write " << opts.dynamics_out << "\n";
      return 2;
    }
  }
  std::ofstream scenes;
  if (!opts.scenes_out.empty()) {
    scenes.open(opts.scenes_out);
    if (!scenes) {
      err << "rigidref check: cannot write " << opts.scenes_out << "\n";
      return 2;
    }
  }
  std::optional<case_set> cases;
  if (!opts.cases.empty()) {
    try {
      cases = case_set::load(opts.cases);
    } catch (const std::exception& e) {
      err << "rigidref check: " << e.what() << "\n";
      return 2;
    }
  }
  id_tracker ids;
  const auto start = std::chrono::steady_clock::now();
  auto last_progress = start;
  std::string text;
  std::size_t line_number = 0, judged = 0;
  // +2: a CRLF's '\r' and one byte over the limit, so that judge_line sees
  // an over-long line as one (and the memory stays bounded).
  while (read_line(*in, text, eval::limits::max_answer_line_bytes + 2)) {
    ++line_number;
    input.add_line(text);
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (!shard::owns_line(slice, line_number)) continue;
    if (text.find_first_not_of(" \t") == std::string::npos) continue;
    case_outcome c = judge_line(text, line_number, cases ? &*cases : nullptr, ids);
    ++judged;
    if (cases && !c.id.is_null() && cases->find(c.id) != nullptr) cases->ids().answered.insert(c.id.dump());
    if ((c.v == verdict::fail || c.v == verdict::unreadable) && !c.request.empty()) {
      // The records carry every failing case's reference; the printout only
      // the worst few, which get theirs before it is printed.
      if (records)
        attach_reference(c);
      else
        c.reference_pending = true;
    }
    if (verdicts) verdicts << eval::to_json_text(verdict_record(c)) << '\n';
    if (dynamics && c.op == "step.pair")
      dynamics << eval::to_json_text(check::dynamics_record(c.engine, c.id, c.line, verdict_name(c.v), c.detail,
                                                            c.step ? &*c.step : nullptr))
               << '\n';
    if (scenes && c.op == "scene.run")
      scenes << eval::to_json_text(check::scene_record(c.engine, c.id, c.line, c.family, verdict_name(c.v), c.detail,
                                                       c.scene ? &*c.scene : nullptr))
             << '\n';
    c.scene.reset();  // the series are written; the summary keeps verdicts only
    if (records) *records << check::case_record(c).dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
    sum.add(std::move(c));
    const auto now = std::chrono::steady_clock::now();
    if (now - last_progress > std::chrono::seconds(2)) {
      err << who << line_number << " lines read, " << judged << " judged\n";
      last_progress = now;
    }
  }
  if (records) {
    *records << json{{"record", "end"}, {"lines", line_number}, {"judged", judged}, {"input", input.hex()}}.dump()
             << '\n';
    records->flush();
    if (!*records) {
      err << "rigidref check: writing " << (opts.cases_out.empty() ? "-" : opts.cases_out) << " failed\n";
      return 2;
    }
    if (records == &out) {
      std::size_t failing = 0;
      std::ostringstream ignored;
      failing = sum.print(line_number, 0, ignored, cases ? &cases->ids() : nullptr, opts.max_skipped);
      err << who << line_number << " lines read, " << judged << " judged, " << failing << " failing\n";
      return failing == 0 ? 0 : 1;
    }
  }
  sum.complete_worst(opts.worst, attach_reference);
  return sum.print(line_number, opts.worst, out, cases ? &cases->ids() : nullptr, opts.max_skipped) == 0 ? 0 : 1;
}

}  // namespace rigidref::tools
