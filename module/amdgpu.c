// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: the "amdgpu" source - readings from amdgpu's own sysfs
 * interface, read only.
 *
 * amdgpu exports no in-kernel API for its sensors: they exist only as
 * sysfs attributes (its hwmon device, attributes of its PCI device, the
 * KFD topology). This source reads those files the way a userspace tool
 * does, by name, through the VFS, on a private kernel mount of sysfs:
 *
 * - the names, units and formats are amdgpu's documented userspace ABI
 *   (Documentation/gpu/amdgpu/thermal.rst and driver-misc.rst), the least
 *   likely part of amdgpu to change, unlike its internal structures and
 *   functions, which this module never touches;
 * - every read goes through kernfs, which holds an active reference on the
 *   attribute for the duration of its show() and makes removal wait for
 *   it: an attribute that disappears (amdgpu hides what a board lacks;
 *   unbind removes all) gives -ENOENT or -ENODEV here, shown as
 *   "unavailable", never a stale pointer;
 * - the private mount (kern_mount) does not depend on where, or whether,
 *   the reading task's mount namespace has sysfs; the files are opened with
 *   the kernel's credentials, so that neither the sampler's worker nor a
 *   reader of "sensors" needs its own permission on them.
 *
 * The limits: a read costs an open, a read and a close per file (a dozen
 * files per sample; the sampler's cost is in "stats"); the hwmon device is
 * looked up once per binding, at the first read (amdgpu registers it
 * during probe); the values are what amdgpu prints, so its rounding is kept;
 * an attribute amdgpu renames is seen as missing.
 *
 * Runtime PM: amdgpu's sensor attributes call pm_runtime_get_sync() up to
 * 6.12, which resumes a runtime-suspended GPU; from 6.13 on they take
 * pm_runtime_get_if_active() and fail with -EPERM instead (compat.h,
 * GT_AMDGPU_SENSOR_READ_WAKES). Before reading anything this source takes
 * pm_runtime_get_if_active() itself: a reference only if the device is
 * RPM_ACTIVE (whatever its usage count), else nothing is read and the
 * device shows as suspended, on every kernel. With the reference held the
 * device cannot suspend during the read, and amdgpu's own get finds it
 * active. amdgpu also answers -EPERM while a system suspend or a GPU reset
 * is in progress (amdgpu_pm.c, amdgpu_hwmon_get_sensor_generic() in 6.1 and
 * 6.12, amdgpu_pm_dev_state_check() from 6.15): a read that fails so is
 * shown as suspended, never as an error (gt_amdgpu_read(),
 * gt_amdgpu_read_metrics()).
 *
 * amdgpu's handlers mark the device busy (pm_runtime_mark_last_busy()
 * before pm_runtime_put_autosuspend() in 6.1 and 6.12; again from 6.15),
 * which would push its autosuspend back at every sample and keep an idle
 * GPU awake for as long as it is sampled; so the last-busy time seen before
 * the read is put back before the reference is dropped. The reference is
 * dropped as amdgpu's own handlers drop theirs, straight to an autosuspend
 * request, not with pm_runtime_put(): that one runs the driver's
 * runtime_idle callback, and amdgpu_pmops_runtime_idle() (amdgpu_drv.c,
 * 6.1, 6.12 and mainline) calls pm_runtime_mark_last_busy() itself, which
 * would undo the restore. The trade-off: a real use of the GPU during those
 * few microseconds loses its own mark (the GPU may then suspend that much
 * earlier; amdgpu's runtime_suspend callback still refuses while a display
 * is lit, and any user of the GPU holds its own reference).
 *
 * Locking: the source ops are called between gt_source_enter() and
 * gt_source_leave() (source.c), holding of this module's locks only a
 * text file's own mutex (or running in the sampling work) and, while
 * looking up, probe_lock; the detach on unbind waits for them. Nothing
 * here takes a device lock, so that the detach, which holds the device
 * lock, cannot wait on a read that waits for it. A sysfs
 * read takes the kernfs and seq_file mutexes of the file it opened;
 * lockdep gives each of those one class for all files, which is why no
 * lock of the notifier's path is held across a read here, and why the
 * debugfs files that read a source are not seq_files while reading
 * (debugfs.c, struct gt_text).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/kobject.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/path.h>
