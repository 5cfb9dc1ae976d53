# SPDX-License-Identifier: GPL-2.0
# The libFuzzer targets (included by tests/Makefile).
#
#   bin/fuzz/fuzz_checkpoint   the checkpoint reader: fuzz_checkpoint.c and the
#                              reader built with clang -fsanitize=fuzzer,address,undefined
#   bin/fuzz/fuzz_commands     info, info --json, log, log --merged and the replay
#                              image build on the input (fuzz_commands.c and the
#                              command sources), under memory and time limits
#   bin/fuzz_checkpoint,       a bounded run of each for the test suite, TAP on
#   bin/fuzz_commands          stdout (copies of fuzz_short.sh; FUZZ_SHORT_TIME
#                              seconds, 20 by default); skip without clang
#   make fuzz [FUZZ_TIME=600]  a longer run of each (also from the top level);
#                              the corpora grow in build/fuzz/NAME, crashes go
#                              to build/fuzz/
#   make corpus                rewrites the seed corpus corpus/checkpoint/ from
#                              checkpoint_rw's synthetic dumps
#
# fuzz_checkpoint.c has no main(): tests/Makefile leaves fuzz_*.c to the
# explicit rules here.

all: bin/fuzz_checkpoint bin/fuzz_commands

FUZZ_CC ?= clang
FUZZ_TIME ?= 600
FUZZ_DIR := $(TOP)/build/fuzz
FUZZ_CFLAGS := -g -O1 -fno-omit-frame-pointer -std=gnu11 -D_GNU_SOURCE \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-Wall -Wextra -Werror -I$(TOP)/user/lib -I$(TOP)/user -I$(TOP)/uapi \
	$(shell pkg-config --cflags libprotobuf-c libzstd 2>/dev/null)
FUZZ_LIBS := $(shell pkg-config --libs libprotobuf-c libzstd 2>/dev/null)
FUZZ_SRCS := fuzz_checkpoint.c $(TOP)/user/lib/checkpoint.c $(TOP)/user/lib/syscalls.c \
	$(TOP)/user/flightrec.pb-c.c
# the commands: every source of the flightrec tool, its main() renamed
# (libFuzzer has the process's)
FUZZ_CMD_SRCS := fuzz_commands.c $(TOP)/user/flightrec.c $(wildcard $(TOP)/user/cmd/*.c) \
	$(wildcard $(TOP)/user/lib/*.c) $(TOP)/user/flightrec.pb-c.c
FUZZ_CMD_CFLAGS := $(FUZZ_CFLAGS) -DFR_VERSION='"fuzz"' -Dmain=flightrec_main \
	$(shell pkg-config --cflags libnl-genl-3.0 json-c capstone 2>/dev/null)
FUZZ_CMD_LIBS := $(FUZZ_LIBS) $(shell pkg-config --libs libnl-genl-3.0 json-c capstone 2>/dev/null)
# Limits of make fuzz and fuzz_short.sh.  The commands' own bound is 64 MiB
# plus 8 times the input (docs/security.md, "Resource bounds"); ASan's shadow
# and quarantine come on top of the RSS, so the RSS limit is looser than the
# bound and one allocation is held to the bound itself.
FUZZ_LIMITS_checkpoint := -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512
FUZZ_LIMITS_commands := -timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=80 -max_len=262144

$(TOP)/user/flightrec.pb-c.c: $(TOP)/user/flightrec.proto
	$(MAKE) -C $(TOP)/user flightrec.pb-c.c

bin/fuzz/fuzz_checkpoint: $(FUZZ_SRCS) $(TOP)/user/lib/checkpoint.h \
		$(TOP)/user/lib/fr_htab.h
	@mkdir -p bin/fuzz
	@if echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return !d + !n; }' | \
	    $(FUZZ_CC) -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then \
		echo "$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ $(FUZZ_SRCS)"; \
		$(FUZZ_CC) $(FUZZ_CFLAGS) -o $@ $(FUZZ_SRCS) $(FUZZ_LIBS); \
	else \
		echo "fuzz: no $(FUZZ_CC) with libFuzzer here: fuzz_checkpoint will skip"; \
		rm -f $@; \
	fi

bin/fuzz/fuzz_commands: $(FUZZ_CMD_SRCS) $(wildcard $(TOP)/user/lib/*.h) \
		$(TOP)/user/commands.h $(TOP)/user/loader/image.h
	@mkdir -p bin/fuzz
	@if echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return !d + !n; }' | \
	    $(FUZZ_CC) -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then \
		echo "$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ fuzz_commands.c user/flightrec.c user/cmd/*.c user/lib/*.c"; \
		$(FUZZ_CC) $(FUZZ_CMD_CFLAGS) -o $@ $(FUZZ_CMD_SRCS) $(FUZZ_CMD_LIBS); \
	else \
		echo "fuzz: no $(FUZZ_CC) with libFuzzer here: fuzz_commands will skip"; \
		rm -f $@; \
	fi

# fuzz_short.sh runs the target its name says, with the limits it is given
bin/fuzz_%: fuzz_short.sh bin/fuzz/fuzz_% | bin
	sed 's/@FUZZ_LIMITS@/$(FUZZ_LIMITS_$*)/' fuzz_short.sh > $@
	chmod 755 $@

.PHONY: fuzz corpus
fuzz: bin/fuzz/fuzz_checkpoint bin/fuzz/fuzz_commands
	@test -x bin/fuzz/fuzz_checkpoint -a -x bin/fuzz/fuzz_commands || \
		{ echo "make fuzz needs $(FUZZ_CC) with libFuzzer"; exit 1; }
	mkdir -p $(FUZZ_DIR)/checkpoint $(FUZZ_DIR)/commands
	bin/fuzz/fuzz_checkpoint -max_total_time=$(FUZZ_TIME) $(FUZZ_LIMITS_checkpoint) \
		-print_final_stats=1 \
		-artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/checkpoint corpus/checkpoint
	bin/fuzz/fuzz_commands -max_total_time=$(FUZZ_TIME) $(FUZZ_LIMITS_commands) \
		-print_final_stats=1 \
		-artifact_prefix=$(FUZZ_DIR)/commands- $(FUZZ_DIR)/commands corpus/checkpoint

corpus: bin/checkpoint_rw
	rm -f corpus/checkpoint/*.flrc
	FLRC_CORPUS_DIR=$(CURDIR)/corpus/checkpoint bin/checkpoint_rw >/dev/null
	ls -l corpus/checkpoint
