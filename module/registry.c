// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: the registry of telemetry devices and their lifetime.
 *
 * A device is allocated (gt_device_alloc), listed and made visible
 * (gt_device_register), unlisted and stopped (gt_device_unregister), and
 * freed by its last gt_device_put(). Simulated devices are registered and
 * removed by sim.c; PCI devices by pci.c, from a bus notifier, which also
 * switches their source with gt_device_set_source() as drivers bind and
 * unbind. Each removes its own devices at unload (gt_device_find_match()).
 * The registry's own file is "devices", the list.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "gputelemetry.h"

/*
 * gt_devices_lock serializes registration and removal and protects
 * gt_devices and every device's node. It is not taken by the per-device
 * files, so removal may wait for their readers while holding it.
 */
static DEFINE_MUTEX(gt_devices_lock);
static LIST_HEAD(gt_devices);

/* Given at init, fixed afterwards: what each new device starts with. */
static unsigned int gt_registry_interval_ms;
static u32 gt_registry_depth;
static struct dentry *gt_devices_dentry;

static void gt_device_release(struct kref *ref)
{
	struct gt_device *gdev = container_of(ref, struct gt_device, ref);

	if (gdev->src && gdev->src->release)
		gdev->src->release(gdev);
	gt_sampler_fini(&gdev->sampler);
	kfree(gdev);
}

/**
 * gt_device_alloc() - allocate a telemetry device, not yet visible
 * @name: directory name ("sim<id>" or a PCI address), copied
 * @location: "sim:<id>" or "pci:<address>", copied
 * @src: the source ops; must outlive the device
 * @src_priv: the source's data; owned by the device from a successful
 *	return on, and freed by @src->release at the final put
 *
 * The caller holds the one reference returned. It either hands it to the
 * registry with gt_device_register() or drops it with gt_device_put().
 *
 * Return: the device, or an ERR_PTR (then @src_priv stays the caller's).
 */
struct gt_device *gt_device_alloc(const char *name, const char *location,
				  const struct gt_source_ops *src, void *src_priv)
{
	struct gt_device *gdev;
	int ret;

	if (strlen(name) >= GT_NAME_LEN || strlen(location) >= GT_LOCATION_LEN)
		return ERR_PTR(-ENAMETOOLONG);

	gdev = kzalloc(sizeof(*gdev), GFP_KERNEL);
	if (!gdev)
		return ERR_PTR(-ENOMEM);

	ret = gt_sampler_init(&gdev->sampler, gt_registry_interval_ms, gt_registry_depth,
			      &gdev->ref, gt_device_release);
	if (ret) {
		kfree(gdev);
		return ERR_PTR(ret);
	}

	kref_init(&gdev->ref);
	INIT_LIST_HEAD(&gdev->node);
	strscpy(gdev->name, name, sizeof(gdev->name));
	strscpy(gdev->location, location, sizeof(gdev->location));
	init_rwsem(&gdev->src_lock);
	atomic_set(&gdev->src_users, 0);
	init_waitqueue_head(&gdev->src_wait);
	gdev->src = src;
	gdev->src_priv = src_priv;
	gdev->state = GT_ACTIVE;
	return gdev;
}

/**
 * gt_device_get() - take a reference on a device
 * @gdev: the device
 *
 * Return: @gdev.
 */
struct gt_device *gt_device_get(struct gt_device *gdev)
{
	kref_get(&gdev->ref);
	return gdev;
}

/**
 * gt_device_put() - drop a reference; the last one frees the device
 * @gdev: the device, or NULL
 *
 * Must be called in process context.
 */
void gt_device_put(struct gt_device *gdev)
{
	if (gdev)
		kref_put(&gdev->ref, gt_device_release);
}

static struct gt_device *gt_device_lookup(const char *name)
{
	struct gt_device *gdev;

	lockdep_assert_held(&gt_devices_lock);
	list_for_each_entry(gdev, &gt_devices, node)
		if (!strcmp(gdev->name, name))
			return gdev;
	return NULL;
}

