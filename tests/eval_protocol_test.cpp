// `rigidref eval` end to end: the built binary (RIGIDREF_BINARY) is fed
// request lines through a file or a pipe and every answer line is parsed and
// checked against docs/eval-protocol.md and exact expectations.
//
// Error codes reachable with the mass.* ops: parse_error, unknown_op,
// invalid_input and unsupported. domain_error and no_convergence have no
// mass.* trigger (every mass answer exists and nothing iterates):
// domain_error is covered by eval_matrix_test.cpp (mat2.sqrt), and
// no_convergence when ops that can raise it (gjk.*, epa.*) arrive.
#include "support/eval_pipe.hpp"
#include "support/matchers.hpp"

#include "protocol/json.hpp"

#include "rigidref/articles/create_polygon_points.hpp"
#include "rigidref/articles/triangle_inertia.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/mass.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/verify/accuracy.hpp"
#include "rigidref/internal/bounds.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace eval_protocol_test {

namespace {

using json = nlohmann::json;
using rigidref::exact;
using rigidref::testing::WithinUlpsOfExact;

using namespace rigidref::testing::eval_pipe;  // running the binary, reading answers back

exact q(const char* text) { return rigidref::parse_exact(text); }

double bound_ulps(std::string_view function, int digits) {
  const auto* b = rigidref::verify::find_bound(function, digits);
  REQUIRE(b != nullptr);
  return b->max_ulps;
}

}  // namespace

// ---- the protocol ------------------------------------------------------------------

TEST_CASE("eval answers the protocol's own example", "[eval]") {
  const std::vector<std::string> lines = eval_raw(
      R"({"id": 7, "op": "mass.polygon", "precision": "double", "vertices": [[0,0],[2,0],[2,1],[0,1]], "density": 1})"
      "\n");
  REQUIRE(lines.size() == 1);
  // Compact form of the protocol's answer line, field order included.
  CHECK(lines[0] ==
        R"({"id":7,"ok":true,"precision":"double",)"
        R"("result":{"area":2,"centroid":[1,0.5],"mass":2,"inertia":0.8333333333333334}})");
  const json a = json::parse(lines[0]);
  require_ok(a, "double");
  CHECK(a["id"] == 7);
  CHECK(a["result"]["area"].get<double>() == 2);
  CHECK(a["result"]["centroid"] == json::array({1, 0.5}));
  CHECK(a["result"]["mass"].get<double>() == 2);
  CHECK(a["result"]["inertia"].get<double>() == 0.8333333333333334);
}

TEST_CASE("precision defaults to double and density to 1", "[eval]") {
  const json a = eval1(R"({"id":1,"op":"mass.polygon","vertices":[[0,0],[2,0],[2,1],[0,1]]})");
  require_ok(a, "double");
  CHECK(a["result"]["mass"].get<double>() == 2);
  CHECK(a["result"]["inertia"].get<double>() == 0.8333333333333334);
}

