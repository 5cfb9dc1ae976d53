// SPDX-License-Identifier: GPL-2.0
/*
 * record_signals: the records that are not syscalls (issue 6, "beyond
 * syscalls"): signals delivered to handlers (FLIGHTREC_NR_SIGNAL) at syscall
 * boundaries and in user code, and rdtsc/rdtscp values (FLIGHTREC_NR_RDTSC),
 * compared with what the programs saw; a process unregistered while it
 * executes rdtsc, and a real #GP that must still freeze the ring.
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "fr_dump.h"
#include <sys/syscall.h>
#include <sys/user.h>
#include <fcntl.h>

#define ERESTARTSYS_	512	/* the kernel's, never seen by programs */

FIXTURE(sig) {
	struct fr_client *c;
	char err[256];
	char dir[256];
};

FIXTURE_SETUP(sig)
{
	FR_REQUIRE_MODULE();
	ASSERT_EQ(0, frd_open(&self->c, self->err, sizeof(self->err))) TH_LOG("%s", self->err);
	ASSERT_EQ(0, fr_mkdtemp(self->dir, sizeof(self->dir)));
}

FIXTURE_TEARDOWN(sig)
{
	if (self->c)
		fr_client_close(self->c);
}

static int run_capture(struct fr_client *c, const char *dir, char *const argv[],
		       struct frd *d, pid_t *pid, int *status, char *out, size_t size)
{
	struct fr_reg_opts o = { 250, 8, 1, -1, 1 };

	return frd_run_capture(c, dir, argv, &o, d, pid, status, out, size);
}

/* The next record of the same thread after index i, or -1. */
static long next_of_tid(const struct frd *d, size_t i)
{
	size_t j;

	for (j = i + 1; j < d->nsc; j++)
		if (d->sc[j].tid == d->sc[i].tid)
			return (long)j;
	return -1;
}

static long find_nr(const struct frd *d, size_t from, uint32_t nr, uint32_t tid)
{
	size_t i;

	for (i = from; i < d->nsc; i++)
		if (d->sc[i].nr == nr && d->sc[i].tid == tid)
			return (long)i;
	return -1;
}

TEST_F_TIMEOUT(sig, rdtsc_values_recorded, 120)
{
	char *argv[] = { (char *)fr_prog("rdtsc_values"), NULL };
	unsigned long long v[8];
	char out[4096], *p;
	size_t i, n = 0, first;
	unsigned int aux;
	struct frd d;
	int status;
	pid_t pid;

	ASSERT_EQ(0, run_capture(self->c, self->dir, argv, &d, &pid, &status, out,
				 sizeof(out)));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	for (i = 0, p = out; i < 8; i++) {
		int k;

		p = strstr(p, "tsc ");
		ASSERT_NE(NULL, p);
		ASSERT_EQ(2, sscanf(p, "tsc %d: %llu", &k, &v[i]));
		p++;
	}
	p = strstr(out, "aux ");
	ASSERT_NE(NULL, p);
	ASSERT_EQ(1, sscanf(p, "aux %u", &aux));
	for (i = 0; i < d.nsc; i++)
		if (d.sc[i].nr == FLIGHTREC_NR_RDTSC)
			n++;
	/* ld.so reads the TSC at start too: the program's are the last 8 */
	ASSERT_GE(n, 8);
	for (i = 0, first = n - 8, n = 0; i < d.nsc; i++) {
		const struct frd_sc *s = &d.sc[i];
		size_t k;

		if (s->nr != FLIGHTREC_NR_RDTSC || n++ < first)
			continue;
		k = n - first - 1;
		EXPECT_EQ((uint32_t)pid, s->tid);
		EXPECT_EQ(v[k], (unsigned long long)s->ret) TH_LOG("read %zu", k);
		EXPECT_EQ(k < 4 ? 2 : 3, s->args[1]) TH_LOG("read %zu", k);
		if (k >= 4)
			EXPECT_EQ(aux, s->args[0]);
		EXPECT_EQ(0, s->nouts);
	}
	frd_free(&d);
}

