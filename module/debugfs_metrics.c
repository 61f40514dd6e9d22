// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: the "metrics" file, amdgpu's gpu_metrics blob decoded.
 *
 * The blob is what the device's gpu_metrics attribute returns: a struct
 * gpu_metrics_v<format>_<content> of the kernel (layouts in gpu_metrics.h).
 * It is decoded only when its revision is one of the layouts known here and
 * it is long enough for that layout and for the size its own header states;
 * anything else is reported (status unknown_revision or short) with the
 * header as read, never guessed at.
 */
#include <linux/build_bug.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/stddef.h>

#include "compat.h"
#include "gpu_metrics.h"
#include "gputelemetry.h"
#include "uapi/gt_throttle.h"

static_assert(sizeof(struct gt_gpu_metrics_v1_0) == GT_GPU_METRICS_V1_0_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v1_1) == GT_GPU_METRICS_V1_1_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v1_2) == GT_GPU_METRICS_V1_2_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v1_3) == GT_GPU_METRICS_V1_3_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v1_4) == GT_GPU_METRICS_V1_4_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v1_5) == GT_GPU_METRICS_V1_5_SIZE);
static_assert(offsetof(struct gt_gpu_metrics_v1_4, energy_accumulator) == 24);
static_assert(offsetof(struct gt_gpu_metrics_v1_5, energy_accumulator) == 88);
static_assert(offsetof(struct gt_gpu_metrics_v1_5, firmware_timestamp) == 304);
static_assert(sizeof(struct gt_gpu_metrics_v2_0) == GT_GPU_METRICS_V2_0_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v2_1) == GT_GPU_METRICS_V2_1_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v2_2) == GT_GPU_METRICS_V2_2_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v2_3) == GT_GPU_METRICS_V2_3_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v2_4) == GT_GPU_METRICS_V2_4_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v3_0) == GT_GPU_METRICS_V3_0_SIZE);
static_assert(offsetof(struct gt_gpu_metrics_v3_0, average_socket_power) == 112);
static_assert(offsetof(struct gt_gpu_metrics_v3_0, throttle_residency_prochot) == 228);

/* How a field's raw value becomes the printed value and unit. */
enum gt_mkind {
	GT_MK_TEMP_C,		/* degrees C -> mC */
	GT_MK_TEMP_CC,		/* centidegrees C -> mC */
	GT_MK_MHZ,
	GT_MK_PCT,
	GT_MK_CPCT,		/* hundredths of a percent -> % */
	GT_MK_W,		/* W -> mW */
	GT_MK_MW,
	GT_MK_MV,
	GT_MK_MA,
	GT_MK_RPM,
	GT_MK_PWM,
	GT_MK_LANES,
	GT_MK_SPEED,
	GT_MK_GBPS,		/* 0.1 GT/s, printed as it is */
	GT_MK_NS,
	GT_MK_10NS,
	GT_MK_RAW,
	GT_MK_MASK,		/* bit mask, printed in hex */
	GT_MK_FW_THROTTLE,	/* the firmware's throttle mask: hex, named on Navi 1x */
	GT_MK_INDEP_THROTTLE,	/* amdgpu's ASIC-independent throttle mask: hex, named */
	GT_MK_ENERGY_2P16,	/* energy in 2^-16 J (15.259 uJ): raw, and mJ */
};

static const char * const gt_mkind_units[] = {
	[GT_MK_TEMP_C] = "mC",
	[GT_MK_TEMP_CC] = "mC",
	[GT_MK_MHZ] = "MHz",
	[GT_MK_PCT] = "%",
	[GT_MK_CPCT] = "%",
	[GT_MK_W] = "mW",
	[GT_MK_MW] = "mW",
	[GT_MK_MV] = "mV",
	[GT_MK_MA] = "mA",
	[GT_MK_RPM] = "rpm",
	[GT_MK_PWM] = "pwm",
	[GT_MK_LANES] = "lanes",
	[GT_MK_SPEED] = "0.1GT/s",
	[GT_MK_GBPS] = "Gbps",
	[GT_MK_NS] = "ns",
	[GT_MK_10NS] = "10ns",
	[GT_MK_RAW] = "raw",
	[GT_MK_MASK] = "mask",
	[GT_MK_FW_THROTTLE] = "mask",
	[GT_MK_INDEP_THROTTLE] = "mask",
	[GT_MK_ENERGY_2P16] = "raw",
};

/**
 * struct gt_mfield - one decoded field of a layout
 * @key: printed key, the kernel's field name
 * @off: offset in the blob
 * @size: 1, 2, 4 or 8 bytes
 * @kind: conversion and unit
 * @crev: first content revision that has the field
 * @crev_last: last content revision the entry applies to (a field whose
 *	unit changed between revisions has one entry per unit)
 */
struct gt_mfield {
	const char *key;
	u16 off;
	u8 size;
	u8 kind;
	u8 crev;
	u8 crev_last;
};

#define GT_MFR(type, field, sz, k, rev, last)				\
	{ .key = #field, .off = offsetof(type, field), .size = (sz),	\
	  .kind = (k), .crev = (rev), .crev_last = (last) }
