/* SPDX-License-Identifier: MIT */
/*
 * The PCIe link of a GPU, now and at most (NB_EXTRAS, read by
 * nb_extras_read()): the readings of `sensors` that are not rows of
 * GT_SENSORS (module/uapi/gputelemetry.h), as a speed is text ("16.0 GT/s
 * PCIe"), not a number the module's line format holds. An amdgpu device's
 * come from its PCI device's current_link_* and max_link_* (PCI core
 * attributes), a device of the gputelemetry module (a simulated GPU) from
 * the module's info file, whose pcie_* keys are the same facts. `sensors`
 * and the exporter print them, the Prometheus format names them from the
 * same table. The live view (navibench top) measures its readings against
 * limits, nb_limits_read(): the critical temperatures, the power cap and
 * GTT of GT_SENSORS, the link, the fan's maximum and the top clock levels
 * (pp_dpm_sclk, pp_dpm_mclk). NB_RAS_TYPES and nb_ras_read(): the RAS
 * error counts of each block (ras/<block>_err_count), where the GPU has RAS.
 *
 * A runtime-suspended GPU is not woken: the PCIe link's files read PCI
 * config space, which does not resume the GPU, so they are read while it
 * sleeps (a link that is down then reads as not readable: its speed
 * unknown, its width out of 1..32).
 */
#ifndef NAVIBENCH_GAUGES_H
#define NAVIBENCH_GAUGES_H

#include <stdbool.h>
#include <stdint.h>

#include "gputelemetry.h"

/*
 * NB_EXTRAS(X) - the table: X(id, key, unit, file, info, div, family,
 * label, help)
 * @id:     names an enum constant NB_X_<id>
 * @key:    the reading's name in `sensors`
 * @unit:   GT/s (per lane) or lanes
 * @file:   the PCI device's file (amdgpu devices)
 * @info:   the key of the module's info file (its devices), GT_INFO_<info>
 * @div:    0: a speed, "16.0 GT/s PCIe"; 1: a number of lanes
 * @family: the Prometheus family, without prefix and unit suffix
 * @label:  its "sensor" label; NULL: none
 * @help:   the family's help text, on its first reading only; else NULL
 * node_exporter's hwmon collector exports none of them.
 */
#define NB_EXTRAS(X)								\
	X(LINK_SPEED, "pcie_link_speed", "GT/s", "current_link_speed", PCIE_SPEED, 0, \
	  "pcie_link_speed", NULL, "PCIe link speed now, per lane (current_link_speed).") \
	X(LINK_MAX_SPEED, "pcie_link_max_speed", "GT/s", "max_link_speed", PCIE_MAX_SPEED, 0, \
	  "pcie_link_max_speed", NULL,							\
	  "Highest PCIe link speed of the device, per lane (max_link_speed).")		\
	X(LINK_WIDTH, "pcie_link_width", "lanes", "current_link_width", PCIE_WIDTH, 1,	\
	  "pcie_link_width", NULL, "PCIe link width now (current_link_width).")		\
	X(LINK_MAX_WIDTH, "pcie_link_max_width", "lanes", "max_link_width", PCIE_MAX_WIDTH, 1, \
	  "pcie_link_max_width", NULL, "Widest PCIe link of the device (max_link_width).")

#define NB_EXTRA_ENUM(id, ...) NB_X_##id,
enum nb_extra {
	NB_EXTRAS(NB_EXTRA_ENUM)
	NB_X_COUNT
};
#undef NB_EXTRA_ENUM

struct nb_extra_def {
	const char *key, *unit;
	const char *file;	/* the PCI device's */
	const char *info;	/* the module's info key */
	int64_t div;		/* 0: a speed in GT/s */
};

extern const struct nb_extra_def nb_extra_defs[NB_X_COUNT];

/* One reading of the table, as read. */
struct nb_extra_reading {
	bool valid;
	int64_t i;		/* lanes; a speed: */
	double gts;		/* GT/s */
	char raw[24];		/* the text read ("16.0 GT/s PCIe", "8"); "": none */
	const char *source;	/* "sysfs" or "gputelemetry"; NULL: !valid */
	const char *why;	/* !valid: why */
};

