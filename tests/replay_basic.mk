# SPDX-License-Identifier: GPL-2.0
# replay_basic: needs the ptrace checkpoint fixture, flightrec and the loader.
all: bin/tools/ptsnap

bin/replay_basic: bin/tools/ptsnap

bin/tools/ptsnap: tools/ptsnap.c $(TOP)/uapi/flightrec_inhash.h $(wildcard $(LIBFR)) | bin
	mkdir -p bin/tools
	$(CC) $(BASE_CFLAGS) $(SANFLAGS) $(TEST_CPPFLAGS) -o $@ $< $(TEST_LIBS)
