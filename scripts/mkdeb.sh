#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# mkdeb.sh - `make deb`: build the Debian packages (flightrec, flightrec-dkms,
# libflightrec-dev, and the source package) with dpkg-buildpackage, then run
# lintian on them.
#
# The build happens in a copy of the tree (the files git tracks, plus new
# files git does not ignore), so that `debian/rules clean` never touches the
# working tree and nothing built there leaks into the source package.
#
# Environment: DEB_OUT (where the results go, default build/deb),
# LINTIAN=0 (skip lintian).  Exit status: non-zero when the build fails or
# lintian reports an error.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VERSION=$(cat "$TOP/VERSION")
OUT=${DEB_OUT:-$TOP/build/deb}
[[ $OUT == /* ]] || OUT=$(pwd)/$OUT

die() { echo "mkdeb: $*" >&2; exit 1; }

command -v dpkg-buildpackage >/dev/null || die "dpkg-buildpackage not found: run scripts/deps.sh"
git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1 ||
	die "$TOP is not a git checkout: the source list comes from git ls-files"

# The changelog must name this version (tests/pkg_version.sh checks it too).
chver=$(dpkg-parsechangelog -l "$TOP/debian/changelog" -S Version)
[[ $chver == "$VERSION" ]] ||
	die "debian/changelog is at $chver but VERSION says $VERSION: add a changelog entry"

work=$OUT/work
src=$work/flightrec-$VERSION
rm -rf "$work"
mkdir -p "$src"
# tracked and new (not ignored) files that exist in the working tree
(cd "$TOP" && git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do
		[[ -f $f || -L $f ]] && printf '%s\0' "$f"
	done | tar --null -T - -cf -) | tar -C "$src" -xf -

echo "mkdeb: building flightrec $VERSION in $src"
(cd "$src" && dpkg-buildpackage -us -uc -j"$(nproc)") >"$work/build.log" 2>&1 || {
	tail -n 40 "$work/build.log" >&2
	die "dpkg-buildpackage failed (whole log: $work/build.log)"
}

mkdir -p "$OUT"
rm -f "$OUT"/*.deb "$OUT"/*.ddeb "$OUT"/*.dsc "$OUT"/*.tar.* "$OUT"/*.changes "$OUT"/*.buildinfo
for f in "$work"/*_"$VERSION"*; do
	[[ -f $f ]] && mv "$f" "$OUT/"
done
cp "$work/build.log" "$OUT/build.log"
changes=$(ls "$OUT"/flightrec_"$VERSION"_*.changes 2>/dev/null | head -n 1)
[[ -n $changes ]] || die "no .changes file in $OUT"
rm -rf "$work"
ls -l "$OUT"/*.deb

if [[ ${LINTIAN:-1} != 0 ]]; then
	command -v lintian >/dev/null || die "lintian not found: run scripts/deps.sh"
	echo "mkdeb: lintian $(basename "$changes")"
	# --fail-on error: warnings are listed, errors fail the build
	lintian --fail-on error --display-info "$changes" | tee "$OUT/lintian.txt"
	echo "mkdeb: lintian: $(grep -c '^E:' "$OUT/lintian.txt" || true) errors," \
	     "$(grep -c '^W:' "$OUT/lintian.txt" || true) warnings (in $OUT/lintian.txt)"
fi
