#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-vm.sh - flightrec's benchmarks, run inside the test VM by `make bench`
# (scripts/vm.sh loads the module first).  Every figure is a ratio against a
# baseline measured in the same run: never an absolute time, never a pass/fail.
# The guest runs under software emulation here, so absolute times are 5-8x
# those of real hardware; the ratios are what to compare.
#
#   bench-vm.sh [SECTION...]     sections: unreg dd clock ddbig gzip intervals boundary
#                                writes replay (replay_start alone) record threads
#                                threads_faults servers (its programs: scripts/bench-deps.sh) reverse
#                                compare (not by default: FR_BENCH_BASE=OTHER/user/flightrec)
# The whole script is one { } group, which bash reads to its end before it
# runs any of it: a script edited while a run of it lasts (an hour-long
# debug boot) no longer has its running copy read the new text midway.
{
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# FR_BENCH_FLIGHTREC: another build of the tool (an older one, to compare in one boot)
FR=${FR_BENCH_FLIGHTREC:-$TOP/user/flightrec}
PROGS=$TOP/tests/bin/progs
W=$(mktemp -d /tmp/flightrec-bench.XXXXXX)
REPS=${FR_BENCH_REPS:-5}
# dd and gzip (issue 3 b, c) are short: more pairs for a steadier median
CMP_REPS=${FR_BENCH_CMP_REPS:-9}
MODULE=${FR_MODULE:-$TOP/kernel/flightrec.ko}
trap 'rm -rf "$W"' EXIT

# A build of the tool (flightrec, its loader/flightrec-loader and, where
# the build has one, its helper flightrec-sites) copied
# into $W/NAME, the guest's tmpfs; prints the copy's path, or the original
# where it has no loader beside it.  The project tree is shared with
# cache=mmap, the host's root with cache=loose: run from there, the same
# binary starts slower from the tree than from a worktree outside it, which
# a comparison of two builds would read as the change's.  From the tmpfs
# both start as from an installed package's disk.
local_copy() {
	local src=$1 name=$2
	if [ -x "$(dirname "$src")/loader/flightrec-loader" ] && mkdir -p "$W/$name/loader" &&
	   cp "$src" "$W/$name/flightrec" &&
	   cp "$(dirname "$src")/loader/flightrec-loader" "$W/$name/loader/"; then
		if [ -x "$(dirname "$src")/flightrec-sites" ]; then
			cp "$(dirname "$src")/flightrec-sites" "$W/$name/"
		fi
		echo "$W/$name/flightrec"
	else
		echo "$src"
	fi
}
FR_SRC=$FR
FR=$(local_copy "$FR" this)

say() { printf '%s\n' "$*"; }
now() { date +%s%N; }
# median of the numbers on stdin
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
# the spread of per-run ratios: "lowest-highest" of rec[i]/base[i], from two
# lists of the same length (the run pairs, native and recorded in turn), the
# noise a ratio of medians is to be read against, and their median
pair_range() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		n = split(a, x, " "); split(b, y, " ")
		for (i = 1; i <= n; i++) {
			r[i] = y[i] / x[i]
			if (i == 1 || r[i] < lo) lo = r[i]
			if (i == 1 || r[i] > hi) hi = r[i]
		}
		# the median ratio of single pairs: slow drift of the host cancels
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && r[j - 1] > r[j]; j--) {
				t = r[j]; r[j] = r[j - 1]; r[j - 1] = t
			}
		m = n % 2 ? r[(n + 1) / 2] : (r[n / 2] + r[n / 2 + 1]) / 2
		printf "%.3f-%.3f, median %.3f", lo, hi, m
	}'
}
# wall nanoseconds of a command, its output discarded
timed() { local t0 t1; t0=$(now); "$@" >/dev/null 2>&1; t1=$(now); echo $((t1 - t0)); }
loaded() { [ -d /sys/module/flightrec ]; }
# the kernel module's global accounting, in bytes
ring_bytes() { awk '/^bytes /{print $2}' /proc/flightrec/status; }
clocksource() { cat /sys/devices/system/clocksource/clocksource0/current_clocksource; }

sections=${*:-unreg dd clock ddbig gzip intervals boundary writes replay record threads threads_faults servers reverse}

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

# The program's own time, from inside: tests/progs/timeit runs it and writes
# the nanoseconds from its fork to its exit to $W/t.  Under `flightrec
# record -- timeit ...` that covers the program recorded from its exec on,
# but not the tool's own start and registration.
TIMEIT=$PROGS/timeit
prog_ns() { cat "$W/t"; }

# CMD alone and under `flightrec record`: the program's own time (timeit) and
# the wall time of the whole command, flightrec's start included; medians
# and ratios.  $1: what it is, $2: the goal line, the rest: the command.
compare_recorded() {
	local title=$1 goal=$2 i base=() rec=() wbase=() wrec=() b r wb wr
	shift 2
	say "== $title, median of $CMP_REPS"
	for ((i = 0; i < CMP_REPS; i++)); do
		wbase+=("$(timed "$@")")
		"$TIMEIT" "$W/t" "$@" >/dev/null 2>&1
		base+=("$(prog_ns)")
		wrec+=("$(timed "$FR" record -o "$W/rec" -- "$TIMEIT" "$W/t" "$@")")
		rec+=("$(prog_ns)")
	done
	b=$(printf '%s\n' "${base[@]}" | median)
	r=$(printf '%s\n' "${rec[@]}" | median)
	wb=$(printf '%s\n' "${wbase[@]}" | median)
	wr=$(printf '%s\n' "${wrec[@]}" | median)
	say "  the program (timeit, exec to exit):  native $((b / 1000000)) ms, recorded $((r / 1000000)) ms"
	say "  ratio: $(ratio "$r" "$b")   ($goal)"
	say "  run pairs: $(pair_range "${base[*]}" "${rec[*]}")"
	say "  end to end (\`flightrec record\` start and registration included):"
	say "    native $((wb / 1000000)) ms, recorded $((wr / 1000000)) ms, ratio $(ratio "$wr" "$wb")"
}

# (issue 3 b) dd bs=1: about 200k syscalls
bench_dd() {
	compare_recorded "dd if=/dev/zero of=/dev/null bs=1 count=100000 (200k syscalls)" \
		"goal <= 1.5; strace -f recording buffers: ~250" \
		dd if=/dev/zero of=/dev/null bs=1 count=100000
}

