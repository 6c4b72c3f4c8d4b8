#!/usr/bin/env bash
# The seed soak's partitioned side: a torus soak's random points (by default soak/torus_traffic.json:
# pattern, load, packet size, VC, routing, CRC error rate, shape, wrap; or another torus soak,
# such as torus_pingpong or halo3d) each run as one process and under `mpirun -np P`, P = 2, 3,
# 4 in turn (at most the planes of the point's longest axis). A point fails if either run fails
# or if the two reports differ anywhere but in `run` (the wall-clock figures): a partitioned run
# must be the sequential run, whatever the draw.
#
#   testbench/soak/run_partitioned_soak.sh [--soak NAME] [--points N] [--out DIR] [--bin HYBRIDSIM] [--mpirun MPIRUN]
#
# Defaults: torus_traffic, the soak file's points (1,000), sweep-out/partitioned-soak,
# build/hybridsim, mpirun. Prints one line for the soak and, for every failure, the command
# that replays it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../../build/hybridsim"
out="sweep-out/partitioned-soak"
points=""
mpirun="mpirun"
soak="torus_traffic"
while [ $# -gt 0 ]; do
  case "$1" in
    --soak) soak="$2"; shift 2 ;;
    --points) points="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    --mpirun) mpirun="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run_partitioned_soak.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -f "$here/$soak.json" ] || { echo "run_partitioned_soak.sh: no soak file $here/$soak.json" >&2; exit 2; }
[ -x "$bin" ] || { echo "run_partitioned_soak.sh: $bin is not built (cmake --build build)" >&2; exit 2; }
command -v "$mpirun" >/dev/null || { echo "run_partitioned_soak.sh: no $mpirun (scripts/setup.sh installs Open MPI)" >&2; exit 2; }
rm -rf "$out/sequential" "$out/partitioned"
mkdir -p "$out/partitioned"
# The sequential runs are the soak's own points (their parameters, seeds and reports).
args=(sweep "$here/$soak.json" --jobs 1 --quiet --out "$out/sequential")
[ -n "$points" ] && args+=(--sample "$points")
"$bin" "${args[@]}" >/dev/null 2>"$out/sequential.err" || true
if [ ! -f "$out/sequential/results.json" ]; then
  echo "run_partitioned_soak.sh: the sequential sweep did not run:" >&2; cat "$out/sequential.err" >&2; exit 2
fi
# Open MPI refuses to start as root unless told it may (CI's containers run as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
python3 - "$out" "$bin" "$mpirun" "$soak" <<'PY'
import json, os, shlex, subprocess, sys
out, binary, mpirun, soak = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
r = json.load(open(os.path.join(out, "sequential", "results.json")))
sweep = r["sweep"]
fixed = sweep.get("fixed", {})
failures = []
for p in r["points"]:
    cmd = [binary, "run", sweep["scenario"], "--seed", str(p["seed"]), "--quiet"]
    if p["status"] != "passed":
        for k, v in list(fixed.items()) + list(p["params"].items()):
            cmd += ["--set", f"{k}={json.dumps(v)}"]
        failures.append(f"  sequential run {p['status']}: {p['error']}\n    replay: {shlex.join(cmd)}")
        continue
    seq = json.load(open(os.path.join(out, "sequential", p["report"])))
    # Slabs across the longest axis: no more partitions than it has planes.
    planes = max(seq["params"].get(f"torus.network.{a}", 1) for a in "xyz")
    procs = min(2 + p["point"] % 3, planes)
    if procs < 2:
        continue
    for s in seq["overrides"]:  # the point's settings, in the order the sweep gave them
        cmd += ["--set", s]
    par = os.path.join(out, "partitioned", f"{p['key']}.report.json")
    launch = [mpirun, "--oversubscribe", "-np", str(procs)]
    replay = shlex.join(launch + cmd + ["--report", par])
    done = subprocess.run(launch + cmd + ["--report", par], capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0:
        failures.append(f"  {procs} processes exited {done.returncode}: "
                        f"{done.stderr.strip()[-400:]}\n    replay: {replay}")
        continue
    got = json.load(open(par))
    if got.get("run", {}).get("partitions") != procs:
        failures.append(f"  {procs} processes: the report says {got.get('run', {}).get('partitions')} "
                        f"partitions\n    replay: {replay}")
        continue
    seq.pop("run", None)
    got.pop("run", None)
    if seq != got:
        diff = sorted(k for k in set(seq) | set(got) if seq.get(k) != got.get(k))
        failures.append(f"  {procs} processes: the report differs from the sequential run's in "
                        f"{', '.join(diff)}\n    replay: {replay}")
points = r["points"]
seeds = [p["seed"] for p in points]
print(f"{soak:20} {len(points):6} runs  seeds {min(seeds)}..{max(seeds)}  "
      f"{len(points) - len(failures):6} identical  {len(failures):4} failed  (P = 2, 3, 4)")
for f in failures:
    print(f)
sys.exit(1 if failures else 0)
PY
