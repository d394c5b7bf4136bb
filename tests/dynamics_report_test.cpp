// The report's dynamics section (tools/report/dynamics.hpp) against the
// committed law records data/validation/results/*-dynamics.jsonl: the
// counts per engine and law are recounted here from the records with a plain
// JSON parse (not the report's reader), every row of the HTML table must
// carry them, and the page has one plot per engine with a point per contact.
#include <catch2/catch.hpp>

#include "report/dynamics.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace dynamics_report_test {

namespace fs = std::filesystem;
using rigidref::tools::dynamics_section_html;
using rigidref::tools::dynamics_table_text;
using rigidref::tools::read_dynamics_records;

namespace {

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

// The HTML between `start` and the next `end`; empty when `start` is missing.
std::string between(const std::string& html, const std::string& start, const std::string& end) {
  const std::size_t at = html.find(start);
  if (at == std::string::npos) return {};
  return html.substr(at, html.find(end, at) - at);
}

}  // namespace

TEST_CASE("the dynamics table counts the committed law records", "[report][dynamics]") {
  const fs::path dir = fs::path(RIGIDREF_SOURCE_DIR) / "data" / "validation" / "results";
  // (engine, law) -> {pass, fail, not judged}; engine -> contacts.
  std::map<std::pair<std::string, std::string>, std::array<long, 3>> expected;
  std::map<std::string, std::size_t> contacts, cases, unjudged;
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (!name.ends_with("-dynamics.jsonl")) continue;
    ++files;
    std::ifstream in(e.path());
    for (std::string line; std::getline(in, line);) {
      const auto r = nlohmann::json::parse(line);
      const std::string engine = r.at("engine");
      ++cases[engine];
      if (!r.contains("laws")) {  // rejected or not finite: not judged on any law (counted below)
        ++unjudged[engine];
        continue;
      }
      for (const auto& [law, v] : r["laws"].items()) {
        const std::string verdict = v.at("verdict");
        auto& c = expected[{engine, law}];
        if (verdict == "pass") ++c[0];
        else if (verdict == "fail") ++c[1];
        else {
          CHECK(verdict == "not judged");
          CHECK_FALSE(v.at("reason").get<std::string>().empty());  // a not-judged law says why
          ++c[2];
        }
      }
      contacts[engine] += r.at("contacts").size();
    }
  }
  REQUIRE(files >= 7);  // the seven engines of derivations/engine_dynamics.md
  for (auto& [key, c] : expected) c[2] += static_cast<long>(unjudged[key.first]);
  const auto records = read_dynamics_records(dir);
  CHECK(records.rows.size() == expected.size());
  for (const auto& row : records.rows) {
    INFO(row.engine << " " << row.law);
    const auto c = expected.find({row.engine, row.law});
    REQUIRE(c != expected.end());
    CHECK(row.pass == c->second[0]);
    CHECK(row.fail == c->second[1]);
    CHECK(row.not_judged == c->second[2]);
    CHECK(row.judged == c->second[0] + c->second[1]);
    CHECK(row.pass + row.fail + row.not_judged == static_cast<long>(cases[row.engine]));
  }
  const std::string html = dynamics_section_html(records);
  const std::string text = dynamics_table_text(records);
  CHECK(count(html, "<table class=\"dynamics-laws\">") == 1);
  CHECK(count(html, "<tr data-engine=") == expected.size());
  for (const auto& [key, c] : expected) {
    INFO(key.first << " " << key.second);
    const std::string row = between(html, "<tr data-engine=\"" + key.first + "\" data-law=\"" + key.second + "\"", "</tr>");
    REQUIRE_FALSE(row.empty());
    CHECK(row.find("<td>" + std::to_string(c[0] + c[1]) + "</td><td>" + std::to_string(c[0]) + "</td><td>" +
                   std::to_string(c[1]) + "</td><td>" + std::to_string(c[2]) + "</td>") != std::string::npos);
    CHECK(text.find(key.first) != std::string::npos);
  }
  // One plot per engine, a point per contact (3 more circles: the legend).
  CHECK(count(html, "<figure class=\"dynamics-plot\"") == cases.size());
  for (const auto& [engine, n] : contacts) {
    INFO(engine);
    const std::string figure = between(html, "<figure class=\"dynamics-plot\" data-engine=\"" + engine + "\"", "</figure>");
    REQUIRE_FALSE(figure.empty());
    CHECK(count(figure, "<svg ") == 1);
    CHECK(count(figure, "<circle ") == n + 3);
    CHECK(count(figure, "class=\"diagonal\"") == 1);
    CHECK(figure.find("(m/s)") != std::string::npos);
  }
}

