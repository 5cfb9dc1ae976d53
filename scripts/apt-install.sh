# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# apt-install.sh - sourced by scripts/deps.sh and scripts/bench-deps.sh:
# apt_install_missing TAG PACKAGE... installs, from Debian's packages, those
# of PACKAGE... that are not installed ("install ok installed" only: a
# removed-but-configured package is missing), running apt-get update first;
# it touches nothing when all are.  Words starting with # are skipped.  Runs
# as root (CI) or through sudo; TAG prefixes its messages.

apt_install_missing() {
	local tag=$1 p status
	local -a missing=() sudo=()

	shift
	for p in "$@"; do
		[[ $p == \#* ]] && continue
		status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
		[[ $status == "install ok installed" ]] || missing+=("$p")
	done
	if ((${#missing[@]} == 0)); then
		echo "$tag: all $# packages installed" >&2
		return 0
	fi
	echo "$tag: installing ${missing[*]}" >&2
	if [[ $(id -u) != 0 ]]; then
		command -v sudo >/dev/null || {
			echo "$tag: need root (or sudo) to install: ${missing[*]}" >&2
			return 1
		}
		sudo=(sudo)
	fi
	"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q &&
		"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -q --no-install-recommends "${missing[@]}"
}
