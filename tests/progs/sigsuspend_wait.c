// SPDX-License-Identifier: GPL-2.0
/*
 * sigsuspend_wait: signals that arrive while a thread waits with a
 * temporary mask (issue 25, class 7).  SIGALRM and SIGUSR1 are blocked;
 * rt_sigsuspend unblocks SIGALRM while it waits, ppoll unblocks SIGUSR1
 * (sent by a child), pselect6 unblocks SIGALRM again: each signal is
 * delivered to its handler during the call, which fails with EINTR, and the
 * mask the program had comes back after the handler.  Prints what it saw.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/select.h>
#include <sys/time.h>
#include <sys/wait.h>

static volatile sig_atomic_t alrm, usr1;
static sigset_t in_handler;

static void on_alrm(int sig)
{
	(void)sig;
	alrm++;
	sigprocmask(SIG_BLOCK, NULL, &in_handler);
}

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

static void arm(void)
{
	struct itimerval it = { .it_value = { .tv_usec = 50000 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

static void show(const char *what, int r)
{
	sigset_t now;

	sigprocmask(SIG_BLOCK, NULL, &now);
	printf("%s: %d %s, alrm %d usr1 %d, ALRM blocked now %d in handler %d\n", what, r,
	       r < 0 ? strerror(errno) : "", (int)alrm, (int)usr1,
	       sigismember(&now, SIGALRM), sigismember(&in_handler, SIGALRM));
	fflush(stdout);
}

int main(void)
{
	struct sigaction sa;
	sigset_t block, wait_alrm, wait_usr1;
	struct pollfd pfd;
	int fds[2], r, status;
	pid_t child;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alrm;
	sigaction(SIGALRM, &sa, NULL);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, NULL);
	wait_alrm = block;
	sigdelset(&wait_alrm, SIGALRM);
	wait_usr1 = block;
	sigdelset(&wait_usr1, SIGUSR1);

	arm();
	r = sigsuspend(&wait_alrm);
	show("sigsuspend", r);

	if (pipe(fds))
		return 1;
	child = fork();
	if (child == 0) {
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	pfd.fd = fds[0];
	pfd.events = POLLIN;
	r = ppoll(&pfd, 1, NULL, &wait_usr1);
	show("ppoll", r);
	waitpid(child, &status, 0);

	arm();
	r = pselect(0, NULL, NULL, NULL, NULL, &wait_alrm);
	show("pselect", r);
	return alrm == 2 && usr1 == 1 ? 0 : 1;
}
