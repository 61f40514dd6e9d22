// SPDX-License-Identifier: MIT
/*
 * The Prometheus text format (exposition format 0.0.4) behind the print
 * interface: what `--format prometheus` prints and what `navibench
 * exporter` serves.
 *
 * Each device a record is about gives one navibench_device_info series
 * carrying its identity (and navibench_device_suspended), once however
 * many records are about it, and each record one series per reading it
 * has, labelled with the device's index and PCI address. Names follow
 * Prometheus' conventions: the prefix navibench_, base units in the name
 * (readings in mC, MHz, mW, mV and % are converted to degrees Celsius,
 * hertz, watts, volts and a 0..1 ratio), _total on counters. A missing
 * reading has no series, never 0. Text and tables are not metrics: they
 * are dropped. Notes (what could
 * not be read, and why) are comment lines at the top, "# navibench: ...":
 * a scrape then says itself what it lacks, parsers skip them, and the
 * exporter logs them when they change.
 *
 * Every reading is exported natively, amdgpu devices' too: no join with
 * node_exporter's hwmon collector is needed. With
 * nb_prom_no_hwmon_duplicates (exporter --no-hwmon-duplicates), what that
 * collector already exports for an amdgpu GPU (temperatures, power,
 * voltages, fan and PWM: amdgpu's hwmon files) is left out for amdgpu
 * devices, whichever source navibench read it from; the clocks stay
 * (node_exporter reads no freq* file); simulated GPUs have no hwmon
 * device, so all of theirs stay.
 *
 * The gputelemetry module's statistics (sensors' "gputelemetry_stats":
 * min, average and max of each reading over the module's sampler since
 * their last reset, an object per reading) become
 * navibench_sampler_<family>_<unit>{stat=}: what the module's sampler saw,
 * which neither Prometheus nor node_exporter sees between its scrapes.
 * They are exported for amdgpu devices too.
 *
 * One metric's series must be together under one # HELP and # TYPE, and
 * records come device by device; the series are therefore kept until the
 * end of the document and written family by family, in the order the
 * families first appeared.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gputelemetry.h"
#include "devices/gpu_metrics.h"
#include "print/print_ops.h"
#include "sources/gauges.h"

/* What a reading's unit becomes: the name's suffix and a factor. */
struct prom_unit {
	const char *unit;	/* as the reading gives it */
	const char *suffix;	/* base unit in the name */
	double scale;
};

static const struct prom_unit units[] = {
	{ "mC", "celsius", 1e-3 },
	{ "C", "celsius", 1 },
	{ "MHz", "hertz", 1e6 },
	{ "Hz", "hertz", 1 },
	{ "mW", "watts", 1e-3 },
	{ "W", "watts", 1 },
	{ "mV", "volts", 1e-3 },
	{ "V", "volts", 1 },
	{ "%", "ratio", 1e-2 },
	{ "pwm", "ratio", 1.0 / 255 },
	{ "B", "bytes", 1 },
	{ "B/s", "bytes_per_second", 1 },
	{ "ns", "seconds", 1e-9 },
	{ "s", "seconds", 1 },
	{ "uJ", "joules", 1e-6 },
	{ "mJ", "joules", 1e-3 },
	{ "J", "joules", 1 },
	{ "GT/s", "transfers_per_second", 1e9 },
	{ "lanes", "lanes", 1 },
	{ "rpm", "rpm", 1 },	/* node_exporter's name for fan speed too */
};

/*
 * The readings navibench knows, by key: the metric family, the label that
 * tells one sensor of the family from another, the help text, and whether
 * node_exporter's hwmon collector exports it for amdgpu GPUs. A reading
 * not listed is exported as navibench_<key>_<unit> with a generic help.
 */
struct prom_metric {
	const char *key;
	const char *family;	/* without the prefix and the unit */
	const char *sensor;	/* value of the "sensor" label; NULL: none */
	const char *help;
	bool hwmon;		/* in amdgpu's hwmon directory */
	const char *lname;	/* the label's name where not "sensor" */
};

/* The readings of GT_SENSORS (module/uapi/gputelemetry.h), then others. */
#define PROM_METRIC(id, key, unit, dir, file, div, drm, drm_mul, family, label, help, nodex) \
	{ key, family, label, help, nodex, NULL },

