/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * flightrec: the rows of the syscall table (x86_64, Linux 6.1), and the
 * request sub-table of the irregular calls.  The format is explained in
 * flightrec_syscalls.h; this file is data, hand-curated from
 * arch/x86/entry/syscalls/syscall_64.tbl, the SYSCALL_DEFINEs of the 6.1
 * sources and the man pages.  It is never regenerated at build time.
 *
 * Conventions every reader of the table relies on:
 *
 *  - Indexed by nr.  Every x86_64 number of 6.1 has a row: 0..334 and
 *    424..450.  335..423 are unused on x86_64 (424 and up are shared by all
 *    architectures); x32 numbers (512 and up) are not ours.
 *  - A descriptor whose pointer argument is 0 describes nothing.
 *  - Outs are copied when ret >= 0, or always with FR_F_OUTERR.  Copying more
 *    than the kernel wrote (a FIXED struct of which the kernel filled a few
 *    fields) is harmless: replay writes back the bytes as they were at exit.
 *  - Sizes are those of x86_64 (checked against the userspace structs by
 *    tests/syscall_table.c): struct stat 144, statx 256, timespec 16,
 *    timeval 16, rusage 144, utsname 390, sysinfo 112, rlimit 16, siginfo 128,
 *    epoll_event 12 (packed), pollfd 8, itimerspec 32, itimerval 32, timex 208,
 *    tms 32, stack_t 24, kernel struct sigaction 32, statfs 120, ustat 32,
 *    cap data 2 x 12 (v2/v3), mq_attr 64, sigevent 64, io_event 32,
 *    sembuf 6, mmsghdr 64, futex_waitv 24, io_uring_params 120, flock 32,
 *    kernel termios 36, termio 18, winsize 8, ifreq 40.  Signal sets are the
 *    sigsetsize argument (8).
 *  - An FR_F_IRREGULAR row's descriptors are applied like any other; what
 *    they cannot say is added by code in one place per side.  For a call
 *    that has rows in FLIGHTREC_REQUEST_TABLE (below) that code is the
 *    request row matching the call: its descriptors apply too and its flags
 *    are or-ed into the row's.  A request that matches no row has unknown
 *    out-semantics: the record says so and the interval "may not replay".
 *    The irregular rows without request rows say in their comment what the
 *    code must add.
 *  - FR_F_UNSAFE rows say in a comment why they cannot be replayed.
 *  - FR_F_NOSYS rows have nargs 0: x86_64 has a number but no entry point.
 */
#ifndef _UAPI_LINUX_FLIGHTREC_SYSCALL_TABLE_H
#define _UAPI_LINUX_FLIGHTREC_SYSCALL_TABLE_H

/* Shorthands for the descriptors of the rows below (see enum fr_sz). */
#define FR_STR(a)		FR_D(a, FR_SZ_STR, 0, 0)
#define FR_FIX(a, n)		FR_D(a, FR_SZ_FIXED, n, 0)
#define FR_RET(a, mul)		FR_D(a, FR_SZ_RET, 0, mul)
#define FR_ARG(a, i, mul)	FR_D(a, FR_SZ_ARG, i, mul)
#define FR_PTRLEN(a, i)		FR_D(a, FR_SZ_PTRLEN, i, 0)
#define FR_IOV(a, i)		FR_D(a, FR_SZ_IOV, i, 0)
#define FR_MSG(a)		FR_D(a, FR_SZ_MSGHDR, 0, 0)
#define FR_MMSG(a, i)		FR_D(a, FR_SZ_MMSGHDR, i, 0)
#define FR_FDSET(a, i)		FR_D(a, FR_SZ_FDSET, i, 0)
#define FR_ARGRET(a, i, mul)	FR_D(a, FR_SZ_ARG_RET, i, mul)
#define FR_MSGBUF(a, i)		FR_D(a, FR_SZ_MSGBUF, i, 0)
#define FR_SOCKADDR(a, i)	FR_D(a, FR_SZ_SOCKADDR, i, 0)
#define FR_IOV1(a)		FR_D(a, FR_SZ_IOV1, 0, 0)

#define FR_NOSYS_ROW(X, nr, name) \
	X(nr, name, 0, FR_F_NOSYS, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0)

