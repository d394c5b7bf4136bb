// The command-line conventions of `rigidref`, through the built binary
// (RIGIDREF_BINARY): --version, unknown and missing subcommands, --help,
// eval's FILE argument, short numbers in error messages and parse errors
// that name the input line. The message helpers (rigidref/error_text.hpp,
// tools/protocol/json_error.hpp) are also tested directly, for check.
#include "support/eval_pipe.hpp"

#include "protocol/json_error.hpp"

#include "rigidref/convert.hpp"
#include "rigidref/error_text.hpp"
#include "rigidref/scalar.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#ifndef RIGIDREF_PROJECT_VERSION
#error "RIGIDREF_PROJECT_VERSION (the project's VERSION) is set by tests/CMakeLists.txt"
#endif

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace cli_test {

namespace {

using json = nlohmann::json;
using namespace rigidref::testing::eval_pipe;

// The subcommands in the order of --help (the task that introduced this
// test fixed it: report first, the main job).
#ifdef RIGIDREF_CLI_EVAL_CHECK_ONLY
const std::vector<std::string> subcommands = {"eval", "check", "version"};
#else
const std::vector<std::string> subcommands = {"report", "eval", "check", "cases", "campaign", "scene", "hunt", "version"};
#endif

std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
  return list;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

// The longest run of decimal digits in `s`.
std::size_t longest_digit_run(const std::string& s) {
  std::size_t best = 0, run = 0;
  for (char c : s) {
    run = (c >= '0' && c <= '9') ? run + 1 : 0;
    best = std::max(best, run);
  }
  return best;
}

// Parses `text` (a std::string: a char array would be read with its NUL).
void parse_only(const std::string& text) {
  const json ignored = json::parse(text);
  (void)ignored;
}

// The column nlohmann reports for `text` (its "at line 1, column C").
std::size_t nlohmann_column(const std::string& text) {
  try {
    parse_only(text);
  } catch (const json::parse_error& e) {
    std::smatch m;
    const std::string what = e.what();
    REQUIRE(std::regex_search(what, m, std::regex("at line 1, column ([0-9]+)")));
    return std::stoul(m[1]);
  }
  FAIL("expected a parse error for " << text);
  return 0;
}

std::string repeat(char c, std::size_t n) { return std::string(n, c); }

}  // namespace

// ---- 1. the version ---------------------------------------------------------------

TEST_CASE("rigidref --version and rigidref version print the project version", "[cli]") {
  for (const char* args : {"--version", "version"}) {
    INFO("rigidref " << args);
    const cli_run r = run_cli(args, "");
    CHECK(r.status == 0);
    CHECK(r.out == std::string("rigidref ") + RIGIDREF_PROJECT_VERSION + "\n");
    CHECK(std::regex_match(r.out, std::regex("rigidref [0-9]+\\.[0-9]+\\.[0-9]+\n")));
    CHECK(r.err.empty());
  }
}

// ---- 2. unknown and missing subcommands -------------------------------------------

TEST_CASE("an unknown subcommand is named with the list of subcommands, exit 2", "[cli]") {
  for (const char* args : {"frobnicate", "frobnicate --help", "--version-typo frobnicate"}) {
    INFO("rigidref " << args);
    const cli_run r = run_cli(args, "");
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    if (std::string(args) != "--version-typo frobnicate")  // CLI11 may name the bad flag first
      CHECK(first_line(r.err) == "rigidref: unknown subcommand \"frobnicate\"; the subcommands are: " +
                                     joined(subcommands));
  }
  // A long word is quoted short.
  const cli_run r = run_cli(repeat('x', 300), "");
  CHECK(r.status == 2);
  CHECK(r.err.size() < 300);
  CHECK(r.err.find("\"" + repeat('x', 24) + "...\" (300 characters)") != std::string::npos);
}

TEST_CASE("no subcommand: a usage line pointing to --help, exit 2", "[cli]") {
  const cli_run r = run_cli("", "");
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(starts_with(r.err, "usage: rigidref SUBCOMMAND"));
  CHECK(r.err.find("rigidref --help") != std::string::npos);
  CHECK(r.err.find(joined(subcommands)) != std::string::npos);
}

// ---- 6. --help --------------------------------------------------------------------

TEST_CASE("rigidref --help lists every subcommand with a one-line summary", "[cli]") {
  const cli_run r = run_cli("--help", "");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("Usage: rigidref [OPTIONS] SUBCOMMAND") != std::string::npos);
  CHECK(r.out.find("--version") != std::string::npos);
  const std::size_t section = r.out.find("\nSubcommands:\n");
  REQUIRE(section != std::string::npos);
  std::vector<std::string> listed;
  std::vector<std::string> summaries;
  std::size_t at = section + std::string("\nSubcommands:\n").size();
  while (at < r.out.size() && r.out[at] != '\n') {
    const std::size_t end = r.out.find('\n', at);
    const std::string line = r.out.substr(at, end - at);
    INFO("line: " << line);
    // "  name   summary": every line names a subcommand (no continuation lines).
    std::smatch m;
    REQUIRE(std::regex_match(line, m, std::regex("  ([a-z]+) +(\\S.*)")));
    listed.push_back(m[1]);
    summaries.push_back(m[2]);
    at = end + 1;
  }
  CHECK(listed == subcommands);

  for (std::size_t i = 0; i < listed.size(); ++i) {
    INFO("rigidref " << listed[i] << " --help");
    const cli_run sub = run_cli(listed[i] + " --help", "");
    CHECK(sub.status == 0);
    // The summary is the first line of the subcommand's own help, which
    // explains more (all but version) and shows its usage.
    CHECK(first_line(sub.out) == summaries[i]);
    CHECK(sub.out.find("Usage: rigidref " + listed[i]) != std::string::npos);
    if (listed[i] != "version") CHECK(sub.out.find('\n') < sub.out.find("Usage:") - 1);
  }
}

