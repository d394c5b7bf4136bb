// The fast paths of polygon mass properties against the route of f4fceec,
// forced with detail::filter_force_exact() (D-MASS-18, D-MASS-19): every
// output bit-identical, in double, float and mp50, on the bench_mass
// polygons, random convex and simple polygons (n = 3..64, offsets 0, 2^10,
// 2^30) and triangles whose centroid is exactly a midpoint of two doubles.
// The long sweep (10^5 polygons) is hidden: run with "[.][mass_long]".
#include "rigidref/convert.hpp"
#include "rigidref/detail/mass_filter.hpp"
#include "rigidref/detail/mass_narrow.hpp"
#include "rigidref/detail/mass_round.hpp"
#include "rigidref/detail/mass_triangle.hpp"
#include "rigidref/detail/mass_wide_sums.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/mass.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/verify/random.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace mass_fast_path_test {
using namespace rigidref;

namespace {

// The previous route: filter_force_exact() set for the call only.
struct forced_exact {
  bool saved;
  forced_exact() : saved(detail::filter_force_exact()) { detail::filter_force_exact() = true; }
  ~forced_exact() { detail::filter_force_exact() = saved; }
};

template <class T>
bool same_bits(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::memcmp(&a, &b, sizeof(T)) == 0 || (sizeof(T) > 8 && a == b && std::signbit(a) == std::signbit(b));
  } else {
    return a == b && (a < 0) == (b < 0);  // mp50: values; the zero sign does not occur (area > 0)
  }
}

template <class T>
mass_properties<T> public_mass(const std::vector<vec2<T>>& p, const T& amount, bool density) {
  const std::span<const vec2<T>> s(p);
  return density ? polygon_mass_from_density<T>(s, amount, polygon_check::basic)
                 : polygon_mass_from_mass<T>(s, amount, polygon_check::basic);
}

struct tally {
  long polygons = 0, outputs = 0, differ = 0, errors_differ = 0;
};

// One polygon, both routes: the same five outputs, or the same error text.
template <class T>
void compare(const std::vector<vec2<T>>& p, const T& amount, bool density, tally& t) {
  ++t.polygons;
  std::string fast_error, exact_error;
  mass_properties<T> fast{}, slow{};
  try {
    fast = public_mass(p, amount, density);
  } catch (const std::exception& e) {
    fast_error = e.what();
  }
  try {
    forced_exact guard;
    slow = public_mass(p, amount, density);
  } catch (const std::exception& e) {
    exact_error = e.what();
  }
  if (fast_error != exact_error) {
    ++t.errors_differ;
    return;
  }
  if (!fast_error.empty()) return;
  const T a[5] = {fast.area, fast.centroid.x, fast.centroid.y, fast.mass, fast.inertia};
  const T b[5] = {slow.area, slow.centroid.x, slow.centroid.y, slow.mass, slow.inertia};
  for (int i = 0; i < 5; ++i) {
    ++t.outputs;
    if (!same_bits(a[i], b[i])) ++t.differ;
  }
}

// bench_mass's polygons (bench/mass_bench.cpp): a jittered regular n-gon,
// stretched, rotated, scaled and moved, seed 20240601 + n.
std::vector<std::vector<vec2<double>>> bench_polygons(int n) {
  verify::rng g(20240601 + static_cast<std::uint64_t>(n));
  std::vector<std::vector<vec2<double>>> set;
  for (int k = 0; k < 16; ++k) {
    using verify::uniform;
    const double two_pi = 2 * std::acos(-1.0);
    const double sector = two_pi / n;
    const double aspect = uniform(g, 0.6, 1.0);
    const double radius = uniform(g, 0.5, 2.0);
    const double turn = uniform(g, 0.0, two_pi);
    const double cx = uniform(g, -4.0, 4.0), cy = uniform(g, -4.0, 4.0);
    std::vector<vec2<double>> v;
    for (int j = 0; j < n; ++j) {
      const double a = j * sector + uniform(g, -0.3, 0.3) * sector;
      const double ex = radius * std::cos(a), ey = radius * aspect * std::sin(a);
      v.push_back({cx + ex * std::cos(turn) - ey * std::sin(turn), cy + ex * std::sin(turn) + ey * std::cos(turn)});
    }
    set.push_back(std::move(v));
  }
  return set;
}

// A star-shaped polygon (simple; convex when `convex`), angles sorted, about
// (offset, offset / 2), in either orientation.
std::vector<vec2<double>> random_polygon(std::mt19937_64& g, int n, double offset, bool convex) {
  std::uniform_real_distribution<double> angle(0, 2 * M_PI), shrink(0.1, 1), size(0.01, 4);
  std::vector<double> a(n);
  for (double& x : a) x = angle(g);
  std::sort(a.begin(), a.end());
  a.erase(std::unique(a.begin(), a.end()), a.end());
  const double radius = size(g);
  std::vector<vec2<double>> p;
  for (double t : a) {
    const double r = convex ? radius : radius * shrink(g);
    p.push_back({offset + r * std::cos(t), offset / 2 + r * std::sin(t)});
  }
  if (g() % 2) std::reverse(p.begin(), p.end());
  return p;
}

