// SPDX-License-Identifier: MIT
/*
 * navibench sensors: live readings of a GPU, or of every GPU (--all), each
 * tagged with its source. The sources and their order are a table in
 * sources/ (sources.h); --source picks some. A reading no source gives is
 * missing, never 0.
 *
 * A runtime-suspended GPU is not woken (libdrm ioctls and hwmon reads
 * resume it) unless --wake is given; the module's readings still show.
 */
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "devices/devices.h"
#include "devices/gpu_metrics.h"
#include "devices/gtfs.h"
#include "navibench.h"
#include "print/print.h"
#include "cmd/sensors.h"
#include "sources/gauges.h"
#include "sources/pcie_bw.h"
#include "sources/sources.h"

/* Options. */
static bool opt_watch, opt_wake, opt_all;
static unsigned long opt_interval = 1000;
static long opt_count;
static int opt_source;

static const struct cli_option sensors_opts[] = {
	CLI_FLAG_OPT("all", 'a', &opt_all, "every device with sensors (amdgpu and simulated GPUs)"),
	CLI_FLAG_OPT("watch", 'w', &opt_watch,
		     "keep sampling: a live view on a terminal, one record per sample otherwise"),
	CLI_DURATION_OPT("interval", 'i', &opt_interval, 50, 3600000,
			 "time between samples with --watch (default 1s)"),
	CLI_INT_OPT("count", 'n', &opt_count, "N", 1, 100000000,
		    "stop after N samples (default: until Ctrl-C)"),
	CLI_CHOICE_TABLE_OPT("source", 's', &opt_source, "SRC", nb_source_choices,
			     "where readings come from (default auto: the first that answers)"),
	CLI_FLAG_OPT("wake", 0, &opt_wake, "read a runtime-suspended GPU anyway (wakes it up)"),
	CLI_OPT_END
};

static const struct cli_spec sensors_spec = {
	.name = "sensors",
	.summary = "Show a GPU's live readings (temperatures, clocks, power, voltages, fan, load,\n"
		   "VRAM), each with where it came from: libdrm_amdgpu, hwmon/sysfs or the\n"
		   "gputelemetry module. A reading none of them gives is shown as missing.",
	.common = CLI_DEVICE | CLI_FORMAT | CLI_JSON,
	.options = sensors_opts,
	.epilog = "With --watch on a terminal (text, one device) the view refreshes in place,\n"
		  "with a sparkline of recent values and min/max; Ctrl-C quits and restores\n"
		  "the terminal. Otherwise one record per device and sample: a line of text,\n"
		  "a JSON object per line (JSON Lines) or a CSV row under one header; not in\n"
		  "the Prometheus format (an exposition holds each series once: the exporter\n"
		  "serves readings over time). A runtime-suspended GPU is not woken unless\n"
		  "--wake is given. JSON Schemas and CSV columns: navibench(1), Output.",
};

/* The devices read together, and their sources. */
struct set {
	struct nb_devlist l;
	struct nb_sensor_dev *dev;	/* one per device read */
	struct nb_energy *energy;	/* one per device: the counter over a --watch */
	int n;
};

/* ---- formatting ---- */

/* Text value in display units ("61.0 C", "118.0 W", "1.50 GiB"). */
static void fmt_value(int s, int64_t v, char *buf, size_t n)
{
	const char *unit = gtfs_sensor_defs[s].unit;

	if (!strcmp(unit, "mC"))
		snprintf(buf, n, "%.1f C", (double)v / 1000);
	else if (!strcmp(unit, "mW"))
		snprintf(buf, n, "%.1f W", (double)v / 1000);
	else if (!strcmp(unit, "B"))
		nb_fmt_bytes(buf, n, (uint64_t)v);
	else if (!strcmp(unit, "pwm"))
		snprintf(buf, n, "%lld/255", (long long)v);
	else
		snprintf(buf, n, "%lld %s", (long long)v, unit);
}

/*
 * The CSV columns of a record (print.h, nb_print_columns()), whatever the
 * device reads: the time, the device, every reading by key (a labelled
 * reading's set in one field) and gpu_metrics' raw values. The module's
 * statistics are in JSON and Prometheus only.
 */
