// SPDX-License-Identifier: GPL-2.0
/*
 * flightrec: module parameters, init and exit.
 *
 * Each part of the module has an init and an exit function; they run in the
 * order below and are undone in reverse.  The control planes (procfs, netlink)
 * come last, so no registration can arrive before everything under them is
 * ready, and go first at unload.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include "flightrec.h"

#define FR_RING_MB_MIN	1
#define FR_RING_MB_MAX	65536	/* 64 GiB */

unsigned int fr_ring_mb = 256;
unsigned int fr_interval_ms = 250;
unsigned int fr_keep = 8;

/*
 * The parameters can be changed at run time through sysfs: each setter
 * refuses anything but a number in range with EINVAL (an overflowing number
 * too, not ERANGE) and keeps the old value.
 */
static int fr_set_uint(const char *val, const struct kernel_param *kp,
		       unsigned int min, unsigned int max)
{
	return param_set_uint_minmax(val, kp, min, max) ? -EINVAL : 0;
}

static int fr_set_ring_mb(const char *val, const struct kernel_param *kp)
{
	int err = fr_set_uint(val, kp, FR_RING_MB_MIN, FR_RING_MB_MAX);

	/* a lower cap holds at once, not at the next record */
	if (!err)
		fr_enforce_cap();
	return err;
}

static int fr_set_interval_ms(const char *val, const struct kernel_param *kp)
{
	return fr_set_uint(val, kp, FLIGHTREC_INTERVAL_MS_MIN,
			   FLIGHTREC_INTERVAL_MS_MAX);
}

static int fr_set_keep(const char *val, const struct kernel_param *kp)
{
	return fr_set_uint(val, kp, FLIGHTREC_KEEP_MIN, FLIGHTREC_KEEP_MAX);
}

static const struct kernel_param_ops fr_ring_mb_ops = {
	.set = fr_set_ring_mb,
	.get = param_get_uint,
};

static const struct kernel_param_ops fr_interval_ms_ops = {
	.set = fr_set_interval_ms,
	.get = param_get_uint,
};

static const struct kernel_param_ops fr_keep_ops = {
	.set = fr_set_keep,
	.get = param_get_uint,
};

module_param_cb(ring_mb, &fr_ring_mb_ops, &fr_ring_mb, 0644);
MODULE_PARM_DESC(ring_mb,
		 "memory cap for recorded data, all processes together, in MiB (1-65536, default 256)");
module_param_cb(interval_ms, &fr_interval_ms_ops, &fr_interval_ms, 0644);
MODULE_PARM_DESC(interval_ms,
		 "default interval length in milliseconds (10-60000, default 250)");
module_param_cb(keep, &fr_keep_ops, &fr_keep, 0644);
MODULE_PARM_DESC(keep, "default number of intervals kept per process (1-64, default 8)");

static int __init flightrec_init(void)
{
	int err;

	if (FR_PREEMPT_RT) {
		pr_err("PREEMPT_RT kernels are not supported: the probes take spinlock_t and allocate memory with preemption or interrupts off, which may sleep there\n");
		return -EOPNOTSUPP;
	}
	if (!FR_ENTRY_REREADS_NR) {
		pr_err("this kernel runs a system call whose number a sys_enter probe changed (it lacks upstream fb13b11d5387, in 6.1.84, 6.6.24 and 6.9): held calls would run twice; update the kernel\n");
		return -EOPNOTSUPP;
	}
	err = fr_arena_init();
	if (err)
		return err;
	err = fr_registry_init();
	if (err)
		goto out_arena;
	err = fr_syscall_init();
	if (err)
		goto out_registry;
	err = fr_memory_init();
	if (err)
		goto out_syscall;
	err = fr_interval_init();
	if (err)
		goto out_memory;
	err = fr_trigger_init();
	if (err)
		goto out_interval;
	fr_ptrace_init();	/* optional: says so when it cannot probe */
	err = fr_procfs_init();
	if (err)
		goto out_ptrace;
	err = fr_netlink_init();
	if (err)
		goto out_procfs;

	pr_info("version %s loaded (abi %d, ring_mb=%u interval_ms=%u keep=%u)\n",
		FR_VERSION, FLIGHTREC_ABI_VERSION, fr_ring_mb, fr_interval_ms,
		fr_keep);
	return 0;

out_procfs:
	fr_procfs_exit();
out_ptrace:
	fr_ptrace_exit();
	fr_trigger_exit();
out_interval:
	fr_interval_exit();
out_memory:
	fr_memory_exit();
out_syscall:
	fr_syscall_exit();
out_registry:
	fr_registry_exit();
out_arena:
	fr_arena_exit();
	return err;
}

static void __exit flightrec_exit(void)
{
	/* no new commands from here on */
	fr_netlink_exit();
	fr_procfs_exit();
	/* no tracer's change is noted from here on */
	fr_ptrace_exit();
	/* stop recording every process while all the parts are still there */
	fr_unregister_all();
	fr_trigger_exit();
	fr_interval_exit();
	fr_memory_exit();
	fr_syscall_exit();
	fr_registry_exit();
	/* after the last record and thread: the chunks kept for reuse */
	fr_arena_exit();
	pr_info("unloaded\n");
}

module_init(flightrec_init);
module_exit(flightrec_exit);

MODULE_LICENSE("GPL");
MODULE_VERSION(FR_VERSION);
MODULE_DESCRIPTION("flightrec: records registered processes for partial-checkpoint replay");
MODULE_ALIAS_GENL_FAMILY(FLIGHTREC_GENL_NAME);
