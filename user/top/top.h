/* SPDX-License-Identifier: MIT */
/*
 * navibench top: a live view of every GPU and the processes using them.
 * The model (model.c) reads the devices through the sources table
 * (sources.h), gpu_metrics (throttle reasons), gauges.h (limits, GTT,
 * PCIe link), DRM fdinfo (fdinfo.h) and, for a GPU runtime's device, what
 * its plugin reported (plugin.h), and keeps each device's history;
 * the view (view.c) draws the model with ncurses, its layout computed from
 * the terminal's size; cmd/top.c holds the options, the keys and the loop.
 */
#ifndef NAVIBENCH_TOP_H
#define NAVIBENCH_TOP_H

#include <stdbool.h>
#include <stdint.h>

#include "devices/devices.h"
#include "devices/fdinfo.h"
#include "sources/gauges.h"
#include "devices/gpu_metrics.h"
#include "devices/plugin.h"
#include "print/print.h"
#include "sources/sources.h"

/* The history charts, one per device each. */
enum top_chart {
	TOP_CH_BUSY,	/* gpu_busy, % */
	TOP_CH_CLOCK,	/* sclk, MHz */
	TOP_CH_POWER,	/* power (average, else input), W */
	TOP_CH_TEMP,	/* the hottest of edge, junction, memory, C */
	TOP_CH_COUNT
};

#define TOP_SERIES 2048
#define TOP_REASONS 96

/* A chart's samples: CLOCK_MONOTONIC seconds and the value, oldest first. */
struct top_series {
	double t[TOP_SERIES];
	float v[TOP_SERIES];
	int head, n;
};

struct top_dev {
	struct nb_devent *e;		/* in the model's list; its runtime status kept current */
	struct nb_sensor_dev sd;
	struct nb_reading r[GT_S_COUNT];
	struct nb_limits lim;
	bool gm_ok;			/* gpu_metrics read this sample */
	const char *gm_why;		/* !gm_ok: why */
	int nreasons;			/* throttle reasons the blob can name */
	struct nb_throttle_reason reason[TOP_REASONS];
	/* from DRM fdinfo: its clients' busy shares summed, % */
	bool has_media;
	double media_pct;		/* dec + enc */
	int nprocs;
	struct top_series ser[TOP_CH_COUNT];
	bool from_history;		/* the charts began with the module's history */
	/* a GPU runtime's device (NB_DEV_PLUGIN): its plugin and what it reports; else NULL */
	const struct nb_gpu_plugin *gpu;
	const struct nb_plugin_device *gpu_dev;
};

#define TOP_CONTAINER_DIGITS 12	/* of a container's id, as the runtimes' tools show it */

/* One row of the process pane. */
struct top_proc {
	int pid;
	char user[32];
	char comm[32];
	int dev;			/* the device's index; -1 when navibench does not list it */
	bool has_busy;			/* false at the first scan */
	double busy[5];			/* gfx, compute, dma, dec, enc, % */
	bool has_vram, has_gtt;
	uint64_t vram, gtt;
	/* its container's id, its first digits (cgroup.h); "" none */
	char container[TOP_CONTAINER_DIGITS + 1];
};

/*
 * The process pane's columns, in order (the sort keys): the header, the
 * widest value (the column is as wide as the wider of the two; COMMAND's
 * 0: it takes the width left over) and whether it is left-aligned.
 */
#define TOP_COLUMNS(X)							\
	X(PID, "PID", 7, false)		/* pid_max is at most 4194304 */	\
	X(USER, "USER", 8, true)					\
	X(DEV, "DEV", 3, false)						\
	X(COMMAND, "COMMAND", 0, true)					\
	X(GFX, "GFX", 4, false)		/* "100%" */			\
	X(COMPUTE, "COMPUTE", 4, false)					\
	X(DMA, "DMA", 4, false)						\
	X(DEC, "DEC", 4, false)						\
	X(ENC, "ENC", 4, false)						\
	X(VRAM, "VRAM", NB_FMT_BYTES_WIDTH, false)			\
	X(GTT, "GTT", NB_FMT_BYTES_WIDTH, false)			\
	X(CONTAINER, "CONTAINER", TOP_CONTAINER_DIGITS, true)

#define TOP_COL_ENUM(id, name, width, left) TOP_COL_##id,
enum top_col { TOP_COLUMNS(TOP_COL_ENUM) TOP_COL_COUNT };
#undef TOP_COL_ENUM

struct top_column {
	const char *name;
	int width;			/* the widest value; 0: COMMAND's, the rest */
	bool left;
};
extern const struct top_column top_cols[TOP_COL_COUNT];
extern const char *const top_engines[5];

struct top_model {
	struct nb_devlist l;
	struct top_dev *dev;
	int n;
	bool cpu;			/* the CPU has a panel */
	/* processes */
	struct nb_proc_scan before;
	bool have_before;
	double t_before;
	struct top_proc *procs;
	int nprocs, unreadable;
	char error[200];		/* a read that failed: the loop stops; "" when none */
	double now;			/* the last sample's time */
};

/*
 * top_model_open() - scan the devices and open each one's sources: every
 * amdgpu, simulated and GPU-runtime device (a GPU plugin's), the CPU too
 * with cpu. Seeds the charts from the module's history where it reads the
 * device. 0 or an exit status (said on stderr).
 */
int top_model_open(struct top_model *m, bool cpu);

/*
 * top_model_sample() - one sample of every device and one scan of the
 * processes. false when a read failed that the view cannot go on
 * without (m->error says which).
 */
bool top_model_sample(struct top_model *m);

/* top_sort() - order the process rows by col (descending: rev). */
void top_sort(struct top_model *m, enum top_col col, bool rev);

void top_model_close(struct top_model *m);

/* CLOCK_MONOTONIC, seconds. */
double top_now(void);

/* The view's state, which the keys change. */
struct top_view {
	bool utf8;
	bool color;
	bool paused;
	bool help;
	bool show_devices, show_charts, show_procs;
	int select;			/* index into m->dev of the chosen device; -1: all */
	enum top_col sort;
	bool sort_rev;
	unsigned long interval_ms;
	double window_s;		/* the charts' time span */
	char status[120];		/* a line saying what a key did; "" */
};

/* top_view_init() - colours (when v->color) after ncurses started. */
void top_view_init(struct top_view *v);
/* top_draw() - the whole screen from m. */
void top_draw(const struct top_model *m, const struct top_view *v);

#endif /* NAVIBENCH_TOP_H */
