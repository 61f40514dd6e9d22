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
	int s;			/* enum gt_sensor; -1 ends the map */
	const char *file;
	int64_t div;		/* from the file's unit to gtfs_sensor_defs[].unit */
};

/* The files of GT_SENSORS (module/uapi/gputelemetry.h), by directory. */
#define FILE_MAP_HWMON(id, key, unit, dir, file, div, ...) \
	FILE_MAP_IF_##dir({ GT_S_##id, file, div },)
#define FILE_MAP_PCI(id, key, unit, dir, file, div, ...) \
	FILE_MAP_IF_NOT_##dir({ GT_S_##id, file, div },)
#define FILE_MAP_IF_HWMON(...) __VA_ARGS__
#define FILE_MAP_IF_PCI(...)
#define FILE_MAP_IF_NOT_HWMON(...)
#define FILE_MAP_IF_NOT_PCI(...) __VA_ARGS__

static const struct file_map hwmon_map[] = {
	GT_SENSORS(FILE_MAP_HWMON)
	{ -1, NULL, 0 }
};

/* The PCI device's own attributes, in sysfs. */
static const struct file_map sysfs_map[] = {
	GT_SENSORS(FILE_MAP_PCI)
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

int nb_hwmon_dir(const char *sysdev, char *out, unsigned long n)
{
	char path[192];
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/hwmon", sysdev);
	dir = opendir(path);
	if (!dir)
		return -ENOENT;
	out[0] = '\0';
	while ((de = readdir(dir))) {
		if (!strncmp(de->d_name, "hwmon", 5)) {
			snprintf(out, n, "%s/%s", path, de->d_name);
			break;
		}
	}
	closedir(dir);
	return out[0] ? 0 : -ENOENT;
}

static int hwmon_open(struct nb_sensor_dev *d, void **priv, char *note, unsigned long n)
{
	char found[512];

	(void)note;
	(void)n;
	if (nb_hwmon_dir(d->e->drm.sysdev, found, sizeof(found)))
		return -ENOENT;
	return dir_new(hwmon_map, found, priv);
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
