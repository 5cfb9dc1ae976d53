# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# srv-warm.sh - sourced by scripts/bench-vm.sh and scripts/insnprof-server.sh.
#
# srv_warm CMD...: load a server before it is measured, CMD again and again
# until twice the ring's window (keep x interval_ms, the loaded module's
# settings; 4 s when none is loaded) has passed since the first run, in
# every mode alike.  A recorded server's ring is then full and its record
# and page pools serve, as on a server that has run for a while: the ring's
# first fill clears every page it takes from the allocator, once in a
# process's life (docs/recording.md, "Servers under load").  Returns 1 when
# CMD fails.
srv_warm() {
	local win t0
	win=$(awk '$1 == "ring_mb" {print 2 * $4 * $6}' /proc/flightrec/status 2>/dev/null)
	win=${win:-4000}
	t0=$(date +%s%3N)
	while "$@" >/dev/null 2>&1; do
		(( $(date +%s%3N) - t0 >= win )) && return 0
	done
	return 1
}