#define GT_MF(type, field, sz, k, rev) GT_MFR(type, field, sz, k, rev, U8_MAX)
#define GT_M10(field, sz, k, rev) GT_MF(struct gt_gpu_metrics_v1_0, field, sz, k, rev)
#define GT_M13(field, sz, k, rev) GT_MF(struct gt_gpu_metrics_v1_3, field, sz, k, rev)
#define GT_M20(field, sz, k, rev) GT_MF(struct gt_gpu_metrics_v2_0, field, sz, k, rev)
#define GT_M24(field, sz, k, rev) GT_MF(struct gt_gpu_metrics_v2_4, field, sz, k, rev)
#define GT_M24R(field, sz, k, rev, last)				\
	GT_MFR(struct gt_gpu_metrics_v2_4, field, sz, k, rev, last)
#define GT_M30(field, sz, k) GT_MF(struct gt_gpu_metrics_v3_0, field, sz, k, 0)

/*
 * Content revisions 1 to 3 of a format share their leading fields: each
 * adds fields at the end of the previous one (checked below), so one table
 * with the offsets of the largest serves all three, a field being decoded
 * from the content revision in its last column on. Revision 0 of each
 * format has a layout of its own.
 */
static_assert(offsetof(struct gt_gpu_metrics_v1_3, firmware_timestamp) ==
	      sizeof(struct gt_gpu_metrics_v1_1));
static_assert(offsetof(struct gt_gpu_metrics_v1_2, firmware_timestamp) ==
	      sizeof(struct gt_gpu_metrics_v1_1));
static_assert(offsetof(struct gt_gpu_metrics_v1_3, voltage_soc) ==
	      sizeof(struct gt_gpu_metrics_v1_2));
static_assert(offsetof(struct gt_gpu_metrics_v1_1, temperature_hbm) ==
	      offsetof(struct gt_gpu_metrics_v1_3, temperature_hbm));
static_assert(offsetof(struct gt_gpu_metrics_v2_3, indep_throttle_status) ==
	      sizeof(struct gt_gpu_metrics_v2_1));
static_assert(offsetof(struct gt_gpu_metrics_v2_2, indep_throttle_status) ==
	      sizeof(struct gt_gpu_metrics_v2_1));
static_assert(offsetof(struct gt_gpu_metrics_v2_3, average_temperature_gfx) ==
	      sizeof(struct gt_gpu_metrics_v2_2));
static_assert(offsetof(struct gt_gpu_metrics_v2_1, fan_pwm) ==
	      offsetof(struct gt_gpu_metrics_v2_3, fan_pwm));
static_assert(offsetof(struct gt_gpu_metrics_v2_4, average_cpu_voltage) ==
	      offsetof(struct gt_gpu_metrics_v2_3, average_temperature_l3) +
	      sizeof_field(struct gt_gpu_metrics_v2_3, average_temperature_l3));
static_assert(offsetof(struct gt_gpu_metrics_v2_4, fan_pwm) ==
	      offsetof(struct gt_gpu_metrics_v2_3, fan_pwm));
static_assert(offsetof(struct gt_gpu_metrics_v2_4, average_temperature_soc) ==
	      offsetof(struct gt_gpu_metrics_v2_3, average_temperature_soc));

static const struct gt_mfield gt_m1_0[] = {
	GT_M10(temperature_edge, 2, GT_MK_TEMP_C, 0),
	GT_M10(temperature_hotspot, 2, GT_MK_TEMP_C, 0),
	GT_M10(temperature_mem, 2, GT_MK_TEMP_C, 0),
	GT_M10(temperature_vrgfx, 2, GT_MK_TEMP_C, 0),
	GT_M10(temperature_vrsoc, 2, GT_MK_TEMP_C, 0),
	GT_M10(temperature_vrmem, 2, GT_MK_TEMP_C, 0),
	GT_M10(average_gfx_activity, 2, GT_MK_PCT, 0),
	GT_M10(average_umc_activity, 2, GT_MK_PCT, 0),
	GT_M10(average_mm_activity, 2, GT_MK_PCT, 0),
	GT_M10(average_socket_power, 2, GT_MK_W, 0),
	GT_M10(energy_accumulator, 4, GT_MK_RAW, 0),
	GT_M10(system_clock_counter, 8, GT_MK_NS, 0),
	GT_M10(average_gfxclk_frequency, 2, GT_MK_MHZ, 0),
	GT_M10(average_socclk_frequency, 2, GT_MK_MHZ, 0),
	GT_M10(average_uclk_frequency, 2, GT_MK_MHZ, 0),
	GT_M10(average_vclk0_frequency, 2, GT_MK_MHZ, 0),
	GT_M10(average_dclk0_frequency, 2, GT_MK_MHZ, 0),
	GT_M10(average_vclk1_frequency, 2, GT_MK_MHZ, 0),
	GT_M10(average_dclk1_frequency, 2, GT_MK_MHZ, 0),
	GT_M10(current_gfxclk, 2, GT_MK_MHZ, 0),
	GT_M10(current_socclk, 2, GT_MK_MHZ, 0),
	GT_M10(current_uclk, 2, GT_MK_MHZ, 0),
	GT_M10(current_vclk0, 2, GT_MK_MHZ, 0),
	GT_M10(current_dclk0, 2, GT_MK_MHZ, 0),
	GT_M10(current_vclk1, 2, GT_MK_MHZ, 0),
	GT_M10(current_dclk1, 2, GT_MK_MHZ, 0),
	GT_M10(throttle_status, 4, GT_MK_FW_THROTTLE, 0),
	GT_M10(current_fan_speed, 2, GT_MK_RPM, 0),
	GT_M10(pcie_link_width, 1, GT_MK_LANES, 0),
	GT_M10(pcie_link_speed, 1, GT_MK_SPEED, 0),
};

