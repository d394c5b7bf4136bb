// A user's test program, built twice by CMakeLists.txt: as an engine's test
// suite often is, at -O2 -march=native -ffp-contract=fast (consumer_fp_fast),
// and unoptimised with contraction off (consumer_fp_off). Linking
// rigidref::rigidref must leave the user's flags alone, and rigidref's
// arithmetic must not depend on them (README.md, "Using the headers";
// detail/fp_begin.hpp).
//  (a) The user's own a * b + c is one fused multiply-add in consumer_fp_fast
//      (on a CPU with FMA; else skipped), two roundings in consumer_fp_off.
//  (b) rigidref stays exact, judged in exact rationals: the error-free
//      transformations (Veltkamp's split, TwoProd, TwoSum), the orientation
//      predicate near collinearity, double-word arithmetic within its proved
//      bounds (D-EFT-3..5), polygon mass properties correctly rounded, GJK's
//      and EPA's decisions exact and their values within 1 ulp; and the
//      articles' createPolygonPoints inertia bit-identical to the JavaScript
//      (data/golden/create_polygon_points.json).
//      With clang, whose -ffp-contract=fast overrides rigidref's pragma, the
//      article's bits are not checked in consumer_fp_fast.
//  (c) One digest per group of the bits of every result; install_consumer.cmake
//      requires each digest of consumer_fp_fast in consumer_fp_off's.
// The inputs are built from integers, powers of two and exact rationals only
// (no product that the user's flags could fuse), so both builds feed
// rigidref the same bits. Exit status 1 on any failure.
#include <rigidref/articles/create_polygon_points.hpp>
#include <rigidref/convert.hpp>
#include <rigidref/convex_hull.hpp>
#include <rigidref/double_word.hpp>
#include <rigidref/epa.hpp>
#include <rigidref/gjk.hpp>
#include <rigidref/mass.hpp>
#include <rigidref/predicates.hpp>
#include <rigidref/support.hpp>
#include <rigidref/verify/collision_oracle.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

using rigidref::exact;
using rigidref::round_to;
using rigidref::to_exact;
using rigidref::vec2;
using dw = rigidref::double_word<double>;

namespace {

int checks = 0, failures = 0;

void check(bool ok, const std::string& what) {
  ++checks;
  if (ok) return;
  if (++failures <= 20) std::printf("FAIL %s\n", what.c_str());
}

std::string hex(double x) {
  char s[40];
  std::snprintf(s, sizeof s, "%a", x);
  return s;
}

// (c): FNV-1a over the bits of each group's results.
std::map<std::string, std::uint64_t> digests;

void record(const std::string& group, double x) {
  auto [it, fresh] = digests.try_emplace(group, 14695981039346656037ull);
  it->second = (it->second ^ std::bit_cast<std::uint64_t>(x)) * 1099511628211ull;
}

std::mt19937_64 rng(20261122);

// A random double of `bits` significant bits in [2^e, 2^(e+1)), either sign:
// an integer times a power of two, exact.
double random_double(int e, int bits = 53) {
  const std::uint64_t m = (rng() >> (64 - bits)) | (std::uint64_t(1) << (bits - 1));
  const double x = std::ldexp(static_cast<double>(m), e - (bits - 1));
  return (rng() & 1) ? -x : x;
}

int random_int(int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<std::uint64_t>(hi - lo + 1)); }

// Significant bits of a finite double (0 for 0).
int significant_bits(double x) {
  if (x == 0) return 0;
  int e = 0;
  const auto m = static_cast<std::uint64_t>(std::ldexp(std::frexp(std::abs(x), &e), 53));
  return 64 - std::countl_zero(m) - std::countr_zero(m);
}

exact value_of(const dw& x) { return to_exact(x.hi) + to_exact(x.lo); }

exact relative_error(const exact& got, const exact& want) {
  return want == 0 ? exact(abs(got)) : exact(abs((got - want) / want));
}

// sqrt(q) lies between x's neighbours: x rounds sqrt(q) within 1 ulp.
bool within_one_ulp_of_sqrt(double x, const exact& q) {
  if (q == 0) return x == 0;
  const exact below = to_exact(std::nextafter(x, 0.0));
  const exact above = to_exact(std::nextafter(x, std::numeric_limits<double>::infinity()));
  return x > 0 && below * below <= q && q <= above * above;
}

