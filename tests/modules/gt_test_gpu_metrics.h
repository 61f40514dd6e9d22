/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Layouts of amdgpu's gpu_metrics blob, as gt_test_amdgpu presents them.
 *
 * Field order and types are those of struct gpu_metrics_v1_0 .. v1_3 and
 * struct gpu_metrics_v2_0 .. v2_3 in the kernel's
 * drivers/gpu/drm/amd/include/kgd_pp_interface.h (6.1), and of struct
 * gpu_metrics_v1_4 and v1_5 (6.12, MI300), gpu_metrics_v2_4 (6.12, Van
 * Gogh's newest) and gpu_metrics_v3_0 (6.12, SMU 14.0.0 APUs): plain C
 * structures
 * with natural alignment (not packed), so the implicit padding is the
 * kernel's too. gt_test_amdgpu checks every size and a few offsets at build
 * time against the values the kernel's own definitions give.
 *
 * The header is usable from the kernel and from userspace (it only needs
 * <linux/types.h>), so tests can decode the fixtures with the same layouts.
 */
#ifndef GT_TEST_GPU_METRICS_H
#define GT_TEST_GPU_METRICS_H

#include <linux/types.h>

/**
 * DOC: gpu_metrics fixtures
 *
 * amdgpu fills a blob by first setting every byte to 0xff, then writing
 * the header and the fields the ASIC reports; a field left at all ones
 * (0xffff for a __u16) means "not supported". gt_test_amdgpu does the
 * same: the fields listed below are filled from the device's debugfs
 * knobs (``/sys/kernel/debug/gt_test_amdgpu/<pci address>/``), every other
 * field (socclk, vclk, dclk, fclk, core and L3 values, per-rail powers,
 * activity accumulators, HBM temperatures, padding) stays all ones.
 *
 * Values are converted to the units amdgpu's SMU code writes into the
 * blob, truncating toward zero; a result outside the field is clamped to
 * 0 .. (all ones - 1), so a filled field never reads as "not supported".
 *
 * Format 1 (discrete GPUs; units from navi10_ppt.c, v1_3 on Navi 1x):
 *
 * ========================= ============================== ==============
 * field                     knob                           unit in blob
 * ========================= ============================== ==============
 * temperature_edge          temp_edge (m°C)                °C
 * temperature_hotspot       temp_junction (m°C)            °C
 * temperature_mem           temp_mem (m°C)                 °C
 * temperature_vrgfx         temp_vrgfx (m°C)               °C
 * temperature_vrsoc         temp_vrsoc (m°C)               °C
 * temperature_vrmem         temp_vrmem (m°C)               °C
 * average_gfx_activity      gpu_busy_percent               %
 * average_umc_activity      mem_busy_percent               %
 * average_mm_activity       mm_busy_percent                %
 * average_socket_power      power_average (µW)             W
 * energy_accumulator        energy_accumulator             raw (u32 in 1.0)
 * system_clock_counter      system_clock_counter           ns
 * average_gfxclk_frequency  sclk_average (Hz)              MHz
 * average_uclk_frequency    mclk_average (Hz)              MHz
 * current_gfxclk            sclk (Hz)                      MHz
 * current_uclk              mclk (Hz)                      MHz
 * throttle_status           throttle_status                bit mask
 * current_fan_speed         fan_rpm                        RPM
 * pcie_link_width           pcie_link_width                lanes
 * pcie_link_speed           pcie_link_speed                0.1 GT/s
 * firmware_timestamp (1.2+) firmware_timestamp             10 ns
 * voltage_soc (1.3)         vddnb (mV)                     mV
 * voltage_gfx (1.3)         vddgfx (mV)                    mV
 * voltage_mem (1.3)         vddmem (mV)                    mV
 * indep_throttle_status     indep_throttle_status (1.3)    bit mask
 * ========================= ============================== ==============
 *
 * Format 2 (APUs; units as the SMU code of 6.12 writes them: renoir_ppt.c,
 * yellow_carp_ppt.c, vangogh_ppt.c):
 *
 * ========================= ============================== ==============
 * field                     knob                           unit in blob
 * ========================= ============================== ==============
 * temperature_gfx           temp_edge (m°C)                centi-°C
 * temperature_soc           temp_soc (m°C)                 centi-°C
 * average_gfx_activity      gpu_busy_percent               centi-%
 * average_mm_activity       mm_busy_percent                centi-%
 * system_clock_counter      system_clock_counter           ns
 * average_socket_power      power_average (µW)             mW
 * average_gfxclk_frequency  sclk_average (Hz)              MHz
 * average_uclk_frequency    mclk_average (Hz)              MHz
 * current_gfxclk            sclk (Hz)                      MHz
 * current_uclk              mclk (Hz)                      MHz
 * throttle_status           throttle_status                bit mask
 * fan_pwm                   pwm                            0..255
 * indep_throttle_status     indep_throttle_status (2.2+)   bit mask
 * average_temperature_gfx   temp_edge (2.3+, m°C)          centi-°C
 * average_temperature_soc   temp_soc (2.3+, m°C)           centi-°C
 * average_gfx_voltage       vddgfx (2.4, mV)               mV
 * average_soc_voltage       vddnb (2.4, mV)                mV
 * ========================= ============================== ==============
 *
 * The activities are in hundredths of a percent, as Renoir, Yellow Carp
 * and older Van Gogh firmware write them (their sensor paths divide the
 * same value by 100 for gpu_busy_percent); newer Van Gogh firmware writes
 * percent into 2.3 and 2.4, which the fixture does not model.
 *
 * Caveat for decoders: the unit of average_socket_power in format 2 is
 * not uniform in amdgpu itself (Renoir's 2.2 holds watts with SMU firmware
 * from 0x373200 on, milliwatts before; every other writer milliwatts); the
 * fixtures use milliwatts, so the default power_average (85 W, a dGPU's)
 * saturates at 65534 mW: set power_average to an APU's value (at most
 * 65534000 µW) for format 2.
 *
 * Formats 1.4 and 1.5 (MI300, smu_v13_0_6_ppt.c): temperature_hotspot
 * (temp_junction), temperature_mem (temp_mem), temperature_vrsoc
 * (temp_vrsoc) in °C; curr_socket_power (power_average) in W;
 * average_gfx_activity and average_umc_activity (gpu_busy_percent,
 * mem_busy_percent) in %; energy_accumulator, system_clock_counter,
 * throttle_status, pcie_link_width, pcie_link_speed, firmware_timestamp as
 * in 1.3; current_gfxclk[0] (sclk) and current_uclk (mclk) in MHz.
 *
 * Format 3.0 (SMU 14.0.0 APUs, smu_v14_0_0_ppt.c): temperature_gfx
 * (temp_edge) and temperature_soc (temp_soc) in centi-°C;
 * average_gfx_activity (gpu_busy_percent) and average_vcn_activity
 * (mm_busy_percent) in centi-% (firmware up to 0x5d4600; newer firmware
 * writes the GFX activity in %); system_clock_counter; average_socket_power
 * (power_average, a __u32 in mW); average_gfxclk_frequency (sclk_average),
 * average_uclk_frequency (mclk_average) and current_gfx_maxfreq (sclk) in
 * MHz.
 *
 * With the default knob values (see gt_test_amdgpu.c) a 1.3 blob holds,
 * for example: temperature_edge 45, temperature_hotspot 52,
 * temperature_mem 60, average_socket_power 85, current_gfxclk 1845,
 * current_uclk 875, current_fan_speed 1200, voltage_gfx 1050.
 */

/* NUM_HBM_INSTANCES in kgd_pp_interface.h */
#define GT_NUM_HBM_INSTANCES 4
/* Array sizes of 1.4 and 1.5 (kgd_pp_interface.h, 6.12). */
#define GT_NUM_XGMI_LINKS 8
#define GT_MAX_GFX_CLKS 8
#define GT_MAX_CLKS 4
#define GT_NUM_VCN 4
#define GT_NUM_JPEG_ENG 32

/* smu_cmn_init_soft_gpu_metrics(): every byte of a fresh blob is 0xff. */
#define GT_METRICS_FILL_BYTE 0xff

struct gt_metrics_table_header {
	__u16 structure_size;
	__u8 format_revision;
	__u8 content_revision;
};

struct gt_gpu_metrics_v1_0 {
	struct gt_metrics_table_header common_header;
	__u64 system_clock_counter;
	__u16 temperature_edge;
	__u16 temperature_hotspot;
	__u16 temperature_mem;
	__u16 temperature_vrgfx;
	__u16 temperature_vrsoc;
	__u16 temperature_vrmem;
	__u16 average_gfx_activity;
	__u16 average_umc_activity;
	__u16 average_mm_activity;
	__u16 average_socket_power;
	__u32 energy_accumulator;
	__u16 average_gfxclk_frequency;
	__u16 average_socclk_frequency;
	__u16 average_uclk_frequency;
	__u16 average_vclk0_frequency;
	__u16 average_dclk0_frequency;
	__u16 average_vclk1_frequency;
	__u16 average_dclk1_frequency;
	__u16 current_gfxclk;
	__u16 current_socclk;
	__u16 current_uclk;
	__u16 current_vclk0;
	__u16 current_dclk0;
	__u16 current_vclk1;
	__u16 current_dclk1;
	__u32 throttle_status;
	__u16 current_fan_speed;
	__u8 pcie_link_width;
	__u8 pcie_link_speed;
};

struct gt_gpu_metrics_v1_1 {
	struct gt_metrics_table_header common_header;
	__u16 temperature_edge;
	__u16 temperature_hotspot;
	__u16 temperature_mem;
	__u16 temperature_vrgfx;
	__u16 temperature_vrsoc;
	__u16 temperature_vrmem;
	__u16 average_gfx_activity;
	__u16 average_umc_activity;
	__u16 average_mm_activity;
	__u16 average_socket_power;
	__u64 energy_accumulator;
	__u64 system_clock_counter;
	__u16 average_gfxclk_frequency;
	__u16 average_socclk_frequency;
	__u16 average_uclk_frequency;
	__u16 average_vclk0_frequency;
	__u16 average_dclk0_frequency;
	__u16 average_vclk1_frequency;
	__u16 average_dclk1_frequency;
	__u16 current_gfxclk;
	__u16 current_socclk;
	__u16 current_uclk;
	__u16 current_vclk0;
	__u16 current_dclk0;
	__u16 current_vclk1;
	__u16 current_dclk1;
	__u32 throttle_status;
	__u16 current_fan_speed;
	__u16 pcie_link_width;
	__u16 pcie_link_speed;
	__u16 padding;
	__u32 gfx_activity_acc;
	__u32 mem_activity_acc;
	__u16 temperature_hbm[GT_NUM_HBM_INSTANCES];
};

struct gt_gpu_metrics_v1_2 {
	struct gt_metrics_table_header common_header;
	__u16 temperature_edge;
	__u16 temperature_hotspot;
	__u16 temperature_mem;
	__u16 temperature_vrgfx;
	__u16 temperature_vrsoc;
	__u16 temperature_vrmem;
	__u16 average_gfx_activity;
	__u16 average_umc_activity;
	__u16 average_mm_activity;
	__u16 average_socket_power;
	__u64 energy_accumulator;
	__u64 system_clock_counter;
	__u16 average_gfxclk_frequency;
	__u16 average_socclk_frequency;
	__u16 average_uclk_frequency;
	__u16 average_vclk0_frequency;
	__u16 average_dclk0_frequency;
	__u16 average_vclk1_frequency;
	__u16 average_dclk1_frequency;
	__u16 current_gfxclk;
	__u16 current_socclk;
	__u16 current_uclk;
	__u16 current_vclk0;
	__u16 current_dclk0;
	__u16 current_vclk1;
	__u16 current_dclk1;
	__u32 throttle_status;
	__u16 current_fan_speed;
	__u16 pcie_link_width;
	__u16 pcie_link_speed;
	__u16 padding;
	__u32 gfx_activity_acc;
	__u32 mem_activity_acc;
	__u16 temperature_hbm[GT_NUM_HBM_INSTANCES];
	__u64 firmware_timestamp;
};

struct gt_gpu_metrics_v1_3 {
	struct gt_metrics_table_header common_header;
	__u16 temperature_edge;
	__u16 temperature_hotspot;
	__u16 temperature_mem;
	__u16 temperature_vrgfx;
	__u16 temperature_vrsoc;
	__u16 temperature_vrmem;
	__u16 average_gfx_activity;
	__u16 average_umc_activity;
	__u16 average_mm_activity;
	__u16 average_socket_power;
	__u64 energy_accumulator;
	__u64 system_clock_counter;
	__u16 average_gfxclk_frequency;
	__u16 average_socclk_frequency;
	__u16 average_uclk_frequency;
	__u16 average_vclk0_frequency;
	__u16 average_dclk0_frequency;
	__u16 average_vclk1_frequency;
	__u16 average_dclk1_frequency;
	__u16 current_gfxclk;
	__u16 current_socclk;
	__u16 current_uclk;
	__u16 current_vclk0;
	__u16 current_dclk0;
	__u16 current_vclk1;
	__u16 current_dclk1;
	__u32 throttle_status;
	__u16 current_fan_speed;
	__u16 pcie_link_width;
	__u16 pcie_link_speed;
	__u16 padding;
	__u32 gfx_activity_acc;
	__u32 mem_activity_acc;
	__u16 temperature_hbm[GT_NUM_HBM_INSTANCES];
	__u64 firmware_timestamp;
	__u16 voltage_soc;
	__u16 voltage_gfx;
	__u16 voltage_mem;
	__u16 padding1;
	__u64 indep_throttle_status;
};

struct gt_gpu_metrics_v1_4 {
	struct gt_metrics_table_header common_header;
	__u16 temperature_hotspot;
	__u16 temperature_mem;
	__u16 temperature_vrsoc;
	__u16 curr_socket_power;
	__u16 average_gfx_activity;
	__u16 average_umc_activity;
	__u16 vcn_activity[GT_NUM_VCN];
	__u64 energy_accumulator;
	__u64 system_clock_counter;
	__u32 throttle_status;
	__u32 gfxclk_lock_status;
	__u16 pcie_link_width;
	__u16 pcie_link_speed;
	__u16 xgmi_link_width;
	__u16 xgmi_link_speed;
	__u32 gfx_activity_acc;
	__u32 mem_activity_acc;
	__u64 pcie_bandwidth_acc;
	__u64 pcie_bandwidth_inst;
	__u64 pcie_l0_to_recov_count_acc;
	__u64 pcie_replay_count_acc;
	__u64 pcie_replay_rover_count_acc;
	__u64 xgmi_read_data_acc[GT_NUM_XGMI_LINKS];
	__u64 xgmi_write_data_acc[GT_NUM_XGMI_LINKS];
	__u64 firmware_timestamp;
	__u16 current_gfxclk[GT_MAX_GFX_CLKS];
	__u16 current_socclk[GT_MAX_CLKS];
	__u16 current_vclk0[GT_MAX_CLKS];
	__u16 current_dclk0[GT_MAX_CLKS];
	__u16 current_uclk;
	__u16 padding;
};

struct gt_gpu_metrics_v1_5 {
	struct gt_metrics_table_header common_header;
	__u16 temperature_hotspot;
	__u16 temperature_mem;
	__u16 temperature_vrsoc;
	__u16 curr_socket_power;
	__u16 average_gfx_activity;
	__u16 average_umc_activity;
	__u16 vcn_activity[GT_NUM_VCN];
	__u16 jpeg_activity[GT_NUM_JPEG_ENG];
	__u64 energy_accumulator;
	__u64 system_clock_counter;
	__u32 throttle_status;
	__u32 gfxclk_lock_status;
	__u16 pcie_link_width;
	__u16 pcie_link_speed;
	__u16 xgmi_link_width;
	__u16 xgmi_link_speed;
	__u32 gfx_activity_acc;
	__u32 mem_activity_acc;
	__u64 pcie_bandwidth_acc;
	__u64 pcie_bandwidth_inst;
	__u64 pcie_l0_to_recov_count_acc;
	__u64 pcie_replay_count_acc;
	__u64 pcie_replay_rover_count_acc;
	__u32 pcie_nak_sent_count_acc;
	__u32 pcie_nak_rcvd_count_acc;
	__u64 xgmi_read_data_acc[GT_NUM_XGMI_LINKS];
	__u64 xgmi_write_data_acc[GT_NUM_XGMI_LINKS];
	__u64 firmware_timestamp;
	__u16 current_gfxclk[GT_MAX_GFX_CLKS];
	__u16 current_socclk[GT_MAX_CLKS];
	__u16 current_vclk0[GT_MAX_CLKS];
	__u16 current_dclk0[GT_MAX_CLKS];
	__u16 current_uclk;
	__u16 padding;
};

/* The kernel notes that v2_0 is not naturally aligned; kept as it is. */
struct gt_gpu_metrics_v2_0 {
	struct gt_metrics_table_header common_header;
	__u64 system_clock_counter;
	__u16 temperature_gfx;
	__u16 temperature_soc;
	__u16 temperature_core[8];
	__u16 temperature_l3[2];
	__u16 average_gfx_activity;
	__u16 average_mm_activity;
	__u16 average_socket_power;
	__u16 average_cpu_power;
	__u16 average_soc_power;
	__u16 average_gfx_power;
	__u16 average_core_power[8];
	__u16 average_gfxclk_frequency;
	__u16 average_socclk_frequency;
	__u16 average_uclk_frequency;
	__u16 average_fclk_frequency;
	__u16 average_vclk_frequency;
	__u16 average_dclk_frequency;
	__u16 current_gfxclk;
	__u16 current_socclk;
	__u16 current_uclk;
	__u16 current_fclk;
	__u16 current_vclk;
	__u16 current_dclk;
	__u16 current_coreclk[8];
	__u16 current_l3clk[2];
	__u32 throttle_status;
	__u16 fan_pwm;
	__u16 padding;
};

struct gt_gpu_metrics_v2_1 {
	struct gt_metrics_table_header common_header;
	__u16 temperature_gfx;
	__u16 temperature_soc;
	__u16 temperature_core[8];
	__u16 temperature_l3[2];
	__u16 average_gfx_activity;
	__u16 average_mm_activity;
	__u64 system_clock_counter;
	__u16 average_socket_power;
	__u16 average_cpu_power;
	__u16 average_soc_power;
	__u16 average_gfx_power;
	__u16 average_core_power[8];
	__u16 average_gfxclk_frequency;
	__u16 average_socclk_frequency;
	__u16 average_uclk_frequency;
	__u16 average_fclk_frequency;
	__u16 average_vclk_frequency;
	__u16 average_dclk_frequency;
	__u16 current_gfxclk;
	__u16 current_socclk;
	__u16 current_uclk;
	__u16 current_fclk;
	__u16 current_vclk;
	__u16 current_dclk;
	__u16 current_coreclk[8];
	__u16 current_l3clk[2];
	__u32 throttle_status;
	__u16 fan_pwm;
	__u16 padding[3];
};

struct gt_gpu_metrics_v2_2 {
	struct gt_metrics_table_header common_header;
	__u16 temperature_gfx;
	__u16 temperature_soc;
	__u16 temperature_core[8];
	__u16 temperature_l3[2];
	__u16 average_gfx_activity;
	__u16 average_mm_activity;
	__u64 system_clock_counter;
	__u16 average_socket_power;
	__u16 average_cpu_power;
	__u16 average_soc_power;
	__u16 average_gfx_power;
	__u16 average_core_power[8];
	__u16 average_gfxclk_frequency;
	__u16 average_socclk_frequency;
	__u16 average_uclk_frequency;
	__u16 average_fclk_frequency;
	__u16 average_vclk_frequency;
	__u16 average_dclk_frequency;
	__u16 current_gfxclk;
	__u16 current_socclk;
	__u16 current_uclk;
	__u16 current_fclk;
	__u16 current_vclk;
	__u16 current_dclk;
	__u16 current_coreclk[8];
	__u16 current_l3clk[2];
	__u32 throttle_status;
	__u16 fan_pwm;
	__u16 padding[3];
	__u64 indep_throttle_status;
};

struct gt_gpu_metrics_v2_3 {
	struct gt_metrics_table_header common_header;
	__u16 temperature_gfx;
	__u16 temperature_soc;
	__u16 temperature_core[8];
	__u16 temperature_l3[2];
	__u16 average_gfx_activity;
	__u16 average_mm_activity;
	__u64 system_clock_counter;
	__u16 average_socket_power;
	__u16 average_cpu_power;
	__u16 average_soc_power;
	__u16 average_gfx_power;
	__u16 average_core_power[8];
	__u16 average_gfxclk_frequency;
	__u16 average_socclk_frequency;
	__u16 average_uclk_frequency;
	__u16 average_fclk_frequency;
	__u16 average_vclk_frequency;
	__u16 average_dclk_frequency;
	__u16 current_gfxclk;
	__u16 current_socclk;
	__u16 current_uclk;
	__u16 current_fclk;
	__u16 current_vclk;
	__u16 current_dclk;
	__u16 current_coreclk[8];
	__u16 current_l3clk[2];
	__u32 throttle_status;
	__u16 fan_pwm;
	__u16 padding[3];
	__u64 indep_throttle_status;
	__u16 average_temperature_gfx;
	__u16 average_temperature_soc;
	__u16 average_temperature_core[8];
	__u16 average_temperature_l3[2];
};

struct gt_gpu_metrics_v2_4 {
	struct gt_metrics_table_header common_header;
	__u16 temperature_gfx;
	__u16 temperature_soc;
	__u16 temperature_core[8];
	__u16 temperature_l3[2];
	__u16 average_gfx_activity;
	__u16 average_mm_activity;
	__u64 system_clock_counter;
	__u16 average_socket_power;
	__u16 average_cpu_power;
	__u16 average_soc_power;
	__u16 average_gfx_power;
	__u16 average_core_power[8];
	__u16 average_gfxclk_frequency;
	__u16 average_socclk_frequency;
	__u16 average_uclk_frequency;
	__u16 average_fclk_frequency;
	__u16 average_vclk_frequency;
	__u16 average_dclk_frequency;
	__u16 current_gfxclk;
	__u16 current_socclk;
	__u16 current_uclk;
	__u16 current_fclk;
	__u16 current_vclk;
	__u16 current_dclk;
	__u16 current_coreclk[8];
	__u16 current_l3clk[2];
	__u32 throttle_status;
	__u16 fan_pwm;
	__u16 padding[3];
	__u64 indep_throttle_status;
	__u16 average_temperature_gfx;
	__u16 average_temperature_soc;
	__u16 average_temperature_core[8];
	__u16 average_temperature_l3[2];
	__u16 average_cpu_voltage;
	__u16 average_soc_voltage;
	__u16 average_gfx_voltage;
	__u16 average_cpu_current;
	__u16 average_soc_current;
	__u16 average_gfx_current;
};

struct gt_gpu_metrics_v3_0 {
	struct gt_metrics_table_header common_header;
	__u16 temperature_gfx;
	__u16 temperature_soc;
	__u16 temperature_core[16];
	__u16 temperature_skin;
	__u16 average_gfx_activity;
	__u16 average_vcn_activity;
	__u16 average_ipu_activity[8];
	__u16 average_core_c0_activity[16];
	__u16 average_dram_reads;
	__u16 average_dram_writes;
	__u16 average_ipu_reads;
	__u16 average_ipu_writes;
	__u64 system_clock_counter;
	__u32 average_socket_power;
	__u16 average_ipu_power;
	__u32 average_apu_power;
	__u32 average_gfx_power;
	__u32 average_dgpu_power;
	__u32 average_all_core_power;
	__u16 average_core_power[16];
	__u16 average_sys_power;
	__u16 stapm_power_limit;
	__u16 current_stapm_power_limit;
	__u16 average_gfxclk_frequency;
	__u16 average_socclk_frequency;
	__u16 average_vpeclk_frequency;
	__u16 average_ipuclk_frequency;
	__u16 average_fclk_frequency;
	__u16 average_vclk_frequency;
	__u16 average_uclk_frequency;
	__u16 average_mpipu_frequency;
	__u16 current_coreclk[16];
	__u16 current_core_maxfreq;
	__u16 current_gfx_maxfreq;
	__u32 throttle_residency_prochot;
	__u32 throttle_residency_spl;
	__u32 throttle_residency_fppt;
	__u32 throttle_residency_sppt;
	__u32 throttle_residency_thm_core;
	__u32 throttle_residency_thm_gfx;
	__u32 throttle_residency_thm_soc;
	__u32 time_filter_alphavalue;
};

/*
 * Sizes the kernel's own definitions give on x86_64 (sizeof, as
 * smu_cmn_init_soft_gpu_metrics() writes into structure_size).
 */
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

#endif /* GT_TEST_GPU_METRICS_H */
