// The collision set's families of the shapes engines use besides polygons
// (docs/eval-protocol.md section 2: circle, point, segment, capsule,
// rounded polygon), appended after the polygon families of families.hpp:
// circle-polygon, circle-circle, point-polygon, segment-polygon,
// capsule-polygon, capsule-capsule, segment-segment and rounded
// polygon-polygon, each with separated, touching, shallow and deep pairs
// along an axis-parallel line; then `plank`, the thin plank and point of
// Box2D v3's ShapeDistanceShortEdgeTest and a sweep of its end-face length
// (gjk.distance only); then, for each of the eight families, pairs turned by
// a random angle, as many separated as overlapping, so that a distance in a
// wrong norm (|dx| + |dy| for two circles), which is right along the axes,
// fails. Drawn from their own generators seeded from --seed, every number a
// float; touching pairs touch exactly in those floats.
#pragma once

#include "cases/families.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rigidref::tools {

struct case_shape {
  enum class kind { polygon, rounded_polygon, circle, point, segment, capsule };
  kind form = kind::polygon;
  polygon_f core;  // polygon vertices (counter-clockwise), circle centre, point, segment ends
  float radius = 0;
};

struct shape_pair {
  std::string id;      // e.g. "circle-polygon-touching-2"
  std::string family;  // e.g. "circle-polygon", "plank"
  std::string label;   // family, then what was drawn
  case_shape a, b;
  bool distance_only = false;  // gjk.distance only (the plank family)
  bool rotated = false;        // built along a line, then turned by a random angle
};

std::vector<shape_pair> shape_pair_families(std::uint64_t seed);

}  // namespace rigidref::tools
