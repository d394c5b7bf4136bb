#!/usr/bin/env bash
# Configures a build folder with Ninja, from the repository's root:
#   bash tools/cmake_configure.sh DIR [cmake options...]
# (tools/test.sh, report.sh and box2d_v3.sh). Ninja rather than make: make
# starts a target's compiles only once every target it depends on is built,
# and its order left one of two cores idle for 80 to 110 s of the test
# command's build (bench/HISTORY.md, "the test programs merged"). A folder
# that another generator configured before is configured again from scratch.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: bash tools/cmake_configure.sh DIR [cmake options...]" >&2; exit 2; }
dir=$1
shift
if [ -f "$dir/CMakeCache.txt" ] && ! grep -qx 'CMAKE_GENERATOR:INTERNAL=Ninja' "$dir/CMakeCache.txt"; then
  echo "cmake_configure: $dir was configured for another generator; configuring it again for Ninja"
  rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
fi
cmake -G Ninja -S . -B "$dir" "$@"
