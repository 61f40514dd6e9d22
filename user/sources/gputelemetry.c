// SPDX-License-Identifier: MIT
/*
 * Source gputelemetry: the module's debugfs "sensors" file, read once per
 * sample for every reading. It never wakes the GPU: the module reads the
 * sensors of an awake GPU only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sources/sources.h"

struct gt {
	struct gtfs_value v[GT_S_COUNT];
	bool have;		/* this sample's file was read */
};

static int gt_open(struct nb_sensor_dev *d, void **priv, char *note, unsigned long n)
{
	struct gt *g;
	struct gtfs_info info;

	(void)note;
	(void)n;
	if (!d->e->gt_name[0])
		return -ENOENT;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	if (!d->asic && !gtfs_info(d->e->gt_name, &info)) {
		const char *asic = gtfs_info_get(&info, GT_INFO_ASIC);
		const char *gfx = gtfs_info_get(&info, GT_INFO_GFX_TARGET);

		if (asic) {
			nb_strcpy(d->asic_buf, sizeof(d->asic_buf), asic);
			d->asic = d->asic_buf;
		}
		if (gfx) {
			nb_strcpy(d->gfx_buf, sizeof(d->gfx_buf), gfx);
			d->gfx_target = d->gfx_buf;
		}
	}
	*priv = g;
	return 0;
}

static void gt_close(void *priv)
{
	free(priv);
}

static void gtfs_sample(struct nb_sensor_dev *d, void *priv)
{
	struct gt *g = priv;

	g->have = !gtfs_sensors(d->e->gt_name, g->v);
}

static bool gt_read(struct nb_sensor_dev *d, void *priv, int s, int64_t *v)
{
	struct gt *g = priv;

	(void)d;
	if (!g->have || !g->v[s].valid)
		return false;
	*v = g->v[s].v;
	return true;
}

const struct nb_source nb_source_gputelemetry = {
	.name = "gputelemetry",
	.retry = true,		/* the file is read again at each sample */
	.open = gt_open,
	.close = gt_close,
	.sample = gtfs_sample,
	.read = gt_read,
};