static const struct gt_mfield gt_m1[] = {
	GT_M13(temperature_edge, 2, GT_MK_TEMP_C, 1),
	GT_M13(temperature_hotspot, 2, GT_MK_TEMP_C, 1),
	GT_M13(temperature_mem, 2, GT_MK_TEMP_C, 1),
	GT_M13(temperature_vrgfx, 2, GT_MK_TEMP_C, 1),
	GT_M13(temperature_vrsoc, 2, GT_MK_TEMP_C, 1),
	GT_M13(temperature_vrmem, 2, GT_MK_TEMP_C, 1),
	GT_M13(average_gfx_activity, 2, GT_MK_PCT, 1),
	GT_M13(average_umc_activity, 2, GT_MK_PCT, 1),
	GT_M13(average_mm_activity, 2, GT_MK_PCT, 1),
	GT_M13(average_socket_power, 2, GT_MK_W, 1),
	GT_M13(energy_accumulator, 8, GT_MK_RAW, 1),
	GT_M13(system_clock_counter, 8, GT_MK_NS, 1),
	GT_M13(average_gfxclk_frequency, 2, GT_MK_MHZ, 1),
	GT_M13(average_socclk_frequency, 2, GT_MK_MHZ, 1),
	GT_M13(average_uclk_frequency, 2, GT_MK_MHZ, 1),
	GT_M13(average_vclk0_frequency, 2, GT_MK_MHZ, 1),
	GT_M13(average_dclk0_frequency, 2, GT_MK_MHZ, 1),
	GT_M13(average_vclk1_frequency, 2, GT_MK_MHZ, 1),
	GT_M13(average_dclk1_frequency, 2, GT_MK_MHZ, 1),
	GT_M13(current_gfxclk, 2, GT_MK_MHZ, 1),
	GT_M13(current_socclk, 2, GT_MK_MHZ, 1),
	GT_M13(current_uclk, 2, GT_MK_MHZ, 1),
	GT_M13(current_vclk0, 2, GT_MK_MHZ, 1),
	GT_M13(current_dclk0, 2, GT_MK_MHZ, 1),
	GT_M13(current_vclk1, 2, GT_MK_MHZ, 1),
	GT_M13(current_dclk1, 2, GT_MK_MHZ, 1),
	GT_M13(throttle_status, 4, GT_MK_FW_THROTTLE, 1),
	GT_M13(current_fan_speed, 2, GT_MK_RPM, 1),
	GT_M13(pcie_link_width, 2, GT_MK_LANES, 1),
	GT_M13(pcie_link_speed, 2, GT_MK_SPEED, 1),
	GT_M13(firmware_timestamp, 8, GT_MK_10NS, 2),
	GT_M13(voltage_soc, 2, GT_MK_MV, 3),
	GT_M13(voltage_gfx, 2, GT_MK_MV, 3),
	GT_M13(voltage_mem, 2, GT_MK_MV, 3),
	GT_M13(indep_throttle_status, 8, GT_MK_INDEP_THROTTLE, 3),
};

/*
 * 1.4 and 1.5: SMU 13.0.6 (MI300; smu_v13_0_6_get_gpu_metrics() of 6.12,
 * which rounds the firmware's Q10 values): temperatures in degrees C, the
 * socket power in W, activities in %, the energy counter in 15.259 uJ
 * units (raw), link speeds in 0.1 GT/s (PCIe) and Gbps (XGMI). 1.5 adds
 * the JPEG activities (moving every later field) and two NAK counters.
 * The per-instance arrays (clocks per XCC and per instance, VCN and JPEG
 * activities, XGMI data) are not decoded.
 */
#define GT_M14(field, sz, k) GT_MF(struct gt_gpu_metrics_v1_4, field, sz, k, 4)
#define GT_M15(field, sz, k) GT_MF(struct gt_gpu_metrics_v1_5, field, sz, k, 5)

