#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# vm.sh - run a command (or a shell) in the flightrec test VM.
#
# The VM boots the packaged Debian test kernel under qemu with a small busybox
# initramfs (scripts/mkinitramfs.sh, scripts/vm-init.sh), mounts the host's root
# filesystem read-only over 9p and the project tree writable at the same path,
# loads the module, runs the command as root in the current directory (or the
# project root), unloads the module, scans the kernel log (scripts/kcheck.sh)
# and powers off.  See docs/testing.md.
# The whole script is one { } group, which bash reads to its end before it
# runs any of it: a script edited while a run of it lasts (an hour-long
# debug boot) no longer has its running copy read the new text midway.
{
set -euo pipefail
shopt -s lastpipe

usage() {
	cat <<'EOF'
usage: scripts/vm.sh [OPTIONS] run [--] CMD [ARGS...]   run CMD in the VM, exit with its status
       scripts/vm.sh [OPTIONS] shell                    interactive shell in the VM (Ctrl-A X kills qemu)
       scripts/vm.sh probe                              say whether KVM or TCG will be used
       scripts/vm.sh initramfs                          (re)build the cached initramfs only

options (each has an environment variable too):
  --no-module        do not load the module            FR_NOMODULE=1
  --module PATH      module to load                    FR_MODULE      (default: the kernel's build, scripts/kernels.sh module)
  --params "A=1 B=2" module parameters                 FR_MODPARAMS
  --timeout SEC      kill the VM after SEC seconds     FR_VM_TIMEOUT  (default 900)
  --mem SIZE         guest memory                      FR_VM_MEM      (default 2G)
  --smp N            guest CPUs                        FR_VM_SMP      (default 2)
  --accel A          kvm, tcg or auto                  FR_VM_ACCEL    (default auto: probe KVM)
  -v, --verbose      show the whole console            FR_VM_VERBOSE=1
other environment: TEST_KVER (guest kernel version; one that is not installed
boots from its scripts/kernel-root.sh tree), FR_VM_KERNEL_DIR (boot
the kernel scripts/build-debug-kernel.sh built there instead of Debian's;
`make check-debug` sets it), FR_VM_ROOT (boot the Debian kernel unpacked
there by scripts/kernel-root.sh, not an installed one; a TEST_KVER that is
not installed sets it from scripts/kernels.sh), FR_VM_APPEND (extra kernel
command line), FR_VM_CLOCK=tsc (the TSC as the guest's clocksource, as on
a server: under TCG the guest kernel otherwise finds its emulated TSCs
"unsynchronized" and times with the emulated HPET, whose every read is a
device access; `make bench` sets it, docs/testing.md), FR_VM_CLOCK=hpet
(the HPET, named), FR_VM_ICOUNT=1 (TCG: the guest's TSC and clocks
from the instructions it ran, not from this host's TSC; check.sh's TSC
boot), FR_VM_LOGLEVEL (console loglevel, default 4), FR_VM_DEBUG=0 (no
slub_debug), FR_VM_SS=1 (TCG runs one instruction per translation block:
perf samples in the guest then fall on the instruction that took them, not
at the end of a block; about 10x slower), FR_VM_PLUGIN=PATH.so,ARG=V (a
TCG plugin for qemu: scripts/insnprof.sh; built for the QEMU that runs),
FR_VM_QEMU=PATH (the qemu-system-x86_64 to run; default scripts/qemu.sh
path: bookworm-backports' where deps.sh unpacked it, else the system's),
FR_VM_CPU (TCG's -cpu; default max,erms=off,fsrm=off, less the features
replay checks that this host's CPU lacks: tcg_cpu),
FR_VM_TCG_THREAD=multi (one host
thread per vCPU instead of one for all: see docs/testing.md),
FR_VM_MONITOR=1 (a qemu monitor and a gdb stub on sockets in the run
directory, to examine a hung guest: scripts/vmhang.py).  FR_* and TEST_*
variables are passed on to the command.
EOF
}

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
BUILD=$TOP/build/vm

say() { echo "vm.sh: $*" >&2; }
die() { echo "vm.sh: FAIL: $*" >&2; exit 1; }

NOMODULE=${FR_NOMODULE:-0}
MODULE=${FR_MODULE:-}	# default: the module built for the kernel (scripts/kernels.sh)
MODPARAMS=${FR_MODPARAMS:-}
TIMEOUT=${FR_VM_TIMEOUT:-900}
MEM=${FR_VM_MEM:-2G}
SMP=${FR_VM_SMP:-2}
ACCEL=${FR_VM_ACCEL:-auto}
VERBOSE=${FR_VM_VERBOSE:-0}
LOGLEVEL=${FR_VM_LOGLEVEL:-4}
MODE=

while (($#)); do
	case $1 in
	--no-module) NOMODULE=1 ;;
	--module) MODULE=${2:?--module needs a path}; shift ;;
	--params) MODPARAMS=${2?--params needs a value}; shift ;;
	--timeout) TIMEOUT=${2:?}; shift ;;
	--mem) MEM=${2:?}; shift ;;
	--smp) SMP=${2:?}; shift ;;
	--accel) ACCEL=${2:?}; shift ;;
	-v|--verbose) VERBOSE=1 ;;
	-h|--help) usage; exit 0 ;;
	run|shell|probe|initramfs)
		[[ -z $MODE ]] || break
		MODE=$1 ;;
	--) shift; break ;;
	*)
		[[ $MODE == run ]] && break
		usage >&2; exit 2 ;;
	esac
	shift