static const struct prom_metric metrics[] = {
	GT_SENSORS(PROM_METRIC)
	/* gpu_metrics (sensors.c, print_gpu_metrics()) */
	{ "throttled", "throttled", NULL,
	  "1 when the SMU throttles the GPU for a reason it reports reliably, else 0 (from "
	  "gpu_metrics' throttle_status).", false, NULL },
	{ "throttle_active", "throttle_active", NULL,
	  "A throttle reason the SMU reports active (label reason), value 1; an inactive reason "
	  "has no series. Reasons the ASIC sets even when idle are here but not in "
	  "navibench_throttled.", false, NULL },
	{ "energy", "energy", NULL,
	  "Energy the GPU used, from gpu_metrics' energy accumulator, where its unit is known; "
	  "resets when the accumulator wraps.", false, NULL },
	/* gpu_metrics' clocks and activities (devices/gpu_metrics.h) */
#define PROM_GM(id, key, unit, family, lname, lvalue, help) \
	{ key, family, lvalue, help, false, lname },
	NB_GM_READINGS(PROM_GM)
	/* the PCIe link, beside GT_SENSORS (sources/gauges.h) */
#define PROM_EXTRA(id, key, unit, file, info, div, family, label, help) \
	{ key, family, label, help, false, NULL },
	NB_EXTRAS(PROM_EXTRA)
	/* amdgpu's RAS counts (sources/gauges.h), labelled by block too */
#define PROM_RAS(id, tag, key, type)						\
	{ key, "ras_errors", type,							\
	  NB_RAS_##id ? NULL : "Errors amdgpu's RAS counted in a block of the GPU (label block: "	\
	  "umc is the VRAM's ECC) since the driver loaded, by type (uncorrectable, correctable, " \
	  "deferred), from ras/<block>_err_count; GPUs without RAS have no series.",	\
	  false, "type" },
	NB_RAS_TYPES(PROM_RAS)
	/* the exporter's PCIe sampler (sources/pcie_bw.h) */
	{ "pcie_received", "pcie_bandwidth", "received",
	  "PCIe throughput of the GPU over one second, received or sent (label direction), from "
	  "amdgpu's pcie_bw: messages x the maximum payload, an upper bound. Sampled in the "
	  "background (exporter --pcie-interval), not at the scrape.", false, "direction" },
	{ "pcie_sent", "pcie_bandwidth", "sent", NULL, false, "direction" },
};

#define PREFIX "navibench_"

bool nb_prom_no_hwmon_duplicates;

/*
 * What `info` prints that is a number worth graphing beside the readings:
 * its path in the record, the metric, a label and the factor to base
 * units. Every other member of a record is identity or text: left out.
 */
static const struct {
	const char *path;
	const char *name;
	const char *lname, *lvalue;
	double scale;
	const char *help;
} attrs[] = {
	{ "compute.active_cus", PREFIX "compute_units", "state", "active", 1,
	  "Compute units: active, and on the full die of the ASIC (label state)." },
	{ "compute.cus_full_die", PREFIX "compute_units", "state", "full_die", 1, NULL },
	{ "clocks.sclk_max_mhz", PREFIX "clock_max_hertz", "sensor", "sclk", 1e6,
	  "Highest clock of the engine (sclk) or memory (mclk)." },
	{ "clocks.mclk_max_mhz", PREFIX "clock_max_hertz", "sensor", "mclk", 1e6, NULL },
};

/*
 * The columns of `processes`' table (cmd/processes.c) that are series: a
 * row is one process's use of one device, labelled with the device's
 * identity (its record's) and the row's pid and comm. The busy
 * percentages are left out: they hold for the command's interval only,
 * where the engine-time counters give rate() over any window.
 */
static const struct {
	const char *key;
	const char *name;
	const char *lname, *lvalue;
	const char *help;
	bool counter;
} proc_cols[] = {
	{ "clients", PREFIX "process_drm_clients", NULL, NULL,
	  "DRM clients (open render or card files, each counted once) of the process.", false },
	{ "vram_bytes", PREFIX "process_memory_bytes", "region", "vram",
	  "Memory of the process's DRM clients resident in VRAM or GTT (label region).", false },
	{ "gtt_bytes", PREFIX "process_memory_bytes", "region", "gtt", NULL, false },
	{ "gfx_seconds", PREFIX "process_engine_seconds_total", "engine", "gfx",
	  "Time the process's jobs ran on a GPU engine (label engine), from DRM fdinfo; "
	  "rate() is the engine's busy share. An engine the process has not used has no series.",
	  true },
	{ "compute_seconds", PREFIX "process_engine_seconds_total", "engine", "compute", NULL,
	  true },
	{ "dma_seconds", PREFIX "process_engine_seconds_total", "engine", "dma", NULL, true },
	{ "dec_seconds", PREFIX "process_engine_seconds_total", "engine", "dec", NULL, true },
	{ "enc_seconds", PREFIX "process_engine_seconds_total", "engine", "enc", NULL, true },
};

