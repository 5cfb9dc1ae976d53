#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the flightrec test VM (see scripts/vm.sh).  Runs as PID 1 from the
# initramfs built by scripts/mkinitramfs.sh, with only busybox available until
# the host's root filesystem is mounted.
#
# Kernel command line parameters (read from /proc/cmdline):
#   frvm.mode=run|shell|probe  what to do
#   frvm.top=PATH              the project tree, shared writable as 9p tag "project"
#   frvm.run=PATH              the run directory (inside frvm.top) that holds
#                              cmd, module, modparams, env; status and dmesg
#                              are written there
#
# Protocol with the host: lines starting with "FRVM: " on the console, and
# key=value lines in $RUN/status.  PID 1 must never exit: every path ends in
# "poweroff -f".

/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin
/bin/busybox --install -s
export PATH=/sbin:/bin:/usr/sbin:/usr/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null

MODE=run
TOP=
RUN=
for arg in $(cat /proc/cmdline); do
	case $arg in
	frvm.mode=*) MODE=${arg#frvm.mode=} ;;
	frvm.top=*)  TOP=${arg#frvm.top=} ;;
	frvm.run=*)  RUN=${arg#frvm.run=} ;;
	esac
done

NEW=/newroot
STATUS=

halt() {
	sync
	[ -n "$TOP" ] && umount "$NEW$TOP" 2>/dev/null
	echo "FRVM: poweroff"
	poweroff -f
	sleep 10
}

status() {
	[ -n "$STATUS" ] && echo "$1" >>"$STATUS"
}

fatal() {
	echo "FRVM: FATAL: $*"
	status "fatal=$*"
	halt
}

if [ "$MODE" = probe ]; then
	echo "FRVM: probe-ok"
	halt
fi
echo "FRVM: init"

while read -r m; do
	insmod "/lib/modules/$m" || fatal "insmod $m failed"
done </lib/modules/load-order

# 9p over virtio: msize bounds the size of one request; bigger is faster.
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=loose,ro hostroot $NEW ||
	fatal "cannot mount the host root filesystem (9p tag hostroot)"
mount -t proc proc $NEW/proc
mount -t sysfs sysfs $NEW/sys
mount -t devtmpfs devtmpfs $NEW/dev
mkdir -p $NEW/dev/pts $NEW/dev/shm
ln -sf /proc/self/fd $NEW/dev/fd
ln -sf /proc/self/fd/0 $NEW/dev/stdin
ln -sf /proc/self/fd/1 $NEW/dev/stdout
ln -sf /proc/self/fd/2 $NEW/dev/stderr
mount -t devpts -o gid=5,mode=620,ptmxmode=666 devpts $NEW/dev/pts
mount -t tmpfs -o mode=1777 tmpfs $NEW/dev/shm
mount -t debugfs debugfs $NEW/sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs $NEW/sys/kernel/tracing 2>/dev/null
for d in tmp var/tmp run root; do
	mount -t tmpfs -o mode=1777 tmpfs $NEW/$d || fatal "cannot mount tmpfs on /$d"
done
chmod 0700 $NEW/root
mkdir -p $NEW/run/lock

[ -n "$TOP" ] || fatal "no frvm.top= on the kernel command line"
# TOP may lie under one of the tmpfs just mounted (/tmp, /root): recreate it.
mkdir -p "$NEW$TOP" 2>/dev/null
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=mmap project "$NEW$TOP" ||
	fatal "cannot mount the project tree $TOP (9p tag project)"
# The built tools (user/), which no run changes, read-only with the page
# cache kept: under cache=mmap every exec of the static flightrec (10 MB)
# read its pages from the host again (260-320 against 23-72 ms for
# `flightrec --help` from tmpfs, 60 ms from this mount).
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,cache=loose,ro tools "$NEW$TOP/user" ||
	fatal "cannot mount the tools $TOP/user (9p tag tools)"

[ -n "$RUN" ] && [ -d "$NEW$RUN" ] || fatal "run directory $RUN missing"
STATUS=$NEW$RUN/status
: >"$STATUS"

hostname flightrec-vm
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up

# Console without CR/LF translation: the host reads it as plain lines.
stty -F /dev/console -onlcr 2>/dev/null
stty -F /dev/ttyS0 -onlcr 2>/dev/null

in_root() {
	chroot $NEW "$@"
}

# Kernel log mark: the scan after the command looks only at what follows it.
in_root /bin/bash "$TOP/scripts/kcheck.sh" mark

# A kernel with kmemleak (scripts/build-debug-kernel.sh): what the boot left
# unreferenced is forgotten, so that the scan after the run reports only what
# the run leaked.
KMEMLEAK=$NEW/sys/kernel/debug/kmemleak
if [ -w "$KMEMLEAK" ]; then
	echo scan >"$KMEMLEAK"
	echo clear >"$KMEMLEAK"
fi

MODULE=
MODNAME=
[ -f "$NEW$RUN/module" ] && MODULE=$(cat "$NEW$RUN/module")
if [ -n "$MODULE" ]; then
	PARAMS=$(cat "$NEW$RUN/modparams" 2>/dev/null)
	MODNAME=$(basename "$MODULE" .ko | tr - _)
	echo "FRVM: insmod $MODULE $PARAMS"
	# shellcheck disable=SC2086  # PARAMS is a list of words on purpose
	if ! out=$(in_root /sbin/insmod "$MODULE" $PARAMS 2>&1); then
		echo "$out"
		status "insmod=fail"
		dmesg | tail -n 20
		fatal "cannot load $MODULE: $out"
	fi
	status "insmod=ok"
	status "modname=$MODNAME"
fi

echo "FRVM: begin $(cut -d' ' -f1 /proc/uptime)"
case $MODE in
shell)
	rows=; cols=
	[ -f "$NEW$RUN/winsize" ] && read -r rows cols <"$NEW$RUN/winsize"
	stty -F /dev/ttyS0 onlcr
	[ -n "$rows" ] && stty -F /dev/ttyS0 rows "$rows" cols "$cols"
	in_root /usr/bin/setsid -c /bin/bash "$RUN/cmd" \
		</dev/ttyS0 >/dev/ttyS0 2>&1
	rc=$?
	stty -F /dev/ttyS0 -onlcr
	;;
