/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flightrec subcommands: one row each, CMD(name, usage, summary).
 * Each is implemented as int cmd_<name>(int argc, char **argv) in cmd/<name>.c
 * (or a file grouping related commands) and returns the process exit status.
 * The usage string lists every option the command takes (-o is --output's
 * short form): `flightrec CMD --help`, `flightrec --help` and the bash
 * completion print it, and tests/cli_options.sh checks it against the code.
 */
#define FLIGHTREC_COMMANDS(CMD) \
	CMD(register, "PID [--interval-ms N] [--keep N] [--at-exit] [--serial]", \
	    "start recording a process (and the children it forks)") \
	CMD(unregister, "PID", "stop recording a process and drop its ring") \
	CMD(list, "", "the recorded processes, their settings and counters") \
	CMD(version, "", "the tool's, the module's and their ABI versions") \
	CMD(replay, "FILE [--from N] [--output DIR] [--force] [--show-output] [--ignore-cpu] " \
	    "[--patch-rdtsc] [--patch-cpuid] [--quiet] [--verbose] [--save-image PATH] [--core PATH] [--gdbserver [HOST:]PORT]", \
	    "re-execute a checkpoint's interval; the recorded end happens again") \
	CMD(gdb, "FILE [--symbols FILE|DIR]... [--from N] [--output DIR] [--force] " \
	    "[--batch CMDFILE] [--ignore-cpu] [--patch-rdtsc] [--patch-cpuid] [--quiet] [-- GDB-ARGS]", \
	    "the replay under gdb, stopped at the interval's first instruction") \
	CMD(dump, "PID --output DIR [--only]", \
	    "write checkpoints of a process and its recorded descendants now") \
	CMD(watch, "--output DIR", \
	    "daemon: write a checkpoint whenever a recorded process crashes") \
	CMD(record, "--output DIR [--at-exit] [--serial] [--interval-ms N] [--keep N] -- CMD [ARGS]", \
	    "run CMD recorded; write a checkpoint if it crashes; exit with its status") \
	CMD(info, "FILE [--json]", \
	    "what a checkpoint holds: source, process, intervals, pages, syscalls, end") \
	CMD(log, "FILE|PID [--merged|--by-thread] [--tid TID] [--full] [--json] [-e trace=SET] [-y|--decode-fds] [-r|--relative-timestamps]", \
	    "the recorded syscalls, strace-style (PID: a recorded process's live ring)") \
	CMD(extract, "FILE ADDR LEN [--interval N] [--raw]", \
	    "the process's memory as of an interval start: a hex dump or the bytes")

#include <stdio.h>
/* "usage: flightrec CMD USAGE\n" from the table above */
void fr_usage(FILE *f, const char *cmd);