# (issue 28) the vDSO's clock_gettime, which servers call around every
# request: in user space natively (with a TSC clocksource), a real syscall,
# recorded, in a registered process (kernel/vdso.c: [vvar] cannot be read
# into a checkpoint).  With the HPET (FR_BENCH_CLOCK=hpet) the vDSO falls
# back to the syscall in both.
bench_clock() {
	local n=200000 i base=() rec=() b r
	say "== clock_gettime(CLOCK_MONOTONIC) through the vDSO, $n calls, median of $REPS (guest clock: $(clocksource))"
	for ((i = 0; i < REPS; i++)); do
		base+=("$("$PROGS/bench_loop" $n clock)")
		rec+=("$("$FR" record -o "$W/rec" -- "$PROGS/bench_loop" $n clock)")
		rm -rf "$W/rec"
	done
	b=$(printf '%s\n' "${base[@]}" | median)
	r=$(printf '%s\n' "${rec[@]}" | median)
	say "  native: $b ns/call, recorded: $r ns/call, ratio $(ratio "$r" "$b")"
}

# (issue 25) big writes: each one's bytes are hashed, up to 64 KiB at entry
# (FR_IN_HASH_MAX, FNV-1a), a longer one whole as it returns (FR_IN_RULE_FULL,
# 8 bytes at a time, in task_work); before, a longer one on its first 64 KiB
bench_ddbig() {
	compare_recorded "dd if=/dev/zero of=/dev/null bs=1M count=300 (each write hashed whole, full rule)" \
		"the hash's cost per MiB written" \
		dd if=/dev/zero of=/dev/null bs=1M count=300
	compare_recorded "dd if=/dev/zero of=/dev/null bs=64k count=4800 (each write hashed whole, FNV-1a)" \
		"the hash's cost per byte written" \
		dd if=/dev/zero of=/dev/null bs=64k count=4800
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

# (issue 4 b, c) bc pi-2000 and gzip -dc at several interval lengths (the
# programs' own time, timeit); the
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
		say "== $prog (the program's own time, timeit; native and recorded runs"
		say "   alternate, medians of $REPS each)"
		for ms in ${FR_BENCH_INTERVALS:-125 250 1000 4000}; do
			local base=() rec=() mem=()
			for ((i = 0; i < REPS; i++)); do
				"$TIMEIT" "$W/t" "${cmd[@]}" >/dev/null 2>&1
				base+=("$(prog_ns)")
				"$FR" record -o "$W/iv" --interval-ms $ms --keep 8 -- \
					"$TIMEIT" "$W/t" "${cmd[@]}" >/dev/null 2>&1
				rec+=("$(prog_ns)")
			done
			b=$(printf '%s\n' "${base[@]}" | median)
			r=$(printf '%s\n' "${rec[@]}" | median)
			# memory: sample the ring while one run goes on
			"$FR" record -o "$W/iv" --interval-ms $ms --keep 8 -- "${cmd[@]}" >/dev/null 2>&1 &
			local rp=$! max=0 cur nint=1 n
			while kill -0 $rp 2>/dev/null; do
				cur=$(ring_bytes)
				n=$(awk '/^pid /{for (i = 1; i < NF; i++) if ($i == "intervals") print $(i + 1)}' /proc/flightrec/status | sort -n | tail -1)
				# the closed intervals and the open one share the bytes;
				# only while the process is recorded (at its exit the
				# ring becomes a frozen dump and its line goes away)
				if [ -n "$n" ] && [ "${cur:-0}" -gt "$max" ]; then
					max=$cur
					nint=$((${n:-0} + 1))
				fi
				sleep 0.05
			done
			wait $rp
			say "  interval ${ms} ms: native $((b / 1000000)) ms, recorded $((r / 1000000)) ms, ratio $(ratio "$r" "$b") (pairs $(pair_range "${base[*]}" "${rec[*]}")), peak ring $((max >> 10)) KiB over $nint intervals (~$(( max / nint >> 10 )) KiB each)"
		done
	done
	say "  (goal at 125 ms: <= 1.05; the seed's prototype measured 1.055 and 1.06)"
}

# (issue 4 a) the boundary's page walk against resident size, and a userspace
# scan of /proc/PID/pagemap of the same process
bench_boundary() {
	local mb pid walk wmax scan rwalk i
	# a status field of pid $1
	pstat() { awk -v p="$1" -v f="$2" '$1 == "pid" && $2 == p {for (i = 1; i < NF; i++) if ($i == f) print $(i + 1)}' /proc/flightrec/status; }
	say "== boundary cost against resident size (interval 100 ms).  walk: the program"
	say "   touches its memory, then a few pages per ms (average boundary; the slowest"
	say "   is the first, which finds every page accessed and writable); all read: the"
	say "   program reads every page over and over, a boundary stores every page read"
	say "   since the last one (all of them when a sweep takes less than the interval)"
	say "   in the interval's page set.  pagemap scan: the"
	say "   fastest of 3 userspace scans of the same process, stopped (the baseline)"
	say "  resident    walk/boundary   pagemap scan   ratio"
	# mem_big ARGS, registered once it is ready, recorded for $1 seconds: sets pid
	run_big() {
		local secs=$1
		shift
		coproc MB { exec "$PROGS/mem_big" "$@"; }
		pid=$MB_PID
		read -r _ <&"${MB[0]}"
		"$FR" register "$pid" --interval-ms 100 >/dev/null
		sleep "$secs"
	}
	# a warm-up, not shown: under TCG the first boundary of a boot would
	# charge the translation of the module's code to the 16 MiB row
	run_big 0.5 16
	kill "$pid"; wait "$pid" 2>/dev/null
	for mb in 16 64 256 1024; do
		run_big 2 $mb
		walk=$(pstat "$pid" boundary_ns_avg)
		wmax=$(pstat "$pid" boundary_ns_max)
		# stopped: the baseline is not slowed by the program's own work
		kill -STOP "$pid"
		scan=$(for i in 1 2 3; do "$PROGS/pagemap_scan" "$pid"; done | awk '{print $1}' | sort -n | head -1)
		kill "$pid"; kill -CONT "$pid"; wait "$pid" 2>/dev/null
		run_big 2 $mb read
		rwalk=$(pstat "$pid" boundary_ns_avg)
		kill "$pid"; wait "$pid" 2>/dev/null
		say "  $(printf '%5d MiB  %10s ns  %12s ns   %s   (slowest %s ns: %s; all read %s ns: %s)' $mb "${walk:-?}" "$scan" "$( [ -n "${walk:-}" ] && ratio "$walk" "$scan" || echo '?')" "${wmax:-?}" "$( [ -n "${wmax:-}" ] && ratio "$wmax" "$scan" || echo '?')" "${rwalk:-?}" "$( [ -n "${rwalk:-}" ] && ratio "$rwalk" "$scan" || echo '?')")"
	done
}

