#!/usr/bin/env bash
# Sets everything up on Debian 12 and runs `rigidref report`.
# Writes the terminal summary and build/report/ (report.html, csv/, derivations/*.html).
# Extra arguments go to the report (e.g. --quick, --seed N, --scale 10).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
bash tools/cmake_configure.sh build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-Og -DNDEBUG"  # as tools/test.sh and box2d_v3.sh: one build
cmake --build build --target rigidref_cli -j"$(nproc)"
./build/tools/rigidref report --out build/report "$@"
