// Exact identities of the mass-property formulas, in rational arithmetic at
// random rational inputs: derivations/mass.md made executable. Any algebra
// slip in mass.hpp or in the derivation fails here with no tolerance at all.
#include "support/generators.hpp"
#include "support/matchers.hpp"
#include "support/show_exact.hpp"

#include "rigidref/articles/create_polygon_points.hpp"
#include "rigidref/articles/triangle_inertia.hpp"
#include "rigidref/mass.hpp"
#include "rigidref/verify/mass_oracle.hpp"

#include <rapidcheck/catch.h>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace mass_identities_test {

using namespace rigidref;
using V = vec2<exact>;
using Poly = std::vector<V>;

namespace {

mass_properties<exact> props(const Poly& p, const exact& density = 1) {
  return polygon_mass_from_density<exact>(p, density);
}

rc::Gen<exact> positive_rational() {
  return rc::gen::apply([](int p, int q) { return exact(p, q); }, rc::gen::inRange(1, 1000), rc::gen::inRange(1, 1000));
}

rc::Gen<exact> rational() {
  return rc::gen::apply([](int p, int q) { return exact(p, q); }, rc::gen::inRange(-100000, 100001),
                        rc::gen::inRange(1, 1000));
}

}  // namespace

TEST_CASE("polygon formula equals the independent origin-based oracle", "[mass][exact]") {
  rc::prop("fan about v0 == shoelace about the origin", [](bool convex) {
    const Poly p = *testing::gen::rational_polygon(convex);
    const exact density = *positive_rational();
    const auto got = props(p, density);
    const auto want = verify::polygon_mass_oracle<exact>(p, density, true);
    RC_ASSERT(got.area == want.area);
    RC_ASSERT(got.centroid == want.centroid);
    RC_ASSERT(got.mass == want.mass);
    RC_ASSERT(got.inertia == want.inertia);
  });
}

TEST_CASE("known shapes: unit square, right triangle, 2x1 rectangle", "[mass][exact]") {
  const auto sq = props({{0, 0}, {1, 0}, {1, 1}, {0, 1}});
  CHECK(sq.area == 1);
  CHECK(sq.centroid == V{exact(1, 2), exact(1, 2)});
  CHECK(sq.inertia == exact(1, 6));  // m (w^2 + h^2) / 12
  const auto tri = props({{0, 0}, {3, 0}, {0, 3}});
  CHECK(tri.area == exact(9, 2));
  CHECK(tri.centroid == V{1, 1});
  CHECK(tri.inertia == tri.mass * (9 + 9 + 18) / 36);  // m (a^2 + b^2 + c^2) / 36
  const auto rect = polygon_mass_from_mass<exact>(Poly{{0, 0}, {2, 0}, {2, 1}, {0, 1}}, exact(2));
  CHECK(rect.inertia == rectangle_inertia<exact>(2, 1, 2));
}

TEMPLATE_LIST_TEST_CASE("known shapes in every type: correctly rounded", "[mass]", all_scalars) {
  using T = TestType;
  using testing::WithinUlpsOfExact;
  // 1/3 and 1/6 are not representable in binary: each output must be the
  // correctly rounded value, 0 ulps (D-MASS-5 guarantees 1; 0 is measured).
  const std::vector<vec2<T>> sq{{T(0), T(0)}, {T(3), T(0)}, {T(3), T(3)}, {T(0), T(3)}};
  const auto m = polygon_mass_from_mass<T>(sq, T(1));
  CHECK_THAT(m.inertia, WithinUlpsOfExact<T>(exact(3, 2), 0));
  const std::vector<vec2<T>> tri{{T(0), T(0)}, {T(1), T(0)}, {T(0), T(1)}};
  const auto t = polygon_mass_from_density<T>(tri, T(1));
  CHECK_THAT(t.area, WithinUlpsOfExact<T>(exact(1, 2), 0));
  CHECK_THAT(t.centroid.x, WithinUlpsOfExact<T>(exact(1, 3), 0));
  CHECK_THAT(t.inertia, WithinUlpsOfExact<T>(exact(1, 18), 0));  // m (1 + 1 + 2) / 36, m = 1/2
  CHECK_THAT(circle_inertia<T>(T(1), T(1)), WithinUlpsOfExact<T>(exact(1, 2), 0));
  CHECK_THAT(rectangle_inertia<T>(T(1), T(1), T(1)), WithinUlpsOfExact<T>(exact(1, 6), 0));
}

TEST_CASE("triangle formula (D-MASS-6) equals the polygon formula", "[mass][exact]") {
  rc::prop("reference and article triangle formulas == polygon inertia", [] {
    const Poly p = *testing::gen::rational_polygon(true);
    const Poly t(p.begin(), p.begin() + 3);
    const exact m = *positive_rational();
    const exact want = polygon_mass_from_mass<exact>(t, m).inertia;
    RC_ASSERT(triangle_inertia<exact>(t, m) == want);
    // In exact arithmetic the article's absolute-coordinate form is the same
    // number wherever the triangle is: it is translation invariant (D-MASS-6).
    const V d{*rational(), *rational()};
    const Poly moved{t[0] + d, t[1] + d, t[2] + d};
    RC_ASSERT(articles::triangle_inertia<exact>(t, m) == want);
    RC_ASSERT(articles::triangle_inertia<exact>(moved, m) == want);
  });
}

TEST_CASE("article regular-polygon formula equals the closed form (D-MASS-8)", "[mass][exact]") {
  rc::prop("R^2/6 (3(a^3+b^3) + 9ab - 2b) == (2 + c) R^2 / 6 for every rational c", [] {
    const exact c = *rc::gen::apply([](int p, int q) { return exact(p, q); }, rc::gen::inRange(-1000, 1001),
                                    rc::gen::inRange(1000, 1001));
    const exact R = *positive_rational();
    const exact a = (1 + c) / 2, b = (1 - c) / 2;
    RC_ASSERT(articles::create_polygon_inertia<exact>(R, c, a * a * a, b * b * b) == (2 + c) * R * R / 6);
  });
}

