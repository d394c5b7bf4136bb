// An engine adapter on hostile input (issue 19, item 4): the fuzz seed
// corpus of `rigidref eval` (tests/fuzz/seeds, tests/fuzz/regressions/eval),
// a sample of the committed case sets, every field of a request of each op
// replaced by a value of the wrong kind, and lines that are not requests.
// Every line must get exactly one answer line, in order, with the request's
// id, and either a result or an error with a typed code; the adapter must
// exit 0. An engine that aborts on a case is answered "crashed" (the
// adapter's isolation), which is a typed error too. Every answer to a
// request must also have the answer line's layout (issue 25,
// tests/support/answer_layout.hpp): only the allowed top-level fields, only
// the op's result fields, and the inputs unchanged, rounded to float, or
// declared in diagnostics.input_changes; a request's own "result",
// "allowances", ... never come back as the engine's.
//
//   test_adapter_corpus SOURCE_DIR ADAPTER [ADAPTER_ARGS...]
// Exit status 0 on success, 1 on a failure (each printed), 77 when the
// adapter cannot run here (a JS adapter's wrapper exits 3 without
// node_modules: bash tools/deps.sh installs them).
#include "support/answer_layout.hpp"

#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::vector<std::string> read_lines(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(line);
  return lines;
}

// Values of the wrong kind for any field, and a few right-kind extremes.
std::vector<json> wrong_values() {
  return {nullptr, "x", "nan", -1, 0, 1e308, true, json::array(), json::object(), json::parse("[[1]]"),
          json::parse("[[0,0],[0,0],[0,0]]"), json::parse("[[\"inf\",0],[1,0],[0,1]]")};
}

// Every top-level field and every field of an object-valued field, replaced
// by each wrong value.
std::vector<std::string> mutations(const json& request) {
  std::vector<std::string> out;
  for (const auto& [key, value] : request.items()) {
    if (key == "id") continue;
    for (const json& w : wrong_values()) {
      json m = request;
      m[key] = w;
      out.push_back(m.dump());
    }
    if (value.is_object())
      for (const auto& [sub, ignored] : value.items())
        for (const json& w : wrong_values()) {
          json m = request;
          m[key][sub] = w;
          out.push_back(m.dump());
        }
    json without = request;
    without.erase(key);
    out.push_back(without.dump());
  }
  return out;
}

std::vector<std::string> hostile_lines() {
  std::vector<std::string> out = {"garbage{", "[1,2]", "42", "\"text\"", "null", "{}", "{\"op\":null}",
                                  "{\"id\":{\"a\":[1]},\"op\":\"mass.polygon\"}", "{\"id\":1,\"op\":\"constructor\"}",
                                  "{\"id\":2,\"op\":\"__proto__\"}", "{\"id\":3,\"op\":\"gjk.distance\",\"a\":1e999}"};
  out.push_back("{\"id\":4,\"op\":\"mass.polygon\",\"vertices\":" + std::string(10000, '[') + std::string(10000, ']') + "}");
  for (const char* op : {"mass.polygon", "gjk.distance", "epa.penetration", "contact.manifold"}) {
    std::string big = "{\"id\":5,\"op\":\"" + std::string(op) + "\",\"vertices\":[";
    std::string poly;
    for (int i = 0; i < 100000; ++i) poly += (i ? ",[" : "[") + std::to_string(i % 7) + "," + std::to_string(i % 5) + "]";
    big += poly + "],\"a\":[" + poly + "],\"b\":[[0,0],[1,0],[0,1]]}";
    out.push_back(big);
  }
  out.push_back("{\"id\":8,\"op\":\"\xff\xfe\"}");  // not UTF-8: a parse error that quotes the bytes
  out.push_back("{\"id\":6,\"op\":\"mass.circle\",\"radius\":\"" + std::string(100000, '9') + "\",\"mass\":1}");
  out.push_back("{\"id\":7,\"op\":\"mass.polygon\",\"vertices\":[[0,0],[1,0],[0,1]],\"pad\":\"" +
                std::string((1 << 20) + 10, 'x') + "\"}");
  // A request that brings the answer line's own fields: they must not come
  // back as the engine's (forged_answer_fields, below).
  for (const char* op : {"mass.polygon", "epa.penetration", "step.pair"})
    out.push_back("{\"id\":900,\"op\":\"" + std::string(op) +
                  "\",\"vertices\":[[0,0],[1,0],[0,1]],\"a\":[[0,0],[1,0],[0,1]],\"b\":[[0.5,0],[2,0],[0.5,1]],"
                  "\"result\":{\"area\":0.5,\"forged\":1},\"error\":{\"code\":\"forged\"},"
                  "\"allowances\":{\"forged\":1e9},\"diagnostics\":\"forged\"}");
  return out;
}

