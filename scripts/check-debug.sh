#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-debug.sh - the test suite on the debug kernel, as `make check-debug`
# runs it (docs/testing.md, "The debug kernel").
#
# 1. scripts/build-debug-kernel.sh: the kernel (KASAN, KFENCE, lockdep,
#    KMEMLEAK, UBSAN, fault injection), built once and cached.
# 2. The module built against it with -g, in build/debug-module (a copy of
#    the sources: kernel/flightrec.ko stays the Debian kernel's).
# 3. The boots of scripts/check.sh, on that kernel, with every test timeout
#    scaled (FR_TEST_TIMEOUT_SCALE, default 4): the whole suite with 2 CPUs,
#    the reload test with one, record_security with Yama scope 3.
# 4. The fault-injection pass (tests/fault_pass.sh) in one more boot, and
#    the stress tests (tests/stress.sh) in another.
# Each boot fails on any report in the kernel log (scripts/kcheck.sh: KASAN,
# lockdep, UBSAN, KFENCE, warnings) and on what kmemleak finds unreferenced
# after the module is unloaded (scripts/vm-init.sh).  The flightrec frames of
# every report are decoded to file:line (scripts/faddr2line against the -g
# module) into build/debug-module/decoded-NAME.txt.
#
# FR_CHECK_DEBUG_ONLY="main serial yama faults stress" picks boots;
# FR_CHECK_DEBUG_JOBS=N runs N boots at a time (default 1).
# FR_CHECK_DEBUG_TESTS="record_memory replay_module" runs only those binaries
# in the main boot (the whole suite there takes about 2 hours on 2 CPUs).
# Prints one line "N passed, N failed" for the test cases; exits non-zero if
# anything failed, a kernel report or a leak included.
# The whole script is one { } group, which bash reads to its end before it
# runs any of it: a script edited while a run of it lasts (an hour-long
# debug boot) no longer has its running copy read the new text midway.
{
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$TOP" || exit 1
ONLY=${FR_CHECK_DEBUG_ONLY:-main serial yama faults stress}
SCALE=${FR_TEST_TIMEOUT_SCALE:-4}
MB=$TOP/build/debug-module

say() { echo "check-debug: $*" >&2; }
die() { echo "check-debug: FAIL: $*" >&2; exit 1; }

t0=$SECONDS
DIR=$(scripts/build-debug-kernel.sh) || die "no debug kernel"
KVER=$(cat "$DIR/kver")
say "kernel $KVER from $DIR (built in $(cat "$DIR/build-time" 2>/dev/null || echo ?)s)"

# The module, from a copy of its sources: Kbuild writes next to them
# (copies that keep their times: an unchanged module is not rebuilt).
mkdir -p "$MB/kernel"
cp -p Kbuild VERSION "$MB/"
cp -pr uapi "$MB/"
cp -p kernel/Kbuild kernel/*.c kernel/*.h "$MB/kernel/"
make -C "$DIR/obj" M="$MB" W=1 KCFLAGS=-g modules >"$MB/build.log" 2>&1 ||
	{ tail -n 30 "$MB/build.log" >&2; die "the module does not build against $KVER"; }
if grep -E 'warning:' "$MB/build.log" >&2; then
	die "the module builds with warnings against $KVER (W=1)"
fi
MODULE=$MB/kernel/flightrec.ko
[[ -x tests/bin/record_syscalls ]] || die "tests not built (make check-build)"

LOG=$MB/logs
mkdir -p "$LOG"
export FR_VM_KERNEL_DIR=$DIR FR_MODULE=$MODULE FR_TEST_TIMEOUT_SCALE=$SCALE
# KASAN checks every slab access already; slub_debug=FZP on top of it makes
# each object KASAN's quarantine frees go through SLUB's poison and padding
# scans, with the node's list_lock held and interrupts off: allocation-heavy
# tests ran 3-4 times slower (the stress boot's fork tree of 85 recorded
# processes: 444-649 s with it, 185 s without) and the scans, not the
# module, caused RCU stall reports.  FR_VM_DEBUG=1 puts it back.
export FR_VM_DEBUG=${FR_VM_DEBUG:-0}
# The VM's own limit, against a hung boot.  The main boot runs the whole
# suite: about 2 hours on 2 host CPUs with nothing beside it, more with
# other boots beside it (FR_CHECK_DEBUG_JOBS=2): at 1500 s x 4 it was
# killed midway (stop 70: 100 minutes in, in replay_outside, with no
# result, unload or kmemleak check).
export FR_VM_TIMEOUT=${FR_VM_TIMEOUT:-$((3600 * SCALE))}
SERIAL=reload

# Decodes the flightrec frames of a boot's console to file:line.
decode() {
	local name=$1 run frames f addrs base a off
	run=$(grep -o 'logs in [^ ]*/' "$LOG/$name.out" | tail -n 1 | sed 's/logs in //')
	[[ -n $run && -f $TOP/$run/console.log ]] || return 0
	frames=$(grep -oE '[A-Za-z0-9_.]+\+0x[0-9a-f]+/0x[0-9a-f]+ \[flightrec\]' \
		"$TOP/$run/console.log" | sed 's/ \[flightrec\]//' | sort -u)
	# kmemleak scans after the unload: the module's frames are bare
	# addresses, decoded against where its .text was
	addrs=
	if [[ -s $TOP/$run/kmemleak.txt && -s $TOP/$run/module.text ]]; then
		base=$(($(cat "$TOP/$run/module.text")))
		for a in $(grep -oE '\[<[0-9a-f]+>\]' "$TOP/$run/kmemleak.txt" | tr -d '[]<>' | sort -u); do
			off=$((0x$a - base))
			((off >= 0 && off < (16 << 20))) && addrs+=" $(printf '0x%x' $off)"
		done
	fi
	[[ -n $frames$addrs ]] || return 0
	{
		echo "# flightrec frames in $run/console.log"
		for f in $frames; do
			"$DIR/src/scripts/faddr2line" "$MODULE" "$f" 2>&1 | sed "s|$MB/||"
		done
		[[ -n $addrs ]] && echo "# flightrec frames in $run/kmemleak.txt (.text offsets)"
		for a in $addrs; do
			echo "$a: $(addr2line -f -i -p -e "$MODULE" -j .text "$a" | sed "s|$MB/||" | tr '\n' ' ')"
		done
	} >"$MB/decoded-$name.txt"
	say "$name: the module's frames decoded in ${MB#"$TOP"/}/decoded-$name.txt"
}

