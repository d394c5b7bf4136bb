#!/usr/bin/env bash
# The HTML report as a reader sees it: rendered by headless Chromium.
#   1. `rigidref report --quick --out DIR` writes the page and the derivations;
#   2. Chromium loads the page (file://, no network), runs its self-check
#      script and dumps the DOM: every <svg> plot must have drawn marks with a
#      non-empty extent (data-plots="k/k", k >= 2), and no script error may be
#      recorded (data-errors absent) or logged on the console;
#   3. Chromium takes a screenshot, which must be a non-trivial PNG;
#   4. every rendered derivation page loads, has its title and its anchors;
#   5. the engine x op matrix has a cell for each (engine, op) of the
#      summaries in RESULTS_DIR (data/validation/results), when given.
# Exit 77 (ctest: skipped) when Chromium is not installed.
# Usage: report_browser.sh RIGIDREF_BINARY WORK_DIR [RESULTS_DIR]
set -euo pipefail
cli="$1"
work="$2"
results="${3:-}"
browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
  echo "chromium not installed: skipped (tools/deps.sh installs it)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
"$cli" report --quick --out "$work/out" > "$work/report.txt" 2> "$work/report.err"

chrome() {
  "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking --disable-quic \
    --no-first-run --disable-component-update --disable-sync --user-data-dir="$work/profile" \
    --enable-logging=stderr --v=0 --virtual-time-budget=5000 "$@"
}
fail() {
  echo "FAILED: $*"
  exit 1
}

page="file://$work/out/report.html"
chrome --dump-dom "$page" > "$work/dom.html" 2> "$work/console.log" || fail "chromium could not load $page"
plots="$(grep -o 'data-plots="[0-9]*/[0-9]*"' "$work/dom.html" | head -1 | sed 's/data-plots="\(.*\)"/\1/')"
[ -n "$plots" ] || fail "the page's self-check did not run (no data-plots attribute)"
drawn="${plots%/*}"
total="${plots#*/}"
[ "$total" -ge 2 ] || fail "expected at least 2 plots, the page has $total"
[ "$drawn" = "$total" ] || fail "only $drawn of $total plots have drawn content"
if grep -q 'data-errors=' "$work/dom.html"; then fail "script errors: $(grep -o 'data-errors="[^"]*"' "$work/dom.html")"; fi
if grep -E 'CONSOLE|Uncaught' "$work/console.log" | grep -qv 'Deprecat'; then
  fail "console messages: $(grep -E 'CONSOLE|Uncaught' "$work/console.log" | head -3)"
fi
grep -q '<h2>Engines checked against rigidref</h2>' "$work/dom.html" || fail "no engine section"
grep -q 'Properties and measured effects' "$work/dom.html" || fail "no properties section"
cells=0
if [ -n "$results" ]; then
  # Table rows of the summaries: engine op cases pass fail skipped reject worst-eps worst-line.
  while read -r engine op; do
    grep -qF "data-engine=\"$engine\" data-op=\"$op\"" "$work/dom.html" || fail "no matrix cell for $engine $op"
    cells=$((cells + 1))
  done < <(awk 'NF == 9 && $3 ~ /^[0-9]+$/ && $9 ~ /^[0-9]+$/ { print $1, $2 }' "$results"/*.txt)
  [ "$cells" -ge 1 ] || fail "no summary rows in $results"
fi

chrome --window-size=1280,2400 --screenshot="$work/report.png" "$page" 2>> "$work/console.log" ||
  fail "no screenshot"
size="$(wc -c < "$work/report.png")"
[ "$size" -gt 50000 ] || fail "screenshot is only $size bytes: the page rendered (almost) empty"
head -c 8 "$work/report.png" | od -An -tx1 | grep -q '89 50 4e 47' || fail "screenshot is not a PNG"

count=0
for d in "$work"/out/derivations/*.html; do
  chrome --dump-dom "file://$d" > "$work/derivation.html" 2>> "$work/console.log" || fail "cannot load $d"
  grep -q '<h1>' "$work/derivation.html" || fail "$d has no title"
  grep -q '<a id="D-' "$work/derivation.html" || fail "$d has no equation anchors"
  count=$((count + 1))
done
[ "$count" -ge 10 ] || fail "expected the derivation pages, found $count"
echo "report page: $plots plots drawn, screenshot $size bytes ($work/report.png), $cells engine x op cells," \
  "$count derivation pages loaded"
