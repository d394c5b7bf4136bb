#include "check/summary.hpp"

#include "protocol/json.hpp"

#include "rigidref/convert.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
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

void take_verdict(case_outcome& c, const judge::verdict& v) {
  c.v = v.passed() ? verdict::pass : v.result == judge::outcome::skipped ? verdict::skipped : verdict::fail;
  c.error_eps = v.error_eps;
  c.worst_field = v.worst_field;
  c.failures = v.failures;
  c.fields.clear();
  const judge::field_verdict* worst = nullptr;
  for (const judge::field_verdict& f : v.fields)
    if (f.judged && f.decides && f.field == v.worst_field && worst == nullptr) worst = &f;
  // The worst failing field first, then the other failing ones in order.
  std::vector<const judge::field_verdict*> failing;
  for (const judge::field_verdict& f : v.fields)
    if (f.judged && f.decides && !f.pass) failing.push_back(&f);
  std::stable_sort(failing.begin(), failing.end(),
                   [&](const judge::field_verdict* a, const judge::field_verdict* b) { return a == worst && b != worst; });
  c.detail.clear();
  for (const judge::field_verdict* f : failing) {
    c.fields.push_back({f->field, f->reason.empty() ? f->field : f->reason, f->detail, f->error_eps, f->budget_eps, false});
    c.detail += (c.detail.empty() ? "" : "; ") + f->detail;
  }
  if (worst != nullptr && worst->pass)
    c.fields.push_back({worst->field, worst->reason, worst->detail, worst->error_eps, worst->budget_eps, true});
  if (failing.empty() && worst != nullptr) c.detail = worst->detail;
  if (c.v == verdict::skipped)  // every field given was too ill-conditioned to judge
    for (const judge::field_verdict& f : v.fields)
      if (f.ill_conditioned) c.detail += (c.detail.empty() ? "" : "; ") + f.detail;
}

namespace {

json eps_json(double x) { return std::isinf(x) ? json("inf") : json(x); }
double eps_of(const json& e) {
  if (e.is_string()) {
    if (e.get<std::string>() != "inf") throw std::invalid_argument("error_eps: a number or \"inf\"");
    return std::numeric_limits<double>::infinity();
  }
  return e.get<double>();
}

}  // namespace

json case_record(const case_outcome& c) {
  json r{{"record", "case"}, {"line", c.line},           {"id", c.id},           {"label", c.label},
         {"family", c.family}, {"engine", c.engine},     {"op", c.op},           {"verdict", verdict_name(c.v)},
         {"field", c.worst_field}, {"detail", c.detail}, {"failures", c.failures}};
  r["error_eps"] = eps_json(c.error_eps);
  json fields = json::array();
  for (const field_outcome& f : c.fields)
    fields.push_back({{"field", f.field}, {"reason", f.reason}, {"pass", f.pass}, {"error_eps", eps_json(f.error_eps)},
                      {"budget_eps", eps_json(f.budget_eps)}, {"detail", f.detail}});
  r["fields"] = std::move(fields);
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
  c.id = r.at("id");
  c.label = r.at("label").get<std::string>();
  c.family = r.at("family").get<std::string>();
  c.engine = r.at("engine").get<std::string>();
  c.op = r.at("op").get<std::string>();
  c.v = verdict_of(r.at("verdict").get<std::string>());
  c.error_eps = eps_of(r.at("error_eps"));
  c.worst_field = r.at("field").get<std::string>();
  c.detail = r.at("detail").get<std::string>();
  c.failures = r.at("failures").get<std::vector<std::string>>();
  for (const json& f : r.at("fields"))
    c.fields.push_back({f.at("field").get<std::string>(), f.at("reason").get<std::string>(),
                        f.at("detail").get<std::string>(), eps_of(f.at("error_eps")), eps_of(f.at("budget_eps")),
                        f.at("pass").get<bool>()});
  if (r.contains("request")) {
    c.request = r.at("request").get<std::string>();
    c.engine_result = r.at("engine_result");
    c.reference_result = r.at("reference_result");
  }
  return c;
}

