#include "campaign/campaign.hpp"

#include "rigidref/internal/collision_campaign.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <tuple>

namespace rigidref::tools {

void add_campaign_options(CLI::App& cmd, campaign_options& opts) {
  cmd.add_option("--pairs", opts.pairs,
                 "Pairs per type (float, double, long double), shared round-robin by the kinds.\n"
                 "mp50 and mp100 run a tenth of it (at least one per kind) unless --mp-pairs is given:\n"
                 "a pair costs them 3-5x a double pair (wider rationals in the oracle and the certification).\n"
                 "The ctest campaign_slice runs --pairs 2000 --type all: 2000 pairs per float, double and\n"
                 "long double, 200 per mp50 and mp100 (about 10 s of CPU)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--mp-pairs", opts.mp_pairs, "Pairs per multiprecision type (mp50, mp100); default --pairs / 10");
  cmd.add_option("--type", opts.type, "float, double, long double, mp50, mp100 or all")
      ->check(CLI::IsMember({"float", "double", "long double", "mp50", "mp100", "all"}))
      ->capture_default_str();
  cmd.add_option("--seed", opts.seed, "Seed; every pair is a function of (seed, kind, index) alone")->capture_default_str();
  std::string kinds_help =
      "Comma-separated kinds (default all):\n"
      "  random         full-precision random polygons, 3..8 vertices, about half overlapping\n"
      "  touching       B's extreme vertex on a dyadic point of an edge of A (exactly touching)\n"
      "  parallel       B = -cA with facing parallel edges, or axis-aligned rectangles: touching,\n"
      "                 overlapping or separated by a push of j/16 across the face\n"
      "  shared-vertex  a vertex of B exactly on a vertex of A\n"
      "  needle         lattice needles (aspect up to ~4e6) against polygons and needles\n"
      "  far            both shapes offset by 2^18 (float), 2^47 (double), 2^56 (long double, mp)\n"
      "  size-ratio     radius ratio 2^9..2^15, the small one at the big one's boundary\n"
      "  collinear      collinear and repeated vertices, either orientation, any start vertex\n"
      "Adversarial kinds are built exactly: dyadic coordinates (integers / 16) that T holds exactly.";
  cmd.add_option("--kinds", opts.kinds, kinds_help)->delimiter(',')->check(CLI::IsMember(
      std::vector<std::string>(std::begin(verify::campaign_kinds), std::end(verify::campaign_kinds))));
  cmd.add_option("--first", opts.first,
                 "Index of the first pair (with --pairs 1 and one kind: rerun the pair a report names)")
      ->capture_default_str();
  cmd.add_option("--max-query-ms", opts.max_query_ms,
                 "Wall-clock limit per query (steady_clock around one gjk_distance, epa_penetration or sat\n"
                 "call, in this thread) for polygons of at most 8 vertices; (n/8)^2 times it above.\n"
                 "A query over the limit is rerun once and is a hang only if the rerun is over it too, in\n"
                 "wall time and in CPU time (std::clock): a query that only waited for a core on a busy\n"
                 "machine is counted as slow, not as a hang")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
}

namespace {

std::string fmt_eps(double x) {
  if (std::isinf(x)) return "inf";
  std::ostringstream o;
  o << std::setprecision(3) << x;
  return o.str();
}

class ticker {
 public:
  explicit ticker(std::ostream& err) : err_(err), start_(clock::now()), last_(start_) {}
  void tick(const std::string& type, std::size_t done, std::size_t total, std::size_t failures, bool force = false) {
    const auto now = clock::now();
    if (!force && std::chrono::duration<double>(now - last_).count() < 2.0) return;
    last_ = now;
    const double t = std::chrono::duration<double>(now - start_).count();
    const double tt = std::chrono::duration<double>(now - type_start_).count();
    err_ << "[" << std::fixed << std::setprecision(1) << t << " s] " << type << ": " << done << "/" << total
         << " pairs, " << std::setprecision(0) << (tt > 0 ? static_cast<double>(done) / tt : 0.0) << " pairs/s, failures "
         << failures << "\n"
         << std::defaultfloat;
  }
  void start_type() { type_start_ = clock::now(); }
  double elapsed() const { return std::chrono::duration<double>(clock::now() - start_).count(); }

