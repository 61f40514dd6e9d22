// SPDX-License-Identifier: MIT
/*
 * Source libdrm_amdgpu: AMDGPU_INFO_SENSOR queries and the VRAM queries
 * on the render node.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/sources.h"

#ifndef NB_WITHOUT_LIBDRM
#include "devices/amdgpu_lib.h"
#include "devices/asic.h"

struct libdrm {
	struct nb_amdgpu a;
	uint64_t vram_total;	/* asked once: it does not change */
};

/*
 * The sensor queries of GT_SENSORS (module/uapi/gputelemetry.h): reading,
 * AMDGPU_INFO_SENSOR_*, factor to its unit; a query of 0 is none. The
 * VRAM readings are other queries: libdrm_read().
 */
#define SENSOR_QUERY(id, key, unit, dir, file, div, drm, drm_mul, ...) \
	{ GT_S_##id, drm, drm_mul },
static const struct {
	int s;
	unsigned int query;
	int64_t scale;
} sensor_map[] = {
	GT_SENSORS(SENSOR_QUERY)
};

static int libdrm_open(struct nb_sensor_dev *d, void **priv, char *note, unsigned long n)
{
	struct libdrm *l = calloc(1, sizeof(*l));
	struct amdgpu_gpu_info gi;
	char err[384];
	int rc;

	if (!l)
		return -ENOMEM;
	rc = nb_amdgpu_open(d->e->drm.render, &l->a, err, sizeof(err));
	if (rc) {
		if (rc == -EACCES || rc == -EPERM)
			nb_access_hint(d->e->drm.render, -rc, err, sizeof(err));
		snprintf(note, n, "%s; libdrm_amdgpu readings skipped", err);
		free(l);
		return rc;
	}
	if (!nb_amdgpu_gpu_info(&l->a, &gi)) {
		struct nb_asic asic = nb_asic_lookup(gi.family_id, gi.chip_external_rev);

		d->asic = asic.code;
		d->gfx_target = asic.gfx;
	}
	*priv = l;
	return 0;
}

static void libdrm_close(void *priv)
{
	struct libdrm *l = priv;

	nb_amdgpu_close(&l->a);
	free(l);
}

static bool libdrm_read(struct nb_sensor_dev *d, void *priv, int s, int64_t *v)
{
	struct libdrm *l = priv;
	uint32_t u32;
	uint64_t u64;

	(void)d;
	if (s == GT_S_VRAM_USED) {
		if (nb_amdgpu_query(&l->a, AMDGPU_INFO_VRAM_USAGE, sizeof(u64), &u64))
			return false;
		*v = (int64_t)u64;
		return true;
	}
	if (s == GT_S_VRAM_TOTAL) {
		struct drm_amdgpu_memory_info m;

		if (!l->vram_total) {
			if (nb_amdgpu_query(&l->a, AMDGPU_INFO_MEMORY, sizeof(m), &m))
				return false;
			l->vram_total = m.vram.total_heap_size;
		}
		*v = (int64_t)l->vram_total;
		return true;
	}
	for (size_t i = 0; i < sizeof(sensor_map) / sizeof(sensor_map[0]); i++) {
		if (sensor_map[i].s != s || !sensor_map[i].query)
			continue;
		if (nb_amdgpu_sensor(&l->a, sensor_map[i].query, &u32))
			return false;
		*v = (int64_t)u32 * sensor_map[i].scale;
		return true;
	}
	return false;
}

const struct nb_source nb_source_libdrm = {
	.name = "libdrm_amdgpu",
	.wakes = true,
	.amdgpu_only = true,
	.open = libdrm_open,
	.close = libdrm_close,
	.read = libdrm_read,
};
#else
/* Never opened: a build without libdrm lists no amdgpu device (optional.h). */
static int libdrm_off(struct nb_sensor_dev *d, void **priv, char *note, unsigned long n)
{
	(void)d;
	(void)priv;
	snprintf(note, n, "libdrm_amdgpu readings are off: navibench was built without libdrm");
	return -ENOSYS;
}

const struct nb_source nb_source_libdrm = {
	.name = "libdrm_amdgpu",
	.amdgpu_only = true,
	.open = libdrm_off,
};
#endif
