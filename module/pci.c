// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: real GPUs - every PCI display-class device of vendor
 * 0x1002, followed through a PCI bus notifier.
 *
 * Each such device is a gt_device named by its PCI address, registered
 * when it appears (or at load, by a scan of the devices already there) and
 * unregistered when it is removed. Its source is "none" (state unbound)
 * unless a driver named in the trusted_drivers parameter is bound, then
 * "amdgpu" (amdgpu.c):
 *
 *   BUS_NOTIFY_ADD_DEVICE     register (unbound)
 *   BUS_NOTIFY_BOUND_DRIVER   after probe: attach the amdgpu source when
 *                             the driver is trusted, start sampling
 *   BUS_NOTIFY_UNBIND_DRIVER  before remove: detach the source (this waits
 *                             for every source read in flight, and none
 *                             starts afterwards), stop sampling
 *   BUS_NOTIFY_DEL_DEVICE     detach as above (the driver is still bound
 *                             then), unregister
 *
 * Locking: the driver core calls BOUND and UNBIND with the device lock
 * held; the load-time scan takes it too, so that binding and the scan are
 * serialized per device. Under it this file takes the registry lock and a
 * device's src_lock (through registry.c), never the other way round: no
 * path of this module takes a device lock while holding either. Nothing
 * here reads sysfs or waits for a sampling work: the notifier's callers
 * may hold sysfs (kernfs) locks, e.g. a write to a driver's "unbind".
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ctype.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/kobject.h>
#include <linux/moduleparam.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "gputelemetry.h"

#define GT_TRUSTED_MAX		8
#define GT_TRUSTED_LEN		128

/* The parameter as given; parsed into gt_trusted[] by gt_trusted_parse(). */
static char gt_trusted_param[GT_TRUSTED_LEN] = "amdgpu";
/* Written at load only (parameter 0444), read-only afterwards. */
static char gt_trusted[GT_TRUSTED_MAX][GT_NAME_LEN];
static unsigned int gt_trusted_count;

/*
 * Splits "a,b,c" into gt_trusted[] (when @store) after checking it:
 * 1..GT_TRUSTED_MAX names of 1..GT_NAME_LEN - 1 letters, digits, '_' or
 * '-'. Returns 0 or -EINVAL.
 */
static int gt_trusted_parse(const char *val, bool store)
{
	unsigned int n = 0;
	const char *p = val;
	size_t len;

	for (;;) {
		len = strcspn(p, ",");
		if (len == 0 || len >= GT_NAME_LEN || n == GT_TRUSTED_MAX)
			return -EINVAL;
		for (size_t i = 0; i < len; i++)
			if (!isalnum(p[i]) && p[i] != '_' && p[i] != '-')
				return -EINVAL;
		if (store)
			strscpy(gt_trusted[n], p, len + 1);
		n++;
		if (!p[len])
			break;
		p += len + 1;
	}
	if (store)
		gt_trusted_count = n;
	return 0;
}

static int gt_param_set_trusted(const char *val, const struct kernel_param *kp)
{
	char buf[GT_TRUSTED_LEN];
	size_t len = strlen(val);

	/* One trailing newline, as sysfs writes give, is not part of it. */
	if (len && val[len - 1] == '\n')
		len--;
	if (len >= sizeof(buf))
		goto err_log;
	memcpy(buf, val, len);
	buf[len] = '\0';
	if (gt_trusted_parse(buf, false))
		goto err_log;
	strscpy(gt_trusted_param, buf, sizeof(gt_trusted_param));
	return 0;
err_log:
	pr_err("%s=%s is invalid: expected 1..%d comma-separated driver names (letters, digits, '_', '-'; each under %d characters, e.g. amdgpu,gt_test_amdgpu)\n",
	       kp->name, val, GT_TRUSTED_MAX, GT_NAME_LEN);
	return -EINVAL;
}

static int gt_param_get_trusted(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", gt_trusted_param);
}

