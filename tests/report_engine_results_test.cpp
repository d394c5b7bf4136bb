// `rigidref report --engine-results DIR` (docs/adapters.md): a user's own
// summary, written by `rigidref check ... > DIR/<engine>-<set>.txt`, shows
// up in the HTML page's engine x op matrix beside the committed ones and in
// the terminal report; a directory that holds no summary is refused (exit
// 2) before anything is measured. The summary comes from a real check run
// on answers written by hand: one right, one with four times the inertia.
#include "support/eval_pipe.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace report_engine_results_test {

using namespace rigidref::testing::eval_pipe;
namespace fs = std::filesystem;

namespace {

// The cell of `engine` and `op` in the page's matrix, to its </td>.
std::string cell(const std::string& html, const std::string& engine, const std::string& op) {
  const std::size_t at = html.find("<td data-engine=\"" + engine + "\" data-op=\"" + op + "\"");
  if (at == std::string::npos) return {};
  return html.substr(at, html.find("</td>", at) - at);
}

}  // namespace

TEST_CASE("report --engine-results puts a user's check summary in the engine matrix", "[report][engines]") {
  const fs::path work = temp_path("engine_results");
  fs::create_directories(work / "results");
  // Two cases; the engine answers the box exactly (inertia 5/6 rounded once)
  // and the triangle with four times its inertia (matter-js's mistake).
  const std::string box = R"("id":"m-0","op":"mass.polygon","vertices":[[0,0],[2,0],[2,1],[0,1]],"density":1)";
  const std::string triangle = R"("id":"m-1","op":"mass.polygon","vertices":[[0,0],[3,0],[0,3]],"density":2)";
  {
    std::ofstream cases(work / "cases.jsonl");
    cases << "{" << box << "}\n{" << triangle << "}\n";
    std::ofstream answers(work / "answers.jsonl");
    answers << "{" << box << R"(,"engine":"my-engine-0.1","precision":"double",)"
            << R"("result":{"area":2,"centroid":[1,0.5],"mass":2,"inertia":0.8333333333333334}})" << "\n"
            << "{" << triangle << R"(,"engine":"my-engine-0.1","precision":"double",)"
            << R"("result":{"area":4.5,"centroid":[1,1],"mass":9,"inertia":36}})" << "\n";
  }
  const cli_run check = run_cli("check " + shell_quote((work / "answers.jsonl").string()) + " --cases " +
                                    shell_quote((work / "cases.jsonl").string()),
                                "");
  INFO(check.out << check.err);
  REQUIRE(check.status == 1);  // the triangle fails
  {
    std::ofstream summary(work / "results" / "my-engine-mass.txt");
    summary << check.out;
  }

  const fs::path page = work / "page" / "report.html";
  const std::string report_args = "report --quick --only mass --type double --html " + shell_quote(page.string());
  const cli_run report = run_cli(report_args + " --engine-results " + shell_quote((work / "results").string()), "");
  INFO(report.out << report.err);
  REQUIRE(report.status == 0);
  // The terminal names the user's summary with its counts.
  CHECK(report.out.find("Engine summaries of --engine-results") != std::string::npos);
  CHECK(report.out.find("my-engine-0.1") != std::string::npos);
  CHECK(report.out.find("2 cases       1 pass       1 fail       0 skipped") != std::string::npos);
  const std::string html = read_file(page);
  const std::string mine = cell(html, "my-engine-0.1", "mass.polygon");
  REQUIRE_FALSE(mine.empty());
  CHECK(mine.find(">1 / 1 / 0<") != std::string::npos);
  CHECK(mine.find("class=\"somefail\"") != std::string::npos);
  CHECK(mine.find("my-engine-mass.txt") != std::string::npos);
  CHECK(cell(html, "my-engine-0.1", "gjk.distance").find("class=\"absent\"") != std::string::npos);
  // The committed engines are still there.
  CHECK_FALSE(cell(html, "box2d-2.4.1", "mass.polygon").empty());
  CHECK(html.find("--engine-results") != std::string::npos);

  // Without the option the page has no row of the user's engine; the count
  // of engines run through rigidref's adapters is the same either way.
  const cli_run plain = run_cli(report_args, "");
  REQUIRE(plain.status == 0);
  const std::string plain_html = read_file(page);
  CHECK(plain_html.find("my-engine-0.1") == std::string::npos);
  CHECK(plain.out.find("--engine-results") == std::string::npos);
  const auto adapters_count = [](const std::string& text) {
    const std::size_t at = text.find(" engine configurations answer the committed case sets");
    REQUIRE(at != std::string::npos);
    return text.substr(text.rfind('>', at) + 1, at - text.rfind('>', at) - 1);
  };
  CHECK(adapters_count(html) == adapters_count(plain_html));

  // A directory without a summary, or none at all: usage errors, said at once.
  fs::create_directories(work / "empty");
  const cli_run empty = run_cli("report --engine-results " + shell_quote((work / "empty").string()), "");
  CHECK(empty.status == 2);
  CHECK(empty.err.find("no engine summary here") != std::string::npos);
  CHECK(empty.out.empty());
  const cli_run missing = run_cli("report --engine-results " + shell_quote((work / "missing").string()), "");
  CHECK(missing.status == 2);
  fs::remove_all(work);
}

}  // namespace report_engine_results_test
