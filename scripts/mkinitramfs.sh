#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh KVER OUT - build the test VM's initramfs.
#
# Contents: a static busybox, scripts/vm-init.sh as /init, and the modules the
# guest needs to mount the host over 9p (virtio_pci, 9pnet_virtio, 9p and what
# modules.dep says they depend on), copied from /lib/modules/KVER and
# decompressed when the distribution ships them compressed.  The list of
# modules in load order is /lib/modules/load-order; fuse and loop too where
# the kernel has them as modules.
#
# FR_VM_MODDIR replaces /lib/modules/KVER: a kernel unpacked elsewhere
# (scripts/kernel-root.sh, FR_VM_ROOT in vm.sh), or the build tree of a
# kernel with those drivers built in (scripts/build-debug-kernel.sh), which
# has modules.builtin and no modules.dep: the initramfs then carries no
# module.
#
# The result is cached: OUT is rebuilt only when one of its inputs changed
# (KVER, busybox, the module files, vm-init.sh, this script).  Concurrent
# callers are serialised with a lock; OUT is replaced atomically.
set -euo pipefail

KVER=${1:?usage: mkinitramfs.sh KVER OUT}
OUT=${2:?usage: mkinitramfs.sh KVER OUT}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MODDIR=${FR_VM_MODDIR:-/lib/modules/$KVER}
BUSYBOX=${FR_BUSYBOX:-/bin/busybox}
WANT_MODULES=(virtio_pci 9pnet_virtio 9p)
# loaded when the kernel has them as modules: FUSE, for
# record_process.fuse_daemon_dumped (a kernel without it skips that case);
# loop, for record_memory.written_after_swap_out (a swap device on a loop
# device over a file in /tmp)
OPTIONAL_MODULES=(fuse loop)

die() { echo "mkinitramfs: $*" >&2; exit 1; }

[[ -f $MODDIR/modules.dep || -f $MODDIR/modules.builtin ]] ||
	die "$MODDIR/modules.dep not found (install linux-image-$KVER)"
[[ -x $BUSYBOX ]] || die "$BUSYBOX not found (install busybox-static)"
if ldd "$BUSYBOX" >/dev/null 2>&1; then
	die "$BUSYBOX is dynamically linked; install busybox-static"
fi

# name (dashes or underscores) -> path relative to MODDIR, from modules.dep
modpath() {
	local want=${1//-/_}
	[[ -f $MODDIR/modules.dep ]] || return 0
	awk -F: -v want="$want" '{
		n = $1; sub(".*/", "", n); sub("\\.ko(\\.(xz|gz|zst))?$", "", n);
		gsub("-", "_", n);
		if (n == want) { print $1; exit }
	}' "$MODDIR/modules.dep"
}

builtin() {
	local want=${1//-/_}
	[[ -f $MODDIR/modules.builtin ]] || return 1
	sed 's|.*/||; s|\.ko$||; s|-|_|g' "$MODDIR/modules.builtin" | grep -qx "$want"
}

# Resolve dependencies depth first so that every module follows its deps.
declare -A seen=()
order=()
add_path() {
	local p=$1 d
	[[ -n ${seen[$p]:-} ]] && return 0
	seen[$p]=1
	for d in $(awk -F: -v p="$p" '$1 == p { print $2; exit }' "$MODDIR/modules.dep"); do
		add_path "$d"
	done
	order+=("$p")
}
for m in "${WANT_MODULES[@]}"; do
	p=$(modpath "$m")
	if [[ -z $p ]]; then
		builtin "$m" && continue
		die "module $m is neither in $MODDIR/modules.dep nor built in"
	fi
	add_path "$p"
done
for m in "${OPTIONAL_MODULES[@]}"; do
	p=$(modpath "$m")
	[[ -n $p ]] && add_path "$p"
done

# Cache key: everything that goes into the image.
key=$( {
	echo "kver=$KVER moddir=$MODDIR"
	echo "modules=${order[*]}"
	for p in "${order[@]}"; do stat -c '%n %s %Y' "$MODDIR/$p"; done
	stat -c '%n %s %Y' "$(readlink -f "$BUSYBOX")"
	sha256sum "$HERE/vm-init.sh" "${BASH_SOURCE[0]}"
} | sha256sum | cut -d' ' -f1)

mkdir -p "$(dirname "$OUT")"
exec 9>"$OUT.lock"
flock 9
if [[ -f $OUT && -f $OUT.key && $(cat "$OUT.key") == "$key" ]]; then
	exit 0
fi

stage=$(mktemp -d "${OUT}.stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,newroot,lib/modules}
cp "$BUSYBOX" "$stage/bin/busybox"
cp "$HERE/vm-init.sh" "$stage/init"
chmod 0755 "$stage/init" "$stage/bin/busybox"
: >"$stage/lib/modules/load-order"
for p in "${order[@]}"; do
	name=$(basename "$p")
	case $name in
	*.ko.xz)  xz -dc "$MODDIR/$p" >"$stage/lib/modules/${name%.xz}" ;;
	*.ko.gz)  gzip -dc "$MODDIR/$p" >"$stage/lib/modules/${name%.gz}" ;;
	*.ko.zst) zstd -q -dc "$MODDIR/$p" >"$stage/lib/modules/${name%.zst}" ;;
	*.ko)     cp "$MODDIR/$p" "$stage/lib/modules/$name" ;;
	*)        die "unexpected module file $p" ;;
	esac
	name=${name%.xz}; name=${name%.gz}; name=${name%.zst}
	echo "$name" >>"$stage/lib/modules/load-order"
done

(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --quiet) >"$OUT.tmp.$$"
mv -f "$OUT.tmp.$$" "$OUT"
echo "$key" >"$OUT.key"
echo "mkinitramfs: built $OUT for $KVER ($(tr '\n' ' ' <"$stage/lib/modules/load-order"))" >&2