TEST_CASE("dynamics records: not-judged cases and the plotted coordinates", "[report][dynamics]") {
  const fs::path dir = fs::temp_directory_path() / "rigidref_dynamics_report_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    std::ofstream f(dir / "x-dynamics.jsonl");
    f << R"({"engine":"x-1","id":"a","line":1,"verdict":"fail","laws":{"energy":{"verdict":"not judged","reason":"r"},)"
         R"("restitution":{"verdict":"fail","error":3}},"contacts":[{"e":0.5,"un_before":-2,"un_after":0.75,"restitution":"fail"}]})"
      << "\n"
      << R"({"engine":"x-1","id":"b","line":2,"verdict":"skipped","detail":"the engine does not take this case"})" << "\n";
    std::ofstream ignored(dir / "x-dynamics.txt");
    ignored << "not records\n";
  }
  const auto records = read_dynamics_records(dir);
  REQUIRE(records.rows.size() == 2);  // only the laws the records name
  CHECK(records.rows[0].law == "restitution");  // the judge's order, not the name order
  CHECK(records.rows[0].fail == 1);
  CHECK(records.rows[0].not_judged == 1);  // the skipped case
  CHECK(records.rows[1].law == "energy");
  CHECK(records.rows[1].judged == 0);
  CHECK(records.rows[1].not_judged == 2);
  REQUIRE(records.engines.size() == 1);
  REQUIRE(records.engines[0].points.size() == 1);
  CHECK(records.engines[0].points[0].x == 1.0);  // -e * u_n before
  CHECK(records.engines[0].points[0].y == 0.75);
  CHECK(records.engines[0].points[0].verdict == "fail");
  fs::remove_all(dir);
}

// A user's law records (rigidref report --engine-results DIR, written by
// rigidref check --dynamics-out) come after the committed ones, their file
// named by its path; a directory without records adds nothing.
TEST_CASE("a user's dynamics records (--engine-results) join the committed ones", "[report][dynamics]") {
  const fs::path committed = fs::path(RIGIDREF_SOURCE_DIR) / "data" / "validation" / "results";
  const fs::path dir = fs::temp_directory_path() / "rigidref_dynamics_engine_results_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    std::ofstream f(dir / "mine-dynamics.jsonl");
    f << R"({"engine":"my-engine-0.1","id":"a","line":1,"verdict":"pass","laws":{"restitution":{"verdict":"pass",)"
         R"("error_eps":0.5,"budget_eps":128}},"contacts":[{"e":0.5,"un_before":-2,"un_after":1,"restitution":"pass"}]})"
      << "\n";
  }
  const auto alone = read_dynamics_records(committed);
  const auto both = read_dynamics_records(committed, {dir});
  REQUIRE(both.rows.size() == alone.rows.size() + 1);
  REQUIRE(both.engines.size() == alone.engines.size() + 1);
  CHECK(both.rows.back().engine == "my-engine-0.1");
  CHECK(both.rows.back().law == "restitution");
  CHECK(both.rows.back().pass == 1);
  CHECK(both.engines.back().file == (dir / "mine-dynamics.jsonl").string());
  CHECK(both.engines.front().file == alone.engines.front().file);  // committed files keep their names
  const std::string html = dynamics_section_html(both);
  CHECK(html.find("<tr data-engine=\"my-engine-0.1\" data-law=\"restitution\"") != std::string::npos);
  CHECK(html.find((dir / "mine-dynamics.jsonl").string()) != std::string::npos);
  // A summary directory without law records adds no row; no directory is an error.
  const fs::path empty = dir / "no-records";
  fs::create_directories(empty);
  CHECK(read_dynamics_records(committed, {empty}).rows.size() == alone.rows.size());
  CHECK_THROWS_WITH(read_dynamics_records(committed, {dir / "missing"}), Catch::Contains("not a directory"));
  fs::remove_all(dir);
}

}  // namespace dynamics_report_test