TEST_CASE("regular polygon: closed form equals the polygon formula at 100 digits", "[mass][mp100]") {
  // The n-gon's vertices rounded to 100 digits, through the exact polygon
  // formula, against the closed form: they differ only by the vertex rounding.
  for (int n = 3; n <= 24; ++n) {
    const auto pts = articles::create_polygon_points<mp100>({mp100(0), mp100(0)}, mp100(1), n);
    std::vector<vec2<exact>> ex;
    for (const auto& v : pts.shape) ex.push_back({to_exact(v.x), to_exact(v.y)});
    const exact polygon = polygon_mass_from_mass<exact>(ex, exact(1)).inertia;
    const exact closed = to_exact(regular_polygon_inertia<mp100>(n, mp100(1), mp100(1)));
    const exact article = to_exact(pts.inertia);
    INFO("n = " << n);
    CHECK(abs(polygon - closed) / closed < exact(1, big_int(10) * pow(big_int(10), 96)));
    CHECK(abs(article - closed) / closed < exact(1, big_int(10) * pow(big_int(10), 96)));
  }
}

TEST_CASE("invariance: translation, rotation, cyclic shift, reversal (exact)", "[mass][exact]") {
  rc::prop("mass properties transform as they must", [](bool convex, int shift) {
    const Poly p = *testing::gen::rational_polygon(convex);
    const auto base = props(p);
    // translation: centroid moves, the rest is unchanged
    const V d{*rational(), *rational()};
    Poly moved;
    for (const auto& v : p) moved.push_back(v + d);
    const auto tr = props(moved);
    RC_ASSERT(tr.area == base.area);
    RC_ASSERT(tr.inertia == base.inertia);
    RC_ASSERT(tr.centroid == base.centroid + d);
    // rotation by an exact rational rotation
    const V u = *testing::gen::unit_rational();
    auto rot = [&u](const V& v) { return V{u.x * v.x - u.y * v.y, u.y * v.x + u.x * v.y}; };
    Poly turned;
    for (const auto& v : p) turned.push_back(rot(v));
    const auto ro = props(turned);
    RC_ASSERT(ro.area == base.area);
    RC_ASSERT(ro.inertia == base.inertia);
    RC_ASSERT(ro.centroid == rot(base.centroid));
    // cyclic shift and orientation reversal
    Poly shifted = p;
    std::rotate(shifted.begin(), shifted.begin() + (std::abs(shift) % shifted.size()), shifted.end());
    Poly reversed(p.rbegin(), p.rend());
    for (const Poly& q : {shifted, reversed}) {
      const auto s = props(q);
      RC_ASSERT(s.area == base.area);
      RC_ASSERT(s.centroid == base.centroid);
      RC_ASSERT(s.inertia == base.inertia);
    }
  });
}

TEST_CASE("additivity: a convex polygon cut along a diagonal", "[mass][exact]") {
  rc::prop("areas add, first moments add, inertias add about a common point", [](int cut) {
    const Poly p = *testing::gen::rational_polygon(true);
    RC_PRE(p.size() >= 4);
    const std::size_t k = 2 + static_cast<std::size_t>(std::abs(cut)) % (p.size() - 3);  // diagonal v0-vk
    const Poly left(p.begin(), p.begin() + k + 1);
    Poly right{p[0]};
    right.insert(right.end(), p.begin() + k, p.end());
    const auto whole = props(p), a = props(left), b = props(right);
    RC_ASSERT(a.area + b.area == whole.area);
    RC_ASSERT(a.centroid * a.area + b.centroid * b.area == whole.centroid * whole.area);
    // Move both parts' inertias to the whole's centroid (D-MASS-11), then add.
    const exact ia = parallel_axis<exact>(a.inertia, a.mass, a.centroid - whole.centroid);
    const exact ib = parallel_axis<exact>(b.inertia, b.mass, b.centroid - whole.centroid);
    RC_ASSERT(ia + ib == whole.inertia);
  });
}

TEST_CASE("scaling: area ~ s^2, inertia ~ s^4 at fixed density", "[mass][exact]") {
  rc::prop("uniform scaling", [](bool convex) {
    const Poly p = *testing::gen::rational_polygon(convex);
    const exact s = *positive_rational();
    Poly scaled;
    for (const auto& v : p) scaled.push_back(v * s);
    const auto a = props(p), b = props(scaled);
    RC_ASSERT(b.area == a.area * s * s);
    RC_ASSERT(b.centroid == a.centroid * s);
    RC_ASSERT(b.inertia == a.inertia * s * s * s * s);
  });
}

TEST_CASE("circle and rectangle closed forms (D-MASS-9), parallel axis (D-MASS-11)", "[mass][exact]") {
  CHECK(circle_inertia<exact>(exact(1, 10), exact(1)) == exact(1, 200));
  CHECK(rectangle_inertia<exact>(exact(3), exact(4), exact(12)) == exact(25));
  CHECK(parallel_axis<exact>(exact(1, 6), exact(1), V{exact(1, 2), exact(1, 2)}) == exact(2, 3));
  rc::prop("rectangle formula == polygon formula", [] {
    const exact w = *positive_rational(), h = *positive_rational(), m = *positive_rational();
    const Poly r{{0, 0}, {w, 0}, {w, h}, {0, h}};
    RC_ASSERT(polygon_mass_from_mass<exact>(r, m).inertia == rectangle_inertia<exact>(w, h, m));
  });
}

}  // namespace mass_identities_test