static const struct gt_mfield gt_m1_4[] = {
	GT_M14(temperature_hotspot, 2, GT_MK_TEMP_C),
	GT_M14(temperature_mem, 2, GT_MK_TEMP_C),
	GT_M14(temperature_vrsoc, 2, GT_MK_TEMP_C),
	GT_M14(curr_socket_power, 2, GT_MK_W),
	GT_M14(average_gfx_activity, 2, GT_MK_PCT),
	GT_M14(average_umc_activity, 2, GT_MK_PCT),
	GT_M14(energy_accumulator, 8, GT_MK_ENERGY_2P16),
	GT_M14(system_clock_counter, 8, GT_MK_NS),
	GT_M14(throttle_status, 4, GT_MK_MASK),
	GT_M14(gfxclk_lock_status, 4, GT_MK_MASK),
	GT_M14(pcie_link_width, 2, GT_MK_LANES),
	GT_M14(pcie_link_speed, 2, GT_MK_SPEED),
	GT_M14(xgmi_link_width, 2, GT_MK_LANES),
	GT_M14(xgmi_link_speed, 2, GT_MK_GBPS),
	GT_M14(gfx_activity_acc, 4, GT_MK_RAW),
	GT_M14(mem_activity_acc, 4, GT_MK_RAW),
	GT_M14(pcie_bandwidth_acc, 8, GT_MK_RAW),
	GT_M14(pcie_bandwidth_inst, 8, GT_MK_RAW),
	GT_M14(pcie_l0_to_recov_count_acc, 8, GT_MK_RAW),
	GT_M14(pcie_replay_count_acc, 8, GT_MK_RAW),
	GT_M14(pcie_replay_rover_count_acc, 8, GT_MK_RAW),
	GT_M14(firmware_timestamp, 8, GT_MK_10NS),
	GT_M14(current_uclk, 2, GT_MK_MHZ),
};

static const struct gt_mfield gt_m1_5[] = {
	GT_M15(temperature_hotspot, 2, GT_MK_TEMP_C),
	GT_M15(temperature_mem, 2, GT_MK_TEMP_C),
	GT_M15(temperature_vrsoc, 2, GT_MK_TEMP_C),
	GT_M15(curr_socket_power, 2, GT_MK_W),
	GT_M15(average_gfx_activity, 2, GT_MK_PCT),
	GT_M15(average_umc_activity, 2, GT_MK_PCT),
	GT_M15(energy_accumulator, 8, GT_MK_ENERGY_2P16),
	GT_M15(system_clock_counter, 8, GT_MK_NS),
	GT_M15(throttle_status, 4, GT_MK_MASK),
	GT_M15(gfxclk_lock_status, 4, GT_MK_MASK),
	GT_M15(pcie_link_width, 2, GT_MK_LANES),
	GT_M15(pcie_link_speed, 2, GT_MK_SPEED),
	GT_M15(xgmi_link_width, 2, GT_MK_LANES),
	GT_M15(xgmi_link_speed, 2, GT_MK_GBPS),
	GT_M15(gfx_activity_acc, 4, GT_MK_RAW),
	GT_M15(mem_activity_acc, 4, GT_MK_RAW),
	GT_M15(pcie_bandwidth_acc, 8, GT_MK_RAW),
	GT_M15(pcie_bandwidth_inst, 8, GT_MK_RAW),
	GT_M15(pcie_l0_to_recov_count_acc, 8, GT_MK_RAW),
	GT_M15(pcie_replay_count_acc, 8, GT_MK_RAW),
	GT_M15(pcie_replay_rover_count_acc, 8, GT_MK_RAW),
	GT_M15(firmware_timestamp, 8, GT_MK_10NS),
	GT_M15(current_uclk, 2, GT_MK_MHZ),
	GT_M15(pcie_nak_sent_count_acc, 4, GT_MK_RAW),
	GT_M15(pcie_nak_rcvd_count_acc, 4, GT_MK_RAW),
};

static const struct gt_mfield gt_m2_0[] = {
	GT_M20(temperature_gfx, 2, GT_MK_TEMP_CC, 0),
	GT_M20(temperature_soc, 2, GT_MK_TEMP_CC, 0),
	GT_M20(average_gfx_activity, 2, GT_MK_CPCT, 0),
	GT_M20(average_mm_activity, 2, GT_MK_CPCT, 0),
	GT_M20(system_clock_counter, 8, GT_MK_NS, 0),
	GT_M20(average_socket_power, 2, GT_MK_RAW, 0),	/* Renoir: W or mW */
	GT_M20(average_cpu_power, 2, GT_MK_MW, 0),
	GT_M20(average_soc_power, 2, GT_MK_MW, 0),
	GT_M20(average_gfx_power, 2, GT_MK_MW, 0),
	GT_M20(average_gfxclk_frequency, 2, GT_MK_MHZ, 0),
	GT_M20(average_socclk_frequency, 2, GT_MK_MHZ, 0),
	GT_M20(average_uclk_frequency, 2, GT_MK_MHZ, 0),
	GT_M20(average_fclk_frequency, 2, GT_MK_MHZ, 0),
	GT_M20(average_vclk_frequency, 2, GT_MK_MHZ, 0),
	GT_M20(average_dclk_frequency, 2, GT_MK_MHZ, 0),
	GT_M20(current_gfxclk, 2, GT_MK_MHZ, 0),
	GT_M20(current_socclk, 2, GT_MK_MHZ, 0),
	GT_M20(current_uclk, 2, GT_MK_MHZ, 0),
	GT_M20(current_fclk, 2, GT_MK_MHZ, 0),
	GT_M20(current_vclk, 2, GT_MK_MHZ, 0),
	GT_M20(current_dclk, 2, GT_MK_MHZ, 0),
	GT_M20(throttle_status, 4, GT_MK_MASK, 0),
	GT_M20(fan_pwm, 2, GT_MK_PWM, 0),
};

