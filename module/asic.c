// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: the ASIC table, PCI device id (and revision) of vendor
 * 0x1002 to ASIC name, family, gfx target and full-die CU count.
 *
 * Plain data. Marketing names follow libdrm's amdgpu.ids; an entry with
 * match_rev names one revision, the entry without names the rest. An id
 * missing here still works: the device is then named by its ids.
 */
#include <linux/kernel.h>
#include <linux/pci_ids.h>

#include "gputelemetry.h"

#define GT_ASIC_ANY(id, asic, fam, gfx, cus)				\
	{ .device_id = (id), .name = (asic), .family = (fam),		\
	  .gfx_target = (gfx), .cu_full = (cus) }
#define GT_ASIC_REV(id, rev, asic, fam, gfx, cus, product)		\
	{ .device_id = (id), .revision = (rev), .match_rev = true,	\
	  .name = (asic), .family = (fam), .gfx_target = (gfx),		\
	  .cu_full = (cus), .marketing_name = (product) }

static const struct gt_asic gt_asics[] = {
	/* Navi 14: 24 CUs on the full die */
	GT_ASIC_REV(0x7340, 0xc1, "navi14", "rdna1", "gfx1012", 24, "AMD Radeon RX 5500M"),
	GT_ASIC_REV(0x7340, 0xc3, "navi14", "rdna1", "gfx1012", 24, "AMD Radeon RX 5300M"),
	GT_ASIC_REV(0x7340, 0xc5, "navi14", "rdna1", "gfx1012", 24, "AMD Radeon RX 5500 XT"),
	GT_ASIC_REV(0x7340, 0xc7, "navi14", "rdna1", "gfx1012", 24, "AMD Radeon RX 5500"),
	GT_ASIC_REV(0x7340, 0xc9, "navi14", "rdna1", "gfx1012", 24, "AMD Radeon RX 5500XTB"),
	GT_ASIC_REV(0x7340, 0xcf, "navi14", "rdna1", "gfx1012", 24, "AMD Radeon RX 5300"),
	GT_ASIC_ANY(0x7340, "navi14", "rdna1", "gfx1012", 24),
	GT_ASIC_ANY(0x7341, "navi14", "rdna1", "gfx1012", 24),
	GT_ASIC_ANY(0x7347, "navi14", "rdna1", "gfx1012", 24),
	GT_ASIC_ANY(0x734f, "navi14", "rdna1", "gfx1012", 24),
	/* Navi 10 */
	GT_ASIC_REV(0x731f, 0xc1, "navi10", "rdna1", "gfx1010", 40, "AMD Radeon RX 5700 XT"),
	GT_ASIC_REV(0x731f, 0xc4, "navi10", "rdna1", "gfx1010", 40, "AMD Radeon RX 5700"),
	GT_ASIC_ANY(0x731f, "navi10", "rdna1", "gfx1010", 40),
	/* Navi 12 */
	GT_ASIC_ANY(0x7360, "navi12", "rdna1", "gfx1011", 40),
	/* RDNA 2 */
	GT_ASIC_ANY(0x73bf, "navi21", "rdna2", "gfx1030", 80),
	GT_ASIC_ANY(0x73df, "navi22", "rdna2", "gfx1031", 40),
	GT_ASIC_ANY(0x73ff, "navi23", "rdna2", "gfx1032", 32),
	GT_ASIC_ANY(0x743f, "navi24", "rdna2", "gfx1034", 16),
	/* RDNA 3 */
	GT_ASIC_ANY(0x744c, "navi31", "rdna3", "gfx1100", 96),
	GT_ASIC_ANY(0x747e, "navi32", "rdna3", "gfx1101", 60),
	GT_ASIC_ANY(0x7480, "navi33", "rdna3", "gfx1102", 32),
	/* GCN 5 */
	GT_ASIC_ANY(0x687f, "vega10", "gcn5", "gfx900", 64),
	GT_ASIC_REV(0x66af, 0xc1, "vega20", "gcn5", "gfx906", 64, "AMD Radeon VII"),
	GT_ASIC_ANY(0x66af, "vega20", "gcn5", "gfx906", 64),
	/* GCN 4 */
	GT_ASIC_REV(0x67df, 0xe7, "polaris10", "gcn4", "gfx803", 36, "AMD Radeon RX 580 Series"),
	GT_ASIC_ANY(0x67df, "polaris10", "gcn4", "gfx803", 36),
	GT_ASIC_ANY(0x67ef, "polaris11", "gcn4", "gfx803", 16),
	GT_ASIC_ANY(0x699f, "polaris12", "gcn4", "gfx803", 8),
};

/**
 * gt_asic_lookup() - what a PCI device is
 * @vendor_id: PCI vendor id; only PCI_VENDOR_ID_ATI (0x1002) is known
 * @device_id: PCI device id
 * @revision: PCI revision
 *
 * Return: the entry for this revision, else the entry for the device id,
 * else NULL. The entry is static.
 */
const struct gt_asic *gt_asic_lookup(u16 vendor_id, u16 device_id, u8 revision)
{
	const struct gt_asic *any = NULL;
	size_t i;

	if (vendor_id != PCI_VENDOR_ID_ATI)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(gt_asics); i++) {
		const struct gt_asic *a = &gt_asics[i];

		if (a->device_id != device_id)
			continue;
		if (a->match_rev && a->revision == revision)
			return a;
		if (!a->match_rev && !any)
			any = a;
	}
	return any;
}