struct nb_devent;
struct nb_sensor_dev;

/*
 * nb_extras_read() - every reading of NB_EXTRAS that device e has, read
 * now: an amdgpu device's from sysfs (awake or not: none wakes it), a
 * device of the gputelemetry module's from its info file; the others
 * missing, with why. What `sensors`, `info` and the live view show of the
 * link.
 */
void nb_extras_read(const struct nb_devent *e, struct nb_extra_reading r[NB_X_COUNT]);

/*
 * NB_RAS_TYPES(X) - the counts of amdgpu's RAS error files, one per block
 * that has RAS (ras/<block>_err_count of the PCI device: lines "ue: N",
 * "ce: N" and, for umc on recent kernels, "de: N" (deferred); amdgpu_ras.c,
 * amdgpu_ras_sysfs_read()). X(id, tag, key, type)
 * @tag:  the line's name in the file
 * @key:  the reading in `sensors`, a set labelled by block
 * @type: the Prometheus label type of navibench_ras_errors_total
 * The counts are the driver's, summed since it loaded: counters.
 */
#define NB_RAS_TYPES(X)							\
	X(UE, "ue", "ras_uncorrectable", "uncorrectable")			\
	X(CE, "ce", "ras_correctable", "correctable")				\
	X(DE, "de", "ras_deferred", "deferred")

#define NB_RAS_ENUM(id, ...) NB_RAS_##id,
enum nb_ras_type {
	NB_RAS_TYPES(NB_RAS_ENUM)
	NB_RAS_N
};
#undef NB_RAS_ENUM

struct nb_ras_type_def {
	const char *tag, *key, *type;
};

extern const struct nb_ras_type_def nb_ras_types[NB_RAS_N];

#define NB_RAS_MAX_BLOCKS 32

struct nb_ras_block {
	char name[24];		/* "umc", "gfx", "sdma", "mca_mp0"... */
	bool has[NB_RAS_N];
	uint64_t count[NB_RAS_N];
};

/* A device's RAS counts, as read. */
struct nb_ras {
	bool present;		/* a ras directory, read; else why */
	const char *why;
	bool has_features;
	uint32_t features;	/* ras/features: "feature mask: 0x..." (bit: block) */
	int n;			/* blocks, by name */
	struct nb_ras_block block[NB_RAS_MAX_BLOCKS];
};

/*
 * nb_ras_read() - device d's RAS counts, read now: every block with an
 * err_count file that answers (one that says "Query currently
 * inaccessible" is left out), sorted by name. Not present, with why, on a
 * GPU without a ras directory (no RAS: consumer GPUs), on other devices
 * and while the GPU sleeps: amdgpu reads these from the GPU's error
 * registers (and clears those on most ASICs) without taking a runtime PM
 * reference, so a suspended GPU's are not read.
 */
void nb_ras_read(const struct nb_sensor_dev *d, struct nb_ras *r);

struct nb_limits {
	/* the critical temperature of edge, junction and memory (temp1..3_crit), mC */
	bool has_temp_crit[3];
	int64_t temp_crit[3];
	bool has_sclk_max, has_mclk_max;
	int64_t sclk_max, mclk_max;	/* MHz: the top DPM level */
	bool has_power_cap;
	int64_t power_cap;		/* mW */
	bool has_fan_max;
	int64_t fan_max;		/* rpm */
	bool has_gtt;
	uint64_t gtt_used, gtt_total;	/* B */
	char link[48];			/* "16.0 GT/s PCIe x8"; "" when not known */
	char link_max[48];
};

/*
 * nb_limits_read() - what of the above device d has, now: the critical
 * temperatures, the power cap and GTT from r, the GT_S_COUNT readings of
 * a sample (nb_sensor_sample(): GT_SENSORS, whatever source gave them), the
 * PCIe link from nb_extras_read(), and, for an amdgpu device awake, the
 * fan's maximum and the top clock levels.
 */
struct nb_reading;
void nb_limits_read(const struct nb_sensor_dev *d, const struct nb_reading *r,
		    struct nb_limits *lim);

#endif /* NAVIBENCH_GAUGES_H */
