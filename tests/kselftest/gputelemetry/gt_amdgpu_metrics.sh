#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# gputelemetry's "metrics" file: the gpu_metrics blob of each revision it
# decodes (v1_0..v1_3 for discrete GPUs, Navi 14 uses v1_3; v1_4 and v1_5
# for MI300; v2_0..v2_4 and v3_0 for APUs), presented by the gt_test_amdgpu test driver from knob
# values set here, decoded field by field into known values; a truncated
# blob, an unknown revision, a failing or missing attribute and a
# suspended device reported as such, never decoded.
#
# The blob's units (tests/modules/gt_test_blobs.c, as amdgpu's SMU
# code writes them): format 1 temperatures in degrees C, activities in
# percent and power in W; format 2 temperatures in centidegrees C,
# activities in hundredths of a percent and power in mW; clocks in MHz.
# gputelemetry prints temperatures in mC, activities in percent and power
# in mW, except where the unit depends on firmware the blob does not name
# (format 2 activities in 2.3 and 2.4, socket power in 2.0 and 2.2): raw.
. "$(dirname "$0")/gt_amdgpu_lib.sh"

ta_require
ta_reset
trap 'ta_reset' EXIT
gt_mark

M=		# the metrics file, set by setup

setup() {
	ta_load && gt_load "$GT_TRUST" || fail "insmod failed"
	ta_power on
	M=$G/metrics
	# Values chosen so that each field's conversion is visible.
	ta_set temp_edge 45678		# format 1: 45 C; format 2: 4567 cC
	ta_set temp_junction 52999
	ta_set temp_mem 60100
	ta_set temp_vrgfx 48000
	ta_set temp_vrsoc 47000
	ta_set temp_vrmem 46000
	ta_set temp_soc 50120
	ta_set sclk 1845999999
	ta_set sclk_average 1800000000
	ta_set mclk 875000000
	ta_set mclk_average 870000000
	ta_set gpu_busy_percent 37
	ta_set mem_busy_percent 12
	ta_set mm_busy_percent 5
	ta_set energy_accumulator 5000000000	# past 2^32: 705032704 in v1_0's u32
	ta_set throttle_status 0x5
	ta_set indep_throttle_status 0x100000002
	ta_set fan_rpm 1200
	ta_set pwm 102
	ta_set pcie_link_width 16
	ta_set pcie_link_speed 160
	ta_set system_clock_counter 1000000000123
	ta_set firmware_timestamp 100000000007
	ta_set vddgfx 1050
	ta_set vddnb 900
	ta_set vddmem 1350
}

rev() { # format.content
	ta_set gpu_metrics_rev "$1"
}

expect_header() { # structure_size format content
	expect_line "$M" "status: ok"
	expect_line "$M" "size: $1"
	expect_line "$M" "structure_size: $1"
	expect_line "$M" "format_revision: $2"
	expect_line "$M" "content_revision: $3"
}

# What every format 1 revision decodes.
expect_format1() { # energy socket_power_mW
	for l in "temperature_edge: 45000 mC" "temperature_hotspot: 52000 mC" \
		 "temperature_mem: 60000 mC" "temperature_vrgfx: 48000 mC" \
		 "temperature_vrsoc: 47000 mC" "temperature_vrmem: 46000 mC" \
		 "average_gfx_activity: 37 %" "average_umc_activity: 12 %" \
		 "average_mm_activity: 5 %" "average_socket_power: $2 mW" \
		 "energy_accumulator: $1 raw" "system_clock_counter: 1000000000123 ns" \
		 "average_gfxclk_frequency: 1800 MHz" "average_uclk_frequency: 870 MHz" \
		 "current_gfxclk: 1845 MHz" "current_uclk: 875 MHz" \
		 "average_socclk_frequency: unavailable" "current_vclk0: unavailable" \
		 "throttle_status: 0x5 mask" "current_fan_speed: 1200 rpm" \
		 "pcie_link_width: 16 lanes" "pcie_link_speed: 160 0.1GT/s"; do
		expect_line "$M" "$l"
	done
}

format1_revisions() {
	setup
	ta_set power_average 85000000		# 85 W
	rev 1.0
	expect_header 80 1 0
	expect_format1 705032704 85000
	for k in firmware_timestamp voltage_gfx indep_throttle_status temperature_gfx fan_pwm; do
		expect_no_key "$M" $k
	done
	rev 1.1
	expect_header 96 1 1
	expect_format1 5000000000 85000
	expect_no_key "$M" firmware_timestamp
	rev 1.2
	expect_header 104 1 2
	expect_format1 5000000000 85000
	expect_line "$M" "firmware_timestamp: 100000000007 10ns"
	expect_no_key "$M" voltage_gfx
	rev 1.3
	expect_header 120 1 3
	expect_format1 5000000000 85000
	for l in "firmware_timestamp: 100000000007 10ns" "voltage_soc: 900 mV" \
		 "voltage_gfx: 1050 mV" "voltage_mem: 1350 mV" \
		 "indep_throttle_status: 0x100000002 mask"; do
		expect_line "$M" "$l"
	done
}

