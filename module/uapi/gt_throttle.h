/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * gputelemetry: the names of gpu_metrics' throttle bits, one table for the
 * kernel module (the "metrics" file) and navibench (sensors, exporter).
 *
 * Plain C with no includes, like gputelemetry.h: usable from kernel and
 * userspace alike. A reason has one name wherever it comes from, so that
 * "ppt0" from a Navi 14's throttle_status and "ppt0" from any ASIC's
 * indep_throttle_status are the same label.
 *
 * Two masks, two meanings:
 *
 * - indep_throttle_status (gpu_metrics 1.3 and 2.2 on, 64 bits): the
 *   ASIC-independent bits that amdgpu translates every ASIC's firmware
 *   bits into. Source: Linux's drivers/gpu/drm/amd/pm/swsmu/inc/
 *   amdgpu_smu.h, SMU_THROTTLER_*_BIT (6.1 to mainline, unchanged since
 *   5.15). GT_THROTTLE_INDEP below.
 * - throttle_status (every revision, 32 bits): the firmware's own
 *   ThrottlerStatus, whose bits differ per SMU firmware interface. Only
 *   the Navi 1x one is named here (SMU 11.0.0/11.0.5/11.0.9: Navi 10, 14
 *   and 12, whose navi10_ppt.c copies metrics->ThrottlerStatus into the
 *   field): Linux's drivers/gpu/drm/amd/pm/swsmu/inc/pmfw_if/
 *   smu11_driver_if_navi10.h, THROTTLER_*_BIT (bit 0 is padding).
 *   GT_THROTTLE_SMU11_NAVI10 below. Other ASICs' throttle_status is left
 *   as the raw mask; their indep_throttle_status is the decoded one.
 *
 * The trap: RDNA 3 dGPUs (SMU 13.0.0 and 13.0.7: Navi 31, 32, 33) set
 * TEMP_HOTSPOT in indep_throttle_status even when idle, because amdgpu
 * sets an indep bit whenever the firmware's ThrottlingPercentage for it is
 * not 0, and the hotspot one almost never is (drm/amd issue 3251; the same
 * in Umio-Yasuno/libdrm-amdgpu-sys-rs#7 and MangoHud's workaround). The
 * bit is still reported, marked unreliable: GT_THROTTLE_UNRELIABLE_*.
 *
 * X(bit, name): bit is the bit number in its mask, name the reason.
 */
#ifndef _UAPI_GT_THROTTLE_H
#define _UAPI_GT_THROTTLE_H

#define GT_THROTTLE_INDEP(X)				\
	X(0, "ppt0")					\
	X(1, "ppt1")					\
	X(2, "ppt2")					\
	X(3, "ppt3")					\
	X(4, "spl")					\
	X(5, "fppt")					\
	X(6, "sppt")					\
	X(7, "sppt_apu")				\
	X(16, "tdc_gfx")				\
	X(17, "tdc_soc")				\
	X(18, "tdc_mem")				\
	X(19, "tdc_vdd")				\
	X(20, "tdc_cvip")				\
	X(21, "edc_cpu")				\
	X(22, "edc_gfx")				\
	X(23, "apcc")					\
	X(32, "temp_gpu")				\
	X(33, "temp_core")				\
	X(34, "temp_mem")				\
	X(35, "temp_edge")				\
	X(36, "temp_hotspot")				\
	X(37, "temp_soc")				\
	X(38, "temp_vr_gfx")				\
	X(39, "temp_vr_soc")				\
	X(40, "temp_vr_mem0")				\
	X(41, "temp_vr_mem1")				\
	X(42, "temp_liquid0")				\
	X(43, "temp_liquid1")				\
	X(44, "vrhot0")					\
	X(45, "vrhot1")					\
	X(46, "prochot_cpu")				\
	X(47, "prochot_gfx")				\
	X(56, "ppm")					\
	X(57, "fit")

#define GT_THROTTLE_SMU11_NAVI10(X)			\
	X(1, "temp_edge")				\
	X(2, "temp_hotspot")				\
	X(3, "temp_mem")				\
	X(4, "temp_vr_gfx")				\
	X(5, "temp_vr_mem0")				\
	X(6, "temp_vr_mem1")				\
	X(7, "temp_vr_soc")				\
	X(8, "temp_liquid0")				\
	X(9, "temp_liquid1")				\
	X(10, "temp_plx")				\
	X(11, "temp_skin")				\
	X(12, "tdc_gfx")				\
	X(13, "tdc_soc")				\
	X(14, "ppt0")					\
	X(15, "ppt1")					\
	X(16, "ppt2")					\
	X(17, "ppt3")					\
	X(18, "fit")					\
	X(19, "ppm")					\
	X(20, "apcc")

/* The indep bit RDNA 3 dGPUs set while not throttling (see above). */
#define GT_THROTTLE_UNRELIABLE_BIT	36
#define GT_THROTTLE_UNRELIABLE_FAMILY	"rdna3"

/*
 * Keys of the "metrics" file's decoded lines, which follow the masks:
 * "<key>: <name> <name>..." in bit order, "none" for an empty mask, "bit<N>"
 * for a set bit the table does not name, a name followed by "(unreliable)"
 * where the trap applies.
 */
#define GT_METRICS_THROTTLE_REASONS		"throttle_reasons"
#define GT_METRICS_INDEP_THROTTLE_REASONS	"indep_throttle_reasons"
#define GT_THROTTLE_NONE			"none"
#define GT_THROTTLE_UNRELIABLE_MARK		"(unreliable)"

/* Which ASICs' throttle_status GT_THROTTLE_SMU11_NAVI10 names (asic key). */
#define GT_THROTTLE_NAVI1X_FAMILY	"rdna1"

#endif /* _UAPI_GT_THROTTLE_H */
