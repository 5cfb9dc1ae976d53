#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# install.sh install|uninstall - `make install` and `make uninstall`.
#
# Installs the flightrec command, the replay loader, libflightrec.a with its
# headers and pkg-config file, the uapi headers, the systemd unit of
# `flightrec watch`, bash completion, the man pages and the documents, under
# $DESTDIR$PREFIX (directories below: the top-level Makefile passes them).
# Every file written, and every directory that did not exist before, is listed
# in a manifest ($DATADIR/flightrec/install-manifest, itself installed);
# uninstall removes exactly those files, then those directories when empty.
# Paths in the manifest are without DESTDIR, so a staged tree can be
# uninstalled with the same DESTDIR.
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ACTION=${1:-}

DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr/local}
BINDIR=${BINDIR:-$PREFIX/bin}
LIBEXECDIR=${LIBEXECDIR:-$PREFIX/libexec}
LIBDIR=${LIBDIR:-$PREFIX/lib}
INCLUDEDIR=${INCLUDEDIR:-$PREFIX/include}
DATADIR=${DATADIR:-$PREFIX/share}
MANDIR=${MANDIR:-$DATADIR/man}
DOCDIR=${DOCDIR:-$DATADIR/doc/flightrec}
BASHCOMPDIR=${BASHCOMPDIR:-$DATADIR/bash-completion/completions}
SYSTEMDUNITDIR=${SYSTEMDUNITDIR:-$PREFIX/lib/systemd/system}
MANIFEST=$DATADIR/flightrec/install-manifest
VERSION=$(cat "$TOP/VERSION")

die() { echo "install.sh: $*" >&2; exit 1; }