// A triangle whose centroid x (and, when `both`, y) is exactly the midpoint
// m = r + 2^-53 of two doubles r, r + 2^-52 in [1, 2), scaled by 2^scale and
// with its vertices in a random order: a + b + c = 3 m, c in [0.5, 1) with
// an odd last bit, a and b in [1, 2). Empty when the draw is not exact.
std::vector<vec2<double>> tied_triangle(std::mt19937_64& g, int scale, bool both) {
  auto coordinate_triple = [&g](double out[3]) {
    std::uniform_int_distribution<std::int64_t> frac(0, (std::int64_t(1) << 52) - 1);
    const double r = 1 + std::ldexp(double(frac(g) % (std::int64_t(1) << 51)), -52);  // in [1, 1.5)
    const double c = 0.5 + std::ldexp(double(2 * (frac(g) >> 1) + 1), -53);          // odd last bit
    const double a = 1 + std::ldexp(double(frac(g)), -52);
    // b = 3 m - c - a with m = r + 2^-53, exact in rationals; keep it when it is a double
    const exact b_exact = 3 * (to_exact(r) + to_exact(0x1p-53)) - to_exact(c) - to_exact(a);
    const double b = round_to<double>(b_exact);
    if (to_exact(b) != b_exact) return false;
    out[0] = a;
    out[1] = b;
    out[2] = c;
    return true;
  };
  double x[3], y[3];
  if (!coordinate_triple(x)) return {};
  if (both) {
    if (!coordinate_triple(y)) return {};
  } else {
    std::uniform_real_distribution<double> u(-2, 2);
    for (double& t : y) t = u(g);
  }
  std::vector<vec2<double>> p;
  for (int i = 0; i < 3; ++i) p.push_back({std::ldexp(x[i], scale), std::ldexp(y[i], scale)});
  std::shuffle(p.begin(), p.end(), g);
  return p;
}

template <class T>
std::vector<vec2<T>> converted(const std::vector<vec2<double>>& p) {
  std::vector<vec2<T>> out;
  for (const auto& q : p) out.push_back({T(q.x), T(q.y)});
  return out;
}

// `count` random cases of each kind; returns the tally over double, float and mp50.
tally sweep(long count, std::uint64_t seed, bool with_mp50) {
  std::mt19937_64 g(seed);
  tally t;
  const double offsets[3] = {0, 0x1p10, 0x1p30};
  for (long k = 0; k < count; ++k) {
    const int n = 3 + int(g() % 62);
    const int small_n = 3 + int(g() % 6);
    const double offset = offsets[k % 3];
    const double amount = 0.25 + double(g() % 1000) / 64;
    const bool density = k % 2 == 0;
    const auto convex = random_polygon(g, (k % 4 == 0) ? n : small_n, offset, true);
    const auto simple = random_polygon(g, (k % 4 == 1) ? n : small_n, offset, false);
    const auto tie = tied_triangle(g, int(g() % 41) - 20, k % 2 == 1);
    for (const auto* p : {&convex, &simple, &tie}) {
      if (p->size() < 3) continue;
      compare<double>(*p, amount, density, t);
      compare<float>(converted<float>(*p), float(amount), density, t);
      if (with_mp50 && k % 8 == 0) compare<mp50>(converted<mp50>(*p), mp50(amount), density, t);
    }
  }
  return t;
}


// The polygons on which the filter's two copies are compared: bench_mass's
// for n = 3, 4, 6, 8, 64 and 600 random convex or simple ones (n = 3..32,
// offsets 0, 2^10, 2^30) drawn from `seed`.
template <class F>
void for_each_copy_check_polygon(std::uint64_t seed, F&& f) {
  std::mt19937_64 g(seed);
  for (int n : {3, 4, 6, 8, 64})
    for (const auto& p : bench_polygons(n)) f(p);
  const double offsets[3] = {0, 0x1p10, 0x1p30};
  for (int k = 0; k < 600; ++k) {
    const auto p = random_polygon(g, 3 + int(g() % 30), offsets[k % 3], k % 2 == 0);
    if (p.size() >= 3) f(p);
  }
}

// A random triangle in T: a thin sliver when `sliver` (the third vertex
// within about 2^-30 of the line through the other two, so the area's sign
// is close to uncertain), scaled by 2^scale and moved by (offset, -offset).
template <class T>
std::vector<vec2<T>> random_triangle(std::mt19937_64& g, int scale, double offset, bool sliver) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<vec2<T>> p;
  const double ax = u(g), ay = u(g), bx = u(g), by = u(g);
  const double t = u(g), lift = sliver ? std::ldexp(u(g), -30) : u(g);
  const double pts[3][2] = {{ax, ay}, {bx, by}, {ax + t * (bx - ax) - lift * (by - ay), ay + t * (by - ay) + lift * (bx - ax)}};
  for (const auto& q : pts) p.push_back({T(std::ldexp(q[0], scale) + offset), T(std::ldexp(q[1], scale) - offset)});
  return p;
}

// `count` random triangles per type (double, float, long double), both
// amounts, offsets 0, 2^10, 2^30; a fifth of them slivers. Returns the tally
// and, in `answered`, how many double triangles the filter certified whole.
tally triangle_sweep(long count, std::uint64_t seed, long& answered) {
  std::mt19937_64 g(seed);
  tally t;
  const double offsets[3] = {0, 0x1p10, 0x1p30};
  answered = 0;
  for (long k = 0; k < count; ++k) {
    const int scale = int(g() % 61) - 30;
    const double offset = k % 3 == 0 ? 0 : std::ldexp(offsets[k % 3], scale);
    const bool sliver = k % 5 == 4, density = k % 2 == 0;
    const double amount = 0.25 + double(g() % 1000) / 64;
    const auto d = random_triangle<double>(g, scale, offset, sliver);
    compare<double>(d, amount, density, t);
    detail::mass_filter::rounded<double> f;
    answered += detail::mass_filter::try_polygon_mass<double>(std::span<const vec2<double>>(d), amount, density, f);
    compare<float>(random_triangle<float>(g, scale / 2, offset, sliver), float(amount), density, t);
    compare<long double>(random_triangle<long double>(g, scale, offset, sliver), amount, density, t);
  }
  return t;
}