void summary::add(case_outcome c) {
  const auto count = [&](group& g) {
    ++g.cases;
    switch (c.v) {
      case verdict::pass: ++g.pass; break;
      case verdict::fail:
        ++g.fail;
        for (const std::string& reason : c.failures) ++g.failures[reason];
        if (c.failures.empty()) ++g.failures["fail"];
        break;
      case verdict::skipped: ++g.skipped; break;
      case verdict::both_reject: ++g.both_reject; break;
      case verdict::unreadable:
        ++g.unreadable;
        ++g.failures["unreadable"];
        break;
    }
    // The worst line: the failing case of largest error when any fails,
    // else the judged case of largest error, so that it is the first case
    // printed among the worst failing ones (D-JUDGE-2).
    const bool failing = c.v == verdict::fail;
    if (c.v == verdict::pass || failing) {
      const bool outranks = (failing && !g.worst_failing) ||
                            (failing == g.worst_failing && (c.error_eps > g.worst_eps || g.worst_line == 0));
      if (outranks) {
        g.worst_eps = c.error_eps;
        g.worst_line = c.line;
        g.worst_failing = failing;
      }
    }
  };
  count(groups_[{c.engine, c.op}]);
  count(families_[{c.engine, c.op, c.family.empty() ? std::string("-") : c.family}]);
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

// The reference with every number as 17 significant digits (a double's
// round trip), numbers given as exact or 100-digit text included.
std::string rounded_17(const json& v) {
  const auto number_text = [](double d) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", d);
    return std::string(buf);
  };
  if (v.is_number()) return number_text(v.get<double>());
  if (v.is_string()) {
    try {
      const exact q = parse_exact(v.get_ref<const std::string&>());
      return number_text(static_cast<double>(round_to<double>(q)));
    } catch (const std::exception&) {
      return v.dump();
    }
  }
  if (v.is_array()) {
    std::string s = "[";
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + rounded_17(v[i]);
    return s + "]";
  }
  if (v.is_object()) {
    std::string s = "{";
    bool first = true;
    for (const auto& [key, value] : v.items()) {
      s += (first ? "" : ",") + json(key).dump() + ":" + rounded_17(value);
      first = false;
    }
    return s + "}";
  }
  return v.dump();
}

bool has_exact_text(const json& v) {
  if (v.is_string()) {
    try {
      (void)parse_exact(v.get_ref<const std::string&>());
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }
  if (v.is_array() || v.is_object())
    for (const auto& x : v)
      if (has_exact_text(x)) return true;
  return false;
}

std::string id_text(const json& id) { return id.is_null() ? "-" : id.dump(); }

// A column of at least `width` characters and always one space after it:
// an engine name longer than its column must not run into the op (the
// report reads these rows back by their whitespace, engine_matrix.cpp).
std::string column(const std::string& text, std::size_t width) {
  return text + std::string(text.size() < width ? width - text.size() : 1, ' ');
}

}  // namespace

void summary::sort_failing() {
  std::stable_sort(failing_.begin(), failing_.end(),
                   [](const case_outcome& a, const case_outcome& b) { return a.error_eps > b.error_eps; });
}

void summary::complete_worst(std::size_t worst, const std::function<void(case_outcome&)>& attach) {
  sort_failing();
  for (std::size_t i = 0; i < std::min(worst, failing_.size()); ++i)
    if (failing_[i].reference_pending) attach(failing_[i]);
}

