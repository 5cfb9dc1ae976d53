/* SPDX-License-Identifier: GPL-2.0 */
/* libflightrec: the userspace side of flightrec. */
#ifndef LIBFLIGHTREC_H
#define LIBFLIGHTREC_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

/* Exit codes of the flightrec command (also shown by flightrec --help). */
#define FR_EXIT_OK		0	/* success; replay: ended as recorded */
#define FR_EXIT_FAIL		1	/* the operation failed or was refused */
#define FR_EXIT_BADFILE		2	/* a checkpoint file is damaged or not one */
#define FR_EXIT_NOMODULE	3	/* the flightrec module is not loaded */
#define FR_EXIT_ABI		4	/* the module speaks another ABI version */
#define FR_EXIT_DIVERGED	5	/* replay: the program left the recorded path */
#define FR_EXIT_MISMATCH	6	/* replay: the end differs from the recorded one */
#define FR_EXIT_BLOCKED		7	/* replay: the sandbox blocked a system call */
#define FR_EXIT_EXEC		8	/* replay: reached the exec at the end of an image */
#define FR_EXIT_USAGE		64	/* bad command line */

#define FR_EXIT_CODES_HELP \
	"exit status:\n" \
	"  0  success (replay: the recorded end was reproduced)\n" \
	"  1  the operation failed or was refused\n" \
	"  2  a checkpoint file is damaged or not a checkpoint\n" \
	"  3  the flightrec module is not loaded\n" \
	"  4  the module speaks another ABI version\n" \
	"  5  replay diverged from the recording\n" \
	"  6  replay ended differently from the recording\n" \
	"  7  replay stopped: the sandbox blocked a system call the program made\n" \
	"  8  replay reached an exec, where the recording's next image starts\n" \
	"     (flightrec gdb and --gdbserver replay one image at a time)\n" \
	" 64  bad command line\n"

/*
 * Untrusted strings (lib/safe.c).  Everything a checkpoint, the module or a
 * recorded process says (comm, exe, paths, uname, tool versions, file
 * names) is printed through these: bytes below 0x20, DEL, backslash, C1
 * controls and invalid UTF-8 become C-style escapes (\x1b, \\); valid
 * UTF-8 text stays as it is.  The result is cut with "..." to fit buf.
 */
const char *fr_escape(const char *s, char *buf, size_t size);
const char *fr_escape_n(const char *s, size_t n, char *buf, size_t size);
/* malloc'ed escaped copy (free it), or NULL without memory */
char *fr_escape_dup(const char *s);

/*
 * Files the tools write (lib/safe.c): in a directory opened without
 * following a symlink, created O_CREAT|O_EXCL|O_NOFOLLOW with mode 0600.
 * fr_out_dir() creates DIR 0700, its missing parents too (fr_mkdir_parents),
 * or takes an existing one (refused when not empty unless force) and returns
 * its fd, or -1 with a message in err.
 * fr_out_private_dir() makes a fresh PREFIX.XXXXXX (mkdtemp, 0700), its
 * name in path.  fr_out_file() creates NAME in the directory; with force an
 * existing entry of that name is unlinked first (a symlink, not its
 * target).  -1 with errno on failure.
 */
int fr_out_dir(const char *path, int force, char *err, size_t errlen);
int fr_out_private_dir(const char *prefix, char *path, size_t pathlen, char *err,
		       size_t errlen);
int fr_out_file(int dirfd, const char *name, int force);
/* creates the missing directories above PATH's last component, 0700 (mkdir -p) */
int fr_mkdir_parents(const char *path, char *err, size_t errlen);

/*
 * The helper programs the tools run (lib/safe.c): the path named by the
 * environment variable @env when it is set, else the first executable of
 * @build_rel (the build tree, user/), ../libexec/flightrec/@name and
 * ../lib/flightrec/@name beside this program (/proc/self/exe), else
 * /usr/libexec/flightrec/@name; NULL if none is.  The result lives until
 * the next call.
 */
const char *fr_helper_path(const char *env, const char *name, const char *build_rel);

/*
 * A decimal number in [min, max], nothing else around it: true and *v, or
 * false.  fr_parse_u64: any number strtoull reads in that base (0: 0x hex
 * too), no sign, no space, nothing after it.
 */
bool fr_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *v);
bool fr_parse_u64(const char *s, int base, uint64_t *v);

