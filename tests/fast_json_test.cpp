// The quick JSON reader of check (tools/protocol/fast_json.hpp) against
// nlohmann::json::parse: wherever it takes a text, the value is the same to
// the type and the bit (unsigned, signed and floating numbers apart, every
// double's bits); where nlohmann throws it must not take the text; and
// parse_json gives nlohmann's value or exception. On every line of the
// committed JSON Lines files (data/), on hand-made edges of the grammar and
// the number types, and on 20,000 random edits of committed lines.
#include "protocol/fast_json.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace fast_json_test {

using json = nlohmann::json;
using rigidref::tools::parse_json;
using rigidref::tools::parse_json_quick;

namespace {

// The same value, type for type and bit for bit.
bool identical(const json& a, const json& b) {
  if (a.type() != b.type()) return false;
  switch (a.type()) {
    case json::value_t::array:
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i)
        if (!identical(a[i], b[i])) return false;
      return true;
    case json::value_t::object: {
      if (a.size() != b.size()) return false;
      auto i = a.begin();
      auto k = b.begin();
      for (; i != a.end(); ++i, ++k)
        if (i.key() != k.key() || !identical(i.value(), k.value())) return false;
      return true;
    }
    case json::value_t::number_float: {
      const double x = a.get<double>(), y = b.get<double>();
      return std::memcmp(&x, &y, sizeof x) == 0;
    }
    default: return a == b;
  }
}

// What nlohmann makes of `text`, or the message of its exception.
struct reference {
  bool ok = false;
  json value;
  std::string error;
};
reference nlohmann_parse(const std::string& text) {
  reference r;
  try {
    r.value = json::parse(text);
    r.ok = true;
  } catch (const json::exception& e) {
    r.error = e.what();
  }
  return r;
}

// The quick reader agrees with nlohmann on `text`; returns whether it took it.
bool agrees(const std::string& text) {
  INFO("text: " << text);
  const reference want = nlohmann_parse(text);
  const std::optional<json> quick = parse_json_quick(text);
  if (quick) {
    REQUIRE(want.ok);
    CHECK(identical(*quick, want.value));
  }
  // parse_json: nlohmann's value, or its exception with its message.
  try {
    const json got = parse_json(text);
    REQUIRE(want.ok);
    CHECK(identical(got, want.value));
  } catch (const json::exception& e) {
    CHECK_FALSE(want.ok);
    CHECK(std::string(e.what()) == want.error);
  }
  return quick.has_value();
}

std::vector<std::string> committed_lines() {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(RIGIDREF_SOURCE_DIR) + "/data")) {
    if (entry.path().extension() != ".jsonl") continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);)
      if (!line.empty()) out.push_back(line);
  }
  return out;
}

}  // namespace

TEST_CASE("quick JSON: every committed line, as nlohmann reads it", "[fast_json]") {
  const std::vector<std::string> lines = committed_lines();
  REQUIRE(lines.size() > 5000);
  std::size_t taken = 0;
  for (const std::string& line : lines) taken += agrees(line) ? 1 : 0;
  // The case sets and answer lines are what it is for: nearly all taken.
  CHECK(taken * 100 >= lines.size() * 99);
}

TEST_CASE("quick JSON: the edges of the grammar and of the number types", "[fast_json]") {
  const char* texts[] = {
      // numbers: nlohmann's types (unsigned, signed, double) and its strtod
      "0", "-0", "-0.0", "0.0", "1", "-1", "18446744073709551615", "18446744073709551616", "9223372036854775807",
      "-9223372036854775808", "-9223372036854775809", "1e400", "-1e400", "1e-400", "4.9e-324", "2.4703282292062327e-324",
      "2.2250738585072011e-308", "1.7976931348623157e308", "1.7976931348623159e308", "0.1", "1E5", "1e+5", "1e-5",
      "123456789012345678901234567890", "0.30000000000000004", "5e-324", "[1.5,-2.25e3,7]",
      // not JSON
      "01", "-01", "1.", ".5", "-", "+1", "1e", "1e+", "1.e3", "0x10", "NaN", "Infinity", "-Infinity", "nan", "1 2",
      "", " ", "[", "]", "[1,]", "[,1]", "{,}", "{\"a\" 1}", "{\"a\":}", "{\"a\":1,}", "{a:1}", "{'a':1}", "[1 2]",
      "tru", "nul", "falsey", "[true,false,null]", "\"abc", "\"a\\\"", "\"\\x\"", "\"a\tb\"", "\"a\nb\"",
      // strings: escapes, \u, bytes outside ASCII, a BOM
      "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\\u00e9\"", "\"\\ud83d\\ude00\"", "\"\\ud83d\"", "\"\xc3\xa9\"", "\"\xff\"",
      "\xef\xbb\xbf{\"a\":1}", "\"\x7f\"",
      // objects: repeated keys (the last stands), empty ones, whitespace
      "{\"a\":1,\"a\":2}", "{}", "[]", " \t\r\n{ \"a\" : [ 1 , { } , [ ] ] } \n", "{\"\":0}", "[[[[[[[[]]]]]]]]",
  };
  for (const char* t : texts) agrees(t);
  // Nesting beyond the quick reader's 64 levels is nlohmann's.
  const std::string deep = std::string(100, '[') + std::string(100, ']');
  CHECK_FALSE(agrees(deep));
  CHECK(agrees(std::string(64, '[') + std::string(64, ']')));
  // The number types themselves.
  CHECK(parse_json_quick("5")->is_number_unsigned());
  CHECK(parse_json_quick("-5")->is_number_integer());
  CHECK(parse_json_quick("5.0")->is_number_float());
  CHECK(parse_json_quick("18446744073709551616")->is_number_float());
  CHECK(parse_json_quick("{\"a\":1,\"a\":2}")->at("a") == 2);
}

TEST_CASE("quick JSON: random edits of committed lines", "[fast_json]") {
  std::vector<std::string> lines = committed_lines();
  REQUIRE(!lines.empty());
  std::mt19937_64 rng(20261129);
  const std::string alphabet = "{}[]\",:.-+eE0123456789 \\tnfu\x01\x80";
  std::size_t taken = 0, rejected = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text = lines[rng() % lines.size()];
    if (round % 2 == 1 && text.size() > 400) text.resize(400 + rng() % 8);  // half of them cut short
    for (int edits = 1 + static_cast<int>(rng() % 3); edits > 0 && !text.empty(); --edits) {
      const std::size_t at = rng() % text.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 3) {
        case 0: text.erase(at, 1); break;
        case 1: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c); break;
        default: text[at] = c;
      }
    }
    (agrees(text) ? taken : rejected) += 1;
  }
  // Both outcomes occur often enough to mean something.
  CHECK(taken > 1000);
  CHECK(rejected > 1000);
}

}  // namespace fast_json_test
