#!/usr/bin/env python3
"""A rank that crashes still leaves a valid report and trace, with the program on its core's
timeline.

Usage: crash_trace.py HYBRIDSIM ERRORS_PROGRAM WORK_DIR

Runs errors.c's `segv` mode on two ranks (rank 1 dereferences address 8) with --report and
--trace, then checks: the exit status is 128 + SIGSEGV; the report parses, failed, and names
the crash; the trace parses and holds, on each rank's core track, the spans of its program
(`main`) and its MPI calls (`MPI_Init`), rank 0's program span (cut short by rank 1's crash)
marked unfinished.
"""
import json
import os
import subprocess
import sys


def main():
    hybridsim, program, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    report, trace = os.path.join(work, "report.json"), os.path.join(work, "trace.json")
    for f in (report, trace):
        if os.path.exists(f):
            os.remove(f)
    run = subprocess.run([hybridsim, "mpirun", "-n", "2", "--set", "program.compute=fixed",
                          "--report", report, "--trace", trace, program, "segv"],
                         capture_output=True, text=True)
    failures = []
    if run.returncode != 139:
        failures.append(f"exit status {run.returncode}, expected 139")
    with open(report, encoding="utf-8") as f:
        rep = json.load(f)
    if rep.get("status") != "failed":
        failures.append(f"report status {rep.get('status')!r}, expected 'failed'")
    if "rank 1 crashed: SIGSEGV" not in json.dumps(rep):
        failures.append("the report does not name rank 1's SIGSEGV")
    with open(trace, encoding="utf-8") as f:
        tr = json.load(f)
    events = tr["traceEvents"] if isinstance(tr, dict) else tr
    # Tracks by (process, thread) name, from the metadata; then the spans on each.
    process = {e.get("pid"): e["args"]["name"] for e in events
               if e.get("ph") == "M" and e.get("name") == "process_name"}
    names = {(e.get("pid"), e.get("tid")): f"{process.get(e.get('pid'), '?')} {e['args']['name']}"
             for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"}
    spans, unfinished = {}, set()
    for e in events:
        if e.get("ph") in ("X", "B"):
            track = names.get((e.get("pid"), e.get("tid")), "?")
            spans.setdefault(track, set()).add(e.get("name"))
            if (e.get("args") or {}).get("unfinished"):
                unfinished.add((track, e.get("name")))
    with_main = [t for t, s in spans.items() if "main" in s and "MPI_Init" in s]
    if len(with_main) != 2:
        failures.append(f"tracks with the spans 'main' and 'MPI_Init': {with_main}, expected two")
    if not any(name == "main" for _, name in unfinished):
        failures.append("rank 0's program span is not in the trace, marked unfinished")
    if failures:
        print("\n".join(failures))
        print("---- output\n" + run.stdout + run.stderr)
        print("---- tracks and their spans")
        for t, s in sorted(spans.items()):
            print(f"{t}: {sorted(n for n in s if n)[:12]}")
        return 1
    print(f"crash_trace: exit 139, a failed report naming the crash, program spans on "
          f"{len(with_main)} core tracks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
