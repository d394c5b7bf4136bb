// `rigidref eval` ops gjk.distance, epa.penetration and sat.rectangles, end
// to end through a pipe, in every floating precision, against values worked
// out by hand (boxes and a circle with rational answers), and every error
// the protocol promises. GJK and EPA evaluate their values exactly and round
// once (D-GJK-8, D-EPA-6), so each printed real must be correctly rounded.
#include "support/eval_pipe.hpp"
#include "support/matchers.hpp"

#include "rigidref/convert.hpp"
#include "rigidref/scalar.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace {

using rigidref::exact;
using namespace rigidref::testing::eval_pipe;

exact q(const char* text) { return rigidref::parse_exact(text); }

const std::string unit_box = "[[0,0],[1,0],[1,1],[0,1]]";

}  // namespace

TEMPLATE_LIST_TEST_CASE("gjk.distance and epa.penetration: hand-worked cases in every floating precision",
                        "[eval][collision]", rigidref::floating_scalars) {
  using T = TestType;
  const std::string p(rigidref::scalar_name<T>());
  const auto req = [&](const std::string& op, const std::string& a, const std::string& b) {
    return with_precision(R"({"id":1,"op":")" + op + R"(","a":)" + a + R"(,"b":)" + b + "}", p);
  };
  // B: the unit box moved by (4, 5): closest points (1, 1) and (4, 5), distance 5 (3-4-5).
  const std::string far_box = "[[4,5],[5,5],[5,6],[4,6]]";
  // C: the unit box moved by (3/4, 1/8), clockwise: overlap 1/4 along x, 7/8 along y.
  const std::string overlap_box = "[[0.75,1.125],[1.75,1.125],[1.75,0.125],[0.75,0.125]]";
  // A circle of radius 1/2 centred at (5/2, 1/2): 3/2 from the box face x = 1, distance 1.
  const std::string circle = R"({"center":[2.5,0.5],"radius":0.5})";
  const std::vector<json> a = eval({
      req("gjk.distance", unit_box, far_box),
      req("gjk.distance", unit_box, overlap_box),
      req("epa.penetration", unit_box, overlap_box),
      req("epa.penetration", overlap_box, unit_box),
      req("gjk.distance", unit_box, circle),
      req("epa.penetration", unit_box, far_box),
  });
  for (const json& x : a) require_ok(x, p);
  const json& d = a[0]["result"];
  CHECK(d["intersecting"] == false);
  check_real<T>(d["distance"], q("5"), 0);
  check_real<T>(d["point_a"][0], q("1"), 0);
  check_real<T>(d["point_a"][1], q("1"), 0);
  check_real<T>(d["point_b"][0], q("4"), 0);
  check_real<T>(d["point_b"][1], q("5"), 0);
  CHECK(a[1]["result"]["intersecting"] == true);
  CHECK_FALSE(a[1]["result"].contains("point_a"));  // omitted when intersecting
  check_real<T>(a[1]["result"]["distance"], q("0"), 0);
  const json& e = a[2]["result"];
  CHECK(e["intersecting"] == true);
  check_real<T>(e["depth"], q("1/4"), 0);
  check_real<T>(e["normal"][0], q("1"), 0);
  check_real<T>(e["normal"][1], q("0"), 0);
  // Swapping the shapes: the same depth, the normal negated.
  check_real<T>(a[3]["result"]["depth"], q("1/4"), 0);
  check_real<T>(a[3]["result"]["normal"][0], q("-1"), 0);
  check_real<T>(a[4]["result"]["distance"], q("1"), 0);
  CHECK(a[5]["result"]["intersecting"] == false);
  check_real<T>(a[5]["result"]["depth"], q("0"), 0);
}

TEST_CASE("gjk.distance, epa.penetration: touching shapes are intersecting with depth 0", "[eval][collision]") {
  const json t = eval1(R"({"id":1,"op":"epa.penetration","a":[[0,0],[1,0],[1,1],[0,1]],"b":[[1,0],[2,0],[2,1],[1,1]]})");
  require_ok(t, "double");
  CHECK(t["result"]["intersecting"] == true);
  CHECK(t["result"]["depth"] == 0);
  CHECK(t["result"]["status"] == "touching");
}

