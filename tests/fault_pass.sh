#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fault_pass.sh - the fault-injection pass of `make check-debug`: run in the
# test VM on the debug kernel (scripts/check-debug.sh), as root.
#
# For each fault kind (failslab: kmalloc and kmem_cache_alloc fail;
# fail_page_alloc: page allocations fail), with the task filter
# (/proc/PID/make-it-fail, inherited by children), so that only the chosen
# processes' allocations fail - in the kernel too, the module's included:
#   - each recording test binary (FR_FAULT_TESTS) runs with faults armed for
#     it and every process it starts: the recorded programs, and its own
#     netlink requests.  Its cases may fail (their own fork, mmap, exec fail
#     too); what must hold is that it ends (a binary still running after
#     FR_FAULT_TIME seconds is killed, and every process of it must then be
#     gone within 30 s: one stuck in the kernel is a hang) and that the
#     kernel log stays clean (scripts/kcheck.sh: no oops, KASAN, lockdep,
#     warning);
#   - the flightrec command (`record`, `list`, `version`) runs with faults
#     armed: it exits 0, or non-zero with a message on stderr; never killed
#     by a signal;
#   - tests/bin/record_faults (its own faults, on the recorded process
#     alone): every record lost is counted and flags its interval.
# After the pass the VM unloads the module and kmemleak scans for what was
# left unreferenced (scripts/vm-init.sh): no leak on any error path.
#
# TAP; the last line is "N passed, N failed".
# Environment: FR_FAULT_PROBABILITY (percent, default 3), FR_FAULT_TIME
# (seconds per binary, default 60 times FR_TEST_TIMEOUT_SCALE / 4),
# FR_FAULT_TESTS (e.g. "record_syscalls record_threads record_memory
# netlink"; default none, see below), FR_FAULT_CLI=1 (the command line
# tool's part; default 0), FR_FAULT_KINDS (default "failslab fail_page_alloc").
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
BIN=$HERE/bin
KCHECK=$TOP/scripts/kcheck.sh
DBG=/sys/kernel/debug
PROB=${FR_FAULT_PROBABILITY:-3}
SCALE=${FR_TEST_TIMEOUT_SCALE:-1}
TIME=${FR_FAULT_TIME:-$(( (60 * SCALE + 3) / 4 ))}
# Off by default: the test VM's root is the host's over 9p, and failslab on
# a process that reads files from it broke the 9p mount for every process of
# the VM (on 6.1.192-frdebug: "error while loading shared libraries: libc.so.6:
# cannot open shared object file: Invalid argument" from every later exec,
# the run directory no longer writable), so the pass could not report.  Set
# FR_FAULT_TESTS / FR_FAULT_CLI=1 on a rig whose root is not on 9p.
TESTS=${FR_FAULT_TESTS:-}
KINDS=${FR_FAULT_KINDS:-failslab fail_page_alloc}
FR=$TOP/user/flightrec
CLI=${FR_FAULT_CLI:-0}