TEST_CASE("rigidref eval --help explains FILE, the exit status and the ops", "[cli]") {
  const cli_run r = run_cli("eval --help", "");
  REQUIRE(r.status == 0);
  for (const char* words : {"Usage: rigidref eval [OPTIONS] [FILE]", "standard input when FILE is absent or \"-\"",
                            "FILE TEXT", "Exit status 0", "2 on bad usage or a FILE", "parse_error",
                            "input line and column", "mass.polygon"}) {
    INFO("expected: " << words);
    CHECK(r.out.find(words) != std::string::npos);
  }
}

// ---- 3. eval FILE -------------------------------------------------------------------

TEST_CASE("rigidref eval reads FILE, or standard input when it is absent or -", "[cli]") {
  const std::string requests =
      R"({"id":1,"op":"mass.circle","radius":1,"mass":2})"
      "\n"
      R"({"id":2,"op":"mass.rectangle","width":2,"height":1,"mass":12})"
      "\n";
  const auto file = temp_path("requests.jsonl");
  {
    std::ofstream f(file, std::ios::binary);
    f << requests;
  }
  // Standard input holds something else: the FILE must be what is read.
  const cli_run from_file = run_cli("eval " + shell_quote(file.string()), "{not a request}\n");
  const cli_run from_dash = run_cli("eval -", requests);
  const cli_run from_stdin = run_cli("eval", requests);
  std::filesystem::remove(file);
  for (const cli_run* r : {&from_file, &from_dash, &from_stdin}) {
    INFO("stderr: " << r->err);
    CHECK(r->status == 0);
    const std::vector<std::string> lines = split_lines(r->out);
    REQUIRE(lines.size() == 2);
    const json a = json::parse(lines[0]), b = json::parse(lines[1]);
    CHECK(a["id"] == 1);
    CHECK(a["ok"] == true);
    CHECK(a["result"]["inertia"] == 1);  // m r^2 / 2
    CHECK(b["id"] == 2);
    CHECK(b["result"]["inertia"] == 5);  // m (w^2 + h^2) / 12
  }
  CHECK(from_file.out == from_stdin.out);
  CHECK(from_dash.out == from_stdin.out);
}

TEST_CASE("rigidref eval with a FILE it cannot read is a usage error naming it, exit 2", "[cli]") {
  const std::string missing = (std::filesystem::temp_directory_path() / "rigidref-no-such-dir/requests.jsonl").string();
  cli_run r = run_cli("eval " + shell_quote(missing), "");
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "rigidref eval: cannot read \"" + missing + "\": No such file or directory\n");

  const auto dir = temp_path("dir");
  std::filesystem::create_directory(dir);
  r = run_cli("eval " + shell_quote(dir.string()), "");
  std::filesystem::remove(dir);
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err == "rigidref eval: cannot read \"" + dir.string() + "\": it is a directory\n");

  r = run_cli("eval a.jsonl b.jsonl", "");  // one FILE at most
  CHECK(r.status == 2);
  CHECK(r.out.empty());
}

// ---- 4. numbers in error messages ------------------------------------------------------

