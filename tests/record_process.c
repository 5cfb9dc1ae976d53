// SPDX-License-Identifier: GPL-2.0
/*
 * record_process: threads, processes that are not registered, the fault
 * trigger's registers, the ring_mb cap, and a process killed while its dump
 * is read (issues 3 and 4).
 */
#include "kselftest_harness.h"
#include "fr_test.h"
#include "fr_dump.h"
#include "assemble.h"
#include "../progs/mem_big.h"
#include <pthread.h>
#include <sched.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <sys/mount.h>

FIXTURE(proc) {
	struct fr_client *c;
	char err[256];
	/* ring_mb as it was, put back by the teardown even after a failure */
	unsigned long long ring_mb;
	/* a child that does not end by itself, killed by the teardown */
	pid_t child;
};

FIXTURE_SETUP(proc)
{
	FR_REQUIRE_MODULE();
	ASSERT_EQ(0, frd_open(&self->c, self->err, sizeof(self->err))) TH_LOG("%s", self->err);
}

FIXTURE_TEARDOWN(proc)
{
	char val[32];

	fr_kill_wait(self->child);
	if (self->ring_mb) {
		snprintf(val, sizeof(val), "%llu", self->ring_mb);
		fr_write_file(FR_SYSFS_PARAMS "/ring_mb", val, strlen(val));
	}
	if (self->c)
		fr_client_close(self->c);
}

TEST_F_TIMEOUT(proc, threads_complete, 120)
{
	char *argv[] = { (char *)fr_prog("threads_sc"), "4", "200", NULL };
	unsigned int count[4] = { 0 }, tids[4] = { 0 };
	struct frd d;
	int status;
	pid_t pid;
	size_t i;

	ASSERT_EQ(0, frd_run_recorded(self->c, argv, 60000, 8, &d, &pid, &status));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	for (i = 0; i < d.nsc; i++) {
		const struct frd_sc *s = &d.sc[i];
		unsigned int t;

		if (i)
			ASSERT_LT(d.sc[i - 1].seq, s->seq) TH_LOG("seq not unique");
		if (s->nr != SYS_getpriority || s->args[1] < 0x7e5900 ||
		    s->args[1] >= 0x7e5904)
			continue;
		t = s->args[1] - 0x7e5900;
		ASSERT_EQ(0, s->ret < 0 ? 0 : 0);
		if (!tids[t])
			tids[t] = s->tid;
		ASSERT_EQ(tids[t], s->tid) TH_LOG("thread %u's markers from two tids", t);
		count[t]++;
	}
	for (i = 0; i < 4; i++)
		EXPECT_EQ(200, count[i]) TH_LOG("thread %zu: %u markers", i, count[i]);
	/* four different threads, the main one the process itself */
	EXPECT_EQ((unsigned int)pid, tids[0]);
	for (i = 1; i < 4; i++)
		EXPECT_NE(tids[0], tids[i]);
	frd_free(&d);
}

static void *busy_unregistered(void *arg)
{
	volatile int *stop = arg;

	while (!*stop)
		syscall(SYS_getpriority, PRIO_PROCESS, 0x7e5a00);
	return NULL;
}

/*
 * Serial mode: threads that race on a counter between syscalls lose no
 * update, and every record is numbered at entry, in sequence order.  A
 * thread that held the token FR_TOKEN_YIELD_MS in its user code while
 * another waited (its vCPU descheduled: seen on the debug kernel under
 * load) is made to yield there; that interval, and only that one, has the
 * flag and a FLIGHTREC_NR_PREEMPT record, and the total stays exact.
 */
TEST_F_TIMEOUT(proc, serial_mode_one_thread_at_a_time, 180)
{
	char *argv[] = { (char *)fr_prog("threads_race"), "4", "300", NULL };
	struct fr_reg_opts o = { 1000, 16, 1, 1, 1 };
	char dir[256], out[256];
	unsigned int ppids = 0;
	struct frd d;
	int status;
	size_t i;
	pid_t pid;

	ASSERT_EQ(0, fr_mkdtemp(dir, sizeof(dir)));
	ASSERT_EQ(0, frd_run_capture(self->c, dir, argv, &o, &d, &pid, &status, out,
				     sizeof(out)));
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	EXPECT_STREQ("total 1200 of 1200\n", out);
	for (i = 0; i < d.nsc; i++) {
		if (i && d.sc[i].interval == d.sc[i - 1].interval)
			ASSERT_LT(d.sc[i - 1].seq, d.sc[i].seq);
		if (d.sc[i].nr == SYS_getppid)
			ppids++;
	}
	EXPECT_EQ(1200, ppids);
	for (i = 0; i < d.niv; i++) {
		unsigned int preempts = 0;
		size_t k;

		for (k = 0; k < d.nsc; k++)
			preempts += d.sc[k].interval == d.iv[i].index &&
				    FLIGHTREC_IS_EVENT(d.sc[k].nr, d.sc[k].flags,
						       FLIGHTREC_NR_PREEMPT);
		EXPECT_EQ(0, d.iv[i].flags & FLIGHTREC_IF_LOST_RECORD)
			TH_LOG("interval %u flags %#x", d.iv[i].index, d.iv[i].flags);
		EXPECT_EQ(!!preempts, !!(d.iv[i].flags & FLIGHTREC_IF_PREEMPTED))
			TH_LOG("interval %u flags %#x, %u preemption records", d.iv[i].index,
			       d.iv[i].flags, preempts);
		if (preempts)
			TH_LOG("interval %u: %u preemptions", d.iv[i].index, preempts);
	}
	frd_free(&d);
}

