/* SPDX-License-Identifier: MIT */
/*
 * amdgpu's readings outside the sources' enum gt_sensor, declared once
 * (NB_EXTRAS) and read by nb_extras_read(): the critical temperatures and
 * the power cap with its bounds (hwmon temp*_crit, power1_cap*), GTT use
 * (mem_info_gtt_*) and the PCIe link (current_link_*, max_link_*), from
 * amdgpu's sysfs (Documentation/gpu/amdgpu/thermal.rst, driver-misc).
 * `sensors` and the exporter print them, the Prometheus format names them
 * from the same table, and the live view (navibench top) measures its
 * readings against them through nb_limits_read(), with the fan's maximum
 * and the top clock levels (pp_dpm_sclk, pp_dpm_mclk) beside them.
 * NB_RAS_TYPES and nb_ras_read(): the RAS error counts of each block
 * (ras/<block>_err_count), where the GPU has RAS.
 *
 * A runtime-suspended GPU is not woken: amdgpu's hwmon and mem_info files
 * resume it; the PCIe link, PCI config space and sysfs' own, does not.
 */
#ifndef NAVIBENCH_GAUGES_H
#define NAVIBENCH_GAUGES_H

#include <stdbool.h>
#include <stdint.h>

/*
 * NB_EXTRAS(X) - the table: X(id, key, unit, dir, file, div, family,
 * label, help, nodex, wakes)
 * @id:     names an enum constant NB_X_<id>
 * @key:    the reading's name in `sensors`
 * @unit:   mC, mW, B, GT/s (per lane) or lanes
 * @dir:    HWMON (amdgpu's hwmon device) or PCI (the PCI device's own)
 * @file:   the file's name there
 * @div:    the file's unit per @unit; 0: a speed, "16.0 GT/s PCIe"
 * @family: the Prometheus family, without prefix and unit suffix
 * @label:  its "sensor" label; NULL: none
 * @help:   the family's help text, on its first reading only; else NULL
 * @nodex:  1 when node_exporter's hwmon collector exports it
 * @wakes:  1 when reading the file resumes a runtime-suspended GPU
 */
#define NB_EXTRAS(X)								\
	X(TEMP_EDGE_CRIT, "temp_edge_crit", "mC", HWMON, "temp1_crit", 1,		\
	  "temperature_critical", "edge",						\
	  "Critical temperature of a sensor (edge, junction, mem), from hwmon's temp*_crit.", \
	  1, 1)									\
	X(TEMP_JUNCTION_CRIT, "temp_junction_crit", "mC", HWMON, "temp2_crit", 1,	\
	  "temperature_critical", "junction", NULL, 1, 1)				\
	X(TEMP_MEM_CRIT, "temp_mem_crit", "mC", HWMON, "temp3_crit", 1,		\
	  "temperature_critical", "mem", NULL, 1, 1)					\
	X(POWER_CAP, "power_cap", "mW", HWMON, "power1_cap", 1000,			\
	  "power_cap", NULL, "Power cap in force (hwmon's power1_cap).", 1, 1)	\
	X(POWER_CAP_DEFAULT, "power_cap_default", "mW", HWMON, "power1_cap_default", 1000, \
	  "power_cap_default", NULL, "Default power cap (power1_cap_default).", 1, 1) \
	X(POWER_CAP_MIN, "power_cap_min", "mW", HWMON, "power1_cap_min", 1000,	\
	  "power_cap_min", NULL, "Lowest power cap allowed (power1_cap_min).", 1, 1) \
	X(POWER_CAP_MAX, "power_cap_max", "mW", HWMON, "power1_cap_max", 1000,	\
	  "power_cap_max", NULL, "Highest power cap allowed (power1_cap_max).", 1, 1) \
	X(GTT_USED, "gtt_used", "B", PCI, "mem_info_gtt_used", 1,			\
	  "gtt_used", NULL, "GTT (system memory mapped for the GPU) in use.", 0, 1)	\
	X(GTT_TOTAL, "gtt_total", "B", PCI, "mem_info_gtt_total", 1,		\
	  "gtt_total", NULL, "GTT size.", 0, 1)						\
	X(LINK_SPEED, "pcie_link_speed", "GT/s", PCI, "current_link_speed", 0,	\
	  "pcie_link_speed", NULL, "PCIe link speed now, per lane (current_link_speed).", \
	  0, 0)									\
	X(LINK_MAX_SPEED, "pcie_link_max_speed", "GT/s", PCI, "max_link_speed", 0,	\
	  "pcie_link_max_speed", NULL,							\
	  "Highest PCIe link speed of the device, per lane (max_link_speed).", 0, 0) \
	X(LINK_WIDTH, "pcie_link_width", "lanes", PCI, "current_link_width", 1,	\
	  "pcie_link_width", NULL, "PCIe link width now (current_link_width).", 0, 0) \
	X(LINK_MAX_WIDTH, "pcie_link_max_width", "lanes", PCI, "max_link_width", 1,	\
	  "pcie_link_max_width", NULL, "Widest PCIe link of the device (max_link_width).", \
	  0, 0)

#define NB_EXTRA_ENUM(id, ...) NB_X_##id,
enum nb_extra {
	NB_EXTRAS(NB_EXTRA_ENUM)
	NB_X_COUNT
};
#undef NB_EXTRA_ENUM

struct nb_extra_def {
	const char *key, *unit;
	bool hwmon;		/* in the hwmon directory, else the PCI device's */
	const char *file;
	int64_t div;		/* 0: a speed in GT/s */
	bool wakes;
};

extern const struct nb_extra_def nb_extra_defs[NB_X_COUNT];

/* One reading of the table, as read. */
struct nb_extra_reading {
	bool valid;
	int64_t i;		/* in the entry's unit; a speed: */
	double gts;		/* GT/s */
	char raw[24];		/* the link's text ("16.0 GT/s PCIe", "8"); "": other */
	const char *source;	/* "hwmon" or "sysfs"; NULL: !valid */
	const char *why;	/* !valid: why */
};

struct nb_sensor_dev;

/*
 * nb_extras_read() - every reading of NB_EXTRAS that device d has, read
 * now; the others missing, with why (not amdgpu, asleep, no hwmon
 * directory, not readable). A runtime-suspended GPU's files that would
 * wake it are not read; with link_asleep the others (the PCIe link) are,
 * else none is.
 */
void nb_extras_read(const struct nb_sensor_dev *d, bool link_asleep,
		    struct nb_extra_reading r[NB_X_COUNT]);

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
 * nb_limits_read() - what of the above device d has, read now (a power
 * cap and GTT use change): NB_EXTRAS' readings, the fan's maximum and the
 * top clock levels. Devices that are not amdgpu have none of it.
 */
void nb_limits_read(const struct nb_sensor_dev *d, struct nb_limits *lim);

#endif /* NAVIBENCH_GAUGES_H */
