/* SPDX-License-Identifier: MIT */
/*
 * ASIC identity from what the kernel reports in AMDGPU_INFO_DEV_INFO:
 * family and external revision (the way Mesa's amdgpu_id.h tells chips
 * apart), which works for device ids libdrm's amdgpu.ids does not list.
 */
#ifndef NAVIBENCH_ASIC_H
#define NAVIBENCH_ASIC_H

#include <stdbool.h>
#include <stdint.h>

struct nb_asic {
	const char *name;	/* "Navi 14", for people */
	/*
	 * "navi14": the code name, lowercase without spaces, as the gputelemetry
	 * module writes it (and amdgpu's amdgpu_asic_name[], lowercased, for the
	 * ASICs that table names); what identifies the ASIC in
	 * machine output (Prometheus' asic label, info's asic.code), the same
	 * for amdgpu and simulated devices.
	 */
	const char *code;
	const char *gfx;	/* LLVM target, "gfx1012" */
	const char *family;	/* "NV" */
	int gfx_major;		/* 10 for RDNA 1 and 2, 11 for RDNA 3, 9 GCN 5 ... */
};

/* Returns the ASIC, or one whose name, code and gfx are NULL when unknown
 * (family still named when known). */
struct nb_asic nb_asic_lookup(uint32_t family, uint32_t external_rev);

/*
 * What a PCI device is by its ids alone (module/uapi/gt_asic.h, the table
 * the gputelemetry module uses too): no ioctl, no file of the device, so
 * a runtime-suspended GPU is named without waking it.
 */
struct nb_asic_id {
	const char *code;	/* "navi14" */
	const char *gfx;	/* "gfx1012" */
	const char *family;	/* "rdna1" */
	unsigned int cu_full;	/* compute units on the full die */
	const char *product;	/* "AMD Radeon RX 5500 XT"; NULL when the revision does not say */
};

/*
 * nb_asic_of_pci() - the table's entry for this revision, else for the
 * device id; false when the id is not in the table (or not AMD's).
 */
bool nb_asic_of_pci(unsigned int vendor, unsigned int device, unsigned int revision,
		    struct nb_asic_id *out);

/* The name for people of an ASIC code ("navi14": "Navi 14"); NULL when not known. */
const char *nb_asic_name_of_code(const char *code);

/* Memory transfers per memory clock of a VRAM type (AMDGPU_VRAM_TYPE_*),
 * 0 when unknown. */
unsigned int nb_vram_ops_per_clock(uint32_t vram_type);
/* "GDDR6" ..., "unknown". */
const char *nb_vram_type_name(uint32_t vram_type);

#endif /* NAVIBENCH_ASIC_H */
