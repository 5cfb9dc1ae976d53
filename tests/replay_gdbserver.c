// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec replay --gdbserver (issue 27 item 1): the replay as a GDB
 * remote-protocol target that stock gdb attaches to with `target remote`.
 * The checkpoints are ptsnap recordings (tests/tools/ptsnap) of
 * tests/progs, made here: no module, so this runs on any Linux >= 5.11
 * with gdb (check.sh runs it on the host, beside replay_portable).
 *
 *   attach_regs_memory    the first stop: every general register equals the
 *                         checkpoint's (info --json), the stack bytes equal
 *                         `flightrec extract`; the target description has
 *                         the AVX registers where the checkpoint has AVX
 *   break_step_crash      a breakpoint at a function, stepi and step, the
 *                         recorded SIGSEGV as gdb expects it ($_siginfo),
 *                         then W00 and the server exits 0
 *   hw_break_and_watch    hbreak (a debug register), and a watchpoint on a
 *                         buffer that read() fills (the loader writes it:
 *                         the stop comes after the call, with the file's
 *                         bytes)
 *   threads_recorded_tids the thread list shows the recorded pid and tids
 *   errno_with_symbols    `print errno` (TLS through the library list and
 *                         qGetTLSAddr) after a failed open is ENOENT; the
 *                         recorded exit ends the session with W01
 *   reverse_stepi_continue  (issue 27 item 2) reverse-stepi back over a
 *                         breakpoint and into the prologue, reverse-continue
 *                         to the previous hit, then to the beginning ("No
 *                         more reverse-execution history"); forward again
 *                         to the same hit, the crash and W00
 *   reverse_watch         reverse-continue with a watchpoint on the buffer
 *                         read() fills: stops before each read, with the
 *                         values of the file going backwards
 *   reverse_finish_next   reverse-finish out of fnv() back to its call in
 *                         main, reverse-next over the read() call
 *   reverse_snapshots_same_points  the same reverse commands with the
 *                         replay's snapshots and without them (FLIGHTREC_
 *                         GDBSERVER_SNAPSHOTS=0): the same points
 *   reverse_threads       threads created after the snapshots: going back
 *                         restores one from before them (fresh loaders agree)
 *   reverse_library_breakpoint_from_exec  a checkpoint from exec: a
 *                         breakpoint in libc, set before ld.so mapped it,
 *                         is hit again going back (fresh loaders, snapshots)
 *   snapshot_fork_refused_to_app  the snapshots' fork, made by the
 *                         application from the loader's text: refused by
 *                         the server (gdbserver), blocked (plain replay)
 *   signal_in_user_code   a signal that interrupted user code: gdb stops in
 *                         its handler, the interrupted frame at the recorded
 *                         rip; a breakpoint of gdb's there beside the
 *                         loader's int3; reverse-stepi back over it
 *   dump_point_in_user_code  a dump taken in user code: gdb stops at it
 *                         (SIGTRAP), steps back from it and comes to it
 *                         again; going on ends the replay there.  And one
 *                         taken in a read(): gdb stops at its syscall
 *                         instruction
 *   sandbox_and_binding   the loader runs in other mount and network
 *                         namespaces than the server (as a plain replay);
 *                         the default address is 127.0.0.1; a bad port is
 *                         a usage error
 *
 * FLIGHTREC=path runs another build (an older one, to see these fail).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "kselftest_harness.h"
#include "fr_test.h"
#include "libflightrec.h"

static char flightrec[PATH_MAX + 64];

/*
 * Serves FLRC with `replay --gdbserver 127.0.0.1:0` in the background and
 * runs gdb in batch mode on it with NAME.cmds (written by the caller):
 * gdb's output in NAME.gdb, the server's stderr in NAME.serr.  Returns the
 * server's exit status.
 */
static int session(const char *dir, const char *name, const char *flrc, const char *extra)
{
	return fr_sh("cd %s || exit 1; rm -rf %s.rep; "
		     "{ %s replay %s -o %s.rep --gdbserver 127.0.0.1:0 %s > %s.sout 2> %s.serr; "
		     "echo $? > %s.src; } & "
		     "for i in $(seq 600); do grep -q listening %s.serr && break; "
		     "[ -s %s.src ] && break; sleep 0.1; done; "
		     "port=$(sed -n 's/.*listening on 127.0.0.1:\\([0-9]*\\) .*/\\1/p' %s.serr); "
		     "[ -n \"$port\" ] && timeout %u gdb -q -nx -batch -ex 'set sysroot' "
		     "-ex \"target remote 127.0.0.1:$port\" -x %s.cmds > %s.gdb 2>&1; "
		     "wait; exit $(cat %s.src)",
		     dir, name, flightrec, flrc, name, extra, name, name, name, name, name, name,
		     /* the debug kernel's scale: reverse_watch took over 300 s there */
		     300 * fr_timeout_scale(), name, name, name);
}