// D-MASS-27: where the rounding test accepts r for x = (h, l) with bound E,
// every y in [h + l - E, h + l + E] rounds to r (monotone RN: the two ends
// suffice). Ends computed exactly; `accepted` counts the accepted cases.
template <class T>
long check_rounding_test(std::mt19937_64& g, long count, long& accepted) {
  using W = std::conditional_t<std::is_same_v<T, float>, double, T>;
  constexpr int p = std::numeric_limits<T>::digits;
  long wrong = 0;
  std::uniform_real_distribution<double> unit(0, 1);
  for (long k = 0; k < count; ++k) {
    // h: a power of two every fourth case (the gap below is half the gap above)
    const W h = std::ldexp(k % 4 == 0 ? W(1) : W(1 + unit(g)), int(g() % 200) - 100);
    const W ulp = std::ldexp(W(1), std::ilogb(h) - p + 1);  // T's gap above |h|
    const W l = W(unit(g) - 0.5) * ulp * W(k % 3 == 0 ? 1 : 1e-3);
    const W e = ulp * W(std::ldexp(unit(g), -int(g() % 12)));  // up to a whole gap
    detail::mass_filter::cw<W> x{h, l};
    if constexpr (std::is_same_v<T, W>) x = detail::mass_filter::normalise(x);
    const W sgn = k % 2 ? W(-1) : W(1);
    x.hi *= sgn;
    x.lo *= sgn;
    T r{};
    if (!detail::mass_filter::certain_rounding<T>(x, e, r)) continue;
    ++accepted;
    const exact mid = to_exact(x.hi) + to_exact(x.lo);
    if (round_to<T>(mid - to_exact(e)) != r || round_to<T>(mid + to_exact(e)) != r) ++wrong;
  }
  return wrong;
}
}  // namespace

TEST_CASE("mass fast path: bench_mass polygons, bit-identical to the exact route", "[mass][fast_path]") {
  tally t;
  for (int n : {3, 4, 6, 8, 16, 32, 64})
    for (const auto& p : bench_polygons(n)) {
      compare<double>(p, 1.0, true, t);
      compare<double>(p, 2.5, false, t);
      compare<float>(converted<float>(p), 1.0f, true, t);
      compare<mp50>(converted<mp50>(p), mp50(1), true, t);
    }
  CHECK(t.polygons == 7 * 16 * 4);
  CHECK(t.errors_differ == 0);
  CHECK(t.differ == 0);
}

TEST_CASE("mass fast path: the bench triangles' ties are decided by the filter", "[mass][fast_path]") {
  // bench_mass's 16 triangles: the filter (with D-MASS-18) certifies every output.
  int answered = 0;
  for (const auto& p : bench_polygons(3)) {
    detail::mass_filter::rounded<double> f;
    answered += detail::mass_filter::try_polygon_mass<double>(std::span<const vec2<double>>(p), 1.0, true, f);
  }
  CHECK(answered == 16);
}

TEST_CASE("mass fast path: constructed centroid ties, decided as round_to does", "[mass][fast_path]") {
  std::mt19937_64 g(20261127);
  int ties = 0;
  tally t;
  for (int k = 0; k < 400; ++k) {
    const auto p = tied_triangle(g, int(g() % 41) - 20, k % 2 == 1);
    if (p.empty()) continue;
    ++ties;
    compare<double>(p, 1.0, true, t);
    detail::mass_filter::rounded<double> f;
    if (detail::mass_filter::try_polygon_mass<double>(std::span<const vec2<double>>(p), 1.0, true, f)) {
      // The centroid is exactly a midpoint: round_to's tie to even.
      const exact cx = (to_exact(p[0].x) + to_exact(p[1].x) + to_exact(p[2].x)) / 3;
      CHECK(f.centroid_x == round_to<double>(cx));
    }
  }
  CHECK(ties > 100);
  CHECK(t.errors_differ == 0);
  CHECK(t.differ == 0);
}

TEST_CASE("mass fast path: random convex and simple polygons, double, float, mp50", "[mass][fast_path]") {
  const tally t = sweep(700, 20261127, true);
  INFO("polygons " << t.polygons << ", outputs " << t.outputs);
  CHECK(t.polygons > 3000);
  CHECK(t.errors_differ == 0);
  CHECK(t.differ == 0);
}

TEST_CASE("mass fast path: round_wide is round_to of the exact value", "[mass][fast_path]") {
  using W = accumulator<mp50>::type;
  std::mt19937_64 g(5);
  constexpr int p = std::numeric_limits<mp50>::digits;
  long checked = 0;
  for (int k = 0; k < 3000; ++k) {
    // A random wide value, and the same with its bits below T's precision
    // set to exactly one half (a tie) or to a half plus or minus one unit.
    W w = 0;
    for (int j = 0; j < 8; ++j) w = ldexp(w, 60) + W(g() >> 4);
    w = ldexp(w, int(g() % 2000) - 1000 - 480);
    if (g() % 2) w = -w;
    int e = 0;
    const W m = frexp(abs(w), &e);
    const W top = floor(ldexp(m, p));
    W variants[4] = {w, ldexp(top + W(0.5), e - p), ldexp(top + W(0.5) + ldexp(W(1), -100), e - p),
                     ldexp(top + W(0.5) - ldexp(W(1), -100), e - p)};
    for (W& x : variants) {
      if (w < 0) x = -abs(x);
      const auto fast = detail::mass_round::round_wide<mp50>(x);
      REQUIRE(fast.has_value());
      REQUIRE(*fast == round_to<mp50>(to_exact(x)));
      ++checked;
    }
  }
  CHECK(checked == 12000);
}