# 1.4 and 1.5 (MI300): a layout of their own; 1.5 moves every field after
# the VCN activities by its 32 JPEG activities.
format1_mi300_revisions() {
	setup
	ta_set power_average 550000000		# 550 W
	for r in 1.4 1.5; do
		rev $r
		case $r in 1.4) expect_header 288 1 4 ;; 1.5) expect_header 360 1 5 ;; esac
		for l in "temperature_hotspot: 52000 mC" "temperature_mem: 60000 mC" \
			 "temperature_vrsoc: 47000 mC" "curr_socket_power: 550000 mW" \
			 "average_gfx_activity: 37 %" "average_umc_activity: 12 %" \
			 "energy_accumulator: 5000000000 raw" \
			 "system_clock_counter: 1000000000123 ns" "throttle_status: 0x5 mask" \
			 "gfxclk_lock_status: unavailable" "pcie_link_width: 16 lanes" \
			 "pcie_link_speed: 160 0.1GT/s" "xgmi_link_speed: unavailable" \
			 "firmware_timestamp: 100000000007 10ns" "current_uclk: 875 MHz"; do
			expect_line "$M" "$l"
		done
		for k in temperature_edge average_socket_power voltage_gfx; do
			expect_no_key "$M" $k
		done
	done
	expect_line "$M" "pcie_nak_sent_count_acc: unavailable"
	rev 1.4
	expect_no_key "$M" pcie_nak_sent_count_acc
}

# What every format 2 revision decodes: activities as "37 %"/"5 %" (percent
# from hundredths) or "3700 raw"/"500 raw", socket power as "mW" or "raw".
expect_format2() { # gfx_activity mm_activity power_unit
	for l in "temperature_gfx: 45670 mC" "temperature_soc: 50120 mC" \
		 "average_gfx_activity: $1" "average_mm_activity: $2" \
		 "average_socket_power: 15000 $3" "average_cpu_power: unavailable" \
		 "system_clock_counter: 1000000000123 ns" \
		 "average_gfxclk_frequency: 1800 MHz" "average_uclk_frequency: 870 MHz" \
		 "current_gfxclk: 1845 MHz" "current_uclk: 875 MHz" \
		 "current_fclk: unavailable" "throttle_status: 0x5 mask" "fan_pwm: 102 pwm"; do
		expect_line "$M" "$l"
	done
	for k in temperature_edge temperature_hotspot current_fan_speed energy_accumulator; do
		expect_no_key "$M" $k
	done
}

format2_revisions() {
	setup
	ta_set apu 1
	ta_set power_average 15000000		# an APU's 15 W
	ta_set gpu_busy_percent 37		# 3700 in the blob
	rev 2.0
	expect_header 120 2 0
	expect_format2 "37 %" "5 %" raw
	expect_no_key "$M" indep_throttle_status
	rev 2.1
	expect_header 120 2 1
	expect_format2 "37 %" "5 %" mW
	expect_no_key "$M" indep_throttle_status
	rev 2.2					# Renoir: W or mW by firmware
	expect_header 128 2 2
	expect_format2 "37 %" "5 %" raw
	expect_line "$M" "indep_throttle_status: 0x100000002 mask"
	expect_no_key "$M" average_temperature_gfx
	rev 2.3					# Van Gogh: % or 0.01 % by firmware
	expect_header 152 2 3
	expect_format2 "3700 raw" "500 raw" mW
	expect_line "$M" "indep_throttle_status: 0x100000002 mask"
	expect_line "$M" "average_temperature_gfx: 45670 mC"
	expect_line "$M" "average_temperature_soc: 50120 mC"
	expect_no_key "$M" average_gfx_voltage
	rev 2.4
	expect_header 168 2 4
	expect_format2 "3700 raw" "500 raw" mW
	expect_line "$M" "average_temperature_soc: 50120 mC"
	expect_line "$M" "average_gfx_voltage: 1050 mV"
	expect_line "$M" "average_soc_voltage: 900 mV"
	expect_line "$M" "average_cpu_voltage: unavailable"
	expect_line "$M" "average_gfx_current: unavailable"
	# Hundredths truncate to whole percent, as amdgpu's sensor path does.
	ta_set gpu_busy_percent 100
	rev 2.1
	expect_line "$M" "average_gfx_activity: 100 %"
	ta_set gpu_busy_percent 0
	expect_line "$M" "average_gfx_activity: 0 %"
}

