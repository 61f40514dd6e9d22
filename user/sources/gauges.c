// SPDX-License-Identifier: MIT
/*
 * The readings of NB_EXTRAS and the limits of gauges.h, from amdgpu's
 * sysfs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/gauges.h"
#include "sources/sources.h"

#define NB_EXTRA_DEF(id, key, unit, dir, file, div, family, label, help, nodex, wakes) \
	[NB_X_##id] = { key, unit, NB_X_DIR_##dir, file, div, wakes },
#define NB_X_DIR_HWMON true
#define NB_X_DIR_PCI false

const struct nb_extra_def nb_extra_defs[NB_X_COUNT] = {
	NB_EXTRAS(NB_EXTRA_DEF)
};

/* One entry's file at path into r. */
static void extra_read(const struct nb_extra_def *x, const char *path,
		       struct nb_extra_reading *r)
{
	if (!x->div) {
		char *end;

		if (!nb_read_file(path, r->raw, sizeof(r->raw)) &&
		    (r->gts = strtod(r->raw, &end)) > 0 && !strncmp(end, " GT/s", 5))
			r->valid = true;
	} else if (nb_read_i64(path, &r->i)) {
		r->i /= x->div;
		r->valid = true;
		if (!x->wakes)
			snprintf(r->raw, sizeof(r->raw), "%lld", (long long)r->i * x->div);
	}
	if (r->valid)
		r->source = x->hwmon ? "hwmon" : "sysfs";
	else
		r->why = "not readable";
}

void nb_extras_read(const struct nb_sensor_dev *d, bool link_asleep,
		    struct nb_extra_reading r[NB_X_COUNT])
{
	const char *sysdev = d->e->drm.sysdev;
	const char *why = NULL;
	char hw[512] = "";
	bool has_hw;

	memset(r, 0, NB_X_COUNT * sizeof(*r));
	if (d->e->dev.kind != NB_DEV_AMDGPU)
		why = "not an amdgpu device";
	has_hw = !why && !d->asleep && !nb_hwmon_dir(sysdev, hw, sizeof(hw));
	for (int i = 0; i < NB_X_COUNT; i++) {
		const struct nb_extra_def *x = &nb_extra_defs[i];
		char path[700];

		if (why)
			r[i].why = why;
		else if (d->asleep && (x->wakes || !link_asleep))
			r[i].why = "not read while the GPU sleeps (reading it wakes it)";
		else if (x->hwmon && !has_hw)
			r[i].why = "no hwmon directory";
		if (r[i].why)
			continue;
		snprintf(path, sizeof(path), "%s/%s", x->hwmon ? hw : sysdev, x->file);
		extra_read(x, path, &r[i]);
	}
}

/* The highest level of a pp_dpm_* file ("0: 300Mhz\n1: 1845Mhz *\n"), MHz. */
static bool dpm_max(const char *sysdev, const char *file, int64_t *mhz)
{
	char path[256], line[128];
	bool any = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", sysdev, file);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		long long v;

		if (!colon || sscanf(colon + 1, "%lld", &v) != 1)
			continue;
		if (!any || v > *mhz)
			*mhz = v;
		any = true;
	}
	fclose(f);
	return any;
}

/* "16.0 GT/s PCIe x8" from a speed's and a width's raw text, or "". */
static void link(const struct nb_extra_reading *speed, const struct nb_extra_reading *width,
		 char *out, unsigned long n)
{
	out[0] = '\0';
	if (speed->raw[0] && width->raw[0])
		snprintf(out, n, "%s x%.8s", speed->raw, width->raw);
}

void nb_limits_read(const struct nb_sensor_dev *d, struct nb_limits *lim)
{
	struct nb_extra_reading r[NB_X_COUNT];
	char hw[512];

	memset(lim, 0, sizeof(*lim));
	if (d->e->dev.kind != NB_DEV_AMDGPU)
		return;
	nb_extras_read(d, true, r);
	link(&r[NB_X_LINK_SPEED], &r[NB_X_LINK_WIDTH], lim->link, sizeof(lim->link));
	link(&r[NB_X_LINK_MAX_SPEED], &r[NB_X_LINK_MAX_WIDTH], lim->link_max,
	     sizeof(lim->link_max));
	if (d->asleep)
		return;
	for (int i = 0; i < 3; i++) {
		lim->has_temp_crit[i] = r[NB_X_TEMP_EDGE_CRIT + i].valid;
		lim->temp_crit[i] = r[NB_X_TEMP_EDGE_CRIT + i].i;
	}
	lim->has_power_cap = r[NB_X_POWER_CAP].valid;
	lim->power_cap = r[NB_X_POWER_CAP].i;
	lim->has_gtt = r[NB_X_GTT_USED].valid && r[NB_X_GTT_TOTAL].valid;
	lim->gtt_used = (uint64_t)r[NB_X_GTT_USED].i;
	lim->gtt_total = (uint64_t)r[NB_X_GTT_TOTAL].i;
	if (!nb_hwmon_dir(d->e->drm.sysdev, hw, sizeof(hw))) {
		char path[600];

		snprintf(path, sizeof(path), "%s/fan1_max", hw);
		lim->has_fan_max = nb_read_i64(path, &lim->fan_max);
	}
	lim->has_sclk_max = dpm_max(d->e->drm.sysdev, "pp_dpm_sclk", &lim->sclk_max);
	lim->has_mclk_max = dpm_max(d->e->drm.sysdev, "pp_dpm_mclk", &lim->mclk_max);
}
