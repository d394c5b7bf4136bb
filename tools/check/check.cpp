// `rigidref check`: reads an engine's answers (JSON Lines, the answer format
// in README.md "Checking an engine"), recomputes each case with `rigidref
// eval` in exact arithmetic (mp100 where the op needs a square root or a
// cosine), and judges every result field with the tolerance model of
// check_rules.hpp. Errors are measured in exact arithmetic on the engine's
// printed values, so the judge adds no rounding of its own.
#include "check/check.hpp"
#include "check/dynamics_records.hpp"
#include "check/geometry.hpp"
#include "check/manifold.hpp"
#include "check/rules.hpp"
#include "check/step_laws.hpp"
#include "check/summary.hpp"
#include "eval/eval.hpp"
#include "protocol/json.hpp"
#include "protocol/limits.hpp"
#include "protocol/read_line.hpp"
#include "shard/shard.hpp"

#include "rigidref/convert.hpp"
#include "rigidref/scalar.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace rigidref::tools {

void add_check_options(CLI::App& cmd, check_options& opts) {
  cmd.add_option("--results", opts.results,
                 "Answer file (JSON Lines: each line a request's fields plus the engine's \"result\" or\n"
                 "\"error\", its \"engine\" name and working \"precision\"); \"-\" reads standard input")
      ->capture_default_str();
  cmd.add_option("--worst", opts.worst, "Print this many failing cases in full, worst first")->capture_default_str();
  cmd.add_option("--verdicts", opts.verdicts, "Also write one JSON line per case (verdict, error in eps) here");
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
                     "single run. Refuses (exit 2) a missing, repeated or unfinished shard, shards of different\n"
                     "inputs or of different N, and missing or repeated lines")
          ->expected(1, -1);
  for (CLI::Option* o : {cmd.get_option("--results"), cmd.get_option("--verdicts"), shard_opt, out_opt})
    merge_opt->excludes(o);
  cmd.add_option("--dynamics-out", opts.dynamics_out,
                 "Also write one JSON line per step.pair case here: each law's verdict and each contact's\n"
                 "normal velocity before and after (check/dynamics_records.hpp)");
  cmd.footer(check::rules_help());
}

namespace {

using eval::json;

using check::case_outcome;
using check::verdict;
using check::verdict_name;

// The engine's unit roundoff doubled (machine epsilon) for its precision.
exact epsilon_of(const std::string& precision) {
  if (precision == "float") return to_exact(std::numeric_limits<float>::epsilon());
  if (precision == "double") return to_exact(std::numeric_limits<double>::epsilon());
  if (precision == "long double") return to_exact(std::numeric_limits<long double>::epsilon());
  if (precision == "mp50") return to_exact(std::numeric_limits<mp50>::epsilon());
  if (precision == "mp100") return to_exact(std::numeric_limits<mp100>::epsilon());
  if (precision == "exact") return 0;
  throw std::invalid_argument("precision: expected float, double, long double, mp50, mp100 or exact, got \"" +
                              precision + "\"");
}

// An engine value that is not a finite number (NaN and infinities are
// written as null by JSON writers): a failed answer, not an unreadable line.
struct non_finite_value : std::runtime_error {
  using std::runtime_error::runtime_error;
};

exact real_of(const json& v, const std::string& where) {
  if (v.is_null()) throw non_finite_value(where + " is null (NaN or infinite in the engine)");
  if (v.is_number()) {
    const double d = v.get<double>();
    if (!std::isfinite(d)) throw non_finite_value(where + ": not finite");
    return to_exact(d);
  }
  if (v.is_string()) return parse_exact(v.get_ref<const std::string&>());
  throw std::invalid_argument(where + ": expected a number, got " + eval::brief(v));
}

// Numbers of a scalar, vector or matrix field, in order.
void flatten(const json& v, const std::string& where, std::vector<exact>& out) {
  if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) flatten(v[i], where + "[" + std::to_string(i) + "]", out);
    return;
  }
  out.push_back(real_of(v, where));
}

exact abs_exact(const exact& x) { return x < 0 ? exact(-x) : x; }

exact max_abs(const std::vector<exact>& v) {
  exact m = 0;
  for (const exact& x : v) m = std::max(m, abs_exact(x));
  return m;
}

