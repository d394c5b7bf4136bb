// Shared by the case sets: the angle by which a configuration built along
// the axes is turned. Uniform over [0, 2 pi) less the 5 degrees either side
// of each axis, so that a turned pair or scene is never nearly axis-aligned:
// |cos| + |sin| - 1, by which |dx| + |dy| overstates a length (a distance
// in a wrong norm), is then at least 8 %.
#pragma once

#include "rigidref/verify/random.hpp"

#include <cmath>

namespace rigidref::tools {

inline double angle_off_axes(verify::rng& g) {
  constexpr double pi = 3.141592653589793;
  for (;;) {
    const double t = 2 * pi * verify::uniform01<double>(g);
    if (std::fabs(std::remainder(t, pi / 2)) >= 5 * pi / 180) return t;
  }
}

}  // namespace rigidref::tools
