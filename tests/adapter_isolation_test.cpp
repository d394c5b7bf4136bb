// run_adapter's isolation modes (protocol/adapter_io.hpp) on an engine that
// answers, aborts, hangs, exits and keeps state: in per_case and worker an
// abort or a hang costs its own case only, answered "crashed" with how, and
// every other line is answered in order; worker keeps the engine's state
// from case to case until a crash, per_case never; none runs the engine in
// the adapter's own process. The adapter runs in this process on string
// streams, its children forked from here.
#include <rigidref/protocol/adapter_io.hpp>

#include <catch2/catch.hpp>

#include <csignal>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace adapter_isolation_test {

namespace {

using rigidref::protocol::isolation;
using rigidref::protocol::ojson;
using rigidref::protocol::op_handler;

int calls = 0;  // the engine's own state: how many cases this process answered

const std::map<std::string, op_handler>& engine() {
  static const std::map<std::string, op_handler> ops = {
      {"count", [](ojson& line) { line["result"] = {{"calls", ++calls}}; }},
      // Catch2 reports SIGABRT itself; the default action is what an engine's abort meets.
      {"abort",
       [](ojson&) {
         std::signal(SIGABRT, SIG_DFL);
         std::abort();
       }},
      {"hang",
       [](ojson&) {
         for (;;) pause();
       }},
      {"exit", [](ojson&) { std::_Exit(0); }},
  };
  return ops;
}

std::vector<ojson> run(isolation mode, const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& l : lines) text += l + "\n";
  std::istringstream in(text);
  std::ostringstream out;
  REQUIRE(rigidref::protocol::run_adapter("test-engine", "double", engine(), mode, 1, in, out) == 0);
  std::vector<ojson> answers;
  std::istringstream answer_lines(out.str());
  for (std::string l; std::getline(answer_lines, l);) answers.push_back(ojson::parse(l));
  return answers;
}

std::string request(int id, const char* op) { return "{\"id\":" + std::to_string(id) + ",\"op\":\"" + op + "\"}"; }

std::string error_message(const ojson& answer) {
  return answer.contains("error") ? answer["error"]["message"].get<std::string>() : "";
}

}  // namespace

TEST_CASE("adapter isolation: an abort, a hang and an exit cost their own case only", "[adapter_io]") {
  for (const isolation mode : {isolation::per_case, isolation::worker}) {
    INFO("mode " << static_cast<int>(mode));
    const std::vector<ojson> answers =
        run(mode, {request(1, "count"), request(2, "abort"), request(3, "count"), "not json", request(4, "hang"),
                   request(5, "count"), request(6, "exit"), request(7, "nothing"), request(8, "count")});
    REQUIRE(answers.size() == 9);
    const std::vector<ojson> ids = {1, 2, 3, nullptr, 4, 5, 6, 7, 8};
    for (std::size_t i = 0; i < answers.size(); ++i) {
      INFO(answers[i].dump());
      CHECK(answers[i]["id"] == ids[i]);
      CHECK(answers[i]["engine"] == "test-engine");
      CHECK(answers[i].contains("result") != answers[i].contains("error"));
    }
    for (const std::size_t i : {0, 2, 5, 8}) CHECK(answers[i]["result"].contains("calls"));
    CHECK(answers[1]["error"]["code"] == "crashed");
    CHECK(error_message(answers[1]) == "the engine aborted on this case (signal " + std::to_string(SIGABRT) + ")");
    CHECK(answers[3]["error"]["code"] == "parse_error");
    CHECK(answers[4]["error"]["code"] == "crashed");
    CHECK(error_message(answers[4]) == "the engine aborted on this case (no answer within 1 s)");
    CHECK(answers[6]["error"]["code"] == "crashed");
    CHECK(error_message(answers[6]) == "the engine aborted on this case (exit status 0)");
    CHECK(answers[7]["error"]["code"] == "unsupported");
  }
}

TEST_CASE("adapter isolation: worker keeps the engine's state until a crash, per_case never", "[adapter_io]") {
  const std::vector<std::string> lines = {request(1, "count"), request(2, "count"), request(3, "count"),
                                          request(4, "abort"), request(5, "count"), request(6, "count")};
  const auto counts = [](const std::vector<ojson>& answers) {
    std::vector<int> out;
    for (const ojson& a : answers) out.push_back(a.contains("result") ? a["result"]["calls"].get<int>() : 0);
    return out;
  };
  calls = 0;
  // Every child starts from this process's state (0 calls) and answers one case.
  CHECK(counts(run(isolation::per_case, lines)) == std::vector<int>{1, 1, 1, 0, 1, 1});
  // One child answers cases 1-3; after the abort a fresh one answers 5 and 6.
  CHECK(counts(run(isolation::worker, lines)) == std::vector<int>{1, 2, 3, 0, 1, 2});
  CHECK(calls == 0);  // no case ran in this process
  // none: the cases run here (not the abort, which would end this test).
  const std::vector<std::string> no_abort = {request(1, "count"), request(2, "count")};
  CHECK(counts(run(isolation::none, no_abort)) == std::vector<int>{1, 2});
  CHECK(calls == 2);
}

TEST_CASE("adapter isolation: worker leaves SIGPIPE as it found it", "[adapter_io]") {
  const auto old = std::signal(SIGPIPE, SIG_DFL);
  run(isolation::worker, {request(1, "abort"), request(2, "count")});
  CHECK(std::signal(SIGPIPE, old) == SIG_DFL);
}

}  // namespace adapter_isolation_test