/*
 * Format 2 (APUs). The units are those of the SMU code that fills each
 * revision (6.12), checked against the unit its own sensor path
 * (*_get_smu_metrics_data(), what gpu_busy_percent and power1_* show)
 * converts from:
 *
 * - average_gfx_activity, average_mm_activity: hundredths of a percent
 *   where every writer of the revision copies the firmware's raw value
 *   that its sensor path divides by 100: 2.1 (yellow_carp_ppt.c,
 *   smu_v13_0_4_ppt.c, smu_v13_0_5_ppt.c) and 2.2 (renoir_ppt.c,
 *   vangogh_ppt.c with firmware interface < 3; cyan_skillfish_ppt.c leaves
 *   them unfilled). 2.3 and 2.4 come from Van Gogh, whose sensor path
 *   divides by 100 for firmware interface < 3 (vangogh_get_legacy_smu_
 *   metrics_data()) and not for newer firmware (vangogh_get_smu_metrics_
 *   data()), while kgd_pp_interface.h calls the 2.4 field "centi": the
 *   unit depends on firmware the blob does not name, so the raw value is
 *   printed, unit "raw".
 * - average_socket_power: milliwatts everywhere but in Renoir's 2.2 (and
 *   2.0, Renoir's first revision): renoir_get_smu_metrics_data()
 *   takes CurrentSocketPower as watts on SMU firmware >= 0x373200 (MP1
 *   12.0.0) or >= 0x40000f (MP1 12.0.1) and as milliwatts on older
 *   firmware. Cyan Skillfish and legacy Van Gogh write 2.2 in mW. The blob
 *   does not say which, so 2.0 and 2.2 print it raw; the "sensors" file's
 *   power_avg (amdgpu's power1_average, which knows the firmware) is the
 *   unambiguous reading.
 */
static const struct gt_mfield gt_m2[] = {
	GT_M24(temperature_gfx, 2, GT_MK_TEMP_CC, 1),
	GT_M24(temperature_soc, 2, GT_MK_TEMP_CC, 1),
	GT_M24R(average_gfx_activity, 2, GT_MK_CPCT, 1, 2),
	GT_M24R(average_gfx_activity, 2, GT_MK_RAW, 3, U8_MAX),
	GT_M24R(average_mm_activity, 2, GT_MK_CPCT, 1, 2),
	GT_M24R(average_mm_activity, 2, GT_MK_RAW, 3, U8_MAX),
	GT_M24(system_clock_counter, 8, GT_MK_NS, 1),
	GT_M24R(average_socket_power, 2, GT_MK_MW, 1, 1),
	GT_M24R(average_socket_power, 2, GT_MK_RAW, 2, 2),
	GT_M24R(average_socket_power, 2, GT_MK_MW, 3, U8_MAX),
	GT_M24(average_cpu_power, 2, GT_MK_MW, 1),
	GT_M24(average_soc_power, 2, GT_MK_MW, 1),
	GT_M24(average_gfx_power, 2, GT_MK_MW, 1),
	GT_M24(average_gfxclk_frequency, 2, GT_MK_MHZ, 1),
	GT_M24(average_socclk_frequency, 2, GT_MK_MHZ, 1),
	GT_M24(average_uclk_frequency, 2, GT_MK_MHZ, 1),
	GT_M24(average_fclk_frequency, 2, GT_MK_MHZ, 1),
	GT_M24(average_vclk_frequency, 2, GT_MK_MHZ, 1),
	GT_M24(average_dclk_frequency, 2, GT_MK_MHZ, 1),
	GT_M24(current_gfxclk, 2, GT_MK_MHZ, 1),
	GT_M24(current_socclk, 2, GT_MK_MHZ, 1),
	GT_M24(current_uclk, 2, GT_MK_MHZ, 1),
	GT_M24(current_fclk, 2, GT_MK_MHZ, 1),
	GT_M24(current_vclk, 2, GT_MK_MHZ, 1),
	GT_M24(current_dclk, 2, GT_MK_MHZ, 1),
	GT_M24(throttle_status, 4, GT_MK_MASK, 1),
	GT_M24(fan_pwm, 2, GT_MK_PWM, 1),
	GT_M24(indep_throttle_status, 8, GT_MK_INDEP_THROTTLE, 2),
	GT_M24(average_temperature_gfx, 2, GT_MK_TEMP_CC, 3),
	GT_M24(average_temperature_soc, 2, GT_MK_TEMP_CC, 3),
	GT_M24(average_cpu_voltage, 2, GT_MK_MV, 4),
	GT_M24(average_soc_voltage, 2, GT_MK_MV, 4),
	GT_M24(average_gfx_voltage, 2, GT_MK_MV, 4),
	GT_M24(average_cpu_current, 2, GT_MK_MA, 4),
	GT_M24(average_soc_current, 2, GT_MK_MA, 4),
	GT_M24(average_gfx_current, 2, GT_MK_MA, 4),
};

