// The report's scene section (scene_results.hpp).
#include "report/scene_results.hpp"

#include "report/html_escape.hpp"
#include "scene/plot.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace rigidref::tools {

namespace fs = std::filesystem;

namespace {

// The laws in the order the judge states them (rigidref/judge/scene.hpp).
const std::vector<std::string>& judge_laws() {
  static const std::vector<std::string> laws{"static_bodies",    "penetration", "tunnelling", "energy",
                                             "linear_momentum",  "angular_momentum", "rest", "free_flight",
                                             "ramp",             "bounce",      "head_on"};
  return laws;
}

const char* palette(std::size_t i) {
  static const char* colours[] = {"#2166ac", "#b2182b", "#1b7837", "#e08214", "#762a83", "#4d4d4d", "#01665e"};
  return colours[i % (sizeof colours / sizeof colours[0])];
}

std::vector<double> numbers(const nlohmann::json& list) {
  std::vector<double> out;
  if (!list.is_array()) return out;
  for (const auto& x : list) out.push_back(x.is_number() ? x.get<double>() : std::nan(""));
  return out;
}

scene_case_series series_of(const nlohmann::json& r) {
  scene_case_series c;
  c.id = r.contains("id") ? (r["id"].is_string() ? r["id"].get<std::string>() : r["id"].dump()) : "";
  c.family = r.value("family", "");
  c.verdict = r.value("verdict", "");
  const nlohmann::json& s = r["series"];
  c.dt = s.value("dt", 0.0);
  c.record_every = s.value("record_every", 1L);
  if (s.contains("energy")) c.energy = numbers(s["energy"]);
  if (s.contains("depth")) c.depth = numbers(s["depth"]);
  if (s.contains("ramp") && s["ramp"].is_object())
    c.ramp = scene_case_series::ramp_run{s["ramp"].value("a", 0.0), s["ramp"].value("motion", ""),
                                         numbers(s["ramp"].value("along", nlohmann::json::array()))};
  if (s.contains("bounce") && s["bounce"].is_object())
    c.bounce = scene_case_series::bounce_run{s["bounce"].value("e", 0.0),
                                             numbers(s["bounce"].value("heights", nlohmann::json::array()))};
  return c;
}

// The time of frame k (s).
double time_of(const scene_case_series& c, std::size_t k) {
  return static_cast<double>(k) * static_cast<double>(c.record_every) * c.dt;
}

const scene_case_series* find_case(const scene_engine_records& e, const std::string& id) {
  for (const auto& c : e.series)
    if (c.id == id) return &c;
  return nullptr;
}

std::string bounce_plot(const scene_engine_records& e) {
  std::map<double, std::size_t> by_e;  // e -> series index, ascending e
  for (const auto& c : e.series)
    if (c.bounce) by_e.emplace(c.bounce->e, 0);
  std::vector<scatter_series> series;
  for (auto& [coefficient, index] : by_e) {
    index = series.size();
    std::ostringstream label;
    label << "e = " << coefficient;
    series.push_back({label.str(), palette(series.size()), {}});
  }
  for (const auto& c : e.series) {
    if (!c.bounce || c.bounce->heights.empty() || !(c.bounce->heights[0] > 0)) continue;
    const double h0 = c.bounce->heights[0], e2 = c.bounce->e * c.bounce->e;
    for (std::size_t k = 1; k < c.bounce->heights.size(); ++k)
      series[by_e[c.bounce->e]].points.push_back({std::pow(e2, static_cast<double>(k)), c.bounce->heights[k] / h0});
  }
  // e^(2k) <= 1: the square shows [0, 1] at least, points or not.
  return scatter_svg(series, e.engine + ": bounce heights against Newton's e^(2k)", "e^(2k)", "h_k / h_0", true, false, 1);
}

std::string ramp_plot(const scene_engine_records& e) {
  static const std::map<std::string, const char*> colour{
      {"slides", "#b2182b"}, {"sticks", "#2166ac"}, {"rolls", "#1b7837"}, {"slides and spins up", "#e08214"}};
  std::vector<xy_series> series;
  for (const auto& c : e.series) {
    if (!c.ramp) continue;
    const auto col = colour.find(c.ramp->motion);
    xy_series engine{"the engine: the body " + c.ramp->motion, col == colour.end() ? "#4d4d4d" : col->second, {}, false};
    xy_series closed{"closed form a t^2 / 2", "#555555", {}, true};
    for (std::size_t k = 0; k < c.ramp->along.size(); ++k) {
      const double t = time_of(c, k);
      engine.points.push_back({t, c.ramp->along[k]});
      closed.points.push_back({t, c.ramp->a * t * t / 2});
    }
    series.push_back(std::move(engine));
    series.push_back(std::move(closed));
  }
  return xy_chart_svg(series, e.engine + ": distance down each ramp against the closed form", "time (s)",
                      "distance down the face (m)", false);
}

// One line per scene of `ids` the engine's records hold; values per frame
// scaled by `unit`. A scene whose series is absent (no overlap in any
// frame) is drawn at 0 over its frames.
std::string frames_plot(const scene_engine_records& e, const std::vector<std::string>& ids, bool depth,
                        const std::string& title, const std::string& ylabel, double unit) {
  std::vector<xy_series> series;
  for (const std::string& id : ids) {
    const scene_case_series* c = find_case(e, id);
    if (c == nullptr) continue;
    const std::vector<double>& values = depth ? c->depth : c->energy;
    const std::size_t frames = std::max(c->depth.size(), c->energy.size());
    xy_series line{id, palette(series.size()), {}, false};
    for (std::size_t k = 0; k < frames; ++k) line.points.push_back({time_of(*c, k), k < values.size() ? values[k] * unit : 0.0});
    series.push_back(std::move(line));
  }
  return xy_chart_svg(series, e.engine + ": " + title, "time (s)", ylabel, false);
}

std::string counts(long pass, long fail) { return std::to_string(pass) + " / " + std::to_string(fail); }

}  // namespace

