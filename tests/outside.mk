# SPDX-License-Identifier: GPL-2.0
# The outside corpus (tests/replay_outside.c): strace's test programs, vendored
# in outside/strace/ (LGPL-2.1+ / GPL-2.0+, see outside/README.md), built as
# strace builds them, against their own libtests.  Third-party code with its
# own conventions: built with -w rather than this project's -Werror.
STRACE_DIR := outside/strace
# STRACE(id, "name") and STRACE_XFAIL(id, "name", ...): every case has its binary
STRACE_NAMES := $(shell sed -n 's/^STRACE\(_XFAIL\)\{0,1\}.[^,]*, "\([^"]*\)".*$$/\2/p' outside/cases.h)
STRACE_BINS := $(STRACE_NAMES:%=bin/outside/strace/%)
STRACE_LIB_SRCS := $(shell sed -n 's/^\([A-Za-z0-9_-]*\.c\)$$/\1/p' $(STRACE_DIR)/libtests.list)
STRACE_LIB_OBJS := $(STRACE_LIB_SRCS:%.c=bin/outside/strace/lib/%.o)
STRACE_CFLAGS := -O1 -g -w -D_GNU_SOURCE -DHAVE_CONFIG_H -D_FILE_OFFSET_BITS=64 \
	-I$(STRACE_DIR) -I$(STRACE_DIR)/tests -I$(STRACE_DIR)/src
STRACE_HDRS := $(wildcard $(STRACE_DIR)/*.h $(STRACE_DIR)/tests/*.h $(STRACE_DIR)/src/*.h)

all: $(STRACE_BINS)

bin/outside/strace/lib/%.o: $(STRACE_DIR)/tests/%.c $(STRACE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(STRACE_CFLAGS) -c -o $@ $<

bin/outside/strace/libtests.a: $(STRACE_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

bin/outside/strace/%: $(STRACE_DIR)/tests/%.c bin/outside/strace/libtests.a $(STRACE_HDRS)
	$(CC) $(STRACE_CFLAGS) -o $@ $< bin/outside/strace/libtests.a -lm
