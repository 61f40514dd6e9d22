/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gputelemetry: every difference between the kernels the module supports,
 * from 6.1 LTS to mainline, in one place.
 *
 * Each entry names the kernel version that changed the interface and the
 * subject of the commit that did, in the manner of the kernel's own
 * backport headers: the module's code is written against the newest
 * interface, and this file provides it on the older kernels. Nothing else
 * in the module (or in tests/modules) tests LINUX_VERSION_CODE.
 *
 * Interfaces the module uses that are the same on every supported kernel
 * and so need no entry here (checked against 6.1, 6.12 and mainline):
 * prepare_kernel_cred(&init_task) (the module never passes NULL, which
 * returns NULL since 6.2, "cred: Do not default to init_cred in
 * prepare_kernel_cred()"), kern_mount(), file_open_root(), kernel_read(),
 * bus_register_notifier(), pm_runtime_status_suspended(), the debugfs
 * creation functions and DEFINE_DEBUGFS_ATTRIBUTE.
 */
#ifndef _GPUTELEMETRY_COMPAT_H
#define _GPUTELEMETRY_COMPAT_H

#include <linux/pm_runtime.h>
#include <linux/seq_file.h>
#include <linux/version.h>

/*
 * 6.12: "move asm/unaligned.h to linux/unaligned.h". The old header is
 * gone from 6.12 on; the new one does not exist before.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * 6.9: "PM: runtime: Simplify pm_runtime_get_if_active() usage". The
 * ign_usage_count argument was dropped: pm_runtime_get_if_active(dev) now
 * always ignores the usage count (the old call with true), and
 * pm_runtime_get_if_in_use() is the call for false.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 9, 0)
static inline int gt_pm_runtime_get_if_active(struct device *dev)
{
	return pm_runtime_get_if_active(dev, true);
}
#else
static inline int gt_pm_runtime_get_if_active(struct device *dev)
{
	return pm_runtime_get_if_active(dev);
}
#endif

/*
 * 6.2: "seq_file: add DEFINE_SHOW_STORE_ATTRIBUTE() helper macro". A
 * read-write single_open() file from __name##_show and __name##_write;
 * defined as in the commit where it is missing.
 */
#ifndef DEFINE_SHOW_STORE_ATTRIBUTE
#define DEFINE_SHOW_STORE_ATTRIBUTE(__name)				\
static int __name ## _open(struct inode *inode, struct file *file)	\
{									\
	return single_open(file, __name ## _show, inode->i_private);	\
}									\
									\
static const struct file_operations __name ## _fops = {			\
	.owner		= THIS_MODULE,					\
	.open		= __name ## _open,				\
	.read		= seq_read,					\
	.write		= __name ## _write,				\
	.llseek		= seq_lseek,					\
	.release	= single_release,				\
}
#endif

#endif /* _GPUTELEMETRY_COMPAT_H */
