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

What the prose claims about a command is checked too, by a comment after its block:
- `<!-- output: REGEX -->`: the standard output of the block's last command matches REGEX; if
  REGEX has a group, the paragraph after the comment must contain the text it matched (so a
  count written in the prose is the one a fresh run prints);
- `<!-- file: PATH -->`: the page's commands so far have written PATH (relative to the
  temporary directory), so a file name the prose promises exists;
- `<!-- sample: ARGS -->` just before a fenced block: the block is the output of `hybridsim
  ARGS`, as a fresh run prints it (wall-clock figures and the repository's path aside).
  `doc_commands.py BINARY ROOT --refresh-samples` rewrites every such block from a fresh run.
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


CLAIM = re.compile(r"^\s*<!--\s*(output|file):\s*(.*?)\s*-->\s*$")


def claims(path):
    """Yields (line_number, kind, argument, paragraph) for each claim comment outside fences;
    the paragraph is the prose after the comment, up to a blank line or a fence."""
    lines = path.read_text(encoding="utf-8").split("\n")
    fence = None
    for i, line in enumerate(lines):
        m = FENCE.match(line)
        if m:
            mark = m.group(2)
            if fence is None:
                fence = mark
            elif line.strip().startswith(fence[0] * len(fence)) and line.strip().strip(fence[0]) == "":
                fence = None
            continue
        if fence is not None:
            continue
        c = CLAIM.match(line)
        if not c:
            continue
        paragraph = []
        for after in lines[i + 1:]:
            if not after.strip() or FENCE.match(after):
                break
            paragraph.append(after)
        yield i + 1, c.group(1), c.group(2), " ".join(paragraph)


SAMPLE = re.compile(r"^\s*<!--\s*sample:\s*(.*?)\s*-->\s*$")
WALL = [
    (re.compile(r"wall [0-9.]+ s"), "wall N s"),
    (re.compile(r"\([0-9.e+-]+ simulated s per wall s\)"), "(N simulated s per wall s)"),
    (re.compile(r"\S*/testbench/scenarios/"), ".../testbench/scenarios/"),
]


def normalised(text):
    for pattern, replacement in WALL:
        text = pattern.sub(replacement, text)
    return text.rstrip("\n")


def samples(path):
    """Yields (comment_line, args, first_body_index, end_index) for each sample comment: the
    0-based indices of the block's body lines in the page."""
    lines = path.read_text(encoding="utf-8").split("\n")
    for i, line in enumerate(lines):
        m = SAMPLE.match(line)
        if not m:
            continue
        j = i + 1
        if j >= len(lines) or not FENCE.match(lines[j]):
            raise SystemExit(f"{path}:{i + 1}: a sample comment must be followed by a fenced block")
        fence = FENCE.match(lines[j]).group(2)
        k = j + 1
        while k < len(lines) and not (lines[k].strip().startswith(fence)
                                      and lines[k].strip().strip(fence[0]) == ""):
            k += 1
        yield i + 1, m.group(1), j + 1, k


def run_sample(binary, args, cwd, timeout):
    r = subprocess.run([binary] + shlex.split(args), cwd=cwd, capture_output=True, text=True,
                       timeout=timeout, stdin=subprocess.DEVNULL)
    return r.returncode, r.stdout


def refresh_samples(binary, root, timeout):
    pages = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    for page in pages:
        found = list(samples(page))
        if not found:
            continue
        lines = page.read_text(encoding="utf-8").split("\n")
        for _, args, first, end in reversed(found):
            _, out = run_sample(binary, args, root, timeout)
            out = WALL[2][0].sub(WALL[2][1], out).rstrip("\n")
            lines[first:end] = out.split("\n")
        page.write_text("\n".join(lines), encoding="utf-8")
        print(f"refreshed {len(found)} sample(s) in {page.relative_to(root)}")
    return 0


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
    refresh = "--refresh-samples" in sys.argv
    argv = [a for a in sys.argv if a != "--refresh-samples"]
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary = os.path.abspath(argv[1])
    root = pathlib.Path(argv[2]).resolve()
    timeout = float(os.environ.get("DOC_COMMAND_TIMEOUT", "60"))
    if not os.access(binary, os.X_OK):
        print(f"doc_commands: {binary} is not an executable hybridsim", file=sys.stderr)
        return 2
    if refresh:
        return refresh_samples(binary, root, timeout)
    pages = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    failures = []
    ran = checked_json = checked_claims = 0

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
            # Sample outputs, each from a fresh run.
            page_lines = page.read_text(encoding="utf-8").split("\n")
            try:
                found = list(samples(page))
            except SystemExit as e:
                fail(rel, str(e))
                found = []
            for line, args, first, end in found:
                checked_claims += 1
                code, out = run_sample(binary, args, work, timeout)
                want = normalised("\n".join(page_lines[first:end]))
                got = normalised(out)
                if want != got:
                    diff = [f"{a!r} -> {b!r}" for a, b in zip(want.split("\n"), got.split("\n"))
                            if a != b][:3] or [f"{len(want.split(chr(10)))} lines -> "
                                                f"{len(got.split(chr(10)))} lines"]
                    fail(f"{rel}:{line}", f"the sample is not what `hybridsim {args}` prints "
                         f"now (refresh with --refresh-samples): " + "; ".join(diff))
            # Commands and the claims about them, in the page's order.
            events = [(start, "sh", body) for lang, _, start, body in parsed if lang == "sh"]
            events += [(line, "claim", (kind, arg, para)) for line, kind, arg, para in claims(page)]
            events.sort(key=lambda e: e[0])
            last_output = None
            for start, what, item in events:
                if what == "claim":
                    kind, arg, paragraph = item
                    where = f"{rel}:{start}"
                    checked_claims += 1
                    if kind == "file":
                        if not os.path.exists(os.path.join(work, arg)):
                            fail(where, f"the commands above did not write {arg}")
                        continue
                    if last_output is None:
                        fail(where, "an output claim with no command before it")
                        continue
                    m = re.search(arg, last_output)
                    if not m:
                        fail(where, f"the command's output does not match /{arg}/")
                    elif m.groups() and m.group(1) not in paragraph:
                        fail(where, f"the text says otherwise: the output has '{m.group(1)}'")
                    continue
                for number, command in sh_commands(item):
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
                        last_output = ""
                        continue
                    took = time.monotonic() - began
                    ran += 1
                    last_output = r.stdout
                    if r.returncode != want:
                        tail = "\n    ".join((r.stderr or r.stdout).strip().splitlines()[-8:])
                        fail(where, f"`{command}` exited {r.returncode}, expected {want}"
                                    + (f"\n    {tail}" if tail else ""))
                    else:
                        print(f"ok   {where}: exit {r.returncode} in {took:.1f} s: {command}",
                              flush=True)
    print(f"doc_commands: {ran} commands run, {checked_json} JSON blocks and {checked_claims} "
          f"claims checked in {len(pages)} pages; {len(failures)} failures")
    if ran == 0:
        print("doc_commands: no command found: is the documentation there?", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
