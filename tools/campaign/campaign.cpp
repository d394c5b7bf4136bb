#include "campaign/campaign.hpp"

#include "campaign/records.hpp"
#include "campaign/rows.hpp"
#include "shard/shard.hpp"

#include "rigidref/internal/collision_campaign.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <tuple>

namespace rigidref::tools {

using campaign::json;

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
  CLI::Option* shard_opt =
      cmd.add_option("--shard", opts.shard,
                     "Run slice K of N (K in 1..N) and write its records as JSON Lines (to standard output, or\n"
                     "to --pairs-out): the contiguous block floor((K-1)T/N) .. floor(KT/N)-1 of each type's T\n"
                     "pairs. Shards of one campaign (same options) merge with --merge into the single run's\n"
                     "summary; run them with GNU parallel or a Slurm job array (docs/scale-out.md)")
          ->check(shard::validate);
  CLI::Option* out_opt = cmd.add_option(
      "--pairs-out", opts.pairs_out,
      "Also write one JSON Lines record per pair (type, kind, index, the oracle's verdict, decision/bound/\n"
      "error/hang flags, the largest error in eps) to this file (\"-\": standard output), with a header\n"
      "(the options, the shard) and an end record; the format of --shard (docs/scale-out.md)");
  CLI::Option* merge_opt =
      cmd.add_option("--merge", opts.merge,
                     "Merge the records of shards 1..N of one campaign and print the summary the single run\n"
                     "prints (timing, on stderr, is summed over the shards). Refuses (exit 2) files of\n"
                     "different options, a missing, repeated or unfinished shard, a missing or repeated pair")
          ->expected(1, -1);
  for (const char* name : {"--pairs", "--mp-pairs", "--type", "--seed", "--kinds", "--first", "--max-query-ms"})
    merge_opt->excludes(cmd.get_option(name));
  merge_opt->excludes(shard_opt);
  merge_opt->excludes(out_opt);
}

namespace {

class ticker {
 public:
  ticker(std::ostream& err, std::string who) : err_(err), who_(std::move(who)), start_(clock::now()), last_(start_) {}
  void tick(const std::string& type, std::size_t done, std::size_t total, std::size_t failures, bool force = false) {
    const auto now = clock::now();
    if (!force && std::chrono::duration<double>(now - last_).count() < 2.0) return;
    last_ = now;
    const double t = std::chrono::duration<double>(now - start_).count();
    const double tt = std::chrono::duration<double>(now - type_start_).count();
    err_ << "[" << std::fixed << std::setprecision(1) << t << " s] " << who_ << type << ": " << done << "/" << total
         << " pairs, " << std::setprecision(0) << (tt > 0 ? static_cast<double>(done) / tt : 0.0) << " pairs/s, failures "
         << failures << "\n"
         << std::defaultfloat;
  }
  void start_type() { type_start_ = clock::now(); }
  double elapsed() const { return std::chrono::duration<double>(clock::now() - start_).count(); }

