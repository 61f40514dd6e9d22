// SPDX-License-Identifier: MIT
/*
 * navibench run --device all: every GPU with a GPU backend at once, one
 * host thread each; a GPU that cannot compute reported as such; then the
 * aggregate of the devices that ran (schemas/run-all.schema.json).
 */
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "devices/devices.h"
#include "engine/engine.h"
#include "navibench.h"
#include "devices/plugin.h"
#include "print/print.h"
#include "cmd/run.h"

/* ---- --device all ---- */

static void *device_thread(void *arg)
{
	struct run *r = arg;

	if (!r->nocompute[0] && !run_backend_open(r))
		run_tests(r);
	return NULL;
}

static const char aggregate_method[] =
	"each test's result summed over the devices; every device ran the whole suite "
	"at the same time, one host thread each, so the sum is what they delivered "
	"together (null unless every device's result is valid)";

static const struct nb_test_result *result_of(const struct run *r, int id)
{
	for (int i = 0; i < r->nres; i++)
		if (r->res[i].test->id == (enum nb_test_id)id)
			return &r->res[i];
	return NULL;
}

/* One test over every device: the sum, each device's value, validity. */
static void aggregate_row(struct nb_print *p, const struct run *runs, int n, int id)
{
	double sum = 0;
	bool valid = true;
	char a[64], per[512];
	size_t o = 0;

	per[0] = '\0';
	for (int k = 0; k < n; k++) {
		const struct nb_test_result *t = result_of(&runs[k], id);
		double v = t ? t->value : NAN;

		if (runs[k].nocompute[0])
			continue;

		if (!t || t->error[0] || !t->valid.pass)
			valid = false;
		sum += v;
		if (o < sizeof(per))
			o += (size_t)snprintf(per + o, sizeof(per) - o, "%s%s", o ? " + " : "",
					      run_fmt_value(a, sizeof(a), v));
	}
	nb_record_begin(p, NULL);
	nb_cell_str(p, nb_test_get(id)->name);
	nb_cell_str(p, nb_test_get(id)->unit);
	nb_cell_dbl(p, valid ? sum : NAN, run_fmt_value(a, sizeof(a), valid ? sum : NAN));
	nb_cell_obj_begin(p, per);
	nb_arr_begin(p, "per_device", NULL);
	for (int k = 0; k < n; k++) {
		const struct nb_test_result *t = result_of(&runs[k], id);

		if (!runs[k].nocompute[0])
			nb_dbl(p, "value", NULL, t ? t->value : NAN, 6, NULL);
	}
	nb_arr_end(p);
	nb_obj_end(p);
	nb_cell(p, &(struct nb_value){ .type = NB_V_BOOL, .b = valid,
				       .text = valid ? "yes" : "NO" });
	nb_record_end(p);
}

static void emit_aggregate(struct nb_print *p, const struct run *runs, int n)
{
	static const struct nb_column acols[] = {
		{ "name", "Test", false },
		{ "unit", "Unit", false },
		{ "value", "Sum", true },
		{ "values", "Per device", false },
		{ "valid", "Valid", false },
	};

	nb_table_begin(p, "aggregate", acols, (int)(sizeof(acols) / sizeof(acols[0])));
	for (int id = 0; id < NB_TEST_COUNT; id++)
		if (runs[0].selected[id])
			aggregate_row(p, runs, n, id);
	nb_table_end(p);
}

/* One device's run, or why it did not run (no backend, or it did not open). */
static void emit_device(struct nb_print *p, struct run *r)
{
	nb_obj_begin(p, NULL, NULL);
	nb_text(p, "=== device %d (%s): %s", r->dev.index, r->dev.name, r->device_note);
	if (r->nocompute[0]) {
		nb_i64(p, "device_index", NULL, r->dev.index, NULL);
		nb_str(p, "kind", NULL, nb_device_kind_name(r->dev.kind));
		nb_str(p, "name", NULL, r->dev.name);
		nb_str(p, "error", NULL, "device cannot compute");
		nb_str(p, "reason", NULL, r->nocompute);
		nb_str(p, "fix", NULL, r->fix);
		nb_bool(p, "valid", NULL, false);
		nb_text(p, "NOT RUN: nothing here computes on this device; fix: %s", r->fix);
	} else if (r->open_err[0]) {
		nb_i64(p, "device_index", NULL, r->dev.index, NULL);
		nb_str(p, "name", NULL, r->dev.name);
		nb_str(p, "error", NULL, r->open_err);
		nb_bool(p, "valid", NULL, false);
		nb_text(p, "ERROR: the %s backend did not open: %s", r->ops->name, r->open_err);
	} else {
		nb_text(p, "backend: %s (%s)%s", r->ops->name, r->ops->describe(r->ctx),
			r->quick ? ", quick" : "");
		nb_text(p, "%s", "");
		run_emit(r, p);
	}
	nb_obj_end(p);
	nb_text(p, "%s", "");
}

