// The collision filter's pieces (filter.hpp and the filtered stages of
// reference/include/rigidref/detail/; derivations/gjk.md, D-GJK-13..17):
// the exact conversion of builtin floats, the running error bound of fv, the
// static degree-2 signs, and the fallback and one-pass behaviour of the
// separation certificate. Every proved sign or bound is checked against exact
// rationals. The end-to-end agreement of filtered and exact answers is in
// tests/epa_test.cpp ("... bit-identical with the filter forced off").
#include "rigidref/filter.hpp"
#include "rigidref/gjk.hpp"
#include "rigidref/scalar.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <span>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace collision_filter_test {

using namespace rigidref;

// exact_points converts builtin floats with fast_to_exact: the same canonical
// rational as to_exact, for normal, subnormal, huge and signed values.
TEMPLATE_TEST_CASE("filter: fast_to_exact is to_exact", "[gjk][filter]", float, double, long double) {
  using T = TestType;
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<T> xs{T(0), T(-0.0), T(1), T(-3), T(0.1), std::numeric_limits<T>::min(),
                    std::numeric_limits<T>::denorm_min(), -std::numeric_limits<T>::denorm_min(),
                    std::numeric_limits<T>::max(), -std::numeric_limits<T>::max(), std::numeric_limits<T>::epsilon()};
  for (int k = 0; k < 400; ++k) {
    using std::ldexp;
    const int e = static_cast<int>(U(rng) * std::numeric_limits<T>::max_exponent);
    xs.push_back(ldexp(static_cast<T>(U(rng)), e));
  }
  for (const T& x : xs) CHECK(detail::fast_to_exact(x) == to_exact(x));
}

// The filtered interval arithmetic: the bound really contains the exact value
// (checked against rationals) on sums and products with cancellation.
TEMPLATE_TEST_CASE("filter: fv bounds contain the exact value", "[gjk][filter]", float, double, long double) {
  using T = TestType;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int k = 0; k < 2000; ++k) {
    const T a = static_cast<T>(U(rng)), b = static_cast<T>(U(rng) * 1e-3), c = static_cast<T>(U(rng));
    const T d = static_cast<T>(a + b);  // close to a: a - d cancels
    using namespace detail;
    const fv<T> x = fmul(fsub(fexact(a), fexact(d)), fadd(fexact(c), fexact(b)));
    const fv<T> y = fsub(fmul(fexact(a), fexact(c)), fmul(fexact(d), fexact(c)));
    const exact ex_x = (to_exact(a) - to_exact(d)) * (to_exact(c) + to_exact(b));
    const exact ex_y = to_exact(a) * to_exact(c) - to_exact(d) * to_exact(c);
    auto inside = [](const fv<T>& f, const exact& e) {
      const exact dist = to_exact(f.v) - e;
      return (dist < 0 ? exact(-dist) : dist) <= to_exact(f.e);
    };
    CHECK(inside(x, ex_x));
    CHECK(inside(y, ex_y));
    if (fsign(y) != 0) CHECK(fsign(y) == (ex_y > 0 ? 1 : -1));
  }
}

// Separated pairs: the certificate is proved in double for generic pairs and
// handed to the exact path when a vertex is within 2^-80 of the other
// shape's edge line (the certificate's comparisons are then not provable).
TEST_CASE("filter: the separation certificate falls back only near degeneracy", "[gjk][filter]") {
  filter_stats() = {};
  const std::vector<vec2<double>> top{{-3, 1}, {3, 1}, {3, 3}, {-3, 3}};
  const auto B = make_convex_polygon(top);
  for (int k = 0; k < 50; ++k) {
    const double gap = 0.01 + 0.013 * k;
    const std::vector<vec2<double>> tri{{-1, -1}, {1, -1}, {0.1 * k - 2.4, 1 - gap}};
    (void)gjk_distance(make_convex_polygon(tri), B);
  }
  const filter_counters generic = filter_stats();
  INFO("certain " << generic.certain << " fallback " << generic.fallback << " filtered values "
                   << generic.filtered_values << " exact values " << generic.exact_values);
  CHECK(generic.certain >= 45);  // an apex right above a vertex of the base ties exactly: exact path
  CHECK(generic.filtered_values >= 45);
  CHECK(generic.fallback * 10 < generic.certain);
  filter_stats() = {};
  // B's lower edge runs from (-3, 1) to (3, 1.7); the apex (0, 1.35) lies on
  // that line to within about 1e-16, where no product of the certificate is
  // exact: the filter cannot prove the decisions and the exact path takes them.
  const std::vector<vec2<double>> tilted{{-3, 1}, {3, 1.7}, {3, 3}, {-3, 3}};
  const std::vector<vec2<double>> apex{{-1, -1}, {1, -1}, {0, 1.35}};
  const auto Bt = make_convex_polygon(tilted), At = make_convex_polygon(apex);
  const gjk_result<double> r = gjk_distance(At, Bt);
  CHECK(filter_stats().fallback + filter_stats().exact_values > 0);
  bool forced_same = false;
  {
    detail::filter_force_exact() = true;
    const gjk_result<double> e = gjk_distance(At, Bt);
    detail::filter_force_exact() = false;
    forced_same = e.intersecting == r.intersecting && e.status == r.status && e.distance == r.distance &&
                  e.point_a == r.point_a && e.point_b == r.point_b;
  }
  CHECK(forced_same);
}