struct prom_series {
	char *family;		/* full metric name */
	const char *help;	/* static */
	bool counter;
	char *labels;		/* {a="b",...} or "" */
	double value;
};

struct prom_state {
	struct prom_series *s;
	size_t n, cap;
	char **notes;
	size_t nnotes;
	char labels[512];	/* the current record's identity labels */
	struct {		/* the module's statistics of one reading */
		char key[32], unit[16];
		double v[3];	/* min, avg, max */
		bool has[3];
	} stat;
	bool amdgpu;		/* the current record is an amdgpu device */
	bool failed;
};

/*
 * Appends name="value" (escaped as the format wants) to buf (print.h). A
 * label that does not fit is left out, or its value cut, but it is always
 * closed: a label with no closing quote would make the whole scrape fail.
 */
void nb_prom_add_label(char *buf, size_t n, const char *name, const char *value)
{
	size_t used = strlen(buf);

	/* room for ,name="" and the NUL */
	if (!value || !*value || used + strlen(name) + 5 >= n)
		return;
	used += (size_t)snprintf(buf + used, n - used, "%s%s=\"", used ? "," : "", name);
	/* two bytes at most per character, then the quote and the NUL */
	for (const char *c = value; *c && used + 3 < n; c++) {
		if (*c == '\\' || *c == '"')
			buf[used++] = '\\', buf[used++] = *c;
		else if (*c == '\n')
			buf[used++] = '\\', buf[used++] = 'n';
		else
			buf[used++] = *c;
	}
	buf[used++] = '"';
	buf[used] = '\0';
}

static void add(struct prom_state *st, const char *family, const char *help, bool counter,
		const char *labels, double value)
{
	struct prom_series *x;

	if (st->n == st->cap) {
		size_t cap = st->cap ? st->cap * 2 : 64;
		struct prom_series *s = realloc(st->s, cap * sizeof(*s));

		if (!s) {
			st->failed = true;
			return;
		}
		st->s = s;
		st->cap = cap;
	}
	x = &st->s[st->n];
	x->family = strdup(family);
	x->labels = strdup(labels);
	if (!x->family || !x->labels) {
		free(x->family);
		free(x->labels);
		st->failed = true;
		return;
	}
	x->help = help;
	x->counter = counter;
	x->value = value;
	st->n++;
}

static int prom_begin(struct nb_print *p)
{
	p->priv = calloc(1, sizeof(struct prom_state));
	return p->priv ? 0 : -ENOMEM;
}

static void prom_free(struct nb_print *p)
{
	struct prom_state *st = p->priv;

	if (!st)
		return;
	for (size_t i = 0; i < st->n; i++) {
		free(st->s[i].family);
		free(st->s[i].labels);
	}
	for (size_t i = 0; i < st->nnotes; i++)
		free(st->notes[i]);
	free(st->notes);
	free(st->s);
	free(st);
	p->priv = NULL;
}

/* Writes the value as Prometheus reads it: shortest exact form, no locale. */
void nb_prom_put_value(FILE *f, double v)
{
	if (isnan(v))
		fputs("NaN", f);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", f);
	else if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.15g", v);
}

