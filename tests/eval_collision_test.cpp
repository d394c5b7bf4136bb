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

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace eval_collision_test {

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

// Points, segments, capsules, rounded polygons (docs/eval-protocol.md
// section 2): values worked out by hand from the core distance and the radii
// (D-GJK-20, D-GJK-9, D-EPA-7), the normal convention of D-EPA-12.
TEMPLATE_LIST_TEST_CASE("gjk.distance and epa.penetration: every shape form, hand-worked", "[eval][collision][shapes]",
                        rigidref::floating_scalars) {
  using T = TestType;
  const std::string p(rigidref::scalar_name<T>());
  const auto req = [&](const std::string& op, const std::string& a, const std::string& b) {
    return with_precision(R"({"id":1,"op":")" + op + R"(","a":)" + a + R"(,"b":)" + b + "}", p);
  };
  const std::string seg = R"({"segment":[[0,0],[2,0]]})";
  const std::vector<json> a = eval({
      // Points (3, 4) and (0, 0): 5 apart.
      req("gjk.distance", R"({"point":[3,4]})", R"({"point":[0,0]})"),
      // The segment [(0,0), (2,0)] and the point (1, 3): 3 apart, straight up.
      req("gjk.distance", seg, R"({"point":[1,3]})"),
      // Capsule (r 1/2) about that segment, circle (r 1) at (1, 3): 3 - 3/2.
      req("gjk.distance", R"({"segment":[[0,0],[2,0]],"radius":0.5})", R"({"center":[1,3],"radius":1})"),
      // Unit box rounded by 1/4, point (3, 1/2): 2 - 1/4 from the face x = 1.
      req("gjk.distance", R"({"vertices":)" + unit_box + R"(,"radius":0.25})", R"({"point":[3,0.5]})"),
      // The point (1, 0) on the segment: touching.
      req("gjk.distance", R"({"point":[1,0]})", seg),
      // Collinear overlapping capsules (r 1/2, 1/4): depth 3/4, A's right perpendicular (0, -1).
      req("epa.penetration", R"({"segment":[[0,0],[2,0]],"radius":0.5})", R"({"segment":[[1,0],[3,0]],"radius":0.25})"),
      // A disc (r 1/2) centred on the segment: depth 1/2, the segment's left perpendicular (0, 1).
      req("epa.penetration", R"({"center":[1,0],"radius":0.5})", seg),
      // Rounded unit box (r 1/4) and a circle (r 1/2) at (3/2, 1/2): cores 1/2
      // apart, depth 1/4 + 1/2 - 1/2 = 1/4 along (1, 0).
      req("epa.penetration", R"({"vertices":)" + unit_box + R"(,"radius":0.25})", R"({"center":[1.5,0.5],"radius":0.5})"),
      // Collinear segments 1 apart along their own line.
      req("gjk.distance", seg, R"({"segment":[[5,0],[3,0]]})"),
  });
  for (const json& x : a) require_ok(x, p);
  check_real<T>(a[0]["result"]["distance"], q("5"), 0);
  const json& s = a[1]["result"];
  check_real<T>(s["distance"], q("3"), 0);
  check_real<T>(s["point_a"][0], q("1"), 0);
  check_real<T>(s["point_a"][1], q("0"), 0);
  check_real<T>(s["point_b"][1], q("3"), 0);
  const json& c = a[2]["result"];
  check_real<T>(c["distance"], q("3/2"), 0);
  check_real<T>(c["point_a"][1], q("1/2"), 0);
  check_real<T>(c["point_b"][1], q("2"), 0);
  check_real<T>(a[3]["result"]["distance"], q("7/4"), 0);
  check_real<T>(a[3]["result"]["point_a"][0], q("5/4"), 0);
  CHECK(a[4]["result"]["intersecting"] == true);
  CHECK(a[4]["result"]["status"] == "touching");
  const json& k = a[5]["result"];
  check_real<T>(k["depth"], q("3/4"), 0);
  check_real<T>(k["normal"][0], q("0"), 0);
  check_real<T>(k["normal"][1], q("-1"), 0);
  check_real<T>(a[6]["result"]["depth"], q("1/2"), 0);
  check_real<T>(a[6]["result"]["normal"][1], q("1"), 0);
  check_real<T>(a[7]["result"]["depth"], q("1/4"), 0);
  check_real<T>(a[7]["result"]["normal"][0], q("1"), 0);
  CHECK(a[8]["result"]["intersecting"] == false);
  check_real<T>(a[8]["result"]["distance"], q("1"), 0);
}

// Box2D v3's plank case (tests/short_edge_test.cpp) as a request line: a
// plank 1 long and 0.0032 thick, a point 0.005 off the middle of its end
// face. The inputs are decimal strings rounded to the precision; the point's
// x rounds to x^ in [1/2, 1), so the distance x^ - 1/2 is exact in T.
TEMPLATE_TEST_CASE("gjk.distance: the Box2D v3 plank case is apart", "[eval][collision][shapes]", float, double,
                   rigidref::mp100) {
  using T = TestType;
  const std::string p(rigidref::scalar_name<T>());
  const json r = eval1(with_precision(
      R"({"id":1,"op":"gjk.distance","a":[["-0.5","-0.0016"],["0.5","-0.0016"],["0.5","0.0016"],["-0.5","0.0016"]],)"
      R"("b":{"point":["0.505","0"]}})",
      p));
  require_ok(r, p);
  CHECK(r["result"]["intersecting"] == false);
  CHECK(r["result"]["status"] == "converged");
  const exact x = rigidref::to_exact(rigidref::round_to<T>(q("0.505")));
  check_real<T>(r["result"]["distance"], exact(x - q("1/2")), 0);
  check_real<T>(r["result"]["point_a"][0], q("1/2"), 0);
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
      // Shape forms (docs/eval-protocol.md section 2) with bad fields.
      {R"({"id":1,"op":"gjk.distance","a":{"segment":[[1,1],[1,1]]},"b":)" + box + "}", "invalid_input",
       {"a", "distinct"}},
      {R"({"id":1,"op":"gjk.distance","a":{"segment":[[0,0]]},"b":)" + box + "}", "invalid_input", {"a", "segment"}},
      {R"({"id":1,"op":"epa.penetration","a":{"segment":[[0,0],[1,0]],"radius":-0.5},"b":)" + box + "}",
       "invalid_input", {"a.radius"}},
      {R"({"id":1,"op":"gjk.distance","a":{"point":[0,0],"radius":1},"b":)" + box + "}", "invalid_input",
       {"a", "radius"}},
      {R"({"id":1,"op":"gjk.distance","a":{"point":[0,"nan"]},"b":)" + box + "}", "invalid_input", {"a"}},
      {R"({"id":1,"op":"gjk.distance","a":{"vertices":)" + box + R"(,"radius":-1},"b":)" + box + "}",
       "invalid_input", {"a.radius"}},
      {R"({"id":1,"op":"gjk.distance","a":{"corners":[]},"b":)" + box + "}", "invalid_input", {"a", "shape"}},
      {R"({"id":1,"op":"sat.rectangles","r1":{"center":[0,0],"width":2,"height":2},"r2":{"center":[0,0],"width":2,"height":2,"angle":0}})",
       "invalid_input", {"r1", "angle"}},
      {R"({"id":1,"op":"sat.rectangles","r1":{"center":[0,0],"width":0,"height":2,"angle":0},"r2":{"center":[0,0],"width":2,"height":2,"angle":0}})",
       "invalid_input", {"r1", "width"}},
      {R"({"id":1,"op":"sat.rectangles","precision":"exact","r1":{"center":[0,0],"width":2,"height":2,"angle":0},"r2":{"center":[0,0],"width":2,"height":2,"angle":0}})",
       "unsupported", {"cos"}},
  });
}