// ---- (a) the user's own code --------------------------------------------------

[[gnu::noinline]] double user_multiply_add(double a, double b, double c) { return a * b + c; }

void user_code_keeps_its_flags() {
  volatile double va = 0.1, vb = 10, vc = -1;  // RN(0.1 * 10) is 1: two roundings give 0
  const double a = va, b = vb, c = vc;
  const double got = user_multiply_add(a, b, c);
  const bool fused = got == std::fma(a, b, c) && got != 0;
#if defined(CONSUMER_CONTRACTS)
#if defined(__FMA__)
  std::printf("(a) user code, a*b+c = %s: %s\n", hex(got).c_str(), fused ? "one fused multiply-add, as the user's flags ask" : "NOT fused");
  check(fused, "(a) the user's a * b + c was not contracted: linking rigidref changed the user's flags");
#else
  std::printf("(a) skipped: this CPU has no FMA instruction (-march=native defines no __FMA__)\n");
#endif
#else
  std::printf("(a) user code, a*b+c = %s: %s\n", hex(got).c_str(), fused ? "FUSED" : "two roundings, as -ffp-contract=off asks");
  check(!fused, "(a) the user's a * b + c was contracted under -ffp-contract=off");
#endif
}

// ---- (b) rigidref's arithmetic -------------------------------------------------

// The user's own small functions around rigidref's always-inline helpers:
// whether GCC contracts inside them depends on the context they are inlined
// into (here, a split's high half alone is not vectorised, so it would be
// fused), so the loop below calls them both ways.
[[gnu::noinline]] double user_split_high(double a) { return rigidref::eft::split(a).hi; }
[[gnu::noinline]] dw user_two_prod_dekker(double a, double b) { return rigidref::eft::two_prod_dekker(a, b); }

void error_free_transformations() {
  for (int i = 0; i < 20000; ++i) {
    const double a = random_double(random_int(-30, 30)), b = random_double(random_int(-30, 30));
    const exact A = to_exact(a), B = to_exact(b);
    // Veltkamp: a == hi + lo exactly, each half of at most 26 bits, so that
    // the products of halves in Dekker's TwoProd are exact.
    const double high = user_split_high(a);
    for (const dw& s : {rigidref::eft::split(a), dw(high, a - high)}) {
      check(value_of(s) == A && significant_bits(s.hi) <= 26 && significant_bits(s.lo) <= 26,
            "split(" + hex(a) + ") = " + hex(s.hi) + " + " + hex(s.lo));
      record("eft", s.hi);
      record("eft", s.lo);
    }
    for (const dw& pd : {rigidref::eft::two_prod_dekker(a, b), user_two_prod_dekker(a, b)}) {
      check(pd.hi == round_to<double>(A * B) && value_of(pd) == A * B, "two_prod_dekker(" + hex(a) + ", " + hex(b) + ")");
      record("eft", pd.hi);
      record("eft", pd.lo);
    }
    const dw pf = rigidref::eft::two_prod(a, b);
    check(pf.hi == round_to<double>(A * B) && value_of(pf) == A * B, "two_prod(" + hex(a) + ", " + hex(b) + ")");
    const dw t = rigidref::eft::two_sum(a, b);
    const dw f = std::abs(a) >= std::abs(b) ? rigidref::eft::fast_two_sum(a, b) : rigidref::eft::fast_two_sum(b, a);
    check(t.hi == round_to<double>(A + B) && value_of(t) == A + B, "two_sum(" + hex(a) + ", " + hex(b) + ")");
    check(f.hi == t.hi && value_of(f) == A + B, "fast_two_sum(" + hex(a) + ", " + hex(b) + ")");
    for (const double x : {pf.hi, pf.lo, t.hi, t.lo, f.hi, f.lo}) record("eft", x);
  }
}

int exact_orientation(const vec2<double>& a, const vec2<double>& b, const vec2<double>& c) {
  const exact d = (to_exact(b.x) - to_exact(a.x)) * (to_exact(c.y) - to_exact(a.y)) -
                  (to_exact(b.y) - to_exact(a.y)) * (to_exact(c.x) - to_exact(a.x));
  return d > 0 ? 1 : (d < 0 ? -1 : 0);
}

