#!/usr/bin/env bash
# Hunts every engine adapter built here, on every op it takes (not in CI):
# `rigidref hunt --time SECONDS` per engine and op, the shrunk failures of
# each in data/counterexamples/hunt/<engine>-<op>.jsonl (committed; `rigidref
# check FILE` reproduces each), and a table of cases, failures and the
# minimal counterexamples on standard output.
#   bash tools/hunt_engines.sh [SECONDS] [SEED]      (default 60 s, seed 20261127)
# Run after the build (tools/test.sh or tools/report.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
seed="${2:-20261127}"
cli=build/tools/rigidref
out=data/counterexamples/hunt
mkdir -p "$out"
[ -x "$cli" ] || { echo "hunt_engines.sh: build first ($cli is missing)" >&2; exit 2; }
# engine name, adapter command, ops
specs=(
  "box2d|build/tools/rigidref-box2d|mass.polygon gjk.distance epa.penetration contact.manifold step.pair scene.run"
  "chipmunk|build/tools/rigidref-chipmunk|mass.polygon contact.manifold step.pair scene.run"
  "ccd|build/tools/rigidref-ccd|epa.penetration"
  "ccd-mpr|build/tools/rigidref-ccd --mpr|epa.penetration"
  "bullet|build/tools/rigidref-bullet|gjk.distance epa.penetration"
  "bullet-pair-detector|build/tools/rigidref-bullet --pair-detector|gjk.distance epa.penetration"
  "planck|build/tools/rigidref-planck|mass.polygon gjk.distance epa.penetration contact.manifold step.pair scene.run"
  "box2d-wasm|build/tools/rigidref-box2d-wasm|mass.polygon epa.penetration contact.manifold step.pair scene.run"
  "rapier|build/tools/rigidref-rapier|mass.polygon gjk.distance epa.penetration contact.manifold step.pair scene.run"
  "matter|build/tools/rigidref-matter|mass.polygon epa.penetration contact.manifold step.pair scene.run"
  "p2|build/tools/rigidref-p2|mass.polygon epa.penetration contact.manifold step.pair scene.run"
)
[ -x build/tools/rigidref-box2d-v3 ] &&
  specs+=("box2d-v3|build/tools/rigidref-box2d-v3|mass.polygon gjk.distance epa.penetration contact.manifold step.pair scene.run")
printf '%-22s %-18s %s\n' engine op summary
for spec in "${specs[@]}"; do
  IFS='|' read -r name adapter ops <<< "$spec"
  [ -x "${adapter%% *}" ] || { echo "hunt_engines.sh: $name not built, skipped" >&2; continue; }
  for op in $ops; do
    file="$out/$name-$op.jsonl"
    status=0
    "$cli" hunt --adapter "$adapter" --op "$op" --cases 1000000 --time "$seconds" --seed "$seed" --out "$file" \
      > "$out/$name-$op.txt" 2> /dev/null || status=$?
    [ "$status" -le 1 ] || { echo "hunt_engines.sh: hunt failed on $name $op (exit $status)" >&2; exit 1; }
    [ -s "$file" ] || rm -f "$file"
    printf '%-22s %-18s %s\n' "$name" "$op" "$(sed -n 2,3p "$out/$name-$op.txt" | tr '\n' ' ')"
  done
done
