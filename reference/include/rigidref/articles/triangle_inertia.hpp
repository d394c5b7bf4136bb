// Faithful port of the triangle inertia snippet of 自作2D物理エンジンを作った話
// (seed 004, snippet 1 in articles-js/snippets-edo.js):
//   I = (1 / 18) * m * (|v1|^2 + |v2|^2 + |v3|^2 - v2.v3 - v3.v1 - v1.v2)
// evaluated in the article's order. The value is the inertia about the
// centroid whatever the origin (D-MASS-6), but this form computes it from
// absolute coordinates, so far from the origin it cancels catastrophically;
// rigidref::triangle_inertia (mass.hpp) is the accurate equivalent.
// Quirk kept: 1/18 is rounded first, then multiplied.
#pragma once

#include "rigidref/vec2.hpp"

#include <span>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref::articles {

template <class T>
T triangle_inertia(std::span<const vec2<T>> v, const T& mass) {
  const T v1len = length_squared(v[0]);
  const T v2len = length_squared(v[1]);
  const T v3len = length_squared(v[2]);
  const T v2v3 = dot(v[1], v[2]);
  const T v3v1 = dot(v[2], v[0]);
  const T v1v2 = dot(v[0], v[1]);
  return (T(1) / 18) * mass * (v1len + v2len + v3len - v2v3 - v3v1 - v1v2);
}

}  // namespace rigidref::articles

#include "rigidref/detail/fp_end.hpp"
