#!/bin/sh
# Runs a command and checks how it ended: expect.sh STATUS PATTERN [PATTERN...] -- COMMAND...
# Passes when the command exits with STATUS and its output (standard output and error) matches
# every extended regular expression PATTERN; else prints the output and fails.
status=$1
shift
patterns=""
while [ "$1" != "--" ]; do
  patterns="$patterns
$1"
  shift
done
shift
out=$("$@" 2>&1)
rc=$?
fail=0
if [ "$rc" -ne "$status" ]; then
  echo "expected exit status $status, got $rc"
  fail=1
fi
echo "$patterns" | while IFS= read -r p; do
  [ -z "$p" ] && continue
  if ! printf '%s\n' "$out" | grep -Eq -- "$p"; then
    echo "output does not match: $p"
    exit 1
  fi
done || fail=1
if [ "$fail" -ne 0 ]; then
  echo "---- output of: $*"
  printf '%s\n' "$out"
  exit 1
fi
exit 0
