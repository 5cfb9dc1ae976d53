#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kcheck.sh mark|scan|news STATE - watch the kernel log around a test run.
#
#   mark  writes a mark line (with the current taint flags) into the kernel log.
#   scan  prints every line logged after the first mark that looks like a kernel
#         problem (warning, BUG, oops, lockdep/KASAN/UBSAN/kmemleak report, stall,
#         list corruption, ...) and every taint flag raised since the mark that
#         means trouble (D die, W warning, B bad page, L soft lockup).  Exit 1 if
#         there is anything, 0 if the log is clean.
#   news STATE  prints the lines of `scan` that the last `news STATE` did not
#         print (STATE: a file that keeps them; the first call prints the
#         whole scan), so a problem is blamed on what ran in between.  Exit 1
#         if there are any.
#
# Used by the test VM (scripts/vm-init.sh) and by tests/run.sh; works on a real
# host too (needs root to write /dev/kmsg and read the log).
set -uo pipefail

MARK='flightrec-kcheck: mark'

# One extended regex per line.  Keep in sync with docs/testing.md.
PATTERNS='WARNING:
WARNING at
BUG:
kernel BUG
BUG kmalloc|BUG [a-z_-]+ \(
Oops
general protection
Unable to handle|unable to handle
Call Trace
RIP: [0-9a-f]+:
Kernel panic
kmemleak
[Ll]eak
lockdep
KASAN
UBSAN
possible recursive locking
circular locking
inconsistent lock state
scheduling while atomic
sleeping function called from invalid context
blocked for more than
soft lockup|hard LOCKUP
rcu.*(stall|detected stalls)
refcount_t:
list_(add|del) corruption
double free|use-after-free|Redzone|Poison overwritten|Object padding
Bad page
unknown parameter .* ignored'

# Messages about user processes (tests crash programs on purpose), and
# kmemleak's note that fault injection (the fault pass arms failslab for a
# recorded task) failed its own metadata for a vmalloc area: the object is
# then scanned whole - it can hide a leak, never report one.  kmemleak
# failing its object structure (it then turns itself off) still fails.
IGNORE='traps: .*\[[0-9]+\] general protection|\[[0-9]+\]: segfault at |flightrec-kcheck: |kmemleak: Cannot allocate a scan area, scanning the full object'

BAD_TAINT=$(( (1 << 5) | (1 << 7) | (1 << 9) | (1 << 14) ))

taint_names() {
	local t=$1 out=
	(( t & (1 << 5) )) && out+=" B(bad page)"
	(( t & (1 << 7) )) && out+=" D(oops)"
	(( t & (1 << 9) )) && out+=" W(warning)"
	(( t & (1 << 14) )) && out+=" L(soft lockup)"
	echo "${out# }"
}

case ${1:-} in
mark)
	echo "$MARK taint=$(cat /proc/sys/kernel/tainted)" >/dev/kmsg
	;;
scan)
	log=$(dmesg 2>&1) || { echo "kcheck: cannot read the kernel log: $log"; exit 1; }
	after=$(awk -v mark="$MARK" 'found { print; next } index($0, mark) { found = 1; print }' <<<"$log")
	if [[ -z $after ]]; then
		echo "kcheck: no mark in the kernel log (rotated out?); scanning all of it"
		after=$log
	fi
	old_taint=$(grep -o -m1 "$MARK taint=[0-9]*" <<<"$after" | sed 's/.*taint=//')
	new_taint=$(cat /proc/sys/kernel/tainted)
	bad=0
	args=()
	while IFS= read -r p; do args+=(-e "$p"); done <<<"$PATTERNS"
	hits=$(grep -E "${args[@]}" <<<"$after")
	(($? < 2)) || { echo "kcheck: grep failed"; exit 1; }
	hits=$(grep -E -v -e "$IGNORE" <<<"$hits")
	if [[ -n $hits ]]; then
		echo "kcheck: the kernel log has $(wc -l <<<"$hits") suspicious line(s):"
		sed 's/^/  /' <<<"$hits"
		bad=1
	fi
	raised=$(( new_taint & ~${old_taint:-0} & BAD_TAINT ))
	if (( raised )); then
		echo "kcheck: kernel taint flags raised during the run: $(taint_names $raised) (tainted=$new_taint)"
		bad=1
	fi
	exit $bad
	;;
news)
	state=${2:?usage: kcheck.sh news STATEFILE}
	now=$(bash "${BASH_SOURCE[0]}" scan 2>&1)
	prev=$(cat "$state" 2>/dev/null)
	printf '%s\n' "$now" >"$state"
	news=$(grep -Fxv -f <(printf '%s\n' "$prev") <<<"$now" |
		grep -v '^kcheck: the kernel log has')
	[[ -z $news ]] && exit 0
	printf '%s\n' "$news"
	exit 1
	;;
*)
	echo "usage: kcheck.sh mark|scan|news STATEFILE" >&2
	exit 2
	;;
esac
