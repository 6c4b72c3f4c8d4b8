#!/usr/bin/env bash
# Installs hybridsim from a build tree into a fresh prefix, then uses the installation as a
# user would: the installed `hybridsim` lists the built-in scenarios and runs one from another
# directory; testbench/examples/own_firmware builds against find_package(hybridsim) and runs its
# own firmware to the right answer; testbench/examples/own_workload registers a workload with
# the installed runner and runs it from a scenario file, with report, trace and waveform; the
# installed hybridsim-mpicc builds an MPI program that the installed `hybridsim mpirun` runs;
# the installed hybridsim-cellcc builds a Cell program in the SDK's three steps that the
# installed `hybridsim run hybrid_program` runs, and a host program that starts its PPE program
# through dacs.h.
#   install_example.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix

cmake --install "$build" --prefix "$prefix" >"$work/install.log"
for f in bin/hybridsim bin/hybridsim-mpicc bin/hybridsim-mpicxx bin/hybridsim-cellcc include/hybridsim/program/mpi.h \
  include/hybridsim/program/libspe2.h include/hybridsim/program/spu_mfcio.h include/hybridsim/program/dacs.h lib/cmake/hybridsim/hybridsimConfig.cmake include/hybridsim/hw/hybrid/hybrid_node.h \
  share/hybridsim/scenarios/default.json; do
  [ -e "$prefix/$f" ] || { echo "install_example: $prefix/$f was not installed" >&2; exit 1; }
done
# No path of the build or source tree may leak into the installed package config.
if grep -rlF -e "$build" -e "$src" "$prefix/lib/cmake/hybridsim"; then
  echo "install_example: the installed package config names the build or source tree" >&2
  exit 1
fi

cd "$work"
"$prefix/bin/hybridsim" --help >help.txt
grep -q '^Built-in scenarios: .*torus_traffic' help.txt ||
  { echo "install_example: the installed hybridsim lists no built-in scenarios" >&2; exit 1; }
"$prefix/bin/hybridsim" run default --quiet --report run.json >run.txt
grep -q '"status": "passed"' run.json || { echo "install_example: installed run did not pass its checks" >&2; exit 1; }

cmake -S "$src/testbench/examples/own_firmware" -B own -DCMAKE_PREFIX_PATH="$prefix" >configure.log
cmake --build own >build.log
./own/own_firmware | tee own.txt
grep -q '^sum 8390656 (expected 8390656)' own.txt

# An MPI program built and run with the installed wrapper and launcher.
cat >hello.c <<'PROGRAM'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size, sum = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("ranks %d sum %d\n", size, sum);
  return MPI_Finalize();
}
PROGRAM
"$prefix/bin/hybridsim-mpicc" -O2 hello.c -o hello
"$prefix/bin/hybridsim" mpirun -n 4 ./hello | tee hello.txt
grep -q '^ranks 4 sum 6$' hello.txt

# A Cell program built with the installed hybridsim-cellcc in the SDK's three steps (SPU
# program, embedded handle, PPE program) and run on the hybrid node by the installed runner:
# the SPU's answer comes back through its outbound mailbox.
cat >answer_spu.c <<'PROGRAM'
#include <spu_mfcio.h>
int main(unsigned long long speid, unsigned long long argp, unsigned long long envp) {
  (void)speid;
  (void)envp;
  spu_write_out_mbox((unsigned int)argp + 1);
  return 0;
}
PROGRAM
cat >answer_ppe.c <<'PROGRAM'
#include <libspe2.h>
#include <stdint.h>
#include <stdio.h>
extern spe_program_handle_t answer_spu;
int main(void) {
  spe_context_ptr_t ctx = spe_context_create(0, NULL);
  if (!ctx || spe_program_load(ctx, &answer_spu) != 0) return 1;
  unsigned int entry = SPE_DEFAULT_ENTRY, answer = 0;
  if (spe_context_run(ctx, &entry, 0, (void*)(uintptr_t)41, NULL, NULL) < 0) return 2;
  if (spe_out_mbox_read(ctx, &answer, 1) != 1) return 3;
  printf("SPE answered %u\n", answer);
  return spe_context_destroy(ctx);
}
PROGRAM
"$prefix/bin/hybridsim-cellcc" --target=spu -O2 -o answer_spu.spu answer_spu.c
"$prefix/bin/hybridsim-cellcc" --embed answer_spu answer_spu.spu -o answer_spu-embed.o
"$prefix/bin/hybridsim-cellcc" --target=ppu -O2 -o answer answer_ppe.c answer_spu-embed.o
"$prefix/bin/hybridsim" run hybrid_program --quiet --set workload.program=./answer | tee answer.txt
grep -q '^SPE answered 42$' answer.txt ||
  { echo "install_example: the Cell program built with the installed hybridsim-cellcc gave no answer" >&2; exit 1; }

