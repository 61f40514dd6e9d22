/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gputelemetry: layouts of amdgpu's gpu_metrics blob.
 *
 * Copied field for field from struct metrics_table_header and struct
 * gpu_metrics_v1_0 .. v1_3 and v2_0 .. v2_3 in the kernel's
 * drivers/gpu/drm/amd/include/kgd_pp_interface.h (Linux 6.1) and
 * gpu_metrics_v1_4, v1_5, v2_4 and v3_0 (Linux 6.12, the same in mainline,
 * whose newer array sizes have names of their own; comments shortened), renamed
 * with a gt_ prefix; only the types are spelled the kernel's way (u16 for
 * uint16_t). Natural alignment, not
 * packed: the implicit padding is the kernel's too, and debugfs_metrics.c checks
 * every size at build time. The header is not exported by the kernel,
 * hence the copy: a future layout is a new revision, which debugfs_metrics.c
 * reports as unknown until added.
 *
 * Which ASIC writes which revision (the SMU code of 6.12,
 * drivers/gpu/drm/amd/pm/swsmu/, smu_cmn_init_soft_gpu_metrics() calls):
 *
 * - 1.3: every discrete GPU with a gpu_metrics of 6.1 and 6.12: Arcturus,
 *   Navi 1x, Navi 2x (sienna_cichlid_ppt.c), Aldebaran, SMU 13.0.0/13.0.7
 *   (Navi 3x), SMU 14.0.2 (Navi 4x). 1.0 to 1.2 are older kernels' only.
 * - 1.4, 1.5: SMU 13.0.6 (MI300, 1.5 in 6.12), a new layout with arrays
 *   per XCC, VCN, JPEG and XGMI instance. 1.6 and later (mainline) are not
 *   copied: reported as unknown revisions.
 * - 2.1: Yellow Carp (Rembrandt), SMU 13.0.4 and 13.0.5 APUs.
 * - 2.2: Renoir, Cyan Skillfish, Van Gogh with older firmware.
 * - 2.3: Van Gogh; 2.4 (a 2.3 with voltages and currents added at its
 *   end): Van Gogh with SMU program 6 firmware >= 0x3F0800 (Steam Deck).
 * - 3.0: SMU 14.0.0 APUs (GC 11.5), a new layout.
 *
 * The units of some format 2 fields depend on the firmware: see gt_m2[]
 * in debugfs_metrics.c.
 */
#ifndef _GT_GPU_METRICS_H
#define _GT_GPU_METRICS_H

#include <linux/types.h>

#define GT_NUM_HBM_INSTANCES 4
/* Array sizes of 1.4 and 1.5 (kgd_pp_interface.h, 6.12). */
#define GT_NUM_XGMI_LINKS 8
#define GT_MAX_GFX_CLKS 8
#define GT_MAX_CLKS 4
#define GT_NUM_VCN 4
#define GT_NUM_JPEG_ENG 32

struct gt_metrics_table_header {
	u16			structure_size;
	u8				format_revision;
	u8				content_revision;
};

/*
 * gpu_metrics_v1_0 is not recommended as it is not naturally aligned.
 * Use gpu_metrics_v1_1 or later instead.
 */
struct gt_gpu_metrics_v1_0 {
	struct gt_metrics_table_header	common_header;

	/* Driver attached timestamp (in ns) */
	u64			system_clock_counter;

	/* Temperature */
	u16			temperature_edge;
	u16			temperature_hotspot;
	u16			temperature_mem;
	u16			temperature_vrgfx;
	u16			temperature_vrsoc;
	u16			temperature_vrmem;

	/* Utilization */
	u16			average_gfx_activity;
	u16			average_umc_activity; /* memory controller */
	u16			average_mm_activity; /* UVD or VCN */

	/* Power/Energy */
	u16			average_socket_power;
	u32			energy_accumulator;

