// The case set "scenes" of `rigidref cases`: scene.run requests, each
// family a sweep whose expectations the judge derives from the bodies
// (derivations/scene_run.md): free flight, friction ramps, rolling discs,
// bounces, head-on pairs, resting boxes, stacks and a pyramid.
#pragma once

#include <iosfwd>

namespace rigidref::tools {

void write_scene_set(std::ostream& out);

}  // namespace rigidref::tools
