// Shapes (a core of 1, 2 or >= 3 points grown by a radius) for the shape
// tests (shapes_test.cpp): exact cases, their conversion to convex_shape<T>,
// generators of every kind with many exact coincidences, and the truth of a
// pair from the core oracle (verify/collision_oracle.hpp) plus the radii.
#pragma once

#include "support/collision_test_helpers.hpp"
#include "support/exact_helpers.hpp"

#include "rigidref/convex_shape.hpp"
#include "rigidref/verify/accuracy.hpp"
#include "rigidref/verify/collision_oracle.hpp"

#include <rapidcheck.h>

#include <array>
#include <ostream>
#include <string>

namespace rigidref::testing::shapes {

using collision::EP;
using collision::EV;

enum class kind { point, segment, capsule, circle, polygon, rounded_polygon };
inline constexpr std::array<kind, 6> all_kinds{kind::point,   kind::segment, kind::capsule,
                                               kind::circle,  kind::polygon, kind::rounded_polygon};

inline const char* name_of(kind k) {
  switch (k) {
    case kind::point: return "point";
    case kind::segment: return "segment";
    case kind::capsule: return "capsule";
    case kind::circle: return "circle";
    case kind::polygon: return "polygon";
    case kind::rounded_polygon: return "rounded polygon";
  }
  return "?";
}

inline bool has_radius(kind k) { return k == kind::capsule || k == kind::circle || k == kind::rounded_polygon; }

// An exact shape: core (1, 2 or >= 3 points) and radius (dyadic, >= 0).
struct shape_case {
  EP core;
  exact radius;
};

inline void showValue(const shape_case& c, std::ostream& os) {
  os << "core=";
  for (const auto& p : c.core) os << "[" << p.x << "," << p.y << "]";
  os << " r=" << c.radius;
}

inline shape_case scaled(shape_case c, const exact& m, const EV& offset) {
  for (auto& p : c.core) p = EV{m * p.x + offset.x, m * p.y + offset.y};
  c.radius = m * c.radius;
  return c;
}

template <class T>
bool representable(const shape_case& c) {
  return gen::exactly_representable<T>(c.core) && to_exact(round_to<T>(c.radius)) == c.radius;
}

template <class T>
convex_shape<T> shape_of(const shape_case& c) {
  const std::vector<vec2<T>> v = gen::to_type<T>(c.core);
  const T r = round_to<T>(c.radius);
  if (v.size() == 1) return make_disc(v[0], r);
  if (v.size() == 2) return make_capsule(v[0], v[1], r);
  return make_rounded_polygon(v, r);
}

// A shape of kind k about (cx, cy) with small integer coordinates and a
// half-integer radius: touching, shared vertices and points on segments
// happen often.
inline rc::Gen<shape_case> small_shape(kind k, int cx, int cy) {
  auto pt = [cx, cy](int dx, int dy) { return EV{exact(cx + dx), exact(cy + dy)}; };
  rc::Gen<EP> core = [&]() -> rc::Gen<EP> {
    switch (k) {
      case kind::point:
      case kind::circle:
        return rc::gen::apply([pt](int x, int y) { return EP{pt(x, y)}; }, rc::gen::inRange(-3, 4),
                              rc::gen::inRange(-3, 4));
      case kind::segment:
      case kind::capsule:
        return rc::gen::suchThat(
            rc::gen::apply([pt](int x0, int y0, int x1, int y1) { return EP{pt(x0, y0), pt(x1, y1)}; },
                           rc::gen::inRange(-3, 4), rc::gen::inRange(-3, 4), rc::gen::inRange(-3, 4),
                           rc::gen::inRange(-3, 4)),
            [](const EP& e) { return !(e[0] == e[1]); });
      default:
        return collision::small_integer_polygon(cx, cy);
    }
  }();
  const bool round = has_radius(k);
  return rc::gen::apply(
      [round](EP c, int half) { return shape_case{std::move(c), round ? exact(half, 2) : exact(0)}; }, core,
      rc::gen::inRange(1, 9));
}

// Exact squared distance from p to a core.
inline exact dist2_to_core(const EV& p, const EP& core) {
  if (core.size() == 1) return length_squared(p - core[0]);
  if (core.size() == 2) return verify::point_segment_distance_squared(p, core[0], core[1]);
  return collision::dist2_to_polygon(p, core);
}

// p is in the shape up to the rounding of its coordinates and of an offset
// of length r: dist(p, core) <= r + eps (|x| + |y| + r).
template <class T>
bool near_shape(const vec2<T>& p, const shape_case& s) {
  const exact slack = to_exact(epsilon<T>()) * (collision::eabs(to_exact(p.x)) + collision::eabs(to_exact(p.y)) + s.radius);
  const exact reach = s.radius + slack;
  return dist2_to_core(collision::ex(p), s.core) <= reach * reach;
}

// The truth for a pair of shapes: the core oracle, then the radii.
struct pair_truth {
  verify::core_collision core;
  exact r;  // ra + rb
  bool intersecting = false;
  bool touching = false;
};

inline pair_truth truth_of(const shape_case& a, const shape_case& b) {
  pair_truth t;
  t.core = verify::exact_core_collision<exact>(std::span<const EV>(a.core), std::span<const EV>(b.core));
  t.r = a.radius + b.radius;
  if (t.core.intersecting) {
    t.intersecting = true;
    t.touching = t.r == 0 && t.core.depth_squared == 0;
  } else {
    t.intersecting = t.core.distance_squared <= t.r * t.r;
    t.touching = t.core.distance_squared == t.r * t.r;
  }
  return t;
}

// sqrt of an exact value at 230 digits.
inline verify::oracle_float osqrt(const exact& q) {
  using O = verify::oracle_float;
  return sqrt(O(numerator(q)) / O(denominator(q)));
}

// The D-GJK-9 / D-EPA-7 bound in eps for a value v = s1 +- s2 evaluated in
// the accumulator and rounded once: u + 8 u_acc (|s1| + |s2|) / |v|.
template <class T>
double radius_bound_eps(const verify::oracle_float& magnitude, const verify::oracle_float& value) {
  const double cond = static_cast<double>(round_to<double>(to_exact(verify::oracle_float(magnitude / value))));
  return 0.5 + 8 * static_cast<double>(round_to<double>(accumulator_unit<T>() / to_exact(epsilon<T>()))) * cond;
}

}  // namespace rigidref::testing::shapes
