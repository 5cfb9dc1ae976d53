#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# pkg_version.sh - one version for module, ABI and tools: the top-level
# VERSION file, and everything that repeats it (dkms.conf, debian/changelog,
# CHANGELOG.md) or shows it (modinfo, flightrec version, the loaded module).
# Installed as tests/bin/pkg_version by tests/pkg.mk; runs on the host and in
# the test VM (there it also checks the loaded module).
set -uo pipefail

HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
TOP=${FR_TOP:-$(cd "$HERE/.." && pwd)}
[[ -f $TOP/VERSION ]] || TOP=$(cd "$HERE/../.." && pwd)

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $*"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }
check() { # check NAME COND-STATUS [DIAG]
	if [[ $2 == 0 ]]; then ok "$1"; else nok "$1"; [[ -n ${3:-} ]] && sed 's/^/# /' <<<"$3"; fi
}

echo "TAP version 13"
echo "1..8"

V=$(cat "$TOP/VERSION" 2>/dev/null)
[[ $V =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]
check "VERSION is x.y.z ('$V')" $?

dv=$(sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$TOP/dkms.conf")
[[ $dv == "$V" ]]
check "dkms.conf PACKAGE_VERSION is VERSION" $? "dkms.conf says '$dv', VERSION '$V'"

if command -v dpkg-parsechangelog >/dev/null; then
	cv=$(dpkg-parsechangelog -l "$TOP/debian/changelog" -S Version 2>/dev/null)
else
	cv=$(sed -n '1s/^flightrec (\([^)]*\)).*/\1/p' "$TOP/debian/changelog")
fi
[[ $cv == "$V" ]]
check "debian/changelog's newest entry is VERSION" $? "debian/changelog says '$cv', VERSION '$V'"

grep -q "^## $V\b" "$TOP/CHANGELOG.md"
check "CHANGELOG.md has a section for $V" $?

# no second copy of the number in the sources: the Makefiles pass -DFR_VERSION
lit=$(grep -n '#define FR_VERSION\|#define FR_TOOL_VERSION "' \
	"$TOP/kernel/flightrec.h" "$TOP/user/lib/libflightrec.h" 2>/dev/null)
[[ -z $lit ]]
check "no version literal in kernel/flightrec.h or user/lib/libflightrec.h" $? "$lit"

ko=$TOP/kernel/flightrec.ko
if [[ -f $ko ]] && command -v modinfo >/dev/null; then
	mv=$(modinfo -F version "$ko")
	[[ $mv == "$V" ]]
	check "modinfo kernel/flightrec.ko: version $V" $? "modinfo says '$mv'"
else
	skip "modinfo kernel/flightrec.ko" "not built"
fi

if [[ -x $TOP/user/flightrec ]]; then
	out=$("$TOP/user/flightrec" version 2>/dev/null)
	[[ $(head -n 1 <<<"$out") =~ ^flightrec\ $V\ \(ABI\ [0-9]+\)$ ]]
	check "flightrec version says 'flightrec $V (ABI N)'" $? "$out"
else
	skip "flightrec version" "user/flightrec not built"
fi

if [[ -r /sys/module/flightrec/version ]]; then
	lv=$(cat /sys/module/flightrec/version)
	out=$("$TOP/user/flightrec" version 2>&1)
	[[ $lv == "$V" ]] && grep -qx "module $V (ABI [0-9]*)" <<<"$out"
	check "the loaded module is $V (sysfs, flightrec version)" $? "sysfs '$lv'; $out"
else
	skip "the loaded module's version" "flightrec is not loaded here"
fi

((failed == 0))