	/* Average clocks */
	u16			average_gfxclk_frequency;
	u16			average_socclk_frequency;
	u16			average_uclk_frequency;
	u16			average_vclk0_frequency;
	u16			average_dclk0_frequency;
	u16			average_vclk1_frequency;
	u16			average_dclk1_frequency;

	/* Current clocks */
	u16			current_gfxclk;
	u16			current_socclk;
	u16			current_uclk;
	u16			current_vclk0;
	u16			current_dclk0;
	u16			current_vclk1;
	u16			current_dclk1;

	/* Throttle status */
	u32			throttle_status;

	/* Fans */
	u16			current_fan_speed;

	/* Link width/speed */
	u8				pcie_link_width;
	u8				pcie_link_speed; /* in 0.1 GT/s */
};

struct gt_gpu_metrics_v1_1 {
	struct gt_metrics_table_header	common_header;

	/* Temperature */
	u16			temperature_edge;
	u16			temperature_hotspot;
	u16			temperature_mem;
	u16			temperature_vrgfx;
	u16			temperature_vrsoc;
	u16			temperature_vrmem;

	/* Utilization */
	u16			average_gfx_activity;
	u16			average_umc_activity; /* memory controller */
	u16			average_mm_activity; /* UVD or VCN */

	/* Power/Energy */
	u16			average_socket_power;
	u64			energy_accumulator;

	/* Driver attached timestamp (in ns) */
	u64			system_clock_counter;

	/* Average clocks */
	u16			average_gfxclk_frequency;
	u16			average_socclk_frequency;
	u16			average_uclk_frequency;
	u16			average_vclk0_frequency;
	u16			average_dclk0_frequency;
	u16			average_vclk1_frequency;
	u16			average_dclk1_frequency;

	/* Current clocks */
	u16			current_gfxclk;
	u16			current_socclk;
	u16			current_uclk;
	u16			current_vclk0;
	u16			current_dclk0;
	u16			current_vclk1;
	u16			current_dclk1;

	/* Throttle status */
	u32			throttle_status;

	/* Fans */
	u16			current_fan_speed;

	/* Link width/speed */
	u16			pcie_link_width;
	u16			pcie_link_speed; /* in 0.1 GT/s */

	u16			padding;

	u32			gfx_activity_acc;
	u32			mem_activity_acc;

	u16			temperature_hbm[GT_NUM_HBM_INSTANCES];
};

struct gt_gpu_metrics_v1_2 {
	struct gt_metrics_table_header	common_header;

	/* Temperature */
	u16			temperature_edge;
	u16			temperature_hotspot;
	u16			temperature_mem;
	u16			temperature_vrgfx;
	u16			temperature_vrsoc;
	u16			temperature_vrmem;

	/* Utilization */
	u16			average_gfx_activity;
	u16			average_umc_activity; /* memory controller */
	u16			average_mm_activity; /* UVD or VCN */

	/* Power/Energy */
	u16			average_socket_power;
	u64			energy_accumulator;

	/* Driver attached timestamp (in ns) */
	u64			system_clock_counter;

	/* Average clocks */
	u16			average_gfxclk_frequency;
	u16			average_socclk_frequency;
	u16			average_uclk_frequency;
	u16			average_vclk0_frequency;
	u16			average_dclk0_frequency;
	u16			average_vclk1_frequency;
	u16			average_dclk1_frequency;

	/* Current clocks */
	u16			current_gfxclk;
	u16			current_socclk;
	u16			current_uclk;
	u16			current_vclk0;
	u16			current_dclk0;
	u16			current_vclk1;
	u16			current_dclk1;

	/* Throttle status (ASIC dependent) */
	u32			throttle_status;

	/* Fans */
	u16			current_fan_speed;

	/* Link width/speed */
	u16			pcie_link_width;
	u16			pcie_link_speed; /* in 0.1 GT/s */

	u16			padding;

	u32			gfx_activity_acc;
	u32			mem_activity_acc;

	u16			temperature_hbm[GT_NUM_HBM_INSTANCES];