void orientation_near_collinear() {
  // Shewchuk's grid: a within 64 ulps of (1/2, 1/2) against the line through
  // (12, 12) and (24, 24), where a rounded determinant has any sign.
  const vec2<double> b{12, 12}, c{24, 24};
  for (int i = 0; i < 64; ++i)
    for (int j = 0; j < 64; ++j) {
      const vec2<double> a{0.5 + std::ldexp(i, -53), 0.5 + std::ldexp(j, -53)};
      const int got = rigidref::orientation(a, b, c);
      check(got == exact_orientation(a, b, c), "orientation grid " + std::to_string(i) + "," + std::to_string(j));
      record("orientation", got);
    }
  // Random lines, the third point the double nearest a point on the line.
  for (int k = 0; k < 5000; ++k) {
    const vec2<double> p{random_double(random_int(-4, 20), 40), random_double(random_int(-4, 20), 40)};
    const vec2<double> q{random_double(random_int(-4, 20), 40), random_double(random_int(-4, 20), 40)};
    const exact t = to_exact(random_double(random_int(-3, 2)));
    const vec2<double> r{round_to<double>(to_exact(p.x) + t * (to_exact(q.x) - to_exact(p.x))),
                         round_to<double>(to_exact(p.y) + t * (to_exact(q.y) - to_exact(p.y)))};
    const int got = rigidref::orientation(p, q, r);
    check(got == exact_orientation(p, q, r), "orientation random " + std::to_string(k));
    record("orientation", got);
  }
}

dw random_double_word() {
  const double hi = random_double(random_int(-20, 20));
  const double lo = random_double(0);
  return rigidref::eft::two_sum(hi, std::ldexp(lo, std::ilogb(hi) - 54 - random_int(0, 8)));  // |lo| < ulp(hi) / 2
}

void double_word_arithmetic() {
  const exact u = to_exact(std::ldexp(1.0, -53));
  for (int i = 0; i < 5000; ++i) {
    const dw x = random_double_word(), y = random_double_word();
    const double d = random_double(random_int(-20, 20));
    const exact X = value_of(x), Y = value_of(y), D = to_exact(d);
    const dw sum = x + y, difference = x - y, product = x * y, scaled = rigidref::times(x, d), quotient = x / y;
    check(relative_error(value_of(sum), X + Y) <= 3 * u * u / (1 - 4 * u), "dw + " + std::to_string(i));  // D-EFT-3
    check(relative_error(value_of(difference), X - Y) <= 3 * u * u / (1 - 4 * u), "dw - " + std::to_string(i));
    check(relative_error(value_of(product), X * Y) <= 5 * u * u, "dw * " + std::to_string(i));  // D-EFT-4, with FMA
    check(relative_error(value_of(scaled), X * D) <= 2 * u * u, "dw times " + std::to_string(i));  // JMP Alg. 9
    check(relative_error(value_of(quotient), X / Y) <= 15 * u * u + 56 * u * u * u, "dw / " + std::to_string(i));  // D-EFT-5
    const dw root = rigidref::sqrt(rigidref::abs(x));  // D-EFT-6: digest only
    for (const dw& r : {sum, difference, product, scaled, quotient, root}) {
      record("double_word", r.hi);
      record("double_word", r.lo);
    }
  }
}

// Convex polygon: the hull of `n` random points of `bits` bits in [0, 2)^2,
// scaled by 2^scale and moved by (ox, oy) (the sums rounded: the input is
// whatever doubles that gives, the same in both builds).
std::vector<vec2<double>> random_polygon(int n, int bits, int scale, double ox, double oy) {
  std::vector<vec2<double>> pts;
  for (int i = 0; i < n; ++i)
    pts.push_back({ox + std::abs(random_double(scale, bits)), oy + std::abs(random_double(scale, bits))});
  return rigidref::convex_hull_ccw(pts);
}

