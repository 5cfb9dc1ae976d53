#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh [NAME...] - run flightrec's test programs and report.
#
# Runs every tests/bin/* executable (or those named: NAME is a binary name or a
# shell glob) with a per-binary timeout, each in a fresh temporary directory,
# and prints one TAP stream: each binary's own TAP output nested (indented four
# spaces, as KTAP subtests), then an "ok"/"not ok" line for the binary.  Test
# cases are counted from the nested "ok"/"not ok" lines; a binary that crashes,
# times out, or prints fewer results than its plan counts as failed.  As root,
# the kernel log is checked after every binary (scripts/kcheck.sh), so a kernel
# warning is blamed on the binary that caused it.  In the test VM (FR_VM=1) a
# last group checks that the module unloads and the kernel log is clean.
#
# The last line is exactly "N passed, N failed" (skipped cases are in neither).
# Exit status: 0 when nothing failed and at least one case ran (passed or
# failed; "no test case ran" counts as a failure).
#
# Environment: FR_TEST_EXCLUDE (binaries to leave out),
# FR_TEST_TIMEOUT (seconds per binary, default 600), FR_TEST_TIMEOUT_SCALE
# (multiplies it, and every timeout in the tests: tests/lib/fr_timeout.h), FR_TEST_BIN
# (directory of the binaries, default tests/bin),
# FR_UNLOAD=0/1 (unload check; default 1 in the VM).
# The whole script is one { } group, which bash reads to its end before it
# runs any of it: a script edited while a run of it lasts (an hour-long
# debug boot) no longer has its running copy read the new text midway.
{
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
BIN=${FR_TEST_BIN:-$HERE/bin}
KCHECK=$TOP/scripts/kcheck.sh
TIMEOUT=$((${FR_TEST_TIMEOUT:-600} * ${FR_TEST_TIMEOUT_SCALE:-1}))
export FR_TOP=${FR_TOP:-$TOP}
# Sanitized tests: report, do not hang on a leak check at exit of forked children.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

passed=0
failed=0
skipped=0
cases=0
n=0

# Which binaries.
all=()
for f in "$BIN"/*; do
	[[ -f $f && -x $f ]] && all+=("$(basename "$f")")
done
sel=()
if (($#)); then
	for pat in "$@"; do
		pat=$(basename "$pat")
		hit=0
		for b in "${all[@]}"; do
			# shellcheck disable=SC2053  # pat is a glob on purpose
			if [[ $b == $pat ]]; then
				hit=1
				[[ " ${sel[*]} " == *" $b "* ]] || sel+=("$b")
			fi
		done
		((hit)) || { echo "run.sh: no test binary matches '$pat' in $BIN" >&2; failed=$((failed + 1)); }
	done
else
	sel=("${all[@]}")
fi
# FR_TEST_EXCLUDE: names left out (scripts/check.sh runs them in another VM)
if [[ -n ${FR_TEST_EXCLUDE:-} ]]; then
	keep=()
	for b in "${sel[@]}"; do
		[[ " $FR_TEST_EXCLUDE " == *" $b "* ]] || keep+=("$b")
	done
	sel=("${keep[@]}")
fi

# Kernel log checks: in the VM, or on a host where the module is loaded.
kernel_checks=0
if [[ $(id -u) == 0 && (${FR_VM:-0} == 1 || -d /sys/module/flightrec) ]] &&
	dmesg >/dev/null 2>&1; then
	kernel_checks=1
	# The VM marks the log before loading the module; elsewhere mark it now.
	grep -q 'flightrec-kcheck: mark' <<<"$(dmesg)" || bash "$KCHECK" mark
fi
unload=${FR_UNLOAD:-${FR_VM:-0}}
[[ -n ${FR_MODNAME:-} ]] || unload=0

echo "TAP version 13"
echo "1..$((${#sel[@]} + (unload || kernel_checks ? 1 : 0)))"
((${#sel[@]})) || echo "# no test binaries in $BIN (build them: make tests)"

KSTATE=$(mktemp)
trap 'rm -f "$KSTATE"' EXIT
[[ $kernel_checks == 1 ]] && bash "$KCHECK" news "$KSTATE" >/dev/null

# Sets news to the problem lines that appeared in the kernel log since the
# last call; false when there are none.
kernel_news() {
	! news=$(bash "$KCHECK" news "$KSTATE")
}

# What the module holds: registered processes and bytes (rings and frozen
# dumps), "P B", or nothing when it is not loaded (or not readable).
STATUS=/proc/flightrec/status
held_now() {
	[[ -r $STATUS ]] || return 0
	awk '/^bytes /{b = $2} /^processes /{p = $2} END {if (b != "") print p + 0, b + 0}' \
		"$STATUS" 2>/dev/null
}

# Sets held to what the binary that just ran left the module holding
# beyond what it held before ($1: held_now's then); false when nothing.
# A process left registered or a dump left unreleased takes the module's
# memory, its cap, from the binaries after it.  Exits and teardowns finish in work items:
# waited for, up to 5 s.
held_news() {
	local before=$1 now p0 b0 p b i
	held=
	[[ -n $before ]] || return 1
	read -r p0 b0 <<<"$before"
	for ((i = 0; i < 50; i++)); do
		now=$(held_now)
		[[ -n $now ]] || return 1	# unloaded: nothing held
		read -r p b <<<"$now"
		((p <= p0 && b <= b0)) && return 1
		sleep 0.1
	done
	held="$p registered processes (before it: $p0), $b bytes held (before it: $b0)"
	return 0
}

run_one() {
	local name=$1 log tmp rc t0 t1 p=0 f=0 s=0 plan="" results=0 extra=() line why i
	local before
	log=$(mktemp)
	tmp=$(mktemp -d /tmp/fr-test-"$name".XXXXXX)
	before=$(held_now)
	echo "    # Subtest: $name"
	t0=$SECONDS
	# Not exec: the subshell reports a crash ("Segmentation fault") in the
	# stream.  timeout makes a process group of the test; whatever of it
	# outlives the test is killed and reported, or it would hold the output
	# pipe open and hang the run.
	(
		cd "$tmp" || exit
		timeout -k 10 "$TIMEOUT" "$BIN/$name" &
		tp=$!
		wait $tp
		echo $? >"$log.rc"
		# zombies hold nothing open: only the living count
		ps -e -o pgid=,pid=,stat=,args= |
			awk -v g="$tp" '$1 == g && $3 !~ /^Z/ {s = $2; for (i = 4; i <= NF; i++) s = s " " $i; print s}' >"$log.left"
		[[ -s $log.left ]] && kill -KILL -- -"$tp" 2>/dev/null
	) </dev/null 2>&1 | tee "$log" | sed -u 's/^/    /'
	rc=$(cat "$log.rc" 2>/dev/null || echo 255)
	t1=$SECONDS
	while IFS= read -r line; do
		case $line in
		"not ok "[0-9]*)
			f=$((f + 1)); results=$((results + 1)) ;;
		"ok "[0-9]*"# SKIP"*|"ok "[0-9]*"# skip"*)
			s=$((s + 1)); results=$((results + 1)) ;;
		"ok "[0-9]*)
			p=$((p + 1)); results=$((results + 1)) ;;
		1..[0-9]*)
			[[ -z $plan ]] && plan=${line#1..} && plan=${plan%% *} ;;
		esac
	done <"$log"
	why=
	if ((rc == 124 || rc == 137)); then
		why="timed out after ${TIMEOUT}s (FR_TEST_TIMEOUT)"
	elif ((rc > 128)); then
		why="killed by signal $((rc - 128)) ($(kill -l $((rc - 128)) 2>/dev/null))"
	elif ((rc != 0 && rc != 4 && f == 0)); then
		why="exited with status $rc but reported no failed case"
	fi
	if [[ -s $log.left ]]; then
		extra+=("$name: left processes running after it exited (killed):")
		while IFS= read -r line; do extra+=("  $line"); done <"$log.left"
	fi
	if [[ -n $plan ]] && ((results < plan)); then
		# Every planned case without a result is a failure.
		for ((i = results + 1; i <= plan; i++)); do
			extra+=("$name: case $i of $plan has no result${why:+: $why}")
		done
	elif [[ -n $why ]]; then
		extra+=("$name: $why")
	fi
	if ((results == 0 && ${#extra[@]} == 0)); then
		# A plain program: its exit status is the result.
		results=1
		if ((rc == 4)); then
			s=1
			echo "    ok 1 $name # SKIP exit status 4"
		else
			p=1
			echo "    ok 1 $name"
		fi
	fi
	if ((kernel_checks)) && kernel_news; then
		extra+=("$name: the kernel log has new problems:")
		while IFS= read -r line; do extra+=("  $line"); done <<<"$news"
	fi
	if held_news "$before"; then
		extra+=("$name: left the module holding what it recorded: $held")
		while IFS= read -r line; do extra+=("  $line"); done < <(grep '^pid ' "$STATUS")
	fi
	for line in "${extra[@]}"; do
		if [[ $line == " "* ]]; then
			echo "    # $line"
		else
			f=$((f + 1))
			echo "    not ok $((results + f)) $line"
		fi
	done
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	cases=$((cases + p + f))
	n=$((n + 1))
	if ((f)); then
		echo "not ok $n $name # $f failed, $p passed, $s skipped, rc=$rc, $((t1 - t0))s"
	else
		echo "ok $n $name # $p passed, $s skipped, $((t1 - t0))s"
	fi
	rm -f "$log" "$log.rc" "$log.left"
	rm -rf "$tmp"
}

for b in "${sel[@]}"; do
	run_one "$b"
done

# The rig's own checks, as one more group of cases.
if ((unload || kernel_checks)); then
	i=0 f=0 p=0
	echo "    # Subtest: rig"
	if ((unload)); then
		i=$((i + 1))
		if ! grep -q "^$FR_MODNAME " /proc/modules; then
			echo "    not ok $i $FR_MODNAME unloads # it is not loaded at the end of the suite (a test unloaded it and did not load it again)"
			f=$((f + 1))
		elif out=$(rmmod "$FR_MODNAME" 2>&1); then
			echo "    ok $i $FR_MODNAME unloads"
			p=$((p + 1))
		else
			echo "    not ok $i $FR_MODNAME unloads"
			echo "    # $out"
			f=$((f + 1))
		fi
	fi
	if ((kernel_checks)); then
		i=$((i + 1))
		if out=$(bash "$KCHECK" scan 2>&1); then
			echo "    ok $i kernel log clean"
			p=$((p + 1))
		else
			echo "    not ok $i kernel log clean"
			sed 's/^/    # /' <<<"$out"
			f=$((f + 1))
		fi
	fi
	n=$((n + 1))
	passed=$((passed + p))
	failed=$((failed + f))
	if ((f)); then echo "not ok $n rig"; else echo "ok $n rig"; fi
fi

((skipped)) && echo "# $skipped skipped"
if ((cases == 0)); then
	echo "# no test case ran"
	failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
((failed == 0))
exit
}
