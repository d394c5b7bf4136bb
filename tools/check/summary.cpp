#include "check/summary.hpp"

#include "protocol/json.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace rigidref::tools::check {

const char* verdict_name(verdict v) {
  switch (v) {
    case verdict::pass: return "pass";
    case verdict::fail: return "fail";
    case verdict::skipped: return "skipped";
    case verdict::both_reject: return "both_reject";
    case verdict::unreadable: return "unreadable";
  }
  return "?";
}

verdict verdict_of(const std::string& name) {
  for (verdict v : {verdict::pass, verdict::fail, verdict::skipped, verdict::both_reject, verdict::unreadable})
    if (name == verdict_name(v)) return v;
  throw std::invalid_argument("unknown verdict \"" + name + "\"");
}

json case_record(const case_outcome& c) {
  json r{{"record", "case"},         {"line", c.line},          {"engine", c.engine},
         {"op", c.op},               {"verdict", verdict_name(c.v)}, {"field", c.worst_field},
         {"failure", c.failure},     {"detail", c.detail}};
  r["error_eps"] = std::isinf(c.error_eps) ? json("inf") : json(c.error_eps);
  if (c.v == verdict::fail || c.v == verdict::unreadable) {
    r["request"] = c.request;
    r["engine_result"] = c.engine_result;
    r["reference_result"] = c.reference_result;
  }
  return r;
}

case_outcome case_of(const json& r) {
  case_outcome c;
  c.line = r.at("line").get<std::size_t>();
  c.engine = r.at("engine").get<std::string>();
  c.op = r.at("op").get<std::string>();
  c.v = verdict_of(r.at("verdict").get<std::string>());
  const json& e = r.at("error_eps");
  if (e.is_string()) {
    if (e.get<std::string>() != "inf") throw std::invalid_argument("error_eps: a number or \"inf\"");
    c.error_eps = std::numeric_limits<double>::infinity();
  } else {
    c.error_eps = e.get<double>();
  }
  c.worst_field = r.at("field").get<std::string>();
  c.failure = r.at("failure").get<std::string>();
  c.detail = r.at("detail").get<std::string>();
  if (r.contains("request")) {
    c.request = r.at("request").get<std::string>();
    c.engine_result = r.at("engine_result");
    c.reference_result = r.at("reference_result");
  }
  return c;
}

void summary::add(case_outcome c) {
  group& g = groups_[{c.engine, c.op}];
  ++g.cases;
  switch (c.v) {
    case verdict::pass: ++g.pass; break;
    case verdict::fail:
      ++g.fail;
      ++g.failures[c.failure];
      break;
    case verdict::skipped: ++g.skipped; break;
    case verdict::both_reject: ++g.both_reject; break;
    case verdict::unreadable:
      ++g.unreadable;
      ++g.failures["unreadable"];
      break;
  }
  if ((c.v == verdict::pass || c.v == verdict::fail) && (c.error_eps > g.worst_eps || g.worst_line == 0)) {
    g.worst_eps = c.error_eps;
    g.worst_line = c.line;
  }
  if (c.v == verdict::fail || c.v == verdict::unreadable) failing_.push_back(std::move(c));
}

namespace {

std::string fmt_eps(double x) {
  if (std::isinf(x)) return "inf";
  std::ostringstream o;
  if (x != 0 && (x >= 1e5 || x < 1e-2)) o << std::setprecision(2) << std::scientific << x;
  else o << std::setprecision(3) << x;
  return o.str();
}

}  // namespace

std::size_t summary::print(std::size_t lines, std::size_t worst, std::ostream& out) {
  out << std::left << std::setw(32) << "engine" << std::setw(22) << "op" << std::right << std::setw(7) << "cases"
      << std::setw(7) << "pass" << std::setw(7) << "fail" << std::setw(8) << "skipped" << std::setw(8) << "reject"
      << std::setw(12) << "worst eps" << "  worst line\n";
  std::size_t failures = 0;
  for (const auto& [key, g] : groups_) {
    out << std::left << std::setw(32) << key.first << std::setw(22) << key.second << std::right << std::setw(7)
        << g.cases << std::setw(7) << g.pass << std::setw(7) << (g.fail + g.unreadable) << std::setw(8) << g.skipped
        << std::setw(8) << g.both_reject << std::setw(12) << fmt_eps(g.worst_eps) << "  " << g.worst_line << "\n";
    failures += g.fail + g.unreadable;
  }
  for (const auto& [key, g] : groups_) {
    if (g.failures.empty()) continue;
    out << "  " << key.first << " " << key.second << " fails on:";
    for (const auto& [reason, n] : g.failures) out << " " << reason << " " << n << ";";
    out << "\n";
  }
  std::stable_sort(failing_.begin(), failing_.end(),
                   [](const case_outcome& a, const case_outcome& b) { return a.error_eps > b.error_eps; });
  const std::size_t shown = std::min(worst, failing_.size());
  if (shown > 0) out << "\nworst " << shown << " of " << failing_.size() << " failing cases:\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const case_outcome& c = failing_[i];
    out << "line " << c.line << " (" << c.engine << ", " << c.op << ", " << verdict_name(c.v) << "): " << c.detail
        << "\n";
    if (!c.request.empty()) {
      out << "  engine:    " << eval::to_json_text(c.engine_result) << "\n";
      out << "  reference: " << eval::to_json_text(c.reference_result) << "\n";
      out << "  reproduce: echo '" << c.request << "' | rigidref eval\n";
    }
  }
  out << "\n" << lines << " lines, " << failures << " failing\n";
  return failures;
}

}  // namespace rigidref::tools::check
