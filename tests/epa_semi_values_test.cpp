// The semi-static edge values of D-EPA-23 (semi_static::edge_values) against
// epa_edge_values (D-EPA-9), the step it stands in front of: wherever the new
// step answers, epa_edge_values must answer too, with the same depth, normal
// and witnesses (else the lean route would answer pairs it used to hand to
// GJK and EPA, whose `iterations` differ), and the values must be the exact
// path's. The inputs put the depth or a witness coordinate at a chosen
// distance from a midpoint between two doubles, in steps of a few u^2, so
// that every margin of D-EPA-23 (4) is crossed: dropping epa_edge_values'
// error or delta from a margin makes the new step answer where
// epa_edge_values refuses, and this test fail.
#include "rigidref/epa.hpp"
#include "rigidref/internal/filter_agreement.hpp"
#include "rigidref/verify/random.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <span>

namespace epa_semi_values_test {
using namespace rigidref;

namespace {

struct tally {
  long cases = 0, semi = 0, old = 0, semi_not_old = 0, differ = 0, wrong = 0;
};

enum class target { depth, point_x, point_y };

// The edge n = (3 s, 4 s), |n| = 5 s, on A (edge (0,0) -> (-4 s, 3 s)) or on
// B (edge (0,0) -> (4 s, -3 s)); the other vertex P = (px, py) on A and
// (0, 0) on B, so o = 3 s px + 4 s py. The witness vertex is B's for A's edge
// and A's for B's edge, as on the lean route. `value` is the real the chosen
// output should be (up to the resolution of px): depth o / (5 s), and for A's
// edge the witness on A, w = (o / (25 s^2)) n, coordinates 3 o / (25 s) and
// 4 o / (25 s).
void one_case(bool on_a, target what, double s, const exact& value, tally& t) {
  const exact S = to_exact(s);
  exact O;
  switch (what) {
    case target::depth: O = value * 5 * S; break;
    case target::point_x: O = value * 25 * S / 3; break;
    case target::point_y: O = value * 25 * S / 4; break;
  }
  const double py = round_to<double>(O / (4 * S));
  const double px = round_to<double>((O - 4 * S * to_exact(py)) / (3 * S));
  const vec2<double> P{px, py}, zero{0, 0};
  const vec2<double> e1 = on_a ? vec2<double>{-4 * s, 3 * s} : vec2<double>{4 * s, -3 * s};
  const std::array<vec2<double>, 3> edge_poly{zero, e1, on_a ? P : zero};
  const std::array<vec2<double>, 1> other{on_a ? zero : P};
  const std::span<const vec2<double>> a = on_a ? std::span<const vec2<double>>(edge_poly)
                                               : std::span<const vec2<double>>(other);
  const std::span<const vec2<double>> b = on_a ? std::span<const vec2<double>>(other)
                                               : std::span<const vec2<double>>(edge_poly);
  const std::size_t ia = on_a ? 2 : 0, ib = on_a ? 0 : 2;
  const bool vertex_a = !on_a;
  ++t.cases;
  epa_result<double> semi, old;
  const bool s_ok = detail::semi_static::edge_values(a, b, on_a, 0, ia, ib, vertex_a, semi);
  const bool o_ok = detail::epa_edge_values<double>(a, b, on_a, 0, ia, ib, vertex_a, 0.0, 0.0, old);
  t.semi += s_ok;
  t.old += o_ok;
  if (!s_ok) return;
  if (!o_ok) {
    ++t.semi_not_old;
    UNSCOPED_INFO("semi answers, epa_edge_values refuses: on_a " << on_a << " target " << static_cast<int>(what)
                                                                << " px " << px << " py " << py);
    return;
  }
  if (!(verify::same_bits(semi.depth, old.depth) && verify::same_bits(semi.normal.x, old.normal.x) &&
        verify::same_bits(semi.normal.y, old.normal.y) && verify::same_bits(semi.point_a.x, old.point_a.x) &&
        verify::same_bits(semi.point_a.y, old.point_a.y) && verify::same_bits(semi.point_b.x, old.point_b.x) &&
        verify::same_bits(semi.point_b.y, old.point_b.y)))
    ++t.differ;
  // The exact values: o / |n|, (3/5, 4/5), the vertex and vertex -+ w.
  const exact o = 3 * S * to_exact(px) + 4 * S * to_exact(py);
  const exact w = o / (25 * S);
  const vec2<double> other_pt = on_a ? vec2<double>{round_to<double>(3 * w), round_to<double>(4 * w)}
                                     : vec2<double>{round_to<double>(to_exact(px) - 3 * w),
                                                    round_to<double>(to_exact(py) - 4 * w)};
  const vec2<double> vertex_pt = on_a ? zero : P;
  const vec2<double> want_a = on_a ? other_pt : vertex_pt, want_b = on_a ? vertex_pt : other_pt;
  if (semi.depth != round_to<double>(o / (5 * S)) || semi.normal.x != 0.6 || semi.normal.y != 0.8 ||
      semi.point_a.x != want_a.x || semi.point_a.y != want_a.y || semi.point_b.x != want_b.x ||
      semi.point_b.y != want_b.y)
    ++t.wrong;
}

// Values mid +- j u^2 r around the midpoint mid = r + h of a double r (h its
// half gap), j from j0 - 40 to j0 + 700, j0 u^2 r = 2^-40 h: both rounding
// tests refuse within about 2^-40 h of the midpoint (their factor 1 + 2^-40),
// and the margins of D-EPA-23 (4) lie a few hundred u^2 r beyond that.
tally sweep(std::uint64_t seed, int reps, int step) {
  verify::rng g(seed);
  tally t;
  const double u2 = 0x1p-106;
  for (int rep = 0; rep < reps; ++rep) {
    const double r = verify::uniform(g, 1.0, 2.0) * std::ldexp(1.0, verify::uniform_int(g, -20, 20));
    const double s = std::ldexp(1.0, verify::uniform_int(g, -10, 10));
    const double h = (std::nextafter(r, 4 * r) - r) / 2;
    const exact mid = to_exact(r) + to_exact(h);
    const int j0 = static_cast<int>(std::ldexp(h, -40) / (u2 * r));
    for (int j = j0 - 40; j <= j0 + 700; j += step)
      for (const int sign : {-1, 1}) {
        const exact value = mid + to_exact(sign * j * u2 * r);
        for (const bool on_a : {true, false}) one_case(on_a, target::depth, s, value, t);
        one_case(true, target::point_x, s, value, t);
        one_case(true, target::point_y, s, value, t);
      }
  }
  return t;
}

}  // namespace

TEST_CASE("semi-static edge values answer only where epa_edge_values does, with its bits (D-EPA-23)",
          "[epa][filter]") {
  const tally t = sweep(20261128, 12, 2);
  INFO("cases " << t.cases << " semi " << t.semi << " old " << t.old);
  CHECK(t.semi_not_old == 0);
  CHECK(t.differ == 0);
  CHECK(t.wrong == 0);
  // Both steps refuse near the midpoints and answer far from them: the sweep
  // crosses every margin.
  CHECK(t.old < t.cases);
  CHECK(t.semi < t.old);
  CHECK(t.semi * 2 > t.cases);
}

// inverse_sqrt (D-EPA-23 (3)): 1 / sqrt(N) within the relative bound it
// reports, checked exactly: (s^2 N) lies in [(1 - rho)^2, (1 + rho)^2]. N
// spans the significands of [1, 4) (the Newton step's e is largest where
// RN(1 / RN(sqrt(hi))) rounds worst) with the low word at up to 1/2 ulp, at
// several exponents. The truncation term 0.4 e^2 is needed: some inputs
// exceed the bound without it (checked below), so dropping it fails the test.
TEST_CASE("inverse_sqrt: the relative bound of D-EPA-23 (3), exactly", "[epa][filter]") {
  verify::rng g(20261129);
  const double u = 0x1p-53, u2 = 0x1p-106;
  long cases = 0, outside = 0, need_e2 = 0;
  for (int k = 0; k < 20000; ++k) {
    const double hi = std::ldexp(verify::uniform(g, 1.0, 4.0), 2 * verify::uniform_int(g, -300, 300));
    const double ulp = std::nextafter(hi, 2 * hi) - hi;
    const double lo = std::ldexp(std::floor(verify::uniform(g, -0.5, 0.5) * 0x1p40), -40) * ulp;
    detail::semi_static::inv_sqrt r;
    if (!detail::semi_static::inverse_sqrt(hi, lo, r)) continue;
    ++cases;
    const exact N = to_exact(hi) + to_exact(lo), s = to_exact(r.hi) + to_exact(r.lo);
    const exact x = s * s * N, rho = to_exact(r.rho);
    if (x < (1 - rho) * (1 - rho) || x > (1 + rho) * (1 + rho)) ++outside;
    // The error without the truncation term: e recomputed as inverse_sqrt does.
    const double s0 = 1 / std::sqrt(hi);
    const double_word<double> q = double_word<double>(hi, lo) * eft::two_prod(s0, s0);
    const double e = (1 - q.hi) - q.lo;
    const exact rho_without = to_exact(((2.6 * u2 + u * std::abs(e)) * 1.01) * (1 + 0x1p-40));
    if (x < (1 - rho_without) * (1 - rho_without) || x > (1 + rho_without) * (1 + rho_without)) ++need_e2;
  }
  INFO("cases " << cases << " need the e^2 term " << need_e2);
  CHECK(cases > 19000);
  CHECK(outside == 0);
  CHECK(need_e2 > 0);
}

// inverse_sqrt_from (D-EPA-26): the start the values use, RN(1 / RN(sqrt(g)))
// with g = RN(RN(x.h^2) + RN(y.h^2)) from the heads of the exact differences,
// a few ulps from N's hi; N = |q - p|^2 by form2 as the values form it. The
// bound of D-EPA-23 (3) is checked exactly, as above, and the term that grows
// fastest with the start's error is needed: some inputs exceed the bound
// without 0.4 e^2 (so dropping it fails the test; the u |e| term, e~'s own
// rounding, is a worst case these inputs do not reach, nor did they from hi).
// A start far off (twice the root's reciprocal) is refused.
TEST_CASE("inverse_sqrt_from: the bound of D-EPA-23 (3) from the early start (D-EPA-26)", "[epa][filter]") {
  using detail::semi_static::diff;
  verify::rng g(20261130);
  const double u = 0x1p-53, u2 = 0x1p-106;
  long cases = 0, outside = 0, need_e2 = 0, far = 0;
  double max_e = 0;
  for (int k = 0; k < 40000; ++k) {
    // Points with an offset (the differences then have tails) at several scales.
    const double scale = std::ldexp(1.0, verify::uniform_int(g, -200, 200));
    const double off = verify::uniform_int(g, 0, 2) == 0 ? 0.0 : std::ldexp(1.0, verify::uniform_int(g, 0, 40));
    const vec2<double> p{scale * (off + verify::uniform(g, -1.0, 1.0)), scale * (off + verify::uniform(g, -1.0, 1.0))};
    const vec2<double> q{scale * (off + verify::uniform(g, -1.0, 1.0)), scale * (off + verify::uniform(g, -1.0, 1.0))};
    const auto dx = diff(q.x, p.x), dy = diff(q.y, p.y);
    if (dx.h == 0 || dy.h == 0) continue;
    const auto n2 = detail::semi_static::form2(dx, dy, dx, dy, false);
    const double s0 = detail::semi_static::inverse_sqrt_guess(dx.h, dy.h);
    detail::semi_static::inv_sqrt r;
    if (!detail::semi_static::inverse_sqrt_from(s0, n2.hi, n2.lo, r)) continue;
    ++cases;
    const exact N = to_exact(n2.hi) + to_exact(n2.lo), s = to_exact(r.hi) + to_exact(r.lo);
    const exact x = s * s * N, rho = to_exact(r.rho);
    if (x < (1 - rho) * (1 - rho) || x > (1 + rho) * (1 + rho)) ++outside;
    const double_word<double> qq = double_word<double>(n2.hi, n2.lo) * eft::two_prod(s0, s0);
    const double e = (1 - qq.hi) - qq.lo;
    max_e = std::max(max_e, std::abs(e) / u);
    const exact without_e2 = to_exact(((2.6 * u2 + u * std::abs(e)) * 1.01) * (1 + 0x1p-40));
    if (x < (1 - without_e2) * (1 - without_e2) || x > (1 + without_e2) * (1 + without_e2)) ++need_e2;
    detail::semi_static::inv_sqrt bad;
    if (!detail::semi_static::inverse_sqrt_from(2 * s0, n2.hi, n2.lo, bad)) ++far;
  }
  INFO("cases " << cases << " max |e| / u " << max_e << " need e^2 " << need_e2);
  CHECK(cases > 39000);
  CHECK(outside == 0);
  CHECK(need_e2 > 0);
  CHECK(far == cases);
}

}  // namespace epa_semi_values_test
