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

# Every derivation page in one Chromium run (a launch costs about 2.5 s of
# CPU; one per page was most of this test's time): a page of iframes whose
# script reads each loaded page's DOM and records its title and anchors.
# --allow-file-access-from-files lets file:// pages read each other; without
# it, or for a page that does not load, the frame is unreadable and fails.
pages=()
for d in "$work"/out/derivations/*.html; do
  name="$(basename "$d")"
  [[ "$name" =~ ^[A-Za-z0-9_.-]+\.html$ ]] || fail "unexpected derivation page name: $name"
  pages+=("$name")
done
count=${#pages[@]}
checker="$work/out/derivations-check.html"
{
  echo '<!doctype html><html><head><meta charset="utf-8"><title>derivation pages</title></head><body><script>'
  printf 'const pages = ['; printf '"%s",' "${pages[@]}"; echo '];'
  cat <<'JS'
let left = pages.length;
for (const name of pages) {
  const frame = document.createElement("iframe");
  frame.src = "derivations/" + name;
  frame.onload = () => {
    let doc = null;
    try { doc = frame.contentDocument; } catch (e) { doc = null; }
    const p = document.createElement("p");
    p.dataset.page = name;
    p.dataset.readable = doc ? "1" : "0";
    p.dataset.title = doc && doc.querySelector("h1") ? "1" : "0";
    p.dataset.anchors = doc && doc.querySelector('a[id^="D-"]') ? "1" : "0";
    document.body.appendChild(p);
    if (--left === 0) document.body.dataset.loaded = String(pages.length);
  };
  document.body.appendChild(frame);
}
JS
  echo '</script></body></html>'
} > "$checker"
chrome --allow-file-access-from-files --dump-dom "file://$checker" > "$work/derivations.html" 2>> "$work/console.log" ||
  fail "chromium could not load $checker"
grep -q "data-loaded=\"$count\"" "$work/derivations.html" || fail "not every derivation page finished loading"
for name in "${pages[@]}"; do
  record="$(grep -o "<p data-page=\"$name\"[^>]*>" "$work/derivations.html" || true)"
  [ -n "$record" ] || fail "no record for $name"
  [[ "$record" == *'data-readable="1"'* ]] || fail "$name did not load (or its DOM could not be read)"
  [[ "$record" == *'data-title="1"'* ]] || fail "$name has no title"
  [[ "$record" == *'data-anchors="1"'* ]] || fail "$name has no equation anchors"
done
[ "$count" -ge 10 ] || fail "expected the derivation pages, found $count"
echo "report page: $plots plots drawn, screenshot $size bytes ($work/report.png), $cells engine x op cells," \
  "$count derivation pages loaded"
