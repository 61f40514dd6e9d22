/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * gputelemetry debugfs line format: file names, key names and units.
 *
 * Shared by the kernel module (module/) and by navibench (user/), so that
 * the producer and the parser of every line use the same names. Plain C
 * with no includes: usable from kernel and userspace alike.
 *
 * The format itself is described in module/gputelemetry.rst.
 */
#ifndef _UAPI_GPUTELEMETRY_H
#define _UAPI_GPUTELEMETRY_H

/* Bumped whenever a line changes in a way an old parser would misread. */
#define GT_FORMAT_VERSION	1

#define GT_DEBUGFS_ROOT		"gputelemetry"

/* Top-level files. */
#define GT_FILE_VERSION		"version"
#define GT_FILE_DEVICES		"devices"
#define GT_FILE_NEW_DEVICE	"new_device"
#define GT_FILE_DEL_DEVICE	"del_device"

/* Per-device files. */
#define GT_FILE_INFO		"info"
#define GT_FILE_SENSORS		"sensors"
#define GT_FILE_CU_COUNT	"cu_count"
#define GT_FILE_HISTORY		"history"
#define GT_FILE_STATS		"stats"
#define GT_FILE_INTERVAL_MS	"interval_ms"
/* Per-device file of PCI devices only: the decoded gpu_metrics blob. */
#define GT_FILE_METRICS		"metrics"
/* Per-device files of simulated devices only. */
#define GT_FILE_LOAD		"load"
#define GT_FILE_FAIL_SENSORS	"fail_sensors"

/* Simulated device directory names: "sim<id>". */
#define GT_SIM_PREFIX		"sim"

/* Marker of a reading that the device lacks or that failed. */
#define GT_UNAVAILABLE		"unavailable"
/* The same, inside a history line ("key=na"). */
#define GT_NA			"na"
/* History line reporting samples overwritten before this reader saw them. */
#define GT_LOST			"lost"
/* Value written to "stats" to reset it. */
#define GT_STATS_RESET		"reset"
/* Value of "fail_sensors" when no sensor is made to fail. */
#define GT_NONE			"none"

/*
 * GT_SENSORS(X) - every reading, in the order files list them: the one
 * table of the readings, expanded by the module (its amdgpu source, the
 * simulated GPUs' fail_sensors), by navibench (its hwmon, sysfs and
 * libdrm_amdgpu sources, the Prometheus families, the man page) and shown
 * as is in module/gputelemetry.rst. Adding a reading is adding a row
 * (docs/HACKING.md, "Adding a sensor").
 *
 * X(id, key, unit, dir, file, div, drm, drm_mul, family, label, help, nodex)
 * @id:      names an enum constant GT_S_<id>
 * @key:     the name used in "sensors", "history" and "stats"
 * @unit:    printed after the value. mC = millidegrees Celsius, MHz, mW,
 *           mV, rpm, pwm = 0..255 duty, % = percent, B = bytes
 * @dir:     where amdgpu shows it: HWMON (its hwmon device) or PCI (the
 *           PCI device's own attributes)
 * @file:    the file's name there
 * @div:     the file's unit per @unit (Hz per MHz: 1000000)
 * @drm:     libdrm_amdgpu's AMDGPU_INFO_SENSOR_* query, or 0: none (a name
 *           only navibench's libdrm.c expands, so kernel code never needs
 *           it defined)
 * @drm_mul: @unit per the query's unit (mW per W: 1000)
 * @family:  the Prometheus metric family, without prefix and unit suffix
 * @label:   its "sensor" label, telling readings of one family apart; NULL
 * @help:    the family's help text, on its first reading only; else NULL
 * @nodex:   1 when node_exporter's hwmon collector exports it for amdgpu
 *           GPUs (navibench then does not); node_exporter reads no freq*
 */