static int prom_end(struct nb_print *p)
{
	struct prom_state *st = p->priv;
	bool *done;
	int rc = 0;

	if (!st)
		return 0;
	done = calloc(st->n + 1, sizeof(*done));
	if (!done || st->failed) {
		free(done);
		prom_free(p);
		return -ENOMEM;
	}
	for (size_t i = 0; i < st->nnotes; i++)
		fprintf(p->out, "# navibench: %s\n", st->notes[i]);
	/* Family by family, in order of first appearance. */
	for (size_t i = 0; i < st->n; i++) {
		if (done[i])
			continue;
		fprintf(p->out, "# HELP %s %s\n# TYPE %s %s\n", st->s[i].family,
			st->s[i].help ? st->s[i].help : "A navibench reading.", st->s[i].family,
			st->s[i].counter ? "counter" : "gauge");
		for (size_t j = i; j < st->n; j++) {
			if (done[j] || strcmp(st->s[j].family, st->s[i].family))
				continue;
			done[j] = true;
			fprintf(p->out, "%s%s%s%s ", st->s[j].family, *st->s[j].labels ? "{" : "",
				st->s[j].labels, *st->s[j].labels ? "}" : "");
			nb_prom_put_value(p->out, st->s[j].value);
			fputc('\n', p->out);
		}
	}
	free(done);
	if (ferror(p->out))
		rc = -EIO;
	prom_free(p);
	return rc;
}

/* Inside `processes`' table: its rows are processes, not devices. */
static bool in_processes(const struct nb_print *p)
{
	for (int i = 1; i <= p->depth; i++)
		if (p->frame[i].level == NB_L_TABLE && p->frame[i].key &&
		    !strcmp(p->frame[i].key, "processes"))
			return true;
	return false;
}

/* Whether the document has a series of family with exactly these labels. */
static bool has_series(const struct prom_state *st, const char *family, const char *labels)
{
	for (size_t i = 0; i < st->n; i++)
		if (!strcmp(st->s[i].family, family) && !strcmp(st->s[i].labels, labels))
			return true;
	return false;
}

/*
 * A device's identity, once per document however many records are about
 * it (a device of sensors, a row of processes): navibench_device_info
 * with every identity label, and navibench_device_suspended where the
 * device has runtime power management, so that a GPU asleep (its
 * driver's readings absent, as navibench does not wake it) is told from
 * one that is broken. labels are the record's: device and pci_address.
 */
static void prom_identity(struct prom_state *st, const struct nb_print_device *id)
{
	char info[1024];

	snprintf(info, sizeof(info), "%s", st->labels);
	nb_prom_add_label(info, sizeof(info), "kind", id->kind);
	nb_prom_add_label(info, sizeof(info), "name", id->name);
	nb_prom_add_label(info, sizeof(info), "asic", id->asic);
	nb_prom_add_label(info, sizeof(info), "gfx_target", id->gfx_target);
	if (has_series(st, PREFIX "device_info", info))
		return;
	add(st, PREFIX "device_info", "A device navibench reads: its identity in labels, value 1.",
	    false, info, 1);
	if (id->runtime_status)
		add(st, PREFIX "device_suspended", "1 when the device is runtime-suspended "
		    "(asleep: navibench does not wake it, so the readings that would wake it are "
		    "absent), else 0; devices with runtime power management only.", false,
		    st->labels, !strcmp(id->runtime_status, "suspended"));
}

static void prom_record_begin(struct nb_print *p, const struct nb_print_device *id)
{
	struct prom_state *st = p->priv;
	char index[16];

	st->labels[0] = '\0';
	st->amdgpu = false;
	if (!id)
		return;
	snprintf(index, sizeof(index), "%d", id->index);
	nb_prom_add_label(st->labels, sizeof(st->labels), "device", index);
	nb_prom_add_label(st->labels, sizeof(st->labels), "pci_address", id->pci_address);
	st->amdgpu = id->kind && !strcmp(id->kind, "amdgpu");
	prom_identity(st, id);
}

static void prom_record_end(struct nb_print *p)
{
	struct prom_state *st = p->priv;

	st->labels[0] = '\0';
	st->amdgpu = false;
}

static const struct prom_unit *find_unit(const char *unit)
{
	for (size_t i = 0; unit && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(units[i].unit, unit))
			return &units[i];
	return NULL;
}

static const struct prom_metric *find_metric(const char *key)
{
	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++)
		if (!strcmp(metrics[i].key, key))
			return &metrics[i];
	return NULL;
}

/* The help of a family: that of its first entry in metrics[]. */
static const char *family_help(const char *family)
{
	for (size_t i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++)
		if (!strcmp(metrics[i].family, family) && metrics[i].help)
			return metrics[i].help;
	return NULL;
}

