#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# insnprof.sh OUT -- CMD [ARG...]
#
# Runs CMD in the test VM under TCG with a QEMU plugin that counts every
# translated block of guest kernel code as it runs (scripts/insnprof/).
# Writes OUT.tb (block address, instructions, times run) and OUT.ksyms (the
# guest's /proc/kallsyms of that boot, KASLR included).  Then
#   scripts/insnprof/report.py OUT [BASE]     instructions per function
#   scripts/insnprof/report.py OUT -f NAME    the blocks of one function
# Counts cover the whole boot, or what runs between `build/insnprof/mark
# start` and `mark stop` where CMD runs those: compare two runs that differ
# only in what is measured (a recorded run against a native one, a module
# against another).
# FR_INSNPROF_USER=1: user blocks one by one too, for
#   scripts/insnprof/report.py OUT --user BIN@ADDR    instructions per user function
# (docs/testing.md, "Counting instructions").
# The environment of scripts/vm.sh applies (FR_MODULE, FR_VM_DEBUG=0, ...).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)

die() { echo "insnprof.sh: $*" >&2; exit 1; }
[[ $# -ge 3 && $2 == -- ]] || die "usage: insnprof.sh OUT -- CMD [ARG...]"
OUT=$(realpath -m "$1")
shift 2
BUILD=$ROOT/build/insnprof
mkdir -p "$BUILD" "$(dirname "$OUT")"

${CC:-cc} -O2 -shared -fPIC -Wall -Wextra -Werror -o "$BUILD/tbcount.so" \
	"$HERE/insnprof/tbcount.c" || die "cannot build the plugin"
# build/insnprof/mark start|stop in CMD: count only what runs in between
${CC:-cc} -O2 -Wall -Wextra -Werror -o "$BUILD/mark" "$HERE/insnprof/mark.c" ||
	die "cannot build the marker"

# the command, then the symbols of this boot, from inside the guest
RUN=$BUILD/run-$$.sh
{
	echo '#!/bin/bash'
	printf '%q ' "$@"
	echo
	echo 'rc=$?'
	printf 'cat /proc/kallsyms > %q\n' "$OUT.ksyms"
	echo 'exit $rc'
} > "$RUN"
chmod +x "$RUN"
rm -f "$OUT.tb" "$OUT.ksyms"
rc=0
# the plugin speaks the plugin API of Debian 12's QEMU (7.2): that QEMU runs
# it, whatever scripts/qemu.sh unpacked, on its "-cpu max" (with ERMS): the CPU
# that every count in the docs was taken on
FR_VM_QEMU=${FR_VM_QEMU:-$(command -v qemu-system-x86_64)} FR_VM_CPU=${FR_VM_CPU:-max} \
FR_VM_ACCEL=tcg FR_VM_PLUGIN="$BUILD/tbcount.so,out=$OUT.tb${FR_INSNPROF_USER:+,user=1}" \
	"$HERE/vm.sh" run -- "$RUN" || rc=$?
rm -f "$RUN"
[[ -s $OUT.tb && -s $OUT.ksyms ]] || die "no counts written (vm.sh exit $rc)"
echo "insnprof.sh: $OUT.tb, $OUT.ksyms"
exit $rc