TEST_CASE("gjk.distance, epa.penetration: a polygon written {\"vertices\"} is the same polygon", "[eval][collision]") {
  const std::string other = "[[2,0.5],[3,0.5],[3,1.5],[2,1.5]]";
  for (const char* op : {"gjk.distance", "epa.penetration"}) {
    INFO(op);
    const json listed = eval1(std::string(R"({"id":1,"op":")") + op + R"(","a":)" + unit_box + R"(,"b":)" + other + "}");
    const json wrapped = eval1(std::string(R"({"id":1,"op":")") + op + R"(","a":{"vertices":)" + unit_box +
                               R"(},"b":{"vertices":)" + other + R"(,"radius":0}})");
    REQUIRE(listed["ok"] == true);
    CHECK(wrapped == listed);
  }
}

// ---- contact.manifold ---------------------------------------------------------

namespace {

// The hand-worked cases of derivations/contact.md (D-CONTACT-5):
// A = [0,4] x [0,2] (counter-clockwise; its top face is edge 2, from (4,2) to (0,2)).
const std::string box_a = "[[0,0],[4,0],[4,2],[0,2]]";
// Face on face: B = [1,6] x [3/2,7/2]; its bottom face (edge 0) clipped to
// x in [0, 4]: (1, 3/2), an incident vertex, and (4, 3/2), cut by the side
// plane through A's vertex 2. Both 1/2 deep.
const std::string box_b = "[[1,1.5],[6,1.5],[6,3.5],[1,3.5]]";
// Vertex on face: a diamond whose vertex (2, 7/4) is 1/4 under A's top face.
const std::string diamond = "[[2,1.75],[3,2.75],[2,3.75],[1,2.75]]";

json feature(const char* type, int index) { return {{"type", type}, {"index", index}}; }

}  // namespace

TEMPLATE_LIST_TEST_CASE("contact.manifold: hand-worked manifolds in every floating precision", "[eval][manifold]",
                        rigidref::floating_scalars) {
  using T = TestType;
  const std::string p(rigidref::scalar_name<T>());
  const auto req = [&](const std::string& a, const std::string& b, const std::string& extra = "") {
    return with_precision(R"({"id":1,"op":"contact.manifold","a":)" + a + R"(,"b":)" + b + extra + "}", p);
  };
  // C: the unit box 1 to the right of A's right face (x = 4).
  const std::string far_box = "[[5,0],[6,0],[6,1],[5,1]]";
  const std::vector<json> r = eval({req(box_a, box_b), req(box_a, diamond), req(diamond, box_a), req(box_a, far_box),
                                    req(box_a, far_box, R"(,"relative_margin":1)")});
  for (const json& x : r) require_ok(x, p);

  const json& ff = r[0]["result"];
  CHECK(ff["status"] == "intersecting");
  CHECK(ff["reference"] == "a");
  check_real<T>(ff["depth"], q("1/2"), 0);
  check_real<T>(ff["normal"][0], q("0"), 0);
  check_real<T>(ff["normal"][1], q("1"), 0);
  REQUIRE(ff["points"].size() == 2);
  check_real<T>(ff["points"][0]["point"][0], q("1"), 0);
  check_real<T>(ff["points"][0]["point"][1], q("3/2"), 0);
  check_real<T>(ff["points"][0]["separation"], q("-1/2"), 0);
  check_real<T>(ff["points"][0]["reference_point"][1], q("2"), 0);
  CHECK(ff["points"][0]["feature_a"] == feature("face", 2));
  CHECK(ff["points"][0]["feature_b"] == feature("vertex", 0));
  check_real<T>(ff["points"][1]["point"][0], q("4"), 0);
  check_real<T>(ff["points"][1]["point"][1], q("3/2"), 0);
  check_real<T>(ff["points"][1]["separation"], q("-1/2"), 0);
  CHECK(ff["points"][1]["feature_a"] == feature("vertex", 2));
  CHECK(ff["points"][1]["feature_b"] == feature("face", 0));

  const json& vf = r[1]["result"];
  CHECK(vf["status"] == "intersecting");
  check_real<T>(vf["depth"], q("1/4"), 0);
  REQUIRE(vf["points"].size() == 1);
  check_real<T>(vf["points"][0]["point"][0], q("2"), 0);
  check_real<T>(vf["points"][0]["point"][1], q("7/4"), 0);
  check_real<T>(vf["points"][0]["separation"], q("-1/4"), 0);
  check_real<T>(vf["points"][0]["reference_point"][1], q("2"), 0);

  // Swapped: the face is now on b, the normal points from a (the diamond)
  // to b (the box), and the separation is unchanged.
  const json& sw = r[2]["result"];
  CHECK(sw["reference"] == "b");
  check_real<T>(sw["normal"][0], q("0"), 0);
  check_real<T>(sw["normal"][1], q("-1"), 0);
  REQUIRE(sw["points"].size() == 1);
  check_real<T>(sw["points"][0]["point"][1], q("7/4"), 0);
  check_real<T>(sw["points"][0]["separation"], q("-1/4"), 0);
  CHECK(sw["points"][0]["feature_a"] == feature("vertex", 0));
  CHECK(sw["points"][0]["feature_b"] == feature("face", 2));

  // Apart by 1: no points at margin 0; with relative_margin 1 (L = 1, the
  // smaller box) both ends of C's left face, separation +1.
  const json& apart = r[3]["result"];
  CHECK(apart["status"] == "separated");
  check_real<T>(apart["depth"], q("0"), 0);
  check_real<T>(apart["normal"][0], q("1"), 0);
  CHECK(apart["points"].empty());
  const json& spec = r[4]["result"];
  REQUIRE(spec["points"].size() == 2);
  check_real<T>(spec["points"][0]["point"][0], q("5"), 0);
  check_real<T>(spec["points"][0]["point"][1], q("1"), 0);
  check_real<T>(spec["points"][1]["point"][1], q("0"), 0);
  check_real<T>(spec["points"][0]["separation"], q("1"), 0);
  check_real<T>(spec["points"][1]["separation"], q("1"), 0);
}

TEST_CASE("contact.manifold: a point rounded once, away from the origin and in float", "[eval][manifold]") {
  // B's bottom face from (1/3, 1.5) (rounded by the precision) to (6, 1.5):
  // the cut at x = 4 is exact; shifting everything by 2^20 keeps it exact.
  const json far = eval1(R"({"id":1,"op":"contact.manifold","precision":"float",)"
                         R"("a":[[1048576,0],[1048580,0],[1048580,2],[1048576,2]],)"
                         R"("b":[[1048577,1.5],[1048582,1.5],[1048582,3.5],[1048577,3.5]]})");
  require_ok(far, "float");
  REQUIRE(far["result"]["points"].size() == 2);
  CHECK(far["result"]["points"][1]["point"][0] == 1048580);
  CHECK(far["result"]["points"][1]["separation"] == -0.5);
}

TEST_CASE("contact.manifold: shapes it does not take, exact, and bad input are typed errors", "[eval][manifold]") {
  const std::string box = box_a;
  check_error_cases({
      {R"({"id":1,"op":"contact.manifold","a":)" + box + "}", "invalid_input", {"b"}},
      {R"({"id":1,"op":"contact.manifold","precision":"exact","a":)" + box + R"(,"b":)" + box + "}", "unsupported",
       {"square root", "mp100"}},
      {R"({"id":1,"op":"contact.manifold","a":{"center":[0,0],"radius":0},"b":)" + box + "}", "invalid_input",
       {"a", "radius"}},
      {R"({"id":1,"op":"contact.manifold","a":)" + box + R"(,"b":{"vertices":)" + box + R"(,"radius":0.5}})",
       "unsupported", {"b", "rounded polygon"}},
      {R"({"id":1,"op":"contact.manifold","a":)" + box + R"(,"b":{"point":[0,0]}})", "unsupported", {"b", "point"}},
      {R"({"id":1,"op":"contact.manifold","a":{"segment":[[0,0],[1,0]],"radius":0.1},"b":)" + box + "}",
       "unsupported", {"a", "segment"}},
      {R"({"id":1,"op":"contact.manifold","a":[[0,0],[2,0],[1,0.2],[1,2]],"b":)" + box + "}", "invalid_input",
       {"a", "convex"}},
      {R"({"id":1,"op":"contact.manifold","a":)" + box + R"(,"b":[[0,0],[1,0]]})", "invalid_input", {"b"}},
      {R"({"id":1,"op":"contact.manifold","a":)" + box + R"(,"b":)" + box + R"(,"relative_margin":-1})",
       "invalid_input", {"relative_margin"}},
      {R"({"id":1,"op":"contact.manifold","a":"box","b":)" + box + "}", "invalid_input", {"a"}},
  });
  // {"vertices": [...]} with radius 0 is a plain polygon.
  const json zero = eval1(R"({"id":1,"op":"contact.manifold","a":{"vertices":)" + box + R"(,"radius":0},"b":)" +
                          box_b + "}");
  require_ok(zero, "double");
  CHECK(zero["result"]["points"].size() == 2);
}

}  // namespace eval_collision_test
