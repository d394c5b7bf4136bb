// Every line of code in the public headers lies in a floating-point region:
// between #include "rigidref/detail/fp_begin.hpp" and
// #include "rigidref/detail/fp_end.hpp", which compile it with FMA contraction
// off whatever the user's flags (derivations/double_word.md, D-EFT-7).
// The headers are found by walking reference/include/rigidref/, so a new
// header is checked as soon as it exists. Within a header:
//   - the #includes of other headers stand outside every region (the
//     regions never nest, and no other library's code is compiled in one);
//   - every other line that is not blank, a comment or a preprocessor line
//     stands inside one, and every region is closed.
// The tests of tests/consumer/ (install_consumer) show what the regions do.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace fp_region_test {

namespace fs = std::filesystem;

namespace {

const std::string begin_line = "#include \"rigidref/detail/fp_begin.hpp\"";
const std::string end_line = "#include \"rigidref/detail/fp_end.hpp\"";

std::string trimmed(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

// The problems of one header, "line N: what", empty when it is right.
std::vector<std::string> region_problems(const fs::path& header, int& regions) {
  std::vector<std::string> problems;
  std::ifstream in(header);
  std::string raw;
  bool inside = false, block_comment = false, continued = false;
  int n = 0;
  regions = 0;
  while (std::getline(in, raw)) {
    ++n;
    const std::string line = trimmed(raw);
    const std::string at = "line " + std::to_string(n) + ": ";
    if (block_comment) {
      block_comment = line.find("*/") == std::string::npos;
      continue;
    }
    if (continued) {  // a preprocessor line's continuation
      continued = !line.empty() && line.back() == '\\';
      continue;
    }
    if (line.empty() || line.rfind("//", 0) == 0) continue;
    if (line.rfind("/*", 0) == 0) {
      block_comment = line.find("*/", 2) == std::string::npos;
      continue;
    }
    if (line[0] == '#') {
      continued = line.back() == '\\';
      if (line == begin_line) {
        if (inside) problems.push_back(at + "fp_begin.hpp inside a region");
        inside = true;
        ++regions;
      } else if (line == end_line) {
        if (!inside) problems.push_back(at + "fp_end.hpp outside a region");
        inside = false;
      } else if (line.rfind("#include", 0) == 0 && inside) {
        problems.push_back(at + "#include inside a region: close it before (fp_end.hpp), open it again after");
      }
      continue;
    }
    if (!inside) problems.push_back(at + "code outside a region: " + line);
  }
  if (inside) problems.push_back("the last region is not closed (fp_end.hpp)");
  return problems;
}

}  // namespace

TEST_CASE("every line of code in the public headers lies in a floating-point region", "[fp_region]") {
  const fs::path root = fs::path(RIGIDREF_SOURCE_DIR) / "reference" / "include" / "rigidref";
  int headers = 0, with_region = 0;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const fs::path& p = e.path();
    if (!e.is_regular_file() || p.extension() != ".hpp") continue;
    const std::string name = fs::relative(p, root).generic_string();
    if (name == "detail/fp_begin.hpp" || name == "detail/fp_end.hpp") continue;
    ++headers;
    int regions = 0;
    for (const auto& problem : region_problems(p, regions)) {
      INFO("reference/include/rigidref/" << name << ", " << problem);
      CHECK(false);
    }
    if (regions > 0) ++with_region;
  }
  // A walk that found nothing would prove nothing: the library has more
  // than 60 headers with code, so more than 60 with a region.
  CHECK(headers > 60);
  CHECK(with_region > 60);
}

TEST_CASE("fp_begin.hpp and fp_end.hpp act at every inclusion", "[fp_region]") {
  const fs::path detail = fs::path(RIGIDREF_SOURCE_DIR) / "reference" / "include" / "rigidref" / "detail";
  for (const char* name : {"fp_begin.hpp", "fp_end.hpp"}) {
    std::ifstream in(detail / name);
    REQUIRE(in.good());
    std::string line;
    bool pragma = false;
    while (std::getline(in, line)) {
      INFO(name << " must not have an include guard: " << line);
      CHECK(trimmed(line) != "#pragma once");
      CHECK(trimmed(line).rfind("#ifndef", 0) != 0);
      pragma = pragma || trimmed(line).rfind("#pragma", 0) == 0;
    }
    CHECK(pragma);
  }
}

}  // namespace fp_region_test