	/* PMFW attached timestamp (10ns resolution) */
	u64			firmware_timestamp;
};

struct gt_gpu_metrics_v1_3 {
	struct gt_metrics_table_header	common_header;

	/* Temperature */
	u16			temperature_edge;
	u16			temperature_hotspot;
	u16			temperature_mem;
	u16			temperature_vrgfx;
	u16			temperature_vrsoc;
	u16			temperature_vrmem;

	/* Utilization */
	u16			average_gfx_activity;
	u16			average_umc_activity; /* memory controller */
	u16			average_mm_activity; /* UVD or VCN */

	/* Power/Energy */
	u16			average_socket_power;
	u64			energy_accumulator;

	/* Driver attached timestamp (in ns) */
	u64			system_clock_counter;

	/* Average clocks */
	u16			average_gfxclk_frequency;
	u16			average_socclk_frequency;
	u16			average_uclk_frequency;
	u16			average_vclk0_frequency;
	u16			average_dclk0_frequency;
	u16			average_vclk1_frequency;
	u16			average_dclk1_frequency;

	/* Current clocks */
	u16			current_gfxclk;
	u16			current_socclk;
	u16			current_uclk;
	u16			current_vclk0;
	u16			current_dclk0;
	u16			current_vclk1;
	u16			current_dclk1;

	/* Throttle status */
	u32			throttle_status;

	/* Fans */
	u16			current_fan_speed;

	/* Link width/speed */
	u16			pcie_link_width;
	u16			pcie_link_speed; /* in 0.1 GT/s */

	u16			padding;

	u32			gfx_activity_acc;
	u32			mem_activity_acc;

	u16			temperature_hbm[GT_NUM_HBM_INSTANCES];

	/* PMFW attached timestamp (10ns resolution) */
	u64			firmware_timestamp;

	/* Voltage (mV) */
	u16			voltage_soc;
	u16			voltage_gfx;
	u16			voltage_mem;

	u16			padding1;

	/* Throttle status (ASIC independent) */
	u64			indep_throttle_status;
};

struct gt_gpu_metrics_v1_4 {
	struct gt_metrics_table_header	common_header;

	/* Temperature (Celsius) */
	u16			temperature_hotspot;
	u16			temperature_mem;
	u16			temperature_vrsoc;

	/* Power (Watts) */
	u16			curr_socket_power;

	/* Utilization (%) */
	u16			average_gfx_activity;
	u16			average_umc_activity; /* memory controller */
	u16			vcn_activity[GT_NUM_VCN];

	/* Energy (15.259uJ (2^-16) units) */
	u64			energy_accumulator;

	/* Driver attached timestamp (in ns) */
	u64			system_clock_counter;

	/* Throttle status */
	u32			throttle_status;

	/* Clock Lock Status. Each bit corresponds to clock instance */
	u32			gfxclk_lock_status;

	/* Link width (number of lanes) and speed (in 0.1 GT/s) */
	u16			pcie_link_width;
	u16			pcie_link_speed;

	/* XGMI bus width and bitrate (in Gbps) */
	u16			xgmi_link_width;
	u16			xgmi_link_speed;

	/* Utilization Accumulated (%) */
	u32			gfx_activity_acc;
	u32			mem_activity_acc;

	/* PCIE accumulated bandwidth (GB/sec) */
	u64			pcie_bandwidth_acc;

	/* PCIE instantaneous bandwidth (GB/sec) */
	u64			pcie_bandwidth_inst;

	/* PCIE L0 to recovery state transition accumulated count */
	u64			pcie_l0_to_recov_count_acc;

	/* PCIE replay accumulated count */
	u64			pcie_replay_count_acc;

	/* PCIE replay rollover accumulated count */
	u64			pcie_replay_rover_count_acc;

	/* XGMI accumulated data transfer size (KiloBytes) */
	u64			xgmi_read_data_acc[GT_NUM_XGMI_LINKS];
	u64			xgmi_write_data_acc[GT_NUM_XGMI_LINKS];

