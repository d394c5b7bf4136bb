// Running the built `rigidref` binary (RIGIDREF_BINARY) from a test: feed
// it request lines on standard input, collect the answer lines, parse them
// and check them against docs/eval-protocol.md. Shared by the eval
// tests (eval_protocol_test.cpp, eval_matrix_test.cpp).
#pragma once

#include "support/matchers.hpp"

#include "rigidref/convert.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/verify/accuracy.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace rigidref::testing::eval_pipe {

using json = nlohmann::json;

// ---- running the binary -------------------------------------------------------

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline std::filesystem::path temp_path(const std::string& tag) {
  static int counter = 0;
  return std::filesystem::temp_directory_path() /
         ("rigidref_eval_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" + tag);
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

struct cli_run {
  int status;
  std::string out;
  std::string err;
};

// Runs `rigidref <args>` with `input` on standard input.
inline cli_run run_cli(const std::string& args, const std::string& input) {
  const auto in = temp_path("in"), out = temp_path("out"), err = temp_path("err");
  {
    std::ofstream f(in, std::ios::binary);
    f << input;
  }
  const std::string command = shell_quote(RIGIDREF_BINARY) + " " + args + " < " + shell_quote(in.string()) + " > " +
                              shell_quote(out.string()) + " 2> " + shell_quote(err.string());
  const int raw = std::system(command.c_str());
  cli_run r{WIFEXITED(raw) ? WEXITSTATUS(raw) : -1, read_file(out), read_file(err)};
  std::filesystem::remove(in);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

inline std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    REQUIRE(end != std::string::npos);  // every answer line ends with '\n'
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// Raw answer lines for `input`; the run must succeed.
inline std::vector<std::string> eval_raw(const std::string& input) {
  const cli_run r = run_cli("eval", input);
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
  return split_lines(r.out);
}

// One request per line; exactly one parsed answer per request.
inline std::vector<json> eval(const std::vector<std::string>& requests) {
  std::string input;
  for (const std::string& r : requests) input += r + "\n";
  const std::vector<std::string> lines = eval_raw(input);
  REQUIRE(lines.size() == requests.size());
  std::vector<json> answers;
  for (const std::string& line : lines) {
    INFO("answer line: " << line);
    REQUIRE_NOTHROW(answers.push_back(json::parse(line)));
    REQUIRE(answers.back().is_object());
  }
  return answers;
}

inline json eval1(const std::string& request) { return eval({request}).at(0); }

// `base` (a JSON object) with "precision" set.
inline std::string with_precision(const std::string& base, const std::string& precision) {
  json r = json::parse(base);
  r["precision"] = precision;
  return r.dump();
}

inline void require_ok(const json& answer, const std::string& precision) {
  INFO("answer: " << answer.dump());
  REQUIRE(answer.at("ok") == true);
  REQUIRE(answer.at("precision") == precision);
  REQUIRE(answer.at("result").is_object());
  REQUIRE_FALSE(answer.contains("error"));
}

inline void require_error(const json& answer, const std::string& code,
                          std::initializer_list<std::string> words = {}) {
  INFO("answer: " << answer.dump());
  REQUIRE(answer.at("ok") == false);
  REQUIRE(answer.contains("id"));
  REQUIRE_FALSE(answer.contains("result"));
  REQUIRE(answer.at("error").at("code") == code);
  const std::string message = answer.at("error").at("message").get<std::string>();
  CHECK_FALSE(message.empty());
  for (const std::string& w : words) CHECK(message.find(w) != std::string::npos);
}

// A table of malformed requests, each with id 1: every answer is the error
// `code` with id 1 and a message containing each of `words`.
struct error_case {
  std::string request;
  std::string code;
  std::vector<std::string> words;
};

inline void check_error_cases(const std::vector<error_case>& cases) {
  std::vector<std::string> requests;
  for (const error_case& c : cases) requests.push_back(c.request);
  const std::vector<json> a = eval(requests);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    INFO("request: " << cases[i].request);
    require_error(a[i], cases[i].code, {});
    CHECK(a[i]["id"] == 1);
    const std::string message = a[i]["error"]["message"].get<std::string>();
    for (const std::string& w : cases[i].words) {
      INFO("message: " << message << "; expected to contain: " << w);
      CHECK(message.find(w) != std::string::npos);
    }
  }
}

// ---- reading results back -------------------------------------------------------

// The value of a result real in T: a JSON number for float/double (the float
// is the one nearest the printed double), a string for every other type.
template <class T>
T read_real(const json& v) {
  INFO("value: " << v.dump());
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    REQUIRE(v.is_number());  // integral values print as integers ("2")
    return static_cast<T>(v.get<double>());
  } else {
    REQUIRE(v.is_string());
    return rigidref::from_string<T>(v.get<std::string>());
  }
}

// Within `ulps` of the correctly rounded `truth` (exact: equal, as text too).
template <class T>
void check_real(const json& v, const exact& truth, double ulps = 1) {
  const T x = read_real<T>(v);
  CHECK_THAT(x, WithinUlpsOfExact<T>(truth, ulps));
  if constexpr (rigidref::is_exact_v<T>) CHECK(v.get<std::string>() == rigidref::to_string(truth));
}

}  // namespace rigidref::testing::eval_pipe
