// The request limits live in the public header rigidref/protocol/limits.hpp
// (engine adapters outside this repository hold lines to them too); eval
// and check keep their name for them, rigidref::tools::eval::limits.
#pragma once

#include "rigidref/protocol/limits.hpp"

namespace rigidref::tools::eval {
namespace limits = rigidref::protocol::limits;
}  // namespace rigidref::tools::eval
