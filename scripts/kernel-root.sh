#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kernel-root.sh [KVER [DIR]] - unpack a Debian kernel (image, headers, kbuild)
# under DIR without installing it, for building the module against it and
# booting it in the test VM (scripts/vm.sh with FR_VM_ROOT=DIR).
#
# Installing a second linux-headers-*-amd64 would change which kernel the
# Makefile's TEST_KVER picks for everyone on the machine; this leaves the
# system's packages alone.  Prints DIR.  scripts/kernels.sh fetch (deps.sh)
# runs it for the tested kernels that are not installed.  Afterwards:
#   make kmod KVER=KVER
#   TEST_KVER=KVER scripts/vm.sh run -- tests/run.sh
set -euo pipefail

KVER=${1:-6.12.115+deb12-amd64}
DIR=${2:-/var/cache/flightrec/kernels/$KVER}

die() { echo "kernel-root.sh: $*" >&2; exit 1; }

if [[ -f $DIR/.done ]]; then
	echo "$DIR"
	exit 0
fi
mkdir -p "$DIR/debs" "$DIR/root"
cd "$DIR/debs"
image=linux-image-$KVER-unsigned
apt-cache show "$image" >/dev/null 2>&1 || image=linux-image-$KVER
# the headers' common tree and kbuild, by name from their dependencies
# (-common, -common-rt; linux-kbuild-6.1, linux-kbuild-6.12.115+deb12)
deps=$(apt-cache depends "linux-headers-$KVER" 2>/dev/null |
	sed -n 's/^ *|\{0,1\}Depends: \(linux-\(headers-.*-common.*\|kbuild-.*\)\)$/\1/p')
[[ -n $deps ]] || die "linux-headers-$KVER is not known to apt (apt-get update?)"
pkgs=("$image" "linux-headers-$KVER" $deps)
if ! apt-get download "${pkgs[@]}" >&2; then
	apt-get update >&2
	apt-get download "${pkgs[@]}" >&2 || die "cannot download ${pkgs[*]}"
fi
for d in *.deb; do
	dpkg -x "$d" "$DIR/root"
done
# The headers' Makefile includes the common tree by its installed path.
hdr=$DIR/root/usr/src/linux-headers-$KVER
sed -i "s|^include /usr/src/|include $DIR/root/usr/src/|" "$hdr/Makefile"
depmod -b "$DIR/root" "$KVER" || die "depmod failed"
touch "$DIR/.done"
echo "$DIR"
