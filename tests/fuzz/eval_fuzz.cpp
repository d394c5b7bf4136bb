// libFuzzer target: one request line through `rigidref eval` (run_eval, the
// code the CLI runs: parse, dispatch, every op, every precision).
//
// Invariant (docs/eval-protocol.md 1.1, 1.3): a blank line gets no answer;
// any other line gets exactly one answer line, which is a JSON object with
// either "ok": true, a "precision" name and an object "result", or "ok":
// false and an "error" whose "code" is one of the protocol's codes. Anything
// else aborts (a finding). Only the input's first line is used, so a
// minimised input is a request line as a user would type it.
#include "eval/eval.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>

namespace {

[[noreturn]] void fail(const std::string& why, const std::string& line, const std::string& answer) {
  std::fprintf(stderr, "eval_fuzz: %s\n  request: %s\n  answer:  %s\n", why.c_str(), line.c_str(), answer.c_str());
  std::abort();
}

void check_answer(const std::string& line, const std::string& answer) {
  using json = nlohmann::json;
  static const std::set<std::string> codes = {"parse_error",  "unknown_op",  "invalid_input",
                                              "domain_error", "unsupported", "no_convergence"};
  static const std::set<std::string> precisions = {"float", "double", "long double", "mp50", "mp100", "exact"};
  const json a = json::parse(answer, nullptr, false);
  if (a.is_discarded() || !a.is_object()) fail("the answer is not a JSON object", line, answer);
  if (!a.contains("id")) fail("the answer has no id", line, answer);
  const auto ok = a.find("ok");
  if (ok == a.end() || !ok->is_boolean()) fail("the answer has no boolean ok", line, answer);
  if (ok->get<bool>()) {
    const auto p = a.find("precision");
    if (p == a.end() || !p->is_string() || precisions.count(p->get<std::string>()) == 0)
      fail("ok answer without a valid precision", line, answer);
    const auto r = a.find("result");
    if (r == a.end() || !r->is_object()) fail("ok answer without an object result", line, answer);
  } else {
    const auto e = a.find("error");
    if (e == a.end() || !e->is_object()) fail("error answer without an error object", line, answer);
    const auto code = e->find("code");
    if (code == e->end() || !code->is_string() || codes.count(code->get<std::string>()) == 0)
      fail("error code not in the protocol's list", line, answer);
    const auto message = e->find("message");
    if (message == e->end() || !message->is_string()) fail("error without a message", line, answer);
    if (code->get<std::string>() == "invalid_input" && message->get<std::string>().rfind("internal error", 0) == 0)
      fail("internal error (an exception the protocol does not map)", line, answer);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string line(reinterpret_cast<const char*>(data), size);
  if (const auto nl = line.find('\n'); nl != std::string::npos) line.resize(nl);
  std::istringstream in(line + "\n");
  std::ostringstream out;
  if (rigidref::tools::run_eval(in, out) != 0) fail("run_eval returned non-zero", line, out.str());
  const std::string answers = out.str();
  std::string trimmed = line;
  if (!trimmed.empty() && trimmed.back() == '\r') trimmed.pop_back();
  const bool blank = trimmed.find_first_not_of(" \t\r\n\f\v") == std::string::npos;
  if (blank) {
    if (!answers.empty()) fail("a blank line got an answer", line, answers);
    return 0;
  }
  if (answers.empty() || answers.back() != '\n' || answers.find('\n') != answers.size() - 1)
    fail("not exactly one answer line", line, answers);
  check_answer(line, answers.substr(0, answers.size() - 1));
  return 0;
}