/*
 * 3.0: SMU 14.0.0 APUs (smu_v14_0_0_ppt.c of 6.12, which copies the SMU's
 * values). Temperatures in centidegrees and the VCN activity in hundredths
 * of a percent (its sensor path divides each by 100), powers in mW (the
 * header's unit; the sensor path takes SocketPower as mW), clocks in MHz.
 * The GFX activity is percent on SMU firmware > 0x5d4600 and hundredths
 * before (smu_v14_0_0_get_smu_metrics_data()): raw. Throttle residencies
 * are counters of the firmware's: raw. The per-core, IPU and bandwidth
 * fields are not decoded.
 */
static const struct gt_mfield gt_m3_0[] = {
	GT_M30(temperature_gfx, 2, GT_MK_TEMP_CC),
	GT_M30(temperature_soc, 2, GT_MK_TEMP_CC),
	GT_M30(temperature_skin, 2, GT_MK_TEMP_CC),
	GT_M30(average_gfx_activity, 2, GT_MK_RAW),
	GT_M30(average_vcn_activity, 2, GT_MK_CPCT),
	GT_M30(system_clock_counter, 8, GT_MK_NS),
	GT_M30(average_socket_power, 4, GT_MK_MW),
	GT_M30(average_ipu_power, 2, GT_MK_MW),
	GT_M30(average_apu_power, 4, GT_MK_MW),
	GT_M30(average_gfx_power, 4, GT_MK_MW),
	GT_M30(average_dgpu_power, 4, GT_MK_MW),
	GT_M30(average_all_core_power, 4, GT_MK_MW),
	GT_M30(average_sys_power, 2, GT_MK_MW),
	GT_M30(stapm_power_limit, 2, GT_MK_MW),
	GT_M30(current_stapm_power_limit, 2, GT_MK_MW),
	GT_M30(average_gfxclk_frequency, 2, GT_MK_MHZ),
	GT_M30(average_socclk_frequency, 2, GT_MK_MHZ),
	GT_M30(average_vpeclk_frequency, 2, GT_MK_MHZ),
	GT_M30(average_ipuclk_frequency, 2, GT_MK_MHZ),
	GT_M30(average_fclk_frequency, 2, GT_MK_MHZ),
	GT_M30(average_vclk_frequency, 2, GT_MK_MHZ),
	GT_M30(average_uclk_frequency, 2, GT_MK_MHZ),
	GT_M30(average_mpipu_frequency, 2, GT_MK_MHZ),
	GT_M30(current_core_maxfreq, 2, GT_MK_MHZ),
	GT_M30(current_gfx_maxfreq, 2, GT_MK_MHZ),
	GT_M30(throttle_residency_prochot, 4, GT_MK_RAW),
	GT_M30(throttle_residency_spl, 4, GT_MK_RAW),
	GT_M30(throttle_residency_fppt, 4, GT_MK_RAW),
	GT_M30(throttle_residency_sppt, 4, GT_MK_RAW),
	GT_M30(throttle_residency_thm_core, 4, GT_MK_RAW),
	GT_M30(throttle_residency_thm_gfx, 4, GT_MK_RAW),
	GT_M30(throttle_residency_thm_soc, 4, GT_MK_RAW),
};

/**
 * struct gt_mlayout - a known revision
 * @frev: format revision
 * @crev: content revision
 * @size: sizeof() of the layout
 * @fields: what is decoded (a field only when its @crev is at most ours)
 * @nfields: entries in @fields
 */
struct gt_mlayout {
	u8 frev;
	u8 crev;
	u16 size;
	const struct gt_mfield *fields;
	unsigned int nfields;
};

static const struct gt_mlayout gt_mlayouts[] = {
	{ .frev = 1, .crev = 0, .size = GT_GPU_METRICS_V1_0_SIZE,
	  .fields = gt_m1_0, .nfields = ARRAY_SIZE(gt_m1_0) },
	{ .frev = 1, .crev = 1, .size = GT_GPU_METRICS_V1_1_SIZE,
	  .fields = gt_m1, .nfields = ARRAY_SIZE(gt_m1) },
	{ .frev = 1, .crev = 2, .size = GT_GPU_METRICS_V1_2_SIZE,
	  .fields = gt_m1, .nfields = ARRAY_SIZE(gt_m1) },
	{ .frev = 1, .crev = 3, .size = GT_GPU_METRICS_V1_3_SIZE,
	  .fields = gt_m1, .nfields = ARRAY_SIZE(gt_m1) },
	{ .frev = 1, .crev = 4, .size = GT_GPU_METRICS_V1_4_SIZE,
	  .fields = gt_m1_4, .nfields = ARRAY_SIZE(gt_m1_4) },
	{ .frev = 1, .crev = 5, .size = GT_GPU_METRICS_V1_5_SIZE,
	  .fields = gt_m1_5, .nfields = ARRAY_SIZE(gt_m1_5) },
	{ .frev = 2, .crev = 0, .size = GT_GPU_METRICS_V2_0_SIZE,
	  .fields = gt_m2_0, .nfields = ARRAY_SIZE(gt_m2_0) },
	{ .frev = 2, .crev = 1, .size = GT_GPU_METRICS_V2_1_SIZE,
	  .fields = gt_m2, .nfields = ARRAY_SIZE(gt_m2) },
	{ .frev = 2, .crev = 2, .size = GT_GPU_METRICS_V2_2_SIZE,
	  .fields = gt_m2, .nfields = ARRAY_SIZE(gt_m2) },
	{ .frev = 2, .crev = 3, .size = GT_GPU_METRICS_V2_3_SIZE,
	  .fields = gt_m2, .nfields = ARRAY_SIZE(gt_m2) },
	{ .frev = 2, .crev = 4, .size = GT_GPU_METRICS_V2_4_SIZE,
	  .fields = gt_m2, .nfields = ARRAY_SIZE(gt_m2) },
	{ .frev = 3, .crev = 0, .size = GT_GPU_METRICS_V3_0_SIZE,
	  .fields = gt_m3_0, .nfields = ARRAY_SIZE(gt_m3_0) },
};

