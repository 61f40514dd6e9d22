/* SPDX-License-Identifier: MIT */
/*
 * ASIC identity from what the kernel reports in AMDGPU_INFO_DEV_INFO:
 * family and external revision (the way Mesa's amdgpu_id.h tells chips
 * apart), which works for device ids libdrm's amdgpu.ids does not list.
 */
#ifndef NAVIBENCH_ASIC_H
#define NAVIBENCH_ASIC_H

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

/* Memory transfers per memory clock of a VRAM type (AMDGPU_VRAM_TYPE_*),
 * 0 when unknown. */
unsigned int nb_vram_ops_per_clock(uint32_t vram_type);
/* "GDDR6" ..., "unknown". */
const char *nb_vram_type_name(uint32_t vram_type);

#endif /* NAVIBENCH_ASIC_H */
