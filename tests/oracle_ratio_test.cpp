// relative_error_eps on integers (verify/accuracy.hpp) gives the same double
// as the rational formula it replaced (main at f4fceec, written out below),
// in float, double, long double, mp50 and mp100: computed values near the
// truth (0..3 ulps, both sides), far from it, of the other sign, zero,
// subnormal, near overflow; truths dyadic and not, zero and huge. round_to,
// now a call of detail::round_ratio_to, is checked on non-reduced ratios,
// and so is the judge's in_eps.
#include "rigidref/convert.hpp"
#include "rigidref/judge/measure.hpp"
#include "rigidref/verify/accuracy.hpp"

#include <catch2/catch.hpp>

#include <boost/math/special_functions/next.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>


namespace oracle_ratio_test {
using namespace rigidref;

namespace {

// The formula as it was: every step a canonical rational.
template <class T>
double relative_error_eps_rational(const T& computed, const exact& truth) {
  if (!is_finite(computed)) return std::numeric_limits<double>::infinity();
  const exact diff = to_exact(computed) - truth;
  if (diff == 0) return 0.0;
  if (truth == 0) return std::numeric_limits<double>::infinity();
  const exact rel = abs(diff / truth) / to_exact(epsilon<T>());
  return static_cast<double>(round_to<double>(rel));
}

template <class T>
void compare_on(std::mt19937_64& g, int count) {
  using boost::math::float_next;
  using boost::math::float_prior;
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> exp_of(-60, 60), steps(0, 3), den_of(1, 1000);
  std::size_t nonzero = 0;
  for (int k = 0; k < count; ++k) {
    // A truth: a double, a double plus a tiny non-dyadic part, or p/q.
    const double base = std::ldexp(unit(g), exp_of(g));
    exact truth;
    switch (k % 4) {
      case 0: truth = to_exact(base); break;
      case 1: truth = to_exact(base) * exact(1 + den_of(g), 1 + den_of(g)); break;
      case 2: truth = exact(static_cast<long long>(unit(g) * 1e15), den_of(g) * 2 + 1); break;
      default: truth = k % 8 == 3 ? exact(0) : to_exact(base) / 3; break;
    }
    // computed: the truth rounded to T, then moved 0..3 steps; sometimes
    // something else entirely.
    T c = round_to<T>(truth);
    // No steps from 0: the next mp50 after 0 is 2^-(2^31), a rational of
    // billions of bits.
    const int s = truth == 0 ? 0 : steps(g);
    for (int i = 0; i < s; ++i) c = unit(g) < 0 ? T(float_prior(c)) : T(float_next(c));
    if (k % 13 == 0) c = T(-c);
    if (k % 17 == 0) c = T(0);
    // The extremes of the builtin types only: mp50's exponent range (2^31
    // binades) would make a rational of billions of bits.
    if constexpr (std::is_floating_point_v<T>) {
      if (k % 19 == 0) c = std::numeric_limits<T>::denorm_min();
      if (k % 23 == 0) c = std::numeric_limits<T>::max();
    }
    const double now = verify::relative_error_eps(c, truth);
    const double before = relative_error_eps_rational(c, truth);
    INFO(scalar_name<T>() << " case " << k << " computed " << to_string(c) << " truth " << truth.str());
    REQUIRE(std::isnan(now) == std::isnan(before));
    CHECK(now == before);
    if (now != 0) ++nonzero;
  }
  CHECK(nonzero > static_cast<std::size_t>(count) / 2);
  // Not finite, and a zero truth.
  CHECK(verify::relative_error_eps(std::numeric_limits<T>::infinity(), exact(1)) ==
        std::numeric_limits<double>::infinity());
  CHECK(verify::relative_error_eps(T(1), exact(0)) == std::numeric_limits<double>::infinity());
  CHECK(verify::relative_error_eps(T(0), exact(0)) == 0.0);
}

}  // namespace

TEST_CASE("oracle: relative_error_eps on integers is the rational formula's double", "[verify]") {
  std::mt19937_64 g(20261127);
  compare_on<float>(g, 400);
  compare_on<double>(g, 400);
  compare_on<long double>(g, 400);
  compare_on<mp50>(g, 150);
  compare_on<mp100>(g, 150);
}

TEST_CASE("oracle: round_ratio_to does not depend on a common factor", "[verify]") {
  std::mt19937_64 g(7);
  std::uniform_int_distribution<long long> n_of(1, 1LL << 62);
  std::uniform_int_distribution<int> shift(0, 1100);
  for (int k = 0; k < 500; ++k) {
    const big_int n = big_int(n_of(g)) << shift(g), d = big_int(n_of(g)) << shift(g), f = n_of(g);
    const exact q(n, d);
    CHECK(detail::round_ratio_to<double>(big_int(n * f), big_int(d * f), false) == round_to<double>(q));
    CHECK(detail::round_ratio_to<float>(big_int(n * f), big_int(d * f), true) == round_to<float>(exact(-q)));
    CHECK(detail::round_ratio_to<mp50>(big_int(n * f), big_int(d * f), false) == round_to<mp50>(q));
  }
}

TEST_CASE("judge: in_eps on one ratio of integers is the reduced quotient's double", "[judge]") {
  // The formula it replaced: every step a canonical rational.
  const auto before = [](const exact& amount, const exact& eps, const exact& scale) {
    if (amount == 0) return 0.0;
    const exact unit = eps * scale;
    if (unit == 0) return std::numeric_limits<double>::infinity();
    return static_cast<double>(round_to<double>(exact(amount / unit)));
  };
  std::mt19937_64 g(11);
  std::uniform_int_distribution<long long> n_of(0, 1LL << 62);
  std::uniform_int_distribution<int> shift(0, 300), which(0, 3), sign(0, 1);
  const exact eps[4] = {to_exact(std::numeric_limits<double>::epsilon()),
                        to_exact(std::numeric_limits<float>::epsilon()), exact(1), exact(1, 3)};
  std::size_t nonzero = 0;
  for (int k = 0; k < 2000; ++k) {
    const auto random_rational = [&] {
      const big_int n = big_int(n_of(g)) << shift(g), d = big_int(n_of(g)) << shift(g);
      const exact q = d == 0 ? exact(n) : exact(n, d);
      return sign(g) ? exact(-q) : q;
    };
    const exact amount = k % 11 == 0 ? exact(0) : random_rational();
    const exact scale = k % 13 == 0 ? exact(0) : random_rational();
    const exact& e = eps[which(g)];
    const double now = judge::in_eps(amount, e, scale);
    INFO("case " << k << " amount " << amount.str() << " scale " << scale.str());
    CHECK(now == before(amount, e, scale));
    if (now != 0 && !std::isinf(now)) ++nonzero;
  }
  CHECK(nonzero > 1500);
  CHECK(judge::in_eps(exact(1), exact(0), exact(1)) == std::numeric_limits<double>::infinity());
}

}  // namespace oracle_ratio_test
