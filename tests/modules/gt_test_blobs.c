// SPDX-License-Identifier: GPL-2.0
/*
 * gt_test_amdgpu's gpu_metrics blobs: the bytes its gpu_metrics attribute
 * returns, written from the knob values as amdgpu's SMU code writes them,
 * in the layouts of module/gpu_metrics.h.
 */

#include <linux/build_bug.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "gt_test_amdgpu.h"

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
 * With the default knob values (see gt_test_driver.c) a 1.3 blob holds,
 * for example: temperature_edge 45, temperature_hotspot 52,
 * temperature_mem 60, average_socket_power 85, current_gfxclk 1845,
 * current_uclk 875, current_fan_speed 1200, voltage_gfx 1050.
 */

/*
 * Layout checks: sizes and offsets the kernel's own struct gpu_metrics_v*
 * definitions have, and the prefix relations gtt_metrics_build() relies on
 * (1.1 and 1.2 are leading parts of 1.3; 2.1 and 2.2 of 2.3).
 */
static_assert(sizeof(struct gt_gpu_metrics_v1_0) == GT_GPU_METRICS_V1_0_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v1_1) == GT_GPU_METRICS_V1_1_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v1_2) == GT_GPU_METRICS_V1_2_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v1_3) == GT_GPU_METRICS_V1_3_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v2_0) == GT_GPU_METRICS_V2_0_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v2_1) == GT_GPU_METRICS_V2_1_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v2_2) == GT_GPU_METRICS_V2_2_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v2_3) == GT_GPU_METRICS_V2_3_SIZE);
static_assert(offsetof(struct gt_gpu_metrics_v1_0, system_clock_counter) == 8);
static_assert(offsetof(struct gt_gpu_metrics_v1_0, energy_accumulator) == 36);
static_assert(offsetof(struct gt_gpu_metrics_v1_0, current_fan_speed) == 72);
static_assert(offsetof(struct gt_gpu_metrics_v1_3, energy_accumulator) == 24);
static_assert(offsetof(struct gt_gpu_metrics_v1_3, system_clock_counter) == 32);
static_assert(offsetof(struct gt_gpu_metrics_v1_3, firmware_timestamp) ==
	      GT_GPU_METRICS_V1_1_SIZE);
static_assert(offsetof(struct gt_gpu_metrics_v1_3, voltage_soc) ==
	      GT_GPU_METRICS_V1_2_SIZE);
static_assert(offsetof(struct gt_gpu_metrics_v1_3, indep_throttle_status) == 112);
static_assert(offsetof(struct gt_gpu_metrics_v1_1, temperature_hbm) ==
	      offsetof(struct gt_gpu_metrics_v1_3, temperature_hbm));
static_assert(offsetof(struct gt_gpu_metrics_v2_0, system_clock_counter) == 8);
static_assert(offsetof(struct gt_gpu_metrics_v2_0, fan_pwm) == 116);
static_assert(offsetof(struct gt_gpu_metrics_v2_3, system_clock_counter) == 32);
static_assert(offsetof(struct gt_gpu_metrics_v2_3, indep_throttle_status) ==
	      GT_GPU_METRICS_V2_1_SIZE);
static_assert(offsetof(struct gt_gpu_metrics_v2_3, average_temperature_gfx) ==
	      GT_GPU_METRICS_V2_2_SIZE);
static_assert(offsetof(struct gt_gpu_metrics_v2_1, fan_pwm) ==
	      offsetof(struct gt_gpu_metrics_v2_3, fan_pwm));