# Its host side (three levels): a host program built with --target=host starts a PPE program
# through dacs.h, which answers in the host's mailbox.
cat >answer_child.c <<'PROGRAM'
#include <dacs.h>
int main(void) {
  uint32_t answer = 42;
  if (dacs_runtime_init(NULL, NULL) != DACS_SUCCESS) return 1;
  if (dacs_mailbox_write(&answer, DACS_DE_PARENT, DACS_PID_PARENT) != DACS_SUCCESS) return 2;
  return dacs_runtime_exit() == DACS_SUCCESS ? 0 : 3;
}
PROGRAM
cat >answer_host.c <<'PROGRAM'
#include <dacs.h>
#include <stdio.h>
int main(int argc, char** argv) {
  uint32_t n = 1, answer = 0;
  int32_t status = -1;
  de_id_t cell;
  dacs_process_id_t pid;
  if (argc < 2 || dacs_runtime_init(NULL, NULL) != DACS_SUCCESS) return 1;
  if (dacs_reserve_children(DACS_DE_CBE, &n, &cell) != DACS_SUCCESS || n != 1) return 2;
  if (dacs_de_start(cell, argv[1], NULL, NULL, DACS_PROC_LOCAL_FILE, &pid) != DACS_SUCCESS) return 3;
  if (dacs_mailbox_read(&answer, cell, pid) != DACS_SUCCESS) return 4;
  if (dacs_de_wait(cell, pid, &status) != DACS_STS_PROC_FINISHED || status != 0) return 5;
  printf("the Cell answered %u\n", answer);
  return 0;
}
PROGRAM
"$prefix/bin/hybridsim-cellcc" --target=ppu -O2 -o answer_child answer_child.c
"$prefix/bin/hybridsim-cellcc" --target=host -O2 -o answer_host answer_host.c
"$prefix/bin/hybridsim" run hybrid_program --quiet --set workload.host_program=./answer_host \
  --set 'workload.args=["./answer_child"]' | tee answer_host.txt
grep -q '^the Cell answered 42$' answer_host.txt ||
  { echo "install_example: the host program built with the installed hybridsim-cellcc gave no answer" >&2; exit 1; }

# A workload of one's own, registered with the installed runner and run from a scenario file:
# the report, trace and waveform as `hybridsim run` writes them, its data checked by its own
# check, and bad input refused as the command line refuses it.
cmake -S "$src/testbench/examples/own_workload" -B own_workload -DCMAKE_PREFIX_PATH="$prefix" >configure_workload.log
cmake --build own_workload >build_workload.log
./own_workload/own_workload "$src/testbench/examples/own_workload/spe_scale.json" >workload.txt ||
  { cat workload.txt; echo "install_example: own_workload failed" >&2; exit 1; }
grep -q 'spe_scale: every word is scaled' workload.txt ||
  { echo "install_example: own_workload's report lacks its check" >&2; exit 1; }
python3 - <<'PY'
import json
r = json.load(open("own_report.json"))
assert r["status"] == "passed", r["status"]
assert r["results"]["words"] == 16384, r["results"]
assert r["results"]["time_us"] > 0, r["results"]
t = json.load(open("own_trace.json"))
assert any("spe" in str(e.get("args", {})) or "spe" in str(e.get("name", "")).lower()
           for e in t["traceEvents"]), "no SPE on the timeline"
PY
[ -s own.vcd ] || { echo "install_example: own_workload wrote no waveform" >&2; exit 1; }
set +e
./own_workload/own_workload "$src/testbench/examples/own_workload/spe_scale.json" \
  --set workload.factr=2 >bad.txt 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] && grep -q "workload.factr" bad.txt && grep -q "did you mean 'workload.factor'" bad.txt ||
  { cat bad.txt; echo "install_example: a misspelt parameter was not refused (exit $rc)" >&2; exit 1; }
echo "install_example: installed, ran a scenario, built and ran own_firmware, own_workload, an MPI program and a Cell program"