TEST_F_TIMEOUT(sig, signals_at_syscall_boundaries, 120)
{
	char *argv[] = { (char *)fr_prog("async_signals"), NULL };
	const struct frd_out *o;
	const struct frd_sc *s;
	char out[4096];
	long i, j;
	struct frd d;
	int status, v;
	pid_t pid;

	ASSERT_EQ(0, run_capture(self->c, self->dir, argv, &d, &pid, &status, out,
				 sizeof(out)));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) TH_LOG("%s", out);
	ASSERT_NE(NULL, strstr(out, "read 1: -1 Interrupted system call"));

	/* sigqueue to itself: delivered on the way out of rt_sigqueueinfo */
	i = find_nr(&d, 0, SYS_rt_sigqueueinfo, pid);
	ASSERT_GE(i, 0);
	j = next_of_tid(&d, i);
	ASSERT_GE(j, 0);
	s = &d.sc[j];
	ASSERT_EQ(FLIGHTREC_NR_SIGNAL, s->nr);
	EXPECT_EQ(SIGRTMIN, (int)s->args[0]);
	EXPECT_EQ(SI_QUEUE, (int)s->args[1]);
	EXPECT_EQ(SYS_rt_sigqueueinfo, s->args[2]);
	EXPECT_EQ(0, s->args[3]);
	EXPECT_EQ(0, s->args[5]);
	EXPECT_EQ(d.sc[i].seq + 1, s->seq);
	o = frd_out(s, 0, 0);
	ASSERT_NE(NULL, o);
	ASSERT_EQ(128, o->len);
	memcpy(&v, o->data, 4);
	EXPECT_EQ(SIGRTMIN, v);
	memcpy(&v, o->data + 8, 4);
	EXPECT_EQ(SI_QUEUE, v);
	memcpy(&v, o->data + 24, 4);	/* si_value */
	EXPECT_EQ(4242, v);
	EXPECT_EQ(NULL, frd_out(s, 1, 0));

	/* SIGUSR1 without SA_RESTART: read fails with EINTR, then the handler */
	i = find_nr(&d, (size_t)j, SYS_read, pid);
	ASSERT_GE(i, 0);
	EXPECT_EQ(-EINTR, d.sc[i].ret);
	j = next_of_tid(&d, i);
	ASSERT_GE(j, 0);
	s = &d.sc[j];
	ASSERT_EQ(FLIGHTREC_NR_SIGNAL, s->nr);
	EXPECT_EQ(SIGUSR1, (int)s->args[0]);
	EXPECT_EQ(SI_USER, (int)s->args[1]);
	EXPECT_EQ(SYS_read, s->args[2]);
	EXPECT_EQ(-ERESTARTSYS_, (long)s->args[3]);
	EXPECT_EQ(FLIGHTREC_SIG_EINTR, s->args[5]);

	/* the handler's write, then the second read: SIGUSR2 with SA_RESTART */
	for (j = j + 1; j < (long)d.nsc; j++)
		if (d.sc[j].tid == (uint32_t)pid && d.sc[j].nr == FLIGHTREC_NR_SIGNAL)
			break;
	ASSERT_LT(j, (long)d.nsc);
	s = &d.sc[j];
	EXPECT_EQ(SIGUSR2, (int)s->args[0]);
	EXPECT_EQ(SYS_read, s->args[2]);
	EXPECT_EQ(-ERESTARTSYS_, (long)s->args[3]);
	EXPECT_EQ(FLIGHTREC_SIG_RESTART, s->args[5]);
	/* the handler's write, then the read re-executed: one call, one byte */
	i = find_nr(&d, (size_t)j, SYS_read, pid);
	ASSERT_GE(i, 0);
	EXPECT_EQ(1, d.sc[i].ret);
	o = frd_out(&d.sc[i], 1, 0);
	ASSERT_NE(NULL, o);
	EXPECT_EQ('x', o->data[0]);
	for (i = 0; i < (long)d.niv; i++)
		EXPECT_EQ(0, d.iv[i].flags & FLIGHTREC_IF_ASYNC_SIGNAL);
	frd_free(&d);
}

TEST_F_TIMEOUT(sig, signal_in_user_code, 120)
{
	char *argv[] = { (char *)fr_prog("async_signals"), "spin", NULL };
	struct user_regs_struct ur;
	const struct frd_out *o;
	const struct frd_sc *s;
	char out[4096];
	size_t i;
	struct frd d;
	int status;
	pid_t pid;

	ASSERT_EQ(0, run_capture(self->c, self->dir, argv, &d, &pid, &status, out,
				 sizeof(out)));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) TH_LOG("%s", out);
	/* a SIGALRM at setitimer's return comes first when the host is busy */
	for (i = 0; i < d.nsc; i++)
		if (d.sc[i].nr == FLIGHTREC_NR_SIGNAL &&
		    d.sc[i].args[5] == FLIGHTREC_SIG_IN_USER)
			break;
	ASSERT_LT(i, d.nsc);
	s = &d.sc[i];
	EXPECT_EQ(SIGALRM, (int)s->args[0]);
	EXPECT_EQ(-1, (long)s->args[2]);
	EXPECT_EQ(FLIGHTREC_SIG_IN_USER, s->args[5]);
	o = frd_out(s, 1, 0);
	ASSERT_NE(NULL, o);
	ASSERT_EQ(sizeof(ur), o->len);
	memcpy(&ur, o->data, sizeof(ur));
	EXPECT_EQ(s->args[4], ur.rip);
	EXPECT_EQ(-1, (long)ur.orig_rax);
	EXPECT_EQ(0x33, ur.cs);
	for (i = 0; i < d.niv; i++)
		if (d.iv[i].index == s->interval)
			break;
	ASSERT_LT(i, d.niv);
	EXPECT_NE(0, d.iv[i].flags & FLIGHTREC_IF_ASYNC_SIGNAL);
	frd_free(&d);
}

