// The fast simplicity test and exact mass path (D-MASS-17) against the
// previous implementation, kept here as the oracle: the ordered O(n^2) scan
// with every predicate in cpp_rational, and the fan sums of D-MASS-1..4 in
// cpp_rational. Every verdict (accepted, or the very message naming the
// first offending pair) and every exact output must be identical, on the
// committed mass cases and on random and adversarial polygons: near-touching
// non-adjacent edges, collinear overlaps, repeated vertices, spikes,
// near-collinear chains, coordinates far apart in magnitude, and rationals
// that are not doubles.
#include "rigidref/mass.hpp"
#include "rigidref/polygon.hpp"
#include "rigidref/predicates.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace simple_polygon_test {

using namespace rigidref;
using P = std::vector<vec2<double>>;

namespace {

// ---- the oracle: the previous implementation, in cpp_rational ----

int old_orientation(const vec2<exact>& a, const vec2<exact>& b, const vec2<exact>& c) {
  const exact det = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
  return det > 0 ? 1 : (det < 0 ? -1 : 0);
}

bool old_in_box(const vec2<exact>& a, const vec2<exact>& b, const vec2<exact>& p) {
  return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
         p.y <= std::max(a.y, b.y);
}

bool old_intersect(const vec2<exact>& p, const vec2<exact>& q, const vec2<exact>& r, const vec2<exact>& s) {
  const int d1 = old_orientation(r, s, p), d2 = old_orientation(r, s, q);
  const int d3 = old_orientation(p, q, r), d4 = old_orientation(p, q, s);
  if (d1 * d2 < 0 && d3 * d4 < 0) return true;
  return (d1 == 0 && old_in_box(r, s, p)) || (d2 == 0 && old_in_box(r, s, q)) || (d3 == 0 && old_in_box(p, q, r)) ||
         (d4 == 0 && old_in_box(p, q, s));
}

std::string edge_name(std::size_t i, std::size_t n) {
  return "edge " + std::to_string(i) + " (vertices " + std::to_string(i) + "-" + std::to_string((i + 1) % n) + ")";
}

// "ok" or the invalid_input message of the previous require_simple_polygon.
std::string old_verdict(const std::vector<vec2<exact>>& v) {
  try {
    require_polygon_basics<exact>(v);
  } catch (const invalid_input& e) {
    return e.what();
  }
  const std::size_t n = v.size();
  for (std::size_t i = 0; i < n; ++i) {
    const auto &a = v[i], &b = v[(i + 1) % n], &c = v[(i + 2) % n];
    if (old_orientation(a, b, c) == 0 && (old_in_box(a, b, c) || old_in_box(b, c, a)))
      return "polygon is not simple: " + edge_name(i, n) + " and " + edge_name((i + 1) % n, n) +
             " fold back onto each other";
    for (std::size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;
      if (old_intersect(a, b, v[j], v[(j + 1) % n]))
        return "polygon is not simple: " + edge_name(i, n) + " and " + edge_name(j, n) + " intersect";
    }
  }
  return "ok";
}

template <class T>
std::string new_verdict(const std::vector<vec2<T>>& v) {
  try {
    require_simple_polygon<T>(v);
    return "ok";
  } catch (const invalid_input& e) {
    return e.what();
  }
}

// The previous exact mass path: D-MASS-1..4 in cpp_rational about v0.
mass_properties<exact> old_mass(const std::vector<vec2<exact>>& v, const exact& amount, bool density) {
  exact a2 = 0, fx = 0, fy = 0, sec = 0;
  for (std::size_t i = 1; i + 1 < v.size(); ++i) {
    const vec2<exact> p{v[i].x - v[0].x, v[i].y - v[0].y}, q{v[i + 1].x - v[0].x, v[i + 1].y - v[0].y};
    const exact c = p.x * q.y - p.y * q.x;
    a2 += c;
    fx += c * (p.x + q.x);
    fy += c * (p.y + q.y);
    sec += c * (p.x * p.x + p.y * p.y + p.x * q.x + p.y * q.y + q.x * q.x + q.y * q.y);
  }
  if (a2 == 0) throw invalid_input("polygon has zero area");
  if (a2 < 0) {
    a2 = -a2;
    fx = -fx;
    fy = -fy;
    sec = -sec;
  }
  const exact area = a2 / 2, gx = fx / (3 * a2), gy = fy / (3 * a2);
  const exact per_area = sec / (6 * a2) - (gx * gx + gy * gy);
  const exact mass = density ? exact(amount * area) : amount;
  return {area, {exact(v[0].x + gx), exact(v[0].y + gy)}, mass, exact(mass * per_area)};
}

std::vector<vec2<exact>> to_exact_polygon(const P& v) {
  std::vector<vec2<exact>> r;
  for (const auto& p : v) r.push_back({to_exact(p.x), to_exact(p.y)});
  return r;
}

template <class T>
std::vector<vec2<T>> as(const P& v) {
  std::vector<vec2<T>> r;
  for (const auto& p : v) r.push_back({T(p.x), T(p.y)});
  return r;
}

struct tally {
  int accepted = 0, rejected = 0, mass_compared = 0;
};

// Every type that holds the polygon exactly gives the old verdict; an
// accepted polygon's exact mass properties are the old ones.
void compare(const P& v, tally& t, double amount = 1.0) {
  const std::vector<vec2<exact>> q = to_exact_polygon(v);
  const std::string want = old_verdict(q);
  INFO("polygon of " << v.size() << " vertices, expected verdict: " << want);
  CHECK(new_verdict(q) == want);
  CHECK(new_verdict(v) == want);
  CHECK(new_verdict(as<long double>(v)) == want);
  CHECK(new_verdict(as<mp50>(v)) == want);
  bool floats = true;
  for (const auto& p : v) floats = floats && double(float(p.x)) == p.x && double(float(p.y)) == p.y;
  if (floats) CHECK(new_verdict(as<float>(v)) == want);
  if (want != "ok") {
    ++t.rejected;
    return;
  }
  ++t.accepted;
  const exact amt = to_exact(amount);
  for (bool density : {true, false}) {
    std::string old_error, new_error;
    mass_properties<exact> a{}, b{};
    try {
      a = old_mass(q, amt, density);
    } catch (const invalid_input& e) {
      old_error = e.what();
    }
    try {
      b = density ? polygon_mass_from_density<exact>(q, amt) : polygon_mass_from_mass<exact>(q, amt);
    } catch (const invalid_input& e) {
      new_error = e.what();
    }
    CHECK(new_error == old_error);
    if (!old_error.empty()) continue;
    CHECK(b.area == a.area);
    CHECK(b.centroid.x == a.centroid.x);
    CHECK(b.centroid.y == a.centroid.y);
    CHECK(b.mass == a.mass);
    CHECK(b.inertia == a.inertia);
    ++t.mass_compared;
  }
}

std::mt19937_64& rng() {
  static std::mt19937_64 g(20261125);
  return g;
}

double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng()); }
int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng()); }