*)
	in_root /bin/bash "$RUN/cmd" </dev/null
	rc=$?
	;;
esac
echo "FRVM: end $rc $(cut -d' ' -f1 /proc/uptime)"
status "cmd=$rc"

if [ -n "$MODNAME" ]; then
	if grep -q "^$MODNAME " /proc/modules; then
		# where the module was: its frames in a later report (kmemleak
		# after the unload) print as bare addresses
		cat "/sys/module/$MODNAME/sections/.text" >"$NEW$RUN/module.text" 2>/dev/null
		if out=$(rmmod "$MODNAME" 2>&1); then
			status "rmmod=ok"
		else
			echo "$out"
			status "rmmod=fail: $out"
		fi
	else
		status "rmmod=ok (already unloaded)"
	fi
fi

# kmemleak reports an object unreferenced for at least 5 s, seen so by a
# scan; the second scan catches what the first found too young.
if [ -w "$KMEMLEAK" ]; then
	echo scan >"$KMEMLEAK"
	sleep 6
	echo scan >"$KMEMLEAK"
	cat "$KMEMLEAK" >"$NEW$RUN/kmemleak.txt" 2>&1
	status "kmemleak=$(grep -c '^unreferenced object' "$NEW$RUN/kmemleak.txt")"
fi
in_root dmesg >"$NEW$RUN/dmesg.txt" 2>&1
in_root /bin/bash "$TOP/scripts/kcheck.sh" scan >"$NEW$RUN/kcheck.txt" 2>&1
status "kcheck=$?"
status "done=1"
halt
