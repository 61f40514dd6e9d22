// SPDX-License-Identifier: MIT
/*
 * ASIC identity from family and external revision: see asic.h.
 *
 * The external revision ranges are those of Mesa's
 * src/amd/addrlib/src/amdgpu_asic_addr.h and the kernel's nv.c/soc21.c
 * (adev->external_rev_id = rev_id + base, one base per ASIC).
 */
#include <stddef.h>
#include <string.h>

#include "devices/asic.h"
#include "gt_asic.h"

/* Family ids of AMDGPU_INFO_DEV_INFO (kernel amdgpu_drm.h). */
#define FAM_SI		110
#define FAM_CI		120
#define FAM_KV		125
#define FAM_VI		130
#define FAM_CZ		135
#define FAM_AI		141
#define FAM_RV		142
#define FAM_NV		143
#define FAM_VGH		144
#define FAM_GFX1100	145
#define FAM_YC		146
#define FAM_GFX1103	148
#define FAM_GFX1036	149
#define FAM_GFX1150	150
#define FAM_GFX1037	151

struct range {
	uint32_t family, first, end;	/* external_rev in [first, end) */
	const char *name, *gfx;
	const char *code;	/* see asic.h */
};

static const struct range ranges[] = {
	{ FAM_AI, 0x01, 0x14, "Vega 10", "gfx900", "vega10" },
	{ FAM_AI, 0x14, 0x28, "Vega 12", "gfx904", "vega12" },
	{ FAM_AI, 0x28, 0x32, "Vega 20", "gfx906", "vega20" },
	{ FAM_AI, 0x32, 0x3c, "Arcturus", "gfx908", "arcturus" },
	{ FAM_AI, 0x3c, 0xff, "Aldebaran", "gfx90a", "aldebaran" },
	{ FAM_NV, 0x01, 0x0a, "Navi 10", "gfx1010", "navi10" },
	{ FAM_NV, 0x0a, 0x14, "Navi 12", "gfx1011", "navi12" },
	{ FAM_NV, 0x14, 0x28, "Navi 14", "gfx1012", "navi14" },
	{ FAM_NV, 0x28, 0x32, "Navi 21", "gfx1030", "navi21" },
	{ FAM_NV, 0x32, 0x3c, "Navi 22", "gfx1031", "navi22" },
	{ FAM_NV, 0x3c, 0x46, "Navi 23", "gfx1032", "navi23" },
	{ FAM_NV, 0x46, 0xff, "Navi 24", "gfx1034", "navi24" },
	{ FAM_VGH, 0x01, 0xff, "Van Gogh", "gfx1033", "vangogh" },
	{ FAM_YC, 0x01, 0xff, "Rembrandt", "gfx1035", "rembrandt" },
	{ FAM_GFX1036, 0x01, 0xff, "Raphael", "gfx1036", "raphael" },
	{ FAM_GFX1037, 0x01, 0xff, "Mendocino", "gfx1037", "mendocino" },
	{ FAM_GFX1100, 0x01, 0x10, "Navi 31", "gfx1100", "navi31" },
	{ FAM_GFX1100, 0x10, 0x20, "Navi 33", "gfx1102", "navi33" },
	{ FAM_GFX1100, 0x20, 0xff, "Navi 32", "gfx1101", "navi32" },
	{ FAM_GFX1103, 0x01, 0xff, "Phoenix", "gfx1103", "phoenix" },
};

static const struct {
	uint32_t id;
	const char *name;
	int gfx_major;
} families[] = {
	{ FAM_SI, "SI", 6 }, { FAM_CI, "CI", 7 }, { FAM_KV, "KV", 7 },
	{ FAM_VI, "VI", 8 }, { FAM_CZ, "CZ", 8 }, { FAM_AI, "AI", 9 },
	{ FAM_RV, "RV", 9 }, { FAM_NV, "NV", 10 }, { FAM_VGH, "VGH", 10 },
	{ FAM_GFX1100, "GFX1100", 11 }, { FAM_YC, "YC", 10 },
	{ FAM_GFX1103, "GFX1103", 11 }, { FAM_GFX1036, "GFX1036", 10 },
	{ FAM_GFX1150, "GFX1150", 11 }, { FAM_GFX1037, "GFX1037", 10 },
};

struct nb_asic nb_asic_lookup(uint32_t family, uint32_t external_rev)
{
	struct nb_asic a = { 0 };

	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		if (families[i].id == family) {
			a.family = families[i].name;
			a.gfx_major = families[i].gfx_major;
		}
	}
	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++) {
		if (ranges[i].family == family && external_rev >= ranges[i].first &&
		    external_rev < ranges[i].end) {
			a.name = ranges[i].name;
			a.gfx = ranges[i].gfx;
			a.code = ranges[i].code;
		}
	}
	return a;
}

/* The PCI id table, expanded from the module's uapi header. */
static const struct {
	unsigned int device, revision;
	bool match_rev;
	struct nb_asic_id id;
} pci_ids[] = {
#define NB_ASIC_ANY(dev, asic, fam, gfx, cus)					\
	{ (dev), 0, false, { (asic), (gfx), (fam), (cus), NULL } },
#define NB_ASIC_REV(dev, rev, asic, fam, gfx, cus, product)			\
	{ (dev), (rev), true, { (asic), (gfx), (fam), (cus), (product) } },
	GT_ASIC_TABLE(NB_ASIC_ANY, NB_ASIC_REV)
#undef NB_ASIC_ANY
#undef NB_ASIC_REV
};

bool nb_asic_of_pci(unsigned int vendor, unsigned int device, unsigned int revision,
		    struct nb_asic_id *out)
{
	if (vendor != 0x1002)
		return false;
	/* a revision's own entry comes before its id's, as in the module */
	for (size_t i = 0; i < sizeof(pci_ids) / sizeof(pci_ids[0]); i++) {
		if (pci_ids[i].device == device &&
		    (!pci_ids[i].match_rev || pci_ids[i].revision == revision)) {
			*out = pci_ids[i].id;
			return true;
		}
	}
	return false;
}

const char *nb_asic_name_of_code(const char *code)
{
	for (size_t i = 0; code && i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (!strcmp(ranges[i].code, code))
			return ranges[i].name;
	return NULL;
}

/* As Mesa's ac_memory_ops_per_clock(): transfers per memory clock. */
unsigned int nb_vram_ops_per_clock(uint32_t t)
{
	switch (t) {
	case 1:			/* GDDR1 */
	case 2:			/* DDR2 */
	case 6:			/* HBM */
	case 7:			/* DDR3 */
	case 8:			/* DDR4 */
		return 2;
	case 3:			/* GDDR3 */
	case 4:			/* GDDR4 */
	case 5:			/* GDDR5 */
	case 10:		/* DDR5 */
		return 4;
	case 9:			/* GDDR6 */
		return 16;
	default:
		return 0;
	}
}

const char *nb_vram_type_name(uint32_t t)
{
	static const char *const names[] = {
		"unknown", "GDDR1", "DDR2", "GDDR3", "GDDR4", "GDDR5", "HBM",
		"DDR3", "DDR4", "GDDR6", "DDR5", "LPDDR4", "LPDDR5",
	};

	return t < sizeof(names) / sizeof(names[0]) ? names[t] : "unknown";
}