#include <linux/pci.h>
#include <linux/pm_runtime.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "compat.h"
#include "gputelemetry.h"

/* The private sysfs mount and the credentials files are opened with. */
static struct vfsmount *gt_sysfs_mnt;
static const struct cred *gt_sysfs_cred;

/**
 * gt_sysfs_init() - mount sysfs privately, for the amdgpu source's reads
 *
 * Called by pci.c, which owns the amdgpu source, at its init.
 *
 * Return: 0 or a negative errno.
 */
int gt_sysfs_init(void)
{
	struct file_system_type *fs;
	struct vfsmount *mnt;
	struct cred *cred;

	cred = prepare_kernel_cred(&init_task);
	if (!cred)
		return -ENOMEM;
	fs = get_fs_type("sysfs");
	if (!fs) {
		put_cred(cred);
		return -ENODEV;
	}
	mnt = kern_mount(fs);
	module_put(fs->owner);
	if (IS_ERR(mnt)) {
		pr_err("cannot mount sysfs (%ld)\n", PTR_ERR(mnt));
		put_cred(cred);
		return PTR_ERR(mnt);
	}
	gt_sysfs_mnt = mnt;
	gt_sysfs_cred = cred;
	return 0;
}

/**
 * gt_sysfs_fini() - drop the private sysfs mount
 *
 * Called by pci.c at its fini, when every PCI device is detached from the
 * amdgpu source (so that no read is in flight or starts). Files still
 * being closed keep the mount alive until they are.
 */
void gt_sysfs_fini(void)
{
	kern_unmount(gt_sysfs_mnt);
	gt_sysfs_mnt = NULL;
	put_cred(gt_sysfs_cred);
	gt_sysfs_cred = NULL;
}

/*
 * Reads sysfs file @dir/@name (relative to the sysfs root) into @buf, at
 * most @size bytes. Returns the length or a negative errno: -ENOENT when
 * the file does not exist, -ENODEV when it was removed while open, or the
 * error its show() returned.
 */
static ssize_t gt_sysfs_read(const char *dir, const char *name, void *buf, size_t size)
{
	struct path root = { .mnt = gt_sysfs_mnt, .dentry = gt_sysfs_mnt->mnt_root };
	const struct cred *old;
	struct file *f;
	ssize_t ret, len = 0;
	loff_t pos = 0;
	char *path;

	path = kasprintf(GFP_KERNEL, "%s/%s", dir, name);
	if (!path)
		return -ENOMEM;
	old = override_creds(gt_sysfs_cred);
	f = file_open_root(&root, path, O_RDONLY, 0);
	kfree(path);
	if (IS_ERR(f)) {
		ret = PTR_ERR(f);
		goto out_revert_creds;
	}
	while (len < size) {
		ret = kernel_read(f, buf + len, size - len, &pos);
		if (ret < 0)
			goto out_fput;
		if (ret == 0)
			break;
		len += ret;
	}
	ret = len;
out_fput:
	fput(f);
out_revert_creds:
	revert_creds(old);
	return ret;
}

/* Reads a file holding one decimal integer. Returns 0 or a negative errno. */
static int gt_sysfs_read_s64(const char *dir, const char *name, s64 *val)
{
	char buf[32];
	ssize_t len;

	len = gt_sysfs_read(dir, name, buf, sizeof(buf) - 1);
	if (len < 0)
		return len;
	buf[len] = '\0';
	return kstrtos64(strim(buf), 10, val);
}

/**
 * struct gt_pm_ref - a runtime PM reference taken for a read
 * @held: a usage count reference is held
 * @last_busy: the device's last-busy time before the read
 */
struct gt_pm_ref {
	bool held;
	u64 last_busy;
};

/*
 * Whether @dev may be read now without waking it; when true, the caller
 * reads, then calls gt_pm_put(). Runtime PM disabled (-EINVAL: no driver
 * support, or system sleep in progress) reads unless the device was left
 * suspended.
 */
static bool gt_pm_get(struct device *dev, struct gt_pm_ref *ref)
{
	int ret;

	ret = gt_pm_runtime_get_if_active(dev);
	ref->held = ret > 0;
	if (ret > 0) {
		ref->last_busy = READ_ONCE(dev->power.last_busy);
		return true;
	}
	if (ret == 0)
		return false;
	return !pm_runtime_status_suspended(dev);
}

