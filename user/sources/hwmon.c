// SPDX-License-Identifier: MIT
/*
 * Sources hwmon and sysfs: amdgpu's hwmon directory, and the PCI
 * device's own attributes (gpu_busy_percent, mem_info_*), in sysfs.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sources/sources.h"

struct file_map {
	int s;			/* enum gt_sensor */
	const char *file;
	int64_t div;		/* from the file's unit to gt_sensor_defs[].unit */
};

static const struct file_map hwmon_map[] = {
	{ GT_S_TEMP_EDGE, "temp1_input", 1 },
	{ GT_S_TEMP_JUNCTION, "temp2_input", 1 },
	{ GT_S_TEMP_MEM, "temp3_input", 1 },
	{ GT_S_SCLK, "freq1_input", 1000000 },
	{ GT_S_MCLK, "freq2_input", 1000000 },
	{ GT_S_POWER_AVG, "power1_average", 1000 },
	{ GT_S_POWER_INPUT, "power1_input", 1000 },
	{ GT_S_VDDGFX, "in0_input", 1 },
	{ GT_S_VDDNB, "in1_input", 1 },
	{ GT_S_FAN, "fan1_input", 1 },
	{ GT_S_FAN_PWM, "pwm1", 1 },
	{ -1, NULL, 0 }
};

static const struct file_map sysfs_map[] = {
	{ GT_S_GPU_BUSY, "gpu_busy_percent", 1 },
	{ GT_S_MEM_BUSY, "mem_busy_percent", 1 },
	{ GT_S_VRAM_USED, "mem_info_vram_used", 1 },
	{ GT_S_VRAM_TOTAL, "mem_info_vram_total", 1 },
	{ -1, NULL, 0 }
};

/* The directory the map's files are in. */
struct dir {
	const struct file_map *map;
	char path[512];
};

static int dir_new(const struct file_map *map, const char *path, void **priv)
{
	struct dir *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	d->map = map;
	snprintf(d->path, sizeof(d->path), "%s", path);
	*priv = d;
	return 0;
}

static int hwmon_open(struct nb_sensor_dev *d, void **priv, char *note, unsigned long n)
{
	char path[192], found[512] = "";
	struct dirent *de;
	DIR *dir;

	(void)note;
	(void)n;
	snprintf(path, sizeof(path), "%s/hwmon", d->e->drm.sysdev);
	dir = opendir(path);
	if (!dir)
		return -ENOENT;
	while ((de = readdir(dir))) {
		if (!strncmp(de->d_name, "hwmon", 5)) {
			snprintf(found, sizeof(found), "%s/%s", path, de->d_name);
			break;
		}
	}
	closedir(dir);
	return found[0] ? dir_new(hwmon_map, found, priv) : -ENOENT;
}

static int sysfs_open(struct nb_sensor_dev *d, void **priv, char *note, unsigned long n)
{
	(void)note;
	(void)n;
	return dir_new(sysfs_map, d->e->drm.sysdev, priv);
}

static void dir_close(void *priv)
{
	free(priv);
}

static bool dir_read(struct nb_sensor_dev *d, void *priv, int s, int64_t *v)
{
	const struct dir *dir = priv;
	char path[700];

	(void)d;
	for (const struct file_map *m = dir->map; m->file; m++) {
		if (m->s != s)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir->path, m->file);
		if (!nb_read_i64(path, v))
			return false;
		*v /= m->div;
		return true;
	}
	return false;
}

const struct nb_source nb_source_hwmon = {
	.name = "hwmon",
	.wakes = true,
	.amdgpu_only = true,
	.open = hwmon_open,
	.close = dir_close,
	.read = dir_read,
};

const struct nb_source nb_source_sysfs = {
	.name = "sysfs",
	.wakes = true,
	.amdgpu_only = true,
	.open = sysfs_open,
	.close = dir_close,
	.read = dir_read,
};