# 3.0 (SMU 14.0.0 APUs): a layout of its own, 32-bit powers.
format3_revision() {
	setup
	ta_set apu 1
	ta_set power_average 70000000		# 70000 mW: past a u16's 65535
	rev 3.0
	expect_header 264 3 0
	for l in "temperature_gfx: 45670 mC" "temperature_soc: 50120 mC" \
		 "temperature_skin: unavailable" "average_gfx_activity: 3700 raw" \
		 "average_vcn_activity: 5 %" "system_clock_counter: 1000000000123 ns" \
		 "average_socket_power: 70000 mW" "average_apu_power: unavailable" \
		 "average_gfxclk_frequency: 1800 MHz" "average_uclk_frequency: 870 MHz" \
		 "current_gfx_maxfreq: 1845 MHz" "throttle_residency_prochot: unavailable"; do
		expect_line "$M" "$l"
	done
	for k in temperature_edge average_mm_activity fan_pwm indep_throttle_status; do
		expect_no_key "$M" $k
	done
}

# The throttle masks named by module/uapi/gt_throttle.h: indep_throttle_status
# on every ASIC, throttle_status on Navi 1x only (its firmware's bits), the
# RDNA 3 hotspot bit marked; the ASIC is the one pci_device_id makes it.
throttle_reasons() {
	setup
	rev 1.3
	# QEMU's device is no ASIC gputelemetry knows: the firmware bits stay raw.
	expect_line "$M" "throttle_status: 0x5 mask"
	expect_no_key "$M" throttle_reasons
	# 0x100000002: bits 1 (PPT1) and 32 (TEMP_GPU) of amdgpu_smu.h
	expect_line "$M" "indep_throttle_reasons: ppt1 temp_gpu"
	ta_set indep_throttle_status 0
	expect_line "$M" "indep_throttle_reasons: none"
	# Bit 63 is named nowhere; bit 36 is marked only on RDNA 3.
	ta_set indep_throttle_status 0x4000001000800001
	expect_line "$M" "indep_throttle_reasons: ppt0 apcc temp_hotspot bit62"
	# A Navi 14: smu11_driver_if_navi10.h's bits, 0 being padding.
	ta_set pci_device_id 0x7340
	grep -q "^$DEV .* navi14 " "$GT_ROOT/devices" || fail "pci_device_id 0x7340 not taken for a Navi 14: $(cat "$GT_ROOT/devices")"
	ta_set throttle_status 0x14006
	expect_line "$M" "throttle_reasons: temp_edge temp_hotspot ppt0 ppt2"
	ta_set throttle_status 0x300001
	expect_line "$M" "throttle_reasons: bit0 apcc bit21"
	ta_set throttle_status 0
	expect_line "$M" "throttle_reasons: none"
	# All ones is amdgpu's "not supported": unavailable, nothing named.
	ta_set throttle_status 0xffffffff
	expect_line "$M" "throttle_status: unavailable"
	expect_no_key "$M" throttle_reasons
	expect_line "$M" "indep_throttle_reasons: ppt0 apcc temp_hotspot bit62"
	# 1.0 has no indep mask; Navi 14 wrote it in kernels before 5.15.
	ta_set throttle_status 0x4000
	rev 1.0
	expect_line "$M" "throttle_reasons: ppt0"
	expect_no_key "$M" indep_throttle_reasons
	# MI300's and the APUs' firmware bits are not Navi 1x's.
	for r in 1.4 2.2 3.0; do
		rev $r
		expect_no_key "$M" throttle_reasons
	done
	rev 2.2
	expect_line "$M" "indep_throttle_reasons: ppt0 apcc temp_hotspot bit62"
	# A Navi 31: the hotspot bit reported but marked unreliable.
	ta_set pci_device_id 0x744c
	rev 1.3
	expect_no_key "$M" throttle_reasons
	expect_line "$M" "indep_throttle_reasons: ppt0 apcc temp_hotspot(unreliable) bit62"
	ta_set pci_device_id 0
	expect_line "$M" "indep_throttle_reasons: ppt0 apcc temp_hotspot bit62"
}

