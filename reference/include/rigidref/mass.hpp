// Mass properties of 2D shapes: area, centroid, mass and the polar moment of
// inertia about the centroid. derivations/mass.md derives every formula
// (anchors D-MASS-n).
//
// Rational results (polygon, triangle, circle, rectangle, parallel-axis shift)
// are accumulated in about twice T's precision (accumulator.hpp) and rounded
// once at the end, so in every binary type each output is within 1 ulp of the
// correctly rounded exact value (D-MASS-5); in `exact` they are exact. For
// float, double and long double the polygon goes through a certified filter
// with an exact fallback, so each output is correctly rounded (D-MASS-13..15).
#pragma once

#include "rigidref/accumulator.hpp"
#include "rigidref/convert.hpp"
#include "rigidref/detail/mass_exact.hpp"
#include "rigidref/detail/mass_filter.hpp"
#include "rigidref/detail/mass_narrow.hpp"
#include "rigidref/detail/mass_round.hpp"
#include "rigidref/detail/mass_wide_sums.hpp"
#include "rigidref/detail/simple_polygon.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/filter.hpp"
#include "rigidref/polygon.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <boost/math/constants/constants.hpp>

#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
struct mass_properties {
  T area;
  vec2<T> centroid;
  T mass;
  T inertia;  // polar moment about the centroid
};

// How much checking polygon_mass does before computing.
enum class polygon_check {
  simple,  // full O(n^2) exact simplicity test (default)
  basic,   // finite, >= 3 vertices, no zero-length edge; caller vouches for simplicity
};