// L: the size of the input shapes (largest bounding-box side of any list of
// [x, y] points, a polygon's "vertices" or a segment's ends included, 2r of
// a circle or any rounded shape, the larger side of a rectangle).
exact input_size(const json& request) {
  exact size = 0;
  const auto consider_points = [&](const json& list) {
    if (!list.is_array() || list.empty()) return;
    // All finite JSON numbers (doubles): the extremes by exact double
    // comparisons, two rational differences instead of 4n conversions.
    const bool doubles = std::all_of(list.begin(), list.end(), [](const json& p) {
      return p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number() &&
             std::isfinite(p[0].get<double>()) && std::isfinite(p[1].get<double>());
    });
    if (doubles) {
      double lx = list[0][0].get<double>(), hx = lx, ly = list[0][1].get<double>(), hy = ly;
      for (const json& p : list) {
        const double x = p[0].get<double>(), y = p[1].get<double>();
        lx = std::min(lx, x);
        hx = std::max(hx, x);
        ly = std::min(ly, y);
        hy = std::max(hy, y);
      }
      size = std::max({size, exact(to_exact(hx) - to_exact(lx)), exact(to_exact(hy) - to_exact(ly))});
      return;
    }
    std::optional<exact> lo_x, hi_x, lo_y, hi_y;
    for (const json& p : list) {
      if (!p.is_array() || p.size() != 2) return;
      const exact x = real_of(p[0], "point"), y = real_of(p[1], "point");
      lo_x = lo_x ? std::min(*lo_x, x) : x;
      hi_x = hi_x ? std::max(*hi_x, x) : x;
      lo_y = lo_y ? std::min(*lo_y, y) : y;
      hi_y = hi_y ? std::max(*hi_y, y) : y;
    }
    size = std::max({size, exact(*hi_x - *lo_x), exact(*hi_y - *lo_y)});
  };
  for (const auto& [key, value] : request.items()) {
    if (value.is_array()) consider_points(value);
    if (value.is_object()) {
      if (value.contains("radius")) size = std::max(size, exact(2 * abs_exact(real_of(value["radius"], key))));
      if (value.contains("vertices")) consider_points(value["vertices"]);  // shapes: section 2
      if (value.contains("segment")) consider_points(value["segment"]);
      if (value.contains("width")) size = std::max(size, abs_exact(real_of(value["width"], key)));
      if (value.contains("height")) size = std::max(size, abs_exact(real_of(value["height"], key)));
    }
  }
  return size;
}

double to_display(const exact& q) {
  return static_cast<double>(round_to<double>(q));
}

// The reference answer object for a request, exact where the op allows it.
json reference_answer(json request) {
  request.erase("precision");
  request["precision"] = "exact";
  json answer = json::parse(answer_line(eval::to_json_text(request)));
  if (!answer.value("ok", false) && answer["error"].value("code", "") == "unsupported") {
    request["precision"] = "mp100";
    answer = json::parse(answer_line(eval::to_json_text(request)));
  }
  return answer;
}

// How far the shapes are from touching, in the reference: the measure within
// whose tolerance an `intersecting` flag may go either way. It is the op's own
// distance or depth where that is positive. An overlapping pair has distance 0
// in gjk.distance and a separated pair depth 0 in epa.penetration; there the
// other op's measure of the same shapes is taken (its exact reference), or a
// wrong flag on any overlap or separation would pass. Empty for an op with no
// such measure (its flag must then be right).
std::optional<exact> boundary_measure(const std::string& op, const json& request, const json& reference) {
  const bool distance_op = op == "gjk.distance";
  if (!distance_op && op != "epa.penetration") return std::nullopt;
  const char* own = distance_op ? "distance" : "depth";
  if (reference.contains(own)) {
    const exact m = real_of(reference[own], own);
    if (m != 0) return m;
  }
  json counterpart = request;
  counterpart["op"] = distance_op ? "epa.penetration" : "gjk.distance";
  const json answer = reference_answer(counterpart);
  const char* other = distance_op ? "depth" : "distance";
  if (!answer.value("ok", false) || !answer["result"].contains(other)) return std::nullopt;
  return real_of(answer["result"][other], other);
}