TEMPLATE_LIST_TEST_CASE("every mass op in every precision", "[eval]", rigidref::all_scalars) {
  using T = TestType;
  const std::string p(rigidref::scalar_name<T>());
  const int d = rigidref::digits<T>();
  const std::vector<std::string> base = {
      // 0: unit square, density defaulted
      R"({"id":0,"op":"mass.polygon","vertices":[[0,0],[1,0],[1,1],[0,1]]})",
      // 1: right triangle 4-3-5, clockwise, total mass given as a string
      R"({"id":1,"op":"mass.polygon","vertices":[[0,0],[0,3],[4,0]],"mass":"6"})",
      // 2: the same triangle by density
      R"({"id":2,"op":"mass.polygon","vertices":[[0,0],[4,0],[0,3]],"density":"0.5"})",
      // 3, 4: mass.triangle, both models
      R"({"id":3,"op":"mass.triangle","vertices":[[0,0],[4,0],[0,3]],"mass":6})",
      R"({"id":4,"op":"mass.triangle","vertices":[[0,0],[4,0],[0,3]],"mass":6,"model":"article"})",
      // 5, 6: regular hexagon, closed form (default) and the article's formula
      R"({"id":5,"op":"mass.regular_polygon","sides":6,"radius":1,"mass":1})",
      R"({"id":6,"op":"mass.regular_polygon","sides":6,"radius":"1","mass":"1","formula":"article"})",
      // 7: circle, 8: rectangle
      R"({"id":7,"op":"mass.circle","radius":"1.5","mass":2})",
      R"({"id":8,"op":"mass.rectangle","width":1,"height":"2","mass":3})",
      // 9: closed form named explicitly
      R"({"id":9,"op":"mass.regular_polygon","sides":4,"radius":2,"mass":3,"formula":"closed_form"})",
  };
  std::vector<std::string> requests;
  for (const std::string& b : base) requests.push_back(with_precision(b, p));
  const std::vector<json> a = eval(requests);
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i]["id"] == i);

  // Unit square: area 1, centroid (1/2, 1/2), mass 1, inertia 1/6.
  require_ok(a[0], p);
  check_real<T>(a[0]["result"]["area"], q("1"));
  REQUIRE(a[0]["result"]["centroid"].size() == 2);
  check_real<T>(a[0]["result"]["centroid"][0], q("1/2"));
  check_real<T>(a[0]["result"]["centroid"][1], q("1/2"));
  check_real<T>(a[0]["result"]["mass"], q("1"));
  check_real<T>(a[0]["result"]["inertia"], q("1/6"));
  if constexpr (rigidref::is_exact_v<T>) CHECK(a[0]["result"]["inertia"] == "1/6");

  // Triangle (0,0) (4,0) (0,3): area 6, centroid (4/3, 1); mass 6 -> inertia
  // 6/36 (16 + 9 + 25) = 25/3, whatever the orientation.
  for (int i : {1, 2, 3}) require_ok(a[i], p);
  for (int i : {1, 2}) {
    check_real<T>(a[i]["result"]["area"], q("6"));
    check_real<T>(a[i]["result"]["centroid"][0], q("4/3"));
    check_real<T>(a[i]["result"]["centroid"][1], q("1"));
    check_real<T>(a[i]["result"]["mass"], q("3") * (i == 1 ? 2 : 1));
  }
  check_real<T>(a[1]["result"]["inertia"], q("25/3"));
  check_real<T>(a[2]["result"]["inertia"], q("25/6"));  // density 1/2: mass 3
  check_real<T>(a[3]["result"]["inertia"], q("25/3"));

  // The article's triangle formula: exactly what the port gives in T.
  require_ok(a[4], p);
  {
    const std::vector<rigidref::vec2<T>> v = {{T(0), T(0)}, {T(4), T(0)}, {T(0), T(3)}};
    const T expected = rigidref::articles::triangle_inertia<T>(std::span<const rigidref::vec2<T>>(v), T(6));
    CHECK_THAT(read_real<T>(a[4]["result"]["inertia"]), rigidref::testing::IdenticalTo(expected));
  }

  // Regular polygons: cos is not rational, so exact is unsupported.
  if constexpr (rigidref::is_exact_v<T>) {
    require_error(a[5], "unsupported", {"exact"});
    require_error(a[6], "unsupported", {"exact"});
    require_error(a[9], "unsupported", {"exact"});
  } else {
    // Hexagon: (2 + cos(pi/3)) / 6 = 5/12 for R = m = 1.
    require_ok(a[5], p);
    require_ok(a[6], p);
    check_real<T>(a[5]["result"]["inertia"], q("5/12"), bound_ulps("mass.regular_polygon closed form", d));
    check_real<T>(a[6]["result"]["inertia"], q("5/12"), bound_ulps("mass.regular_polygon (article formula)", d));
    CHECK_THAT(read_real<T>(a[5]["result"]["inertia"]),
               rigidref::testing::IdenticalTo(rigidref::regular_polygon_inertia<T>(6, T(1), T(1))));
    // Square, R = 2, m = 3: 3 * 4 * (2 + cos(pi/2)) / 6 = 4.
    require_ok(a[9], p);
    check_real<T>(a[9]["result"]["inertia"], q("4"), bound_ulps("mass.regular_polygon closed form", d));
  }

  // Circle: 2 * 2.25 / 2 = 9/4. Rectangle: 3 * (1 + 4) / 12 = 5/4.
  require_ok(a[7], p);
  check_real<T>(a[7]["result"]["inertia"], q("9/4"));
  require_ok(a[8], p);
  check_real<T>(a[8]["result"]["inertia"], q("5/4"));
}