/**
 * gt_device_register() - list a device, create its files, start sampling
 * @gdev: a device from gt_device_alloc(); its reference passes to the
 *	registry on success
 *
 * Return: 0; -EEXIST when a device of that name is listed; or another
 * negative errno. On failure the caller still owns its reference.
 */
int gt_device_register(struct gt_device *gdev)
{
	int ret;

	mutex_lock(&gt_devices_lock);
	if (gt_device_lookup(gdev->name)) {
		ret = -EEXIST;
		goto out_unlock;
	}
	ret = gt_debugfs_device_add(gdev);
	if (ret)
		goto out_unlock;
	list_add_tail(&gdev->node, &gt_devices);
	/* Not yet visible to anyone else: state needs no src_lock here. */
	if (gdev->state == GT_ACTIVE)
		gt_sampler_start(gdev);
out_unlock:
	mutex_unlock(&gt_devices_lock);
	return ret;
}

static void gt_device_unlist(struct gt_device *gdev)
{
	lockdep_assert_held(&gt_devices_lock);

	down_write(&gdev->src_lock);
	gdev->state = GT_REMOVING;
	up_write(&gdev->src_lock);

	list_del_init(&gdev->node);
	/* Waits for every read or write in progress on the device's files. */
	gt_debugfs_device_remove(gdev);
	gt_sampler_stop(gdev);
}

/**
 * gt_device_unregister() - unlist a device, remove its files, stop sampling
 * @gdev: a registered device; the caller holds a reference of its own
 *
 * When this returns no file operation on the device is in progress or can
 * start, and the sampler is stopped: a sample in progress may finish (its
 * work holds a reference). The registry's reference is dropped; files
 * still open keep nothing of the device (their operations fail with
 * -EIO, debugfs.c). Calling it on a device already unregistered does
 * nothing.
 */
void gt_device_unregister(struct gt_device *gdev)
{
	bool listed;

	mutex_lock(&gt_devices_lock);
	listed = !list_empty(&gdev->node);
	if (listed)
		gt_device_unlist(gdev);
	mutex_unlock(&gt_devices_lock);
	if (listed)
		gt_device_put(gdev);
}

/**
 * gt_device_set_source() - switch a device's source (attach or detach)
 * @gdev: the device; the caller holds a reference
 * @src: the new source ops; must share @release with the old ones
 * @state: the new state: GT_ACTIVE starts sampling, any other stops it
 * @update: optional; called with src_lock held for write, to change what
 *	the source's private data holds
 * @arg: passed to @update
 *
 * With src_lock held for write it waits until no source call is in
 * flight; none starts on the old source afterwards: a driver about to
 * unbind calls this before its remove runs. Sleeps; takes the registry
 * lock, so it is serialized with gt_device_unregister(). A device no
 * longer listed gets the new source but no sampling. Waits for no
 * sampling work (gt_sampler_stop() does not), so that it can be called
 * from the PCI bus notifier.
 */
void gt_device_set_source(struct gt_device *gdev, const struct gt_source_ops *src,
			  enum gt_state state,
			  void (*update)(struct gt_device *gdev, void *arg), void *arg)
{
	bool listed;

	mutex_lock(&gt_devices_lock);
	listed = !list_empty(&gdev->node);
	down_write(&gdev->src_lock);
	gt_source_wait_idle(gdev);
	if (update)
		update(gdev, arg);
	gdev->src = src;
	if (listed)
		gdev->state = state;
	up_write(&gdev->src_lock);
	if (listed) {
		if (state == GT_ACTIVE)
			gt_sampler_start(gdev);
		else
			gt_sampler_stop(gdev);
	}
	mutex_unlock(&gt_devices_lock);
}

/**
 * gt_device_find() - look a listed device up by name
 * @name: directory name
 *
 * Return: the device with a reference the caller must put, or NULL.
 */
struct gt_device *gt_device_find(const char *name)
{
	struct gt_device *gdev;

