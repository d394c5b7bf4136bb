#!/usr/bin/env bash
# Validates Box2D v3 from a source tree you have (it is in no package
# registry): builds the rigidref-box2d-v3 adapter against it, runs it on
# the five committed case sets and judges each with `rigidref check --cases`.
#   bash tools/box2d_v3.sh <box2d-v3-source-dir> [--out DIR]
# Writes DIR/box2d-v3-<set>.answers.jsonl and .txt (default
# build/box2d-v3-results), prints each summary, and then, for the version
# whose results are committed (data/validation/results/box2d-v3-source.md),
# the differences from the committed summaries. Exit status: 0 when it ran
# (failing cases are findings, not errors), 2 on bad usage.
set -euo pipefail
usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
case "$1" in -h|--help) usage ;; esac
source_dir="$(cd "$1" 2>/dev/null && pwd)" || { echo "box2d_v3.sh: $1 is not a directory" >&2; exit 2; }
shift
out=build/box2d-v3-results
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || usage; out="$2"; shift 2 ;;
    *) echo "box2d_v3.sh: unknown option $1" >&2; usage ;;
  esac
done
[ -f "$source_dir/include/box2d/collision.h" ] && [ -f "$source_dir/src/manifold.c" ] ||
  { echo "box2d_v3.sh: $source_dir is not a Box2D v3 source tree (no include/box2d/collision.h, src/manifold.c)" >&2; exit 2; }
cd "$(dirname "$0")/.."
bash tools/deps.sh
# The flags of tools/test.sh and tools/report.sh: one build for all three.
bash tools/cmake_configure.sh build -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-Og -DNDEBUG" \
      -DRIGIDREF_BOX2D_V3_SOURCE="$source_dir"
cmake --build build --target rigidref_cli rigidref_box2d_v3 -j"$(nproc)"
mkdir -p "$out"
for set in mass collision manifold dynamics scenes; do
  answers="$out/box2d-v3-$set.answers.jsonl"
  ./build/tools/rigidref-box2d-v3 < "data/validation/$set.jsonl" > "$answers"
  extra=()
  [ "$set" = dynamics ] && extra=(--dynamics-out "$out/box2d-v3-dynamics.jsonl")
  [ "$set" = scenes ] && extra=(--scenes-out "$out/box2d-v3-scenes.jsonl")
  status=0
  ./build/tools/rigidref check "$answers" --cases "data/validation/$set.jsonl" --worst 0 "${extra[@]}" \
    > "$out/box2d-v3-$set.txt" || status=$?
  [ "$status" -le 1 ] || { echo "box2d_v3.sh: rigidref check failed on $set (exit $status)" >&2; exit 1; }
  cat "$out/box2d-v3-$set.txt"
  committed="data/validation/results/box2d-v3-$set.txt"
  if [ -f "$committed" ] && ! cmp -s "$committed" "$out/box2d-v3-$set.txt"; then
    echo "box2d_v3.sh: the $set summary differs from $committed (another Box2D version, or a change): diff it" >&2
  fi
done
echo "box2d_v3.sh: answers and summaries in $out"
