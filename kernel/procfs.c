// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: /proc/flightrec/control and /proc/flightrec/status.
 *
 * control (0600, root, CAP_SYS_ADMIN): one command per line,
 *	register PID [interval_ms=N] [keep=N] [at_exit=0|1] [serial=0|1]
 *	unregister PID
 *	dump PID
 * Fields are separated by spaces or tabs; each key appears at most once.
 * PID is a process ID (not a thread ID) in the writer's pid namespace.
 *
 * Each write(2) must hold whole lines, every one ending in '\n', each at most
 * FLIGHTREC_CTL_LINE_MAX bytes with its '\n', at most FR_CTL_WRITE_MAX bytes
 * in all; a command split across two writes is refused.  The whole write is
 * checked first: if any line is malformed, nothing is done and the write
 * fails with EINVAL.  Then the lines run in order and stop at the first that
 * fails: when it is the first line, the write fails with its error (ESRCH,
 * EEXIST, ENOENT, EPERM, ...); otherwise the write returns the number of
 * bytes of the lines that ran (a short write), and writing the rest again
 * reports the error.  The reason for a refusal goes to the kernel log.
 *
 * status (0400): the module's settings and memory, then one line per
 * registered process, as "key value" pairs.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/proc_fs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/ctype.h>
#include <linux/capability.h>
#include <linux/uaccess.h>
#include "flightrec.h"

#define FR_CTL_WRITE_MAX	(16 * FLIGHTREC_CTL_LINE_MAX)
#define FR_CTL_MAX_FIELDS	6	/* register PID and four keys */

static struct proc_dir_entry *fr_proc_dir;

enum fr_ctl_verb {
	FR_CTL_REGISTER,
	FR_CTL_UNREGISTER,
	FR_CTL_DUMP,
};

struct fr_ctl_cmd {
	enum fr_ctl_verb verb;
	pid_t pid;
	u32 interval_ms, keep;
	bool at_exit, serial;
};

/* Decimal digits only: no sign, no blanks, no base prefix. */
static int fr_ctl_u32(const char *s, u32 *val)
{
	const char *p;

	if (!*s)
		return -EINVAL;
	for (p = s; *p; p++)
		if (!isdigit(*p))
			return -EINVAL;
	return kstrtou32(s, 10, val) ? -EINVAL : 0;
}

static int fr_ctl_pid(const char *s, pid_t *pid,
		      struct netlink_ext_ack *extack)
{
	u32 val;

	if (fr_ctl_u32(s, &val) || !val || val > INT_MAX) {
		NL_SET_ERR_MSG_MOD(extack,
				   "PID must be a decimal number from 1 to 2147483647");
		return -EINVAL;
	}
	*pid = val;
	return 0;
}

static int fr_ctl_key(struct fr_ctl_cmd *cmd, char *field, unsigned int *seen,
		      struct netlink_ext_ack *extack)
{
	static const char * const keys[] = { "interval_ms", "keep", "at_exit", "serial" };
	char *val = strchr(field, '=');
	unsigned int i;
	u32 num;

	if (!val) {
		NL_SET_ERR_MSG_MOD(extack, "expected key=value after the PID");
		return -EINVAL;
	}
	*val++ = '\0';
	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(field, keys[i]))
			break;
	if (i == ARRAY_SIZE(keys)) {
		NL_SET_ERR_MSG_MOD(extack,
				   "unknown key (interval_ms, keep, at_exit, serial)");
		return -EINVAL;
	}
	if (*seen & BIT(i)) {
		NL_SET_ERR_MSG_MOD(extack, "a key is given twice");
		return -EINVAL;
	}
	*seen |= BIT(i);
	if (fr_ctl_u32(val, &num)) {
		NL_SET_ERR_MSG_MOD(extack, "a value is not a decimal number");
		return -EINVAL;
	}
	switch (i) {
	case 0:
		if (num < FLIGHTREC_INTERVAL_MS_MIN ||
		    num > FLIGHTREC_INTERVAL_MS_MAX) {
			NL_SET_ERR_MSG_MOD(extack,
					   "interval_ms out of range (" __stringify(FLIGHTREC_INTERVAL_MS_MIN)
					   "-" __stringify(FLIGHTREC_INTERVAL_MS_MAX) ")");
			return -EINVAL;
		}
		cmd->interval_ms = num;
		break;
	case 1:
		if (num < FLIGHTREC_KEEP_MIN || num > FLIGHTREC_KEEP_MAX) {
			NL_SET_ERR_MSG_MOD(extack,
					   "keep out of range (" __stringify(FLIGHTREC_KEEP_MIN)
					   "-" __stringify(FLIGHTREC_KEEP_MAX) ")");
			return -EINVAL;
		}
		cmd->keep = num;
		break;
	default:
		if (num > 1) {
			if (i == 2)
				NL_SET_ERR_MSG_MOD(extack, "at_exit must be 0 or 1");
			else
				NL_SET_ERR_MSG_MOD(extack, "serial must be 0 or 1");
			return -EINVAL;
		}
		if (i == 2)
			cmd->at_exit = num;
		else
			cmd->serial = num;
		break;
	}
	return 0;
}