TEST_F_TIMEOUT(proc, unregistered_not_recorded, 120)
{
	char *argv[] = { (char *)fr_prog("threads_sc"), "2", "300", NULL };
	volatile int stop = 0;
	struct frd d;
	pthread_t th;
	int status;
	pid_t pid;
	size_t i;

	/* this process is busy with syscalls all along, and not registered */
	ASSERT_EQ(0, pthread_create(&th, NULL, busy_unregistered, (void *)&stop));
	ASSERT_EQ(0, frd_run_recorded(self->c, argv, 100, 8, &d, &pid, &status));
	stop = 1;
	pthread_join(th, NULL);
	ASSERT_GT(d.nsc, 600);
	for (i = 0; i < d.nsc; i++) {
		ASSERT_NE(0x7e5a00, d.sc[i].args[1] == 0x7e5a00 &&
			  d.sc[i].nr == SYS_getpriority ? 0x7e5a00 : 0)
			TH_LOG("a syscall of an unregistered process was recorded");
		ASSERT_NE((uint32_t)getpid(), d.sc[i].tid);
	}
	frd_free(&d);
}

/* fork + exec of fault_regs with no address randomisation, gated */
static pid_t spawn_fault_regs(const char *out, const char *mode, int *gate)
{
	char *argv[] = { (char *)fr_prog("fault_regs"), (char *)out, NULL };
	char env_mode[16];
	char *envp[] = { env_mode, NULL };
	int fds[2];
	pid_t pid;
	char c;

	snprintf(env_mode, sizeof(env_mode), "FR_MODE=%s", mode);
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid == 0) {
		close(fds[1]);
		personality(ADDR_NO_RANDOMIZE);
		if (read(fds[0], &c, 1) != 1)
			_exit(127);
		execve(argv[0], argv, envp);
		_exit(127);
	}
	close(fds[0]);
	*gate = fds[1];
	return pid;
}

TEST_F_TIMEOUT(proc, fault_registers, 120)
{
	char dir[64], out[128];
	uint64_t rec[NGREG + 3];
	int gate = -1, status, id, fd;
	struct frd d;
	pid_t pid;

	ASSERT_EQ(0, fr_mkdtemp(dir, sizeof(dir)));
	snprintf(out, sizeof(out), "%s/regs", dir);

	/* the run with a handler: what the program itself sees */
	pid = spawn_fault_regs(out, "h", &gate);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, fr_gate_open(gate));
	ASSERT_EQ(0, fr_wait_timeout(pid, &status, 60000));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	fd = open(out, O_RDONLY);
	ASSERT_GE(fd, 0);
	ASSERT_EQ((ssize_t)sizeof(rec), read(fd, rec, sizeof(rec)));
	close(fd);

	/* the recorded run, the same but for the handler: it dies */
	pid = spawn_fault_regs(out, "n", &gate);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, fr_client_register(self->c, pid, 1000, 4, 0, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	ASSERT_EQ(0, fr_gate_open(gate));
	ASSERT_EQ(0, fr_wait_timeout(pid, &status, 60000));
	ASSERT_TRUE(WIFSIGNALED(status));
	ASSERT_EQ(SIGSEGV, WTERMSIG(status));
	id = frd_wait_event(self->c, FLIGHTREC_EVENT_FAULT, pid, 10000);
	ASSERT_GT(id, 0);
	ASSERT_EQ(0, frd_read(self->c, id, &d));
	ASSERT_TRUE(d.have_end);
	EXPECT_EQ(FLIGHTREC_END_FAULT, d.end_kind);
	EXPECT_EQ(SIGSEGV, d.end_signo);
	EXPECT_EQ((int32_t)rec[NGREG + 2], d.end_code);
	EXPECT_EQ(0xdead000, d.end_addr);
	EXPECT_EQ(rec[NGREG], d.end_addr);
	EXPECT_EQ((uint32_t)pid, d.end_tid);
	EXPECT_EQ((uint64_t)rec[REG_RIP], d.end_regs.rip);
	EXPECT_EQ((uint64_t)rec[REG_RSP], d.end_regs.rsp);
	EXPECT_EQ((uint64_t)rec[REG_RBP], d.end_regs.rbp);
	EXPECT_EQ((uint64_t)rec[REG_RAX], d.end_regs.rax);
	EXPECT_EQ((uint64_t)rec[REG_RBX], d.end_regs.rbx);
	EXPECT_EQ((uint64_t)rec[REG_RCX], d.end_regs.rcx);
	EXPECT_EQ((uint64_t)rec[REG_RDX], d.end_regs.rdx);
	EXPECT_EQ((uint64_t)rec[REG_RSI], d.end_regs.rsi);
	EXPECT_EQ((uint64_t)rec[REG_RDI], d.end_regs.rdi);
	EXPECT_EQ((uint64_t)rec[REG_R8], d.end_regs.r8);
	EXPECT_EQ((uint64_t)rec[REG_R9], d.end_regs.r9);
	EXPECT_EQ((uint64_t)rec[REG_R10], d.end_regs.r10);
	EXPECT_EQ((uint64_t)rec[REG_R11], d.end_regs.r11);
	EXPECT_EQ((uint64_t)rec[REG_R12], d.end_regs.r12);
	EXPECT_EQ((uint64_t)rec[REG_R13], d.end_regs.r13);
	EXPECT_EQ((uint64_t)rec[REG_R14], d.end_regs.r14);
	EXPECT_EQ((uint64_t)rec[REG_R15], d.end_regs.r15);
	EXPECT_EQ((uint64_t)rec[REG_EFL], d.end_regs.eflags);
	EXPECT_EQ(0xcccc, d.end_regs.r15);
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, self->err, sizeof(self->err)));
	frd_free(&d);
	unlink(out);
	rmdir(dir);
}

