/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The outside corpus of tests/replay_outside.c: programs nobody here wrote,
 * each recorded in the test VM from exec to exit and replayed.
 *
 * STRACE(id, "name"): strace's own test program tests/NAME.c (vendored in
 * tests/outside/strace/, built as bin/outside/strace/NAME).  The selection
 * was made by rule, not by outcome: of the 501 strace tests (strace
 * 3e4d70a5e, 2026-08-19) that build here with glibc's syscall names and exit
 * 0 when run alone, every 16th in alphabetical order (the 1st, 17th, ...;
 * every 8th was measured too, docs/testing.md, but takes too long for
 * make check).
 *
 * TREE(id, "shell command"): an everyday process tree, run by /bin/sh in an
 * empty directory.  Exactly one process of the tree writes to its stdout
 * (files the command line writes with the shell's own printf or echo are
 * written in a subshell: replay cannot tell a redirected fd 1 from stdout).
 *
 * STRACE_XFAIL, TREE_XFAIL: the same, a known divergence, with its reason
 * (the class of issue 25).  tests/replay_outside.c reports such a case as
 * skipped ("XFAIL") when it fails, and logs "XPASS" when it does not.
 */
STRACE(accept, "accept")
STRACE(clone_flags, "clone-flags")
STRACE(dup, "dup")
STRACE(dup3, "dup3")
STRACE(faccessat_yy, "faccessat-yy")
STRACE(fspick_P, "fspick-P")
STRACE(getpid, "getpid")
STRACE(ioctl, "ioctl")
STRACE(ioctl_gpio_v, "ioctl_gpio-v")
STRACE(ip_local_port_range_Xabbrev, "ip_local_port_range-Xabbrev")
STRACE(kill, "kill")
STRACE(mbind_Xraw, "mbind-Xraw")
STRACE(mlockall, "mlockall")
STRACE(move_mount_P, "move_mount-P")
STRACE(net_icmp_filter, "net-icmp_filter")
STRACE(netlink_netfilter, "netlink_netfilter")
STRACE(nlattr_br_port_msg, "nlattr_br_port_msg")
STRACE(nlattr_netconfmsg, "nlattr_netconfmsg")
STRACE(personality_Xabbrev, "personality-Xabbrev")
STRACE(pipe, "pipe")
STRACE(prctl_no_args_Xabbrev, "prctl-no-args-Xabbrev")
STRACE(prctl_sve_Xraw, "prctl-sve-Xraw")
STRACE(printsignal_Xraw, "printsignal-Xraw")
STRACE(readv, "readv")
STRACE(rt_sigprocmask, "rt_sigprocmask")
STRACE(sendfile, "sendfile")
STRACE(setresuid, "setresuid")
STRACE(sock_filter_v_Xverbose, "sock_filter-v-Xverbose")
STRACE(strace__strings_in_hex_non_ascii, "strace--strings-in-hex-non-ascii")
STRACE(time, "time")
STRACE(unlink, "unlink")
STRACE(xet_robust_list, "xet_robust_list")
/*
 * Chosen by family, not by the rule above (issue 25's classes 1 and 7; each
 * exits 0 when run alone here): calls newer than the 6.1 test kernel, which
 * the programs probe and get ENOSYS for, and waits with a temporary signal
 * mask.  Their numbers are in strace/scno.h.
 */
STRACE(cachestat, "cachestat")
STRACE(fchmodat2, "fchmodat2")
STRACE(futex_requeue, "futex_requeue")
STRACE(futex_wake, "futex_wake")
STRACE(map_shadow_stack, "map_shadow_stack")
STRACE(mseal, "mseal")
STRACE(ppoll, "ppoll")
STRACE(rt_sigsuspend, "rt_sigsuspend")
/*
 * A second sample by rule (29 Nov), drawn from the same strace tree built
 * with every test program (tests/pure_executables.list), of the 516 that
 * exit 0 when run alone in an empty directory of the 6.1 VM: those not
 * listed above, in alphabetical order, every 16th from the 5th.  Before
 * they joined the list, every 8th from the 5th (these 30 and 30 more) was
 * measured: 60 of 60 identical in the VM and on the host (docs/testing.md).
 */