TEMPLATE_LIST_TEST_CASE("the article formula of mass.regular_polygon is createPolygonPoints' bit for bit", "[eval]",
                        rigidref::floating_scalars) {
  using T = TestType;
  const std::string p(rigidref::scalar_name<T>());
  const std::vector<int> sides = {3, 4, 5, 6, 7, 8, 12, 100, 1000, 65537};
  std::vector<std::string> requests;
  for (int n : sides)
    requests.push_back(with_precision(
        R"({"op":"mass.regular_polygon","formula":"article","radius":"0.75","mass":"3","sides":)" +
            std::to_string(n) + "}",
        p));
  const std::vector<json> a = eval(requests);
  const T radius = rigidref::from_string<T>("0.75");
  const T mass = rigidref::from_string<T>("3");
  for (std::size_t i = 0; i < sides.size(); ++i) {
    INFO("sides = " << sides[i]);
    require_ok(a[i], p);
    const rigidref::articles::polygon_points<T> pp =
        rigidref::articles::create_polygon_points<T>(rigidref::vec2<T>{}, radius, sides[i]);
    const T expected = T(pp.inertia * mass);
    CHECK_THAT(read_real<T>(a[i]["result"]["inertia"]), rigidref::testing::IdenticalTo(expected));
  }
}

TEST_CASE("mp50 and mp100 answers are strings that read back within 1 ulp", "[eval]") {
  const std::string square = R"({"op":"mass.polygon","vertices":[[0,0],[1,0],[1,1],[0,1]]})";
  const std::vector<json> a = eval({with_precision(square, "mp50"), with_precision(square, "mp100")});
  require_ok(a[0], "mp50");
  require_ok(a[1], "mp100");
  const std::string s50 = a[0]["result"]["inertia"].get<std::string>();
  const std::string s100 = a[1]["result"]["inertia"].get<std::string>();
  CHECK(rigidref::verify::ulps_from_rounded(rigidref::from_string<rigidref::mp50>(s50), q("1/6")) <= 1);
  CHECK(rigidref::verify::ulps_from_rounded(rigidref::from_string<rigidref::mp100>(s100), q("1/6")) <= 1);
  CHECK(s50.rfind("1.666666666666666666666666666666666666666666666666", 0) == 0);
  CHECK(s100.size() > s50.size());
}

// ---- input reals ---------------------------------------------------------------------

TEST_CASE("decimal strings are exact in exact; fractions only in exact", "[eval]") {
  const std::vector<json> a = eval({
      R"({"id":1,"op":"mass.circle","precision":"exact","radius":"0.1","mass":"1"})",
      R"({"id":2,"op":"mass.circle","precision":"exact","radius":"1/3","mass":"2"})",
      R"({"id":3,"op":"mass.circle","precision":"double","radius":"1/3","mass":"2"})",
      R"({"id":4,"op":"mass.circle","precision":"mp50","radius":"1/3","mass":"2"})",
      R"({"id":5,"op":"mass.rectangle","precision":"exact","width":"-1.5e-1","height":"1","mass":"1"})",
      R"({"id":6,"op":"mass.polygon","precision":"exact","vertices":[["1/3","0"],[1,0],[1,"2/7"]],"density":"3/2"})",
  });
  require_ok(a[0], "exact");
  CHECK(a[0]["result"]["inertia"] == "1/200");
  require_ok(a[1], "exact");
  CHECK(a[1]["result"]["inertia"] == "1/9");
  require_error(a[2], "invalid_input", {"radius", "1/3", "exact"});
  require_error(a[3], "invalid_input", {"radius", "exact"});
  require_error(a[4], "invalid_input", {"width"});  // negative width
  require_ok(a[5], "exact");
  // Right triangle with legs 2/3 and 2/7: area 2/21, mass 1/7.
  CHECK(a[5]["result"]["area"] == "2/21");
  CHECK(a[5]["result"]["mass"] == "1/7");
  CHECK(a[5]["result"]["centroid"] == json::array({"7/9", "2/21"}));
}

TEST_CASE("a JSON number is first a double", "[eval]") {
  const std::vector<json> a = eval({
      // 0.1 as a JSON number is the double nearest 0.1, not 1/10.
      R"({"op":"mass.circle","precision":"exact","radius":0.1,"mass":2})",
      // An integer literal beyond 2^53 becomes the double nearest it.
      R"({"op":"mass.circle","precision":"exact","radius":1,"mass":12345678901234567890})",
      R"({"op":"mass.circle","precision":"exact","radius":1,"mass":123456789012345678901234567890})",
      R"({"op":"mass.circle","precision":"exact","radius":1,"mass":9007199254740993})",
      // A string is converted directly: all digits count.
      R"({"op":"mass.circle","precision":"exact","radius":1,"mass":"9007199254740993"})",
  });
  for (const json& x : a) require_ok(x, "exact");
  const exact tenth = rigidref::to_exact(0.1);
  CHECK(a[0]["result"]["inertia"] == rigidref::to_string(exact(tenth * tenth)));
  CHECK(a[1]["result"]["inertia"] == rigidref::to_string(exact(rigidref::to_exact(12345678901234567890.0) / 2)));
  CHECK(a[2]["result"]["inertia"] ==
        rigidref::to_string(exact(rigidref::to_exact(123456789012345678901234567890.0) / 2)));
  CHECK(a[3]["result"]["inertia"] == "4503599627370496");  // 2^53 (ties to even), halved
  CHECK(a[4]["result"]["inertia"] == "9007199254740993/2");
}