TEST_CASE("error messages quote long numbers short, never hundreds of digits", "[cli][eval]") {
  const std::string zeros300 = repeat('0', 300), ones300 = repeat('1', 300);
  const std::string big_integer = "1" + repeat('0', 400);  // 401 digits: beyond a double
  const std::string head = "1" + repeat('0', 23);          // its first 24 characters
  struct expectation {
    std::string request;
    std::string words;  // the message must contain these
  };
  const std::vector<expectation> cases = {
      // A JSON number that overflows a double (eval's overflow marker).
      {R"({"id":1,"op":"mass.circle","radius":)" + big_integer + R"(,"mass":1})",
       "radius: the JSON number " + head + "... (401 characters) is not finite as a double"},
      {R"({"id":1,"op":"mass.circle","radius":-)" + big_integer + R"(,"mass":1,"precision":"mp100"})",
       "radius: the JSON number -" + repeat('1', 1) + repeat('0', 22) + "... (402 characters)"},
      {R"({"id":1,"op":"mass.regular_polygon","sides":)" + big_integer + R"(,"radius":1,"mass":1})",
       "sides: expected an integer from 3 to 1000000, got " + head + "... (401 characters)"},
      {R"({"id":1,"op":"mass.polygon","vertices":[[0,0],[1,0],[)" + big_integer + R"(,1,2]]})",
       "vertices[2]: expected an [x, y] pair (a list of 2 numbers), got [" + head + "... (401 characters),1,2]"},
      // A decimal string that overflows the precision.
      {R"({"id":1,"op":"mass.circle","radius":")" + big_integer + R"(","mass":1})",
       "radius: \"" + head + "...\" (401 characters) overflows double (use a wider precision)"},
      {R"({"id":1,"op":"mass.circle","radius":"1e400","mass":1,"precision":"float"})",
       "radius: \"1e400\" overflows float"},
      {R"({"id":1,"op":"mass.circle","radius":1e40,"mass":1,"precision":"float"})", "radius: 1e+40 overflows float"},
      // rigidref::parse_exact's messages.
      {R"({"id":1,"op":"mass.circle","radius":")" + repeat('1', 700) + R"(x","mass":1,"precision":"mp50"})",
       "radius: malformed number \"" + repeat('1', 24) + "...\" (701 characters)"},
      {R"({"id":1,"op":"mass.circle","radius":"1)" + zeros300 + R"(e99999","mass":1,"precision":"mp50"})",
       "radius: number \"" + head + "...\" (307 characters) is out of the supported range"},
      {R"({"id":1,"op":"mass.circle","radius":"1)" + zeros300 + R"(e1234567","mass":1,"precision":"mp50"})",
       "radius: exponent out of range in \"" + head + "...\" (309 characters)"},
      {R"({"id":1,"op":"mass.circle","radius":")" + ones300 + R"(e+","mass":1,"precision":"mp50"})",
       "radius: malformed exponent in number \"" + repeat('1', 24) + "...\" (302 characters)"},
      {R"({"id":1,"op":"mass.circle","radius":")" + ones300 + R"(/3","mass":1})",
       "radius: fraction \"" + repeat('1', 24) + "...\" (302 characters) is only accepted with precision \"exact\""},
      {R"({"id":1,"op":"mass.circle","radius":")" + ones300 + R"(/x","mass":1,"precision":"exact"})",
       "radius: malformed fraction \"" + repeat('1', 24) + "...\" (302 characters) (expected integers p/q)"},
      {R"({"id":1,"op":"mass.circle","radius":")" + ones300 + R"(/0","mass":1,"precision":"exact"})",
       "radius: fraction \"" + repeat('1', 24) + "...\" (302 characters) has a zero denominator"},
      // A long exact |n|^2 - 1 (|n|^2 was printed as a fraction of ~1200 digits):
      // (0.6)^2 + (0.8 + 1e-302)^2 - 1 = 1.6e-302 + 1e-604.
      {R"({"id":1,"op":"impulse.wall","model":"coupled","precision":"exact","mass":1,"inertia":1,)"
       R"("velocity":[0,-1],"angular_velocity":0,"r":[0,0],"normal":["0.6","0.8)" + zeros300 +
           R"(1"],"restitution":"0.5","friction":"0"})",
       "normal must be a unit vector (|n|^2 - 1 = about 1.600000e-302, must be exactly 0 in exact)"},
  };
  std::vector<std::string> requests;
  for (const expectation& c : cases) requests.push_back(c.request);
  const std::vector<json> answers = eval(requests);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("request: " << cases[i].request.substr(0, 120));
    require_error(answers[i], "invalid_input");
    const std::string message = answers[i]["error"]["message"].get<std::string>();
    INFO("message: " << message);
    CHECK(message.find(cases[i].words) != std::string::npos);
    CHECK(longest_digit_run(message) <= rigidref::excerpt_chars);
    CHECK(message.size() < 250);
  }
}