	mutex_lock(&gt_devices_lock);
	gdev = gt_device_lookup(name);
	if (gdev)
		gt_device_get(gdev);
	mutex_unlock(&gt_devices_lock);
	return gdev;
}

/**
 * gt_device_find_match() - look a listed device up by a test
 * @match: called for each listed device, under the registry lock (so
 *	that @gdev->src is stable); must not sleep
 *
 * Return: the first device @match is true of, with a reference the
 * caller must put, or NULL.
 */
struct gt_device *gt_device_find_match(bool (*match)(struct gt_device *gdev))
{
	struct gt_device *gdev;

	mutex_lock(&gt_devices_lock);
	list_for_each_entry(gdev, &gt_devices, node) {
		if (match(gdev)) {
			gt_device_get(gdev);
			mutex_unlock(&gt_devices_lock);
			return gdev;
		}
	}
	mutex_unlock(&gt_devices_lock);
	return NULL;
}

/* "devices": one line per listed device: name, location, ASIC, source, state. */
static int gt_devices_show(struct seq_file *m, void *v)
{
	struct gt_device **devs, *gdev;
	const char *src, *state;
	struct gt_info info;
	size_t n = 0, i;

	/*
	 * Listed devices are referenced under the lock and printed without
	 * it: printing calls into the sources, which must not run under the
	 * registry lock (the PCI notifier takes it; see source.c).
	 */
	mutex_lock(&gt_devices_lock);
	list_for_each_entry(gdev, &gt_devices, node)
		n++;
	devs = kmalloc_array(n, sizeof(*devs), GFP_KERNEL);
	if (!devs) {
		mutex_unlock(&gt_devices_lock);
		return -ENOMEM;
	}
	i = 0;
	list_for_each_entry(gdev, &gt_devices, node)
		devs[i++] = gt_device_get(gdev);
	mutex_unlock(&gt_devices_lock);

	for (i = 0; i < n; i++) {
		gdev = devs[i];
		gt_source_info(gdev, &info);
		gt_source_describe(gdev, &src, &state);
		seq_printf(m, "%s %s ", gdev->name, gdev->location);
		if (info.asic)
			seq_printf(m, "%s", info.asic->name);
		else
			seq_printf(m, "%04x:%04x", info.vendor_id, info.device_id);
		seq_printf(m, " %s %s\n", src, state);
		gt_device_put(gdev);
	}
	kfree(devs);
	return 0;
}
DEFINE_GT_TEXT_ATTRIBUTE(gt_devices);

/**
 * gt_registry_init() - set the registry up and create "devices"
 * @root: the module's debugfs directory
 * @interval_ms: sampling period of each new device
 * @depth: samples kept per new device
 *
 * Return: 0 (debugfs file creation failures are not errors).
 */
int gt_registry_init(struct dentry *root, unsigned int interval_ms, u32 depth)
{
	gt_registry_interval_ms = interval_ms;
	gt_registry_depth = depth;
	gt_devices_dentry = debugfs_create_file(GT_FILE_DEVICES, 0400, root, NULL,
						&gt_devices_fops);
	return 0;
}

/**
 * gt_registry_fini() - remove "devices"
 *
 * Called when the buses have removed their devices (sim.c, pci.c): any
 * device still listed is a bug, warned about and unregistered.
 */
void gt_registry_fini(void)
{
	struct gt_device *gdev, *tmp;
	LIST_HEAD(gone);

	debugfs_remove(gt_devices_dentry);
	gt_devices_dentry = NULL;

	mutex_lock(&gt_devices_lock);
	WARN_ON(!list_empty(&gt_devices));
	list_for_each_entry_safe(gdev, tmp, &gt_devices, node) {
		gt_device_unlist(gdev);
		list_add_tail(&gdev->node, &gone);
	}
	mutex_unlock(&gt_devices_lock);

	/* No longer listed: the node is free for this private list. */
	list_for_each_entry_safe(gdev, tmp, &gone, node) {
		list_del_init(&gdev->node);
		gt_device_put(gdev);
	}
}
