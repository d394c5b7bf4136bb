// The report's dynamics section (dynamics.hpp).
#include "report/dynamics.hpp"

#include "report/html_escape.hpp"
#include "scene/plot.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>

namespace rigidref::tools {

namespace fs = std::filesystem;

namespace {

// The laws in the order the judge states them (rigidref/judge/step.hpp); a law
// the records name that is not here follows, in name order.
const std::vector<std::string>& known_laws() {
  static const std::vector<std::string> laws{"linear_momentum", "angular_momentum", "restitution", "no_approach",
                                             "friction_cone",   "energy",           "velocities",
                                             "velocities_at_engine_contacts"};
  return laws;
}

}  // namespace

dynamics_records read_dynamics_records(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && name.size() > 15 && name.ends_with("-dynamics.jsonl")) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  dynamics_records out;
  for (const auto& file : files) {
    // Counts per engine and law of this file; every law any record names.
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
      if (!r.is_object() || !r.contains("engine") || !r["engine"].is_string())
        throw std::runtime_error(file.string() + ":" + std::to_string(line) + ": not a dynamics record");
      const std::string engine = r["engine"];
      if (!by_engine.contains(engine)) engines.push_back(engine);
      by_engine[engine].push_back(std::move(r));
    }
    for (const auto& engine : engines) {
      const auto& records = by_engine[engine];
      std::vector<std::string> laws = known_laws();
      std::vector<std::string> extra;
      for (const auto& r : records)
        if (r.contains("laws"))
          for (const auto& [law, v] : r["laws"].items())
            if (std::find(laws.begin(), laws.end(), law) == laws.end() &&
                std::find(extra.begin(), extra.end(), law) == extra.end())
              extra.push_back(law);
      std::sort(extra.begin(), extra.end());
      laws.insert(laws.end(), extra.begin(), extra.end());
      for (const auto& law : laws) {
        dynamics_law_row row{engine, law};
        bool named = false;
        for (const auto& r : records) {
          const auto v = r.contains("laws") ? r["laws"].find(law) : r.end();
          if (!r.contains("laws") || v == r["laws"].end()) {
            ++row.not_judged;
            continue;
          }
          named = true;
          const std::string verdict = v->value("verdict", "");
          if (verdict == "pass") ++row.pass;
          else if (verdict == "fail") ++row.fail;
          else ++row.not_judged;
        }
        row.judged = row.pass + row.fail;
        // A law no record of this engine names (e.g. one added to the judge
        // after these records were written) gets no row.
        if (named) out.rows.push_back(row);
      }
      dynamics_engine plot{engine, file.filename().string(), static_cast<long>(records.size()), {}};
      for (const auto& r : records)
        if (r.contains("contacts"))
          for (const auto& c : r["contacts"])
            plot.points.push_back({-c.at("e").get<double>() * c.at("un_before").get<double>(),
                                   c.at("un_after").get<double>(), c.value("restitution", "not judged")});
      out.engines.push_back(std::move(plot));
    }
  }
  return out;
}

dynamics_records read_dynamics_records(const fs::path& committed, const std::vector<fs::path>& more) {
  dynamics_records out;
  if (!committed.empty() && fs::is_directory(committed)) out = read_dynamics_records(committed);
  for (const fs::path& dir : more) {
    if (!fs::is_directory(dir)) throw std::runtime_error(dir.string() + ": not a directory");
    dynamics_records own = read_dynamics_records(dir);
    out.rows.insert(out.rows.end(), own.rows.begin(), own.rows.end());
    for (dynamics_engine& e : own.engines) {
      e.file = (dir / e.file).string();
      out.engines.push_back(std::move(e));
    }
  }
  return out;
}

std::string dynamics_table_text(const dynamics_records& records) {
  std::ostringstream s;
  s << std::left << std::setw(26) << "engine" << std::setw(32) << "law" << std::right << std::setw(8) << "judged"
    << std::setw(7) << "pass" << std::setw(7) << "fail" << std::setw(12) << "not judged" << "\n";
  for (const auto& r : records.rows)
    s << std::left << std::setw(26) << r.engine << std::setw(32) << r.law << std::right << std::setw(8) << r.judged
      << std::setw(7) << r.pass << std::setw(7) << r.fail << std::setw(12) << r.not_judged << "\n";
  return s.str();
}

std::string dynamics_section_html(const dynamics_records& records) {
  std::ostringstream s;
  s << "<h2>Engine dynamics, law by law (step.pair)</h2>\n";
  if (records.engines.empty()) {
    s << "<p>No dynamics records (data/validation/results/*-dynamics.jsonl) were found.</p>\n";
    return s.str();
  }
  s << "<p>Each engine's step of the 126 scenes of data/validation/dynamics.jsonl, judged by "
       "<code>rigidref check</code> law by law (derivations/step.md, D-STEP-9; what the failures are: "
       "derivations/engine_dynamics.md). A law is not judged where it does not apply: the momentum laws need two "
       "dynamic bodies and no gravity, energy e = 0 or one frictionless contact, restitution an approach faster "
       "than the engine's declared threshold.</p>\n";
  s << "<table class=\"dynamics-laws\"><tr><th class=\"name\">engine</th><th class=\"name\">law</th>"
       "<th>cases judged</th><th>pass</th><th>fail</th><th>not judged</th></tr>\n";
  for (const auto& r : records.rows)
    s << "<tr data-engine=\"" << html_escape(r.engine) << "\" data-law=\"" << html_escape(r.law) << "\""
      << (r.fail > 0 ? " class=\"FAIL\"" : "") << "><td class=\"name\">" << html_escape(r.engine)
      << "</td><td class=\"name\">" << html_escape(r.law) << "</td><td>" << r.judged << "</td><td>" << r.pass
      << "</td><td>" << r.fail << "</td><td>" << r.not_judged << "</td></tr>\n";
  s << "</table>\n";
  s << "<p>The plots: one point per contact of every case, x = &minus;e times the normal velocity of the contact "
       "point before the step (with gravity added, v*), y = its normal velocity after the step, both relative "
       "(body2 against body1) along the normal from body1 to body2, in m/s. Newton's restitution puts a point on "
       "the dashed line y = x. A point above it left faster than e allows (energy from the solver or a position "
       "correction); below it bounced less; below y = 0 the contact still approaches after the step. Red: the "
       "restitution law fails at that contact beyond its budget; green: it holds; grey: not judged there (the "
       "contact separates, or approaches slower than the engine's restitution threshold).</p>\n";
  for (const auto& e : records.engines) {
    std::vector<scatter_series> series{{"restitution holds", "#1b7837", {}},
                                       {"restitution fails", "#b2182b", {}},
                                       {"not judged", "#999999", {}}};
    for (const auto& p : e.points)
      series[p.verdict == "pass" ? 0 : p.verdict == "fail" ? 1 : 2].points.push_back({p.x, p.y});
    s << "<figure class=\"dynamics-plot\" data-engine=\"" << html_escape(e.engine) << "\">\n"
      << scatter_svg(series, e.engine + ": normal velocity after against -e times before",
                     "-e u_n before the step (m/s)", "u_n after the step (m/s)", true, false)
      << "<figcaption>" << html_escape(e.engine) << ": " << e.points.size() << " contacts in " << e.cases
      << " cases (" << html_escape(e.file) << ")</figcaption></figure>\n";
  }
  return s.str();
}

}  // namespace rigidref::tools