std::size_t summary::print(std::size_t lines, std::size_t worst, std::ostream& out, const coverage* cases,
                           double max_skipped) {
  out << std::left << std::setw(32) << "engine" << std::setw(22) << "op" << std::right << std::setw(7) << "cases"
      << std::setw(7) << "pass" << std::setw(7) << "fail" << std::setw(8) << "skipped" << std::setw(8) << "reject"
      << std::setw(12) << "worst eps" << "  worst line\n";
  std::size_t failures = 0;
  for (const auto& [key, g] : groups_) {
    out << column(key.first, 32) << column(key.second, 22) << std::right << std::setw(7)
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
  // By family: conditioning (needles, far offsets) apart from defects.
  bool any_family = false;
  for (const auto& [key, g] : families_) any_family = any_family || std::get<2>(key) != "-";
  if (any_family) {
    out << "\nby family:\n";
    for (const auto& [key, g] : families_) {
      const auto& [engine, op, family] = key;
      out << "  " << column(engine, 30) << column(op, 20) << column(family, 26) << std::right
          << std::setw(6) << g.cases << " cases " << std::setw(6) << g.pass << " pass " << std::setw(6)
          << (g.fail + g.unreadable) << " fail " << std::setw(6) << g.skipped << " skipped";
      if (g.fail + g.unreadable > 0) out << "  worst " << fmt_eps(g.worst_eps) << " eps, line " << g.worst_line;
      out << "\n";
    }
  }
  // Coverage: every case answered exactly once (--cases), and how much was judged.
  out << "\ncoverage:\n";
  for (const auto& [key, g] : groups_) {
    const double skipped = g.cases == 0 ? 0.0 : static_cast<double>(g.skipped) / static_cast<double>(g.cases);
    out << "  " << key.first << " " << key.second << ": " << g.cases << " answered, " << (g.pass + g.fail) << " judged, "
        << g.skipped << " skipped (" << std::fixed << std::setprecision(1) << 100 * skipped << std::defaultfloat
        << " %)";
    if (skipped > max_skipped) {
      out << ": more than --max-skipped " << max_skipped << " (a failure)";
      ++failures;
    }
    out << "\n";
  }
  if (cases != nullptr) {
    for (const auto& [op, ids] : cases->ids_by_op) {
      std::vector<std::string> missing;
      for (const std::string& id : ids)
        if (cases->answered.count(id) == 0) missing.push_back(id);
      out << "  " << op << ": " << ids.size() << " cases in the set, " << (ids.size() - missing.size()) << " answered, "
          << missing.size() << " without an answer";
      if (!missing.empty()) {
        out << " (a failure each):";
        for (std::size_t i = 0; i < std::min<std::size_t>(5, missing.size()); ++i) out << " " << missing[i];
        if (missing.size() > 5) out << " ...";
      }
      out << "\n";
      failures += missing.size();
    }
  } else {
    out << "  (answers not held to a case set: give --cases CASES to check that every case is answered\n"
           "   exactly once with the case's own inputs)\n";
  }
  sort_failing();
  const std::size_t shown = std::min(worst, failing_.size());
  if (shown > 0) out << "\nworst " << shown << " of " << failing_.size() << " failing cases:\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const case_outcome& c = failing_[i];
    out << "line " << c.line << " (" << c.engine << ", " << c.op << ", " << verdict_name(c.v) << ", id " << id_text(c.id);
    if (!c.family.empty()) out << ", family " << c.family;
    out << ")";
    if (!c.worst_field.empty() && c.v == verdict::fail)
      out << ": worst " << c.worst_field << " at " << fmt_eps(c.error_eps) << " eps";
    out << "\n";
    if (!c.fields.empty()) {
      for (const field_outcome& f : c.fields)
        if (!f.pass) out << "  fails: " << f.detail << "\n";
    } else if (!c.detail.empty()) {
      out << "  " << c.detail << "\n";
    }
    if (!c.label.empty()) out << "  label:     " << c.label << "\n";
    if (!c.request.empty()) {
      out << "  engine:    " << eval::to_json_text(c.engine_result) << "\n";
      out << "  reference: " << rounded_17(c.reference_result) << "  (17 significant digits)\n";
      // Beside its exact form when the reference is exact; a 100-digit one is
      // what the reproduce command prints.
      bool exact_reference = false;
      try {
        exact_reference = json::parse(c.request).value("precision", "") == "exact";
      } catch (const std::exception&) {
      }
      if (exact_reference && has_exact_text(c.reference_result))
        out << "  exact:     " << eval::to_json_text(c.reference_result) << "\n";
      out << "  reproduce: echo '" << c.request << "' | rigidref eval\n";
    }
  }
  out << "\n" << lines << " lines, " << failures << " failing\n";
  return failures;
}

}  // namespace rigidref::tools::check