static const struct gt_mlayout *gt_mlayout_find(u8 frev, u8 crev)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gt_mlayouts); i++)
		if (gt_mlayouts[i].frev == frev && gt_mlayouts[i].crev == crev)
			return &gt_mlayouts[i];
	return NULL;
}

/* The raw value of @f in @blob; *all_ones tells amdgpu's "not supported". */
static u64 gt_mfield_raw(const u8 *blob, const struct gt_mfield *f, bool *all_ones)
{
	const void *p = blob + f->off;
	u64 v;

	switch (f->size) {
	case 1:
		v = *(const u8 *)p;
		*all_ones = v == U8_MAX;
		break;
	case 2:
		v = get_unaligned((const u16 *)p);
		*all_ones = v == U16_MAX;
		break;
	case 4:
		v = get_unaligned((const u32 *)p);
		*all_ones = v == U32_MAX;
		break;
	default:
		v = get_unaligned((const u64 *)p);
		*all_ones = v == U64_MAX;
		break;
	}
	return v;
}

/**
 * struct gt_tname - a named throttle bit (uapi/gt_throttle.h)
 * @bit: bit number in its mask
 * @name: the reason
 */
struct gt_tname {
	u8 bit;
	const char *name;
};

#define GT_TNAME(b, n) { .bit = (b), .name = (n) },
static const struct gt_tname gt_throttle_indep[] = { GT_THROTTLE_INDEP(GT_TNAME) };
static const struct gt_tname gt_throttle_navi10[] = { GT_THROTTLE_SMU11_NAVI10(GT_TNAME) };
#undef GT_TNAME

static const char *gt_tname_find(const struct gt_tname *t, size_t n, unsigned int bit)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].bit == bit)
			return t[i].name;
	return NULL;
}

/*
 * The line that names the bits of @mask: "key: <name> <name>...", "none" for
 * 0, "bit<N>" for a bit the table does not name, and the unreliable mark
 * after bit @unreliable (-1: none).
 */
static void gt_throttle_show(struct seq_file *m, const char *key, u64 mask,
			     const struct gt_tname *t, size_t n, int unreliable)
{
	const char *name;
	unsigned int bit;

	seq_printf(m, "%s:", key);
	if (!mask)
		seq_puts(m, " " GT_THROTTLE_NONE);
	for (bit = 0; bit < 64; bit++) {
		if (!(mask & BIT_ULL(bit)))
			continue;
		name = gt_tname_find(t, n, bit);
		if (name)
			seq_printf(m, " %s", name);
		else
			seq_printf(m, " bit%u", bit);
		if (bit == unreliable)
			seq_puts(m, GT_THROTTLE_UNRELIABLE_MARK);
	}
	seq_putc(m, '\n');
}

/* What decoding a field needs beside the blob: the ASIC's family or NULL. */
static void gt_mfield_decoded(struct seq_file *m, const struct gt_mfield *f,
			      u64 v, const char *family)
{
	bool rdna3 = family && !strcmp(family, GT_THROTTLE_UNRELIABLE_FAMILY);

	switch (f->kind) {
	case GT_MK_FW_THROTTLE:
		/* Only Navi 1x's firmware bits are named; others stay raw. */
		if (family && !strcmp(family, GT_THROTTLE_NAVI1X_FAMILY))
			gt_throttle_show(m, GT_METRICS_THROTTLE_REASONS, v, gt_throttle_navi10,
					 ARRAY_SIZE(gt_throttle_navi10), -1);
		break;
	case GT_MK_INDEP_THROTTLE:
		gt_throttle_show(m, GT_METRICS_INDEP_THROTTLE_REASONS, v, gt_throttle_indep,
				 ARRAY_SIZE(gt_throttle_indep),
				 rdna3 ? GT_THROTTLE_UNRELIABLE_BIT : -1);
		break;
	case GT_MK_ENERGY_2P16:
		/*
		 * 2^-16 J = 1000 / 65536 mJ: a 96-bit product, and any u64
		 * counter fits in mJ (not in uJ, past 2^60).
		 */
		seq_printf(m, "%s: %llu mJ\n", GT_METRICS_ENERGY, mul_u64_u32_shr(v, 1000, 16));
		break;
	default:
		break;
	}
}