for v in PREFIX BINDIR LIBEXECDIR LIBDIR INCLUDEDIR DATADIR MANDIR DOCDIR \
	BASHCOMPDIR SYSTEMDUNITDIR; do
	[[ ${!v} == /* ]] || die "$v must be an absolute path, not '${!v}'"
done
[[ -z $DESTDIR || $DESTDIR == /* ]] || DESTDIR=$(pwd)/$DESTDIR

files=()	# installed files, without DESTDIR
dirs=()		# directories created, without DESTDIR, parents first

# mkdir -p that remembers the directories it creates
mkdirs() {
	local d=$1 parts=() p
	# DESTDIR itself is not ours: made here, never recorded
	[[ -z $DESTDIR ]] || mkdir -p "$DESTDIR"
	while [[ $d != / && ! -d $DESTDIR$d ]]; do
		parts=("$d" "${parts[@]}")
		d=$(dirname "$d")
	done
	for p in "${parts[@]}"; do
		mkdir -m 755 "$DESTDIR$p"
		dirs+=("$p")
	done
}

# inst MODE SRC DEST: install one file (DEST is a full path without DESTDIR)
inst() {
	local mode=$1 src=$2 dst=$3
	[[ -f $src ]] || die "$src is missing: build first (make)"
	mkdirs "$(dirname "$dst")"
	install -m "$mode" "$src" "$DESTDIR$dst"
	echo "  $dst"
	files+=("$dst")
}

# sed-substituted copies of templates, in a scratch directory
gen() {
	local src=$1 out=$2
	sed -e "s|@VERSION@|$VERSION|g" \
	    -e "s|@PREFIX@|$PREFIX|g" \
	    -e "s|@BINDIR@|$BINDIR|g" \
	    -e "s|@LIBEXECDIR@|$LIBEXECDIR|g" \
	    -e "s|@LIBDIR@|$LIBDIR|g" \
	    -e "s|@INCLUDEDIR@|$INCLUDEDIR|g" \
	    -e "s|@DOCDIR@|$DOCDIR|g" \
	    "$src" >"$out"
}

# a path below PREFIX as ${prefix}/..., for the pkg-config file
pcpath() {
	if [[ $1 == "$PREFIX" ]]; then echo '${prefix}'
	elif [[ $1 == "$PREFIX"/* ]]; then echo "\${prefix}${1#"$PREFIX"}"
	else echo "$1"; fi
}

do_install() {
	local f
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT

	echo "installing flightrec $VERSION into ${DESTDIR:+$DESTDIR}$PREFIX"
	inst 755 "$TOP/user/flightrec" "$BINDIR/flightrec"
	inst 755 "$TOP/user/loader/flightrec-loader" "$LIBEXECDIR/flightrec/flightrec-loader"
	inst 755 "$TOP/user/flightrec-sites" "$LIBEXECDIR/flightrec/flightrec-sites"
	# flightrec finds its helpers relative to itself (fr_helper_path)
	if [[ $(realpath -m "$BINDIR/../libexec") != $(realpath -m "$LIBEXECDIR") ]]; then
		echo "install.sh: warning: $LIBEXECDIR is not $BINDIR/../libexec:" \
		     "flightrec replay and gdb need FLIGHTREC_LOADER=$LIBEXECDIR/flightrec/flightrec-loader," \
		     "checkpoints FLIGHTREC_SITES=$LIBEXECDIR/flightrec/flightrec-sites" >&2
	fi

	# the library, its headers and the uapi headers, <flightrec/...>
	inst 644 "$TOP/user/libflightrec.a" "$LIBDIR/libflightrec.a"
	for f in libflightrec.h checkpoint.h syscalls.h sysdecode.h; do
		inst 644 "$TOP/user/lib/$f" "$INCLUDEDIR/flightrec/$f"
	done
	inst 644 "$TOP/user/flightrec.pb-c.h" "$INCLUDEDIR/flightrec/flightrec.pb-c.h"
	for f in "$TOP"/uapi/*.h; do
		inst 644 "$f" "$INCLUDEDIR/flightrec/$(basename "$f")"
	done
	sed -e "s|@VERSION@|$VERSION|g" -e "s|@PREFIX@|$PREFIX|g" \
	    -e "s|@LIBDIR@|$(pcpath "$LIBDIR")|g" \
	    -e "s|@INCLUDEDIR@|$(pcpath "$INCLUDEDIR")|g" \
	    "$TOP/user/flightrec.pc.in" >"$tmp/flightrec.pc"
	inst 644 "$tmp/flightrec.pc" "$LIBDIR/pkgconfig/flightrec.pc"
	inst 644 "$TOP/user/flightrec.proto" "$DATADIR/flightrec/flightrec.proto"

	# flightrec watch as a service: ExecStart names the installed command
	sed -e "s|/usr/bin/flightrec|$BINDIR/flightrec|g" \
	    -e "s|/usr/share/doc/flightrec|$DOCDIR|g" \
	    -e "s|^Documentation=|Documentation=man:flightrec-watch(8) |" \
	    "$TOP/user/flightrec-watch.service" >"$tmp/flightrec-watch.service"
	inst 644 "$tmp/flightrec-watch.service" "$SYSTEMDUNITDIR/flightrec-watch.service"

	inst 644 "$TOP/user/bash-completion/flightrec" "$BASHCOMPDIR/flightrec"

	for f in "$TOP"/man/*.[48]; do
		gen "$f" "$tmp/${f##*/}"
		inst 644 "$tmp/${f##*/}" "$MANDIR/man${f##*.}/${f##*/}"
	done
	for f in "$TOP"/docs/*.md "$TOP/CHANGELOG.md"; do
		inst 644 "$f" "$DOCDIR/$(basename "$f")"
	done

	# the manifest: merged with an earlier one (directories that install
	# created then are still ours), listed in itself
	mkdirs "$(dirname "$MANIFEST")"
	files+=("$MANIFEST")
	{
		[[ -f $DESTDIR$MANIFEST ]] && grep -v '^#' "$DESTDIR$MANIFEST"
		for f in "${dirs[@]}"; do echo "d $f"; done
		for f in "${files[@]}"; do echo "f $f"; done
	} | awk '!seen[$0]++' >"$tmp/manifest"
	{
		echo "# flightrec $VERSION: installed by make install; make uninstall removes these"
		cat "$tmp/manifest"
	} >"$tmp/manifest.new"
	install -m 644 "$tmp/manifest.new" "$DESTDIR$MANIFEST"
	echo "  $MANIFEST"
}

do_uninstall() {
	local kind path n=0 d
	local -a ds=()
	[[ -f $DESTDIR$MANIFEST ]] ||
		die "no $DESTDIR$MANIFEST: nothing installed there (same PREFIX/DATADIR/DESTDIR as make install?)"
	echo "uninstalling flightrec from ${DESTDIR:+$DESTDIR}$PREFIX"
	while read -r kind path; do
		case $kind in
		f)
			[[ $path == "$MANIFEST" ]] && continue
			if [[ -e $DESTDIR$path || -L $DESTDIR$path ]]; then
				rm -f "$DESTDIR$path"
				echo "  removed $path"
				n=$((n + 1))
			fi ;;
		d) ds+=("$path") ;;
		esac
	done <"$DESTDIR$MANIFEST"
	rm -f "$DESTDIR$MANIFEST"
	# directories install created, deepest first, when nothing else is in them
	while read -r d; do
		[[ -n $d && -d $DESTDIR$d ]] || continue
		if rmdir "$DESTDIR$d" 2>/dev/null; then
			echo "  removed $d/"
		else
			echo "  kept $d/ (not empty)"
		fi
	done < <(printf '%s\n' "${ds[@]}" | awk '{ print length($0) "\t" $0 }' |
		sort -rn | cut -f2-)
	echo "removed $n files"
}

case $ACTION in
install) do_install ;;
uninstall) do_uninstall ;;
*) echo "usage: $0 install|uninstall (normally: make install / make uninstall)" >&2; exit 2 ;;
esac
