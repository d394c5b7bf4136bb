// The certified fast path of polygon mass properties (D-MASS-13..15): where
// the filter answers, its answer is the exact value rounded once; where the
// exact value sits on (or next to) a rounding boundary it declines, and the
// exact path answers. Expected values: verify::polygon_mass_oracle (exact
// rationals, the textbook formulas) rounded once, and hand-computed ties.
#include "rigidref/convert.hpp"
#include "rigidref/detail/mass_filter.hpp"
#include "rigidref/mass.hpp"
#include "rigidref/verify/mass_oracle.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace mass_filter_test {

using namespace rigidref;

namespace {

template <class T>
struct five {
  T v[5];
};

template <class T>
five<T> oracle_rounded(const std::vector<vec2<T>>& p, const T& amount, bool density) {
  const auto o = verify::polygon_mass_oracle<T>(std::span<const vec2<T>>(p), to_exact(amount), density);
  return {{round_to<T>(o.area), round_to<T>(o.centroid.x), round_to<T>(o.centroid.y), round_to<T>(o.mass),
           round_to<T>(o.inertia)}};
}

template <class T>
five<T> public_result(const std::vector<vec2<T>>& p, const T& amount, bool density) {
  const mass_properties<T> r = density ? polygon_mass_from_density<T>(p, amount, polygon_check::basic)
                                       : polygon_mass_from_mass<T>(p, amount, polygon_check::basic);
  return {{r.area, r.centroid.x, r.centroid.y, r.mass, r.inertia}};
}

template <class T>
std::vector<vec2<T>> random_polygon(std::mt19937_64& g, int n, double centre, double radius, bool convex) {
  std::uniform_real_distribution<double> angle(0, 2 * M_PI), shrink(0.2, 1);
  std::vector<double> a(n);
  for (double& x : a) x = angle(g);
  std::sort(a.begin(), a.end());
  std::vector<vec2<T>> p;
  for (double t : a) {
    const double r = convex ? radius : radius * shrink(g);
    p.push_back({T(centre + r * std::cos(t)), T(centre * 0.5 + r * std::sin(t))});
  }
  return p;
}

// Runs the filter and the public entry point on p; both must equal the
// oracle rounded once. Returns whether the filter answered.
template <class T>
bool check_polygon(const std::vector<vec2<T>>& p, const T& amount, bool density) {
  const five<T> want = oracle_rounded(p, amount, density);
  const five<T> got = public_result(p, amount, density);
  for (int i = 0; i < 5; ++i) REQUIRE(got.v[i] == want.v[i]);
  detail::mass_filter::rounded<T> f;
  if (!detail::mass_filter::try_polygon_mass<T>(std::span<const vec2<T>>(p), amount, density, f)) return false;
  const T filtered[5] = {f.area, f.centroid_x, f.centroid_y, f.mass, f.inertia};
  for (int i = 0; i < 5; ++i) REQUIRE(filtered[i] == want.v[i]);
  return true;
}

template <class T>
void random_polygons_agree_with_the_oracle() {
  std::mt19937_64 g(20261125);
  int answered = 0, total = 0;
  for (int k = 0; k < 300; ++k) {
    const int n = 3 + int(g() % 12);
    const double centre = (k % 4 == 0) ? std::ldexp(1.0, int(g() % (std::numeric_limits<T>::digits / 2))) : 1.5;  // far from the origin too
    const auto p = random_polygon<T>(g, n, centre, 0.5 + double(g() % 100) / 50, k % 3 != 0);
    answered += check_polygon<T>(p, T(0.25 + double(g() % 100) / 10), k % 2 == 0);
    ++total;
  }
  // The filter is the common path: it must answer nearly always.
  CHECK(answered >= total * 9 / 10);
}

}  // namespace

TEST_CASE("mass filter: random polygons, filter and public path equal the oracle rounded once", "[mass][filter]") {
  random_polygons_agree_with_the_oracle<double>();
  random_polygons_agree_with_the_oracle<float>();
  random_polygons_agree_with_the_oracle<long double>();
}

TEST_CASE("mass filter: a triangle's centroid exactly on a midpoint, decided by its side", "[mass][filter]") {
  // Centroid x = (0 + 3 + 3 * 2^-53) / 3 = 1 + 2^-53: exactly halfway between
  // 1 and 1 + 2^-52, so ties-to-even gives 1. No bound certifies a tie; the
  // side of the midpoint does (D-MASS-18).
  const std::vector<vec2<double>> tie = {{0, 0}, {3, 0}, {3 * 0x1p-53, 1}};
  detail::mass_filter::rounded<double> f;
  CHECK(detail::mass_filter::try_polygon_mass<double>(std::span<const vec2<double>>(tie), 1.0, true, f));
  CHECK(f.centroid_x == 1.0);
  // The same tie one ulp higher: between 1 + 2^-52 (odd) and 1 + 2^-51 (even).
  const std::vector<vec2<double>> odd_tie = {{0, 0}, {3, 0}, {3 * 0x1p-53 + 3 * 0x1p-52, 1}};
  CHECK(detail::mass_filter::try_polygon_mass<double>(std::span<const vec2<double>>(odd_tie), 1.0, true, f));
  CHECK(f.centroid_x == 1 + 0x1p-51);
  check_polygon<double>(odd_tie, 1.0, true);
  const mass_properties<double> r = polygon_mass_from_density<double>(tie, 1.0, polygon_check::basic);
  CHECK(r.centroid.x == 1.0);
  CHECK(r.centroid.y == 1.0 / 3);
  CHECK(r.area == 1.5);
  check_polygon<double>(tie, 1.0, true);
  // Just above the tie (by 2^-62 / 3): rounds up, to 1 + 2^-52.
  const std::vector<vec2<double>> above = {{0, 0}, {3, 0}, {3 * 0x1p-53 + 0x1p-62, 1}};
  CHECK(polygon_mass_from_density<double>(above, 1.0, polygon_check::basic).centroid.x == 1 + 0x1p-52);
  check_polygon<double>(above, 1.0, true);
  // And just below: rounds down, to 1.
  const std::vector<vec2<double>> below = {{0, 0}, {3, 0}, {3 * 0x1p-53 - 0x1p-62, 1}};
  CHECK(polygon_mass_from_density<double>(below, 1.0, polygon_check::basic).centroid.x == 1.0);
  check_polygon<double>(below, 1.0, true);
}

TEST_CASE("mass filter: inputs outside its range take the exact path, still correctly rounded", "[mass][filter]") {
  std::mt19937_64 g(7);
  for (double scale : {0x1p-70, 0x1p70, 0x1p-400, 0x1p400}) {
    auto p = random_polygon<double>(g, 7, 1.5, 1, true);
    for (auto& q : p) q = {q.x * scale, q.y * scale};
    detail::mass_filter::rounded<double> f;
    CHECK_FALSE(detail::mass_filter::try_polygon_mass<double>(std::span<const vec2<double>>(p), 1.0, false, f));
    check_polygon<double>(p, 1.0, false);
  }
}

}  // namespace mass_filter_test