/* CLOCK_MONOTONIC in nanoseconds: timings, deadlines */
uint64_t fr_mono_ns(void);

/*
 * Whether a hardware watchpoint set through ptrace on this machine stops
 * the thread that writes (lib/dregs.c): 1 it does, 0 it does not (the
 * registers are refused, or they take and never trigger: a hypervisor that
 * does not pass them on), -1 with errno when it could not be told (no
 * fork, no ptrace).  It forks a child and waits for that pid only.
 */
int fr_debugregs_trigger(void);

/*
 * Whether rdtsc faults on this machine under PR_SET_TSC(PR_TSC_SIGSEGV),
 * as the recorder and the loader have it fault (lib/dregs.c): a hypervisor
 * may ignore CR4.TSD.  Tried once, in a child that handles the fault (an
 * unhandled one would be a line in the kernel log); the answer is kept.
 */
bool fr_rdtsc_traps(void);

/*
 * Moves the caller into a fresh user and mount namespace (and network
 * namespace with FR_ROOT_NET) whose root is an empty read-only tmpfs; the
 * old root is detached.  Open what you need before: fds survive.  The
 * CLONE_NEW* flags of the namespaces it made (CLONE_NEWUSER is left out
 * where the caller is privileged and the kernel refused it), or -errno
 * with the step that failed in err.
 */
#define FR_ROOT_NET	0x1
int fr_empty_root(unsigned int flags, char *err, size_t errlen);
/*
 * The same, and where nsfds is not NULL, the namespaces it made opened
 * (O_CLOEXEC) before the old root went, for another process to join with
 * setns(): [0] user, [1] mount, [2] network; -1 for one not made or that
 * could not be opened (no /proc), all -1 on failure.
 */
#define FR_NS_FDS	3
/* the CLONE_NEW* type of each of those, in that order (for setns()) */
extern const int fr_ns_type[FR_NS_FDS];
int fr_empty_root_fds(unsigned int flags, int *nsfds, char *err, size_t errlen);

/*
 * The tools' version: the top-level VERSION file, which the Makefiles pass as
 * -DFR_VERSION (one number for module, ABI and tools).  Left undefined without
 * it, so that a build that forgets it fails where the version is used.
 */
#ifdef FR_VERSION
#define FR_TOOL_VERSION FR_VERSION
#endif

/*
 * The netlink client (lib/client.c).  Functions return 0 or -errno; the
 * kernel's message for a refusal (its extack) is copied into err, or is
 * fr_client_error(c) for the calls without an err argument.
 */
struct fr_client;
struct nlattr;

#define FR_ENOMODULE	(-10001)	/* the flightrec module is not loaded */
#define FR_EABI		(-10002)	/* the module speaks another ABI version */

/*
 * Resolves the "flightrec" family and checks the module's ABI version:
 * FR_ENOMODULE when the family does not exist, FR_EABI on a mismatch.
 */
int fr_client_open(struct fr_client **out, char *err, size_t errlen);
void fr_client_close(struct fr_client *c);
/* the module's version string; its ABI version in *abi */
const char *fr_client_version(struct fr_client *c, uint32_t *abi);
/* the message of the last failure */
const char *fr_client_error(const struct fr_client *c);

/* interval_ms, keep: 0 = the module's default; at_exit, serial: -1 = default (off) */
struct fr_reg_opts {
	uint32_t interval_ms, keep;
	int at_exit;
	int serial;	/* threads run user code one at a time (FLIGHTREC_A_SERIAL) */
	/* 1: nothing before the next exec is kept (FLIGHTREC_A_START_AT_EXEC) */
	int start_at_exec;
};
int fr_client_register_opts(struct fr_client *c, uint32_t pid,
			    const struct fr_reg_opts *o, char *err, size_t errlen);
int fr_client_register(struct fr_client *c, uint32_t pid, uint32_t interval_ms,
		       uint32_t keep, int at_exit, char *err, size_t errlen);
int fr_client_unregister(struct fr_client *c, uint32_t pid, char *err,
			 size_t errlen);

/* one registered process, as LIST reports it */
struct fr_proc_info {
	uint32_t pid;		/* in the caller's pid namespace */
	char comm[16];
	uint32_t interval_ms, keep, nr_threads, nr_intervals, nr_dumps;
	int at_exit, frozen;
	uint64_t nr_syscalls, lost, lost_pages, dropped, bytes;
	uint32_t stop_reason;	/* enum flightrec_stop_reason: recording stopped */
};