TEST_CASE("a parse error quotes where nlohmann stopped short", "[cli][eval]") {
  // The token nlohmann was reading is quoted from its end: where it stopped.
  const std::string long_number = repeat('1', 400) + "e";
  const std::vector<std::string> lines = {
      R"({"id":1,"op":"mass.circle","radius":)" + long_number + R"(,"mass":1})",
      R"({"id":1,"op":")" + repeat('x', 500),  // unterminated string
  };
  const std::vector<json> answers = eval(lines);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    require_error(answers[i], "parse_error");
    const std::string message = answers[i]["error"]["message"].get<std::string>();
    INFO("message: " << message);
    CHECK(message.size() < 250);
    CHECK(longest_digit_run(message) <= rigidref::excerpt_chars);
    CHECK(starts_with(message, "input line " + std::to_string(i + 1) + ", column " +
                                   std::to_string(nlohmann_column(lines[i])) + ": syntax error while parsing"));
  }
  const std::string m0 = answers[0]["error"]["message"].get<std::string>();
  CHECK(m0.find("last read: '..." + repeat('1', 22) + "e,' (402 characters)") != std::string::npos);
  const std::string m1 = answers[1]["error"]["message"].get<std::string>();
  CHECK(m1.find("last read: '..." + repeat('x', 24) + "' (501 characters)") != std::string::npos);
}

// ---- 5. parse errors name the input line -----------------------------------------

TEST_CASE("eval's parse errors name the input line, not nlohmann's line 1", "[cli][eval]") {
  const std::string overflow_then_syntax = R"({"id":1,"op":"mass.circle","radius":1e400,"mass":})";
  const std::string same_length_valid_number = R"({"id":1,"op":"mass.circle","radius":10000,"mass":})";
  const std::string input = std::string(R"({"id":1,"op":"mass.circle","radius":1,"mass":2})") + "\n" +  // 1
                            "\n" +                                                                     // 2: blank
                            "{\"a\n" +                                                                 // 3
                            R"({"id":2,"op":"mass.circle","radius":1,"mass":2})" + "\r\n" +            // 4: CRLF
                            "[1,2]\n" +                                                                // 5
                            repeat('[', 300) + repeat(']', 300) + "\n" +                               // 6
                            overflow_then_syntax + "\n" +                                              // 7
                            // 8-10: an overflow, and then not JSON all the same
                            R"({"id":1,"op":"mass.circle","radius":1e400,"mass":1,"b":{1e400:2}})" + "\n" +
                            R"({"id":1,"op":"mass.circle","radius":1e400e5,"mass":1})" + "\n" +
                            R"({"id":1,"op":"mass.circle","radius":1e400,"mass":01})" + "\n" +
                            "   \n" +                                                                   // 11: blank
                            "{\"id\":3 \"op\"}\n";                                                       // 12
  const cli_run r = run_cli("eval", input);
  REQUIRE(r.status == 0);
  const std::vector<std::string> lines = split_lines(r.out);
  REQUIRE(lines.size() == 10);  // 12 lines, 2 blank
  std::vector<json> a;
  for (const std::string& l : lines) a.push_back(json::parse(l));

  CHECK(a[0]["ok"] == true);
  CHECK(a[2]["ok"] == true);
  CHECK(a[2]["id"] == 2);
  const auto message = [&](std::size_t i) {
    require_error(a[i], "parse_error");
    CHECK(a[i]["id"].is_null());
    return a[i]["error"]["message"].get<std::string>();
  };
  const std::string m3 = message(1);
  INFO("line 3: " << m3);
  CHECK(starts_with(m3, "input line 3, column " + std::to_string(nlohmann_column("{\"a")) +
                            ": syntax error while parsing object key - "));
  CHECK(m3.find("last read: '\"a'") != std::string::npos);
  CHECK(m3.find("json.exception") == std::string::npos);
  CHECK(m3.find("parse error at") == std::string::npos);
  CHECK(message(3) == "input line 5: a request must be a JSON object, got array");
  CHECK(starts_with(message(4), "input line 6: JSON nested deeper than 256 levels"));
  // The column of the line as written, not of eval's re-parsed copy.
  const std::string m7 = message(5);
  INFO("line 7: " << m7);
  CHECK(starts_with(m7, "input line 7, column " + std::to_string(nlohmann_column(same_length_valid_number)) +
                            ": syntax error while parsing value - unexpected '}'"));
  CHECK(starts_with(message(6), "input line 8, column "));
  CHECK(starts_with(message(7), "input line 9, column "));
  CHECK(starts_with(message(8), "input line 10, column "));
  CHECK(starts_with(message(9), "input line 12, column " + std::to_string(nlohmann_column("{\"id\":3 \"op\"}"))));
}

