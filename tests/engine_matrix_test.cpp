// The engine x op matrix of the report (tools/report/engine_matrix.hpp):
// the committed summaries in data/validation/results/, read here with a
// plain whitespace split (not the report's parser), each (engine, op) must
// have its cell with its counts; and a summary of a new engine and a new op
// must show up without a code change.
#include <catch2/catch.hpp>

#include "report/engine_matrix.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using rigidref::tools::engine_matrix_html;
using rigidref::tools::read_engine_summaries;

namespace {

bool all_digits(const std::string& s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

// (engine, op) -> "pass / fail / skipped" from every summary table row
// (engine op cases pass fail skipped reject worst-eps worst-line).
std::map<std::pair<std::string, std::string>, std::string> counts_in(const fs::path& dir) {
  std::map<std::pair<std::string, std::string>, std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".txt") continue;
    std::ifstream in(e.path());
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream words(line);
      std::vector<std::string> w;
      for (std::string x; words >> x;) w.push_back(x);
      if (w.size() != 9 || !all_digits(w[2]) || !all_digits(w[3]) || !all_digits(w[8])) continue;
      out[{w[0], w[1]}] = w[3] + " / " + w[4] + " / " + w[5];
    }
  }
  return out;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

// The cell's HTML, from its opening tag to </td>; empty when missing.
std::string cell(const std::string& html, const std::string& engine, const std::string& op) {
  const std::size_t at = html.find("<td data-engine=\"" + engine + "\" data-op=\"" + op + "\"");
  if (at == std::string::npos) return {};
  return html.substr(at, html.find("</td>", at) - at);
}

}  // namespace

TEST_CASE("the engine matrix has a cell for each (engine, op) of the committed summaries", "[report][engines]") {
  const fs::path dir = fs::path(RIGIDREF_SOURCE_DIR) / "data" / "validation" / "results";
  const auto expected = counts_in(dir);
  REQUIRE(expected.size() >= 10);
  const std::string html = engine_matrix_html(read_engine_summaries(dir));
  std::set<std::string> engines, ops;
  for (const auto& [key, counts] : expected) {
    engines.insert(key.first);
    ops.insert(key.second);
    INFO(key.first << " " << key.second);
    const std::string c = cell(html, key.first, key.second);
    REQUIRE_FALSE(c.empty());
    CHECK(c.find(">" + counts + "<") != std::string::npos);
  }
  CHECK(count(html, "<table class=\"engine-matrix\">") == 1);
  // One row per engine, one cell per (engine, op), absent ones marked.
  CHECK(count(html, "<tr><td class=\"name\">") == engines.size());
  CHECK(count(html, "<td data-engine=") == engines.size() * ops.size());
  CHECK(count(html, "class=\"absent\"") == engines.size() * ops.size() - expected.size());
  for (const auto& op : ops) CHECK(count(html, "<th>" + op + "</th>") == 1);
}

TEST_CASE("a new engine and a new op appear without a code change", "[report][engines]") {
  const fs::path dir = fs::temp_directory_path() / "rigidref_engine_matrix_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    std::ofstream a(dir / "a-collision.txt");
    a << "engine                          op                      cases   pass   fail skipped  reject   worst eps  "
         "worst line\n"
         "engine-a                        gjk.distance               10      7      2       1       0     1.5e+03  4\n"
         "  engine-a gjk.distance fails on: distance 2;\n\n20 lines, 2 failing\n";
    std::ofstream b(dir / "b-step.txt");
    b << "engine                          op                      cases   pass   fail skipped  reject   worst eps  "
         "worst line\n"
         "engine-<b>                      step.pair                   5      0      0       5       0           0  0\n";
    std::ofstream ignored(dir / "notes.md");
    ignored << "engine-c mass.polygon 1 1 0 0 0 0 1\n";
  }
  const auto rows = read_engine_summaries(dir);
  REQUIRE(rows.size() == 2);
  const std::string html = engine_matrix_html(rows);
  INFO(html);
  CHECK(count(html, "<th>gjk.distance</th>") == 1);
  CHECK(count(html, "<th>step.pair</th>") == 1);
  CHECK(cell(html, "engine-a", "gjk.distance").find(">7 / 2 / 1<") != std::string::npos);
  CHECK(cell(html, "engine-a", "gjk.distance").find("worst 1.5e+03 eps") != std::string::npos);
  CHECK(cell(html, "engine-a", "gjk.distance").find("class=\"somefail\"") != std::string::npos);
  CHECK(cell(html, "engine-a", "step.pair").find("class=\"absent\"") != std::string::npos);
  // The name is escaped; a cell with every case skipped says nothing was judged.
  CHECK(cell(html, "engine-&lt;b&gt;", "step.pair").find(">0 / 0 / 5<") != std::string::npos);
  CHECK(cell(html, "engine-&lt;b&gt;", "step.pair").find("no case judged") != std::string::npos);
  CHECK(html.find("engine-c") == std::string::npos);
  fs::remove_all(dir);
}
