// A floating-point filter for the exact decisions of gjk.hpp and epa.hpp:
// values carried in T with a rigorous running bound on their distance to the
// exact value (derivations/gjk.md, D-GJK-13). A decision (the sign of a
// polynomial in the input coordinates) is taken in T when the bound proves
// it; otherwise the caller evaluates it exactly, as before. Enabled only for
// the builtin binary types (float, double, long double): the bound needs
// IEEE round-to-nearest arithmetic with a known unit roundoff and a known
// smallest subnormal, and no extended-precision evaluation of T expressions
// (FLT_EVAL_METHOD 0 or 1, checked below; x87 long double evaluates long
// double in long double).
//
// The bound holds whether or not the compiler contracts a * b + c into a fused
// multiply-add (detail/fp_begin.hpp turns contraction off, but clang's
// -ffp-contract=fast overrides it): a fused operation rounds once where the
// bound allows for two roundings.
#pragma once

#include "rigidref/detail/hot.hpp"
#include "rigidref/vec2.hpp"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
inline constexpr bool filter_enabled_v =
    std::is_floating_point_v<T> && std::numeric_limits<T>::is_iec559 && std::numeric_limits<T>::radix == 2 &&
    std::numeric_limits<T>::round_style == std::round_to_nearest &&
    (FLT_EVAL_METHOD == 0 || FLT_EVAL_METHOD == 1 || std::is_same_v<T, long double>);

// How the filtered decisions of this thread were taken, for tests and the
// benchmark: in T (`certain`), by an exact structural identity (`structural`,
// e.g. the two end points of an edge against the edge's own normal) or by
// the exact fallback (`fallback`). `exact_values` counts results (a depth,
// a distance) whose rounding was not proved by the filter and was computed
// exactly.
struct filter_counters {
  std::uint64_t certain = 0;
  std::uint64_t structural = 0;
  std::uint64_t fallback = 0;
  std::uint64_t exact_values = 0;
  std::uint64_t filtered_values = 0;
};

inline filter_counters& filter_stats() {
  static thread_local filter_counters c;
  return c;
}