static const struct kernel_param_ops gt_trusted_ops = {
	.set = gt_param_set_trusted,
	.get = gt_param_get_trusted,
};

module_param_cb(trusted_drivers, &gt_trusted_ops, NULL, 0444);
MODULE_PARM_DESC(trusted_drivers,
		 "comma-separated drivers whose devices are read as amdgpu's (default amdgpu)");

static bool gt_driver_trusted(const char *name)
{
	unsigned int i;

	for (i = 0; i < gt_trusted_count; i++)
		if (!strcmp(gt_trusted[i], name))
			return true;
	return false;
}

static bool gt_pci_is_gpu(struct pci_dev *pdev)
{
	return pdev->vendor == PCI_VENDOR_ID_ATI &&
	       (pdev->class >> 16) == PCI_BASE_CLASS_DISPLAY;
}

/* The "none" source: PCI identity only; never read (state unbound). */

/*
 * gt_pci_fill_identity() - the part of "info" any PCI device has
 * @gdev: a PCI device (src_priv is a struct gt_pci_gpu)
 * @info: filled: ids, revision, ASIC entry, driver
 *
 * Called as a source call (source.c): @driver does not change meanwhile.
 */
static void gt_pci_fill_identity(struct gt_device *gdev, struct gt_info *info)
{
	struct gt_pci_gpu *gpu = gdev->src_priv;
	struct pci_dev *pdev = gpu->pdev;

	info->vendor_id = pdev->vendor;
	info->device_id = pdev->device;
	info->subsys_vendor_id = pdev->subsystem_vendor;
	info->subsys_device_id = pdev->subsystem_device;
	info->revision = pdev->revision;
	info->asic = gt_asic_lookup(pdev->vendor, pdev->device, pdev->revision);
	info->driver = gpu->driver[0] ? gpu->driver : NULL;
}

static int gt_pci_none_read(struct gt_device *gdev, struct gt_sample *s)
{
	return -ENODEV;
}

/*
 * gt_pci_release() - free a PCI device's data (both ops' release)
 * @gdev: the device, at its final put
 */
static void gt_pci_release(struct gt_device *gdev)
{
	struct gt_pci_gpu *gpu = gdev->src_priv;

	kfree(gpu->hwmon_dir);
	kfree(gpu->dir);
	pci_dev_put(gpu->pdev);
	mutex_destroy(&gpu->probe_lock);
	kfree(gpu);
}

static const struct gt_source_ops gt_pci_none_ops = {
	.name = GT_SOURCE_NONE,
	.read = gt_pci_none_read,
	.fill_info = gt_pci_fill_identity,
	.debugfs_init = gt_metrics_debugfs_add,
	.release = gt_pci_release,
};

/* The "amdgpu" source (amdgpu.c): its readings, on the PCI identity. */

static void gt_pci_amdgpu_fill_info(struct gt_device *gdev, struct gt_info *info)
{
	gt_pci_fill_identity(gdev, info);
	gt_amdgpu_fill_info(gdev, info);
}

/* Shares release and debugfs_init with gt_pci_none_ops. */
static const struct gt_source_ops gt_amdgpu_ops = {
	.name = GT_SOURCE_AMDGPU,
	.read = gt_amdgpu_read,
	.fill_info = gt_pci_amdgpu_fill_info,
	.debugfs_init = gt_metrics_debugfs_add,
	.release = gt_pci_release,
	.read_metrics = gt_amdgpu_read_metrics,
	.suspended = gt_amdgpu_suspended,
};

/* A device of this file: either ops (their release is the same). */
static bool gt_pci_owned(struct gt_device *gdev)
{
	return gdev->src && gdev->src->release == gt_pci_release;
}

