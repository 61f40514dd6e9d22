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
 * 6.13: "drm/amd/pm: use pm_runtime_get_if_active for debugfs getters"
 * (drivers/gpu/drm/amd/pm/amdgpu_pm.c). Before it, every amdgpu sensor
 * attribute took pm_runtime_get_sync() (6.1) or pm_runtime_resume_and_get()
 * and so woke a runtime-suspended GPU; from 6.13 on it takes
 * pm_runtime_get_if_active() and fails with -EPERM instead (6.15 wraps the
 * same in amdgpu_pm_get_access_if_active(), "drm/amd/pm: Add APIs for
 * device access checks"). Used by tests/modules/gt_test_amdgpu.c, which
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
