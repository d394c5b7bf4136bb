// A main for the fuzz targets without libFuzzer: replays inputs through
// LLVMFuzzerTestOneInput, so the corpus and the regressions run as a ctest
// with the project's own compiler (and under the sanitizers in
// build-sanitize, tools/test.sh --sanitize), where clang's libFuzzer is not
// available. Arguments:
//   DIR              every file in it (sorted) is one input (the regressions)
//   FILE.jsonl       every line is one input (data/validation/*.jsonl)
//   FILE.json        its "request" object as one line (data/counterexamples)
//   --precisions=N   also replay every N-th JSON-object line once per
//                    precision name (every precision reaches every op)
// Exits 0 when every input passed (a failing input aborts in the target).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::size_t replayed = 0;

void run(const std::string& input) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  ++replayed;
}

std::string read_all(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

void run_with_precisions(const std::string& line) {
  using json = nlohmann::json;
  json request = json::parse(line, nullptr, false);
  if (request.is_discarded() || !request.is_object()) return;
  for (const char* p : {"float", "double", "long double", "mp50", "mp100", "exact"}) {
    request["precision"] = p;
    run(request.dump());
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t every = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--precisions=", 0) == 0) {
      every = std::stoul(arg.substr(13));
      continue;
    }
    const std::filesystem::path path(arg);
    if (std::filesystem::is_directory(path)) {
      std::vector<std::filesystem::path> files;
      for (const auto& e : std::filesystem::directory_iterator(path))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const auto& f : files) run(read_all(f));
    } else if (path.extension() == ".jsonl") {
      std::ifstream f(path, std::ios::binary);
      std::string line;
      std::size_t n = 0;
      while (std::getline(f, line)) {
        run(line);
        if (every != 0 && n++ % every == 0) run_with_precisions(line);
      }
    } else if (path.extension() == ".json") {
      const nlohmann::json doc = nlohmann::json::parse(read_all(path), nullptr, false);
      if (!doc.is_discarded() && doc.is_object() && doc.contains("request")) run(doc["request"].dump());
      else run(read_all(path));
    } else if (std::filesystem::is_regular_file(path)) {
      run(read_all(path));
    } else {
      std::fprintf(stderr, "replay: no such input %s\n", arg.c_str());
      return 2;
    }
  }
  std::printf("replayed %zu inputs, all passed\n", replayed);
  return 0;
}
