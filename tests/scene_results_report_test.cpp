// The report's scene section (tools/report/scene_results.hpp) against the
// committed records data/validation/results/*-scenes.jsonl: the counts per
// engine and law are recounted here from the records with a plain JSON parse
// (not the report's reader) and must be those of every table cell, of the
// Markdown table, of README.md's table and of the engine's committed
// summary; every engine has its four plots with a mark per recorded value;
// and on records written here the plots put each value where it belongs
// (bounce heights against e^(2k), a ramp on its closed form).
#include "support/eval_pipe.hpp"

#include "report/scene_results.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace scene_results_report_test {

namespace fs = std::filesystem;
using rigidref::testing::eval_pipe::read_file;
using rigidref::testing::eval_pipe::run_cli;
using rigidref::tools::read_scene_records;
using rigidref::tools::scene_depth_plot_ids;
using rigidref::tools::scene_energy_plot_ids;
using rigidref::tools::scene_section_html;
using rigidref::tools::scene_table_markdown;
using json = nlohmann::json;

namespace {

const fs::path results = fs::path(RIGIDREF_SOURCE_DIR) / "data" / "validation" / "results";

const std::vector<std::string> laws{"static_bodies",   "penetration",      "tunnelling", "energy",
                                    "linear_momentum", "angular_momentum", "rest",       "free_flight",
                                    "ramp",            "bounce",           "head_on"};

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

// The text from `start` to the next `end`; empty when `start` is missing.
std::string between(const std::string& text, const std::string& start, const std::string& end) {
  const std::size_t at = text.find(start);
  if (at == std::string::npos) return {};
  return text.substr(at, text.find(end, at) - at);
}

// The points of every <polyline> in `svg`, in order, as pixel pairs; and
// whether each is dashed.
struct polyline {
  std::vector<std::pair<double, double>> points;
  bool dashed = false;
};
std::vector<polyline> polylines(const std::string& svg) {
  std::vector<polyline> out;
  static const std::regex line("<polyline[^>]*?(stroke-dasharray=\"[^\"]*\")?[^>]*points=\"([^\"]*)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), line); it != std::sregex_iterator(); ++it) {
    polyline p;
    p.dashed = (*it)[0].str().find("stroke-dasharray") != std::string::npos;
    std::istringstream s((*it)[2].str());
    for (std::string xy; s >> xy;) {
      const std::size_t comma = xy.find(',');
      p.points.push_back({std::stod(xy.substr(0, comma)), std::stod(xy.substr(comma + 1))});
    }
    out.push_back(std::move(p));
  }
  return out;
}

// The data circles of a scatter plot (r="2.5"; the legend's have r="4").
std::vector<std::pair<double, double>> data_circles(const std::string& svg) {
  std::vector<std::pair<double, double>> out;
  static const std::regex circle("<circle cx=\"([-0-9.]+)\" cy=\"([-0-9.]+)\" r=\"2.5\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), circle); it != std::sregex_iterator(); ++it)
    out.push_back({std::stod((*it)[1].str()), std::stod((*it)[2].str())});
  return out;
}

struct engine_counts {
  std::string file;
  long cases = 0, pass = 0, fail = 0, other = 0;
  std::map<std::string, std::array<long, 3>> laws;  // pass, fail, not judged
  std::vector<json> records;
};

// Every committed scene record, recounted: engine -> counts.
std::map<std::string, engine_counts> recount(const fs::path& dir, std::size_t& files) {
  std::map<std::string, engine_counts> out;
  files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (!name.ends_with("-scenes.jsonl")) continue;
    ++files;
    std::ifstream in(e.path());
    for (std::string line; std::getline(in, line);) {
      const json r = json::parse(line);
      engine_counts& c = out[r.at("engine").get<std::string>()];
      c.file = name;
      ++c.cases;
      const std::string verdict = r.at("verdict");
      (verdict == "pass" ? c.pass : verdict == "fail" ? c.fail : c.other) += 1;
      for (const std::string& law : laws) {
        auto& n = c.laws[law];
        if (!r.contains("laws")) {
          ++n[2];
          continue;
        }
        const json& v = r["laws"].at(law);
        const std::string lv = v.at("verdict");
        if (lv == "pass") ++n[0];
        else if (lv == "fail") ++n[1];
        else {
          CHECK(lv == "not judged");
          CHECK_FALSE(v.at("reason").get<std::string>().empty());  // a law not judged says why
          ++n[2];
        }
      }
      c.records.push_back(r);
    }
  }
  return out;
}

std::string cell(long pass, long fail) { return std::to_string(pass) + " / " + std::to_string(fail); }

}  // namespace

