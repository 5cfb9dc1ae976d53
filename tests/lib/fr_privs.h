/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fr_privs.h - child processes and privileges for the tests of the control
 * interfaces (tests/control_file.c, tests/netlink.c): a sleeper to
 * register, a pid that names no process, a function run in a child, and
 * dropping to nobody or dropping capabilities there.
 */
#ifndef FR_PRIVS_H
#define FR_PRIVS_H

#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/capability.h>

/* A child that sleeps in short steps (so task_work queued on it runs). */
static inline pid_t spawn_sleeper(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			usleep(2000);
	}
	return pid;
}

/* A pid that belongs to no process (a reaped child's, not yet reused). */
static inline pid_t free_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return kill(pid, 0) && errno == ESRCH ? pid : -1;
}

/* Runs fn in a child process; returns its exit status (or -1). */
static inline int in_child(int (*fn)(void *), void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(fn(arg));
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static inline int drop_to_nobody(void)
{
	if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
	    setresuid(65534, 65534, 65534))
		return -1;
	return 0;
}

/* Drops capabilities of the calling process (effective and permitted). */
static inline int drop_caps(unsigned long long caps)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -1;
	data[0].effective &= ~(unsigned int)caps;
	data[0].permitted &= ~(unsigned int)caps;
	data[1].effective &= ~(unsigned int)(caps >> 32);
	data[1].permitted &= ~(unsigned int)(caps >> 32);
	return syscall(SYS_capset, &hdr, data) ? -1 : 0;
}

#define CAPBIT(c) (1ULL << (c))

#endif /* FR_PRIVS_H */
