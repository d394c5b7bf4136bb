// The judge's verdict on one answer: every field (or law) judged, each with
// its error and its budget in the engine's epsilon, every failure named,
// and the worst field, so that a summary, a record and a printed case all
// say the same thing. derivations/judge.md D-JUDGE-2.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/scalar.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::judge {

enum class outcome {
  pass,         // every judged field within its budget, at least one judged
  fail,         // a field out of budget, not finite, missing, unknown, ...
  skipped,      // the engine or the reference does not take the case
  both_reject,  // the engine and the reference both reject the case
};

inline const char* outcome_name(outcome o) {
  switch (o) {
    case outcome::pass: return "pass";
    case outcome::fail: return "fail";
    case outcome::skipped: return "skipped";
    case outcome::both_reject: return "both_reject";
  }
  return "?";
}

// An error or a budget in the engine's epsilon with three significant
// digits ("inf" for an unbounded one): never 0.000000 for a small nonzero.
inline std::string format_eps(double x) {
  if (std::isinf(x)) return "inf";
  if (std::isnan(x)) return "nan";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  return buf;
}

// Any exact quantity (a velocity, a length) with three significant digits.
inline std::string format_value(const exact& q) {
  return format_eps(static_cast<double>(round_to<double>(q)));
}

struct field_verdict {
  std::string field;      // "area", "centroid", "points[1].separation", a law name, ...
  bool judged = true;     // false: the field or law does not apply (detail says why)
  bool decides = true;    // false: a diagnostic, reported but not part of the case's verdict
  bool ill_conditioned = false;  // not judged: its budget exceeds the value itself (D-JUDGE-6)
  bool pass = true;
  double error_eps = 0;   // error / (eps * scale); inf for a wrong flag or an exact engine's error
  double budget_eps = 0;  // what was allowed, on the same scale, allowances included
  std::string reason;     // short failure name for summaries: "area", "not finite", "intersecting"
  std::string detail;     // the measurement in words
};

struct verdict {
  outcome result = outcome::pass;  // skipped only when every field given was ill-conditioned
  std::vector<field_verdict> fields;   // every field or law considered, in the op's order
  std::vector<std::string> failures;   // every failure's short reason, in order (no repeats)
  double error_eps = 0;                // the worst judged field's error
  std::string worst_field;             // ... and its name ("" when none was judged)

  bool passed() const { return result == outcome::pass; }
  bool failed() const { return result == outcome::fail; }

  // Every failure's detail, joined: what a person reads.
  std::string detail() const {
    std::string out;
    for (const field_verdict& f : fields)
      if (f.judged && f.decides && !f.pass) out += (out.empty() ? "" : "; ") + f.detail;
    return out;
  }
  std::size_t judged_count() const {
    std::size_t n = 0;
    for (const field_verdict& f : fields) n += f.judged && f.decides ? 1 : 0;
    return n;
  }

  // Records one field; keeps the worst judged error (the first of equals)
  // and the failure list.
  void add(field_verdict f) {
    if (f.judged && f.decides) {
      if (worst_field.empty() || f.error_eps > error_eps) {
        error_eps = f.error_eps;
        worst_field = f.field;
      }
      if (!f.pass) fail(f.reason.empty() ? f.field : f.reason);
    }
    fields.push_back(std::move(f));
  }
  // A failure that is not a measured field (e.g. "nothing judged").
  void fail(const std::string& reason) {
    result = outcome::fail;
    for (const std::string& r : failures)
      if (r == reason) return;
    failures.push_back(reason);
  }
  // A failure with its own line of detail and no measure.
  void fail(const std::string& reason, const std::string& detail) { fail_field(reason, reason, detail); }
  void fail_field(const std::string& field, const std::string& reason, const std::string& detail) {
    field_verdict f;
    f.field = field;
    f.pass = false;
    f.reason = reason;
    f.error_eps = std::numeric_limits<double>::infinity();
    f.detail = detail;
    add(std::move(f));
  }
  // After the fields: a case where nothing was judged fails (D-JUDGE-3),
  // unless every field given was too ill-conditioned to judge in the
  // engine's precision: then the case is skipped, and says so (D-JUDGE-6).
  void finish() {
    if (result != outcome::pass || judged_count() != 0) return;
    for (const field_verdict& f : fields)
      if (f.ill_conditioned) {
        result = outcome::skipped;
        return;
      }
    fail("nothing judged", "no field of the answer could be judged");
  }
};

}  // namespace rigidref::judge

#include "rigidref/detail/fp_end.hpp"