done
[[ -n $MODE ]] || { usage >&2; exit 2; }
if [[ $MODE == run ]] && (($# == 0)); then
	usage >&2
	exit 2
fi
[[ $TIMEOUT =~ ^[0-9]+$ ]] || die "bad timeout '$TIMEOUT'"

# TEST_KVER (default: scripts/kernels.sh's default kernel, 6.1) that is not
# installed but unpacked by scripts/kernel-root.sh (6.12): boot it from there.
if [[ -z ${FR_VM_KERNEL_DIR:-} && -z ${FR_VM_ROOT:-} ]]; then
	TEST_KVER=${TEST_KVER:-$("$HERE/kernels.sh" default 2>/dev/null || true)}
	if [[ -n $TEST_KVER && ! -e /boot/vmlinuz-$TEST_KVER ]]; then
		FR_VM_ROOT=$("$HERE/kernels.sh" root "$TEST_KVER")
		[[ -n $FR_VM_ROOT ]] && export FR_VM_ROOT
	fi
fi

if [[ -n ${FR_VM_KERNEL_DIR:-} ]]; then
	# A kernel of scripts/build-debug-kernel.sh: bzImage, kver, obj/ (the
	# build tree; the rig's drivers are built in).
	KERNEL=$FR_VM_KERNEL_DIR/bzImage
	[[ -r $KERNEL && -s $FR_VM_KERNEL_DIR/kver ]] ||
		die "FR_VM_KERNEL_DIR=$FR_VM_KERNEL_DIR holds no built kernel (scripts/build-debug-kernel.sh)"
	KVER=$(cat "$FR_VM_KERNEL_DIR/kver")
	export FR_VM_MODDIR=$FR_VM_KERNEL_DIR/obj
elif [[ -n ${FR_VM_ROOT:-} ]]; then
	# A Debian kernel unpacked, not installed (scripts/kernel-root.sh):
	# ROOT/boot/vmlinuz-KVER and ROOT/lib/modules/KVER (with modules.dep).
	KVER=${TEST_KVER:-$(ls "$FR_VM_ROOT"/boot/vmlinuz-* 2>/dev/null |
		sed 's|.*/vmlinuz-||' | sort -V | tail -n 1)}
	[[ -n $KVER ]] || die "FR_VM_ROOT=$FR_VM_ROOT has no boot/vmlinuz-*: run scripts/kernel-root.sh"
	KERNEL=$FR_VM_ROOT/boot/vmlinuz-$KVER
	[[ -r $KERNEL ]] || die "$KERNEL is missing or unreadable (scripts/kernel-root.sh)"
	export FR_VM_MODDIR=$FR_VM_ROOT/lib/modules/$KVER
	[[ -f $FR_VM_MODDIR/modules.dep ]] || die "$FR_VM_MODDIR/modules.dep is missing (scripts/kernel-root.sh runs depmod)"
else
	# The guest kernel: TEST_KVER, else the default one (scripts/kernels.sh).
	KVER=${TEST_KVER:-}
	[[ -n $KVER ]] || die "no Debian 6.1 kernel with headers installed: run scripts/deps.sh"
	KERNEL=/boot/vmlinuz-$KVER
	[[ -r $KERNEL ]] || die "$KERNEL is missing or unreadable: run scripts/deps.sh (or set TEST_KVER)"
	[[ -d /lib/modules/$KVER ]] || die "/lib/modules/$KVER is missing (install linux-image-$KVER)"
fi
# bookworm-backports' QEMU where scripts/qemu.sh unpacked it (deps.sh), else
# the system's; FR_VM_QEMU names another
QEMU=$("$HERE/qemu.sh" path) || die "no QEMU to run: run scripts/deps.sh"
QEMU_VER=$("$QEMU" --version 2>/dev/null | sed -n '1s/^QEMU emulator version \([0-9.]*\).*/\1/p')
[[ -n $QEMU_VER ]] || die "$QEMU does not run"

mkdir -p "$BUILD"
INITRD=$BUILD/initramfs-$KVER.cpio
"$HERE/mkinitramfs.sh" "$KVER" "$INITRD" || die "cannot build the initramfs"
[[ $MODE == initramfs ]] && { echo "$INITRD"; exit 0; }

qemu_base() {
	local accel=$1
	QARGS=("$QEMU" -nodefaults -no-user-config -machine q35 -no-reboot
		-m "$MEM" -smp "$SMP" -kernel "$KERNEL" -initrd "$INITRD"
		-display none -nic none)
	case $accel in
	kvm) QARGS+=(-accel kvm -cpu host) ;;
	tcg)
		local tcg="tcg,thread=${FR_VM_TCG_THREAD:-single},tb-size=256"
		# one instruction per block: 7.2 has -singlestep, 10.0 only the property
		if [[ -n ${FR_VM_SS:-} ]]; then
			if [[ ${QEMU_VER%%.*} -ge 9 ]]; then
				tcg+=",one-insn-per-tb=on"
			else
				QARGS+=(-singlestep)
			fi
		fi
		# Without ERMS and FSRM the guest kernel clears and copies pages
		# and user buffers with unrolled loops: TCG runs a "rep stosb" or
		# "rep movsb" one byte per step, 4096 steps a page (docs/testing.md,
		# "The emulator")
		QARGS+=(-accel "$tcg" -cpu "${FR_VM_CPU:-$(tcg_cpu)}"
			${FR_VM_PLUGIN:+-plugin "$FR_VM_PLUGIN"})
		# The guest's TSC from the instructions it ran, not from this
		# host's TSC, which jumps where the host is a VM that was
		# snapshotted or migrated (docs/testing.md, "The TSC boot")
		[[ -z ${FR_VM_ICOUNT:-} ]] || QARGS+=(-icount "shift=auto,sleep=on") ;;
	esac
}