static const char *const id_columns[] = {
	"time", "device.index", "device.kind", "device.name", "device.pci", "device.asic",
	"device.gfx_target", "device.runtime_status", "asleep",
};
static const char *const gm_columns[] = {
	"throttled", "throttle_active", "energy", "gpu_metrics.format_revision",
	"gpu_metrics.content_revision", "gpu_metrics.throttle_status",
	"gpu_metrics.indep_throttle_status", "gpu_metrics.energy_accumulator",
};
#define N_ID (sizeof(id_columns) / sizeof(id_columns[0]))
#define N_GM (sizeof(gm_columns) / sizeof(gm_columns[0]))
static const char *columns[N_ID + GT_S_COUNT + N_GM + NB_GM_N + NB_X_COUNT + NB_RAS_N + 1];

static void declare_columns(struct nb_print *p)
{
	size_t n = 0;

	for (size_t i = 0; i < N_ID; i++)
		columns[n++] = id_columns[i];
	for (int s = 0; s < GT_S_COUNT; s++)
		columns[n++] = gtfs_sensor_defs[s].key;
	for (size_t i = 0; i < N_GM; i++)
		columns[n++] = gm_columns[i];
	for (int i = 0; i < NB_GM_N; i++)
		columns[n++] = nb_gm_readings[i].key;
	for (int i = 0; i < NB_X_COUNT; i++)
		columns[n++] = nb_extra_defs[i].key;
	for (int t = 0; t < NB_RAS_N; t++)
		columns[n++] = nb_ras_types[t].key;
	columns[n++] = "ras.features";
	nb_print_columns(p, columns, (int)n);
}

static void print_sensor_readings(struct nb_print *p, const struct nb_sensor_dev *d,
				  const struct nb_reading r[GT_S_COUNT])
{
	for (int s = 0; s < GT_S_COUNT; s++) {
		char text[64];
		struct nb_value v = {
			.key = gtfs_sensor_defs[s].key,
			.unit = gtfs_sensor_defs[s].unit,
			.kind = NB_KIND_GAUGE,
			.type = r[s].valid ? NB_V_INT : NB_V_MISSING,
			.i = r[s].v,
			.source = r[s].src ? r[s].src->name : NULL,
			.why = d->use ? "no source gives it" : "no source",
		};

		if (r[s].valid) {
			fmt_value(s, r[s].v, text, sizeof(text));
			v.text = text;
		}
		nb_reading(p, &v);
	}
}

/* The widest key of GT_SENSORS: the key column of the tables in text. */
static int key_width(void)
{
	int w = 0;

	for (int s = 0; s < GT_S_COUNT; s++) {
		int n = (int)strlen(gtfs_sensor_defs[s].key);

		if (n > w)
			w = n;
	}
	return w;
}

static void print_gt_stats(struct nb_print *p, const struct nb_sensor_dev *d)
{
	struct gtfs_stat st[GT_S_COUNT];
	uint64_t since;

	if (!(d->use & (1u << NB_SRC_GT)) || gtfs_stats(d->e->gt_name, st, &since)) {
		nb_missing(p, "gputelemetry_stats", NULL, "the gputelemetry module does not read "
			   "this device, or its statistics are not readable");
		return;
	}
	nb_text(p, "%s", "");
	nb_obj_begin(p, "gputelemetry_stats", NULL);
	nb_u64(p, "since_ns", NULL, since, NULL);
	nb_text(p, "gputelemetry statistics since %.3f s (monotonic):", (double)since / 1e9);
	nb_obj_begin(p, "readings", NULL);
	for (int s = 0; s < GT_S_COUNT; s++) {
		char a[32], b[32], c[32];

		if (!st[s].valid)
			continue;
		nb_obj_begin(p, gtfs_sensor_defs[s].key, NULL);
		nb_i64(p, "min", NULL, st[s].min, NULL);
		nb_i64(p, "avg", NULL, st[s].avg, NULL);
		nb_i64(p, "max", NULL, st[s].max, NULL);
		nb_str(p, "unit", NULL, gtfs_sensor_defs[s].unit);
		nb_u64(p, "samples", NULL, st[s].samples, NULL);
		fmt_value(s, st[s].min, a, sizeof(a));
		fmt_value(s, st[s].avg, b, sizeof(b));
		fmt_value(s, st[s].max, c, sizeof(c));
		nb_text(p, "  %-*s min %-10s avg %-10s max %-10s (%llu samples)", key_width(),
			gtfs_sensor_defs[s].key, a, b, c, (unsigned long long)st[s].samples);
		nb_obj_end(p);
	}
	nb_obj_end(p);
	nb_obj_end(p);
}