// ---- output reals -------------------------------------------------------------------

TEST_CASE("float results are printed with the float's shortest text", "[eval]") {
  const std::vector<std::string> lines = eval_raw(
      // inertia = mass / 2 for a unit circle
      R"({"id":1,"op":"mass.circle","precision":"float","radius":1,"mass":"0.2"})"
      "\n"
      R"({"id":2,"op":"mass.circle","precision":"float","radius":1,"mass":"0.6666667"})"
      "\n"
      R"({"id":3,"op":"mass.circle","precision":"float","radius":1,"mass":"2.8e-45"})"
      "\n"
      R"({"id":4,"op":"mass.polygon","precision":"float","vertices":[[0,0],[1,0],[1,1],[0,1]],)"
      R"("density":"3.4028235e38"})"
      "\n");
  REQUIRE(lines.size() == 4);
  CHECK(lines[0].find(R"("inertia":0.1})") != std::string::npos);                     // 0.1f
  CHECK(lines[1].find(R"("inertia":0.33333334})") != std::string::npos);              // 1/3f
  CHECK(lines[2].find(R"("inertia":1e-45})") != std::string::npos);                   // denorm_min
  CHECK(lines[3].find(R"("mass":3.4028235e+38,)") != std::string::npos);              // max
  const json a = json::parse(lines[0]), b = json::parse(lines[1]), c = json::parse(lines[2]), e = json::parse(lines[3]);
  CHECK(static_cast<float>(a["result"]["inertia"].get<double>()) == 0.1f);
  CHECK(static_cast<float>(b["result"]["inertia"].get<double>()) == 1.0f / 3.0f);
  CHECK(static_cast<float>(c["result"]["inertia"].get<double>()) == std::numeric_limits<float>::denorm_min());
  CHECK(static_cast<float>(e["result"]["mass"].get<double>()) == std::numeric_limits<float>::max());
  // The same value in double needs all 17 digits.
  const json d = eval1(R"({"op":"mass.circle","precision":"double","radius":1,"mass":"0.2"})");
  CHECK(d["result"]["inertia"].get<double>() == 0.1);
}

TEST_CASE("the writer prints every float and double with its shortest text", "[eval]") {
  using rigidref::tools::eval::float_as_json_double;
  using rigidref::tools::eval::ojson;
  using rigidref::tools::eval::to_json_text;
  std::vector<float> floats = {0.1f,
                               1.0f / 3.0f,
                               std::numeric_limits<float>::denorm_min(),
                               std::numeric_limits<float>::min(),
                               std::numeric_limits<float>::max(),
                               std::numeric_limits<float>::epsilon(),
                               1e16f,
                               123456789.0f,
                               -2.5f,
                               0.0f,
                               -0.0f};
  std::uint32_t state = 12345;
  for (int i = 0; i < 200000; ++i) {
    state = state * 1664525u + 1013904223u;
    const float f = std::bit_cast<float>(state);
    if (std::isfinite(f)) floats.push_back(f);
  }
  for (float f : floats) {
    const std::string text = to_json_text(ojson(float_as_json_double(f)));
    INFO("float " << rigidref::to_string(f) << " printed as " << text);
    REQUIRE(text == rigidref::to_string(f));
    REQUIRE(rigidref::from_string<float>(text) == f);
  }
  for (int i = 0; i < 200000; ++i) {
    state = state * 1664525u + 1013904223u;
    const std::uint64_t bits = (std::uint64_t{state} << 32) ^ (state * 2654435761u);
    const double x = std::bit_cast<double>(bits);
    if (!std::isfinite(x)) continue;
    REQUIRE(to_json_text(ojson(x)) == rigidref::to_string(x));
  }
}

// ---- ids ------------------------------------------------------------------------------