 private:
  using clock = std::chrono::steady_clock;
  std::ostream& err_;
  std::string who_;
  clock::time_point start_, last_, type_start_;
};

struct run_state {
  const campaign_options& o;
  shard::spec slice;
  std::vector<std::string> kinds;
  std::vector<campaign::row_state> rows;
  std::vector<std::pair<std::string, double>> seconds;
  json pairs_written = json::object();
  std::ostream* records = nullptr;  // --pairs-out
  ticker& tk;
};

template <class T>
void run_type(run_state& st) {
  const campaign_options& o = st.o;
  const std::string name(scalar_name<T>());
  if (o.type != "all" && o.type != name) return;
  const auto& kinds = st.kinds;
  const std::size_t total = campaign::type_total(o, name, kinds.size());
  const std::size_t begin = shard::block_begin(st.slice, total), end = shard::block_end(st.slice, total);
  const std::size_t first_row = st.rows.size();
  for (const auto& k : kinds) {
    campaign::row_state r;
    r.row.type = name;
    r.row.kind = k;
    st.rows.push_back(r);
  }
  verify::campaign_limits lim;
  lim.max_query_ms = o.max_query_ms;
  st.tk.start_type();
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t failures = 0;
  for (std::size_t i = begin; i < end; ++i) {
    const std::uint64_t global = o.first + i;
    const std::size_t slot = static_cast<std::size_t>(global % kinds.size());
    const std::uint64_t index = global / kinds.size();
    const std::string& kind = kinds[slot];
    std::size_t kind_id = 0;
    while (verify::campaign_kinds[kind_id] != kind) ++kind_id;
    verify::rng g = verify::campaign_rng(o.seed, kind_id, index);
    const auto pair = verify::campaign_generate<T>(g, kind);
    const std::string where = name + " " + kind + " #" + std::to_string(index) + " (reproduce: rigidref campaign --type \"" +
                              name + "\" --seed " + std::to_string(o.seed) + " --kinds " + kind + " --first " +
                              std::to_string(index) + " --pairs 1)";
    // One pair in a row of its own, then folded: the same totals as
    // checking into the row directly, and the pair's own record.
    verify::campaign_row one;
    one.type = name;
    one.kind = kind;
    verify::campaign_check<T>(pair, where, lim, one);
    if (one.failed()) ++failures;
    campaign::fold_pair(st.rows[first_row + slot], one, i, lim.keep_failures);
    if (st.records) *st.records << campaign::pair_record(name, kind, index, i, one).dump() << '\n';
    st.tk.tick(name, i + 1 - begin, end - begin, failures);
  }
  st.tk.tick(name, end - begin, end - begin, failures, true);
  st.pairs_written[name] = end - begin;
  st.seconds.emplace_back(name, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

}  // namespace

int run_campaign(const campaign_options& o, std::ostream& out, std::ostream& err) {
  if (!o.merge.empty()) return run_campaign_merge(o.merge, out, err);
  shard::spec slice;
  try {
    if (!o.shard.empty()) slice = shard::parse(o.shard);
  } catch (const std::invalid_argument& e) {
    err << "rigidref campaign: " << e.what() << "\n";
    return 2;
  }
  // With --shard and no --pairs-out the records are the output.
  std::ofstream records_file;
  std::ostream* records = nullptr;
  try {
    records = shard::records_stream(o.pairs_out, !o.shard.empty(), out, records_file);
  } catch (const std::runtime_error& e) {
    err << "rigidref campaign: " << e.what() << "\n";
    return 2;
  }
  const bool table = records != &out;
  const std::string who = o.shard.empty() ? "" : "shard " + slice.text() + " ";
  ticker tk(err, who);
  run_state st{o, slice, campaign::resolved_kinds(o), {}, {}, json::object(), records, tk};
  if (records) *records << campaign::header_record(o, slice).dump() << '\n';
  run_type<float>(st);
  run_type<double>(st);
  run_type<long double>(st);
  run_type<mp50>(st);
  run_type<mp100>(st);
  bool any_failed = false;
  for (const auto& r : st.rows) any_failed = any_failed || r.row.failed();
  if (records) {
    for (const auto& r : st.rows)
      if (r.has_worst)
        *records << json{{"record", "worst"}, {"type", r.row.type}, {"kind", r.row.kind}, {"i", r.worst_i},
                         {"text", r.row.worst_case}}.dump()
                 << '\n';
    for (const auto& r : st.rows)
      *records << json{{"record", "timing"}, {"type", r.row.type}, {"kind", r.row.kind}, {"slow", r.row.slow_once},
                       {"max_ms", campaign::number(r.row.max_query_ms)}}.dump()
               << '\n';
    for (const auto& [type, sec] : st.seconds)
      *records << json{{"record", "runtime"}, {"type", type}, {"seconds", sec}}.dump() << '\n';
    *records << json{{"record", "end"}, {"pairs", st.pairs_written}}.dump() << '\n';
    records->flush();
    if (!*records) {
      err << "rigidref campaign: writing " << (o.pairs_out.empty() ? "-" : o.pairs_out) << " failed\n";
      return 2;
    }
  }
  if (table) campaign::print_summary(o, st.rows, out);
  campaign::print_timing(st.rows, st.seconds, tk.elapsed(), o.shard.empty() ? "" : " of shard " + slice.text(), err);
  return any_failed ? 1 : 0;
}

}  // namespace rigidref::tools
