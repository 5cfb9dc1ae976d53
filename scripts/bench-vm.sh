#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-vm.sh - flightrec's benchmarks, run inside the test VM by `make bench`
# (scripts/vm.sh loads the module first).  Every figure is a ratio against a
# baseline measured in the same run: never an absolute time, never a pass/fail.
# The guest runs under software emulation here, so absolute times are 5-8x
# those of real hardware; the ratios are what to compare.
#
#   bench-vm.sh [SECTION...]     sections: unreg dd gzip intervals boundary
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FR=$TOP/user/flightrec
PROGS=$TOP/tests/bin/progs
W=$(mktemp -d /tmp/flightrec-bench.XXXXXX)
REPS=${FR_BENCH_REPS:-5}
MODULE=${FR_MODULE:-$TOP/kernel/flightrec.ko}
trap 'rm -rf "$W"' EXIT

say() { printf '%s\n' "$*"; }
now() { date +%s%N; }
# median of the numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
# wall nanoseconds of a command, its output discarded
timed() { local t0 t1; t0=$(now); "$@" >/dev/null 2>&1; t1=$(now); echo $((t1 - t0)); }
loaded() { [ -d /sys/module/flightrec ]; }
# the kernel module's global accounting, in bytes
ring_bytes() { awk '/^bytes /{print $2}' /proc/flightrec/status; }

sections=${*:-unreg dd gzip intervals boundary}

# ---------------------------------------------------------------------------
# (issue 3 a) a process that is not registered, the module loaded with another
# process registered, against the module not loaded: getpid + read loop.
bench_unreg() {
	local n=200000 i base=() with=() sleeper
	say "== unregistered process: getpid+read loop, $n iterations, median of $REPS"
	for ((i = 0; i < REPS; i++)); do
		rmmod flightrec || return 1
		base+=("$("$PROGS/bench_loop" $n)")
		insmod "$MODULE" || return 1
		sleep 1000 &
		sleeper=$!
		"$FR" register $sleeper >/dev/null || return 1
		with+=("$("$PROGS/bench_loop" $n)")
		kill $sleeper; wait $sleeper 2>/dev/null
	done
	local b w
	b=$(printf '%s\n' "${base[@]}" | median)
	w=$(printf '%s\n' "${with[@]}" | median)
	say "  module not loaded:                 $b ns/iteration"
	say "  loaded, another process recorded: $w ns/iteration"
	say "  ratio: $(ratio "$w" "$b")   (goal <= 1.02)"
}

# Median wall time of CMD alone and of CMD under `flightrec record`, and
# their ratio.  $1: what it is, $2: the goal line, the rest: the command.
compare_recorded() {
	local title=$1 goal=$2 i base=() rec=() b r
	shift 2
	say "== $title, median of $REPS"
	for ((i = 0; i < REPS; i++)); do
		base+=("$(timed "$@")")
		rec+=("$(timed "$FR" record -o "$W/rec" -- "$@")")
	done
	b=$(printf '%s\n' "${base[@]}" | median)
	r=$(printf '%s\n' "${rec[@]}" | median)
	say "  native:   $((b / 1000000)) ms"
	say "  recorded: $((r / 1000000)) ms"
	say "  ratio: $(ratio "$r" "$b")   ($goal)"
}

# (issue 3 b) dd bs=1: about 200k syscalls
bench_dd() {
	compare_recorded "dd if=/dev/zero of=/dev/null bs=1 count=100000 (200k syscalls)" \
		"goal <= 1.5; strace -f recording buffers: ~250" \
		dd if=/dev/zero of=/dev/null bs=1 count=100000
}

make_gz() {
	[ -f "$W/data.gz" ] && return
	# text that compresses about as well as source code: 24 MB of gzip
	seq 1 9000000 | awk '{print $1, $1 * 7 % 1000, "flightrec"}' | gzip -6 > "$W/data.gz"
}