void mass_properties() {
  std::vector<std::vector<vec2<double>>> polygons;
  for (const double offset : {0.0, std::ldexp(1.0, 20), 1e6 + 0.375, std::ldexp(1.0, 30)})
    for (int k = 0; k < 40; ++k) {
      const int n = random_int(3, 16), scale = random_int(-4, 4);  // in this order, whatever the compiler
      polygons.push_back(random_polygon(n, 53, scale, offset, -offset));
    }
  for (const double offset : {0.0, 1e8})  // needles, down to 2^-40 (2^-20 at 1e8) wide
    for (int k = 0; k < 20; ++k) {
      const double w = std::ldexp(1.0, -(offset == 0 ? random_int(10, 40) : random_int(5, 20)));
      polygons.push_back({{offset, offset}, {offset + 1, offset}, {offset + 0.5, offset + w}});
    }
  for (const auto& poly : polygons) {
    if (poly.size() < 3) continue;
    const double density = std::abs(random_double(random_int(-4, 4)));
    const auto m = rigidref::polygon_mass_from_density<double>(poly, density);
    std::vector<vec2<exact>> q;
    for (const auto& p : poly) q.push_back({to_exact(p.x), to_exact(p.y)});
    const auto e = rigidref::polygon_mass_from_density<exact>(q, to_exact(density));
    check(m.area == round_to<double>(e.area) && m.centroid.x == round_to<double>(e.centroid.x) &&
              m.centroid.y == round_to<double>(e.centroid.y) && m.mass == round_to<double>(e.mass) &&
              m.inertia == round_to<double>(e.inertia),
          "polygon mass of " + std::to_string(poly.size()) + " vertices at " + hex(poly[0].x));
    for (const double x : {m.area, m.centroid.x, m.centroid.y, m.mass, m.inertia}) record("mass", x);
  }
}

void collision(const std::vector<vec2<double>>& pa, const std::vector<vec2<double>>& pb, const std::string& name) {
  const auto a = rigidref::make_convex_polygon<double>(pa), b = rigidref::make_convex_polygon<double>(pb);
  const auto oracle = rigidref::verify::exact_convex_collision<double>(a.vertices, b.vertices);
  const auto g = rigidref::gjk_distance(a, b);
  check(g.intersecting == oracle.intersecting, "gjk decision, " + name);
  check(g.intersecting ? g.distance == 0 : within_one_ulp_of_sqrt(g.distance, oracle.distance_squared),
        "gjk distance " + hex(g.distance) + ", " + name);
  const auto p = rigidref::epa_penetration(a, b);
  check(p.intersecting == oracle.intersecting, "epa decision, " + name);
  if (p.intersecting)
    check(oracle.touching ? p.depth == 0 : within_one_ulp_of_sqrt(p.depth, oracle.depth_squared),
          "epa depth " + hex(p.depth) + ", " + name);
  for (const double x : {double(g.intersecting), g.distance, g.point_a.x, g.point_a.y, g.point_b.x, g.point_b.y})
    record("gjk", x);
  for (const double x : {double(p.intersecting), p.depth, p.distance, p.normal.x, p.normal.y, p.point_a.x, p.point_a.y,
                         p.point_b.x, p.point_b.y})
    record("epa", x);
}

void gjk_and_epa() {
  // Unit squares side by side: apart, touching and overlapping by a hair,
  // near the origin and far from it.
  for (const double offset : {0.0, std::ldexp(1.0, 20), 1e6 + 0.375})
    for (const int gap_exponent : {-20, -40, -52})
      for (const int side : {-1, 0, 1}) {
        const double gap = side * std::ldexp(1.0, gap_exponent), y0 = random_double(-2, 20);
        const std::vector<vec2<double>> a{{offset, offset}, {offset + 1, offset}, {offset + 1, offset + 1}, {offset, offset + 1}};
        const double x0 = offset + 1 + gap, y = offset + y0;
        const std::vector<vec2<double>> b{{x0, y}, {x0 + 1, y}, {x0 + 1, y + 1}, {x0, y + 1}};
        collision(a, b, "squares, gap " + hex(gap) + " at " + hex(offset));
      }
  // Random convex pairs of 40-bit coordinates, mostly near contact.
  for (int k = 0; k < 150; ++k) {
    const double offset = k % 3 == 0 ? 0.0 : (k % 3 == 1 ? std::ldexp(1.0, 20) : 1e6 + 0.375);
    const int na = random_int(3, 10);
    const auto a = random_polygon(na, 40, 0, offset, offset);
    const int nb = random_int(3, 10);
    const double dx = random_double(random_int(-2, 1), 40);
    const double dy = random_double(random_int(-2, 1), 40);
    const auto b = random_polygon(nb, 40, 0, offset + dx, offset + dy);
    if (a.size() < 3 || b.size() < 3) continue;
    collision(a, b, "random pair " + std::to_string(k));
  }
}