/* The result of --device all in format fmt, to path, or to out when not NULL. */
int run_emit_all(struct run *runs, int n, const char *note, const char *date,
		    const struct nb_print_ops *fmt, const char *path, FILE *out)
{
	bool valid = true, complete = true;
	int nocompute = 0;
	struct nb_print *p = out ? nb_print_open_file(fmt, out, "run") :
		nb_print_open(fmt, path, "run");

	for (int k = 0; k < n; k++) {
		if (runs[k].nocompute[0]) {
			nocompute++;
			continue;
		}
		valid &= !runs[k].open_err[0] && run_valid(&runs[k]);
		complete &= runs[k].open_err[0] || runs[k].complete;
	}
	nb_str(p, "schema", NULL, "navibench-run-all");
	nb_i64(p, "schema_version", NULL, RUN_ALL_SCHEMA_VERSION, NULL);
	nb_str(p, "date", NULL, date);
	nb_bool(p, "complete", NULL, complete);
	nb_str(p, "note", NULL, note);
	nb_text(p, "navibench run --device all: %s", note);
	nb_text(p, "%s", "");
	nb_arr_begin(p, "runs", NULL);
	for (int k = 0; k < n; k++)
		emit_device(p, &runs[k]);
	nb_arr_end(p);
	nb_text(p, "=== all %d device%s together", n - nocompute, n - nocompute == 1 ? "" : "s");
	emit_aggregate(p, runs, n);
	nb_str(p, "aggregate_method", NULL, aggregate_method);
	nb_text(p, "Aggregate: %s.", aggregate_method);
	nb_bool(p, "valid", NULL, valid);
	nb_i64(p, "cannot_compute", NULL, nocompute, NULL);
	nb_text(p, "Result: %s", !complete ? "INTERRUPTED" :
		valid ? "all results valid" : "INVALID (see above)");
	if (nocompute)
		nb_text(p, "%d device%s could not compute (NOT RUN above): exit %d", nocompute,
			nocompute == 1 ? "" : "s", NB_EXIT_NOCOMPUTE);
	return nb_print_close(p) ? -1 : !valid ? 1 : nocompute ? NB_EXIT_NOCOMPUTE : 0;
}

/* --device all's note: the GPUs that compute, and those that cannot. */
static void all_note(struct run *runs, int n, int ngpu, char *note, size_t len)
{
	size_t o = 0;

	if (ngpu)
		o = (size_t)snprintf(note, len, "%d GPU%s at once, one host thread each:",
				     ngpu, ngpu == 1 ? "" : "s");
	else
		o = (size_t)snprintf(note, len, "no GPU with a backend (%s): the CPU only",
				     nb_plugins_notice()[0] ? nb_plugins_notice() :
				     "no plugin device");
	for (int k = 0, m = 0; k < n && o < len; k++) {
		if (runs[k].dev.plugin < 0)
			continue;
		o += (size_t)snprintf(note + o, len - o, "%s device %d (%s)", m++ ? "," : "",
				      runs[k].dev.index, runs[k].dev.name);
	}
	for (int k = 0; k < n && o < len; k++)
		if (runs[k].dev.kind != NB_DEV_CPU && runs[k].dev.plugin < 0)
			o += (size_t)snprintf(note + o, len - o, "; device %d (%s) cannot "
					      "compute", runs[k].dev.index, runs[k].dev.name);
}

/*
 * The devices --device all covers: every GPU, in the list's order; those
 * with a GPU backend run, the others are reported as unable to compute
 * (never run on the CPU under their name). Without a GPU that computes,
 * the CPU runs, under its own name.
 */
