/* SPDX-License-Identifier: MIT */
/*
 * What navibench takes from amdgpu's gpu_metrics blob: the throttle masks,
 * named, and the energy counter, in joules where its unit is known.
 *
 * The names come from the one table the kernel module uses too,
 * module/uapi/gt_throttle.h (sources cited there). Offsets are those of
 * the layouts in module/gpu_metrics.h (Linux 6.1 and 6.12's
 * kgd_pp_interface.h), checked by the telemetry suite against that header.
 */
#ifndef NAVIBENCH_GPU_METRICS_H
#define NAVIBENCH_GPU_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Which SMU firmware interface wrote the blob, as far as it matters here. */
enum nb_smu {
	NB_SMU_OTHER,	/* throttle_status not named, indep bits reliable */
	NB_SMU_NAVI1X,	/* SMU 11.0.0/11.0.5/11.0.9: throttle_status named */
	NB_SMU_RDNA3,	/* SMU 13.0.0/13.0.7: the indep hotspot bit unreliable */
};

/* The SMU of an ASIC named as libdrm's nb_asic_lookup() ("Navi 14") or the
 * module ("navi14") names it. */
enum nb_smu nb_smu_of_asic(const char *asic_name);

struct nb_gpu_metrics {
	unsigned int frev, crev;	/* format and content revision */
	bool has_throttle;		/* throttle_status read (not all ones) */
	uint32_t throttle_status;
	bool has_indep;			/* indep_throttle_status read */
	uint64_t indep_throttle_status;
	bool has_energy;		/* energy_accumulator read */
	uint64_t energy_raw;
	unsigned int energy_bits;	/* 32 or 64: where the counter wraps */
	double energy_unit_j;		/* joules per count; 0 when not known */
};

/*
 * nb_gpu_metrics_parse() - the fields above from a blob of len bytes.
 * Returns 0, or -1 with *why set ("short", "unknown revision") for a blob
 * that is not decoded (too short for its revision, or a revision whose
 * layout is not known).
 */
int nb_gpu_metrics_parse(const void *blob, size_t len, struct nb_gpu_metrics *gm,
			 const char **why);

/*
 * nb_gpu_metrics_read() - the blob of the PCI device at sysdev (its sysfs
 * directory), parsed. Reading it resumes a runtime-suspended GPU, as any
 * amdgpu sensor file does: callers skip sleeping ones. Returns 0, or -1
 * with *why set.
 */
int nb_gpu_metrics_read(const char *sysdev, struct nb_gpu_metrics *gm, const char **why);

struct nb_throttle_reason {
	char name[24];		/* "ppt0", or "bit<N>" for a bit named nowhere */
	bool active;
	bool unreliable;	/* set, but this ASIC sets it when not throttling */
};

/*
 * nb_throttle_reasons() - every reason the blob can report for this SMU
 * (the indep table where the revision has the mask; the Navi 1x table for
 * throttle_status on Navi 1x), each once, active or not, then any set bit
 * that no table names. Returns the count written to out (at most max), or
 * 0 when the blob has no mask it can name.
 */
int nb_throttle_reasons(const struct nb_gpu_metrics *gm, enum nb_smu smu,
			struct nb_throttle_reason *out, int max);

/*
 * Energy over successive reads: the counter wraps at 2^energy_bits (and
 * restarts when the firmware does), so the total is summed from deltas
 * taken modulo the counter's width. The first read sets the base.
 */
struct nb_energy {
	bool have;
	uint64_t first;		/* the counter at the first read */
	uint64_t last;
	uint64_t total_raw;	/* counts since the first read */
};

void nb_energy_update(struct nb_energy *e, uint64_t raw, unsigned int bits);

#endif /* NAVIBENCH_GPU_METRICS_H */
