#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# stress.sh - the stress boot of `make check-debug` (issue 24): in the test
# VM, module loaded, as root; meant for the debug kernel, runs on any.
#
#  1. threads: tests/progs/threads_sc with 64 threads recorded for
#     FR_STRESS_TIME seconds (default 60) while `flightrec dump` runs every
#     100 ms, a second program is registered and unregistered over and over,
#     and ring_mb drops to 16 in the middle and comes back;
#  2. vmas: tests/progs/many_vmas with 60,000 VMAs recorded (`flightrec
#     record --at-exit`) across interval boundaries, its checkpoint written;
#  3. fork bomb: tests/progs/fork_bomb (4^4 leaves, 340 processes) under a
#     registered parent with ring_mb=8: the recorder's bytes, sampled every
#     100 ms, never pass the cap by more than one interval's maps and
#     contexts (1 MiB).
# Each ends with no process registered, the recorder's bytes back to 0
# (everything it charged was uncharged: "all bytes accounted") and no new
# report in the kernel log (scripts/kcheck.sh).
#
# TAP; the last line is "N passed, N failed".
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
FR=$TOP/user/flightrec
PROGS=$HERE/bin/progs
KCHECK=$TOP/scripts/kcheck.sh
STATUS=/proc/flightrec/status
PARAM=/sys/module/flightrec/parameters
TIME=${FR_STRESS_TIME:-60}

passed=0 failed=0 n=0
ok() { n=$((n + 1)); passed=$((passed + 1)); echo "ok $n $*"; }
notok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $*"; }
diag() { sed 's/^/# /'; }

echo "TAP version 13"
[[ -r $STATUS ]] || { echo "1..1"; echo "not ok 1 the module is not loaded"; echo "0 passed, 1 failed"; exit 1; }
echo "1..3"
ring0=$(cat "$PARAM/ring_mb")
work=$(mktemp -d /tmp/fr-stress.XXXXXX)
cd "$work" || exit 1
trap 'echo "$ring0" >"$PARAM/ring_mb"; kill $(jobs -p) 2>/dev/null; rm -rf "$work" "$KSTATE"' EXIT

KSTATE=$(mktemp)
bash "$KCHECK" news "$KSTATE" >/dev/null
# Sets news to the problem lines the kernel log gained since the last call.
kernel_news() {
	! news=$(bash "$KCHECK" news "$KSTATE")
}
field() {	# field NAME: the number after NAME in the status's global lines
	awk -v f="$1" '$1 == f { print $2; exit }' "$STATUS"
}
# Waits (30 s at most) for no process registered and bytes 0; why says not.
settled() {
	local i p b
	for i in $(seq 300); do
		p=$(field processes)
		b=$(field bytes)
		[[ $p == 0 && $b == 0 ]] && return 0
		sleep 0.1
	done
	why="30 s after the end: processes $p, bytes $b"
	return 1
}
# verdict NAME PROBLEMS: one TAP line
verdict() {
	local name=$1 probs=$2
	settled || probs+="$why"$'\n'
	kernel_news && probs+="the kernel log has new reports:"$'\n'"$news"$'\n'
	if [[ -n $probs ]]; then
		notok "$name"
		printf '%s' "$probs" | diag
		diag <"$STATUS"
	else
		ok "$name"
	fi
}

