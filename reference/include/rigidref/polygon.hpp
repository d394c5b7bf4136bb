// Input checks for polygons: finite coordinates, enough vertices, no repeated
// consecutive vertex, and simplicity (no two edges meet except neighbours at
// their shared vertex, and neighbours do not fold back onto each other).
// All decisions are exact (predicates.hpp), so a polygon is accepted or
// rejected the same way in every precision that represents it exactly.
#pragma once

#include "rigidref/detail/simple_polygon.hpp"
#include "rigidref/errors.hpp"
#include "rigidref/predicates.hpp"
#include "rigidref/vec2.hpp"

#include <cmath>
#include <cstddef>
#include <span>
#include <string>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

template <class T>
void require_finite(std::span<const vec2<T>> vertices) {
  for (std::size_t i = 0; i < vertices.size(); ++i)
    if (!is_finite(vertices[i].x) || !is_finite(vertices[i].y))
      throw invalid_input("vertex " + std::to_string(i) + " has a non-finite coordinate");
}

// Finite, at least 3 vertices, no consecutive duplicates (cyclically).
template <class T>
void require_polygon_basics(std::span<const vec2<T>> vertices) {
  if (vertices.size() < 3)
    throw invalid_input("a polygon needs at least 3 vertices, got " + std::to_string(vertices.size()));
  require_finite(vertices);
  const std::size_t n = vertices.size();
  auto coincide = [](std::size_t i, std::size_t j) {
    return invalid_input("vertices " + std::to_string(i) + " and " + std::to_string(j) +
                         " coincide (zero-length edge)");
  };
  // Edges i -> i + 1, then the closing edge n - 1 -> 0: the cyclic order,
  // without a division per vertex.
  for (std::size_t i = 0; i + 1 < n; ++i)
    if (vertices[i] == vertices[i + 1]) throw coincide(i, i + 1);
  if (vertices[n - 1] == vertices[0]) throw coincide(n - 1, 0);
}

// Throws invalid_input naming the first offending pair of edges, in the
// order of the O(n^2) scan of detail::first_violation; the test itself
// sweeps and, for wide types holding doubles, runs in double (D-MASS-17).
template <class T>
void require_simple_polygon(std::span<const vec2<T>> vertices) {
  require_polygon_basics(vertices);
  const std::size_t n = vertices.size();
  auto edge_name = [n](std::size_t i) {
    return "edge " + std::to_string(i) + " (vertices " + std::to_string(i) + "-" + std::to_string((i + 1) % n) + ")";
  };
  const detail::simplicity_violation bad = detail::simplicity_test(vertices);  // D-MASS-10
  if (bad.kind == detail::simplicity_violation::folds_back)
    throw invalid_input("polygon is not simple: " + edge_name(bad.i) + " and " + edge_name(bad.j) +
                        " fold back onto each other");
  if (bad.kind == detail::simplicity_violation::intersect)
    throw invalid_input("polygon is not simple: " + edge_name(bad.i) + " and " + edge_name(bad.j) + " intersect");
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
