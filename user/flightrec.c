// SPDX-License-Identifier: GPL-2.0
/* flightrec: the command-line tool.  Subcommands are listed in commands.h. */
#include <stdio.h>
#include <string.h>
#include "commands.h"
#include "libflightrec.h"

#define CMD(name, usage, summary) int cmd_##name(int argc, char **argv);
FLIGHTREC_COMMANDS(CMD)
#undef CMD

struct command {
	const char *name, *usage, *summary;
	int (*fn)(int argc, char **argv);
};

static const struct command commands[] = {
#define CMD(name, usage, summary) { #name, usage, summary, cmd_##name },
	FLIGHTREC_COMMANDS(CMD)
#undef CMD
};

void fr_usage(FILE *f, const char *cmd)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(cmd, commands[i].name))
			fprintf(f, "usage: flightrec %s %s\n", cmd, commands[i].usage);
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: flightrec COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n      %s\n", commands[i].name,
			commands[i].usage, commands[i].summary);
	fprintf(f, "\n%s", FR_EXIT_CODES_HELP);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return FR_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "flightrec: unknown command '%s' (see flightrec --help)\n",
		argv[1]);
	return FR_EXIT_USAGE;
}
