// The C++ ports of the ShapeMatching article's mat2.js and
// BodyShapeMatching.js against the article's own JavaScript, run in Node
// (data/golden/mat2.json, data/golden/shape_matching.json, data/generate/).
//  1. Bit for bit in double: every recorded value, with V8's cos, sin and
//     atan2 results substituted for the Body (V8's libm is not glibc's);
//     where the JS gives NaN, the port gives NaN (NaN bits are not compared).
//  2. The transpose bookkeeping: the goal positions are R (x0 - c0) + c for
//     the best rotation R, computed independently in 230-digit arithmetic.
//  3. A mirror image: the article's "rotation" is a reflection and the body
//     then turns by the reflection's angle.
#include "support/matchers.hpp"

#include "rigidref/articles/mat2.hpp"
#include "rigidref/articles/shape_matching.hpp"
#include "rigidref/verify/accuracy.hpp"

#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace golden_shape_matching_test {

using namespace rigidref;
using nlohmann::json;
using testing::IdenticalTo;

namespace {

using points = std::vector<vec2<double>>;

std::uint64_t bits_of(const json& j) { return std::stoull(j.get<std::string>(), nullptr, 16); }
double from_hex(const json& j) { return std::bit_cast<double>(bits_of(j)); }
vec2<double> vec_hex(const json& j) { return {from_hex(j[0]), from_hex(j[1])}; }
mat2<double> mat_hex(const json& j) {
  return {from_hex(j[0][0]), from_hex(j[0][1]), from_hex(j[1][0]), from_hex(j[1][1])};
}
points points_hex(const json& j) {
  points out;
  for (const auto& p : j) out.push_back(vec_hex(p));
  return out;
}

json load(const std::string& name) {
  std::ifstream in(std::string(RIGIDREF_SOURCE_DIR) + "/data/golden/" + name);
  REQUIRE(in.good());
  return json::parse(in);
}

// Bit-identical, or both NaN.
class same_as_js : public Catch::MatcherBase<double> {
 public:
  explicit same_as_js(double js) : js_(js) {}
  bool match(const double& x) const override {
    if (std::isnan(js_)) return std::isnan(x);
    return IdenticalTo(js_).match(x);
  }
  std::string describe() const override {
    return std::isnan(js_) ? "is NaN, as in JS" : "is identical to " + to_string(js_);
  }

 private:
  double js_;
};
same_as_js SameAsJs(double js) { return same_as_js(js); }

// Counts of compared values, for the summary line.
struct tally {
  int values = 0;
  int identical = 0;  // including both-NaN
  int nan = 0;        // of which both NaN
  void add(double got, double want) {
    ++values;
    if (SameAsJs(want).match(got)) {
      ++identical;
      nan += std::isnan(want) ? 1 : 0;
    }
  }
};

void check_value(tally& t, const std::string& what, double got, double want) {
  INFO(what);
  CHECK_THAT(got, SameAsJs(want));
  t.add(got, want);
}
void check_vec(tally& t, const std::string& what, const vec2<double>& got, const json& want) {
  check_value(t, what + ".x", got.x, from_hex(want[0]));
  check_value(t, what + ".y", got.y, from_hex(want[1]));
}
void check_mat(tally& t, const std::string& what, const mat2<double>& got, const json& want) {
  const mat2<double> w = mat_hex(want);
  check_value(t, what + "[0][0]", got.a, w.a);
  check_value(t, what + "[0][1]", got.b, w.b);
  check_value(t, what + "[1][0]", got.c, w.c);
  check_value(t, what + "[1][1]", got.d, w.d);
}
void check_points(tally& t, const std::string& what, const points& got, const json& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) check_vec(t, what + "[" + std::to_string(i) + "]", got[i], want[i]);
}

// V8's Math.cos / Math.sin / Math.atan2 results as recorded, looked up by
// the bits of the arguments; a lookup that misses is counted (a port that
// calls libm with other arguments has already diverged).
struct recorded_libm {
  std::map<std::uint64_t, double> cos_values, sin_values;
  std::map<std::pair<std::uint64_t, std::uint64_t>, double> atan2_values;
  mutable int misses = 0;

