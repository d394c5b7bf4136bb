#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (build-fuzz/) and fuzzes them.
#   bash tools/fuzz.sh SECONDS            each target (eval, check) for SECONDS
#   bash tools/fuzz.sh SECONDS eval       one target (eval or check)
# The seed corpus is rebuilt from the committed data (tests/fuzz/make_corpus.py)
# in build-fuzz/corpus/TARGET (new inputs libFuzzer finds are kept there);
# crashes, timeouts and leaks land in build-fuzz/artifacts/TARGET/ and the
# log in build-fuzz/TARGET.log. A finding becomes a file in
# tests/fuzz/regressions/TARGET/ (minimise it first: -minimize_crash=1), which
# the ctests fuzz_replay_* replay in every build (tests/fuzz/README.md).
# One fuzzing process per target (the machine is shared; no -jobs).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:?usage: tools/fuzz.sh SECONDS [eval|check]}"
targets="${2:-eval check}"
bash tools/deps.sh --fuzz
flags="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
      -DRIGIDREF_BUILD_FUZZ=ON -DRIGIDREF_BUILD_BENCH=OFF "${launcher[@]}" >/dev/null
build_targets=()
for t in $targets; do build_targets+=("${t}_fuzz"); done
cmake --build build-fuzz -j"$(nproc)" --target "${build_targets[@]}"
for t in $targets; do
  python3 tests/fuzz/make_corpus.py "$t" "build-fuzz/corpus/$t"
  mkdir -p "build-fuzz/artifacts/$t"
  # -timeout (wall clock): docs/eval-protocol.md bounds a request at about
  # 2 s in a release build (step.pair mp50 ending no_convergence), and this
  # sanitized -O1 build runs the multiprecision paths up to 30x slower
  # (measured: one such request, 1.3 s of CPU released, 35 s here). 120 s
  # flags anything far beyond the documented bound, even on a busy machine.
  ./build-fuzz/tests/fuzz/"${t}_fuzz" "build-fuzz/corpus/$t" -dict=tests/fuzz/eval.dict \
    -max_total_time="$seconds" -timeout=120 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="build-fuzz/artifacts/$t/" >"build-fuzz/$t.log" 2>&1 || status=$?
  grep -E "INITED|ERROR|SUMMARY|stat::|DONE" "build-fuzz/$t.log" || true
  tail -n 3 "build-fuzz/$t.log"
  [ "${status:-0}" -eq 0 ] || { echo "tools/fuzz.sh: $t found a problem: build-fuzz/artifacts/$t/" >&2; exit 1; }
done