// createPolygonPoints (articles/create_polygon_points.hpp) against the JS
// run in Node: V8's cos(delta), a^3 and b^3 in, the page's inertia out
// (data/golden/create_polygon_points.json; radius 1, 0.1, 1e3).
void article_inertia() {
#if defined(__clang__) && defined(CONSUMER_CONTRACTS)
  // clang's -ffp-contract=fast overrides the pragma of detail/fp_begin.hpp
  // (clang documents it), so code that only the pragma protects may be
  // contracted: measured, 9 of these 11 inertias then differ from the JS.
  std::printf("(b) createPolygonPoints (article): not checked: clang's -ffp-contract=fast overrides rigidref's pragma\n");
  return;
#endif
  struct golden {
    int nsides;
    double radius;
    std::uint64_t cos_delta, a_cubed, b_cubed, inertia;
  };
  const golden cases[] = {
      {4, 1, 0x3c91a62633145c07, 0x3fc0000000000000, 0x3fbffffffffffffd, 0x3fd5555555555552},
      {4, 0.1, 0x3c91a62633145c07, 0x3fc0000000000000, 0x3fbffffffffffffd, 0x3f6b4e81b4e81b4d},
      {4, 1e3, 0x3c91a62633145c07, 0x3fc0000000000000, 0x3fbffffffffffffd, 0x4114585555555552},
      {5, 1, 0x3fd3c6ef372fe950, 0x3fd1f1bbcdcbfa54, 0x3fa51d53ec107172, 0x3fd8a127de87fc38},
      {5, 1e3, 0x3fd3c6ef372fe950, 0x3fd1f1bbcdcbfa54, 0x3fa51d53ec107172, 0x41177d10a9b4e784},
      {8, 1, 0x3fe6a09e667f3bcd, 0x3fe3e6454cd7aa29, 0x3f69bab32855d67d, 0x3fdce034ccd513ec},
      {8, 0.1, 0x3fe6a09e667f3bcd, 0x3fe3e6454cd7aa29, 0x3f69bab32855d67d, 0x3f727b031273e3cb},
      {8, 1e3, 0x3fe6a09e667f3bcd, 0x3fe3e6454cd7aa29, 0x3f69bab32855d67d, 0x411b89c1daa7e4f3},
      {12, 1, 0x3febb67ae8584cab, 0x3fe9fd899ce963f2, 0x3f33b318b4e080c6, 0x3fde9228f81d6ee6},
      {12, 0.1, 0x3febb67ae8584cab, 0x3fe9fd899ce963f2, 0x3f33b318b4e080c6, 0x3f7390be0f6eff4d},
      {12, 1e3, 0x3febb67ae8584cab, 0x3fe9fd899ce963f2, 0x3f33b318b4e080c6, 0x411d279b9a3ef1d7},
  };
  for (const golden& c : cases) {
    const double got = rigidref::articles::create_polygon_inertia(c.radius, std::bit_cast<double>(c.cos_delta),
                                                                  std::bit_cast<double>(c.a_cubed),
                                                                  std::bit_cast<double>(c.b_cubed));
    const double want = std::bit_cast<double>(c.inertia);
    check(got == want, "createPolygonPoints inertia, n " + std::to_string(c.nsides) + " radius " + hex(c.radius) + ": " +
                           hex(got) + ", the JS " + hex(want));
    record("article", got);
  }
}

}  // namespace

int main() {
  user_code_keeps_its_flags();
  const struct {
    const char* name;
    void (*run)();
  } groups[] = {{"error-free transformations", error_free_transformations},
                {"orientation", orientation_near_collinear},
                {"double-word arithmetic", double_word_arithmetic},
                {"polygon mass", mass_properties},
                {"GJK and EPA", gjk_and_epa},
                {"createPolygonPoints (article)", article_inertia}};
  for (const auto& g : groups) {
    const int checks_before = checks, failures_before = failures;
    g.run();
    const int n = checks - checks_before, failed = failures - failures_before;
    if (failed == 0)
      std::printf("(b) %s: exact, %d checks\n", g.name, n);
    else
      std::printf("(b) %s: FAILED %d of %d checks\n", g.name, failed, n);
  }
  for (const auto& [group, d] : digests) std::printf("digest %s %016llx\n", group.c_str(), static_cast<unsigned long long>(d));
  std::printf("%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