boot() {	# name, vm.sh options..., -- command
	local name=$1 rc
	shift
	scripts/vm.sh "$@" >"$LOG/$name.out" 2>&1
	rc=$?
	echo "$rc" >"$LOG/$name.rc"
	decode "$name"
	say "$name: $(tail -n 1 "$LOG/$name.out") (vm.sh status $rc)"
}

# FR_CHECK_DEBUG_JOBS boots at a time (default 1; each is one qemu thread).
JOBS=${FR_CHECK_DEBUG_JOBS:-1}
run() {
	[[ " $ONLY " == *" $1 "* ]] || return 0
	rm -f "$LOG/$1.out" "$LOG/$1.rc" "$MB/decoded-$1.txt"
	if ((JOBS > 1)); then
		while (($(jobs -rp | wc -l) >= JOBS)); do
			wait -n
		done
		boot "$@" &
	else
		boot "$@"
	fi
}
# record_faults runs in the fault boot; bounds (the tools' memory and CPU
# on crafted files, userspace only) runs on the host in make check, and took
# over 20 minutes of this boot under KASAN
# shellcheck disable=SC2086  # one name per word
run main run -- env FR_TEST_EXCLUDE="$SERIAL replay_portable portable_outside record_faults bounds" tests/run.sh ${FR_CHECK_DEBUG_TESTS:-}
# shellcheck disable=SC2086  # one name per word
run serial --smp 1 run -- tests/run.sh $SERIAL
run yama run -- env FR_YAMA3=1 tests/run.sh record_security
run faults run -- tests/fault_pass.sh
run stress run -- tests/stress.sh
wait
for name in $ONLY; do
	echo "---- $name ($LOG/$name.out) ----"
	cat "$LOG/$name.out"
done

say "$(($SECONDS - t0))s on $KVER (timeouts x$SCALE); logs in ${LOG#"$TOP"/}"
# shellcheck disable=SC2086  # one name per word
scripts/sum-results.sh "$LOG" $ONLY
exit
}