#define GT_SENSORS(X)							\
	X(TEMP_EDGE, "temp_edge", "mC", HWMON, "temp1_input", 1,		\
	  AMDGPU_INFO_SENSOR_GPU_TEMP, 1, "temperature", "edge",		\
	  "GPU temperature (edge, junction or memory sensor).", 1)	\
	X(TEMP_JUNCTION, "temp_junction", "mC", HWMON, "temp2_input", 1,	\
	  0, 1, "temperature", "junction", NULL, 1)			\
	X(TEMP_MEM, "temp_mem", "mC", HWMON, "temp3_input", 1,		\
	  0, 1, "temperature", "mem", NULL, 1)				\
	X(SCLK, "sclk", "MHz", HWMON, "freq1_input", 1000000,		\
	  AMDGPU_INFO_SENSOR_GFX_SCLK, 1, "clock", "sclk",		\
	  "Current clock (label sensor): sclk (shader engine), mclk (memory); " \
	  "socclk, fclk (data fabric), vclk0/1, dclk0/1 (media) from gpu_metrics.", 0) \
	X(MCLK, "mclk", "MHz", HWMON, "freq2_input", 1000000,		\
	  AMDGPU_INFO_SENSOR_GFX_MCLK, 1, "clock", "mclk", NULL, 0)	\
	X(POWER_AVG, "power_avg", "mW", HWMON, "power1_average", 1000,	\
	  AMDGPU_INFO_SENSOR_GPU_AVG_POWER, 1000, "power", "average",	\
	  "Power: the SMU's average over its window, or the input power.", 1) \
	X(POWER_INPUT, "power_input", "mW", HWMON, "power1_input", 1000,	\
	  AMDGPU_INFO_SENSOR_GPU_INPUT_POWER, 1000, "power", "input",	\
	  NULL, 1)							\
	X(VDDGFX, "vddgfx", "mV", HWMON, "in0_input", 1,			\
	  AMDGPU_INFO_SENSOR_VDDGFX, 1, "voltage", "vddgfx",		\
	  "Voltage of the graphics (vddgfx) or northbridge rail.", 1)	\
	X(VDDNB, "vddnb", "mV", HWMON, "in1_input", 1,			\
	  AMDGPU_INFO_SENSOR_VDDNB, 1, "voltage", "vddnb", NULL, 1)	\
	X(FAN, "fan", "rpm", HWMON, "fan1_input", 1,			\
	  0, 1, "fan_speed", NULL, "Fan speed.", 1)			\
	X(FAN_PWM, "fan_pwm", "pwm", HWMON, "pwm1", 1,			\
	  0, 1, "fan_pwm", NULL, "Fan PWM duty cycle, 0 to 1.", 1)	\
	X(GPU_BUSY, "gpu_busy", "%", PCI, "gpu_busy_percent", 1,		\
	  AMDGPU_INFO_SENSOR_GPU_LOAD, 1, "gpu_busy", NULL,		\
	  "Share of time the graphics engine was busy, 0 to 1.", 0)	\
	X(MEM_BUSY, "mem_busy", "%", PCI, "mem_busy_percent", 1,		\
	  0, 1, "memory_busy", NULL,					\
	  "Share of time the memory controller was busy, 0 to 1.", 0)	\
	X(VRAM_USED, "vram_used", "B", PCI, "mem_info_vram_used", 1,	\
	  0, 1, "vram_used", NULL, "VRAM in use.", 0)			\
	X(VRAM_TOTAL, "vram_total", "B", PCI, "mem_info_vram_total", 1,	\
	  0, 1, "vram_total", NULL, "VRAM size.", 0)			\
	X(TEMP_EDGE_CRIT, "temp_edge_crit", "mC", HWMON, "temp1_crit", 1,	\
	  0, 1, "temperature_critical", "edge",				\
	  "Critical temperature of a sensor (edge, junction, mem), from hwmon's temp*_crit.", 1) \
	X(TEMP_JUNCTION_CRIT, "temp_junction_crit", "mC", HWMON, "temp2_crit", 1, \
	  0, 1, "temperature_critical", "junction", NULL, 1)		\
	X(TEMP_MEM_CRIT, "temp_mem_crit", "mC", HWMON, "temp3_crit", 1,	\
	  0, 1, "temperature_critical", "mem", NULL, 1)		\
	X(POWER_CAP, "power_cap", "mW", HWMON, "power1_cap", 1000,		\
	  0, 1, "power_cap", NULL, "Power cap in force (hwmon's power1_cap).", 1) \
	X(POWER_CAP_DEFAULT, "power_cap_default", "mW", HWMON,		\
	  "power1_cap_default", 1000, 0, 1, "power_cap_default", NULL,	\
	  "Default power cap (power1_cap_default).", 1)			\
	X(POWER_CAP_MIN, "power_cap_min", "mW", HWMON, "power1_cap_min", 1000, \
	  0, 1, "power_cap_min", NULL,					\
	  "Lowest power cap allowed (power1_cap_min).", 1)		\
	X(POWER_CAP_MAX, "power_cap_max", "mW", HWMON, "power1_cap_max", 1000, \
	  0, 1, "power_cap_max", NULL,					\
	  "Highest power cap allowed (power1_cap_max).", 1)		\
	X(GTT_USED, "gtt_used", "B", PCI, "mem_info_gtt_used", 1,		\
	  0, 1, "gtt_used", NULL,					\
	  "GTT (system memory mapped for the GPU) in use.", 0)		\
	X(GTT_TOTAL, "gtt_total", "B", PCI, "mem_info_gtt_total", 1,	\
	  0, 1, "gtt_total", NULL, "GTT size.", 0)

#define GT_SENSOR_ENUM(id, ...) GT_S_##id,
enum gt_sensor {
	GT_SENSORS(GT_SENSOR_ENUM)
	GT_S_COUNT
};

#undef GT_SENSOR_ENUM

