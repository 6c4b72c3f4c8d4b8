#!/usr/bin/env bash
# Runs the ready-made studies and draws the README's figures into docs/figures/:
#   PCIe throughput vs max payload size, one line per link width
#   torus latency and accepted load vs offered load, one line per traffic pattern
#   ping-pong latency vs message size for the eager, rendezvous and split protocols
#   AMI completion time vs message size for variants A, B, C and their baselines
#   link utilisation on one plane of the torus under hot-spot traffic (a heat map)
#   goodput and latency vs link error rate: PCIe (LCRC errors, replay) and the torus (CRC
#   errors, retransmission)
#   every protocol's goodput vs the error rate of the fault that reaches it (protocol_errors.sh)
#   what each hybrid-node protocol saves on the direct attachment and on the TriBlade, and
#   time per message vs size for copying, DMA and pin/DMA/unpin (roadrunner_protocols.sh)
#   the Cell's programming interface: DMA latency vs size, a double-buffered stream's
#   bandwidth vs its buffer size, an atomic counter's throughput vs the SPEs incrementing it
#   MPI: halo3d and alltoall time per iteration vs machine size (halo3d up to 16x16x16, about
#   a minute for that point; alltoall up to 8x8x8), and allreduce latency vs message size by
#   algorithm
# Extra arguments go to every `hybridsim sweep` (e.g. --backend slurm --partition P).
# Sweeps resume: rerunning only runs points that are not in the results yet.
set -euo pipefail
# Paths are relative to the repository root, so the kept gnuplot scripts name their figures
# as docs/figures/NAME.svg rather than by this machine's absolute path.
cd "$(dirname "$0")/../.."
bin="${HYBRIDSIM:-./build/hybridsim}"
out="${STUDIES_OUT:-sweep-out/studies}"
fig="${FIGURES_OUT:-docs/figures}"
studies="testbench/studies"

sweep() { "$bin" sweep "$studies/$1.json" --out "$out/$1" "${@:2}"; }
plot() { "$bin" plot "$@" > /dev/null; }

sweep pcie_payload_lanes "$@"
plot "$out/pcie_payload_lanes" --x node0.pcie0.max_payload \
  --y results:accelerators/0/host_write_GBps --group node0.pcie0.lanes --log-x --log-y \
  --xlabel "max payload size (bytes)" --ylabel "host write throughput (GB/s)" \
  --out "$fig/pcie_throughput_vs_payload.svg" \
  --title "PCIe Gen1, host writes 4 MiB to an accelerator: throughput vs max payload size"

sweep torus_latency_load "$@"
plot "$out/torus_latency_load" --x workload.load --y results:mean_latency_ns \
  --group workload.pattern --log-y --out "$fig/torus_latency_vs_load.svg" \
  --xlabel "offered load (fraction of the bisection bound)" --ylabel "mean packet latency (ns)" \
  --title "8x8x8 torus: mean packet latency vs offered load (fraction of the bisection bound)"

plot "$out/torus_latency_load" --x workload.load --y results:accepted_load \
  --group workload.pattern --out "$fig/torus_throughput_vs_load.svg" \
  --xlabel "offered load (fraction of the bisection bound)" \
  --ylabel "accepted load (fraction of the bisection bound)" \
  --title "8x8x8 torus: accepted vs offered load (fractions of the bisection bound)"

sweep protocol_latency_size "$@"
plot "$out/protocol_latency_size" --x workload.bytes --y results:one_way_latency_ns \
  --group workload.protocol --log-x --log-y --out "$fig/protocol_latency_vs_size.svg" \
  --xlabel "message size (bytes)" --ylabel "one-way latency (ns)" \
  --title "Torus ping-pong over 3 hops: one-way latency vs message size"

sweep ami_latency_size "$@"
for receive in early late; do
  plot "$out/ami_latency_size" --x workload.bytes --y results:mean_completion_ns \
    --group workload.ami.protocol --where "workload.receive=$receive" --log-x --log-y \
    --out "$fig/ami_completion_vs_size_$receive.svg" \
    --xlabel "message size (bytes)" --ylabel "completion time, SEND posted to received (ns)" \
    --title "AMI over 2 torus hops, RECEIVE posted $receive: completion time vs message size"
done
sweep pcie_lcrc_errors "$@"
plot "$out/pcie_lcrc_errors" --x node0.pcie0.up.lcrc_error_rate --y results:throughput_GBps \
  --group workload.direction --log-x --out "$fig/pcie_goodput_vs_lcrc_errors.svg" \
  --xlabel "LCRC error rate per TLP (both directions)" --ylabel "goodput (GB/s)" \
  --title "PCIe gen1 x8, 8 SPEs stream 1 MiB each: goodput vs LCRC error rate (NAK and replay)"
