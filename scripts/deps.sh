#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh - install what flightrec needs to build and test, from Debian 12's
# packages, then extract the kselftest harness headers.  Idempotent: packages
# already installed are not touched, and apt-get update runs only when
# something is missing.  Runs as root (CI) or through sudo.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

PACKAGES=(
	# the 6.1 test kernel (the VM boots it) and headers to build the module
	# against; 6.12 is unpacked, not installed (scripts/kernels.sh fetch, below)
	linux-image-amd64 linux-headers-amd64
	# the test VM
	qemu-system-x86 busybox-static cpio
	# build
	build-essential pkg-config clang libclang-rt-14-dev sparse
	# pahole: BTF for the module where the headers ship vmlinux (6.12)
	dwarves
	libnl-genl-3-dev libprotobuf-c-dev protobuf-c-compiler libzstd-dev
	libjson-c-dev
	# x86 disassembly: the cpuid sites of mapped code (user/lib/x86sites.c)
	libcapstone-dev
	# kselftest harness headers come from the kernel source tarball
	linux-source-6.1 xz-utils
	# the debug kernel of `make check-debug` (scripts/build-debug-kernel.sh)
	flex bison libelf-dev libssl-dev
	# debugging, replay under gdb, and programs the tests record
	gdb bc gzip sqlite3 python3 kmod strace bzip2
	# packaging: DKMS, Debian packages, lintian, man page checks (docs/packaging.md)
	dkms dh-dkms debhelper dpkg-dev fakeroot lintian man-db
)

# shellcheck source=scripts/apt-install.sh
. "$TOP/scripts/apt-install.sh"
apt_install_missing deps "${PACKAGES[@]}"

# The 6.1 test kernel must be complete: image, modules and headers of one
# version (scripts/kernels.sh default finds only a complete one).
if ! kver=$("$TOP/scripts/kernels.sh" default) || [[ -z $kver ]]; then
	echo "deps: the 6.1 test kernel is incomplete: /usr/src/linux-headers-6.1.*-amd64," \
	     "/boot/vmlinuz-* and /lib/modules/* of one version must all exist" >&2
	exit 1
fi
# The other tested kernels (6.12): image, headers and kbuild unpacked under
# /var/cache/flightrec/kernels with apt-get download, not installed
# (scripts/kernel-root.sh): an installed second linux-headers-*-amd64 would
# change what other builds on this machine pick.
"$TOP/scripts/kernels.sh" fetch
# The test VM's QEMU: bookworm-backports', unpacked beside the system's, whose
# translation cache does not start over at each exec (scripts/qemu.sh; a
# failure there leaves the system's in use and is not an error).
"$TOP/scripts/qemu.sh" fetch

"$TOP/scripts/kselftest-headers.sh"
