// SPDX-License-Identifier: GPL-2.0
/*
 * Asynchronous signals at syscall boundaries, each handled by a handler that
 * prints what it got:
 *   - SIGRTMIN sent to itself with sigqueue (SA_SIGINFO: si_code, si_int);
 *   - SIGUSR1 (no SA_RESTART) from a child while blocked in read: EINTR;
 *   - SIGUSR2 (SA_RESTART) from the child while blocked in read again: the
 *     read restarts and gets the byte the child writes afterwards.
 * The child sends each signal once the parent sleeps in its read (its
 * state in /proc), and writes the byte once the handler has said it ran
 * (a byte on a second pipe): fixed delays were too short on the debug
 * kernel, where SIGUSR2 came before the first read had returned.
 * With the argument "spin" [USEC]: SIGALRM from an interval timer (USEC,
 * 300 by default) interrupts a loop in user code; the handler stops the
 * loop (a signal that comes at setitimer's return, or at the loop's own
 * getppid, instead arms the timer again).  Replay finds the interrupted
 * instruction by stopping at every pass through it since the thread's last
 * system call (docs/replay.md), two signals a pass, so the loop makes a
 * getppid every SPIN_CHUNK passes: however late the timer fires (a busy
 * host, an emulated VM), replay's search is at most that many passes.
 * Without it a late timer made some hundred thousand: 75 s of replay in
 * the VM under TCG, past the tests' limits on the debug kernel.
 * With the argument "hang": says so, then loops in user code forever (its
 * registers the same at every pass), for a dump taken there; ptsnap's
 * marker before it.
 */
#include <stdlib.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ptsnap_marker.h"

static volatile sig_atomic_t hits, stop, looping, early, in_call;
static int ran_fd = -1;		/* on_plain says it ran (the child waits for it) */

static void say(const char *s)
{
	if (write(1, s, strlen(s)) < 0)
		_exit(3);
}

static void on_info(int sig, siginfo_t *si, void *uc)
{
	char line[96];

	(void)uc;
	hits++;
	snprintf(line, sizeof(line), "handler: signal %d code %d value %d\n",
		 sig == SIGRTMIN ? 34 : sig, si->si_code, si->si_value.sival_int);
	say(line);
}

static void on_plain(int sig)
{
	char line[64];

	hits++;
	snprintf(line, sizeof(line), "handler: signal %d\n", sig);
	say(line);
	if (ran_fd >= 0 && write(ran_fd, "h", 1) != 1)
		_exit(3);
}

/* Whether pid sleeps (state S in /proc/PID/stat). */
static int sleeping(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	int yes = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');	/* comm may hold spaces and parens */
		yes = p && p[1] == ' ' && p[2] == 'S';
	}
	fclose(f);
	return yes;
}

/* The child's side: signal the parent once it sleeps in its read. */
static void signal_in_read(pid_t parent, int sig)
{
	while (!sleeping(parent))
		usleep(1000);
	usleep(20000);	/* still asleep then: in the read, not passing by */
	if (!sleeping(parent))
		signal_in_read(parent, sig);
	else
		kill(parent, sig);
}

static void wait_byte(int fd)
{
	char b;

	if (read(fd, &b, 1) != 1)
		_exit(2);
}

static void on_alarm(int sig)
{
	(void)sig;
	if (looping && !in_call)
		stop = 1;
	else
		early = 1;
}

static void handle(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

#define SPIN_CHUNK 4096

static int spin(long usec)
{
	struct itimerval it = { { 0, 0 }, { 0, usec } };
	unsigned long n = 0, i = 0;

	handle(SIGALRM, on_alarm, 0);
	/*
	 * On a busy host the timer can expire before setitimer returns: the
	 * signal then comes at that system call's return, not in user code.
	 * Arm it again until it interrupts the loop.
	 */
	do {
		early = 0;
		looping = 0;
		setitimer(ITIMER_REAL, &it, NULL);
		looping = 1;
		while (!stop && !early) {
			n = n * 6364136223846793005UL + 1442695040888963407UL;
			if (++i % SPIN_CHUNK == 0) {
				in_call = 1;
				getppid();
				in_call = 0;
			}
		}
	} while (!stop);
	printf("spin stopped: %s\n", n ? "ran" : "zero");
	return 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	int p[2], q[2], r;
	char c = 0;
	pid_t child, parent = getpid();
	union sigval v = { .sival_int = 4242 };

	if (argc > 1 && !strcmp(argv[1], "hang")) {
		ptsnap_marker();	/* ptsnap --marker: the libraries are in */
		say("hanging\n");
		while (!stop)
			;
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "spin"))
		return spin(argc > 2 ? atol(argv[2]) : 300);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_info;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGRTMIN, &sa, NULL);
	handle(SIGUSR1, on_plain, 0);
	handle(SIGUSR2, on_plain, SA_RESTART);

	sigqueue(getpid(), SIGRTMIN, v);
	say("after sigqueue\n");

	if (pipe(p) || pipe(q))
		return 2;
	child = fork();
	if (child == 0) {
		signal_in_read(parent, SIGUSR1);
		wait_byte(q[0]);	/* its handler ran */
		wait_byte(q[0]);	/* "read 1" printed */
		signal_in_read(parent, SIGUSR2);
		wait_byte(q[0]);	/* its handler ran: the read restarts */
		if (write(p[1], "x", 1) != 1)
			_exit(2);
		_exit(0);
	}
	ran_fd = q[1];
	r = (int)read(p[0], &c, 1);
	printf("read 1: %d %s\n", r, r < 0 ? strerror(errno) : "");
	fflush(stdout);
	if (write(q[1], "r", 1) != 1)
		return 2;
	r = (int)read(p[0], &c, 1);
	printf("read 2: %d '%c'\n", r, c);
	waitpid(child, NULL, 0);
	printf("handlers ran %d times\n", (int)hits);
	return 0;
}