void judge_fields(const json& line, const json& request, const json& result, const json& reference, case_outcome& c) {
  const check::op_rule* rule = check::find_op_rule(c.op);  // judge_line checked it exists
  std::map<std::string, exact, std::less<>> allowance;
  if (const auto a = line.find("allowances"); a != line.end()) {
    if (!a->is_object()) throw std::invalid_argument("allowances: expected an object {\"name\": amount}");
    for (const auto& [name, amount] : a->items()) {
      const check::allowance_rule* known = check::find_allowance(name);
      if (known == nullptr) throw std::invalid_argument("allowances: unknown allowance \"" + name + "\"");
      const exact value = abs_exact(real_of(amount, "allowances." + name));
      for (std::string_view f : known->fields) allowance[std::string(f)] += value;
    }
  }
  const exact eps = epsilon_of(c.precision);
  const exact size = input_size(line);
  c.v = verdict::pass;
  if (c.op == "contact.manifold") {  // judged as a whole: tools/check/manifold.hpp
    const check::manifold_judgement m =
        check::judge_manifold(line, result, reference, {eps, size, rule->budget_eps, allowance});
    if (!m.pass) c.v = verdict::fail;
    c.error_eps = m.error_eps;
    c.worst_field = m.worst_field;
    c.failure = m.failure;
    c.detail = m.detail;
    return;
  }
  for (const check::field_rule& f : rule->fields) {
    const std::string name(f.name);
    const bool in_reference = reference.contains(name);
    if (!result.contains(name)) {
      if (in_reference && f.how == check::metric::flag) {
        c.v = verdict::fail;
        c.failure = name + " missing";
        c.detail = "the engine's answer has no \"" + name + "\"";
        return;
      }
      continue;  // optional for the engine: compared only when given
    }
    if (!in_reference) continue;  // e.g. closest points of an intersecting pair
    if (f.how == check::metric::flag) {
      if (result[name] != reference[name]) {
        // A boolean on the boundary (touching) may go either way: within the
        // op's budget of touching, plus the allowances that name the flag (a
        // polygon skin: such an engine reports contact of the skinned shapes).
        const std::optional<exact> measure = boundary_measure(c.op, request, reference);
        const exact allowed = rule->budget_eps * eps * size + allowance[name];
        const bool near_boundary = measure && *measure <= allowed;
        if (!near_boundary) {
          c.v = verdict::fail;
          c.failure = name;
          c.worst_field = name;
          c.error_eps = std::numeric_limits<double>::infinity();
          std::ostringstream d;
          d << name << ": engine says " << result[name].dump() << ", reference " << reference[name].dump();
          if (measure)
            d << " (the shapes are " << std::setprecision(3) << to_display(*measure)
              << (reference[name] == true ? " deep)" : " apart)");
          c.detail = d.str();
          return;
        }
      }
      continue;
    }
    std::vector<exact> x, r;
    flatten(result[name], "result." + name, x);
    flatten(reference[name], "reference." + name, r);
    if (f.how == check::metric::witness || f.how == check::metric::separating) {
      if (x.size() != 2) {
        c.v = verdict::fail;
        c.failure = name + " shape";
        c.detail = name + ": expected an [x, y] pair";
        return;
      }
    } else if (x.size() != r.size()) {
 c.v = verdict::fail;
      c.failure = name + " shape";
      c.detail = name + ": engine gave " + std::to_string(x.size()) + " numbers, the reference " +
                 std::to_string(r.size());
      return;
    }
    exact diff = 0;
    if (f.how != check::metric::witness && f.how != check::metric::separating)
      for (std::size_t i = 0; i < x.size(); ++i) diff = std::max(diff, abs_exact(x[i] - r[i]));
    exact scale = 1;
    switch (f.how) {
      case check::metric::witness: {
        const bool on_a = name == "point_a";
        const auto shape = check::shape_of(line, on_a ? "a" : "b");
        if (!shape) throw std::invalid_argument("no shape \"" + std::string(on_a ? "a" : "b") + "\" for " + name);
        const vec2<exact> p{x[0], x[1]};
        diff = check::distance_to_shape(*shape, p);
        const exact d_ref = real_of(reference["distance"], "reference.distance");
        const char* other = on_a ? "point_b" : "point_a";
        if (result.contains(other)) {
          std::vector<exact> q;
          flatten(result[other], std::string("result.") + other, q);
          if (q.size() == 2) {
            const exact apart = check::sqrt_exact(length_squared(p - vec2<exact>{q[0], q[1]}));
            diff = std::max(diff, abs_exact(apart - d_ref));
          }
        }
        scale = std::max(d_ref, size);
        break;
      }
      case check::metric::separating: {
        const auto a = check::shape_of(line, "a"), b = check::shape_of(line, "b");
        if (!a || !b) throw std::invalid_argument("epa.penetration needs shapes \"a\" and \"b\"");
        const vec2<exact> n{x[0], x[1]};
        const exact d_ref = real_of(reference["depth"], "reference.depth");
        scale = std::max(d_ref, size);
        const exact unit_error = abs_exact(check::sqrt_exact(length_squared(n)) - 1);
        diff = std::max(abs_exact(check::depth_along(*a, *b, n) - d_ref), exact(unit_error * scale));
        break;
      }
      case check::metric::relative: scale = max_abs(r); break;
      case check::metric::scaled:
      case check::metric::position: scale = std::max(max_abs(r), size); break;
      case check::metric::unit: scale = 1; break;
      case check::metric::matrix: scale = max_abs(r); break;
      case check::metric::flag: break;
    }
    const exact allowed = rule->budget_eps * eps * scale + allowance[name];
    double in_eps = 0;
    if (diff != 0) {
      const exact unit = eps * scale;
      in_eps = unit == 0 ? std::numeric_limits<double>::infinity() : to_display(diff / unit);
    }
    if (in_eps >= c.error_eps) {
      c.error_eps = in_eps;
      c.worst_field = name;
    }
    if (diff > allowed && c.v == verdict::pass) {
      c.v = verdict::fail;
      c.failure = name;
      std::ostringstream d;
      d << name << ": off by " << std::setprecision(3) << in_eps << " eps (budget " << rule->budget_eps << " eps";
      if (allowance[name] != 0) d << " + allowance " << to_display(allowance[name]);
      d << ")";
      c.detail = d.str();
    }
  }
}

