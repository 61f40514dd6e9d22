/* SPDX-License-Identifier: MIT */
/*
 * What a live reading is measured against, and the readings outside the
 * sources' enum gt_sensor, for the live view (navibench top): the
 * critical temperatures, the power cap and the fan's maximum (hwmon), the
 * top clock levels (pp_dpm_sclk, pp_dpm_mclk), GTT used and total
 * (mem_info_gtt_*) and the PCIe link (current_link_*, max_link_*), all
 * from amdgpu's sysfs (Documentation/gpu/amdgpu/thermal.rst, driver-misc).
 *
 * A runtime-suspended GPU is not woken: only the PCIe link, which is PCI
 * config space and sysfs' own, is read from it.
 */
#ifndef NAVIBENCH_GAUGES_H
#define NAVIBENCH_GAUGES_H

#include <stdbool.h>
#include <stdint.h>

#include "sources/sources.h"

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
 * cap and GTT use change). Devices that are not amdgpu have none of it.
 */
void nb_limits_read(const struct nb_sensor_dev *d, struct nb_limits *lim);

#endif /* NAVIBENCH_GAUGES_H */
