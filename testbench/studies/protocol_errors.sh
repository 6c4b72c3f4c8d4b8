#!/usr/bin/env bash
# Every protocol against the error rate of the fault that reaches it: runs the sweeps
# protocol_errors_*.json (error rates 0, 1e-6, 1e-4, 1e-3, 1e-2; three seeds each), merges them
# into one table and draws docs/figures/protocol_goodput_vs_errors.{gp,svg}: each protocol's
# goodput relative to its fault-free run (the fault-free completion time over the completion
# time of the same work, the same seed: a seed draws the workload too) against the error rate.
#
# Writes $STUDIES_OUT/protocol_errors/results.csv (one row per protocol and error rate above 0,
# seeds averaged) and table.md (the two tables docs/validation.md shows). Extra arguments go to
# every `hybridsim sweep`.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${HYBRIDSIM:-./build/hybridsim}"
out="${STUDIES_OUT:-sweep-out/studies}"
fig="${FIGURES_OUT:-docs/figures}"

sweeps=(mirrored_counters registration_cache pin_dma_unpin slmpm_messages torus_pingpong torus_ami)
for s in "${sweeps[@]}"; do
  "$bin" sweep "testbench/studies/protocol_errors_$s.json" --out "$out/protocol_errors_$s" "$@"
done
mkdir -p "$out/protocol_errors"

python3 - "$out" <<'PY'
import csv, statistics, sys
out = sys.argv[1]
pcie, eth, crc = ("node0.pcie0.up.lcrc_error_rate", "PCIe LCRC error per TLP"), \
    ("node0.eth0.up.frame_loss_rate", "Ethernet frame loss"), \
    ("torus.network.link_crc_error_rate", "torus CRC error per link traversal")
us = lambda r: float(r["results:elapsed_us"]) * 1e3
sim = lambda r: float(r["simulated_time_ns"])
# protocol label, sweep, (group column, value), fault (rate column, name), completion time (ns),
# latency (ns) and what it is.
protocols = [
    ("mirrored counters", "mirrored_counters", None, pcie, sim,
     lambda r: float(r["results:pairs/0/accelerator/mean_latency_ns"]), "update latency"),
    ("registration cache", "registration_cache", None, pcie, us,
     lambda r: float(r["node0.acc0.dma:request_latency.mean"]), "DMA request latency"),
    ("pin/DMA/unpin", "pin_dma_unpin", None, pcie, sim,
     lambda r: float(r["node0.acc0.dma:request_latency.mean"]), "DMA request latency"),
    ("SLMPM messages", "slmpm_messages", None, eth, us,
     lambda r: us(r) / float(r["results:delivered"]), "time per message"),
] + [
    (f"torus {p}", "torus_pingpong", ("workload.protocol", p), crc, sim,
     lambda r: float(r["results:one_way_latency_ns"]), "one-way latency")
    for p in ("eager", "rendezvous", "split")
] + [
    (f"AMI {p}", "torus_ami", ("workload.ami.protocol", p), crc, sim,
     lambda r: float(r["results:mean_completion_ns"]), "message completion time")
    for p in ("A", "B", "C")
]
rates = [0.0, 1e-6, 1e-4, 1e-3, 1e-2]
table = []
for label, sweep, group, (rate_col, fault), completion, latency, latency_what in protocols:
    path = f"{out}/protocol_errors_{sweep}/results.csv"
    rows = [r for r in csv.DictReader(open(path))
            if r["status"] == "passed" and (group is None or r[group[0]] == group[1])]
    runs = {(float(r[rate_col]), r["seed"]): r for r in rows}
    seeds = sorted({seed for _, seed in runs})
    missing = [(x, seed) for x in rates for seed in seeds if (x, seed) not in runs]
    if missing:
        sys.exit(f"protocol_errors: {path}: no passed run of {label} at (error rate, seed) "
                 f"{missing}")
    # A seed draws the workload too (message sizes): goodput is relative within a seed.
    t = {x: statistics.mean(completion(runs[x, seed]) for seed in seeds) for x in rates}
    good = {x: statistics.mean(completion(runs[0.0, seed]) / completion(runs[x, seed])
                               for seed in seeds) for x in rates}
    lat = {x: statistics.mean(latency(runs[x, seed]) for seed in seeds) for x in rates}
    table.append((label, fault, t, good, lat, latency_what))

with open(f"{out}/protocol_errors/results.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["protocol", "fault", "error_rate", "completion_ns", "relative_goodput",
                "latency_ns", "relative_latency"])
    for label, fault, t, good, lat, _ in table:
        for x in rates[1:]:
            w.writerow([label, fault, x, t[x], good[x], lat[x], lat[x] / lat[0]])

def rate_name(x):
    return "0" if x == 0 else f"{x:.0e}".replace("e-0", "e-")
with open(f"{out}/protocol_errors/table.md", "w") as f:
    f.write("| protocol | fault | fault-free completion | "
            + " | ".join(f"goodput at {rate_name(x)}" for x in rates[1:]) + " |\n")
    f.write("|---|---|---:|" + "---:|" * (len(rates) - 1) + "\n")
    for label, fault, t, good, _, _ in table:
        f.write(f"| {label} | {fault} | {t[0] / 1e3:.1f} us | "
                + " | ".join(f"{good[x]:.3f}" for x in rates[1:]) + " |\n")
    f.write("\n| protocol | latency measured | "
            + " | ".join(f"at {rate_name(x)}" for x in rates) + " |\n")
    f.write("|---|---|" + "---:|" * len(rates) + "\n")
    for label, _, _, _, lat, what in table:
        f.write(f"| {label} | {what} (ns) | " + " | ".join(f"{lat[x]:.0f}" for x in rates) + " |\n")
PY

"$bin" plot "$out/protocol_errors/results.csv" --x error_rate --y relative_goodput \
  --group protocol --log-x --out "$fig/protocol_goodput_vs_errors.svg" \
  --xlabel "error rate of the fault that reaches the protocol (PCIe LCRC per TLP, Ethernet loss per frame, torus CRC per link traversal)" \
  --ylabel "goodput relative to the fault-free run" \
  --title "Every protocol against its fault's error rate: fault-free completion time / completion time" \
  > /dev/null
echo "protocol table in $out/protocol_errors/table.md"
