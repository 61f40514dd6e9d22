/* SPDX-License-Identifier: MIT */
/*
 * What a device did while a test ran: its clock, temperature and power,
 * sampled over the test's timed repeats, the energy it used and the
 * throttle reasons it reported.
 *
 * Where the samples come from, first that works:
 *
 *	history  the gputelemetry module's "history" file (root, module
 *	         loaded): the module samples in the kernel at its own
 *	         interval; navibench reads the window after the test, so
 *	         nothing runs beside the test
 *	sampler  a thread of navibench that reads the device's sources
 *	         (sources.h: libdrm_amdgpu, else hwmon and sysfs; for the CPU,
 *	         cpufreq, hwmon and RAPL) every interval
 *
 * Each sample has a CLOCK_MONOTONIC time, as the engine's timed window
 * (struct nb_stats begin, end). Power that a counter gives (RAPL) is the
 * counter's delta over the time since the previous sample. Energy over the
 * window: each sample's power times the part of the time since the
 * previous sample that lies in the window (exact for a counter's average
 * power; for a sampled power reading, a left Riemann sum).
 */
#ifndef NAVIBENCH_MONITOR_H
#define NAVIBENCH_MONITOR_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "sources/sources.h"

/* min, average and max of one reading over a window; n == 0: missing */
struct nb_tstat {
	int n;
	double min, avg, max;
};

#define NB_TELEM_SERIES_MAX 4096
#define NB_TELEM_REASONS 16

/* One sample as recorded; NaN where the reading is missing. */
struct nb_tsample {
	double t;		/* CLOCK_MONOTONIC seconds; in a series, from the run's start */
	double clock_mhz, temp_c, power_w;
};

/* One test's telemetry. */
struct nb_telemetry {
	bool ran;			/* false: off (why says so) */
	const char *method;		/* "history" or "sampler" */
	char source[200];		/* where the readings came from */
	double interval_s;		/* the sampling period */
	double window_s;		/* the timed repeats' duration */
	int samples;			/* in the window */
	struct nb_tstat clock_mhz, temp_c, power_w;
	double energy_j;		/* NaN: power unknown */
	/* the result per joule, value x window / energy: "frames/J"... */
	double per_joule;		/* NaN: energy unknown */
	char per_joule_unit[24];
	/* throttle reasons reported active at any sample (gpu_metrics) */
	bool throttle_known;
	int nreasons;
	char reasons[NB_TELEM_REASONS][24];
	double sampler_cpu_s;		/* the sampler thread's CPU time in the window */
	char missing[320];		/* what is missing and why; "" when nothing */
	/* the samples, t relative to the run's start */
	int nseries;
	struct nb_tsample *series;	/* malloc'd; nb_telemetry_free() */
};

struct nb_monitor;

/*
 * nb_monitor_start() - start recording device dev (a struct nb_device of
 * navibench.h, found again in the device list) every interval_ms (>= 10);
 * 0 turns telemetry off. t0 (CLOCK_MONOTONIC seconds) is the run's start,
 * time 0 of the series. Never fails: a device nothing can read gives
 * telemetry with every reading missing and the reason. NULL only when out
 * of memory.
 */
struct nb_monitor *nb_monitor_start(const struct nb_device *dev, long interval_ms, double t0);

/*
 * nb_monitor_window() - the telemetry over [begin, end] into out. value
 * and unit ("frames/s") are the test's result, for the result per joule.
 */
void nb_monitor_window(struct nb_monitor *m, double begin, double end, double value,
		       const char *unit, struct nb_telemetry *out);

/* nb_monitor_stop() - stop the sampler and free m (NULL is fine). */
void nb_monitor_stop(struct nb_monitor *m);

/* What out holds (malloc'd series). */
void nb_telemetry_free(struct nb_telemetry *t);

#endif /* NAVIBENCH_MONITOR_H */