# ---- 1. 64 threads, dumps every 100 ms, registrations, ring_mb ----
probs=
"$PROGS/threads_sc" 64 100000000 &
big=$!
"$FR" register "$big" >reg.out 2>&1 || probs+="register the 64 threads: $(cat reg.out)"$'\n'
dumps=0 dfail=0 regs=0 rfail=0
(
	i=0
	while sleep 0.1; do
		i=$((i + 1))
		# ahead of the 64 busy threads, or a dump waits for the CPU
		nice -n -15 "$FR" dump "$big" -o "d$i" >"d$i.out" 2>&1 &
		echo $! >dump.pid
		if wait $!; then
			echo ok
		else
			echo "fail $(head -c 200 "d$i.out")"
		fi
		rm -rf "d$i" "d$i.out"
	done
) >dumps.log &
dumper=$!
(
	while :; do
		"$PROGS/bench_loop" 1000000000 >/dev/null &
		p=$!
		echo "$p" >reg.pid
		if nice -n -15 "$FR" register "$p" >r.out 2>&1 && sleep 0.2 &&
		   nice -n -15 "$FR" unregister "$p" >u.out 2>&1; then
			echo ok
		else
			echo "fail $(cat r.out u.out 2>/dev/null | head -c 200)"
		fi
		kill "$p"
		wait "$p" 2>/dev/null
	done
) >regs.log &
reger=$!
sleep $((TIME / 2))
echo 16 >"$PARAM/ring_mb" || probs+="ring_mb=16 refused"$'\n'
sleep $((TIME / 4))
echo "$ring0" >"$PARAM/ring_mb"
sleep $((TIME - TIME / 2 - TIME / 4))
kill "$dumper" "$reger"
wait "$dumper" "$reger" 2>/dev/null
# the dump under way when the loop was stopped ends by itself
while kill -0 "$(cat dump.pid)" 2>/dev/null; do sleep 0.1; done
kill "$big"
wait "$big" 2>/dev/null
kill "$(cat reg.pid)" 2>/dev/null
dumps=$(grep -c '^ok' dumps.log)
dfail=$(grep -c '^fail' dumps.log)
regs=$(grep -c '^ok' regs.log)
rfail=$(grep -c '^fail' regs.log)
((dumps > 0)) || probs+="no dump succeeded"$'\n'
((dfail == 0)) || probs+="$dfail dumps failed: $(grep -m3 '^fail' dumps.log)"$'\n'
((regs > 0)) || probs+="no registration cycle succeeded"$'\n'
((rfail == 0)) || probs+="$rfail registration cycles failed: $(grep -m3 '^fail' regs.log)"$'\n'
echo "# threads: ${TIME}s, $dumps dumps, $regs register/unregister cycles"
verdict "64 threads, dumps every 100 ms, registrations, ring_mb 16 and back, ${TIME}s" "$probs"

# ---- 2. 60,000 VMAs ----
probs=
t0=$SECONDS
"$FR" record -o vmas --at-exit --interval-ms 200 -- "$PROGS/many_vmas" 60000 10 >vmas.out 2>&1
rc=$?
((rc == 0)) || probs+="record many_vmas: rc $rc: $(tail -c 400 vmas.out)"$'\n'
ck=$(ls vmas/*.frc 2>/dev/null | head -n 1)
[[ -n $ck ]] || ck=$(find vmas -type f 2>/dev/null | head -n 1)
if [[ -z $ck ]]; then
	probs+="no checkpoint written in vmas/"$'\n'
elif ! "$FR" info "$ck" >info.out 2>&1; then
	probs+="flightrec info $ck: $(head -c 300 info.out)"$'\n'
fi
echo "# vmas: $((SECONDS - t0))s, checkpoint $(du -h "${ck:-/dev/null}" 2>/dev/null | cut -f1)"
rm -rf vmas
verdict "a process with 60,000 VMAs recorded and dumped" "$probs"

# ---- 3. fork bomb under a registered parent, ring_mb=8 ----
probs=
echo 8 >"$PARAM/ring_mb"
cap=$((8 << 20))
"$FR" record -o bomb -- "$PROGS/fork_bomb" 4 4 200 >bomb.out 2>&1 &
rec=$!
max=0
while kill -0 "$rec" 2>/dev/null; do
	b=$(field bytes)
	((b > max)) && max=$b
	sleep 0.1
done
wait "$rec"
rc=$?
echo "$ring0" >"$PARAM/ring_mb"
((rc == 0)) || probs+="fork_bomb recorded: rc $rc: $(tail -c 400 bomb.out)"$'\n'
((max <= cap + (1 << 20))) || probs+="bytes reached $max, the cap is $cap"$'\n'
echo "# fork bomb: 340 processes, bytes at most $max of $cap"
rm -rf bomb
verdict "a fork bomb (340 processes) under a registered parent stays under ring_mb=8" "$probs"

echo "$passed passed, $failed failed"
((failed == 0))
