#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# pkg_install.sh - `make install` and `make uninstall` into a scratch DESTDIR:
# every file is there with its mode, the man pages cover every subcommand and
# render without warnings, the unit starts the installed command, the
# installed flightrec runs (--help; version: exit 3 "not loaded" without the
# module, the module's version with it), finds the installed loader, a
# program builds against the installed headers and library through
# pkg-config, bash completion completes; then uninstall leaves nothing.
# Installed as tests/bin/pkg_install by tests/pkg.mk; runs on the host
# (`make check-pkg`, which `make check` runs first).  In the test VM it skips:
# six make runs and the man page checks take minutes under TCG, and pkg_deb
# already runs installed tools against the loaded module there.
set -uo pipefail

HERE=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
TOP=${FR_TOP:-$(cd "$HERE/.." && pwd)}
[[ -f $TOP/VERSION ]] || TOP=$(cd "$HERE/../.." && pwd)

# shellcheck source=lib/pkg_tap.sh
. "$TOP/tests/lib/pkg_tap.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/fr-pkg-install.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
D=$tmp/dest
P=/usr/local

echo "TAP version 13"
if [[ ${FR_VM:-0} == 1 ]]; then
	echo "1..1"
	echo "ok 1 make install # SKIP runs on the host: make check-pkg"
	exit 0
fi
echo "1..13"

# 1: make install
out=$(make -s -C "$TOP" install DESTDIR="$D" PREFIX=$P 2>&1)
check "make install DESTDIR=... PREFIX=$P" $? "$(tail -n 20 <<<"$out")"

# 2: the files, their modes
cmds=$("$TOP/user/flightrec" --help 2>/dev/null | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
want=("755 $P/bin/flightrec" "755 $P/libexec/flightrec/flightrec-loader"
	"755 $P/libexec/flightrec/flightrec-sites"
	"644 $P/lib/libflightrec.a" "644 $P/lib/pkgconfig/flightrec.pc"
	"644 $P/include/flightrec/libflightrec.h" "644 $P/include/flightrec/checkpoint.h"
	"644 $P/include/flightrec/flightrec.pb-c.h"
	"644 $P/lib/systemd/system/flightrec-watch.service"
	"644 $P/share/bash-completion/completions/flightrec"
	"644 $P/share/man/man8/flightrec.8" "644 $P/share/man/man4/flightrec.4"
	"644 $P/share/flightrec/install-manifest")
for h in "$TOP"/uapi/*.h; do want+=("644 $P/include/flightrec/${h##*/}"); done
for c in $cmds; do want+=("644 $P/share/man/man8/flightrec-$c.8"); done
bad=
for w in "${want[@]}"; do
	mode=${w%% *} f=${w#* }
	if [[ ! -f $D$f ]]; then bad+="missing $f"$'\n'
	elif [[ $(stat -c %a "$D$f") != "$mode" ]]; then bad+="$f: mode $(stat -c %a "$D$f"), not $mode"$'\n'
	fi
done
# everything the manifest lists exists, and the manifest lists every file
man=$D$P/share/flightrec/install-manifest
while read -r k f; do
	[[ $k == f && ! -f $D$f ]] && bad+="manifest lists $f, which is missing"$'\n'
done < <(grep -v '^#' "$man" 2>/dev/null)
while read -r f; do
	grep -qx "f ${f#"$D"}" "$man" 2>/dev/null || bad+="${f#"$D"} is not in the manifest"$'\n'
done < <(find "$D" -type f)
[[ -n $cmds && -z $bad ]]
check "installed files and modes (${#want[@]} checked; a man page for each of: $(echo $cmds))" $? "$bad"

# 3: man pages: versioned, no template left, no warnings from man
bad=
for f in "$D$P"/share/man/man*/*; do
	grep -q '@[A-Z]*@' "$f" && bad+="${f##*/}: unsubstituted @...@"$'\n'
	grep -q "flightrec $V" "$f" || bad+="${f##*/}: no 'flightrec $V' in its header"$'\n'
	if command -v man >/dev/null; then
		w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$f" 2>&1 >/dev/null)
		[[ -n $w ]] && bad+="${f##*/}: $w"$'\n'
	fi
done
[[ -z $bad ]]
check "man pages: version $V, render without warnings" $? "$bad"

# 4: the unit starts the installed command
unit=$D$P/lib/systemd/system/flightrec-watch.service
es=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$unit" 2>/dev/null)
[[ $es == "$P/bin/flightrec" && -x $D$es ]]
check "flightrec-watch.service: ExecStart=$P/bin/flightrec" $? "ExecStart is '$es'"

FR=$D$P/bin/flightrec
# 5: --help
out=$("$FR" --help 2>&1)
rc=$?
miss=
for c in $cmds; do grep -q "^  $c " <<<"$out" || miss+=" $c"; done
[[ $rc == 0 && -z $miss ]]
check "installed flightrec --help: exit 0, lists every command" $? "rc=$rc, missing:$miss"

# 6: version: exit 3 without the module, its version with it
out=$("$FR" version 2>"$tmp/err")
rc=$?
if [[ -d /sys/module/flightrec ]]; then
	[[ $rc == 0 && $(head -n 1 <<<"$out") == "flightrec $V (ABI "* ]] &&
		grep -q "^module $V " <<<"$out"
	check "installed flightrec version: exit 0, tool and module $V (module loaded)" $? \
		"rc=$rc: $out $(cat "$tmp/err")"
else
	[[ $rc == 3 && $(head -n 1 <<<"$out") == "flightrec $V (ABI "* ]] &&
		grep -q 'not loaded' "$tmp/err"
	check "installed flightrec version: 'flightrec $V', exit 3, 'not loaded' (no module here)" $? \
		"rc=$rc: $out $(cat "$tmp/err")"
