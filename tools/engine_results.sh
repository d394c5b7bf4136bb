#!/usr/bin/env bash
# Regenerates the committed engine results of case sets from the engines
# built here, after a change of a case set, the reference or the judge:
#   bash tools/engine_results.sh [SET...] [--build DIR]
# SET: scenes (the default), dynamics, manifold, collision, mass. DIR: the
# build directory (default build; configure it with
# -DRIGIDREF_BOX2D_V3_SOURCE=<Box2D v3.1.1 tree> for Box2D v3, and run
# bash tools/deps.sh for the JavaScript engines).
# It builds the CLI and the C++ adapters, then runs the ctests
# engine_<engine>-<set> with RIGIDREF_REGENERATE=1: each adapter answers
# the committed case set exactly as its test runs it, and `rigidref check`
# writes the summary data/validation/results/<engine>-<set>.txt (and the
# records <engine>-<set>.jsonl of the dynamics and scenes sets) over the
# committed ones. Then it runs the same tests again, which must pass, and
# for the scenes set rewrites README.md's engine x law table (`rigidref
# report --scene-table`) and runs the report test that compares the two.
# Review `git diff` before committing. Exit status 0 when every engine of
# every set was regenerated, 1 when one was skipped (its adapter is not
# built) or a test failed, 2 on bad usage.
set -euo pipefail
usage() { sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
build=build
sets=()
while [ $# -gt 0 ]; do
  case "$1" in
    -h|--help) usage ;;
    --build) [ $# -ge 2 ] || usage; build="$2"; shift 2 ;;
    mass|collision|manifold|dynamics|scenes) sets+=("$1"); shift ;;
    *) echo "engine_results.sh: unknown set or option $1" >&2; usage ;;
  esac
done
[ ${#sets[@]} -gt 0 ] || sets=(scenes)
cd "$(dirname "$0")/.."
[ -f "$build/CMakeCache.txt" ] ||
  { echo "engine_results.sh: $build is not a configured build directory (README, two commands)" >&2; exit 2; }
jobs="${JOBS:-$(nproc)}"
# The CLI, the report test, and every C++ adapter this build configures.
targets=(rigidref_cli)
available="$(cmake --build "$build" --target help 2>/dev/null || true)"
for t in rigidref_box2d rigidref_chipmunk rigidref_box2d_v3 rigidref_ccd rigidref_bullet test_scene_results_report; do
  grep -qw "$t" <<< "$available" && targets+=("$t")
done
cmake --build "$build" -j"$jobs" --target "${targets[@]}"
regex="^engine_.*-($(IFS='|'; echo "${sets[*]}"))\$"
status=0
log="$build/engine_results.log"
echo "engine_results.sh: regenerating ($regex)"
RIGIDREF_REGENERATE=1 ctest --test-dir "$build" -R "$regex" --output-on-failure -j"$jobs" | tee "$log" || status=1
if grep -q 'Not Run\|Skipped' "$log"; then
  echo "engine_results.sh: some engines were skipped (their results are as committed): see $log" >&2
  status=1
fi
echo "engine_results.sh: comparing"
ctest --test-dir "$build" -R "$regex" --output-on-failure -j"$jobs" || status=1
for set in "${sets[@]}"; do
  [ "$set" = scenes ] || continue
  table="$(mktemp)"
  "$build/tools/rigidref" report --scene-table > "$table"
  begin='<!-- scene-results: begin'
  end='<!-- scene-results: end -->'
  grep -q "^$begin" README.md && grep -q "^$end" README.md ||
    { echo "engine_results.sh: README.md has no scene-results markers" >&2; rm -f "$table"; exit 1; }
  awk -v begin="$begin" -v end="$end" -v table="$table" '
    index($0, begin) == 1 { print; while ((getline line < table) > 0) print line; skip = 1; next }
    index($0, end) == 1 { skip = 0 }
    !skip { print }' README.md > README.md.new
  mv README.md.new README.md
  rm -f "$table"
  echo "engine_results.sh: README.md's scene table rewritten"
  if grep -qw test_scene_results_report <<< "$available"; then
    ctest --test-dir "$build" -R '^test_scene_results_report$' --output-on-failure || status=1
  fi
done
git status --short data/validation/results README.md
exit "$status"
