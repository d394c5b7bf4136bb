// The mp route of GJK and EPA (issue 28 item 10, D-GJK-25) against the route
// of f4fceec: with detail::filter_force_exact() the mp types take today's
// exact route unchanged (their containment in exact rationals, every value
// rounded through an exact rational), so every field of every result must be
// the same bits, `iterations` and `exact_fallback` included. Inputs: the
// benchmark's corpus (collision_bench, converted to mp50) and random convex
// polygon pairs and polygon-circle pairs at offsets 0, 2^10 and 2^30 whose
// coordinates use the full mp significand (not only doubles), every fifth
// pair B = -A shifted by a tiny amount (near touching, parallel edges), and
// -A in T shifted by 2^-54..2^-103 (beyond double: the input bounds decide).
// EPA's axis minimum in double and its values from a frame (D-EPA-20, 21) are
// counted in `epa_axis` and `frame_values`, the proved roots of D-EPA-22 in
// `sqrt_proved`, GJK's support searches in double (D-GJK-27) in `support`.
// Also the building blocks alone: mp_to_exact against to_exact, the
// narrowing rounding against round_to through the rational, ties included,
// and the proved roots against the accumulator's and Boost's.
// CI runs a few hundred queries; the sweep is the hidden test "[.mp-route-sweep]".
#include "rigidref/epa.hpp"
#include "rigidref/convex_hull.hpp"
#include "rigidref/gjk.hpp"
#include "rigidref/detail/mp_epa_shadow.hpp"
#include "rigidref/detail/mp_gjk_shadow.hpp"
#include "rigidref/internal/filter_agreement.hpp"
#include "rigidref/verify/random.hpp"

#include "../bench/bench_polygons.hpp"
#include "support/pair_family.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <sstream>
#include <vector>

