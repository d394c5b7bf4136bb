// The per-request limits of `rigidref eval` (docs/eval-protocol.md 1.4,
// tools/protocol/limits.hpp), end to end through the binary: just below each
// limit the request is answered, just above it the answer is invalid_input
// with a message naming the limit, and the next line is still answered.
#include "support/eval_pipe.hpp"

#include "protocol/limits.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstddef>
#include <string>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace eval_limits_test {

namespace {

using json = nlohmann::json;
using namespace rigidref::testing::eval_pipe;
namespace limits = rigidref::tools::eval::limits;

// A convex polygon with n vertices on the unit circle (any n >= 3).
json circle_points(std::size_t n) {
  json points = json::array();
  for (std::size_t i = 0; i < n; ++i) {
    const double t = 2 * M_PI * static_cast<double>(i) / static_cast<double>(n);
    points.push_back({std::cos(t), std::sin(t)});
  }
  return points;
}

const std::string next_request = R"({"id":"next","op":"mass.circle","radius":1,"mass":2})";

void require_next_answered(const json& answer) {
  require_ok(answer, "double");
  CHECK(answer.at("id") == "next");
}

}  // namespace

TEST_CASE("eval: max_list_length vertices are answered, one more is invalid_input naming the limit",
          "[eval][limits]") {
  for (const char* precision : {"double", "mp50"}) {
    INFO("precision " << precision);
    json below = {{"id", 1}, {"op", "mass.polygon"}, {"vertices", circle_points(limits::max_list_length)},
                  {"precision", precision}};
    json above = below;
    above["vertices"] = circle_points(limits::max_list_length + 1);
    const auto answers = eval({below.dump(), above.dump(), next_request});
    require_ok(answers[0], precision);
    require_error(answers[1], "invalid_input", {"vertices", "max_list_length", "1001 entries"});
    CHECK(answers[1].at("id") == 1);
    require_next_answered(answers[2]);
  }
  // The same limit on a collision shape and on shape_match's lists.
  json gjk_above = {{"op", "gjk.distance"}, {"a", circle_points(limits::max_list_length + 1)},
                    {"b", {{"center", {5, 5}}, {"radius", 1}}}};
  json gjk_below = gjk_above;
  gjk_below["a"] = circle_points(limits::max_list_length);
  json weights = json::array();
  for (std::size_t i = 0; i <= limits::max_list_length; ++i) weights.push_back(1);
  json match_above = {{"op", "shape_match"}, {"rest", circle_points(3)}, {"current", circle_points(3)},
                      {"weights", weights}};
  const auto answers = eval({gjk_below.dump(), gjk_above.dump(), match_above.dump()});
  require_ok(answers[0], "double");
  require_error(answers[1], "invalid_input", {"a", "max_list_length"});
  require_error(answers[2], "invalid_input", {"weights", "max_list_length"});
}

TEST_CASE("eval: exact lists: max_exact_list_length entries and max_exact_list_bits are answered, beyond is "
          "unsupported naming the limit",
          "[eval][limits]") {
  json below = {{"op", "mass.polygon"}, {"vertices", circle_points(limits::max_exact_list_length)},
                {"precision", "exact"}};
  json above = below;
  above["vertices"] = circle_points(limits::max_exact_list_length + 1);
  // A triangle with 2^127 (128 numerator bits) and 2^-127 (128 denominator
  // bits): 256 bits; 2^-128 makes it 257.
  const auto triangle = [](int k) {
    return json{{"op", "mass.polygon"},
                {"vertices", {{0, 0}, {std::ldexp(1.0, 127), 0}, {0, std::ldexp(1.0, -k)}}},
                {"precision", "exact"}};
  };
  REQUIRE(limits::max_exact_list_bits == 256);
  const auto answers = eval({below.dump(), above.dump(), triangle(127).dump(), triangle(128).dump(), next_request});
  require_ok(answers[0], "exact");
  require_error(answers[1], "unsupported", {"vertices", "max_exact_list_length", "201 entries", "mp100"});
  require_ok(answers[2], "exact");
  require_error(answers[3], "unsupported", {"vertices", "max_exact_list_bits", "257 bits", "mp100"});
  require_next_answered(answers[4]);
}