namespace detail {

template <class T>
bool is_positive_finite(const T& x) {
  return is_finite(x) && x > 0;
}

template <class T>
void require_positive(const T& x, const char* what) {
  if (!is_positive_finite(x)) throw invalid_input(std::string(what) + " must be finite and > 0");
}

// A result too large for T (inputs near T's overflow threshold) is an input
// error, not an infinity or a NaN handed to the caller.
template <class T>
const T& require_finite_result(const T& x, const char* what) {
  if (!is_finite(x))
    throw invalid_input(std::string("the ") + what + " overflows " + std::string(scalar_name<T>()) +
                        ": the input is too large for this precision (scale it, or use mp50)");
  return x;
}

// The fan sums of D-MASS-1..3 about r = v0, in accumulator arithmetic:
//   twice_area = sum c_i,  first = sum c_i (d_i + d_{i+1}),
//   second = sum c_i (d_i.d_i + d_i.d_{i+1} + d_{i+1}.d_{i+1}),
// with d_i = v_i - v0 (exact in the accumulator) and c_i = cross(d_i, d_{i+1}).
// The terms with i = 0 and i = n-1 vanish because d_0 = 0.
template <class T>
struct fan_sums {
  using W = typename accumulator<T>::type;
  W twice_area{0};
  W first_x{0}, first_y{0};
  W second{0};
};

template <class T>
fan_sums<T> polygon_fan_sums(std::span<const vec2<T>> v) {
  using A = accumulator<T>;
  using W = typename A::type;
  fan_sums<T> s;
  const W ox = A::from(v[0].x), oy = A::from(v[0].y);
  W px = A::from(v[1].x) - ox, py = A::from(v[1].y) - oy;  // d_1
  for (std::size_t i = 2; i < v.size(); ++i) {
    const W qx = A::from(v[i].x) - ox, qy = A::from(v[i].y) - oy;  // d_i
    const W c = px * qy - py * qx;                                  // D-MASS-1
    s.twice_area = s.twice_area + c;
    s.first_x = s.first_x + c * (px + qx);                          // D-MASS-2
    s.first_y = s.first_y + c * (py + qy);
    s.second = s.second + c * (px * px + py * py + (px * qx + py * qy) + (qx * qx + qy * qy));  // D-MASS-3
    px = qx;
    py = qy;
  }
  return s;
}

// The exact path of the binary types (D-MASS-15, D-MASS-16): the same sums
// in exact integers, each output rounded once, so correctly rounded.
template <class T>
RIGIDREF_COLD mass_properties<T> polygon_mass_exact(std::span<const vec2<T>> v, const T& amount,
                                                    bool amount_is_density, const mass_filter::rounded<T>& known);

// The exact outputs of a polygon of doubles, from the integer sums of
// D-MASS-16 (exact T only). D-MASS-17
template <class T>
mass_properties<T> polygon_mass_exact_of_doubles(std::span<const vec2<double>> v, const T& amount,
                                                 bool amount_is_density) {
  static_assert(is_exact_v<T>);
  mass_exact::integer_sums s;
  if (!mass_exact::polygon_sums(v, s)) throw invalid_input("polygon has zero area");
  const exact area = s.area();
  const exact mass = amount_is_density ? exact(amount * area) : amount;
  return {area, {s.centroid_x(), s.centroid_y()}, mass, exact(mass * s.per_area())};
}

// Shared tail of polygon_mass_*: `scale` turns area-weighted moments into
// mass-weighted ones (the density, or mass / area).
template <class T>
mass_properties<T> polygon_mass_impl(std::span<const vec2<T>> v, polygon_check check, const T& amount,
                                     bool amount_is_density) {
  using A = accumulator<T>;
  using W = typename A::type;
  bool range_known = false;  // D-MASS-25: the basic checks and the filter's range in one pass
  if constexpr (std::is_floating_point_v<T>)
    range_known = check == polygon_check::basic && !filter_force_exact() && mass_filter::polygon_basics_in_range(v);
  if (check == polygon_check::simple) require_simple_polygon(v);
  else if (!range_known) require_polygon_basics(v);
  require_positive(amount, amount_is_density ? "density" : "mass");
  if constexpr (is_exact_v<T>) {
    // D-MASS-17: rationals that are all doubles take the integer sums of
    // D-MASS-16, one fraction per output, the same canonical values.
    std::vector<vec2<double>> d;
    if (exactly_doubles(v, d)) return polygon_mass_exact_of_doubles(std::span<const vec2<double>>(d), amount,
                                                                    amount_is_density);
  }
  if constexpr (std::is_floating_point_v<T>) {
    // D-MASS-13..15: certified double words, else the exact path.
    mass_filter::rounded<T> r;  // filter_force_exact(): nothing certified, every output exact
    if (!filter_force_exact() && mass_filter::try_polygon_mass(v, amount, amount_is_density, r, range_known))
      return {r.area, {r.centroid_x, r.centroid_y}, r.mass, r.inertia};
    return polygon_mass_exact(v, amount, amount_is_density, r);  // the outputs not certified
  }

  fan_sums<T> s;
  bool summed = false;
  if constexpr (mass_round::is_cpp_bin_float_v<W>) {
    // D-MASS-20: short significands (doubles): the same sums, exact, in integers.
    mass_wide_sums::sums<W> w;
    if (!filter_force_exact() && mass_wide_sums::exact_fan_sums<T, W>(v, w)) {
      s.twice_area = w.twice_area;
      s.first_x = w.first_x;
      s.first_y = w.first_y;
      s.second = w.second;
      summed = true;
    }
  }
  if (!summed) s = polygon_fan_sums(v);
  if (A::zero(s.twice_area)) throw invalid_input("polygon has zero area");
  if (A::negative(s.twice_area)) {  // clockwise: every sum flips sign
    s.twice_area = -s.twice_area;
    s.first_x = -s.first_x;
    s.first_y = -s.first_y;
    s.second = -s.second;
  }
  W area;
  if constexpr (mass_round::is_cpp_bin_float_v<W>) {
    using boost::multiprecision::ldexp;
    if (!filter_force_exact()) area = ldexp(s.twice_area, -1);  // D-MASS-20: the exact half, as / 2 returns
    else area = s.twice_area / W(2);
  } else {
    area = s.twice_area / W(2);
  }
  // D-MASS-32: exact sums (D-MASS-20) give the centroid and the inertia from a
  // narrower float when its interval rounds to one value; mass as below.
  if constexpr (mass_round::is_cpp_bin_float_v<W>) {
    if (summed) {
      const W amt = A::from(amount);
      const W mass = amount_is_density ? amt * area : amt;
      if (const auto c = mass_narrow::try_outputs<T, W>(s.twice_area, s.first_x, s.first_y, s.second, v[0].x,
                                                         v[0].y, mass)) {
        const std::optional<T> ra = mass_round::round_wide<T>(area);
        const std::optional<T> rm = mass_round::round_wide<T>(mass);
        if (ra && rm) return {*ra, {c->centroid_x, c->centroid_y}, *rm, c->inertia};
      }
    }
  }
  const W three_twice_area = s.twice_area * W(3);
  const W gx = s.first_x / three_twice_area;  // centroid - v0, D-MASS-2
  const W gy = s.first_y / three_twice_area;
  // D-MASS-4: (second moment about the centroid) / area
  //   = second / (6 * twice_area) - |g|^2
  const W per_area = s.second / (s.twice_area * W(6)) - (gx * gx + gy * gy);
  const W amt = A::from(amount);
  const W mass = amount_is_density ? amt * area : amt;
  const W inertia = mass * per_area;
  // D-MASS-19: cpp_bin_float outputs rounded from their significands, not
  // through exact rationals (the same values); otherwise A::round.
  auto round = [](const W& w) -> T {
    if constexpr (mass_round::is_cpp_bin_float_v<W>) {
      if (!filter_force_exact())
        if (const std::optional<T> r = mass_round::round_wide<T>(w)) return *r;
    }
    return A::round(w);
  };
  const T rounded_area = require_finite_result(round(area), "area");
  if (rounded_area == 0)
    throw invalid_input("the polygon's area underflows " + std::string(scalar_name<T>()) +
                        ": the input is too small for this precision (scale it, or use mp50)");
  return {rounded_area,
          {require_finite_result(round(A::from(v[0].x) + gx), "centroid"),
           require_finite_result(round(A::from(v[0].y) + gy), "centroid")},
          require_finite_result(round(mass), "mass"),
          require_finite_result(round(inertia), "inertia")};
}

template <class T>
mass_properties<T> polygon_mass_exact(std::span<const vec2<T>> v, const T& amount, bool amount_is_density,
                                      const mass_filter::rounded<T>& known) {
  mass_exact::integer_sums s;
  if (!mass_exact::polygon_sums(v, s)) throw invalid_input("polygon has zero area");
  const bool* ok = known.certified;
  const T rounded_area = ok[0] ? known.area : require_finite_result(round_to<T>(s.area()), "area");
  if (rounded_area == 0)
    throw invalid_input("the polygon's area underflows " + std::string(scalar_name<T>()) +
                        ": the input is too small for this precision (scale it, or use mp50)");
  const T cx = ok[1] ? known.centroid_x : require_finite_result(round_to<T>(s.centroid_x()), "centroid");
  const T cy = ok[2] ? known.centroid_y : require_finite_result(round_to<T>(s.centroid_y()), "centroid");
  const exact amt = to_exact(amount);
  const exact mass = amount_is_density ? exact(amt * s.area()) : amt;
  const T m = ok[3] ? known.mass : require_finite_result(round_to<T>(mass), "mass");
  const T inertia = ok[4] ? known.inertia : require_finite_result(round_to<T>(exact(mass * s.per_area())), "inertia");
  return {rounded_area, {cx, cy}, m, inertia};
}

}  // namespace detail