# TCG's "max" CPU, less what this host's CPU lacks of the instruction-set
# features that `flightrec replay` checks (user/cmd/replay.c, feats[]): a
# checkpoint recorded in the guest refuses to replay where its CPU had
# more (rdseed and rdpid, on a host without them), and the portable tests
# replay the guest's recordings on the host.  Names: /proc/cpuinfo's, then
# QEMU's where they differ.  Not fsgsbase: a kernel that does not use it
# leaves it out of /proc/cpuinfo, where CPUID (what replay reads) has it.
tcg_cpu() {
	local cpu=max,erms=off,fsrm=off f q flags
	flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
	for f in pni ssse3 sse4_1:sse4.1 sse4_2:sse4.2 pclmulqdq movbe popcnt \
		 aes xsave avx f16c fma rdrand bmi1 avx2 bmi2 rdseed adx \
		 clflushopt clwb sha_ni:sha-ni rdpid xsaveopt xsavec gfni vaes \
		 vpclmulqdq; do
		q=${f#*:}
		f=${f%%:*}
		[[ $flags == *" $f "* ]] || cpu+=",-$q"
	done
	echo "$cpu"
}

# KVM may be absent, forbidden, or hang when nested: boot a probe to a marker
# with a short timeout.  The answer is cached for this host boot.
probe_kvm() {
	local log=$BUILD/kvm-probe.log t0 t1
	if [[ ! -r /dev/kvm || ! -w /dev/kvm ]]; then
		echo "no access to /dev/kvm"
		return 1
	fi
	qemu_base kvm
	t0=$(date +%s.%N)
	if timeout -k 2 20 "${QARGS[@]}" -serial stdio \
		-append "console=ttyS0 quiet panic=-1 rdinit=/init frvm.mode=probe" \
		</dev/null >"$log" 2>&1 && grep -q 'FRVM: probe-ok' "$log"; then
		t1=$(date +%s.%N)
		echo "probe boot $(echo "$t1 - $t0" | bc 2>/dev/null || echo '?')s"
		return 0
	fi
	if grep -qiE 'error|fail|could not' "$log"; then
		echo "KVM probe failed: $(grep -m1 -iE 'error|fail|could not' "$log")"
	else
		echo "KVM probe did not reach userspace within 20s (KVM hangs here)"
	fi
	return 1
}

choose_accel() {
	local bootid cache why
	case $ACCEL in
	kvm|tcg) echo "$ACCEL"; return ;;
	auto) ;;
	*) die "FR_VM_ACCEL must be kvm, tcg or auto, not '$ACCEL'" ;;
	esac
	bootid=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)
	cache=$BUILD/accel-$bootid
	# runs started together (scripts/check.sh boots kernels in parallel)
	# probe once: the first holds the lock, the others read its answer
	exec {lock}>"$BUILD/accel.lock"
	flock "$lock"
	if [[ ! -s $cache ]]; then
		rm -f "$BUILD"/accel-*
		if why=$(probe_kvm); then
			echo "kvm ($why)" >"$cache"
		else
			echo "tcg ($why)" >"$cache"
		fi
	fi
	exec {lock}>&-
	say "accelerator: $(cat "$cache") [cached in ${cache#"$TOP"/}]"
	cut -d' ' -f1 "$cache"
}