static void gt_pm_put(struct device *dev, struct gt_pm_ref *ref)
{
	if (!ref->held)
		return;
	/* Undo the busy mark of the driver's handlers: see the top comment. */
	WRITE_ONCE(dev->power.last_busy, ref->last_busy);
	/*
	 * pm_runtime_put_autosuspend() of 6.1 and 6.12 (from 6.17 on it
	 * marks the device busy, "PM: runtime: Mark last busy stamp in
	 * pm_runtime_put_autosuspend()"): no runtime_idle callback, no busy
	 * mark; suspend once the restored last-busy time is older than the
	 * delay. __pm_runtime_suspend() is exported on every kernel.
	 */
	__pm_runtime_suspend(dev, RPM_GET_PUT | RPM_ASYNC | RPM_AUTO);
}

/**
 * struct gt_amdgpu_sensor - where one reading comes from
 * @id: the reading
 * @hwmon: a file of the hwmon device, else of the PCI device
 * @file: its name
 * @div: the file's unit per the reading's unit (Hz per MHz: 1000000)
 */
struct gt_amdgpu_sensor {
	enum gt_sensor id;
	bool hwmon;
	const char *file;
	u32 div;
};

/*
 * From GT_SENSORS (uapi/gputelemetry.h): the file of each reading. Power is
 * two readings, each named for what it is: the SMU's average power and the
 * instantaneous input power (uW). amdgpu shows whichever the firmware has
 * (6.12: hwmon_attributes_visible() hides the other; 6.1 has no
 * power1_input), and a firmware that lacks the average may still show the
 * file and fail its read with -EOPNOTSUPP (mainline Renoir,
 * AMDGPU_PP_SENSOR_GPU_AVG_POWER) or -ENODATA: that reading is then
 * missing, never replaced by the other.
 */