// The static signs of D-GJK-17: whenever they claim a sign, it is the exact
// sign. Inputs near a degeneracy (d on the line through c parallel to b - a,
// or perpendicular to it, up to a tiny push) and at extreme scales, where the
// bound matters; on generic inputs they must also decide (a filter that never
// decides would pass the first check and fail the second).
TEMPLATE_TEST_CASE("filter: static degree-2 signs are exact whenever proved", "[gjk][filter]", float, double,
                   long double) {
  using T = TestType;
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> U(-1, 1);
  auto sign_of = [](const exact& x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); };
  int proved_generic = 0, generic = 0, wrong = 0, proved_near = 0, bounded = 0, wrong_bound = 0;
  for (int k = 0; k < 4000; ++k) {
    using std::ldexp;
    const int scale = (k % 4 == 0) ? static_cast<int>(U(rng) * 0.9 * std::numeric_limits<T>::max_exponent) : 0;
    auto pt = [&] { return vec2<T>{ldexp(static_cast<T>(U(rng)), scale), ldexp(static_cast<T>(U(rng)), scale)}; };
    const vec2<T> a = pt(), b = pt(), c = pt();
    vec2<T> d = pt();
    const int kind = k % 3;  // 0: generic, 1: d near c + t (b - a), 2: d near c + t perp(b - a)
    if (kind != 0) {
      const T t = static_cast<T>(U(rng));
      const vec2<T> e = b - a;
      const vec2<T> dir = kind == 1 ? e : vec2<T>{T(-e.y), e.x};
      const T push = ldexp(static_cast<T>(U(rng)), scale - std::numeric_limits<T>::digits + (k % 7));
      d = vec2<T>{T(c.x + t * dir.x + push), T(c.y + t * dir.y)};
    }
    auto ev = [](const vec2<T>& v) { return detail::evec{to_exact(v.x), to_exact(v.y)}; };
    const detail::evec ea = ev(a), eb = ev(b), ec = ev(c), ed = ev(d);
    const int cr = detail::static_cross_sign(a, b, c, d), dt = detail::static_dot_sign(a, b, c, d);
    const int cr_exact = sign_of(cross(eb - ea, ed - ec)), dt_exact = sign_of(dot(eb - ea, ed - ec));
    if (cr != 0 && cr != cr_exact) ++wrong;
    if (dt != 0 && dt != dt_exact) ++wrong;
    // The same form as a value with a bound, and |b - a|^2 (D-EPA-11): the
    // exact value within the bound whenever the bound is finite.
    const detail::fv<T> f2 = detail::static_form2(T((b.x - a.x) * (d.y - c.y)), T((b.y - a.y) * (d.x - c.x)), true);
    const detail::fv<T> l2 = detail::static_length2(a, b);
    for (const auto& [value, truth] : {std::pair{f2, cross(eb - ea, ed - ec)}, std::pair{l2, length_squared(eb - ea)}}) {
      if (!is_finite(value.v) || !is_finite(value.e)) continue;
      ++bounded;
      if (!(abs(to_exact(value.v) - truth) <= to_exact(value.e))) ++wrong_bound;
    }
    if (kind == 0) {
      if (scale == 0) {  // extreme scales may overflow (never proved) or meet the underflow guard
        ++generic;
        if (cr != 0 && dt != 0) ++proved_generic;
      }
    } else if ((kind == 1 ? cr : dt) != 0) {
      ++proved_near;
    }
  }
  INFO("generic " << generic << " both proved " << proved_generic << " near-degenerate proved " << proved_near
                   << " bounded values " << bounded);
  CHECK(wrong == 0);
  CHECK(wrong_bound == 0);
  CHECK(bounded > 4000);  // most of the 8000 values, all but overflow and the underflow guard
  CHECK(proved_generic * 100 >= generic * 99);
  CHECK(proved_near > 0);  // a push of a few ulps is still decided when the bound allows
  detail::filter_force_exact() = true;
  const vec2<T> o{}, x{1, 0}, y{0, 1};
  CHECK(detail::static_cross_sign(o, x, o, y) == 0);  // proves nothing when forced exact
  detail::filter_force_exact() = false;
  CHECK(detail::static_cross_sign(o, x, o, y) == 1);
  CHECK(detail::static_dot_sign(o, x, o, y) == 0);  // an exact zero is never "proved"
}

