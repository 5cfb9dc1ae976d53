#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# pkg_deb.sh - the Debian packages: `make deb` builds flightrec,
# flightrec-dkms and libflightrec-dev (and the source package) with
# dpkg-buildpackage, lintian reports no error, the packages carry VERSION and
# the files they should, and, in the test VM of each tested kernel (6.1 and
# 6.12, scripts/kernels.sh list), installing them with dpkg builds the
# module with DKMS for the running kernel, `modprobe flightrec &&
# flightrec version` works, and purging them removes everything
# (scripts/deb-vm-test.sh, on a writable overlay over the VM's read-only
# root).
#
# Runs on the host (tests/bin/pkg_deb, `make check-pkg`): it builds on the
# host and boots its own VM without the project's module
# (`scripts/vm.sh --no-module`).  In the test VM it skips.  FR_PKG_DEB_VM=0
# leaves out the VM part (about 5-10 minutes per kernel under TCG, most of
# it the module's build by dkms and depmod over 9p).
set -uo pipefail

HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
TOP=${FR_TOP:-$(cd "$HERE/.." && pwd)}
[[ -f $TOP/VERSION ]] || TOP=$(cd "$HERE/../.." && pwd)

# shellcheck source=lib/pkg_tap.sh
. "$TOP/tests/lib/pkg_tap.sh"

echo "TAP version 13"
if [[ ${FR_VM:-0} == 1 ]]; then
	echo "1..1"
	echo "ok 1 Debian packages # SKIP runs on the host (it boots its own VM): make check-pkg"
	exit 0
fi
# the tested kernels: the VM part runs on each
kernels=$("$TOP/scripts/kernels.sh" list) || exit 1
echo "1..$((4 + $(wc -w <<<"$kernels")))"

# In the project tree: the VM sees it (its /tmp is the guest's own).
out_dir=$TOP/build/pkgtest/deb.$$
trap 'rm -rf "$out_dir"' EXIT
rm -rf "$out_dir"

out=$(DEB_OUT=$out_dir LINTIAN=0 make -s -C "$TOP" deb 2>&1)
rc=$?
debs=("$out_dir"/flightrec_"$V"_*.deb "$out_dir"/flightrec-dkms_"$V"_all.deb
	"$out_dir"/libflightrec-dev_"$V"_*.deb)
for d in "${debs[@]}"; do [[ -f $d ]] || rc=1; done
check "make deb: flightrec, flightrec-dkms, libflightrec-dev $V" $rc "$(tail -n 30 <<<"$out")"
if ((rc)); then
	for ((i = 2; i <= 4 + $(wc -w <<<"$kernels"); i++)); do nok "(no packages)"; done
	exit 1
fi

# lintian: no errors (warnings and info are listed)
if command -v lintian >/dev/null; then
	lo=$(lintian --display-info "$out_dir"/flightrec_"$V"_*.changes 2>&1 |
		grep -v 'running with root privileges')
	errs=$(grep '^E:' <<<"$lo")
	[[ -z $errs ]]
	check "lintian: no errors" $? "$lo"
	[[ -z $errs ]] && diag "$lo"
else
	nok "lintian: not installed (scripts/deps.sh)"
fi

# versions and contents
bad=
for d in "${debs[@]}"; do
	dv=$(dpkg-deb -f "$d" Version)
	[[ $dv == "$V" ]] || bad+="$(basename "$d"): Version $dv"$'\n'
done
c_dkms=$(dpkg-deb -c "$out_dir"/flightrec-dkms_"$V"_all.deb | awk '{print $6}')
c_tools=$(dpkg-deb -c "$out_dir"/flightrec_"$V"_*.deb | awk '{print $6}')
c_dev=$(dpkg-deb -c "$out_dir"/libflightrec-dev_"$V"_*.deb | awk '{print $6}')
want_dkms=(./usr/src/flightrec-"$V"/dkms.conf ./usr/src/flightrec-"$V"/VERSION
	./usr/src/flightrec-"$V"/Kbuild ./usr/src/flightrec-"$V"/kernel/Kbuild)
