#!/usr/bin/env python3
"""The documentation's commands and examples, checked as a user would run them.

Usage: doc_commands.py HYBRIDSIM_BINARY REPOSITORY_ROOT

For README.md and every docs/**/*.md:
- every line of a fenced ```sh block that starts with `hybridsim ` or `./build/hybridsim `
  runs (the program replaced by HYBRIDSIM_BINARY) with bash, from a temporary directory
  that holds a link to the repository's testbench/, and must exit 0, or the code a comment on
  the line states (`# exits 2`); other lines of ```sh blocks (setup, build) are not run;
  a line ending in a backslash continues on the next;
- every fenced ```json block must parse; one that names a "machine" (a scenario) must be
  accepted by `hybridsim params FILE`;
- a ```json block whose info string says `file=NAME.json` is written to NAME.json in that
  temporary directory before the page's commands run, so they can use it.
Lines the test cannot run (building, Slurm) belong in ```console or ```text blocks.
Each command may take at most TIMEOUT seconds (environment DOC_COMMAND_TIMEOUT, default 60).
"""
import json
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile
import time

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^`\s]*)\s*(.*)$")
EXITS = re.compile(r"#\s*exits\s+(\d+)\b")
PROGRAM = re.compile(r"^(\./build/hybridsim|hybridsim)(?=\s)")


def blocks(path):
    """Yields (language, info, first_line_number, [(line_number, text)]) for each fence."""
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang, info = m.groups()
        start = i + 1
        body = []
        i += 1
        while i < len(lines):
            close = lines[i].strip()
            if close.startswith(fence[0] * len(fence)) and close.strip(fence[0]) == "":
                break
            body.append((i + 1, lines[i][len(indent):] if lines[i].startswith(indent) else lines[i]))
            i += 1
        else:
            raise SystemExit(f"{path}:{start}: fenced block never closed")
        yield lang.lower(), info, start, body
        i += 1


def sh_commands(body):
    """Joins backslash continuations; yields (line_number, command) for hybridsim lines."""
    pending, first = "", None
    for number, text in body:
        if pending:
            pending += " " + text.strip()
        else:
            pending, first = text.strip(), number
        if pending.endswith("\\"):
            pending = pending[:-1].rstrip()
            continue
        if PROGRAM.match(pending):
            yield first, pending
        pending = ""


def expected_exit(command):
    m = EXITS.search(command)
    return int(m.group(1)) if m else 0


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    root = pathlib.Path(sys.argv[2]).resolve()
    timeout = float(os.environ.get("DOC_COMMAND_TIMEOUT", "60"))
    if not os.access(binary, os.X_OK):
        print(f"doc_commands: {binary} is not an executable hybridsim", file=sys.stderr)
        return 2
    pages = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    failures = []
    ran = checked_json = 0

    def fail(where, message):
        failures.append(f"{where}: {message}")
        print(f"FAIL {where}: {message}", flush=True)

    for page in pages:
        rel = page.relative_to(root)
        with tempfile.TemporaryDirectory(prefix="hybridsim-doc-") as work:
            os.symlink(root / "testbench", os.path.join(work, "testbench"))
            try:
                parsed = list(blocks(page))
            except SystemExit as e:
                fail(rel, str(e))
                continue
            # JSON first: files named in a block's info string are the commands' inputs.
            for lang, info, start, body in parsed:
                if lang != "json":
                    continue
                where = f"{rel}:{start}"
                text = "\n".join(t for _, t in body)
                checked_json += 1
                try:
                    value = json.loads(text)
                except json.JSONDecodeError as e:
                    fail(f"{rel}:{start + e.lineno}", f"JSON block does not parse: {e.msg}")
                    continue
                m = re.search(r"\bfile=(\S+)", info)
                name = m.group(1) if m else f"block-{start}.json"
                file = os.path.join(work, name)
                with open(file, "w", encoding="utf-8") as f:
                    f.write(text + "\n")
                if isinstance(value, dict) and "machine" in value:
                    r = subprocess.run([binary, "params", file], cwd=work, capture_output=True,
                                       text=True, timeout=timeout)
                    if r.returncode != 0:
                        fail(where, f"scenario block refused by `hybridsim params` (exit "
                                    f"{r.returncode}): {r.stderr.strip()}")
            for lang, info, start, body in parsed:
                if lang != "sh":
                    continue
                for number, command in sh_commands(body):
                    where = f"{rel}:{number}"
                    want = expected_exit(command)
                    line = PROGRAM.sub(shlex.quote(binary), command, count=1)
                    began = time.monotonic()
                    try:
                        r = subprocess.run(["bash", "-o", "pipefail", "-c", line], cwd=work,
                                           capture_output=True, text=True, timeout=timeout,
                                           stdin=subprocess.DEVNULL)
                    except subprocess.TimeoutExpired:
                        fail(where, f"`{command}` took more than {timeout:.0f} s")
                        continue
                    took = time.monotonic() - began
                    ran += 1
                    if r.returncode != want:
                        tail = "\n    ".join((r.stderr or r.stdout).strip().splitlines()[-8:])
                        fail(where, f"`{command}` exited {r.returncode}, expected {want}"
                                    + (f"\n    {tail}" if tail else ""))
                    else:
                        print(f"ok   {where}: exit {r.returncode} in {took:.1f} s: {command}",
                              flush=True)
    print(f"doc_commands: {ran} commands run and {checked_json} JSON blocks checked in "
          f"{len(pages)} pages; {len(failures)} failures")
    if ran == 0:
        print("doc_commands: no command found: is the documentation there?", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