plot "$out/pcie_lcrc_errors" --x node0.pcie0.up.lcrc_error_rate \
  --y node0.acc0.spe0.mfc:command_latency.mean --group workload.direction --log-x --log-y \
  --out "$fig/pcie_latency_vs_lcrc_errors.svg" \
  --xlabel "LCRC error rate per TLP (both directions)" --ylabel "mean MFC command latency (ns)" \
  --title "PCIe gen1 x8, 8 SPEs stream 1 MiB each: 16 KiB command latency vs LCRC error rate"

sweep torus_crc_errors "$@"
plot "$out/torus_crc_errors" --x torus.network.link_crc_error_rate --y results:accepted_load \
  --group workload.load --log-x --out "$fig/torus_goodput_vs_crc_errors.svg" \
  --xlabel "CRC error rate per link traversal" \
  --ylabel "accepted load (fraction of the bisection bound)" \
  --title "4x4x4 torus, uniform traffic: goodput vs link CRC error rate, by offered load"
plot "$out/torus_crc_errors" --x torus.network.link_crc_error_rate \
  --y results:mean_latency_ns --group workload.load --log-x --log-y \
  --out "$fig/torus_latency_vs_crc_errors.svg" \
  --xlabel "CRC error rate per link traversal" --ylabel "mean packet latency (ns)" \
  --title "4x4x4 torus, uniform traffic: latency vs link CRC error rate, by offered load"

sweep cell_latency_size "$@"
plot "$out/cell_latency_size" --x workload.bytes --y results:mean_latency_ns \
  --group workload.target --where workload.direction=get --log-x --log-y \
  --out "$fig/cell_dma_latency_vs_size.svg" --xlabel "command size (bytes)" \
  --ylabel "GET latency, first channel write to tag status (ns)" \
  --title "One SPE, one GET at a time: latency vs size, from memory and from SPE1's local store"

sweep cell_stream_buffer "$@"
plot "$out/cell_stream_buffer" --x workload.buffer_bytes --y results:aggregate_GBps \
  --group workload.spes --log-x --out "$fig/cell_stream_vs_buffer.svg" \
  --xlabel "each of the two buffers (bytes)" --ylabel "bandwidth from memory, all SPEs (GB/s)" \
  --title "Double-buffered GET streams of 1 MiB per SPE: bandwidth vs buffer size, by SPEs"

sweep cell_atomic_spes "$@"
plot "$out/cell_atomic_spes" --x workload.spes --y results:increments_per_us \
  --out "$fig/cell_atomic_vs_spes.svg" --xlabel "SPEs incrementing" \
  --ylabel "increments per microsecond, all SPEs" \
  --title "An atomic counter under GETLLAR/PUTLLC: throughput vs the SPEs contending"

sweep mpi_allreduce_size "$@"
plot "$out/mpi_allreduce_size" --x workload.bytes --y results:communication_ns_per_iteration \
  --group mpi.algorithm.allreduce --log-x --log-y --out "$fig/mpi_allreduce_vs_size.svg" \
  --xlabel "vector per rank (bytes)" --ylabel "allreduce latency (ns)" \
  --title "Allreduce on a 4x4x4 torus, 64 ranks: latency vs message size, by algorithm"

sweep mpi_alltoall_scale "$@"
plot "$out/mpi_alltoall_scale" --x results:ranks --y results:time_per_iteration_ns --log-x \
  --log-y --out "$fig/mpi_alltoall_vs_nodes.svg" --xlabel "nodes (one rank each)" \
  --ylabel "time per alltoall (ns)" \
  --title "Alltoall of 64 B a pair (pairwise exchange): time vs machine size"

sweep mpi_halo3d_scale "$@"
plot "$out/mpi_halo3d_scale" --x results:ranks --y results:time_per_iteration_ns --log-x \
  --out "$fig/mpi_halo3d_vs_nodes.svg" --xlabel "nodes (one rank each)" \
  --ylabel "time per iteration (ns)" \
  --title "halo3d, 6 neighbours, 16^3 cells a rank: time per iteration vs machine size"

STUDIES_OUT="$out" FIGURES_OUT="$fig" HYBRIDSIM="$bin" bash "$studies/protocol_errors.sh" "$@"
STUDIES_OUT="$out" FIGURES_OUT="$fig" HYBRIDSIM="$bin" bash "$studies/roadrunner_protocols.sh" "$@"
FIGURES_OUT="$fig" HYBRIDSIM="$bin" bash "$studies/link_heatmap.sh"
echo "figures in $fig"
