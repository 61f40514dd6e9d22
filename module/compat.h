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
 * Interfaces the module and tests/modules use that need no entry here,
 * checked against 6.1, 6.12 and mainline (7.2 merge window), with what
 * changed around them and why the code is right on every kernel:
 *
 * - prepare_kernel_cred(&init_task): the module never passes NULL, which
 *   returns NULL since 6.2 ("cred: Do not default to init_cred in
 *   prepare_kernel_cred()"). 6.19 added kernel_cred() and
 *   scoped_with_kernel_creds() ("cred: add kernel_cred() helper", "cred:
 *   add scoped_with_kernel_creds()"), which avoid the copy but need
 *   linux/cleanup.h's classes (6.5 on); the copy, made once at load, is
 *   still the supported way.
 * - override_creds()/revert_creds(): since 6.14 (the _light variants of
 *   6.13 renamed over them, "cred: remove old {override,revert}_creds()
 *   helpers") they take no reference and revert_creds() returns the
 *   override; before,
 *   override_creds() took one and revert_creds() dropped it. The calls
 *   are the same, and the module's credentials live from load to unload,
 *   so either way they outlive every override.
 * - debugfs_create_file(): a _Generic macro since 6.13 ("debugfs: add
 *   small file operations for most files"), which picks
 *   debugfs_create_file_full() for a const struct file_operations *, the
 *   only kind the module passes; debugfs_create_file_aux() and
 *   debugfs_get_aux() (6.14) and struct debugfs_node (an alias of struct
 *   dentry) are not needed. debugfs_create_dir(), debugfs_remove(),
 *   debugfs_remove_recursive(), debugfs_create_bool(),
 *   debugfs_create_atomic_t(), simple_open(), default_llseek() and
 *   noop_llseek() are unchanged (no_llseek, removed in 6.12, is not used).
 *   DEFINE_DEBUGFS_ATTRIBUTE is not used (debugfs.c says why).
 * - seq_file: single_open(), __seq_open_private(), seq_read(),
 *   seq_lseek(), seq_printf(), seq_has_overflowed() and
 *   DEFINE_SHOW_ATTRIBUTE(): unchanged.
 * - alloc_workqueue(): mainline warns about a queue with neither
 *   WQ_PERCPU (added in 6.17, "workqueue: Add new WQ_PERCPU flag") nor
 *   WQ_UNBOUND (7.2, "workqueue: Add warnings and ensure one among
 *   WQ_PERCPU or WQ_UNBOUND is present"); the module's queue is
 *   WQ_UNBOUND, which every kernel has. Delayed works and their
 *   cancel/mod/queue calls are unchanged; no timer is used directly (so
 *   neither the 6.15 del_timer_sync() -> timer_delete_sync() nor the 6.16
 *   from_timer() -> timer_container_of() renames apply).
 * - bus_register_notifier() and pci_bus_type: const struct bus_type
 *   since the driver core's constification in 6.3 and 6.4; the module
 *   passes &pci_bus_type either way. dev->class is a const struct class *
 *   since 6.4: only its name is read.
 * - __pm_runtime_suspend() (exported, amdgpu.c says why it is called
 *   directly), pm_runtime_status_suspended(), dev->power.last_busy
 *   and, in tests/modules, pm_runtime_get_sync(),
 *   pm_runtime_put_autosuspend() (which marks the last-busy time itself
 *   since 6.17, "PM: runtime: Mark last busy stamp in
 *   pm_runtime_put_autosuspend()"; the test driver's own
 *   pm_runtime_mark_last_busy() is then redundant, not wrong),
 *   RUNTIME_PM_OPS() and pm_ptr(): unchanged in use.
 * - kern_mount(), kern_unmount(), get_fs_type(), file_open_root(),
 *   kernel_read(), kobject_get_path(), device_lock(), put_device(),
 *   pci_dev_get(), for_each_pci_dev(), pci_register_driver(),
 *   hwmon_device_register_with_groups(), sysfs_emit(),
 *   sysfs_update_group(), device_add_groups(): unchanged.
 * - strscpy() (strlcpy(), removed in 6.8, is not used), kstrtouint(),
 *   kstrtos64(), kstrto*_from_user(), kasprintf(), kvmalloc(), kvcalloc():
 *   unchanged. MODULE_IMPORT_NS (a string since 6.13) is not used.
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
 * 6.7: "seq_file: add helper macro to define attribute for rw file",
 * DEFINE_SHOW_STORE_ATTRIBUTE(): a read-write single_open() file from
 * __name##_show and __name##_write; defined as in that commit where it
 * is missing (tested by name: a macro).
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

/*
 * 6.14: "driver core: Constify API device_find_child() then adapt for
 * various usages". The match function takes const void *data. Before,
 * it took void *: the call goes through a match of the old type that
 * calls the new-style one, without casting a function pointer.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 14, 0)
struct gt_find_child {
	int (*match)(struct device *dev, const void *data);
	const void *data;
};

static inline int gt_find_child_match(struct device *dev, void *data)
{
	const struct gt_find_child *f = data;

	return f->match(dev, f->data);
}

static inline struct device *
gt_device_find_child(struct device *parent, const void *data,
		     int (*match)(struct device *dev, const void *data))
{
	struct gt_find_child f = { .match = match, .data = data };

	return device_find_child(parent, &f, gt_find_child_match);
}

#define device_find_child(parent, data, match) gt_device_find_child(parent, data, match)
#endif

/*
 * 6.13: "drm/amd/pm: use pm_runtime_get_if_active for debugfs getters"
 * (drivers/gpu/drm/amd/pm/amdgpu_pm.c). Before it, every amdgpu sensor
 * attribute took pm_runtime_get_sync() (6.1) or pm_runtime_resume_and_get()
 * and so woke a runtime-suspended GPU; from 6.13 on it takes
 * pm_runtime_get_if_active() and fails with -EPERM instead (6.15 wraps the
 * same in amdgpu_pm_get_access_if_active(), "drm/amd/pm: Add APIs for
 * device access checks"). Used by tests/modules/gt_test_driver.c, which
 * behaves as the amdgpu of the kernel it is built for.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
#define GT_AMDGPU_SENSOR_READ_WAKES	1
#else
#define GT_AMDGPU_SENSOR_READ_WAKES	0
#endif

/*
 * 6.13 to 6.14: amdgpu's sensor getters drop their reference with
 * pm_runtime_put_autosuspend() alone ("drm/amd/pm: use
 * pm_runtime_get_if_active for debugfs getters"); before, and again from
 * 6.15 on (amdgpu_pm_put_access(), "drm/amd/pm: Add APIs for device access
 * checks"; from 6.17 pm_runtime_put_autosuspend() itself, "PM: runtime:
 * Mark last busy stamp in pm_runtime_put_autosuspend()"), a read marks the
 * device busy. The test driver copies this.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0) && \
	LINUX_VERSION_CODE < KERNEL_VERSION(6, 15, 0)
#define GT_AMDGPU_SENSOR_READ_MARKS_BUSY	0
#else
#define GT_AMDGPU_SENSOR_READ_MARKS_BUSY	1
#endif

#endif /* _GPUTELEMETRY_COMPAT_H */