// Any simple polygon, convex or concave, either orientation, uniform density.
// D-MASS-1..5
template <class T>
mass_properties<T> polygon_mass_from_density(std::span<const vec2<T>> vertices, const T& density,
                                             polygon_check check = polygon_check::simple) {
  return detail::polygon_mass_impl(vertices, check, density, true);
}

// The same with the total mass given instead of the density.
template <class T>
mass_properties<T> polygon_mass_from_mass(std::span<const vec2<T>> vertices, const T& mass,
                                          polygon_check check = polygon_check::simple) {
  return detail::polygon_mass_impl(vertices, check, mass, false);
}

// Triangle, about its centroid: m/36 (|e1|^2 + |e2|^2 + |e3|^2), which is the
// article's m/18 (sum|r_i|^2 - sum r_i.r_j) rewritten in translation-invariant
// form (D-MASS-6). Rejects zero-area triangles.
template <class T>
T triangle_inertia(std::span<const vec2<T>> v, const T& mass) {
  using A = accumulator<T>;
  using W = typename A::type;
  if (v.size() != 3) throw invalid_input("a triangle needs exactly 3 vertices, got " + std::to_string(v.size()));
  require_finite(v);
  detail::require_positive(mass, "mass");
  if (orientation(v[0], v[1], v[2]) == 0) throw invalid_input("triangle is degenerate (zero area)");
  W sum{0};
  for (int k = 0; k < 3; ++k) {
    const vec2<T>& a = v[k];
    const vec2<T>& b = v[(k + 1) % 3];
    const W ex = A::from(b.x) - A::from(a.x), ey = A::from(b.y) - A::from(a.y);
    sum = sum + (ex * ex + ey * ey);
  }
  return detail::require_finite_result(A::round(A::from(mass) * sum / W(36)), "inertia");
}

