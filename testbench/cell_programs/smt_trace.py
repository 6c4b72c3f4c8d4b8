#!/usr/bin/env python3
"""The PPE's threads on the timeline: each on its own track with the hardware thread it ran on.

Usage: smt_trace.py HYBRIDSIM SMT_PROGRAM WORK_DIR

Runs smt_ppe.c with two compute-bound threads and --trace, then checks: each hardware thread's
track (PPE.hw_thread0/1) holds the spans of the threads it ran and their context switches;
each program thread's track (PPE.thread1/2/3) holds async spans naming the hardware thread it
ran on; threads 2 and 3 ran on different hardware threads, at the same time.
"""
import json
import os
import subprocess
import sys


def main():
    hybridsim, program, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    trace = os.path.join(work, "trace.json")
    if os.path.exists(trace):
        os.remove(trace)
    run = subprocess.run([hybridsim, "run", "hybrid_program", "--set",
                          f"workload.program={program}", "--set", 'workload.args=["2","64000"]',
                          "--set", "program.compute=zero", "--trace", trace],
                         capture_output=True, text=True)
    failures = []
    if run.returncode != 0:
        failures.append(f"exit status {run.returncode}, expected 0")
    with open(trace, encoding="utf-8") as f:
        tr = json.load(f)
    events = tr["traceEvents"] if isinstance(tr, dict) else tr
    names = {(e.get("pid"), e.get("tid")): e["args"]["name"] for e in events
             if e.get("ph") == "M" and e.get("name") == "thread_name"}
    spans, on = {}, {}  # track -> span names; thread -> [(hw, begin, end)]
    open_async = {}
    for e in events:
        track = names.get((e.get("pid"), e.get("tid")), "?")
        if e.get("ph") == "X":
            spans.setdefault(track, set()).add(e.get("name"))
        elif e.get("ph") == "b":
            open_async[(track, e.get("id"))] = (e.get("name"), e.get("ts"))
        elif e.get("ph") == "e" and (track, e.get("id")) in open_async:
            name, ts = open_async.pop((track, e.get("id")))
            on.setdefault(track, []).append((name, ts, e.get("ts")))
    def track_ending(suffix):  # "ppe.thread1", never "ppe.hw_thread1"
        return next((t for t in sorted(set(spans) | set(on))
                     if t == suffix or t.endswith("." + suffix)), None)
    for hw in ("hw_thread0", "hw_thread1"):
        t = track_ending(hw)
        if t is None or "context switch" not in spans.get(t, set()):
            failures.append(f"no track {hw} with context switches: {spans.get(t)}")
    ran = {}
    for n in (1, 2, 3):
        t = track_ending(f"thread{n}")
        periods = on.get(t, []) if t else []
        if not periods or not all(p[0].startswith("hw thread ") for p in periods):
            failures.append(f"thread {n}'s track shows no hardware thread: {periods}")
        ran[n] = periods
    if not failures:
        hw2 = {p[0] for p in ran[2]}
        hw3 = {p[0] for p in ran[3]}
        overlap = any(a[1] < b[2] and b[1] < a[2] for a in ran[2] for b in ran[3])
        if hw2 == hw3 or not overlap:
            failures.append(f"threads 2 and 3 did not run at once on two hardware threads: "
                            f"{ran[2]} {ran[3]}")
        hw_tracks = {hw: spans.get(track_ending(hw), set()) for hw in ("hw_thread0", "hw_thread1")}
        if not any("thread 2" in s for s in hw_tracks.values()) or \
           not any("thread 3" in s for s in hw_tracks.values()):
            failures.append(f"the hardware threads' tracks do not show threads 2 and 3: {hw_tracks}")
    if failures:
        print("\n".join(failures))
        print("---- output\n" + run.stdout + run.stderr)
        return 1
    print("ok: each thread on its own track with the hardware thread it ran on")
    return 0


if __name__ == "__main__":
    sys.exit(main())