/* What amdgpu's gpu_metrics gave for one sample of a device, read once. */
struct gm_sample {
	bool ok;
	struct nb_gpu_metrics gm;
	const char *why;	/* !ok: why there is none */
};

/*
 * gm_read() - the device's gpu_metrics blob, not read while the GPU sleeps
 * (reading it wakes the GPU) and not there for other kinds of device.
 */
static void gm_read(const struct nb_sensor_dev *d, struct gm_sample *g)
{
	g->ok = false;
	if (d->e->dev.kind != NB_DEV_AMDGPU)
		g->why = "no gpu_metrics: not an amdgpu device";
	else if (d->asleep)
		g->why = "gpu_metrics not read while the GPU sleeps (reading it wakes it)";
	else
		g->ok = !nb_gpu_metrics_read(d->e->drm.sysdev, &g->gm, &g->why);
}

/*
 * The energy reading: joules where the unit is known, else missing and
 * why. With acc (--watch), the counter's first value plus every later
 * read's delta taken modulo its width: it keeps growing across a wrap.
 */
static void energy_reading(struct nb_print *p, const struct gm_sample *g, struct nb_energy *acc)
{
	const struct nb_gpu_metrics *gm = &g->gm;
	char why[128], text[48];
	struct nb_value v = { .key = "energy", .unit = "J", .kind = NB_KIND_COUNTER,
			      .source = "gpu_metrics", .type = NB_V_MISSING, .why = why };
	uint64_t raw = gm->energy_raw;

	if (!g->ok) {
		v.why = g->why;
	} else if (!gm->has_energy) {
		snprintf(why, sizeof(why), "not in this GPU's gpu_metrics %u.%u", gm->frev, gm->crev);
	} else if (!gm->energy_unit_j) {
		snprintf(why, sizeof(why), "unit not stated for gpu_metrics %u.%u: raw %llu in JSON",
			 gm->frev, gm->crev, (unsigned long long)gm->energy_raw);
	} else {
		if (acc) {
			nb_energy_update(acc, gm->energy_raw, gm->energy_bits);
			raw = acc->first + acc->total_raw;
		}
		v.type = NB_V_DBL;
		v.d = raw * gm->energy_unit_j;
		v.prec = 3;
		snprintf(text, sizeof(text), "%.3f J", v.d);
		v.text = text;
	}
	nb_reading(p, &v);
}

/*
 * gpu_metrics' clocks and activities (NB_GM_READINGS): each always there,
 * missing, and why, where the blob does not give it.
 */
static void gm_readings(struct nb_print *p, const struct gm_sample *g)
{
	char why[96];

	if (g->ok)
		snprintf(why, sizeof(why), "not given by this GPU's gpu_metrics %u.%u", g->gm.frev,
			 g->gm.crev);
	for (int i = 0; i < NB_GM_N; i++) {
		bool has = g->ok && g->gm.has[i];

		nb_reading(p, &(struct nb_value){ .key = nb_gm_readings[i].key,
			   .unit = nb_gm_readings[i].unit, .kind = NB_KIND_GAUGE,
			   .type = has ? NB_V_INT : NB_V_MISSING, .i = has ? g->gm.val[i] : 0,
			   .source = has ? "gpu_metrics" : NULL, .why = g->ok ? why : g->why });
	}
}

