// Faithful port of createPolygonPoints from the pages collision-force.html
// and collision-shapeMatching.html (seeds 000 and 001; the two copies are the
// same function). Quirks kept on purpose:
//  - the inertia returned is per unit mass (Body multiplies by its mass);
//  - it is R^2/6 (3(a^3 + b^3) + 9ab - 2b) with a = (1 + cos d)/2,
//    b = (1 - cos d)/2, d = 2 pi / n: an unexpanded form of the closed form
//    (2 + cos d) R^2 / 6 (derivations/mass.md, D-MASS-7 and D-MASS-8);
//  - the vertices are centred on `center` only if center is the origin's
//    image: inertia is about `center`, which is the centroid.
// The evaluation order below is JavaScript's, operation for operation, so in
// double (no FMA contraction: detail/fp_begin.hpp) the result is
// bit-identical to the page's whenever cos and pow return the same values as
// V8's (tests/golden).
#pragma once

#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <boost/math/constants/constants.hpp>

#include <cmath>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::articles {

template <class T>
struct polygon_points {
  std::vector<vec2<T>> shape;
  T inertia;  // per unit mass, about `center`
};

// JS: Math.PI * 2 / nsides
template <class T>
T create_polygon_delta(int nsides) {
  return boost::math::constants::pi<T>() * 2 / nsides;
}

// The inertia expression given the libm results it depends on, so a test can
// feed V8's own cos and ** values and check the remaining arithmetic bit for
// bit. D-MASS-7
//   JS: let [a, b] = [(1 + Math.cos(delta)) / 2, (1 - Math.cos(delta)) / 2];
//       radius * radius / 6 * ( 3*(a**3 + b**3) + 9*a*b - 2*b )
template <class T>
T create_polygon_inertia(const T& radius, const T& cos_delta, const T& a_cubed, const T& b_cubed) {
  const T b = (1 - cos_delta) / 2;
  const T a = (1 + cos_delta) / 2;
  return radius * radius / 6 * (3 * (a_cubed + b_cubed) + 9 * a * b - 2 * b);
}

// The inertia part alone (no vertices: n sin/cos pairs cost 19 s in mp100
// for n = 10^6), with the page's own cos and ** (Math.pow) calls.
template <class T>
T create_polygon_inertia(const T& radius, int nsides) {
  using std::cos;
  using std::pow;
  const T delta = create_polygon_delta<T>(nsides);
  const T c = cos(delta);
  const T a = (1 + c) / 2;
  const T b = (1 - c) / 2;
  return create_polygon_inertia<T>(radius, c, T(pow(a, 3)), T(pow(b, 3)));
}

// With the libm calls given (a scene feeds V8's values through them):
// cos_f, sin_f for the vertices and cos(delta), pow3_f for JS's x ** 3.
template <class T, class Cos, class Sin, class Pow3>
polygon_points<T> create_polygon_points(const vec2<T>& center, const T& radius, int nsides, Cos&& cos_f, Sin&& sin_f,
                                        Pow3&& pow3_f) {
  polygon_points<T> out;
  const T delta = create_polygon_delta<T>(nsides);
  for (int i = 0; i < nsides; ++i) {
    const T angle = T(delta * i);
    out.shape.push_back({T(center.x + radius * cos_f(angle)), T(center.y + radius * sin_f(angle))});
  }
  const T c = cos_f(delta);
  const T a = T((1 + c) / 2), b = T((1 - c) / 2);
  out.inertia = create_polygon_inertia<T>(radius, c, T(pow3_f(a)), T(pow3_f(b)));
  return out;
}

template <class T>
polygon_points<T> create_polygon_points(const vec2<T>& center, const T& radius, int nsides) {
  using std::cos;
  using std::pow;
  using std::sin;
  return create_polygon_points<T>(
      center, radius, nsides, [](const T& x) { return T(cos(x)); }, [](const T& x) { return T(sin(x)); },
      [](const T& x) { return T(pow(x, 3)); });
}

}  // namespace rigidref::articles

#include "rigidref/detail/fp_end.hpp"
