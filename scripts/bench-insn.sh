#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-insn.sh - instructions per syscall of `dd bs=1` (issue 3 b), native
# and recorded, counted by the TCG plugin of scripts/insnprof.sh: the one
# figure of `make bench` that does not move from run to run.  Timing under
# emulation moves by 5-10 % between runs and boots (docs/testing.md), more
# than most changes to the syscall path are worth.
#
# Four boots: native and recorded, each at two sizes, counted between two
# marker instructions around the measured run (scripts/insnprof/mark.c); the
# difference of the two sizes leaves out all else both runs share.  In every boot
# a warm-up run of the same command goes first, so that the measured run
# finds the record pools filled, as a process recording for longer than
# its ring's window does (the first run after the module loads clears every
# new page it gets: docs/recording.md).
#
# Then a process that is not recorded (issue 3 a): the getpid+read loop of
# tests/progs/bench_loop, with the module not loaded and with it loaded and
# another process registered; everything the kernel runs meanwhile on
# either CPU counts (the module's periodic work included).
#
# Then the threads of issue 28, item 3 (tests/progs/bench_threads at 2, 8
# and 32 threads), native and recorded, between the markers it runs itself.
#
# Then the servers of issue 28, item 1 (scripts/insnprof-server.sh),
# natively and recorded from their start: instructions per request.
#
# Then bc computing pi to 2000 digits and gzip -dc of a 24 MB file (issue 3
# c, issue 4 b), whole, native and recorded with 125 ms intervals: the
# instructions recording adds to a program that makes few syscalls, its
# boundaries, write faults and page copies included (the markers run inside
# the recorded process: the checkpoint written at its exit is left out).
# No warm-up here, as in the timed runs of bench-vm.sh: the ring's first
# fill clears every new page (clear_page_erms, which the emulator runs a
# byte per step and counts as such; gzip's 24 MB of read data).  What
# that leaves of the time ratio is the emulator's: a write fault, a TLB
# flush, cost it far more than their instructions.
#
#   bench-insn.sh            FR_BENCH_INSN_LO / _HI: the two dd counts;
#                            FR_BENCH_INSN_PROGS: "bc gzip", or "" for none;
#                            FR_BENCH_INSN_UNREG=0: leave the unregistered loop out;
#                            FR_BENCH_INSN_CLOCK=0: leave the vDSO clock loop out;
#                            FR_BENCH_INSN_THREADS: the thread counts of
#                            bench_threads ("2 8 32"), or "" for none;
#                            FR_BENCH_INSN_SERVERS: "redis memcached nginx"
#                            (scripts/bench-deps.sh installs them), or "";
#                            FR_BENCH_CLOCK=hpet: the emulated HPET as the guest's
#                            clock (default tsc, as `make bench`: docs/testing.md)
# The whole script is one { } group, which bash reads to its end before it
# runs any of it: a script edited while a run of it lasts (an hour-long
# debug boot) no longer has its running copy read the new text midway.
{
set -euo pipefail
export FR_VM_CLOCK=${FR_BENCH_CLOCK:-tsc}

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$TOP/build/bench-insn
LO=${FR_BENCH_INSN_LO:-50000}
HI=${FR_BENCH_INSN_HI:-150000}
MARK=$TOP/build/insnprof/mark	# built by insnprof.sh
mkdir -p "$OUT"
(( HI > LO )) || { echo "bench-insn.sh: FR_BENCH_INSN_HI must exceed _LO" >&2; exit 1; }

count() {	# "kernel user": the instructions of run $1
	python3 "$TOP/scripts/insnprof/report.py" --totals "$1"
}
dd_cmd() { echo "dd if=/dev/zero of=/dev/null bs=1 count=$1"; }
rec_cmd() { echo "$TOP/user/flightrec record -o /tmp/fr-insn -- $(dd_cmd "$1")"; }
# one counted boot: $1 its output prefix, $2 what runs (for an error), the
# rest the command; FR_NOMODULE and the like from the caller's environment
insn_boot() {
	local out=$1 what=$2
	shift 2
	FR_VM_DEBUG=0 "$TOP/scripts/insnprof.sh" "$out" -- "$@" > "$out.log" 2>&1 ||
		{ echo "bench-insn.sh: $what failed:" >&2; tail -5 "$out.log" >&2; exit 1; }
}

echo "== instructions per call of dd bs=1 (TCG plugin count, warm record pools; guest clock: $FR_VM_CLOCK)"
for mode in nat rec; do
	for n in $LO $HI; do
		if [[ $mode == rec ]]; then
			cmd=$(rec_cmd "$n") warm=$(rec_cmd "$HI")
		else
			cmd=$(dd_cmd "$n") warm=$(dd_cmd "$HI")
		fi
		insn_boot "$OUT/$mode-$n" "the $mode run of $n" \
			bash -c "$warm >/dev/null 2>&1; rm -rf /tmp/fr-insn; $MARK start; $cmd >/dev/null 2>&1; $MARK stop"
	done
done
python3 "$TOP/scripts/insnprof/report.py" -n 12 --calls $((2 * (HI - LO))) \
	"$OUT/rec-$HI" "$OUT/rec-$LO" "$OUT/nat-$HI" "$OUT/nat-$LO"
echo "  (goal of issue 3 b, by time: <= 1.5)"

if [[ ${FR_BENCH_INSN_UNREG:-1} != 0 ]]; then
	# bench_loop marks its loop itself; at two sizes in each setting, whose
	# difference leaves out what both share
	for n in $LO $HI; do
		loop="$TOP/tests/bin/progs/bench_loop $n"
		FR_NOMODULE=1 insn_boot "$OUT/unreg-nomod-$n" "the loop without the module" \
			bash -c "sleep 1000 & $loop >/dev/null; kill \$!"
		insn_boot "$OUT/unreg-mod-$n" "the loop with the module" \
			bash -c "sleep 1000 & $TOP/user/flightrec register \$! >/dev/null || exit 1; \
				 $loop >/dev/null; kill \$!"
	done
	echo "== not recorded: instructions per iteration of the getpid+read loop (two calls);"
	echo "   everything the guest ran meanwhile counts, a few instructions of noise"
	python3 "$TOP/scripts/insnprof/report.py" -n 6 --calls $((HI - LO)) \
		--labels "loaded, another process recorded,module not loaded" \
		"$OUT/unreg-mod-$HI" "$OUT/unreg-mod-$LO" "$OUT/unreg-nomod-$HI" "$OUT/unreg-nomod-$LO"
	echo "  (goal of issue 3 a, by time: <= 1.02)"
fi

if [[ ${FR_BENCH_INSN_CLOCK:-1} != 0 ]]; then
	# the vDSO's clock_gettime, native and recorded (bench_loop marks the
	# measured loop itself, after its warm-up: a registered program's vDSO
	# is patched at its first boundary).  A recorded dd first, as above:
	# the record pools filled.
	warm="$(rec_cmd "$HI") >/dev/null 2>&1; rm -rf /tmp/fr-insn"
	for n in $LO $HI; do
		loop="$TOP/tests/bin/progs/bench_loop $n clock"
		insn_boot "$OUT/clock-nat-$n" "the native clock loop" bash -c "$loop >/dev/null"
		insn_boot "$OUT/clock-rec-$n" "the recorded clock loop" \
			bash -c "$warm; $TOP/user/flightrec record -o /tmp/fr-insn -- $loop >/dev/null"
	done
	echo "== instructions per clock_gettime(CLOCK_MONOTONIC) through the vDSO"
	echo "   (recorded: the patched vDSO's syscall; guest clock: $FR_VM_CLOCK)"
	python3 "$TOP/scripts/insnprof/report.py" -n 8 --calls $((HI - LO)) \
		"$OUT/clock-rec-$HI" "$OUT/clock-rec-$LO" "$OUT/clock-nat-$HI" "$OUT/clock-nat-$LO"
fi

if [[ -n ${FR_BENCH_INSN_THREADS-2 8 32} ]]; then
	# issue 28, item 3: tests/progs/bench_threads (THREADS threads, each a
	# getpid + 64-byte pipe write and read per round; 65,536 rounds in all
	# at every count), native and recorded, counted between the markers
	# the program runs around its loops: the instructions the two CPUs ran
	# meanwhile, the module's boundaries included.  A recorded run of the
	# same command first in each boot: the record pools filled.
	echo "== threads: instructions per round (getpid + 64-byte pipe write and read),"
	echo "   65536 rounds in all at each count, warm record pools"
	echo "  threads   native/round   recorded/round   ratio"
	for nt in ${FR_BENCH_INSN_THREADS-2 8 32}; do
		thr="$TOP/tests/bin/progs/bench_threads $nt $((65536 / nt))"
		warm="$TOP/user/flightrec record -o /tmp/fr-insn -- $thr >/dev/null 2>&1; rm -rf /tmp/fr-insn"
		insn_boot "$OUT/thr-nat-$nt" "the native threads run ($nt)" \
			bash -c "$thr >/dev/null"
		insn_boot "$OUT/thr-rec-$nt" "the recorded threads run ($nt)" \
			bash -c "$warm; $TOP/user/flightrec record -o /tmp/fr-insn -- $thr >/dev/null"
		read -r nk nu < <(count "$OUT/thr-nat-$nt")
		read -r rk ru < <(count "$OUT/thr-rec-$nt")
		# rounds in all: 65536 where the count divides it
		awk -v t=$nt -v n=$((nk + nu)) -v r=$((rk + ru)) -v k=$((65536 / nt * nt)) 'BEGIN {
			printf "  %7d   %12.1f   %14.1f   %.4f\n", t, n / k, r / k, r / n }'
	done
	echo "  (goal of issue 28, item 3, by time: <= 1.3 at every count)"