STRACE(aio_pgetevents, "aio_pgetevents")
STRACE(clone3_Xraw, "clone3-Xraw")
STRACE(dup_trace_fds_not_9, "dup-trace-fds-not-9")
STRACE(epoll_ctl, "epoll_ctl")
STRACE(fchownat, "fchownat")
STRACE(futex_wake_Xverbose, "futex_wake-Xverbose")
STRACE(getresgid, "getresgid")
STRACE(ioctl_evdev, "ioctl_evdev")
STRACE(ioctl_gpio, "ioctl_gpio")
STRACE(ioctl_udmabuf, "ioctl_udmabuf")
STRACE(kcmp, "kcmp")
STRACE(map_shadow_stack_Xraw, "map_shadow_stack-Xraw")
STRACE(mkdirat, "mkdirat")
STRACE(mount_Xverbose, "mount-Xverbose")
STRACE(net__decode_fds_none_netlink, "net--decode-fds-none-netlink")
STRACE(netlink_generic, "netlink_generic")
STRACE(nlattr_mdba_mdb_entry, "nlattr_mdba_mdb_entry")
STRACE(openat, "openat")
STRACE(pidfd_open_yy, "pidfd_open-yy")
STRACE(prctl_no_args_Xraw, "prctl-no-args-Xraw")
STRACE(prctl_tagged_addr, "prctl-tagged-addr")
STRACE(process_madvise, "process_madvise")
STRACE(remap_file_pages_Xraw, "remap_file_pages-Xraw")
STRACE(sched_xetparam, "sched_xetparam")
STRACE(setgroups, "setgroups")
STRACE(so_peercred_Xraw, "so_peercred-Xraw")
STRACE(status_unfinished, "status-unfinished")
STRACE(syslog, "syslog")
STRACE(umovestr, "umovestr")
STRACE(utimes, "utimes")

TREE(pipeline, "seq 1 20000 | sort -r | head -3")
TREE(shell_loop, "for i in 1 2 3 4 5; do echo line $i; done | tac")
TREE(xargs, "seq 1 50 | xargs -n 10 echo | cat")
TREE(awk_sum, "seq 1 1000 | awk '{ s += $1 } END { print s }'")
TREE(gcc, "(printf 'int main(void) { return puts(\"hi\") < 0; }\\n' > t.c) && gcc -O1 -o t t.c && ./t")
TREE(make_j2, "(printf 'int f(void) { return 1; }\\n' > a.c; printf 'int f(void);\\nint main(void) { return f() - 1; }\\n' > b.c; printf 'p: a.o b.o\\n\\tgcc -o p a.o b.o\\n' > Makefile) && make -s -j2 && ./p && echo built")
TREE(python_subprocess, "/usr/bin/python3 -c 'import subprocess\nfor i in range(3): print(subprocess.run([\"echo\", str(i)], capture_output=True).stdout.decode(), end=\"\")'")
TREE(perl_system, "perl -e 'print join(\",\", map { $_ * $_ } 1..10), \"\\n\"; system(\"true\") == 0 or die'")
TREE(git_commit, "git init -q r && cd r && (echo a > f) && git add f && git -c user.name=a -c user.email=a@b commit -q -m first && git log --format=%s")
TREE(busybox, "busybox seq 1 100 | busybox md5sum")
TREE(tar_gzip, "seq 1 2000 > f && tar -cf - f | gzip -1 | gzip -d | tar -xOf - | tail -2")
/*
 * Added on 29 Nov from a second set of 16 trees, all measured then (15
 * identical, and date_fmt's two writers broke the one-writer rule above,
 * each replaying its own line): these three; the multi-threaded ones
 * (sort --parallel, python threads) are left out, as a free-running replay
 * may end in a correct race report (docs/testing.md).
 */