/* The largest layout gtt_metrics_build() writes. */
static_assert(GTT_METRICS_BUILD_MAX >= GT_GPU_METRICS_V3_0_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v1_4) == GT_GPU_METRICS_V1_4_SIZE);
static_assert(sizeof(struct gt_gpu_metrics_v1_5) == GT_GPU_METRICS_V1_5_SIZE);
static_assert(offsetof(struct gt_gpu_metrics_v1_4, energy_accumulator) == 24);
static_assert(offsetof(struct gt_gpu_metrics_v1_5, energy_accumulator) == 88);
static_assert(offsetof(struct gt_gpu_metrics_v1_5, firmware_timestamp) == 304);
static_assert(sizeof(struct gt_gpu_metrics_v3_0) == GT_GPU_METRICS_V3_0_SIZE);
static_assert(offsetof(struct gt_gpu_metrics_v3_0, system_clock_counter) == 104);
static_assert(offsetof(struct gt_gpu_metrics_v3_0, average_socket_power) == 112);
static_assert(offsetof(struct gt_gpu_metrics_v3_0, average_apu_power) == 120);
static_assert(offsetof(struct gt_gpu_metrics_v3_0, throttle_residency_prochot) == 228);
static_assert(sizeof(struct gt_gpu_metrics_v2_4) == GT_GPU_METRICS_V2_4_SIZE);
static_assert(offsetof(struct gt_gpu_metrics_v2_4, average_cpu_voltage) ==
	      GT_GPU_METRICS_V2_3_SIZE);

/* A filled field never reads as all ones ("not supported"). */
static u16 gtt_u16(s64 v)
{
	return clamp_t(s64, v, 0, U16_MAX - 1);
}

static u8 gtt_u8(s64 v)
{
	return clamp_t(s64, v, 0, U8_MAX - 1);
}

static u16 gtt_mhz(s64 hz)
{
	return gtt_u16(div_s64(hz, 1000000));
}

static void gtt_fill_v1_0(struct gt_gpu_metrics_v1_0 *m, const s64 *v)
{
	m->system_clock_counter = v[GTT_V_SYSCLK];
	m->temperature_edge = gtt_u16(div_s64(v[GTT_V_TEMP_EDGE], 1000));
	m->temperature_hotspot = gtt_u16(div_s64(v[GTT_V_TEMP_JUNCTION], 1000));
	m->temperature_mem = gtt_u16(div_s64(v[GTT_V_TEMP_MEM], 1000));
	m->temperature_vrgfx = gtt_u16(div_s64(v[GTT_V_TEMP_VRGFX], 1000));
	m->temperature_vrsoc = gtt_u16(div_s64(v[GTT_V_TEMP_VRSOC], 1000));
	m->temperature_vrmem = gtt_u16(div_s64(v[GTT_V_TEMP_VRMEM], 1000));
	m->average_gfx_activity = gtt_u16(v[GTT_V_GPU_BUSY]);
	m->average_umc_activity = gtt_u16(v[GTT_V_MEM_BUSY]);
	m->average_mm_activity = gtt_u16(v[GTT_V_MM_BUSY]);
	m->average_socket_power = gtt_u16(div_s64(v[GTT_V_POWER_AVG], 1000000));
	m->energy_accumulator = lower_32_bits(v[GTT_V_ENERGY]);
	m->average_gfxclk_frequency = gtt_mhz(v[GTT_V_SCLK_AVG]);
	m->average_uclk_frequency = gtt_mhz(v[GTT_V_MCLK_AVG]);
	m->current_gfxclk = gtt_mhz(v[GTT_V_SCLK]);
	m->current_uclk = gtt_mhz(v[GTT_V_MCLK]);
	m->throttle_status = lower_32_bits(v[GTT_V_THROTTLE]);
	m->current_fan_speed = gtt_u16(v[GTT_V_FAN_RPM]);
	m->pcie_link_width = gtt_u8(v[GTT_V_PCIE_WIDTH]);
	m->pcie_link_speed = gtt_u8(v[GTT_V_PCIE_SPEED]);
}

