/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gt_test_amdgpu's private header: the values its knobs set, which both
 * the driver (gt_test_driver.c) and the gpu_metrics blob builders
 * (gt_test_blobs.c) read.
 */
#ifndef GT_TEST_AMDGPU_H
#define GT_TEST_AMDGPU_H

#include <linux/types.h>

#include "../../module/gpu_metrics.h"

/* Values the test sets; each one is a debugfs file named as in gtt_vals[]. */
enum gtt_val {
	GTT_V_TEMP_EDGE,
	GTT_V_TEMP_JUNCTION,
	GTT_V_TEMP_MEM,
	GTT_V_TEMP_VRGFX,
	GTT_V_TEMP_VRSOC,
	GTT_V_TEMP_VRMEM,
	GTT_V_TEMP_SOC,
	GTT_V_SCLK,
	GTT_V_SCLK_AVG,
	GTT_V_MCLK,
	GTT_V_MCLK_AVG,
	GTT_V_POWER_AVG,
	GTT_V_POWER_INPUT,
	GTT_V_VDDGFX,
	GTT_V_VDDNB,
	GTT_V_VDDMEM,
	GTT_V_FAN_RPM,
	GTT_V_PWM,
	GTT_V_GPU_BUSY,
	GTT_V_MEM_BUSY,
	GTT_V_MM_BUSY,
	GTT_V_VRAM_TOTAL,
	GTT_V_VRAM_USED,
	GTT_V_TEMP_EDGE_CRIT,
	GTT_V_TEMP_JUNCTION_CRIT,
	GTT_V_TEMP_MEM_CRIT,
	GTT_V_POWER_CAP,
	GTT_V_POWER_CAP_DEFAULT,
	GTT_V_POWER_CAP_MIN,
	GTT_V_POWER_CAP_MAX,
	GTT_V_GTT_TOTAL,
	GTT_V_GTT_USED,
	GTT_V_ENERGY,
	GTT_V_THROTTLE,
	GTT_V_INDEP_THROTTLE,
	GTT_V_PCIE_WIDTH,
	GTT_V_PCIE_SPEED,
	GTT_V_SYSCLK,
	GTT_V_FWTS,
	GTT_V_METRICS_TRUNCATE,
	GTT_V_APU,
	GTT_V_GC_VERSION,
	GTT_V_NO_FAN,
	GTT_V_IN_SUSPEND,
	GTT_V_PCI_DEVICE,
	GTT_V_NR
};

/* smu_cmn_init_soft_gpu_metrics(): every byte of a fresh blob is 0xff. */
#define GTT_METRICS_FILL_BYTE 0xff
/* The largest layout gtt_metrics_build() writes. */
#define GTT_METRICS_BUILD_MAX GT_GPU_METRICS_V1_5_SIZE

size_t gtt_metrics_build(void *buf, const s64 *v, u8 frev, u8 crev);

#endif /* GT_TEST_AMDGPU_H */