/*
 * Throttling, from gpu_metrics' masks: "throttled" (0 or 1: any reliable
 * reason active; missing where no mask can be named) and a labelled
 * "throttle_active" per active reason (one the ASIC sets when idle is
 * marked, and not counted).
 */
static void throttle_readings(struct nb_print *p, const struct nb_sensor_dev *d,
			      const struct gm_sample *g)
{
	struct nb_throttle_reason r[96];
	bool throttled = false;
	char why[96];
	int n = 0;

	if (g->ok)
		n = nb_throttle_reasons(&g->gm, nb_smu_of_asic(d->asic ? d->asic : d->e->asic),
					r, 96);
	for (int i = 0; i < n; i++)
		throttled |= r[i].active && !r[i].unreliable;
	if (g->ok)
		snprintf(why, sizeof(why), "no throttle mask this navibench can name in gpu_metrics "
			 "%u.%u", g->gm.frev, g->gm.crev);
	nb_reading(p, &(struct nb_value){ .key = "throttled", .type = n ? NB_V_INT : NB_V_MISSING,
		   .i = throttled, .kind = NB_KIND_GAUGE, .source = "gpu_metrics",
		   .why = g->ok ? why : g->why });
	for (int i = 0; i < n; i++)
		if (r[i].active)
			nb_reading(p, &(struct nb_value){ .key = "throttle_active", .type = NB_V_INT,
				   .i = 1, .kind = NB_KIND_GAUGE, .source = "gpu_metrics",
				   .lname = "reason", .lvalue = r[i].name,
				   .text = r[i].unreliable ? "1 (unreliable: set when idle)" : NULL });
}


/*
 * The PCIe link, beside GT_SENSORS (sources/gauges.h, NB_EXTRAS): an
 * amdgpu device's from sysfs, asleep or not (reading it does not wake the
 * GPU), a simulated GPU's from the module; missing, with why, elsewhere.
 */
static void extra_readings(struct nb_print *p, const struct nb_sensor_dev *d)
{
	struct nb_extra_reading r[NB_X_COUNT];

	nb_extras_read(d->e, r);
	for (int i = 0; i < NB_X_COUNT; i++) {
		const struct nb_extra_def *x = &nb_extra_defs[i];
		struct nb_value v = { .key = x->key, .unit = x->unit, .kind = NB_KIND_GAUGE,
				      .type = NB_V_MISSING, .why = r[i].why,
				      .source = r[i].source };

		if (r[i].valid && !x->div) {
			v.type = NB_V_DBL;
			v.d = r[i].gts;
			v.prec = 1;
		} else if (r[i].valid) {
			v.type = NB_V_INT;
			v.i = r[i].i;
		}
		nb_reading(p, &v);
	}
}

/*
 * amdgpu's RAS counts (sources/gauges.h, NB_RAS_TYPES): a counter per
 * block and type, a set per type labelled by block; none for a GPU
 * without RAS (the "ras" member says why).
 */
static void ras_readings(struct nb_print *p, const struct nb_ras *ras)
{
	for (int t = 0; t < NB_RAS_N; t++)
		for (int b = 0; b < ras->n; b++)
			if (ras->block[b].has[t])
				nb_reading(p, &(struct nb_value){ .key = nb_ras_types[t].key,
					   .type = NB_V_UINT, .u = ras->block[b].count[t],
					   .kind = NB_KIND_COUNTER, .source = "sysfs",
					   .lname = "block", .lvalue = ras->block[b].name });
}

/* ras/features' mask, as read; null, with why, without a ras directory. */
static void print_ras_raw(struct nb_print *p, const struct nb_ras *ras)
{
	if (!ras->present) {
		nb_missing(p, "ras", NULL, ras->why);
		return;
	}
	nb_obj_begin(p, "ras", NULL);
	if (ras->has_features)
		nb_u64(p, "features", NULL, ras->features, NULL);
	else
		nb_missing(p, "features", NULL, NULL);
	nb_obj_end(p);
}

/*
 * PCIe throughput (sources/pcie_bw.h): only where the exporter's sampler
 * runs and has a recent sample of this GPU; else no reading at all, as
 * reading pcie_bw here would take a second per GPU.
 */
