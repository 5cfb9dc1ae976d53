# SPDX-License-Identifier: GPL-2.0
# The checkpoint reader's libFuzzer target (included by tests/Makefile).
#
#   bin/fuzz/fuzz_checkpoint   the libFuzzer binary: fuzz_checkpoint.c and the
#                              reader built with clang -fsanitize=fuzzer,address,undefined
#   bin/fuzz_checkpoint        a bounded run of it for the test suite, TAP on
#                              stdout (a copy of fuzz_short.sh; FUZZ_SHORT_TIME
#                              seconds, 20 by default); skips without clang
#   make fuzz [FUZZ_TIME=600]  a longer run (also from the top level); the
#                              corpus grows in build/fuzz/checkpoint, crashes go
#                              to build/fuzz/
#   make corpus                rewrites the seed corpus corpus/checkpoint/ from
#                              checkpoint_rw's synthetic dumps
#
# fuzz_checkpoint.c has no main(): tests/Makefile leaves fuzz_*.c to the
# explicit rules here.

all: bin/fuzz_checkpoint

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

bin/fuzz_checkpoint: fuzz_short.sh bin/fuzz/fuzz_checkpoint | bin
	install -m 755 fuzz_short.sh $@

.PHONY: fuzz corpus
fuzz: bin/fuzz/fuzz_checkpoint
	@test -x bin/fuzz/fuzz_checkpoint || \
		{ echo "make fuzz needs $(FUZZ_CC) with libFuzzer"; exit 1; }
	mkdir -p $(FUZZ_DIR)/checkpoint
	bin/fuzz/fuzz_checkpoint -max_total_time=$(FUZZ_TIME) -timeout=10 \
		-rss_limit_mb=2048 -malloc_limit_mb=512 -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_DIR)/ $(FUZZ_DIR)/checkpoint corpus/checkpoint

corpus: bin/checkpoint_rw
	rm -f corpus/checkpoint/*.flrc
	FLRC_CORPUS_DIR=$(CURDIR)/corpus/checkpoint bin/checkpoint_rw >/dev/null
	ls -l corpus/checkpoint