/* Parses one line (no '\n'); modifies it.  0 or -EINVAL. */
static int fr_ctl_parse(char *line, struct fr_ctl_cmd *cmd,
			struct netlink_ext_ack *extack)
{
	char *field[FR_CTL_MAX_FIELDS + 1];
	unsigned int n = 0, i, seen = 0;
	char *tok;
	int err;

	while ((tok = strsep(&line, " \t"))) {
		if (!*tok)
			continue;
		if (n == ARRAY_SIZE(field)) {
			NL_SET_ERR_MSG_MOD(extack, "too many fields");
			return -EINVAL;
		}
		field[n++] = tok;
	}
	if (!n) {
		NL_SET_ERR_MSG_MOD(extack, "empty command");
		return -EINVAL;
	}

	memset(cmd, 0, sizeof(*cmd));
	cmd->interval_ms = READ_ONCE(fr_interval_ms);
	cmd->keep = READ_ONCE(fr_keep);
	if (!strcmp(field[0], "register")) {
		cmd->verb = FR_CTL_REGISTER;
	} else if (!strcmp(field[0], "unregister")) {
		cmd->verb = FR_CTL_UNREGISTER;
	} else if (!strcmp(field[0], "dump")) {
		cmd->verb = FR_CTL_DUMP;
	} else {
		NL_SET_ERR_MSG_MOD(extack,
				   "unknown command (register, unregister, dump)");
		return -EINVAL;
	}
	if (n < 2) {
		NL_SET_ERR_MSG_MOD(extack, "missing PID");
		return -EINVAL;
	}
	err = fr_ctl_pid(field[1], &cmd->pid, extack);
	if (err)
		return err;
	if (cmd->verb != FR_CTL_REGISTER && n > 2) {
		NL_SET_ERR_MSG_MOD(extack, "too many fields");
		return -EINVAL;
	}
	for (i = 2; i < n; i++) {
		err = fr_ctl_key(cmd, field[i], &seen, extack);
		if (err)
			return err;
	}
	return 0;
}

static int fr_ctl_run(const struct fr_ctl_cmd *cmd,
		      struct netlink_ext_ack *extack)
{
	u32 dump_id;

	switch (cmd->verb) {
	case FR_CTL_REGISTER:
		return fr_register(cmd->pid, cmd->interval_ms, cmd->keep,
				   cmd->at_exit, cmd->serial, false, false,
				   extack);
	case FR_CTL_UNREGISTER:
		return fr_unregister(cmd->pid, extack);
	case FR_CTL_DUMP:
		return fr_dump_request(cmd->pid, &dump_id, extack);
	}
	return -EINVAL;
}

/* Parses and runs one control line (no '\n').  0 or -errno. */
int fr_ctl_exec(char *line, struct netlink_ext_ack *extack)
{
	struct fr_ctl_cmd cmd;
	int err;

	err = fr_ctl_parse(line, &cmd, extack);
	if (err)
		return err;
	return fr_ctl_run(&cmd, extack);
}

static void fr_ctl_report(const char *line, int err,
			  const struct netlink_ext_ack *extack)
{
	pr_info_ratelimited("control: \"%.64s\" refused (%d): %s\n", line, err,
			    extack->_msg ?: "no reason given");
}

/*
 * Checks the framing of the whole write and the syntax of every line.
 * Splits @buf into lines in place; returns the number of lines or -EINVAL.
 */
