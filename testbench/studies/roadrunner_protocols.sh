#!/usr/bin/env bash
# What each hybrid-node protocol saves, on the direct attachment and on the TriBlade's path
# (node0.topology = direct | roadrunner): runs the sweeps roadrunner_*.json, writes
# $STUDIES_OUT/roadrunner_protocols/table.md (the README's table) and results.csv, and draws
# docs/figures/roadrunner_transfer_time_vs_size.svg (time per message against its size:
# copying through shared memory, DMA with the registration cache, and pin/DMA/unpin on every
# message, on both topologies).
#
# - mirrored counters: completion time of 500 updates each way, mirrored against remote reads
#   of the peer's counter (the baseline), and the remote reads avoided;
# - the registration cache: 200 DMA transfers cycling over 4 buffers, registered once through
#   the cache against the OS on every transfer;
# - pin/DMA/unpin against copying: one message at a time, a DMA put that pins its buffer,
#   moves it and unpins it against a shared-memory send that copies it through the ring;
# - the mode selection's crossover: the smallest message size at which DMA (with the cache,
#   and pinning every message) beats copying, against the SLMPM's threshold
#   (node0.host.slmpm.dma_min_bytes, 4 KiB); the second table gives copy time / DMA time.
# Extra arguments go to every `hybridsim sweep`.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${HYBRIDSIM:-./build/hybridsim}"
out="${STUDIES_OUT:-sweep-out/studies}"
fig="${FIGURES_OUT:-docs/figures}"

for s in mirrored_counters registration_cache transfer_size; do
  "$bin" sweep "testbench/studies/roadrunner_$s.json" --out "$out/roadrunner_$s" "$@"
done
mkdir -p "$out/roadrunner_protocols" "$fig"

python3 - "$out" <<'PY'
import csv, sys
out = sys.argv[1]
def rows(sweep):
    path = f"{out}/roadrunner_{sweep}/results.csv"
    rs = list(csv.DictReader(open(path)))
    bad = [r for r in rs if r["status"] != "passed"]
    if bad:
        sys.exit(f"roadrunner_protocols: {path}: {len(bad)} run(s) did not pass")
    return rs
topologies = ["direct", "roadrunner"]
table = []

mc = {(r["node0.topology"], r["workload.mode"]): r for r in rows("mirrored_counters")}
for t in topologies:
    base, mirr = mc[t, "baseline"], mc[t, "mirrored"]
    time = lambda r: float(r["simulated_time_ns"])
    lat = lambda r: (float(r["results:pairs/0/accelerator/mean_latency_ns"]) +
                     float(r["results:pairs/0/host/mean_latency_ns"])) / 2
    if int(float(mirr["results:pairs/0/pcie_mrd"])) != 0:
        sys.exit(f"roadrunner_protocols: mirrored counters read across PCIe on {t}")
    reads = int(float(base["results:pairs/0/pcie_mrd"]))
    table.append(("mirrored counters", t, time(base), time(mirr),
                  f'{reads} remote reads avoided; an update arrives in {lat(mirr):.0f} ns '
                  f'instead of {lat(base):.0f} ns ({lat(base) / lat(mirr):.2f}x)'))

rc = {(r["node0.topology"], r["workload.cache"]): r for r in rows("registration_cache")}
for t in topologies:
    us = lambda r: float(r["results:elapsed_us"]) * 1e3
    table.append(("registration cache", t, us(rc[t, "none"]), us(rc[t, "cache"]),
                  f'{int(float(rc[t, "none"]["results:os_register_calls"])) - int(float(rc[t, "cache"]["results:os_register_calls"]))} registrations avoided'))

per_msg = {}
for r in rows("transfer_size"):
    op = r["workload.operations"]
    arm = "copy (SMT)" if op == "send" else ("DMA, cached registration" if r["workload.cache"] == "cache" else "pin/DMA/unpin")
    per_msg[r["node0.topology"], arm, int(float(r["workload.max_bytes"]))] = \
        float(r["results:elapsed_us"]) * 1e3 / float(r["results:delivered"])
sizes = sorted({k[2] for k in per_msg})
for t in topologies:
    big = sizes[-1]
    table.append((f"pin/DMA/unpin vs copying ({big // 1024} KiB)", t, per_msg[t, "copy (SMT)", big],
                  per_msg[t, "pin/DMA/unpin", big], "per message"))

def crossover(t, arm):
    for s in sizes:
        if per_msg[t, arm, s] < per_msg[t, "copy (SMT)", s]:
            return s
    return None

with open(f"{out}/roadrunner_protocols/results.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["series", "bytes", "time_per_message_ns"])
    for (t, arm, s), v in sorted(per_msg.items()):
        w.writerow([f"{t}: {arm}", s, v])

with open(f"{out}/roadrunner_protocols/table.md", "w") as f:
    f.write("| protocol | topology | baseline | with the protocol | advantage | saved |\n")
    f.write("|---|---|---:|---:|---:|---|\n")
    for label, t, base, prot, saved in table:
        f.write(f"| {label} | {t} | {base / 1e3:.1f} us | {prot / 1e3:.1f} us | "
                f"{base / prot:.2f}x | {saved} |\n")
    f.write("\n| topology | arm | beats copying from | " +
            " | ".join(f"{s} B" for s in sizes) + " |\n")
    f.write("|---|---|---:|" + "---:|" * len(sizes) + "\n")
    for t in topologies:
        for arm in ["DMA, cached registration", "pin/DMA/unpin"]:
            c = crossover(t, arm)
            f.write(f"| {t} | {arm} | {str(c) + ' B' if c else 'never'} | " + " | ".join(
                f"{per_msg[t, 'copy (SMT)', s] / per_msg[t, arm, s]:.2f}" for s in sizes) + " |\n")
PY

"$bin" plot "$out/roadrunner_protocols/results.csv" --x bytes --y time_per_message_ns \
  --group series --log-x --log-y --out "$fig/roadrunner_transfer_time_vs_size.svg" \
  --xlabel "message size (bytes)" --ylabel "time per message, one at a time (ns)" \
  --title "Host to accelerator: copying, DMA with the registration cache, pin/DMA/unpin, direct and TriBlade" \
  > /dev/null
echo "protocol table in $out/roadrunner_protocols/table.md"
