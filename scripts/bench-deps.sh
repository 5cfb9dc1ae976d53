#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-deps.sh - the servers and load generators of `make bench`'s section
# `servers` (scripts/bench-vm.sh), from Debian 12's packages.  For the bench
# only: `make check` does not need them and does not install them.  The test
# VM shares the host's root read-only, so they are installed on the host.
# Idempotent; apt-get update runs first when something is missing.  Their
# services are not started here (the bench starts its own instances, on
# loopback in the VM); where policy-rc.d does not already forbid it, the
# packages' postinst may start them on the host.
set -euo pipefail

PACKAGES=(
	redis-server redis-tools        # redis-server, redis-benchmark
	nginx-light apache2-utils       # nginx, ab
	memcached                       # the load: tests/progs/mc_load
)

missing=()
for p in "${PACKAGES[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[[ $status == "install ok installed" ]] || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
	echo "bench-deps: all ${#PACKAGES[@]} packages installed" >&2
	exit 0
fi
echo "bench-deps: installing ${missing[*]}" >&2
SUDO=()
if [[ $(id -u) != 0 ]]; then
	command -v sudo >/dev/null || {
		echo "bench-deps: need root (or sudo) to install: ${missing[*]}" >&2
		exit 1
	}
	SUDO=(sudo)
fi
"${SUDO[@]}" apt-get update -q
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -q --no-install-recommends "${missing[@]}"
