// `rigidref eval` ops impulse.wall and impulse.pair, end to end: the built
// binary answers through a pipe (support/eval_pipe.hpp) and the answers are
// checked against values worked out by hand (derivations/impulse.md,
// D-IMPULSE-4..8), in every precision. Every value here is a short dyadic or
// a small fraction, so each printed real must be the correctly rounded one
// (0 ulps: impulse.hpp computes exactly and rounds once, D-IMPULSE-10).
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
namespace eval_impulse_test {

namespace {

using rigidref::exact;
using namespace rigidref::testing::eval_pipe;

exact q(const char* text) { return rigidref::parse_exact(text); }

// A disc (m = 1, I = 1) falling at 2 onto a floor n = +y at its lowest point
// r = (0, -1), moving right at 1: u = (1, -2), t = (-1, 0), u_t = -1,
// K = diag(1, 2). e = 1/2: J = 3, B = 1/2, mu_cr = 1/6.
const std::string disc =
    R"({"op":"impulse.wall","mass":1,"inertia":1,"velocity":[1,-2],"angular_velocity":0,"r":[0,-1],"normal":[0,1],"restitution":0.5)";
// A rod end r = (1, -1) falling at 1: K = [[2, -1], [-1, 2]] in (n, t).
const std::string rod =
    R"({"op":"impulse.wall","mass":1,"inertia":1,"velocity":[0,-1],"angular_velocity":0,"r":[1,-1],"normal":[0,1],"restitution":0)";

}  // namespace

TEMPLATE_LIST_TEST_CASE("impulse.wall: hand-worked cases in every precision", "[eval][impulse]",
                        rigidref::all_scalars) {
  using T = TestType;
  const std::string p(rigidref::scalar_name<T>());
  const auto req = [&](const std::string& base, const std::string& rest) {
    return with_precision(base + rest + "}", p);
  };
  const std::vector<json> a = eval({
      req(disc, R"(,"friction":0,"model":"article")"),    // 0: frictionless, slides with jt = 0
      req(disc, R"(,"friction":1,"model":"article")"),    // 1: sticks, rolls
      req(disc, R"(,"friction":1,"model":"coupled")"),    // 2: K_nt = 0: the same
      req(disc, R"(,"friction":0.125,"model":"coupled")"),  // 3: mu = 1/8 < 1/6 slides
      req(rod, R"(,"friction":10,"model":"article")"),    // 4: article ignores K_nt
      req(rod, R"(,"friction":10,"model":"coupled")"),    // 5: coupled sticks
      req(disc.substr(0, disc.find("[1,-2]")) + "[1,2]" + disc.substr(disc.find("[1,-2]") + 6),
          R"(,"friction":1,"model":"coupled")"),           // 6: separating
  });
  REQUIRE(a.size() == 7);
  for (const json& x : a) require_ok(x, p);
  const auto check = [](const json& r, const char* jn, const char* jt, const char* vx, const char* vy, const char* w,
                        bool sticking) {
    INFO("result: " << r.dump());
    check_real<T>(r["jn"], q(jn), 0);
    check_real<T>(r["jt"], q(jt), 0);
    check_real<T>(r["velocity_after"][0], q(vx), 0);
    check_real<T>(r["velocity_after"][1], q(vy), 0);
    check_real<T>(r["angular_velocity_after"], q(w), 0);
    CHECK(r["sticking"] == sticking);
    CHECK(r["separating"] == false);
  };
  check(a[0]["result"], "3", "0", "1", "1", "0", false);
  check_real<T>(a[0]["result"]["mu_cr"], q("1/6"), 0);
  check(a[1]["result"], "3", "1/2", "1/2", "1", "-1/2", true);
  check(a[2]["result"], "3", "1/2", "1/2", "1", "-1/2", true);
  check_real<T>(a[2]["result"]["mu_cr"], q("1/6"), 0);
  // Sliding: jt = -mu J sign(u_t) = 3/8; P = (-3/8, 3); w' = r x P = -3/8.
  check(a[3]["result"], "3", "3/8", "5/8", "1", "-3/8", false);
  // Rod: article J = 1/2, B = 0 (u_t = 0); coupled K j = (1, 0): j = (2/3, 1/3), mu_cr = 1/2.
  check(a[4]["result"], "1/2", "0", "0", "-1/2", "1/2", true);
  check_real<T>(a[4]["result"]["mu_cr"], q("0"), 0);
  check(a[5]["result"], "2/3", "1/3", "-1/3", "-1/3", "1/3", true);
  check_real<T>(a[5]["result"]["mu_cr"], q("1/2"), 0);
  // Separating: no impulse, a clear flag, mu_cr null.
  const json& s = a[6]["result"];
  CHECK(s["separating"] == true);
  CHECK(s["sticking"] == false);
  CHECK(s["mu_cr"].is_null());
  check_real<T>(s["jn"], q("0"), 0);
  check_real<T>(s["velocity_after"][1], q("2"), 0);
}

TEMPLATE_LIST_TEST_CASE("impulse.pair: head-on, static body, no finite mu_cr", "[eval][impulse]",
                        rigidref::all_scalars) {
  using T = TestType;
  const std::string p(rigidref::scalar_name<T>());
  const std::vector<json> a = eval({
      // Equal discs head-on along x, e = 1, touching at their rims: they swap velocities (jn = 2).
      with_precision(
          R"({"op":"impulse.pair","body1":{"mass":1,"inertia":1,"velocity":[1,0],"angular_velocity":0,"r":[1,0]},)"
          R"("body2":{"mass":1,"inertia":1,"velocity":[-1,0],"angular_velocity":0,"r":[-1,0]},)"
          R"("normal":[1,0],"restitution":1,"friction":0.5,"model":"coupled"})",
          p),
      // A static body1 is the wall: same answer as impulse.wall (rod, coupled).
      with_precision(
          R"({"op":"impulse.pair","body1":{"static":true,"velocity":[0,0],"angular_velocity":0,"r":[0,0]},)"
          R"("body2":{"mass":1,"inertia":1,"velocity":[0,-1],"angular_velocity":0,"r":[1,-1]},)"
          R"("normal":[0,1],"restitution":0,"friction":10,"model":"coupled"})",
          p),
      // Rod sliding fast along -x (u_t = 2): the sticking impulse has jn* = 0,
      // so no finite mu sticks (mu_cr null); slides with s = -1: jn = 1/(2 + mu), jt = -mu jn.
      with_precision(
          R"({"op":"impulse.wall","mass":1,"inertia":1,"velocity":[-2,-1],"angular_velocity":0,"r":[1,-1],)"
          R"("normal":[0,1],"restitution":0,"friction":1,"model":"coupled"})",
          p),
  });
  REQUIRE(a.size() == 3);
  for (const json& x : a) require_ok(x, p);
  const json& h = a[0]["result"];
  check_real<T>(h["jn"], q("2"), 0);
  check_real<T>(h["jt"], q("0"), 0);
  check_real<T>(h["body1_after"]["velocity"][0], q("-1"), 0);
  check_real<T>(h["body2_after"]["velocity"][0], q("1"), 0);
  check_real<T>(h["body2_after"]["angular_velocity"], q("0"), 0);
  CHECK(h["sticking"] == true);
  const json& w = a[1]["result"];
  check_real<T>(w["jn"], q("2/3"), 0);
  check_real<T>(w["jt"], q("1/3"), 0);
  check_real<T>(w["body2_after"]["velocity"][0], q("-1/3"), 0);
  check_real<T>(w["body1_after"]["velocity"][0], q("0"), 0);
  const json& n = a[2]["result"];
  CHECK(n["mu_cr"].is_null());
  CHECK(n["sticking"] == false);
  check_real<T>(n["jn"], q("1/3"), 0);
  check_real<T>(n["jt"], q("-1/3"), 0);
  check_real<T>(n["velocity_after"][0], q("-5/3"), 0);
  check_real<T>(n["velocity_after"][1], q("-2/3"), 0);
  check_real<T>(n["angular_velocity_after"], q("2/3"), 0);
}

TEST_CASE("impulse ops: exact with a Pythagorean normal, and input errors", "[eval][impulse]") {
  const std::vector<json> a = eval({
      // n = (3/5, 4/5) exactly: accepted in exact.
      R"({"op":"impulse.wall","precision":"exact","mass":1,"inertia":1,"velocity":[0,-1],"angular_velocity":0,"r":[1,-1],"normal":["3/5","4/5"],"restitution":"1/2","friction":"1/10","model":"article"})",
      // (0.6, 0.8) as JSON numbers are doubles: not exactly unit in exact.
      R"({"op":"impulse.wall","precision":"exact","mass":1,"inertia":1,"velocity":[0,-1],"angular_velocity":0,"r":[1,-1],"normal":[0.6,0.8],"restitution":0.5,"friction":0.1,"model":"article"})",
      R"({"op":"impulse.wall","mass":1,"inertia":1,"velocity":[0,-1],"angular_velocity":0,"r":[1,-1],"normal":[0,1],"restitution":1.5,"friction":0.1,"model":"article"})",
      R"({"op":"impulse.wall","mass":1,"inertia":1,"velocity":[0,-1],"angular_velocity":0,"r":[1,-1],"normal":[0,1],"restitution":0.5,"friction":-1,"model":"article"})",
      R"({"op":"impulse.wall","mass":0,"inertia":1,"velocity":[0,-1],"angular_velocity":0,"r":[1,-1],"normal":[0,1],"restitution":0.5,"friction":1,"model":"article"})",
      R"({"op":"impulse.wall","mass":1,"inertia":1,"velocity":[0,"nan"],"angular_velocity":0,"r":[1,-1],"normal":[0,1],"restitution":0.5,"friction":1,"model":"article"})",
      R"({"op":"impulse.wall","mass":1,"inertia":1,"velocity":[0,-1],"angular_velocity":0,"r":[1,-1],"normal":[0,2],"restitution":0.5,"friction":1,"model":"coupled"})",
      R"({"op":"impulse.wall","mass":1,"inertia":1,"velocity":[0,-1],"angular_velocity":0,"r":[1,-1],"normal":[0,1],"restitution":0.5,"friction":1,"model":"box2d"})",
      R"({"op":"impulse.pair","body1":{"static":true,"velocity":[0,0],"angular_velocity":0,"r":[0,0]},"body2":{"static":true,"velocity":[0,0],"angular_velocity":0,"r":[0,0]},"normal":[0,1],"restitution":0.5,"friction":1,"model":"coupled"})",
      R"({"op":"impulse.pair","body1":[1,2],"body2":{},"normal":[0,1],"restitution":0.5,"friction":1,"model":"coupled"})",
  });
  REQUIRE(a.size() == 10);
  require_ok(a[0], "exact");
  // By hand: r x n = 1*4/5 + 3/5 = 7/5, K_nn = 1 + 49/25 = 74/25; u_n = -4/5;
  // J = (3/2)(4/5)/(74/25) = 15/37.
  CHECK(a[0]["result"]["jn"] == "15/37");
  require_error(a[1], "invalid_input", {"normal", "unit"});
  require_error(a[2], "invalid_input", {"restitution"});
  require_error(a[3], "invalid_input", {"friction"});
  require_error(a[4], "invalid_input", {"mass"});
  require_error(a[5], "invalid_input", {"velocity"});
  require_error(a[6], "invalid_input", {"unit"});
  require_error(a[7], "invalid_input", {"model"});
  require_error(a[8], "invalid_input", {"static"});
  require_error(a[9], "invalid_input", {"body1"});
}

}  // namespace eval_impulse_test
