/* SPDX-License-Identifier: MIT */
/*
 * The gputelemetry module's debugfs files, parsed with the key names of
 * module/uapi/gputelemetry.h (format: module/gputelemetry.rst). A line
 * the parser does not know is skipped, never fatal.
 */
#ifndef NAVIBENCH_GTFS_H
#define NAVIBENCH_GTFS_H

#include <stdbool.h>
#include <stdint.h>

#include "gputelemetry.h"

#define GTFS_ROOT "/sys/kernel/debug/" GT_DEBUGFS_ROOT

struct gtfs_sensor_def {
	const char *key;
	const char *unit;
};
/* Indexed by enum gt_sensor: key and unit of every reading. */
extern const struct gtfs_sensor_def gtfs_sensor_defs[GT_S_COUNT];
/* The enum gt_sensor of a key, or -1. */
int gtfs_sensor_index(const char *key);

/* One line of the "devices" file. */
struct gtfs_dev {
	char name[64];		/* "sim0" or "0000:03:00.0" */
	char location[96];
	char asic[32];
	char source[16];
	char state[16];
};

/*
 * gtfs_devices() - read GTFS_ROOT/devices. Returns the number of devices
 * (array in *out, free() it) or -errno: -ENOENT when the module is not
 * loaded (or debugfs not mounted), -EACCES when not readable (not root).
 */
int gtfs_devices(struct gtfs_dev **out);

struct gtfs_value {
	bool valid;		/* false: "unavailable" / "na" / not listed */
	int64_t v;		/* in the unit of gtfs_sensor_defs[] */
};

/* gtfs_sensors() - one snapshot of GTFS_ROOT/<dev>/sensors. 0 or -errno. */
int gtfs_sensors(const char *dev, struct gtfs_value r[GT_S_COUNT]);

struct gtfs_stat {
	bool valid;
	int64_t min, avg, max;
	uint64_t samples;
};

/* gtfs_stats() - GTFS_ROOT/<dev>/stats. 0 or -errno. */
int gtfs_stats(const char *dev, struct gtfs_stat s[GT_S_COUNT], uint64_t *since_ns);

struct gtfs_sample {
	uint64_t ns;
	struct gtfs_value r[GT_S_COUNT];
};

/*
 * gtfs_history() - the samples of GTFS_ROOT/<dev>/history, oldest first, at
 * most max of the newest. Returns the number stored in out, or -errno;
 * *lost (when non-NULL) gets the samples the module reported lost.
 */
int gtfs_history(const char *dev, struct gtfs_sample *out, int max, uint64_t *lost);

/* The "info" file: known keys only. */
#define GTFS_INFO_MAX 32
struct gtfs_info {
	int n;
	struct {
		const char *key;	/* one of GT_INFO_* (static) */
		char value[96];
	} kv[GTFS_INFO_MAX];
};

int gtfs_info(const char *dev, struct gtfs_info *info);
/* The value of key, or NULL when absent or "unavailable". */
const char *gtfs_info_get(const struct gtfs_info *info, const char *key);

#endif /* NAVIBENCH_GTFS_H */