static double number(const struct nb_value *v, bool *ok)
{
	*ok = true;
	switch (v->type) {
	case NB_V_INT:
		return (double)v->i;
	case NB_V_UINT:
		return (double)v->u;
	case NB_V_DBL:
		return v->d;
	case NB_V_BOOL:
		return v->b ? 1 : 0;
	default:
		*ok = false;
		return 0;
	}
}

/* Metric names allow [a-zA-Z0-9_:]; anything else in a key becomes '_'. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			*s = '_';
}

static void prom_reading(struct nb_print *p, const struct nb_value *v)
{
	struct prom_state *st = p->priv;
	const struct prom_metric *m;
	const struct prom_unit *u;
	char name[160], labels[640];
	bool ok, counter = v->kind == NB_KIND_COUNTER;
	double x = number(v, &ok);

	if (!ok || !v->key || isnan(x))
		return;	/* missing: no series */
	m = find_metric(v->key);
	if (m && m->hwmon && st->amdgpu && nb_prom_no_hwmon_duplicates)
		return;	/* node_exporter's hwmon collector has it */
	u = find_unit(v->unit);
	snprintf(name, sizeof(name), PREFIX "%s%s%s%s", m ? m->family : v->key,
		 u ? "_" : "", u ? u->suffix : "", counter ? "_total" : "");
	sanitize(name);
	snprintf(labels, sizeof(labels), "%s", st->labels);
	if (m && m->sensor)
		nb_prom_add_label(labels, sizeof(labels), m->lname ? m->lname : "sensor",
				  m->sensor);
	if (v->lname)
		nb_prom_add_label(labels, sizeof(labels), v->lname, v->lvalue);
	add(st, name, m ? family_help(m->family) : NULL, counter, labels, u ? x * u->scale : x);
}

/*
 * A cell of `processes`' table: pid, command and the container's runtime,
 * id and pod UID become the row's labels (they come first), and
 * pci_address where the record has no device; the
 * columns of proc_cols[] are its series.
 */
static void prom_cell(struct nb_print *p, int col, const struct nb_value *v)
{
	struct prom_state *st = p->priv;
	char labels[640], num[24];
	bool ok;
	double x;

	(void)col;
	if (!v->key || !in_processes(p) || v->type == NB_V_MISSING)
		return;
	if (!strcmp(v->key, "pid") && v->type == NB_V_INT) {
		snprintf(num, sizeof(num), "%lld", (long long)v->i);
		nb_prom_add_label(st->labels, sizeof(st->labels), "pid", num);
		return;
	}
	/* a device navibench does not list: its address, from the row */
	if (!strcmp(v->key, "pci_address") && v->type == NB_V_STR) {
		if (!strstr(st->labels, "pci_address="))
			nb_prom_add_label(st->labels, sizeof(st->labels), "pci_address", v->s);
		return;
	}
	if (!strcmp(v->key, "command") && v->type == NB_V_STR) {
		nb_prom_add_label(st->labels, sizeof(st->labels), "comm", v->s);
		return;
	}
	/* the container and pod: labels where the process is in one */
	if ((!strcmp(v->key, "container_runtime") || !strcmp(v->key, "container_id") ||
	     !strcmp(v->key, "pod_uid")) && v->type == NB_V_STR) {
		nb_prom_add_label(st->labels, sizeof(st->labels), v->key, v->s);
		return;
	}
	x = number(v, &ok);
	for (size_t i = 0; ok && !isnan(x) && i < sizeof(proc_cols) / sizeof(proc_cols[0]); i++) {
		const char *help = NULL;

		if (strcmp(proc_cols[i].key, v->key))
			continue;
		/* the help of the family: that of its first column */
		for (size_t j = 0; j <= i && !help; j++)
			if (!strcmp(proc_cols[j].name, proc_cols[i].name))
				help = proc_cols[j].help;
		snprintf(labels, sizeof(labels), "%s", st->labels);
		if (proc_cols[i].lname)
			nb_prom_add_label(labels, sizeof(labels), proc_cols[i].lname, proc_cols[i].lvalue);
		add(st, proc_cols[i].name, help, proc_cols[i].counter, labels, x);
		return;
	}
}


/* Inside the module's statistics ("gputelemetry_stats")? */
static bool in_stats(const struct nb_print *p)
{
	for (int i = 1; i <= p->depth; i++)
		if (p->frame[i].key && !strcmp(p->frame[i].key, "gputelemetry_stats"))
			return true;
	return false;
}

