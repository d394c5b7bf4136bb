// The rectangle-rectangle separating-axis test of seed 002 ("しかく と しかく
// が ごっつんこ", g2, 2017), exactly as the article defines it
// (derivations/sat.md, D-RECT-1..4). The article prints formulas, no code;
// this is those formulas evaluated left to right in T.
//
// For the axis n1 of R1 the article defines
//   d0 = w1 / 2
//   d1 = 1/2 (|w2 (n1.n2)| + |h2 (n1.t2)|)
//   d2 = |n1.(r2 - r1)|
//   d3 = d0 + d1 - d2
// with n = R(theta) (1, 0) and t = R(theta + pi/2) (1, 0), and declares the
// rectangles colliding when d3 >= 0 on all four axes n1, t1, n2, t2 ("両矩形
// のローカル座標における各軸に対してこの判定を行い(計4回)、それらにAND演算").
// The article writes the formulas for n1 only; the other three axes are the
// same formulas with the roles substituted (D-RECT-4): for t1, d0 = h1/2 and
// n1 -> t1; for n2 and t2, R1 and R2 swap.
//
// Quirks kept (each measured in tests/sat_test.cpp):
//   - t = R(theta + pi/2)(1, 0) is computed as (cos(theta + pi/2),
//     sin(theta + pi/2)) with pi/2 rounded in T, so t is not exactly
//     perpendicular to n: cos(pi/2) in double is 6.1e-17, not 0. Axis-aligned
//     rectangles with a long side pick up a spurious d1 term (D-RECT-6).
//   - d3 >= 0 counts touching (d3 == 0) as a collision, as the article says.
//     Its prose says "d3 が 0 以下" (d3 <= 0) one sentence before concluding
//     the condition d3 >= 0; the condition is what we implement (D-RECT-3).
//   - The per-axis values are rounded arithmetic: near touching, d3 can have
//     the wrong sign (no exact predicate).
#pragma once

#include "rigidref/errors.hpp"
#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <boost/math/constants/constants.hpp>

#include <array>
#include <cmath>
#include <string>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::articles {

// A rectangle as the article describes it: position vector r (center),
// width w along n, height h along t, angle theta.
template <class T>
struct article_rectangle {
  vec2<T> center;
  T width{1};
  T height{1};
  T angle{0};
};

// The article's four numbers for one axis. D-RECT-1
template <class T>
struct rectangle_axis_values {
  T d0{0}, d1{0}, d2{0}, d3{0};
};

template <class T>
struct rectangle_sat_result {
  bool overlap = false;                          // d3 >= 0 on every axis
  std::array<rectangle_axis_values<T>, 4> axes;  // in the order n1, t1, n2, t2
  std::array<vec2<T>, 4> axis_vectors;           // n1, t1, n2, t2 as used
  // Convenience for the eval op: the four d3 values, order n1, t1, n2, t2.
  std::array<T, 4> d3() const { return {axes[0].d3, axes[1].d3, axes[2].d3, axes[3].d3}; }
};

namespace detail {

template <class T>
T article_abs(const T& x) {
  return x < 0 ? T(-x) : x;  // |x| for every scalar, exact included
}

template <class T>
T article_dot(const vec2<T>& a, const vec2<T>& b) {
  return a.x * b.x + a.y * b.y;
}

// The article's formulas for the axis `axis` of the "own" rectangle, whose
// half-extent along it is own_extent/2; the other rectangle has width
// w_other along n_other and height h_other along t_other. D-RECT-1; d1 is
// the other rectangle's largest vertex projection, D-RECT-2.
template <class T>
rectangle_axis_values<T> axis_values(const vec2<T>& axis, const T& own_extent, const T& w_other, const vec2<T>& n_other,
                                     const T& h_other, const vec2<T>& t_other, const vec2<T>& r_own,
                                     const vec2<T>& r_other) {
  const T half = T(1) / T(2);
  rectangle_axis_values<T> v;
  v.d0 = half * own_extent;  // d0 = 1/2 w1
  v.d1 = half * (article_abs(T(w_other * article_dot(axis, n_other))) +
                 article_abs(T(h_other * article_dot(axis, t_other))));  // d1 = 1/2(|w2(n1.n2)| + |h2(n1.t2)|)
  v.d2 = article_abs(article_dot(axis, r_other - r_own));                // d2 = |n1.(r2 - r1)|
  v.d3 = v.d0 + v.d1 - v.d2;                                             // d3 = d0 + d1 - d2
  return v;
}

}  // namespace detail