TEST_CASE("sat.rectangles: the article's d3 values in axis order n1, t1, n2, t2", "[eval][collision]") {
  // Two axis-aligned 2 x 2 squares, centres 3/2 apart along x: on n1 = n2 =
  // (1, 0) the overlap is 2 - 3/2 = 1/2, on t1 = t2 (the y axis) it is 2.
  const json r = eval1(R"({"id":1,"op":"sat.rectangles","r1":{"center":[0,0],"width":2,"height":2,"angle":0},)"
                       R"("r2":{"center":[1.5,0],"width":2,"height":2,"angle":0}})");
  require_ok(r, "double");
  CHECK(r["result"]["overlap"] == true);
  REQUIRE(r["result"]["d3"].size() == 4);
  CHECK(r["result"]["d3"][0].get<double>() == 0.5);
  CHECK(r["result"]["d3"][2].get<double>() == 0.5);
  // t = (cos(pi/2), sin(pi/2)) in double is not exactly (0, 1) (D-RECT-6),
  // so the t overlaps are 2 only to within a few ulps.
  CHECK_THAT(r["result"]["d3"][1].get<double>(), Catch::Matchers::WithinULP(2.0, 4));
  CHECK_THAT(r["result"]["d3"][3].get<double>(), Catch::Matchers::WithinULP(2.0, 4));
  const json apart = eval1(R"({"id":1,"op":"sat.rectangles","r1":{"center":[0,0],"width":2,"height":2,"angle":0},)"
                           R"("r2":{"center":[3,0],"width":2,"height":2,"angle":0}})");
  CHECK(apart["result"]["overlap"] == false);
}

TEST_CASE("collision ops: every error is a typed answer line", "[eval][collision]") {
  const std::string box = unit_box;
  check_error_cases({
      {R"({"id":1,"op":"gjk.distance","a":)" + box + "}", "invalid_input", {"b"}},
      {R"({"id":1,"op":"gjk.distance","a":[[0,0],[1,0]],"b":)" + box + "}", "invalid_input", {"a", "3"}},
      {R"({"id":1,"op":"gjk.distance","a":[[0,0],[2,0],[1,0.2],[1,2]],"b":)" + box + "}", "invalid_input",
       {"a", "convex"}},
      {R"({"id":1,"op":"epa.penetration","a":[[0,0],[1,0],[2,0]],"b":)" + box + "}", "invalid_input", {"a"}},
      {R"({"id":1,"op":"epa.penetration","a":{"center":[0,0],"radius":-1},"b":)" + box + "}", "invalid_input",
       {"radius"}},
      {R"({"id":1,"op":"epa.penetration","a":{"center":[0,0]},"b":)" + box + "}", "invalid_input", {"radius"}},
      {R"({"id":1,"op":"gjk.distance","a":"box","b":)" + box + "}", "invalid_input", {"convex polygon"}},
      {R"({"id":1,"op":"gjk.distance","precision":"exact","a":)" + box + R"(,"b":)" + box + "}", "unsupported",
       {"square root"}},
      {R"({"id":1,"op":"gjk.distance","a":[[0,0],["nan",0],[1,1]],"b":)" + box + "}", "invalid_input", {"a"}},
      {R"({"id":1,"op":"sat.rectangles","r1":{"center":[0,0],"width":2,"height":2},"r2":{"center":[0,0],"width":2,"height":2,"angle":0}})",
       "invalid_input", {"r1", "angle"}},
      {R"({"id":1,"op":"sat.rectangles","r1":{"center":[0,0],"width":0,"height":2,"angle":0},"r2":{"center":[0,0],"width":2,"height":2,"angle":0}})",
       "invalid_input", {"r1", "width"}},
      {R"({"id":1,"op":"sat.rectangles","precision":"exact","r1":{"center":[0,0],"width":2,"height":2,"angle":0},"r2":{"center":[0,0],"width":2,"height":2,"angle":0}})",
       "unsupported", {"cos"}},
  });
}
