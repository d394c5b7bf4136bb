#!/usr/bin/env bash
# Installs the Debian packages rigidref needs, only those missing, and the
# JavaScript engines of the adapters in tools/adapters/js (npm ci, exactly
# the versions of its package-lock.json; only when node_modules is missing or
# older than the lock). Runs apt-get as root, or through sudo when not root.
#   bash tools/deps.sh          build, report, engine adapters, and GNU parallel (the
#                               scale_out test and docs/scale-out.md run shards with it)
#   bash tools/deps.sh --test   also Chromium, for the browser test of the report
#   bash tools/deps.sh --fuzz   also clang and its libFuzzer runtime (tools/fuzz.sh)
set -euo pipefail
packages=(cmake g++ make ninja-build libboost-dev libmpfr-dev libgmp-dev catch2 librapidcheck-dev
          nlohmann-json3-dev libcli11-dev libbenchmark-dev libbox2d-dev libchipmunk-dev libccd-dev libbullet-dev nodejs
          libmd4c-html0-dev libmd4c-dev parallel)
[ "${1:-}" = "--test" ] && packages+=(chromium)
[ "${1:-}" = "--fuzz" ] && packages+=(clang libclang-rt-14-dev)
# npm comes with some Node.js builds; Debian packages it apart.
command -v npm >/dev/null 2>&1 || packages+=(npm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#packages[@]} Debian packages present"
else
  echo "deps: installing ${missing[*]}"
  as_root=()
  [ "$(id -u)" -eq 0 ] || as_root=(sudo)
  "${as_root[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -q "${missing[@]}"
fi

js_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/adapters/js"
if [ ! -d "$js_dir/node_modules" ] || [ "$js_dir/package-lock.json" -nt "$js_dir/node_modules" ]; then
  echo "deps: npm ci in $js_dir (the JavaScript engines of the adapters)"
  (cd "$js_dir" && npm ci --no-audit --no-fund)
  touch "$js_dir/node_modules"
else
  echo "deps: JavaScript engines present ($js_dir/node_modules)"
fi