  explicit recorded_libm(const json& j) {
    for (const auto& e : j["cos"]) cos_values[bits_of(e[0])] = from_hex(e[1]);
    for (const auto& e : j["sin"]) sin_values[bits_of(e[0])] = from_hex(e[1]);
    for (const auto& e : j["atan2"]) atan2_values[{bits_of(e[0]), bits_of(e[1])}] = from_hex(e[2]);
  }
  double find(const std::map<std::uint64_t, double>& m, double x) const {
    const auto it = m.find(std::bit_cast<std::uint64_t>(x));
    if (it != m.end()) return it->second;
    ++misses;
    return std::numeric_limits<double>::quiet_NaN();
  }
  double cos(double x) const { return find(cos_values, x); }
  double sin(double x) const { return find(sin_values, x); }
  double atan2(double y, double x) const {
    const auto it = atan2_values.find({std::bit_cast<std::uint64_t>(y), std::bit_cast<std::uint64_t>(x)});
    if (it != atan2_values.end()) return it->second;
    ++misses;
    return std::numeric_limits<double>::quiet_NaN();
  }
};

std::string label(const json& c) { return c["kind"].get<std::string>() + ": " + c["label"].get<std::string>(); }

// ---- independent oracle (230 digits) ------------------------------------------

using verify::oracle_float;

struct oracle_vec {
  oracle_float x, y;
};

// g_i = R(theta) (x0_i - c0) + c, theta = atan2(sum u_i x v_i, sum u_i . v_i)
// with u_i = x0_i - c0, v_i = x_i - c (2D Procrustes: the rotation that
// minimises sum |R u_i - v_i|^2). Inputs are the exact doubles.
struct oracle_match {
  oracle_float theta;
  oracle_vec c0, c;                    // centres of mass of x0 and x
  std::vector<oracle_vec> goals;       // R(theta) (x0_i - c0) + c
  std::vector<oracle_vec> transposed;  // R(-theta) (x0_i - c0) + c: what R^T would give
};

oracle_match oracle_goals(const points& x0, const points& x) {
  const std::size_t n = x0.size();
  oracle_float c0x = 0, c0y = 0, cx = 0, cy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    c0x += x0[i].x;
    c0y += x0[i].y;
    cx += x[i].x;
    cy += x[i].y;
  }
  c0x /= n;
  c0y /= n;
  cx /= n;
  cy /= n;
  oracle_float sum_cross = 0, sum_dot = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const oracle_float ux = x0[i].x - c0x, uy = x0[i].y - c0y, vx = x[i].x - cx, vy = x[i].y - cy;
    sum_cross += ux * vy - uy * vx;
    sum_dot += ux * vx + uy * vy;
  }
  oracle_match out;
  out.theta = atan2(sum_cross, sum_dot);
  out.c0 = {c0x, c0y};
  out.c = {cx, cy};
  const oracle_float c = cos(out.theta), s = sin(out.theta);
  for (std::size_t i = 0; i < n; ++i) {
    const oracle_float ux = x0[i].x - c0x, uy = x0[i].y - c0y;
    out.goals.push_back({oracle_float(c * ux - s * uy + cx), oracle_float(s * ux + c * uy + cy)});
    out.transposed.push_back({oracle_float(c * ux + s * uy + cx), oracle_float(-s * ux + c * uy + cy)});
  }
  return out;
}

double distance(const vec2<double>& g, const oracle_vec& t) {
  const oracle_float dx = oracle_float(g.x) - t.x, dy = oracle_float(g.y) - t.y;
  return static_cast<double>(sqrt(oracle_float(dx * dx + dy * dy)));
}

double max_abs_coordinate(const points& a, const points& b) {
  double m = 0;
  for (const auto* list : {&a, &b})
    for (const auto& p : *list) m = std::max({m, std::abs(p.x), std::abs(p.y)});
  return m;
}

// Twice the signed area (shoelace), exactly: > 0 counter-clockwise.
exact twice_signed_area(const points& p) {
  exact s = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto& a = p[i];
    const auto& b = p[(i + 1) % p.size()];
    s += to_exact(a.x) * to_exact(b.y) - to_exact(a.y) * to_exact(b.x);
  }
  return s;
}

}  // namespace

