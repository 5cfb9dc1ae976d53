/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flightrec subcommands: one row each, CMD(name, usage, summary).
 * Each is implemented as int cmd_<name>(int argc, char **argv) in cmd/<name>.c
 * (or a file grouping related commands) and returns the process exit status.
 */
#define FLIGHTREC_COMMANDS(CMD) \
	CMD(register, "PID [--interval-ms N] [--keep N] [--at-exit]", \
	    "start recording a process (and the children it forks)") \
	CMD(unregister, "PID", "stop recording a process and drop its ring") \
	CMD(list, "", "the recorded processes, their settings and counters") \
	CMD(version, "", "the tool's, the module's and their ABI versions") \
	CMD(replay, "FILE [--from N] [--out DIR] [--show-output] [--ignore-cpu] [--quiet]", \
	    "re-execute a checkpoint's interval; the recorded end happens again") \
	CMD(gdb, "FILE [--symbols FILE|DIR]... [--from N] [--batch CMDS] [-- GDB-ARGS]", \
	    "the replay under gdb, stopped at the interval's first instruction") \
	CMD(dump, "PID -o DIR [--only]", \
	    "write checkpoints of a process and its recorded descendants now") \
	CMD(watch, "-o DIR", \
	    "daemon: write a checkpoint whenever a recorded process crashes") \
	CMD(record, "-o DIR [--at-exit] [--interval-ms N] [--keep N] -- CMD [ARGS]", \
	    "run CMD recorded; write a checkpoint if it crashes; exit with its status") \
	CMD(info, "FILE [--json]", \
	    "what a checkpoint holds: source, process, intervals, pages, syscalls, end") \
	CMD(log, "FILE|PID [--merged] [--tid TID] [--full]", \
	    "the recorded syscalls, strace-style (PID: a recorded process's live ring)")