TEST_CASE("mass fast path: triangles of every shape take their own formulas, same bits", "[mass][fast_path]") {
  // D-MASS-26: double, float and long double triangles, slivers among them,
  // against the forced exact route; the double filter answers nearly all.
  long answered = 0;
  const tally t = triangle_sweep(1500, 20261128, answered);
  INFO("triangles " << t.polygons << ", outputs " << t.outputs << ", double certified whole " << answered);
  CHECK(t.polygons == 3 * 1500);
  CHECK(t.errors_differ == 0);
  CHECK(t.differ == 0);
  CHECK(answered > 1500 * 9 / 10);
}

TEST_CASE("mass fast path: the rounding test accepts only what every point of the bound rounds to", "[mass][fast_path]") {
  // D-MASS-27, and its correction of D-MASS-15 (float from double): a power
  // of two h with the exact value possibly below it by more than a quarter
  // of the gap above must be declined.
  std::mt19937_64 g(27);
  long accepted_d = 0, accepted_f = 0, accepted_l = 0;
  CHECK(check_rounding_test<double>(g, 20000, accepted_d) == 0);
  CHECK(check_rounding_test<float>(g, 20000, accepted_f) == 0);
  CHECK(check_rounding_test<long double>(g, 20000, accepted_l) == 0);
  INFO("accepted " << accepted_d << " / " << accepted_f << " / " << accepted_l);
  CHECK(accepted_d > 2000);
  CHECK(accepted_f > 2000);
  CHECK(accepted_l > 2000);
  // y in [1 - 0.3 2^-52, 1 + 0.3 2^-52]: 1 - 0.3 2^-52 rounds to 1 - 2^-53.
  double rd = 0;
  CHECK_FALSE(detail::mass_filter::certain_rounding<double>(detail::mass_filter::cw<double>{1.0, 0.0}, 0.3 * 0x1p-52, rd));
  float rf = 0;
  CHECK_FALSE(detail::mass_filter::certain_rounding<float>(detail::mass_filter::cw<double>{1.0, 0.0}, 0.3 * 0x1p-23, rf));
  CHECK(detail::mass_filter::certain_rounding<double>(detail::mass_filter::cw<double>{1.0, 0.0}, 0.2 * 0x1p-53, rd));
  CHECK(rd == 1.0);
#if defined(RIGIDREF_MASS_FMA_DISPATCH)
  // The four-lane test answers as the scalar one, lane by lane.
  if (detail::mass_filter::cpu_has_fma()) {
    std::uniform_real_distribution<double> unit(0, 1);
    long differ = 0;
    for (int k = 0; k < 5000; ++k) {
      double hs[4], ls[4], es[4];
      int scalar = 0;
      for (int i = 0; i < 4; ++i) {
        hs[i] = std::ldexp(i == 0 && k % 2 ? 1.0 : 1 + unit(g), int(g() % 100) - 50) * (g() % 2 ? -1 : 1);
        const double ulp = std::ldexp(1.0, std::ilogb(hs[i]) - 52);
        ls[i] = (unit(g) - 0.5) * ulp;
        es[i] = ulp * std::ldexp(unit(g), -int(g() % 6));
        if (k % 7 == 0 && i == 3) hs[i] = 0;
        double r;
        scalar |= int(detail::mass_filter::certain_rounding<double>(detail::mass_filter::cw<double>{hs[i], ls[i]}, es[i], r)) << i;
      }
      differ += detail::mass_filter::certain_rounding4(hs, ls, es) != scalar;
    }
    CHECK(differ == 0);
  }
#endif
}

TEST_CASE("mass fast path: x / k and the reciprocal stay within their bounds", "[mass][fast_path]") {
  // D-MASS-26 (x / 3, x / 18 within 12 u^2) and D-MASS-28 (1 / y within
  // 16 u^2; derived 10 u^2), measured exactly on random normalised inputs.
  using detail::mass_filter::cw;
  std::mt19937_64 g(28);
  std::uniform_real_distribution<double> unit(1, 2), low(-1, 1);
  const exact u2 = to_exact(0x1p-106);
  long over = 0;
  exact worst_recip = 0;
  for (int k = 0; k < 4000; ++k) {
    const double hi = std::ldexp(unit(g), int(g() % 120) - 60) * (k % 2 ? -1 : 1);
    const cw<double> x = detail::mass_filter::normalise(cw<double>{hi, hi * low(g) * 0x1p-53});
    const exact xe = to_exact(x.hi) + to_exact(x.lo);
    for (const double k_div : {3.0, 18.0}) {
      const cw<double> q = detail::mass_filter::div_small<double, false>(x, k_div);
      const exact err = abs(to_exact(q.hi) + to_exact(q.lo) - xe / to_exact(k_div));
      over += err > 12 * u2 * abs(to_exact(q.hi));
      over += abs(q.lo) > 0x1p-53 * abs(q.hi);  // normalised
    }
    const cw<double> r = detail::mass_filter::reciprocal<double, false>(x);
    const exact rel = abs((to_exact(r.hi) + to_exact(r.lo)) * xe - 1);  // |r - 1/x| / |1/x|
    over += rel > 16 * u2;
    if (rel > worst_recip) worst_recip = rel;
  }
  INFO("worst reciprocal error / u^2: " << double(worst_recip / u2));
  CHECK(over == 0);
}