std::vector<std::string> corpus(const fs::path& source) {
  std::vector<std::string> lines = read_lines(source / "tests/fuzz/seeds/eval_edges.jsonl");
  std::vector<fs::path> regressions;
  for (const auto& e : fs::directory_iterator(source / "tests/fuzz/regressions/eval"))
    if (e.path().filename() != "README.md") regressions.push_back(e.path());
  std::sort(regressions.begin(), regressions.end());
  for (const auto& r : regressions)
    for (const auto& l : read_lines(r)) lines.push_back(l);
  std::set<std::string> ops_mutated;
  for (const char* set : {"mass", "collision", "manifold", "dynamics"}) {
    const auto all = read_lines(source / "data/validation" / (std::string(set) + ".jsonl"));
    for (std::size_t i = 0; i < all.size(); i += 10) lines.push_back(all[i]);
  }
  const std::vector<std::string> sampled = lines;
  for (const auto& l : sampled) {
    const json r = json::parse(l, nullptr, false);
    if (!r.is_object() || !r.contains("op") || !r["op"].is_string()) continue;
    if (!ops_mutated.insert(r["op"].get<std::string>()).second) continue;
    for (auto& m : mutations(r)) lines.push_back(std::move(m));
  }
  for (auto& h : hostile_lines()) lines.push_back(std::move(h));
  return lines;
}

int depth(const json& j) {
  int deepest = 0;
  if (j.is_structured())
    for (const auto& e : j) deepest = std::max(deepest, depth(e));
  return j.is_structured() ? deepest + 1 : 0;
}

std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

const std::set<std::string> typed_codes = {"parse_error", "unknown_op",   "invalid_input", "domain_error",
                                           "unsupported", "no_convergence", "engine_error", "crashed"};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: test_adapter_corpus SOURCE_DIR ADAPTER [ADAPTER_ARGS...]\n";
    return 2;
  }
  const fs::path source = argv[1];
  std::string command = quote(argv[2]);
  for (int i = 3; i < argc; ++i) command += " " + quote(argv[i]);
  const std::vector<std::string> requests = corpus(source);

  char in_path[] = "/tmp/rigidref-adapter-corpus-XXXXXX";
  const int fd = mkstemp(in_path);
  if (fd < 0) return 2;
  close(fd);
  {
    std::ofstream in(in_path);
    for (const auto& r : requests) in << r << '\n';
  }
  FILE* pipe = popen((command + " < " + in_path + " 2>/dev/null").c_str(), "r");
  if (!pipe) return 2;
  std::string text;
  char buf[1 << 16];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) text.append(buf, n);
  const int status = pclose(pipe);
  std::remove(in_path);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
    std::cout << "skipped: " << argv[2] << " exited 3: its engines are not installed (bash tools/deps.sh)\n";
    return 77;
  }

  int failures = 0;
  auto fail = [&](std::size_t line, const std::string& why) {
    if (++failures <= 20)
      std::cout << "request line " << line + 1 << ": " << why << "\n    request: " << requests[line].substr(0, 200)
                << "\n";
  };
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::cout << argv[2] << " ended with " << (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                                                  : "signal " + std::to_string(WTERMSIG(status)))
              << "\n";
    ++failures;
  }
  std::vector<std::string> answers;
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l);)
    if (!l.empty()) answers.push_back(l);
  if (answers.size() != requests.size()) {
    std::cout << requests.size() << " request lines, " << answers.size() << " answer lines\n";
    ++failures;
  }
  std::size_t results = 0, errors = 0;
  for (std::size_t i = 0; i < std::min(answers.size(), requests.size()); ++i) {
    const json a = json::parse(answers[i], nullptr, false);
    if (!a.is_object()) {
      fail(i, "the answer is not a JSON object: " + answers[i].substr(0, 200));
      continue;
    }
    const bool has_result = a.contains("result"), has_error = a.contains("error");
    if (has_result == has_error) fail(i, "the answer has neither or both of result and error");
    if (has_error) {
      ++errors;
      const json& e = a["error"];
      if (!e.is_object() || !e.contains("code") || !e["code"].is_string() ||
          !typed_codes.count(e["code"].get<std::string>()))
        fail(i, "untyped error: " + e.dump().substr(0, 200));
    } else {
      ++results;
    }
    // The request's id, or null where the line is not a request within
    // eval's limits (docs/eval-protocol.md 1.4: 1 MiB, 256 levels). A line
    // nlohmann cannot read (a number beyond double) is valid JSON to node:
    // either id is right there.
    const json r = json::parse(requests[i], nullptr, false);
    if (r.is_discarded()) continue;
    const bool is_request = r.is_object() && requests[i].size() <= (1u << 20) && depth(r) <= 256;
    const json expected_id = is_request ? r.value("id", json()) : json();
    if (a.value("id", json()) != expected_id)
      fail(i, "answer id " + a.value("id", json()).dump() + ", request id " + expected_id.dump());
    if (!is_request) continue;
    for (const std::string& problem : rigidref::test::answer_layout_problems(r, a)) fail(i, problem);
    if (a.dump().find("forged") != std::string::npos) fail(i, "a field the request brought came back: " + a.dump().substr(0, 300));
  }
  std::cout << argv[2] << ": " << requests.size() << " request lines, " << results << " results, " << errors
            << " typed errors, " << failures << " failures\n";
  return failures == 0 ? 0 : 1;
}
