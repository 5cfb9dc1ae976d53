#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kernels.sh - the one place that knows which kernels flightrec is tested on
# and where each one's image, modules, headers and module build live.  The
# Makefile, scripts/deps.sh, scripts/check.sh and tests/pkg_dkms.sh ask it.
#
#   kernels.sh list          the kernels `make check` tests, one per line,
#                            6.1 first: FR_KERNELS if set, else one per
#                            supported series (FR_SERIES, "6.1 6.12")
#   kernels.sh default       the first series' kernel (6.1): the one
#                            kernel/flightrec.ko is built for, what vm.sh
#                            boots when TEST_KVER does not say
#   kernels.sh kdir KVER     its headers (the tree to build the module against)
#   kernels.sh root KVER     where it is unpacked (scripts/kernel-root.sh, for
#                            vm.sh's FR_VM_ROOT), empty for an installed kernel
#   kernels.sh module KVER   the module built for it: kernel/flightrec.ko for
#                            the default kernel (`make check-build`), else
#                            build/kmod-KVER/kernel/flightrec.ko (built from
#                            the DKMS source copy, so kernel/ keeps its build)
#   kernels.sh fetch         unpack the listed kernels that are not installed
#
# A series' kernel is the newest installed Debian one (/usr/src/linux-headers-
# KVER with /boot/vmlinuz-KVER and /lib/modules/KVER; -rt and -cloud flavours
# left out); a series with none installed is unpacked from Debian's packages
# into FR_KERNEL_CACHE/KVER without installing it (scripts/kernel-root.sh):
# K612_VER for 6.12.  6.1 is installed by scripts/deps.sh
# (linux-image-amd64).  Installing a second series system-wide is not
# needed, and it is not what the test rig does: the 6.1 build of other
# users of the machine keeps its headers.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${FR_KERNEL_CACHE:-/var/cache/flightrec/kernels}
SERIES=${FR_SERIES:-6.1 6.12}
K612_VER=${K612_VER:-6.12.115+deb12-amd64}

die() { echo "kernels.sh: $*" >&2; exit 1; }

# installed KVERs (complete: headers, image, modules), oldest first
installed() {
	local d k
	for d in /usr/src/linux-headers-*-amd64; do
		[[ -f $d/Makefile ]] || continue
		k=${d#/usr/src/linux-headers-}
		[[ $k == *-rt-amd64 || $k == *-cloud-amd64 ]] && continue
		[[ -e /boot/vmlinuz-$k && -d /lib/modules/$k ]] && echo "$k"
	done | sort -V
}

series_of() {	# 6.12.115+deb12-amd64 -> 6.12, 6.1.0-56-amd64 -> 6.1
	sed -E 's/^([0-9]+\.[0-9]+)[.-].*/\1/' <<<"$1"
}

# the unpacked kernel for a series with none installed
unpacked_for() {
	case $1 in
	6.12) echo "$K612_VER" ;;
	*) return 1 ;;
	esac
}

series_kernels() {
	local s k
	for s in $SERIES; do
		k=$(installed | while read -r i; do
			if [[ $(series_of "$i") == "$s" ]]; then echo "$i"; fi
		done | tail -n 1)
		[[ -n $k ]] || k=$(unpacked_for "$s") ||
			die "no $s kernel installed (scripts/deps.sh installs 6.1)"
		echo "$k"
	done
}

list() {
	if [[ -n ${FR_KERNELS:-} ]]; then
		tr ' ' '\n' <<<"$FR_KERNELS" | sed '/^$/d'
	else
		series_kernels
	fi
}

default() {
	local s=${SERIES%% *}
	SERIES=$s series_kernels
}

is_installed() {
	[[ -f /usr/src/linux-headers-$1/Makefile && -e /boot/vmlinuz-$1 && -d /lib/modules/$1 ]]
}

root() {
	is_installed "$1" && return 0
	echo "$CACHE/$1/root"
}

kdir() {
	if [[ -f /usr/src/linux-headers-$1/Makefile ]]; then
		echo "/usr/src/linux-headers-$1"
	else
		echo "$CACHE/$1/root/usr/src/linux-headers-$1"
	fi
}

module() {
	if [[ $1 == "$(default)" ]]; then
		echo "$TOP/kernel/flightrec.ko"
	else
		echo "$TOP/build/kmod-$1/kernel/flightrec.ko"
	fi
}

case ${1:-} in
list) list ;;
default) default ;;
kdir) kdir "${2:?kernels.sh kdir KVER}" ;;
root) root "${2:?kernels.sh root KVER}" ;;
module) module "${2:?kernels.sh module KVER}" ;;
fetch)
	for k in $(list); do
		is_installed "$k" && continue
		"$TOP/scripts/kernel-root.sh" "$k" "$CACHE/$k" >/dev/null ||
			die "cannot unpack $k into $CACHE/$k"
		echo "kernels.sh: $k: unpacked in $CACHE/$k, not installed" >&2
	done
	;;
*) die "usage: kernels.sh list | default | kdir KVER | root KVER | module KVER | fetch" ;;
esac