void judge_step(const json& line, const json& request, const json& reference, case_outcome& c) {
  try {
    const check::step_judgement j = check::judge_step_pair(line, request, reference, epsilon_of(c.precision));
    c.v = j.pass ? verdict::pass : verdict::fail;
    c.error_eps = j.worst_eps;
    c.worst_field = j.worst_law;
    c.failure = j.failure;
    c.detail = j.detail;
    c.laws = check::laws_json(j);
    c.step = j;
  } catch (const check::step_non_finite& e) {
    throw non_finite_value(e.what());
  }
}

case_outcome judge_line(const std::string& text, std::size_t line_number) {
  case_outcome c;
  c.line = line_number;
  try {
    if (text.size() > eval::limits::max_line_bytes)
      throw std::invalid_argument("answer line longer than " + std::to_string(eval::limits::max_line_bytes) +
                                  " bytes" + eval::limits::limit_note("max_line_bytes"));
    // Deeper lines would overflow the stack of the recursive JSON writers.
    if (eval::limits::nesting_depth(text) > eval::limits::max_nesting)
      throw std::invalid_argument("JSON nested deeper than " + std::to_string(eval::limits::max_nesting) +
                                  " levels" + eval::limits::limit_note("max_nesting"));
    const json line = json::parse(text);
    if (!line.is_object()) throw std::invalid_argument("an answer line must be a JSON object");
    if (!line.contains("op") || !line["op"].is_string()) throw std::invalid_argument("missing string field \"op\"");
    c.op = line["op"].get<std::string>();
    if (check::find_op_rule(c.op) == nullptr)
      throw std::invalid_argument("rigidref check has no tolerance rule for op \"" + c.op + "\"");
    c.engine = line.value("engine", std::string("?"));
    if (line.contains("id")) c.id = line["id"];
    c.precision = line.value("precision", std::string("double"));
    epsilon_of(c.precision);  // validates the name
    json request = line;
    for (const char* engine_only : {"result", "error", "engine", "allowances", "ok"}) request.erase(engine_only);
    request.erase("precision");
    json reference = reference_answer(request);
    request["precision"] = reference.value("precision", "exact");
    c.request = eval::to_json_text(request);
    const bool reference_ok = reference.value("ok", false);
    c.reference_result = reference_ok ? reference["result"] : reference["error"];
    if (!reference_ok && reference["error"].value("code", "") == "unsupported") {
      // The reference does not take this case yet (e.g. a shape an op is
      // not extended to): nothing to judge against.
      c.engine_result = line.contains("result") ? line["result"] : line.value("error", json());
      c.v = verdict::skipped;
      c.detail = "the reference does not take this case: " + reference["error"].value("message", "");
      return c;
    }
    if (line.contains("error")) {
      c.engine_result = line["error"];
      const std::string code = line["error"].is_object() ? line["error"].value("code", "") : "";
      if (!reference_ok) {
        c.v = verdict::both_reject;
      } else if (code == "unsupported") {
        c.v = verdict::skipped;
        c.detail = line["error"].value("message", "the engine does not handle this case");
      } else {
        c.v = verdict::fail;
        c.failure = code == "crashed" ? "crashed" : "rejected valid";
        c.detail = "the engine rejected a valid case: " + line["error"].dump();
      }
      return c;
    }
    if (!line.contains("result") || !line["result"].is_object())
      throw std::invalid_argument("an answer line needs \"result\" (an object) or \"error\"");
    c.engine_result = line["result"];
    if (!reference_ok) {
      c.v = verdict::fail;
      c.failure = "accepted invalid";
      c.detail = "the engine answered a case the reference rejects: " + reference["error"].dump();
      return c;
    }
    try {
      if (c.op == "step.pair") judge_step(line, request, reference["result"], c);
      else judge_fields(line, request, line["result"], reference["result"], c);
    } catch (const non_finite_value& e) {
      c.v = verdict::fail;
      c.failure = "not finite";
      c.detail = e.what();
    }
  } catch (const std::exception& e) {
    c.v = verdict::unreadable;
    c.detail = e.what();
  }
  return c;
}

}  // namespace