// Star-shaped about the origin: sorted angles, random radii; simple.
P star(int n, double scale) {
  std::vector<double> angles;
  for (int i = 0; i < n; ++i) angles.push_back(uniform(0, 6.283185307179586));
  std::sort(angles.begin(), angles.end());
  P v;
  for (double a : angles) {
    const double r = uniform(0.2, 1.0) * scale;
    v.push_back({r * std::cos(a), r * std::sin(a)});
  }
  return v;
}

// Integer points on a small grid: collinear overlaps, repeated vertices,
// touching edges and spikes in plenty.
P grid(int n, int size, double unit) {
  P v;
  for (int i = 0; i < n; ++i) v.push_back({pick(0, size) * unit, pick(0, size) * unit});
  return v;
}

double nudge(double x, int ulps) {
  for (; ulps > 0; --ulps) x = std::nextafter(x, HUGE_VAL);
  for (; ulps < 0; ++ulps) x = std::nextafter(x, -HUGE_VAL);
  return x;
}

// A vertex moved onto (within a few ulps of) a non-adjacent edge.
P near_touching(int n) {
  P v = star(n, 1.0);
  const std::size_t k = std::size_t(pick(0, n - 1));
  const std::size_t e = (k + std::size_t(pick(2, n - 2))) % std::size_t(n);  // edge e, not touching vertex k
  const vec2<double>& a = v[e];
  const vec2<double>& b = v[(e + 1) % std::size_t(n)];
  const double t = uniform(0, 1);
  v[k] = {nudge(a.x + t * (b.x - a.x), pick(-2, 2)), nudge(a.y + t * (b.y - a.y), pick(-2, 2))};
  return v;
}