fi

if [[ -n ${FR_BENCH_INSN_SERVERS-redis memcached nginx} ]]; then
	# issue 28, item 1, counted: each server natively and under
	# `flightrec record` from its start, loaded on loopback for a warm-up
	# and then between the markers (scripts/insnprof-server.sh: redis
	# 10,000 redis-benchmark GETs of 20 clients, memcached 6,000 mc_load
	# requests of 1 KiB values on 20 connections, nginx 3,000 `ab -k -c
	# 20` requests of a 4 KiB file).  Everything both CPUs ran meanwhile
	# counts, the load generator's instructions too: the ratio is of
	# instructions, not of throughput.  It moves less than the timed
	# figures, but with the host's load: intervals end by time (250 ms),
	# so a guest slowed by other work has more boundaries, and more page
	# copies, per request.  Compare modules on a quiet host.
	echo "== servers: instructions per request (kernel and user, the load generator's"
	echo "   included), native and recorded from the server's start, after a warm-up"
	echo "  server      requests   native/req   recorded/req   ratio   kernel added/req"
	for srv in ${FR_BENCH_INSN_SERVERS-redis memcached nginx}; do
		case $srv in
		redis) nreq=10000 ;;
		memcached) nreq=6000 ;;
		nginx) nreq=3000 ;;
		*) echo "bench-insn.sh: no server '$srv' (redis, memcached, nginx)" >&2; exit 1 ;;
		esac
		for mode in native record; do
			insn_boot "$OUT/srv-$mode-$srv" "$srv ($mode)" \
				"$TOP/scripts/insnprof-server.sh" "$srv" "$mode"
		done
		read -r nk nu < <(count "$OUT/srv-native-$srv")
		read -r rk ru < <(count "$OUT/srv-record-$srv")
		awk -v s="$srv" -v q=$nreq -v nk="$nk" -v nu="$nu" -v rk="$rk" -v ru="$ru" 'BEGIN {
			printf "  %-9s %9d   %10.0f   %12.0f   %.4f   %16.0f\n", s, q,
			       (nk + nu) / q, (rk + ru) / q, (rk + ru) / (nk + nu), (rk - nk) / q }'
	done
	echo "  (goal of issue 28, item 1, by time: throughput >= 0.97 of native)"
