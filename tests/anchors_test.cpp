// One hop from code to derivation and back: every derivation anchor
// (D-TOPIC-n) cited in reference/, tools/ or tests/ is defined in
// derivations/, and every anchor defined there is cited by code.
// An anchor is defined by `<a id="D-TOPIC-n"></a>` in a derivations/*.md file.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace anchors_test {

namespace fs = std::filesystem;

namespace {

const std::regex citation(R"(D-[A-Z]+-[0-9]+)");
const std::regex definition(R"re(<a id="(D-[A-Z]+-[0-9]+)"></a>)re");

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::set<std::string> cited_in(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    const auto ext = e.path().extension();
    if (!e.is_regular_file() || (ext != ".hpp" && ext != ".cpp" && ext != ".h")) continue;
    const std::string text = read(e.path());
    for (std::sregex_iterator it(text.begin(), text.end(), citation), end; it != end; ++it) out.insert(it->str());
  }
  return out;
}

}  // namespace

TEST_CASE("derivation anchors cited in code exist, and every anchor is cited", "[anchors]") {
  const fs::path root = RIGIDREF_SOURCE_DIR;
  std::set<std::string> defined;
  for (const auto& e : fs::directory_iterator(root / "derivations")) {
    if (e.path().extension() != ".md") continue;
    const std::string text = read(e.path());
    for (std::sregex_iterator it(text.begin(), text.end(), definition), end; it != end; ++it) {
      INFO("anchor defined twice: " << (*it)[1].str());
      CHECK(defined.insert((*it)[1].str()).second);
    }
  }
  REQUIRE(!defined.empty());
  std::set<std::string> cited;
  for (const char* dir : {"reference", "tools", "tests"}) {
    const auto c = cited_in(root / dir);
    cited.insert(c.begin(), c.end());
  }
  for (const auto& c : cited) {
    INFO("cited in code but not defined in derivations/: " << c);
    CHECK(defined.count(c) == 1);
  }
  // Definitions must be cited by the code that implements them.
  std::set<std::string> cited_by_code = cited_in(root / "reference");
  const auto tools = cited_in(root / "tools");
  cited_by_code.insert(tools.begin(), tools.end());
  for (const auto& d : defined) {
    INFO("defined in derivations/ but cited by no code in reference/ or tools/: " << d);
    CHECK(cited_by_code.count(d) == 1);
  }
}

}  // namespace anchors_test
