// The case set "dynamics" of `rigidref cases`: step.pair requests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>

namespace rigidref::tools {

// `count` random scenes from `seed`, then the turned scenes and the named ones.
void write_dynamics_set(std::uint64_t seed, std::size_t count, std::ostream& out);

}  // namespace rigidref::tools
