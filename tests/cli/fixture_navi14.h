/* SPDX-License-Identifier: MIT */
/*
 * Fixture: an AMD Radeon RX 5500 XT (Navi 14), as the amdgpu kernel
 * driver would describe it through AMDGPU_INFO_*. The PCI ids, revision,
 * PCIe link and hwmon readings are in the sysfs tree (tests/cli/mkroot);
 * the shim takes device_id and pci_rev from there, so a variant with
 * another id changes one place.
 *
 * Sources of the values navibench shows:
 * [ids]  libdrm's data/amdgpu.ids: "7340, C5, AMD Radeon RX 5500 XT"
 *        (/usr/share/libdrm/amdgpu.ids, libdrm 2.4.114).
 * [tpu]  TechPowerUp GPU Database, "AMD Radeon RX 5500 XT":
 *        https://www.techpowerup.com/gpu-specs/radeon-rx-5500-xt.c3468 -
 *        Navi 14 XTX, 22 compute units (1408 shaders), boost clock
 *        1845 MHz, 4 GB GDDR6, 128-bit, memory clock 1750 MHz (14 Gbps
 *        effective), 224.0 GB/s, FP32 5.196 TFLOPS, PCIe 4.0 x8.
 * [amd]  AMD product page, Radeon RX 5500 XT: 22 compute units, up to
 *        1845 MHz boost clock, 4 GB / 8 GB GDDR6, 128-bit.
 * [llvm] LLVM AMDGPUUsage, processors table: gfx1012 = Navi 14
 *        (Radeon RX 5500, 5500 XT, Pro 5500M).
 * [uapi] Linux include/uapi/drm/amdgpu_drm.h: AMDGPU_FAMILY_NV = 143,
 *        AMDGPU_VRAM_TYPE_GDDR6 = 9; field units (clocks in kHz).
 * [nv]   Linux drivers/gpu/drm/amd/amdgpu/nv.c, nv_common_early_init():
 *        Navi 14 (GC 10.1.1) external_rev_id = rev_id + 20 (0x14).
 * [gfx]  Linux gfx_v10_0.c / IP discovery gc_info for Navi 14: 1 shader
 *        engine, 2 shader arrays per engine, 12 CUs per array on the full
 *        die (24 CUs: TechPowerUp "Navi 14" GPU page, 1536 shaders).
 * [mesa] Mesa src/amd/common/ac_gpu_info.c, ac_memory_ops_per_clock():
 *        GDDR6 transfers 16 times per memory clock; amdgpu reports the
 *        14 Gbps GDDR6 of Navi 1x as an 875 MHz memory clock
 *        (875 x 16 = 14000 MT/s), as pp_dpm_mclk shows on these boards.
 * [drm]  Linux 6.1 amdgpu_drv.c: KMS_DRIVER_MAJOR 3, KMS_DRIVER_MINOR 49;
 *        e.g. the radeonsi renderer string "AMD Radeon RX 5500 XT
 *        (radeonsi, navi14, LLVM 15.0.7, DRM 3.49, 6.1.0-25-amd64)".
 *
 * Values marked "illustrative" are not shown as facts about this board
 * (firmware and VBIOS versions, live sensor readings, address-space
 * layout, GB_ADDR_CONFIG): they exercise the code paths, navibench
 * derives nothing from them.
 */
#ifndef FIXTURE_NAVI14_H
#define FIXTURE_NAVI14_H

#include <stdint.h>
#include <string.h>

#include <amdgpu_drm.h>

#define FIX_DRM_MAJOR		3	/* [drm] */
#define FIX_DRM_MINOR		49	/* [drm] */

/* libdrm_amdgpu reads GB_ADDR_CONFIG (dword 0x263e) at initialization. */
#define FIX_REG_GB_ADDR_CONFIG	0x263e
#define FIX_GB_ADDR_CONFIG	0x00000044	/* illustrative */

/* Live readings: illustrative, a GPU under load. */
#define FIX_SENSOR_SCLK_MHZ	1845
#define FIX_SENSOR_MCLK_MHZ	875
#define FIX_SENSOR_TEMP_MC	61000
#define FIX_SENSOR_LOAD		97
#define FIX_SENSOR_POWER_W	118
#define FIX_SENSOR_VDDGFX_MV	1131
#define FIX_VRAM_USED		(1536ULL << 20)