TEST_CASE("the scene table counts the committed scene records", "[report][scenes]") {
  std::size_t files = 0;
  const auto expected = recount(results, files);
  // The ten engine configurations: Box2D 2.4.1 and 3.1.1, Chipmunk, planck,
  // box2d-wasm, matter-js, p2 and Rapier's three packages.
  REQUIRE(files >= 10);
  REQUIRE(expected.size() == files);  // one engine per file
  const auto records = read_scene_records(results);
  REQUIRE(records.engines.size() == expected.size());
  const std::string html = scene_section_html(records);
  const std::string markdown = scene_table_markdown(records);
  CHECK(count(html, "<table class=\"scene-laws\">") == 1);
  CHECK(count(html, "<tr data-engine=") == expected.size());
  for (const std::string& law : laws) CHECK(count(html, "<th>" + law + "</th>") == 1);
  for (const auto& [engine, c] : expected) {
    INFO(engine << " (" << c.file << ")");
    const std::string row = between(html, "<tr data-engine=\"" + engine + "\"", "</tr>");
    REQUIRE_FALSE(row.empty());
    CHECK(row.find(c.file) != std::string::npos);
    CHECK(row.find("<td data-law=\"cases\" data-pass=\"" + std::to_string(c.pass) + "\" data-fail=\"" +
                   std::to_string(c.fail) + "\" data-other=\"" + std::to_string(c.other) + "\"") != std::string::npos);
    std::string md = "| " + engine + " | " + cell(c.pass, c.fail) + (c.other ? " (+" + std::to_string(c.other) + ")" : "") + " |";
    for (const std::string& law : laws) {
      INFO(law);
      const auto& n = c.laws.at(law);
      CHECK(n[0] + n[1] + n[2] == c.cases);
      CHECK(row.find("<td data-law=\"" + law + "\" data-pass=\"" + std::to_string(n[0]) + "\" data-fail=\"" +
                     std::to_string(n[1]) + "\" data-not-judged=\"" + std::to_string(n[2]) + "\"") != std::string::npos);
      md += " " + (n[0] + n[1] == 0 ? std::string("–") : cell(n[0], n[1])) + " |";
    }
    CHECK(markdown.find(md + "\n") != std::string::npos);
    // The summary written by the same check run says the same.
    const std::string txt = c.file.substr(0, c.file.size() - 6) + ".txt";
    const std::string summary = read_file(results / txt);
    const std::regex summary_row("(^|\n)" + engine + R"(\s+scene\.run\s+(\d+)\s+(\d+)\s+(\d+)\s)");
    std::smatch m;
    REQUIRE(std::regex_search(summary, m, summary_row));
    CHECK(std::stol(m[2]) == c.cases);
    CHECK(std::stol(m[3]) == c.pass);
    CHECK(std::stol(m[4]) == c.fail);
  }
  CHECK(count(markdown, "\n") == expected.size() + 2);

  // README.md's table is this one (tools/engine_results.sh writes it).
  const std::string readme = read_file(fs::path(RIGIDREF_SOURCE_DIR) / "README.md");
  const std::string begin = "<!-- scene-results: begin", end = "<!-- scene-results: end -->";
  const std::size_t from = readme.find(begin), to = readme.find(end);
  REQUIRE(from != std::string::npos);
  REQUIRE(to != std::string::npos);
  const std::size_t table = readme.find('\n', from) + 1;
  INFO("README.md's scene table is stale: bash tools/engine_results.sh rewrites it");
  CHECK(readme.substr(table, to - table) == markdown);
  // ... and `rigidref report --scene-table` prints it.
  const auto printed = run_cli("report --scene-table", "");
  CHECK(printed.status == 0);
  CHECK(printed.out == markdown);
}

