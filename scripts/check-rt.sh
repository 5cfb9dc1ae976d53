#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# check-rt.sh - `make check-rt`: on a PREEMPT_RT kernel the module refuses
# to load, with a message that says why (kernel/compat.h, FR_PREEMPT_RT).
#
# Unpacks Debian's RT kernel (scripts/kernel-root.sh; RT_VER, default the
# one linux-image-rt-amd64 depends on), builds the module against its
# headers from the DKMS source copy, boots it without the module and, in
# the guest (this script with --guest): the kernel is PREEMPT_RT, insmod
# fails with EOPNOTSUPP, the kernel log has the message, no module stays.
# Last line: N passed, N failed.
set -uo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if [[ ${1:-} == --guest ]]; then
	mod=$2 pass=0 fail=0 n=0
	check() {	# description, status
		n=$((n + 1))
		if [[ $2 == 0 ]]; then
			echo "ok $n $1"; pass=$((pass + 1))
		else
			echo "not ok $n $1"; fail=$((fail + 1))
		fi
	}
	uname -v | grep -q PREEMPT_RT
	check "the kernel is PREEMPT_RT ($(uname -r): $(uname -v))" $?
	out=$(insmod "$mod" 2>&1)
	rc=$?
	echo "# insmod: rc $rc: $out"
	[[ $rc != 0 && $out == *"Operation not supported"* ]]
	check "insmod fails with EOPNOTSUPP" $?
	dmesg | grep -q 'flightrec: PREEMPT_RT kernels are not supported'
	check "the kernel log says why" $?
	[[ ! -e /sys/module/flightrec ]]
	check "no flightrec module stays" $?
	echo "$pass passed, $fail failed"
	((fail == 0))
	exit
fi

cd "$TOP" || exit 1
RT_VER=${RT_VER:-$(apt-cache depends linux-image-rt-amd64 2>/dev/null |
	sed -n 's/^ *Depends: linux-image-\(.*-rt-amd64\)$/\1/p' | head -n 1)}
[[ -n $RT_VER ]] || { echo "check-rt.sh: no linux-image-rt-amd64 known to apt"; exit 1; }
DIR=$(scripts/kernel-root.sh "$RT_VER" "${RT_DIR:-/var/cache/flightrec/kernels/$RT_VER}") || exit 1
MOD=$TOP/build/kmod-$RT_VER
make -s dkms-source DKMS_SRCDIR="$MOD" || exit 1
make -C "$DIR/root/usr/src/linux-headers-$RT_VER" M="$MOD" W=1 modules || exit 1
TEST_KVER=$RT_VER FR_VM_ROOT=$DIR/root scripts/vm.sh --no-module run -- \
	"$TOP/scripts/check-rt.sh" --guest "$MOD/kernel/flightrec.ko"