TEST_CASE("mass fast path: the reciprocal from an unnormalised head stays within 24 u^2", "[mass][fast_path]") {
  // D-MASS-33: th = RN(1 / h) for the pair (h, l) when |l| <= 2u |h| (derived
  // 20 u^2), else RN(1 / y.hi) (D-MASS-28: 16 u^2); measured exactly, with l
  // drawn up to and at the limit, and past it for the fallback.
  using detail::mass_filter::cw;
  std::mt19937_64 g(33);
  std::uniform_real_distribution<double> unit(1, 2), low(-1, 1);
  const exact u2 = to_exact(0x1p-106);
  long over = 0, fallback_over = 0;
  exact worst = 0;
  for (int k = 0; k < 20000; ++k) {
    const double h = std::ldexp(unit(g), int(g() % 120) - 60) * (k % 2 ? -1 : 1);
    // |l| / (u |h|): uniform in [0, 2], exactly 2 (every 5th), or in (2, 8] (every 7th)
    const double s = k % 7 == 0 ? 2 + 6 * unit(g) / 2 : k % 5 == 0 ? 2 : 2 * (unit(g) - 1);
    const double l = h * 0x1p-53 * s * (g() % 2 ? -1 : 1);
    const cw<double> y = detail::mass_filter::normalise(cw<double>{h, l});
    const exact ye = to_exact(h) + to_exact(l);
    const cw<double> r = detail::mass_filter::reciprocal_from_head<double, false>(h, l, y);
    const exact rel = abs((to_exact(r.hi) + to_exact(r.lo)) * ye - 1);
    if (std::abs(l) <= 0x1p-52 * std::abs(h)) {
      over += rel > 24 * u2;
      if (rel > worst) worst = rel;
    } else {
      fallback_over += rel > 16 * u2;
    }
    over += std::abs(r.lo) > 0x1p-53 * std::abs(r.hi);  // normalised
  }
  INFO("worst error from the head / u^2: " << double(worst / u2));
  CHECK(over == 0);
  CHECK(fallback_over == 0);
  CHECK(worst > 4 * u2);  // the inputs reach past D-MASS-28's usual errors
}

TEST_CASE("mass fast path: 10^5 random polygons (long)", "[.][mass_long]") {
  const tally t = sweep(100000 / 3 + 1, 42, true);
  WARN("polygons " << t.polygons << ", outputs " << t.outputs << ", differ " << t.differ << ", errors differ "
                   << t.errors_differ);
  CHECK(t.errors_differ == 0);
  CHECK(t.differ == 0);
  long answered = 0;  // D-MASS-26: 10^5 triangles per type
  const tally tri = triangle_sweep(100000, 43, answered);
  WARN("triangles " << tri.polygons << ", outputs " << tri.outputs << ", differ " << tri.differ
                    << ", errors differ " << tri.errors_differ << ", double certified whole " << answered);
  CHECK(tri.errors_differ == 0);
  CHECK(tri.differ == 0);
}

TEST_CASE("mass fast path: mp50 fan sums in integers equal the accumulator's", "[mass][fast_path]") {
  using W = accumulator<mp50>::type;
  std::mt19937_64 g(11);
  int exact_sums = 0;
  for (int k = 0; k < 300; ++k) {
    const double offsets[3] = {0, 0x1p10, 0x1p30};
    auto p = converted<mp50>(random_polygon(g, 3 + int(g() % 62), offsets[k % 3], k % 2 == 0));
    if (p.size() < 3) continue;
    if (k % 5 == 4) p[1].x += mp50(1) / 3;  // a long significand: the accumulator sums instead
    detail::mass_wide_sums::sums<W> w;
    const bool fast = detail::mass_wide_sums::exact_fan_sums<mp50, W>(std::span<const vec2<mp50>>(p), w);
    CHECK(fast == (k % 5 != 4));
    if (!fast) continue;
    ++exact_sums;
    const detail::fan_sums<mp50> s = detail::polygon_fan_sums<mp50>(std::span<const vec2<mp50>>(p));
    CHECK(w.twice_area == s.twice_area);
    CHECK(w.first_x == s.first_x);
    CHECK(w.first_y == s.first_y);
    CHECK(w.second == s.second);
    // and the exact values (D-MASS-16's integers): the accumulator was exact
    CHECK(to_exact(w.twice_area) == to_exact(s.twice_area));
  }
  CHECK(exact_sums > 200);
  // bench_mass's polygons all take the integer sums.
  for (int n : {3, 8, 64})
    for (const auto& p : bench_polygons(n)) {
      detail::mass_wide_sums::sums<W> w;
      CHECK(detail::mass_wide_sums::exact_fan_sums<mp50, W>(std::span<const vec2<mp50>>(converted<mp50>(p)), w));
    }
}

