#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# fuzz_short.sh - a bounded libFuzzer run of the checkpoint reader, as one
# TAP test case (installed as tests/bin/fuzz_checkpoint by tests/fuzz.mk).
# The seed corpus is copied to a scratch directory, so the tree stays as it
# is.  FUZZ_SHORT_TIME: seconds (default 20).  Skips when the libFuzzer
# binary could not be built (no clang with libFuzzer).
set -uo pipefail

HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
# Installed in tests/bin, or run from tests/.
if [[ -d $HERE/fuzz ]]; then BIN=$HERE; else BIN=$HERE/bin; fi
TESTS=$(cd "$BIN/.." && pwd)
FUZZER=$BIN/fuzz/fuzz_checkpoint
SEEDS=$TESTS/corpus/checkpoint
SECS=${FUZZ_SHORT_TIME:-20}

echo "TAP version 13"
echo "1..1"
if [[ ! -x $FUZZER ]]; then
	echo "ok 1 fuzz_checkpoint # SKIP $FUZZER not built (needs clang with libFuzzer)"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-checkpoint.XXXXXX") || {
	echo "not ok 1 fuzz_checkpoint # no scratch directory"
	exit 1
}
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/corpus"
cp "$SEEDS"/* "$tmp/corpus/" 2>/dev/null

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}:abort_on_error=0
"$FUZZER" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 \
	-malloc_limit_mb=512 -print_final_stats=1 \
	-artifact_prefix="$tmp/" "$tmp/corpus" >"$tmp/log" 2>&1
rc=$?
grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ +DONE)' "$tmp/log" |
	sed 's/^/# /'
if ((rc == 0)); then
	echo "# corpus: $(ls "$tmp/corpus" | wc -l) inputs after ${SECS}s"
	echo "ok 1 fuzz_checkpoint"
	exit 0
fi
echo "# libFuzzer exited with status $rc; the end of its output:"
tail -n 40 "$tmp/log" | sed 's/^/# /'
for a in "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* "$tmp"/oom-*; do
	[[ -e $a ]] || continue
	echo "# input $(basename "$a") ($(stat -c %s "$a") bytes):"
	od -A x -t x1z -v "$a" | head -n 32 | sed 's/^/#   /'
done
echo "not ok 1 fuzz_checkpoint"
exit 1
