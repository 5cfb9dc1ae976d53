#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fuzz_short.sh - a bounded libFuzzer run of one target, as one TAP test
# case.  tests/fuzz.mk installs it as tests/bin/fuzz_NAME for each target
# bin/fuzz/fuzz_NAME (checkpoint: the reader; commands: info, log and the
# replay image build), with that target's limits in place of the marker
# below.  The seed corpus is copied to a scratch directory, so the tree
# stays as it is.  FUZZ_SHORT_TIME: seconds (default 20).  Skips when the
# libFuzzer binary could not be built (no clang with libFuzzer).
set -uo pipefail

HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
# Installed in tests/bin, or run from tests/.
if [[ -d $HERE/fuzz ]]; then BIN=$HERE; else BIN=$HERE/bin; fi
TESTS=$(cd "$BIN/.." && pwd)
NAME=$(basename "${BASH_SOURCE[0]}")
FUZZER=$BIN/fuzz/$NAME
SEEDS=$TESTS/corpus/checkpoint
SECS=${FUZZ_SHORT_TIME:-20}
LIMITS="@FUZZ_LIMITS@"		# fuzz.mk's FUZZ_LIMITS_NAME
[[ $LIMITS == *FUZZ_LIMITS* ]] && LIMITS="-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512"

echo "TAP version 13"
echo "1..1"
if [[ ! -x $FUZZER ]]; then
	echo "ok 1 $NAME # SKIP $FUZZER not built (needs clang with libFuzzer)"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/$NAME.XXXXXX") || {
	echo "not ok 1 $NAME # no scratch directory"
	exit 1
}
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/corpus"
cp "$SEEDS"/* "$tmp/corpus/" 2>/dev/null

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}:abort_on_error=0
# shellcheck disable=SC2086 # the limits are several words
"$FUZZER" -max_total_time="$SECS" $LIMITS -print_final_stats=1 \
	-artifact_prefix="$tmp/" "$tmp/corpus" >"$tmp/log" 2>&1
rc=$?
grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' "$tmp/log" |
	sed 's/^/# /'
if ((rc == 0)); then
	echo "# corpus: $(ls "$tmp/corpus" | wc -l) inputs after ${SECS}s"
	echo "ok 1 $NAME"
	exit 0
fi
echo "# libFuzzer exited with status $rc; the end of its output:"
tail -n 40 "$tmp/log" | sed 's/^/# /'
for a in "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* "$tmp"/oom-*; do
	[[ -e $a ]] || continue
	echo "# input $(basename "$a") ($(stat -c %s "$a") bytes):"
	od -A x -t x1z -v "$a" | head -n 32 | sed 's/^/#   /'
done
echo "not ok 1 $NAME"
exit 1
