#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu.sh fetch | path - the QEMU the test VM runs under.
#
# Debian 12's QEMU (7.2) keys its TCG translation cache by the guest's
# virtual addresses: every program that ASLR places anew (a PIE, every
# shared library) is translated again at each exec, which made a process's
# start cost far more under emulation than on hardware (flightrec
# --help 21-30 ms, /bin/true 40-47 ms; docs/testing.md, "The emulator").
# Newer QEMUs translate x86 code position-independently (a block is found
# again by its physical address): under 10.0 the same binaries start in a
# third of the time (measured; docs/testing.md).  bookworm-backports has such a QEMU built for Debian
# 12; it is unpacked here, not installed: the system's qemu-system-x86
# (deps.sh) stays, for its libraries and for scripts/insnprof.sh, whose
# plugin speaks 7.2's plugin API.
#
#   qemu.sh fetch   unpack bookworm-backports' qemu-system-x86 under
#                   FR_QEMU_CACHE (default /var/cache/flightrec/qemu), with
#                   a private copy of that archive's package index; where
#                   it cannot be had (no network, the archive gone), say so
#                   and leave the system's QEMU in use (exit 0)
#   qemu.sh path    the qemu-system-x86_64 to run: FR_VM_QEMU if set, else
#                   the unpacked one where it runs, else the system's
set -euo pipefail

CACHE=${FR_QEMU_CACHE:-/var/cache/flightrec/qemu}
SUITE=bookworm-backports
MIRROR=${FR_QEMU_MIRROR:-http://deb.debian.org/debian}
WRAP=$CACHE/bin/qemu-system-x86_64

say() { echo "qemu.sh: $*" >&2; }

# The unpacked QEMU, through a wrapper that gives it its own firmware
# directory first (-L), then the system's seabios and QEMU data.
fetch() {
	local tmp apt ver p
	[[ -x $WRAP ]] && "$WRAP" --version >/dev/null 2>&1 && return 0
	tmp=$CACHE/tmp
	rm -rf "$tmp" && mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial" "$tmp/debs"
	echo "deb $MIRROR $SUITE main" >"$tmp/sources.list"
	apt=(-o Dir::Etc::sourcelist="$tmp/sources.list" -o Dir::Etc::sourceparts=-
	     -o Dir::State::Lists="$tmp/lists" -o Dir::Cache="$tmp/cache"
	     -o APT::Get::List-Cleanup=0 -o APT::Sandbox::User=root)
	apt-get -q "${apt[@]}" update >&2 || return 1
	ver=$(apt-cache "${apt[@]}" madison qemu-system-x86 |
	      awk -F' *[|] *' -v s="$SUITE" 'index($3, s) { print $2; exit }')
	[[ -n $ver ]] || { say "no qemu-system-x86 in $SUITE"; return 1; }
	(cd "$tmp/debs" && apt-get -q "${apt[@]}" download \
		"qemu-system-x86=$ver" "qemu-system-common=$ver" "qemu-system-data=$ver") >&2 ||
		return 1
	rm -rf "${CACHE:?}/root" "${CACHE:?}/bin"
	mkdir -p "$CACHE/root" "$CACHE/bin"
	for p in "$tmp"/debs/*.deb; do
		dpkg -x "$p" "$CACHE/root" || return 1
	done
	cat >"$WRAP" <<-EOF
	#!/bin/sh
	# qemu-system-x86 $ver ($SUITE), unpacked by scripts/qemu.sh
	exec "$CACHE/root/usr/bin/qemu-system-x86_64" -L "$CACHE/root/usr/share/qemu" \\
		-L /usr/share/seabios -L /usr/share/qemu "\$@"
	EOF
	chmod +x "$WRAP"
	rm -rf "$tmp"
	# its libraries are those of Debian 12's QEMU (deps.sh installs it)
	"$WRAP" --version >/dev/null || { say "the unpacked QEMU does not run"; return 1; }
	say "$("$WRAP" --version | head -n 1), unpacked in $CACHE"
}

case ${1:-} in
fetch)
	fetch || say "bookworm-backports' QEMU could not be unpacked: the test VM runs under the system's ($(qemu-system-x86_64 --version 2>/dev/null | head -n 1))"
	;;
path)
	if [[ -n ${FR_VM_QEMU:-} ]]; then
		echo "$FR_VM_QEMU"
	elif [[ -x $WRAP ]] && "$WRAP" --version >/dev/null 2>&1; then
		echo "$WRAP"
	else
		command -v qemu-system-x86_64 || { say "qemu-system-x86_64 not found: run scripts/deps.sh"; exit 1; }
	fi
	;;
*)
	echo "usage: qemu.sh fetch | path" >&2
	exit 2
	;;
esac
