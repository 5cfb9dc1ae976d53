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

# shellcheck source=scripts/apt-install.sh
. "$(dirname "${BASH_SOURCE[0]}")/apt-install.sh"
apt_install_missing bench-deps "${PACKAGES[@]}"