TEST_CASE("mat2.js: every function bit-identical to the JS (NaN where the JS gives NaN)", "[golden][article]") {
  const auto doc = load("mat2.json");
  tally t;
  int nan_sqrt = 0;
  for (const auto& c : doc["cases"]) {
    INFO(label(c));
    const mat2<double> a = mat_hex(c["a_hex"]);
    const mat2<double> b = mat_hex(c["b_hex"]);
    check_value(t, "det", articles::mat2det(a), from_hex(c["det_hex"]));
    check_mat(t, "transpose", articles::mat2transpose(a), c["transpose_hex"]);
    check_mat(t, "sum", articles::mat2sum(a, b), c["sum_hex"]);
    check_mat(t, "mul", articles::mat2mul(a, b), c["mul_hex"]);
    check_mat(t, "sqrt", articles::mat2sqrt(a), c["sqrt_hex"]);
    check_mat(t, "inv", articles::mat2inv(a), c["inv_hex"]);
    nan_sqrt += std::isnan(articles::mat2sqrt(a).a) ? 1 : 0;
  }
  std::cout << "mat2.js: " << doc["cases"].size() << " cases, " << t.identical << "/" << t.values
            << " values identical (" << t.nan << " of them NaN in both); mat2sqrt NaN in " << nan_sqrt << " cases\n";
  CHECK(t.identical == t.values);
  CHECK(doc["cases"].size() >= 50);
}

TEST_CASE("mat2.js quirks: mat2inv is the transposed inverse; mat2sqrt gives NaN, not an error", "[article]") {
  const mat2<double> m{1, 2, 3, 4};
  const mat2<double> inv = articles::mat2inv(m);
  CHECK(inv == mat2<double>{-2, 1.5, 1, -0.5});  // the inverse is [[-2, 1], [1.5, -0.5]]
  CHECK(articles::mat2mul(m, articles::mat2transpose(inv)) == mat2<double>::identity());
  CHECK_FALSE(articles::mat2mul(m, inv) == mat2<double>::identity());
  // Symmetric argument (the article's only use): the true inverse.
  const mat2<double> s{2, 1, 1, 1};
  CHECK(articles::mat2inv(s) == mat2<double>{1, -1, -1, 2});

  CHECK(std::isnan(articles::mat2sqrt(mat2<double>{0, 0, 0, 0}).a));    // 0/0
  CHECK(std::isnan(articles::mat2sqrt(mat2<double>{1, 0, 0, -1}).d));   // sqrt(-1)
  CHECK(std::isnan(articles::mat2sqrt(mat2<double>{-1, 0, 0, -1}).a));  // t = sqrt(-2 + 2) = 0
  const mat2<double> r = articles::mat2sqrt(mat2<double>{4, 0, 0, 9});
  CHECK(r == mat2<double>{2, 0, 0, 3});
}

TEST_CASE("shapeMatch / shapeMatchRotation / centerOfMass: bit-identical to the JS", "[golden][article]") {
  const auto doc = load("shape_matching.json");
  tally t;
  int nan_cases = 0;
  for (const auto& c : doc["shape_match"]) {
    INFO(label(c));
    const points src = points_hex(c["src_hex"]);
    const points dst = points_hex(c["dst_hex"]);
    const vec2<double> sc = articles::center_of_mass(src);
    const vec2<double> dc = articles::center_of_mass(dst);
    check_vec(t, "src center", sc, c["src_center_hex"]);
    check_vec(t, "dst center", dc, c["dst_center_hex"]);
    points sv, dv;
    for (const auto& p : src) sv.push_back(p - sc);
    for (const auto& p : dst) dv.push_back(p - dc);
    const mat2<double> rot = articles::shape_match_rotation(sv, dv);
    check_mat(t, "rotation", rot, c["rotation_hex"]);
    const auto m = articles::shape_match(src, dst);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        check_value(t, "transform[" + std::to_string(i) + "][" + std::to_string(j) + "]", m.m[i][j],
                    from_hex(c["transform_hex"][i][j]));
    nan_cases += std::isnan(rot.a) ? 1 : 0;
  }
  std::cout << "shapeMatch: " << doc["shape_match"].size() << " cases (" << nan_cases << " with a NaN rotation), "
            << t.identical << "/" << t.values << " values identical (" << t.nan << " NaN in both)\n";
  CHECK(t.identical == t.values);
}