/* Keys of the per-device "info" file; their order is GT_INFO_KEYS below. */
#define GT_INFO_NAME		"name"
#define GT_INFO_LOCATION	"location"
#define GT_INFO_VENDOR_ID	"vendor_id"
#define GT_INFO_DEVICE_ID	"device_id"
#define GT_INFO_SUBSYS_VENDOR	"subsystem_vendor_id"
#define GT_INFO_SUBSYS_DEVICE	"subsystem_device_id"
#define GT_INFO_REVISION	"revision"
#define GT_INFO_ASIC		"asic"
#define GT_INFO_FAMILY		"family"
#define GT_INFO_GFX_TARGET	"gfx_target"
#define GT_INFO_MARKETING_NAME	"marketing_name"
#define GT_INFO_CU_FULL		"cu_count_full"
#define GT_INFO_CU_ACTIVE	"cu_count_active"
#define GT_INFO_CU_SOURCE	"cu_count_source"
#define GT_INFO_VRAM_TYPE	"vram_type"
#define GT_INFO_VRAM_WIDTH	"vram_bus_width"
#define GT_INFO_VRAM_SIZE	"vram_size"
#define GT_INFO_SCLK_MAX	"sclk_max"
#define GT_INFO_MCLK_MAX	"mclk_max"
#define GT_INFO_DRIVER		"driver"
#define GT_INFO_SOURCE		"source"
#define GT_INFO_STATE		"state"
#define GT_INFO_PCIE_SPEED	"pcie_speed"
#define GT_INFO_PCIE_WIDTH	"pcie_width"
#define GT_INFO_PCIE_MAX_SPEED	"pcie_max_speed"
#define GT_INFO_PCIE_MAX_WIDTH	"pcie_max_width"
#define GT_INFO_INTERVAL	"interval_ms"

/*
 * GT_INFO_KEYS(X) - every key of "info", in the order the file lists them;
 * the one list, expanded by the module, navibench and the tests.
 * X(id): id names the key GT_INFO_<id> above and an enum constant
 * GT_I_<id>.
 */
#define GT_INFO_KEYS(X)							\
	X(NAME) X(LOCATION) X(VENDOR_ID) X(DEVICE_ID) X(SUBSYS_VENDOR)	\
	X(SUBSYS_DEVICE) X(REVISION) X(ASIC) X(FAMILY) X(GFX_TARGET)	\
	X(MARKETING_NAME) X(CU_FULL) X(CU_ACTIVE) X(CU_SOURCE)		\
	X(VRAM_TYPE) X(VRAM_WIDTH) X(VRAM_SIZE) X(SCLK_MAX) X(MCLK_MAX)	\
	X(DRIVER) X(SOURCE) X(STATE) X(PCIE_SPEED) X(PCIE_WIDTH)	\
	X(PCIE_MAX_SPEED) X(PCIE_MAX_WIDTH) X(INTERVAL)

#define GT_INFO_KEY_ENUM(id) GT_I_##id,
enum gt_info_key {
	GT_INFO_KEYS(GT_INFO_KEY_ENUM)
	GT_I_COUNT
};

#undef GT_INFO_KEY_ENUM

/* Values of the "source" column and key. */
#define GT_SOURCE_SIM		"sim"
#define GT_SOURCE_AMDGPU	"amdgpu"
#define GT_SOURCE_NONE		"none"

/* Values of the "state" column and key. */
#define GT_STATE_ACTIVE		"active"
#define GT_STATE_SUSPENDED	"suspended"
#define GT_STATE_UNBOUND	"unbound"
#define GT_STATE_REMOVING	"removing"

/* Values of cu_count_source. */
#define GT_CU_SOURCE_SIM	"sim"
#define GT_CU_SOURCE_KFD	"kfd"
#define GT_CU_SOURCE_TABLE	"asic_table"

/*
 * Keys of the "metrics" file that come before the decoded fields (which
 * are named as the kernel's struct gpu_metrics_v* fields, see
 * gputelemetry.rst), and the values of its status key.
 */
#define GT_METRICS_STATUS		"status"
#define GT_METRICS_REASON		"reason"
#define GT_METRICS_SIZE			"size"
#define GT_METRICS_STRUCTURE_SIZE	"structure_size"
#define GT_METRICS_FORMAT_REVISION	"format_revision"
#define GT_METRICS_CONTENT_REVISION	"content_revision"
#define GT_METRICS_OK			"ok"
#define GT_METRICS_UNAVAILABLE		"unavailable"
#define GT_METRICS_UNKNOWN		"unknown_revision"
#define GT_METRICS_SHORT		"short"
/*
 * A line after energy_accumulator where its unit is known (1.4 and 1.5:
 * 2^-16 J, as kgd_pp_interface.h says and smu_v13_0_6_ppt.c writes it):
 * the counter in millijoules (truncated). It wraps with the counter.
 */
#define GT_METRICS_ENERGY		"energy"

#endif /* _UAPI_GPUTELEMETRY_H */
