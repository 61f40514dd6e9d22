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

#define GT_ROOT "/sys/kernel/debug/" GT_DEBUGFS_ROOT

struct gt_sensor_def {
	const char *key;
	const char *unit;
};
/* Indexed by enum gt_sensor: key and unit of every reading. */
extern const struct gt_sensor_def gt_sensor_defs[GT_S_COUNT];
/* The enum gt_sensor of a key, or -1. */
int gt_sensor_index(const char *key);

/* One line of the "devices" file. */
struct gt_dev {
	char name[64];		/* "sim0" or "0000:03:00.0" */
	char location[96];
	char asic[32];
	char source[16];
	char state[16];
};

/*
 * gt_devices() - read GT_ROOT/devices. Returns the number of devices
 * (array in *out, free() it) or -errno: -ENOENT when the module is not
 * loaded (or debugfs not mounted), -EACCES when not readable (not root).
 */
int gt_devices(struct gt_dev **out);

struct gt_value {
	bool valid;		/* false: "unavailable" / "na" / not listed */
	int64_t v;		/* in the unit of gt_sensor_defs[] */
};

/* gt_sensors() - one snapshot of GT_ROOT/<dev>/sensors. 0 or -errno. */
int gt_sensors(const char *dev, struct gt_value r[GT_S_COUNT]);

struct gt_stat {
	bool valid;
	int64_t min, avg, max;
	uint64_t samples;
};

/* gt_stats() - GT_ROOT/<dev>/stats. 0 or -errno. */
int gt_stats(const char *dev, struct gt_stat s[GT_S_COUNT], uint64_t *since_ns);

struct gt_sample {
	uint64_t ns;
	struct gt_value r[GT_S_COUNT];
};

/*
 * gt_history() - the samples of GT_ROOT/<dev>/history, oldest first, at
 * most max of the newest. Returns the number stored in out, or -errno;
 * *lost (when non-NULL) gets the samples the module reported lost.
 */
int gt_history(const char *dev, struct gt_sample *out, int max, uint64_t *lost);

/* The "info" file: known keys only. */
#define GT_INFO_MAX 32
struct gt_info {
	int n;
	struct {
		const char *key;	/* one of GT_INFO_* (static) */
		char value[96];
	} kv[GT_INFO_MAX];
};

int gt_info(const char *dev, struct gt_info *info);
/* The value of key, or NULL when absent or "unavailable". */
const char *gt_info_get(const struct gt_info *info, const char *key);

#endif /* NAVIBENCH_GTFS_H */