#define GT_DIR_HWMON	true
#define GT_DIR_PCI	false
#define GT_AMDGPU_SENSOR(id, key, unit, dir, file, div, ...) \
	{ GT_S_##id, GT_DIR_##dir, file, div },

static const struct gt_amdgpu_sensor gt_amdgpu_sensors[] = {
	GT_SENSORS(GT_AMDGPU_SENSOR)
};

#undef GT_AMDGPU_SENSOR

static void gt_amdgpu_probe(struct gt_pci_gpu *gpu);

/**
 * gt_amdgpu_read() - the amdgpu source's read (struct gt_source_ops)
 * @gdev: a PCI device (src_priv is a struct gt_pci_gpu)
 * @s: receives the readings
 *
 * Return: 0, or -EAGAIN while the device is runtime-suspended.
 */
int gt_amdgpu_read(struct gt_device *gdev, struct gt_sample *s)
{
	struct gt_pci_gpu *gpu = gdev->src_priv;
	struct device *dev = &gpu->pdev->dev;
	unsigned int i, eperm = 0;
	struct gt_pm_ref ref;

	if (!gt_pm_get(dev, &ref))
		return -EAGAIN;
	gt_amdgpu_probe(gpu);
	for (i = 0; i < ARRAY_SIZE(gt_amdgpu_sensors); i++) {
		const struct gt_amdgpu_sensor *t = &gt_amdgpu_sensors[i];
		const char *dir = t->hwmon ? gpu->hwmon_dir : gpu->dir;
		s64 v;
		int ret;

		if (!dir)
			continue;
		ret = gt_sysfs_read_s64(dir, t->file, &v);
		if (ret == -EPERM)
			eperm++;
		if (ret)
			continue;
		/* 64-bit: sclk in Hz passes 2^31 at 2.15 GHz. */
		s->val[t->id] = t->div > 1 ? div_s64(v, t->div) : v;
		s->valid |= BIT(t->id);
	}
	gt_pm_put(dev, &ref);
	/*
	 * amdgpu refused every sensor with -EPERM: a runtime-suspended GPU
	 * (6.13 on), a system suspend or a GPU reset. Not a reading of zero
	 * and not an error: the device is asleep for now.
	 */
	if (eperm && !s->valid)
		return -EAGAIN;
	return 0;
}

/* PCI core's current_link_speed strings ("16.0 GT/s PCIe"), kept static. */
static const char * const gt_pcie_speeds[] = {
	"2.5 GT/s", "5.0 GT/s", "8.0 GT/s", "16.0 GT/s", "32.0 GT/s", "64.0 GT/s",
};

/* The speed of @file, current_link_speed or max_link_speed, or NULL. */
static const char *gt_pcie_speed(const char *dir, const char *file)
{
	char buf[32];
	ssize_t len;
	size_t i;

	len = gt_sysfs_read(dir, file, buf, sizeof(buf) - 1);
	if (len <= 0)
		return NULL;
	buf[len] = '\0';
	for (i = 0; i < ARRAY_SIZE(gt_pcie_speeds); i++)
		if (!strncmp(buf, gt_pcie_speeds[i], strlen(gt_pcie_speeds[i])))
			return gt_pcie_speeds[i];
	return NULL;
}

/* The width of @file, current_link_width or max_link_width, or 0. */
static u32 gt_pcie_width(const char *dir, const char *file)
{
	s64 v;

	if (gt_sysfs_read_s64(dir, file, &v) || v <= 0 || v > 32)
		return 0;
	return v;
}

/**
 * gt_amdgpu_fill_info() - what amdgpu tells of a device beside its PCI identity
 * @gdev: a PCI device (src_priv is a struct gt_pci_gpu)
 * @info: filled: active CUs, VRAM size, PCIe link now and at most (pci.c
 *	fills the rest)
 */
void gt_amdgpu_fill_info(struct gt_device *gdev, struct gt_info *info)
{
	struct gt_pci_gpu *gpu = gdev->src_priv;
	struct device *dev = &gpu->pdev->dev;
	struct gt_pm_ref ref;
	s64 v;

	if (!gt_pm_get(dev, &ref)) {
		/* Suspended: what an earlier call looked up, if any. */
		mutex_lock(&gpu->probe_lock);
		info->cu_active = gpu->cu_active;
		info->cu_source = gpu->cu_source;
		mutex_unlock(&gpu->probe_lock);
		return;
	}
	gt_amdgpu_probe(gpu);
	info->cu_active = gpu->cu_active;
	info->cu_source = gpu->cu_source;
	if (!gt_sysfs_read_s64(gpu->dir, "mem_info_vram_total", &v) && v > 0)
		info->vram_size = v;
	info->pcie_speed = gt_pcie_speed(gpu->dir, "current_link_speed");
	info->pcie_width = gt_pcie_width(gpu->dir, "current_link_width");
	info->pcie_max_speed = gt_pcie_speed(gpu->dir, "max_link_speed");
	info->pcie_max_width = gt_pcie_width(gpu->dir, "max_link_width");
	gt_pm_put(dev, &ref);
}

/**
 * gt_amdgpu_read_metrics() - read the device's gpu_metrics blob
 * @gdev: a PCI device (src_priv is a struct gt_pci_gpu)
 * @buf: receives the blob
 * @size: size of @buf
 *
 * Return: the length, or a negative errno (-EAGAIN while suspended).
 */
ssize_t gt_amdgpu_read_metrics(struct gt_device *gdev, void *buf, size_t size)
{
	struct gt_pci_gpu *gpu = gdev->src_priv;
	struct device *dev = &gpu->pdev->dev;
	struct gt_pm_ref ref;
	ssize_t ret;

	if (!gt_pm_get(dev, &ref))
		return -EAGAIN;
	ret = gt_sysfs_read(gpu->dir, "gpu_metrics", buf, size);
	gt_pm_put(dev, &ref);
	/* amdgpu's "not accessible now" (see gt_amdgpu_read()): suspended. */
	return ret == -EPERM ? -EAGAIN : ret;
}

/**
 * gt_amdgpu_suspended() - whether the device is runtime-suspended now
 * @gdev: a PCI device (src_priv is a struct gt_pci_gpu)
 *
 * Return: true when suspended.
 */
bool gt_amdgpu_suspended(struct gt_device *gdev)
{
	struct gt_pci_gpu *gpu = gdev->src_priv;

	return pm_runtime_status_suspended(&gpu->pdev->dev);
}

/* The sysfs directory of @dev below the sysfs root, allocated. */
static char *gt_kobj_dir(struct device *dev)
{
	char *path, *dir;

	path = kobject_get_path(&dev->kobj, GFP_KERNEL);
	if (!path)
		return NULL;
	dir = kstrdup(path + 1, GFP_KERNEL);	/* without the leading '/' */
	kfree(path);
	return dir;
}

/* device_find_child() match: the hwmon child whose name is "amdgpu". */
static int gt_match_amdgpu_hwmon(struct device *dev, const void *data)
{
	char buf[16];
	ssize_t len;
	char *dir;

	if (!dev->class || strcmp(dev->class->name, "hwmon"))
		return 0;
	dir = gt_kobj_dir(dev);
	if (!dir)
		return 0;
	len = gt_sysfs_read(dir, "name", buf, sizeof(buf) - 1);
	kfree(dir);
	if (len <= 0)
		return 0;
	buf[len] = '\0';
	return !strcmp(strim(buf), "amdgpu");
}

/* Value of "key value" line @key in @text, or -1. */
static s64 gt_kfd_prop(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text;
	s64 v;

	while (p && *p) {
		if (!strncmp(p, key, klen) && p[klen] == ' ') {
			char num[24];
			size_t n = strcspn(p + klen + 1, "\n");

			if (n >= sizeof(num))
				return -1;
			memcpy(num, p + klen + 1, n);
			num[n] = '\0';
			return kstrtos64(num, 10, &v) ? -1 : v;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

/* The KFD topology holds at most a few dozen nodes (CPUs and GPUs). */
#define GT_KFD_NODES_MAX	256

/* Active CUs of @pdev from its KFD topology node, or 0. */
static u32 gt_kfd_cu_count(struct pci_dev *pdev)
{
	u32 loc = pci_dev_id(pdev), dom = pci_domain_nr(pdev->bus);
	char name[48];
	u32 cu = 0;
	char *buf;
	ssize_t len;
	unsigned int n;

	buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!buf)
		return 0;
	for (n = 0; n < GT_KFD_NODES_MAX; n++) {
		s64 simd, per_cu;

		snprintf(name, sizeof(name), "class/kfd/kfd/topology/nodes/%u", n);
		len = gt_sysfs_read(name, "properties", buf, PAGE_SIZE - 1);
		if (len < 0)
			break;	/* nodes are numbered from 0 without gaps */
		buf[len] = '\0';
		if (gt_kfd_prop(buf, "location_id") != loc || gt_kfd_prop(buf, "domain") != dom)
			continue;
		simd = gt_kfd_prop(buf, "simd_count");
		per_cu = gt_kfd_prop(buf, "simd_per_cu");
		if (simd > 0 && per_cu > 0 && simd / per_cu <= U32_MAX)
			cu = div64_s64(simd, per_cu);
		break;
	}
	kfree(buf);
	return cu;
}

/*
 * Looks up, once per binding, what the source needs beside the PCI
 * device's own directory: its hwmon device named "amdgpu" and its active
 * CU count (from the KFD topology node whose location_id and domain are
 * the device's, else the ASIC table's full-die count). Called at the
 * first source call after the driver bound, with the device active (the
 * KFD topology holds cached values, nothing of the hardware): not from the
 * bus notifier, which must not read sysfs (see source.c). amdgpu
 * registers its hwmon device during probe, so it is there by then.
 */
static void gt_amdgpu_probe(struct gt_pci_gpu *gpu)
{
	struct pci_dev *pdev = gpu->pdev;
	const struct gt_asic *asic;
	struct device *hwmon;

	mutex_lock(&gpu->probe_lock);
	if (gpu->probed)
		goto out_unlock;
	hwmon = device_find_child(&pdev->dev, NULL, gt_match_amdgpu_hwmon);
	if (hwmon) {
		gpu->hwmon_dir = gt_kobj_dir(hwmon);
		put_device(hwmon);
	}
	gpu->cu_active = gt_kfd_cu_count(pdev);
	if (gpu->cu_active) {
		gpu->cu_source = GT_CU_SOURCE_KFD;
	} else {
		asic = gt_asic_lookup(pdev->vendor, pdev->device, pdev->revision);
		if (asic) {
			gpu->cu_active = asic->cu_full;
			gpu->cu_source = GT_CU_SOURCE_TABLE;
		}
	}
	gpu->probed = true;
out_unlock:
	mutex_unlock(&gpu->probe_lock);
}
