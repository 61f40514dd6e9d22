// SPDX-License-Identifier: MIT
/*
 * The limits and extra readings of gauges.h, from amdgpu's sysfs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/gauges.h"

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

/* The link speed and width files under sysdev with prefix ("current", "max"). */
static void link(const char *sysdev, const char *prefix, char *out, unsigned long n)
{
	char path[256], speed[24], width[8];

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s_link_speed", sysdev, prefix);
	if (nb_read_file(path, speed, sizeof(speed)))
		return;
	snprintf(path, sizeof(path), "%s/%s_link_width", sysdev, prefix);
	if (nb_read_file(path, width, sizeof(width)))
		return;
	snprintf(out, n, "%s x%s", speed, width);
}

static bool hwmon_i64(const char *dir, const char *file, int64_t div, int64_t *v)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (!nb_read_i64(path, v))
		return false;
	*v /= div;
	return true;
}

void nb_limits_read(const struct nb_sensor_dev *d, struct nb_limits *lim)
{
	static const char *const crit[3] = { "temp1_crit", "temp2_crit", "temp3_crit" };
	const char *sysdev = d->e->drm.sysdev;
	char hw[512], path[256];
	int64_t v;

	memset(lim, 0, sizeof(*lim));
	if (d->e->dev.kind != NB_DEV_AMDGPU)
		return;
	link(sysdev, "current", lim->link, sizeof(lim->link));
	link(sysdev, "max", lim->link_max, sizeof(lim->link_max));
	if (d->asleep)
		return;
	if (!nb_hwmon_dir(sysdev, hw, sizeof(hw))) {
		for (int i = 0; i < 3; i++)
			lim->has_temp_crit[i] = hwmon_i64(hw, crit[i], 1, &lim->temp_crit[i]);
		lim->has_power_cap = hwmon_i64(hw, "power1_cap", 1000, &lim->power_cap);
		lim->has_fan_max = hwmon_i64(hw, "fan1_max", 1, &lim->fan_max);
	}
	lim->has_sclk_max = dpm_max(sysdev, "pp_dpm_sclk", &lim->sclk_max);
	lim->has_mclk_max = dpm_max(sysdev, "pp_dpm_mclk", &lim->mclk_max);
	snprintf(path, sizeof(path), "%s/mem_info_gtt_used", sysdev);
	if (nb_read_i64(path, &v)) {
		lim->gtt_used = (uint64_t)v;
		snprintf(path, sizeof(path), "%s/mem_info_gtt_total", sysdev);
		lim->has_gtt = nb_read_i64(path, &v);
		lim->gtt_total = (uint64_t)v;
	}
}