	/* PMFW attached timestamp (10ns resolution) */
	u64			firmware_timestamp;

	/* Current clocks (Mhz) */
	u16			current_gfxclk[GT_MAX_GFX_CLKS];
	u16			current_socclk[GT_MAX_CLKS];
	u16			current_vclk0[GT_MAX_CLKS];
	u16			current_dclk0[GT_MAX_CLKS];
	u16			current_uclk;

	u16			padding;
};

struct gt_gpu_metrics_v1_5 {
	struct gt_metrics_table_header	common_header;

	/* Temperature (Celsius) */
	u16			temperature_hotspot;
	u16			temperature_mem;
	u16			temperature_vrsoc;

	/* Power (Watts) */
	u16			curr_socket_power;

	/* Utilization (%) */
	u16			average_gfx_activity;
	u16			average_umc_activity; /* memory controller */
	u16			vcn_activity[GT_NUM_VCN];
	u16			jpeg_activity[GT_NUM_JPEG_ENG];

	/* Energy (15.259uJ (2^-16) units) */
	u64			energy_accumulator;

	/* Driver attached timestamp (in ns) */
	u64			system_clock_counter;

	/* Throttle status */
	u32			throttle_status;

	/* Clock Lock Status. Each bit corresponds to clock instance */
	u32			gfxclk_lock_status;

	/* Link width (number of lanes) and speed (in 0.1 GT/s) */
	u16			pcie_link_width;
	u16			pcie_link_speed;

	/* XGMI bus width and bitrate (in Gbps) */
	u16			xgmi_link_width;
	u16			xgmi_link_speed;

	/* Utilization Accumulated (%) */
	u32			gfx_activity_acc;
	u32			mem_activity_acc;

	/* PCIE accumulated bandwidth (GB/sec) */
	u64			pcie_bandwidth_acc;

	/* PCIE instantaneous bandwidth (GB/sec) */
	u64			pcie_bandwidth_inst;

	/* PCIE L0 to recovery state transition accumulated count */
	u64			pcie_l0_to_recov_count_acc;

	/* PCIE replay accumulated count */
	u64			pcie_replay_count_acc;

	/* PCIE replay rollover accumulated count */
	u64			pcie_replay_rover_count_acc;

	/* PCIE NAK sent accumulated count */
	u32			pcie_nak_sent_count_acc;

	/* PCIE NAK received accumulated count */
	u32			pcie_nak_rcvd_count_acc;

	/* XGMI accumulated data transfer size (KiloBytes) */
	u64			xgmi_read_data_acc[GT_NUM_XGMI_LINKS];
	u64			xgmi_write_data_acc[GT_NUM_XGMI_LINKS];

	/* PMFW attached timestamp (10ns resolution) */
	u64			firmware_timestamp;

	/* Current clocks (Mhz) */
	u16			current_gfxclk[GT_MAX_GFX_CLKS];
	u16			current_socclk[GT_MAX_CLKS];
	u16			current_vclk0[GT_MAX_CLKS];
	u16			current_dclk0[GT_MAX_CLKS];
	u16			current_uclk;

	u16			padding;
};

/*
 * gpu_metrics_v2_0 is not recommended as it is not naturally aligned.
 * Use gpu_metrics_v2_1 or later instead.
 */
struct gt_gpu_metrics_v2_0 {
	struct gt_metrics_table_header	common_header;

	/* Driver attached timestamp (in ns) */
	u64			system_clock_counter;

	/* Temperature */
	u16			temperature_gfx; /* gfx temperature on APUs */
	u16			temperature_soc; /* soc temperature on APUs */
	u16			temperature_core[8]; /* CPU core temperature on APUs */
	u16			temperature_l3[2];

	/* Utilization */
	u16			average_gfx_activity;
	u16			average_mm_activity; /* UVD or VCN */

