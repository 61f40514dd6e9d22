// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: calling a device's source.
 *
 * The sampler and the debugfs files reach a source only through these
 * functions, which hold the device's src_lock for read around the call.
 * Whoever detaches a source (device removal; for PCI devices, the driver
 * about to unbind) takes src_lock for write, so that once it holds it no
 * source call is in flight and none starts on a detached source.
 */
#include <linux/ktime.h>
#include <linux/string.h>

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
	int ret = -ENODEV;

	memset(s, 0, sizeof(*s));
	s->ts_ns = ktime_get_ns();
	down_read(&gdev->src_lock);
	if (gt_source_readable(gdev))
		ret = gdev->src->read(gdev, s);
	up_read(&gdev->src_lock);
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
	memset(info, 0, sizeof(*info));
	down_read(&gdev->src_lock);
	if (gdev->src && gdev->src->fill_info)
		gdev->src->fill_info(gdev, info);
	up_read(&gdev->src_lock);
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
	down_read(&gdev->src_lock);
	*src_name = gdev->src ? gdev->src->name : GT_SOURCE_NONE;
	*state_name = gt_state_name(gdev->state);
	up_read(&gdev->src_lock);
}
