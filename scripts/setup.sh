#!/usr/bin/env bash
# Installs the Debian packages hybridsim needs (idempotent, non-interactive).
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libsystemc-dev verilator
  libgtest-dev googletest libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libfmt-dev
  python3
  gnuplot-nox                     # hybridsim plot
  slurm-wlm slurm-client munge    # the Slurm sweep backend and its end-to-end test
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