/* Also fills 1.1 and 1.2, which are leading parts of the 1.3 layout. */
static void gtt_fill_v1_3(struct gt_gpu_metrics_v1_3 *m, const s64 *v)
{
	m->temperature_edge = gtt_u16(div_s64(v[GTT_V_TEMP_EDGE], 1000));
	m->temperature_hotspot = gtt_u16(div_s64(v[GTT_V_TEMP_JUNCTION], 1000));
	m->temperature_mem = gtt_u16(div_s64(v[GTT_V_TEMP_MEM], 1000));
	m->temperature_vrgfx = gtt_u16(div_s64(v[GTT_V_TEMP_VRGFX], 1000));
	m->temperature_vrsoc = gtt_u16(div_s64(v[GTT_V_TEMP_VRSOC], 1000));
	m->temperature_vrmem = gtt_u16(div_s64(v[GTT_V_TEMP_VRMEM], 1000));
	m->average_gfx_activity = gtt_u16(v[GTT_V_GPU_BUSY]);
	m->average_umc_activity = gtt_u16(v[GTT_V_MEM_BUSY]);
	m->average_mm_activity = gtt_u16(v[GTT_V_MM_BUSY]);
	m->average_socket_power = gtt_u16(div_s64(v[GTT_V_POWER_AVG], 1000000));
	m->energy_accumulator = v[GTT_V_ENERGY];
	m->system_clock_counter = v[GTT_V_SYSCLK];
	m->average_gfxclk_frequency = gtt_mhz(v[GTT_V_SCLK_AVG]);
	m->average_uclk_frequency = gtt_mhz(v[GTT_V_MCLK_AVG]);
	m->current_gfxclk = gtt_mhz(v[GTT_V_SCLK]);
	m->current_uclk = gtt_mhz(v[GTT_V_MCLK]);
	m->throttle_status = lower_32_bits(v[GTT_V_THROTTLE]);
	m->current_fan_speed = gtt_u16(v[GTT_V_FAN_RPM]);
	m->pcie_link_width = gtt_u16(v[GTT_V_PCIE_WIDTH]);
	m->pcie_link_speed = gtt_u16(v[GTT_V_PCIE_SPEED]);
	m->firmware_timestamp = v[GTT_V_FWTS];
	m->voltage_soc = gtt_u16(v[GTT_V_VDDNB]);
	m->voltage_gfx = gtt_u16(v[GTT_V_VDDGFX]);
	m->voltage_mem = gtt_u16(v[GTT_V_VDDMEM]);
	m->indep_throttle_status = v[GTT_V_INDEP_THROTTLE];
}

static void gtt_fill_v2_0(struct gt_gpu_metrics_v2_0 *m, const s64 *v)
{
	m->system_clock_counter = v[GTT_V_SYSCLK];
	m->temperature_gfx = gtt_u16(div_s64(v[GTT_V_TEMP_EDGE], 10));
	m->temperature_soc = gtt_u16(div_s64(v[GTT_V_TEMP_SOC], 10));
	/* Hundredths of a percent: renoir_ppt.c copies the SMU's value. */
	m->average_gfx_activity = gtt_u16(v[GTT_V_GPU_BUSY] * 100);
	m->average_mm_activity = gtt_u16(v[GTT_V_MM_BUSY] * 100);
	m->average_socket_power = gtt_u16(div_s64(v[GTT_V_POWER_AVG], 1000));
	m->average_gfxclk_frequency = gtt_mhz(v[GTT_V_SCLK_AVG]);
	m->average_uclk_frequency = gtt_mhz(v[GTT_V_MCLK_AVG]);
	m->current_gfxclk = gtt_mhz(v[GTT_V_SCLK]);
	m->current_uclk = gtt_mhz(v[GTT_V_MCLK]);
	m->throttle_status = lower_32_bits(v[GTT_V_THROTTLE]);
	m->fan_pwm = gtt_u16(v[GTT_V_PWM]);
}