static int write_cmds(const char *dir, const char *name, const char *cmds)
{
	char path[PATH_MAX + 128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.cmds", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(cmds, f);
	return fclose(f);
}

static void show(const char *dir, const char *name)
{
	fr_sh("cd %s && echo '--- %s.gdb' >&2 && cat %s.gdb >&2 && echo '--- %s.serr' >&2 && "
	      "cat %s.serr >&2", dir, name, name, name, name);
}

/*
 * The same gdb commands twice on FLRC: NAME1 with the gdbserver's
 * snapshots, NAME0 without (FLIGHTREC_GDBSERVER_SNAPSHOTS=0, a fresh
 * loader for every reverse command).  The lines of each gdb output that
 * start with one of `marks` (an ERE alternation) go to NAME1.p and
 * NAME0.p.  0 when both sessions exit 0, both kept the same `lines`
 * lines, and NAME1 restored snapshots.
 */
static int both_ways(const char *dir, const char *name, const char *flrc, const char *cmds,
		     const char *marks, int lines)
{
	char n1[64], n0[64];
	int r1, r0;

	snprintf(n1, sizeof(n1), "%s1", name);
	snprintf(n0, sizeof(n0), "%s0", name);
	if (write_cmds(dir, n1, cmds) || write_cmds(dir, n0, cmds))
		return -1;
	r1 = session(dir, n1, flrc, "");
	setenv("FLIGHTREC_GDBSERVER_SNAPSHOTS", "0", 1);
	r0 = session(dir, n0, flrc, "");
	unsetenv("FLIGHTREC_GDBSERVER_SNAPSHOTS");
	if (r1 || r0)
		return -1;
	return fr_sh("cd %s && grep -E '^(%s) ' %s.gdb > %s.p && grep -E '^(%s) ' %s.gdb > %s.p && "
		     "[ $(wc -l < %s.p) = %d ] && cmp %s.p %s.p && "
		     "grep -qE 'reverse execution: [1-9][0-9]* snapshots taken, [1-9][0-9]* restored' "
		     "%s.serr && grep -q 'reverse execution: 0 snapshots taken, 0 restored' %s.serr",
		     dir, marks, n1, n1, marks, n0, n0, n1, lines, n0, n1, n1, n0);
}

/* both_ways' two sessions, on stderr */
static void show_both(const char *dir, const char *name)
{
	char n[64];

	snprintf(n, sizeof(n), "%s1", name);
	show(dir, n);
	snprintf(n, sizeof(n), "%s0", name);
	show(dir, n);
}

FIXTURE(gs) {
	char dir[PATH_MAX];
};

FIXTURE_SETUP(gs)
{
	const char *only = getenv("FR_GS_ONLY");
	char word[80];

	/*
	 * FR_GS_ONLY=" NAME NAME ": only those cases.  This harness runs the
	 * body after a SKIP in the setup: back to its setjmp.
	 */
	snprintf(word, sizeof(word), " %s ", _metadata->name);
	if (only && !strstr(only, word))
		SKIP(longjmp(_metadata->env, 1), "not in FR_GS_ONLY");
	snprintf(flightrec, sizeof(flightrec), "%s", fr_flightrec());
	snprintf(self->dir, sizeof(self->dir), "/tmp/flightrec-gdbserver.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	if (access(fr_test_tool("ptsnap"), X_OK) || access(flightrec, X_OK))
		SKIP(return, "ptsnap or flightrec is not built");
	if (fr_sh("command -v gdb > /dev/null && command -v python3 > /dev/null"))
		SKIP(return, "no gdb or python3");
	/* crash_null from its marker to its SIGSEGV: cn.flrc, data.bin, cn.live */
	ASSERT_EQ(128 + 11, fr_record_crash_null(self->dir));
}

FIXTURE_TEARDOWN(gs)
{
	if (self->dir[0] && !getenv("FR_KEEP"))
		fr_sh("rm -rf %s", self->dir);
}

#define REGS "rax rbx rcx rdx rsi rdi rbp rsp r8 r9 r10 r11 r12 r13 r14 r15 rip eflags fs_base"

TEST_F_TIMEOUT(gs, attach_regs_memory, 300)
{
	ASSERT_EQ(0, write_cmds(self->dir, "a",
				"python\n"
				"for r in '" REGS "'.split():\n"
				"    print('REG %s=%#x' % (r, int(gdb.parse_and_eval('$' + r)) & (2**64 - 1)))\n"
				"sp = int(gdb.parse_and_eval('$rsp'))\n"
				"print('SP %#x' % sp)\n"
				"print('MEM ' + gdb.selected_inferior().read_memory(sp, 64).tobytes().hex())\n"
				"end\n"
				"p $ymm0\n"
				"kill\n"));
	/* gdb kills it: the replay did not end, the server says so (1) */
	EXPECT_EQ(FR_EXIT_FAIL, session(self->dir, "a", "cn.flrc", ""));
	EXPECT_TRUE(fr_file_contains(self->dir, "a.serr", "stopped at the first instruction of interval"));
	EXPECT_TRUE(fr_file_contains(self->dir, "a.serr", "gdb killed the replay before its end"));
	/* the recorded registers of the thread at the interval start */
	EXPECT_EQ(0, fr_sh("cd %s && %s info --json cn.flrc | python3 -c '"
			   "import json, sys\n"
			   "t = json.load(sys.stdin)[\"threads\"][0][\"regs\"]\n"
			   "for r in \"" REGS "\".split(): print(\"REG %%s=%%#x\" %% (r, int(t[r], 16)))"
			   "' > want.regs && grep ^REG a.gdb > got.regs && [ $(wc -l < got.regs) = 19 ] "
			   "&& diff want.regs got.regs", self->dir, flightrec));
	/* the stack as the checkpoint holds it */
	EXPECT_EQ(0, fr_sh("cd %s && sp=$(sed -n 's/^SP //p' a.gdb) && [ -n \"$sp\" ] && "
			   "%s extract cn.flrc $sp 64 --raw | od -An -v -tx1 | tr -d ' \\n' > want.mem "
			   "&& sed -n 's/^MEM //p' a.gdb | tr -d '\\n' > got.mem && [ -s got.mem ] && "
			   "cmp want.mem got.mem", self->dir, flightrec));
	/* AVX registers where the recording and this CPU have them (XCR0 bit 2) */
	if (!fr_sh("grep -qw avx /proc/cpuinfo"))
		EXPECT_TRUE(fr_file_contains(self->dir, "a.gdb", "v8_int32 = {"));
	if (!_metadata->passed)
		show(self->dir, "a");
}

TEST_F_TIMEOUT(gs, break_step_crash, 300)
{
	ASSERT_EQ(0, write_cmds(self->dir, "b",
				"break lookup\n"
				"continue\n"
				"print r->name\n"
				"stepi\n"
				"stepi\n"
				"info registers rip\n"
				"step\n"
				"step\n"
				"delete\n"
				"continue\n"
				"print $_siginfo.si_signo\n"
				"print $_siginfo._sifields._sigfault.si_addr\n"
				"bt\n"
				"continue\n"));
	/*
	 * A breakpoint at lookup stops at its first call; stepi twice, step
	 * back into main's loop; with the breakpoint gone the next stop is the
	 * crash.  Then gdb passes SIGSEGV: the loader reproduces it.
	 */
	EXPECT_EQ(0, session(self->dir, "b", "cn.flrc", ""));
	EXPECT_TRUE(fr_file_contains(self->dir, "b.gdb", "Breakpoint 1, lookup (r="));
	EXPECT_TRUE(fr_file_contains(self->dir, "b.gdb", "$1 = 0x"));
	EXPECT_TRUE(fr_file_contains(self->dir, "b.gdb", "\"entry\""));
	EXPECT_TRUE(fr_file_contains(self->dir, "b.gdb", "rip            0x"));
	EXPECT_TRUE(fr_file_contains(self->dir, "b.gdb", "main (argc=2, argv=0x"));
	EXPECT_TRUE(fr_file_contains(self->dir, "b.gdb", "total += lookup(table[i]);"));
	EXPECT_TRUE(fr_file_contains(self->dir, "b.gdb", "Program received signal SIGSEGV, Segmentation fault."));
	EXPECT_TRUE(fr_file_contains(self->dir, "b.gdb", "$2 = 11"));
	EXPECT_TRUE(fr_file_contains(self->dir, "b.gdb", "$3 = (void *) 0x8"));
	EXPECT_TRUE(fr_file_contains(self->dir, "b.gdb", "in lookup (r=0x0) at progs/crash_null.c:32"));
	EXPECT_TRUE(fr_file_contains(self->dir, "b.gdb", " in main (argc=2, "));
	EXPECT_TRUE(fr_file_contains(self->dir, "b.gdb", "exited normally]"));
	EXPECT_TRUE(fr_file_contains(self->dir, "b.serr", "reproduced SIGSEGV at rip"));
	EXPECT_EQ(0, fr_sh("cmp %s/cn.live %s/b.rep/fd1.out", self->dir, self->dir));
	if (!_metadata->passed)
		show(self->dir, "b");
}

TEST_F_TIMEOUT(gs, hw_break_and_watch, 300)
{
	char want[64];

	if (fr_debugregs_trigger() == 0)
		SKIP(return, "this machine's debug registers do not trigger (gs.hw_refused and "
			     "gs.debugregs_probe check that case)");

	ASSERT_EQ(0, write_cmds(self->dir, "w",
				"break crash_null.c:50\n"
				"continue\n"
				"watch -l buf[0]\n"
				"continue\n"
				"bt 1\n"
				"frame function main\n"
				"printf \"BYTE0 %02x\\n\", buf[0]\n"
				"continue\n"
				"frame function main\n"
				"printf \"BYTE1 %02x\\n\", buf[0]\n"
				"delete\n"
				"hbreak lookup\n"
				"continue\n"
				"delete\n"
				"continue\n"
				"continue\n"));
	EXPECT_EQ(0, session(self->dir, "w", "cn.flrc", ""));
	EXPECT_TRUE(fr_file_contains(self->dir, "w.gdb", "Hardware watchpoint 2: -location buf[0]"));
	EXPECT_TRUE(fr_file_contains(self->dir, "w.gdb", "New value = "));
	/* the stop is after the read() that filled it: in read's wrapper */
	EXPECT_TRUE(fr_file_contains(self->dir, "w.gdb", "in __GI___libc_read (fd=3") ||
		    fr_file_contains(self->dir, "w.gdb", "in read ("));
	/* the file's first byte, then the first byte of its second 4096 */
	ASSERT_EQ(0, fr_sh("cd %s && printf 'BYTE0 %%s\\n' $(od -An -tx1 -N1 data.bin | tr -d ' ') "
			   "> byte0 && printf 'BYTE1 %%s\\n' $(od -An -tx1 -j4096 -N1 data.bin | "
			   "tr -d ' ') > byte1", self->dir));
	EXPECT_EQ(0, fr_sh("cd %s && grep -qF \"$(cat byte0)\" w.gdb && grep -qF \"$(cat byte1)\" "
			   "w.gdb", self->dir));
	snprintf(want, sizeof(want), "Hardware assisted breakpoint 3 at 0x");
	EXPECT_TRUE(fr_file_contains(self->dir, "w.gdb", want));
	EXPECT_TRUE(fr_file_contains(self->dir, "w.gdb", "Breakpoint 3, lookup (r="));
	EXPECT_TRUE(fr_file_contains(self->dir, "w.gdb", "Program received signal SIGSEGV"));
	EXPECT_TRUE(fr_file_contains(self->dir, "w.serr", "reproduced SIGSEGV at rip"));
	if (!_metadata->passed)
		show(self->dir, "w");
}

/*
 * A snapshot at every event (FLIGHTREC_GDBSERVER_SNAP_GAP_MS=0): the fork
 * of each shares the two stack pages read() fills, and the loader's copy of
 * the file's bytes takes a copy-on-write fault on the second after it
 * wrote the watched byte on the first.  Every read must still stop, each
 * with its own block's first byte (0x40 + block).  Before the loader
 * touched the pages of its copies first (touch_pages), QEMU's emulation
 * lost every one of these stops: gdb ran on to the crash.
 */
TEST_F_TIMEOUT(gs, watch_after_each_snapshot, 300)
{
	if (fr_debugregs_trigger() == 0)
		SKIP(return, "this machine's debug registers do not trigger");

	ASSERT_EQ(0, write_cmds(self->dir, "ws",
				"break crash_null.c:50\n"
				"continue\n"
				"watch -l buf[0]\n"
				"continue\n"
				"frame function main\n"
				"printf \"BYTE %02x\\n\", buf[0]\n"
				"continue\n"
				"frame function main\n"
				"printf \"BYTE %02x\\n\", buf[0]\n"
				"continue\n"
				"frame function main\n"
				"printf \"BYTE %02x\\n\", buf[0]\n"
				"delete\n"
				"continue\n"
				"continue\n"));
	setenv("FLIGHTREC_GDBSERVER_SNAP_GAP_MS", "0", 1);
	setenv("FLIGHTREC_GDBSERVER_DEBUG", "1", 1);
	EXPECT_EQ(0, session(self->dir, "ws", "cn.flrc", ""));
	unsetenv("FLIGHTREC_GDBSERVER_DEBUG");
	unsetenv("FLIGHTREC_GDBSERVER_SNAP_GAP_MS");
	/* the first bytes of the file's first three 4096-byte blocks, in order */
	EXPECT_EQ(0, fr_sh("cd %s && for b in 0 1 2; do printf 'BYTE %%s\\n' "
			   "$(od -An -tx1 -j$((b * 4096)) -N1 data.bin | tr -d ' '); done > ws.want && "
			   "grep '^BYTE ' ws.gdb | cmp - ws.want", self->dir));
	/* a snapshot at each read, not only at the start */
	EXPECT_EQ(0, fr_sh("cd %s && [ $(grep -c 'debug: snapshot at event' ws.serr) -ge 4 ]",
			   self->dir));
	EXPECT_TRUE(fr_file_contains(self->dir, "ws.serr", "reproduced SIGSEGV at rip"));
	/* a spacing that is not a number of milliseconds: a usage error */
	EXPECT_EQ(FR_EXIT_USAGE, fr_sh("cd %s && FLIGHTREC_GDBSERVER_SNAP_GAP_MS=5x %s replay "
				       "cn.flrc -o wx.rep --gdbserver 127.0.0.1:0 > wx.out 2> wx.err",
				       self->dir, flightrec));
	EXPECT_TRUE(fr_file_contains(self->dir, "wx.err",
				     "FLIGHTREC_GDBSERVER_SNAP_GAP_MS=5x: not a number of milliseconds"));
	if (!_metadata->passed)
		show(self->dir, "ws");
}

TEST_F_TIMEOUT(gs, threads_recorded_tids, 300)
{
	ASSERT_EQ(139, fr_sh("cd %s && %s --marker -q -o th.flrc -- %s > th.live 2>&1",
			     self->dir, fr_test_tool("ptsnap"), fr_prog("threads_join")));
	ASSERT_EQ(0, write_cmds(self->dir, "t",
				"info threads\n"
				"break work\n"
				"continue\n"
				"info threads\n"
				"continue\n"
				"info threads\n"
				"continue\n"
				"info threads\n"
				"delete\n"
				"continue\n"
				"info threads\n"
				"continue\n"));
	EXPECT_EQ(0, session(self->dir, "t", "th.flrc", ""));
	EXPECT_TRUE(fr_file_contains(self->dir, "t.gdb", "received signal SIGSEGV"));
	EXPECT_TRUE(fr_file_contains(self->dir, "t.gdb", " hit Breakpoint 1, work (arg="));
	/* every recorded tid, as PID.TID of the recorded process */
	EXPECT_EQ(0, fr_sh("cd %s && %s info --json th.flrc | python3 -c '"
			   "import json, sys\n"
			   "d = json.load(sys.stdin)\n"
			   "p = d[\"process\"][\"pid\"]\n"
			   "for t in sorted(d[\"tids\"]): print(\"Thread %%d.%%d\" %% (p, t))' > want.tids && "
			   "[ $(wc -l < want.tids) -ge 3 ] && "
			   "for t in $(sed 's/ /_/' want.tids); do t=$(echo $t | tr _ ' '); "
			   "grep -qE \"(\\[New $t\\]|$t )\" t.gdb || { echo missing $t; exit 1; }; done", self->dir, flightrec));
	/* and the loader's real tids nowhere */
	EXPECT_FALSE(fr_file_contains(self->dir, "t.gdb", "LWP"));
	if (!_metadata->passed)
		show(self->dir, "t");
}

TEST_F_TIMEOUT(gs, errno_with_symbols, 300)
{
	/* crash_null on a missing file: perror(), exit 1 */
	ASSERT_EQ(1, fr_sh("cd %s && %s --marker -q -o en.flrc -- %s missing > en.live 2>&1",
			   self->dir, fr_test_tool("ptsnap"), fr_prog("crash_null")));
	ASSERT_EQ(0, write_cmds(self->dir, "e",
				"print errno\n"
				"break perror\n"
				"continue\n"
				"print errno\n"
				"info sharedlibrary\n"
				"delete\n"
				"continue\n"));
	EXPECT_EQ(0, session(self->dir, "e", "en.flrc", ""));
	EXPECT_TRUE(fr_file_contains(self->dir, "e.gdb", "$1 = 0"));
	EXPECT_TRUE(fr_file_contains(self->dir, "e.gdb", "$2 = 2"));
	EXPECT_TRUE(fr_file_contains(self->dir, "e.gdb", "libc.so"));
	EXPECT_FALSE(fr_file_contains(self->dir, "e.gdb", "Cannot find thread-local"));
	/* W is the replay's status: 0, the recorded exit (status 1) happened again */
	EXPECT_TRUE(fr_file_contains(self->dir, "e.gdb", "exited normally]"));
	EXPECT_TRUE(fr_file_contains(self->dir, "e.serr", "exited with status 1 (thread "));
	EXPECT_TRUE(fr_file_contains(self->dir, "e.serr", "as recorded"));
	if (!_metadata->passed)
		show(self->dir, "e");
}


/* issue 27 item 2: reverse execution by re-executing from the start */
TEST_F_TIMEOUT(gs, reverse_stepi_continue, 600)
{
	ASSERT_EQ(0, write_cmds(self->dir, "r",
				"break lookup\n"
				"continue\n"
				"printf \"FIRST %lx\\n\", r\n"
				"continue\n"
				"printf \"SECOND %lx\\n\", r\n"
				"printf \"BP %lx\\n\", $pc\n"
				"stepi\n"
				"printf \"STEPPED %lx\\n\", $pc\n"
				"reverse-stepi\n"
				"printf \"BACK1 %lx\\n\", $pc\n"
				"reverse-stepi\n"
				"printf \"BACK2 %lx\\n\", $pc\n"
				"reverse-stepi\n"
				"printf \"BACK3 %lx\\n\", $pc\n"
				"stepi\n"
				"printf \"FWD3 %lx\\n\", $pc\n"
				"stepi\n"
				"printf \"FWD %lx\\n\", $pc\n"
				"reverse-continue\n"
				"printf \"RC %lx\\n\", r\n"
				"reverse-continue\n"
				"printf \"START %lx\\n\", $pc\n"
				"continue\n"
				"printf \"AGAIN %lx\\n\", r\n"
				"delete\n"
				"continue\n"
				"continue\n"));
	EXPECT_EQ(0, session(self->dir, "r", "cn.flrc", ""));
	/* the steps: back over the breakpoint's instruction, then one before it, and forward */
	EXPECT_EQ(0, fr_sh("cd %s && bp=$(sed -n 's/^BP //p' r.gdb) && [ -n \"$bp\" ] && "
			   "[ \"$(sed -n 's/^BACK1 //p' r.gdb)\" = $bp ] && "
			   "[ \"$(sed -n 's/^STEPPED //p' r.gdb)\" != $bp ] && "
			   "[ \"$(sed -n 's/^FWD //p' r.gdb)\" = $bp ] && "
			   "b2=$(sed -n 's/^BACK2 //p' r.gdb) && [ -n \"$b2\" ] && [ $b2 != $bp ] && "
			   "[ $((0x$b2 < 0x$bp)) = 1 ] && "
			   /* a third step back (the steps counted before: one start-over) */
			   "b3=$(sed -n 's/^BACK3 //p' r.gdb) && [ -n \"$b3\" ] && [ $b3 != $b2 ] && "
			   "[ \"$(sed -n 's/^FWD3 //p' r.gdb)\" = $b2 ]", self->dir));
	/* reverse-continue: the first call's breakpoint hit, then the beginning */
	EXPECT_EQ(0, fr_sh("cd %s && f=$(sed -n 's/^FIRST //p' r.gdb) && [ -n \"$f\" ] && "
			   "[ \"$(sed -n 's/^SECOND //p' r.gdb)\" != $f ] && "
			   "[ \"$(sed -n 's/^RC //p' r.gdb)\" = $f ] && "
			   "[ \"$(sed -n 's/^AGAIN //p' r.gdb)\" = $f ]", self->dir));
	EXPECT_TRUE(fr_file_contains(self->dir, "r.gdb", "No more reverse-execution history."));
	/* the beginning is the first instruction: the checkpoint's rip */
	EXPECT_EQ(0, fr_sh("cd %s && %s info --json cn.flrc | python3 -c '"
			   "import json, sys\n"
			   "print(\"START %%x\" %% int(json.load(sys.stdin)[\"threads\"][0][\"regs\"][\"rip\"], 16))"
			   "' > want.start && grep -qxF \"$(cat want.start)\" r.gdb", self->dir, flightrec));
	EXPECT_TRUE(fr_file_contains(self->dir, "r.gdb", "Program received signal SIGSEGV"));
	EXPECT_TRUE(fr_file_contains(self->dir, "r.gdb", "exited normally]"));
	EXPECT_TRUE(fr_file_contains(self->dir, "r.serr", "reproduced SIGSEGV at rip"));
	EXPECT_EQ(0, fr_sh("cmp %s/cn.live %s/r.rep/fd1.out", self->dir, self->dir));
	/* going back went through snapshots (forks of the replay), not only start-overs */
	EXPECT_EQ(0, fr_sh("grep -qE 'reverse execution: [1-9][0-9]* snapshots taken, "
			   "[1-9][0-9]* restored' %s/r.serr", self->dir));
	if (!_metadata->passed)
		show(self->dir, "r");
}

/*
 * The same commands with snapshots and without (every reverse command
 * starts over from the first instruction): the same points, the same
 * output.
 */
TEST_F_TIMEOUT(gs, reverse_snapshots_same_points, 600)
{
	static const char cmds[] =
		"break lookup\n"
		"break fnv\n"
		"continue\n"
		"continue\n"
		"continue\n"
		"printf \"AT %lx %lx\\n\", $pc, $rsp\n"
		"stepi 698\n"
		"printf \"X698 %lx %lx %lx\\n\", $pc, $rsp, $rax\n"
		"stepi\n"
		"printf \"X699 %lx %lx %lx\\n\", $pc, $rsp, $rax\n"
		"stepi\n"
		"printf \"S700 %lx %lx %lx\\n\", $pc, $rsp, $rax\n"
		"reverse-stepi\n"
		"printf \"B1 %lx %lx %lx\\n\", $pc, $rsp, $rax\n"
		"reverse-stepi\n"
		"printf \"B2 %lx %lx %lx\\n\", $pc, $rsp, $rax\n"
		"reverse-continue\n"
		"printf \"RC1 %lx %lx %lx %lx\\n\", $pc, $rsp, $rax, *(long *)($rsp + 8)\n"
		"reverse-continue\n"
		"printf \"RC2 %lx %lx %lx %lx\\n\", $pc, $rsp, $rax, *(long *)($rsp + 8)\n"
		"reverse-finish\n"
		"printf \"RF %lx %lx\\n\", $pc, $rsp\n"
		"stepi\n"
		"printf \"F1 %lx %lx\\n\", $pc, $rsp\n"
		"continue\n"
		"printf \"C1 %lx %lx %lx\\n\", $pc, $rsp, $rax\n"
		"delete\n"
		"continue\n"
		"continue\n";

	EXPECT_EQ(0, both_ways(self->dir, "s", "cn.flrc", cmds,
			       "AT|X698|X699|S700|B1|B2|RC1|RC2|RF|F1|C1", 11));
	/*
	 * 700 steps into fnv's loop (its segment began at the read before):
	 * back one instruction is where step 699 was, back two where 698 was
	 * (the point is found from the arrival at its rip one pass before)
	 */
	EXPECT_EQ(0, fr_sh("cd %s && [ \"$(sed -n 's/^B1 //p' s1.gdb)\" = \"$(sed -n 's/^X699 //p' s1.gdb)\" ] && "
			   "[ \"$(sed -n 's/^B2 //p' s1.gdb)\" = \"$(sed -n 's/^X698 //p' s1.gdb)\" ] && "
			   "[ \"$(sed -n 's/^B1 //p' s1.gdb)\" != \"$(sed -n 's/^B2 //p' s1.gdb)\" ]",
			   self->dir));
	/* 700 steps into a segment: the second reverse-stepi starts from a step snapshot */
	EXPECT_EQ(0, fr_sh("grep -qE 'reverse execution: [1-9][0-9]* snapshots taken, "
			   "[1-9][0-9]* restored .*, [1-9][0-9]* inside a segment' %s/s1.serr",
			   self->dir));
	EXPECT_TRUE(fr_file_contains(self->dir, "s1.gdb", "Program received signal SIGSEGV"));
	EXPECT_EQ(0, fr_sh("cmp %s/cn.live %s/s1.rep/fd1.out", self->dir, self->dir));
	if (!_metadata->passed)
		show_both(self->dir, "s");
}

/*
 * Threads created after the snapshots were taken (they are taken only
 * while the replay has one thread): reverse-continue and reverse-stepi in
 * a thread restore a snapshot from before the threads, which are created
 * again; the same points with fresh loaders.
 */
TEST_F_TIMEOUT(gs, reverse_threads, 600)
{
	static const char cmds[] =
		"break work\n"
		"continue\n"
		"printf \"H1 %lx %lx\\n\", $pc, $rdi\n"
		"continue\n"
		"printf \"H2 %lx %lx\\n\", $pc, $rdi\n"
		"continue\n"
		"printf \"H3 %lx %lx\\n\", $pc, $rdi\n"
		"reverse-continue\n"
		"printf \"RC %lx %lx\\n\", $pc, $rdi\n"
		"reverse-stepi\n"
		"printf \"RS %lx %lx %lx\\n\", $pc, $rsp, $rdi\n"
		"continue\n"
		"printf \"F %lx %lx\\n\", $pc, $rdi\n"
		"delete\n"
		"continue\n"
		"continue\n";

	/*
	 * ptsnap numbers the threads' calls in the order it collects them,
	 * which a loaded machine can make one replay cannot follow (DIVERGED
	 * at the main thread's join, "race: ..."): a recording that a plain
	 * replay reproduces, in five tries at most.
	 */
	ASSERT_EQ(0, fr_sh("cd %s && for i in 1 2 3 4 5; do "
			   "%s --marker -q -o th.flrc -- %s > th.live 2>&1; [ $? = 139 ] || continue; "
			   "rm -rf thp.rep; %s replay th.flrc -o thp.rep > /dev/null 2>&1 && exit 0; "
			   "done; exit 1", self->dir, fr_test_tool("ptsnap"), fr_prog("threads_join"),
			   flightrec));
	EXPECT_EQ(0, both_ways(self->dir, "h", "th.flrc", cmds, "H1|H2|H3|RC|RS|F", 6));
	/* the three threads' work(0), work(1), work(2); back to work(1), and on to it again */
	EXPECT_EQ(0, fr_sh("cd %s && [ \"$(sed -n 's/^H1 .* //p' h1.p)\" = 0 ] && "
			   "[ \"$(sed -n 's/^RC //p' h1.p)\" = \"$(sed -n 's/^H2 //p' h1.p)\" ] && "
			   "[ \"$(sed -n 's/^F //p' h1.p)\" = \"$(sed -n 's/^H2 //p' h1.p)\" ]",
			   self->dir));
	EXPECT_TRUE(fr_file_contains(self->dir, "h1.gdb", "received signal SIGSEGV"));
	if (!_metadata->passed)
		show_both(self->dir, "h");
}

/*
 * A checkpoint from exec: going back to before ld.so mapped libc, a
 * breakpoint in libc cannot go in at once; it goes in when its page is
 * mapped, so reverse-continue from the second read() stops at the first,
 * with fresh loaders (snapshots off) and with snapshots alike.
 */
TEST_F_TIMEOUT(gs, reverse_library_breakpoint_from_exec, 600)
{
	static const char cmds[] =
		"set breakpoint pending on\n"
		"break read\n"
		"continue\n"
		"printf \"R1 %lx %lx %lx %lx\\n\", $pc, $rsp, $rsi, *(long *)$rsi\n"
		"continue\n"
		"printf \"R2 %lx %lx %lx %lx\\n\", $pc, $rsp, $rsi, *(long *)$rsi\n"
		"reverse-continue\n"
		"printf \"RC %lx %lx %lx %lx\\n\", $pc, $rsp, $rsi, *(long *)$rsi\n"
		"continue\n"
		"printf \"AGAIN %lx %lx %lx %lx\\n\", $pc, $rsp, $rsi, *(long *)$rsi\n"
		"delete\n"
		"continue\n"
		"continue\n";
	const char *m[] = { "0", "1" };
	int i;

	ASSERT_EQ(128 + 11, fr_sh("cd %s && %s --skip 0 -q -o %s/ex.flrc -- %s data.bin "
				  "> ex.live 2> ex.liveerr", self->dir, fr_test_tool("ptsnap"),
				  self->dir, fr_prog("crash_null")));
	for (i = 0; i < 2; i++) {
		char name[8];

		snprintf(name, sizeof(name), "x%s", m[i]);
		ASSERT_EQ(0, write_cmds(self->dir, name, cmds));
		setenv("FLIGHTREC_GDBSERVER_SNAPSHOTS", m[i], 1);
		EXPECT_EQ(0, session(self->dir, name, "ex.flrc", ""));
		unsetenv("FLIGHTREC_GDBSERVER_SNAPSHOTS");
		/* back from the second read to the first, and forward to the second again */
		EXPECT_EQ(0, fr_sh("cd %s && r1=$(sed -n 's/^R1 //p' %s.gdb) && [ -n \"$r1\" ] && "
				   "r2=$(sed -n 's/^R2 //p' %s.gdb) && [ \"$r2\" != \"$r1\" ] && "
				   "[ \"$(sed -n 's/^RC //p' %s.gdb)\" = \"$r1\" ] && "
				   "[ \"$(sed -n 's/^AGAIN //p' %s.gdb)\" = \"$r2\" ]",
				   self->dir, name, name, name, name));
		EXPECT_FALSE(fr_file_contains(self->dir, m[i][0] == '0' ? "x0.gdb" : "x1.gdb",
					      "No more reverse-execution history"));
		EXPECT_EQ(0, fr_sh("cmp %s/ex.live %s/%s.rep/fd1.out", self->dir, self->dir, name));
		if (!_metadata->passed)
			show(self->dir, name);
	}
	EXPECT_TRUE(fr_file_contains(self->dir, "x0.serr", "0 snapshots taken"));
}

/*
 * The snapshots' fork is refused to the application: code that jumps to a
 * `syscall` in the loader's text with clone(CLONE_PARENT | SIGCHLD) in its
 * registers.  Under the gdbserver the filter hands it to the server, which
 * refuses it; in a plain replay the filter blocks it.
 */
TEST_F_TIMEOUT(gs, snapshot_fork_refused_to_app, 300)
{
	ASSERT_EQ(0, fr_sh("cd %s && %s jump-fork - cn.flrc jf.flrc", self->dir,
			   fr_test_tool("craft_replay")));
	ASSERT_EQ(0, write_cmds(self->dir, "j", "continue\nkill\n"));
	setenv("FLIGHTREC_GDBSERVER_DEBUG", "1", 1);
	session(self->dir, "j", "jf.flrc", "");
	unsetenv("FLIGHTREC_GDBSERVER_DEBUG");
	EXPECT_TRUE(fr_file_contains(self->dir, "j.serr", ": system call 56 refused"));
	/* the one snapshot is the server's own, at the first instruction */
	EXPECT_EQ(0, fr_sh("[ $(grep -c 'snapshot at event' %s/j.serr) = 1 ] && "
			   "grep -q 'snapshot at event 0:' %s/j.serr", self->dir, self->dir));
	EXPECT_EQ(FR_EXIT_BLOCKED, fr_sh("cd %s && %s replay jf.flrc --out jp.rep > jp.out 2> jp.err",
					 self->dir, flightrec));
	EXPECT_TRUE(fr_file_contains(self->dir, "jp.err", "blocked system call clone (56) at rip 0x2f"));
	if (!_metadata->passed)
		show(self->dir, "j");
}

/*
 * fr_debugregs_trigger() against gdb's own hardware watchpoint on a native
 * program (progs/hw_watch): both stop at its first write, or neither does.
 * On a machine where they do not (a PVM guest), the two tests above skip
 * and hw_refused below is what holds.
 */
TEST_F_TIMEOUT(gs, debugregs_probe, 300)
{
	int probe = fr_debugregs_trigger(), native;

	ASSERT_LE(0, probe) TH_LOG("the probe could not tell: %s", strerror(errno));
	ASSERT_EQ(0, fr_sh("cd %s && timeout 120 gdb -q -nx -batch -ex 'break main' -ex run "
			   "-ex 'watch word' -ex continue %s > n.gdb 2>&1", self->dir,
			   fr_prog("hw_watch")));
	ASSERT_TRUE(fr_file_contains(self->dir, "n.gdb", "Hardware watchpoint 2: word"))
		fr_sh("cat %s/n.gdb >&2", self->dir);
	native = fr_file_contains(self->dir, "n.gdb", "New value = 7");
	/* not stopped: it ran to its end */
	if (!native)
		EXPECT_TRUE(fr_file_contains(self->dir, "n.gdb", "exited normally"));
	EXPECT_EQ(native, probe) fr_sh("cat %s/n.gdb >&2", self->dir);
	TH_LOG("this machine's debug registers %s", probe ? "trigger" : "do not trigger");
}

/* a gdb command whose error is printed, not the end of the script */
#define TRY(cmd) "python\ntry:\n    gdb.execute(\"" cmd "\")\n" \
	"except gdb.error as e:\n    print(\"ERROR:\", e)\nend\n"

/*
 * Where the debug registers do not trigger (forced here with
 * FLIGHTREC_GDBSERVER_DREGS=0, so it runs on every machine), a hardware
 * watchpoint or breakpoint is refused, gdb says so, the server says why
 * once; gdb's software watchpoint (single steps over the gdbserver) and
 * plain breakpoints still work, and the replay reaches its crash.
 */
TEST_F_TIMEOUT(gs, hw_refused, 600)
{
	ASSERT_EQ(0, write_cmds(self->dir, "h",
				"break crash_null.c:50\n"
				"continue\n"
				"watch -l buf[0]\n"
				TRY("continue")
				"delete 2\n"
				"hbreak lookup\n"
				TRY("continue")
				"delete 3\n"
				"set can-use-hw-watchpoints 0\n"
				"watch -l buf[0]\n"
				"continue\n"
				"bt 1\n"
				"delete\n"
				"continue\n"
				"continue\n"));
	setenv("FLIGHTREC_GDBSERVER_DREGS", "0", 1);
	EXPECT_EQ(0, session(self->dir, "h", "cn.flrc", ""));
	unsetenv("FLIGHTREC_GDBSERVER_DREGS");
	EXPECT_TRUE(fr_file_contains(self->dir, "h.gdb", "Could not insert hardware watchpoint 2."));
	EXPECT_TRUE(fr_file_contains(self->dir, "h.gdb", "Cannot insert hardware breakpoint 3."));
	EXPECT_EQ(0, fr_sh("[ $(grep -c 'debug registers do not trigger' %s/h.serr) = 1 ]",
			   self->dir));
	EXPECT_TRUE(fr_file_contains(self->dir, "h.serr",
				     "hardware watchpoint refused: this machine's debug registers "
				     "do not trigger"));
	/*
	 * The software watchpoint stops where the hardware one does: after
	 * the read() that filled buf with the file's first byte, in read's
	 * wrapper.
	 */
	EXPECT_TRUE(fr_file_contains(self->dir, "h.gdb", "Watchpoint 4: -location buf[0]"));
	EXPECT_EQ(0, fr_sh("cd %s && grep -qF \"$(printf 'New value = %%d ' "
			   "$(od -An -tu1 -N1 data.bin))\" h.gdb", self->dir));
	EXPECT_TRUE(fr_file_contains(self->dir, "h.gdb", "in __GI___libc_read (fd=3") ||
		    fr_file_contains(self->dir, "h.gdb", "in read ("));
	EXPECT_TRUE(fr_file_contains(self->dir, "h.gdb", "Program received signal SIGSEGV"));
	EXPECT_TRUE(fr_file_contains(self->dir, "h.serr", "reproduced SIGSEGV at rip"));
	if (!_metadata->passed)
		show(self->dir, "h");
}

TEST_F_TIMEOUT(gs, reverse_watch, 600)
{

	if (fr_debugregs_trigger() == 0)
		SKIP(return, "this machine's debug registers do not trigger (gs.hw_refused and "
			     "gs.debugregs_probe check that case)");
	ASSERT_EQ(0, write_cmds(self->dir, "v",
				"break crash_null.c:55\n"
				"continue\n"
				"continue\n"
				"delete\n"
				"watch -l buf[0]\n"
				"reverse-continue\n"
				"bt 1\n"
				"delete\n"
				"continue\n"
				"continue\n"));
	EXPECT_EQ(0, session(self->dir, "v", "cn.flrc", ""));
	/* at the second block: back to before the read() that brought it */
	ASSERT_EQ(0, fr_sh("cd %s && printf 'Old value = %%d ' $(od -An -tu1 -j4096 -N1 data.bin) > old "
			   "&& printf 'New value = %%d ' $(od -An -tu1 -N1 data.bin) > new", self->dir));
	EXPECT_EQ(0, fr_sh("cd %s && grep -qF \"$(cat old)\" v.gdb && grep -qF \"$(cat new)\" v.gdb",
			   self->dir));
	EXPECT_TRUE(fr_file_contains(self->dir, "v.gdb", "in __GI___libc_read (fd=3") ||
		    fr_file_contains(self->dir, "v.gdb", "in read ("));
	EXPECT_TRUE(fr_file_contains(self->dir, "v.gdb", "Program received signal SIGSEGV"));
	EXPECT_TRUE(fr_file_contains(self->dir, "v.serr", "reproduced SIGSEGV at rip"));
	if (!_metadata->passed)
		show(self->dir, "v");
}

TEST_F_TIMEOUT(gs, reverse_finish_next, 600)
{
	ASSERT_EQ(0, write_cmds(self->dir, "f",
				"break fnv\n"
				"continue\n"
				"continue\n"
				"delete\n"
				"reverse-finish\n"
				"reverse-next\n"
				"reverse-next\n"
				"continue\n"
				"continue\n"));
	EXPECT_EQ(0, session(self->dir, "f", "cn.flrc", ""));
	/* out of fnv, into main in the middle of line 55 (the call's return address) */
	EXPECT_TRUE(fr_file_contains(self->dir, "f.gdb", " in main (argc=2, argv=0x"));
	EXPECT_TRUE(fr_file_contains(self->dir, "f.gdb", "progs/crash_null.c:55\n"));
	EXPECT_TRUE(fr_file_contains(self->dir, "f.gdb", "h = fnv(buf, (size_t)n, h);"));
	/* reverse-next: to the start of line 55, then back over the read() of line 54 */
	EXPECT_TRUE(fr_file_contains(self->dir, "f.gdb", "while ((n = read(fd, buf, sizeof(buf))) > 0) {"));
	EXPECT_TRUE(fr_file_contains(self->dir, "f.gdb", "Program received signal SIGSEGV"));
	if (!_metadata->passed)
		show(self->dir, "f");
}

/*
 * tests/progs/async_signals spin, recorded: its last SIGALRM interrupted
 * the loop in user code (an IN_USER signal record; the handler sees
 * `looping` set and `in_call` clear and stops the loop).  Those before it
 * came at the return of setitimer or of the loop's getppid, or in user code
 * around that getppid (ptsnap's stops make most land there), and the loop
 * went on.  DIR/su.flrc, its output DIR/su.live, and DIR/su.rip the last
 * one's rip.  0 when it was in user code (three tries).
 */
static int record_signal_in_user(const char *dir)
{
	int tries;

	for (tries = 0; tries < 3; tries++)
		if (!fr_sh("cd %s && %s --skip 1 -q -o su.flrc -- %s/progs/async_signals spin 150 "
			   "> su.live 2> su.liveerr && %s log su.flrc > su.log && "
			   "grep '<signal SIGALRM' su.log | tail -n 1 | sed -n "
			   "'s/.*<signal SIGALRM code 128 in user code at rip \\(0x[0-9a-f]*\\)>.*/\\1/p' "
			   "> su.rip && [ -s su.rip ]", dir, fr_test_tool("ptsnap"),
			   fr_bin_dir(), flightrec))
			return 0;
	return -1;
}

/*
 * A signal that interrupted user code is delivered by replay where the
 * thread reaches the recorded registers at the recorded rip: an int3 of
 * the loader's there, its SIGTRAPs passed on by the server (until s71 the
 * replay diverged under gdb: "replay under gdb cannot place it").  A
 * breakpoint of gdb's at that rip, with the loader's int3 there, shows the
 * application's byte and steps on (past it, or into the handler where that
 * pass is the one the signal interrupted: how soon the timer fired decides);
 * gdb stops in the handler with the interrupted frame at that rip;
 * reverse-stepi from the handler goes back to the interrupted instruction
 * and the one before it, and stepi forward again into the handler.
 */
TEST_F_TIMEOUT(gs, signal_in_user_code, 600)
{
	char cmds[2048], *rip;
	size_t len;

	ASSERT_EQ(0, record_signal_in_user(self->dir));
	rip = fr_slurp(self->dir, "su.rip", &len);
	ASSERT_NE(NULL, rip);
	rip[strcspn(rip, "\n")] = 0;
	snprintf(cmds, sizeof(cmds),
		 "break *%s\n"
		 "continue\n"
		 "printf \"AT %%#lx\\n\", $pc\n"
		 "printf \"BYTE %%02x\\n\", *(unsigned char *)%s\n"
		 "stepi\n"
		 "printf \"STEP1 %%#lx\\n\", $pc\n"
		 "delete\n"
		 "continue\n", rip, rip);
	ASSERT_EQ(0, write_cmds(self->dir, "su1", cmds));
	EXPECT_EQ(0, session(self->dir, "su1", "su.flrc", ""));
	/* that stepi goes on past it, or into the handler where this pass is the signal's */
	EXPECT_EQ(0, fr_sh("cd %s && grep -qx \"AT $(cat su.rip)\" su1.gdb && "
			   "! grep -qx \"STEP1 $(cat su.rip)\" su1.gdb && grep -q '^STEP1 0x' su1.gdb && "
			   "grep -qx \"BYTE $(%s extract su.flrc $(cat su.rip) 1 --raw | od -An -tx1 | "
			   "tr -d ' ')\" su1.gdb", self->dir, flightrec));
	EXPECT_FALSE(fr_file_contains(self->dir, "su1.gdb", "BYTE cc"));
	EXPECT_TRUE(fr_file_contains(self->dir, "su1.gdb", "exited normally]"));
	EXPECT_TRUE(fr_file_contains(self->dir, "su1.serr", "exited with status 0"));
	EXPECT_FALSE(fr_file_contains(self->dir, "su1.serr", "DIVERGED"));
	/* the loader's int3 went to the loader: the server counts what it passed on */
	EXPECT_EQ(0, fr_sh("grep -qE \"the loader's own traps passed on: [1-9][0-9]* \" %s/su1.serr",
			   self->dir));
	EXPECT_EQ(0, fr_sh("cmp %s/su.live %s/su1.rep/fd1.out", self->dir, self->dir));
	if (!_metadata->passed)
		show(self->dir, "su1");

	ASSERT_EQ(0, write_cmds(self->dir, "su2",
				"break on_alarm if looping && !in_call\n"
				"continue\n"
				"printf \"HANDLER %#lx\\n\", $pc\n"
				"printf \"SIGARG %d\\n\", sig\n"
				"frame 2\n"
				"printf \"INTERRUPTED %#lx\\n\", $pc\n"
				"frame 0\n"
				"reverse-stepi\n"
				"printf \"BACK1 %#lx\\n\", $pc\n"
				"reverse-stepi\n"
				"printf \"BACK2 %#lx\\n\", $pc\n"
				"stepi\n"
				"printf \"FWD1 %#lx\\n\", $pc\n"
				"stepi\n"
				"printf \"FWD2 %#lx\\n\", $pc\n"
				"continue\n"));
	EXPECT_EQ(0, session(self->dir, "su2", "su.flrc", ""));
	EXPECT_TRUE(fr_file_contains(self->dir, "su2.gdb", "SIGARG 14"));
	EXPECT_EQ(0, fr_sh("cd %s && grep -qx \"INTERRUPTED $(cat su.rip)\" su2.gdb && "
			   "grep -qx \"BACK1 $(cat su.rip)\" su2.gdb && "
			   "grep -qx \"FWD1 $(cat su.rip)\" su2.gdb && h=$(sed -n 's/^HANDLER //p' su2.gdb) "
			   "&& [ -n \"$h\" ] && grep -qx \"FWD2 $h\" su2.gdb && "
			   "b2=$(sed -n 's/^BACK2 //p' su2.gdb) && [ -n \"$b2\" ] && "
			   "[ \"$b2\" != $(cat su.rip) ] && [ \"$b2\" != \"$h\" ]", self->dir));
	EXPECT_TRUE(fr_file_contains(self->dir, "su2.gdb", "exited normally]"));
	EXPECT_TRUE(fr_file_contains(self->dir, "su2.serr", "exited with status 0"));
	free(rip);
	if (!_metadata->passed)
		show(self->dir, "su2");
}

/*
 * PROG (with its arguments) recorded by ptsnap from its marker to a dump
 * (HOW: --dump-after N or --dump-in-user MS): DIR/NAME.flrc, its output
 * DIR/NAME.live, and in DIR/NAME.rip the End's rip less `back`.  0 or not.
 */
static int record_dump(const char *dir, const char *name, const char *how, const char *prog,
		       int back)
{
	return fr_sh("cd %s && %s -q --marker %s -o %s.flrc -- %s > %s.live 2> %s.liveerr && "
		     "%s info --json %s.flrc | python3 -c 'import json, sys\n"
		     "e = json.load(sys.stdin)[\"end\"]\n"
		     "assert e[\"kind\"] == \"dump\"\n"
		     "print(\"%%#x\" %% (int(e[\"regs\"][\"rip\"], 16) - %d))' > %s.rip",
		     dir, fr_test_tool("ptsnap"), how, name, prog, name, name, flightrec, name,
		     back, name);
}

/*
 * A dump taken while the program ran its own code (End DUMP with the
 * registers there: ptsnap --dump-in-user, in a loop that makes no
 * syscall).  Plain replay ends at that instruction; under gdb the replay
 * stops there (SIGTRAP), gdb can step back from it and run to it again,
 * and the replay ends when gdb goes on (until s71 the replay ran on past
 * it under gdb, in this loop forever).
 */
TEST_F_TIMEOUT(gs, dump_point_in_user_code, 300)
{
	char prog[PATH_MAX + 32];

	snprintf(prog, sizeof(prog), "%s/progs/async_signals hang", fr_bin_dir());
	ASSERT_EQ(0, record_dump(self->dir, "hang", "--dump-in-user 50", prog, 0));
	EXPECT_EQ(0, fr_sh("cd %s && %s replay hang.flrc -o p.rep > p.out 2> p.err", self->dir,
			   flightrec));
	EXPECT_EQ(0, fr_sh("cd %s && grep -q \"reached the dump point: thread [0-9]* at rip "
			   "$(cat hang.rip) in user code (pass [0-9]* through it after its log), "
			   "as recorded$\" p.err", self->dir));
	ASSERT_EQ(0, write_cmds(self->dir, "dp",
				"continue\n"
				"printf \"AT %#lx\\n\", $pc\n"
				"reverse-stepi\n"
				"printf \"BACK %#lx\\n\", $pc\n"
				"continue\n"
				"printf \"AGAIN %#lx\\n\", $pc\n"
				"continue\n"));
	EXPECT_EQ(0, session(self->dir, "dp", "hang.flrc", ""));
	EXPECT_TRUE(fr_file_contains(self->dir, "dp.gdb",
				     "Program received signal SIGTRAP, Trace/breakpoint trap."));
	EXPECT_EQ(0, fr_sh("cd %s && grep -qx \"AT $(cat hang.rip)\" dp.gdb && "
			   "grep -qx \"AGAIN $(cat hang.rip)\" dp.gdb && grep -q '^BACK 0x' dp.gdb && "
			   "! grep -qx \"BACK $(cat hang.rip)\" dp.gdb", self->dir));
	EXPECT_TRUE(fr_file_contains(self->dir, "dp.gdb", "exited normally]"));
	EXPECT_TRUE(fr_file_contains(self->dir, "dp.serr", "gdb stops there (SIGTRAP); the replay "
				     "ends when it goes on"));
	EXPECT_TRUE(fr_file_contains(self->dir, "dp.serr",
				     "the replay ends at the dump point (gdb went on from it)"));
	EXPECT_EQ(0, fr_sh("cmp %s/hang.live %s/dp.rep/fd1.out", self->dir, self->dir));
	if (!_metadata->passed)
		show(self->dir, "dp");

	/*
	 * A dump taken in a system call (ptsnap --dump-after: at the entry of
	 * crash_null's 6th call, a read): gdb stops at its syscall
	 * instruction, in read() called from main; going on ends the replay.
	 */
	snprintf(prog, sizeof(prog), "%s data.bin", fr_prog("crash_null"));
	ASSERT_EQ(0, record_dump(self->dir, "cd", "--dump-after 5", prog, 2));
	ASSERT_EQ(0, write_cmds(self->dir, "ds",
				"continue\n"
				"printf \"AT %#lx\\n\", $pc\n"
				"bt\n"
				"continue\n"));
	EXPECT_EQ(0, session(self->dir, "ds", "cd.flrc", ""));
	EXPECT_TRUE(fr_file_contains(self->dir, "ds.gdb",
				     "Program received signal SIGTRAP, Trace/breakpoint trap."));
	EXPECT_EQ(0, fr_sh("cd %s && grep -qx \"AT $(cat cd.rip)\" ds.gdb", self->dir));
	EXPECT_TRUE(fr_file_contains(self->dir, "ds.gdb", " in main (argc=2, "));
	EXPECT_TRUE(fr_file_contains(self->dir, "ds.gdb", "exited normally]"));
	EXPECT_TRUE(fr_file_contains(self->dir, "ds.serr", "reached the dump point: thread "));
	EXPECT_TRUE(fr_file_contains(self->dir, "ds.serr", " in read at rip 0x"));
	EXPECT_TRUE(fr_file_contains(self->dir, "ds.serr",
				     "the replay ends at the dump point (gdb went on from it)"));
	if (!_metadata->passed)
		show(self->dir, "ds");
}

TEST_F_TIMEOUT(gs, sandbox_and_binding, 300)
{
	/* the loader, stopped at the first instruction, in other namespaces than ours */
	EXPECT_EQ(0, fr_sh("cd %s || exit 1; %s replay cn.flrc -o s.rep --gdbserver 0 > s.sout 2> s.serr & "
			   "srv=$!; for i in $(seq 600); do grep -q listening s.serr && break; "
			   "sleep 0.1; done; grep -q 'listening on 127.0.0.1:[0-9]' s.serr || exit 9; "
			   "ld=$(pgrep -P $srv | head -1); [ -n \"$ld\" ] || exit 8; "
			   "r=0; if [ \"$(readlink /proc/$ld/ns/mnt)\" = \"$(readlink /proc/self/ns/mnt)\" ] || "
			   "[ \"$(readlink /proc/$ld/ns/net)\" = \"$(readlink /proc/self/ns/net)\" ]; then "
			   "grep -q 'no namespace sandbox here' s.serr || r=7; fi; "
			   "kill $srv; wait $srv; exit $r", self->dir, flightrec));
	EXPECT_EQ(FR_EXIT_USAGE, fr_sh("cd %s && %s replay cn.flrc -o u.rep --gdbserver 99999 "
				       "> u.out 2> u.err", self->dir, flightrec));
	EXPECT_TRUE(fr_file_contains(self->dir, "u.err", "--gdbserver takes [HOST:]PORT"));
	EXPECT_EQ(FR_EXIT_USAGE, fr_sh("cd %s && %s replay cn.flrc -o v.rep --gdbserver host:abc "
				       "> v.out 2> v.err", self->dir, flightrec));
}

TEST_HARNESS_MAIN