static void pcie_bw_readings(struct nb_print *p, const struct nb_sensor_dev *d)
{
	double rx, tx;

	if (d->e->dev.kind != NB_DEV_AMDGPU || d->asleep ||
	    !nb_pcie_bw_get(d->e->drm.sysdev, &rx, &tx))
		return;
	nb_reading(p, &(struct nb_value){ .key = "pcie_received", .unit = "B/s", .type = NB_V_DBL,
		   .d = rx, .kind = NB_KIND_GAUGE, .source = "pcie_bw" });
	nb_reading(p, &(struct nb_value){ .key = "pcie_sent", .unit = "B/s", .type = NB_V_DBL,
		   .d = tx, .kind = NB_KIND_GAUGE, .source = "pcie_bw" });
}

/* gpu_metrics' raw masks and counter, as read; null when none. */
static void print_gm_raw(struct nb_print *p, const struct gm_sample *g)
{
	if (!g->ok) {
		nb_missing(p, "gpu_metrics", NULL, g->why);
		return;
	}
	nb_obj_begin(p, "gpu_metrics", NULL);
	nb_u64(p, "format_revision", NULL, g->gm.frev, NULL);
	nb_u64(p, "content_revision", NULL, g->gm.crev, NULL);
	if (g->gm.has_throttle)
		nb_u64(p, "throttle_status", NULL, g->gm.throttle_status, NULL);
	else
		nb_missing(p, "throttle_status", NULL, NULL);
	if (g->gm.has_indep)
		nb_u64(p, "indep_throttle_status", NULL, g->gm.indep_throttle_status, NULL);
	else
		nb_missing(p, "indep_throttle_status", NULL, NULL);
	if (g->gm.has_energy)
		nb_u64(p, "energy_accumulator", NULL, g->gm.energy_raw, NULL);
	else
		nb_missing(p, "energy_accumulator", NULL, NULL);
	nb_obj_end(p);
}

/*
 * The device's identity as a member "device" (JSON, CSV); label: its index's
 * in text (a stream's "device=N"; NULL: not in text).
 */
static void print_device_obj(struct nb_print *p, const struct nb_devent *e, const char *label)
{
	struct nb_print_device id;

	nb_device_print_id(e, &id);
	nb_obj_begin(p, "device", NULL);
	nb_i64(p, "index", label, id.index, NULL);
	nb_str(p, "kind", NULL, id.kind);
	nb_str(p, "name", NULL, id.name);
	nb_str(p, "pci", NULL, id.pci_address);
	nb_str(p, "asic", NULL, id.asic);
	nb_str(p, "gfx_target", NULL, id.gfx_target);
	nb_str(p, "runtime_status", NULL, id.runtime_status);
	nb_obj_end(p);
}

/*
 * One device, one sample: a record, the same in a snapshot and in a
 * stream (--watch, stream true: the time and the index are in its text
 * line, and energy is the counter over the stream, acc).
 */
static void print_record(struct nb_print *p, struct nb_sensor_dev *d, struct nb_energy *acc,
			 bool stream, bool first)
{
	const struct nb_devent *e = d->e;
	struct nb_reading r[GT_S_COUNT];
	struct nb_print_device id;
	struct nb_ras ras;
	struct gm_sample g;

	nb_sensor_sample(d, r);
	gm_read(d, &g);
	nb_ras_read(d, &ras);
	nb_device_print_id(e, &id);
	nb_record_begin(p, &id);
	nb_time(p, "time", stream ? "time" : NULL);
	if (!first)
		nb_text(p, "%s", "");
	nb_text(p, "device %d: %s%s%s%s", e->dev.index, e->dev.name, e->dev.pci[0] ? " (" : "",
		e->dev.pci, e->dev.pci[0] ? ")" : "");
	print_device_obj(p, e, stream ? "device" : NULL);
	nb_bool(p, "asleep", NULL, d->asleep);
	if (d->asleep)
		nb_text(p, "runtime-suspended: not woken (--wake reads libdrm_amdgpu and hwmon)");
	nb_text(p, "%s", "");
	nb_readings_begin(p, "readings", NULL);
	print_sensor_readings(p, d, r);
	throttle_readings(p, d, &g);
	energy_reading(p, &g, acc);
	gm_readings(p, &g);
	extra_readings(p, d);
	ras_readings(p, &ras);
	pcie_bw_readings(p, d);
	nb_readings_end(p);
	print_gm_raw(p, &g);
	print_ras_raw(p, &ras);
	print_gt_stats(p, d);
	nb_record_end(p);
}

