#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - the test suite in the test VM, as `make check` runs it.
#
# Two boots: every test with 2 CPUs, then the module reload test with one;
# then, on this machine, the portability test (tests/replay_portable.c):
# the checkpoints replay_module recorded in the VM (Debian 6.1) replayed
# here, on another kernel and CPU, in an empty root.
# The reload test loads and unloads the module 100 times while recorded
# processes make syscalls; each load and unload patches the syscall
# tracepoints' static keys in the code those processes run.  Under software
# emulation (TCG) with two CPUs, that cross-CPU code patching under a stream
# of syscalls has livelocked both CPUs in the patched site (soft lockups in
# syscall_trace_enter, seen in a few runs out of ten); with one CPU there is
# no cross-CPU patching.  Real hardware and KVM run it with any CPU count.
#
# tests/bounds.c (resource bounds of info, log and the image build on
# crafted files; no module) and tests/replay_gdbserver.c (gdb against
# replay --gdbserver; no module) run on this machine with replay_portable.
#
# The kernel is vm.sh's: the installed Debian one, or FR_VM_ROOT's (`make
# check-612`); the line before the last says which, with its own count.
#
# A third boot runs record_security with FR_YAMA3=1: its Yama case sets
# kernel.yama.ptrace_scope to 3, which no write can lower until reboot.
#
# Prints the runs, then one line "N passed, N failed" for the whole suite;
# exits non-zero if anything failed, the VM included.
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$TOP" || exit 1
LOG=$(mktemp -d /tmp/flightrec-check.XXXXXX)
trap 'rm -rf "$LOG"' EXIT
SERIAL=${FR_CHECK_SERIAL:-reload}
PORT=$TOP/build/portability
rm -rf "$PORT"

run() {	# name, vm.sh options..., -- command
	local name=$1 rc
	shift
	scripts/vm.sh "$@" 2>&1 | tee "$LOG/$name.out"
	rc=${PIPESTATUS[0]}
	echo "$rc" > "$LOG/$name.rc"
}

# secretmem.enable=1: memfd_secret for record_security (off by default in 6.1)
# replay_outside (the outside corpus) takes 6-9 minutes under TCG on a
# loaded 2-core machine: more than run.sh's default 600 s per binary, and
# the whole main run more than vm.sh's default 900 s
FR_VM_APPEND="${FR_VM_APPEND:+$FR_VM_APPEND }secretmem.enable=1" \
	run main --timeout "${FR_CHECK_MAIN_TIMEOUT:-2700}" run -- env FR_TEST_TIMEOUT="${FR_TEST_TIMEOUT:-900}" \
	FR_TEST_EXCLUDE="$SERIAL replay_portable bounds replay_gdbserver" FR_PORT_DIR="$PORT" tests/run.sh
# shellcheck disable=SC2086  # one name per word
run serial --smp 1 run -- tests/run.sh $SERIAL
run yama run -- env FR_YAMA3=1 tests/run.sh record_security
# on the host: no VM, no module (bounds: userspace only, and minutes of
# emulated CPU that the main run's time limit cannot spare)
FR_PORT_DIR=$PORT tests/run.sh replay_portable bounds replay_gdbserver 2>&1 | tee "$LOG/portable.out"
echo "${PIPESTATUS[0]}" > "$LOG/portable.rc"

kver=$(sed -n 's/^vm\.sh: booting \([^ ]*\) .*/\1/p' "$LOG/main.out" | head -n 1)
scripts/sum-results.sh "$LOG" main serial yama portable > "$LOG/sum.out"
status=$?
grep -v '^[0-9]* passed, [0-9]* failed$' "$LOG/sum.out"
total=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOG/sum.out")
echo "kernel ${kver:-?}: $total"
echo "$total"
exit $status