// A chain near the line y = 3x / 7, closed by a far vertex: the orientation
// filter cannot decide most triples.
P near_collinear(int n) {
  P v;
  for (int i = 0; i < n - 1; ++i) {
    const double x = 0.1 * i + uniform(0, 1e-3);
    v.push_back({x, nudge(3 * x / 7, pick(-1, 1))});
  }
  v.push_back({0.5, pick(0, 1) ? 5.0 : -5.0});
  return v;
}

}  // namespace

TEST_CASE("simplicity and exact mass: the committed mass cases give the old verdicts and values") {
  std::ifstream in(std::string(RIGIDREF_SOURCE_DIR) + "/data/validation/mass.jsonl");
  REQUIRE(in);
  tally t;
  std::string line;
  while (std::getline(in, line)) {
    const nlohmann::json r = nlohmann::json::parse(line);
    if (r.value("op", "") != "mass.polygon") continue;
    P v;
    for (const auto& p : r["vertices"]) v.push_back({p[0].get<double>(), p[1].get<double>()});
    compare(v, t, r.contains("density") ? r["density"].get<double>() : 1.0);
  }
  CHECK(t.accepted + t.rejected == 762);
  CHECK(t.mass_compared == 2 * t.accepted);
}

TEST_CASE("simplicity and exact mass: random and adversarial polygons give the old verdicts and values") {
  tally t;
  for (int k = 0; k < 300; ++k) compare(star(pick(3, 40), std::ldexp(1.0, pick(-30, 30))), t);
  for (int k = 0; k < 300; ++k) {
    P v;
    const int n = pick(3, 9);
    for (int i = 0; i < n; ++i) v.push_back({uniform(-1, 1), uniform(-1, 1)});
    compare(v, t);
  }
  for (int k = 0; k < 1500; ++k) compare(grid(pick(3, 9), pick(1, 4), k % 2 ? 1.0 : 0.375), t);
  for (int k = 0; k < 500; ++k) compare(near_touching(pick(4, 20)), t);
  for (int k = 0; k < 300; ++k) compare(near_collinear(pick(3, 12)), t);
  for (int k = 0; k < 200; ++k) {  // magnitudes far apart: the integers of D-MASS-17 grow long
    P v = star(pick(3, 12), 1.0);
    for (auto& p : v) p = {std::ldexp(p.x, pick(-600, 600)), std::ldexp(p.y, pick(-600, 600))};
    compare(v, t);
  }
  INFO(t.accepted << " accepted, " << t.rejected << " rejected");
  CHECK(t.accepted > 500);  // both verdicts well represented
  CHECK(t.rejected > 500);
}

TEST_CASE("simplicity: rationals that are not doubles take the rational route and give the old verdicts") {
  int checked = 0;
  for (int k = 0; k < 400; ++k) {
    const P g = grid(pick(3, 8), 3, 1.0);
    std::vector<vec2<exact>> q;
    for (const auto& p : g) q.push_back({exact(to_exact(p.x) / 3), exact(to_exact(p.y) / 7)});
    CHECK(new_verdict(q) == old_verdict(q));
    ++checked;
  }
  CHECK(checked == 400);
}

