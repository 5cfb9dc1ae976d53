# SPDX-License-Identifier: GPL-2.0
# flightrec: top-level build.  See README.md.
#
#   make            module + userspace tools + tests
#   make check      installs dependencies, builds, runs the test suite in a VM
#   make check-debug  the same on a debug kernel (KASAN, lockdep, kmemleak, faults)
#   make demo       the main job: record a crashing server, replay it, gdb backtrace
#   make bench      benchmarks (in the VM)
#   make vm-shell   an interactive shell in the test VM, module loaded

TOP := $(CURDIR)
# The Debian test kernel (the VM boots it).
TEST_KVER ?= $(shell ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sed 's|.*/linux-headers-||' | sort -V | tail -1)
TEST_KDIR := /usr/src/linux-headers-$(TEST_KVER)
HOST_KDIR := /lib/modules/$(shell uname -r)/build
KDIR ?= $(if $(wildcard $(HOST_KDIR)),$(HOST_KDIR),$(TEST_KDIR))

export TOP TEST_KVER

.PHONY: all module user tests check demo bench fuzz vm-shell deps clean sparse

all: module user tests

module:
	$(MAKE) -C $(KDIR) M=$(TOP) W=1 modules

sparse:
	$(MAKE) -C $(KDIR) M=$(TOP) W=1 C=2 modules

user:
	$(MAKE) -C user

tests: user
	$(MAKE) -C tests

deps:
	scripts/deps.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(TOP) clean
	$(MAKE) -C user clean
	$(MAKE) -C tests clean

# ---- test rig: scripts/vm.sh, tests/run.sh; see docs/testing.md ----
.PHONY: kselftest check-build

# kselftest harness headers, from the kernel source package, into build/kselftest
kselftest: build/kselftest/kselftest_harness.h
build/kselftest/kselftest_harness.h:
	scripts/kselftest-headers.sh
tests: kselftest

# Dependencies first, then a sub-make, so a fresh machine sees the kernel
# headers that deps.sh just installed.  The module is built for the VM's kernel.
check: deps
	$(MAKE) check-build
	scripts/check.sh

check-build:
	$(MAKE) module KDIR=$(TEST_KDIR)
	$(MAKE) tests

# ---- make check-debug: the suite on a debug kernel (scripts/check-debug.sh) ----
# KASAN, KFENCE, lockdep, KMEMLEAK, UBSAN and a fault-injection pass; the
# kernel is built once (about an hour on 2 busy CPUs) and cached in
# /var/cache/flightrec (scripts/build-debug-kernel.sh).
.PHONY: check-debug debug-kernel
debug-kernel: deps
	scripts/build-debug-kernel.sh
check-debug: deps
	$(MAKE) check-build
	scripts/check-debug.sh

vm-shell:
	$(MAKE) module KDIR=$(TEST_KDIR)
	scripts/vm.sh shell

# ---- fuzzing: tests/fuzz.mk ----
# The checkpoint reader under libFuzzer for FUZZ_TIME seconds (default 600);
# `make check` runs a 20 s round of it (tests/bin/fuzz_checkpoint).
fuzz: user
	$(MAKE) -C tests fuzz

# ---- make demo: record a crashing server, replay it, gdb backtrace (scripts/demo.sh) ----
# In the test VM with the module (the real recorder); FR_DEMO_RECORDER=ptrace
# runs it here with the ptrace fixture instead, no module or VM needed.
demo: deps
	$(MAKE) check-build
	@if [ "$(FR_DEMO_RECORDER)" = ptrace ]; then scripts/demo.sh; \
	else scripts/vm.sh run -- scripts/demo.sh; fi

# ---- make bench: scripts/bench-vm.sh in the test VM; ratios against a baseline of the same run ----
# Without slub_debug (FR_VM_DEBUG=0): the test boots poison and check every
# allocation, which would be measured as flightrec's cost.
# FR_BENCH_REPS=N repetitions per figure (default 5); BENCH="unreg dd" picks sections;
# FR_BENCH_INTERVALS="125" the interval lengths of the intervals section.
# BENCH=insn (also part of the whole bench): instructions per call of dd,
# counted by a TCG plugin in boots of its own (scripts/bench-insn.sh).
BENCH_VM := $(filter-out insn,$(BENCH))
bench: deps
	$(MAKE) check-build
	$(if $(BENCH_VM)$(if $(BENCH),,all),FR_VM_DEBUG=0 scripts/vm.sh run -- scripts/bench-vm.sh $(BENCH_VM))
	$(if $(filter insn,$(BENCH))$(if $(BENCH),,all),scripts/bench-insn.sh)