# The energy counter in mJ where its unit is known (1.4, 1.5: 2^-16 J).
energy() {
	setup
	for r in 1.4 1.5; do
		rev $r
		expect_line "$M" "energy_accumulator: 5000000000 raw"
		expect_line "$M" "energy: 76293945 mJ"		# 5e9 * 1000 / 65536
	done
	ta_set energy_accumulator 0
	expect_line "$M" "energy: 0 mJ"
	# The largest counter the knob takes still fits in mJ.
	ta_set energy_accumulator 0x7fffffffffffffff
	expect_line "$M" "energy: 140737488355327999 mJ"
	for r in 1.0 1.3 2.4; do
		rev $r
		expect_no_key "$M" energy
	done
}

# Shorter than the layout, or than the header says: reported, not decoded.
truncated() {
	setup
	rev 1.3
	ta_set gpu_metrics_truncate 1
	expect_line "$M" "status: short"
	expect_line "$M" "size: 119"
	expect_line "$M" "structure_size: 120"
	expect_no_key "$M" temperature_edge
	rev 2.3
	ta_set gpu_metrics_truncate 24
	expect_line "$M" "status: short"
	expect_line "$M" "size: 128"
	expect_line "$M" "structure_size: 152"
	expect_no_key "$M" temperature_gfx
	# Not even a header.
	ta_set gpu_metrics_truncate 149
	expect_line "$M" "status: short"
	expect_line "$M" "size: 3"
	expect_no_key "$M" format_revision
	[ "$(wc -l <"$M")" -eq 2 ] || fail "header-less blob: $(tr '\n' '|' <"$M")"
	ta_set gpu_metrics_truncate 0
	expect_line "$M" "status: ok"
}

# Revisions whose layout is not copied (1.6 and later: mainline's MI300
# and later) or that no kernel has: reported with their header.
unknown_revisions() {
	setup
	for r in 1.6 1.9 2.5 3.1 0.0 255.255; do
		rev $r
		expect_line "$M" "status: unknown_revision"
		expect_line "$M" "format_revision: ${r%.*}"
		expect_line "$M" "content_revision: ${r#*.}"
		expect_line "$M" "structure_size: 120"
		[ "$(wc -l <"$M")" -eq 5 ] || fail "revision $r decoded: $(tr '\n' '|' <"$M")"
	done
}

# No blob to read: the attribute fails, is missing, or the device sleeps.
unavailable() {
	setup
	ta_set fail/gpu_metrics 5
	expect_line "$M" "status: unavailable"
	expect_line "$M" "reason: error -5"
	ta_set fail/gpu_metrics 0
	ta_set hide/gpu_metrics 1
	expect_line "$M" "status: unavailable"
	expect_line "$M" "reason: error -2"
	ta_set hide/gpu_metrics 0
	expect_line "$M" "status: ok"
	# amdgpu refuses with -EPERM during a system suspend (every kernel)
	# and, from 6.13, on a runtime-suspended GPU: suspended, not an error.
	ta_set in_suspend 1
	expect_line "$M" "status: unavailable"
	expect_line "$M" "reason: suspended"
	ta_set in_suspend 0
	expect_line "$M" "status: ok"
	# Before GC 9.1 amdgpu has no gpu_metrics.
	ta_set gc_version 0x090000
	[ ! -e "$P/gpu_metrics" ] || fail "gpu_metrics on GC 9.0"
	expect_line "$M" "reason: error -2"
	ta_set gc_version 0x090100
	expect_line "$M" "status: ok"
	ta_power auto
	ta_wait_suspended || fail "$DEV did not runtime-suspend"
	resumes=$(ta_get runtime_resumes)
	expect_line "$M" "status: unavailable"
	expect_line "$M" "reason: suspended"
	[ "$(ta_get runtime_resumes)" = "$resumes" ] || fail "reading metrics woke the device"
}

no_splat() {
	gt_splats || fail "kernel splat"
}

case_run() {
	ta_reset
	gt_run "$@"
	ta_reset
}

ktap_header 10
case_run format1_revisions "gpu_metrics v1_0..v1_3 decoded (dGPU; Navi 14 is v1_3)"
case_run format1_mi300_revisions "gpu_metrics v1_4, v1_5 decoded (MI300)"
case_run format2_revisions "gpu_metrics v2_0..v2_4 decoded (APU), units by revision"
case_run format3_revision "gpu_metrics v3_0 decoded (SMU 14.0.0 APU)"
case_run throttle_reasons "throttle masks named: indep on every ASIC, firmware bits on Navi 1x, RDNA 3 hotspot marked"
case_run energy "energy counter in mJ where its unit is known (1.4, 1.5)"
case_run truncated "truncated blobs reported short, not decoded"
case_run unknown_revisions "unknown revisions reported, not decoded"
case_run unavailable "failing, missing and suspended: unavailable with the reason"
gt_run no_splat "no kernel splat"
ktap_finish