TEST_CASE("ids of every JSON type are echoed unchanged", "[eval]") {
  const std::vector<std::string> ids = {
      "7",  "-3", "1.5", "\"abc\"", "\"\\u00fc\\n\\\"\"", "null", "true", "false", "[1,{\"a\":2,\"b\":[null]}]",
      "{\"x\":[true,false],\"y\":\"z\"}", "18446744073709551615", "-9223372036854775808", "1e300", "{}", "[]"};
  std::vector<std::string> requests;
  for (const std::string& id : ids) {
    requests.push_back(R"({"id":)" + id + R"(,"op":"mass.circle","radius":1,"mass":2})");
    requests.push_back(R"({"op":"no.such.op","id":)" + id + "}");
  }
  requests.push_back(R"({"op":"mass.circle","radius":1,"mass":2})");  // no id: null
  requests.push_back(R"({"op":"mass.circle"})");
  const std::vector<json> a = eval(requests);
  for (std::size_t i = 0; i < ids.size(); ++i) {
    INFO("id " << ids[i]);
    const json id = json::parse(ids[i]);
    require_ok(a[2 * i], "double");
    CHECK(a[2 * i]["id"] == id);
    require_error(a[2 * i + 1], "unknown_op");
    CHECK(a[2 * i + 1]["id"] == id);
  }
  require_ok(a[2 * ids.size()], "double");
  CHECK(a[2 * ids.size()]["id"].is_null());
  require_error(a[2 * ids.size() + 1], "invalid_input", {"radius"});
  CHECK(a[2 * ids.size() + 1]["id"].is_null());
}

TEST_CASE("a number too large for a double is invalid_input, not a parse error", "[eval]") {
  const std::vector<json> a = eval({
      R"({"id":1,"op":"mass.circle","radius":-1e400,"mass":1,"precision":"mp100"})",
      R"({"id":1e999,"op":"mass.circle","radius":1,"mass":2})",  // the id itself: echoed as null
      R"({"id":"1e400","op":"mass.circle","radius":"1e400","mass":"1","precision":"mp50"})",  // strings are fine
  });
  require_error(a[0], "invalid_input", {"radius", "-1e400", "string"});
  CHECK(a[0]["id"] == 1);
  require_ok(a[1], "double");
  CHECK(a[1]["id"].is_null());
  require_ok(a[2], "mp50");
  CHECK(a[2]["id"] == "1e400");
  check_real<rigidref::mp50>(a[2]["result"]["inertia"], q("5e799"));
}

// ---- errors ---------------------------------------------------------------------------

TEST_CASE("lines that are not JSON objects are parse_error with id null", "[eval]") {
  const std::vector<json> a = eval({
      R"({"id": 5, "op": "mass.circle", "radius": 1)",  // truncated
      R"({not json})",
      R"([{"id":1,"op":"mass.circle","radius":1,"mass":1}])",
      R"(42)",
      R"("a string")",
      R"({"id":1} {"id":2})",  // two values on one line
      std::string(300, '[') + std::string(300, ']'),  // absurd nesting
  });
  for (const json& x : a) {
    require_error(x, "parse_error");
    CHECK(x["id"].is_null());
  }
  require_error(a[2], "parse_error", {"object"});
  require_error(a[6], "parse_error", {"nested"});
}

