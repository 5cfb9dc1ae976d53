/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The flightrec subcommands: one row each, CMD(name, usage, summary).
 * Each is implemented as int cmd_<name>(int argc, char **argv) in cmd/<name>.c
 * (or a file grouping related commands) and returns the process exit status.
 */
#define FLIGHTREC_COMMANDS(CMD)