/* The sysfs directory of @pdev below the sysfs root, allocated, or NULL. */
static char *gt_pci_sysfs_dir(struct pci_dev *pdev)
{
	char *path, *dir;

	path = kobject_get_path(&pdev->dev.kobj, GFP_KERNEL);
	if (!path)
		return NULL;
	/* "/devices/pci0000:00/...": without the leading '/'. */
	dir = kstrdup(path + 1, GFP_KERNEL);
	kfree(path);
	return dir;
}

/*
 * Finds the gt_device of @pdev, registering it (unbound) when there is
 * none. Returns it with a reference, or NULL (then logged).
 */
static struct gt_device *gt_pci_get(struct pci_dev *pdev)
{
	struct gt_device *gdev;
	struct gt_pci_gpu *gpu;
	char loc[GT_LOCATION_LEN];
	int ret;

	gdev = gt_device_find(pci_name(pdev));
	if (gdev)
		return gdev;

	gpu = kzalloc(sizeof(*gpu), GFP_KERNEL);
	if (!gpu) {
		ret = -ENOMEM;
		goto err_log;
	}
	gpu->dir = gt_pci_sysfs_dir(pdev);
	if (!gpu->dir) {
		ret = -ENOMEM;
		goto err_free_gpu;
	}
	gpu->pdev = pci_dev_get(pdev);
	mutex_init(&gpu->probe_lock);

	snprintf(loc, sizeof(loc), "pci:%s", pci_name(pdev));
	gdev = gt_device_alloc(pci_name(pdev), loc, &gt_pci_none_ops, gpu);
	if (IS_ERR(gdev)) {
		ret = PTR_ERR(gdev);
		goto err_put_pdev;
	}
	/* Not visible yet: no src_lock needed. Registered unbound. */
	gdev->state = GT_UNBOUND;
	ret = gt_device_register(gdev);
	if (ret) {
		gt_device_put(gdev);	/* frees gpu */
		/* Registered meanwhile by a concurrent event: use that one. */
		if (ret == -EEXIST)
			return gt_device_find(pci_name(pdev));
		goto err_log;
	}
	return gt_device_get(gdev);

err_put_pdev:
	mutex_destroy(&gpu->probe_lock);
	pci_dev_put(gpu->pdev);
	kfree(gpu->dir);
err_free_gpu:
	kfree(gpu);
err_log:
	pr_err("%s: cannot register the device (%d)\n", pci_name(pdev), ret);
	return NULL;
}

/*
 * gt_device_set_source()'s update: src_lock is held for write and no
 * source call is in flight. @arg is the new driver name ("" for none).
 * What the amdgpu source looked up belongs to the old binding: forgotten.
 * probe_lock is not needed (and not taken: it is held across sysfs reads,
 * so it must not nest inside src_lock): only source calls take it, and
 * none is in flight or can start.
 */
static void gt_pci_update(struct gt_device *gdev, void *arg)
{
	struct gt_pci_gpu *gpu = gdev->src_priv;

	strscpy(gpu->driver, arg, sizeof(gpu->driver));
	gpu->probed = false;
	kfree(gpu->hwmon_dir);
	gpu->hwmon_dir = NULL;
	gpu->cu_active = 0;
	gpu->cu_source = NULL;
}

/*
 * A driver is bound to @pdev (device lock held): attach the amdgpu source
 * when it is trusted. Nothing is read here (no sysfs read under the
 * notifier's locks: see source.c); the source looks up what it needs at
 * its first call.
 */
static void gt_pci_bound(struct pci_dev *pdev)
{
	struct device_driver *drv = pdev->dev.driver;
	const char *name = drv ? drv->name : "";
	struct gt_device *gdev;

	device_lock_assert(&pdev->dev);
	gdev = gt_pci_get(pdev);
	if (!gdev)
		return;
	if (drv && gt_driver_trusted(name))
		gt_device_set_source(gdev, &gt_amdgpu_ops, GT_ACTIVE, gt_pci_update,
				     (void *)name);
	else
		gt_device_set_source(gdev, &gt_pci_none_ops, GT_UNBOUND, gt_pci_update,
				     (void *)name);
	gt_device_put(gdev);
}

