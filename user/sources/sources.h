/* SPDX-License-Identifier: MIT */
/*
 * Where a GPU's live readings come from: one table of sources (nvtop's
 * struct gpu_vendor), tried in order for each reading; the first that
 * answers gives it. Adding a source is a file with a struct nb_source and
 * a line in NB_SOURCES below; adding a reading is a row of GT_SENSORS in
 * module/uapi/gputelemetry.h, which the hwmon, sysfs and libdrm_amdgpu
 * sources expand (docs/HACKING.md).
 *
 *	libdrm_amdgpu  AMDGPU_INFO_SENSOR and friends on the render node (libdrm.c)
 *	hwmon          amdgpu's hwmon directory in sysfs (hwmon.c)
 *	sysfs          the PCI device's own attributes: gpu_busy_percent,
 *	               mem_info_* (hwmon.c)
 *	gputelemetry   the module's debugfs "sensors" file, root only (gputelemetry.c)
 *	cpu            the host CPU (the CPU device only): cpufreq or
 *	               /proc/cpuinfo, hwmon, RAPL (cpu.c)
 *
 * A source that fails a reading is not asked for it again (radeontop's
 * habit), so a sample costs only what answers. A reading no source gives
 * is missing, never 0. A runtime-suspended GPU is not woken: the sources
 * that would wake it (libdrm_amdgpu, hwmon, sysfs) are left out unless
 * NB_SENSORS_WAKE is given.
 */
#ifndef NAVIBENCH_SOURCES_H
#define NAVIBENCH_SOURCES_H

#include <stdbool.h>
#include <stdint.h>

#include "devices/devices.h"
#include "devices/gtfs.h"

/*
 * NB_SOURCES(X) - the sources, in the order they are tried: X(id, name)
 * declares enum nb_src NB_SRC_<id> and the struct nb_source nb_source_<name>
 * that its file defines. Adding a source is that file, a line here and its
 * test (docs/HACKING.md, "Adding a source").
 */
#define NB_SOURCES(X)			\
	X(LIBDRM, libdrm)		\
	X(HWMON, hwmon)			\
	X(SYSFS, sysfs)			\
	X(GT, gputelemetry)		\
	X(CPU, cpu)

#define NB_SRC_ENUM(id, name) NB_SRC_##id,
enum nb_src {
	NB_SOURCES(NB_SRC_ENUM)
	NB_SRC_COUNT,
};
#undef NB_SRC_ENUM

struct nb_sensor_dev;

struct nb_source {
	const char *name;	/* shown as a reading's source */
	bool wakes;		/* reading it resumes a runtime-suspended GPU */
	bool amdgpu_only;	/* only for NB_DEV_AMDGPU devices */
	bool cpu_only;		/* only for the CPU device (and no other source for it) */
	bool retry;		/* a failed reading is asked again at the next sample */
	/*
	 * open() - whether the source can read this device: 0, or -errno with
	 * a note (why, and the fix) in note when the user should know. A
	 * source that opens may note what it cannot read all the same.
	 */
	int (*open)(struct nb_sensor_dev *d, void **priv, char *note, unsigned long n);
	void (*close)(void *priv);
	/* sample() - a new sample starts (a source reading one file for all) */
	void (*sample)(struct nb_sensor_dev *d, void *priv);
	/* read() - reading s (enum gt_sensor) in gtfs_sensor_defs[s].unit: true, *v set */
	bool (*read)(struct nb_sensor_dev *d, void *priv, int s, int64_t *v);
	/* detail() - optional: which files it reads, for people ("clock: cpufreq...") */
	const char *(*detail)(void *priv);
};

#define NB_SRC_EXTERN(id, name) extern const struct nb_source nb_source_##name;
NB_SOURCES(NB_SRC_EXTERN)
#undef NB_SRC_EXTERN

/* The sources, in the order they are tried (index: enum nb_src). */
extern const struct nb_source *const nb_sources[NB_SRC_COUNT];

/* --source: a choice and the sources it stands for; a NULL name ends them. */
struct nb_source_choice {
	const char *name;	/* first: the option's choice (cli.h CLI_CHOICE_TABLE_OPT) */
	unsigned int mask;	/* 1 << enum nb_src of each source it reads */
};

extern const struct nb_source_choice nb_source_choices[];
unsigned int nb_source_mask(int choice);

struct nb_reading {
	bool valid;
	int64_t v;		/* in gtfs_sensor_defs[].unit */
	const struct nb_source *src;	/* NULL when missing */
};

#define NB_SENSOR_NOTES 4

/* One device being read. */
struct nb_sensor_dev {
	const struct nb_devent *e;
	bool asleep;		/* runtime-suspended and not to be woken */
	unsigned int use;	/* 1 << enum nb_src: the sources open */
	void *priv[NB_SRC_COUNT];
	bool dead[GT_S_COUNT][NB_SRC_COUNT];	/* asked and failed */
	/* filled by the sources that know them; NULL when not known */
	const char *asic, *gfx_target;
	char asic_buf[32], gfx_buf[32];
	char note[NB_SENSOR_NOTES][400];	/* what the user should know */
	int nnotes;
};

enum {
	NB_SENSORS_WAKE = 1 << 0,	/* read a runtime-suspended GPU anyway (wakes it) */
};

/*
 * nb_sensor_open() - open the sources of mask (1 << enum nb_src) that can
 * read e. Never fails: a device no source reads has every reading missing.
 */
void nb_sensor_open(struct nb_sensor_dev *d, const struct nb_devent *e, unsigned int mask,
		    unsigned int flags);
void nb_sensor_sample(struct nb_sensor_dev *d, struct nb_reading r[GT_S_COUNT]);
void nb_sensor_close(struct nb_sensor_dev *d);

/* Add a note to d (printf format). */
void nb_sensor_note(struct nb_sensor_dev *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * nb_hwmon_dir() - amdgpu's hwmon directory of the PCI device at sysdev
 * ("<sysdev>/hwmon/hwmonN") into out. 0, or -ENOENT when it has none.
 */
int nb_hwmon_dir(const char *sysdev, char *out, unsigned long n);

#endif /* NAVIBENCH_SOURCES_H */