scene_records read_scene_records(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.size() > 13 && name.ends_with("-scenes.jsonl")) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  scene_records out;
  for (const auto& file : files) {
    std::vector<std::string> engines;
    std::map<std::string, std::vector<nlohmann::json>> by_engine;
    std::ifstream in(file);
    std::string text;
    std::size_t line = 0;
    while (std::getline(in, text)) {
      ++line;
      if (text.empty()) continue;
      nlohmann::json r;
      try {
        r = nlohmann::json::parse(text);
      } catch (const std::exception& e) {
        throw std::runtime_error(file.string() + ":" + std::to_string(line) + ": " + e.what());
      }
      if (!r.is_object() || !r.contains("engine") || !r["engine"].is_string() ||
          (r.contains("laws") && !r["laws"].is_object()) || (r.contains("series") && !r["series"].is_object()))
        throw std::runtime_error(file.string() + ":" + std::to_string(line) + ": not a scene record");
      const std::string engine = r["engine"];
      if (!by_engine.contains(engine)) engines.push_back(engine);
      by_engine[engine].push_back(std::move(r));
    }
    for (const auto& engine : engines) {
      const auto& records = by_engine[engine];
      scene_engine_records e{engine, file.filename().string(), static_cast<long>(records.size()), 0, 0, 0, {}, {}};
      std::vector<std::string> laws = judge_laws(), extra;
      for (const auto& r : records) {
        const std::string verdict = r.value("verdict", "");
        (verdict == "pass" ? e.pass : verdict == "fail" ? e.fail : e.other) += 1;
        if (r.contains("laws"))
          for (const auto& [law, v] : r["laws"].items())
            if (std::find(laws.begin(), laws.end(), law) == laws.end() &&
                std::find(extra.begin(), extra.end(), law) == extra.end())
              extra.push_back(law);
        if (r.contains("series")) e.series.push_back(series_of(r));
      }
      std::sort(extra.begin(), extra.end());
      laws.insert(laws.end(), extra.begin(), extra.end());
      for (const auto& law : laws) {
        scene_law_count n{law};
        bool named = false;
        for (const auto& r : records) {
          const auto v = r.contains("laws") ? r["laws"].find(law) : r.end();
          if (!r.contains("laws") || v == r["laws"].end() || !v->is_object()) {
            ++n.not_judged;
            continue;
          }
          named = true;
          const std::string verdict = v->value("verdict", "");
          (verdict == "pass" ? n.pass : verdict == "fail" ? n.fail : n.not_judged) += 1;
        }
        if (named) e.laws.push_back(n);
      }
      out.engines.push_back(std::move(e));
    }
  }
  return out;
}