	/* Power/Energy */
	u16			average_socket_power; /* dGPU + APU power on A + A platform */
	u16			average_cpu_power;
	u16			average_soc_power;
	u16			average_gfx_power;
	u16			average_core_power[8]; /* CPU core power on APUs */

	/* Average clocks */
	u16			average_gfxclk_frequency;
	u16			average_socclk_frequency;
	u16			average_uclk_frequency;
	u16			average_fclk_frequency;
	u16			average_vclk_frequency;
	u16			average_dclk_frequency;

	/* Current clocks */
	u16			current_gfxclk;
	u16			current_socclk;
	u16			current_uclk;
	u16			current_fclk;
	u16			current_vclk;
	u16			current_dclk;
	u16			current_coreclk[8]; /* CPU core clocks */
	u16			current_l3clk[2];

	/* Throttle status */
	u32			throttle_status;

	/* Fans */
	u16			fan_pwm;

	u16			padding;
};

struct gt_gpu_metrics_v2_1 {
	struct gt_metrics_table_header	common_header;

	/* Temperature */
	u16			temperature_gfx; /* gfx temperature on APUs */
	u16			temperature_soc; /* soc temperature on APUs */
	u16			temperature_core[8]; /* CPU core temperature on APUs */
	u16			temperature_l3[2];

	/* Utilization */
	u16			average_gfx_activity;
	u16			average_mm_activity; /* UVD or VCN */

	/* Driver attached timestamp (in ns) */
	u64			system_clock_counter;

	/* Power/Energy */
	u16			average_socket_power; /* dGPU + APU power on A + A platform */
	u16			average_cpu_power;
	u16			average_soc_power;
	u16			average_gfx_power;
	u16			average_core_power[8]; /* CPU core power on APUs */

	/* Average clocks */
	u16			average_gfxclk_frequency;
	u16			average_socclk_frequency;
	u16			average_uclk_frequency;
	u16			average_fclk_frequency;
	u16			average_vclk_frequency;
	u16			average_dclk_frequency;

	/* Current clocks */
	u16			current_gfxclk;
	u16			current_socclk;
	u16			current_uclk;
	u16			current_fclk;
	u16			current_vclk;
	u16			current_dclk;
	u16			current_coreclk[8]; /* CPU core clocks */
	u16			current_l3clk[2];

	/* Throttle status */
	u32			throttle_status;

	/* Fans */
	u16			fan_pwm;

	u16			padding[3];
};

struct gt_gpu_metrics_v2_2 {
	struct gt_metrics_table_header	common_header;

	/* Temperature */
	u16			temperature_gfx; /* gfx temperature on APUs */
	u16			temperature_soc; /* soc temperature on APUs */
	u16			temperature_core[8]; /* CPU core temperature on APUs */
	u16			temperature_l3[2];

	/* Utilization */
	u16			average_gfx_activity;
	u16			average_mm_activity; /* UVD or VCN */

	/* Driver attached timestamp (in ns) */
	u64			system_clock_counter;

	/* Power/Energy */
	u16			average_socket_power; /* dGPU + APU power on A + A platform */
	u16			average_cpu_power;
	u16			average_soc_power;
	u16			average_gfx_power;
	u16			average_core_power[8]; /* CPU core power on APUs */

	/* Average clocks */
	u16			average_gfxclk_frequency;
	u16			average_socclk_frequency;
	u16			average_uclk_frequency;
	u16			average_fclk_frequency;
	u16			average_vclk_frequency;
	u16			average_dclk_frequency;

	/* Current clocks */
	u16			current_gfxclk;
	u16			current_socclk;
	u16			current_uclk;
	u16			current_fclk;
	u16			current_vclk;
	u16			current_dclk;
	u16			current_coreclk[8]; /* CPU core clocks */
	u16			current_l3clk[2];

	/* Throttle status (ASIC dependent) */
	u32			throttle_status;

	/* Fans */
	u16			fan_pwm;

	u16			padding[3];

	/* Throttle status (ASIC independent) */
	u64			indep_throttle_status;
};

