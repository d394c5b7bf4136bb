// The one copy of the templates rigidref/instances.hpp declares extern
// (target rigidref_instances, tools/CMakeLists.txt).
#include "rigidref/instances.hpp"

RIGIDREF_INSTANCES()
