#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# pkg_dkms.sh - DKMS builds the module from its source tree (`make
# dkms-source`: what flightrec-dkms ships) for every installed kernel with
# headers and every kernel the suite tests (scripts/kernels.sh list: the 6.1
# and 6.12 LTS series), and the result is a module for that kernel: its
# vermagic is the one of the kernel's own modules, its version is VERSION.
# A tested kernel that is unpacked rather than installed (6.12: scripts/
# kernel-root.sh) is built with `dkms build --kernelsourcedir` on its
# headers; its own modules are in its unpacked /lib/modules.
#
# Nothing of the system is touched: `dkms add` and `dkms build` run with a
# scratch dkms tree and source tree (--dkmstree, --sourcetree), and the
# module signing key that dkms would make in /var/lib/dkms goes to the
# scratch directory too (mok_signing_key, mok_certificate).  `dkms install`
# (which writes /lib/modules and needs root) is not run here: the Debian
# package test (pkg_deb) installs for real, in the test VM.
#
# Runs on the host (tests/bin/pkg_dkms, `make check-pkg`); in the test VM it
# skips (the VM boots one kernel; building there under TCG is slow, and
# pkg_deb already builds with dkms in the VM).
set -uo pipefail

HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
TOP=${FR_TOP:-$(cd "$HERE/.." && pwd)}
[[ -f $TOP/VERSION ]] || TOP=$(cd "$HERE/../.." && pwd)

# shellcheck source=lib/pkg_tap.sh
. "$TOP/tests/lib/pkg_tap.sh"

echo "TAP version 13"
if [[ ${FR_VM:-0} == 1 ]]; then
	echo "1..1"
	echo "ok 1 dkms build # SKIP runs on the host: make check-pkg"
	exit 0
fi
if ! command -v dkms >/dev/null; then
	echo "1..1"
	echo "not ok 1 dkms build # no dkms: run scripts/deps.sh"
	exit 1
fi

# every kernel with headers, and the tested ones (installed or unpacked)
kernels=()
for d in /lib/modules/*/build; do
	[[ -f $d/Makefile ]] && kernels+=("$(basename "$(dirname "$d")")")
done
tested=$("$TOP/scripts/kernels.sh" list 2>&1)
tested_rc=$?
[[ $tested_rc == 0 ]] || tested=
declare -A ksrc=() kroot=()
for k in $tested; do
	[[ " ${kernels[*]} " == *" $k "* ]] && continue
	kernels+=("$k")
	ksrc[$k]=$("$TOP/scripts/kernels.sh" kdir "$k")
	kroot[$k]=$("$TOP/scripts/kernels.sh" root "$k")
done
echo "1..$((4 + 3 * ${#kernels[@]}))"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fr-pkg-dkms.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub
DK=(dkms --dkmstree "$tmp/tree" --sourcetree "$tmp/src")
sys_before=$(ls -la --time-style=full-iso /var/lib/dkms 2>&1)

bad=
for k in $tested; do
	[[ -f $("$TOP/scripts/kernels.sh" kdir "$k")/Makefile ]] || bad+=" $k"
done
[[ $tested_rc == 0 && -n $tested && -z $bad ]]
check "kernels: ${kernels[*]:-none} (the tested ones, $(echo $tested), with headers)" $? \
	"scripts/kernels.sh list: rc $tested_rc; no headers for:${bad:- -} (scripts/deps.sh fetches them)"

out=$(make -s -C "$TOP" dkms-source DKMS_SRCDIR="$tmp/src/flightrec-$V" 2>&1) &&
	mkdir -p "$tmp/tree" &&
	out+=$("${DK[@]}" add -m flightrec -v "$V" 2>&1)
check "dkms add flightrec/$V (scratch trees)" $? "$out"

for k in "${kernels[@]}"; do
	src=()
	[[ -n ${ksrc[$k]:-} ]] && src=(--kernelsourcedir="${ksrc[$k]}")
	out=$(timeout 900 "${DK[@]}" build -m flightrec -v "$V" -k "$k" "${src[@]}" 2>&1)
	rc=$?
	[[ $rc != 0 ]] && out+=$'\n'$(tail -n 30 "$tmp/tree/flightrec/$V/build/make.log" 2>/dev/null)
	check "dkms build for $k" $rc "$(tail -n 40 <<<"$out")"

	ko=$tmp/tree/flightrec/$V/$k/$(uname -m)/module/flightrec.ko
	[[ -f $ko ]] || ko=$(ls "$tmp/tree/flightrec/$V/$k"/*/module/flightrec.ko* 2>/dev/null | head -n 1)
	# the kernel's own modules say what a module for it must say
	ref=$(find "${kroot[$k]:-}/lib/modules/$k/kernel" -name '*.ko*' 2>/dev/null | head -n 1)
	want=$([[ -n $ref ]] && modinfo -F vermagic "$ref" 2>/dev/null)
	got=$([[ -f $ko ]] && modinfo -F vermagic "$ko" 2>/dev/null)
	[[ -n $got && $got == "$want" && $got == "$k "* ]]
	check "vermagic of the built module is $k's" $? "got '$got', $k's modules: '$want' (${ref:-no module found})"

	mv=$([[ -f $ko ]] && modinfo -F version "$ko" 2>/dev/null)
	[[ $mv == "$V" ]]
	check "modinfo version of the built module is $V" $? "got '$mv'"
done

st=$("${DK[@]}" status -m flightrec 2>&1)
bad=
for k in "${kernels[@]}"; do
	grep -q "flightrec/$V, $k, [^:]*: built" <<<"$st" || bad+=" $k"
done
[[ -z $bad ]]
check "dkms status: built for every kernel" $? "not built for:$bad; status: $st"

sys_after=$(ls -la --time-style=full-iso /var/lib/dkms 2>&1)
[[ $sys_before == "$sys_after" && ! -e /var/lib/dkms/flightrec ]]
check "the system's dkms tree (/var/lib/dkms) is untouched" $? \
	"before: $sys_before"$'\n'"after: $sys_after"

((failed == 0))