TEST_CASE("mass fast path: the fan sums from 64- and 128-bit integers equal the wide ones", "[mass][fast_path]") {
  // D-MASS-38: integers below 2^61 in magnitude, the extremes included.
#if defined(__SIZEOF_INT128__)
  using I = detail::mass_wide_sums::fixed_int<320>;
  std::mt19937_64 g(38);
  const std::int64_t top = (std::int64_t(1) << 61) - 1;
  long differ = 0;
  for (int k = 0; k < 3000; ++k) {
    const std::size_t n = 3 + g() % 62;
    std::vector<std::int64_t> xs(n), ys(n);
    const int width = 1 + int(g() % 61);
    for (std::size_t i = 0; i < n; ++i)
      for (std::int64_t* c : {&xs[i], &ys[i]}) {
        const std::int64_t m = k % 7 == 0 ? top : std::int64_t(g() >> (64 - width));
        *c = g() % 2 ? -m : m;
      }
    const auto a = detail::mass_wide_sums::narrow_fan_sums<I>(xs, ys);
    const auto b = detail::mass_exact::integer_fan_sums<I>(
        n, I(xs[0]), I(ys[0]), [&](std::size_t i) { return I(xs[i]); }, [&](std::size_t i) { return I(ys[i]); });
    differ += a.twice_area != b.twice_area || a.first_x != b.first_x || a.first_y != b.first_y || a.second != b.second;
  }
  CHECK(differ == 0);
#endif
}

TEST_CASE("mass fast path: mp50 narrow outputs hold the accumulator's values in their radii", "[mass][fast_path]") {
  // D-MASS-32: |w - narrow| <= radius, w the accumulator route's centroid and
  // inertia before their rounding to mp50 (its own expressions, in W), and the
  // narrow route certifies (nearly) every polygon.
  using W = accumulator<mp50>::type;
  std::mt19937_64 g(32);
  int tried = 0, certified = 0;
  long outside = 0;
  auto check = [&](const std::vector<vec2<double>>& pd, double amount, bool density) {
    auto p = converted<mp50>(pd);
    detail::mass_wide_sums::sums<W> w;
    if (!detail::mass_wide_sums::exact_fan_sums<mp50, W>(std::span<const vec2<mp50>>(p), w)) return;
    if (w.twice_area == 0) return;
    if (w.twice_area < 0) {
      w.twice_area = -w.twice_area;
      w.first_x = -w.first_x;
      w.first_y = -w.first_y;
      w.second = -w.second;
    }
    ++tried;
    const W area = ldexp(w.twice_area, -1), amt(amount);
    const W mass = density ? W(amt * area) : amt;
    const W three = w.twice_area * W(3);
    const W gx = w.first_x / three, gy = w.first_y / three;
    const W per_area = w.second / (w.twice_area * W(6)) - (gx * gx + gy * gy);
    const W wx = W(p[0].x) + gx, wy = W(p[0].y) + gy, wi = mass * per_area;
    const auto o = detail::mass_narrow::outputs<mp50, W>(w.twice_area, w.first_x, w.first_y, w.second, p[0].x,
                                                         p[0].y, mass);
    outside += abs(wx - W(o.centroid_x)) > W(o.radius_x);
    outside += abs(wy - W(o.centroid_y)) > W(o.radius_y);
    outside += abs(wi - W(o.inertia)) > W(o.radius_inertia);
    certified += bool(detail::mass_narrow::try_outputs<mp50, W>(w.twice_area, w.first_x, w.first_y, w.second,
                                                                 p[0].x, p[0].y, mass));
  };
  for (int k = 0; k < 600; ++k) {
    const double offsets[3] = {0, 0x1p10, 0x1p30};
    const auto p = random_polygon(g, 3 + int(g() % 62), offsets[k % 3], k % 2 == 0);
    if (p.size() >= 3) check(p, 0.25 + double(g() % 1000) / 7, k % 4 != 1);
  }
  for (int n : {3, 4, 6, 8, 64})
    for (const auto& p : bench_polygons(n)) check(p, 1, true);
  INFO("tried " << tried << ", certified " << certified);
  CHECK(outside == 0);
  CHECK(tried > 500);
  CHECK(certified >= tried - tried / 100);
}

TEST_CASE("mass fast path: the generic and the FMA copy of the filter agree bit for bit", "[mass][fast_path]") {
  // D-MASS-18: TwoProd is exact either way, so both copies compute the same
  // values and certify the same outputs. The generic copy runs everywhere;
  // the FMA copy only where the processor has FMA.
  long compared = 0;
  auto both = [&compared](const std::vector<vec2<double>>& p) {
    const std::span<const vec2<double>> s(p);
    detail::mass_filter::rounded<double> a, b;
    const bool ra = detail::mass_filter::try_polygon_mass_with<double, false>(s, 1.5, true, a);
#if defined(RIGIDREF_MASS_FMA_DISPATCH)
    if (!detail::mass_filter::cpu_has_fma()) return;
    const bool rb = detail::mass_filter::try_polygon_mass_fma<double>(s, 1.5, true, b);
#else
    const bool rb = detail::mass_filter::try_polygon_mass<double>(s, 1.5, true, b);
#endif
    CHECK(ra == rb);
    const double x[5] = {a.area, a.centroid_x, a.centroid_y, a.mass, a.inertia};
    const double y[5] = {b.area, b.centroid_x, b.centroid_y, b.mass, b.inertia};
    for (int i = 0; i < 5; ++i) {
      CHECK(a.certified[i] == b.certified[i]);
      if (a.certified[i]) CHECK(same_bits(x[i], y[i]));
    }
    ++compared;
  };
  for_each_copy_check_polygon(3, both);
  CHECK(compared > 0);
}

