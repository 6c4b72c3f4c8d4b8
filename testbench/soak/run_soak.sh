#!/usr/bin/env bash
# The seed soak: every protocol workload run with parameters drawn at random from the ranges
# in its sampled sweep file (testbench/soak/NAME.json), each point with its own seed. A point
# fails if its run exits non-zero: a checker fired, the firmware reported wrong data, the
# run hit its sim.time_limit guard (a livelock or a hang), or the draw was refused.
#
#   testbench/soak/run_soak.sh [--points N] [--jobs J] [--out DIR] [--bin HYBRIDSIM] [NAME...]
#
# Defaults: every soak file, the points each file asks for (1,000), all cores, sweep-out/soak.
# Rerunning resumes: points already passed are not run again. Prints one line per protocol
# and, for every failure, the command that replays it.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="$here/../../build/hybridsim"
out="sweep-out/soak"
points=""
jobs="$(nproc)"
names=()
while [ $# -gt 0 ]; do
  case "$1" in
    --points) points="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --bin) bin="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run_soak.sh: unknown option $1" >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
if [ ${#names[@]} -eq 0 ]; then
  for f in "$here"/*.json; do names+=("$(basename "$f" .json)"); done
fi
for n in "${names[@]}"; do
  [ -f "$here/$n.json" ] || { echo "run_soak.sh: no soak file $here/$n.json" >&2; exit 2; }
done
[ -x "$bin" ] || { echo "run_soak.sh: $bin is not built (cmake --build build)" >&2; exit 2; }

mkdir -p "$out"
status=0
for n in "${names[@]}"; do
  args=(sweep "$here/$n.json" --jobs "$jobs" --quiet --out "$out/$n")
  [ -n "$points" ] && args+=(--sample "$points")
  "$bin" "${args[@]}" >/dev/null 2>"$out/$n.err" || status=1
  if [ ! -f "$out/$n/results.json" ]; then
    echo "$n: the sweep did not run:" >&2; cat "$out/$n.err" >&2; exit 2
  fi
  rm -f "$out/$n.err"
  python3 - "$out/$n/results.json" "$n" "$bin" <<'PY'
import json, shlex, sys
results, name, binary = sys.argv[1], sys.argv[2], sys.argv[3]
r = json.load(open(results))
points = r["points"]
bad = [p for p in points if p["status"] != "passed"]
seeds = [p["seed"] for p in points]
print(f"{name:20} {len(points):6} runs  seeds {min(seeds)}..{max(seeds)}  "
      f"{len(points) - len(bad):6} passed  {len(bad):4} failed")
sweep = r["sweep"]
fixed = sweep.get("fixed", {})
for p in bad:
    sets = [f"{k}={json.dumps(v)}" for k, v in list(fixed.items()) + list(p["params"].items())]
    cmd = [binary, "run", sweep["scenario"], "--seed", str(p["seed"])]
    for s in sets:
        cmd += ["--set", s]
    print(f"  {p['status']}: {p['error']}\n    replay: {shlex.join(cmd)}")
PY
done
exit $status