TEST_CASE("every error code reachable by the mass ops", "[eval]") {
  const std::vector<error_case> cases = {
      {R"({"id":1,"op":"mass.nope"})", "unknown_op", {"mass.nope", "mass.polygon"}},
      {R"({"id":1})", "invalid_input", {"op"}},
      {R"({"id":1,"op":3})", "invalid_input", {"op"}},
      {R"({"id":1,"op":"mass.polygon"})", "invalid_input", {"vertices", "missing"}},
      {R"({"id":1,"op":"mass.polygon","vertices":"square"})", "invalid_input", {"vertices"}},
      {R"({"id":1,"op":"mass.polygon","vertices":[[0,0],[1,0],[1]]})", "invalid_input", {"vertices[2]"}},
      {R"({"id":1,"op":"mass.polygon","vertices":[[0,0],[1,0],[1,true]]})", "invalid_input",
       {"vertices[2][1]", "expected a number or a decimal string"}},
      {R"({"id":1,"op":"mass.polygon","vertices":[[0,0],[1,0],[null,1]]})", "invalid_input", {"vertices[2][0]"}},
      {R"({"id":1,"op":"mass.polygon","vertices":[[0,0],[1,0],["1.2.3",1]]})", "invalid_input",
       {"vertices[2][0]", "malformed"}},
      {R"({"id":1,"op":"mass.polygon","vertices":[[0,0],[1,0],[1,"inf"]]})", "invalid_input",
       {"vertices[2][1]", "finite"}},
      {R"({"id":1,"op":"mass.circle","radius":"nan","mass":1})", "invalid_input", {"radius", "finite"}},
      {R"({"id":1,"op":"mass.circle","radius":"-Infinity","mass":1})", "invalid_input", {"radius", "finite"}},
      {R"({"id":1,"op":"mass.circle","radius":1e400,"mass":1})", "invalid_input", {"radius", "1e400"}},
      {R"({"id":1,"op":"mass.circle","precision":"float","radius":"1e39","mass":1})", "invalid_input",
       {"radius", "float"}},
      {R"({"id":1,"op":"mass.circle","radius":1e300,"mass":1e300})", "invalid_input", {"inertia"}},
      {R"({"id":1,"op":"mass.polygon","vertices":[[0,0],[1,0]]})", "invalid_input", {"3 vertices"}},
      {R"({"id":1,"op":"mass.polygon","vertices":[[0,0],[1,1],[1,0],[0,1]]})", "invalid_input", {"not simple"}},
      {R"({"id":1,"op":"mass.polygon","vertices":[[0,0],[1,0],[2,0]]})", "invalid_input", {}},
      {R"({"id":1,"op":"mass.polygon","vertices":[[0,0],[1,0],[1,1]],"density":-1})", "invalid_input",
       {"density"}},
      {R"({"id":1,"op":"mass.polygon","vertices":[[0,0],[1,0],[1,1]],"mass":0})", "invalid_input", {"mass"}},
      {R"({"id":1,"op":"mass.polygon","vertices":[[0,0],[1,0],[1,1]],"mass":1,"density":1})", "invalid_input",
       {"density", "mass"}},
      {R"({"id":1,"op":"mass.circle","radius":1,"mass":-2})", "invalid_input", {"mass"}},
      {R"({"id":1,"op":"mass.rectangle","width":1,"height":0,"mass":1})", "invalid_input", {"height"}},
      {R"({"id":1,"op":"mass.triangle","vertices":[[0,0],[1,0],[1,1],[0,1]],"mass":1})", "invalid_input",
       {"3 vertices"}},
      {R"({"id":1,"op":"mass.triangle","vertices":[[0,0],[1,0],[1,1],[0,1]],"mass":1,"model":"article"})",
       "invalid_input", {"3 vertices"}},
      {R"({"id":1,"op":"mass.triangle","vertices":[[0,0],[1,1],[2,2]],"mass":1,"model":"article"})",
       "invalid_input", {"degenerate"}},
      {R"({"id":1,"op":"mass.triangle","vertices":[[0,0],[1,0],[0,1]],"mass":-1,"model":"article"})",
       "invalid_input", {"mass"}},
      {R"({"id":1,"op":"mass.triangle","vertices":[[0,0],[1,0],[0,1]],"mass":1,"model":"fast"})", "invalid_input",
       {"model", "reference", "article"}},
      {R"({"id":1,"op":"mass.regular_polygon","sides":2,"radius":1,"mass":1})", "invalid_input", {"sides"}},
      {R"({"id":1,"op":"mass.regular_polygon","sides":2.5,"radius":1,"mass":1})", "invalid_input", {"sides"}},
      {R"({"id":1,"op":"mass.regular_polygon","sides":"6","radius":1,"mass":1})", "invalid_input", {"sides"}},
      {R"({"id":1,"op":"mass.regular_polygon","sides":10000000,"radius":1,"mass":1})", "invalid_input",
       {"sides"}},
      {R"({"id":1,"op":"mass.regular_polygon","sides":1e300,"radius":1,"mass":1})", "invalid_input", {"sides"}},
      {R"({"id":1,"op":"mass.regular_polygon","sides":6,"radius":1,"mass":1,"formula":"exact"})", "invalid_input",
       {"formula", "closed_form"}},
      {R"({"id":1,"op":"mass.regular_polygon","sides":6,"radius":-1,"mass":1,"formula":"article"})",
       "invalid_input", {"radius"}},
      {R"({"id":1,"op":"mass.circle","precision":"quad","radius":1,"mass":1})", "invalid_input",
       {"precision", "quad", "mp50", "exact"}},
      {R"({"id":1,"op":"mass.circle","precision":64,"radius":1,"mass":1})", "invalid_input", {"precision"}},
      {R"({"id":1,"op":"mass.regular_polygon","precision":"exact","sides":5,"radius":1,"mass":1})", "unsupported",
       {"exact"}},
      {R"({"id":1,"op":"mass.regular_polygon","precision":"exact","sides":5,"radius":1,"mass":1,"formula":"article"})",
       "unsupported", {"exact"}},
  };
  check_error_cases(cases);
}

