// Whether the reference takes a collision case (derivations/judge.md
// D-JUDGE-12): an answer without a field (what check asks of an engine's
// error line) is decided from the shapes alone where they can tell, and the
// decision must be the whole 100-digit query's, exception and message
// included:
//   - on every pair of the committed collision case set, and on hand-made
//     shapes the reference rejects (each reason of make_shape) or takes
//     only after the query (a reach beyond 2^1000);
//   - the verdict of such an answer stays a failure ("intersecting"
//     missing): an error line never passes on it.
// And the distance from a point to a polygon core, which the judge takes on
// integers (judge/shape.hpp), against the same distance measured edge by
// edge in rationals here, on the committed polygons and points about them.
#include "rigidref/judge.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <random>
#include <string>
#include <optional>
#include <typeinfo>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace judge_collision_test {

using namespace rigidref;
namespace j = rigidref::judge;
using json = nlohmann::json;
using j::exact_point;

namespace {

exact_point point_of(const json& p) { return {to_exact(p[0].get<double>()), to_exact(p[1].get<double>())}; }

std::vector<exact_point> points_of(const json& list) {
  std::vector<exact_point> out;
  for (const json& p : list) out.push_back(point_of(p));
  return out;
}

// The case set's shape forms (docs/eval-protocol.md section 2).
j::shape shape_of(const json& v) {
  if (v.is_array()) return j::shape::polygon(points_of(v));
  const exact r = v.contains("radius") ? to_exact(v["radius"].get<double>()) : exact(0);
  if (v.contains("vertices")) return j::shape::polygon(points_of(v["vertices"]), r);
  if (v.contains("center")) return j::shape::circle(point_of(v["center"]), r);
  if (v.contains("point")) return j::shape::single_point(point_of(v["point"]));
  return j::shape::segment(point_of(v["segment"][0]), point_of(v["segment"][1]), r);
}

// "taken", or the exception's type and message.
template <class F>
std::string outcome(F&& judge) {
  try {
    judge();
    return "taken";
  } catch (const std::exception& e) {
    return std::string(typeid(e).name()) + ": " + e.what();
  }
}

const j::engine any;

// The decision without a field, and the whole query's (an answer with its
// flag runs it), for both ops.
void require_same_decision(const j::pair_case& c, const std::string& what) {
  INFO(what);
  j::verdict empty_gjk, empty_epa;
  const std::string fast_gjk = outcome([&] { empty_gjk = j::judge_gjk_distance(c, {}, any); });
  const std::string full_gjk = outcome([&] {
    j::gjk_answer a;
    a.intersecting = false;
    (void)j::judge_gjk_distance(c, a, any);
  });
  CHECK(fast_gjk == full_gjk);
  const std::string fast_epa = outcome([&] { empty_epa = j::judge_epa_penetration(c, {}, any); });
  const std::string full_epa = outcome([&] {
    j::epa_answer a;
    a.intersecting = false;
    (void)j::judge_epa_penetration(c, a, any);
  });
  CHECK(fast_epa == full_epa);
  for (const j::verdict* v : {&empty_gjk, &empty_epa}) {
    if (v->fields.empty()) continue;  // the case was rejected
    CHECK(v->result == j::outcome::fail);
    CHECK(v->fields.front().field == "intersecting");
    CHECK_FALSE(v->fields.front().pass);
  }
}

// The distance from p to a polygon core, edge by edge in rationals: 0
// inside (p on no edge's outer side), else the least distance to an edge.
exact distance_in_rationals(const std::vector<exact_point>& v, const exact_point& p) {
  int sign = 0;
  bool inside = true;
  std::optional<exact> best;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const exact_point& a = v[i];
    const exact_point& b = v[(i + 1) % v.size()];
    const exact side = cross(b - a, p - a);
    const int sg = side > 0 ? 1 : side < 0 ? -1 : 0;
    if (sg != 0) {
      if (sign != 0 && sg != sign) inside = false;
      sign = sg;
    }
    const exact d = verify::point_segment_distance_squared(p, a, b);
    if (!best || d < *best) best = d;
  }
  return inside ? exact(0) : j::sqrt_exact(*best);
}

std::vector<std::vector<exact_point>> committed_polygons() {
  std::ifstream in(std::string(RIGIDREF_SOURCE_DIR) + "/data/validation/collision.jsonl");
  std::vector<std::vector<exact_point>> out;
  for (std::string line; std::getline(in, line);) {
    const json c = json::parse(line);
    for (const char* k : {"a", "b"})
      if (c[k].is_array()) out.push_back(points_of(c[k]));
  }
  return out;
}

}  // namespace

