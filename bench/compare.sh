#!/usr/bin/env bash
# Runs the three benchmark programs of several builds back to back, in one
# session, and prints the issue-28 table: CPU ns per query (`_min` of the
# repetitions) and the ratios the goals are stated in.
#
#   bash bench/compare.sh now=build [c0783db=../old/build ...] [-- extra benchmark flags]
#
# Each LABEL=DIR names a build directory holding bench/bench_mass,
# bench/collision_bench and bench/circle_bench (bench/README.md, "Build and
# run"). The first label is the one the ratios are taken of. The raw output
# of every program goes to bench-compare-<label>-<program>.txt in the current
# directory, so every figure of the table can be traced to its run.
set -euo pipefail
builds=()
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *=*) builds+=("$1"); shift ;;
    *) echo "compare.sh: expected LABEL=BUILD_DIR, got '$1' (--help)" >&2; exit 2 ;;
  esac
done
[ ${#builds[@]} -ge 1 ] || { echo "compare.sh: name at least one LABEL=BUILD_DIR (--help)" >&2; exit 2; }
for b in "${builds[@]}"; do
  dir="${b#*=}"
  for p in bench_mass collision_bench circle_bench; do
    [ -x "$dir/bench/$p" ] || { echo "compare.sh: $dir/bench/$p is missing: build it first (bench/README.md)" >&2; exit 2; }
  done
done
common=(--benchmark_enable_random_interleaving=true --benchmark_display_aggregates_only=true --benchmark_color=false)
# The filters keep the rows of the table (and the runs short).
mass_filter='mass/(rigidref_double_basic|box2d_float_ComputeMass|rigidref_mp50_basic)/n:(3|4|6|8)$'
coll_filter='(gjk|epa)/(rigidref_double|rigidref_mp50|box2d_float_b2Distance|box2d_float_b2CollidePolygons)/subset:[012]$'
circ_filter='(gjk|epa)/(rigidref_double|box2d_float_b2Distance|box2d_float_b2CollidePolygonAndCircle)/subset:0$'
for b in "${builds[@]}"; do
  label="${b%%=*}"; dir="${b#*=}"
  echo "running $label ($dir) ..." >&2
  "$dir/bench/bench_mass" --benchmark_repetitions=15 --benchmark_min_time=0.1 "${common[@]}" \
      --benchmark_filter="$mass_filter" "${extra[@]}" > "bench-compare-$label-bench_mass.txt"
  "$dir/bench/collision_bench" --benchmark_repetitions=5 --benchmark_min_time=0.2 "${common[@]}" \
      --benchmark_filter="$coll_filter" "${extra[@]}" > "bench-compare-$label-collision_bench.txt"
  "$dir/bench/circle_bench" --benchmark_repetitions=5 --benchmark_min_time=0.2 "${common[@]}" \
      --benchmark_filter="$circ_filter" "${extra[@]}" > "bench-compare-$label-circle_bench.txt"
done
# cpu_ns LABEL PROGRAM NAME: the CPU time of NAME's _min row, in ns.
cpu_ns() {
  awk -v n="$3_min" '$1 == n {
      t = $4; u = $5
      if (u == "us") t *= 1e3; else if (u == "ms") t *= 1e6; else if (u == "s") t *= 1e9
      printf "%.4g", t; found = 1; exit }
    END { if (!found) printf "-" }' "bench-compare-$1-$2.txt"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }
now="${builds[0]%%=*}"
header="| query | goal |"; rule="|---|---|"
for b in "${builds[@]}"; do header+=" ${b%%=*} ns |"; rule+="---:|"; done
header+=" ratio ($now) |"; rule+="---:|"
echo "$header"; echo "$rule"
row() {  # row TITLE GOAL PROGRAM NAME BASE_NAME
  local line="| $1 | $2 |"
  for b in "${builds[@]}"; do line+=" $(cpu_ns "${b%%=*}" "$3" "$4") |"; done
  line+=" $(ratio "$(cpu_ns "$now" "$3" "$4")" "$(cpu_ns "$now" "$3" "$5")") |"
  echo "$line"
}
for s in 0 1 2; do
  row "GJK subset:$s / b2Distance" "≤ 2x (subset 0)" collision_bench "gjk/rigidref_double/subset:$s" "gjk/box2d_float_b2Distance/subset:$s"
done
for s in 0 1 2; do
  row "EPA subset:$s / b2CollidePolygons" "≤ 3x (subset 0)" collision_bench "epa/rigidref_double/subset:$s" "epa/box2d_float_b2CollidePolygons/subset:$s"
done
for n in 3 4 6 8; do
  row "mass n:$n / ComputeMass" "≤ 5x" bench_mass "mass/rigidref_double_basic/n:$n" "mass/box2d_float_ComputeMass/n:$n"
done
row "GJK mp50 / double" "≤ 30x" collision_bench "gjk/rigidref_mp50/subset:0" "gjk/rigidref_double/subset:0"
row "EPA mp50 / double" "≤ 30x" collision_bench "epa/rigidref_mp50/subset:0" "epa/rigidref_double/subset:0"
row "mass mp50 n:8 / double" "≤ 30x" bench_mass "mass/rigidref_mp50_basic/n:8" "mass/rigidref_double_basic/n:8"
row "circle GJK / b2Distance" "—" circle_bench "gjk/rigidref_double/subset:0" "gjk/box2d_float_b2Distance/subset:0"
row "circle EPA / b2CollidePolygonAndCircle" "—" circle_bench "epa/rigidref_double/subset:0" "epa/box2d_float_b2CollidePolygonAndCircle/subset:0"
