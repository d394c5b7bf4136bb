// The Box2D v3 plank case and a sweep of short edges: gjk_distance of a thin
// polygon and a point just off its short end face.
//
// Box2D v3's test suite (erincatto/box2d, test/test_distance.c,
// ShapeDistanceShortEdgeTest, read at commit 3d910d2a) records that
// b2ShapeDistance declares overlap for a plank 1 m long and 3.2 mm thick
// (half thickness 0.0016) with a point one linear slop (0.005) off the middle
// of its short end face: GJK's two-point simplex on the end face hands back a
// search direction of size 2 d e^2 (d the distance, e the edge), compared with
// an absolute epsilon, which fails below an edge of about 3.5 mm in float.
// rigidref decides from exact predicates and proves the distance (D-GJK-7),
// so the answer must be "apart" for every edge length, with the distance
// within 1 ulp of the oracle's (D-GJK-8). The oracle is exact_core_collision
// (verify/collision_oracle.hpp), independent of gjk.hpp.
#include "support/exact_helpers.hpp"

#include "rigidref/shape_queries.hpp"
#include "rigidref/internal/collision_accuracy.hpp"
#include "rigidref/verify/accuracy.hpp"
#include "rigidref/verify/collision_oracle.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

// This file's names stay apart from the other files of its test program,
// which compile as one unit (tests/CMakeLists.txt, rigidref_test_file).
namespace short_edge_test {

using namespace rigidref;

namespace {

// A plank [x0, x1] x [-h, h] (counter-clockwise) and a point.
template <class T>
std::vector<vec2<T>> plank(const T& x0, const T& x1, const T& h) {
  return {{x0, T(-h)}, {x1, T(-h)}, {x1, h}, {x0, h}};
}

// gjk_distance of the plank and the point against the oracle; returns the
// number of checks that failed (0 expected).
template <class T>
int check_plank(const std::vector<vec2<T>>& corners, const vec2<T>& p) {
  const auto g = gjk_distance(to_shape(make_convex_polygon(corners)), make_point(p));
  const std::vector<vec2<T>> one{p};
  const auto o = verify::exact_core_collision<T>(std::span<const vec2<T>>(corners), std::span<const vec2<T>>(one));
  int bad = 0;
  bad += g.intersecting != o.intersecting;
  const bool touching = o.intersecting && o.depth_squared == 0;  // on the plank's boundary
  bad += (g.status == collision_status::touching) != touching;
  if (!o.intersecting) bad += !(verify::ulps_from_rounded(g.distance, verify::sqrt_oracle(o.distance_squared)) <= 1);
  return bad;
}

}  // namespace

TEMPLATE_TEST_CASE("Box2D v3 plank case: a point one linear slop off a 3.2 mm end face is apart",
                   "[gjk][shapes][named]", float, double) {
  using T = TestType;
  const T h = T(0.0016f), slop = T(0.005f);
  const auto corners = plank<T>(T(-0.5f), T(0.5f), h);
  const vec2<T> point{T(T(0.5f) + slop), T(0)};
  const auto g = gjk_distance(to_shape(make_convex_polygon(corners)), make_point(point));
  CHECK(!g.intersecting);
  CHECK(g.status == collision_status::converged);
  // The closest point is on the end face x = 0.5, straight across: the
  // distance is point.x - 0.5, exact in T (Sterbenz), so rounding once gives it.
  CHECK(g.distance == T(point.x - T(0.5f)));
  CHECK(g.point_a.x == T(0.5f));
  CHECK(g.point_a.y == T(0));
  CHECK(check_plank<T>(corners, point) == 0);
  // Box2D's cast repro: half thickness 0.0002 (a 0.4 mm end face).
  CHECK(check_plank<T>(plank<T>(T(-0.5f), T(0.5f), T(0.0002f)), point) == 0);
}

TEMPLATE_TEST_CASE("short edges: 0.1 m down to 1e-6 m, several scales and offsets, decided exactly",
                   "[gjk][shapes]", float, double) {
  using T = TestType;
  int cases = 0, failures = 0;
  for (const double length : {1.0, 100.0, 0.01}) {
    for (double edge = 0.1; edge >= 0.9e-6; edge /= std::sqrt(10.0)) {
      const T h = T(edge / 2), x1 = T(length / 2), x0 = T(-length / 2);
      const auto corners = plank<T>(x0, x1, h);
      for (const double offset : {0.005, 1e-3 * edge, 1e-6, 0.0}) {
        for (const double along : {0.0, 0.3, -0.999}) {
          const T y = T(along * static_cast<double>(h));
          const T x = T(x1 + T(offset));
          cases += 4;
          failures += check_plank<T>(corners, vec2<T>{x, y});
          // One ulp off the face, and one ulp inside it (intersecting).
          failures += check_plank<T>(corners, vec2<T>{std::nextafter(x1, T(2) * x1), y});
          failures += check_plank<T>(corners, vec2<T>{std::nextafter(x1, T(0)), y});
          // Far from the origin: the whole scene moved by 1000 along x.
          const T far = T(1000);
          auto moved = corners;
          for (auto& c : moved) c.x = T(c.x + far);
          failures += check_plank<T>(moved, vec2<T>{T(x + far), y});
        }
      }
    }
  }
  INFO(cases << " queries");
  CHECK(cases > 500);
  CHECK(failures == 0);
}

}  // namespace short_edge_test
