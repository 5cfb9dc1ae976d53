# SPDX-License-Identifier: GPL-2.0
# flightrec: top-level build.  See README.md.
#
#   make            module + userspace tools + tests
#   make check      installs dependencies, builds, runs the test suite in a VM
#                   of each tested kernel (6.1, 6.12; TEST_KVER=... one)
#   make check-debug  the same on a debug kernel (KASAN, lockdep, kmemleak, faults)
#   make demo       the main job: record a crashing server, replay it, gdb backtrace
#   make bench      benchmarks (in the VM)
#   make vm-shell   an interactive shell in the test VM, module loaded

TOP := $(CURDIR)
KERNELS := $(TOP)/scripts/kernels.sh
# The kernels `make check` tests (scripts/kernels.sh): Debian's 6.1 and 6.12
# LTS, or the one TEST_KVER names (`make check TEST_KVER=...`).
# kernel/flightrec.ko is built for the default one (6.1, DEFAULT_KVER);
# the others' modules are built in build/kmod-KVER (`make kmod KVER=...`).
TEST_KVER_NAMED := $(and $(strip $(TEST_KVER)),$(filter command line environment,$(origin TEST_KVER)))
DEFAULT_KVER := $(shell $(KERNELS) default 2>/dev/null)
ifeq ($(strip $(CHECK_KVERS)),)
CHECK_KVERS := $(if $(TEST_KVER_NAMED),$(TEST_KVER),$(shell $(KERNELS) list 2>/dev/null))
endif
TEST_KVER := $(if $(TEST_KVER_NAMED),$(TEST_KVER),$(DEFAULT_KVER))
TEST_KDIR := $(shell $(KERNELS) kdir $(DEFAULT_KVER) 2>/dev/null)
HOST_KDIR := /lib/modules/$(shell uname -r)/build
# `make` builds against the running kernel's headers; without them, against
# the default test kernel's, and says so when there are several trees.
KHEADERS ?= $(wildcard /usr/src/linux-headers-*-amd64)
ifeq ($(origin KDIR),undefined)
KDIR := $(if $(wildcard $(HOST_KDIR)),$(HOST_KDIR),$(TEST_KDIR))
ifneq ($(KDIR),$(HOST_KDIR))
ifneq ($(word 2,$(KHEADERS)),)
$(info flightrec: no headers for the running kernel ($(shell uname -r)); building against $(KDIR), of: $(notdir $(KHEADERS)) (KDIR=... picks another))
endif
endif
endif

export TOP TEST_KVER CHECK_KVERS

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
	FR_CHECK_KERNELS="$(CHECK_KVERS)" scripts/check.sh

# The module for each kernel of CHECK_KVERS, the tools and the tests.
check-build:
	$(MAKE) module KDIR=$(TEST_KDIR)
	$(foreach k,$(filter-out $(DEFAULT_KVER),$(CHECK_KVERS)),$(MAKE) kmod KVER=$(k) &&) true
	$(MAKE) tests

# The module for kernel KVER in build/kmod-KVER, from the DKMS source copy
# (so kernel/ keeps the default kernel's build); the kernel is unpacked
# first when it is not installed (scripts/kernels.sh fetch).
.PHONY: kmod
kmod:
	@test -n "$(KVER)" || { echo "make kmod KVER=...: which kernel?"; exit 1; }
	FR_KERNELS="$(KVER)" $(KERNELS) fetch
	$(MAKE) dkms-source DKMS_SRCDIR=$(TOP)/build/kmod-$(KVER)
	$(MAKE) -C $$($(KERNELS) kdir $(KVER)) M=$(TOP)/build/kmod-$(KVER) W=1 $(KMOD_TARGET)
KMOD_TARGET ?= modules

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
	$(MAKE) $(if $(filter $(DEFAULT_KVER),$(TEST_KVER)),module KDIR=$(TEST_KDIR),kmod KVER=$(TEST_KVER))
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
# BENCH=compare FR_BENCH_BASE=OTHER/user/flightrec: that build and this one in turn
# (--help, record's fixed cost, the replay's start), not in the default sections;
# FR_BENCH_INTERVALS="125" the interval lengths of the intervals section.
# BENCH=servers (also part of the whole bench): redis, nginx and memcached
# native, recorded and under strace; scripts/bench-deps.sh installs them.
# The bench's VM gets 2 hours (FR_VM_TIMEOUT; vm.sh's default 900 s cut it).
# BENCH=reverse (also part of the whole bench): reverse-execution commands
# under the gdbserver on a 1 s bc run, with and without its snapshots.
# BENCH=threads_faults (also part of the whole bench): a syscall loop beside
# threads whose page writes fault; FR_BENCH_BASE_MODULE=OTHER.ko adds that
# module's figure, the two loaded in turn.
# BENCH=insn (also part of the whole bench): instructions per call of dd,
# counted by a TCG plugin in boots of its own (scripts/bench-insn.sh).
# FR_BENCH_CLOCK=hpet: the guest times with the emulated HPET, as the test
# boots do; the default, tsc, is a server's clock (docs/testing.md, "The bench's clock").
FR_BENCH_CLOCK ?= tsc
BENCH_VM := $(filter-out insn,$(BENCH))
bench: deps
	$(if $(filter servers insn,$(BENCH))$(if $(BENCH),,all),scripts/bench-deps.sh)
	$(MAKE) check-build
	$(if $(BENCH_VM)$(if $(BENCH),,all),FR_VM_CLOCK=$(FR_BENCH_CLOCK) FR_VM_DEBUG=0 FR_VM_TIMEOUT=$${FR_VM_TIMEOUT:-7200} scripts/vm.sh run -- scripts/bench-vm.sh $(BENCH_VM))
	$(if $(filter insn,$(BENCH))$(if $(BENCH),,all),FR_BENCH_CLOCK=$(FR_BENCH_CLOCK) scripts/bench-insn.sh)

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

# ---- Debian's 6.12 LTS beside 6.1 (docs/testing.md, "Two kernels") ----
# `make check` runs both; these run or build 6.12 alone.  Its image, headers
# and kbuild are unpacked under K612_DIR by scripts/kernel-root.sh
# (scripts/kernels.sh fetch), not installed: an installed second
# linux-headers-*-amd64 would change what other builds on the machine pick.
K612_VER ?= 6.12.115+deb12-amd64
export K612_VER
.PHONY: kernel-612 module-612 sparse-612 check-612 vm-shell-612
kernel-612:
	FR_KERNELS=$(K612_VER) $(KERNELS) fetch
module-612:
	$(MAKE) kmod KVER=$(K612_VER)
sparse-612:
	$(MAKE) kmod KVER=$(K612_VER) KMOD_TARGET="C=2 modules"
check-612:
	$(MAKE) check TEST_KVER=$(K612_VER)
vm-shell-612: module-612
	TEST_KVER=$(K612_VER) scripts/vm.sh shell

# PREEMPT_RT: the module refuses to load there; check-rt boots Debian's RT
# kernel (unpacked like 6.12) and checks that (scripts/check-rt.sh).
.PHONY: check-rt
check-rt:
	scripts/check-rt.sh
