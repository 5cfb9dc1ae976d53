// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec register | unregister | list | version: the module's control
 * plane over generic netlink (lib/client.c).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flightrec.h"		/* uapi */
#include "commands.h"
#include "libflightrec.h"

static int usage_error(const char *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "flightrec %s: ", cmd);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	fr_usage(stderr, cmd);
	return FR_EXIT_USAGE;
}

/* exit status for a failed fr_client_open() */
static int open_status(int rc)
{
	if (rc == FR_ENOMODULE)
		return FR_EXIT_NOMODULE;
	if (rc == FR_EABI)
		return FR_EXIT_ABI;
	return FR_EXIT_FAIL;
}

static int connect_or_say(struct fr_client **c)
{
	char err[256];
	int rc;

	rc = fr_client_open(c, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "flightrec: %s\n", err);
		return open_status(rc);
	}
	return 0;
}

static int fail(const char *what, uint32_t pid, int rc, const char *msg)
{
	fprintf(stderr, "flightrec: %s %u: %s", what, pid, msg);
	if (rc == -EPERM && !strcmp(msg, strerror(EPERM)))
		fprintf(stderr, " (flightrec needs root: CAP_SYS_ADMIN)");
	fputc('\n', stderr);
	return FR_EXIT_FAIL;
}


int cmd_register(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "interval-ms", required_argument, NULL, 'i' },
		{ "keep", required_argument, NULL, 'k' },
		{ "at-exit", no_argument, NULL, 'e' },
		{ "serial", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	uint32_t pid, interval_ms = 0, keep = 0;
	int at_exit = -1, serial = -1, opt, rc;
	struct fr_reg_opts ro;
	struct fr_client *c;
	char err[256];

	optind = 0;	/* a full reset of GNU getopt; options may follow the PID */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (opt) {
		case 'i':
			if (!fr_parse_u32(optarg, FLIGHTREC_INTERVAL_MS_MIN,
				       FLIGHTREC_INTERVAL_MS_MAX, &interval_ms))
				return usage_error("register",
						   "--interval-ms takes a number from 10 to 60000, not '%s'",
						   optarg);
			break;
		case 'k':
			if (!fr_parse_u32(optarg, FLIGHTREC_KEEP_MIN,
				       FLIGHTREC_KEEP_MAX, &keep))
				return usage_error("register",
						   "--keep takes a number from 1 to 64, not '%s'",
						   optarg);
			break;
		case 'e':
			at_exit = 1;
			break;
		case 's':
			serial = 1;
			break;
		case 'h':
			fr_usage(stdout, "register");
			return FR_EXIT_OK;
		default:
			return usage_error("register",
					   "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind + 1 != argc)
		return usage_error("register",
				   "expected one PID%s", "");
	if (!fr_parse_u32(argv[optind], 1, INT_MAX, &pid))
		return usage_error("register",
				   "'%s' is not a process ID", argv[optind]);

	rc = connect_or_say(&c);
	if (rc)
		return rc;
	ro = (struct fr_reg_opts){ interval_ms, keep, at_exit, serial, 0 };
	rc = fr_client_register_opts(c, pid, &ro, err, sizeof(err));
	fr_client_close(c);
	if (rc)
		return fail("register", pid, rc, err);
	return FR_EXIT_OK;
}

int cmd_unregister(int argc, char **argv)
{
	struct fr_client *c;
	char err[256];
	uint32_t pid;
	int rc;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: flightrec unregister PID\n");
		return FR_EXIT_OK;
	}
	if (argc != 2)
		return usage_error("unregister", "expected one PID%s", "");
	if (!fr_parse_u32(argv[1], 1, INT_MAX, &pid))
		return usage_error("unregister",
				   "'%s' is not a process ID", argv[1]);
	rc = connect_or_say(&c);
	if (rc)
		return rc;
	rc = fr_client_unregister(c, pid, err, sizeof(err));
	fr_client_close(c);
	if (rc)
		return fail("unregister", pid, rc, err);
	return FR_EXIT_OK;
}

static void print_header(void)
{
	printf("%7s %-16s %7s %11s %4s %7s %9s %10s %6s %7s %12s %5s\n",
	       "PID", "COMM", "THREADS", "INTERVAL_MS", "KEEP", "AT_EXIT",
	       "INTERVALS", "SYSCALLS", "LOST", "DROPPED", "BYTES", "DUMPS");
}

static int print_proc(const struct fr_proc_info *p, void *arg)
{
	int *n = arg;
	char comm[80];	/* the process chose it: escaped */

	if (!(*n)++)
		print_header();
	fr_escape_n(p->comm, strnlen(p->comm, sizeof(p->comm)), comm, sizeof(comm));
	printf("%7u %-16s %7u %11u %4u %7s %9u %10llu %6llu %7llu %12llu %5u%s%s%s\n",
	       p->pid, comm, p->nr_threads, p->interval_ms, p->keep,
	       p->at_exit ? "yes" : "no", p->nr_intervals,
	       (unsigned long long)p->nr_syscalls,
	       (unsigned long long)(p->lost + p->lost_pages),
	       (unsigned long long)p->dropped, (unsigned long long)p->bytes,
	       p->nr_dumps, p->frozen ? " frozen" : "",
	       p->stop_reason ? " stopped: " : "",
	       p->stop_reason ? fr_stop_reason_name(p->stop_reason) : "");
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct fr_client *c;
	int rc, n = 0;

	(void)argv;
	if (argc != 1)
		return usage_error("list", "takes no arguments%s", "");
	rc = connect_or_say(&c);
	if (rc)
		return rc;
	rc = fr_client_list(c, print_proc, &n);
	if (rc) {
		fprintf(stderr, "flightrec: list: %s%s\n", fr_client_error(c),
			rc == -EPERM ? " (flightrec needs root: CAP_SYS_ADMIN)" : "");
		fr_client_close(c);
		return FR_EXIT_FAIL;
	}
	if (!n)
		print_header();
	fr_client_close(c);
	return FR_EXIT_OK;
}

int cmd_version(int argc, char **argv)
{
	struct fr_client *c;
	const char *mod;
	char err[256];
	uint32_t abi;
	int rc;

	(void)argv;
	if (argc != 1)
		return usage_error("version", "takes no arguments%s", "");
	printf("flightrec %s (ABI %d)\n", FR_TOOL_VERSION, FLIGHTREC_ABI_VERSION);
	rc = fr_client_open(&c, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "flightrec: %s\n", err);
		return open_status(rc);
	}
	mod = fr_client_version(c, &abi);
	printf("module %s (ABI %u)\n", mod[0] ? mod : "?", abi);
	fr_client_close(c);
	return FR_EXIT_OK;
}
