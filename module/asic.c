// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: the ASIC table, PCI device id (and revision) of vendor
 * 0x1002 to ASIC name, family, gfx target and full-die CU count.
 *
 * Plain data, from uapi/gt_asic.h, which navibench reads too: an entry
 * with match_rev names one revision, the entry without names the rest.
 */
#include <linux/kernel.h>
#include <linux/pci_ids.h>

#include "gputelemetry.h"
#include "uapi/gt_asic.h"

#define GT_ASIC_ANY(id, asic, fam, gfx, cus)				\
	{ .device_id = (id), .name = (asic), .family = (fam),		\
	  .gfx_target = (gfx), .cu_full = (cus) },
#define GT_ASIC_REV(id, rev, asic, fam, gfx, cus, product)		\
	{ .device_id = (id), .revision = (rev), .match_rev = true,	\
	  .name = (asic), .family = (fam), .gfx_target = (gfx),		\
	  .cu_full = (cus), .marketing_name = (product) },

static const struct gt_asic gt_asics[] = {
	GT_ASIC_TABLE(GT_ASIC_ANY, GT_ASIC_REV)
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
