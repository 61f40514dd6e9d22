/* SPDX-License-Identifier: MIT */
/*
 * What navibench takes from amdgpu's gpu_metrics blob: the throttle masks,
 * named, the energy counter, in joules where its unit is known, and the
 * clocks and activities of NB_GM_READINGS.
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

/*
 * NB_GM_READINGS(X) - the clocks and activities of the blob beside those
 * GT_SENSORS reads elsewhere (sclk, mclk, gpu_busy, mem_busy), each a
 * reading of `sensors` and a Prometheus series: X(id, key, unit, family,
 * lname, lvalue, help)
 * @key:    the reading's name in `sensors`
 * @unit:   MHz or %, as the blob gives them
 * @family: the Prometheus family, without prefix and unit suffix
 * @lname:  its label's name, @lvalue its value
 * @help:   the family's help where it is new; NULL: another row's
 * Clocks are the current_* fields (1.0 to 1.3, 2.0 to 2.4; the APUs' 2.x
 * have one VCN: vclk0 and dclk0 are their current_vclk and current_dclk),
 * activities average_umc_activity (1.x) and average_mm_activity
 * (1.0 to 1.3, 2.x; 3.0's average_vcn_activity). MI300's per-instance
 * arrays (1.4, 1.5) are not taken. All ones: not provided, missing.
 */
#define NB_GM_READINGS(X)							\
	X(SOCCLK, "socclk", "MHz", "clock", "sensor", "socclk", NULL)		\
	X(FCLK, "fclk", "MHz", "clock", "sensor", "fclk", NULL)			\
	X(VCLK0, "vclk0", "MHz", "clock", "sensor", "vclk0", NULL)		\
	X(DCLK0, "dclk0", "MHz", "clock", "sensor", "dclk0", NULL)		\
	X(VCLK1, "vclk1", "MHz", "clock", "sensor", "vclk1", NULL)		\
	X(DCLK1, "dclk1", "MHz", "clock", "sensor", "dclk1", NULL)		\
	X(UMC_ACTIVITY, "umc_activity", "%", "engine_busy", "engine", "memory",	\
	  "Share of time a block was busy, 0 to 1, from gpu_metrics' average activity (label " \
	  "engine: memory, the memory controller (UMC); media, UVD or VCN).")	\
	X(MM_ACTIVITY, "mm_activity", "%", "engine_busy", "engine", "media", NULL)

#define NB_GM_ENUM(id, ...) NB_GM_##id,
enum nb_gm_reading {
	NB_GM_READINGS(NB_GM_ENUM)
	NB_GM_N
};
#undef NB_GM_ENUM

struct nb_gm_reading_def {
	const char *key, *unit;
};

extern const struct nb_gm_reading_def nb_gm_readings[NB_GM_N];

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
	bool has[NB_GM_N];		/* NB_GM_READINGS: in the layout, provided */
	uint16_t val[NB_GM_N];		/* in the row's unit */
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
