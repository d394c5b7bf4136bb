#!/usr/bin/env bash
# Sets everything up on Debian 12, builds, and runs the whole test suite.
#   bash tools/test.sh          the CI run: RapidCheck seed pinned, 100 cases per property
#   bash tools/test.sh --long   the longer sweep: 2000 cases per property, report at 10x,
#                               and the collision campaign at 100000 pairs per type
#   bash tools/test.sh --sanitize
#                               the whole suite built with -fsanitize=address,undefined in
#                               build-sanitize/ (any report fails the test that triggered it)
#   bash tools/test.sh --sanitize=ci
#                               the same, only the request-path tests (eval, check, mass,
#                               GJK, EPA, impulse) and the fuzz replay (tests/fuzz/): what
#                               CI runs after the normal suite (.ci/run)
# RC_PARAMS from the environment wins over all (e.g. RC_PARAMS="seed=42").
set -euo pipefail
cd "$(dirname "$0")/.."
long=0
sanitize=""
case "${1:-}" in
  --long) long=1 ;;
  --sanitize) sanitize=all ;;
  --sanitize=ci) sanitize=ci ;;
  "") ;;
  *) echo "usage: bash tools/test.sh [--long | --sanitize | --sanitize=ci]" >&2; exit 2 ;;
esac
bash tools/deps.sh --test
if [ -n "$sanitize" ]; then
  # -Og -g1: reports with function, file and line, and half the compile time
  # of -O1 -g for a run about 15 % slower (measured on
  # tests/mass_identities_test.cpp: 37 s against 70 s of compiler CPU, 24 s
  # against 21 s to run; -O0 compiles in 28 s but runs 3.3 times slower).
  # -ffp-contract=off comes from rigidref_strict_fp (CMakeLists.txt).
  # UBSan aborts on the first report, so a test that triggers one fails. No
  # suppression is needed so far; one would be for third-party code only, in
  # a file with its reason. The CI subset needs only eval and check of the
  # CLI (RIGIDREF_CLI_EVAL_CHECK_ONLY); the whole suite needs all of it.
  eval_check_only=OFF
  [ "$sanitize" = ci ] && eval_check_only=ON
  bash tools/cmake_configure.sh build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-Og -g1" \
        -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
        -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DRIGIDREF_BUILD_BENCH=OFF \
        -DRIGIDREF_CLI_EVAL_CHECK_ONLY=$eval_check_only
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
  export RC_PARAMS="${RC_PARAMS:-seed=20261122 max_success=100}"
  echo "RC_PARAMS=$RC_PARAMS"
  if [ "$sanitize" = ci ]; then
    # The subset is the target and label rigidref_sanitize_ci / sanitize_ci
    # of tests/CMakeLists.txt.
    cmake --build build-sanitize -j"$(nproc)" --target rigidref_sanitize_ci
    cd build-sanitize
    ctest --output-on-failure --timeout 1500 -j"$(nproc)" -L sanitize_ci
  else
    cmake --build build-sanitize -j"$(nproc)"
    cd build-sanitize
    ctest --output-on-failure --timeout 3000 -j"$(nproc)"
  fi
  exit 0
fi
# -Og rather than Release's -O3: the same results (-ffp-contract=off, no
# -ffast-math: IEEE arithmetic is the same at every optimisation level), for
# much less compile time. The test programs were at -Og already
# (tests/programs/); the CLI and the adapters were at -O1, which compiled
# the CLI's two large units in 215 s of compiler CPU against 165 s at -Og,
# for `rigidref report --out DIR` 21.0 -> 25.9 s and `rigidref eval` on the
# 80 scenes 16.3 -> 18.4 s (bench/HISTORY.md, "the test command under 10
# minutes"): tools/report.sh shares this build, and still ends sooner.
# The solver's innermost helpers are forced inline, which GCC needs at -Og
# to inline them (solver.hpp). The benchmarks build with Release's -O3
# (bench/README.md).
bash tools/cmake_configure.sh build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-Og -DNDEBUG" -DRIGIDREF_BUILD_BENCH=OFF
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
