#include "hunt/hunt.hpp"

#include "check/check.hpp"
#include "check/ops.hpp"
#include "hunt/adapter_process.hpp"
#include "hunt/generators.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace rigidref::tools {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

void add_hunt_options(CLI::App& cmd, hunt_options& opts) {
  cmd.add_option("--adapter", opts.adapter,
                 "The engine adapter's command line, as one argument (run by /bin/sh), e.g.\n"
                 "--adapter 'build/tools/rigidref-box2d' or --adapter 'node my_adapter.mjs --fast'.\n"
                 "It is started once and kept running: one request line on its standard input, one\n"
                 "answer line on its standard output (docs/adapters.md)")
      ->required();
  std::string ops;
  for (const std::string& op : hunt::hunt_ops()) ops += (ops.empty() ? "" : ", ") + op;
  cmd.add_option("--op", opts.op, "The op to hunt: " + ops)->required()->check(CLI::IsMember(hunt::hunt_ops()));
  cmd.add_option("--cases", opts.cases, "Cases to draw")->check(CLI::PositiveNumber)->capture_default_str();
  cmd.add_option("--seed", opts.seed, "Seed: the cases drawn, their shrinks and so the run are a function of it")
      ->capture_default_str();
  cmd.add_option("--out", opts.out,
                 "Write one answer line per distinct failure (op and failing field or law), after\n"
                 "shrinking, as `rigidref check` reads it, with \"shrink_steps\", \"original\" (the case as\n"
                 "first found) and \"hunt\" (its parameters); `rigidref check FILE` reproduces each failure");
  cmd.add_option("--time", opts.time, "Stop drawing cases after this many seconds (0: no limit)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd.add_option("--case-timeout", opts.case_timeout,
                 "Seconds the adapter may take on one case; then it is restarted and the case counts as crashed")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--max-shrink-asks", opts.max_shrink_asks, "Answers spent shrinking one failure, at most")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_flag("--maximize", opts.maximize,
               "Also keep the case with the largest error in the engine's epsilon, improved by local search\n"
               "from the failures and the cases drawn (written to --out with \"maximized\": true)");
  cmd.add_flag("--adapter-stderr", opts.adapter_stderr, "Let the adapter's standard error through (default: discarded)");
}

namespace {

using clock_type = std::chrono::steady_clock;

struct judged_case {
  hunt::case_params params;
  json request;                       // with "id"
  std::optional<std::string> answer;  // nullopt: the adapter died or hung
  check::case_outcome outcome;
  bool valid = true;                  // the reference takes the case
};

struct failure_found {
  std::string field;
  judged_case first, last;
  std::size_t case_index = 0, shrink_steps = 0, shrink_asks = 0;
};

class hunter {
 public:
  hunter(const hunt_options& o, std::ostream& err)
      : opts_(o), err_(err), adapter_(o.adapter, o.case_timeout, !o.adapter_stderr), start_(clock_type::now()) {}

  int run(std::ostream& out);

 private:
  judged_case ask(const hunt::case_params& p, const std::string& id);
  std::vector<std::string> failing_fields(const judged_case& c) const;
  void shrink(failure_found& f, rc::Shrinkable<hunt::case_params> from);
  void maximize();
  void progress(bool force = false);
  ojson record(const judged_case& c) const;
  double seconds() const { return std::chrono::duration<double>(clock_type::now() - start_).count(); }

