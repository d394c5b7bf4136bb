// Typed errors, one per error code of the eval protocol
// (docs/eval-protocol.md), so the CLI maps exceptions to codes 1:1.
#pragma once

#include <stdexcept>
#include <string>

#include "rigidref/detail/fp_begin.hpp"

namespace rigidref {

// Wrong shape, non-finite number, degenerate or non-simple polygon, mass <= 0...
struct invalid_input : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// The mathematical answer does not exist (e.g. no real matrix square root).
struct domain_error : std::domain_error {
  using std::domain_error::domain_error;
};

// The operation cannot be carried out in the requested arithmetic
// (e.g. "exact" for a result that needs cos or sqrt).
struct unsupported : std::logic_error {
  using std::logic_error::logic_error;
};

// An iterative method reached its iteration cap.
struct no_convergence : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace rigidref

#include "rigidref/detail/fp_end.hpp"
