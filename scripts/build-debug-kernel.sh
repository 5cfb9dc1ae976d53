#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# build-debug-kernel.sh - build (once) the debug kernel that `make check-debug`
# runs the test suite on, and print the directory that holds it.
#
# The kernel is Debian's 6.1 source (/usr/src/linux-source-6.1.tar.xz, package
# linux-source-6.1) configured from x86_64 defconfig + kvm_guest.config +
# scripts/debug-kernel.config (KASAN, KFENCE, lockdep, KMEMLEAK, UBSAN, fault
# injection, and the rig's drivers built in).  The result is cached outside
# the project tree, in
#     ${FR_DEBUG_KERNEL_CACHE:-/var/cache/flightrec}/debug-kernel-KEY/
# where KEY hashes the source package's version, the fragment and this
# script; the directory holds
#     bzImage     the kernel the VM boots
#     kver        its release string (uname -r in the guest)
#     obj/        the build tree: `make -C obj M=...` builds external modules,
#                 obj/vmlinux decodes kernel addresses (scripts/faddr2line)
#     src/        the source tree obj/ was built from
#     build.log   the build's output, and build-time (seconds)
# A second run finds `KEY/kver` and only prints the directory.
#
# usage: scripts/build-debug-kernel.sh [--dir]
#   --dir   print the directory the kernel is (or would be) cached in and
#           exit 0 when it is built, 1 when it is not; builds nothing.
# environment: FR_DEBUG_KERNEL_CACHE (cache root), FR_DEBUG_KERNEL_JOBS
# (make -j, default: the number of CPUs), FR_DEBUG_KERNEL_SRC (the tarball).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FRAGMENT=$HERE/debug-kernel.config
TARBALL=${FR_DEBUG_KERNEL_SRC:-/usr/src/linux-source-6.1.tar.xz}
ROOT=${FR_DEBUG_KERNEL_CACHE:-/var/cache/flightrec}
JOBS=${FR_DEBUG_KERNEL_JOBS:-$(nproc)}

say() { echo "build-debug-kernel: $*" >&2; }
die() { echo "build-debug-kernel: FAIL: $*" >&2; exit 1; }

[[ -r $TARBALL ]] || die "$TARBALL not found (apt-get install linux-source-6.1)"
[[ -r $FRAGMENT ]] || die "$FRAGMENT is missing"
srcver=$(dpkg-query -W -f '${Version}' linux-source-6.1 2>/dev/null ||
	stat -c '%s-%Y' "$TARBALL")
key=$( {
	echo "source=$(basename "$TARBALL") $srcver"
	cat "$FRAGMENT"
	# the build steps below, not the comments at the top
	sed -n '/^# ---- build ----/,$p' "${BASH_SOURCE[0]}"
} | sha256sum | cut -c1-16)
DIR=$ROOT/debug-kernel-$key

if [[ ${1:-} == --dir ]]; then
	echo "$DIR"
	[[ -s $DIR/kver && -s $DIR/bzImage ]]
	exit
fi
[[ $# == 0 ]] || die "usage: scripts/build-debug-kernel.sh [--dir]"

# ---- build ----
for tool in make gcc flex bison bc perl; do
	command -v "$tool" >/dev/null || die "$tool not found (scripts/deps.sh installs what the build needs)"
done
[[ -r /usr/include/gelf.h ]] || die "libelf-dev is missing (objtool needs it; scripts/deps.sh)"
[[ -r /usr/include/openssl/ssl.h ]] || die "libssl-dev is missing (scripts/deps.sh)"
mkdir -p "$ROOT"
exec 9>"$ROOT/debug-kernel-$key.lock"
if ! flock -n 9; then
	say "another build of $DIR is running; waiting for it"
	flock 9
fi
if [[ -s $DIR/kver && -s $DIR/bzImage ]]; then
	say "cached: $(cat "$DIR/kver") in $DIR"
	echo "$DIR"
	exit 0
fi

mkdir -p "$DIR"
SRC=$DIR/src
OBJ=$DIR/obj
if [[ ! -f $SRC/.extracted ]]; then
	say "extracting $TARBALL into $SRC"
	rm -rf "$SRC" "$SRC.tmp"
	mkdir -p "$SRC.tmp"
	tar -xJf "$TARBALL" -C "$SRC.tmp" --strip-components=1
	touch "$SRC.tmp/.extracted"
	mv "$SRC.tmp" "$SRC"
fi

mkdir -p "$OBJ"
t0=$(date +%s)
kmake() { make -C "$SRC" O="$OBJ" LOCALVERSION=-frdebug "$@"; }
{
	kmake defconfig &&
	kmake kvm_guest.config &&
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$OBJ" "$OBJ/.config" "$FRAGMENT" &&
	kmake olddefconfig
} >"$DIR/build.log" 2>&1 || die "configuring failed: see $DIR/build.log"
# Every line of the fragment must have survived olddefconfig.
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=*) want=$line; opt=${line%%=*} ;;
	"# CONFIG_"*" is not set") opt=${line#\# }; opt=${opt%% *}; want="# $opt is not set" ;;
	*) continue ;;
	esac
	got=$(grep -E "^($opt=|# $opt is not set)" "$OBJ/.config" || true)
	if [[ $got != "$want" && ! ( -z $got && $want == "# "* ) ]]; then
		say "config: wanted '$want', Kconfig gave '${got:-nothing}'"
		bad=1
	fi
done <"$FRAGMENT"
((bad == 0)) || die "the config fragment does not hold (see above)"

say "building $(kmake -s kernelrelease) with -j$JOBS; log in $DIR/build.log"
kmake -j"$JOBS" bzImage modules >>"$DIR/build.log" 2>&1 ||
	die "the build failed: see the end of $DIR/build.log"
t1=$(date +%s)
cp "$OBJ/arch/x86/boot/bzImage" "$DIR/bzImage"
echo $((t1 - t0)) >"$DIR/build-time"
kmake -s kernelrelease >"$DIR/kver.tmp"
mv "$DIR/kver.tmp" "$DIR/kver"
say "built $(cat "$DIR/kver") in $((t1 - t0))s: $DIR"
echo "$DIR"