static int fr_ctl_check(char *buf, size_t count)
{
	struct netlink_ext_ack extack = {};
	struct fr_ctl_cmd cmd;
	char *line, *nl, *copy;
	int n = 0, err = 0;

	if (memchr(buf, '\0', count)) {
		pr_info_ratelimited("control: write refused: it contains a NUL byte\n");
		return -EINVAL;
	}
	if (buf[count - 1] != '\n') {
		pr_info_ratelimited("control: write refused: it must end with a newline (whole lines only)\n");
		return -EINVAL;
	}
	copy = kmalloc(FLIGHTREC_CTL_LINE_MAX, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	for (line = buf; line < buf + count; line = nl + 1) {
		nl = strchr(line, '\n');
		if (nl - line + 1 > FLIGHTREC_CTL_LINE_MAX) {
			pr_info_ratelimited("control: write refused: a line is longer than %d bytes\n",
					    FLIGHTREC_CTL_LINE_MAX);
			err = -EINVAL;
			break;
		}
		*nl = '\0';
		memcpy(copy, line, nl - line + 1);
		err = fr_ctl_parse(copy, &cmd, &extack);
		if (err) {
			fr_ctl_report(line, err, &extack);
			break;
		}
		n++;
	}
	kfree(copy);
	return err ?: n;
}

static ssize_t fr_ctl_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	struct netlink_ext_ack extack;
	char *buf, *line;
	size_t done = 0;
	int nlines, i;
	ssize_t ret;

	/* the opener and the writer both: no fd passing either way */
	if (!file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN) ||
	    !capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!count)
		return 0;
	if (count > FR_CTL_WRITE_MAX)
		return -EINVAL;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);

	nlines = fr_ctl_check(buf, count);
	if (nlines < 0) {
		ret = nlines;
		goto out_free;
	}
	/* fr_ctl_check() left the lines NUL-terminated, one after the other */
	for (i = 0, line = buf; i < nlines; i++) {
		size_t len = strlen(line) + 1;
		char shown[64];
		int err;

		strscpy(shown, line, sizeof(shown));	/* the parser cuts it up */
		memset(&extack, 0, sizeof(extack));
		err = fr_ctl_exec(line, &extack);
		if (err) {
			fr_ctl_report(shown, err, &extack);
			ret = done ? done : err;
			goto out_free;
		}
		done += len;
		line += len;
	}
	ret = count;
out_free:
	kfree(buf);
	return ret;
}

static const struct proc_ops fr_ctl_ops = {
	.proc_write	= fr_ctl_write,
	.proc_lseek	= noop_llseek,
};

static int fr_status_show(struct seq_file *m, void *v)
{
	struct fr_proc_stats st;
	struct fr_proc *proc;
	unsigned int n = 0;

	seq_printf(m, "version %s abi %d\n", FR_VERSION, FLIGHTREC_ABI_VERSION);
	seq_printf(m, "ring_mb %u interval_ms %u keep %u\n",
		   READ_ONCE(fr_ring_mb), READ_ONCE(fr_interval_ms),
		   READ_ONCE(fr_keep));
	seq_printf(m, "bytes %lld cap %llu\n", atomic64_read(&fr_bytes),
		   (unsigned long long)READ_ONCE(fr_ring_mb) << 20);
	seq_printf(m, "pool %llu\n", fr_arena_pooled_bytes());
	seq_printf(m, "objects procs %d threads %d\n",
		   atomic_read(&fr_live_procs), atomic_read(&fr_live_threads));
	seq_printf(m, "stamps %s\n",
		   static_branch_likely(&fr_tsc_stamps) ? "tsc" : "ktime");

	mutex_lock(&fr_registry_lock);
	list_for_each_entry(proc, &fr_proc_list, lnode)
		n++;
	seq_printf(m, "processes %u\n", n);
	list_for_each_entry(proc, &fr_proc_list, lnode) {
		fr_proc_stats(proc, &st);
		if (!st.pid)	/* not in the reader's pid namespace */
			continue;
		seq_printf(m,
			   "pid %d threads %u interval_ms %u keep %u at_exit %d intervals %u syscalls %llu lost %llu lost_pages %llu dropped %llu bytes %llu dumps %llu frozen %d boundaries %llu boundary_ns_avg %llu boundary_ns_max %llu serial %d stopped %u\n",
			   st.pid, st.nr_threads, st.interval_ms, st.keep,
			   st.at_exit, st.nr_ring, st.nr_syscalls, st.lost,
			   st.lost_pages, st.dropped, st.bytes, st.nr_dumps,
			   st.frozen, st.nr_boundaries, st.boundary_ns_avg,
			   st.boundary_ns_max, st.serial, st.stop_reason);
	}
	mutex_unlock(&fr_registry_lock);
	return 0;
}

int fr_procfs_init(void)
{
	fr_proc_dir = proc_mkdir("flightrec", NULL);
	if (!fr_proc_dir)
		return -ENOMEM;
	if (!proc_create("control", 0600, fr_proc_dir, &fr_ctl_ops))
		goto out_remove;
	if (!proc_create_single("status", 0400, fr_proc_dir, fr_status_show))
		goto out_remove;
	return 0;

out_remove:
	remove_proc_subtree("flightrec", NULL);
	return -ENOMEM;
}

/* Waits for the readers and writers inside the files to leave. */
void fr_procfs_exit(void)
{
	remove_proc_subtree("flightrec", NULL);
}
