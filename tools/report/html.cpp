#include "report/html.hpp"
#include "report/dynamics.hpp"
#include "report/engine_matrix.hpp"
#include "report/scene_results.hpp"
#include "report/html_escape.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace rigidref::tools {
namespace {

namespace fs = std::filesystem;

std::string number(double x) {
  if (std::isinf(x)) return "&infin;";
  std::ostringstream o;
  if (x != 0 && (std::abs(x) >= 1e5 || std::abs(x) < 1e-2)) o << std::setprecision(2) << std::scientific << x;
  else o << std::setprecision(3) << x;
  return o.str();
}

// Which derivation file defines an anchor prefix.
const std::map<std::string, std::string>& derivation_files() {
  static const std::map<std::string, std::string> files{
      {"D-MASS", "mass.md"},     {"D-EFT", "double_word.md"},     {"D-PRED", "predicates.md"},
      {"D-MSQRT", "matrix_sqrt.md"}, {"D-POLAR", "polar.md"}, {"D-SHAPE", "shape_matching.md"},
      {"D-IMPULSE", "impulse.md"},   {"D-SOLVER", "solver.md"}, {"D-BODYFORCE", "solver.md"},
      {"D-GJK", "gjk.md"},           {"D-EPA", "epa.md"},      {"D-SAT", "sat.md"},
      {"D-ENGINE", "engines.md"},   {"D-RECT", "sat.md"},    {"D-CONTACT", "contact.md"},
      {"D-SCENE", "scenes.md"},     {"D-SCENEREF", "scene_reference.md"}};
  return files;
}

// Where anchor links point: the derivation pages rendered next to the report
// (--out), or the Markdown in the source tree this binary was built from.
bool rendered_derivations = false;

// Anchors become links to the derivations: to the rendered pages when the
// report has them, else to derivations/*.md relative to the page when the
// source tree is still there; plain text otherwise.
std::string link_anchors(const std::string& why, const fs::path& page_dir) {
  static const std::regex anchor(R"(D-([A-Z]+)-[0-9]+)");
  std::string out;
  std::sregex_iterator it(why.begin(), why.end(), anchor), end;
  std::size_t last = 0;
#ifdef RIGIDREF_SOURCE_DIR
  const fs::path derivations = fs::path(RIGIDREF_SOURCE_DIR) / "derivations";
#else
  const fs::path derivations;
#endif
  for (; it != end; ++it) {
    out += html_escape(why.substr(last, it->position() - last));
    const std::string a = it->str();
    const auto f = derivation_files().find("D-" + (*it)[1].str());
    if (f != derivation_files().end() && rendered_derivations) {
      std::string html = f->second;
      html.replace(html.size() - 3, 3, ".html");
      out += "<a href=\"derivations/" + html_escape(html) + "#" + a + "\">" + a + "</a>";
    } else if (f != derivation_files().end() && !derivations.empty() && fs::exists(derivations / f->second)) {
      const fs::path target = fs::relative(derivations / f->second, page_dir);
      out += "<a href=\"" + html_escape(target.generic_string()) + "#" + a + "\">" + a + "</a>";
    } else {
      out += a;
    }
    last = it->position() + it->length();
  }
  return out + html_escape(why.substr(last));
}

struct scatter_point {
  double x, y;  // already in plot units (log10 of the quantities)
  std::string series;
};

// A log-log scatter plot: x in [0, xmax], y in [0, ymax], ticks labelled 1eK.
std::string scatter_plot(const std::vector<scatter_point>& points, const std::map<std::string, std::string>& colour,
                         double xmax, double ymax, int xstep, int ystep, const std::string& xlabel,
                         const std::string& ylabel, const std::string& aria) {
  const double w = 720, h = 380, left = 60, right = 20, top = 20, bottom = 50;
  auto px = [&](double x) { return left + (w - left - right) * std::clamp(x, 0.0, xmax) / xmax; };
  auto py = [&](double y) { return h - bottom - (h - top - bottom) * std::clamp(y, 0.0, ymax) / ymax; };
  std::ostringstream s;
  s << std::fixed << std::setprecision(1);
  s << "<svg viewBox=\"0 0 " << w << " " << h << "\" width=\"" << w << "\" height=\"" << h
    << "\" role=\"img\" aria-label=\"" << html_escape(aria) << "\">\n";
  for (int k = 0; k <= xmax; k += xstep)
    s << "<line x1=\"" << px(k) << "\" y1=\"" << py(0) << "\" x2=\"" << px(k) << "\" y2=\"" << py(ymax)
      << "\" class=\"grid\"/><text x=\"" << px(k) << "\" y=\"" << h - bottom + 18 << "\" class=\"tick\">1e" << k
      << "</text>\n";
  for (int k = 0; k <= ymax; k += ystep)
    s << "<line x1=\"" << px(0) << "\" y1=\"" << py(k) << "\" x2=\"" << px(xmax) << "\" y2=\"" << py(k)
      << "\" class=\"grid\"/><text x=\"" << left - 8 << "\" y=\"" << py(k) + 4 << "\" class=\"ytick\">1e" << k
      << "</text>\n";
  s << "<text x=\"" << (left + w - right) / 2 << "\" y=\"" << h - 10 << "\" class=\"label\">" << html_escape(xlabel)
    << "</text>\n";
  s << "<text x=\"14\" y=\"" << (top + h - bottom) / 2 << "\" class=\"label\" transform=\"rotate(-90 14 "
    << (top + h - bottom) / 2 << ")\">" << html_escape(ylabel) << "</text>\n";
  for (const auto& p : points) {
    const auto col = colour.find(p.series);
    s << "<circle cx=\"" << px(p.x) << "\" cy=\"" << py(p.y) << "\" r=\"2\" fill=\""
      << (col == colour.end() ? "#444" : col->second) << "\" fill-opacity=\"0.55\"/>\n";
  }
  double ly = top + 10;
  for (const auto& [name, col] : colour) {
    s << "<circle cx=\"" << left + 16 << "\" cy=\"" << ly << "\" r=\"4\" fill=\"" << col << "\"/><text x=\""
      << left + 26 << "\" y=\"" << ly + 4 << "\" class=\"legend\">" << html_escape(name) << "</text>\n";
    ly += 16;
  }
  s << "</svg>\n";
  return s.str();
}

// log10(cond) against log10(1 + worst ulps), one colour per method, double only.
std::string condition_plot(const std::vector<verify::condition_sample>& samples) {
  std::vector<scatter_point> points;
  for (const auto& c : samples)
    if (c.type == "double") points.push_back({std::log10(c.condition), std::log10(1 + c.max_ulps), c.method});
  return scatter_plot(points, {{"default", "#1b7837"}, {"cayley_hamilton", "#e08214"}, {"diagonalization", "#b2182b"}},
                      12, 10, 2, 2, "condition number of A (double)", "1 + worst entry error (ulps)",
                      "matrix square root error against condition number");
}

// Triangle inertia error against offset / size, double: the reference stays
// correctly rounded, the article's absolute-coordinate formula does not.
std::string offset_plot(const std::vector<verify::offset_sample>& samples) {
  std::vector<scatter_point> points;
  for (const auto& c : samples)
    if (c.type == "double" && std::isfinite(c.eps))
      points.push_back({std::log10(std::max(1.0, c.offset_over_size)), std::log10(1 + c.eps), c.method});
  return scatter_plot(points, {{"reference", "#1b7837"}, {"article", "#b2182b"}}, 10, 24, 2, 4,
                      "distance from the origin / size of the triangle (double)", "1 + error (eps)",
                      "triangle inertia error against offset from the origin");
}

// The distribution of EPA depth errors (all floating types): bars of 0.05 eps.
std::string depth_histogram(const std::vector<std::pair<std::string, double>>& samples) {
  const int bins = 20;
  const double width = 0.05;
  std::vector<int> count(bins + 1, 0);  // the last bin: >= 1 eps
  for (const auto& [type, e] : samples) ++count[std::min(bins, static_cast<int>(e / width))];
  const int most = std::max(1, *std::max_element(count.begin(), count.end()));
  const double w = 720, h = 300, left = 60, bottom = 40, top = 20, bar = (w - left - 20) / (bins + 1);
  std::ostringstream s;
  s << std::fixed << std::setprecision(1);
  s << "<svg viewBox=\"0 0 " << w << " " << h << "\" width=\"" << w << "\" height=\"" << h
    << "\" role=\"img\" aria-label=\"EPA depth error distribution\">\n";
  for (int b = 0; b <= bins; ++b) {
    const double bh = (h - top - bottom) * count[b] / most;
    s << "<rect x=\"" << left + b * bar + 1 << "\" y=\"" << h - bottom - bh << "\" width=\"" << bar - 2
      << "\" height=\"" << bh << "\" fill=\"" << (b < bins ? "#2166ac" : "#b2182b") << "\"/>\n";
    if (b % 4 == 0 || b == bins)
      s << "<text x=\"" << left + b * bar + bar / 2 << "\" y=\"" << h - bottom + 16 << "\" class=\"tick\">"
        << (b == bins ? std::string("&#8805;1") : number(b * width)) << "</text>\n";
  }
  s << "<text x=\"" << left - 8 << "\" y=\"" << top + 4 << "\" class=\"ytick\">" << most << "</text>\n"
    << "<text x=\"" << left - 8 << "\" y=\"" << h - bottom << "\" class=\"ytick\">0</text>\n"
    << "<text x=\"" << w / 2 << "\" y=\"" << h - 8 << "\" class=\"label\">relative error of the EPA depth (eps of "
       "the type; " << samples.size() << " depths, float to mp100)</text>\n</svg>\n";
  return s.str();
}

// Both models of each scene side by side: paths and energy over time.
std::string scene_figures(const scene_report& r, const fs::path& page_dir) {
  if (r.figures.empty()) return {};
  std::ostringstream s;
  s << "<h2>The scenes in both models</h2>\n<p>Each scene run for 500 steps in double by the article model (the "
       "pages' code ported, quirks kept) and the reference model; the measured rows (resting, energy, no NaN, "
       "double against mp50) are in the properties table. "
    << link_anchors("D-SCENE-5, D-SCENE-6, D-SCENE-10, D-SCENEREF-5", page_dir) << "</p>\n";
  for (const auto& f : r.figures) s << "<figure>" << f.svg << "<figcaption>" << html_escape(f.caption) << "</figcaption></figure>\n";
  return s.str();
}

// The C++ ports of the two pages' scenes against the articles' JavaScript.
std::string scene_section(const scene_report& r, const fs::path& page_dir) {
  std::ostringstream s;
  s << "<h2>The articles' JavaScript against the C++ ports</h2>\n";
  s << "<p>Golden data are the articles' own JavaScript run unmodified under Node (data/golden/): "
       "<code>createPolygonPoints</code>, <code>mat2.js</code> and <code>BodyShapeMatching.js</code> "
       "(compared bit for bit by the ctests test_golden and test_golden_shape_matching), and the two pages' "
       "scenes, step by step, compared here. In the wall-only phase only the article code runs; later steps also "
       "use our gjk_epa.js (the articles' is lost). " << link_anchors("D-SCENE-2, D-SCENE-11", page_dir) << "</p>\n";
  for (const auto& g : r.scenes) {
    s << "<h3>The " << html_escape(g.scene) << " scene</h3>\n";
    if (!g.available) {
      s << "<p>" << html_escape(g.note) << "</p>\n";
      continue;
    }
    s << "<p>" << html_escape(g.note) << "; steps 1&ndash;" << g.wall_only_through << " involve only the walls.</p>\n";
    s << "<table><tr><th class=\"name\">C++ side</th><th>steps</th><th>bit-identical</th><th>first divergence</th>"
         "<th>max |diff|, wall-only</th><th>max |diff|, bodies</th></tr>\n";
    for (const auto& c : g.rows)
      s << "<tr><td class=\"name\">" << html_escape(c.variant) << "</td><td>" << c.steps << "</td><td>"
        << c.identical_steps << "</td><td>"
        << (c.first_divergence ? std::to_string(c.first_divergence) : std::string("none")) << "</td><td>"
        << number(c.max_diff_wall) << "</td><td>" << number(c.max_diff_body) << "</td></tr>\n";
    s << "</table>\n";
  }
  return s.str() + scene_figures(r, page_dir);
}

// The committed engine summaries (data/validation/results/*.txt, written by
// `rigidref check` and kept current by the ctests engine_*) and the user's
// own (--engine-results): a stacked bar per engine and op (pass, fail,
// skipped), then the engine x op matrix.
std::string engine_section(const fs::path& page_dir, const std::vector<fs::path>& engine_results) {
#ifdef RIGIDREF_SOURCE_DIR
  const fs::path results = fs::path(RIGIDREF_SOURCE_DIR) / "data" / "validation" / "results";
#else
  const fs::path results;
#endif
  std::ostringstream s;
  s << "<h2>Engines checked against rigidref</h2>\n";
  const bool committed = !results.empty() && fs::exists(results);
  if (!committed && engine_results.empty()) {
    s << "<p>The engine summaries (data/validation/results/) are not next to this binary.</p>\n";
    return s.str();
  }
  const std::vector<engine_summary_row> bars = read_engine_summaries(committed ? results : fs::path(), engine_results);
  std::set<std::string> engines;  // the committed ones: a user's are not "through our adapters"
  if (committed)
    for (const auto& b : read_engine_summaries(results)) engines.insert(b.engine);
  if (committed)
    s << "<p>" << engines.size() << " engine configurations answer the committed case sets through our adapters "
      << "(tools/adapters/); <code>rigidref check</code> judges every answer exactly. What the failures are: "
      << link_anchors("D-ENGINE-3", page_dir) << " onwards.</p>\n";
  else
    s << "<p>The committed engine summaries (data/validation/results/) are not next to this binary.</p>\n";
  if (!engine_results.empty()) {
    s << "<p>Also shown: the summaries of <code>rigidref check</code> in ";
    for (std::size_t i = 0; i < engine_results.size(); ++i)
      s << (i ? ", " : "") << "<code>" << html_escape(engine_results[i].string()) << "</code>";
    s << " (<code>--engine-results</code>; docs/adapters.md).</p>\n";
  }
  const double w = 720, row_h = 22, left = 330;
  s << "<svg viewBox=\"0 0 " << w << " " << row_h * bars.size() + 30 << "\" width=\"" << w << "\" height=\""
    << row_h * bars.size() + 30 << "\" role=\"img\" aria-label=\"engine validation: pass, fail, skipped\">\n";
  double y = 4;
  for (const auto& b : bars) {
    const double scale = (w - left - 10) / std::max(1.0, static_cast<double>(b.cases));
    s << "<text x=\"" << left - 6 << "\" y=\"" << y + 14 << "\" class=\"ytick\">" << html_escape(b.engine + " " + b.op)
      << "</text>\n";
    double x = left;
    for (const auto& [n, col] : {std::pair{b.pass, "#1b7837"}, std::pair{b.fail, "#b2182b"}, std::pair{b.skipped, "#bbbbbb"}}) {
      s << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << n * scale << "\" height=\"" << row_h - 6
        << "\" fill=\"" << col << "\"/>\n";
      x += n * scale;
    }
    y += row_h;
  }
  s << "<text x=\"10\" y=\"" << y + 16 << "\" class=\"legend\">green: pass, red: fail, grey: skipped "
       "(the engine does not take the case)</text>\n</svg>\n";
  s << "<p>Each cell: cases passed / failed / skipped (the engine does not take the case), and the worst error "
       "of a judged case in eps of the engine's type; hover for the case count and the summary file. "
       "&mdash;: the engine has no adapter for that op.</p>\n"
    << engine_matrix_html(bars);
  s << dynamics_section_html(read_dynamics_records(committed ? results : fs::path(), engine_results));
  s << scene_section_html(read_scene_records(committed ? results : fs::path(), engine_results));
  return s.str();
}

const char* style = R"css(
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 1200px; color: #222; line-height: 1.4; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
table { border-collapse: collapse; width: 100%; font-size: 0.85rem; }
th, td { border-bottom: 1px solid #ddd; padding: 0.25rem 0.5rem; text-align: right; }
th { background: #f4f4f4; position: sticky; top: 0; }
td.name, th.name, td.type { text-align: left; }
tr.pass td.verdict { color: #1b7837; } tr.FAIL td.verdict { color: #b2182b; font-weight: bold; }
tr.finding td.verdict { color: #8c510a; }
.summary { padding: 0.6rem 1rem; background: #f4f8f4; border-left: 4px solid #1b7837; }
.summary.failed { background: #fbf0f0; border-left-color: #b2182b; }
code, .worst { font-family: ui-monospace, monospace; font-size: 0.8rem; word-break: break-all; }
table.engine-matrix td:not(.name), table.engine-matrix th:not(.name) { text-align: center; vertical-align: top; }
table.engine-matrix td.allpass { background: #eef6ee; } table.engine-matrix td.somefail { background: #fbf0f0; }
table.engine-matrix td.none, table.engine-matrix td.absent { color: #888; }
table.engine-matrix .worst { word-break: normal; }
.grid { stroke: #e4e4e4; } .tick, .legend { font-size: 11px; } .tick { text-anchor: middle; }
.ytick { font-size: 11px; text-anchor: end; } .label { font-size: 12px; text-anchor: middle; }
)css";

}  // namespace

void write_html_report(const std::string& path, const std::string& header, const std::vector<html_row>& rows,
                       const plot_data& plots, const std::vector<measured_row>& measured,
                       const scene_report& scene, bool with_rendered_derivations,
                       const std::vector<std::filesystem::path>& engine_results) {
  rendered_derivations = with_rendered_derivations;
  const fs::path page = fs::absolute(path);
  if (page.has_parent_path()) fs::create_directories(page.parent_path());
  std::ofstream f(page);
  if (!f) throw std::runtime_error("cannot write " + page.string());
  const bool failed = std::any_of(rows.begin(), rows.end(), [](const html_row& r) { return r.verdict == "FAIL"; });
  f << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>rigidref verification report</title>\n"
    << "<style>" << style << "</style></head><body>\n"
    << "<h1>rigidref verification report</h1>\n"
    << "<p class=\"summary" << (failed ? " failed" : "") << "\">" << html_escape(header) << "</p>\n"
    << "<p>Every row compares one function in one precision with an exact rational oracle (or a 230-digit one "
       "where cos, sqrt or atan2 enter). <b>max ulps</b> is the largest distance from the correctly rounded answer, "
       "<b>eps</b> the relative error in epsilons of the type (Boost.Math's measure). A <i>finding</i> is an "
       "article formula reported as measured, not bounded. Each bound cites the derivation that justifies it.</p>\n";
  // Rows grouped by topic (the function name up to the first space).
  std::map<std::string, std::vector<const html_row*>> topics;
  std::vector<std::string> order;
  for (const auto& r : rows) {
    const std::string topic = r.stats->function.substr(0, r.stats->function.find(' '));
    if (!topics.count(topic)) order.push_back(topic);
    topics[topic].push_back(&r);
  }
  for (const auto& topic : order) {
    f << "<h2>" << html_escape(topic) << "</h2>\n<table><tr><th class=\"name\">function</th><th class=\"name\">type</th>"
      << "<th>cases</th><th>max ulps</th><th>max eps</th><th>rms eps</th><th>bound ulps / eps</th>"
      << "<th class=\"name\">verdict</th><th class=\"name\">derivation</th></tr>\n";
    for (const html_row* r : topics[topic]) {
      const auto& s = *r->stats;
      f << "<tr class=\"" << r->verdict << "\"><td class=\"name\">" << html_escape(s.function) << "</td><td class=\"type\">"
        << html_escape(s.type) << "</td><td>" << s.cases << "</td><td>" << number(s.max_ulps) << "</td><td>"
        << number(s.max_eps) << "</td><td>" << number(s.rms_eps()) << "</td><td>" << html_escape(r->bound)
        << "</td><td class=\"verdict name\">" << r->verdict << "</td><td class=\"name\">"
        << link_anchors(r->why, page.parent_path()) << "</td></tr>\n";
    }
    f << "</table>\n";
  }
  f << "<h2>Matrix square root: error against condition number</h2>\n"
    << "<p>Each point is one matrix (SPD, general, or rotation-scaling) and one method, in double. The reference "
       "(default) stays correctly rounded; the article's methods evaluated in double lose digits as the "
       "condition number grows (and diagonalisation also when eigenvalues nearly coincide).</p>\n"
    << condition_plot(plots.condition);
  f << "<h2>Mass properties: error against distance from the origin</h2>\n"
    << "<p>Triangle inertia in double, one point per triangle and formula. rigidref's shifted fan stays "
       "correctly rounded at any offset; the article's absolute-coordinate formula loses digits with the "
       "square of offset / size (" << link_anchors("D-MASS-6", page.parent_path()) << ").</p>\n"
    << offset_plot(plots.offsets);
  f << "<h2>EPA depth: error distribution</h2>\n"
    << "<p>Every penetration depth of the collision corpus, every floating type, against the exact oracle. "
       "The depth is evaluated exactly and rounded once, so every error is at most half an eps (the rounding "
       "itself) "
       "(" << link_anchors("D-EPA-6", page.parent_path()) << ").</p>\n"
    << depth_histogram(plots.epa_depth_eps);
  f << scene_section(scene, page.parent_path());
  f << "<h2>Properties and measured effects</h2>\n"
    << "<p>Decisions of GJK, EPA and the article's rectangle test against the exact oracle; the sequential-impulse "
       "solver's convergence (the exact complementarity residual of each type's answer); and what each quirk of the "
       "article's BodyForce.js breaks, as exact values of our port. A <i>finding</i> is measured and reported, with "
       "the counterexample kept in data/counterexamples/.</p>\n"
    << "<table><tr><th class=\"name\">quantity</th><th class=\"name\">type</th><th>cases</th><th>value</th>"
    << "<th class=\"name\">unit</th><th class=\"name\">expectation</th><th class=\"name\">verdict</th>"
    << "<th class=\"name\">derivation</th></tr>\n";
  for (const auto& m : measured) {
    f << "<tr class=\"" << m.verdict << "\"><td class=\"name\">" << html_escape(m.quantity) << "</td><td class=\"type\">"
      << html_escape(m.type) << "</td><td>" << m.cases << "</td><td>" << number(m.value) << "</td><td class=\"name\">"
      << html_escape(m.unit) << "</td><td class=\"name\">" << html_escape(m.expectation) << "</td><td class=\"verdict name\">"
      << m.verdict << "</td><td class=\"name\">" << link_anchors(m.why, page.parent_path())
      << (m.counterexample.empty() ? "" : "<br><code>data/counterexamples/" + html_escape(m.counterexample) + "</code>")
      << "</td></tr>\n";
  }
  f << "</table>\n";
  f << engine_section(page.parent_path(), engine_results);
  f << "<h2>Worst cases</h2>\n<p>Inputs at full precision; rerun with the same seed to reproduce.</p>\n<ul>\n";
  for (const auto& r : rows) {
    if (r.verdict == "pass") continue;
    f << "<li><b>" << html_escape(r.stats->function) << "</b> (" << html_escape(r.stats->type) << ", " << r.verdict
      << "): <span class=\"worst\">" << html_escape(r.stats->worst_case) << "</span></li>\n";
  }
  f << "</ul>\n";
  if (with_rendered_derivations) {
    f << "<h2>Derivations</h2>\n<ul>\n";
    std::vector<std::string> pages;
    for (const auto& e : fs::directory_iterator(page.parent_path() / "derivations"))
      if (e.path().extension() == ".html") pages.push_back(e.path().filename().string());
    std::sort(pages.begin(), pages.end());
    for (const auto& html : pages) f << "<li><a href=\"derivations/" << html_escape(html) << "\">" << html_escape(html) << "</a></li>\n";
    f << "</ul>\n";
  }
  // The page checks itself once loaded: every plot has drawn marks with a
  // non-empty extent, and no script error happened. The browser test
  // (tests/report_browser.sh) reads the verdict from these attributes.
  f << "<script>\n"
       "window.addEventListener('error', function (e) {\n"
       "  document.body.dataset.errors = (document.body.dataset.errors || '') + e.message + ';';\n"
       "});\n"
       "window.addEventListener('load', function () {\n"
       "  var svgs = document.querySelectorAll('svg'), drawn = 0;\n"
       "  for (var i = 0; i < svgs.length; ++i) {\n"
       "    var marks = svgs[i].querySelectorAll('circle, rect, path, line');\n"
       "    var box = svgs[i].getBBox();\n"
       "    if (marks.length > 0 && box.width > 0 && box.height > 0) ++drawn;\n"
       "  }\n"
       "  document.body.dataset.plots = drawn + '/' + svgs.length;\n"
       "});\n"
       "</script>\n";
  f << "</body></html>\n";
}

}  // namespace rigidref::tools
