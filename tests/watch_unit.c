// SPDX-License-Identifier: GPL-2.0
/*
 * watch_unit: user/flightrec-watch.service can do its job.  systemd does not
 * run in the test VM, so the unit's own settings are applied by hand: its
 * ExecStart arguments, run under setpriv with the unit's
 * CapabilityBoundingSet (and no inheritable or ambient capabilities),
 * NoNewPrivileges and UMask, as root as the unit runs.  A recorded program
 * crashes; the watcher must write its checkpoint, mode 0600 (issue 23 item 6:
 * the bounding set lacked CAP_SYS_ADMIN, which every netlink command and the
 * events group need).
 */
#include <ctype.h>
#include <dirent.h>
#include <sys/stat.h>
#include "kselftest_harness.h"
#include "fr_test.h"
#include "fr_dump.h"

/* The value of "Key=" in the unit (the last one), "" when absent. */
static int unit_value(const char *unit, const char *key, char *val, size_t size)
{
	static char buf[16384];
	size_t klen = strlen(key);
	char *p, *e;

	val[0] = '\0';
	if (fr_read_file(unit, buf, sizeof(buf)) < 0)
		return -ENOENT;
	for (p = buf; p && *p; p = e ? e + 1 : NULL) {
		e = strchr(p, '\n');
		if (!strncmp(p, key, klen) && p[klen] == '=')
			snprintf(val, size, "%.*s", (int)((e ? e : p + strlen(p)) - p - klen - 1),
				 p + klen + 1);
	}
	return 0;
}

/* "CAP_NET_ADMIN CAP_SYS_ADMIN" -> "-all,+net_admin,+sys_admin" (setpriv) */
static void setpriv_caps(const char *caps, char *out, size_t size)
{
	char word[64];
	size_t n = 0;
	int len;

	n += snprintf(out + n, size - n, "-all");
	while (*caps) {
		while (*caps == ' ')
			caps++;
		if (sscanf(caps, "%63s%n", word, &len) != 1)
			break;
		caps += len;
		if (!strncmp(word, "CAP_", 4)) {
			char *w;

			for (w = word; *w; w++)
				*w = tolower((unsigned char)*w);
			n += snprintf(out + n, size - n, ",+%s", word + 4);
		}
	}
}

/*
 * The checkpoints of process pid in dir (DIR/PID-DUMPID.flrc).  The watcher
 * writes every frozen dump on the machine: dumps that earlier tests left
 * unread are there too, and the cap keeps unread dumps.
 */
static int flrc_in(const char *dir, pid_t pid, char *first, size_t size)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	char prefix[32];
	int n = 0;

	if (!d)
		return 0;
	snprintf(prefix, sizeof(prefix), "%d-", (int)pid);
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l > 5 && !strcmp(de->d_name + l - 5, ".flrc") &&
		    !strncmp(de->d_name, prefix, strlen(prefix))) {
			if (!n++)
				snprintf(first, size, "%s/%s", dir, de->d_name);
		}
	}
	closedir(d);
	return n;
}

TEST(unit_capabilities_suffice)
{
	char unit[PATH_MAX], caps[256], bset[512], nnp[16], umask_s[16], exec[256];
	char dir[64], out[128], log[128], input[128], file[PATH_MAX], err[256];
	char *argv[] = { (char *)fr_prog("crash_null"), input, NULL };
	struct fr_client *c;
	struct stat st;
	int gate = -1, status, i, fd;
	pid_t watch, pid;
	FILE *f;

	FR_REQUIRE_MODULE();
	FR_REQUIRE_ROOT();
	snprintf(unit, sizeof(unit), "%s/user/flightrec-watch.service",
		 getenv("FR_TOP") ? getenv("FR_TOP") : "..");
	ASSERT_EQ(0, unit_value(unit, "CapabilityBoundingSet", caps, sizeof(caps)));
	ASSERT_NE(0, caps[0]);
	unit_value(unit, "NoNewPrivileges", nnp, sizeof(nnp));
	unit_value(unit, "UMask", umask_s, sizeof(umask_s));
	unit_value(unit, "ExecStart", exec, sizeof(exec));
	/* the unit runs "flightrec watch -o DIR": here, the built tool and a temp DIR */
	ASSERT_EQ(0, strncmp(exec, "/usr/bin/flightrec watch -o ", 28)) TH_LOG("%s", exec);
	setpriv_caps(caps, bset, sizeof(bset));
	TH_LOG("unit: CapabilityBoundingSet=%s -> setpriv --bounding-set %s", caps, bset);

	ASSERT_EQ(0, fr_mkdtemp(dir, sizeof(dir)));
	snprintf(out, sizeof(out), "%s/out", dir);
	ASSERT_EQ(0, mkdir(out, 0700));
	snprintf(log, sizeof(log), "%s/watch.log", dir);
	watch = fork();
	ASSERT_LE(0, watch);
	if (!watch) {
		fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (fd < 0 || dup2(fd, 1) != 1 || dup2(fd, 2) != 2)
			_exit(126);
		umask(umask_s[0] ? strtoul(umask_s, NULL, 8) : 022);
		if (!strcmp(nnp, "yes"))
			execlp("setpriv", "setpriv", "--bounding-set", bset,
			       "--inh-caps", "-all", "--ambient-caps", "-all",
			       "--no-new-privs", "--", fr_tool("flightrec"), "watch",
			       "-o", out, (char *)NULL);
		else
			execlp("setpriv", "setpriv", "--bounding-set", bset,
			       "--inh-caps", "-all", "--ambient-caps", "-all",
			       "--", fr_tool("flightrec"), "watch", "-o", out,
			       (char *)NULL);
		_exit(127);
	}
	usleep(500000);

	snprintf(input, sizeof(input), "%s/input", dir);
	f = fopen(input, "w");
	ASSERT_NE(NULL, f);
	fputs("x\n", f);
	fclose(f);
	ASSERT_EQ(0, fr_client_open(&c, err, sizeof(err))) TH_LOG("%s", err);
	pid = fr_spawn_gated(argv, &gate);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, fr_client_register(c, pid, 100, 4, -1, err, sizeof(err)))
		TH_LOG("%s", err);
	fr_client_close(c);
	fr_gate_open(gate);
	ASSERT_EQ(0, fr_wait_timeout(pid, &status, 20000));
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	/* 10 s (scaled): the watcher may be writing dumps earlier tests left */
	for (i = 0; i < 100 * (int)fr_timeout_scale() && !flrc_in(out, pid, file, sizeof(file));
	     i++)
		usleep(100000);
	/* not SIGKILL: between crash_null's file and its release (make check, s56) */
	fr_term_wait(watch, 10000);
	if (!flrc_in(out, pid, file, sizeof(file))) {
		char buf[4096];

		fr_read_file(log, buf, sizeof(buf));
		TH_LOG("no checkpoint from the unit's watch; its log:\n%s", buf);
	}
	ASSERT_EQ(1, flrc_in(out, pid, file, sizeof(file)));
	ASSERT_EQ(0, stat(file, &st));
	EXPECT_EQ(0600, st.st_mode & 07777);
	fr_sh("rm -rf '%s'", dir);
}

TEST_HARNESS_MAIN
