# SPDX-License-Identifier: GPL-2.0
# Sourced by tests/pkg_*.sh after they set TOP: the version under test and
# the TAP helpers they report with.
# shellcheck shell=bash
V=$(cat "$TOP/VERSION")

n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); failed=$((failed + 1)); echo "not ok $n $*"; }
diag() { [[ -n $1 ]] && sed 's/^/# /' <<<"$1"; return 0; }
check() { # check NAME STATUS [DIAG]
	if [[ $2 == 0 ]]; then ok "$1"; else nok "$1"; diag "${3:-}"; fi
}
