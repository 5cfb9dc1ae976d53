#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# sum-results.sh DIR NAME... - the total of the VM boots of scripts/check.sh
# and scripts/check-debug.sh.  Each NAME left DIR/NAME.out (its output, whose
# last "N passed, N failed" line counts) and DIR/NAME.rc (vm.sh's exit
# status).  Says which boot printed no result line, prints one line
# "N passed, N failed" for all of them, and exits 1 if a case failed, a boot
# printed no result or exited non-zero (a kernel report, a leak, a timeout).
set -uo pipefail

dir=${1:?usage: sum-results.sh DIR NAME...}
shift
passed=0 failed=0 status=0
for name in "$@"; do
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$dir/$name.out" 2>/dev/null | tail -1)
	rc=$(cat "$dir/$name.rc" 2>/dev/null || echo missing)
	if [[ -z $line ]]; then
		echo "$(basename "$0"): the $name run printed no result line (vm.sh status $rc)"
		failed=$((failed + 1))
	else
		passed=$((passed + ${line%% passed*}))
		f=${line#*passed, }
		failed=$((failed + ${f%% failed}))
	fi
	[[ $rc == 0 ]] || status=1
done
((failed)) && status=1
echo "$passed passed, $failed failed"
exit $status
