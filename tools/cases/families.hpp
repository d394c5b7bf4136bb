// The labelled case families added on top of the random and named cases of
// the sets mass, collision and manifold (issue 15): many vertices (13..64),
// shapes offset from their origin by 1 to 1e6 sizes, tiny and huge scales,
// needles, and for pairs touching, shallow and deep contacts. Each family is
// drawn from its own generator seeded from --seed, so adding one leaves the
// lines before it unchanged.
#pragma once

#include "rigidref/vec2.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rigidref::tools {

using polygon_f = std::vector<vec2<float>>;

struct family_polygon {
  std::string id;      // e.g. "many-vertices-3"
  std::string family;  // the case's family, e.g. "many-vertices", "offset-1e3"
  std::string label;   // family, then what was drawn
  polygon_f vertices;
};

struct family_pair {
  std::string id;
  std::string family;  // e.g. "touching", "offset-1e3"
  std::string label;
  polygon_f a, b;
};

std::vector<family_polygon> mass_families(std::uint64_t seed);
std::vector<family_pair> pair_families(std::uint64_t seed);

}  // namespace rigidref::tools