fi

# one boot: PROG whole, between the markers; $1 the output prefix, the rest
# "native" or the flightrec record options
prog_run() {
	local out=$1 how=$2 body
	case $prog in
	bc) body="echo 'scale=2000; 4*a(1)' | bc -l" ;;
	gzip) body="gzip -dc $OUT/data.gz" ;;
	*) echo "bench-insn.sh: no program '$prog'" >&2; exit 1 ;;
	esac
	body="$MARK start; $body >/dev/null; $MARK stop"
	if [[ $how == native ]]; then
		set -- sh -c "$body"
	else
		set -- "$TOP/user/flightrec" record -o /tmp/fr-insn --interval-ms 125 \
			--keep 8 -- sh -c "$body"
	fi
	insn_boot "$out" "$prog ($how)" "$@"
}
for prog in ${FR_BENCH_INSN_PROGS-bc gzip}; do
	if [[ $prog == gzip && ! -s $OUT/data.gz ]]; then
		# as bench-vm.sh makes it: text that compresses like source code
		seq 1 9000000 | awk '{print $1, $1 * 7 % 1000, "flightrec"}' |
			gzip -6 > "$OUT/data.gz"
	fi
	prog_run "$OUT/$prog-nat" native
	prog_run "$OUT/$prog-rec" recorded
	read -r nk nu < <(count "$OUT/$prog-nat")
	read -r rk ru < <(count "$OUT/$prog-rec")
	awk -v p=$prog -v nk=$nk -v nu=$nu -v rk=$rk -v ru=$ru 'BEGIN {
		printf "== %s, whole, 125 ms intervals: native %.3f G instructions (kernel %.1f M),\n", p, (nk + nu) / 1e9, nk / 1e6
		printf "   recorded %.3f G (kernel %.1f M): ratio %.4f\n", (rk + ru) / 1e9, rk / 1e6, (rk + ru) / (nk + nu)
	}'
done
[[ -z ${FR_BENCH_INSN_PROGS-bc gzip} ]] || echo "  (goal of issue 4 b at 125 ms and of issue 3 c, by time: <= 1.05)"
exit
}