 private:
  using clock = std::chrono::steady_clock;
  std::ostream& err_;
  clock::time_point start_, last_, type_start_;
};

template <class T>
void run_type(const campaign_options& o, const std::vector<std::string>& kinds, std::vector<verify::campaign_row>& rows,
              std::vector<double>& seconds, ticker& tk) {
  const std::string name(scalar_name<T>());
  if (o.type != "all" && o.type != name) return;
  const bool mp = !std::is_floating_point_v<T>;
  std::size_t total = mp ? (o.mp_pairs > 0 ? o.mp_pairs : o.pairs / 10) : o.pairs;
  total = std::max(total, std::min<std::size_t>(o.pairs, kinds.size()));
  const std::size_t first_row = rows.size();
  for (const auto& k : kinds) {
    verify::campaign_row r;
    r.type = name;
    r.kind = k;
    rows.push_back(r);
  }
  verify::campaign_limits lim;
  lim.max_query_ms = o.max_query_ms;
  tk.start_type();
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t failures = 0;
  for (std::size_t i = 0; i < total; ++i) {
    const std::uint64_t global = o.first + i;
    const std::size_t slot = static_cast<std::size_t>(global % kinds.size());
    const std::uint64_t index = global / kinds.size();
    const std::string& kind = kinds[slot];
    std::size_t kind_id = 0;
    while (verify::campaign_kinds[kind_id] != kind) ++kind_id;
    verify::rng g = verify::campaign_rng(o.seed, kind_id, index);
    const auto pair = verify::campaign_generate<T>(g, kind);
    verify::campaign_row& row = rows[first_row + slot];
    const bool before = row.failed();
    const std::size_t before_count = row.decision_mismatches + row.bound_failures + row.errors + row.hangs;
    const std::string where = name + " " + kind + " #" + std::to_string(index) + " (reproduce: rigidref campaign --type \"" +
                              name + "\" --seed " + std::to_string(o.seed) + " --kinds " + kind + " --first " +
                              std::to_string(index) + " --pairs 1)";
    verify::campaign_check<T>(pair, where, lim, row);
    (void)before;
    if (row.decision_mismatches + row.bound_failures + row.errors + row.hangs != before_count) ++failures;
    tk.tick(name, i + 1, total, failures);
  }
  tk.tick(name, total, total, failures, true);
  seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace

int run_campaign(const campaign_options& o, std::ostream& out, std::ostream& err) {
  std::vector<std::string> kinds = o.kinds;
  if (kinds.empty()) kinds.assign(std::begin(verify::campaign_kinds), std::end(verify::campaign_kinds));
  std::vector<verify::campaign_row> rows;
  std::vector<double> seconds;
  ticker tk(err);
  run_type<float>(o, kinds, rows, seconds, tk);
  run_type<double>(o, kinds, rows, seconds, tk);
  run_type<long double>(o, kinds, rows, seconds, tk);
  run_type<mp50>(o, kinds, rows, seconds, tk);
  run_type<mp100>(o, kinds, rows, seconds, tk);

  out << "rigidref collision campaign  (seed " << o.seed << ", --pairs " << o.pairs << ", first " << o.first
      << ", query limit " << o.max_query_ms << " ms)\n"
      << "Each pair runs gjk_distance, epa_penetration and sat; decisions are compared with the exact oracle\n"
      << "(verify/collision_oracle.hpp), values in eps of the type against internal/bounds.hpp.\n"
      << "verdicts: oracle's separated/touching/intersecting counts. dec: pairs with a decision mismatch;\n"
      << "bound: pairs with a value outside its bound; err: a query threw; hang: a query over the limit twice,\n"
      << "in wall and CPU time (slow: over it in wall time only, i.e. preempted); cap, fb: GJK/EPA cap_reached\n"
      << "and exact_fallback counts (reported, not failures); max ms: slowest query, wall clock.\n\n";
  out << std::left << std::setw(12) << "type" << std::setw(15) << "kind" << std::right << std::setw(9) << "pairs"
      << std::setw(20) << "sep/touch/int" << std::setw(6) << "dec" << std::setw(7) << "bound" << std::setw(5) << "err"
      << std::setw(6) << "hang" << std::setw(6) << "slow" << std::setw(10) << "cap g/e" << std::setw(16) << "fb g/e"
      << std::setw(11) << "worst eps" << "  " << std::left << std::setw(18) << "(metric)" << std::right << std::setw(9)
      << "max ms" << "\n";
  bool any_failed = false;
  for (const auto& r : rows) {
    any_failed = any_failed || r.failed();
    std::ostringstream verdicts, caps, fbs;
    verdicts << r.separated << "/" << r.touching << "/" << r.intersecting;
    caps << r.gjk_caps << "/" << r.epa_caps;
    fbs << r.gjk_fallbacks << "/" << r.epa_fallbacks;
    std::ostringstream ms;
    ms << std::fixed << std::setprecision(2) << r.max_query_ms;
    out << std::left << std::setw(12) << r.type << std::setw(15) << r.kind << std::right << std::setw(9) << r.pairs
        << std::setw(20) << verdicts.str() << std::setw(6) << r.decision_mismatches << std::setw(7) << r.bound_failures
        << std::setw(5) << r.errors << std::setw(6) << r.hangs << std::setw(6) << r.slow_once << std::setw(10)
        << caps.str() << std::setw(16) << fbs.str() << std::setw(11) << fmt_eps(r.worst_eps) << "  " << std::left
        << std::setw(18) << ("(" + r.worst_metric + ")") << std::right << std::setw(9) << ms.str() << "\n";
  }
  std::size_t si = 0;
  std::string last_type;
  out << "\nRuntime per type:";
  for (const auto& r : rows)
    if (r.type != last_type) {
      last_type = r.type;
      if (si < seconds.size()) out << "  " << r.type << " " << std::fixed << std::setprecision(1) << seconds[si++] << " s";
    }
  out << std::defaultfloat << "  (total " << std::fixed << std::setprecision(1) << tk.elapsed() << " s)\n"
      << std::defaultfloat;
  out << "\nWorst case of each row (exact inputs: every coordinate reads back to the same value):\n";
  for (const auto& r : rows) {
    if (r.worst_case.empty()) continue;
    out << "  " << r.type << " " << r.kind << ": " << fmt_eps(r.worst_eps) << " eps, " << r.worst_ulps << " ulps\n    "
        << r.worst_case << "\n";
  }
  bool header = false;
  for (const auto& r : rows) {
    if (r.failures.empty()) continue;
    if (!header) out << "\nFailures (the first few per row):\n";
    header = true;
    for (const auto& f : r.failures) out << "  " << f << "\n";
  }
  out << "\n" << (any_failed ? "FAILED: a decision, bound, error or hang above." : "All pairs passed.") << "\n";
  return any_failed ? 1 : 0;
}

}  // namespace rigidref::tools
