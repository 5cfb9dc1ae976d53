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
#   bench-insn.sh            FR_BENCH_INSN_LO / _HI: the two dd counts
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$TOP/build/bench-insn
LO=${FR_BENCH_INSN_LO:-50000}
HI=${FR_BENCH_INSN_HI:-150000}
MARK=$TOP/build/insnprof/mark	# built by insnprof.sh
mkdir -p "$OUT"
(( HI > LO )) || { echo "bench-insn.sh: FR_BENCH_INSN_HI must exceed _LO" >&2; exit 1; }

dd_cmd() { echo "dd if=/dev/zero of=/dev/null bs=1 count=$1"; }
rec_cmd() { echo "$TOP/user/flightrec record -o /tmp/fr-insn -- $(dd_cmd "$1")"; }

echo "== instructions per call of dd bs=1 (TCG plugin count, warm record pools)"
for mode in nat rec; do
	for n in $LO $HI; do
		if [[ $mode == rec ]]; then
			cmd=$(rec_cmd "$n") warm=$(rec_cmd "$HI")
		else
			cmd=$(dd_cmd "$n") warm=$(dd_cmd "$HI")
		fi
		FR_VM_DEBUG=0 "$TOP/scripts/insnprof.sh" "$OUT/$mode-$n" -- \
			bash -c "$warm >/dev/null 2>&1; rm -rf /tmp/fr-insn; $MARK start; $cmd >/dev/null 2>&1; $MARK stop" \
			> "$OUT/$mode-$n.log" 2>&1 ||
			{ echo "bench-insn.sh: the $mode run of $n failed:" >&2; tail -5 "$OUT/$mode-$n.log" >&2; exit 1; }
	done
done
python3 "$TOP/scripts/insnprof/report.py" -n 12 --calls $((2 * (HI - LO))) \
	"$OUT/rec-$HI" "$OUT/rec-$LO" "$OUT/nat-$HI" "$OUT/nat-$LO"
echo "  (goal of issue 3 b, by time: <= 1.5)"