// D-GJK-17: the one-pass certificate decides most generic separated pairs from
// GJK's simplex, and the features it certifies are those of the exact closest
// pair (certify_separation, rationals): same squared distance, and the vertex
// features are the exact closest points. Ties (parallel facing edges, whose
// closest pair is not unique) are left to the step-by-step path.
TEST_CASE("filter: one-pass certificate from GJK's simplex", "[gjk][filter]") {
  std::mt19937_64 rng(20261122);
  std::uniform_real_distribution<double> U(0, 1);
  auto polygon = [&](double cx, double cy) {
    const int n = 3 + static_cast<int>(U(rng) * 6);
    const double r = 0.5 + 1.5 * U(rng), rot = 6.28 * U(rng);
    std::vector<vec2<double>> p;
    for (int i = 0; i < n; ++i) {
      const double t = (i + 0.6 * U(rng) - 0.3) * 6.283185307179586 / n + rot;
      p.push_back({cx + r * std::cos(t), cy + r * 0.8 * std::sin(t)});
    }
    return make_convex_polygon(p);
  };
  int separated = 0, certified = 0;
  for (int k = 0; k < 400; ++k) {
    const auto a = polygon(0, 0);
    const auto b = polygon(8 * U(rng) - 4, 8 * U(rng) - 4);
    const std::span<const vec2<double>> sa(a.vertices), sb(b.vertices);
    const detail::gjk_run<double> run = detail::gjk_core(sa, sb, 64);
    const detail::epoly A = detail::exact_points(sa), B = detail::exact_points(sb);
    const detail::separation_check ex = detail::certify_separation(A, B, detail::simplex_indices(run.simplex));
    if (!ex.separated || run.claim != detail::gjk_claim::separated) continue;
    ++separated;
    detail::feature fa, fb;
    if (!detail::direct_certify_separation(sa, sb, run.simplex, fa, fb)) continue;
    ++certified;
    REQUIRE(!(fa.edge && fb.edge));
    if (!fa.edge) CHECK(ex.pair.p == A[fa.i]);
    if (!fb.edge) CHECK(ex.pair.q == B[fb.i]);
    // The exact squared distance of the certified features.
    exact d2;
    if (!fa.edge && !fb.edge) {
      d2 = length_squared(B[fb.i] - A[fa.i]);
    } else {
      const detail::epoly& P = fa.edge ? A : B;
      const std::size_t e0 = fa.edge ? fa.i : fb.i;
      const detail::evec e = P[(e0 + 1) % P.size()] - P[e0];
      const detail::evec w = (fa.edge ? B[fb.i] : A[fa.i]) - P[e0];
      const exact c = cross(e, w);
      d2 = c * c / length_squared(e);
    }
    CHECK(d2 == ex.pair.d2);
  }
  INFO("separated " << separated << " certified in one pass " << certified);
  CHECK(separated > 100);
  CHECK(certified * 100 >= separated * 90);

  // Facing parallel edges overlapping in x: the closest pair is not unique.
  const auto lower = make_convex_polygon(std::vector<vec2<double>>{{0, 0}, {2, 0}, {2, 1}, {0, 1}});
  const auto upper = make_convex_polygon(std::vector<vec2<double>>{{1, 2}, {3, 2}, {3, 3}, {1, 3}});
  const std::span<const vec2<double>> sl(lower.vertices), su(upper.vertices);
  const detail::gjk_run<double> run = detail::gjk_core(sl, su, 64);
  detail::feature fa, fb;
  CHECK_FALSE(detail::direct_certify_separation(sl, su, run.simplex, fa, fb));
  const gjk_result<double> r = gjk_distance(lower, upper);
  CHECK(r.distance == 1.0);
}

}  // namespace collision_filter_test