TEST_CASE("Body: worldShape, shapeMatch() and updateFromShape() bit-identical given V8's cos/sin/atan2",
          "[golden][article]") {
  const auto doc = load("shape_matching.json");
  tally t;
  std::map<std::string, std::pair<int, int>> libm;  // function -> (values, glibc differs from V8)
  int glibc_identical_cases = 0, atan2_values = 0, v8_atan2_rounded = 0, glibc_atan2_rounded = 0;
  for (const auto& c : doc["body"]) {
    INFO(label(c));
    const recorded_libm v8(c["js_libm"]);
    const auto body =
        articles::make_body(points_hex(c["shape_input_hex"]), vec_hex(c["pos_hex"]), from_hex(c["ang_hex"]));
    check_points(t, "shape", body.shape, c["shape_hex"]);
    check_points(t, "worldShape", articles::world_shape(body, v8), c["world_shape_hex"]);
    points update_shape = points_hex(c["update_shape_hex"]);
    if (!c["collision_shape_hex"].is_null()) {
      const points goals = articles::shape_match_goals(body, points_hex(c["collision_shape_hex"]), v8);
      check_points(t, "goal", goals, c["goal_hex"]);
      update_shape = goals;  // as World.step does: updateFromShape(collisionShape)
    }
    const auto u = articles::update_from_shape(body, update_shape, v8);
    check_vec(t, "update center", u.center, c["update_center_hex"]);
    check_mat(t, "update rotation", u.rotation, c["update_rotation_hex"]);
    CHECK(u.rotated != c["update_rotation_is_nan"].get<bool>());
    check_value(t, "ang after", u.body.ang, from_hex(c["after"]["ang_hex"]));
    check_vec(t, "pos after", u.body.pos, c["after"]["pos_hex"]);
    check_points(t, "worldShape after", articles::world_shape(u.body, v8), c["after"]["world_shape_hex"]);
    CHECK(v8.misses == 0);

    // How far glibc's own libm is from V8's here (informative).
    auto compare = [&](const std::string& f, double glibc, const json& v8_value) {
      ++libm[f].first;
      libm[f].second += glibc == from_hex(v8_value) ? 0 : 1;
    };
    for (const auto& e : c["js_libm"]["cos"]) compare("cos", std::cos(from_hex(e[0])), e[1]);
    for (const auto& e : c["js_libm"]["sin"]) compare("sin", std::sin(from_hex(e[0])), e[1]);
    for (const auto& e : c["js_libm"]["atan2"]) {
      const double y = from_hex(e[0]), x = from_hex(e[1]);
      compare("atan2", std::atan2(y, x), e[2]);
      // Which of the two is correctly rounded (230-digit atan2)?
      const exact truth = to_exact(verify::oracle_float(atan2(verify::oracle_float(y), verify::oracle_float(x))));
      const double v8_ulps = verify::ulps_from_rounded(from_hex(e[2]), truth);
      const double glibc_ulps = verify::ulps_from_rounded(std::atan2(y, x), truth);
      CHECK(v8_ulps <= 1);
      CHECK(glibc_ulps <= 1);
      ++atan2_values;
      v8_atan2_rounded += v8_ulps == 0 ? 1 : 0;
      glibc_atan2_rounded += glibc_ulps == 0 ? 1 : 0;
    }
    const auto g = articles::update_from_shape(body, update_shape);
    glibc_identical_cases += SameAsJs(from_hex(c["after"]["ang_hex"])).match(g.body.ang) ? 1 : 0;
  }
  std::cout << "Body: " << doc["body"].size() << " rounds, " << t.identical << "/" << t.values
            << " values identical with V8's libm values (" << t.nan
            << " NaN in both); glibc's libm differs from V8's in";
  for (const auto& [f, n] : libm) std::cout << " " << f << " " << n.second << "/" << n.first;
  std::cout << "; with glibc's own libm the angle after updateFromShape is identical in " << glibc_identical_cases
            << "/" << doc["body"].size() << " rounds; atan2 correctly rounded: V8 " << v8_atan2_rounded << "/"
            << atan2_values << ", glibc " << glibc_atan2_rounded << "/" << atan2_values << "\n";
  CHECK(t.identical == t.values);
}