int run_check(const check_options& opts, std::istream& stdin_stream, std::ostream& out, std::ostream& err) {
  if (!opts.merge.empty()) return run_check_merge(opts, out, err);
  shard::spec slice;
  try {
    if (!opts.shard.empty()) slice = shard::parse(opts.shard);
  } catch (const std::invalid_argument& e) {
    err << "rigidref check: " << e.what() << "\n";
    return 2;
  }
  std::ifstream file;
  std::istream* in = &stdin_stream;
  if (opts.results != "-") {
    file.open(opts.results);
    if (!file) {
      err << "rigidref check: cannot open " << opts.results << "\n";
      return 2;
    }
    in = &file;
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
  const auto start = std::chrono::steady_clock::now();
  auto last_progress = start;
  std::string text;
  std::size_t line_number = 0, judged = 0;
  // +2: a CRLF's '\r' and one byte over the limit, so that judge_line sees
  // an over-long line as one (and the memory stays bounded).
  while (read_line(*in, text, eval::limits::max_line_bytes + 2)) {
    ++line_number;
    input.add_line(text);
    if (!text.empty() && text.back() == '\r') text.pop_back();
    if (!shard::owns_line(slice, line_number)) continue;
    if (text.find_first_not_of(" \t") == std::string::npos) continue;
    case_outcome c = judge_line(text, line_number);
    ++judged;
    if (verdicts) {
      json v = {{"line", c.line}, {"engine", c.engine}, {"op", c.op}, {"verdict", verdict_name(c.v)},
                {"field", c.worst_field}, {"detail", c.detail}};
      v["error_eps"] = std::isinf(c.error_eps) ? json(nullptr) : json(c.error_eps);
      if (!c.laws.is_null()) v["laws"] = c.laws;
      verdicts << eval::to_json_text(v) << '\n';
    }
    if (dynamics && c.op == "step.pair")
      dynamics << eval::to_json_text(check::dynamics_record(c.engine, c.id, c.line, verdict_name(c.v), c.detail,
                                                            c.step ? &*c.step : nullptr))
               << '\n';
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
      failing = sum.print(line_number, 0, ignored);
      err << who << line_number << " lines read, " << judged << " judged, " << failing << " failing\n";
      return failing == 0 ? 0 : 1;
    }
  }
  return sum.print(line_number, opts.worst, out) == 0 ? 0 : 1;
}

}  // namespace rigidref::tools
