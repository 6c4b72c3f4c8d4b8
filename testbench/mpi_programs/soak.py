#!/usr/bin/env python3
"""The MPI programs' soak: the conformance programs run with `hybridsim mpirun` under
parameters drawn at random, each point with its own seed: the number of ranks, the node mode
and mapping, the protocol thresholds, interrupts or polling, the routing, every collective's
algorithm, and faults: torus link CRC errors (retransmitted) and lost interrupts (recovered by
the message layer's timed waits). A point passes when the program's own checks, the MPI checker
and every other check pass and the run ends in time (sim.time_limit guards against hangs).

  soak.py --bin HYBRIDSIM --programs DIR [--points N] [--first K] [--jobs J]

Prints one line per failure with the command that replays it, and a summary; exits 1 if any
point failed. CTest runs a slice (--points 6); the full soak is the default 200 points.
"""
import argparse
import concurrent.futures
import random
import re
import shlex
import subprocess
import sys

# (program, ranks it suits, arguments, what its output must show)
PROGRAMS = [
    ("ring", [2, 5, 8, 12], [], r"token"),
    ("halo_cart", [4, 6, 9, 12], [], r"ok: MPI_Cart_sub rows"),
    ("collectives", [3, 4, 6, 8], [], r"ok: gatherv, scatterv \(non-blocking\)"),
    ("ops", [2, 3, 5], [], r"keeps rank order"),
    ("point_to_point", [2, 3, 4], [], r"ok: truncation"),
    ("datatypes", [2, 4], [], r"ok: collectives on derived types"),
    ("communicators", [3, 5, 7], [], r"ok: 40 communicators"),
    ("alltoallv", [2, 5, 6], [], r"ok: alltoallv in place"),
    ("private_ranks", [2, 4], ["alpha", "beta"], r"ok: globals"),
]

ALGORITHMS = {
    "barrier": ["recursive_doubling", "binomial"],
    "bcast": ["binomial", "ring"],
    "reduce": ["binomial", "ring"],
    "allreduce": ["recursive_doubling", "ring", "binomial"],
    "allgather": ["ring", "recursive_doubling"],
    "alltoall": ["pairwise", "ring", "linear"],
    "alltoallv": ["pairwise", "ring", "linear"],
    "gather": ["binomial", "linear"],
    "gatherv": ["linear", "sequential"],
    "scatter": ["binomial", "linear"],
    "scatterv": ["linear", "sequential"],
    "allgatherv": ["ring", "linear"],
    "reduce_scatter": ["reduce_scatterv", "ring"],
    "reduce_scatter_block": ["reduce_scatterv", "ring"],
    "scan": ["recursive_doubling", "linear"],
    "exscan": ["recursive_doubling", "linear"],
}


POWER_OF_TWO = {("pairwise", "alltoall"), ("pairwise", "alltoallv"),
                ("recursive_doubling", "allgather")}


def draw(point):
    """The command line of one point: everything drawn from the point's own generator."""
    rng = random.Random(point)
    program, ranks, args, expect = rng.choice(PROGRAMS)
    n = rng.choice(ranks)
    sets = {
        "program.compute": rng.choice(["fixed", "zero"]),
        "program.compute_cycles": rng.choice([0, 100, 5000]),
        "mpi.mode": rng.choice(["smp", "dual", "vn"]),
        "mpi.mapping": rng.choice(["XYZT", "TXYZ", "ZYXT"]),
        "mpi.eager_limit": rng.choice([0, 256, 1920]),
        "mpi.split_limit": rng.choice([0, 2048, 65536]),
        "mpi.interrupts": rng.choice(["true", "false"]),
        "torus.network.routing": rng.choice(["adaptive", "deterministic"]),
        "torus.network.link_crc_error_rate": rng.choice([0, 0, 1e-3, 1e-2]),
        "torus.node.core0.irq_drop_rate": rng.choice([0, 0, 1e-2, 1e-1]),
        "torus.node.core1.irq_drop_rate": rng.choice([0, 1e-2]),
        "sim.time_limit": "200ms",
    }
    power_of_two = n & (n - 1) == 0
    for c, names in ALGORITHMS.items():
        # A job refuses a chosen algorithm that needs a power-of-two number of ranks on another
        # number (sub-communicators fall back to one that fits by themselves).
        fits = [a for a in names if power_of_two or (a, c) not in POWER_OF_TWO]
        sets[f"mpi.algorithm.{c}"] = rng.choice(fits)
    cmd = ["mpirun", "-n", str(n), "--seed", str(point)]
    for k, v in sets.items():
        cmd += ["--set", f"{k}={v}"]
    return program, cmd, args, expect


def run(binary, programs, point):
    program, cmd, args, expect = draw(point)
    full = [binary] + cmd + [f"{programs}/{program}"] + args
    try:
        p = subprocess.run(full, capture_output=True, text=True, timeout=600)
        out = p.stdout + p.stderr
        ok = p.returncode == 0 and re.search(expect, out) is not None
        why = "" if ok else f"exit status {p.returncode}: {out.strip().splitlines()[-1:] or ['(no output)']}"
    except subprocess.TimeoutExpired:
        ok, why = False, "no end after 600 s of wall time"
    return point, ok, why, " ".join(shlex.quote(a) for a in full)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True)
    ap.add_argument("--programs", required=True)
    ap.add_argument("--points", type=int, default=200)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    points = range(a.first, a.first + a.points)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for point, ok, why, command in pool.map(lambda p: run(a.bin, a.programs, p), points):
            if not ok:
                failed += 1
                print(f"point {point} failed ({why}); replay: {command}")
    print(f"mpi program soak: {len(points)} points (seeds {points[0]}..{points[-1]}), "
          f"{len(points) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
