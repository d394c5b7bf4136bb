#!/usr/bin/env bash
# Sets everything up on Debian 12, builds, and runs the whole test suite.
#   bash tools/test.sh          the CI run: RapidCheck seed pinned, 100 cases per property
#   bash tools/test.sh --long   the longer sweep: 2000 cases per property, report at 10x,
#                               and the collision campaign at 100000 pairs per type
# RC_PARAMS from the environment wins over both (e.g. RC_PARAMS="seed=42").
set -euo pipefail
cd "$(dirname "$0")/.."
long=0
[ "${1:-}" = "--long" ] && long=1
bash tools/deps.sh --test
# -O2 rather than Release's -O3: about 15 % less compile time for the test
# programs, the same results (-ffp-contract=off, no -ffast-math: IEEE
# arithmetic is the same at every optimisation level).
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" -DRIGIDREF_BUILD_BENCH=OFF  # benchmarks: bench/README.md
cmake --build build -j"$(nproc)"
if [ $long -eq 1 ]; then
  export RC_PARAMS="${RC_PARAMS:-seed=20261122 max_success=2000}"
  ./build/tools/rigidref report --scale 10
  ./build/tools/rigidref campaign --pairs 100000 --type all --seed 20261122
else
  export RC_PARAMS="${RC_PARAMS:-seed=20261122 max_success=100}"
fi
echo "RC_PARAMS=$RC_PARAMS"
cd build
ctest --output-on-failure --timeout 1500 -j"$(nproc)"