/* Also fills 2.1 to 2.3, which are leading parts of the 2.4 layout. */
static void gtt_fill_v2_4(struct gt_gpu_metrics_v2_4 *m, const s64 *v)
{
	m->temperature_gfx = gtt_u16(div_s64(v[GTT_V_TEMP_EDGE], 10));
	m->temperature_soc = gtt_u16(div_s64(v[GTT_V_TEMP_SOC], 10));
	/* Hundredths of a percent, as the 2.1 and 2.2 writers (see the header). */
	m->average_gfx_activity = gtt_u16(v[GTT_V_GPU_BUSY] * 100);
	m->average_mm_activity = gtt_u16(v[GTT_V_MM_BUSY] * 100);
	m->system_clock_counter = v[GTT_V_SYSCLK];
	m->average_socket_power = gtt_u16(div_s64(v[GTT_V_POWER_AVG], 1000));
	m->average_gfxclk_frequency = gtt_mhz(v[GTT_V_SCLK_AVG]);
	m->average_uclk_frequency = gtt_mhz(v[GTT_V_MCLK_AVG]);
	m->current_gfxclk = gtt_mhz(v[GTT_V_SCLK]);
	m->current_uclk = gtt_mhz(v[GTT_V_MCLK]);
	m->throttle_status = lower_32_bits(v[GTT_V_THROTTLE]);
	m->fan_pwm = gtt_u16(v[GTT_V_PWM]);
	m->indep_throttle_status = v[GTT_V_INDEP_THROTTLE];
	m->average_temperature_gfx = gtt_u16(div_s64(v[GTT_V_TEMP_EDGE], 10));
	m->average_temperature_soc = gtt_u16(div_s64(v[GTT_V_TEMP_SOC], 10));
	m->average_gfx_voltage = gtt_u16(v[GTT_V_VDDGFX]);
	m->average_soc_voltage = gtt_u16(v[GTT_V_VDDNB]);
}

/*
 * SMU 13.0.6 (MI300, smu_v13_0_6_get_gpu_metrics(), 6.12): 1.4 and 1.5
 * hold the same fields at other offsets, so one body fills either.
 */
#define GTT_FILL_V1_4_5(m, v)							\
do {										\
	typeof(m) _m = (m);							\
	const s64 *_v = (v);							\
	_m->temperature_hotspot = gtt_u16(div_s64(_v[GTT_V_TEMP_JUNCTION], 1000));	\
	_m->temperature_mem = gtt_u16(div_s64(_v[GTT_V_TEMP_MEM], 1000));	\
	_m->temperature_vrsoc = gtt_u16(div_s64(_v[GTT_V_TEMP_VRSOC], 1000));	\
	_m->curr_socket_power = gtt_u16(div_s64(_v[GTT_V_POWER_AVG], 1000000));	\
	_m->average_gfx_activity = gtt_u16(_v[GTT_V_GPU_BUSY]);		\
	_m->average_umc_activity = gtt_u16(_v[GTT_V_MEM_BUSY]);		\
	_m->energy_accumulator = _v[GTT_V_ENERGY];				\
	_m->system_clock_counter = _v[GTT_V_SYSCLK];				\
	_m->throttle_status = lower_32_bits(_v[GTT_V_THROTTLE]);		\
	_m->pcie_link_width = gtt_u16(_v[GTT_V_PCIE_WIDTH]);			\
	_m->pcie_link_speed = gtt_u16(_v[GTT_V_PCIE_SPEED]);			\
	_m->firmware_timestamp = _v[GTT_V_FWTS];				\
	_m->current_gfxclk[0] = gtt_mhz(_v[GTT_V_SCLK]);			\
	_m->current_uclk = gtt_mhz(_v[GTT_V_MCLK]);				\
} while (0)

static void gtt_fill_v1_4(struct gt_gpu_metrics_v1_4 *m, const s64 *v)
{
	GTT_FILL_V1_4_5(m, v);
}

static void gtt_fill_v1_5(struct gt_gpu_metrics_v1_5 *m, const s64 *v)
{
	GTT_FILL_V1_4_5(m, v);
}

