# SPDX-License-Identifier: GPL-2.0
# Packaging tests (included by tests/Makefile): tests/pkg_*.sh become
# bin/pkg_* (plain executables printing TAP, run by run.sh like the others).
# They need the host: in the test VM they SKIP, and `make check-pkg` at the
# top level runs them on the host (`make check` does that before the VM).
#
# The tests see the version the tools are built with: the top-level VERSION
# file, as -DFR_VERSION (user/lib/libflightrec.h: FR_TOOL_VERSION).
FR_VERSION_STR := $(shell cat $(TOP)/VERSION)
BASE_CFLAGS += -DFR_VERSION='"$(FR_VERSION_STR)"'

PKG_TESTS := $(patsubst pkg_%.sh,bin/pkg_%,$(wildcard pkg_*.sh))
all: $(PKG_TESTS)

bin/pkg_%: pkg_%.sh | bin
	install -m 755 $< $@