passed=0
failed=0
n=0
ok() { n=$((n + 1)); passed=$((passed + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $*"; }
diag() { sed 's/^/# /'; }

echo "TAP version 13"
if [[ $(id -u) != 0 ]]; then
	echo "1..0 # SKIP needs root (run it in the VM: scripts/check-debug.sh)"
	echo "0 passed, 0 failed"
	exit 0
fi
mountpoint -q "$DBG" || mount -t debugfs debugfs "$DBG" 2>/dev/null
for k in $KINDS; do
	if [[ ! -d $DBG/$k ]]; then
		echo "1..1"
		echo "not ok 1 $DBG/$k missing: this kernel has no CONFIG_${k^^} (scripts/build-debug-kernel.sh)"
		echo "0 passed, 1 failed"
		exit 1
	fi
done
[[ -d /proc/flightrec ]] || { echo "1..1"; echo "not ok 1 the module is not loaded"; echo "0 passed, 1 failed"; exit 1; }
ntests=0
for t in $TESTS; do [[ -x $BIN/$t ]] && ntests=$((ntests + 1)); done
kinds=($KINDS)
echo "1..$(( ${#kinds[@]} * (ntests + CLI) + 1 ))"
echo "# probability ${PROB}%, ${TIME}s per binary, timeouts x$SCALE"
[[ -n ${TESTS// } || $CLI == 1 ]] ||
	echo "# the whole-binary pass is off (FR_FAULT_TESTS, FR_FAULT_CLI): faults on a process reading the 9p root break the mount for the whole VM"

# arm KIND: every allocation of a make-it-fail task fails with PROB percent.
arm() {
	local d=$DBG/$1
	echo 0 >"$d/probability"
	echo 1 >"$d/interval"
	echo -1 >"$d/times"
	echo 0 >"$d/space"
	echo 0 >"$d/verbose"
	echo Y >"$d/task-filter"
	echo N >"$d/ignore-gfp-wait"
	if [[ $1 == fail_page_alloc ]]; then
		echo N >"$d/ignore-gfp-highmem"
		echo 0 >"$d/min-order"
	fi
	echo "$PROB" >"$d/probability"
}
disarm() {
	echo 0 >"$DBG/$1/probability"
}

KSTATE=$(mktemp)
bash "$KCHECK" news "$KSTATE" >/dev/null
# Sets news to the problem lines the kernel log gained since the last call.
kernel_news() {
	! news=$(bash "$KCHECK" news "$KSTATE")
}

# Runs "$@" with faults armed for it and its children (make-it-fail), at
# most TIME seconds; sets rc, and left to the processes that outlived the kill.
faulted() {
	local pid t=0 wait_rc
	left=
	setsid bash -c 'echo 1 >/proc/self/make-it-fail && exec "$@"' faulted "$@" \
		>"$out" 2>&1 </dev/null &
	pid=$!
	while kill -0 "$pid" 2>/dev/null && ((t < TIME * 10)); do
		sleep 0.1
		t=$((t + 1))
	done
	if kill -0 "$pid" 2>/dev/null; then
		echo "# (still running after ${TIME}s: killed)" >>"$out"
		kill -KILL -- -"$pid" 2>/dev/null
	fi
	wait "$pid"
	wait_rc=$?
	rc=$wait_rc
	# whatever of its session outlives a SIGKILL for 30 s is stuck in the kernel
	for t in $(seq 30); do
		left=$(ps -e -o sid=,pid=,stat=,wchan:32=,args= | awk -v s="$pid" '$1 == s && $3 !~ /^Z/')
		[[ -z $left ]] && return
		kill -KILL -- -"$pid" 2>/dev/null
		sleep 1
	done
}

out=$(mktemp)
trap 'rm -f "$out" "$KSTATE"; for k in $KINDS; do disarm $k 2>/dev/null; done' EXIT
cd "$(mktemp -d /tmp/fr-faults.XXXXXX)" || exit 1
for kind in $KINDS; do
	arm "$kind"
	for t in $TESTS; do
		[[ -x $BIN/$t ]] || continue
		faulted "$BIN/$t"
		name="$kind: $t ends, kernel log clean"
		res=$(grep -cE '^ok ' "$out")/$(grep -cE '^(ok|not ok) ' "$out")
		if [[ -n $left ]]; then
			notok "$name # processes stuck after SIGKILL (a hang)"
			echo "$left" | diag
			for p in $(awk '{print $2}' <<<"$left"); do
				echo "stack of $p:"; cat "/proc/$p/stack" 2>/dev/null
			done | diag
		elif kernel_news; then
			notok "$name # the kernel log has new reports"
			echo "$news" | diag
			tail -n 20 "$out" | diag
		else
			ok "$name # rc $rc, cases passed $res"
		fi
	done

	# the command line tool: a message, never a crash
	[[ $CLI == 1 ]] || { disarm "$kind"; continue; }
	bad=
	for i in $(seq 10); do
		for cmd in "version" "list" "record -o rec$i --at-exit -- $BIN/progs/bench_loop 200"; do
			# shellcheck disable=SC2086  # cmd is words on purpose
			faulted "$FR" $cmd
			if ((rc >= 128)) || { ((rc != 0)) && [[ ! -s $out ]]; } || [[ -n $left ]]; then
				bad+="flightrec $cmd: rc $rc, stderr '$(head -c 300 "$out")' ${left:+stuck: $left}"$'\n'
			fi
		done
	done
	rm -rf rec*
	name="$kind: flightrec fails with a message, never a crash (30 runs)"
	if [[ -n $bad ]]; then
		notok "$name"
		echo -n "$bad" | diag
	elif kernel_news; then
		notok "$name # the kernel log has new reports"
		echo "$news" | diag
	else
		ok "$name"
	fi
	disarm "$kind"
done

# the accounting test arms its own faults (on the recorded process alone)
if [[ -x $BIN/record_faults ]]; then
	FR_REQUIRE_FAULTS=1 timeout -k 10 $((600 * SCALE)) "$BIN/record_faults" >"$out" 2>&1
	rc=$?
	if ((rc == 0)) && ! kernel_news; then
		ok "record_faults: every lost record counted and flagged"
	else
		notok "record_faults: rc $rc"
		diag <"$out"
		[[ -n ${news:-} ]] && echo "$news" | diag
	fi
else
	notok "record_faults: $BIN/record_faults missing (make tests)"
fi
echo "$passed passed, $failed failed"
((failed == 0))