TEST_CASE("unknown fields are ignored", "[eval]") {
  const json a = eval1(R"({"id":1,"op":"mass.circle","radius":1,"mass":2,"colour":"red","note":[1e400]})");
  require_ok(a, "double");
  CHECK(a["result"]["inertia"].get<double>() == 1);
}

// ---- the stream ------------------------------------------------------------------------

TEST_CASE("processing goes on after errors, one answer per request, in order", "[eval]") {
  std::vector<std::string> requests;
  for (int i = 0; i < 60; ++i) {
    const std::string id = std::to_string(i);
    switch (i % 4) {
      case 0:
        requests.push_back(R"({"id":)" + id + R"(,"op":"mass.circle","radius":1,"mass":)" + std::to_string(i + 1) +
                           "}");
        break;
      case 1: requests.push_back(R"({"id":)" + id + R"(,"op":"mass.circle","radius":1,"mass":)"); break;
      case 2: requests.push_back(R"({"id":)" + id + R"(,"op":"mass.square"})"); break;
      default: requests.push_back(R"({"id":)" + id + R"(,"op":"mass.rectangle","width":1,"height":1,"mass":6})");
    }
  }
  const std::vector<json> a = eval(requests);
  for (int i = 0; i < 60; ++i) {
    INFO("request " << i);
    switch (i % 4) {
      case 0:
        require_ok(a[i], "double");
        CHECK(a[i]["id"] == i);
        CHECK(a[i]["result"]["inertia"].get<double>() == (i + 1) / 2.0);
        break;
      case 1: require_error(a[i], "parse_error"); CHECK(a[i]["id"].is_null()); break;
      case 2: require_error(a[i], "unknown_op"); CHECK(a[i]["id"] == i); break;
      default:
        require_ok(a[i], "double");
        CHECK(a[i]["id"] == i);
        CHECK(a[i]["result"]["inertia"].get<double>() == 1);
    }
  }
}

TEST_CASE("CRLF lines are answered; blank lines are not requests", "[eval]") {
  const std::string input =
      "{\"id\":1,\"op\":\"mass.circle\",\"radius\":1,\"mass\":2}\r\n"
      "\r\n"
      "   \t \n"
      "\n"
      "{\"id\":2,\"op\":\"mass.circle\",\"radius\":\"0.5\",\"mass\":\"8\",\"precision\":\"exact\"}\r\n"
      "{\"id\":3,\"op\":\"mass.circle\",\"radius\":1,\"mass\":4}";  // no final newline
  const std::vector<std::string> lines = eval_raw(input);
  REQUIRE(lines.size() == 3);
  for (const std::string& l : lines) CHECK(l.find('\r') == std::string::npos);
  const json a = json::parse(lines[0]), b = json::parse(lines[1]), c = json::parse(lines[2]);
  require_ok(a, "double");
  CHECK(a["id"] == 1);
  CHECK(a["result"]["inertia"].get<double>() == 1);
  require_ok(b, "exact");
  CHECK(b["id"] == 2);
  CHECK(b["result"]["inertia"] == "1");
  require_ok(c, "double");
  CHECK(c["id"] == 3);
}

TEST_CASE("a long line is read whole", "[eval]") {
  // A 1000-gon approximating the unit circle and a 900 kB id: one line of
  // ~0.94 MB, within the limits of docs/eval-protocol.md 1.4 (1000 entries
  // per list, 1 MiB per line; tests/eval_limits_test.cpp tests the limits).
  std::string vertices;
  const int n = 1000;
  for (int i = 0; i < n; ++i) {
    const double t = 2 * 3.141592653589793 * i / n;
    if (i > 0) vertices += ',';
    vertices += '[';
    vertices += rigidref::to_string(std::cos(t));
    vertices += ',';
    vertices += rigidref::to_string(std::sin(t));
    vertices += ']';
  }
  const std::string id(900000, 'x');
  const json a = eval1(R"({"id":")" + id + R"(","op":"mass.polygon","vertices":[)" + vertices + "]}");
  require_ok(a, "double");
  CHECK(a["id"] == id);
  // The inscribed n-gon's area (n/2) sin(2 pi/n), ~2e-5 below pi; the
  // vertices are rounded to double, so agreement to 1e-12 is ample.
  CHECK(std::abs(a["result"]["area"].get<double>() - n / 2.0 * std::sin(2 * 3.141592653589793 / n)) < 1e-12);
}

