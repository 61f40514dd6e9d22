/* SPDX-License-Identifier: MIT */
/*
 * navibench run, inside: one run (struct run), shared by the files of the
 * command: run.c (options, the device and its backend, the tests, where the
 * result goes), run_print.c (the result in every format, from the same
 * print calls) and run_all.c (--device all: every GPU at once, and their
 * aggregate).
 */
#ifndef NAVIBENCH_CMD_RUN_H
#define NAVIBENCH_CMD_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "engine/engine.h"
#include "engine/system.h"
#include "sources/monitor.h"
#include "navibench.h"
#include "print/print.h"

#define RUN_SCHEMA_VERSION 3
#define RUN_ALL_SCHEMA_VERSION 1
/* --device all: at most this many devices at once */
#define NB_MAX_RUN_DEVICES 16

struct run {
	struct nb_device dev;
	const char *device_note;
	char note[1280];	/* device_note when made up here */
	const struct nb_backend_ops *ops;
	void *ctx;
	int ordinal;		/* GPU backends: the runtime's device */
	char open_err[256];	/* the backend did not open: why */
	char nocompute[1100];	/* no GPU backend for this GPU: why ("" when one) */
	const char *fix;	/* and what to do about it */
	int isa;
	long threads, batch, frames, seed;
	bool quick;
	const char *tests_arg, *weights_path;
	const char *textfile;	/* --textfile DIR */
	bool selected[NB_TEST_COUNT];
	struct nb_weights *weights;
	struct nb_test_result res[NB_TEST_COUNT];
	struct nb_telemetry telem[NB_TEST_COUNT];	/* of res[i] */
	int nres;
	long telemetry_ms;	/* --telemetry-interval; 0: off */
	double t0;		/* CLOCK_MONOTONIC at the run's start: the series' 0 */
	bool complete;		/* every selected test ran: not interrupted */
	double peak;		/* GFLOP/s for the percentages */
	const char *peak_from;
	char date[32];
	struct nb_system sys;	/* the "system" record */
	/* progress line */
	bool tty;
	int index, count;
};

/* The first SIGINT or SIGTERM of the run (run.c); 0 while none came. */
extern volatile sig_atomic_t run_stop_signal;

/* run.c */
bool run_select_backend(struct run *r, bool asked_cpu);
int run_backend_open(struct run *r);
void run_catch_stop(const sigset_t *old_mask);
void run_tests(struct run *r);
bool run_valid(const struct run *r);
int run_textfile_write(struct run *r, struct run *runs, int n, const char *note,
		       const char *date);

/* run_print.c */
const char *run_fmt_value(char *buf, size_t n, double v);
void run_emit(struct run *r, struct nb_print *p);

/* run_all.c */
int run_emit_all(struct run *runs, int n, const char *note, const char *date,
		 const struct nb_print_ops *fmt, const char *path, FILE *out);
int run_all(struct run *base, const struct cli_common *common, bool text);

#endif /* NAVIBENCH_CMD_RUN_H */