/* ---- the set of devices ---- */

static bool has_sensors(const struct nb_devent *e)
{
	return e->dev.kind == NB_DEV_AMDGPU || e->dev.kind == NB_DEV_SIM;
}

/*
 * set_open() - scan and open the sources of the devices to read: every one
 * with sensors (all), or e. The sources' notes go to p.
 */
static int set_open(struct set *s, struct nb_print *p, const struct nb_devent *only,
		    unsigned int mask, unsigned int flags)
{
	int n = 0;

	s->dev = calloc((size_t)s->l.n, sizeof(*s->dev));
	s->energy = calloc((size_t)s->l.n, sizeof(*s->energy));
	if (!s->dev || !s->energy) {
		fprintf(stderr, "navibench sensors: out of memory\n");
		return NB_EXIT_FAIL;
	}
	if (s->l.gt_note[0] && (mask & (1u << NB_SRC_GT)))
		nb_note(p, "%s", s->l.gt_note);
	for (int i = 0; i < s->l.n; i++) {
		const struct nb_devent *e = &s->l.dev[i];

		if (only ? e != only : !has_sensors(e))
			continue;
		nb_sensor_open(&s->dev[n], e, mask, flags);
		for (int k = 0; k < s->dev[n].nnotes; k++)
			nb_note(p, "%s", s->dev[n].note[k]);
		n++;
	}
	s->n = n;
	return NB_EXIT_OK;
}

static void set_close(struct set *s)
{
	for (int i = 0; i < s->n; i++)
		nb_sensor_close(&s->dev[i]);
	free(s->dev);
	free(s->energy);
	s->energy = NULL;
	s->dev = NULL;
	s->n = 0;
	nb_devices_free(&s->l);
}

/* One sample of every device of the set: in an array "devices" with --all. */
static void print_set(struct nb_print *p, struct set *s, bool all)
{
	if (all) {
		nb_time(p, "time", NULL);
		nb_arr_begin(p, "devices", NULL);
	}
	for (int i = 0; i < s->n; i++)
		print_record(p, &s->dev[i], NULL, false, i == 0);
	if (all)
		nb_arr_end(p);
}

int nb_sensors_snapshot(struct nb_print *p, unsigned int flags)
{
	struct set s;
	int rc;

	memset(&s, 0, sizeof(s));
	if (nb_devices_scan(&s.l, flags & NB_SENSORS_WAKE ? NB_SCAN_WAKE : 0))
		return NB_EXIT_FAIL;
	declare_columns(p);
	rc = set_open(&s, p, NULL, nb_source_mask(0), flags);
	if (!rc) {
		print_set(p, &s, true);
		if (!s.n)
			rc = NB_EXIT_NODEV;
	}
	set_close(&s);
	return rc;
}

/* ---- watch ---- */

#define HIST 32

struct series {
	int64_t v[HIST];
	bool ok[HIST];
	int n, head;
	bool any;
	int64_t min, max;
};

