// The status every collision query reports (gjk.hpp, epa.hpp).
#pragma once

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

enum class collision_status {
  converged,         // the answer is certified (separated, or overlapping with depth > 0)
  touching,          // the closed shapes share boundary points only: distance 0 and depth 0
  degenerate_input,  // the answer exists but a direction is undefined (coincident circle centres)
  cap_reached,       // the iteration cap in T was reached; values come from the exact fallback
};

inline const char* to_string(collision_status s) {
  switch (s) {
    case collision_status::converged: return "converged";
    case collision_status::touching: return "touching";
    case collision_status::degenerate_input: return "degenerate_input";
    case collision_status::cap_reached: return "cap_reached";
  }
  return "?";
}

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