scene_records read_scene_records(const fs::path& committed, const std::vector<fs::path>& more) {
  scene_records out;
  if (!committed.empty() && fs::is_directory(committed)) out = read_scene_records(committed);
  for (const fs::path& dir : more) {
    if (!fs::is_directory(dir)) throw std::runtime_error(dir.string() + ": not a directory");
    scene_records own = read_scene_records(dir);
    for (scene_engine_records& e : own.engines) {
      e.file = (dir / e.file).string();
      out.engines.push_back(std::move(e));
    }
  }
  return out;
}

std::vector<std::string> scene_laws(const scene_records& records) {
  std::vector<std::string> laws = judge_laws(), extra;
  for (const auto& e : records.engines)
    for (const auto& n : e.laws)
      if (std::find(laws.begin(), laws.end(), n.law) == laws.end() &&
          std::find(extra.begin(), extra.end(), n.law) == extra.end())
        extra.push_back(n.law);
  std::sort(extra.begin(), extra.end());
  laws.insert(laws.end(), extra.begin(), extra.end());
  return laws;
}

const std::vector<std::string>& scene_depth_plot_ids() {
  static const std::vector<std::string> ids{"rest-stack-10", "rest-mass-ratio-100"};
  return ids;
}

const std::vector<std::string>& scene_energy_plot_ids() {
  static const std::vector<std::string> ids{"rest-stack-10", "rest-mass-ratio-100", "bounce-disc-e1-h1.25",
                                            "bounce-box-e1-h1.25"};
  return ids;
}

std::string scene_table_markdown(const scene_records& records) {
  const std::vector<std::string> laws = scene_laws(records);
  std::ostringstream s;
  s << "| engine | cases |";
  for (const auto& law : laws) s << " " << law << " |";
  s << "\n|---|---|";
  for (std::size_t i = 0; i < laws.size(); ++i) s << "---|";
  s << "\n";
  for (const auto& e : records.engines) {
    s << "| " << e.engine << " | " << counts(e.pass, e.fail) << (e.other > 0 ? " (+" + std::to_string(e.other) + ")" : "")
      << " |";
    for (const auto& law : laws) {
      const auto n = std::find_if(e.laws.begin(), e.laws.end(), [&](const scene_law_count& c) { return c.law == law; });
      s << " " << (n == e.laws.end() || n->pass + n->fail == 0 ? std::string("–") : counts(n->pass, n->fail)) << " |";
    }
    s << "\n";
  }
  return s.str();
}

