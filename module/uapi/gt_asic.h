/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * gputelemetry: the ASIC table, PCI device id (and revision) of vendor
 * 0x1002 to ASIC name, family, gfx target, full-die CU count and product
 * name. One table for the kernel module (asic.c: the "info" file) and
 * navibench (user/devices/asic.c: a GPU's identity from its PCI ids alone,
 * so that it is the same whether the GPU is awake or runtime-suspended).
 *
 * Plain C with no includes, like gputelemetry.h: usable from kernel and
 * userspace alike. Marketing names follow libdrm's amdgpu.ids. An entry
 * of REV names one revision and comes before the ANY entry of its id,
 * which names the rest. An id missing here still works: the device is
 * then named by its ids.
 *
 * GT_ASIC_TABLE(ANY, REV):
 *   ANY(device_id, asic, family, gfx_target, cu_full)
 *   REV(device_id, revision, asic, family, gfx_target, cu_full, product)
 * asic: the ASIC's code name, lower case ("navi14"); family: "rdna1";
 * gfx_target: the LLVM/ROCm target ("gfx1012"); cu_full: compute units on
 * the full die.
 */
#ifndef _UAPI_GT_ASIC_H
#define _UAPI_GT_ASIC_H

#define GT_ASIC_TABLE(ANY, REV)						\
	/* Navi 14: 24 CUs on the full die */				\
	REV(0x7340, 0xc1, "navi14", "rdna1", "gfx1012", 24, "AMD Radeon RX 5500M")	\
	REV(0x7340, 0xc3, "navi14", "rdna1", "gfx1012", 24, "AMD Radeon RX 5300M")	\
	REV(0x7340, 0xc5, "navi14", "rdna1", "gfx1012", 24, "AMD Radeon RX 5500 XT")	\
	REV(0x7340, 0xc7, "navi14", "rdna1", "gfx1012", 24, "AMD Radeon RX 5500")	\
	REV(0x7340, 0xc9, "navi14", "rdna1", "gfx1012", 24, "AMD Radeon RX 5500XTB")	\
	REV(0x7340, 0xcf, "navi14", "rdna1", "gfx1012", 24, "AMD Radeon RX 5300")	\
	ANY(0x7340, "navi14", "rdna1", "gfx1012", 24)			\
	ANY(0x7341, "navi14", "rdna1", "gfx1012", 24)			\
	ANY(0x7347, "navi14", "rdna1", "gfx1012", 24)			\
	ANY(0x734f, "navi14", "rdna1", "gfx1012", 24)			\
	/* Navi 10 */							\
	REV(0x731f, 0xc1, "navi10", "rdna1", "gfx1010", 40, "AMD Radeon RX 5700 XT")	\
	REV(0x731f, 0xc4, "navi10", "rdna1", "gfx1010", 40, "AMD Radeon RX 5700")	\
	ANY(0x731f, "navi10", "rdna1", "gfx1010", 40)			\
	/* Navi 12 */							\
	ANY(0x7360, "navi12", "rdna1", "gfx1011", 40)			\
	/* RDNA 2 */							\
	ANY(0x73bf, "navi21", "rdna2", "gfx1030", 80)			\
	ANY(0x73df, "navi22", "rdna2", "gfx1031", 40)			\
	ANY(0x73ff, "navi23", "rdna2", "gfx1032", 32)			\
	ANY(0x743f, "navi24", "rdna2", "gfx1034", 16)			\
	/* RDNA 3 */							\
	ANY(0x744c, "navi31", "rdna3", "gfx1100", 96)			\
	ANY(0x747e, "navi32", "rdna3", "gfx1101", 60)			\
	ANY(0x7480, "navi33", "rdna3", "gfx1102", 32)			\
	/* GCN 5 */							\
	ANY(0x687f, "vega10", "gcn5", "gfx900", 64)			\
	REV(0x66af, 0xc1, "vega20", "gcn5", "gfx906", 64, "AMD Radeon VII")	\
	ANY(0x66af, "vega20", "gcn5", "gfx906", 64)			\
	/* GCN 4 */							\
	REV(0x67df, 0xe7, "polaris10", "gcn4", "gfx803", 36, "AMD Radeon RX 580 Series")	\
	ANY(0x67df, "polaris10", "gcn4", "gfx803", 36)			\
	ANY(0x67ef, "polaris11", "gcn4", "gfx803", 16)			\
	ANY(0x699f, "polaris12", "gcn4", "gfx803", 8)

#endif /* _UAPI_GT_ASIC_H */
