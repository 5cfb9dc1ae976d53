#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kselftest-headers.sh [DEST] - extract the kselftest harness headers
# (kselftest_harness.h, kselftest.h) from Debian's linux-source tarball into
# DEST (default build/kselftest).  Cached: nothing happens when they are there.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DEST=${1:-$TOP/build/kselftest}
FILES=(kselftest_harness.h kselftest.h)

have=1
for f in "${FILES[@]}"; do [[ -s $DEST/$f ]] || have=0; done
((have)) && exit 0

src=${FR_LINUX_SOURCE:-$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1)}
if [[ -z $src || ! -r $src ]]; then
	echo "kselftest-headers: no /usr/src/linux-source-*.tar.xz: run scripts/deps.sh (package linux-source-6.1)" >&2
	exit 1
fi
top=$(tar -tJf "$src" 2>/dev/null | head -n 1 | cut -d/ -f1) || true
[[ -n $top ]] || { echo "kselftest-headers: cannot read $src" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
members=()
for f in "${FILES[@]}"; do members+=("$top/tools/testing/selftests/$f"); done
tar -xJf "$src" -C "$tmp" --strip-components=4 --wildcards "${members[@]}"
mkdir -p "$DEST"
for f in "${FILES[@]}"; do
	[[ -s $tmp/$f ]] || { echo "kselftest-headers: $f not in $src" >&2; exit 1; }
	mv -f "$tmp/$f" "$DEST/$f"
done
echo "kselftest-headers: extracted ${FILES[*]} from $src into $DEST" >&2
