// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: calling a device's source.
 *
 * The sampler and the debugfs files reach a source only through these
 * functions. Each call into a source is bracketed by gt_source_enter() and
 * gt_source_leave(): enter checks, with the device's src_lock held for
 * read, that the source may be called and counts the call in src_users;
 * the call itself runs without src_lock. Whoever switches or detaches a
 * source (for PCI devices, the driver about to unbind) takes src_lock for
 * write, which stops new calls, and then waits until src_users is 0
 * (gt_source_wait_idle()): once that returns no source call is in flight,
 * and none starts on the old source.
 *
 * Why not hold src_lock around the call: the amdgpu source reads sysfs
 * files, under kernfs and seq_file mutexes that the PCI bus notifier's
 * callers (a write to a driver's "unbind" file) hold when the notifier
 * takes src_lock for write; lockdep, which sees one class for all those
 * mutexes, would report a cycle. The wait on src_users is outside
 * lockdep's view and needs nothing a source call could wait for.
 */
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/wait.h>

#include "gputelemetry.h"

static const char * const gt_state_names[] = {
	[GT_ACTIVE] = GT_STATE_ACTIVE,
	[GT_SUSPENDED] = GT_STATE_SUSPENDED,
	[GT_UNBOUND] = GT_STATE_UNBOUND,
	[GT_REMOVING] = GT_STATE_REMOVING,
};

/**
 * gt_state_name() - the GT_STATE_* string of a state
 * @state: the state
 *
 * Return: a static string.
 */
const char *gt_state_name(enum gt_state state)
{
	if ((unsigned int)state >= ARRAY_SIZE(gt_state_names))
		return GT_STATE_UNBOUND;
	return gt_state_names[state];
}

/* A source may be read while the device is active or being removed. */
static bool gt_source_readable(struct gt_device *gdev)
{
	lockdep_assert_held(&gdev->src_lock);
	return gdev->src && (gdev->state == GT_ACTIVE || gdev->state == GT_REMOVING);
}

/*
 * Starts a call into the source: returns its ops, counted in src_users,
 * or NULL when it may not be called (then nothing is counted). @any:
 * whatever the state (for fill_info), else only when readable.
 */
static const struct gt_source_ops *gt_source_enter(struct gt_device *gdev, bool any)
{
	const struct gt_source_ops *src = NULL;

	down_read(&gdev->src_lock);
	if (gdev->src && (any || gt_source_readable(gdev))) {
		src = gdev->src;
		atomic_inc(&gdev->src_users);
	}
	up_read(&gdev->src_lock);
	return src;
}

static void gt_source_leave(struct gt_device *gdev)
{
	if (atomic_dec_and_test(&gdev->src_users))
		wake_up_all(&gdev->src_wait);
}

/**
 * gt_source_wait_idle() - wait until no source call is in flight
 * @gdev: the device; the caller holds its src_lock for write, so that no
 *	call starts meanwhile
 *
 * Sleeps. A source call needs neither src_lock nor anything its callers
 * hold (see the top of this file).
 */
void gt_source_wait_idle(struct gt_device *gdev)
{
	lockdep_assert_held_write(&gdev->src_lock);
	wait_event(gdev->src_wait, !atomic_read(&gdev->src_users));
}

/**
 * gt_source_read() - read every sensor of a device once
 * @gdev: the device
 * @s: filled: ts_ns (now), valid and val
 *
 * A reading the source could not get has its valid bit clear. Process
 * context; may sleep.
 *
 * Return: 0, or a negative errno when nothing could be read (then
 * @s->valid is 0).
 */
int gt_source_read(struct gt_device *gdev, struct gt_sample *s)
{
	const struct gt_source_ops *src;
	int ret = -ENODEV;

	memset(s, 0, sizeof(*s));
	s->ts_ns = ktime_get_ns();
	src = gt_source_enter(gdev, false);
	if (src) {
		ret = src->read(gdev, s);
		gt_source_leave(gdev);
	}
	if (ret)
		s->valid = 0;
	return ret;
}

/**
 * gt_source_info() - identity and capabilities of a device
 * @gdev: the device
 * @info: filled; zeroed first, so that what the source does not know is
 *	0 or NULL
 */
void gt_source_info(struct gt_device *gdev, struct gt_info *info)
{
	const struct gt_source_ops *src;

	memset(info, 0, sizeof(*info));
	src = gt_source_enter(gdev, true);
	if (src) {
		if (src->fill_info)
			src->fill_info(gdev, info);
		gt_source_leave(gdev);
	}
}

/**
 * gt_source_describe() - the source and state names of a device
 * @gdev: the device
 * @src_name: set to a GT_SOURCE_* string
 * @state_name: set to a GT_STATE_* string
 */
void gt_source_describe(struct gt_device *gdev, const char **src_name,
			const char **state_name)
{
	enum gt_state state;

	down_read(&gdev->src_lock);
	*src_name = gdev->src ? gdev->src->name : GT_SOURCE_NONE;
	state = gdev->state;
	/* Asked only when active: a suspended device is read as nothing. */
	if (state == GT_ACTIVE && gdev->src && gdev->src->suspended &&
	    gdev->src->suspended(gdev))
		state = GT_SUSPENDED;
	*state_name = gt_state_name(state);
	up_read(&gdev->src_lock);
}

/**
 * gt_source_read_metrics() - read a device's raw gpu_metrics blob
 * @gdev: the device
 * @buf: receives the blob
 * @size: size of @buf
 *
 * Process context; may sleep.
 *
 * Return: the blob's length, or a negative errno: -ENODEV when the device
 * has no readable source or its source no metrics, else the source's.
 */
ssize_t gt_source_read_metrics(struct gt_device *gdev, void *buf, size_t size)
{
	const struct gt_source_ops *src;
	ssize_t ret = -ENODEV;

	src = gt_source_enter(gdev, false);
	if (src) {
		if (src->read_metrics)
			ret = src->read_metrics(gdev, buf, size);
		gt_source_leave(gdev);
	}
	return ret;
}