if [[ $MODE == probe ]]; then
	rm -f "$BUILD"/accel-*
	ACCEL=auto
	choose_accel
	exit 0
fi
accel=$(choose_accel)

# One directory per run, inside the project tree so the guest can write to it.
mkdir -p "$BUILD/runs"
RUN=$(mktemp -d "$BUILD/runs/$(date +%Y%m%d-%H%M%S)-XXXX")
# held as long as this run lasts (qemu inherits it): no other vm.sh removes
# the directory meanwhile.  A debug boot of two hours used to lose its
# directory to the 20 short runs started beside it, and with it the
# guest's status, kmemleak and dmesg files
exec {run_lock}>"$RUN/.lock"
flock -n "$run_lock" || true
# keep the 20 newest runs, and any still running (a run that another vm.sh
# removes meanwhile makes ls fail: not a reason to stop, under pipefail,
# without a word)
{ ls -1dt "$BUILD"/runs/*/ 2>/dev/null || true; } | tail -n +21 |
	while IFS= read -r old; do
		[[ -e $old.lock ]] && ! flock -n "$old.lock" true 2>/dev/null && continue
		rm -rf -- "$old"
	done

if [[ $NOMODULE != 1 ]]; then
	[[ -n $MODULE ]] || MODULE=$("$HERE/kernels.sh" module "$KVER")
	[[ -f $MODULE ]] || die "module $MODULE not found (build it: make check-build, or make kmod KVER=$KVER), or use --no-module"
	vermagic=$(modinfo -F vermagic "$MODULE" 2>/dev/null | cut -d' ' -f1)
	[[ $vermagic == "$KVER" ]] ||
		die "$MODULE is built for kernel '${vermagic:-?}', the VM runs $KVER (make check-build, or make kmod KVER=$KVER)"
	modname=$(modinfo -F name "$MODULE" 2>/dev/null || true)
	[[ -n $modname ]] || modname=$(basename "$MODULE" .ko | tr - _)
	# A copy in the run directory: the guest hides the host's /tmp.
	cp "$MODULE" "$RUN/$modname.ko"
	echo "$RUN/$modname.ko" >"$RUN/module"
	echo "$MODPARAMS" >"$RUN/modparams"
fi

# The command, as a bash script that the guest runs in the host's root.
cwd=$PWD
[[ $cwd == "$TOP" || $cwd == "$TOP"/* ]] || cwd=$TOP
{
	echo '#!/bin/bash'
	echo 'export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8'
	if [[ $MODE == shell ]]; then
		printf 'export TERM=%q\n' "${TERM:-vt100}"
	else
		echo 'export TERM=dumb'
	fi
	printf 'export FR_VM=1 FR_TOP=%q TEST_KVER=%q\n' "$TOP" "$KVER"
	if [[ $NOMODULE != 1 ]]; then
		printf 'export FR_MODULE=%q FR_MODNAME=%q FR_MODPARAMS=%q\n' \
			"$RUN/$modname.ko" "$modname" "$MODPARAMS"
	else
		echo 'unset FR_MODULE FR_MODNAME; export FR_NOMODULE=1'
	fi
	while IFS= read -r var; do
		case $var in
		FR_VM_*|FR_MODULE|FR_MODNAME|FR_MODPARAMS|FR_NOMODULE|FR_TOP|TEST_KVER) ;;
		*) printf 'export %s=%q\n' "$var" "${!var}" ;;
		esac
	done < <(compgen -e | grep -E '^(FR|TEST)_' || true)
	printf 'cd -- %q || exit 127\n' "$cwd"
	if [[ $MODE == shell ]]; then
		echo 'echo "flightrec test VM: kernel $(uname -r), module ${FR_MODNAME:-not loaded}; exit or Ctrl-D powers off"'
		echo 'exec /bin/bash -i'
	else
		printf 'exec'
		printf ' %q' "$@"
		printf '\n'
	fi
} >"$RUN/cmd"
chmod +x "$RUN/cmd"

APPEND="console=ttyS0,115200 loglevel=$LOGLEVEL panic=1 rdinit=/init log_buf_len=4M"
# A soft lockup ends the run at once, and the panic replays the whole kernel
# log to the console at every level: the backtraces of every CPU (printed at
# a level the console hides) are then in console.log and the output.
APPEND+=" softlockup_panic=1 softlockup_all_cpu_backtrace=1 panic_print=0x20"
[[ ${FR_VM_DEBUG:-1} == 0 ]] || APPEND+=" slub_debug=FZP"
# Emulation is slow and the host may be busy: no false stall reports.
# no_timer_check: a busy host can delay the emulated timer past the boot's
# IO-APIC timer check, which then panics ("IO-APIC + timer doesn't work").
[[ $accel == tcg ]] && APPEND+=" rcupdate.rcu_cpu_stall_timeout=60 watchdog_thresh=30 no_timer_check"
case ${FR_VM_CLOCK:-} in
'') ;;
tsc) APPEND+=" tsc=reliable" ;;
hpet) APPEND+=" clocksource=hpet" ;;
*) die "FR_VM_CLOCK must be tsc or hpet, not '$FR_VM_CLOCK'" ;;
esac
APPEND+=" frvm.mode=$MODE frvm.top=$TOP frvm.run=$RUN ${FR_VM_APPEND:-}"
[[ $TOP != *[[:space:]]* ]] || die "the project path '$TOP' contains spaces; the kernel command line cannot carry it"

qemu_base "$accel"
QARGS+=(-append "$APPEND"
	-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap"
	-device "virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot"
	-fsdev "local,id=project,path=$TOP,security_model=none,multidevs=remap"
	-device "virtio-9p-pci,fsdev=project,mount_tag=project"
	-fsdev "local,id=tools,path=$TOP/user,security_model=none,readonly=on,multidevs=remap"
	-device "virtio-9p-pci,fsdev=tools,mount_tag=tools")
# A hung guest can be examined from outside: the monitor ("info registers -a")
# and gdb ("target remote RUN/gdb.sock"), sockets in the run directory.
[[ ${FR_VM_MONITOR:-0} == 0 ]] || QARGS+=(
	-monitor "unix:$RUN/monitor.sock,server=on,wait=off"
	-gdb "unix:$RUN/gdb.sock,server=on,wait=off")

if [[ $MODE == shell ]]; then
	stty size 2>/dev/null >"$RUN/winsize" || true
	say "booting $KVER ($accel); the shell starts in ${cwd}; 'exit' powers off, Ctrl-A X kills qemu"
	set +e
	# Like -serial mon:stdio (Ctrl-A X quits, Ctrl-A C is the monitor), logged;
	# Ctrl-C goes to the guest.
	timeout --foreground "$TIMEOUT" "${QARGS[@]}" \
		-chardev "stdio,id=con0,mux=on,signal=off,logfile=$RUN/console.log" \
		-serial chardev:con0 -mon chardev=con0,mode=readline
	qrc=$?
	set -e
	stty sane 2>/dev/null || true
else
	say "booting $KVER ($accel, $SMP CPUs, $MEM, qemu $QEMU_VER); run directory ${RUN#"$TOP"/}"
	t_start=$(date +%s.%N)
	t_begin=
	t_end=
	phase=boot
	hidden=()
	set +e
	timeout -k 10 "$TIMEOUT" "${QARGS[@]}" -serial stdio </dev/null 2>"$RUN/qemu.stderr" |
		tee "$RUN/console.log" |
		while IFS= read -r line || [[ -n $line ]]; do
			line=${line%$'\r'}
			case $line in
			"FRVM: begin"*)
				t_begin=$(date +%s.%N)
				phase=cmd
				say "booted in $(printf '%.1f' "$(echo "$t_begin - $t_start" | bc)")s"
				continue ;;
			"FRVM: end"*)
				t_end=$(date +%s.%N)
				phase=post
				continue ;;
			"FRVM: FATAL"*)
				echo "vm.sh: guest: ${line#FRVM: }" >&2
				continue ;;
			"FRVM: "*)
				[[ $VERBOSE == 1 ]] && echo "$line" >&2
				continue ;;
			esac
			if [[ $phase == cmd || $VERBOSE == 1 ]]; then
				printf '%s\n' "$line"
			else
				hidden+=("$line")
			fi
		done
	rcs=("${PIPESTATUS[@]}")
	set -e
	qrc=${rcs[0]}
fi

# ---- verdict ----
declare -A st=()
if [[ -f $RUN/status ]]; then
	while IFS='=' read -r k v; do
		[[ -n $k ]] && st[$k]=$v
	done <"$RUN/status"
fi

show_hidden() {
	if [[ $MODE != shell && $VERBOSE != 1 && ${#hidden[@]} -gt 0 ]]; then
		echo "vm.sh: ---- console (last 40 lines, not shown above) ----" >&2
		printf '%s\n' "${hidden[@]}" | tail -n 40 >&2
		echo "vm.sh: ----" >&2
	fi
}

fails=()
boot_trouble=0
fail() { fails+=("$1"); }
if [[ $qrc == 124 || $qrc == 137 ]]; then
	fail "the VM timed out after ${TIMEOUT}s (FR_VM_TIMEOUT)"
	boot_trouble=1
fi
if grep -q 'Kernel panic' "$RUN/console.log" 2>/dev/null; then
	fail "kernel panic: $(grep -m1 'Kernel panic' "$RUN/console.log" | tr -d '\r')"
	boot_trouble=1
fi
if [[ -n ${st[fatal]:-} ]]; then
	fail "guest setup failed: ${st[fatal]}"
	boot_trouble=1
elif ! grep -q '^FRVM: init' "$RUN/console.log" 2>/dev/null; then
	fail "the VM did not boot (qemu exit status $qrc) $(tail -n 3 "$RUN/qemu.stderr" 2>/dev/null | tr '\n' ' ')"
	boot_trouble=1
elif [[ -z ${st[cmd]:-} ]]; then
	fail "the command's exit status is missing (the VM died or hung while it ran)"
	boot_trouble=1
fi
if [[ ${st[rmmod]:-} == fail* ]]; then
	fail "cannot unload the module: ${st[rmmod]#fail: }"
fi
if [[ -n ${st[kmemleak]:-} && ${st[kmemleak]} != 0 ]]; then
	fail "kmemleak reports ${st[kmemleak]} unreferenced object(s) after the run (kmemleak.txt):"
	while IFS= read -r l; do fails+=("  $l"); done < <(head -n 60 "$RUN/kmemleak.txt")
fi
if [[ -n ${st[kcheck]:-} && ${st[kcheck]} != 0 ]]; then
	fail "the kernel log is not clean after the run (scripts/kcheck.sh):"
	while IFS= read -r l; do fails+=("  $l"); done <"$RUN/kcheck.txt"
elif [[ -n ${st[cmd]:-} && -z ${st[done]:-} && $boot_trouble == 0 ]]; then
	fail "the VM stopped before the kernel log was checked"
	boot_trouble=1
fi

if ((${#fails[@]})); then
	((boot_trouble)) && show_hidden
	for f in "${fails[@]}"; do
		case $f in
		" "*) echo "vm.sh:   $f" >&2 ;;
		*) echo "vm.sh: FAIL: $f" >&2 ;;
		esac
	done
	echo "vm.sh: logs in ${RUN#"$TOP"/}/ (console.log, dmesg.txt, status)" >&2
	[[ $qrc == 124 || $qrc == 137 ]] && exit 124
	rc=${st[cmd]:-1}
	((rc != 0)) && exit "$rc"
	exit 1
fi
if [[ $MODE != shell && -n $t_begin && -n $t_end ]]; then
	printf 'boot %.1fs, command %.1fs, accel %s\n' "$(echo "$t_begin - $t_start" | bc)" \
		"$(echo "$t_end - $t_begin" | bc)" "$accel" >"$RUN/summary"
fi
exit "${st[cmd]}"
}