TREE(sqlite, "sqlite3 :memory: 'create table t(a); insert into t values(1),(2),(40); select sum(a), group_concat(a) from t;'")
TREE(xz_bzip2, "seq 1 5000 | xz -1 | xz -d | bzip2 | bzip2 -d | tail -1")
TREE(cpio_copy, "mkdir d && seq 1 100 > d/x && (find d | cpio -o -H newc 2>/dev/null | cpio -t 2>/dev/null)")
/*
 * THREADS(id, "shell command"): a multi-threaded tree, as TREE, recorded
 * twice (tests/replay_outside.c): free-running, where a race replay names
 * is a pass, and with --serial, which must be identical.  Of the 29 Nov
 * set's two trees that start threads, python3's (its threads take turns
 * on the interpreter lock).  The other, `seq 1 140000 | sort -n -r
 * --parallel=2 -S 16M | tail -2` (two threads sorting at once), found that
 * serial mode's preemptions in user code were not recorded (it diverged in
 * 2 of 3 serial runs; FLIGHTREC_NR_PREEMPT now places them) and replays
 * identically since, but its serial replay passes the preemption
 * breakpoints about 1.8 million times, 4 minutes under TCG: too long for
 * make check (docs/testing.md).
 */
THREADS(python_threads, "/usr/bin/python3 -c 'import threading, hashlib\nr = [None] * 4\ndef w(i):\n    h = hashlib.sha256()\n    for k in range(3000): h.update(b\"%d-%d\" % (i, k))\n    r[i] = h.hexdigest()[:12]\nts = [threading.Thread(target=w, args=(i,)) for i in range(4)]\nfor t in ts: t.start()\nfor t in ts: t.join()\nprint(\" \".join(r))'")
/*
 * EXEC(id, "shell command"): a tree, as TREE, whose one writer execs after
 * it wrote (issue 25, class 4): its checkpoint holds each program it ran,
 * and its replay goes through each exec ("reached the exec") to the
 * recorded end, writing the whole live output.  sh's exec builtin, env and
 * nice, python3's os.execv.
 */
EXEC(sh_exec, "echo before; exec seq 1 3")
EXEC(env_nice_sort, "echo start; exec env LC_ALL=C nice -n 1 sort -r /etc/shells")
EXEC(python_execv, "/usr/bin/python3 -c 'import os, sys\nprint(\"python\", sys.version_info[0], flush=True)\nos.execv(\"/bin/echo\", [\"echo\", \"after execv\"])'")
/*
 * Tracers (issue 25, class 11): strace recording a program and changing its
 * syscalls (-e inject: a result set at the syscall-exit stop, an error
 * where the call is skipped at its entry).  Every process of the tree
 * replays, the tracee with the tracer's changes (FLIGHTREC_NR_PTRACE
 * records), strace with its ptrace calls answered from the log.  gdb
 * running a program stops it in user code (breakpoints, steps): those
 * stops are not placed in replay, which reports them (docs/replay.md).
 */
TREE(strace_inject, "strace -f -o /dev/null -e inject=getppid:retval=7 sh -c 'echo ppid $PPID'")
TREE(strace_error, "strace -f -o /dev/null -e inject=openat:error=ENOENT:when=3 cat /etc/hostname /etc/shells 2>&1 | head -3")
TREE(strace_fork_tree, "strace -f -o /dev/null sh -c 'seq 1 300 | sort -r | head -2 > o; (echo sub; true) | cat >> o; head -3 o'")
TREE_XFAIL(gdb_run, "gdb -q -batch -ex run -ex 'print 6*7' --args /bin/true 2>/dev/null | tail -1", "class 11: a tracer's stops in user code (breakpoints) are not replayed")