TEST_CASE("mass fast path: the x/y-pair fan sums equal the scalar ones bit for bit", "[mass][fast_path]") {
  // D-MASS-24: each lane runs the scalar operations, so every sum (hi and lo)
  // and every magnitude is the scalar value; the bounds of D-MASS-13 carry over.
#if defined(RIGIDREF_MASS_FMA_DISPATCH)
  if (!detail::mass_filter::cpu_has_fma()) return;
  long compared = 0, differ = 0;
  auto both = [&](const std::vector<vec2<double>>& p) {
    const std::span<const vec2<double>> s(p);
    const auto a = detail::mass_filter::fan_sums<double, double, false>(s);
    const auto b = detail::mass_filter::fan_sums_xy(s);
    const double x[12] = {a.twice_area.hi, a.twice_area.lo, a.first_x.hi, a.first_x.lo, a.first_y.hi, a.first_y.lo,
                          a.second.hi,     a.second.lo,     a.mag_area,   a.mag_first_x, a.mag_first_y, a.mag_second};
    const double y[12] = {b.twice_area.hi, b.twice_area.lo, b.first_x.hi, b.first_x.lo, b.first_y.hi, b.first_y.lo,
                          b.second.hi,     b.second.lo,     b.mag_area,   b.mag_first_x, b.mag_first_y, b.mag_second};
    for (int i = 0; i < 12; ++i) differ += !same_bits(x[i], y[i]);
    ++compared;
  };
  for_each_copy_check_polygon(11, both);
  INFO("polygons " << compared);
  CHECK(compared > 600);
  CHECK(differ == 0);
#endif
}

TEST_CASE("mass fast path: the four-lane triangle forms equal the scalar ones bit for bit", "[mass][fast_path]") {
  // D-MASS-36: triangle_forms_xy and triangle_centre_xy run the scalar
  // operations per lane (mul's cross terms in the other order, which
  // addition's commutativity makes the same value).
#if defined(RIGIDREF_MASS_FMA_DISPATCH)
  if (!detail::mass_filter::cpu_has_fma()) return;
  std::mt19937_64 g(36);
  long compared = 0, differ = 0;
  auto both = [&](const std::vector<vec2<double>>& p) {
    const std::span<const vec2<double>> s(p.data(), 3);
    const auto a = detail::mass_filter::triangle_forms_of<double, double, false>(s);
    const auto b = detail::mass_filter::triangle_forms_xy(s);
    const auto c = detail::mass_filter::triangle_centre_of<double, double, false>(s);
    const auto d = detail::mass_filter::triangle_centre_xy(s);
    const double x[15] = {a.c.hi, a.c.lo, a.pp.hi, a.pp.lo, a.qq.hi, a.qq.lo, a.pq.hi, a.pq.lo,
                          a.mc,   c.x.hi, c.x.lo,  c.y.hi,  c.y.lo,  c.ex,    c.ey};
    const double y[15] = {b.c.hi, b.c.lo, b.pp.hi, b.pp.lo, b.qq.hi, b.qq.lo, b.pq.hi, b.pq.lo,
                          b.mc,   d.x.hi, d.x.lo,  d.y.hi,  d.y.lo,  d.ex,    d.ey};
    for (int i = 0; i < 15; ++i) differ += !same_bits(x[i], y[i]);
    ++compared;
  };
  for_each_copy_check_polygon(36, both);  // the first three vertices of each
  for (int k = 0; k < 2000; ++k) both(random_triangle<double>(g, int(g() % 80) - 40, k % 3 ? 0x1p20 : 0, k % 4 == 0));
  INFO("triangles " << compared);
  CHECK(compared > 2600);
  CHECK(differ == 0);
#endif
}

TEST_CASE("mass fast path: the x/y-pair centroid lines equal the scalar ones bit for bit", "[mass][fast_path]") {
  // D-MASS-31: centroid_of_xy runs centroid_of's operations per lane.
#if defined(RIGIDREF_MASS_FMA_DISPATCH)
  if (!detail::mass_filter::cpu_has_fma()) return;
  using detail::mass_filter::cw;
  std::mt19937_64 g(31);
  std::uniform_real_distribution<double> unit(1, 2), low(-1, 1);
  auto draw = [&](int spread) {
    const double hi = std::ldexp(unit(g), int(g() % (2 * spread + 1)) - spread) * (g() % 2 ? -1 : 1);
    return detail::mass_filter::normalise(cw<double>{hi, hi * low(g) * 0x1p-53});
  };
  long differ = 0;
  for (int k = 0; k < 3000; ++k) {
    const cw<double> fx = draw(40), fy = draw(40), r = detail::mass_filter::reciprocal<double, false>(draw(20));
    const double ox = std::ldexp(low(g), int(g() % 40) - 20), oy = k % 5 ? std::ldexp(low(g), int(g() % 40) - 20) : 0;
    const double e_d3 = std::ldexp(unit(g), -90), e_fx = std::ldexp(unit(g), -80), e_fy = std::ldexp(unit(g), -85);
    const double inv_den = std::ldexp(unit(g), int(g() % 40) - 20);
    const auto a = detail::mass_filter::centroid_of<double, false>(fx, fy, r, ox, oy, e_d3, e_fx, e_fy, inv_den);
    const auto b = detail::mass_filter::centroid_of_xy(fx, fy, r, ox, oy, e_d3, e_fx, e_fy, inv_den);
    const double x[16] = {a.gx.hi, a.gx.lo, a.gy.hi, a.gy.lo, a.cx.hi, a.cx.lo, a.cy.hi, a.cy.lo,
                          a.gg.hi, a.gg.lo, a.e_gx,  a.e_gy,  a.e_cx,  a.e_cy,  a.g2,    a.e_gg};
    const double y[16] = {b.gx.hi, b.gx.lo, b.gy.hi, b.gy.lo, b.cx.hi, b.cx.lo, b.cy.hi, b.cy.lo,
                          b.gg.hi, b.gg.lo, b.e_gx,  b.e_gy,  b.e_cx,  b.e_cy,  b.g2,    b.e_gg};
    for (int i = 0; i < 16; ++i) differ += !same_bits(x[i], y[i]);
  }
  CHECK(differ == 0);
#endif
}