/* X(nr, name, nargs, flags, argtypes, in1, in2, out1, out2, out3) */
#define FLIGHTREC_SYSCALL_TABLE(X) \
X(0, read, 3, FR_F_BLOCKING, "dpl", FR_D0, FR_D0, FR_RET(1, 0), FR_D0, FR_D0) \
X(1, write, 3, FR_F_OUTPUT | FR_F_BLOCKING | FR_F_IN_RET, "dpl", FR_ARG(1, 2, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
/* open of a FIFO blocks until the other end opens */ \
X(2, open, 3, FR_F_BLOCKING, "som", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(3, close, 1, 0, "d", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(4, stat, 2, 0, "sp", FR_STR(0), FR_D0, FR_FIX(1, 144), FR_D0, FR_D0) \
X(5, fstat, 2, 0, "dp", FR_D0, FR_D0, FR_FIX(1, 144), FR_D0, FR_D0) \
X(6, lstat, 2, 0, "sp", FR_STR(0), FR_D0, FR_FIX(1, 144), FR_D0, FR_D0) \
/* revents are written back even when interrupted (EINTR) */ \
X(7, poll, 3, FR_F_BLOCKING | FR_F_OUTERR, "pui", FR_ARG(0, 1, 8), FR_D0, FR_ARG(0, 1, 8), FR_D0, FR_D0) \
X(8, lseek, 3, 0, "dIw", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(9, mmap, 6, FR_F_ADDRSPACE | FR_F_RETPTR, "plrfdx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(10, mprotect, 3, FR_F_ADDRSPACE, "plr", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(11, munmap, 2, FR_F_ADDRSPACE, "pl", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(12, brk, 1, FR_F_ADDRSPACE | FR_F_RETPTR, "p", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(13, rt_sigaction, 4, FR_F_SIGNAL, "Sppl", FR_FIX(1, 32), FR_D0, FR_FIX(2, 32), FR_D0, FR_D0) \
X(14, rt_sigprocmask, 4, FR_F_SIGNAL, "hppl", FR_ARG(1, 3, 0), FR_D0, FR_ARG(2, 3, 0), FR_D0, FR_D0) \
X(15, rt_sigreturn, 0, FR_F_SIGNAL | FR_F_SIGRETURN, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* out-data by request: FLIGHTREC_REQUEST_TABLE, then the _IOC encoding */ \
X(16, ioctl, 3, FR_F_IRREGULAR | FR_F_BLOCKING, "dRp", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(17, pread64, 4, FR_F_BLOCKING, "dplI", FR_D0, FR_D0, FR_RET(1, 0), FR_D0, FR_D0) \
X(18, pwrite64, 4, FR_F_OUTPUT | FR_F_BLOCKING | FR_F_IN_RET, "dplI", FR_ARG(1, 2, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(19, readv, 3, FR_F_BLOCKING, "dpl", FR_D0, FR_D0, FR_IOV(1, 2), FR_D0, FR_D0) \
X(20, writev, 3, FR_F_OUTPUT | FR_F_BLOCKING | FR_F_IN_RET, "dpl", FR_IOV(1, 2), FR_D0, FR_D0, FR_D0, FR_D0) \
X(21, access, 2, 0, "sx", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(22, pipe, 1, 0, "p", FR_D0, FR_D0, FR_FIX(0, 8), FR_D0, FR_D0) \
/* irregular: a fourth out, the remaining time written back to the timeval \
 * at args[4] (16 bytes), even on EINTR */ \
X(23, select, 5, FR_F_IRREGULAR | FR_F_BLOCKING | FR_F_OUTERR, "ipppp", FR_FDSET(1, 0), FR_FDSET(2, 0), FR_FDSET(1, 0), FR_FDSET(2, 0), FR_FDSET(3, 0)) \
X(24, sched_yield, 0, 0, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(25, mremap, 5, FR_F_ADDRSPACE | FR_F_RETPTR, "pllxp", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(26, msync, 3, 0, "plx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* irregular: the vector is (args[1] + 4095) / 4096 bytes at args[2] */ \
X(27, mincore, 3, FR_F_IRREGULAR, "plp", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* MADV_DONTNEED/REMOVE/FREE zero or drop pages, MADV_WIPEONFORK/DONTFORK \
 * change what a child sees: replay re-executes it at the recorded address. \
 * MADV_FREE pages are zeroed only under memory pressure: nondeterministic. */ \
X(28, madvise, 3, FR_F_ADDRSPACE, "pli", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(29, shmget, 3, 0, "xlx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* maps a SysV segment shared with other processes: memory tracking treats \
 * it like MAP_SHARED */ \
X(30, shmat, 3, FR_F_ADDRSPACE | FR_F_RETPTR, "ipx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(31, shmctl, 3, FR_F_IRREGULAR, "iRp", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(32, dup, 1, 0, "d", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(33, dup2, 2, 0, "dd", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(34, pause, 0, FR_F_BLOCKING, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* the remaining time is written on EINTR */ \
X(35, nanosleep, 2, FR_F_BLOCKING | FR_F_OUTERR, "pp", FR_FIX(0, 16), FR_D0, FR_FIX(1, 16), FR_D0, FR_D0) \
X(36, getitimer, 2, 0, "ip", FR_D0, FR_D0, FR_FIX(1, 32), FR_D0, FR_D0) \
X(37, alarm, 1, 0, "u", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(38, setitimer, 3, 0, "ipp", FR_FIX(1, 32), FR_D0, FR_FIX(2, 32), FR_D0, FR_D0) \
X(39, getpid, 0, 0, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* the offset is written back even when the copy fails */ \
X(40, sendfile, 4, FR_F_BLOCKING | FR_F_OUTERR, "ddpl", FR_FIX(2, 8), FR_D0, FR_FIX(2, 8), FR_D0, FR_D0) \
X(41, socket, 3, 0, "kTi", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(42, connect, 3, FR_F_BLOCKING, "dpi", FR_SOCKADDR(1, 2), FR_D0, FR_D0, FR_D0, FR_D0) \
X(43, accept, 3, FR_F_BLOCKING, "dpp", FR_FIX(2, 4), FR_D0, FR_PTRLEN(1, 2), FR_FIX(2, 4), FR_D0) \
X(44, sendto, 6, FR_F_OUTPUT | FR_F_BLOCKING | FR_F_IN_RET, "dplxpi", FR_ARG(1, 2, 0), FR_SOCKADDR(4, 5), FR_D0, FR_D0, FR_D0) \
/* MSG_TRUNC returns the datagram's full length: min(len, ret) were written */ \
X(45, recvfrom, 6, FR_F_BLOCKING, "dplxpp", FR_FIX(5, 4), FR_D0, FR_ARGRET(1, 2, 0), FR_PTRLEN(4, 5), FR_FIX(5, 4)) \
X(46, sendmsg, 3, FR_F_OUTPUT | FR_F_BLOCKING | FR_F_IN_RET, "dpx", FR_MSG(1), FR_D0, FR_D0, FR_D0, FR_D0) \
X(47, recvmsg, 3, FR_F_BLOCKING, "dpx", FR_D0, FR_D0, FR_MSG(1), FR_D0, FR_D0) \
X(48, shutdown, 2, 0, "di", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(49, bind, 3, 0, "dpi", FR_SOCKADDR(1, 2), FR_D0, FR_D0, FR_D0, FR_D0) \
X(50, listen, 2, 0, "di", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(51, getsockname, 3, 0, "dpp", FR_FIX(2, 4), FR_D0, FR_PTRLEN(1, 2), FR_FIX(2, 4), FR_D0) \
X(52, getpeername, 3, 0, "dpp", FR_FIX(2, 4), FR_D0, FR_PTRLEN(1, 2), FR_FIX(2, 4), FR_D0) \
X(53, socketpair, 4, 0, "kTip", FR_D0, FR_D0, FR_FIX(3, 8), FR_D0, FR_D0) \
X(54, setsockopt, 5, 0, "diipi", FR_ARG(3, 4, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(55, getsockopt, 5, 0, "diipp", FR_FIX(4, 4), FR_D0, FR_PTRLEN(3, 4), FR_FIX(4, 4), FR_D0) \
/* clone(flags, newsp, parent_tid, child_tid, tls) on x86_64.  irregular: \
 * CLONE_PARENT_SETTID or CLONE_PIDFD write an int at args[2] (in the \
 * parent); CLONE_CHILD_SETTID writes the child's tid at args[3] in the \
 * child; CLONE_SETTLS gives the child args[4] as fs base */ \
X(56, clone, 5, FR_F_PROCESS | FR_F_IRREGULAR, "xpppx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(57, fork, 0, FR_F_PROCESS, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* the parent waits until the child execs or exits */ \
X(58, vfork, 0, FR_F_PROCESS | FR_F_BLOCKING, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(59, execve, 3, FR_F_PROCESS | FR_F_NORETURN, "spp", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(60, exit, 1, FR_F_PROCESS | FR_F_NORETURN, "i", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(61, wait4, 4, FR_F_BLOCKING, "Ppxp", FR_D0, FR_D0, FR_FIX(1, 4), FR_FIX(3, 144), FR_D0) \
X(62, kill, 2, FR_F_SENDSIG, "PS", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(63, uname, 1, 0, "p", FR_D0, FR_D0, FR_FIX(0, 390), FR_D0, FR_D0) \
X(64, semget, 3, 0, "xix", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(65, semop, 3, FR_F_BLOCKING, "ipu", FR_ARG(1, 2, 6), FR_D0, FR_D0, FR_D0, FR_D0) \
X(66, semctl, 4, FR_F_IRREGULAR, "iiRx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(67, shmdt, 1, FR_F_ADDRSPACE, "p", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(68, msgget, 2, 0, "xx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(69, msgsnd, 4, FR_F_OUTPUT | FR_F_BLOCKING, "iplx", FR_MSGBUF(1, 2), FR_D0, FR_D0, FR_D0, FR_D0) \
X(70, msgrcv, 5, FR_F_BLOCKING, "iplIx", FR_D0, FR_D0, FR_MSGBUF(1, 2), FR_D0, FR_D0) \
X(71, msgctl, 3, FR_F_IRREGULAR, "iRp", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* F_SETLKW waits for the lock */ \
X(72, fcntl, 3, FR_F_IRREGULAR | FR_F_BLOCKING, "dRx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(73, flock, 2, FR_F_BLOCKING, "dx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(74, fsync, 1, 0, "d", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(75, fdatasync, 1, 0, "d", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(76, truncate, 2, 0, "sI", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(77, ftruncate, 2, 0, "dI", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(78, getdents, 3, 0, "dpu", FR_D0, FR_D0, FR_RET(1, 0), FR_D0, FR_D0) \
/* returns the length written, the NUL included */ \
X(79, getcwd, 2, 0, "pl", FR_D0, FR_D0, FR_ARGRET(0, 1, 0), FR_D0, FR_D0) \
X(80, chdir, 1, 0, "s", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(81, fchdir, 1, 0, "d", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(82, rename, 2, 0, "ss", FR_STR(0), FR_STR(1), FR_D0, FR_D0, FR_D0) \
X(83, mkdir, 2, 0, "sm", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(84, rmdir, 1, 0, "s", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(85, creat, 2, FR_F_BLOCKING, "sm", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(86, link, 2, 0, "ss", FR_STR(0), FR_STR(1), FR_D0, FR_D0, FR_D0) \
X(87, unlink, 1, 0, "s", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(88, symlink, 2, 0, "ss", FR_STR(0), FR_STR(1), FR_D0, FR_D0, FR_D0) \
X(89, readlink, 3, 0, "spi", FR_STR(0), FR_D0, FR_ARGRET(1, 2, 0), FR_D0, FR_D0) \
X(90, chmod, 2, 0, "sm", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(91, fchmod, 2, 0, "dm", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(92, chown, 3, 0, "sii", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(93, fchown, 3, 0, "dii", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(94, lchown, 3, 0, "sii", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(95, umask, 1, 0, "m", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(96, gettimeofday, 2, 0, "pp", FR_D0, FR_D0, FR_FIX(0, 16), FR_FIX(1, 8), FR_D0) \
X(97, getrlimit, 2, 0, "up", FR_D0, FR_D0, FR_FIX(1, 16), FR_D0, FR_D0) \
X(98, getrusage, 2, 0, "ip", FR_D0, FR_D0, FR_FIX(1, 144), FR_D0, FR_D0) \
X(99, sysinfo, 1, 0, "p", FR_D0, FR_D0, FR_FIX(0, 112), FR_D0, FR_D0) \
X(100, times, 1, 0, "p", FR_D0, FR_D0, FR_FIX(0, 32), FR_D0, FR_D0) \
/* POKE*, SETREGS ... change a tracee: a recorded one's own records say what \
 * (FLIGHTREC_NR_PTRACE); the tracer's outs are per request (below) */ \
X(101, ptrace, 4, FR_F_IRREGULAR, "RPpp", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(102, getuid, 0, 0, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(103, syslog, 3, FR_F_IRREGULAR, "Rpi", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(104, getgid, 0, 0, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(105, setuid, 1, 0, "u", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(106, setgid, 1, 0, "u", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(107, geteuid, 0, 0, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(108, getegid, 0, 0, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(109, setpgid, 2, 0, "PP", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(110, getppid, 0, 0, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(111, getpgrp, 0, 0, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(112, setsid, 0, 0, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(113, setreuid, 2, 0, "ii", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(114, setregid, 2, 0, "ii", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* getgroups(0, list) returns the count and writes nothing */ \
X(115, getgroups, 2, 0, "ip", FR_D0, FR_D0, FR_ARGRET(1, 0, 4), FR_D0, FR_D0) \
X(116, setgroups, 2, 0, "ip", FR_ARG(1, 0, 4), FR_D0, FR_D0, FR_D0, FR_D0) \
X(117, setresuid, 3, 0, "iii", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(118, getresuid, 3, 0, "ppp", FR_D0, FR_D0, FR_FIX(0, 4), FR_FIX(1, 4), FR_FIX(2, 4)) \
X(119, setresgid, 3, 0, "iii", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(120, getresgid, 3, 0, "ppp", FR_D0, FR_D0, FR_FIX(0, 4), FR_FIX(1, 4), FR_FIX(2, 4)) \
X(121, getpgid, 1, 0, "P", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(122, setfsuid, 1, 0, "u", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(123, setfsgid, 1, 0, "u", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(124, getsid, 1, 0, "P", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* an unknown header version gets the kernel's written back with EINVAL \
 * (libcap probes that way); data is 2 x 12 bytes for v2/v3, 12 for v1 */ \
X(125, capget, 2, FR_F_OUTERR, "pp", FR_FIX(0, 8), FR_D0, FR_FIX(0, 8), FR_FIX(1, 24), FR_D0) \
X(126, capset, 2, 0, "pp", FR_FIX(0, 8), FR_FIX(1, 24), FR_D0, FR_D0, FR_D0) \
X(127, rt_sigpending, 2, 0, "pl", FR_D0, FR_D0, FR_ARG(0, 1, 0), FR_D0, FR_D0) \
/* dequeues the signal it returns */ \
X(128, rt_sigtimedwait, 4, FR_F_SIGNAL | FR_F_BLOCKING, "pppl", FR_ARG(0, 3, 0), FR_FIX(2, 16), FR_FIX(1, 128), FR_D0, FR_D0) \
X(129, rt_sigqueueinfo, 3, FR_F_SENDSIG, "PSp", FR_FIX(2, 128), FR_D0, FR_D0, FR_D0, FR_D0) \
X(130, rt_sigsuspend, 2, FR_F_SIGNAL | FR_F_BLOCKING, "pl", FR_ARG(0, 1, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(131, sigaltstack, 2, FR_F_SIGNAL, "pp", FR_FIX(0, 24), FR_D0, FR_FIX(1, 24), FR_D0, FR_D0) \
X(132, utime, 2, 0, "sp", FR_STR(0), FR_FIX(1, 16), FR_D0, FR_D0, FR_D0) \
X(133, mknod, 3, 0, "smx", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
FR_NOSYS_ROW(X, 134, uselib) \
/* returns the old persona; ADDR_NO_RANDOMIZE, STICKY_TIMEOUTS ... change \
 * later calls, which are recorded */ \
X(135, personality, 1, 0, "x", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(136, ustat, 2, 0, "xp", FR_D0, FR_D0, FR_FIX(1, 32), FR_D0, FR_D0) \
X(137, statfs, 2, 0, "sp", FR_STR(0), FR_D0, FR_FIX(1, 120), FR_D0, FR_D0) \
X(138, fstatfs, 2, 0, "dp", FR_D0, FR_D0, FR_FIX(1, 120), FR_D0, FR_D0) \
X(139, sysfs, 3, FR_F_IRREGULAR, "Rxx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(140, getpriority, 2, 0, "ii", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(141, setpriority, 3, 0, "iii", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(142, sched_setparam, 2, 0, "Pp", FR_FIX(1, 4), FR_D0, FR_D0, FR_D0, FR_D0) \
X(143, sched_getparam, 2, 0, "Pp", FR_D0, FR_D0, FR_FIX(1, 4), FR_D0, FR_D0) \
X(144, sched_setscheduler, 3, 0, "Pip", FR_FIX(2, 4), FR_D0, FR_D0, FR_D0, FR_D0) \
X(145, sched_getscheduler, 1, 0, "P", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(146, sched_get_priority_max, 1, 0, "i", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(147, sched_get_priority_min, 1, 0, "i", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(148, sched_rr_get_interval, 2, 0, "Pp", FR_D0, FR_D0, FR_FIX(1, 16), FR_D0, FR_D0) \
X(149, mlock, 2, 0, "pl", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(150, munlock, 2, 0, "pl", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(151, mlockall, 1, 0, "x", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(152, munlockall, 0, 0, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(153, vhangup, 0, 0, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* the LDT (per mm) gives meaning to segment selectors: re-executed. \
 * func 0 and 2 read ret bytes, func 1 and 0x11 write a user_desc */ \
X(154, modify_ldt, 3, FR_F_THREADAREA, "ipl", FR_ARG(1, 2, 0), FR_D0, FR_RET(1, 0), FR_D0, FR_D0) \
X(155, pivot_root, 2, 0, "ss", FR_STR(0), FR_STR(1), FR_D0, FR_D0, FR_D0) \
FR_NOSYS_ROW(X, 156, _sysctl) \
X(157, prctl, 5, FR_F_IRREGULAR, "Rxxxx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(158, arch_prctl, 2, FR_F_IRREGULAR | FR_F_THREADAREA, "Rx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(159, adjtimex, 1, 0, "p", FR_FIX(0, 208), FR_D0, FR_FIX(0, 208), FR_D0, FR_D0) \
X(160, setrlimit, 2, 0, "up", FR_FIX(1, 16), FR_D0, FR_D0, FR_D0, FR_D0) \
X(161, chroot, 1, 0, "s", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(162, sync, 0, 0, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(163, acct, 1, 0, "s", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(164, settimeofday, 2, 0, "pp", FR_FIX(0, 16), FR_FIX(1, 8), FR_D0, FR_D0, FR_D0) \
X(165, mount, 5, 0, "sssxp", FR_STR(0), FR_STR(1), FR_D0, FR_D0, FR_D0) \
X(166, umount2, 2, 0, "sx", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(167, swapon, 2, 0, "sx", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(168, swapoff, 1, 0, "s", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(169, reboot, 4, 0, "xxxp", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(170, sethostname, 2, 0, "pi", FR_ARG(0, 1, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(171, setdomainname, 2, 0, "pi", FR_ARG(0, 1, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
/* unsafe: port I/O (in/out instructions) reads hardware, unrecorded */ \
X(172, iopl, 1, FR_F_UNSAFE, "u", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(173, ioperm, 3, FR_F_UNSAFE, "lli", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
FR_NOSYS_ROW(X, 174, create_module) \
X(175, init_module, 3, 0, "pls", FR_ARG(0, 1, 0), FR_STR(2), FR_D0, FR_D0, FR_D0) \
X(176, delete_module, 2, 0, "sx", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
FR_NOSYS_ROW(X, 177, get_kernel_syms) \
FR_NOSYS_ROW(X, 178, query_module) \
/* request: QCMD(cmd, type) = cmd << 8 | type in args[0] */ \
X(179, quotactl, 4, FR_F_IRREGULAR, "Rsip", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
FR_NOSYS_ROW(X, 180, nfsservctl) \
FR_NOSYS_ROW(X, 181, getpmsg) \
FR_NOSYS_ROW(X, 182, putpmsg) \
FR_NOSYS_ROW(X, 183, afs_syscall) \
FR_NOSYS_ROW(X, 184, tuxcall) \
FR_NOSYS_ROW(X, 185, security) \
X(186, gettid, 0, 0, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(187, readahead, 3, 0, "dIl", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(188, setxattr, 5, 0, "sspli", FR_STR(0), FR_STR(1), FR_D0, FR_D0, FR_D0) \
X(189, lsetxattr, 5, 0, "sspli", FR_STR(0), FR_STR(1), FR_D0, FR_D0, FR_D0) \
X(190, fsetxattr, 5, 0, "dspli", FR_STR(1), FR_ARG(2, 3, 0), FR_D0, FR_D0, FR_D0) \
/* size 0 asks for the size: nothing written */ \
X(191, getxattr, 4, 0, "sspl", FR_STR(0), FR_STR(1), FR_ARGRET(2, 3, 0), FR_D0, FR_D0) \
X(192, lgetxattr, 4, 0, "sspl", FR_STR(0), FR_STR(1), FR_ARGRET(2, 3, 0), FR_D0, FR_D0) \
X(193, fgetxattr, 4, 0, "dspl", FR_STR(1), FR_D0, FR_ARGRET(2, 3, 0), FR_D0, FR_D0) \
X(194, listxattr, 3, 0, "spl", FR_STR(0), FR_D0, FR_ARGRET(1, 2, 0), FR_D0, FR_D0) \
X(195, llistxattr, 3, 0, "spl", FR_STR(0), FR_D0, FR_ARGRET(1, 2, 0), FR_D0, FR_D0) \
X(196, flistxattr, 3, 0, "dpl", FR_D0, FR_D0, FR_ARGRET(1, 2, 0), FR_D0, FR_D0) \
X(197, removexattr, 2, 0, "ss", FR_STR(0), FR_STR(1), FR_D0, FR_D0, FR_D0) \
X(198, lremovexattr, 2, 0, "ss", FR_STR(0), FR_STR(1), FR_D0, FR_D0, FR_D0) \
X(199, fremovexattr, 2, 0, "ds", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
X(200, tkill, 2, FR_F_SENDSIG, "PS", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(201, time, 1, 0, "p", FR_D0, FR_D0, FR_FIX(0, 8), FR_D0, FR_D0) \
/* irregular by op & FUTEX_CMD_MASK: WAIT/WAKE write nothing, WAKE_OP \
 * writes *uaddr2, the PI ops write the lock word; args[3] is a timespec \
 * pointer for the waits and a count (val2) for REQUEUE/WAKE_OP */ \
X(202, futex, 6, FR_F_IRREGULAR | FR_F_BLOCKING, "pRuxpu", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(203, sched_setaffinity, 3, 0, "Pup", FR_ARG(2, 1, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
/* returns the bytes written (the kernel's cpumask size) */ \
X(204, sched_getaffinity, 3, 0, "Pup", FR_D0, FR_D0, FR_RET(2, 0), FR_D0, FR_D0) \
/* x86_64 has set_thread_area only through int $0x80 */ \
FR_NOSYS_ROW(X, 205, set_thread_area) \
/* unsafe: maps the AIO completion ring, which the kernel updates when \
 * requests complete, outside any syscall */ \
X(206, io_setup, 2, FR_F_ADDRSPACE | FR_F_UNSAFE, "up", FR_D0, FR_D0, FR_FIX(1, 8), FR_D0, FR_D0) \
X(207, io_destroy, 1, FR_F_ADDRSPACE, "x", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* irregular: besides the events, the buffer of each completed read (the \
 * iocb at event.obj: res bytes at aio_buf, or its iovec array for \
 * PREADV), which the kernel filled asynchronously */ \
X(208, io_getevents, 5, FR_F_IRREGULAR | FR_F_BLOCKING, "xIIpp", FR_FIX(4, 16), FR_D0, FR_RET(3, 32), FR_D0, FR_D0) \
/* unsafe: reads complete later, into user memory, outside any syscall */ \
X(209, io_submit, 3, FR_F_UNSAFE, "xIp", FR_ARG(2, 1, 8), FR_D0, FR_D0, FR_D0, FR_D0) \
/* 6.1 never writes *result: completions go through the ring */ \
X(210, io_cancel, 3, 0, "xpp", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
FR_NOSYS_ROW(X, 211, get_thread_area) \
/* dcookies were removed in 5.12; the number stays */ \
FR_NOSYS_ROW(X, 212, lookup_dcookie) \
X(213, epoll_create, 1, 0, "i", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
FR_NOSYS_ROW(X, 214, epoll_ctl_old) \
FR_NOSYS_ROW(X, 215, epoll_wait_old) \
X(216, remap_file_pages, 5, FR_F_ADDRSPACE, "plrlx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(217, getdents64, 3, 0, "dpu", FR_D0, FR_D0, FR_RET(1, 0), FR_D0, FR_D0) \
/* the kernel clears *tidptr and wakes it when the thread exits */ \
X(218, set_tid_address, 1, FR_F_THREADAREA, "p", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* irregular: continues the call this thread was interrupted in \
 * (nanosleep, clock_nanosleep, poll, futex ...) and writes that call's \
 * out-data: the capture uses the row of the interrupted call */ \
X(219, restart_syscall, 0, FR_F_IRREGULAR | FR_F_BLOCKING, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(220, semtimedop, 4, FR_F_BLOCKING, "ipup", FR_ARG(1, 2, 6), FR_FIX(3, 16), FR_D0, FR_D0, FR_D0) \
X(221, fadvise64, 4, 0, "dIli", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* timer_t is an int */ \
X(222, timer_create, 3, 0, "cpp", FR_FIX(1, 64), FR_D0, FR_FIX(2, 4), FR_D0, FR_D0) \
X(223, timer_settime, 4, 0, "ixpp", FR_FIX(2, 32), FR_D0, FR_FIX(3, 32), FR_D0, FR_D0) \
X(224, timer_gettime, 2, 0, "ip", FR_D0, FR_D0, FR_FIX(1, 32), FR_D0, FR_D0) \
X(225, timer_getoverrun, 1, 0, "i", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(226, timer_delete, 1, 0, "i", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(227, clock_settime, 2, 0, "cp", FR_FIX(1, 16), FR_D0, FR_D0, FR_D0, FR_D0) \
X(228, clock_gettime, 2, 0, "cp", FR_D0, FR_D0, FR_FIX(1, 16), FR_D0, FR_D0) \
X(229, clock_getres, 2, 0, "cp", FR_D0, FR_D0, FR_FIX(1, 16), FR_D0, FR_D0) \
/* the remaining time is written on EINTR (relative sleeps only) */ \
X(230, clock_nanosleep, 4, FR_F_BLOCKING | FR_F_OUTERR, "cxpp", FR_FIX(2, 16), FR_D0, FR_FIX(3, 16), FR_D0, FR_D0) \
X(231, exit_group, 1, FR_F_PROCESS | FR_F_NORETURN, "i", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(232, epoll_wait, 4, FR_F_BLOCKING, "dpii", FR_D0, FR_D0, FR_RET(1, 12), FR_D0, FR_D0) \
X(233, epoll_ctl, 4, 0, "didp", FR_FIX(3, 12), FR_D0, FR_D0, FR_D0, FR_D0) \
X(234, tgkill, 3, FR_F_SENDSIG, "PPS", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(235, utimes, 2, 0, "sp", FR_STR(0), FR_FIX(1, 32), FR_D0, FR_D0, FR_D0) \
FR_NOSYS_ROW(X, 236, vserver) \
X(237, mbind, 6, 0, "plxplx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(238, set_mempolicy, 3, 0, "ipl", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* irregular: the node mask at args[1] is ALIGN(args[2] - 1, 64) / 8 bytes */ \
X(239, get_mempolicy, 5, FR_F_IRREGULAR, "pplpx", FR_D0, FR_D0, FR_FIX(0, 4), FR_D0, FR_D0) \
X(240, mq_open, 4, 0, "somp", FR_STR(0), FR_FIX(3, 64), FR_D0, FR_D0, FR_D0) \
X(241, mq_unlink, 1, 0, "s", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(242, mq_timedsend, 5, FR_F_OUTPUT | FR_F_BLOCKING, "dplup", FR_ARG(1, 2, 0), FR_FIX(4, 16), FR_D0, FR_D0, FR_D0) \
X(243, mq_timedreceive, 5, FR_F_BLOCKING, "dplpp", FR_FIX(4, 16), FR_D0, FR_RET(1, 0), FR_FIX(3, 4), FR_D0) \
X(244, mq_notify, 2, 0, "dp", FR_FIX(1, 64), FR_D0, FR_D0, FR_D0, FR_D0) \
X(245, mq_getsetattr, 3, 0, "dpp", FR_FIX(1, 64), FR_D0, FR_FIX(2, 64), FR_D0, FR_D0) \
X(246, kexec_load, 4, 0, "xlpx", FR_ARG(2, 1, 32), FR_D0, FR_D0, FR_D0, FR_D0) \
X(247, waitid, 5, FR_F_BLOCKING, "iPpxp", FR_D0, FR_D0, FR_FIX(2, 128), FR_FIX(4, 144), FR_D0) \
X(248, add_key, 5, 0, "sspli", FR_STR(0), FR_STR(1), FR_D0, FR_D0, FR_D0) \
X(249, request_key, 4, 0, "sssi", FR_STR(0), FR_STR(1), FR_D0, FR_D0, FR_D0) \
X(250, keyctl, 5, FR_F_IRREGULAR, "Rxxxx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(251, ioprio_set, 3, 0, "iii", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(252, ioprio_get, 2, 0, "ii", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(253, inotify_init, 0, 0, "", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(254, inotify_add_watch, 3, 0, "dsx", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
X(255, inotify_rm_watch, 2, 0, "di", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(256, migrate_pages, 4, 0, "Plpp", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(257, openat, 4, FR_F_BLOCKING, "Dsom", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
X(258, mkdirat, 3, 0, "Dsm", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
X(259, mknodat, 4, 0, "Dsmx", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
X(260, fchownat, 5, 0, "Dsiia", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
X(261, futimesat, 3, 0, "Dsp", FR_STR(1), FR_FIX(2, 32), FR_D0, FR_D0, FR_D0) \
X(262, newfstatat, 4, 0, "Dspa", FR_STR(1), FR_D0, FR_FIX(2, 144), FR_D0, FR_D0) \
X(263, unlinkat, 3, 0, "Dsa", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
X(264, renameat, 4, 0, "DsDs", FR_STR(1), FR_STR(3), FR_D0, FR_D0, FR_D0) \
X(265, linkat, 5, 0, "DsDsa", FR_STR(1), FR_STR(3), FR_D0, FR_D0, FR_D0) \
X(266, symlinkat, 3, 0, "sDs", FR_STR(0), FR_STR(2), FR_D0, FR_D0, FR_D0) \
X(267, readlinkat, 4, 0, "Dspi", FR_STR(1), FR_D0, FR_ARGRET(2, 3, 0), FR_D0, FR_D0) \
X(268, fchmodat, 3, 0, "Dsm", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
X(269, faccessat, 3, 0, "Dsx", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
/* irregular as select: the timespec at args[4] (16 bytes) is written \
 * back, even on EINTR; args[5] points to { const sigset_t *, size_t } */ \
X(270, pselect6, 6, FR_F_IRREGULAR | FR_F_BLOCKING | FR_F_OUTERR, "ippppp", FR_FDSET(1, 0), FR_FDSET(2, 0), FR_FDSET(1, 0), FR_FDSET(2, 0), FR_FDSET(3, 0)) \
/* revents and the remaining time are written back, even on EINTR */ \
X(271, ppoll, 5, FR_F_BLOCKING | FR_F_OUTERR, "puppl", FR_ARG(0, 1, 8), FR_FIX(2, 16), FR_ARG(0, 1, 8), FR_FIX(2, 16), FR_D0) \
X(272, unshare, 1, 0, "x", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* walked by the kernel when the thread exits: re-executed */ \
X(273, set_robust_list, 2, FR_F_THREADAREA, "pl", FR_ARG(0, 1, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(274, get_robust_list, 3, 0, "Ppp", FR_D0, FR_D0, FR_FIX(1, 8), FR_FIX(2, 8), FR_D0) \
X(275, splice, 6, FR_F_BLOCKING, "dpdplx", FR_FIX(1, 8), FR_FIX(3, 8), FR_FIX(1, 8), FR_FIX(3, 8), FR_D0) \
X(276, tee, 4, FR_F_BLOCKING, "ddlx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(277, sync_file_range, 4, 0, "dIIx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* on a pipe's write end the iovec is read, on its read end filled */ \
X(278, vmsplice, 4, FR_F_BLOCKING, "dplx", FR_IOV(1, 2), FR_D0, FR_IOV(1, 2), FR_D0, FR_D0) \
X(279, move_pages, 6, 0, "Plpppx", FR_ARG(2, 1, 8), FR_D0, FR_ARG(4, 1, 4), FR_D0, FR_D0) \
X(280, utimensat, 4, 0, "Dspa", FR_STR(1), FR_FIX(2, 32), FR_D0, FR_D0, FR_D0) \
X(281, epoll_pwait, 6, FR_F_BLOCKING, "dpiipl", FR_ARG(4, 5, 0), FR_D0, FR_RET(1, 12), FR_D0, FR_D0) \
X(282, signalfd, 3, 0, "dpl", FR_ARG(1, 2, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(283, timerfd_create, 2, 0, "cO", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(284, eventfd, 1, 0, "u", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(285, fallocate, 4, 0, "dxII", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(286, timerfd_settime, 4, 0, "dxpp", FR_FIX(2, 32), FR_D0, FR_FIX(3, 32), FR_D0, FR_D0) \
X(287, timerfd_gettime, 2, 0, "dp", FR_D0, FR_D0, FR_FIX(1, 32), FR_D0, FR_D0) \
X(288, accept4, 4, FR_F_BLOCKING, "dppO", FR_FIX(2, 4), FR_D0, FR_PTRLEN(1, 2), FR_FIX(2, 4), FR_D0) \
X(289, signalfd4, 4, 0, "dplO", FR_ARG(1, 2, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(290, eventfd2, 2, 0, "uO", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(291, epoll_create1, 1, 0, "O", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(292, dup3, 3, 0, "ddO", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(293, pipe2, 2, 0, "pO", FR_D0, FR_D0, FR_FIX(0, 8), FR_D0, FR_D0) \
X(294, inotify_init1, 1, 0, "O", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* pos_l is the whole offset on x86_64, pos_h is ignored */ \
X(295, preadv, 5, FR_F_BLOCKING, "dplIx", FR_D0, FR_D0, FR_IOV(1, 2), FR_D0, FR_D0) \
X(296, pwritev, 5, FR_F_OUTPUT | FR_F_BLOCKING | FR_F_IN_RET, "dplIx", FR_IOV(1, 2), FR_D0, FR_D0, FR_D0, FR_D0) \
X(297, rt_tgsigqueueinfo, 4, FR_F_SENDSIG, "PPSp", FR_FIX(3, 128), FR_D0, FR_D0, FR_D0, FR_D0) \
/* unsafe: the event fd's mmap()ed ring is written by the kernel at any \
 * time.  E2BIG writes the kernel's attr size back (bytes 4..7) */ \
X(298, perf_event_open, 5, FR_F_UNSAFE | FR_F_OUTERR, "pPidx", FR_FIX(0, 64), FR_D0, FR_FIX(0, 8), FR_D0, FR_D0) \
X(299, recvmmsg, 5, FR_F_BLOCKING, "dpuxp", FR_FIX(4, 16), FR_D0, FR_MMSG(1, 2), FR_FIX(4, 16), FR_D0) \
X(300, fanotify_init, 2, 0, "xx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(301, fanotify_mark, 5, 0, "dxxDs", FR_STR(4), FR_D0, FR_D0, FR_D0, FR_D0) \
X(302, prlimit64, 4, 0, "Pupp", FR_FIX(2, 16), FR_D0, FR_FIX(3, 16), FR_D0, FR_D0) \
/* irregular: struct file_handle at args[2] is 8 + handle_bytes (the u32 \
 * at its start, after the call) bytes; EOVERFLOW writes handle_bytes only */ \
X(303, name_to_handle_at, 5, FR_F_IRREGULAR | FR_F_OUTERR, "Dsppa", FR_STR(1), FR_D0, FR_FIX(3, 4), FR_D0, FR_D0) \
X(304, open_by_handle_at, 3, 0, "dpo", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(305, clock_adjtime, 2, 0, "cp", FR_FIX(1, 208), FR_D0, FR_FIX(1, 208), FR_D0, FR_D0) \
X(306, syncfs, 1, 0, "d", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* writes msg_len into each of the ret entries sent */ \
X(307, sendmmsg, 4, FR_F_OUTPUT | FR_F_BLOCKING | FR_F_IN_RET, "dpux", FR_MMSG(1, 2), FR_D0, FR_RET(1, 64), FR_D0, FR_D0) \
X(308, setns, 2, 0, "dx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(309, getcpu, 3, 0, "ppp", FR_D0, FR_D0, FR_FIX(0, 4), FR_FIX(1, 4), FR_D0) \
X(310, process_vm_readv, 6, 0, "Pplplx", FR_ARG(3, 4, 16), FR_D0, FR_IOV(1, 2), FR_D0, FR_D0) \
/* unsafe: writes another process's memory through get_user_pages, which \
 * no write fault sees: that process may be a recorded one */ \
X(311, process_vm_writev, 6, FR_F_UNSAFE, "Pplplx", FR_IOV(1, 2), FR_ARG(3, 4, 16), FR_D0, FR_D0, FR_D0) \
X(312, kcmp, 5, 0, "PPixx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(313, finit_module, 3, 0, "dsx", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
/* struct sched_attr is 48 bytes in version 0; its first u32 says */ \
X(314, sched_setattr, 3, 0, "Ppx", FR_FIX(1, 48), FR_D0, FR_D0, FR_D0, FR_D0) \
X(315, sched_getattr, 4, 0, "Ppux", FR_D0, FR_D0, FR_ARG(1, 2, 0), FR_D0, FR_D0) \
X(316, renameat2, 5, 0, "DsDsx", FR_STR(1), FR_STR(3), FR_D0, FR_D0, FR_D0) \
X(317, seccomp, 3, FR_F_IRREGULAR, "Rxp", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(318, getrandom, 3, 0, "plx", FR_D0, FR_D0, FR_RET(0, 0), FR_D0, FR_D0) \
X(319, memfd_create, 2, 0, "sx", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(320, kexec_file_load, 5, 0, "ddlpx", FR_ARG(3, 2, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
/* unsafe: maps and programs the kernel runs write user-visible memory; \
 * irregular: what the command writes back depends on it */ \
X(321, bpf, 3, FR_F_IRREGULAR | FR_F_UNSAFE, "Rpu", FR_ARG(1, 2, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(322, execveat, 5, FR_F_PROCESS | FR_F_NORETURN, "Dsppa", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
/* unsafe: UFFDIO_COPY and friends fill the process's pages from another \
 * thread, and page faults wait for them */ \
X(323, userfaultfd, 1, FR_F_UNSAFE, "O", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(324, membarrier, 3, 0, "xxi", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(325, mlock2, 3, 0, "plx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(326, copy_file_range, 6, FR_F_BLOCKING, "dpdplx", FR_FIX(1, 8), FR_FIX(3, 8), FR_FIX(1, 8), FR_FIX(3, 8), FR_D0) \
X(327, preadv2, 6, FR_F_BLOCKING, "dplIxx", FR_D0, FR_D0, FR_IOV(1, 2), FR_D0, FR_D0) \
X(328, pwritev2, 6, FR_F_OUTPUT | FR_F_BLOCKING | FR_F_IN_RET, "dplIxx", FR_IOV(1, 2), FR_D0, FR_D0, FR_D0, FR_D0) \
X(329, pkey_mprotect, 4, FR_F_ADDRSPACE, "plri", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* keys are per mm; pkey_alloc also sets the thread's PKRU rights */ \
X(330, pkey_alloc, 2, FR_F_ADDRSPACE, "xx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(331, pkey_free, 1, FR_F_ADDRSPACE, "i", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(332, statx, 5, 0, "Dsaxp", FR_STR(1), FR_D0, FR_FIX(4, 256), FR_D0, FR_D0) \
/* irregular as io_getevents; args[5] points to { sigmask, sigsetsize } */ \
X(333, io_pgetevents, 6, FR_F_IRREGULAR | FR_F_BLOCKING, "xIIppp", FR_FIX(4, 16), FR_D0, FR_RET(3, 32), FR_D0, FR_D0) \
/* the kernel writes cpu_id and friends into the area at each return to \
 * user after preemption or migration, outside any syscall: replay \
 * re-executes the registration, and the values it sees are its own */ \
X(334, rseq, 4, FR_F_THREADAREA, "puxx", FR_ARG(0, 1, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(424, pidfd_send_signal, 4, FR_F_SENDSIG, "dSpx", FR_FIX(2, 128), FR_D0, FR_D0, FR_D0, FR_D0) \
/* unsafe, all three: the kernel reads submissions from and posts \
 * completions to rings in user memory, and fills read buffers from its \
 * own workers, outside any syscall */ \
X(425, io_uring_setup, 2, FR_F_UNSAFE, "up", FR_FIX(1, 120), FR_D0, FR_FIX(1, 120), FR_D0, FR_D0) \
X(426, io_uring_enter, 6, FR_F_UNSAFE | FR_F_BLOCKING, "duuxpl", FR_ARG(4, 5, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(427, io_uring_register, 4, FR_F_UNSAFE, "dupu", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(428, open_tree, 3, 0, "Dsx", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
X(429, move_mount, 5, 0, "DsDsx", FR_STR(1), FR_STR(3), FR_D0, FR_D0, FR_D0) \
X(430, fsopen, 2, 0, "sx", FR_STR(0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(431, fsconfig, 5, 0, "dusxi", FR_STR(2), FR_D0, FR_D0, FR_D0, FR_D0) \
X(432, fsmount, 3, 0, "dxx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(433, fspick, 3, 0, "Dsx", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
X(434, pidfd_open, 2, 0, "Px", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* irregular: struct clone_args (args[1] bytes) says where the pidfd \
 * (offset 8), child_tid (16) and parent_tid (24) are written, by flags as \
 * for clone; .tls (56) becomes the child's fs base with CLONE_SETTLS */ \
X(435, clone3, 2, FR_F_PROCESS | FR_F_IRREGULAR, "pl", FR_ARG(0, 1, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
X(436, close_range, 3, 0, "uux", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(437, openat2, 4, FR_F_BLOCKING, "Dspl", FR_STR(1), FR_ARG(2, 3, 0), FR_D0, FR_D0, FR_D0) \
X(438, pidfd_getfd, 3, 0, "ddx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(439, faccessat2, 4, 0, "Dsxa", FR_STR(1), FR_D0, FR_D0, FR_D0, FR_D0) \
/* 6.1 allows only the non-destructive advice (COLD, PAGEOUT, WILLNEED, \
 * COLLAPSE) */ \
X(440, process_madvise, 5, 0, "dplix", FR_ARG(1, 2, 16), FR_D0, FR_D0, FR_D0, FR_D0) \
X(441, epoll_pwait2, 6, FR_F_BLOCKING, "dpippl", FR_FIX(3, 16), FR_ARG(4, 5, 0), FR_RET(1, 12), FR_D0, FR_D0) \
X(442, mount_setattr, 5, 0, "Dsxpl", FR_STR(1), FR_ARG(3, 4, 0), FR_D0, FR_D0, FR_D0) \
X(443, quotactl_fd, 4, FR_F_IRREGULAR, "dRip", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(444, landlock_create_ruleset, 3, 0, "plx", FR_ARG(0, 1, 0), FR_D0, FR_D0, FR_D0, FR_D0) \
/* struct landlock_path_beneath_attr is packed: 12 bytes */ \
X(445, landlock_add_rule, 4, 0, "dipx", FR_FIX(2, 12), FR_D0, FR_D0, FR_D0, FR_D0) \
X(446, landlock_restrict_self, 2, 0, "dx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
/* unsafe: secret memory is out of the kernel's reach, so memory tracking \
 * cannot copy its pages */ \
X(447, memfd_secret, 1, FR_F_UNSAFE, "x", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(448, process_mrelease, 2, 0, "dx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0) \
X(449, futex_waitv, 5, FR_F_BLOCKING, "puxpc", FR_ARG(0, 1, 24), FR_FIX(3, 16), FR_D0, FR_D0, FR_D0) \
X(450, set_mempolicy_home_node, 4, 0, "pllx", FR_D0, FR_D0, FR_D0, FR_D0, FR_D0)

/*
 * The request sub-table: the out-semantics of the irregular calls whose
 * behaviour is chosen by a request code.
 *
 *   R(nr, sysname, arg, mask, value, reqname, flags, in1, out1, out2)
 *
 *   A row matches a call of syscall nr when (args[arg] & mask) == value.
 *   Its descriptors use the syscall's argument numbering; its flags are or-ed
 *   into the syscall row's.  A request of one of these syscalls that matches
 *   no row has unknown out-semantics (the interval "may not replay"), with
 *   one exception: an ioctl request built with _IOR/_IOW/_IOWR (_IOC_TYPE
 *   not 0, _IOC_DIR not _IOC_NONE) not listed here is taken at its word:
 *   with _IOC_READ, _IOC_SIZE bytes at args[2] are out-data; with only
 *   _IOC_WRITE there is none.  An unlisted _IO() request is unknown.
 *   reqname is the constant's name in the uapi headers (syslog's are in
 *   include/linux/syslog.h; sysfs's options have no names, SYSFS_* are
 *   ours); tests/syscall_table.c checks the values.
 *   Rows are only added, or corrected; numbers are x86_64's.
 */
#define FR_ANY	0xffffffffu	/* compare the whole 32-bit request */

#define FLIGHTREC_REQUEST_TABLE(R) \
/* ioctl: legacy requests (no _IOC encoding); struct termios is the kernel's (36) */ \
R(16, ioctl, 1, FR_ANY, 0x5401, TCGETS, 0, FR_D0, FR_FIX(2, 36), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5402, TCSETS, 0, FR_FIX(2, 36), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5403, TCSETSW, 0, FR_FIX(2, 36), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5404, TCSETSF, 0, FR_FIX(2, 36), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5405, TCGETA, 0, FR_D0, FR_FIX(2, 18), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5406, TCSETA, 0, FR_FIX(2, 18), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5407, TCSETAW, 0, FR_FIX(2, 18), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5408, TCSETAF, 0, FR_FIX(2, 18), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5409, TCSBRK, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x540a, TCXONC, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x540b, TCFLSH, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x540c, TIOCEXCL, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x540d, TIOCNXCL, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x540e, TIOCSCTTY, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x540f, TIOCGPGRP, 0, FR_D0, FR_FIX(2, 4), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5410, TIOCSPGRP, 0, FR_FIX(2, 4), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5411, TIOCOUTQ, 0, FR_D0, FR_FIX(2, 4), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5412, TIOCSTI, 0, FR_FIX(2, 1), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5413, TIOCGWINSZ, 0, FR_D0, FR_FIX(2, 8), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5414, TIOCSWINSZ, 0, FR_FIX(2, 8), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5415, TIOCMGET, 0, FR_D0, FR_FIX(2, 4), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5416, TIOCMBIS, 0, FR_FIX(2, 4), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5417, TIOCMBIC, 0, FR_FIX(2, 4), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5418, TIOCMSET, 0, FR_FIX(2, 4), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5419, TIOCGSOFTCAR, 0, FR_D0, FR_FIX(2, 4), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x541a, TIOCSSOFTCAR, 0, FR_FIX(2, 4), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x541b, FIONREAD, 0, FR_D0, FR_FIX(2, 4), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x541d, TIOCCONS, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x541e, TIOCGSERIAL, 0, FR_D0, FR_FIX(2, 72), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x541f, TIOCSSERIAL, 0, FR_FIX(2, 72), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5420, TIOCPKT, 0, FR_FIX(2, 4), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5421, FIONBIO, 0, FR_FIX(2, 4), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5422, TIOCNOTTY, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5423, TIOCSETD, 0, FR_FIX(2, 4), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5424, TIOCGETD, 0, FR_D0, FR_FIX(2, 4), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5425, TCSBRKP, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5427, TIOCSBRK, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5428, TIOCCBRK, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5429, TIOCGSID, 0, FR_D0, FR_FIX(2, 4), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5450, FIONCLEX, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5451, FIOCLEX, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5452, FIOASYNC, 0, FR_FIX(2, 4), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x5460, FIOQSIZE, 0, FR_D0, FR_FIX(2, 8), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8901, FIOSETOWN, 0, FR_FIX(2, 4), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8902, SIOCSPGRP, 0, FR_FIX(2, 4), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8903, FIOGETOWN, 0, FR_D0, FR_FIX(2, 4), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8904, SIOCGPGRP, 0, FR_D0, FR_FIX(2, 4), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8905, SIOCATMARK, 0, FR_D0, FR_FIX(2, 4), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8906, SIOCGSTAMP_OLD, 0, FR_D0, FR_FIX(2, 16), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8907, SIOCGSTAMPNS_OLD, 0, FR_D0, FR_FIX(2, 16), FR_D0) \
/* struct ifreq (40 bytes) in and out */ \
R(16, ioctl, 1, FR_ANY, 0x8910, SIOCGIFNAME, 0, FR_FIX(2, 40), FR_FIX(2, 40), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8913, SIOCGIFFLAGS, 0, FR_FIX(2, 40), FR_FIX(2, 40), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8914, SIOCSIFFLAGS, 0, FR_FIX(2, 40), FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8915, SIOCGIFADDR, 0, FR_FIX(2, 40), FR_FIX(2, 40), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8917, SIOCGIFDSTADDR, 0, FR_FIX(2, 40), FR_FIX(2, 40), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8919, SIOCGIFBRDADDR, 0, FR_FIX(2, 40), FR_FIX(2, 40), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x891b, SIOCGIFNETMASK, 0, FR_FIX(2, 40), FR_FIX(2, 40), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x891d, SIOCGIFMETRIC, 0, FR_FIX(2, 40), FR_FIX(2, 40), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8921, SIOCGIFMTU, 0, FR_FIX(2, 40), FR_FIX(2, 40), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8927, SIOCGIFHWADDR, 0, FR_FIX(2, 40), FR_FIX(2, 40), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8933, SIOCGIFINDEX, 0, FR_FIX(2, 40), FR_FIX(2, 40), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x8942, SIOCGIFTXQLEN, 0, FR_FIX(2, 40), FR_FIX(2, 40), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x125e, BLKROGET, 0, FR_D0, FR_FIX(2, 4), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x125f, BLKRRPART, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x1260, BLKGETSIZE, 0, FR_D0, FR_FIX(2, 8), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x1261, BLKFLSBUF, 0, FR_D0, FR_D0, FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x1263, BLKRAGET, 0, FR_D0, FR_FIX(2, 8), FR_D0) \
R(16, ioctl, 1, FR_ANY, 0x1268, BLKSSZGET, 0, FR_D0, FR_FIX(2, 4), FR_D0) \
/* shmctl(id, cmd, buf): shmid_ds 112, shminfo 72, shm_info 48 */ \
R(31, shmctl, 1, FR_ANY, 0, IPC_RMID, 0, FR_D0, FR_D0, FR_D0) \
R(31, shmctl, 1, FR_ANY, 1, IPC_SET, 0, FR_FIX(2, 112), FR_D0, FR_D0) \
R(31, shmctl, 1, FR_ANY, 2, IPC_STAT, 0, FR_D0, FR_FIX(2, 112), FR_D0) \
R(31, shmctl, 1, FR_ANY, 3, IPC_INFO, 0, FR_D0, FR_FIX(2, 72), FR_D0) \
R(31, shmctl, 1, FR_ANY, 11, SHM_LOCK, 0, FR_D0, FR_D0, FR_D0) \
R(31, shmctl, 1, FR_ANY, 12, SHM_UNLOCK, 0, FR_D0, FR_D0, FR_D0) \
R(31, shmctl, 1, FR_ANY, 13, SHM_STAT, 0, FR_D0, FR_FIX(2, 112), FR_D0) \
R(31, shmctl, 1, FR_ANY, 14, SHM_INFO, 0, FR_D0, FR_FIX(2, 48), FR_D0) \
R(31, shmctl, 1, FR_ANY, 15, SHM_STAT_ANY, 0, FR_D0, FR_FIX(2, 112), FR_D0) \
/* semctl(id, num, cmd, arg): semid_ds 104, seminfo 40.  GETALL/SETALL \
 * (nsems u16s) are not listed: their size is the set's, unknown here */ \
R(66, semctl, 2, FR_ANY, 0, IPC_RMID, 0, FR_D0, FR_D0, FR_D0) \
R(66, semctl, 2, FR_ANY, 1, IPC_SET, 0, FR_FIX(3, 104), FR_D0, FR_D0) \
R(66, semctl, 2, FR_ANY, 2, IPC_STAT, 0, FR_D0, FR_FIX(3, 104), FR_D0) \
R(66, semctl, 2, FR_ANY, 3, IPC_INFO, 0, FR_D0, FR_FIX(3, 40), FR_D0) \
R(66, semctl, 2, FR_ANY, 11, GETPID, 0, FR_D0, FR_D0, FR_D0) \
R(66, semctl, 2, FR_ANY, 12, GETVAL, 0, FR_D0, FR_D0, FR_D0) \
R(66, semctl, 2, FR_ANY, 14, GETNCNT, 0, FR_D0, FR_D0, FR_D0) \
R(66, semctl, 2, FR_ANY, 15, GETZCNT, 0, FR_D0, FR_D0, FR_D0) \
R(66, semctl, 2, FR_ANY, 16, SETVAL, 0, FR_D0, FR_D0, FR_D0) \
R(66, semctl, 2, FR_ANY, 18, SEM_STAT, 0, FR_D0, FR_FIX(3, 104), FR_D0) \
R(66, semctl, 2, FR_ANY, 19, SEM_INFO, 0, FR_D0, FR_FIX(3, 40), FR_D0) \
R(66, semctl, 2, FR_ANY, 20, SEM_STAT_ANY, 0, FR_D0, FR_FIX(3, 104), FR_D0) \
/* msgctl(id, cmd, buf): msqid_ds 120, msginfo 32 */ \
R(71, msgctl, 1, FR_ANY, 0, IPC_RMID, 0, FR_D0, FR_D0, FR_D0) \
R(71, msgctl, 1, FR_ANY, 1, IPC_SET, 0, FR_FIX(2, 120), FR_D0, FR_D0) \
R(71, msgctl, 1, FR_ANY, 2, IPC_STAT, 0, FR_D0, FR_FIX(2, 120), FR_D0) \
R(71, msgctl, 1, FR_ANY, 3, IPC_INFO, 0, FR_D0, FR_FIX(2, 32), FR_D0) \
R(71, msgctl, 1, FR_ANY, 11, MSG_STAT, 0, FR_D0, FR_FIX(2, 120), FR_D0) \
R(71, msgctl, 1, FR_ANY, 12, MSG_INFO, 0, FR_D0, FR_FIX(2, 32), FR_D0) \
R(71, msgctl, 1, FR_ANY, 13, MSG_STAT_ANY, 0, FR_D0, FR_FIX(2, 120), FR_D0) \
/* fcntl(fd, cmd, arg): struct flock 32, f_owner_ex 8, rw hint u64 */ \
R(72, fcntl, 1, FR_ANY, 0, F_DUPFD, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 1, F_GETFD, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 2, F_SETFD, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 3, F_GETFL, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 4, F_SETFL, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 5, F_GETLK, 0, FR_FIX(2, 32), FR_FIX(2, 32), FR_D0) \
R(72, fcntl, 1, FR_ANY, 6, F_SETLK, 0, FR_FIX(2, 32), FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 7, F_SETLKW, 0, FR_FIX(2, 32), FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 8, F_SETOWN, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 9, F_GETOWN, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 10, F_SETSIG, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 11, F_GETSIG, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 15, F_SETOWN_EX, 0, FR_FIX(2, 8), FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 16, F_GETOWN_EX, 0, FR_D0, FR_FIX(2, 8), FR_D0) \
R(72, fcntl, 1, FR_ANY, 17, F_GETOWNER_UIDS, 0, FR_D0, FR_FIX(2, 8), FR_D0) \
R(72, fcntl, 1, FR_ANY, 36, F_OFD_GETLK, 0, FR_FIX(2, 32), FR_FIX(2, 32), FR_D0) \
R(72, fcntl, 1, FR_ANY, 37, F_OFD_SETLK, 0, FR_FIX(2, 32), FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 38, F_OFD_SETLKW, 0, FR_FIX(2, 32), FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 1024, F_SETLEASE, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 1025, F_GETLEASE, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 1026, F_NOTIFY, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 1030, F_DUPFD_CLOEXEC, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 1031, F_SETPIPE_SZ, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 1032, F_GETPIPE_SZ, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 1033, F_ADD_SEALS, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 1034, F_GET_SEALS, 0, FR_D0, FR_D0, FR_D0) \
R(72, fcntl, 1, FR_ANY, 1035, F_GET_RW_HINT, 0, FR_D0, FR_FIX(2, 8), FR_D0) \
R(72, fcntl, 1, FR_ANY, 1036, F_SET_RW_HINT, 0, FR_FIX(2, 8), FR_D0, FR_D0) \
/* ptrace(request, pid, addr, data): user_regs_struct 216, i387 512 */ \
R(101, ptrace, 0, FR_ANY, 0, PTRACE_TRACEME, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 1, PTRACE_PEEKTEXT, 0, FR_D0, FR_FIX(3, 8), FR_D0) \
R(101, ptrace, 0, FR_ANY, 2, PTRACE_PEEKDATA, 0, FR_D0, FR_FIX(3, 8), FR_D0) \
R(101, ptrace, 0, FR_ANY, 3, PTRACE_PEEKUSR, 0, FR_D0, FR_FIX(3, 8), FR_D0) \
R(101, ptrace, 0, FR_ANY, 4, PTRACE_POKETEXT, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 5, PTRACE_POKEDATA, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 6, PTRACE_POKEUSR, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 7, PTRACE_CONT, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 8, PTRACE_KILL, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 9, PTRACE_SINGLESTEP, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 12, PTRACE_GETREGS, 0, FR_D0, FR_FIX(3, 216), FR_D0) \
R(101, ptrace, 0, FR_ANY, 13, PTRACE_SETREGS, 0, FR_FIX(3, 216), FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 14, PTRACE_GETFPREGS, 0, FR_D0, FR_FIX(3, 512), FR_D0) \
R(101, ptrace, 0, FR_ANY, 15, PTRACE_SETFPREGS, 0, FR_FIX(3, 512), FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 16, PTRACE_ATTACH, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 17, PTRACE_DETACH, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 24, PTRACE_SYSCALL, 0, FR_D0, FR_D0, FR_D0) \
/* struct user_desc (16) at data */ \
R(101, ptrace, 0, FR_ANY, 25, PTRACE_GET_THREAD_AREA, 0, FR_D0, FR_FIX(3, 16), FR_D0) \
R(101, ptrace, 0, FR_ANY, 26, PTRACE_SET_THREAD_AREA, 0, FR_FIX(3, 16), FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 31, PTRACE_SYSEMU, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 32, PTRACE_SYSEMU_SINGLESTEP, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 33, PTRACE_SINGLEBLOCK, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 0x4200, PTRACE_SETOPTIONS, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 0x4201, PTRACE_GETEVENTMSG, 0, FR_D0, FR_FIX(3, 8), FR_D0) \
R(101, ptrace, 0, FR_ANY, 0x4202, PTRACE_GETSIGINFO, 0, FR_D0, FR_FIX(3, 128), FR_D0) \
R(101, ptrace, 0, FR_ANY, 0x4203, PTRACE_SETSIGINFO, 0, FR_FIX(3, 128), FR_D0, FR_D0) \
/* an iovec at data: the regset (addr: NT_*) at its base, its length set to the size */ \
R(101, ptrace, 0, FR_ANY, 0x4204, PTRACE_GETREGSET, 0, FR_D0, FR_FIX(3, 16), FR_IOV1(3)) \
R(101, ptrace, 0, FR_ANY, 0x4205, PTRACE_SETREGSET, 0, FR_D0, FR_FIX(3, 16), FR_D0) \
R(101, ptrace, 0, FR_ANY, 0x4206, PTRACE_SEIZE, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 0x4207, PTRACE_INTERRUPT, 0, FR_D0, FR_D0, FR_D0) \
R(101, ptrace, 0, FR_ANY, 0x4208, PTRACE_LISTEN, 0, FR_D0, FR_D0, FR_D0) \
/* ret siginfos (128 each) at data */ \
R(101, ptrace, 0, FR_ANY, 0x4209, PTRACE_PEEKSIGINFO, 0, FR_FIX(2, 16), FR_RET(3, 128), FR_D0) \
/* a signal set of addr bytes at data */ \
R(101, ptrace, 0, FR_ANY, 0x420a, PTRACE_GETSIGMASK, 0, FR_D0, FR_ARG(3, 2, 0), FR_D0) \
R(101, ptrace, 0, FR_ANY, 0x420b, PTRACE_SETSIGMASK, 0, FR_ARG(3, 2, 0), FR_D0, FR_D0) \
/* writes min(addr, size of the info) bytes, returns the size */ \
R(101, ptrace, 0, FR_ANY, 0x420e, PTRACE_GET_SYSCALL_INFO, 0, FR_D0, FR_ARGRET(3, 2, 0), FR_D0) \
/* writes min(addr, 32) bytes (struct ptrace_rseq_configuration), returns 32 */ \
R(101, ptrace, 0, FR_ANY, 0x420f, PTRACE_GET_RSEQ_CONFIGURATION, 0, FR_D0, FR_ARGRET(3, 2, 0), FR_D0) \
/* syslog(type, buf, len) */ \
R(103, syslog, 0, FR_ANY, 0, SYSLOG_ACTION_CLOSE, 0, FR_D0, FR_D0, FR_D0) \
R(103, syslog, 0, FR_ANY, 1, SYSLOG_ACTION_OPEN, 0, FR_D0, FR_D0, FR_D0) \
R(103, syslog, 0, FR_ANY, 2, SYSLOG_ACTION_READ, 0, FR_D0, FR_RET(1, 0), FR_D0) \
R(103, syslog, 0, FR_ANY, 3, SYSLOG_ACTION_READ_ALL, 0, FR_D0, FR_RET(1, 0), FR_D0) \
R(103, syslog, 0, FR_ANY, 4, SYSLOG_ACTION_READ_CLEAR, 0, FR_D0, FR_RET(1, 0), FR_D0) \
R(103, syslog, 0, FR_ANY, 5, SYSLOG_ACTION_CLEAR, 0, FR_D0, FR_D0, FR_D0) \
R(103, syslog, 0, FR_ANY, 6, SYSLOG_ACTION_CONSOLE_OFF, 0, FR_D0, FR_D0, FR_D0) \
R(103, syslog, 0, FR_ANY, 7, SYSLOG_ACTION_CONSOLE_ON, 0, FR_D0, FR_D0, FR_D0) \
R(103, syslog, 0, FR_ANY, 8, SYSLOG_ACTION_CONSOLE_LEVEL, 0, FR_D0, FR_D0, FR_D0) \
R(103, syslog, 0, FR_ANY, 9, SYSLOG_ACTION_SIZE_UNREAD, 0, FR_D0, FR_D0, FR_D0) \
R(103, syslog, 0, FR_ANY, 10, SYSLOG_ACTION_SIZE_BUFFER, 0, FR_D0, FR_D0, FR_D0) \
/* sysfs(option, ...): option 2 writes a file system name of unknown \
 * length: not listed */ \
R(139, sysfs, 0, FR_ANY, 1, SYSFS_FSINDEX, 0, FR_STR(1), FR_D0, FR_D0) \
R(139, sysfs, 0, FR_ANY, 3, SYSFS_NFS, 0, FR_D0, FR_D0, FR_D0) \
/* prctl(option, arg2, arg3, arg4, arg5): arg2 is args[1] */ \
R(157, prctl, 0, FR_ANY, 1, PR_SET_PDEATHSIG, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 2, PR_GET_PDEATHSIG, 0, FR_D0, FR_FIX(1, 4), FR_D0) \
R(157, prctl, 0, FR_ANY, 3, PR_GET_DUMPABLE, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 4, PR_SET_DUMPABLE, 0, FR_D0, FR_D0, FR_D0) \
/* 5, 6, 9..12, 19, 20, 45, 46, 50, 51, 54..56, 60, 61, 63, 64: EINVAL on x86 */ \
R(157, prctl, 0, FR_ANY, 5, PR_GET_UNALIGN, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 6, PR_SET_UNALIGN, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 7, PR_GET_KEEPCAPS, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 8, PR_SET_KEEPCAPS, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 9, PR_GET_FPEMU, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 10, PR_SET_FPEMU, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 11, PR_GET_FPEXC, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 12, PR_SET_FPEXC, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 13, PR_GET_TIMING, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 14, PR_SET_TIMING, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 15, PR_SET_NAME, 0, FR_STR(1), FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 16, PR_GET_NAME, 0, FR_D0, FR_FIX(1, 16), FR_D0) \
R(157, prctl, 0, FR_ANY, 19, PR_GET_ENDIAN, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 20, PR_SET_ENDIAN, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 21, PR_GET_SECCOMP, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 22, PR_SET_SECCOMP, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 23, PR_CAPBSET_READ, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 24, PR_CAPBSET_DROP, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 25, PR_GET_TSC, 0, FR_D0, FR_FIX(1, 4), FR_D0) \
/* PR_TSC_SIGSEGV makes rdtsc fault in this thread: re-executed */ \
R(157, prctl, 0, FR_ANY, 26, PR_SET_TSC, FR_F_THREADAREA, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 27, PR_GET_SECUREBITS, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 28, PR_SET_SECUREBITS, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 29, PR_SET_TIMERSLACK, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 30, PR_GET_TIMERSLACK, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 31, PR_TASK_PERF_EVENTS_DISABLE, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 32, PR_TASK_PERF_EVENTS_ENABLE, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 33, PR_MCE_KILL, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 34, PR_MCE_KILL_GET, 0, FR_D0, FR_D0, FR_D0) \
/* unsafe: rewrites the mm's brk, stack, arg and env bounds and exe file; \
 * PR_SET_MM_MAP_SIZE writes a u32 at args[2] */ \
R(157, prctl, 0, FR_ANY, 35, PR_SET_MM, FR_F_UNSAFE, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 36, PR_SET_CHILD_SUBREAPER, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 37, PR_GET_CHILD_SUBREAPER, 0, FR_D0, FR_FIX(1, 4), FR_D0) \
R(157, prctl, 0, FR_ANY, 38, PR_SET_NO_NEW_PRIVS, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 39, PR_GET_NO_NEW_PRIVS, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 40, PR_GET_TID_ADDRESS, 0, FR_D0, FR_FIX(1, 8), FR_D0) \
R(157, prctl, 0, FR_ANY, 41, PR_SET_THP_DISABLE, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 42, PR_GET_THP_DISABLE, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 43, PR_MPX_ENABLE_MANAGEMENT, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 44, PR_MPX_DISABLE_MANAGEMENT, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 45, PR_SET_FP_MODE, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 46, PR_GET_FP_MODE, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 47, PR_CAP_AMBIENT, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 50, PR_SVE_SET_VL, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 51, PR_SVE_GET_VL, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 52, PR_GET_SPECULATION_CTRL, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 53, PR_SET_SPECULATION_CTRL, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 54, PR_PAC_RESET_KEYS, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 55, PR_SET_TAGGED_ADDR_CTRL, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 56, PR_GET_TAGGED_ADDR_CTRL, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 57, PR_SET_IO_FLUSHER, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 58, PR_GET_IO_FLUSHER, 0, FR_D0, FR_D0, FR_D0) \
/* unsafe: replay runs the application under its own Syscall User Dispatch */ \
R(157, prctl, 0, FR_ANY, 59, PR_SET_SYSCALL_USER_DISPATCH, FR_F_UNSAFE, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 60, PR_PAC_SET_ENABLED_KEYS, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 61, PR_PAC_GET_ENABLED_KEYS, 0, FR_D0, FR_D0, FR_D0) \
/* PR_SCHED_CORE_GET writes the u64 cookie at args[4]; the others need 0 there */ \
R(157, prctl, 0, FR_ANY, 62, PR_SCHED_CORE, 0, FR_D0, FR_FIX(4, 8), FR_D0) \
R(157, prctl, 0, FR_ANY, 63, PR_SME_SET_VL, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 64, PR_SME_GET_VL, 0, FR_D0, FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 0x53564d41, PR_SET_VMA, 0, FR_STR(4), FR_D0, FR_D0) \
R(157, prctl, 0, FR_ANY, 0x59616d61, PR_SET_PTRACER, 0, FR_D0, FR_D0, FR_D0) \
/* arch_prctl(code, addr) */ \
R(158, arch_prctl, 0, FR_ANY, 0x1001, ARCH_SET_GS, 0, FR_D0, FR_D0, FR_D0) \
R(158, arch_prctl, 0, FR_ANY, 0x1002, ARCH_SET_FS, 0, FR_D0, FR_D0, FR_D0) \
R(158, arch_prctl, 0, FR_ANY, 0x1003, ARCH_GET_FS, 0, FR_D0, FR_FIX(1, 8), FR_D0) \
R(158, arch_prctl, 0, FR_ANY, 0x1004, ARCH_GET_GS, 0, FR_D0, FR_FIX(1, 8), FR_D0) \
R(158, arch_prctl, 0, FR_ANY, 0x1011, ARCH_GET_CPUID, 0, FR_D0, FR_D0, FR_D0) \
/* cpuid faulting: replay may need the same trap for itself */ \
R(158, arch_prctl, 0, FR_ANY, 0x1012, ARCH_SET_CPUID, 0, FR_D0, FR_D0, FR_D0) \
R(158, arch_prctl, 0, FR_ANY, 0x1021, ARCH_GET_XCOMP_SUPP, 0, FR_D0, FR_FIX(1, 8), FR_D0) \
R(158, arch_prctl, 0, FR_ANY, 0x1022, ARCH_GET_XCOMP_PERM, 0, FR_D0, FR_FIX(1, 8), FR_D0) \
/* grants AMX state to the process: needed before replay touches it */ \
R(158, arch_prctl, 0, FR_ANY, 0x1023, ARCH_REQ_XCOMP_PERM, 0, FR_D0, FR_D0, FR_D0) \
R(158, arch_prctl, 0, FR_ANY, 0x1024, ARCH_GET_XCOMP_GUEST_PERM, 0, FR_D0, FR_FIX(1, 8), FR_D0) \
R(158, arch_prctl, 0, FR_ANY, 0x1025, ARCH_REQ_XCOMP_GUEST_PERM, 0, FR_D0, FR_D0, FR_D0) \
R(158, arch_prctl, 0, FR_ANY, 0x2001, ARCH_MAP_VDSO_X32, FR_F_ADDRSPACE, FR_D0, FR_D0, FR_D0) \
R(158, arch_prctl, 0, FR_ANY, 0x2002, ARCH_MAP_VDSO_32, FR_F_ADDRSPACE, FR_D0, FR_D0, FR_D0) \
R(158, arch_prctl, 0, FR_ANY, 0x2003, ARCH_MAP_VDSO_64, FR_F_ADDRSPACE, FR_D0, FR_D0, FR_D0) \
/* quotactl(QCMD(cmd, type), special, id, addr): if_dqinfo 24, if_dqblk 72, \
 * if_nextdqblk 72 */ \
R(179, quotactl, 0, 0xffffff00u, 0x80000100u, Q_SYNC, 0, FR_D0, FR_D0, FR_D0) \
R(179, quotactl, 0, 0xffffff00u, 0x80000200u, Q_QUOTAON, 0, FR_D0, FR_D0, FR_D0) \
R(179, quotactl, 0, 0xffffff00u, 0x80000300u, Q_QUOTAOFF, 0, FR_D0, FR_D0, FR_D0) \
R(179, quotactl, 0, 0xffffff00u, 0x80000400u, Q_GETFMT, 0, FR_D0, FR_FIX(3, 4), FR_D0) \
R(179, quotactl, 0, 0xffffff00u, 0x80000500u, Q_GETINFO, 0, FR_D0, FR_FIX(3, 24), FR_D0) \
R(179, quotactl, 0, 0xffffff00u, 0x80000600u, Q_SETINFO, 0, FR_FIX(3, 24), FR_D0, FR_D0) \
R(179, quotactl, 0, 0xffffff00u, 0x80000700u, Q_GETQUOTA, 0, FR_D0, FR_FIX(3, 72), FR_D0) \
R(179, quotactl, 0, 0xffffff00u, 0x80000800u, Q_SETQUOTA, 0, FR_FIX(3, 72), FR_D0, FR_D0) \
R(179, quotactl, 0, 0xffffff00u, 0x80000900u, Q_GETNEXTQUOTA, 0, FR_D0, FR_FIX(3, 72), FR_D0) \
/* futex(uaddr, op, val, utime|val2, uaddr2, val3): op & FUTEX_CMD_MASK */ \
R(202, futex, 1, 0x7f, 0, FUTEX_WAIT, 0, FR_FIX(3, 16), FR_D0, FR_D0) \
R(202, futex, 1, 0x7f, 1, FUTEX_WAKE, 0, FR_D0, FR_D0, FR_D0) \
R(202, futex, 1, 0x7f, 3, FUTEX_REQUEUE, 0, FR_D0, FR_D0, FR_D0) \
R(202, futex, 1, 0x7f, 4, FUTEX_CMP_REQUEUE, 0, FR_D0, FR_D0, FR_D0) \
R(202, futex, 1, 0x7f, 5, FUTEX_WAKE_OP, 0, FR_D0, FR_FIX(4, 4), FR_D0) \
R(202, futex, 1, 0x7f, 6, FUTEX_LOCK_PI, 0, FR_FIX(3, 16), FR_FIX(0, 4), FR_D0) \
R(202, futex, 1, 0x7f, 7, FUTEX_UNLOCK_PI, 0, FR_D0, FR_FIX(0, 4), FR_D0) \
R(202, futex, 1, 0x7f, 8, FUTEX_TRYLOCK_PI, 0, FR_D0, FR_FIX(0, 4), FR_D0) \
R(202, futex, 1, 0x7f, 9, FUTEX_WAIT_BITSET, 0, FR_FIX(3, 16), FR_D0, FR_D0) \
R(202, futex, 1, 0x7f, 10, FUTEX_WAKE_BITSET, 0, FR_D0, FR_D0, FR_D0) \
/* the waiter wakes up owning the PI futex at uaddr2 */ \
R(202, futex, 1, 0x7f, 11, FUTEX_WAIT_REQUEUE_PI, 0, FR_FIX(3, 16), FR_FIX(4, 4), FR_D0) \
R(202, futex, 1, 0x7f, 12, FUTEX_CMP_REQUEUE_PI, 0, FR_D0, FR_FIX(4, 4), FR_D0) \
R(202, futex, 1, 0x7f, 13, FUTEX_LOCK_PI2, 0, FR_FIX(3, 16), FR_FIX(0, 4), FR_D0) \
/* keyctl(cmd, arg2, arg3, arg4, arg5); the PKEY_ENCRYPT.. family (25-28) \
 * writes a size found in its params: not listed */ \
R(250, keyctl, 0, FR_ANY, 0, KEYCTL_GET_KEYRING_ID, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 1, KEYCTL_JOIN_SESSION_KEYRING, 0, FR_STR(1), FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 2, KEYCTL_UPDATE, 0, FR_ARG(2, 3, 0), FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 3, KEYCTL_REVOKE, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 4, KEYCTL_CHOWN, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 5, KEYCTL_SETPERM, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 6, KEYCTL_DESCRIBE, 0, FR_D0, FR_ARGRET(2, 3, 0), FR_D0) \
R(250, keyctl, 0, FR_ANY, 7, KEYCTL_CLEAR, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 8, KEYCTL_LINK, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 9, KEYCTL_UNLINK, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 10, KEYCTL_SEARCH, 0, FR_STR(2), FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 11, KEYCTL_READ, 0, FR_D0, FR_ARGRET(2, 3, 0), FR_D0) \
R(250, keyctl, 0, FR_ANY, 12, KEYCTL_INSTANTIATE, 0, FR_ARG(2, 3, 0), FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 13, KEYCTL_NEGATE, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 14, KEYCTL_SET_REQKEY_KEYRING, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 15, KEYCTL_SET_TIMEOUT, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 16, KEYCTL_ASSUME_AUTHORITY, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 17, KEYCTL_GET_SECURITY, 0, FR_D0, FR_ARGRET(2, 3, 0), FR_D0) \
R(250, keyctl, 0, FR_ANY, 18, KEYCTL_SESSION_TO_PARENT, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 19, KEYCTL_REJECT, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 20, KEYCTL_INSTANTIATE_IOV, 0, FR_IOV(2, 3), FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 21, KEYCTL_INVALIDATE, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 22, KEYCTL_GET_PERSISTENT, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 23, KEYCTL_DH_COMPUTE, 0, FR_D0, FR_ARGRET(2, 3, 0), FR_D0) \
R(250, keyctl, 0, FR_ANY, 29, KEYCTL_RESTRICT_KEYRING, 0, FR_STR(2), FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 30, KEYCTL_MOVE, 0, FR_D0, FR_D0, FR_D0) \
R(250, keyctl, 0, FR_ANY, 31, KEYCTL_CAPABILITIES, 0, FR_D0, FR_ARGRET(1, 2, 0), FR_D0) \
R(250, keyctl, 0, FR_ANY, 32, KEYCTL_WATCH_KEY, 0, FR_D0, FR_D0, FR_D0) \
/* seccomp(op, flags, args): struct seccomp_notif_sizes is 3 u16 */ \
R(317, seccomp, 0, FR_ANY, 0, SECCOMP_SET_MODE_STRICT, 0, FR_D0, FR_D0, FR_D0) \
R(317, seccomp, 0, FR_ANY, 1, SECCOMP_SET_MODE_FILTER, 0, FR_FIX(2, 16), FR_D0, FR_D0) \
R(317, seccomp, 0, FR_ANY, 2, SECCOMP_GET_ACTION_AVAIL, 0, FR_FIX(2, 4), FR_D0, FR_D0) \
R(317, seccomp, 0, FR_ANY, 3, SECCOMP_GET_NOTIF_SIZES, 0, FR_D0, FR_FIX(2, 6), FR_D0) \
/* quotactl_fd(fd, QCMD(cmd, 0), id, addr): as quotactl */ \
R(443, quotactl_fd, 1, 0xffffff00u, 0x80000100u, Q_SYNC, 0, FR_D0, FR_D0, FR_D0) \
R(443, quotactl_fd, 1, 0xffffff00u, 0x80000200u, Q_QUOTAON, 0, FR_D0, FR_D0, FR_D0) \
R(443, quotactl_fd, 1, 0xffffff00u, 0x80000300u, Q_QUOTAOFF, 0, FR_D0, FR_D0, FR_D0) \
R(443, quotactl_fd, 1, 0xffffff00u, 0x80000400u, Q_GETFMT, 0, FR_D0, FR_FIX(3, 4), FR_D0) \
R(443, quotactl_fd, 1, 0xffffff00u, 0x80000500u, Q_GETINFO, 0, FR_D0, FR_FIX(3, 24), FR_D0) \
R(443, quotactl_fd, 1, 0xffffff00u, 0x80000600u, Q_SETINFO, 0, FR_FIX(3, 24), FR_D0, FR_D0) \
R(443, quotactl_fd, 1, 0xffffff00u, 0x80000700u, Q_GETQUOTA, 0, FR_D0, FR_FIX(3, 72), FR_D0) \
R(443, quotactl_fd, 1, 0xffffff00u, 0x80000800u, Q_SETQUOTA, 0, FR_FIX(3, 72), FR_D0, FR_D0) \
R(443, quotactl_fd, 1, 0xffffff00u, 0x80000900u, Q_GETNEXTQUOTA, 0, FR_D0, FR_FIX(3, 72), FR_D0)

#endif /* _UAPI_LINUX_FLIGHTREC_SYSCALL_TABLE_H */
