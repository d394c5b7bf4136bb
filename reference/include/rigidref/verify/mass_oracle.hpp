// Exact oracles for the mass properties, written independently of mass.hpp:
// the textbook shoelace sums about the origin (no shift, no double words), in
// rational arithmetic, where cancellation costs nothing. A bug in mass.hpp's
// shifted fan sums would have to be repeated here in different algebra to
// go unnoticed; the identity tests (tests/mass_identities_test.cpp) tie both to
// the triangle and rectangle formulas as well.
#pragma once

#include "rigidref/convert.hpp"
#include "rigidref/vec2.hpp"

#include <span>
#include <vector>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::verify {

struct exact_mass {
  exact area;
  vec2<exact> centroid;
  exact mass;
  exact inertia;  // about the centroid
};

// D-MASS-1..4 about the origin; `amount` is the density, or the mass when
// amount_is_density is false.
template <class T>
exact_mass polygon_mass_oracle(std::span<const vec2<T>> vertices, const exact& amount, bool amount_is_density) {
  std::vector<vec2<exact>> v;
  for (const auto& p : vertices) v.push_back({to_exact(p.x), to_exact(p.y)});
  exact twice_area = 0, sx = 0, sy = 0, second = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const vec2<exact>& a = v[i];
    const vec2<exact>& b = v[(i + 1) % v.size()];
    const exact c = a.x * b.y - b.x * a.y;
    twice_area += c;
    sx += c * (a.x + b.x);
    sy += c * (a.y + b.y);
    second += c * (a.x * a.x + a.x * b.x + b.x * b.x + a.y * a.y + a.y * b.y + b.y * b.y);
  }
  if (twice_area < 0) {
    twice_area = -twice_area;
    sx = -sx;
    sy = -sy;
    second = -second;
  }
  exact_mass out;
  out.area = twice_area / 2;
  out.centroid = {sx / (3 * twice_area), sy / (3 * twice_area)};
  out.mass = amount_is_density ? amount * out.area : amount;
  const exact density = out.mass / out.area;
  // Polar moment about the origin, then the parallel-axis shift to the centroid.
  const exact about_origin = density * second / 12;
  out.inertia = about_origin - out.mass * length_squared(out.centroid);
  return out;
}

}  // namespace rigidref::verify

#include "rigidref/detail/fp_end.hpp"