namespace mp_route_diff_test {
using namespace rigidref;

namespace {

struct tally {
  long cases = 0, differ = 0;
};

template <class R>
bool identical(const R& x, const R& y) {
  return verify::same_result(x, y) && x.iterations == y.iterations && x.exact_fallback == y.exact_fallback;
}

template <class T>
std::string show(const gjk_result<T>& r) {
  std::ostringstream s;
  s << "status " << static_cast<int>(r.status) << " int " << r.intersecting << " d " << r.distance.str(60) << " pa ("
    << r.point_a.x.str(60) << ", " << r.point_a.y.str(60) << ") it " << r.iterations << " fb " << r.exact_fallback;
  return s.str();
}

template <class T>
std::string show(const epa_result<T>& r) {
  std::ostringstream s;
  s << "status " << static_cast<int>(r.status) << " int " << r.intersecting << " depth " << r.depth.str(60) << " n ("
    << r.normal.x.str(60) << ", " << r.normal.y.str(60) << ") pa (" << r.point_a.x.str(60) << ") it "
    << r.iterations << " fb " << r.exact_fallback;
  return s.str();
}

// One query twice: the default route and today's route (forced exact).
template <class Query>
void compare(Query query, tally& t) {
  ++t.cases;
  const auto fast = query();
  decltype(query()) old;
  {
    const verify::force_exact_scope force;
    old = query();
  }
  if (!identical(fast, old)) {
    ++t.differ;
    if (t.differ <= 3) UNSCOPED_INFO("new " << show(fast) << "\nold " << show(old));
  }
}

// p moved by offset, each coordinate then given low bits beyond double's
// (a relative change below 2^-40 with a factor 1/3: about T's full
// significand).
template <class T>
std::vector<vec2<T>> full_significand(const std::vector<vec2<double>>& p, double offset, verify::rng& g) {
  std::vector<vec2<T>> out;
  for (const auto& v : p) {
    const T x = T(v.x) + T(offset), y = T(v.y) - T(offset);
    const T rx = T(std::ldexp(verify::uniform(g, -1.0, 1.0), -40)) / 3;
    const T ry = T(std::ldexp(verify::uniform(g, -1.0, 1.0), -40)) / 3;
    out.push_back({T(x + x * rx), T(y + y * ry)});
  }
  return out;
}

template <class T>
tally random_sweep(std::uint64_t seed, long count, double offset) {
  verify::rng g(seed);
  using verify::uniform;
  tally t;
  for (long k = 0; k < count; ++k) {
    const rigidref::testing::family_pair fp = rigidref::testing::draw_family_pair(g, k);
    const std::vector<vec2<double>>& pa = fp.a;
    const std::vector<vec2<double>>& pb = fp.b;
    const vec2<double>& ca = fp.ca;
    const vec2<double>& cb = fp.cb;
    const double radius = fp.radius;
    try {
      const convex_polygon<T> a = make_convex_polygon(full_significand<T>(pa, offset, g));
      const convex_polygon<T> b =
          make_convex_polygon(full_significand<T>(pb, offset, g));
      compare([&] { return gjk_distance(a, b); }, t);
      compare([&] { return epa_penetration(a, b); }, t);
      if (k % 5 == 3) {
        // A reflected through the midpoint of the centres in T and moved by
        // eps below double's precision: parallel edges touching, overlapping
        // or apart by less than double can see (the input bounds decide).
        const T mx = T(ca.x + cb.x + 2 * offset), my = T(ca.y + cb.y - 2 * offset);
        const T eps = T(std::ldexp(k % 2 ? 1.0 : -1.0, -(54 + static_cast<int>(k % 50))));
        std::vector<vec2<T>> r;
        for (const auto& v : a.vertices) r.push_back({T(mx - v.x), T(T(my - v.y) + eps)});
        const convex_polygon<T> ar = make_convex_polygon(r);
        compare([&] { return gjk_distance(a, ar); }, t);
        compare([&] { return epa_penetration(a, ar); }, t);
      }
      const auto c = make_circle(full_significand<T>({cb}, offset, g)[0], T(radius));
      compare([&] { return gjk_distance(a, c); }, t);
      if (k % 4 == 0) compare([&] { return epa_penetration(c, a); }, t);
    } catch (const invalid_input&) {
      // not convex after the low bits: not a case
    }
  }
  return t;
}

// The B = -A pairs above with A's own coordinates (no new low bits on B):
// exactly parallel edges, touching when eps = 0.
template <class T>
tally touching_pairs() {
  tally t;
  const std::vector<vec2<double>> tri{{0, 0}, {2, 0}, {1, 1.5}}, box{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (const double dx : {-1.0, 0.0, 0.5, 1.0, 2.0})
    for (const double dy : {-1.5, -1.0, 0.0, 1.0, 1.5}) {
      std::vector<vec2<T>> moved;
      for (const auto& v : box) moved.push_back({T(v.x + dx), T(v.y + dy)});
      std::vector<vec2<T>> t0;
      for (const auto& v : tri) t0.push_back({T(v.x), T(v.y)});
      const auto a = make_convex_polygon(t0), b = make_convex_polygon(moved);
      compare([&] { return gjk_distance(a, b); }, t);
      compare([&] { return epa_penetration(a, b); }, t);
    }
  return t;
}

tally bench_corpus() {
  tally t;
  verify::rng g(20261122);
  using verify::uniform;
  for (int k = 0; k < 200; ++k) {
    const vec2<double> ca{uniform(g, -4.0, 4.0), uniform(g, -4.0, 4.0)};
    const double phi = uniform(g, 0.0, 2 * std::acos(-1.0)), d = uniform(g, 0.5, 3.5);
    const vec2<double> cb{ca.x + d * std::cos(phi), ca.y + d * std::sin(phi)};
    const auto pa = bench::jittered_convex_polygon(g, verify::uniform_int(g, 3, 8), ca);
    const auto pb = bench::jittered_convex_polygon(g, verify::uniform_int(g, 3, 8), cb);
    if (k % 4 != 0) continue;  // CI: every fourth pair of the corpus
    std::vector<vec2<mp50>> ma, mb;
    for (const auto& v : pa) ma.push_back({mp50(v.x), mp50(v.y)});
    for (const auto& v : pb) mb.push_back({mp50(v.x), mp50(v.y)});
    const auto a = make_convex_polygon(ma), b = make_convex_polygon(mb);
    compare([&] { return gjk_distance(a, b); }, t);
    compare([&] { return epa_penetration(a, b); }, t);
  }
  return t;
}

// The new steps were taken (counted with the filter on only).
struct route_use {
  detail::mp_route_counters before = detail::mp_route_stats();
  std::string text() const {
    const auto& now = detail::mp_route_stats();
    std::ostringstream s;
    s << "containment in double " << now.containment - before.containment << ", separation in double "
      << now.separation - before.separation << ", narrowing roundings " << now.narrow_rounding - before.narrow_rounding << ", frame values "
      << now.frame_values - before.frame_values << ", EPA axes in double " << now.epa_axis - before.epa_axis
      << ", roots proved " << now.sqrt_proved - before.sqrt_proved << ", supports in double "
      << now.support - before.support;
    return s.str();
  }
  // The corpus's roots are all proved (D-EPA-22), so it needs no narrowing.
  bool all_used(bool narrowing = true) const {
    const auto& now = detail::mp_route_stats();
    return now.containment > before.containment && now.separation > before.separation &&
           (!narrowing || now.narrow_rounding > before.narrow_rounding) && now.frame_values > before.frame_values &&
           now.epa_axis > before.epa_axis && now.sqrt_proved > before.sqrt_proved &&
           now.support > before.support;
  }
};

template <class T>
void sweep(long count) {
  for (const double offset : {0.0, 1024.0, 1073741824.0}) {
    const route_use use;
    const tally t = random_sweep<T>(11 + static_cast<std::uint64_t>(offset), count, offset);
    WARN(scalar_name<T>() << " offset " << offset << ": " << t.cases << " results, differ " << t.differ << "; "
                          << use.text());
    CHECK(t.differ == 0);
    CHECK(t.cases > 3 * count);
    CHECK(use.all_used());
  }
}

// A random value of T with every significand bit used, in [1, 2) times 2^e.
template <class T>
T random_full(verify::rng& g, int e) {
  T x = 1;
  T bit = 1;
  for (int k = 0; k < std::numeric_limits<T>::digits - 1; ++k) {
    bit /= 2;
    if (verify::uniform_int(g, 0, 1)) x += bit;
  }
  using std::ldexp;
  using boost::multiprecision::ldexp;
  return ldexp(x, e);
}

// round_quotient against round_to of the rational, on random quotients,
// exact ties and quotients one unit beside them.
template <class R>
void quotients(verify::rng& g, long count) {
  for (long k = 0; k < count; ++k) {
    big_int num = 0, den = 0;
    const int nbits = verify::uniform_int(g, 1, 700), dbits = verify::uniform_int(g, 1, 400);
    for (int i = 0; i < nbits; ++i) num = (num << 1) + verify::uniform_int(g, 0, 1);
    for (int i = 0; i < dbits; ++i) den = (den << 1) + verify::uniform_int(g, 0, 1);
    if (den == 0) den = 1;
    if (k % 3 == 0) {  // a tie: num / den = (2 m + 1) / 2 at R's last place
      den = big_int(1) << 1;
      num = (big_int(1) << (std::numeric_limits<R>::digits)) + 2 * (num % 1000) + 1;
      if (k % 2) num += (k % 4 == 1) ? 1 : -1;  // beside it
      num <<= 1;
      den <<= 1;
    }
    if (k % 5 == 1) num = -num;
    if (k % 7 == 2) den = 1;  // dyadic: round_quotient's shift path
    if (k % 11 == 4) num <<= 900;  // beyond mp_small_int: the big_int steps
    if (k % 13 == 6) den <<= 600;  // the divisor shifted beyond it
    const long e2 = verify::uniform_int(g, -300, 300);
    const exact q = exact(num, den) * (e2 >= 0 ? exact(big_int(1) << e2) : exact(big_int(1), big_int(1) << -e2));
    REQUIRE(verify::same_bits(detail::round_quotient<R>(num, den, e2), round_to<R>(q)));
  }
}

// D-EPA-22: a root proved by mp_sqrt_quotient is the accumulator route's
// RN_T(sqrt_W(RN_W(q))), and rounded_sqrt is Boost's sqrt in T; on random
// quotients, exact squares, and arguments whose root lies near a midpoint
// between two T values (rounded squares of midpoints). Returns how many
// roots were proved.
template <class T>
long roots(verify::rng& g, long count) {
  using A = accumulator<T>;
  using W = typename A::type;
  constexpr int p = std::numeric_limits<T>::digits;
  long proved = 0, shared_proved = 0, single_proved = 0;
  for (long k = 0; k < count; ++k) {
    const int e = verify::uniform_int(g, -100, 100);
    T x = random_full<T>(g, e);
    if (k % 4 == 1) x = T(x * x);                           // a square when it fits
    if (k % 4 == 2) {                                       // near a midpoint
      const T y = random_full<T>(g, e);
      const W mid = W(y) + ldexp(W(1), e - p) * (k % 8 == 2 ? 1 : -1);
      x = T(mid * mid);
    }
    T r;
    if (detail::mp_sqrt_quotient<T>(detail::mp_to_exact(x) == 0 ? big_int(0) : numerator(detail::mp_to_exact(x)),
                                    denominator(detail::mp_to_exact(x)), 0, r)) {
      ++proved;
      REQUIRE(verify::same_bits(r, round_to<T>(to_exact(A::sqrt(A::from_exact(to_exact(x)))))));
    }
    REQUIRE(verify::same_bits(detail::rounded_sqrt(x), T(sqrt(x))));
    // The square of a midpoint Y + 1/2 (Y of p bits), exactly and one unit
    // beside it in 2^-t: roots at or within 2^-(t + 2p) of the midpoint,
    // where only the test keeps the candidate from the wrong side.
    {
      big_int Y = (big_int(1) << (p - 1)) + verify::uniform_int(g, 1, 1 << 30);
      const int t = verify::uniform_int(g, 0, 600);
      const big_int num = ((2 * Y + 1) * (2 * Y + 1) << t) + (k % 3) - 1;
      const big_int den = big_int(1) << (t + 2);
      if (detail::mp_sqrt_quotient<T>(num, den, 0, r)) {
        ++proved;
        REQUIRE(verify::same_bits(r, round_to<T>(to_exact(A::sqrt(detail::round_quotient<W>(num, den, 0))))));
      }
    }
    // A quotient of integers with a power of two.
    big_int num = 0, den = 0;
    for (int i = 0; i < verify::uniform_int(g, 1, 400); ++i) num = (num << 1) + verify::uniform_int(g, 0, 1);
    for (int i = 0; i < verify::uniform_int(g, 1, 300); ++i) den = (den << 1) + verify::uniform_int(g, 0, 1);
    if (k % 3 == 0) num <<= verify::uniform_int(g, 200, 700);  // roots beyond 2^100 (j < 0 below)
    if (num == 0 || den == 0) continue;
    const long e2 = verify::uniform_int(g, -300, 300);
    const T slow = round_to<T>(to_exact(A::sqrt(detail::round_quotient<W>(num, den, e2))));
    if (detail::mp_sqrt_quotient<T>(num, den, e2, r)) {
      ++proved;
      REQUIRE(verify::same_bits(r, slow));
    }
    // The same steps in big_int (the route for operands beyond 1800 bits).
    if (detail::mp_sqrt_quotient_in<T, big_int>(num, den, e2, 1L << 40, r)) REQUIRE(verify::same_bits(r, slow));
    // The candidate (D-EPA-22): S within 4 units of floor(sqrt(num / den 2^(2j))),
    // which Boost's integer root gives exactly, with at least p + 20 bits.
    big_int S;
    long j = 0;
    REQUIRE(detail::mp_root_candidate<big_int>(num, den, p + 20, 1L << 40, S, j));
    const big_int N = j >= 0 ? big_int((num << (2 * j)) / den) : big_int(num / (den << (-2 * j)));
    const big_int miss = S - boost::multiprecision::sqrt(N);
    REQUIRE(static_cast<long>(msb(S)) + 1 >= p + 20);
    REQUIRE(abs(miss) <= 4);
    // Shared roots (D-EPA-22): |v_i| / sqrt(d) 2^h_i from one reciprocal
    // root, each proved one the accumulator route's rounding of its own
    // quotient; a zero is never proved (the callers give it +0), and the
    // shared route proves what the single one proves.
    {
      std::array<big_int, 3> v;
      for (big_int& x : v) {
        x = 0;
        const int bits = verify::uniform_int(g, 0, 380);  // up to six limbs: every width
        for (int i = 0; i < bits; ++i) x = (x << 1) + verify::uniform_int(g, 0, 1);
        if (verify::uniform_int(g, 0, 1) == 1) x = -x;
      }
      big_int d = 0;
      for (int i = 0; i < verify::uniform_int(g, 1, 300); ++i) d = (d << 1) + verify::uniform_int(g, 0, 1);
      if (d == 0) d = 1;
      const std::array<long, 3> h{verify::uniform_int(g, -150, 150), 0, verify::uniform_int(g, -150, 150)};
      std::array<T, 3> shared;
      std::array<bool, 3> ok{};
      detail::mp_shared_roots<T, 3>({&v[0], &v[1], &v[2]}, d, h, shared, ok);
      for (std::size_t i = 0; i < 3; ++i) {
        const big_int square = v[i] * v[i];
        T single;
        const bool single_ok = v[i] != 0 && detail::mp_sqrt_quotient<T>(square, d, 2 * h[i], single);
        if (v[i] == 0) REQUIRE_FALSE(ok[i]);
        shared_proved += ok[i] ? 1 : 0;
        single_proved += single_ok ? 1 : 0;
        if (!ok[i]) continue;
        ++proved;
        REQUIRE(verify::same_bits(shared[i], round_to<T>(to_exact(A::sqrt(detail::round_quotient<W>(square, d, 2 * h[i]))))));
        if (single_ok) REQUIRE(verify::same_bits(shared[i], single));
      }
    }
  }
  REQUIRE(shared_proved >= single_proved);
  return proved;
}

// D-GJK-27: the filtered support search against support_index in T, on
// vertices spread along a line across a random direction d and moved along
// d by 2^-40..2^-100 (full significands): near ties the double inputs
// cannot resolve. Returns how many searches were proved.
template <class T>
long supports(verify::rng& g, long count) {
  long proved = 0;
  for (long k = 0; k < count; ++k) {
    const T dx = random_full<T>(g, 0) * (k % 2 ? 1 : -1), dy = random_full<T>(g, -1) * (k % 3 ? 1 : -1);
    const vec2<T> d{dx, dy}, along{T(-dy), dx};
    std::vector<vec2<T>> v;
    const int n = verify::uniform_int(g, 3, 9);
    for (int i = 0; i < n; ++i) {
      const T t = T(verify::uniform(g, -4.0, 4.0));
      using std::ldexp;
      using boost::multiprecision::ldexp;
      const T h = ldexp(random_full<T>(g, 0), -verify::uniform_int(g, 40, 100)) * (i % 2 ? 1 : -1);
      v.push_back({T(T(1) + t * along.x + h * d.x), T(T(2) + t * along.y + h * d.y)});
    }
    detail::fvec<double> fd;
    REQUIRE(detail::mp_filtered_point(d, fd));
    std::size_t fast = 0;
    if (detail::mp_filtered_support_index(std::span<const vec2<T>>(v), fd, fast)) {
      ++proved;
      REQUIRE(fast == support_index(std::span<const vec2<T>>(v), d));
    }
  }
  return proved;
}

// D-GJK-32: GJK's loop with its decisions in double against gjk_core in T,
// every field of the run (the claim, the count, the simplex's pairs and
// points, v), at the automatic cap and at caps 1 and 2.
struct loop_tally {
  long runs = 0, differ = 0, refused = 0;
  long epa_runs = 0, epa_differ = 0, epa_refused = 0;
};

template <class T>
bool same_points(const minkowski_point<T>& x, const minkowski_point<T>& y) {
  return x.ia == y.ia && x.ib == y.ib && verify::same_bits(x.w, y.w);
}

// D-EPA-30: EPA's loop with its decisions in double against epa_core in T
// from GJK's triangle, every field of the run, at the automatic cap and at
// caps 1 and 2.
template <class T>
void compare_epa_loop(std::span<const vec2<T>> a, std::span<const vec2<T>> b, const detail::vertex_pairs& seed,
                      loop_tally& t) {
  for (const int cap : {detail::automatic_cap(0, a.size(), b.size()), 1, 2}) {
    detail::epa_run<T> fast;
    if (!detail::mp_shadow_epa<T>(a, b).run(seed, cap, true, fast)) {
      ++t.epa_refused;
      continue;
    }
    ++t.epa_runs;
    const detail::epa_run<T> slow = detail::epa_core<T>(a, b, seed, cap);
    bool same = fast.iterations == slow.iterations && fast.capped == slow.capped &&
                fast.degenerate == slow.degenerate && fast.shortlist.size() == slow.shortlist.size() &&
                fast.near_supports.size() == slow.near_supports.size();
    for (std::size_t k = 0; same && k < slow.shortlist.size(); ++k)
      same = same_points(fast.shortlist[k][0], slow.shortlist[k][0]) &&
             same_points(fast.shortlist[k][1], slow.shortlist[k][1]);
    for (std::size_t k = 0; same && k < slow.near_supports.size(); ++k)
      same = same_points(fast.near_supports[k], slow.near_supports[k]);
    if (!same && ++t.epa_differ <= 3)
      UNSCOPED_INFO("EPA cap " << cap << ": iterations " << fast.iterations << " / " << slow.iterations
                               << ", shortlist " << fast.shortlist.size() << " / " << slow.shortlist.size()
                               << ", near supports " << fast.near_supports.size() << " / "
                               << slow.near_supports.size());
  }
}

template <class T>
void compare_loop(const std::vector<vec2<T>>& pa, const std::vector<vec2<T>>& pb, loop_tally& t) {
  const std::span<const vec2<T>> a(pa), b(pb);
  for (const int cap : {detail::automatic_cap(0, a.size(), b.size()), 1, 2}) {
    detail::gjk_run<T> fast;
    if (!detail::mp_shadow_gjk<T>(a, b).run(cap, true, fast)) {
      ++t.refused;
      continue;
    }
    ++t.runs;
    const detail::gjk_run<T> slow = detail::gjk_core(a, b, cap);
    bool same = fast.claim == slow.claim && fast.iterations == slow.iterations &&
                fast.simplex.size == slow.simplex.size && verify::same_bits(fast.v, slow.v);
    for (int k = 0; same && k < slow.simplex.size; ++k) {
      const auto &x = fast.simplex.p[static_cast<std::size_t>(k)], &y = slow.simplex.p[static_cast<std::size_t>(k)];
      same = x.ia == y.ia && x.ib == y.ib && verify::same_bits(x.w, y.w);
    }
    if (cap > 2 && slow.claim == detail::gjk_claim::intersecting && slow.simplex.size == 3)
      compare_epa_loop(a, b, detail::simplex_indices(slow.simplex), t);
    if (!same && ++t.differ <= 3)
      UNSCOPED_INFO("cap " << cap << ": claim " << static_cast<int>(fast.claim) << " / " << static_cast<int>(slow.claim)
                           << ", iterations " << fast.iterations << " / " << slow.iterations << ", size "
                           << fast.simplex.size << " / " << slow.simplex.size);
  }
}

template <class T>
std::vector<vec2<T>> in_type(const std::vector<vec2<double>>& p) {
  std::vector<vec2<T>> out;
  for (const auto& v : p) out.push_back({T(v.x), T(v.y)});
  return out;
}

// The pairs: the families with full significands at offsets 0, 2^10, 2^30
// (with A reflected and moved by 2^-54..2^-103), integer boxes and
// triangles touching or overlapping (exact ties in the support and the
// segment tests), the benchmark's corpus, and coordinates beyond 2^1000
// (refused).
template <class T>
loop_tally loops(long count) {
  loop_tally t;
  verify::rng g(32);
  for (const double offset : {0.0, 1024.0, 1073741824.0})
    for (long k = 0; k < count; ++k) {
      const rigidref::testing::family_pair fp = rigidref::testing::draw_family_pair(g, k);
      std::vector<vec2<T>> a = full_significand<T>(fp.a, offset, g), b = full_significand<T>(fp.b, offset, g);
      try {
        a = make_convex_polygon(a).vertices;
        b = make_convex_polygon(b).vertices;
      } catch (const invalid_input&) {
        continue;
      }
      compare_loop(a, b, t);
      const T mx = T(fp.ca.x + fp.cb.x + 2 * offset), my = T(fp.ca.y + fp.cb.y - 2 * offset);
      const T eps = T(std::ldexp(k % 2 ? 1.0 : -1.0, -(54 + static_cast<int>(k % 50))));
      std::vector<vec2<T>> r;
      for (const auto& v : a) r.push_back({T(mx - v.x), T(T(my - v.y) + eps)});
      compare_loop(a, r, t);
      compare_loop(b, a, t);
    }
  const std::vector<vec2<double>> tri{{0, 0}, {2, 0}, {1, 1.5}}, box{{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  for (const double dx : {-1.0, 0.0, 0.5, 1.0, 2.0, 3.0})
    for (const double dy : {-1.5, -1.0, 0.0, 1.0, 1.5, 2.5}) {
      std::vector<vec2<double>> moved;
      for (const auto& v : box) moved.push_back({v.x + dx, v.y + dy});
      compare_loop(in_type<T>(tri), in_type<T>(moved), t);
      compare_loop(in_type<T>(box), in_type<T>(moved), t);
    }
  for (int k = 0; k < count; ++k) {
    const vec2<double> ca{verify::uniform(g, -4.0, 4.0), verify::uniform(g, -4.0, 4.0)};
    const vec2<double> cb{ca.x + verify::uniform(g, -3.0, 3.0), ca.y + verify::uniform(g, -3.0, 3.0)};
    compare_loop(in_type<T>(bench::jittered_convex_polygon(g, verify::uniform_int(g, 3, 8), ca)),
                 in_type<T>(bench::jittered_convex_polygon(g, verify::uniform_int(g, 3, 8), cb)), t);
  }
  // Small integer polygons (hulls of points in [-3, 3]^2) and their copies
  // moved by integers and halves: exact ties everywhere (parallel edges,
  // closest points at vertices, the origin on a segment's line).
  for (long k = 0; k < 4 * count; ++k) {
    const auto random_hull = [&](int n, double dx, double dy) {
      std::vector<vec2<double>> pts;
      for (int i = 0; i < n; ++i)
        pts.push_back({verify::uniform_int(g, -3, 3) + dx, verify::uniform_int(g, -3, 3) + dy});
      return convex_hull_ccw(pts);
    };
    const auto a = random_hull(verify::uniform_int(g, 3, 7), 0, 0);
    const auto b = random_hull(verify::uniform_int(g, 3, 7), verify::uniform_int(g, -12, 12) / 2.0,
                               verify::uniform_int(g, -12, 12) / 2.0);
    if (a.size() < 3 || b.size() < 3) continue;
    compare_loop(in_type<T>(a), in_type<T>(b), t);
  }
  // Made by hand: GJK's first segment [(1, 2), (1, 0)] has num = den
  // exactly (the origin projects onto its end), as does its mirror image.
  compare_loop(in_type<T>({{1, 2}, {1, 0}, {3, 0}}), in_type<T>({{0, 0}}), t);
  compare_loop(in_type<T>({{-1, -2}, {-1, 0}, {-3, 0}}), in_type<T>({{0, 0}}), t);
  std::vector<vec2<T>> far;
  using std::ldexp;
  using boost::multiprecision::ldexp;
  for (const auto& v : box) far.push_back({ldexp(T(v.x + 1), 1100), ldexp(T(v.y + 1), 1100)});
  const long refused = t.refused;
  compare_loop(far, in_type<T>(box), t);
  CHECK(t.refused == refused + 3);
  return t;
}

template <class T>
void building_blocks(long count) {
  using A = accumulator<T>;
  using W = typename A::type;
  verify::rng g(5);
  long checked = 0;
  for (long k = 0; k < count; ++k) {
    const int e = verify::uniform_int(g, -200, 200);
    const T x = k % 2 ? T(-random_full<T>(g, e)) : random_full<T>(g, e);
    REQUIRE(detail::mp_to_exact(x) == to_exact(x));
    // The odd significand of mp_to_frame, from one window (a double's) or
    // limb by limb (a full significand).
    for (const T& y : {x, T(static_cast<double>(x)), T(std::ldexp(1.0, e % 60))}) {
      unsigned z = 0;
      const big_int m = detail::mp_odd_significand(y, z);
      const long p2 = static_cast<long>(y.backend().exponent()) - (std::numeric_limits<T>::digits - 1) + z;
      const exact v = exact(m) * (p2 >= 0 ? exact(big_int(1) << p2) : exact(big_int(1), big_int(1) << -p2));
      REQUIRE((m & 1) == 1);
      REQUIRE(v == abs(to_exact(y)));
    }
    detail::fv<double> f;
    REQUIRE(detail::mp_filtered_input(x, f));
    REQUIRE(abs(to_exact(x) - to_exact(f.v)) < to_exact(f.e));  // the bound of D-GJK-25
    // The accumulator's value: random, an exact tie between two T values,
    // one bit beyond a tie each side, and a T value itself.
    W w = random_full<W>(g, e);
    const W tie = W(x) + W(ldexp(W(1), e - std::numeric_limits<T>::digits + 1)) / 2 * (x < 0 ? -1 : 1);
    const W ulp_w = ldexp(W(1), e - std::numeric_limits<W>::digits + 2);
    for (const W& v : {w, W(-w), tie, W(tie + ulp_w), W(tie - ulp_w), W(x)}) {
      const T fast = detail::round_accumulated<T>(v);
      const T slow = round_to<T>(to_exact(v));
      REQUIRE(verify::same_bits(fast, slow));
      ++checked;
    }
  }
  CHECK(checked == 6 * count);
  quotients<T>(g, count / 4);
  quotients<W>(g, count / 4);
  CHECK(roots<T>(g, count / 2) > count / 2);
  CHECK(supports<T>(g, count / 2) > count / 20);
}

}  // namespace

TEST_CASE("mp route: building blocks against the rational route", "[gjk][epa][mp]") {
  building_blocks<mp50>(3000);
  building_blocks<mp100>(1000);
}

TEST_CASE("mp route: GJK's and EPA's loops in double are gjk_core's and epa_core's in T", "[gjk][epa][mp]") {
  for (int type = 0; type < 2; ++type) {
    const detail::mp_route_counters before = detail::mp_route_stats();
    const loop_tally t = type == 0 ? loops<mp50>(120) : loops<mp100>(40);
    const long in_T = static_cast<long>(detail::mp_route_stats().loop_in_T - before.loop_in_T);
    WARN((type == 0 ? "mp50" : "mp100") << ": " << t.runs << " runs, differ " << t.differ << ", refused "
                                        << t.refused << "; EPA " << t.epa_runs << " runs, differ " << t.epa_differ
                                        << ", refused " << t.epa_refused << "; decisions taken in T " << in_T);
    CHECK(t.differ == 0);
    CHECK(t.runs > 500);
    CHECK(t.epa_differ == 0);
    CHECK(t.epa_runs > 300);
    CHECK(in_T > 0);  // the near ties took T's path
  }
}

TEST_CASE("mp route: the benchmark's corpus in mp50, bit for bit", "[gjk][epa][mp]") {
  const route_use use;
  const tally t = bench_corpus();
  WARN("bench corpus: " << t.cases << " results, differ " << t.differ << "; " << use.text());
  CHECK(use.all_used(false));
  CHECK(t.differ == 0);
  CHECK(t.cases == 100);
}

TEST_CASE("mp route: touching and overlapping integer shapes, bit for bit", "[gjk][epa][mp]") {
  const tally t = touching_pairs<mp50>();
  CHECK(t.differ == 0);
  const tally u = touching_pairs<mp100>();
  CHECK(u.differ == 0);
}

TEST_CASE("mp route: random full-significand pairs at offsets 0, 2^10, 2^30, bit for bit", "[gjk][epa][mp]") {
  sweep<mp50>(25);
  sweep<mp100>(12);
}

TEST_CASE("mp route: long sweep", "[.mp-route-sweep]") {
  sweep<mp50>(2000);
  sweep<mp100>(300);
}

}  // namespace mp_route_diff_test