/* the global accounting line of /proc/flightrec/status */
static int status_bytes(unsigned long long *bytes, unsigned long long *cap)
{
	char buf[8192], *p;

	if (fr_read_file(FR_PROC_DIR "/status", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "\nbytes ");
	if (!p || sscanf(p, "\nbytes %llu cap %llu", bytes, cap) != 2)
		return -1;
	return 0;
}

/* the record allocator's pools: the pool line of /proc/flightrec/status */
static int status_pool(unsigned long long *pool)
{
	char buf[8192], *p;

	if (fr_read_file(FR_PROC_DIR "/status", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "\npool ");
	if (!p || sscanf(p, "\npool %llu", pool) != 1)
		return -1;
	return 0;
}

/*
 * Objects the kernel's shrinkers were asked to scan so far (slabs_scanned
 * in /proc/vmstat): it grows when memory pressure (or drop_caches) runs
 * them, flightrec's pool shrinker among them.
 */
static int slabs_scanned(unsigned long long *n)
{
	char buf[16384], *p;

	if (fr_read_file("/proc/vmstat", buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "\nslabs_scanned ");
	if (!p || sscanf(p, "\nslabs_scanned %llu", n) != 1)
		return -1;
	return 0;
}

TEST_F_TIMEOUT(proc, ring_cap_never_exceeded, 180)
{
	char *argv[] = { (char *)fr_prog("mem_pattern"), "5", NULL };
	unsigned long long bytes, cap, pool, peak = 0;
	uint64_t dropped = 0, last_dropped = 0;
	int gate = -1, status, samples = 0;
	pid_t pid;

	FR_REQUIRE_ROOT();
	ASSERT_EQ(0, fr_read_param("ring_mb", &self->ring_mb));
	ASSERT_EQ(0, fr_write_file(FR_SYSFS_PARAMS "/ring_mb", "1", 1));
	pid = fr_spawn_gated(argv, &gate);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, fr_client_register(self->c, pid, 10, 64, 0, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	ASSERT_EQ(0, fr_gate_open(gate));
	while (waitpid(pid, &status, WNOHANG) == 0) {
		ASSERT_EQ(0, status_bytes(&bytes, &cap));
		ASSERT_EQ(1ULL << 20, cap);
		/* a boundary's map and registers are the only excess allowed */
		ASSERT_LE(bytes, cap + (64 << 10)) TH_LOG("%llu bytes over a cap of %llu", bytes, cap);
		/* the record allocator's pools: a quarter of the cap at most */
		ASSERT_EQ(0, status_pool(&pool));
		ASSERT_LE(pool, cap / 4) TH_LOG("pools hold %llu bytes, cap %llu", pool, cap);
		if (bytes > peak)
			peak = bytes;
		if (!frd_proc_dropped(self->c, pid, &dropped))
			last_dropped = dropped;
		samples++;
		usleep(2000);
	}
	ASSERT_TRUE(WIFEXITED(status));
	TH_LOG("%d samples, peak %llu bytes, %llu intervals dropped",
	       samples, peak, (unsigned long long)last_dropped);
	EXPECT_GT(samples, 10);
	EXPECT_GT(last_dropped, 0);
}

/*
 * A boundary's memory map is under the cap too (issue 24.3): 1500 file
 * mappings that each name a 3.6 KB path make 5.4 MB of paths per boundary,
 * over a cap of 4 MiB.  Before, the map was charged whatever the cap said
 * (65530 such mappings: 500 MiB per boundary); now the paths that do not
 * fit are not kept and the interval says so (FLIGHTREC_IF_LOST_STATE).
 */
TEST_F_TIMEOUT(proc, boundary_state_under_cap, 300)
{
	char *argv[] = { (char *)fr_prog("long_paths"), "1500", "4", NULL };
	unsigned long long bytes, cap, peak = 0;
	int gate = -1, status, samples = 0, id;
	size_t i, lost = 0;
	struct frd d;
	pid_t pid;

	FR_REQUIRE_ROOT();
	ASSERT_EQ(0, fr_read_param("ring_mb", &self->ring_mb));
	ASSERT_EQ(0, fr_write_file(FR_SYSFS_PARAMS "/ring_mb", "4", 1));
	pid = fr_spawn_gated(argv, &gate);
	ASSERT_GT(pid, 0);
	self->child = pid;
	ASSERT_EQ(0, fr_client_register(self->c, pid, 100, 64, 1, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	ASSERT_EQ(0, fr_gate_open(gate));
	while (waitpid(pid, &status, WNOHANG) == 0) {
		ASSERT_EQ(0, status_bytes(&bytes, &cap));
		ASSERT_EQ(4ULL << 20, cap);
		if (bytes > peak)
			peak = bytes;
		samples++;
		usleep(2000);
	}
	self->child = 0;
	ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
		TH_LOG("long_paths: status 0x%x", status);
	TH_LOG("%d samples, peak %llu bytes, cap %llu", samples, peak, cap);
	EXPECT_GT(samples, 10);
	/* what a boundary walk adds to the closed interval's bits is all */
	EXPECT_LE(peak, cap + (64 << 10)) TH_LOG("%llu bytes over the cap", peak - cap);
	id = frd_wait_event(self->c, FLIGHTREC_EVENT_EXIT, pid, 10000);
	ASSERT_GT(id, 0);
	ASSERT_EQ(0, frd_read(self->c, id, &d));
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, self->err, sizeof(self->err)));
	/* a file mapping without its path is in an interval that says so */
	for (i = 0; i < d.nmaps; i++) {
		const struct frd_map *m = &d.maps[i];
		size_t k;

		if ((m->flags & FLIGHTREC_MAPF_ANON) || m->path[0])
			continue;
		for (k = 0; k < d.niv && d.iv[k].index != m->interval; k++)
			;
		ASSERT_LT(k, d.niv);
		lost++;
		EXPECT_TRUE(d.iv[k].flags & FLIGHTREC_IF_LOST_STATE)
			TH_LOG("interval %u: the mapping at %#llx has no path, unflagged",
			       m->interval, (unsigned long long)m->start);
		if (!(d.iv[k].flags & FLIGHTREC_IF_LOST_STATE))
			break;
	}
	TH_LOG("%zu intervals, %zu file mappings without their path", d.niv, lost);
	frd_free(&d);
}

/*
 * A crash dump nobody has read yet survives the live recording of another
 * process that fills the cap (issue 24.3: fr_charge_evict reclaimed every
 * frozen dump on the machine for the records of a live ring).
 */
TEST_F_TIMEOUT(proc, uncollected_dump_survives_cap, 180)
{
	char *crash[] = { (char *)fr_prog("crash_div"), NULL };
	char *fill[] = { (char *)fr_prog("read_zero"), "48", NULL };
	int gate = -1, status, id;
	struct frd d;
	pid_t pid;

	FR_REQUIRE_ROOT();
	ASSERT_EQ(0, fr_read_param("ring_mb", &self->ring_mb));
	ASSERT_EQ(0, fr_write_file(FR_SYSFS_PARAMS "/ring_mb", "8", 1));
	pid = fr_spawn_gated(crash, &gate);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, fr_client_register(self->c, pid, 250, 8, 0, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	ASSERT_EQ(0, fr_gate_open(gate));
	ASSERT_EQ(0, fr_wait_timeout(pid, &status, 60000));
	ASSERT_TRUE(WIFSIGNALED(status));
	id = frd_wait_event(self->c, FLIGHTREC_EVENT_FAULT, pid, 10000);
	ASSERT_GT(id, 0);

	/*
	 * 48 reads of 1 MiB, recorded in one long interval: six times the
	 * cap, with no closed interval of its own to give back
	 */
	pid = fr_spawn_gated(fill, &gate);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, fr_client_register(self->c, pid, 10000, 64, 0, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	ASSERT_EQ(0, fr_gate_open(gate));
	ASSERT_EQ(0, fr_wait_timeout(pid, &status, 60000));
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));

	ASSERT_EQ(0, frd_read(self->c, id, &d)) TH_LOG("the crash dump is gone");
	EXPECT_TRUE(d.have_end);
	EXPECT_EQ(FLIGHTREC_END_FAULT, d.end_kind);
	frd_free(&d);
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, self->err, sizeof(self->err)));
}

/*
 * Freed record chunks are kept for reuse (kernel/arena.c): while a
 * syscall-heavy process is recorded, the pools hold at most a quarter of
 * the cap besides the ring; when it is gone its
 * records fill the pools, which shrink to 2 MiB each after 2 s unused, and
 * to nothing when the kernel asks its shrinkers (drop_caches).
 */
TEST_F_TIMEOUT(proc, record_pools, 180)
{
	char *argv[] = { (char *)fr_prog("bench_loop"), "100000", NULL };
	unsigned long long bytes, cap, pool, peak = 0, after = 0, scan0, scan1;
	int gate = -1, status, fd, saved, i;
	struct timespec t0, t1;
	long waited_ms;
	pid_t pid;

	FR_REQUIRE_ROOT();
	fd = open("/dev/null", O_WRONLY);
	saved = dup(1);
	ASSERT_LE(0, fd);
	dup2(fd, 1);
	pid = fr_spawn_gated(argv, &gate);
	dup2(saved, 1);
	close(saved);
	close(fd);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, fr_client_register(self->c, pid, 20, 64, 0, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	ASSERT_EQ(0, fr_gate_open(gate));
	while (waitpid(pid, &status, WNOHANG) == 0) {
		ASSERT_EQ(0, status_bytes(&bytes, &cap));
		ASSERT_EQ(0, status_pool(&pool));
		ASSERT_LE(bytes, cap + (64 << 10));
		ASSERT_LE(pool, cap / 4) TH_LOG("pools hold %llu bytes, cap %llu", pool, cap);
		if (bytes > peak)
			peak = bytes;
		usleep(5000);
	}
	ASSERT_TRUE(WIFEXITED(status));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, slabs_scanned(&scan0));
	/* the process is dropped by the reaper: its ring goes to the pools */
	for (i = 0; i < 200; i++) {
		ASSERT_EQ(0, status_bytes(&bytes, &cap));
		if (bytes < (64 << 10))
			break;
		usleep(10000);
	}
	ASSERT_EQ(0, status_pool(&after));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ASSERT_EQ(0, slabs_scanned(&scan1));
	waited_ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	TH_LOG("ring peak %llu bytes; pools %llu bytes %ld ms after the exit; shrinkers scanned %llu objects since the exit",
	       peak, after, waited_ms, scan1 - scan0);
	EXPECT_GT(peak, 8 << 20);
	/*
	 * Two things take the pools back meanwhile, as they should, and then
	 * the refill cannot be told from the test, which says so:
	 * - memory pressure runs their shrinker.  On the debug kernel
	 *   (KASAN's shadow and quarantine in the VM's 2 GiB) the pools held
	 *   2.96, 4.0 and 3.0 MB after the exit in 3 of 5 runs (s4x);
	 * - their idle trim (kernel/arena.c, FR_ARENA_IDLE: 2 s without a
	 *   chunk taken) keeps 2 MiB per pool.  The process took its last
	 *   chunk just before it exited; a reaping slower than 1.5 s lets the
	 *   trim run first (the debug kernel on a loaded host, s52: 4.55 MB,
	 *   no shrinker scan).
	 */
	if (scan1 != scan0 && after <= 8 << 20)
		TH_LOG("reclaim ran: the pools' refill is not checked");
	else if (waited_ms > 1500 && after <= 8 << 20)
		TH_LOG("%ld ms from the exit to the reading: the idle trim may have run; the pools' refill is not checked",
		       waited_ms);
	else
		EXPECT_GT(after, 8 << 20);
	/*
	 * unused for 2 s: back to 2 MiB per chunk pool and for the page pool
	 * (the trim runs every 2 s)
	 */
	for (i = 0; i < 80; i++) {
		ASSERT_EQ(0, status_pool(&pool));
		if (pool <= (6 << 20))
			break;
		usleep(100000);
	}
	EXPECT_LE(pool, 6 << 20) TH_LOG("pools still hold %llu bytes after %d ms", pool, i * 100);
	/* memory pressure: the shrinker empties them */
	ASSERT_EQ(0, fr_write_file("/proc/sys/vm/drop_caches", "2", 1));
	ASSERT_EQ(0, status_pool(&pool));
	EXPECT_EQ(0, pool);
}

TEST_F_TIMEOUT(proc, killed_while_read, 180)
{
	char *argv[] = { (char *)fr_prog("mem_big"), "64", NULL };
	struct kctx { struct frd d; pid_t pid, *child; int killed; } k;
	int gate = -1, fds[2], status;
	uint32_t id;
	char buf[8];
	pid_t pid;
	int cb(struct nlattr **tb, const struct nlattr *a, int len, void *arg)
	{
		struct kctx *k = arg;

		if (!k->killed && tb[FLIGHTREC_A_REC_TYPE] &&
		    nla_get_u32(tb[FLIGHTREC_A_REC_TYPE]) == FLIGHTREC_REC_PAGE) {
			kill(k->pid, SIGKILL);
			waitpid(k->pid, NULL, 0);
			*k->child = 0;	/* reaped: nothing for the teardown */
			k->killed = 1;
		}
		return frd_cb(tb, a, len, &k->d);
	}

	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		execv(argv[0], argv);
		_exit(127);
	}
	self->child = pid;
	close(fds[1]);
	ASSERT_EQ(6, read(fds[0], buf, 6));
	close(fds[0]);
	(void)gate;
	ASSERT_EQ(0, fr_client_register(self->c, pid, 50, 8, 0, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	usleep(400000);
	ASSERT_EQ(0, fr_client_dump(self->c, pid, &id, self->err, sizeof(self->err)))
		TH_LOG("%s", self->err);
	memset(&k, 0, sizeof(k));
	k.pid = pid;
	k.child = &self->child;
	ASSERT_EQ(0, fr_client_get_dump_raw(self->c, id, cb, &k, self->err,
					    sizeof(self->err))) TH_LOG("%s", self->err);
	EXPECT_TRUE(k.killed);
	/* the whole dump came, though its process died at the first page */
	EXPECT_TRUE(k.d.have_end);
	EXPECT_EQ(FLIGHTREC_END_DUMP, k.d.end_kind);
	EXPECT_GT(k.d.npg, 16);
	for (size_t i = 0; i < k.d.npg; i++)
		ASSERT_TRUE(k.d.pg[i].data || (k.d.pg[i].flags & FLIGHTREC_PAGE_ZERO));
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, self->err, sizeof(self->err)));
	frd_free(&k.d);
	status = 0;
	(void)status;
}

/*
 * Starts ARGV (mem_big) with its stdout on a pipe and waits for its
 * "ready\n": its memory is all touched.  The pid, or -1.  With @out, the
 * pipe's end to read what it writes next (the caller closes it).
 */
static pid_t spawn_ready_fd(char *const argv[], int *out)
{
	char buf[8];
	int fds[2];
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	if (pid > 0 && read(fds[0], buf, 6) != 6) {
		fr_kill_wait(pid);
		pid = -1;
	}
	if (out && pid > 0)
		*out = fds[0];
	else
		close(fds[0]);
	return pid;
}

static pid_t spawn_ready(char *const argv[])
{
	return spawn_ready_fd(argv, NULL);
}

TEST_F_TIMEOUT(proc, dump_of_1g_resident, 300)
{
	char *argv[] = { (char *)fr_prog("mem_big"), "1024", NULL };
	uint32_t id;
	struct frd d;
	pid_t pid;

	pid = spawn_ready(argv);
	ASSERT_GT(pid, 0) TH_LOG("mem_big 1024 did not start");
	self->child = pid;
	ASSERT_EQ(0, fr_client_register(self->c, pid, 100, 4, 0, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	usleep(1500000);
	ASSERT_EQ(0, fr_client_dump(self->c, pid, &id, self->err, sizeof(self->err)))
		TH_LOG("%s", self->err);
	ASSERT_EQ(0, frd_read(self->c, id, &d));
	fr_kill_wait(pid);
	self->child = 0;
	EXPECT_TRUE(d.have_end);
	EXPECT_GE(d.niv, 2);
	/* the pages touched in the kept intervals, not the whole gigabyte */
	EXPECT_GT(d.npg, 16);
	EXPECT_LT(d.npg, 64 * 1024);
	TH_LOG("%zu intervals, %zu pages, %zu syscalls", d.niv, d.npg, d.nsc);
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, self->err, sizeof(self->err)));
	frd_free(&d);
}

/*
 * One munmap of more than 1 GiB of present pages (mem_big 1026 unmap), a
 * second after they were last touched but for two pages read just before
 * the call: the capture before the call lists every present page of the
 * range, and copies those two with their bytes (in the middle of the range
 * and at its end: the 257th and the 513th batch of 512) and no other.
 * Until s75 it listed them in one array of at most 2^18 addresses (1 GiB)
 * and gave up past that, flagging the interval of the call
 * FLIGHTREC_IF_LOST_PAGE; it lists them in batches now, and that interval
 * lost nothing.
 */
static int page_byte(const struct frd *d, uint32_t iv, uint64_t addr)
{
	size_t i;

	for (i = 0; i < d->npg; i++)
		if (d->pg[i].interval == iv && d->pg[i].addr == addr)
			return d->pg[i].data ? d->pg[i].data[0] : -2;
	return -1;
}

TEST_F_TIMEOUT(proc, unmap_of_1g_resident_not_lost, 300)
{
	char *argv[] = { (char *)fr_prog("mem_big"), "1026", "unmap", NULL };
	const uint64_t size = 1026ULL << 20;
	uint64_t a;
	size_t extra = 0;
	char buf[8];
	uint32_t id;
	struct frd d;
	long m;
	size_t i;
	int fd = -1;
	pid_t pid;

	pid = spawn_ready_fd(argv, &fd);
	ASSERT_GT(pid, 0) TH_LOG("mem_big 1026 unmap did not start");
	self->child = pid;
	ASSERT_EQ(0, fr_client_register(self->c, pid, 100, 4, 0, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	/* past the ring's 4 intervals of 100 ms: no kept interval has the pages */
	usleep(1000000 * fr_timeout_scale());
	ASSERT_EQ(0, kill(pid, SIGUSR1));
	ASSERT_EQ(5, read(fd, buf, 5)) TH_LOG("mem_big did not unmap");
	close(fd);
	ASSERT_EQ(0, fr_client_dump(self->c, pid, &id, self->err, sizeof(self->err)))
		TH_LOG("%s", self->err);
	ASSERT_EQ(0, frd_read(self->c, id, &d));
	fr_kill_wait(pid);
	self->child = 0;
	ASSERT_GE(frd_find(&d, 0, SYS_getpriority, PRIO_PROCESS, MB_MARK), 0);
	for (m = 0; m < (long)d.nsc; m++)
		if (d.sc[m].nr == SYS_munmap && d.sc[m].args[1] == size)
			break;
	ASSERT_LT(m, (long)d.nsc) TH_LOG("no munmap of %llu bytes", (unsigned long long)size);
	EXPECT_EQ(0, d.sc[m].ret);
	for (i = 0; i < d.niv && d.iv[i].index != d.sc[m].interval; i++)
		;
	ASSERT_LT(i, d.niv);
	EXPECT_FALSE(d.iv[i].flags & FLIGHTREC_IF_LOST_PAGE)
		TH_LOG("the munmap's interval %u has flags %#x", d.iv[i].index, d.iv[i].flags);
	/* the two pages read, with their bytes; no other page of the range */
	a = d.sc[m].args[0];
	EXPECT_EQ((uint8_t)(MB_READ_MID(size) >> 12),
		  page_byte(&d, d.sc[m].interval, a + MB_READ_MID(size)));
	EXPECT_EQ((uint8_t)(MB_READ_LAST(size) >> 12),
		  page_byte(&d, d.sc[m].interval, a + MB_READ_LAST(size)));
	for (i = 0; i < d.npg; i++) {
		const struct frd_page *p = &d.pg[i];

		if (p->interval == d.sc[m].interval && p->addr >= a && p->addr < a + size &&
		    p->data && p->addr != a + MB_READ_MID(size) &&
		    p->addr != a + MB_READ_LAST(size)) {
			TH_LOG("page %#llx of the range kept with bytes",
			       (unsigned long long)p->addr);
			extra++;
		}
	}
	EXPECT_EQ(0, extra);
	EXPECT_EQ(0, fr_client_release_dump(self->c, id, self->err, sizeof(self->err)));
	frd_free(&d);
}

/* bytes and closed intervals of pid's ring, from the registry's list */
static int proc_bytes(struct fr_client *c, pid_t pid, uint64_t *bytes,
		      uint32_t *nr_intervals)
{
	struct ctx { pid_t pid; uint64_t *bytes; uint32_t *n; int found; } x = {
		pid, bytes, nr_intervals, 0
	};
	int cb(const struct fr_proc_info *info, void *arg)
	{
		struct ctx *x = arg;

		if (info->pid == (uint32_t)x->pid) {
			*x->bytes = info->bytes;
			*x->n = info->nr_intervals;
			x->found = 1;
		}
		return 0;
	}

	if (fr_client_list(c, cb, &x) < 0 || !x.found)
		return -1;
	return 0;
}

/*
 * The pages a boundary finds only read are bits, 32 pages to an XArray
 * entry and 64 entries to a node of 576 bytes: no bytes of their own, but
 * a process that reads 1 GiB in every interval fills 128 such nodes per
 * interval, and the ring charges them (memory.c, fr_acc_bytes).  Every
 * kept interval of mem_big reading its whole gigabyte must be charged at
 * least 128 x 512 bytes, where the records, map, registers and the few
 * page copies (its stack) of an interval of that process take under 64 KiB.
 */
TEST_F_TIMEOUT(proc, page_bits_charged, 120)
{
	char *argv[] = { (char *)fr_prog("mem_big"), "1024", "read", NULL };
	uint64_t bytes = 0;
	uint32_t n = 0;
	pid_t pid;

	pid = spawn_ready(argv);
	ASSERT_GT(pid, 0) TH_LOG("mem_big 1024 read did not start");
	self->child = pid;
	/*
	 * 1 s: a sweep of the gigabyte fits in an interval under TCG, even
	 * on a loaded machine (250 ms did not, with 4 VMs on 2 cores); on the
	 * debug kernel a boundary's walk of it is slower, and 4.6 s closed 2
	 * intervals: the wait grows with FR_TEST_TIMEOUT_SCALE
	 */
	ASSERT_EQ(0, fr_client_register(self->c, pid, 1000, 4, 0, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	usleep(4600000 * fr_timeout_scale());
	ASSERT_EQ(0, proc_bytes(self->c, pid, &bytes, &n));
	fr_kill_wait(pid);
	self->child = 0;
	ASSERT_GE(n, 3) TH_LOG("only %u intervals closed", n);
	EXPECT_GE(bytes, (uint64_t)n * 128 * 512)
		TH_LOG("%u intervals charged %llu bytes", n, (unsigned long long)bytes);
	/* and no more than the nodes and those 64 KiB, the open interval too */
	EXPECT_LE(bytes, (uint64_t)(n + 1) * (132 * 576 + (64 << 10)))
		TH_LOG("%u intervals charged %llu bytes", n, (unsigned long long)bytes);
	TH_LOG("%u intervals, %llu bytes", n, (unsigned long long)bytes);
}

#define SYS_ENTER_EV "/sys/kernel/tracing/events/raw_syscalls/sys_enter/"

/* tracefs mounted, with ftrace's raw_syscalls sys_enter event: 0, else -1 */
static int sys_enter_event_ready(void)
{
	if (access("/sys/kernel/tracing/events", F_OK))
		mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
	return access(SYS_ENTER_EV "enable", W_OK) ? -1 : 0;
}

/* the event on, with @filter: another user of the syscall tracepoints */
static int sys_enter_event_on(const char *filter)
{
	if (fr_write_file(SYS_ENTER_EV "filter", filter, strlen(filter)))
		return -1;
	return fr_write_file(SYS_ENTER_EV "enable", "1", 1);
}

static int sys_enter_event_off(void)
{
	int err = fr_write_file(SYS_ENTER_EV "enable", "0", 1);

	fr_write_file(SYS_ENTER_EV "filter", "0", 1);
	return err;
}

/* an O_TRUNC open empties ftrace's buffer (of earlier runs too) */
static int trace_empty(void)
{
	int fd = open("/sys/kernel/tracing/trace", O_WRONLY | O_TRUNC);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

/* how many times ftrace's buffer holds @needle, or -1 */
static int trace_hits(const char *needle)
{
	char buf[1 << 16];
	int fd, hits = 0;
	ssize_t n;

	fd = open("/sys/kernel/tracing/trace", O_RDONLY);
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		char *p = buf;

		buf[n] = 0;
		while ((p = strstr(p, needle))) {
			hits++;
			p++;
		}
	}
	close(fd);
	return hits;
}

/*
 * Another tracer of the syscall tracepoints (ftrace's raw_syscalls events)
 * still sees every process while flightrec is loaded: the module gives the
 * work bit back to every task once it shares the tracepoints.
 */
TEST_F_TIMEOUT(proc, other_syscall_tracer_sees_all, 60)
{
	char filter[64];
	int i, hits;
	pid_t pid;

	FR_REQUIRE_ROOT();
	if (sys_enter_event_ready())
		SKIP(return, "no tracefs with raw_syscalls events");
	ASSERT_EQ(0, trace_empty());
	pid = fork();
	if (pid == 0) {
		/* wait for the tracer, then make marker calls: not registered */
		usleep(2500000);
		for (i = 0; i < 50; i++)
			syscall(SYS_getpriority, PRIO_PROCESS, 0x7e5b00);
		_exit(0);
	}
	snprintf(filter, sizeof(filter), "common_pid == %d", pid);
	ASSERT_EQ(0, sys_enter_event_on(filter));
	ASSERT_EQ(0, fr_wait_timeout(pid, NULL, 20000));
	ASSERT_EQ(0, sys_enter_event_off());
	hits = trace_hits("NR 140 (0, 7e5b00");
	EXPECT_EQ(50, hits) TH_LOG("ftrace saw %d of the 50 marker calls", hits);
}

/*
 * The same, with the marker calls made as soon as the tracer is attached
 * (issue 24.7): a process whose work bit the focus cleared (its parent
 * had none) is seen from the tracer's first event on, not after the next
 * focus check (each second).  Before, ftrace saw none of the calls of a
 * process that made them within that second.
 */
TEST_F_TIMEOUT(proc, other_syscall_tracer_sees_all_at_once, 60)
{
	int i, go[2], hits;
	char filter[64];
	pid_t pid;

	FR_REQUIRE_ROOT();
	if (sys_enter_event_ready())
		SKIP(return, "no tracefs with raw_syscalls events");
	ASSERT_EQ(0, trace_empty());
	/* the module alone on the tracepoints for two focus checks */
	sleep(2);
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	if (pid == 0) {
		char c;

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		for (i = 0; i < 50; i++)
			syscall(SYS_getpriority, PRIO_PROCESS, 0x7e5c00);
		_exit(0);
	}
	close(go[0]);
	snprintf(filter, sizeof(filter), "common_pid == %d", pid);
	ASSERT_EQ(0, sys_enter_event_on(filter));
	ASSERT_EQ(1, write(go[1], "g", 1));
	close(go[1]);
	ASSERT_EQ(0, fr_wait_timeout(pid, NULL, 20000));
	ASSERT_EQ(0, sys_enter_event_off());
	hits = trace_hits("NR 140 (0, 7e5c00");
	EXPECT_EQ(50, hits) TH_LOG("ftrace saw %d of the 50 marker calls", hits);
}

/* nr_syscalls of @pid's registration, or -1 when it is not registered */
static int64_t proc_syscalls(struct fr_client *c, pid_t pid)
{
	struct ctx { pid_t pid; int64_t n; } x = { pid, -1 };
	int cb(const struct fr_proc_info *info, void *arg)
	{
		struct ctx *x = arg;

		if (info->pid == (uint32_t)x->pid)
			x->n = (int64_t)info->nr_syscalls;
		return 0;
	}

	if (fr_client_list(c, cb, &x) < 0)
		return -1;
	return x.n;
}

/*
 * The syscall probes find the thread of current in a slot of their CPU
 * (fr_thread_current) before the hash.  A thread taken out of the hash must
 * leave every slot at once: a process unregistered while it runs on, with
 * another tracer of the tracepoints so that it still enters the probes,
 * then registered again at once, has its calls recorded by the new
 * registration.  With the old thread left in the slot of its CPU (pinned
 * to CPU 0), the probes would go on finding it, of the old (dying)
 * registration, and after its grace period read it freed (which the debug
 * kernel's KASAN reports): the new registration would get no record, or
 * only once the old thread's memory is used again.
 */
TEST_F_TIMEOUT(proc, unregistered_thread_forgotten, 60)
{
	int64_t before = -1, after = -1;
	int rc_u = -1, rc_r;
	cpu_set_t cpus;
	pid_t pid;

	FR_REQUIRE_ROOT();
	if (sys_enter_event_ready())
		SKIP(return, "no tracefs with raw_syscalls events");
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		struct timespec t0, t;

		CPU_ZERO(&cpus);
		CPU_SET(0, &cpus);
		if (sched_setaffinity(0, sizeof(cpus), &cpus))
			_exit(1);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		do {
			syscall(SYS_getppid);
			clock_gettime(CLOCK_MONOTONIC, &t);
		} while (t.tv_sec - t0.tv_sec < 20);
		_exit(0);
	}
	self->child = pid;
	/* another user of the tracepoints, which matches no call */
	ASSERT_EQ(0, sys_enter_event_on("id == 99999"));
	/* the module's focus check (each second) gives every task the bit */
	usleep(1500000);
	rc_r = fr_client_register(self->c, pid, 50, 8, 0, self->err,
				  sizeof(self->err));
	if (!rc_r) {
		usleep(300000 * fr_timeout_scale());
		before = proc_syscalls(self->c, pid);
		rc_u = fr_client_unregister(self->c, pid, self->err,
					    sizeof(self->err));
		/* at once: the new thread is not made where the old one was */
		if (!rc_u)
			rc_r = fr_client_register(self->c, pid, 50, 8, 0,
						  self->err, sizeof(self->err));
		usleep(500000 * fr_timeout_scale());
		after = proc_syscalls(self->c, pid);
	}
	sys_enter_event_off();
	ASSERT_EQ(0, rc_r) TH_LOG("%s", self->err);
	ASSERT_EQ(0, rc_u) TH_LOG("%s", self->err);
	EXPECT_GT(before, 100) TH_LOG("first registration: %lld calls",
				      (long long)before);
	EXPECT_GT(after, 100) TH_LOG("second registration: %lld calls",
				     (long long)after);
	fr_client_unregister(self->c, pid, self->err, sizeof(self->err));
}

/*
 * Issue 24 #9: the freeze read the build IDs of mapped files with
 * kernel_read() under mmap_lock and work_lock, with the process's other
 * threads stopped.  A recorded FUSE daemon that maps a file of its own
 * filesystem was asked to serve that read while it could not run: the dump
 * request timed out and the freezing thread stayed blocked until killed.
 * Now the freeze reads the page cache alone and leaves an uncached file to
 * the first GET_DUMP, which reads it in the reader's context: the dump comes,
 * with the file's build ID.
 */
TEST_F_TIMEOUT(proc, fuse_daemon_dumped, 120)
{
	static char text[1 << 16];
	char mnt[] = "/tmp/fr-fuse.XXXXXX", want[300], maps[64];
	char *argv[] = { (char *)fr_prog("fuse_self"), mnt, NULL };
	uint8_t id[64];
	size_t idlen, k;
	int gate = -1, status, i, found = 0;
	uint32_t dump_id = 0;
	struct frd d;

	FR_REQUIRE_ROOT();
	if (access("/dev/fuse", R_OK | W_OK))
		SKIP(return, "no /dev/fuse: this kernel has no FUSE");
	ASSERT_EQ(0, fr_read_build_id(argv[0], 0, 0, id, &idlen))
		TH_LOG("fuse_self has no build ID");
	ASSERT_NE(NULL, mkdtemp(mnt));
	snprintf(want, sizeof(want), "%s/lib.so", mnt);
	self->child = fr_spawn_gated(argv, &gate);
	ASSERT_GT(self->child, 0);
	ASSERT_EQ(0, fr_gate_open(gate));
	snprintf(maps, sizeof(maps), "/proc/%d/maps", self->child);
	for (i = 0; i < 2000 * (int)fr_timeout_scale(); i++) {
		if (fr_read_file(maps, text, sizeof(text)) > 0 && strstr(text, want))
			break;
		ASSERT_NE(self->child, waitpid(self->child, &status, WNOHANG))
			TH_LOG("fuse_self ended: status 0x%x", status);
		usleep(10000);
	}
	ASSERT_NE(NULL, strstr(text, want)) TH_LOG("lib.so never mapped");

	ASSERT_EQ(0, fr_client_register(self->c, self->child, 250, 8, 0, self->err,
					sizeof(self->err))) TH_LOG("%s", self->err);
	/* a few boundaries: the maps are taken at an interval's start */
	usleep(1000000);
	ASSERT_EQ(0, fr_client_dump(self->c, self->child, &dump_id, self->err,
				    sizeof(self->err))) TH_LOG("%s", self->err);
	ASSERT_EQ(0, frd_read(self->c, dump_id, &d));
	ASSERT_GT(d.niv, 0);
	for (k = 0; k < d.nmaps; k++) {
		if (strcmp(d.maps[k].path, want))
			continue;
		found++;
		ASSERT_EQ(idlen, d.maps[k].build_id_len);
		EXPECT_EQ(0, memcmp(id, d.maps[k].build_id, idlen));
	}
	EXPECT_GT(found, 0) TH_LOG("no map of %s in the dump (%zu intervals, %zu maps)",
				   want, d.niv, d.nmaps);
	for (k = 0; !found && k < d.niv; k++)
		TH_LOG("interval %u flags %#x", d.iv[k].index, d.iv[k].flags);
	for (k = 0; !found && k < d.nmaps; k++)
		TH_LOG("map %zu: %#llx %s", k, (unsigned long long)d.maps[k].start,
		       d.maps[k].path);
	frd_free(&d);
	EXPECT_EQ(0, fr_client_release_dump(self->c, dump_id, self->err,
					    sizeof(self->err)));
	/* the daemon goes on serving after the dump */
	ASSERT_EQ(4, fr_read_file(want, text, 5));
	EXPECT_EQ(0, memcmp(text, "\177ELF", 4));
	fr_kill_wait(self->child);
	self->child = 0;
	EXPECT_EQ(0, umount2(mnt, MNT_DETACH));
	rmdir(mnt);
}

TEST_HARNESS_MAIN