TEST_CASE("orientation in builtin floats: the integer fallback agrees with rationals") {
  auto check_triple = [](const vec2<double>& a, const vec2<double>& b, const vec2<double>& c) {
    const int want = old_orientation({to_exact(a.x), to_exact(a.y)}, {to_exact(b.x), to_exact(b.y)},
                                     {to_exact(c.x), to_exact(c.y)});
    CHECK(orientation(a, b, c) == want);
    CHECK(detail::orientation_in_integers(a, b, c) == want);
    CHECK(orientation(vec2<long double>{a.x, a.y}, vec2<long double>{b.x, b.y}, vec2<long double>{c.x, c.y}) == want);
  };
  int zeros = 0;
  for (int k = 0; k < 3000; ++k) {
    const int scale = pick(-1070, 1000);  // subnormal to huge
    if (k % 3 == 0) {  // exactly collinear: small integers times 2^scale, c = a + t (b - a)
      auto small = [&] { return std::ldexp(double(pick(-(1 << 20), 1 << 20)), scale); };
      const vec2<double> a{small(), small()}, d{small(), small()};
      const double t = double(pick(-2, 3));
      check_triple(a, {a.x + d.x, a.y + d.y}, {a.x + t * d.x, a.y + t * d.y});
      zeros += detail::orientation_in_integers(a, {a.x + d.x, a.y + d.y}, {a.x + t * d.x, a.y + t * d.y}) == 0;
      continue;
    }
    const vec2<double> a{std::ldexp(uniform(-1, 1), scale), std::ldexp(uniform(-1, 1), scale)};
    const vec2<double> d{std::ldexp(uniform(-1, 1), scale), std::ldexp(uniform(-1, 1), scale)};
    const double t = uniform(-2, 2);
    const vec2<double> c{nudge(a.x + t * d.x, pick(-1, 1)), nudge(a.y + t * d.y, pick(-1, 1))};
    const vec2<double> b{a.x + d.x, a.y + d.y};
    if (!std::isfinite(b.x) || !std::isfinite(b.y) || !std::isfinite(c.x) || !std::isfinite(c.y)) continue;
    check_triple(a, b, c);
  }
  CHECK(zeros == 1000);  // every exactly collinear triple (k % 3 == 0) is found so
  CHECK_THROWS_AS(detail::orientation_in_integers(vec2<double>{NAN, 0}, vec2<double>{1, 0}, vec2<double>{0, 1}),
                  invalid_input);
}

TEST_CASE("rational_as_double: exactly the rationals that are doubles") {
  std::vector<double> doubles = {0.0,   -0.0,   1.0, -1.0, 0.1, -3.75, 1e300, -1e-300, std::numeric_limits<double>::max(),
                                 std::numeric_limits<double>::min(), std::numeric_limits<double>::denorm_min(),
                                 -std::numeric_limits<double>::denorm_min(), 0x1.fffffffffffffp-1023, 0x1p-1060,
                                 9007199254740991.0, 9007199254740992.0};
  for (int k = 0; k < 2000; ++k) doubles.push_back(std::ldexp(uniform(-1, 1), pick(-1100, 1023)));
  for (double d : doubles) {
    double back = 1;
    CHECK(detail::rational_as_double(to_exact(d), back));
    CHECK(back == d);
  }
  const std::vector<exact> not_doubles = {
      exact(1) / 3,
      exact(1) / 10,
      exact(big_int(1) << 1024),                               // overflows
      exact(big_int(1), big_int(1) << 1075),                   // half the least subnormal
      exact(big_int(3), big_int(1) << 1075),                   // 1.5 least subnormals
      exact((big_int(1) << 53) + 1),                           // 54 significant bits
      exact((big_int(1) << 53) + 1, big_int(1) << 60),         // the same, scaled
      exact(-((big_int(1) << 60) + 1)),                        // negative, 61 bits
      exact(big_int(1), big_int(1) << 5000),                   // far below the range
      exact(big_int(1) << 5000),                               // far above it
  };
  for (const exact& x : not_doubles) {
    double d = 0;
    CHECK_FALSE(detail::rational_as_double(x, d));
  }
}

}  // namespace simple_polygon_test