static void series_add(struct series *se, bool ok, int64_t v)
{
	se->v[se->head] = v;
	se->ok[se->head] = ok;
	se->head = (se->head + 1) % HIST;
	if (se->n < HIST)
		se->n++;
	if (!ok)
		return;
	if (!se->any || v < se->min)
		se->min = v;
	if (!se->any || v > se->max)
		se->max = v;
	se->any = true;
}

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void sparkline(const struct series *se, bool utf8, char *out, size_t n)
{
	static const char *const blocks[] = { "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█" };
	static const char ascii[] = "_.-:=+*#";
	int64_t lo = 0, hi = 0;
	bool first = true;
	size_t used = 0;

	for (int i = 0; i < se->n; i++) {
		int k = (se->head - se->n + i + HIST) % HIST;

		if (!se->ok[k])
			continue;
		if (first || se->v[k] < lo)
			lo = se->v[k];
		if (first || se->v[k] > hi)
			hi = se->v[k];
		first = false;
	}
	out[0] = '\0';
	for (int i = 0; i < se->n && used + 4 < n; i++) {
		int k = (se->head - se->n + i + HIST) % HIST;
		int level = 0;

		if (se->ok[k] && hi > lo)
			level = (int)((se->v[k] - lo) * 7 / (hi - lo));
		else if (se->ok[k])
			level = 3;
		if (!se->ok[k])
			used += (size_t)snprintf(out + used, n - used, " ");
		else if (utf8)
			used += (size_t)snprintf(out + used, n - used, "%s", blocks[level]);
		else
			used += (size_t)snprintf(out + used, n - used, "%c", ascii[level]);
	}
}

static void sleep_ms(unsigned long ms)
{
	struct timespec ts = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000L };

	/* a signal ends the sleep early: stop is checked right after */
	nanosleep(&ts, NULL);
}

static void draw_frame(const struct nb_sensor_dev *d, const struct nb_reading r[GT_S_COUNT],
		       struct series *se, bool utf8, long k)
{
	const struct nb_devent *e = d->e;