static inline void fixture_dev_info(struct drm_amdgpu_info_device *d)
{
	memset(d, 0, sizeof(*d));
	d->device_id = 0x7340;			/* [ids]; the shim uses sysfs */
	d->chip_rev = 0x00;			/* [nv]: external_rev - 0x14 */
	d->external_rev = 0x14;			/* [nv] */
	d->pci_rev = 0xc5;			/* [ids]; the shim uses sysfs */
	d->family = AMDGPU_FAMILY_NV;		/* [uapi] 143 */
	d->num_shader_engines = 1;		/* [gfx] */
	d->num_shader_arrays_per_engine = 2;	/* [gfx] */
	d->gpu_counter_freq = 100000;		/* illustrative: 100 MHz, in kHz */
	d->max_engine_clock = 1845000;		/* [amd][tpu] 1845 MHz, in kHz */
	d->max_memory_clock = 875000;		/* [mesa][tpu] 875 MHz, in kHz */
	d->cu_active_number = 22;		/* [amd][tpu] */
	/*
	 * 22 of the full die's 24 CUs [gfx]: RDNA enables CUs in pairs (one
	 * WGP), so one array keeps its 6 WGPs (12 CUs) and the other 5 (10).
	 */
	d->cu_bitmap[0][0] = 0x0fff;
	d->cu_bitmap[0][1] = 0x03ff;
	d->cu_ao_mask = 0x3;			/* illustrative, not shown */
	d->enabled_rb_pipes_mask = 0xff;	/* illustrative, not shown */
	d->num_rb_pipes = 8;			/* illustrative, not shown */
	d->num_hw_gfx_contexts = 8;		/* illustrative, not shown */
	d->ids_flags = 0;			/* a discrete GPU, not an APU */
	/* Address space: illustrative, used by libdrm_amdgpu's VA manager. */
	d->virtual_address_offset = 0x200000;
	d->virtual_address_max = 0x800000000000ULL;
	d->virtual_address_alignment = 4096;
	d->pte_fragment_size = 0x200000;
	d->gart_page_size = 4096;
	d->high_va_offset = 0xffff800000000000ULL;
	d->high_va_max = 0xffffffffffe00000ULL;
	d->vram_type = AMDGPU_VRAM_TYPE_GDDR6;	/* [uapi][tpu] */
	d->vram_bit_width = 128;		/* [amd][tpu] */
	d->num_cu_per_sh = 12;			/* [gfx] */
	d->num_tcc_blocks = 8;			/* illustrative, not shown */
}

static inline void fixture_memory(struct drm_amdgpu_memory_info *m)
{
	memset(m, 0, sizeof(*m));
	m->vram.total_heap_size = 4ULL << 30;	/* [amd][tpu] 4 GiB board */
	m->vram.usable_heap_size = (4ULL << 30) - (64ULL << 20);	/* illustrative */
	m->vram.heap_usage = FIX_VRAM_USED;
	m->vram.max_allocation = m->vram.usable_heap_size;
	/* 256 MiB BAR without resizable BAR: illustrative */
	m->cpu_accessible_vram.total_heap_size = 256ULL << 20;
	m->cpu_accessible_vram.usable_heap_size = 256ULL << 20;
	m->cpu_accessible_vram.max_allocation = 256ULL << 20;
	/* GTT follows the host's RAM: illustrative, 8 GiB */
	m->gtt.total_heap_size = 8ULL << 30;
	m->gtt.usable_heap_size = 8ULL << 30;
	m->gtt.max_allocation = 8ULL << 30;
}

/* Firmware versions: illustrative. Returns -1 for a type not answered. */
static inline int fixture_firmware(uint32_t type, struct drm_amdgpu_info_firmware *fw)
{
	switch (type) {
	case AMDGPU_INFO_FW_SMC:
		fw->ver = 0x002a3400; fw->feature = 0; return 0;
	case AMDGPU_INFO_FW_GFX_ME:
		fw->ver = 0x00000043; fw->feature = 35; return 0;
	case AMDGPU_INFO_FW_GFX_PFP:
		fw->ver = 0x00000062; fw->feature = 35; return 0;
	case AMDGPU_INFO_FW_GFX_MEC:
		fw->ver = 0x0000008d; fw->feature = 35; return 0;
	case AMDGPU_INFO_FW_GFX_RLC:
		fw->ver = 0x00000064; fw->feature = 1; return 0;
	case AMDGPU_INFO_FW_SDMA:
		fw->ver = 0x00000050; fw->feature = 50; return 0;
	case AMDGPU_INFO_FW_SOS:
		fw->ver = 0x00210e64; fw->feature = 0; return 0;
	default:
		return -1;
	}
}

static inline void fixture_vbios(struct drm_amdgpu_info_vbios *vb)
{
	memset(vb, 0, sizeof(*vb));		/* illustrative */
	strcpy((char *)vb->name, "NAVI14 XTX D32206 4GB");
	strcpy((char *)vb->vbios_pn, "113-D3220600-100");
	vb->version = 0x1;
	strcpy((char *)vb->vbios_ver_str, "017.001.000.031.000000");
	strcpy((char *)vb->date, "2019/10/30 10:46");
}

#endif /* FIXTURE_NAVI14_H */