fi

# 7: the installed command finds the installed loader (relative to itself)
cp_file=$TOP/tests/corpus/checkpoint/minimal.flrc
out=$(env -u FLIGHTREC_LOADER "$FR" replay "$cp_file" --ignore-cpu --quiet \
	--save-image "$tmp/img" 2>&1)
rc=$?
found=$([[ $rc == 0 && -s $tmp/img ]] && echo 0 || echo 1)
if [[ $found == 0 && ! -e /usr/libexec/flightrec/flightrec-loader ]]; then
	# and without it, says so: the loader it found was the installed one
	mv "$D$P/libexec/flightrec/flightrec-loader" "$tmp/loader"
	out2=$(env -u FLIGHTREC_LOADER "$FR" replay "$cp_file" --save-image "$tmp/img2" 2>&1)
	grep -q 'cannot find flightrec-loader' <<<"$out2" || found=1
	mv "$tmp/loader" "$D$P/libexec/flightrec/flightrec-loader"
	out+=$'\n'"without the installed loader: $out2"
fi
check "installed flightrec finds $P/libexec/flightrec/flightrec-loader" "$found" "rc=$rc: $out"

# 8: pkg-config, headers and library
pc=(env PKG_CONFIG_PATH="$D$P/lib/pkgconfig" pkg-config --define-variable=prefix="$D$P")
cat >"$tmp/t.c" <<'EOF'
#include <stdio.h>
#include <flightrec/flightrec.h>
#include <flightrec/libflightrec.h>
#include <flightrec/checkpoint.h>
#include <flightrec/syscalls.h>
int main(void)
{
	struct fr_client *c;
	char err[256];
	int rc = fr_client_open(&c, err, sizeof(err));

	if (!rc) {
		fr_client_close(c);
		puts("open");
	} else {
		printf("%s\n", rc == FR_ENOMODULE ? "nomodule" : err);
	}
	return FLIGHTREC_ABI_VERSION > 0 ? 0 : 1;
}
EOF
mv_=$("${pc[@]}" --modversion flightrec 2>&1)
out=$(cc -Wall -Werror -o "$tmp/t" "$tmp/t.c" $("${pc[@]}" --cflags --libs flightrec 2>&1) 2>&1) &&
	res=$("$tmp/t" 2>&1)
rc=$?
exp=nomodule
[[ -d /sys/module/flightrec ]] && exp=open
[[ $rc == 0 && $mv_ == "$V" && $res == "$exp" ]]
check "a program builds with pkg-config flightrec ($V) and runs (says '$exp')" $? \
	"modversion '$mv_'; $out; ran: '${res:-}'"

# 9: bash completion
comp=$D$P/share/bash-completion/completions/flightrec
out=$(PATH="$D$P/bin:$PATH" bash -c '
	source "$1" || exit 1
	t() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _flightrec flightrec; echo "${COMPREPLY[*]}"; }
	t flightrec re; t flightrec register 1 --ke' _ "$comp" 2>&1)
[[ $(head -n 1 <<<"$out" | tr ' ' '\n' | sort | xargs) == "record register replay" &&
	$(sed -n 2p <<<"$out") == "--keep" ]]
check "bash completion: 'flightrec re' and 'register 1 --ke'" $? "$out"

# 10: a second install over the first is fine, and keeps one manifest
out=$(make -s -C "$TOP" install DESTDIR="$D" PREFIX=$P 2>&1) &&
	[[ $(grep -c . <(grep -v '^#' "$man" | sort | uniq -d)) == 0 ]]
check "make install again over it" $? "$(tail -n 5 <<<"$out")"

# 11: uninstall leaves nothing
out=$(make -s -C "$TOP" uninstall DESTDIR="$D" PREFIX=$P 2>&1)
rc=$?
left=$(cd "$D" 2>/dev/null && find . -mindepth 1)
[[ $rc == 0 && -z $left ]]
check "make uninstall leaves nothing in DESTDIR" $? "rc=$rc; left: $left; $(tail -n 5 <<<"$out")"

# 12: uninstall keeps what it did not install
mkdir -p "$D$P/bin" "$D$P/share/man/man8"
touch "$D$P/bin/other" "$D$P/share/man/man8/other.8"
out=$(make -s -C "$TOP" install DESTDIR="$D" PREFIX=$P 2>&1 &&
	make -s -C "$TOP" uninstall DESTDIR="$D" PREFIX=$P 2>&1)
rc=$?
left=$(cd "$D" && find . -type f | sort | xargs)
[[ $rc == 0 && $left == "./usr/local/bin/other ./usr/local/share/man/man8/other.8" ]]
check "make uninstall keeps files and directories it did not make" $? "rc=$rc; left: $left"
rm -rf "$D"

# 13: PREFIX=/usr: the unit and the loader path follow
out=$(make -s -C "$TOP" install DESTDIR="$D" PREFIX=/usr 2>&1)
es=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$D/usr/lib/systemd/system/flightrec-watch.service" 2>/dev/null)
[[ $es == /usr/bin/flightrec && -x $D/usr/libexec/flightrec/flightrec-loader ]] &&
	make -s -C "$TOP" uninstall DESTDIR="$D" PREFIX=/usr >/dev/null 2>&1 &&
	[[ -z $(cd "$D" && find . -mindepth 1) ]]
check "PREFIX=/usr: ExecStart=/usr/bin/flightrec, uninstalls cleanly" $? "ExecStart '$es'; $out"

((failed == 0))