/* SMU 14.0.0 APUs (smu_v14_0_0_get_gpu_metrics(), 6.12). */
static void gtt_fill_v3_0(struct gt_gpu_metrics_v3_0 *m, const s64 *v)
{
	m->temperature_gfx = gtt_u16(div_s64(v[GTT_V_TEMP_EDGE], 10));
	m->temperature_soc = gtt_u16(div_s64(v[GTT_V_TEMP_SOC], 10));
	/* Hundredths of a percent, as firmware up to 0x5d4600 writes them. */
	m->average_gfx_activity = gtt_u16(v[GTT_V_GPU_BUSY] * 100);
	m->average_vcn_activity = gtt_u16(v[GTT_V_MM_BUSY] * 100);
	m->system_clock_counter = v[GTT_V_SYSCLK];
	m->average_socket_power = clamp_t(s64, div_s64(v[GTT_V_POWER_AVG], 1000),
					  0, U32_MAX - 1);
	m->average_gfxclk_frequency = gtt_mhz(v[GTT_V_SCLK_AVG]);
	m->average_uclk_frequency = gtt_mhz(v[GTT_V_MCLK_AVG]);
	m->current_gfx_maxfreq = gtt_mhz(v[GTT_V_SCLK]);
}

/**
 * gtt_metrics_build() - write a gpu_metrics blob as amdgpu would
 * @buf: destination, at least GTT_METRICS_BUILD_MAX bytes
 * @v: knob values, indexed by enum gtt_val
 * @frev: format revision
 * @crev: content revision
 *
 * Return: the blob's size (its header's structure_size).
 */
size_t gtt_metrics_build(void *buf, const s64 *v, u8 frev, u8 crev)
{
	struct gt_metrics_table_header *h = buf;
	size_t size;

	switch (frev << 8 | crev) {
	case 0x100:
		size = sizeof(struct gt_gpu_metrics_v1_0);
		break;
	case 0x101:
		size = sizeof(struct gt_gpu_metrics_v1_1);
		break;
	case 0x102:
		size = sizeof(struct gt_gpu_metrics_v1_2);
		break;
	case 0x104:
		size = sizeof(struct gt_gpu_metrics_v1_4);
		break;
	case 0x105:
		size = sizeof(struct gt_gpu_metrics_v1_5);
		break;
	case 0x200:
		size = sizeof(struct gt_gpu_metrics_v2_0);
		break;
	case 0x201:
		size = sizeof(struct gt_gpu_metrics_v2_1);
		break;
	case 0x202:
		size = sizeof(struct gt_gpu_metrics_v2_2);
		break;
	case 0x203:
		size = sizeof(struct gt_gpu_metrics_v2_3);
		break;
	case 0x204:
		size = sizeof(struct gt_gpu_metrics_v2_4);
		break;
	case 0x300:
		size = sizeof(struct gt_gpu_metrics_v3_0);
		break;
	default: /* 1.3 and unknown revisions */
		size = sizeof(struct gt_gpu_metrics_v1_3);
		break;
	}

	memset(buf, GTT_METRICS_FILL_BYTE, GTT_METRICS_BUILD_MAX);
	if (frev == 1 && crev == 0)
		gtt_fill_v1_0(buf, v);
	else if (frev == 1 && crev <= 3)
		gtt_fill_v1_3(buf, v);
	else if (frev == 1 && crev == 4)
		gtt_fill_v1_4(buf, v);
	else if (frev == 1 && crev == 5)
		gtt_fill_v1_5(buf, v);
	else if (frev == 2 && crev == 0)
		gtt_fill_v2_0(buf, v);
	else if (frev == 2 && crev <= 4)
		gtt_fill_v2_4(buf, v);
	else if (frev == 3 && crev == 0)
		gtt_fill_v3_0(buf, v);
	/* Bytes past @size were filled by a longer layout: reset them. */
	memset(buf + size, GTT_METRICS_FILL_BYTE, GTT_METRICS_BUILD_MAX - size);

	h->structure_size = size;
	h->format_revision = frev;
	h->content_revision = crev;
	return size;
}