TEST_CASE("mass fast path: the AVX basic checks answer as the scalar definition", "[mass][fast_path]") {
  // D-MASS-35: two vertices per register, the closing edge first, an odd
  // last vertex re-tested with its predecessor; against D-MASS-25's
  // conditions written out, on edge values at every position, n = 3..12.
#if defined(RIGIDREF_MASS_FMA_DISPATCH)
  if (!detail::mass_filter::cpu_has_fma()) return;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const double specials[] = {0.0, -0.0, nan, inf, -inf, 0x1p60, std::nextafter(0x1p60, inf), 0x1p-60,
                             std::nextafter(0x1p-60, 0.0), -0x1p-60, 0x1p-1074, 1e300};
  auto reference = [](const std::vector<vec2<double>>& p) {
    auto in = [](double x) { return x == 0 || (std::abs(x) >= 0x1p-60 && std::abs(x) <= 0x1p60); };
    bool ok = true;
    for (std::size_t i = 0; i < p.size(); ++i)
      ok = ok && in(p[i].x) && in(p[i].y) && !(p[i] == p[(i + 1) % p.size()]);
    return ok;
  };
  std::mt19937_64 g(35);
  long differ = 0, passed = 0, cases = 0;
  for (int n = 3; n <= 12; ++n)
    for (int k = 0; k < 3000; ++k) {
      std::vector<vec2<double>> p;
      for (int i = 0; i < n; ++i) p.push_back({std::ldexp(double(g() % 1000) - 500, -6), std::ldexp(double(g() % 1000), -6)});
      const std::size_t at = g() % n;
      switch (k % 4) {
        case 0: break;  // usually passes (a repeated vertex by chance aside)
        case 1: (g() % 2 ? p[at].x : p[at].y) = specials[g() % std::size(specials)]; break;
        case 2: p[at] = p[(at + 1) % n]; break;  // a zero-length edge, the closing one included
        case 3: p[at].x = p[(at + 1) % n].x; break;  // equal in x only
      }
      const bool a = detail::mass_filter::polygon_basics_in_range_avx(p.data(), p.size());
      differ += a != reference(p);
      passed += a;
      ++cases;
    }
  INFO("cases " << cases << ", passed " << passed);
  CHECK(differ == 0);
  CHECK(passed > cases / 3);
  CHECK(passed < cases * 9 / 10);
#endif
}

TEST_CASE("mass fast path: the one-pass basic checks throw what the exact route throws", "[mass][fast_path]") {
  // D-MASS-25: polygon_basics_in_range skips require_polygon_basics only when
  // it would pass; every other input takes it and its error text.
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::vector<vec2<double>>> cases = {
      {},
      {{0, 0}},
      {{0, 0}, {1, 0}},
      {{0, 0}, {1, 0}, {0, 1}},
      {{0, 0}, {0, 0}, {0, 1}},               // first edge zero-length
      {{0, 0}, {1, 0}, {1, 0}},               // middle
      {{0, 1}, {1, 0}, {0, 1}},               // closing edge
      {{0, 0}, {1, 0}, {1, 1}, {0, 0}},       // closing edge, n = 4
      {{0, 0}, {inf, 0}, {0, 1}},
      {{0, 0}, {1, nan}, {0, 1}},
      {{nan, 0}, {nan, 0}, {0, 1}},           // non-finite before the duplicate
      {{0, 0}, {1, 0}, {0, -inf}},
      {{0, 0}, {0x1p61, 0}, {0, 1}},          // outside the filter's range
      {{0, 0}, {0x1p-61, 0}, {0, 1}},
      {{0x1p-1074, 0}, {1, 0}, {0, 1}},       // subnormal
      {{-0.0, 0}, {0.0, 0}, {0, 1}},          // -0 == +0: coincide
      {{0x1p60, 0}, {0, 0x1p60}, {-0x1p60, -0x1p60}},
      {{0, 0}, {1e300, 0}, {0, 1e300}},       // the area overflows
      {{0, 0}, {1e-300, 0}, {0, 1e-300}},     // the area underflows
      {{0, 0}, {1, 1}, {2, 2}},               // zero area
  };
  tally t;
  for (const auto& p : cases)
    for (const double amount : {1.0, 0.0, -1.0, nan}) {
      compare<double>(p, amount, true, t);
      compare<double>(p, amount, false, t);
      compare<float>(converted<float>(p), float(amount), true, t);
    }
  CHECK(t.polygons == long(cases.size()) * 12);
  CHECK(t.errors_differ == 0);
  CHECK(t.differ == 0);
}

}  // namespace mass_fast_path_test