# (issue 4) what a recorded first write to a page in an interval costs (the
# fault, the copy of the page's bytes), against the same write unrecorded
bench_writes() {
	local i n=() r=()
	say "== first write to a page in its interval: 30 rounds x 4096 pages, one"
	say "   round per 50 ms interval, medians of $REPS (ns per page write)"
	for ((i = 0; i < REPS; i++)); do
		n+=("$("$PROGS/page_writes" 30 4096)")
		r+=("$("$FR" record -o "$W/pw" --interval-ms 50 -- "$PROGS/page_writes" 30 4096 2>/dev/null)")
	done
	local bn br
	bn=$(printf '%s
' "${n[@]}" | median)
	br=$(printf '%s
' "${r[@]}" | median)
	say "  native $bn ns, recorded $br ns, ratio $(ratio "$br" "$bn")"
}

# One replay of checkpoint $1 from its first interval that ran whole (the
# second-to-last: the last one ends at the exit or crash): prints "recorded_ms
# load_ms reexec_ms" - the recorded time of the intervals replayed, and the
# loader's own two figures.
replay_times() {
	local f=$1 from rec
	read -r from rec < <("$FR" info --json "$f" | python3 -c '
import json, sys
iv = json.load(sys.stdin)["intervals"]
first = iv[-2] if len(iv) > 1 else iv[0]
print(first["index"], sum(i["end_ns"] - i["start_ns"] for i in iv if i["index"] >= first["index"]) / 1e6)')
	"$FR" replay "$f" --from "$from" --output "$W/rep" --force 2>&1 | awk -v r="$rec" '
		/load .* ms .*re-execute/ {
			for (i = 1; i <= NF; i++) {
				if ($i == "load") l = $(i + 1)
				if ($i == "re-execute") x = $(i + 1)
			}
		}
		END { printf "%.1f %s %s\n", r, l, x }'
}

# (issue 6, 10) load and re-execute time against the recorded interval
# length (the seed's figures 5 and 6): bc and gzip to their exit, and the
# crashing server under a client's load to its crash.
bench_replay() {
	local prog ms f out
	make_gz
	say "== replay: the last whole interval and the end, recorded vs re-executed"
	say "  program   interval  checkpoint   recorded    load   re-execute   re-exec/recorded"
	for prog in bc gzip server; do
		for ms in 125 250 1000 4000; do
			rm -rf "$W/rp"
			mkdir -p "$W/rp"
			case $prog in
			bc)
				"$FR" record -o "$W/rp" --at-exit --interval-ms $ms --keep 2 -- \
					sh -c 'echo "scale=2000; 4*a(1)" | exec bc -l' >/dev/null 2>&1 ;;
			gzip)
				"$FR" record -o "$W/rp" --at-exit --interval-ms $ms --keep 2 -- \
					gzip -dc "$W/data.gz" >/dev/null 2>&1 ;;
			server)
				bench_server $ms ;;
			esac
			f=$(ls -v "$W"/rp/*.flrc 2>/dev/null | tail -1)
			[ -n "$f" ] || { say "  $prog $ms ms: no checkpoint"; continue; }
			read -r rec load x < <(replay_times "$f")
			say "  $(printf '%-8s %6d ms %7d KiB %8s ms %6s ms %9s ms   %s' $prog $ms \
				$(($(stat -c %s "$f") >> 10)) "$rec" "${load:-?}" "${x:-?}" \
				"$( [ -n "${x:-}" ] && ratio "$x" "$rec" || echo '?')")"
		done
	done
	bench_replay_start
}

# (issue 28, item 6) the replay's start: checkpoints of about 1 and 25 MB
# (tests/progs/ckpt_size: incompressible pages, all read in every interval),
# replayed from their first interval; the loader's own figure from
# `flightrec replay`'s start to the first application instruction (load,
# and its decode part: checkpoint read, unpacked, decompressed, the image
# built), the wall time of the whole command (timeit: the tool's start and
# the re-execution included), medians of FR_BENCH_RS_REPS (default 7), and
# the lowest load (under TCG the host's noise only ever adds).  Goal: 50 ms
# and 500 ms.
bench_replay_start() {
	local mb f from i loads=() decs=() walls=() l dec
	local n=${FR_BENCH_RS_REPS:-7}
	say "== replay start: flightrec replay to the first application instruction, medians of $n"
	say "  checkpoint    load (decode)          whole command   lowest load"
	for mb in ${FR_BENCH_CKPT_MB:-1 25}; do
		rm -rf "$W/rs"
		mkdir -p "$W/rs"
		"$FR" record -o "$W/rs" --at-exit --interval-ms 250 --keep 2 -- \
			"$PROGS/ckpt_size" "$mb" 1200 >/dev/null 2>&1
		f=$(ls -v "$W"/rs/*.flrc 2>/dev/null | tail -1)
		[ -n "$f" ] || { say "  $mb MB: no checkpoint"; continue; }
		from=$("$FR" info --json "$f" | python3 -c 'import json, sys; print(json.load(sys.stdin)["intervals"][0]["index"])')
		loads=()
		decs=()
		walls=()
		for ((i = 0; i < n; i++)); do
			read -r l dec < <("$TIMEIT" "$W/t" "$FR" replay "$f" --from "$from" \
				--output "$W/rso" --force 2>&1 | awk '
				/load .* ms .*re-execute/ {
					for (i = 1; i <= NF; i++) {
						if ($i == "load") l = $(i + 1)
						if ($i == "(decode") d = $(i + 1)
					}
				}
				END { print l, d }')
			loads+=("${l:-0}")
			decs+=("${dec:-0}")
			walls+=("$(prog_ns)")
		done
		say "  $(printf '%6d KiB   %8s ms (%8s ms)   %6d ms   %8s ms' $(($(stat -c %s "$f") >> 10)) \
			"$(printf '%s\n' "${loads[@]}" | median)" "$(printf '%s\n' "${decs[@]}" | median)" \
			$(($(printf '%s\n' "${walls[@]}" | median) / 1000000)) \
			"$(printf '%s\n' "${loads[@]}" | sort -n | head -1)")"
	done
	say "  (goal: 1 MB <= 50 ms, 25 MB <= 500 ms)"
}

# crashy_server recorded with interval $1 under 2 s of client load, then
# the request that crashes it; the checkpoint lands in $W/rp.
bench_server() {
	local port end
	rm -f "$W/port"
	"$FR" record -o "$W/rp" --interval-ms "$1" --keep 2 -- "$PROGS/crashy_server" 0 "$W/port" \
		>/dev/null 2>&1 &
	local rp=$!
	for _ in $(seq 100); do [ -s "$W/port" ] && break; sleep 0.1; done
	port=$(cat "$W/port")
	end=$(($(date +%s) + 2))
	while [ "$(date +%s)" -lt $end ]; do
		exec 3<>"/dev/tcp/127.0.0.1/$port" || break
		for i in 1 2 3 4 5; do
			printf 'SET k%d v%d\n' $i $RANDOM >&3
			read -r _ <&3
			printf 'GET k%d\n' $i >&3
			read -r _ <&3
		done
		printf 'QUIT\n' >&3
		exec 3>&-
	done
	exec 3<>"/dev/tcp/127.0.0.1/$port"
	printf 'SET victim 42\nDEL victim\nGET victim\nQUIT\n' >&3
	cat <&3 >/dev/null 2>&1 || true
	exec 3>&-
	wait $rp
}

# (issue 28, item 4) the fixed cost of `flightrec record`: /bin/true alone
# and under `flightrec record -o DIR -- /bin/true`, in turn, from just before
# the fork to the exit (timeit), and the tool's own start (`flightrec
# --help`: exec, dynamic loading, exit) to say how much of the cost is that.
# The goal: at most 30 ms over the program's own run under TCG.
bench_record() {
	local i n=${FR_BENCH_RECORD_REPS:-15} base=() rec=() help=() d=() b r h
	say "== fixed cost of \`flightrec record -- /bin/true\`, $n pairs in turn (fork to exit)"
	for ((i = 0; i < n; i++)); do
		"$TIMEIT" "$W/t" /bin/true >/dev/null 2>&1
		base+=("$(prog_ns)")
		"$TIMEIT" "$W/t" "$FR" record -o "$W/rec" -- /bin/true >/dev/null 2>&1
		rec+=("$(prog_ns)")
		"$TIMEIT" "$W/t" "$FR" --help >/dev/null 2>&1
		help+=("$(prog_ns)")
		d+=($((rec[i] - base[i])))
	done
	b=$(printf '%s\n' "${base[@]}" | median)
	r=$(printf '%s\n' "${rec[@]}" | median)
	h=$(printf '%s\n' "${help[@]}" | median)
	say "  /bin/true: native $((b / 1000000)) ms (fastest $(($(printf '%s\n' "${base[@]}" | sort -n | head -1) / 1000000))), recorded $((r / 1000000)) ms (fastest $(($(printf '%s\n' "${rec[@]}" | sort -n | head -1) / 1000000)))"
	say "  ratio: $(ratio "$r" "$b")   (run pairs $(pair_range "${base[*]}" "${rec[*]}"))"
	say "  difference: median of the pairs' $(($(printf '%s\n' "${d[@]}" | median) / 1000000)) ms   (goal <= 30 ms under TCG)"
	say "  of which the tool's own start and exit (flightrec --help): $((h / 1000000)) ms"
}

# (issue 28, items 4 and 6) two builds in turn, for before/after figures
# from one boot: FR_BENCH_BASE=OTHER/user/flightrec (its loader beside it)
# against this one.  Each round runs, for each build, `--help`, `record --
# /bin/true` (its difference to /bin/true of the same round) and the
# replay's start of the same 1 and 25 MB checkpoints (recorded once, by
# this build); medians of FR_BENCH_CMP_ROUNDS rounds (default 9).  Not in
# the default sections.
bench_compare() {
	local base=${FR_BENCH_BASE:-} n=${FR_BENCH_CMP_ROUNDS:-9} i b bin mb f from t l order
	local -A v
	[ -x "$base" ] || { say "compare: set FR_BENCH_BASE to another build's user/flightrec"; return 1; }
	say "== two builds in turn, $n rounds, medians: base $base, this $FR_SRC (both run from copies in the guest's tmpfs)"
	base=$(local_copy "$base" base)
	for mb in 1 25; do
		mkdir -p "$W/cmp$mb"
		"$FR" record -o "$W/cmp$mb" --at-exit --interval-ms 250 --keep 2 -- \
			"$PROGS/ckpt_size" "$mb" 1200 >/dev/null 2>&1
	done
	for ((i = 0; i < n; i++)); do
		"$TIMEIT" "$W/t" /bin/true >/dev/null 2>&1
		t=$(prog_ns)
		# each first in every other round: what one leaves running
		# (a namespace's teardown in a kworker) lands on the other
		order="base this"
		((i % 2)) && order="this base"
		for b in $order; do
			bin=$FR
			[ $b = base ] && bin=$base
			"$TIMEIT" "$W/t" "$bin" --help >/dev/null 2>&1
			v[$b.help]+="$(prog_ns) "
			"$TIMEIT" "$W/t" "$bin" record -o "$W/rec" -- /bin/true >/dev/null 2>&1
			v[$b.record]+="$(($(prog_ns) - t)) "
			for mb in 1 25; do
				f=$(ls -v "$W/cmp$mb"/*.flrc 2>/dev/null | tail -1)
				[ -n "$f" ] || continue
				from=$("$FR" info --json "$f" | python3 -c 'import json, sys; print(json.load(sys.stdin)["intervals"][0]["index"])')
				l=$("$bin" replay "$f" --from "$from" --output "$W/cmpo" --force 2>&1 |
					awk '/load .* ms .*re-execute/ { for (i = 1; i <= NF; i++) if ($i == "load") print $(i + 1) }')
				v[$b.load$mb]+="${l:-0} "
			done
		done
	done
	med() { printf '%s\n' $1 | median; }
	for b in base this; do
		say "  $b: --help $(($(med "${v[$b.help]}") / 1000000)) ms, record -- /bin/true minus /bin/true $(($(med "${v[$b.record]}") / 1000000)) ms, replay load 1 MB $(med "${v[$b.load1]:-0}") ms, 25 MB $(med "${v[$b.load25]:-0}") ms"
	done
	# the same round's two runs side by side: the host's slow drift cancels
	for mb in 1 25; do
		[[ ${v[base.load$mb]:-} && ${v[this.load$mb]:-} && ! " ${v[base.load$mb]} " =~ " 0 " ]] ||
			continue
		say "  this/base replay load $mb MB per round: $(pair_range "${v[base.load$mb]}" "${v[this.load$mb]}")"
	done
}

# (issue 28, item 3) THREADS threads each in a getpid + 64-byte pipe
# write/read loop (tests/progs/bench_threads), natively and recorded from
# start; the wall time of the loops, ratio per thread count.  The VM has 2
# CPUs: above 2 threads they take turns, so what grows with the count is
# the per-record cost plus the contention of 2 CPUs on shared lines.  With
# FR_BENCH_BASE_MODULE (another build of the module), also recorded with
# that one, the modules in turn in every repetition.
bench_threads() {
	local nt i rounds base=() rec=() other=() b r o b2= m out
	local mods=("$MODULE")
	[ -n "${FR_BENCH_BASE_MODULE:-}" ] && mods+=("$FR_BENCH_BASE_MODULE")
	say "== threads: each getpid + 64-byte pipe write and read, recorded from"
	say "   start vs native, the same total calls at each count, median of $REPS"
	[ "${#mods[@]}" -gt 1 ] && say "   (modules in turn: this, base)"
	say "  threads   rounds/thread   native ns/round   recorded ns/round   ratio   native vs 2 threads"
	for nt in ${FR_BENCH_THREADS:-2 8 32}; do
		# 64k rounds in all: each count does the same work
		rounds=$((65536 / nt))
		base=()
		rec=()
		other=()
		for ((i = 0; i < REPS; i++)); do
			base+=("$("$PROGS/bench_threads" $nt $rounds)")
			for m in "${mods[@]}"; do
				if [ "${#mods[@]}" -gt 1 ]; then
					rmmod flightrec && insmod "$m" || return 1
				fi
				out=$("$FR" record -o "$W/th" -- "$PROGS/bench_threads" $nt $rounds 2>/dev/null)
				rm -rf "$W/th"
				if [ "$m" = "$MODULE" ]; then rec+=("$out"); else other+=("$out"); fi
			done
		done
		b=$(printf '%s\n' "${base[@]}" | median)
		r=$(printf '%s\n' "${rec[@]}" | median)
		[ -n "$b2" ] || b2=$b
		say "  $(printf '%7d   %13d   %15d   %17d   %s   %s' $nt $rounds $((b / 65536)) $((r / 65536)) "$(ratio "$r" "$b")" "$(ratio "$b" "$b2")")  (pairs $(pair_range "${base[*]}" "${rec[*]}"))"
		if [ "${#other[@]}" -gt 0 ]; then
			o=$(printf '%s\n' "${other[@]}" | median)
			say "           base module: recorded $((o / 65536)) ns/round, ratio $(ratio "$o" "$b"); this / base $(ratio "$r" "$o") (pairs $(pair_range "${other[*]}" "${rec[*]}"))"
		fi
	done
	if [ "${#mods[@]}" -gt 1 ]; then
		rmmod flightrec && insmod "$MODULE" || return 1
	fi
	say "  (goal: ratio <= 1.3 at every count, no growth beyond native's own)"
}

# (issue 28, items 1 and 3) syscalls beside write faults: one thread in the
# getpid + pipe loop of section threads while FR_BENCH_WRITERS threads (1)
# write one byte into each page of 256 pages of their own, over and over,
# recorded at 10 ms intervals (each first write to a page in an interval is
# a write fault whose probe copies the page).  The loop's time, native and
# recorded; with FR_BENCH_BASE_MODULE (another build of the module), also
# recorded with that one, the modules in turn in every repetition: the page
# copy used to hold proc->lock, which every recorded call takes.
bench_threads_faults() {
	local i nw=${FR_BENCH_WRITERS:-1} rounds=${FR_BENCH_TF_ROUNDS:-6000}
	local base=() rec=() other=() out m
	local mods=("$MODULE")
	[ -n "${FR_BENCH_BASE_MODULE:-}" ] && mods+=("$FR_BENCH_BASE_MODULE")
	say "== threads beside write faults: 1 thread x $rounds getpid + 64-byte pipe"
	say "   rounds, $nw writer thread(s) over 256 pages, recorded at 10 ms"
	say "   intervals vs native, median of $REPS${FR_BENCH_BASE_MODULE:+ (modules in turn: this, base)}"
	for ((i = 0; i < REPS; i++)); do
		base+=("$("$PROGS/bench_threads" 1 $rounds $nw | awk '{print $1}')")
		for m in "${mods[@]}"; do
			# two modules: each loaded in its turn (one: it stays)
			if [ "${#mods[@]}" -gt 1 ]; then
				rmmod flightrec && insmod "$m" || return 1
			fi
			out=$("$FR" record -o "$W/tf" --interval-ms 10 -- \
				"$PROGS/bench_threads" 1 $rounds $nw 2>/dev/null | awk '{print $1}')
			rm -rf "$W/tf"
			if [ "$m" = "$MODULE" ]; then rec+=("$out"); else other+=("$out"); fi
		done
	done
	if [ "${#mods[@]}" -gt 1 ]; then
		rmmod flightrec && insmod "$MODULE" || return 1
	fi
	local b r o
	b=$(printf '%s\n' "${base[@]}" | median)
	r=$(printf '%s\n' "${rec[@]}" | median)
	say "  native $((b / 1000000)) ms, recorded $((r / 1000000)) ms: ratio $(ratio "$r" "$b") (pairs $(pair_range "${base[*]}" "${rec[*]}"))"
	if [ "${#other[@]}" -gt 0 ]; then
		o=$(printf '%s\n' "${other[@]}" | median)
		say "  base module: recorded $((o / 1000000)) ms: ratio $(ratio "$o" "$b"); this / base $(ratio "$r" "$o") (pairs $(pair_range "${other[*]}" "${rec[*]}"))"
	fi
}

# (issue 28, item 5) a large process: its boundaries, and a dump of it while
# it runs, against gcore of the same process (which stops it for the whole
# core; written to /dev/null, the cost of reading the memory alone).  Not in
# the default sections: 4 GiB needs a VM of about 6 GiB
# (FR_VM_MEM=12G BENCH=large make bench); a size that does not fit the
# VM's available memory is skipped and said.
bench_large() {
	local mb pid avail t0 t1 dump gc ga wavg wmax dbytes u0 u1
	lstat() { awk -v p="$1" -v f="$2" '$1 == "pid" && $2 == p {for (i = 1; i < NF; i++) if ($i == f) print $(i + 1)}' /proc/flightrec/status; }
	cpu_ms() { awk '{print ($14 + $15) * 10}' "/proc/$1/stat"; }
	say "== large processes: mem_big MB (MB resident, then 16 pages touched per ms),"
	say "   recorded at 1000 ms intervals, keep 4.  boundary: average and slowest (the"
	say "   longest the process is stopped).  dump: flightrec dump while it runs, and"
	say "   the CPU time the process had meanwhile.  gcore: gdb -p, gcore to /dev/null"
	say "   (the process stopped from the attach to the end); attach: gdb -p and detach"
	say "   alone, gdb's own start included in both"
	say "  resident   boundary avg / max ms   dump ms (bytes, ran ms)   gcore ms (attach ms)   dump/gcore"
	for mb in ${FR_BENCH_LARGE_MB:-1024 4096 8192}; do
		avail=$(awk '/^MemAvailable:/ {print int($2 / 1024)}' /proc/meminfo)
		if ((avail < mb + 768)); then
			say "  $(printf '%5d MiB' "$mb"): skipped, $avail MiB available in the VM (FR_VM_MEM)"
			continue
		fi
		coproc MB { exec "$PROGS/mem_big" "$mb"; }
		pid=$MB_PID
		read -r _ <&"${MB[0]}"
		"$FR" register "$pid" --interval-ms 1000 --keep 4 >/dev/null
		sleep 4
		rm -rf "$W/large"
		mkdir -p "$W/large"
		u0=$(cpu_ms "$pid")
		t0=$(now)
		"$FR" dump "$pid" -o "$W/large" >/dev/null 2>&1
		t1=$(now)
		u1=$(cpu_ms "$pid")
		dump=$(((t1 - t0) / 1000000))
		dbytes=$(du -sb "$W/large" | awk '{print $1}')
		wavg=$(lstat "$pid" boundary_ns_avg)
		wmax=$(lstat "$pid" boundary_ns_max)
		"$FR" unregister "$pid" >/dev/null 2>&1
		rm -rf "$W/large"
		t0=$(now)
		gdb -q -batch -p "$pid" -ex detach >/dev/null 2>&1
		t1=$(now)
		ga=$(((t1 - t0) / 1000000))
		t0=$(now)
		gdb -q -batch -p "$pid" -ex "gcore /dev/null" >/dev/null 2>&1
		t1=$(now)
		gc=$(((t1 - t0) / 1000000))
		kill "$pid"
		wait "$pid" 2>/dev/null
		say "  $(printf '%5d MiB   %8s / %-8s   %7d (%s, %d)   %8d (%d)   %s' "$mb" \
			"$((${wavg:-0} / 1000000))" "$((${wmax:-0} / 1000000))" "$dump" "$dbytes" \
			$((u1 - u0)) "$gc" "$ga" "$(ratio "$dump" "$gc")")"
	done
}

# (issue 28, item 1) real servers on loopback in the VM, each started
# natively, under `flightrec record` from its start, and under `strace -f
# -o /dev/null` (the seed's prototype lost 13-15% on squid and apache; a
# ptrace recorder is the usual alternative), the three modes in turn in
# every repetition, each after a warm-up (srv_warm_say): redis-server with
# redis-benchmark (SET and GET, 20 and
# 100 clients), nginx with ab (keep-alive, 20 clients, a 4 KiB and a 1 MiB
# file, sent with sendfile), memcached with tests/progs/mc_load (9 gets to
# 1 set of 1 KiB values, 20 and 100 connections).  Per workload: the
# throughput and p99 latency of each mode against native, ratios of the
# medians over the repetitions, and the median of the per-repetition
# throughput ratios.  Under strace a quarter of the requests (srv_div).
# The programs come from scripts/bench-deps.sh (`make bench` runs it).
# FR_BENCH_SRV_SCALE=N divides the request counts (a quick try).  Goal: recorded >= 0.97 of native throughput, p99 <= 1.1x.
SRV_MODES="native record strace"
SRV_PID=
# srv_start MODE PIDFILE PORT CMD...: the server started in MODE, ready
# when its port accepts a connection and its pid file is written
srv_start() {
	local mode=$1 pidf=$2 port=$3 i
	shift 3
	rm -f "$pidf"
	case $mode in
	native) "$@" >/dev/null 2>&1 & ;;
	record) "$FR" record -o "$W/srv" -- "$@" >/dev/null 2>&1 & ;;
	strace) strace -f -o /dev/null "$@" >/dev/null 2>&1 & ;;
	esac
	SRV_PID=$!
	for ((i = 0; i < 600; i++)); do
		if [ -s "$pidf" ] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			return 0
		fi
		kill -0 $SRV_PID 2>/dev/null || break
		sleep 0.1
	done
	say "  $mode: $1 did not start"
	kill $SRV_PID 2>/dev/null
	wait $SRV_PID 2>/dev/null
	return 1
}
# srv_warm_say CMD...: the warm-up before each server's measured runs, twice
# the ring's window in every mode, in batches of a fixed size whatever
# FR_BENCH_SRV_SCALE (s73: redis GET -c 20, the first 20,000 requests after
# the start 0.844-0.889 of native, the next 20,000 0.90-0.934, 3
# repetitions).
. "$TOP/scripts/srv-warm.sh"
srv_warm_say() { srv_warm "$@" || say "  warm-up failed: $*"; }
# srv_stop PIDFILE SERVER: SIGTERM to the server (not to flightrec or strace,
# which end with it)
srv_stop() {
	local st
	# recorded: its boundaries' average and slowest pause so far (a
	# boundary stops every thread; nginx: its worker, the busier process)
	st=$(awk '$1 == "pid" {for (i = 1; i < NF; i++) {
			if ($i == "boundary_ns_avg") a = $(i + 1)
			if ($i == "boundary_ns_max") m = $(i + 1)
		}
		if (m > best) { best = m; out = sprintf("%.1f/%.1f", a / 1e6, m / 1e6) } }
		END { print out }' /proc/flightrec/status)
	[ -n "$st" ] && SRV_BND[$2]+="$st "
	kill -TERM "$(cat "$1")" 2>/dev/null
	wait $SRV_PID 2>/dev/null
}
# the request counts are divided by this: FR_BENCH_SRV_SCALE for all,
# and 4 more under strace (10-20 times slower, a quarter of the requests
# suffices for its ratios)
srv_div() { if [ "$1" = strace ]; then echo $((SRV_SCALE * 4)); else echo "$SRV_SCALE"; fi; }
# srv_add WORKLOAD MODE RPS P99: one repetition's figures
declare -A SRV_RPS SRV_P99 SRV_BND
SRV_WLS=()
srv_add() {
	[[ " ${SRV_WLS[*]} " == *" $1 "* ]] || SRV_WLS+=("$1")
	# as it comes: a run cut short still shows what it measured
	say "    $1, $2: $3 req/s, p99 $4 ms"
	SRV_RPS[$1:$2]+="$3 "
	SRV_P99[$1:$2]+="$4 "
}
srv_redis() {
	local mode=$1 c n=$((20000 / $(srv_div $1))) out
	srv_start "$mode" "$W/redis.pid" 6390 redis-server --port 6390 \
		--bind 127.0.0.1 --save "" --appendonly no --dir "$W" \
		--pidfile "$W/redis.pid" --logfile "$W/redis.log" || return 1
	srv_warm_say redis-benchmark -h 127.0.0.1 -p 6390 -t set,get -n 1000 -c 20 -q
	for c in 20 100; do
		out=$(redis-benchmark -h 127.0.0.1 -p 6390 -t set,get -n $n -c $c --csv -q 2>/dev/null)
		# "SET","rps","avg","min","p50","p95","p99","max" (latencies in ms)
		while IFS=, read -r t rps _ _ _ _ p99 _; do
			t=${t//\"/}
			[ "$t" = SET ] || [ "$t" = GET ] || continue
			srv_add "redis $t -c $c" "$mode" "${rps//\"/}" "${p99//\"/}"
		done <<<"$out"
	done
	srv_stop "$W/redis.pid" redis
}
srv_nginx() {
	local mode=$1 f n out rps p99
	srv_start "$mode" "$W/nginx/nginx.pid" 8090 nginx -p "$W/nginx" \
		-c "$W/nginx/nginx.conf" -e "$W/nginx/error.log" || return 1
	srv_warm_say ab -k -n 200 -c 20 "http://127.0.0.1:8090/4k"
	for f in 4k 1m; do
		if [ $f = 4k ]; then n=$((4000 / $(srv_div $mode))); else n=$((400 / $(srv_div $mode))); fi
		((n >= 20)) || n=20	# ab wants no fewer requests than clients
		out=$(ab -k -n $n -c 20 "http://127.0.0.1:8090/$f" 2>&1)
		rps=$(awk '/^Requests per second:/ {print $4}' <<<"$out")
		# ab counts a short or failed response as failed: none may be
		if ! grep -q '^Failed requests: *0$' <<<"$out" ||
		   grep -q '^Non-2xx' <<<"$out"; then
			say "  $mode: ab on $f: $(grep -A1 -E '^(Failed|Non-2xx)' <<<"$out" | tr -s ' \n' ' ')"
			rps=
		fi
		# whole ms: its -e table's 99th line read 7e15 for the 1 MiB
		# file (native, 40 requests)
		p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
		[ -n "$rps" ] && [ -n "$p99" ] && srv_add "nginx $f keep-alive -c 20" "$mode" "$rps" "$p99"
	done
	srv_stop "$W/nginx/nginx.pid" nginx
}
srv_memcached() {
	local mode=$1 c n=$((6000 / $(srv_div $1))) rps p50 p99
	srv_start "$mode" "$W/memcached.pid" 11290 memcached -u root -l 127.0.0.1 \
		-p 11290 -U 0 -m 64 -P "$W/memcached.pid" || return 1
	srv_warm_say "$PROGS/mc_load" 11290 20 10
	for c in 20 100; do
		# the same total requests at both counts
		if read -r rps p50 p99 < <("$PROGS/mc_load" 11290 $c $((n / c))); then
			srv_add "memcached 9get:1set 1KiB -c $c" "$mode" "$rps" "$(awk -v u="$p99" 'BEGIN {print u / 1000}')"
		fi
	done
	srv_stop "$W/memcached.pid" memcached
}
bench_servers() {
	local i k s mode wl b r rp bp missing= modes=($SRV_MODES)
	SRV_SCALE=${FR_BENCH_SRV_SCALE:-1}
	for s in redis-server redis-benchmark nginx ab memcached strace; do
		command -v $s >/dev/null || missing+=" $s"
	done
	if [ -n "$missing" ]; then
		say "== servers: not installed:$missing (scripts/bench-deps.sh)"
		return 1
	fi
	mkdir -p "$W/srv" "$W/nginx/www" "$W/nginx/tmp"
	head -c 4096 /dev/urandom >"$W/nginx/www/4k"
	head -c 1048576 /dev/urandom >"$W/nginx/www/1m"
	cat >"$W/nginx/nginx.conf" <<-EOF
	daemon off;
	master_process on;
	worker_processes 1;
	user root;
	pid $W/nginx/nginx.pid;
	error_log $W/nginx/error.log;
	events { worker_connections 1024; }
	http {
		access_log off;
		sendfile on;
		keepalive_requests 1000000;
		client_body_temp_path $W/nginx/tmp;
		proxy_temp_path $W/nginx/tmp;
		fastcgi_temp_path $W/nginx/tmp;
		uwsgi_temp_path $W/nginx/tmp;
		scgi_temp_path $W/nginx/tmp;
		server { listen 127.0.0.1:8090; root $W/nginx/www; }
	}
	EOF
	say "== servers on loopback: native, recorded from start (flightrec record),"
	say "   strace -f -o /dev/null; the modes in turn, each measured after a warm-up"
	say "   of twice the ring's window, $REPS repetitions; ratios"
	say "   of the medians against native (throughput: requests/s; p99 latency)"
	for ((i = 0; i < REPS; i++)); do
		for s in redis nginx memcached; do
			# each mode first in turn: none is always the one after
			# another's teardown
			for ((k = 0; k < ${#modes[@]}; k++)); do
				mode=${modes[(i + k) % ${#modes[@]}]}
				"srv_$s" "$mode"
				rm -rf "$W/srv"/*
			done
		done
	done
	say "  workload                          native req/s  p99 ms | recorded: req/s  p99  (pairs) | strace: req/s  p99"
	for wl in "${SRV_WLS[@]}"; do
		local line
		b=$(printf '%s\n' ${SRV_RPS[$wl:native]:-} | median)
		bp=$(printf '%s\n' ${SRV_P99[$wl:native]:-} | median)
		line=$(printf '  %-32s %10s %7s |' "$wl" "$b" "$bp")
		for mode in record strace; do
			r=$(printf '%s\n' ${SRV_RPS[$wl:$mode]:-} | median)
			rp=$(printf '%s\n' ${SRV_P99[$wl:$mode]:-} | median)
			if [ -z "$b" ] || [ -z "$r" ]; then
				line+=" $mode: ?"
				continue
			fi
			line+=" $(ratio "$r" "$b") $(ratio "$rp" "$bp")"
			# the same count of repetitions in both modes: per-pair ratios
			if [ $mode = record ] &&
			   [ "$(wc -w <<<"${SRV_RPS[$wl:native]:-}")" = "$(wc -w <<<"${SRV_RPS[$wl:record]:-}")" ]; then
				line+=" ($(pair_range "${SRV_RPS[$wl:native]}" "${SRV_RPS[$wl:record]}"))"
			fi
			line+=" |"
		done
		say "${line% |}"
	done
	for s in redis nginx memcached; do
		say "  $s recorded, boundaries per repetition (average/slowest ms): ${SRV_BND[$s]:-?}"
	done
	say "  (goal: recorded throughput >= 0.97 of native, p99 <= 1.1x)"
}

# (issue 27 item 2) reverse execution under the gdbserver: bc computing pi
# for about a second, recorded from its start by the module (one interval
# of about 1 s, and the rest); `flightrec gdb --batch` with `break write`,
# `continue`, three reverse-stepi, a reverse-finish and a reverse-continue
# (to the beginning: no earlier hit), each timed by gdb (Python), with the
# gdbserver's snapshots and without them (FLIGHTREC_GDBSERVER_SNAPSHOTS=0),
# in turn; the baseline is bc's own run.  The goal (on real hardware):
# each command within 2 s on a 1 s interval.
bench_reverse() {
	local n=${FR_BENCH_REVERSE_ROUNDS:-2} digits=${FR_BENCH_REVERSE_DIGITS:-1000} i m f t0 t1
	local cmds=$W/rev.gdb
	command -v gdb >/dev/null && command -v bc >/dev/null ||
		{ say "reverse: needs gdb and bc"; return 1; }
	say "== reverse execution (flightrec gdb): bc -lq, pi to $digits digits, recorded from its start"
	echo "scale=$digits; 4*a(1)" > "$W/pi.bc"
	t0=$(now)
	bc -lq "$W/pi.bc" > /dev/null
	t1=$(now)
	say "  bc alone: $(((t1 - t0) / 1000000)) ms"
	rm -rf "$W/rev"
	"$FR" record --at-exit --interval-ms 1000 --keep 2 -o "$W/rev" -- bc -lq "$W/pi.bc" \
		> /dev/null 2>&1 || { say "reverse: record failed"; return 1; }
	f=$(ls "$W"/rev/*.flrc | head -1)
	"$FR" info "$f" | grep -E '^ +#[0-9]' | sed 's/^/  interval/'
	printf '%s\n' 'set breakpoint pending on' 'break write' 'continue' \
		'python import time; t = [time.time()]' \
		'reverse-stepi' 'python t.append(time.time()); print("RS1 %.2f" % (t[-1] - t[-2]))' \
		'reverse-stepi' 'python t.append(time.time()); print("RS2 %.2f" % (t[-1] - t[-2]))' \
		'reverse-stepi' 'python t.append(time.time()); print("RS3 %.2f" % (t[-1] - t[-2]))' \
		'reverse-finish' 'python t.append(time.time()); print("RF %.2f" % (t[-1] - t[-2]))' \
		'reverse-continue' 'python t.append(time.time()); print("RC %.2f" % (t[-1] - t[-2]))' \
		> "$cmds"
	say "  seconds per command (reverse-stepi x3, reverse-finish, reverse-continue):"
	for ((i = 0; i < n; i++)); do
		for m in 1 0; do
			FLIGHTREC_GDBSERVER_SNAPSHOTS=$m timeout 900 "$FR" gdb "$f" --batch "$cmds" \
				--out "$W/rev.$i.$m" \
				> "$W/rev.out" 2>&1
			say "  snapshots $([ $m = 1 ] && echo on: || echo off:) $(grep -E '^(RS[0-9]|RF|RC) ' "$W/rev.out" | tr '\n' ' ')"
			say "    $(grep -o 'reverse execution:.*' "$W/rev.out")"
		done
	done
	say "  (goal: each command within 2 s on a 1 s interval, on real hardware)"
}

loaded || { say "bench-vm.sh: the flightrec module is not loaded"; exit 1; }
say "== guest clocksource: $(clocksource) (FR_BENCH_CLOCK; docs/testing.md)"
for s in $sections; do
	"bench_$s" || say "bench-vm.sh: section $s failed"
done
loaded || insmod "$MODULE"
exit
}