/* Detaches the source of @pdev's device: no read in flight on return. */
static void gt_pci_detach(struct pci_dev *pdev)
{
	struct gt_device *gdev;

	gdev = gt_device_find(pci_name(pdev));
	if (!gdev)
		return;
	gt_device_set_source(gdev, &gt_pci_none_ops, GT_UNBOUND, gt_pci_update, "");
	gt_device_put(gdev);
}

/*
 * @pdev is being removed; its driver is still bound (it is released after
 * this event): detach first, so that no read of the driver is in flight
 * or starts, then unlist.
 */
static void gt_pci_del(struct pci_dev *pdev)
{
	struct gt_device *gdev;

	gdev = gt_device_find(pci_name(pdev));
	if (!gdev)
		return;
	gt_device_set_source(gdev, &gt_pci_none_ops, GT_UNBOUND, gt_pci_update, "");
	gt_device_unregister(gdev);
	gt_device_put(gdev);
}

static int gt_pci_notify(struct notifier_block *nb, unsigned long action, void *data)
{
	struct pci_dev *pdev = to_pci_dev(data);
	struct gt_device *gdev;

	if (!gt_pci_is_gpu(pdev))
		return NOTIFY_DONE;
	switch (action) {
	case BUS_NOTIFY_ADD_DEVICE:
		gdev = gt_pci_get(pdev);
		gt_device_put(gdev);
		break;
	case BUS_NOTIFY_BOUND_DRIVER:
		gt_pci_bound(pdev);
		break;
	case BUS_NOTIFY_UNBIND_DRIVER:
		gt_pci_detach(pdev);
		break;
	case BUS_NOTIFY_DEL_DEVICE:
		gt_pci_del(pdev);
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block gt_pci_nb = {
	.notifier_call = gt_pci_notify,
};

/**
 * gt_pci_init() - follow the PCI GPUs: notifier first, then a scan
 * @void: no arguments
 *
 * The amdgpu source's sysfs mount first (this file owns the source). The
 * notifier is registered before the scan, so that no device appears or
 * binds unseen in between; an event and the scan meeting on one device
 * are serialized by its device lock and both end in the same state.
 *
 * Return: 0, or a negative errno (then nothing is left registered).
 */
int gt_pci_init(void)
{
	struct pci_dev *pdev = NULL;
	int ret;

	gt_trusted_parse(gt_trusted_param, true);
	ret = gt_sysfs_init();
	if (ret)
		return ret;
	ret = bus_register_notifier(&pci_bus_type, &gt_pci_nb);
	if (ret)
		goto err_sysfs_fini;
	for_each_pci_dev(pdev) {
		if (!gt_pci_is_gpu(pdev))
			continue;
		device_lock(&pdev->dev);
		/* Not one being removed: DEL_DEVICE may have passed already. */
		if (device_is_registered(&pdev->dev))
			gt_pci_bound(pdev);
		device_unlock(&pdev->dev);
	}
	return 0;

err_sysfs_fini:
	gt_sysfs_fini();
	return ret;
}

/**
 * gt_pci_fini() - stop following the PCI GPUs and remove their devices
 *
 * Waits for notifier calls in progress, so that no device is added or
 * switched afterwards; detaches each device's source (no amdgpu read is
 * then in flight or starts: a sampling work still finishing reads "none")
 * and unregisters it; then drops the sysfs mount.
 */
void gt_pci_fini(void)
{
	struct gt_device *gdev;

	bus_unregister_notifier(&pci_bus_type, &gt_pci_nb);
	while ((gdev = gt_device_find_match(gt_pci_owned))) {
		gt_device_set_source(gdev, &gt_pci_none_ops, GT_UNBOUND, gt_pci_update, "");
		gt_device_unregister(gdev);
		gt_device_put(gdev);
	}
	gt_sysfs_fini();
}