TEST_CASE("Bookkeeping (D-SHAPE-2): the goals are R (x0 - c0) + c for the best rotation R, not R^T",
          "[golden][article]") {
  // Golden rounds (the JS's own goals) and random rounds through the port.
  const auto doc = load("shape_matching.json");
  double worst = 0;  // in units of eps * max |coordinate|
  int compared = 0;
  auto check_round = [&](const points& x0, const points& x, const points& goals, const std::string& what) {
    INFO(what);
    const oracle_match truth = oracle_goals(x0, x);
    const double scale = max_abs_coordinate(x0, x);
    double err = 0, err_transposed = 0, size = 0;
    for (std::size_t i = 0; i < x0.size(); ++i) {
      err = std::max(err, distance(goals[i], truth.goals[i]));
      err_transposed = std::max(err_transposed, distance(goals[i], truth.transposed[i]));
      const oracle_float ux = x0[i].x - truth.c0.x, uy = x0[i].y - truth.c0.y;
      size = std::max(size, static_cast<double>(sqrt(oracle_float(ux * ux + uy * uy))));
    }
    const double th = static_cast<double>(truth.theta);
    CHECK(err <= 256 * epsilon<double>() * scale);
    // Where R and R^T differ by more than rounding, the goals are on R's side.
    if (std::abs(std::sin(th)) * size > 1e-6) CHECK(err_transposed > 1e3 * err + 1e-9);
    worst = std::max(worst, err / (epsilon<double>() * scale));
    ++compared;
  };
  for (const auto& c : doc["body"]) {
    const std::string kind = c["kind"].get<std::string>();
    if (kind != "page" && kind != "rigid" && kind != "noisy" && kind != "unchanged") continue;
    check_round(points_hex(c["world_shape_hex"]), points_hex(c["collision_shape_hex"]), points_hex(c["goal_hex"]),
                label(c));
  }
  const int golden = compared;

  std::mt19937_64 gen(20240513);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int k = 0; k < 200; ++k) {
    const int n = 3 + k % 10;
    points shape;
    for (int i = 0; i < n; ++i) shape.push_back({3 * unit(gen), 3 * unit(gen)});
    const auto body = articles::make_body(shape, vec2<double>{20 * unit(gen), 20 * unit(gen)}, 3.1 * unit(gen));
    const points world = articles::world_shape(body);
    const double th = 3.1 * unit(gen);
    points collision;
    for (const auto& p : world) {
      const vec2<double> u = p - body.pos;
      collision.push_back({std::cos(th) * u.x - std::sin(th) * u.y + body.pos.x + 0.05 * unit(gen),
                           std::sin(th) * u.x + std::cos(th) * u.y + body.pos.y + 0.05 * unit(gen)});
    }
    const points goals = articles::shape_match_goals(body, collision);
    check_round(world, collision, goals, "random round " + std::to_string(k));
    // updateFromShape then turns by the same angle (times 0.98).
    const auto u = articles::update_from_shape(body, goals);
    const double turned = std::remainder(u.body.ang - body.ang, 2 * std::numbers::pi);
    const double expected =
        std::remainder(0.98 * static_cast<double>(oracle_goals(world, collision).theta), 2 * std::numbers::pi);
    CHECK(std::abs(turned - expected) <= 1e-12);
  }
  std::cout << "bookkeeping: " << golden << " golden and " << compared - golden << " random rounds; goals within "
            << worst << " eps * max|coordinate| of the 230-digit R (x0 - c0) + c\n";
}