/* Unregistered while it executes rdtsc: it goes on, unharmed. */
TEST_F_TIMEOUT(sig, rdtsc_after_unregister, 120)
{
	char *argv[] = { (char *)fr_prog("rdtsc_values"), "loop", "1500", NULL };
	int gate = -1, status;
	pid_t pid;

	pid = fr_spawn_gated(argv, &gate);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, fr_client_register(self->c, pid, 50, 4, 0, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	fr_gate_open(gate);
	usleep(500000);
	ASSERT_EQ(0, fr_client_unregister(self->c, pid, self->err, sizeof(self->err)))
		TH_LOG("%s", self->err);
	ASSERT_EQ(0, fr_wait_timeout(pid, &status, 60000));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("killed by signal %d", WTERMSIG(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * Children forked around an unregistration: a child the fork probe does not
 * track (its parent's process is dying, or no longer in the registry while
 * its rdtsc is still trapped) inherited TIF_NOTSC, and nothing cleared it:
 * its first rdtsc killed it with SIGSEGV (issue 24.2).
 */
TEST_F_TIMEOUT(sig, untracked_child_keeps_rdtsc, 120)
{
	/* forks until told to stop: the 25 rounds take what they take */
	char *argv[] = { (char *)fr_prog("fork_rdtsc"), NULL };
	int gate = -1, status, i;
	pid_t pid;

	pid = fr_spawn_gated(argv, &gate);
	ASSERT_GT(pid, 0);
	fr_gate_open(gate);
	for (i = 0; i < 25; i++) {
		ASSERT_EQ(0, fr_client_register(self->c, pid, 20, 2, 0, self->err,
						sizeof(self->err))) TH_LOG("%s", self->err);
		usleep(80000);
		ASSERT_EQ(0, fr_client_unregister(self->c, pid, self->err,
						  sizeof(self->err))) TH_LOG("%s", self->err);
		usleep(20000);
	}
	ASSERT_EQ(0, kill(pid, SIGUSR1));
	ASSERT_EQ(0, fr_wait_timeout(pid, &status, 60000));
	ASSERT_TRUE(WIFEXITED(status)) TH_LOG("killed by signal %d", WTERMSIG(status));
	EXPECT_EQ(0, WEXITSTATUS(status)) TH_LOG("a child died at its rdtsc");
}

/* hlt raises #GP like a trapped rdtsc: a real fault, the ring freezes. */
TEST_F_TIMEOUT(sig, gp_fault_freezes, 120)
{
	char *argv[] = { (char *)fr_prog("crash_gp"), NULL };
	struct frd d;
	size_t i;
	int status;
	pid_t pid;

	ASSERT_EQ(0, frd_run_recorded(self->c, argv, 250, 8, &d, &pid, &status));
	ASSERT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGSEGV, WTERMSIG(status));
	ASSERT_TRUE(d.have_end);
	EXPECT_EQ(FLIGHTREC_END_FAULT, d.end_kind);
	EXPECT_EQ(SIGSEGV, (int)d.end_signo);
	EXPECT_EQ(SI_KERNEL, d.end_code);
	/* the instruction at the recorded rip, in the recorded code page */
	for (i = 0; i < d.npg; i++)
		if (d.pg[i].addr == (d.end_regs.rip & ~4095ULL) && d.pg[i].data)
			break;
	ASSERT_LT(i, d.npg) TH_LOG("no code page for rip %llx", d.end_regs.rip);
	EXPECT_EQ(0xf4, d.pg[i].data[d.end_regs.rip & 4095]) TH_LOG("hlt");
	frd_free(&d);
}

TEST_HARNESS_MAIN