	printf("\033[H");
	printf("navibench sensors: device %d, %s  (every %lu ms, sample %ld; Ctrl-C quits)\033[K\n\033[K\n",
	       e->dev.index, e->dev.name, opt_interval, k);
	printf("%-*s %14s %14s %14s  %-*s  %s\033[K\n", key_width(), "READING", "VALUE", "MIN",
	       "MAX", HIST, "HISTORY", "SOURCE");
	for (int s = 0; s < GT_S_COUNT; s++) {
		char v[32] = "missing", mn[32] = "-", mx[32] = "-", sp[HIST * 4 + 1];

		if (r[s].valid)
			fmt_value(s, r[s].v, v, sizeof(v));
		if (se[s].any) {
			fmt_value(s, se[s].min, mn, sizeof(mn));
			fmt_value(s, se[s].max, mx, sizeof(mx));
		}
		sparkline(&se[s], utf8, sp, sizeof(sp));
		printf("%-*s %14s %14s %14s  %s%*s  %s\033[K\n", key_width(), gtfs_sensor_defs[s].key,
		       v, mn, mx, sp, HIST - se[s].n, "", r[s].valid ? r[s].src->name : "-");
	}
	printf("\033[J");
	fflush(stdout);
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* The live view of one device on a terminal, until Ctrl-C or --count. */
static int watch_live(struct nb_sensor_dev *d)
{
	struct series se[GT_S_COUNT];
	struct nb_reading r[GT_S_COUNT];
	bool utf8;
	long k = 0;

	memset(se, 0, sizeof(se));
	setlocale(LC_CTYPE, "");
	utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");

	/* Seed the history with the module's recent samples, when it keeps them. */
	if (d->use & (1u << NB_SRC_GT)) {
		struct gtfs_sample *h = calloc(HIST, sizeof(*h));
		int n = h ? gtfs_history(d->e->gt_name, h, HIST - 1, NULL) : 0;

		for (int i = 0; i < n; i++)
			for (int s = 0; s < GT_S_COUNT; s++)
				series_add(&se[s], h[i].r[s].valid, h[i].r[s].v);
		free(h);
	}
	printf("\033[?1049h\033[?25l");	/* alternate screen, hide cursor */
	while (!stop) {
		nb_sensor_sample(d, r);
		k++;
		for (int s = 0; s < GT_S_COUNT; s++)
			series_add(&se[s], r[s].valid, r[s].v);
		draw_frame(d, r, se, utf8, k);
		if (opt_count && k >= opt_count)
			break;
		sleep_ms(opt_interval);
	}
	printf("\033[?25h\033[?1049l");	/* cursor back, main screen back */
	fflush(stdout);
	return NB_EXIT_OK;
}

/*
 * One record per device and sample, as a snapshot's. p is a stream
 * (nb_print_stream()).
 */
static int watch_stream(struct nb_print *p, struct set *s)
{
	long k = 0;

	while (!stop) {
		k++;
		for (int i = 0; i < s->n; i++)
			print_record(p, &s->dev[i], s->energy ? &s->energy[i] : NULL, true, i == 0);
		nb_print_flush(p);
		if (opt_count && k >= opt_count)
			break;
		sleep_ms(opt_interval);
	}
	return NB_EXIT_OK;
}

/* sensors --device DEV: that device, which must have sensors. */
static int find_one(struct set *s, const char *spec, const struct nb_devent **out)
{
	struct nb_devent *e;
	int rc = nb_devices_find(&s->l, spec, "sensors", &e);

	if (rc)
		return rc;
	if (!has_sensors(e)) {
		fprintf(stderr, "navibench sensors: device %d is %s, which has no GPU sensors; %s\n",
			e->dev.index, e->dev.kind == NB_DEV_CPU ? "the CPU" : "a HIP device",
			s->l.n == 1 ? "no AMD GPU found" : "pick an amdgpu or sim device");
		nb_devices_explain(&s->l, stderr);
		return NB_EXIT_NODEV;
	}
	*out = e;
	return NB_EXIT_OK;
}

static int no_gpu(struct set *s)
{
	fprintf(stderr, "navibench sensors: no device has GPU sensors: no AMD GPU found\n");
	nb_devices_explain(&s->l, stderr);
	return NB_EXIT_NODEV;
}

static int cmd_sensors(int argc, char **argv)
{
	const struct nb_devent *only = NULL;
	const char *why;
	unsigned int flags;
	bool watch, live;
	struct cli_common cc;
	struct nb_print *p;
	struct set s;
	int rc = cli_parse(&sensors_spec, argc, argv, &cc);

	if (rc != CLI_CONTINUE)
		return rc;
	if (opt_all && cc.device_given)
		return cli_usage_error("sensors", "--all reads every device; it cannot go with "
				       "--device: give one of them");
	flags = opt_wake ? NB_SENSORS_WAKE : 0;
	memset(&s, 0, sizeof(s));
	if (nb_devices_scan(&s.l, opt_wake ? NB_SCAN_WAKE : 0))
		return NB_EXIT_FAIL;
	rc = opt_all ? NB_EXIT_OK : find_one(&s, cc.device, &only);
	if (rc) {
		set_close(&s);
		return rc;
	}
	watch = opt_watch || opt_count > 1;
	live = watch && !opt_all && nb_format_live(cc.format) && isatty(STDOUT_FILENO);
	if (watch && !live && !nb_format_streams(cc.format, &why)) {
		set_close(&s);
		return cli_usage_error("sensors", "--format %s cannot go with --watch (or --count "
				       "above 1): %s; for readings over time, let Prometheus scrape "
				       "'navibench exporter', or run 'navibench exporter --textfile' "
				       "from a timer", nb_format_name(cc.format), why);
	}
	p = nb_print_open(cc.format, cc.json_path, "sensors");
	declare_columns(p);
	if (watch && !live)
		nb_print_stream(p);
	rc = set_open(&s, p, only, nb_source_mask(opt_source), flags);
	if (!rc && !s.n)
		rc = no_gpu(&s);
	if (rc) {
		nb_print_discard(p);
		set_close(&s);
		return rc;
	}
	if (watch) {
		catch_signals();
		if (live)
			rc = watch_live(&s.dev[0]);
		else
			rc = watch_stream(p, &s);
	} else {
		print_set(p, &s, opt_all);
	}
	if (nb_print_close(p) && !rc)
		rc = NB_EXIT_FAIL;
	set_close(&s);
	return rc;
}

const struct nb_command nb_cmd_sensors = {
	.name = "sensors",
	.summary = "live readings (clocks, temperatures, power), --watch for a view",
	.run = cmd_sensors,
};