TEST_CASE("judge: a point's distance to a polygon core on integers, as in rationals", "[judge][collision]") {
  const std::vector<std::vector<exact_point>> polygons = committed_polygons();
  REQUIRE(polygons.size() > 1000);
  std::mt19937_64 rng(20261129);
  std::uniform_real_distribution<double> unit(-1, 1);
  std::size_t outside = 0, inside = 0;
  for (const std::vector<exact_point>& v : polygons) {
    const j::shape s = j::shape::polygon(v);
    const exact size = j::size_of(s);
    const double reach = static_cast<double>(round_to<double>(j::reach_of(s)));
    std::vector<exact_point> points = {v[0], exact_point{(v[0].x + v[1].x) / 2, (v[0].y + v[1].y) / 2}};
    exact_point centroid{0, 0};
    for (const exact_point& q : v) centroid = centroid + q;
    points.push_back({centroid.x / static_cast<long long>(v.size()), centroid.y / static_cast<long long>(v.size())});
    for (int k = 0; k < 3; ++k) {
      // doubles about the polygon, as an engine's witnesses are, and one
      // point off the binary grid (a third)
      points.push_back({to_exact(unit(rng) * reach), to_exact(unit(rng) * reach)});
      points.push_back({v[k % v.size()].x + size * to_exact(unit(rng)), v[k % v.size()].y - size / 3});
    }
    for (const exact_point& p : points) {
      const exact want = distance_in_rationals(v, p);
      CHECK(j::distance_to_core(s, p) == want);
      (want == 0 ? inside : outside) += 1;
    }
  }
  CHECK(inside > 1000);
  CHECK(outside > 1000);
}

TEST_CASE("judge: the reference takes a collision case as its whole query does (D-JUDGE-12)", "[judge][collision]") {
  std::ifstream in(std::string(RIGIDREF_SOURCE_DIR) + "/data/validation/collision.jsonl");
  REQUIRE(in);
  std::size_t pairs = 0, within = 0;
  for (std::string line; std::getline(in, line);) {
    const json c = json::parse(line);
    const j::pair_case pair{shape_of(c["a"]), shape_of(c["b"])};
    require_same_decision(pair, c["id"].get<std::string>());
    within += j::detail::reference_takes_shapes(pair) ? 1 : 0;
    ++pairs;
  }
  CHECK(pairs == 1258);
  CHECK(within == pairs);  // every committed pair is decided without its query
}

TEST_CASE("judge: shapes the reference rejects, and reaches only the query decides (D-JUDGE-12)",
          "[judge][collision]") {
  const std::vector<exact_point> square{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  const j::shape unit = j::shape::polygon(square);
  // A square of side `at`, `at` from the origin: its reach is 2 at.
  const auto far_square = [](double at) {
    const exact a = to_exact(at), b = 2 * a;
    return j::shape::polygon({{a, 0}, {b, 0}, {b, a}, {a, a}});
  };
  const struct {
    const char* what;
    j::shape a;
    bool rejected;
  } shapes[] = {
      {"two vertices", j::shape::polygon({{0, 0}, {1, 0}}), true},
      {"not convex", j::shape::polygon({{0, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 2}}), true},
      {"collinear", j::shape::polygon({{0, 0}, {1, 0}, {2, 0}}), true},
      {"folded", j::shape::polygon({{0, 0}, {2, 0}, {1, 0}, {1, 1}}), true},
      {"negative radius", j::shape::polygon(square, -1), true},
      {"circle of radius 0", j::shape::circle({0, 0}, 0), true},
      {"segment of one point", j::shape::segment({1, 1}, {1, 1}), true},
      {"point with a radius", j::shape{j::shape::kind::point, {{0, 0}}, 1}, true},
      {"a square of side 1e300 (reach below 2^1000)", far_square(1e300), false},
      {"a square of side 1e305 (reach beyond 2^1000)", far_square(1e305), false},
      {"a circle of radius 1e305", j::shape::circle({0, 0}, to_exact(1e305)), false},
  };
  for (const auto& s : shapes) {
    for (const bool first : {true, false}) {
      const j::pair_case c = first ? j::pair_case{s.a, unit} : j::pair_case{unit, s.a};
      require_same_decision(c, s.what);
      const std::string decided = outcome([&] { (void)j::detail::reference_takes_shapes(c); });
      INFO(s.what << ": " << decided);
      CHECK((decided != "taken") == s.rejected);
    }
  }
  // Beyond 2^1000 the shapes alone do not decide; the query does (and takes them).
  CHECK(j::detail::reference_takes_shapes({far_square(1e300), unit}));
  CHECK_FALSE(j::detail::reference_takes_shapes({far_square(1e305), unit}));
  CHECK_FALSE(j::detail::reference_takes_shapes({unit, j::shape::circle({0, 0}, to_exact(1e305))}));
}

}  // namespace judge_collision_test