# ---- packaging: make install / uninstall, DKMS, Debian packages (docs/packaging.md) ----
# One version for module, ABI and tools: the VERSION file.
VERSION := $(shell cat $(TOP)/VERSION)
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/flightrec
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
INSTALL_VARS := DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" BINDIR="$(BINDIR)" \
	LIBEXECDIR="$(LIBEXECDIR)" LIBDIR="$(LIBDIR)" INCLUDEDIR="$(INCLUDEDIR)" \
	DATADIR="$(DATADIR)" MANDIR="$(MANDIR)" DOCDIR="$(DOCDIR)" \
	BASHCOMPDIR="$(BASHCOMPDIR)" SYSTEMDUNITDIR="$(SYSTEMDUNITDIR)"

.PHONY: install uninstall dkms-source deb check-pkg

# The tools, loader, library, headers, unit, completion, man pages, docs;
# a manifest lets uninstall remove exactly those (scripts/install.sh).
install: user
	$(INSTALL_VARS) scripts/install.sh install

uninstall:
	$(INSTALL_VARS) scripts/install.sh uninstall

# The module's DKMS source tree: what flightrec-dkms puts in
# /usr/src/flightrec-$(VERSION) (dkms.conf, VERSION, Kbuild, kernel/, uapi/).
DKMS_SRCDIR ?= $(TOP)/build/dkms/flightrec-$(VERSION)
DKMS_FILES := dkms.conf VERSION Kbuild kernel/Kbuild \
	$(filter-out %.mod.c,$(wildcard kernel/*.c)) $(wildcard kernel/*.h uapi/*.h)
dkms-source:
	@mkdir -p $(DKMS_SRCDIR)
	for f in $(DKMS_FILES); do install -C -D -m 644 $$f $(DKMS_SRCDIR)/$$f || exit; done

# Debian packages flightrec, flightrec-dkms, libflightrec-dev, built with
# dpkg-buildpackage in a copy of the tree, checked with lintian; into
# build/deb/ (DEB_OUT=DIR for another place).
deb:
	scripts/mkdeb.sh

# The packaging tests, on this machine (dkms and dpkg need the host; the deb
# test boots its own VM): tests/pkg_*.sh, run by tests/run.sh.
check-pkg: deps
	$(MAKE) user
	$(MAKE) -C tests $(patsubst tests/%.sh,bin/%,$(wildcard tests/pkg_*.sh))
	tests/run.sh 'pkg_*'

# `make check` runs the packaging tests first, on the host, but leaves out
# pkg_deb's install in a VM (minutes under TCG): `make check-pkg` runs it,
# and so does `make check FR_PKG_DEB_VM=1`.
check: check-pkg-quick
.PHONY: check-pkg-quick
check-pkg-quick: deps
	FR_PKG_DEB_VM=$${FR_PKG_DEB_VM:-0} $(MAKE) check-pkg

# ---- Debian's 6.12 LTS beside 6.1 (docs/testing.md, "Other kernels") ----
# The 6.12 image, headers and kbuild are unpacked under K612_DIR by
# scripts/kernel-root.sh, not installed: an installed second
# linux-headers-*-amd64 would change TEST_KVER.  The module is built from a
# copy of its sources (the DKMS tree) so that kernel/ keeps the 6.1 build.
K612_VER ?= 6.12.115+deb12-amd64
K612_DIR ?= /var/cache/flightrec/kernels/$(K612_VER)
K612_KDIR = $(K612_DIR)/root/usr/src/linux-headers-$(K612_VER)
K612_MOD = $(TOP)/build/kmod-$(K612_VER)
.PHONY: kernel-612 module-612 sparse-612 check-612 vm-shell-612
kernel-612:
	scripts/kernel-root.sh $(K612_VER) $(K612_DIR) >/dev/null
module-612: kernel-612
	$(MAKE) dkms-source DKMS_SRCDIR=$(K612_MOD)
	$(MAKE) -C $(K612_KDIR) M=$(K612_MOD) W=1 modules
sparse-612: module-612
	$(MAKE) -C $(K612_KDIR) M=$(K612_MOD) W=1 C=2 modules
check-612: deps
	$(MAKE) module-612
	$(MAKE) tests
	TEST_KVER=$(K612_VER) FR_VM_ROOT=$(K612_DIR)/root \
		FR_MODULE=$(K612_MOD)/kernel/flightrec.ko scripts/check.sh
vm-shell-612: module-612
	TEST_KVER=$(K612_VER) FR_VM_ROOT=$(K612_DIR)/root \
		FR_MODULE=$(K612_MOD)/kernel/flightrec.ko scripts/vm.sh shell

# PREEMPT_RT: the module refuses to load there; check-rt boots Debian's RT
# kernel (unpacked like 6.12) and checks that (scripts/check-rt.sh).
.PHONY: check-rt
check-rt:
	scripts/check-rt.sh
