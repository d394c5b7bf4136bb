// The engine x op matrix of the report (tools/report/engine_matrix.hpp):
// the committed summaries in data/validation/results/, read here with a
// plain whitespace split (not the report's parser), each (engine, op) must
// have its cell with its counts; a summary of a new engine and a new op
// must show up without a code change; and a user's own summaries
// (rigidref report --engine-results) join the committed ones.
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

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace engine_matrix_test {

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

TEST_CASE("every committed summary file gives the matrix its rows", "[report][engines]") {
  // An engine name longer than check's column once ran into the op
  // ("rapier2d-deterministic-compat-0.20.0mass.polygon"), and its rows were
  // silently not read.
  const fs::path dir = fs::path(RIGIDREF_SOURCE_DIR) / "data" / "validation" / "results";
  std::set<std::string> with_rows;
  for (const auto& r : read_engine_summaries(dir)) with_rows.insert(r.file);
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".txt") continue;
    INFO(e.path().filename().string());
    CHECK(with_rows.count(e.path().filename().string()) == 1);
  }
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

// A user's own summaries (rigidref report --engine-results DIR) join the
// committed ones: their rows come after the committed rows, named by their
// path; a new engine gets its own row, an engine and op the committed files
// have already get a second entry in that cell. The table rows of a summary
// are read, not its "by family" and coverage lines.
TEST_CASE("a user's summaries (--engine-results) join the committed ones", "[report][engines]") {
  const fs::path committed = fs::path(RIGIDREF_SOURCE_DIR) / "data" / "validation" / "results";
  const fs::path dir = fs::temp_directory_path() / "rigidref_engine_results_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    // As `rigidref check --cases` writes it, by-family and coverage lines included.
    std::ofstream mine(dir / "mine-mass.txt");
    mine << "engine                          op                      cases   pass   fail skipped  reject   worst eps  "
            "worst line\n"
            "my-engine-0.1                   mass.polygon              762    700     60       2       0    9.44e+07  483\n"
            "  my-engine-0.1 mass.polygon fails on: inertia 60;\n\n"
            "by family:\n"
            "  my-engine-0.1                 mass.polygon        needle                        30 cases     20 pass     10 "
            "fail      0 skipped  worst 9.44e+07 eps, line 483\n\n"
            "coverage:\n"
            "  my-engine-0.1 mass.polygon: 762 answered, 760 judged, 2 skipped (0.3 %)\n"
            "  mass.polygon: 762 cases in the set, 762 answered, 0 without an answer\n\n"
            "762 lines, 60 failing\n";
    std::ofstream again(dir / "box2d-again-mass.txt");
    again << "engine                          op                      cases   pass   fail skipped  reject   worst eps  "
             "worst line\n"
             "box2d-2.4.1                     mass.polygon              762    103    331     328       0    9.44e+07  483\n";
  }
  const auto committed_rows = read_engine_summaries(committed);
  REQUIRE(committed_rows.size() >= 10);
  const auto rows = read_engine_summaries(committed, {dir});
  REQUIRE(rows.size() == committed_rows.size() + 2);
  for (std::size_t i = 0; i < committed_rows.size(); ++i) CHECK(rows[i].file == committed_rows[i].file);
  // The user's rows, files in name order, each named by its path.
  CHECK(rows[committed_rows.size()].engine == "box2d-2.4.1");
  CHECK(rows[committed_rows.size()].file == (dir / "box2d-again-mass.txt").string());
  const auto& mine = rows.back();
  CHECK(mine.engine == "my-engine-0.1");
  CHECK(mine.op == "mass.polygon");
  CHECK(mine.cases == 762);
  CHECK(mine.pass == 700);
  CHECK(mine.fail == 60);
  CHECK(mine.skipped == 2);
  CHECK(mine.worst_line == 483);
  CHECK(mine.file == (dir / "mine-mass.txt").string());

  const std::string html = engine_matrix_html(rows);
  INFO(html);
  const std::string my_cell = cell(html, "my-engine-0.1", "mass.polygon");
  CHECK(my_cell.find(">700 / 60 / 2<") != std::string::npos);
  CHECK(my_cell.find("class=\"somefail\"") != std::string::npos);
  CHECK(my_cell.find("762 cases in " + (dir / "mine-mass.txt").string()) != std::string::npos);
  CHECK(cell(html, "my-engine-0.1", "gjk.distance").find("class=\"absent\"") != std::string::npos);
  // The committed Box2D cell and the user's Box2D summary, side by side.
  const std::string box2d = cell(html, "box2d-2.4.1", "mass.polygon");
  CHECK(count(box2d, "<span class=\"counts\"") == 2);
  CHECK(box2d.find("in box2d-mass.txt") != std::string::npos);
  CHECK(box2d.find("in " + (dir / "box2d-again-mass.txt").string()) != std::string::npos);
  // Without a committed directory (an empty path), only the user's.
  CHECK(read_engine_summaries(fs::path(), {dir}).size() == 2);
  fs::remove_all(dir);
}

TEST_CASE("an --engine-results directory without summaries is an error, not an empty matrix", "[report][engines]") {
  const fs::path dir = fs::temp_directory_path() / "rigidref_engine_results_empty";
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    std::ofstream notes(dir / "notes.txt");
    notes << "my engine, run on Tuesday\n";
  }
  CHECK_THROWS_WITH(read_engine_summaries(fs::path(), {dir}), Catch::Contains("no engine summary here"));
  CHECK_THROWS_WITH(read_engine_summaries(fs::path(), {dir / "missing"}), Catch::Contains("not a directory"));
  fs::remove_all(dir);
}

}  // namespace engine_matrix_test