TEST_CASE("answers are flushed line by line, so a driver can interleave", "[eval]") {
  int to_child[2], from_child[2];
  REQUIRE(::pipe(to_child) == 0);
  REQUIRE(::pipe(from_child) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::dup2(to_child[0], 0);
    ::dup2(from_child[1], 1);
    ::close(to_child[0]);
    ::close(to_child[1]);
    ::close(from_child[0]);
    ::close(from_child[1]);
    ::execl(RIGIDREF_BINARY, RIGIDREF_BINARY, "eval", static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::close(to_child[0]);
  ::close(from_child[1]);
  std::string pending;
  // Writes one request and waits (at most 20 s) for its answer line while
  // the input stays open.
  auto ask = [&](const std::string& request) -> std::string {
    const std::string line = request + "\n";
    REQUIRE(::write(to_child[1], line.data(), line.size()) == static_cast<ssize_t>(line.size()));
    while (pending.find('\n') == std::string::npos) {
      pollfd fd{from_child[0], POLLIN, 0};
      const int ready = ::poll(&fd, 1, 20000);
      REQUIRE(ready == 1);  // 0: no answer while stdin is open (not flushed)
      char buf[4096];
      const ssize_t got = ::read(from_child[0], buf, sizeof buf);
      REQUIRE(got > 0);
      pending.append(buf, static_cast<std::size_t>(got));
    }
    const std::size_t end = pending.find('\n');
    std::string answer = pending.substr(0, end);
    pending.erase(0, end + 1);
    return answer;
  };
  const json a = json::parse(ask(R"({"id":1,"op":"mass.circle","radius":1,"mass":2})"));
  const json b = json::parse(ask(R"({"id":2,"op":"nope"})"));
  const json c = json::parse(ask(R"({"id":3,"op":"mass.rectangle","width":1,"height":1,"mass":6})"));
  ::close(to_child[1]);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  ::close(from_child[0]);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  require_ok(a, "double");
  CHECK(a["id"] == 1);
  require_error(b, "unknown_op");
  CHECK(b["id"] == 2);
  require_ok(c, "double");
  CHECK(c["id"] == 3);
}

// ---- the command line --------------------------------------------------------------------

TEST_CASE("eval exits 0 on any input, 2 on bad usage; --help describes the protocol", "[eval]") {
  const cli_run empty = run_cli("eval", "");
  CHECK(empty.status == 0);
  CHECK(empty.out.empty());

  const cli_run errors = run_cli("eval", "{bad\n{\"op\":\"x\"}\n");
  CHECK(errors.status == 0);
  CHECK(split_lines(errors.out).size() == 2);

  const cli_run bogus = run_cli("eval --bogus", "");
  CHECK(bogus.status == 2);
  CHECK(bogus.out.find("\"ok\"") == std::string::npos);

  const cli_run help = run_cli("eval --help", "");
  CHECK(help.status == 0);
  const std::string text = help.out + help.err;
  CHECK(text.find("JSON Lines") != std::string::npos);
  CHECK(text.find("protocol") != std::string::npos);
}

// docs/eval-protocol.md is the normative spec; `eval --help` is generated
// from the op table. The two must list the same ops, and every op of the
// help must answer (not unknown_op), so neither can fall behind the code.
TEST_CASE("eval --help and docs/eval-protocol.md list the same ops, and every one answers", "[eval]") {
  const cli_run help = run_cli("eval --help", "");
  REQUIRE(help.status == 0);
  std::set<std::string> in_help;
  const std::string marker = "Ops (docs/eval-protocol.md specifies every field):";
  const auto start = help.out.find(marker);
  REQUIRE(start != std::string::npos);
  std::istringstream lines(help.out.substr(start + marker.size()));
  for (std::string line; std::getline(lines, line);)
    if (line.size() > 2 && line.rfind("  ", 0) == 0 && line[2] != ' ') in_help.insert(line.substr(2, line.find(' ', 2) - 2));

  std::set<std::string> in_spec;
  std::ifstream spec(std::string(RIGIDREF_SOURCE_DIR) + "/docs/eval-protocol.md");
  REQUIRE(spec);
  bool in_ops = false;
  for (std::string line; std::getline(spec, line);) {
    if (line.rfind("## ", 0) == 0) in_ops = line.find("Ops") != std::string::npos;
    if (in_ops && line.rfind("| `", 0) == 0) in_spec.insert(line.substr(3, line.find('`', 3) - 3));
  }
  CHECK(in_help.size() >= 13);
  CHECK(in_help == in_spec);
  for (const std::string& op : in_help) {
    INFO(op);
    const json answer = json::parse(run_cli("eval", "{\"id\":1,\"op\":\"" + op + "\"}\n").out);
    CHECK(answer["error"]["code"] != "unknown_op");
  }
}

}  // namespace eval_protocol_test
