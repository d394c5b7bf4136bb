// RapidCheck prints a counterexample's exact point as [x, y] (found by ADL).
// One definition for every test file that prints exact points: the files of
// one test program compile as one unit (tests/CMakeLists.txt).
#pragma once

#include "rigidref/scalar.hpp"
#include "rigidref/vec2.hpp"

#include <ostream>

namespace rigidref {
inline void showValue(const vec2<exact>& v, std::ostream& os) { os << "[" << v.x << ", " << v.y << "]"; }
}  // namespace rigidref
