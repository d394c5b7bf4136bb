// The case set "dynamics" of `rigidref cases`: step.pair requests.
#pragma once

#include "cases/cases.hpp"

#include <iosfwd>

namespace rigidref::tools {

void write_dynamics_set(const cases_options& opts, std::ostream& out);

}  // namespace rigidref::tools
