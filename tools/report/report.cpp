// First, for the whole cli_heavy unit (tools/CMakeLists.txt): the cores it
// calls are compiled once, in rigidref_instances.
#include "rigidref/instances.hpp"

#include "report/report.hpp"
#include "report/dynamics.hpp"
#include "report/engine_matrix.hpp"
#include "report/html.hpp"
#include "report/measurements.hpp"
#include "report/scene.hpp"
#include "report/scene_results.hpp"
#include "report/scene_runs.hpp"
#include "report/markdown_html.hpp"

#include "rigidref/internal/bounds.hpp"
#include "rigidref/internal/collision_accuracy.hpp"
#include "rigidref/internal/mass_accuracy.hpp"
#include "rigidref/internal/matrix_accuracy.hpp"
#include "rigidref/internal/sat_accuracy.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>
#include <unistd.h>
#include <vector>

namespace rigidref::tools {

namespace fs = std::filesystem;

void add_report_options(CLI::App& cmd, report_options& opts) {
  cmd.add_option("--seed", opts.seed, "Seed of every generated case set; the same seed gives the same report")
      ->capture_default_str();
  cmd.add_option("--scale", opts.scale, "Multiply every case count (e.g. 10 for a long sweep)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_flag("--quick", opts.quick, "About a tenth of the cases (a few seconds)");
  cmd.add_flag("--worst", opts.worst, "Print the worst case of every row, not only of failures and findings");
  cmd.add_option("--csv", opts.csv_dir,
                 "Write plot-ready CSV files into this directory (mat2_sqrt_error_vs_condition.csv: one line per\n"
                 "matrix and method, with its condition number and worst-entry error in ulps)");
  cmd.add_option("--html", opts.html_path,
                 "Also write the report as a self-contained HTML page (tables, verdicts, derivation links, plots)");
  cmd.add_option("--out", opts.out_dir,
                 "Write everything into this directory: report.html, csv/, and the derivations rendered as\n"
                 "derivations/*.html (readable offline; the report's anchors link to them)");
  cmd.add_option("--cases", opts.cases,
                 "Polygons per builtin type (default 2000); the other tables and types scale with it")
      ->check(CLI::PositiveNumber);
  cmd.add_option("--only", opts.only_topic, "Only one topic: mass, matrix, collision, solver or scene")
      ->check(CLI::IsMember({"mass", "matrix", "collision", "solver", "scene"}));
  cmd.add_option("--type", opts.only_type, "Only this precision: float, double, long double, mp50, mp100, exact")
      ->check(CLI::IsMember({"float", "double", "long double", "mp50", "mp100", "exact"}));
  cmd.add_option("--engine-results", opts.engine_results,
                 "Also show the engine summaries in this directory (repeatable): the output of\n"
                 "`rigidref check ANSWERS --cases CASES > DIR/<engine>-<set>.txt`, and the law records of\n"
                 "--dynamics-out DIR/<engine>-dynamics.jsonl and --scenes-out DIR/<engine>-scenes.jsonl,\n"
                 "beside the committed ones of data/validation/results/ (the HTML page's engine x op matrix,\n"
                 "dynamics and scene sections; the terminal lists them). docs/adapters.md")
      ->check(CLI::ExistingDirectory)
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd.add_flag("--scene-table", opts.scene_table,
               "Only print the engine x law table of scene.run (Markdown) from the committed scene records\n"
               "(data/validation/results/*-scenes.jsonl) and --engine-results, and exit: README.md's table\n"
               "(tools/engine_results.sh rewrites it)");
}

namespace {

enum class verdict { pass, fail, finding };

struct row {
  verify::error_stats stats;
  const verify::accuracy_bound* bound;
  verdict v;
};

verdict judge(const verify::error_stats& s, const verify::accuracy_bound* b) {
  if (b == nullptr) return verdict::fail;  // every function must have a bound
  if (std::isinf(b->max_ulps) && std::isinf(b->max_eps)) return verdict::finding;
  return s.max_ulps <= b->max_ulps && s.max_eps <= b->max_eps ? verdict::pass : verdict::fail;
}

std::string fmt(double x) {
  if (std::isinf(x)) return "inf";
  std::ostringstream o;
  if (x != 0 && (std::abs(x) >= 1e5 || std::abs(x) < 1e-2)) o << std::setprecision(2) << std::scientific << x;
  else o << std::setprecision(3) << x;
  return o.str();
}

// Case counts per type: the multiprecision types cost 10-100x per case.
template <class T>
std::size_t polygon_count(const report_options& o) {
  const double builtin = o.cases > 0 ? static_cast<double>(o.cases) : 2000;
  double base = std::is_floating_point_v<T> ? builtin : builtin * (is_exact_v<T> ? 0.2 : 0.15);
  if (o.quick) base /= 10;
  return std::max<std::size_t>(4, static_cast<std::size_t>(base * o.scale));
}

// Progress on stderr once a run has taken more than two seconds: an updating
// line on a terminal, one line per stage otherwise (logs stay readable).
class progress {
 public:
  explicit progress(std::ostream& err) : err_(err), tty_(isatty(STDERR_FILENO) != 0), start_(clock::now()) {}
  void stage(const std::string& what) {
    current_ = what;
    if (!tty_ && elapsed() >= 2.0) err_ << "[" << std::fixed << std::setprecision(1) << elapsed() << " s] " << what << "\n";
    show(0, 0);
  }
  void show(std::size_t done, std::size_t total) {
    const double t = elapsed();
    if (!tty_ || t < 2.0 || (t - last_ < 0.25 && done != total)) return;
    last_ = t;
    err_ << "\r[" << std::fixed << std::setprecision(1) << t << " s] " << current_;
    if (total) err_ << " " << done << "/" << total;
    err_ << "\x1b[K" << std::flush;  // clear the rest of the line
  }
  void finish() {
    if (tty_ && last_ > 0) err_ << "\r\x1b[K" << std::flush;
  }

 private:
  using clock = std::chrono::steady_clock;
  double elapsed() const { return std::chrono::duration<double>(clock::now() - start_).count(); }
  std::ostream& err_;
  bool tty_;
  clock::time_point start_;
  std::string current_;
  double last_ = -1;
};

template <class T>
void run_type(const report_options& o, std::vector<row>& rows, progress& p, plot_data& plots,
              std::vector<measured_row>& measured) {
  const std::string name(scalar_name<T>());
  if (!o.only_type.empty() && o.only_type != name) return;
  std::vector<verify::error_stats> all;
  const std::size_t n = polygon_count<T>(o);
  const auto topic = [&](const char* t) { return o.only_topic.empty() || o.only_topic == t; };
  if (topic("mass")) {
    p.stage(name + ": polygons");
    for (auto& s : verify::polygon_accuracy<T>(o.seed, n, [&](std::size_t d, std::size_t t) { p.show(d, t); }))
      all.push_back(s);
    p.stage(name + ": triangles");
    for (auto& s : verify::triangle_accuracy<T>(o.seed + 1, n / 2, &plots.offsets)) all.push_back(s);
    if constexpr (!is_exact_v<T>) {
      p.stage(name + ": regular polygons");
      for (auto& s : verify::regular_polygon_accuracy<T>(o.seed + 2, std::max<std::size_t>(1, n / 200)))
        all.push_back(s);
    }
    p.stage(name + ": circle, rectangle, parallel axis");
    for (auto& s : verify::simple_shape_accuracy<T>(o.seed + 3, n)) all.push_back(s);
  }
  if constexpr (!is_exact_v<T>) {
    const std::size_t m = std::max<std::size_t>(4, n / 10);
    if (topic("matrix")) {
    p.stage(name + ": matrix square roots");
    for (auto& s : verify::matrix_sqrt_accuracy<T>(o.seed + 4, m, &plots.condition)) all.push_back(s);
    p.stage(name + ": polar decomposition");
    for (auto& s : verify::polar_accuracy<T>(o.seed + 5, m)) all.push_back(s);
    p.stage(name + ": shape matching");
    for (auto& s : verify::shape_matching_accuracy<T>(o.seed + 6, m)) all.push_back(s);
    }
    if (topic("collision")) {
    p.stage(name + ": GJK and EPA");
    std::vector<double> depth_eps;
    const verify::collision_accuracy_table c = verify::collision_accuracy<T>(o.seed + 7, m, &depth_eps);
    for (double e : depth_eps) plots.epa_depth_eps.push_back({name, e});
    for (auto& s : c.stats) all.push_back(s);
    measured.push_back({"collision", "GJK/EPA decisions (intersecting, touching) that disagree with the exact oracle",
                        name, static_cast<int>(c.cases), static_cast<double>(c.decision_mismatches), "cases", "0",
                        c.decision_mismatches == 0 ? "pass" : "FAIL", "D-GJK-6, D-GJK-7", ""});
    measured.push_back({"collision", "GJK/EPA answers that needed the exact fallback", name, static_cast<int>(c.cases),
                        static_cast<double>(c.exact_fallbacks), "results", "any (the fallback is exact too)",
                        "pass", "D-GJK-6, D-GJK-7", ""});
    p.stage(name + ": SAT");
    for (auto& s : verify::sat_accuracy<T>(o.seed + 8, m)) all.push_back(s);
    verify::verdict_stats v;
    for (auto& s : verify::rectangle_accuracy<T>(o.seed + 9, m, &v)) all.push_back(s);
    measured.push_back({"collision", "the article's rectangle test: overlap verdicts that disagree with exact SAT", name,
                        static_cast<int>(v.cases), static_cast<double>(v.disagreements), "cases",
                        "reported (wrong within w cos(pi/2) of touching)", "finding", "D-RECT-6",
                        "rect_article_perpendicular_skew.json"});
    }
  }
  for (auto& s : all) {
    const auto* b = verify::find_bound(s.function, s.digits);
    rows.push_back({s, b, judge(s, b)});
  }
}

template <class... Ts>
void run_all(const report_options& o, std::vector<row>& rows, progress& p, plot_data& plots,
             std::vector<measured_row>& measured, std::tuple<Ts...>*) {
  (run_type<Ts>(o, rows, p, plots, measured), ...);
}

void write_csv(const std::string& dir, const std::vector<verify::condition_sample>& samples, std::ostream& err) {
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/mat2_sqrt_error_vs_condition.csv";
  std::ofstream f(path);
  f << "type,method,family,condition,max_ulps\n";
  f << std::setprecision(17);
  for (const auto& s : samples)
    f << s.type << "," << s.method << "," << s.family << "," << s.condition << "," << s.max_ulps << "\n";
  err << "wrote " << path << " (" << samples.size() << " rows)\n";
}

// derivations/*.md of the source tree, as pages next to the report.
void render_derivations(const std::string& dir, std::ostream& err) {
#ifdef RIGIDREF_SOURCE_DIR
  const std::filesystem::path source = std::filesystem::path(RIGIDREF_SOURCE_DIR) / "derivations";
#else
  const std::filesystem::path source;
#endif
  if (source.empty() || !std::filesystem::exists(source)) {
    err << "derivations/ is not next to this binary: the report links to anchors without pages\n";
    return;
  }
  std::filesystem::create_directories(dir);
  int pages = 0;
  for (const auto& e : std::filesystem::directory_iterator(source)) {
    if (e.path().extension() != ".md") continue;
    std::ifstream in(e.path());
    std::ostringstream md;
    md << in.rdbuf();
    std::ofstream out(std::filesystem::path(dir) / (e.path().stem().string() + ".html"));
    out << markdown_page("rigidref: " + e.path().filename().string(), md.str(), "../report.html");
    ++pages;
  }
  err << "wrote " << pages << " derivation pages to " << dir << "\n";
}

fs::path committed_results() {
#ifdef RIGIDREF_SOURCE_DIR
  return fs::path(RIGIDREF_SOURCE_DIR) / "data" / "validation" / "results";
#else
  return {};
#endif
}

// The --engine-results directories, each once, without the committed one
// (which is always shown): no summary is counted twice.
std::vector<fs::path> engine_result_dirs(const report_options& o) {
  const auto canonical = [](const fs::path& p) {
    std::error_code ec;
    const fs::path c = fs::weakly_canonical(p, ec);
    return ec ? p : c;
  };
  std::set<fs::path> seen;
  if (!committed_results().empty()) seen.insert(canonical(committed_results()));
  std::vector<fs::path> dirs;
  for (const std::string& d : o.engine_results)
    if (seen.insert(canonical(d)).second) dirs.push_back(d);
  return dirs;
}

// The dynamics table of the committed engine records and the user's
// (report/dynamics.hpp).
std::string dynamics_text(const report_options& o) {
  const fs::path results = committed_results();
  const bool committed = !results.empty() && fs::exists(results);
  const std::vector<fs::path> more = engine_result_dirs(o);
  const dynamics_records records = read_dynamics_records(committed ? results : fs::path(), more);
  if (records.rows.empty()) return "";
  return "\nEngine dynamics (step.pair), cases per engine and law, from data/validation/results/*-dynamics.jsonl" +
         std::string(more.empty() ? "" : " and --engine-results") +
         "\n(derivations/engine_dynamics.md):\n" + dynamics_table_text(records);
}

// The scene.run table of the committed scene records and the user's
// (report/scene_results.hpp).
std::string scene_text(const report_options& o) {
  const fs::path results = committed_results();
  const bool committed = !results.empty() && fs::exists(results);
  const std::vector<fs::path> more = engine_result_dirs(o);
  const scene_records records = read_scene_records(committed ? results : fs::path(), more);
  if (records.engines.empty()) return "";
  return "\nEngine scenes (scene.run), cases pass / fail per engine and law, from data/validation/results/*-scenes.jsonl" +
         std::string(more.empty() ? "" : " and --engine-results") + "\n(derivations/scene_run.md):\n" +
         scene_table_markdown(records);
}

// The user's own engine summaries (--engine-results), one line per engine
// and op; the HTML page puts them in its engine x op matrix.
std::string engine_results_text(const report_options& o) {
  const std::vector<fs::path> more = engine_result_dirs(o);
  if (more.empty()) return "";
  std::ostringstream s;
  s << "\nEngine summaries of --engine-results (in the HTML page's engine x op matrix):\n";
  for (const engine_summary_row& r : read_engine_summaries(fs::path(), more))
    s << "  " << std::left << std::setw(32) << r.engine << std::setw(22) << r.op << std::right << std::setw(7)
      << r.cases << " cases " << std::setw(7) << r.pass << " pass " << std::setw(7) << r.fail << " fail "
      << std::setw(7) << r.skipped << " skipped  worst " << (r.worst_line == 0 ? "-" : r.worst_eps + " eps") << "  ("
      << r.file << ")\n";
  return s.str();
}

const char* verdict_name(verdict v) {
  switch (v) {
    case verdict::pass: return "pass";
    case verdict::fail: return "FAIL";
    case verdict::finding: return "finding";
  }
  return "?";
}

}  // namespace

int run_report(const report_options& o, std::ostream& out, std::ostream& err) {
  // A user's summaries are read before anything is measured: a wrong
  // directory is said at once, not after minutes.
  try {
    (void)read_engine_summaries(fs::path(), engine_result_dirs(o));
    (void)read_dynamics_records(fs::path(), engine_result_dirs(o));
    (void)read_scene_records(fs::path(), engine_result_dirs(o));
  } catch (const std::exception& e) {
    err << "rigidref report: --engine-results " << e.what() << "\n";
    return 2;
  }
  if (o.scene_table) {
    try {
      const fs::path results = committed_results();
      const scene_records records =
          read_scene_records(!results.empty() && fs::exists(results) ? results : fs::path(), engine_result_dirs(o));
      if (records.engines.empty()) {
        err << "rigidref report: no scene records (data/validation/results/*-scenes.jsonl, --engine-results)\n";
        return 2;
      }
      out << scene_table_markdown(records);
    } catch (const std::exception& e) {
      err << "rigidref report: " << e.what() << "\n";
      return 2;
    }
    return 0;
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<row> rows;
  plot_data plots;
  progress p(err);
  std::vector<measured_row> measured;
  run_all(o, rows, p, plots, measured, static_cast<all_scalars*>(nullptr));
  scene_report scene;
  if (o.only_topic.empty() || o.only_topic == "scene") {
    p.stage("the scenes against the articles' JavaScript");
    scene = compare_scenes(err);
  }
  if (o.only_topic.empty() || o.only_topic == "solver")
    for (auto& m : run_measurements(o, [&](const std::string& what) { p.stage(what); })) measured.push_back(std::move(m));
  if (o.only_topic.empty() || o.only_topic == "scene") {
    scene_runs runs = run_report_scenes(o, [&](const std::string& what) { p.stage(what); });
    for (auto& m : runs.rows) measured.push_back(std::move(m));
    scene.figures = std::move(runs.figures);
  }
  p.finish();
  const std::string csv_dir = !o.csv_dir.empty() ? o.csv_dir : (o.out_dir.empty() ? "" : o.out_dir + "/csv");
  const std::string html_path = !o.html_path.empty() ? o.html_path : (o.out_dir.empty() ? "" : o.out_dir + "/report.html");
  if (!csv_dir.empty()) write_csv(csv_dir, plots.condition, err);
  if (!o.out_dir.empty()) render_derivations(o.out_dir + "/derivations", err);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  out << "rigidref verification report  (seed " << o.seed << ", scale " << o.scale << (o.quick ? ", quick" : "")
      << ")\n"
      << "Errors against exact rational oracles (230-digit for cos): max ulps = distance from the correctly\n"
      << "rounded answer; eps = relative error in epsilons of the type. Bounds: reference/include/rigidref/internal/bounds.hpp.\n\n";
  out << std::left << std::setw(46) << "function" << std::setw(13) << "type" << std::right << std::setw(7) << "cases"
      << std::setw(10) << "max ulps" << std::setw(10) << "max eps" << std::setw(10) << "rms eps" << std::setw(16)
      << "bound ulps/eps" << "  " << std::left << "verdict" << "  derivation\n";
  out << std::string(130, '-') << "\n";
  int pass = 0, fail = 0, finding = 0;
  for (const auto& r : rows) {
    const auto& s = r.stats;
    const std::string bound = r.bound ? fmt(r.bound->max_ulps) + " / " + fmt(r.bound->max_eps) : "none";
    out << std::left << std::setw(46) << s.function << std::setw(13) << s.type << std::right << std::setw(7)
        << s.cases << std::setw(10) << fmt(s.max_ulps) << std::setw(10) << fmt(s.max_eps) << std::setw(10)
        << fmt(s.rms_eps()) << std::setw(16) << bound << "  " << std::left << std::setw(9) << verdict_name(r.v)
        << (r.bound ? std::string(r.bound->why) : std::string("no bound in the table")) << "\n";
    (r.v == verdict::pass ? pass : r.v == verdict::fail ? fail : finding)++;
  }
  bool header = false;
  for (const auto& r : rows) {
    if (r.v == verdict::pass && !o.worst) continue;
    if (!header) out << "\nWorst cases (inputs at full precision, reproducible with the same seed):\n";
    header = true;
    std::string w = r.stats.worst_case;
    if (!o.worst && w.size() > 600) w = w.substr(0, 300) + " ... " + w.substr(w.size() - 250);
    out << "  [" << verdict_name(r.v) << "] " << r.stats.function << " (" << r.stats.type << "): " << w << "\n";
  }
  out << "\nProperties and measured effects (solver: exact residual of each type's answer; BodyForce.js quirks:\n"
      << "exact values of the port; derivations/solver.md):\n";
  for (const auto& m : measured) {
    out << "  " << std::left << std::setw(8) << m.verdict << std::setw(12) << m.type << fmt(m.value) << " " << m.unit
        << "  -- " << m.quantity << " [" << m.cases << " cases; " << m.expectation << "; " << m.why
        << (m.counterexample.empty() ? "" : "; data/counterexamples/" + m.counterexample) << "]\n";
    (m.verdict == "pass" ? pass : m.verdict == "FAIL" ? fail : finding)++;
  }
  for (const auto& g : scene.scenes) {
    if (!g.available) {
      out << "\nJS comparison of the " << g.scene << " scene skipped: " << g.note << "\n";
      continue;
    }
    out << "\nThe " << g.scene << " scene against the articles' own JavaScript (" << g.note
        << "; wall-only phase: steps 1-" << g.wall_only_through << "):\n";
    for (const auto& c : g.rows)
      out << "  " << c.identical_steps << "/" << c.steps << " steps bit-identical, first divergence "
          << (c.first_divergence ? "step " + std::to_string(c.first_divergence) : std::string("none"))
          << ", max |diff| " << fmt(c.max_diff_wall) << " (wall-only), " << fmt(c.max_diff_body)
          << " (bodies)  -- " << c.variant << "\n";
  }
  out << engine_results_text(o);
  out << dynamics_text(o);
  out << scene_text(o);
  std::ostringstream summary;
  summary << "summary: " << rows.size() + measured.size() << " rows, " << pass << " pass, " << fail << " fail, "
          << finding << " findings (article formulas and known violations reported, not bounded), " << std::fixed
          << std::setprecision(1) << seconds << " s";
  out << "\n" << summary.str() << "\n";
  if (!html_path.empty()) {
    std::vector<html_row> page;
    for (const auto& r : rows)
      page.push_back({&r.stats, r.bound ? fmt(r.bound->max_ulps) + " / " + fmt(r.bound->max_eps) : "none",
                      verdict_name(r.v), r.bound ? std::string(r.bound->why) : "no bound in the table"});
    write_html_report(html_path, summary.str() + " (seed " + std::to_string(o.seed) + ")", page, plots, measured,
                      scene, !o.out_dir.empty(), engine_result_dirs(o));
    err << "wrote " << html_path << "\n";
  }
  return fail == 0 ? 0 : 1;
}

}  // namespace rigidref::tools
