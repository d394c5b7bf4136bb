// The mass condition numbers on integers (rigidref/judge/condition.hpp) give
// the same rationals as the term-by-term sums in `exact` they replaced
// (tests/support/mass_condition_rational.hpp, main at f4fceec): every field
// of polygon_mass_condition and polygon_mass_gradients, compared exactly, on
// the committed mass.polygon cases (every 8th by default, all with the
// hidden tag [.long]) and on random polygons: doubles near and far from the
// origin, tiny and huge, non-dyadic rationals, either orientation, convex or
// not, by density or by mass; degenerate ones must throw in both.
#include "rigidref/convert.hpp"
#include "rigidref/judge/condition.hpp"
#include "support/mass_condition_rational.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace judge_condition_test {
using namespace rigidref;
namespace j = rigidref::judge;
namespace old = rigidref::test_support::rational_condition;

namespace {

using polygon = std::vector<vec2<exact>>;

void same_field(const j::mass_condition::field& a, const j::mass_condition::field& b, const char* name) {
  INFO(name);
  CHECK(a.kappa == b.kappa);
  CHECK(a.sum == b.sum);
  CHECK(a.rounding == b.rounding);
}

void same_gradient(const j::mass_gradients::field& a, const old::mass_gradients::field& b, const char* name) {
  INFO(name);
  CHECK(a.value == b.value);
  CHECK(a.dparameter == b.dparameter);
  CHECK(a.dx == b.dx);
  CHECK(a.dy == b.dy);
}

// Both throw, or both give the same rationals. Returns whether they answered.
bool compare(const polygon& v, const std::optional<exact>& rho, const std::optional<exact>& mass) {
  const std::span<const vec2<exact>> s(v);
  std::optional<j::mass_condition> now, before;
  std::string now_error, before_error;
  try {
    now = j::polygon_mass_condition(s, rho, mass);
  } catch (const std::invalid_argument& e) {
    now_error = e.what();
  }
  try {
    before = old::polygon_mass_condition(s, rho, mass);
  } catch (const std::invalid_argument& e) {
    before_error = e.what();
  }
  REQUIRE(now.has_value() == before.has_value());
  CHECK(now_error == before_error);
  if (!now) return false;
  same_field(now->area, before->area, "area");
  same_field(now->centroid_x, before->centroid_x, "centroid x");
  same_field(now->centroid_y, before->centroid_y, "centroid y");
  same_field(now->mass, before->mass, "mass");
  same_field(now->inertia, before->inertia, "inertia");
  const j::mass_gradients g = j::polygon_mass_gradients(s, rho, mass);
  const old::mass_gradients h = old::polygon_mass_gradients(s, rho, mass);
  same_gradient(g.area, h.area, "d area");
  same_gradient(g.centroid_x, h.centroid_x, "d centroid x");
  same_gradient(g.centroid_y, h.centroid_y, "d centroid y");
  same_gradient(g.mass, h.mass, "d mass");
  same_gradient(g.inertia, h.inertia, "d inertia");
  CHECK(g.s0 == h.s0);
  CHECK(g.centroid[0] == h.centroid[0]);
  CHECK(g.centroid[1] == h.centroid[1]);
  return true;
}

exact json_number(const nlohmann::json& v) {
  return v.is_string() ? parse_exact(v.get<std::string>()) : to_exact(v.get<double>());
}

void committed_cases(std::size_t stride) {
  std::ifstream in(std::filesystem::path(RIGIDREF_SOURCE_DIR) / "data" / "validation" / "mass.jsonl");
  REQUIRE(in);
  std::string line;
  std::size_t index = 0, compared = 0;
  while (std::getline(in, line)) {
    if (index++ % stride != 0) continue;
    const nlohmann::json c = nlohmann::json::parse(line);
    if (c.value("op", "") != "mass.polygon" || !c.contains("vertices")) continue;
    polygon v;
    for (const auto& p : c["vertices"]) v.push_back({json_number(p[0]), json_number(p[1])});
    std::optional<exact> rho, mass;
    if (c.contains("mass")) mass = json_number(c["mass"]);
    else rho = c.contains("density") ? json_number(c["density"]) : exact(1);
    INFO("case " << c.value("id", std::string("?")));
    if (compare(v, rho, mass)) ++compared;
  }
  CHECK(compared >= index / stride / 2);
}

// A random polygon: n points on a jittered ellipse (convex) or anywhere in a
// box (usually not simple, which the condition numbers do not need), of size
// 2^size_exp at offset 2^offset_exp, as doubles or as rationals over 3, 7, 10.
polygon random_polygon(std::mt19937_64& g) {
  std::uniform_int_distribution<int> n_of(3, 12), kind_of(0, 3), size_exp(-30, 30), offset_exp(-10, 50);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const int n = n_of(g), kind = kind_of(g);
  const double size = std::ldexp(1.0, size_exp(g));
  const double ox = kind == 3 ? 0.0 : std::ldexp(unit(g), offset_exp(g)), oy = std::ldexp(unit(g), offset_exp(g));
  polygon v;
  for (int i = 0; i < n; ++i) {
    double x, y;
    if (kind == 0) {
      x = unit(g), y = unit(g);
    } else {
      const double a = 6.283185307179586 * (i + 0.4 * unit(g)) / n;
      x = std::cos(a), y = 0.5 * std::sin(a);
    }
    if (kind == 2) {
      // Non-dyadic rationals: small integers over 3, 7 and 10.
      const long long d[3] = {3, 7, 10};
      v.push_back({exact(static_cast<long long>(std::round(x * 1000)), d[i % 3]),
                   exact(static_cast<long long>(std::round(y * 1000)), d[(i + 1) % 3])});
    } else {
      v.push_back({to_exact(ox + size * x), to_exact(oy + size * y)});
    }
  }
  if (unit(g) < 0) std::reverse(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("judge condition: integers give the same rationals on the committed mass cases", "[judge][mass]") {
  committed_cases(8);
}

TEST_CASE("judge condition: integers give the same rationals on every committed mass case", "[.long][judge][mass]") {
  committed_cases(1);
}

TEST_CASE("judge condition: integers give the same rationals on random polygons", "[judge][mass]") {
  std::mt19937_64 g(20261127);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::size_t answered = 0;
  for (int k = 0; k < 300; ++k) {
    const polygon v = random_polygon(g);
    const bool by_mass = unit(g) < 0.5;
    const exact parameter = to_exact(std::ldexp(0.5 + unit(g), static_cast<int>(unit(g) * 40) - 20));
    INFO("polygon " << k);
    if (compare(v, by_mass ? std::nullopt : std::optional<exact>(parameter),
                by_mass ? std::optional<exact>(parameter) : std::nullopt))
      ++answered;
  }
  CHECK(answered >= 250);
  // Degenerate: zero area, too few vertices, both or neither parameter.
  const polygon line{{0, 0}, {1, 1}, {2, 2}};
  CHECK_FALSE(compare(line, exact(1), std::nullopt));
  const polygon two{{0, 0}, {1, 1}};
  CHECK_FALSE(compare(two, exact(1), std::nullopt));
  const polygon tri{{0, 0}, {1, 0}, {0, 1}};
  CHECK_FALSE(compare(tri, exact(1), exact(2)));
  CHECK_FALSE(compare(tri, std::nullopt, std::nullopt));
}

}  // namespace judge_condition_test