TEST_CASE("Bookkeeping in mp100: the port is generic and its goals match the oracle to mp100 precision", "[article]") {
  const auto doc = load("shape_matching.json");
  for (const auto& c : doc["body"]) {
    if (c["kind"] != "rigid") continue;
    INFO(label(c));
    std::vector<vec2<mp100>> world, collision;
    for (const auto& p : points_hex(c["world_shape_hex"])) world.push_back({mp100(p.x), mp100(p.y)});
    for (const auto& p : points_hex(c["collision_shape_hex"])) collision.push_back({mp100(p.x), mp100(p.y)});
    // A body whose worldShape is exactly `world`: ang 0, pos (0, 0), shape = world.
    const articles::body_state<mp100> body{world, {mp100(0), mp100(0)}, mp100(0)};
    const auto goals = articles::shape_match_goals(body, collision);
    const oracle_match truth = oracle_goals(points_hex(c["world_shape_hex"]), points_hex(c["collision_shape_hex"]));
    for (std::size_t i = 0; i < goals.size(); ++i) {
      const oracle_float dx = oracle_float(goals[i].x) - truth.goals[i].x,
                         dy = oracle_float(goals[i].y) - truth.goals[i].y;
      CHECK(static_cast<double>(abs(dx) + abs(dy)) < 1e-80);
    }
  }
}

TEST_CASE("Mirror image: the article's rotation is a reflection, the goals are mirrored, the body turns by 2 alpha",
          "[golden][article]") {
  const auto doc = load("shape_matching.json");
  int mirrored = 0;
  for (const auto& c : doc["body"]) {
    if (c["kind"] != "mirrored") continue;
    ++mirrored;
    INFO(label(c));
    const recorded_libm v8(c["js_libm"]);
    const auto body =
        articles::make_body(points_hex(c["shape_input_hex"]), vec_hex(c["pos_hex"]), from_hex(c["ang_hex"]));
    const points world = articles::world_shape(body, v8);
    const points collision = points_hex(c["collision_shape_hex"]);
    // shapeMatch's own matrix: det Apq < 0, so the polar factor has det -1.
    const vec2<double> wc = articles::center_of_mass(world), cc = articles::center_of_mass(collision);
    points wv, cv;
    for (const auto& p : world) wv.push_back(p - wc);
    for (const auto& p : collision) cv.push_back(p - cc);
    const mat2<double> q = articles::shape_match_rotation(wv, cv);
    CHECK(std::abs(determinant(q) + 1) <= 1e-12);
    CHECK(std::abs(q.b - q.c) <= 1e-12);  // a reflection is symmetric

    // The goals are a mirror image: opposite orientation to the rest shape.
    const points goals = articles::shape_match_goals(body, collision, v8);
    CHECK(twice_signed_area(body.shape) > 0);  // the rest shapes are counter-clockwise
    CHECK(twice_signed_area(goals) < 0);
    // ... and they are the collision shape itself (a reflection fits it exactly).
    for (std::size_t i = 0; i < goals.size(); ++i)
      CHECK(std::hypot(goals[i].x - collision[i].x, goals[i].y - collision[i].y) < 1e-12);

    // updateFromShape reads atan2(rot01, rot00) of the reflection
    // [[cos 2a, sin 2a], [sin 2a, -cos 2a]]: it turns by 0.98 * 2 alpha.
    const auto u = articles::update_from_shape(body, goals, v8);
    REQUIRE(u.rotated);
    CHECK(std::abs(determinant(u.rotation) + 1) <= 1e-12);
    CHECK_THAT(u.body.ang, IdenticalTo(body.ang + v8.atan2(u.rotation.b, u.rotation.a) * 0.98));
    const double alpha = from_hex(c["mirror_alpha_hex"]);
    CHECK(std::abs((u.body.ang - body.ang) - 0.98 * 2 * alpha) <= 1e-12);
    // A rotated body cannot reach mirrored goals: it ends far from them.
    const points after = articles::world_shape(u.body, v8);
    double far = 0;
    for (std::size_t i = 0; i < goals.size(); ++i)
      far = std::max(far, std::hypot(after[i].x - goals[i].x, after[i].y - goals[i].y));
    CHECK(far > 0.1);
  }
  CHECK(mirrored == 3);
  // The same in the shapeMatch cases: a mirrored point set gives det -1.
  for (const auto& c : doc["shape_match"]) {
    if (c["kind"] != "mirrored") continue;
    INFO(label(c));
    CHECK(std::abs(determinant(mat_hex(c["rotation_hex"])) + 1) <= 1e-12);
  }
}

}  // namespace golden_shape_matching_test