TEST_CASE("eval: a number string of max_number_chars is answered, one character more is invalid_input",
          "[eval][limits]") {
  // "0.000...01": a valid decimal of exactly n characters.
  const auto decimal_of_length = [](std::size_t n) { return "0." + std::string(n - 3, '0') + "1"; };
  REQUIRE(decimal_of_length(limits::max_number_chars).size() == limits::max_number_chars);
  for (const char* precision : {"double", "mp100", "exact"}) {
    INFO("precision " << precision);
    const json below = {{"op", "mass.circle"}, {"radius", decimal_of_length(limits::max_number_chars)},
                        {"mass", 1}, {"precision", precision}};
    json above = below;
    above["radius"] = decimal_of_length(limits::max_number_chars + 1);
    const auto answers = eval({below.dump(), above.dump(), next_request});
    if (std::string(precision) == "double") {
      // 1e-798 underflows to 0 in double: a typed error, but not the limit's.
      require_error(answers[0], "invalid_input", {"radius"});
      CHECK(answers[0].at("error").at("message").get<std::string>().find("max_number_chars") == std::string::npos);
    } else {
      require_ok(answers[0], precision);
    }
    require_error(answers[1], "invalid_input", {"radius", "max_number_chars", "801 characters"});
    require_next_answered(answers[2]);
  }
}

TEST_CASE("eval: a line of max_line_bytes is answered, one byte more is invalid_input with id null",
          "[eval][limits]") {
  const std::string request = R"({"id":7,"op":"mass.circle","radius":1,"mass":2})";
  const std::string below = request + std::string(limits::max_line_bytes - request.size(), ' ');
  const std::string above = below + " ";
  REQUIRE(below.size() == limits::max_line_bytes);
  // CRLF: the '\r' is not part of the line.
  const auto answers = eval({below, above, below + "\r", above + "\r", next_request});
  require_ok(answers[0], "double");
  CHECK(answers[0].at("id") == 7);
  require_error(answers[1], "invalid_input", {"max_line_bytes", "1048576"});
  CHECK(answers[1].at("id").is_null());
  require_ok(answers[2], "double");
  require_error(answers[3], "invalid_input", {"max_line_bytes"});
  require_next_answered(answers[4]);
}

TEST_CASE("eval and check: JSON nested max_nesting deep is read, deeper is rejected, never a crash",
          "[eval][check][limits]") {
  const auto nested = [](int depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  // eval: within the limit the extra field is ignored; above it parse_error.
  const std::string base = R"({"id":1,"op":"mass.circle","radius":1,"mass":2,"x":)";
  const auto answers = eval({base + nested(limits::max_nesting - 1) + "}", base + nested(limits::max_nesting) + "}"});
  require_ok(answers[0], "double");
  require_error(answers[1], "parse_error", {"256"});
  // check: an answer line nested 200000 deep crashed the judge (stack
  // overflow in the recursive JSON writer, found while adding these limits);
  // now it is one unreadable case.
  const std::string deep = R"({"op":"mass.circle","radius":1,"mass":1,"x":)" + nested(200000) +
                           R"(,"engine":"t","result":{}})";
  const cli_run r = run_cli("check", deep + "\n" + R"({"op":"mass.circle","radius":1,"mass":2,"engine":"t",)" +
                                         R"("result":{"inertia":1}})" + "\n");
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.status == 1);
  CHECK(r.out.find("unreadable 1") != std::string::npos);
  CHECK(r.out.find("2 lines, 1 failing") != std::string::npos);
}

TEST_CASE("check: an answer line over max_answer_line_bytes is one unreadable case naming the limit", "[check][limits]") {
  const std::string good = R"({"op":"mass.circle","radius":1,"mass":2,"engine":"t","result":{"inertia":1}})";
  const std::string below = good + std::string(limits::max_answer_line_bytes - good.size(), ' ');
  REQUIRE(below.size() == limits::max_answer_line_bytes);
  const std::string above = below + " ";
  const cli_run r = run_cli("check", below + "\n" + above + "\n" + below + "\r\n");
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.status == 1);
  CHECK(r.out.find("unreadable 1") != std::string::npos);
  CHECK(r.out.find("max_answer_line_bytes") != std::string::npos);
  CHECK(r.out.find("3 lines, 1 failing") != std::string::npos);
}

}  // namespace eval_limits_test
