#include "campaign/rows.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace rigidref::tools::campaign {

void fold_pair(row_state& into, const verify::campaign_row& p, std::uint64_t i, std::size_t keep) {
  verify::campaign_row& r = into.row;
  r.pairs += p.pairs;
  r.decision_mismatches += p.decision_mismatches;
  r.bound_failures += p.bound_failures;
  r.errors += p.errors;
  r.hangs += p.hangs;
  r.slow_once += p.slow_once;
  r.gjk_caps += p.gjk_caps;
  r.epa_caps += p.epa_caps;
  r.gjk_fallbacks += p.gjk_fallbacks;
  r.epa_fallbacks += p.epa_fallbacks;
  r.touching += p.touching;
  r.intersecting += p.intersecting;
  r.separated += p.separated;
  // campaign_check's rule per measurement (first one, then strictly larger)
  // applied per pair: the winner is the same first largest measurement.
  if (!p.worst_case.empty() && (r.worst_case.empty() || p.worst_eps > r.worst_eps)) {
    r.worst_eps = p.worst_eps;
    r.worst_ulps = p.worst_ulps;
    r.worst_metric = p.worst_metric;
    r.worst_case = p.worst_case;
    into.has_worst = true;
    into.worst_i = i;
  }
  if (p.max_query_ms > r.max_query_ms) {
    r.max_query_ms = p.max_query_ms;
    r.max_query_what = p.max_query_what;
  }
  for (const auto& f : p.failures)
    if (r.failures.size() < keep) r.failures.push_back(f);
}

std::vector<std::string> selected_types(const std::string& type_option) {
  std::vector<std::string> out;
  for (const char* t : {"float", "double", "long double", "mp50", "mp100"})
    if (type_option == "all" || type_option == t) out.emplace_back(t);
  return out;
}

std::size_t type_total(const campaign_options& o, const std::string& type, std::size_t kind_count) {
  const bool mp = type == "mp50" || type == "mp100";
  std::size_t total = mp ? (o.mp_pairs > 0 ? o.mp_pairs : o.pairs / 10) : o.pairs;
  return std::max(total, std::min<std::size_t>(o.pairs, kind_count));
}

std::vector<std::string> resolved_kinds(const campaign_options& o) {
  if (!o.kinds.empty()) return o.kinds;
  return std::vector<std::string>(std::begin(verify::campaign_kinds), std::end(verify::campaign_kinds));
}

namespace {

std::string fmt_eps(double x) {
  if (std::isinf(x)) return "inf";
  std::ostringstream o;
  o << std::setprecision(3) << x;
  return o.str();
}

}  // namespace

bool print_summary(const campaign_options& o, const std::vector<row_state>& rows, std::ostream& out) {
  out << "rigidref collision campaign  (seed " << o.seed << ", --pairs " << o.pairs << ", first " << o.first
      << ", query limit " << o.max_query_ms << " ms)\n"
      << "Each pair runs gjk_distance, epa_penetration and sat; decisions are compared with the exact oracle\n"
      << "(verify/collision_oracle.hpp), values in eps of the type against internal/bounds.hpp.\n"
      << "verdicts: oracle's separated/touching/intersecting counts. dec: pairs with a decision mismatch;\n"
      << "bound: pairs with a value outside its bound; err: a query threw; hang: a query over the limit twice,\n"
      << "in wall and CPU time; cap, fb: GJK/EPA cap_reached and exact_fallback counts (reported, not\n"
      << "failures). Timing (slow queries, the slowest query, seconds per type) is on stderr: it differs\n"
      << "from run to run, this table does not (a merge of shards prints it byte for byte).\n\n";
  out << std::left << std::setw(12) << "type" << std::setw(15) << "kind" << std::right << std::setw(9) << "pairs"
      << std::setw(20) << "sep/touch/int" << std::setw(6) << "dec" << std::setw(7) << "bound" << std::setw(5) << "err"
      << std::setw(6) << "hang" << std::setw(10) << "cap g/e" << std::setw(16) << "fb g/e" << std::setw(11)
      << "worst eps" << "  " << std::left << "(metric)" << "\n";
  bool any_failed = false;
  for (const auto& s : rows) {
    const auto& r = s.row;
    any_failed = any_failed || r.failed();
    std::ostringstream verdicts, caps, fbs;
    verdicts << r.separated << "/" << r.touching << "/" << r.intersecting;
    caps << r.gjk_caps << "/" << r.epa_caps;
    fbs << r.gjk_fallbacks << "/" << r.epa_fallbacks;
    out << std::left << std::setw(12) << r.type << std::setw(15) << r.kind << std::right << std::setw(9) << r.pairs
        << std::setw(20) << verdicts.str() << std::setw(6) << r.decision_mismatches << std::setw(7) << r.bound_failures
        << std::setw(5) << r.errors << std::setw(6) << r.hangs << std::setw(10) << caps.str() << std::setw(16)
        << fbs.str() << std::setw(11) << fmt_eps(r.worst_eps) << "  " << std::left << ("(" + r.worst_metric + ")")
        << std::right << "\n";
  }
  out << "\nWorst case of each row (exact inputs: every coordinate reads back to the same value):\n";
  for (const auto& s : rows) {
    const auto& r = s.row;
    if (r.worst_case.empty()) continue;
    out << "  " << r.type << " " << r.kind << ": " << fmt_eps(r.worst_eps) << " eps, " << r.worst_ulps << " ulps\n    "
        << r.worst_case << "\n";
  }
  bool header = false;
  for (const auto& s : rows) {
    if (s.row.failures.empty()) continue;
    if (!header) out << "\nFailures (the first few per row):\n";
    header = true;
    for (const auto& f : s.row.failures) out << "  " << f << "\n";
  }
  out << "\n" << (any_failed ? "FAILED: a decision, bound, error or hang above." : "All pairs passed.") << "\n";
  return any_failed;
}

void print_timing(const std::vector<row_state>& rows, const std::vector<std::pair<std::string, double>>& seconds,
                  double total_seconds, const std::string& note, std::ostream& err) {
  err << "\nTiming" << note << " (slow: a query over the limit in wall time only, i.e. preempted;\n"
      << "max ms: the slowest query, wall clock):\n";
  err << std::left << std::setw(12) << "type" << std::setw(15) << "kind" << std::right << std::setw(6) << "slow"
      << std::setw(10) << "max ms" << "\n";
  for (const auto& s : rows) {
    std::ostringstream ms;
    ms << std::fixed << std::setprecision(2) << s.row.max_query_ms;
    err << std::left << std::setw(12) << s.row.type << std::setw(15) << s.row.kind << std::right << std::setw(6)
        << s.row.slow_once << std::setw(10) << ms.str() << "\n";
  }
  err << "Runtime per type:";
  for (const auto& [type, sec] : seconds) err << "  " << type << " " << std::fixed << std::setprecision(1) << sec << " s";
  err << "  (total " << std::fixed << std::setprecision(1) << total_seconds << " s)\n" << std::defaultfloat;
}

}  // namespace rigidref::tools::campaign