struct gt_gpu_metrics_v2_3 {
	struct gt_metrics_table_header	common_header;

	/* Temperature */
	u16			temperature_gfx; /* gfx temperature on APUs */
	u16			temperature_soc; /* soc temperature on APUs */
	u16			temperature_core[8]; /* CPU core temperature on APUs */
	u16			temperature_l3[2];

	/* Utilization */
	u16			average_gfx_activity;
	u16			average_mm_activity; /* UVD or VCN */

	/* Driver attached timestamp (in ns) */
	u64			system_clock_counter;

	/* Power/Energy */
	u16			average_socket_power; /* dGPU + APU power on A + A platform */
	u16			average_cpu_power;
	u16			average_soc_power;
	u16			average_gfx_power;
	u16			average_core_power[8]; /* CPU core power on APUs */

	/* Average clocks */
	u16			average_gfxclk_frequency;
	u16			average_socclk_frequency;
	u16			average_uclk_frequency;
	u16			average_fclk_frequency;
	u16			average_vclk_frequency;
	u16			average_dclk_frequency;

	/* Current clocks */
	u16			current_gfxclk;
	u16			current_socclk;
	u16			current_uclk;
	u16			current_fclk;
	u16			current_vclk;
	u16			current_dclk;
	u16			current_coreclk[8]; /* CPU core clocks */
	u16			current_l3clk[2];

	/* Throttle status (ASIC dependent) */
	u32			throttle_status;

	/* Fans */
	u16			fan_pwm;

	u16			padding[3];

	/* Throttle status (ASIC independent) */
	u64			indep_throttle_status;

	/* Average Temperature */
	u16			average_temperature_gfx; /* average gfx temperature on APUs */
	u16			average_temperature_soc; /* average soc temperature on APUs */
	u16			average_temperature_core[8]; /* average CPU core temp. on APUs */
	u16			average_temperature_l3[2];
};

struct gt_gpu_metrics_v2_4 {
	struct gt_metrics_table_header	common_header;

	/* Temperature */
	u16			temperature_gfx; /* gfx temperature on APUs */
	u16			temperature_soc; /* soc temperature on APUs */
	u16			temperature_core[8]; /* CPU core temperature on APUs */
	u16			temperature_l3[2];

	/* Utilization */
	u16			average_gfx_activity;
	u16			average_mm_activity; /* UVD or VCN */

	/* Driver attached timestamp (in ns) */
	u64			system_clock_counter;

	/* Power/Energy */
	u16			average_socket_power; /* dGPU + APU power on A + A platform */
	u16			average_cpu_power;
	u16			average_soc_power;
	u16			average_gfx_power;
	u16			average_core_power[8]; /* CPU core power on APUs */

	/* Average clocks */
	u16			average_gfxclk_frequency;
	u16			average_socclk_frequency;
	u16			average_uclk_frequency;
	u16			average_fclk_frequency;
	u16			average_vclk_frequency;
	u16			average_dclk_frequency;

	/* Current clocks */
	u16			current_gfxclk;
	u16			current_socclk;
	u16			current_uclk;
	u16			current_fclk;
	u16			current_vclk;
	u16			current_dclk;
	u16			current_coreclk[8]; /* CPU core clocks */
	u16			current_l3clk[2];

	/* Throttle status (ASIC dependent) */
	u32			throttle_status;

	/* Fans */
	u16			fan_pwm;

	u16			padding[3];

	/* Throttle status (ASIC independent) */
	u64			indep_throttle_status;

	/* Average Temperature */
	u16			average_temperature_gfx; /* average gfx temperature on APUs */
	u16			average_temperature_soc; /* average soc temperature on APUs */
	u16			average_temperature_core[8]; /* average CPU core temp. on APUs */
	u16			average_temperature_l3[2];

	/* Power/Voltage (unit: mV) */
	u16			average_cpu_voltage;
	u16			average_soc_voltage;
	u16			average_gfx_voltage;

