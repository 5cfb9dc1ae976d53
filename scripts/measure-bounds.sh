#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Peak RSS and time of `flightrec info`, `log`, the replay image build
# (`replay --save-image`: what `replay` and `gdb` do before the loader runs)
# and the whole `replay` (the loader too, which fills the recorded program's
# memory) on the crafted checkpoints of tests/bounds.c (docs/security.md,
# "Resource bounds").
#
#   scripts/measure-bounds.sh [FLIGHTREC [LOADER]]
#
# Records tests/progs/crash_null with the ptrace fixture (tests/tools/ptsnap,
# no module needed), makes each crafted file with tests/tools/craft_replay,
# and runs each command under /usr/bin/time with a limit of FR_BOUNDS_LIMIT
# seconds (120 by default; a command killed there shows "killed").  Prints a
# Markdown table: file, its size, and per command its peak RSS (MiB), wall
# time (s) and exit status.  FLIGHTREC and LOADER default to this tree's
# user/flightrec and user/loader/flightrec-loader: give an older build's to
# measure it (the crafted files are made by this tree's tools).
# Needs `make -C tests` built (bin/tools/ptsnap, craft_replay, progs/crash_null).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
fr=${1:-$top/user/flightrec}
export FLIGHTREC_LOADER=${2:-$top/user/loader/flightrec-loader}
limit=${FR_BOUNDS_LIMIT:-120}
bin=$top/tests/bin
dir=$(mktemp -d /tmp/flightrec-bounds.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
head -c 100000 /dev/urandom > data.bin
"$bin/tools/ptsnap" --marker -q -o "$dir/cn.flrc" -- "$bin/progs/crash_null" data.bin \
	> /dev/null 2>&1 || true
test -s cn.flrc || { echo "measure-bounds: no recording" >&2; exit 1; }
for a in "expand 60000" "same 100000" "zero 100000" "tids 100000" "counts 20000"; do
	set -- $a
	"$bin/tools/craft_replay" "$1" "$2" cn.flrc "x-$1.flrc"
done

run() {	# NAME CMD...: "RSS_MiB s status" for one command
	name=$1; shift
	rc=0
	/usr/bin/time -f '%M %e' -o "$dir/time.$name" timeout -s KILL "$limit" "$@" \
		> /dev/null 2> "$dir/err.$name" || rc=$?
	set -- $(tail -n 1 "$dir/time.$name")
	if [ "$rc" = 137 ]; then
		echo "killed at ${limit} s"
	else
		awk -v k="$1" -v s="$2" -v rc="$rc" \
			'BEGIN { printf "%.0f MiB, %.2f s, exit %d", k / 1024, s, rc }'
	fi
}

echo "| file | size | info | log | image build | replay |"
echo "|---|---|---|---|---|---|"
for f in cn x-expand x-same x-zero x-tids x-counts; do
	size=$(stat -c %s "$f.flrc")
	i=$(run info "$fr" info "$f.flrc")
	l=$(run log "$fr" log "$f.flrc")
	rm -rf out image
	b=$(run image "$fr" replay -q --save-image image "$f.flrc")
	r=$(run replay "$fr" replay -q --out out "$f.flrc")
	printf '| %s | %s | %s | %s | %s | %s |\n' "$f" \
		"$(awk -v s="$size" 'BEGIN { printf "%.1f MiB", s / 1048576 }')" \
		"$i" "$l" "$b" "$r"
done