# (issue 3 c) gzip -dc of a 24 MB file, default interval
bench_gzip() {
	make_gz
	compare_recorded "gzip -dc of a $(($(stat -c %s "$W/data.gz") >> 20)) MB file" \
		"goal <= 1.05; strace: ~10" gzip -dc "$W/data.gz"
}

# (issue 4 b, c) bc pi-2000 and gzip -dc at several interval lengths; the
# kernel memory per recorded interval from the module's own accounting
bench_intervals() {
	local ms i b r peak prog
	make_gz
	for prog in bc gzip; do
		local cmd
		if [ $prog = bc ]; then
			cmd=(sh -c 'echo "scale=2000; 4*a(1)" | bc -l')
		else
			cmd=(gzip -dc "$W/data.gz")
		fi
		local base=()
		for ((i = 0; i < REPS; i++)); do
			base+=("$(timed "${cmd[@]}")")
		done
		b=$(printf '%s\n' "${base[@]}" | median)
		say "== $prog: native $((b / 1000000)) ms (median of $REPS)"
		for ms in 125 250 1000 4000; do
			local rec=() mem=()
			for ((i = 0; i < REPS; i++)); do
				rec+=("$(timed "$FR" record -o "$W/iv" --interval-ms $ms --keep 8 -- "${cmd[@]}")")
			done
			r=$(printf '%s\n' "${rec[@]}" | median)
			# memory: sample the ring while one run goes on
			"$FR" record -o "$W/iv" --interval-ms $ms --keep 8 -- "${cmd[@]}" >/dev/null 2>&1 &
			local rp=$! max=0 cur nint=1 n
			while kill -0 $rp 2>/dev/null; do
				cur=$(ring_bytes)
				n=$(awk '/^pid /{for (i = 1; i < NF; i++) if ($i == "intervals") print $(i + 1)}' /proc/flightrec/status | sort -n | tail -1)
				# the closed intervals and the open one share the bytes
				if [ "${cur:-0}" -gt "$max" ]; then
					max=$cur
					nint=$((${n:-0} + 1))
				fi
				sleep 0.05
			done
			wait $rp
			say "  interval ${ms} ms: recorded $((r / 1000000)) ms, ratio $(ratio "$r" "$b"), peak ring $((max >> 10)) KiB over $nint intervals (~$(( max / nint >> 10 )) KiB each)"
		done
	done
	say "  (goal at 125 ms: <= 1.05; the seed's prototype measured 1.055 and 1.06)"
}

# (issue 4 a) the boundary's page walk against resident size, and a userspace
# scan of /proc/PID/pagemap of the same process
bench_boundary() {
	local mb pid walk scan
	say "== boundary cost against resident size (interval 100 ms)"
	say "  resident    walk/boundary   pagemap scan   ratio"
	for mb in 16 64 256 1024; do
		coproc MB { exec "$PROGS/mem_big" $mb; }
		pid=$MB_PID
		read -r _ <&"${MB[0]}"
		"$FR" register "$pid" --interval-ms 100 >/dev/null
		sleep 2
		walk=$(awk -v p="$pid" '$1 == "pid" && $2 == p {for (i = 1; i < NF; i++) if ($i == "boundary_ns_avg") print $(i + 1)}' /proc/flightrec/status)
		scan=$("$PROGS/pagemap_scan" "$pid" | awk '{print $1}')
		kill "$pid"; wait "$pid" 2>/dev/null
		say "  $(printf '%5d MiB  %10s ns  %12s ns   %s' $mb "${walk:-?}" "$scan" "$( [ -n "${walk:-}" ] && ratio "$walk" "$scan" || echo '?')")"
	done
}

loaded || { say "bench-vm.sh: the flightrec module is not loaded"; exit 1; }
for s in $sections; do
	"bench_$s" || say "bench-vm.sh: section $s failed"
done
loaded || insmod "$MODULE"