TEST_CASE("an over-long request line names its input line", "[cli][eval]") {
  const std::string input = "\n" + std::string(R"({"id":1,"pad":")") + repeat('x', (1 << 20) + 10) + "\"}\n";
  const std::vector<std::string> lines = eval_raw(input);
  REQUIRE(lines.size() == 1);
  const json a = json::parse(lines[0]);
  require_error(a, "invalid_input");
  CHECK(starts_with(a["error"]["message"].get<std::string>(), "input line 2: request line longer than 1048576 bytes"));
}

// ---- the helpers, directly (check uses them too) --------------------------------

TEST_CASE("excerpts keep 24 characters, never split a UTF-8 sequence, and give the length", "[cli]") {
  CHECK(rigidref::excerpt("1e400") == "1e400");
  CHECK(rigidref::excerpt(repeat('7', 24)) == repeat('7', 24));
  CHECK(rigidref::excerpt(repeat('7', 25)) == repeat('7', 24) + "... (25 characters)");
  CHECK(rigidref::quoted_excerpt("abc") == "\"abc\"");
  CHECK(rigidref::quoted_excerpt(repeat('a', 30), 4) == "\"aaaa...\" (30 characters)");
  CHECK(rigidref::quoted_tail_excerpt("abcdef", 2, '\'') == "'...ef' (6 characters)");
  std::string e_acute;  // U+00E9, two bytes in UTF-8
  for (int i = 0; i < 30; ++i) e_acute += "\xC3\xA9";
  CHECK(rigidref::char_count(e_acute) == 30);
  CHECK(rigidref::excerpt(e_acute, 3) == "\xC3\xA9\xC3\xA9\xC3\xA9... (30 characters)");
  CHECK(rigidref::quoted_tail_excerpt(e_acute, 2) == "\"...\xC3\xA9\xC3\xA9\" (30 characters)");
}

TEST_CASE("brief_text shows a rational exactly when short, else in 7 digits", "[cli]") {
  using rigidref::exact;
  CHECK(rigidref::brief_text(exact(1, 3)) == "1/3");
  CHECK(rigidref::brief_text(exact(-5)) == "-5");
  // 1/3 + 10^-400: its fraction has ~400 digits on each side.
  const rigidref::big_int ten = 10;
  const exact tiny = exact(1) / exact(pow(ten, 400u));
  CHECK(rigidref::brief_text(exact(exact(1, 3) + tiny)) == "about 3.333333e-01");
  CHECK(rigidref::brief_text(exact(-tiny)) == "about -1.000000e-400");
  CHECK_THROWS_WITH(rigidref::parse_exact(repeat('9', 500) + "x"),
                    "malformed number \"" + repeat('9', 24) + "...\" (501 characters)");
}

TEST_CASE("describe_json_error names the input line and keeps nlohmann's explanation", "[cli]") {
  using rigidref::tools::describe_json_error;
  try {
    parse_only("{\"a");
    FAIL("no parse error");
  } catch (const json::exception& e) {
    const std::string column = std::to_string(nlohmann_column("{\"a"));
    const std::string m = describe_json_error(e, 17);
    INFO(m);
    CHECK(starts_with(m, "input line 17, column " + column + ": syntax error while parsing object key - "));
    CHECK(m.find("last read: '\"a'") != std::string::npos);
    CHECK(m.find("json.exception") == std::string::npos);
    CHECK(m.find("at line") == std::string::npos);
    // From no input file: the column alone.
    CHECK(starts_with(describe_json_error(e, 0), "column " + column + ": syntax error"));
  }
  try {  // a JSON text over several lines: nlohmann's line L is input line N + L - 1
    parse_only("{\n\"a\":\n}");
    FAIL("no parse error");
  } catch (const json::exception& e) {
    CHECK(starts_with(describe_json_error(e, 10), "input line 12, column "));
  }
  try {  // a number beyond a double: nlohmann quotes it whole
    parse_only("[" + repeat('1', 400) + "]");
    FAIL("no overflow");
  } catch (const json::out_of_range& e) {
    CHECK(describe_json_error(e, 3) == "input line 3: number overflow parsing '" + repeat('1', 24) +
                                           "...' (400 characters)");
  }
}

}  // namespace cli_test