static int all_devices(struct run *runs, char *note, size_t len)
{
	struct nb_devlist l;
	int n = 0, ngpu = 0;

	if (nb_devices_scan(&l, 0))
		return -1;
	for (int i = 0; i < l.n && n < NB_MAX_RUN_DEVICES; i++) {
		if (l.dev[i].dev.kind == NB_DEV_CPU)
			continue;
		ngpu += l.dev[i].dev.plugin >= 0;
		runs[n++].dev = l.dev[i].dev;
	}
	if (!ngpu && n < NB_MAX_RUN_DEVICES)
		runs[n++].dev = l.dev[l.n - 1].dev;
	all_note(runs, n, ngpu, note, len);
	nb_devices_free(&l);
	return n;
}

/*
 * navibench run --device all: every device with a GPU backend at once, one
 * host thread each, each with its own backend context (nothing of a device
 * is shared between threads; the weights are read-only host memory);
 * without one, the CPU alone.
 */
int run_all(struct run *base, const struct cli_common *common, bool text)
{
	static struct run runs[NB_MAX_RUN_DEVICES];
	pthread_t th[NB_MAX_RUN_DEVICES];
	bool started[NB_MAX_RUN_DEVICES] = { false };
	sigset_t stop_set, old_mask;
	char note[1280], date[32];
	bool complete = true, nocompute = false;
	time_t now = time(NULL);
	struct tm tm;
	int n, rc = 0;

	n = all_devices(runs, note, sizeof(note));
	if (n < 0) {
		fprintf(stderr, "navibench run: out of memory listing devices\n");
		return NB_EXIT_FAIL;
	}
	for (int k = 0; k < n; k++) {
		struct nb_device dev = runs[k].dev;

		runs[k] = *base;
		runs[k].dev = dev;
		run_select_backend(&runs[k], false);
	}
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	/* each device's system record, read here before the threads start */
	for (int k = 0; k < n; k++) {
		char idx[16];

		snprintf(idx, sizeof(idx), "%d", runs[k].dev.index);
		nb_system_start(&runs[k].sys, runs[k].dev.pci, common->json ? idx : NULL);
	}
	/* the threads keep SIGINT and SIGTERM blocked: only this one takes them */
	sigemptyset(&stop_set);
	sigaddset(&stop_set, SIGINT);
	sigaddset(&stop_set, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop_set, &old_mask);
	for (int k = 0; k < n; k++) {
		if (runs[k].nocompute[0])
			continue;
		started[k] = !pthread_create(&th[k], NULL, device_thread, &runs[k]);
		if (!started[k])
			snprintf(runs[k].open_err, sizeof(runs[k].open_err),
				 "cannot start a thread for it");
	}
	run_catch_stop(&old_mask);
	for (int k = 0; k < n; k++)
		if (started[k])
			pthread_join(th[k], NULL);
	pthread_sigmask(SIG_BLOCK, &stop_set, NULL);
	for (int k = 0; k < n; k++)
		nb_system_end(&runs[k].sys);
	if (text)
		rc = run_emit_all(runs, n, note, date, nb_format_ops(NB_FORMAT_TEXT), NULL, NULL);
	if (common->json) {
		int jrc = run_emit_all(runs, n, note, date, nb_format_ops(NB_FORMAT_JSON),
				   common->json_path, NULL);

		rc = jrc ? jrc : rc;
	}
	if (base->textfile && run_textfile_write(NULL, runs, n, note, date))
		rc = -1;
	if (rc == NB_EXIT_NOCOMPUTE) {
		rc = 0;
		nocompute = true;
	}
	for (int k = 0; k < n; k++) {
		complete &= runs[k].open_err[0] || runs[k].nocompute[0] || runs[k].complete;
		if (runs[k].ctx)
			runs[k].ops->close(runs[k].ctx);
		runs[k].ctx = NULL;
		nb_system_free(&runs[k].sys);
		for (int i = 0; i < runs[k].nres; i++)
			nb_telemetry_free(&runs[k].telem[i]);
	}
	if (!complete && run_stop_signal)
		return 128 + run_stop_signal;
	return rc ? NB_EXIT_FAIL : nocompute ? NB_EXIT_NOCOMPUTE : NB_EXIT_OK;
}