for f in "$TOP"/kernel/*.[ch] "$TOP"/uapi/*.h; do
	[[ $f == *.mod.c ]] && continue
	want_dkms+=(./usr/src/flightrec-"$V"/${f#"$TOP"/})
done
want_tools=(./usr/bin/flightrec ./usr/libexec/flightrec/flightrec-loader
	./usr/libexec/flightrec/flightrec-sites
	./lib/systemd/system/flightrec-watch.service
	./usr/share/bash-completion/completions/flightrec
	./usr/share/man/man8/flightrec.8.gz ./usr/share/man/man4/flightrec.4.gz)
for c in $("$TOP/user/flightrec" --help 2>/dev/null | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p'); do
	want_tools+=(./usr/share/man/man8/flightrec-"$c".8.gz)
done
want_dev=(./usr/include/flightrec/libflightrec.h ./usr/include/flightrec/flightrec.h
	./usr/lib/x86_64-linux-gnu/libflightrec.a ./usr/lib/x86_64-linux-gnu/pkgconfig/flightrec.pc)
for f in "${want_dkms[@]}"; do grep -qxF "$f" <<<"$c_dkms" || bad+="flightrec-dkms lacks $f"$'\n'; done
for f in "${want_tools[@]}"; do grep -qxF "$f" <<<"$c_tools" || bad+="flightrec lacks $f"$'\n'; done
for f in "${want_dev[@]}"; do grep -qxF "$f" <<<"$c_dev" || bad+="libflightrec-dev lacks $f"$'\n'; done
pv=$(dpkg-deb --fsys-tarfile "$out_dir"/flightrec-dkms_"$V"_all.deb |
	tar -xOf - ./usr/src/flightrec-"$V"/dkms.conf | sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p')
[[ $pv == "$V" ]] || bad+="the packaged dkms.conf says PACKAGE_VERSION $pv"$'\n'
dpkg-deb -I "$out_dir"/flightrec-dkms_"$V"_all.deb postinst 2>/dev/null | grep -q dkms ||
	bad+="flightrec-dkms has no dkms postinst"$'\n'
[[ -z $bad ]]
check "packages: Version $V; module source, dkms.conf and postinst; tools, loader, unit, man pages; library" $? "$bad"

# the packaged tools run here: the version, and the module is not loaded (3)
x=$out_dir/x
mkdir -p "$x" && dpkg-deb -x "$out_dir"/flightrec_"$V"_*.deb "$x"
o=$("$x/usr/bin/flightrec" version 2>"$out_dir/err")
rc=$?
[[ $rc == 3 && $(head -n 1 <<<"$o") == "flightrec $V (ABI "* ]] && grep -q 'not loaded' "$out_dir/err"
check "extracted /usr/bin/flightrec version: $V, exit 3 here (no module)" $? "rc=$rc: $o $(cat "$out_dir/err")"

if [[ ${FR_PKG_DEB_VM:-1} == 0 ]]; then
	for k in $kernels; do ok "install in the VM on $k # SKIP FR_PKG_DEB_VM=0"; done
	exit $((failed > 0))
fi
# in the VM of each tested kernel (6.1, 6.12): dpkg -i, dkms builds,
# modprobe, flightrec version, purge
for k in $kernels; do
	o=$(TEST_KVER=$k FR_VM_TIMEOUT=${FR_VM_TIMEOUT:-1500} "$TOP/scripts/vm.sh" --no-module run -- \
		"$TOP/scripts/deb-vm-test.sh" "$out_dir" "$("$TOP/scripts/kernels.sh" root "$k")" 2>&1)
	rc=$?
	vmok=$(grep -c '^vm: ok ' <<<"$o")
	vmbad=$(grep -c '^vm: not ok ' <<<"$o")
	booted=$(sed -n 's/^vm\.sh: booting \([^ ]*\) .*/\1/p' <<<"$o" | head -n 1)
	[[ $rc == 0 && $vmok -ge 8 && $vmbad == 0 && $booted == "$k" ]]
	check "in the VM on $k: dpkg -i both, dkms builds for the running kernel, modprobe flightrec && flightrec version, purge ($vmok steps ok)" $? \
		"rc=$rc, booted ${booted:-?}"$'\n'"$(tail -n 60 <<<"$o")"
	((rc == 0)) && diag "$(grep -E '^vm: |^    (flightrec|module) ' <<<"$o")"
done

((failed == 0))