	/* Power/Current (unit: mA) */
	u16			average_cpu_current;
	u16			average_soc_current;
	u16			average_gfx_current;
};

struct gt_gpu_metrics_v3_0 {
	struct gt_metrics_table_header	common_header;

	/* Temperature */
	u16			temperature_gfx; /* gfx temperature on APUs */
	u16			temperature_soc; /* soc temperature on APUs */
	u16			temperature_core[16]; /* CPU core temperature on APUs */
	u16			temperature_skin; /* skin temperature on APUs */

	/* Utilization */
	u16			average_gfx_activity; /* time filtered GFX busy % */
	u16			average_vcn_activity; /* time filtered VCN busy % */
	u16			average_ipu_activity[8]; /* IPU per-column busy % */
	u16			average_core_c0_activity[16]; /* per-core C0 residency % */
	u16			average_dram_reads; /* DRAM read bandwidth [MB/sec] */
	u16			average_dram_writes; /* DRAM write bandwidth [MB/sec] */
	u16			average_ipu_reads; /* IPU read bandwidth [MB/sec] */
	u16			average_ipu_writes; /* IPU write bandwidth [MB/sec] */

	/* Driver attached timestamp (in ns) */
	u64			system_clock_counter;

	/* Power/Energy */
	u32			average_socket_power; /* PPT/STAPM power [APU+dGPU] [mW] */
	u16			average_ipu_power; /* IPU power [mW] */
	u32			average_apu_power; /* APU power [mW] */
	u32			average_gfx_power; /* GFX power [mW] */
	u32			average_dgpu_power; /* dGPU power [mW] */
	u32			average_all_core_power; /* sum of core power [mW] */
	u16			average_core_power[16]; /* calculated core power [mW] */
	u16			average_sys_power; /* total system power [mW] */
	u16			stapm_power_limit; /* maximum IRM STAPM power limit [mW] */
	u16			current_stapm_power_limit; /* STAPM power limit [mW] */

	/* time filtered clocks [MHz] */
	u16			average_gfxclk_frequency;
	u16			average_socclk_frequency;
	u16			average_vpeclk_frequency;
	u16			average_ipuclk_frequency;
	u16			average_fclk_frequency;
	u16			average_vclk_frequency;
	u16			average_uclk_frequency;
	u16			average_mpipu_frequency;

	/* Current clocks */
	u16			current_coreclk[16]; /* target core frequency [MHz] */
	u16			current_core_maxfreq; /* CCLK limit on classic cores [MHz] */
	u16			current_gfx_maxfreq; /* GFXCLK limit [MHz] */

	/* Throttle Residency (ASIC dependent) */
	u32			throttle_residency_prochot;
	u32			throttle_residency_spl;
	u32			throttle_residency_fppt;
	u32			throttle_residency_sppt;
	u32			throttle_residency_thm_core;
	u32			throttle_residency_thm_gfx;
	u32			throttle_residency_thm_soc;

	/* Metrics table alpha filter time constant [us] */
	u32			time_filter_alphavalue;
};

/* sizeof() of each layout on x86_64, as amdgpu writes it in structure_size. */
#define GT_GPU_METRICS_V1_0_SIZE 80
#define GT_GPU_METRICS_V1_1_SIZE 96
#define GT_GPU_METRICS_V1_2_SIZE 104
#define GT_GPU_METRICS_V1_3_SIZE 120
#define GT_GPU_METRICS_V1_4_SIZE 288
#define GT_GPU_METRICS_V1_5_SIZE 360
#define GT_GPU_METRICS_V2_0_SIZE 120
#define GT_GPU_METRICS_V2_1_SIZE 120
#define GT_GPU_METRICS_V2_2_SIZE 128
#define GT_GPU_METRICS_V2_3_SIZE 152
#define GT_GPU_METRICS_V2_4_SIZE 168
#define GT_GPU_METRICS_V3_0_SIZE 264

#endif /* _GT_GPU_METRICS_H */
