#!/usr/bin/env bash
# Installs the Debian packages hybridsim needs (idempotent, non-interactive).
#   bash scripts/setup.sh run   what building and running the simulator needs
#   bash scripts/setup.sh       everything: also the test suites, plots, waveforms, Slurm sweeps
set -euo pipefail
run_packages=(
  build-essential cmake pkg-config
  libsystemc-dev verilator
  nlohmann-json3-dev libcli11-dev libfmt-dev
)
rest_packages=(
  libgtest-dev googletest libbenchmark-dev  # the test suites
  python3
  gnuplot-nox                               # hybridsim plot, the README's figures
  gtkwave                                   # vcd2fst (--vcd FILE.fst), fst2vcd, the viewer
  slurm-wlm slurm-client munge              # the Slurm sweep backend and its end-to-end test
  libopenmpi-dev openmpi-bin                # parallel launches (mpirun) and their test
)
case "${1:-all}" in
  run) packages=("${run_packages[@]}") ;;
  all) packages=("${run_packages[@]}" "${rest_packages[@]}") ;;
  *)
    echo "setup: unknown set '$1' (run, or nothing for everything)" >&2
    exit 2
    ;;
esac
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
