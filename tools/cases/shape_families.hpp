// The collision set's families of the shapes engines use besides polygons
// (docs/eval-protocol.md section 2: circle, point, segment, capsule,
// rounded polygon), appended after the polygon families of families.hpp:
// circle-polygon, circle-circle, point-polygon, segment-polygon,
// capsule-polygon, capsule-capsule, segment-segment and rounded
// polygon-polygon, each with separated, touching, shallow and deep pairs;
// then `plank`, the thin plank and point of Box2D v3's
// ShapeDistanceShortEdgeTest and a sweep of its end-face length (gjk.distance
// only). Drawn from their own generator seeded from --seed, every number a
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
  std::string id;     // e.g. "circle-polygon-touching-2"
  std::string label;  // family, then what was drawn
  case_shape a, b;
  bool distance_only = false;  // gjk.distance only (the plank family)
};

std::vector<shape_pair> shape_pair_families(std::uint64_t seed);

}  // namespace rigidref::tools
