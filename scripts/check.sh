#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh - the test suite in the test VM, as `make check` runs it, on each
# kernel of FR_CHECK_KERNELS (default: scripts/kernels.sh list, Debian's 6.1
# and 6.12 LTS; `make check TEST_KVER=...` names one).  vm.sh boots each
# (an unpacked one from its scripts/kernel-root.sh tree) with the module
# built for it (scripts/kernels.sh module KVER).
#
# Per kernel, four boots: every test with 2 CPUs ("main"), the module
# reload test with one ("serial"), record_security with Yama scope 3
# ("yama"), the tests of FR_CHECK_TSC (default record_syscalls and
# record_signals) with the TSC as the guest's clock ("tsc"); with two
# kernels or more a fifth ("cross"): the checkpoints
# that replay_module recorded on each other kernel replayed in this one
# (tests/replay_portable in the VM), so a checkpoint recorded on 6.12
# replays on 6.1 and the reverse.  Then, on this machine, the
# portability test replays each kernel's checkpoints here (a third kernel,
# another CPU, an empty root), and tests/bounds runs once.
#
# Every boot runs per kernel because each one exercises what differs
# between kernels: the reload test patches the syscall tracepoints' static
# keys (text patching, tracepoint registration); the Yama boot the
# ptrace-access check the register path makes.
#
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
# replay --gdbserver; no module) run on this machine, once: in the emulated
# VM bounds' files take minutes of the main run's time limit.
#
# The Yama boot runs record_security with FR_YAMA3=1: its Yama case sets
# kernel.yama.ptrace_scope to 3, which no write can lower until reboot.
#
# The TSC boot (FR_VM_CLOCK=tsc: tsc=reliable): under TCG with 2 CPUs the
# guest marks its TSCs unsynchronized and runs on the HPET, and the module
# then stamps records with ktime_get_ns(); a server's TSC, and this boot's,
# make it stamp them with the TSC (fr_stamp), which record_syscalls'
# entry_times_exact checks against the clock itself.  With FR_VM_ICOUNT=1:
# the guest's TSC counts its instructions, not this host's TSC, which jumps
# when this host is a VM that is snapshotted or migrated (docs/testing.md,
# "The TSC boot").
#
# Prints the runs, then "kernel KVER: N passed, N failed" per kernel (its
# boots, and the host's replay of its checkpoints), "host: N passed, N
# failed" (bounds, replay_gdbserver), and last one line "N passed, N failed" for the whole
# suite; exits non-zero if anything failed on any kernel, a VM included.
# The seconds each boot took are in "check.sh: TIME" lines.
#
# The VM emulates its CPUs in one host thread (vm.sh: TCG, thread=single),
# so one boot keeps one host CPU busy: the kernels' boots run side by side,
# FR_CHECK_JOBS kernels at a time (default: the host's CPU count).  First
# every kernel's main, serial and Yama boots, then (all main boots having
# exported their checkpoints) every kernel's cross boots.  The first
# kernel's output prints as it runs, each other kernel's whole when its
# boots have ended.
# shellcheck disable=SC2317  # run, boots, cross: called through phase
# The whole script is one { } group, which bash reads to its end before it
# runs any of it: a script edited while a run of it lasts (an hour-long
# debug boot) no longer has its running copy read the new text midway.
{
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$TOP" || exit 1
LOG=$(mktemp -d /tmp/flightrec-check.XXXXXX)
trap 'rm -rf "$LOG"' EXIT
SERIAL=${FR_CHECK_SERIAL:-reload}
TSC_TESTS=${FR_CHECK_TSC:-record_syscalls record_signals}
PORT=$TOP/build/portability
rm -rf "$PORT"
# shellcheck disable=SC2207  # one version per word
KERNELS=(${FR_CHECK_KERNELS:-$(scripts/kernels.sh list)})
((${#KERNELS[@]})) || { echo "check.sh: FAIL: no kernel to test (scripts/kernels.sh list)"; exit 1; }
# a run under `make check-612` of old, or by hand with FR_VM_ROOT/FR_MODULE
# for one kernel: each kernel's own are found by vm.sh
unset FR_VM_ROOT FR_MODULE

T0=$(date +%s)
# kernels side by side (the header says why)
JOBS=${FR_CHECK_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "check.sh: FAIL: FR_CHECK_JOBS='$JOBS' is not a count"; exit 1; }
run() {	# name, kernel, vm.sh options..., -- command
	local name=$1 k=$2 rc t=$(date +%s)
	shift 2
	echo "check.sh: $name: kernel $k"
	TEST_KVER=$k scripts/vm.sh "$@" 2>&1 | tee "$LOG/$name.out"
	rc=${PIPESTATUS[0]}
	echo "$rc" > "$LOG/$name.rc"
	echo "check.sh: TIME $name $(( $(date +%s) - t )) s"
	# the kernel that booted is the one asked for
	booted=$(sed -n 's/^vm\.sh: booting \([^ ]*\) .*/\1/p' "$LOG/$name.out" | head -n 1)
	if [[ $booted != "$k" ]]; then
		echo "check.sh: FAIL: the $name run booted '${booted:-nothing}', not $k"
		echo 1 > "$LOG/$name.rc"
	fi
}
# phase NAME FUNCTION: FUNCTION KVER for every kernel, JOBS at a time, each
# into its own file; the first kernel's printed as it runs (tail), each
# other's once all have ended, in kernel order
phase() {
	local i out pids=() tailpid=
	for i in "${!KERNELS[@]}"; do
		out=$LOG/$1.${KERNELS[i]}.out
		: > "$out"
		while (($(jobs -rp | grep -cvx "${tailpid:-0}") >= JOBS)); do
			wait -n
		done
		"$2" "${KERNELS[i]}" > "$out" 2>&1 &
		pids+=($!)
		if ((i == 0)); then
			# follows the file until that kernel's boots end
			tail -n +1 -f --pid=$! "$out" &
			tailpid=$!
		fi
	done
	wait "${pids[@]}" "$tailpid"
	for i in "${!KERNELS[@]}"; do
		((i)) && cat "$LOG/$1.${KERNELS[i]}.out"
	done
}

# secretmem.enable=1: memfd_secret for record_security (off by default in 6.1)
# replay_outside (the outside corpus) takes 6-9 minutes under TCG on a
# loaded 2-core machine: more than run.sh's default 600 s per binary, and
# the whole main run more than vm.sh's default 900 s
boots() {	# KVER: the boots of kernel KVER
	local k=$1
	FR_VM_APPEND="${FR_VM_APPEND:+$FR_VM_APPEND }secretmem.enable=1" \
		run "main-$k" "$k" --timeout "${FR_CHECK_MAIN_TIMEOUT:-2700}" run -- \
		env FR_TEST_TIMEOUT="${FR_TEST_TIMEOUT:-900}" \
		FR_TEST_EXCLUDE="$SERIAL replay_portable portable_outside bounds replay_gdbserver" FR_PORT_DIR="$PORT/$k" tests/run.sh
	# shellcheck disable=SC2086  # one name per word
	run "serial-$k" "$k" --smp 1 run -- tests/run.sh $SERIAL
	run "yama-$k" "$k" run -- env FR_YAMA3=1 tests/run.sh record_security
	# shellcheck disable=SC2086  # one name per word
	FR_VM_CLOCK=tsc FR_VM_ICOUNT=1 run "tsc-$k" "$k" run -- tests/run.sh $TSC_TESTS
}
cross() {	# KVER: the checkpoints recorded on each other kernel, replayed on KVER
	local k=$1 o
	for o in "${KERNELS[@]}"; do
		[[ $o == "$k" ]] && continue
		run "cross-$o-on-$k" "$k" run -- env FR_PORT_DIR="$PORT/$o" tests/run.sh replay_portable
	done
}
phase boots boots
# every main boot has exported its checkpoints
((${#KERNELS[@]} > 1)) && phase cross cross
# on this machine: no VM, no module (bounds: userspace only, and minutes of
# emulated CPU that the main run's time limit cannot spare)
for k in "${KERNELS[@]}"; do
	FR_PORT_DIR=$PORT/$k tests/run.sh replay_portable portable_outside 2>&1 | tee "$LOG/portable-$k.out"
	echo "${PIPESTATUS[0]}" > "$LOG/portable-$k.rc"
done
tests/run.sh bounds replay_gdbserver 2>&1 | tee "$LOG/bounds.out"
echo "${PIPESTATUS[0]}" > "$LOG/bounds.rc"

# the sums: per kernel, the host part, the whole
status=0
names=()
for k in "${KERNELS[@]}"; do
	mine=("main-$k" "serial-$k" "yama-$k" "tsc-$k" "portable-$k")
	for o in "${KERNELS[@]}"; do
		[[ $o != "$k" ]] && mine+=("cross-$o-on-$k")
	done
	names+=("${mine[@]}")
	scripts/sum-results.sh "$LOG" "${mine[@]}" > "$LOG/sum-$k.out" || status=1
	grep -v '^[0-9]* passed, [0-9]* failed$' "$LOG/sum-$k.out"
	echo "kernel $k: $(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOG/sum-$k.out")"
done
scripts/sum-results.sh "$LOG" bounds > "$LOG/sum-host.out" || status=1
grep -v '^[0-9]* passed, [0-9]* failed$' "$LOG/sum-host.out"
echo "host: $(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOG/sum-host.out")"
names+=(bounds)
scripts/sum-results.sh "$LOG" "${names[@]}" > "$LOG/sum.out" || status=1
echo "check.sh: TIME all $(( $(date +%s) - T0 )) s"
grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOG/sum.out"
exit $status
}