TEST_CASE("every engine has its four scene plots, a mark per recorded value", "[report][scenes]") {
  std::size_t files = 0;
  const auto expected = recount(results, files);
  const std::string html = scene_section_html(read_scene_records(results));
  CHECK(count(html, "<figure class=\"scene-plot\"") == 4 * expected.size());
  for (const auto& [engine, c] : expected) {
    INFO(engine);
    const auto figure = [&](const std::string& plot) {
      const std::string f = between(html, "<figure class=\"scene-plot\" data-engine=\"" + engine + "\" data-plot=\"" + plot + "\"",
                                    "</figure>");
      REQUIRE_FALSE(f.empty());
      CHECK(count(f, "<svg ") == 1);
      return f;
    };
    // Bounces: a point per rise of every drop; a legend entry per e.
    std::size_t points = 0, ramps = 0;
    std::set<double> coefficients;
    std::map<std::string, const json*> by_id;
    for (const json& r : c.records) {
      if (!r.contains("series")) continue;
      by_id[r["id"].get<std::string>()] = &r;
      const json& s = r["series"];
      if (s.contains("bounce")) {
        coefficients.insert(s["bounce"]["e"].get<double>());
        if (!s["bounce"]["heights"].empty() && s["bounce"]["heights"][0].get<double>() > 0)
          points += s["bounce"]["heights"].size() - 1;
      }
      ramps += s.contains("ramp") ? 1 : 0;
    }
    CHECK(coefficients.size() == 5);  // e = 0, 0.25, 0.5, 0.75, 1
    const std::string bounce = figure("bounce");
    CHECK(data_circles(bounce).size() == points);
    CHECK(count(bounce, "<circle ") == points + coefficients.size());
    CHECK(count(bounce, "class=\"diagonal\"") == 1);
    // Ramps: the engine's line and the closed form's (dashed), frame by frame.
    const std::string ramp = figure("ramp");
    const auto lines = polylines(ramp);
    CHECK(ramps >= 20);
    REQUIRE(lines.size() == 2 * ramps);
    std::size_t k = 0;
    for (const json& r : c.records) {
      if (!r.contains("series") || !r["series"].contains("ramp")) continue;
      INFO(r["id"]);
      const std::size_t frames = r["series"]["ramp"]["along"].size();
      CHECK_FALSE(lines[k].dashed);
      CHECK(lines[k + 1].dashed);
      CHECK(lines[k].points.size() == frames);
      REQUIRE(lines[k + 1].points.size() == frames);
      for (std::size_t i = 0; i < frames; ++i) CHECK(lines[k].points[i].first == lines[k + 1].points[i].first);  // same times
      k += 2;
    }
    // Overlap and energy: a line per plotted scene, a point per frame.
    for (const auto& [plot, ids] : {std::pair{std::string("depth"), scene_depth_plot_ids()},
                                    std::pair{std::string("energy"), scene_energy_plot_ids()}}) {
      const auto lines = polylines(figure(plot));
      REQUIRE(lines.size() == ids.size());
      for (std::size_t i = 0; i < ids.size(); ++i) {
        INFO(plot << " " << ids[i]);
        REQUIRE(by_id.count(ids[i]) == 1);
        CHECK(lines[i].points.size() == by_id[ids[i]]->at("series").at("energy").size());
        CHECK(figure(plot).find(">" + ids[i] + "</text>") != std::string::npos);  // its legend
      }
    }
  }
}