static void gt_mfield_show(struct seq_file *m, const u8 *blob, const struct gt_mfield *f,
			   const char *family)
{
	const char *unit = gt_mkind_units[f->kind];
	bool all_ones;
	u64 v;

	v = gt_mfield_raw(blob, f, &all_ones);
	if (all_ones) {
		seq_printf(m, "%s: %s\n", f->key, GT_UNAVAILABLE);
		return;
	}
	switch (f->kind) {
	case GT_MK_TEMP_C:
	case GT_MK_W:
		/* At most 16 bits: no overflow. */
		seq_printf(m, "%s: %llu %s\n", f->key, v * 1000, unit);
		break;
	case GT_MK_TEMP_CC:
		seq_printf(m, "%s: %llu %s\n", f->key, v * 10, unit);
		break;
	case GT_MK_CPCT:
		/* Truncated, as amdgpu's own sensor path divides. */
		seq_printf(m, "%s: %llu %s\n", f->key, v / 100, unit);
		break;
	case GT_MK_MASK:
	case GT_MK_FW_THROTTLE:
	case GT_MK_INDEP_THROTTLE:
		seq_printf(m, "%s: 0x%llx %s\n", f->key, v, unit);
		break;
	default:
		seq_printf(m, "%s: %llu %s\n", f->key, v, unit);
		break;
	}
	gt_mfield_decoded(m, f, v, family);
}

/**
 * gt_metrics_decode() - print a gpu_metrics blob as the "metrics" file
 * @m: the seq_file
 * @blob: the bytes read
 * @len: their number, or a negative errno when nothing could be read
 *	(-EAGAIN: the device is runtime-suspended; -ENODEV: no trusted
 *	driver; -ENOENT: the driver has no gpu_metrics)
 * @family: the ASIC's family ("rdna1"...), or NULL when not known; it
 *	decides how the throttle masks are named (uapi/gt_throttle.h)
 */
void gt_metrics_decode(struct seq_file *m, const u8 *blob, ssize_t len, const char *family)
{
	const struct gt_metrics_table_header *h = (const void *)blob;
	const struct gt_mlayout *l;
	const char *status;
	unsigned int i;
	bool ok = false;

	if (len < 0) {
		seq_printf(m, "%s: %s\n", GT_METRICS_STATUS, GT_METRICS_UNAVAILABLE);
		switch (len) {
		case -EAGAIN:
			seq_printf(m, "%s: %s\n", GT_METRICS_REASON, GT_STATE_SUSPENDED);
			break;
		case -ENODEV:
			seq_printf(m, "%s: %s\n", GT_METRICS_REASON, GT_STATE_UNBOUND);
			break;
		default:
			seq_printf(m, "%s: error %zd\n", GT_METRICS_REASON, len);
			break;
		}
		return;
	}
	if (len < sizeof(*h)) {
		seq_printf(m, "%s: %s\n", GT_METRICS_STATUS, GT_METRICS_SHORT);
		seq_printf(m, "%s: %zd\n", GT_METRICS_SIZE, len);
		return;
	}

	l = gt_mlayout_find(h->format_revision, h->content_revision);
	if (!l)
		status = GT_METRICS_UNKNOWN;
	else if (len < l->size || len < h->structure_size || h->structure_size < l->size)
		status = GT_METRICS_SHORT;
	else
		ok = true;
	if (ok)
		status = GT_METRICS_OK;
	seq_printf(m, "%s: %s\n", GT_METRICS_STATUS, status);
	seq_printf(m, "%s: %zd\n", GT_METRICS_SIZE, len);
	seq_printf(m, "%s: %u\n", GT_METRICS_STRUCTURE_SIZE, h->structure_size);
	seq_printf(m, "%s: %u\n", GT_METRICS_FORMAT_REVISION, h->format_revision);
	seq_printf(m, "%s: %u\n", GT_METRICS_CONTENT_REVISION, h->content_revision);
	if (!ok)
		return;
	for (i = 0; i < l->nfields; i++)
		if (l->fields[i].crev <= l->crev && l->crev <= l->fields[i].crev_last)
			gt_mfield_show(m, blob, &l->fields[i], family);
}

/* The largest blob a sysfs attribute can return. */
#define GT_METRICS_MAX	PAGE_SIZE

static int gt_metrics_show(struct seq_file *m, void *v)
{
	struct gt_device *gdev = m->private;
	struct gt_info info;
	ssize_t len;
	u8 *blob;

	blob = kzalloc(GT_METRICS_MAX, GFP_KERNEL);
	if (!blob)
		return -ENOMEM;
	gt_source_info(gdev, &info);
	len = gt_source_read_metrics(gdev, blob, GT_METRICS_MAX);
	gt_metrics_decode(m, blob, len, info.asic ? info.asic->family : NULL);
	kfree(blob);
	return 0;
}

/* A text file (debugfs.c): the blob is read without seq_file's lock. */
DEFINE_GT_TEXT_ATTRIBUTE(gt_metrics);

/**
 * gt_metrics_debugfs_add() - create a device's "metrics" file
 * @gdev: the device; the file is removed with its directory
 * @dir: the device's directory
 */
void gt_metrics_debugfs_add(struct gt_device *gdev, struct dentry *dir)
{
	debugfs_create_file(GT_FILE_METRICS, 0400, dir, gdev, &gt_metrics_fops);
}
