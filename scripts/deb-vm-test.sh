#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# deb-vm-test.sh DEBDIR - install the Debian packages for real, in the test
# VM, and use them: dpkg -i flightrec-dkms and flightrec (the dkms postinst
# builds the module for the running kernel, 6.1 or 6.12, and installs it
# under /lib/modules), modprobe flightrec, flightrec version, then dpkg
# --purge (the module is removed again).  Run by tests/pkg_deb.sh, once per
# tested kernel, as
#   TEST_KVER=KVER scripts/vm.sh --no-module run -- scripts/deb-vm-test.sh DEBDIR [KROOT]
#
# A kernel that is unpacked rather than installed on the host (6.12, in
# KROOT: scripts/kernels.sh root KVER) has no /lib/modules/KVER or headers
# in the host's root: its overlay module is loaded from KROOT, and its
# unpacked modules and headers are put where an installed kernel has them, in the overlay
# (/lib/modules/KVER writable through an overlay of its own, the headers
# and kbuild read-only binds), so dkms finds /lib/modules/KVER/build as on
# a machine with linux-headers-KVER installed.
#
# The VM's root is the host's, read-only: this script puts a writable
# overlayfs (upper layer in tmpfs) over it and chroots into that, so dpkg,
# dkms and depmod write where they would on a real machine and nothing
# reaches the host.  Prints "vm: ok ..." / "vm: not ok ..." lines.
set -uo pipefail

DEBS=$(cd "${1:?usage: deb-vm-test.sh DEBDIR [KROOT]}" && pwd)
KROOT=${2:-}
[[ ${FR_VM:-0} == 1 ]] || { echo "vm: not ok 0 deb-vm-test.sh runs in the test VM only"; exit 1; }

fail=0
say() { echo "vm: $*"; }
res() { if [[ $2 == 0 ]]; then say "ok $1"; else say "not ok $1"; fail=1; fi; }

O=/tmp/fr-overlay
R=$O/root
mkdir -p "$O/up" "$O/work" "$R"
K=$(uname -r)
# an unpacked kernel's modules are not in the root's /lib/modules
if [[ ! -d /lib/modules/$K && -n $KROOT ]]; then
	modprobe -d "$KROOT" overlay
else
	modprobe overlay 2>/dev/null
fi
if ! mount -t overlay overlay -o "lowerdir=/,upperdir=$O/up,workdir=$O/work" "$R"; then
	say "not ok overlay over the read-only root"
	exit 1
fi
if [[ ! -d /lib/modules/$K && -n $KROOT && -d $KROOT/lib/modules/$K ]]; then
	mkdir -p "$O/mod-up" "$O/mod-work" "$R/lib/modules/$K"
	mount -t overlay overlay -o "lowerdir=$KROOT/lib/modules/$K,upperdir=$O/mod-up,workdir=$O/mod-work" \
		"$R/lib/modules/$K" || { say "not ok /lib/modules/$K from $KROOT"; exit 1; }
	for d in "$KROOT"/usr/src/* "$KROOT"/usr/lib/linux-kbuild-*; do
		[[ -d $d ]] || continue
		mkdir -p "$R${d#"$KROOT"}" && mount --bind -o ro "$d" "$R${d#"$KROOT"}" ||
			{ say "not ok bind $d"; exit 1; }
	done
	say "kernel $K: /lib/modules/$K and its headers from $KROOT (unpacked, not installed)"
fi
mount -t proc proc "$R/proc"
mount -t sysfs sysfs "$R/sys"
mount --rbind /dev "$R/dev"
for d in tmp run var/tmp; do mount -t tmpfs tmpfs "$R/$d"; done
# man-db's trigger would re-index every manual page over 9p: not what is
# tested here, and minutes under TCG
rm -f "$R/var/lib/man-db/auto-update"
mkdir -p "$R/root/debs"
cp "$DEBS"/flightrec_*.deb "$DEBS"/flightrec-dkms_*.deb "$R/root/debs/"

# what a user does on a fresh machine, as root
cat >"$R/root/steps.sh" <<'EOF'
set -u
export DEBIAN_FRONTEND=noninteractive LC_ALL=C
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
say() { echo "vm: $*"; }
res() { if [[ $2 == 0 ]]; then say "ok $1"; else say "not ok $1"; fail=1; fi; }
fail=0
K=$(uname -r)
V=$(dpkg-deb -f /root/debs/flightrec_*.deb Version)

t0=$(date +%s)
# FR_DEB_TRACE=1: what runs, every 15 s (where the minutes go under TCG)
if [[ -n ${FR_DEB_TRACE:-} ]]; then
	(while sleep 15; do
		echo "    [$(( $(date +%s) - t0 ))s] $(ps -eo args --sort=-start_time |
			grep -vE '^(ps|grep|sleep|head|cut|\[)' | head -n 1 | cut -c1-120)"
	done) &
	tracer=$!
fi
dpkg -i /root/debs/flightrec-dkms_*.deb /root/debs/flightrec_*.deb >/root/dpkg.log 2>&1
rc=$?
[[ -n ${tracer:-} ]] && kill $tracer
sed 's/^/    /' /root/dpkg.log | tail -n 25
res "dpkg -i flightrec-dkms flightrec ($(( $(date +%s) - t0 )) s)" $rc

ko=$(ls /lib/modules/$K/updates/dkms/flightrec.ko* 2>/dev/null | head -n 1)
st=$(dkms status flightrec 2>&1)
echo "    dkms status: $st"
[[ -n $ko ]] && grep -q "flightrec/$V, $K, .*: installed" <<<"$st"
res "dkms built and installed flightrec $V for $K (${ko:-no module})" $?

[[ $(modinfo -F version flightrec 2>/dev/null) == "$V" ]]
res "modinfo flightrec: version $V" $?

out=$(modprobe flightrec 2>&1 && flightrec version 2>&1)
rc=$?
echo "$out" | sed 's/^/    /'
[[ $rc == 0 ]] && grep -qx "flightrec $V (ABI [0-9]*)" <<<"$out" &&
	grep -qx "module $V (ABI [0-9]*)" <<<"$out"
res "modprobe flightrec && flightrec version: tool and module $V" $?

grep -q "^version $V " /proc/flightrec/status 2>/dev/null
res "/proc/flightrec/status says version $V" $?

man -w flightrec-record >/dev/null 2>&1 && man -w 4 flightrec >/dev/null 2>&1 &&
	[[ -x /usr/libexec/flightrec/flightrec-loader ]] &&
	[[ -f /lib/systemd/system/flightrec-watch.service ]]
res "man pages, loader and unit installed" $?

rmmod flightrec
res "rmmod flightrec" $?

dpkg --purge flightrec flightrec-dkms >/root/purge.log 2>&1
rc=$?
tail -n 8 /root/purge.log | sed 's/^/    /'
[[ $rc == 0 && -z $(ls /lib/modules/$K/updates/dkms/flightrec.ko* 2>/dev/null) &&
	! -e /usr/bin/flightrec && ! -e /usr/src/flightrec-$V ]]
res "dpkg --purge removes the tools, the source and the module" $?
exit $fail
EOF
chroot "$R" /bin/bash /root/steps.sh
rc=$?

umount -R "$R" 2>/dev/null || umount -l "$R"
exit $((rc || fail))