  const hunt_options& opts_;
  std::ostream& err_;
  hunt::adapter_process adapter_;
  clock_type::time_point start_, last_progress_{};
  std::string engine_ = "?", precision_ = "double";
  std::size_t drawn_ = 0, judged_ = 0, passed_ = 0, skipped_ = 0, failed_ = 0, crashed_ = 0, invalid_ = 0;
  std::size_t asks_ = 0, shrink_steps_ = 0;
  std::vector<failure_found> failures_;
  std::set<std::string> kinds_;
  std::optional<judged_case> best_;  // --maximize
  bool answered_once_ = false;
};

judged_case hunter::ask(const hunt::case_params& p, const std::string& id) {
  judged_case c;
  c.params = p;
  try {
    c.request = hunt::request_of(p);
    c.request["id"] = id;
    check::reference_accepts(p.op, c.request);
  } catch (const std::exception&) {
    c.valid = false;  // the parameters make no case the reference takes
    return c;
  }
  ++asks_;
  c.answer = adapter_.ask(c.request.dump());
  if (!c.answer && !answered_once_ && (adapter_.last_exit_status() == 126 || adapter_.last_exit_status() == 127))
    throw std::runtime_error("the adapter command cannot be run (/bin/sh: exit status " +
                             std::to_string(adapter_.last_exit_status()) + "): " + opts_.adapter);
  if (c.answer) answered_once_ = true;
  if (!c.answer) {
    c.outcome.v = check::verdict::fail;
    c.outcome.failures = {"crashed"};
    std::ostringstream why;
    why << "the adapter died or gave no answer within " << opts_.case_timeout << " s";
    c.outcome.detail = why.str();
    return c;
  }
  c.outcome = judge_answer_to_case(*c.answer, c.request);
  if (c.outcome.engine != "?") {
    engine_ = c.outcome.engine;
    precision_ = c.outcome.precision;
  }
  return c;
}

// The failure kinds of a case: its failing fields or laws ("crashed",
// "rejected valid", "unreadable", ... count as fields).
std::vector<std::string> hunter::failing_fields(const judged_case& c) const {
  if (!c.valid) return {};
  if (c.outcome.v == check::verdict::unreadable) return {"unreadable"};
  if (c.outcome.v != check::verdict::fail) return {};
  std::vector<std::string> out = c.outcome.failures;
  if (out.empty()) out.push_back("fail");
  return out;
}

void hunter::progress(bool force) {
  const auto now = clock_type::now();
  if (!force && now - last_progress_ < std::chrono::seconds(2)) return;
  last_progress_ = now;
  err_ << "hunt: " << drawn_ << " cases, " << failed_ << " failing (" << kinds_.size() << " kinds), " << shrink_steps_
       << " shrink steps, " << asks_ << " answers, " << static_cast<int>(seconds()) << " s\n";
}

// Greedy shrinking, as RapidCheck's: take the first shrink of the current
// case that still fails on the same field, and start again from it.
void hunter::shrink(failure_found& f, rc::Shrinkable<hunt::case_params> from) {
  std::size_t asks = 0;
  bool improved = true;
  while (improved && asks < opts_.max_shrink_asks) {
    improved = false;
    auto candidates = from.shrinks();
    while (auto next = candidates.next()) {
      if (asks >= opts_.max_shrink_asks) break;
      judged_case c = ask(next->value(), f.first.request["id"].get<std::string>() + "-shrink-" +
                                             std::to_string(f.shrink_steps + 1));
      if (!c.valid) continue;
      ++asks;
      const std::vector<std::string> fields = failing_fields(c);
      if (std::find(fields.begin(), fields.end(), f.field) != fields.end()) {
        from = *next;
        f.last = std::move(c);
        ++f.shrink_steps;
        ++shrink_steps_;
        improved = true;
        progress();
        break;
      }
    }
  }
  f.shrink_asks = asks;
}

void hunter::maximize() {
  if (!best_) return;
  std::size_t asks = 0;
  bool improved = true;
  while (improved && asks < opts_.max_shrink_asks && (opts_.time <= 0 || seconds() < 2 * opts_.time)) {
    improved = false;
    for (const hunt::case_params& q : hunt::neighbours_of(best_->params)) {
      judged_case c = ask(q, "hunt-max-" + std::to_string(asks));
      if (!c.valid || !c.answer) continue;
      ++asks;
      if (std::isfinite(c.outcome.error_eps) && c.outcome.error_eps > best_->outcome.error_eps) {
        best_ = std::move(c);
        improved = true;
        break;
      }
    }
    progress();
  }
}

// The answer line as the engine gave it (the case's fields, engine,
// precision, result), or for a crash the request with error "crashed".
ojson hunter::record(const judged_case& c) const {
  if (c.answer) {
    try {
      return ojson::parse(*c.answer);
    } catch (const std::exception&) {
    }
  }
  ojson line = ojson::parse(c.request.dump());
  line["engine"] = engine_;
  line["precision"] = precision_;
  line["error"] = {{"code", c.answer ? "unreadable" : "crashed"}, {"message", c.outcome.detail}};
  return line;
}

int hunter::run(std::ostream& out) {
  rc::Random random(opts_.seed);
  const rc::Gen<hunt::case_params> gen = hunt::case_generator(opts_.op);
  for (std::size_t k = 0; k < opts_.cases; ++k) {
    if (opts_.time > 0 && seconds() >= opts_.time) break;
    const rc::Shrinkable<hunt::case_params> drawn = gen(random.split(), static_cast<int>(k % 100));
    ++drawn_;
    judged_case c = ask(drawn.value(), "hunt-" + std::to_string(k));
    if (!c.valid) {
      ++invalid_;
      continue;
    }
    ++judged_;
    const std::vector<std::string> fields = failing_fields(c);
    if (fields.empty()) {
      if (c.outcome.v == check::verdict::pass) ++passed_;
      else ++skipped_;
    } else {
      ++failed_;
      if (!c.answer) ++crashed_;
    }
    if (opts_.maximize && c.answer && std::isfinite(c.outcome.error_eps) &&
        (!best_ || c.outcome.error_eps > best_->outcome.error_eps))
      best_ = c;
    for (const std::string& field : fields) {
      if (!kinds_.insert(field).second) continue;
      failure_found f;
      f.field = field;
      f.case_index = k;
      f.first = c;
      f.last = c;
      err_ << "hunt: case " << k << " fails on " << field << "; shrinking\n";
      shrink(f, drawn);
      failures_.push_back(std::move(f));
    }
    progress();
  }
  if (opts_.maximize) maximize();
  progress(true);

  out << "rigidref hunt: " << engine_ << " (" << precision_ << "), op " << opts_.op << ", seed " << opts_.seed << "\n";
  out << "cases drawn " << drawn_ << ": judged " << judged_ << " (pass " << passed_ << ", skipped " << skipped_
      << ", fail " << failed_ << ", of which crashed " << crashed_ << "), not valid for the reference " << invalid_
      << "; adapter restarts " << adapter_.restarts() << "\n";
  out << "distinct failures: " << failures_.size() << "\n";
  for (const failure_found& f : failures_) {
    out << "  " << f.field << ": first at case " << f.case_index << ", shrunk in " << f.shrink_steps << " steps ("
        << f.shrink_asks << " answers) to " << hunt::describe(f.last.params).dump() << "\n";
    const std::string detail = f.last.outcome.detail.substr(0, 300);
    if (!detail.empty()) out << "    " << detail << "\n";
  }
  if (best_)
    out << "largest error: " << best_->outcome.error_eps << " eps (" << best_->outcome.worst_field << "), "
        << hunt::describe(best_->params).dump() << "\n";

  if (!opts_.out.empty()) {
    std::ofstream file(opts_.out);
    if (!file) {
      err_ << "rigidref hunt: cannot write " << opts_.out << "\n";
      return 2;
    }
    for (const failure_found& f : failures_) {
      ojson line = record(f.last);
      line["shrink_steps"] = f.shrink_steps;
      line["original"] = ojson::parse(f.first.request.dump());
      line["hunt"] = {{"field", f.field}, {"seed", opts_.seed}, {"case", f.case_index},
                      {"parameters", ojson::parse(hunt::describe(f.last.params).dump())}};
      file << line.dump() << "\n";
    }
    if (best_) {
      ojson line = record(*best_);
      line["hunt"] = {{"maximized", true}, {"error_eps", best_->outcome.error_eps},
                      {"field", best_->outcome.worst_field}, {"seed", opts_.seed},
                      {"parameters", ojson::parse(hunt::describe(best_->params).dump())}};
      file << line.dump() << "\n";
    }
  }
  return failures_.empty() ? 0 : 1;
}

}  // namespace

int run_hunt(const hunt_options& opts, std::ostream& out, std::ostream& err) {
  try {
    hunter h(opts, err);
    return h.run(out);
  } catch (const std::invalid_argument& e) {
    err << "rigidref hunt: " << e.what() << "\n";
    return 2;
  } catch (const std::runtime_error& e) {
    err << "rigidref hunt: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace rigidref::tools