std::string scene_section_html(const scene_records& records) {
  std::ostringstream s;
  s << "<h2>Engine scenes, law by law (scene.run)</h2>\n";
  if (records.engines.empty()) {
    s << "<p>No scene records (data/validation/results/*-scenes.jsonl) were found.</p>\n";
    return s.str();
  }
  const std::vector<std::string> laws = scene_laws(records);
  s << "<p>Each engine's run of the scenes of data/validation/scenes.jsonl (ramps, rolling discs, drops, head-on "
       "discs, free flight, resting boxes and stacks, fast discs at a thin wall), judged by <code>rigidref check</code> "
       "by laws and by the closed forms the configuration implies (derivations/scene_run.md, D-SCENERUN-4 onwards; "
       "what each engine fails and why: derivations/engine_dynamics.md, D-DYNENG-4 onwards). Each cell: cases the law "
       "passed / failed; &ndash;: the law applies to no case of the engine (hover for the cases it did not judge). "
       "The cases column counts whole cases (a case fails when any law fails; + the cases skipped or "
       "unreadable).</p>\n";
  s << "<table class=\"scene-laws\"><tr><th class=\"name\">engine</th><th>cases</th>";
  for (const auto& law : laws) s << "<th>" << html_escape(law) << "</th>";
  s << "</tr>\n";
  for (const auto& e : records.engines) {
    s << "<tr data-engine=\"" << html_escape(e.engine) << "\"><td class=\"name\" title=\"" << html_escape(e.file)
      << "\">" << html_escape(e.engine) << "</td><td data-law=\"cases\" data-pass=\"" << e.pass << "\" data-fail=\""
      << e.fail << "\" data-other=\"" << e.other << "\"" << (e.fail > 0 ? " class=\"FAIL\"" : "") << ">"
      << counts(e.pass, e.fail) << (e.other > 0 ? " (+" + std::to_string(e.other) + ")" : "") << "</td>";
    for (const auto& law : laws) {
      const auto n = std::find_if(e.laws.begin(), e.laws.end(), [&](const scene_law_count& c) { return c.law == law; });
      const scene_law_count c = n == e.laws.end() ? scene_law_count{law, 0, 0, e.cases} : *n;
      s << "<td data-law=\"" << html_escape(law) << "\" data-pass=\"" << c.pass << "\" data-fail=\"" << c.fail
        << "\" data-not-judged=\"" << c.not_judged << "\" title=\"" << c.not_judged << " not judged\""
        << (c.fail > 0 ? " class=\"FAIL\"" : "") << ">" << (c.pass + c.fail == 0 ? std::string("&ndash;") : counts(c.pass, c.fail))
        << "</td>";
    }
    s << "</tr>\n";
  }
  s << "</table>\n";
  s << "<p>The plots, from the series <code>rigidref check --scenes-out</code> records (the judge's own long double "
       "measures of each frame, kept to 4 significant digits). <b>Bounces</b>: each rise of a dropped disc or box, "
       "h_k / h_0 (its height over the first fall, both from where the body met the face: the lowest point before "
       "the rise, or the face itself if the body went into it) against e^(2k): Newton's "
       "restitution in continuous time puts every point on the dashed diagonal; a discrete step moves them off it "
       "by O(g dt^2 / h), most at the 1.6 cm drops; below it the engine bounced less (a restitution threshold, "
       "energy lost), above it more; at x = 0 (e = 0) any point is a bounce that should not be. <b>Ramps</b>: the "
       "distance of the centre down the face for every ramp and rolling disc the ramp law judges, until the body "
       "would reach the face's end, beside the closed form a t^2 / 2 (dashed): a = g (sin &theta; &minus; &mu; "
       "cos &theta;) for a sliding box, 0 when it sticks (&mu; &ge; tan &theta;), (2/3) g sin &theta; for a disc "
       "that rolls. <b>Overlap</b>: the deepest overlap of any two bodies in each frame of ";
  for (std::size_t i = 0; i < scene_depth_plot_ids().size(); ++i)
    s << (i ? " and " : "") << "<code>" << html_escape(scene_depth_plot_ids()[i]) << "</code>";
  s << " (10 unit boxes; a box on a box 100 times lighter), which should stay at rest. <b>Energy</b>: the "
       "kinetic and potential energy of the dynamic bodies less its value at the start, in ";
  for (std::size_t i = 0; i < scene_energy_plot_ids().size(); ++i)
    s << (i ? ", " : "") << "<code>" << html_escape(scene_energy_plot_ids()[i]) << "</code>";
  s << ": at rest it should stay at 0, and e = 1 keeps it but for the integrator's bounded error.</p>\n";
  for (const auto& e : records.engines) {
    s << "<div class=\"scene-engine\" data-engine=\"" << html_escape(e.engine) << "\">\n<h3>" << html_escape(e.engine)
      << " (" << html_escape(e.file) << ")</h3>\n";
    const auto figure = [&](const std::string& plot, const std::string& svg, const std::string& caption) {
      s << "<figure class=\"scene-plot\" data-engine=\"" << html_escape(e.engine) << "\" data-plot=\"" << plot << "\">\n"
        << svg << "<figcaption>" << html_escape(caption) << "</figcaption></figure>\n";
    };
    long bounces = 0, ramps = 0;
    for (const auto& c : e.series) bounces += c.bounce ? 1 : 0, ramps += c.ramp ? 1 : 0;
    figure("bounce", bounce_plot(e), e.engine + ": " + std::to_string(bounces) + " scenes of the bounce law");
    figure("ramp", ramp_plot(e), e.engine + ": " + std::to_string(ramps) + " ramps and rolling discs");
    figure("depth", frames_plot(e, scene_depth_plot_ids(), true, "deepest overlap over time", "deepest overlap (mm)", 1000),
           e.engine + ": the two stacks");
    figure("energy", frames_plot(e, scene_energy_plot_ids(), false, "energy over time", "E - E(0) (J)", 1),
           e.engine + ": the two stacks and the drops with e = 1");
    s << "</div>\n";
  }
  return s.str();
}

}  // namespace rigidref::tools