// Records written here, whose plots are known: the values land where they
// belong, a case without laws counts as not judged, and a user's records
// (--engine-results) follow the committed ones.
TEST_CASE("scene plots put each recorded value where it belongs", "[report][scenes]") {
  const fs::path dir = fs::temp_directory_path() / ("rigidref_scene_results_test_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    std::ofstream f(dir / "mine-scenes.jsonl");
    // A drop with e = 0.5 whose rises are e^2 and e^4 of the fall exactly, one
    // bouncing twice as high as Newton's, a ramp on its closed form a t^2 / 2
    // (dt 0.5, a = 2: 0, 0.25, 1, 2.25), a case the engine rejected.
    f << R"({"engine":"mine-1","id":"d1","line":1,"verdict":"pass","laws":{"bounce":{"verdict":"pass","error_eps":1,"budget_eps":128}},)"
         R"("series":{"dt":0.5,"record_every":1,"energy":[0,-1,-2],"bounce":{"e":0.5,"heights":[2,0.5,0.125]}}})" "\n"
      << R"({"engine":"mine-1","id":"d2","line":2,"verdict":"fail","laws":{"bounce":{"verdict":"fail","error_eps":1e6,"budget_eps":128}},)"
         R"("series":{"dt":0.5,"record_every":1,"energy":[0,1,2],"bounce":{"e":0.5,"heights":[1,0.5]}}})" "\n"
      << R"({"engine":"mine-1","id":"r1","line":3,"verdict":"pass","laws":{"ramp":{"verdict":"pass","error_eps":1,"budget_eps":128},)"
         R"("extra_law":{"verdict":"not judged","reason":"r"}},)"
         R"("series":{"dt":0.5,"record_every":1,"energy":[0,-1,-2,-3],"ramp":{"a":2,"motion":"slides","along":[0,0.25,1,2.25]}}})" "\n"
      << R"({"engine":"mine-1","id":"x","line":4,"verdict":"skipped","detail":"the engine does not take this case"})" "\n";
  }
  const auto records = read_scene_records(dir);
  REQUIRE(records.engines.size() == 1);
  const auto& e = records.engines[0];
  CHECK(e.cases == 4);
  CHECK(e.pass == 2);
  CHECK(e.fail == 1);
  CHECK(e.other == 1);
  REQUIRE(e.laws.size() == 3);  // the laws the records name, the judge's order first
  CHECK(e.laws[0].law == "ramp");
  CHECK((e.laws[0].pass == 1 && e.laws[0].fail == 0 && e.laws[0].not_judged == 3));
  CHECK(e.laws[1].law == "bounce");
  CHECK((e.laws[1].pass == 1 && e.laws[1].fail == 1 && e.laws[1].not_judged == 2));
  CHECK(e.laws[2].law == "extra_law");
  CHECK(e.laws[2].not_judged == 4);
  const std::string markdown = scene_table_markdown(records);
  CHECK(markdown.find("| mine-1 | 2 / 1 (+1) | – | – | – | – | – | – | – | – | 1 / 0 | 1 / 1 | – | – |\n") !=
        std::string::npos);

  const std::string html = scene_section_html(records);
  // The drops: (e^2, 0.25), (e^4, 0.0625) on the diagonal, (e^2, 0.5) above it.
  const std::string bounce = between(html, "data-plot=\"bounce\"", "</figure>");
  const auto circles = data_circles(bounce);
  REQUIRE(circles.size() == 3);
  const auto diagonal = polylines(bounce);  // none: the diagonal is a <line>
  CHECK(diagonal.empty());
  std::smatch m;
  REQUIRE(std::regex_search(bounce, m, std::regex(R"re(<line x1="([-0-9.]+)" y1="([-0-9.]+)" x2="([-0-9.]+)" y2="([-0-9.]+)"[^>]*class="diagonal")re")));
  const double x1 = std::stod(m[1]), y1 = std::stod(m[2]), x2 = std::stod(m[3]), y2 = std::stod(m[4]);
  const auto on_diagonal = [&](std::pair<double, double> p) {
    return std::abs((p.first - x1) * (y2 - y1) - (p.second - y1) * (x2 - x1)) <= 0.02 * std::hypot(x2 - x1, y2 - y1);
  };
  CHECK(on_diagonal(circles[0]));
  CHECK(on_diagonal(circles[1]));
  CHECK_FALSE(on_diagonal(circles[2]));
  CHECK(circles[2].first == circles[0].first);  // same e^2
  CHECK(circles[2].second < circles[0].second);  // higher (SVG y grows downwards)
  // The ramp: the engine's line is the closed form's, point for point.
  const auto ramp = polylines(between(html, "data-plot=\"ramp\"", "</figure>"));
  REQUIRE(ramp.size() == 2);
  CHECK(ramp[0].points == ramp[1].points);
  CHECK(ramp[1].dashed);
  // No plotted scene in these records: empty overlap and energy plots.
  CHECK(polylines(between(html, "data-plot=\"depth\"", "</figure>")).empty());

  // A user's records follow the committed ones.
  const auto alone = read_scene_records(results);
  const auto both = read_scene_records(results, {dir});
  REQUIRE(both.engines.size() == alone.engines.size() + 1);
  CHECK(both.engines.back().engine == "mine-1");
  CHECK(both.engines.back().file == (dir / "mine-scenes.jsonl").string());
  CHECK(both.engines.front().file == alone.engines.front().file);
  CHECK_THROWS_WITH(read_scene_records(results, {dir / "missing"}), Catch::Contains("not a directory"));
  {
    std::ofstream f(dir / "bad-scenes.jsonl");
    f << "{\"id\":1}\n";
  }
  CHECK_THROWS_WITH(read_scene_records(dir), Catch::Contains("not a scene record"));
  fs::remove_all(dir);
}

}  // namespace scene_results_report_test