// The article's test with the axes given as vectors (any T, exact included:
// pass rational unit vectors). n, t: each rectangle's width and height
// directions. D-RECT-1, D-RECT-4
template <class T>
rectangle_sat_result<T> rectangle_sat_axes(const vec2<T>& r1, const T& w1, const T& h1, const vec2<T>& n1,
                                           const vec2<T>& t1, const vec2<T>& r2, const T& w2, const T& h2,
                                           const vec2<T>& n2, const vec2<T>& t2) {
  for (const T* x :
       {&r1.x, &r1.y, &w1, &h1, &n1.x, &n1.y, &t1.x, &t1.y, &r2.x, &r2.y, &w2, &h2, &n2.x, &n2.y, &t2.x, &t2.y})
    if (!is_finite(*x)) throw invalid_input("rectangle_sat: non-finite input");
  if (!(w1 > 0) || !(h1 > 0) || !(w2 > 0) || !(h2 > 0))
    throw invalid_input("rectangle_sat: width and height must be > 0");
  rectangle_sat_result<T> out;
  out.axis_vectors = {n1, t1, n2, t2};
  out.axes[0] = detail::axis_values(n1, w1, w2, n2, h2, t2, r1, r2);  // the article's case
  out.axes[1] = detail::axis_values(t1, h1, w2, n2, h2, t2, r1, r2);  // n1 -> t1, w1 -> h1
  out.axes[2] = detail::axis_values(n2, w2, w1, n1, h1, t1, r2, r1);  // R1 <-> R2
  out.axes[3] = detail::axis_values(t2, h2, w1, n1, h1, t1, r2, r1);  // R1 <-> R2, n2 -> t2
  out.overlap = true;
  for (const auto& a : out.axes) out.overlap = out.overlap && a.d3 >= 0;  // "d3 >= 0" on all four, AND
  return out;
}

// The article's test from angles: n = R(theta)(1, 0) = (cos theta, sin theta),
// t = R(theta + pi/2)(1, 0) = (cos(theta + pi/2), sin(theta + pi/2)), as
// written (floating T only). D-RECT-1, D-RECT-6
// In exact: throws unsupported (use rectangle_sat_axes with rational axes).
template <class T>
rectangle_sat_result<T> rectangle_sat(const article_rectangle<T>& a, const article_rectangle<T>& b) {
  if constexpr (is_exact_v<T>) {
    throw unsupported("the article's axes need cos/sin: in exact, give the axes as rational unit vectors");
  } else {
    using std::cos;
    using std::sin;
    if (!is_finite(a.angle) || !is_finite(b.angle)) throw invalid_input("rectangle_sat: non-finite angle");
    const T half_pi = boost::math::constants::half_pi<T>();
    auto n_of = [](const T& th) { return vec2<T>{T(cos(th)), T(sin(th))}; };
    // Quirk: theta + pi/2 rounded, pi/2 rounded: t is not exactly perp(n).
    auto t_of = [&](const T& th) {
      const T th2 = th + half_pi;
      return vec2<T>{T(cos(th2)), T(sin(th2))};
    };
    return rectangle_sat_axes(a.center, a.width, a.height, n_of(a.angle), t_of(a.angle), b.center, b.width, b.height,
                              n_of(b.angle), t_of(b.angle));
  }
}

}  // namespace rigidref::articles

#include "rigidref/detail/fp_end.hpp"