// Regular n-gon with circumradius R about its centre, closed form
// m R^2 (2 + cos(2 pi / n)) / 6 (D-MASS-8), evaluated in T. Not rational:
// error bound in derivations/mass.md (D-MASS-12).
template <class T>
T regular_polygon_inertia(int sides, const T& radius, const T& mass) {
  using std::cos;
  if constexpr (is_exact_v<T>) {
    throw unsupported("the regular-polygon inertia needs cos(2 pi / n): not available in exact arithmetic");
  } else {
    if (sides < 3) throw invalid_input("a regular polygon needs at least 3 sides, got " + std::to_string(sides));
    detail::require_positive(radius, "radius");
    detail::require_positive(mass, "mass");
    const T delta = 2 * boost::math::constants::pi<T>() / sides;
    const T c = cos(delta);
    return detail::require_finite_result(T(mass * radius * radius * (2 + c) / 6), "inertia");
  }
}

// Solid disc: m r^2 / 2 (D-MASS-9).
template <class T>
T circle_inertia(const T& radius, const T& mass) {
  using A = accumulator<T>;
  using W = typename A::type;
  detail::require_positive(radius, "radius");
  detail::require_positive(mass, "mass");
  const W r = A::from(radius);
  return detail::require_finite_result(A::round(A::from(mass) * (r * r) / W(2)), "inertia");
}

// Solid rectangle: m (w^2 + h^2) / 12 (D-MASS-9; the article's m(sx^2+sy^2)/12).
template <class T>
T rectangle_inertia(const T& width, const T& height, const T& mass) {
  using A = accumulator<T>;
  using W = typename A::type;
  detail::require_positive(width, "width");
  detail::require_positive(height, "height");
  detail::require_positive(mass, "mass");
  const W w = A::from(width), h = A::from(height);
  return detail::require_finite_result(A::round(A::from(mass) * (w * w + h * h) / W(12)), "inertia");
}

// Parallel-axis theorem: inertia about a point at offset d from the centroid,
// I_c + m |d|^2 (D-MASS-11).
template <class T>
T parallel_axis(const T& inertia_about_centroid, const T& mass, const vec2<T>& offset) {
  using A = accumulator<T>;
  if (!is_finite(inertia_about_centroid) || inertia_about_centroid < 0)
    throw invalid_input("inertia must be finite and >= 0");
  detail::require_positive(mass, "mass");
  if (!is_finite(offset.x) || !is_finite(offset.y)) throw invalid_input("offset must be finite");
  const auto dx = A::from(offset.x), dy = A::from(offset.y);
  return detail::require_finite_result(
      A::round(A::from(inertia_about_centroid) + A::from(mass) * (dx * dx + dy * dy)), "inertia");
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
