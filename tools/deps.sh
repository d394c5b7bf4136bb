#!/usr/bin/env bash
# Installs the Debian packages rigidref needs, only those missing.
# Runs apt-get as root, or through sudo when not root.
#   bash tools/deps.sh          build, report and engine adapters
#   bash tools/deps.sh --test   also Chromium, for the browser test of the report
set -euo pipefail
packages=(cmake g++ make libboost-dev libmpfr-dev libgmp-dev catch2 librapidcheck-dev
          nlohmann-json3-dev libcli11-dev libbenchmark-dev libbox2d-dev libchipmunk-dev libccd-dev nodejs)
[ "${1:-}" = "--test" ] && packages+=(chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "deps: all ${#packages[@]} Debian packages present"
  exit 0
fi
echo "deps: installing ${missing[*]}"
as_root=()
[ "$(id -u)" -eq 0 ] || as_root=(sudo)
"${as_root[@]}" apt-get update -q
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -q "${missing[@]}"