/* A member of info's that attrs[] lists: one series. */
static void prom_attr(struct nb_print *p, const struct nb_value *v)
{
	struct prom_state *st = p->priv;
	char path[128], labels[640];
	const char *help = NULL;
	bool ok;
	double x = number(v, &ok);

	if (!ok || !nb_print_path(p, v->key, path, sizeof(path)))
		return;
	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		if (attrs[i].help)
			help = attrs[i].help;
		if (strcmp(attrs[i].path, path))
			continue;
		snprintf(labels, sizeof(labels), "%s", st->labels);
		if (attrs[i].lname)
			nb_prom_add_label(labels, sizeof(labels), attrs[i].lname, attrs[i].lvalue);
		add(st, attrs[i].name, help, false, labels, x * attrs[i].scale);
		return;
	}
}

/* A member: the module's statistics, or one of info's numbers (attrs[]). */
static void prom_field(struct nb_print *p, const struct nb_value *v)
{
	static const char *const stats[] = { "min", "avg", "max" };
	struct prom_state *st = p->priv;
	bool ok;
	double x;

	if (!v->key)
		return;
	if (!in_stats(p)) {
		prom_attr(p, v);
		return;
	}
	/* each reading's statistics are an object under its key */
	if (nb_print_top(p)->level == NB_L_OBJECT && nb_print_top(p)->key)
		snprintf(st->stat.key, sizeof(st->stat.key), "%s", nb_print_top(p)->key);
	if (!strcmp(v->key, "unit") && v->type == NB_V_STR) {
		snprintf(st->stat.unit, sizeof(st->stat.unit), "%s", v->s);
		return;
	}
	x = number(v, &ok);
	for (int i = 0; i < 3 && ok; i++) {
		if (!strcmp(v->key, stats[i])) {
			st->stat.v[i] = x;
			st->stat.has[i] = true;
		}
	}
}

/* The end of one reading's statistics: its min, avg and max series. */
static void prom_group_end(struct nb_print *p)
{
	static const char *const stats[] = { "min", "avg", "max" };
	struct prom_state *st = p->priv;
	const struct prom_metric *m;
	const struct prom_unit *u;
	char name[160], labels[640];

	if (!st->stat.key[0] || !in_stats(p) || nb_print_top(p)->level != NB_L_OBJECT)
		return;
	m = find_metric(st->stat.key);
	u = find_unit(st->stat.unit);
	snprintf(name, sizeof(name), PREFIX "sampler_%s%s%s", m ? m->family : st->stat.key,
		 u ? "_" : "", u ? u->suffix : "");
	sanitize(name);
	for (int i = 0; i < 3; i++) {
		if (!st->stat.has[i])
			continue;
		snprintf(labels, sizeof(labels), "%s", st->labels);
		if (m && m->sensor)
			nb_prom_add_label(labels, sizeof(labels), m->lname ? m->lname : "sensor",
					  m->sensor);
		nb_prom_add_label(labels, sizeof(labels), "stat", stats[i]);
		add(st, name, "The gputelemetry module's sampler: the reading's min, avg or max "
		    "(label stat) since its statistics were last reset.", false, labels,
		    u ? st->stat.v[i] * u->scale : st->stat.v[i]);
	}
	memset(&st->stat, 0, sizeof(st->stat));
}

static void prom_note(struct nb_print *p, const char *msg)
{
	struct prom_state *st = p->priv;
	char **notes = realloc(st->notes, (st->nnotes + 1) * sizeof(*notes));
	char *m = strdup(msg);

	if (!notes || !m) {
		free(m);
		if (notes)
			st->notes = notes;
		st->failed = true;
		return;
	}
	for (char *c = m; *c; c++)
		if (*c == '\n')
			*c = ' ';
	st->notes = notes;
	st->notes[st->nnotes++] = m;
}

const struct nb_print_ops nb_print_prometheus_ops = {
	.name = "prometheus",
	.no_stream = "an exposition holds each series once, so samples cannot follow each "
		     "other in one",
	.begin = prom_begin,
	.end = prom_end,
	.discard = prom_free,
	.record_begin = prom_record_begin,
	.record_end = prom_record_end,
	.reading = prom_reading,
	.field = prom_field,
	.cell = prom_cell,
	.group_end = prom_group_end,
	.note = prom_note,
};