/*
 * Calls cb for each registered process, from one consistent reading (it is
 * read again when a registration changes it meanwhile).  A non-zero return
 * of cb stops the walk and is returned.
 */
int fr_client_list(struct fr_client *c,
		   int (*cb)(const struct fr_proc_info *info, void *arg),
		   void *arg);

/* Freezes a copy of the process's ring: its id in *dump_id. */
int fr_client_dump(struct fr_client *c, uint32_t pid, uint32_t *dump_id,
		   char *err, size_t errlen);
int fr_client_release_dump(struct fr_client *c, uint32_t dump_id, char *err,
			   size_t errlen);

struct fr_dump_info {
	uint32_t id, pid;
	uint32_t ppid;		/* the parent when the dump was frozen */
	char comm[16];
	uint32_t end_kind;	/* enum flightrec_end_kind */
	uint32_t signo;		/* with FLIGHTREC_END_FAULT */
	uint64_t bytes;
};

int fr_client_list_dumps(struct fr_client *c,
			 int (*cb)(const struct fr_dump_info *info, void *arg),
			 void *arg);

/*
 * Reads the records of a frozen dump: cb gets each FLIGHTREC_CMD_RECORD
 * message parsed against fr_nl_policy (tb indexed by FLIGHTREC_A_*).  A
 * non-zero return of cb ends the read (the rest is drained) and is
 * returned.  A dump whose data changed while it was read (NLM_F_DUMP_INTR)
 * fails with -EINTR and says so.  The _raw variant also passes the message's
 * whole attribute stream (a SYSCALL record has one FLIGHTREC_A_OUT nest per
 * out-buffer, which tb cannot hold; parse each with fr_nl_out_policy).
 */
int fr_client_get_dump(struct fr_client *c, uint32_t dump_id,
		       int (*cb)(struct nlattr **tb, void *arg), void *arg,
		       char *err, size_t errlen);
int fr_client_get_dump_raw(struct fr_client *c, uint32_t dump_id,
			   int (*cb)(struct nlattr **tb,
				     const struct nlattr *attrs, int attrlen,
				     void *arg),
			   void *arg, char *err, size_t errlen);

/*
 * The syscall records of a registered process's live ring (GET_RECORDS),
 * oldest first, each as fr_client_get_dump_raw() passes them.
 */
int fr_client_get_records(struct fr_client *c, uint32_t pid,
			  int (*cb)(struct nlattr **tb,
				    const struct nlattr *attrs, int attrlen,
				    void *arg),
			  void *arg, char *err, size_t errlen);

/*
 * The attribute policies of uapi/flightrec.h in libnl's form, for
 * nla_parse(): FLIGHTREC_A_MAX + 1 and FLIGHTREC_OUT_MAX + 1 entries.
 */
struct nla_policy;
const struct nla_policy *fr_nl_attr_policy(void);
const struct nla_policy *fr_nl_out_attr_policy(void);

/* Events of the "events" multicast group, on a socket of their own. */
struct fr_event {
	uint32_t event;		/* enum flightrec_event */
	uint32_t pid;		/* initial pid namespace */
	uint32_t dump_id;	/* 0: none */
	uint32_t stop_reason;	/* FLIGHTREC_EVENT_STOPPED: enum flightrec_stop_reason */
};

int fr_client_subscribe(struct fr_client *c, char *err, size_t errlen);
/* the events socket, for poll(); -1 before fr_client_subscribe() */
int fr_client_event_fd(const struct fr_client *c);
/*
 * Waits up to timeout_ms (-1: for ever) for the next event: 1 and *ev
 * filled, 0 on timeout, -ENOBUFS when events were lost (the socket
 * overflowed; later events still come), other -errno on failure.
 */
int fr_client_next_event(struct fr_client *c, int timeout_ms,
			 struct fr_event *ev);
const char *fr_event_name(uint32_t event);
/* "exec-changed-credentials", ... for enum flightrec_stop_reason */
const char *fr_stop_reason_name(uint32_t reason);

/* flightrec log PID (user/cmd/livelog.c) */
int fr_log_live(uint32_t pid, unsigned int flags);

#endif /* LIBFLIGHTREC_H */