namespace detail {

// For tests: when true, this thread's filter proves nothing, so every
// decision and every rounded value takes the exact path (structural
// identities still apply; they are exact).
inline bool& filter_force_exact() {
  static thread_local bool force = false;
  return force;
}

// A T value v with a bound e >= |v - x| on its distance to an exact value x.
// D-GJK-13
template <class T>
struct fv {
  T v{0};
  T e{0};
};

template <class T>
struct fconst {
  static constexpr T u = std::numeric_limits<T>::epsilon() / 2;  // unit roundoff
  static constexpr T eta = std::numeric_limits<T>::denorm_min();
  // Covers the roundings in evaluating a bound (at most 7 of them per
  // operation, each by a factor (1 - u)): (1 - u)^8 (1 + 16 u) > 1. D-GJK-13
  static constexpr T up = 1 + 16 * std::numeric_limits<T>::epsilon() / 2;
};

// An input coordinate: exact.
template <class T>
RIGIDREF_HOT fv<T> fexact(const T& x) {
  return {x, T(0)};
}

// (a - b), (a + b): |fl(a +- b) - (a +- b)| <= u |fl(a +- b)| (exact when
// subnormal). D-GJK-13 (1)
template <class T>
RIGIDREF_HOT fv<T> fsub(const fv<T>& a, const fv<T>& b) {
  using std::abs;
  const T v = a.v - b.v;
  return {v, ((a.e + b.e) + fconst<T>::u * abs(v) + fconst<T>::eta) * fconst<T>::up};
}

template <class T>
RIGIDREF_HOT fv<T> fadd(const fv<T>& a, const fv<T>& b) {
  using std::abs;
  const T v = a.v + b.v;
  return {v, ((a.e + b.e) + fconst<T>::u * abs(v) + fconst<T>::eta) * fconst<T>::up};
}

// a b: |a b - x y| <= |a| e_y + |b| e_x + e_x e_y, plus the rounding of the
// product, u |fl(a b)| + eta / 2 (eta: smallest subnormal). D-GJK-13 (2)
template <class T>
RIGIDREF_HOT fv<T> fmul(const fv<T>& a, const fv<T>& b) {
  using std::abs;
  const T v = a.v * b.v;
  const T e = ((abs(a.v) * b.e + abs(b.v) * a.e) + a.e * b.e) + fconst<T>::u * abs(v) + 4 * fconst<T>::eta;
  return {v, e * fconst<T>::up};
}

template <class T>
RIGIDREF_HOT fv<T> fneg(const fv<T>& a) {
  return {T(-a.v), a.e};
}

// +1 / -1 when the sign of the exact value is proved, 0 when it is not (the
// exact value may be 0 or of either sign). A NaN or infinite value or bound
// is never proved.
template <class T>
RIGIDREF_HOT int fsign(const fv<T>& a) {
  if (filter_force_exact()) return 0;
  if (a.v > a.e) return 1;
  if (-a.v > a.e) return -1;
  return 0;
}

template <class T>
struct fvec {
  fv<T> x, y;
};

template <class T>
RIGIDREF_HOT fvec<T> fvec_exact(const vec2<T>& p) {
  return {fexact(p.x), fexact(p.y)};
}

template <class T>
RIGIDREF_HOT fvec<T> fsub(const fvec<T>& a, const fvec<T>& b) {
  return {fsub(a.x, b.x), fsub(a.y, b.y)};
}

template <class T>
RIGIDREF_HOT fv<T> fdot(const fvec<T>& a, const fvec<T>& b) {
  return fadd(fmul(a.x, b.x), fmul(a.y, b.y));
}

// Static filters for the degree-2 forms of four input points a, b, c, d:
//   cross: (b - a) x (d - c) = (bx - ax)(dy - cy) - (by - ay)(dx - cx),
//   dot:   (b - a) . (d - c) = (bx - ax)(dx - cx) + (by - ay)(dy - cy).
// Each term is one rounded difference per factor and one rounded product,
// the terms one rounded sum: the expression of orientation() in
// predicates.hpp (which has c = a), so Shewchuk's bound (3 + 16u) u (|l| + |r|)
// holds, with the same guard against underflow. static_form2 gives the value
// with that bound (an infinite one below the guard, or for NaN: never a
// proof); static_sign2 its sign, +1 / -1 when proved, 0 when not. D-GJK-17
template <class T>
RIGIDREF_HOT fv<T> static_form2(const T& l, const T& r, bool difference) {
  using std::abs;
  constexpr T u = std::numeric_limits<T>::epsilon() / 2;
  const T v = difference ? T(l - r) : T(l + r);
  const T sum = abs(l) + abs(r);
  if (!(sum > std::numeric_limits<T>::min() / u / u)) return {v, std::numeric_limits<T>::infinity()};
  return {v, (3 + 16 * u) * u * sum};
}

template <class T>
RIGIDREF_HOT int static_sign2(const T& l, const T& r, bool difference) {
  return fsign(static_form2(l, r, difference));
}

// |e|^2 = ex^2 + ey^2 of an edge e = q - p of input points, as a filtered
// value: with rounded differences, squares and sum, the value is within
// gamma_4 = 4u / (1 - 4u) of the exact one relative, below 5u of the value;
// an infinite bound below the underflow guard. D-EPA-11
template <class T>
RIGIDREF_HOT fv<T> static_length2(const vec2<T>& p, const vec2<T>& q) {
  constexpr T u = std::numeric_limits<T>::epsilon() / 2;
  const T ex = q.x - p.x, ey = q.y - p.y;
  const T v = ex * ex + ey * ey;
  if (!(v > std::numeric_limits<T>::min() / u / u)) return {v, std::numeric_limits<T>::infinity()};
  return {v, 5 * u * v * fconst<T>::up};
}

template <class T>
RIGIDREF_HOT int static_cross_sign(const vec2<T>& a, const vec2<T>& b, const vec2<T>& c, const vec2<T>& d) {
  return static_sign2(T((b.x - a.x) * (d.y - c.y)), T((b.y - a.y) * (d.x - c.x)), true);
}

template <class T>
RIGIDREF_HOT int static_dot_sign(const vec2<T>& a, const vec2<T>& b, const vec2<T>& c, const vec2<T>& d) {
  return static_sign2(T((b.x - a.x) * (d.x - c.x)), T((b.y - a.y) * (d.y - c.y)), false);
}

}  // namespace detail
}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
