// The step.pair judge's conditioning kappa (judge/step.hpp,
// contact_conditioning, D-STEP-9 law 7) against the code it replaced
// (tests/support/step_conditioning_before.hpp), bit for bit: K from
// per-row cross products and symmetric, and the Jacobi sweeps stopped at a
// fixed point, must give the same mp100 as the 100 sweeps of the full K.
#include "support/step_conditioning_before.hpp"

#include "rigidref/judge/step.hpp"

#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <vector>

namespace step_conditioning_test {

namespace {

using rigidref::exact;
using rigidref::mp100;
using rigidref::round_to;
using rigidref::step_contact;
using rigidref::judge::step_detail::body;
using rigidref::judge::step_detail::contact_conditioning;

// k / 2^s with k in [lo, hi].
rc::Gen<exact> dyadic(int lo, int hi, int s) {
  return rc::gen::map(rc::gen::inRange(lo, hi + 1), [s](int k) { return exact(k) / exact(1 << s); });
}

rc::Gen<body> any_body() {
  return rc::gen::apply(
      [](bool is_static, exact m, exact third, exact i, exact cx, exact cy) {
        body b;
        b.is_static = is_static;
        b.mass = m + third / 3;  // not dyadic, as a polygon's mass from its density
        b.inertia = i;
        b.center = {cx, cy};
        return b;
      },
      rc::gen::weightedElement<bool>({{1, true}, {3, false}}), dyadic(1, 255, 4), dyadic(0, 7, 0), dyadic(1, 255, 5),
      dyadic(-255, 255, 4), dyadic(-255, 255, 4));
}

// A contact as the reference reports it: mp100 point and unit normal, the
// normal rounded from an angle (so |n| is 1 only within mp100's rounding).
rc::Gen<step_contact<mp100>> any_contact() {
  return rc::gen::apply(
      [](exact px, exact py, int degrees) {
        using std::cos;
        using std::sin;
        const mp100 a = mp100(degrees) * boost::math::constants::pi<mp100>() / 180;
        step_contact<mp100> k;
        k.point = {round_to<mp100>(px), round_to<mp100>(py)};
        k.normal = {mp100(cos(a)), mp100(sin(a))};
        return k;
      },
      dyadic(-255, 255, 4), dyadic(-255, 255, 4), rc::gen::inRange(0, 360));
}

}  // namespace

TEST_CASE("contact_conditioning: the same kappa as before, bit for bit", "[step][judge]") {
  rc::prop("one-pass symmetric K, sweeps to a fixed point", [] {
    std::vector<body> b = {*any_body(), *any_body()};
    RC_PRE(!(b[0].is_static && b[1].is_static));
    std::vector<step_contact<mp100>> contacts = *rc::gen::container<std::vector<step_contact<mp100>>>(
        static_cast<std::size_t>(*rc::gen::inRange(0, 4)), any_contact());
    // Two points of one face: the same normal (the reference's manifold).
    if (contacts.size() == 2 && *rc::gen::arbitrary<bool>()) contacts[1].normal = contacts[0].normal;
    const exact friction = *rc::gen::element(exact(0), exact(1) / 2, exact(3));
    const mp100 now = contact_conditioning(b, contacts, friction);
    const mp100 before = rigidref::judge::step_detail_before::contact_conditioning(b, contacts, friction);
    RC_ASSERT(now == before);
    RC_ASSERT(now >= 1);
  });
}

TEST_CASE("contact_conditioning: hand cases", "[step][judge]") {
  // One dynamic unit body, one contact through its centre, no friction:
  // K = [1/m] (1 x 1), kappa = 1.
  body wall;
  wall.is_static = true;
  body disc;
  disc.mass = 2;
  disc.inertia = 1;
  disc.center = {exact(0), exact(1)};
  step_contact<mp100> k;
  k.point = {mp100(0), mp100(0)};
  k.normal = {mp100(0), mp100(1)};
  CHECK(contact_conditioning({wall, disc}, {k}, exact(0)) == 1);
  // With friction the tangent row adds r x t = 1 / I: K = diag(1/2, 1/2 + 1) ->
  // kappa = sqrt(3).
  using std::sqrt;
  CHECK(contact_conditioning({wall, disc}, {k}, exact(1)) == mp100(sqrt(mp100(3))));
  CHECK(rigidref::judge::step_detail_before::contact_conditioning({wall, disc}, {k}, exact(1)) == mp100(sqrt(mp100(3))));
}

}  // namespace step_conditioning_test
