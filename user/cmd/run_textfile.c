// SPDX-License-Identifier: MIT
/*
 * navibench run --textfile DIR: the run's result as Prometheus metrics for
 * node_exporter's textfile collector, so that a fleet's results land in
 * the Prometheus that already scrapes its machines.
 *
 * Read from the JSON result (engine/result-schema.md), as every export of
 * a result is, with the readers of result.h: a malformed document is
 * refused with the field named, and nothing is written.
 *
 * One file per device, DIR/navibench-run-<device index>.prom, written
 * atomically (nb_write_file_atomic()): a later run on the device replaces
 * its file whole, and a run on another device never touches it. The
 * families are navibench_run_*, none of the exporter's (print/prometheus.c):
 * the textfile collector fails the whole scrape when two files hold the
 * same series, and the exporter's own textfile may sit in the same
 * directory; so no navibench_device_info here, the identity is in
 * navibench_run_info. Names as the exporter's: base units in the name
 * (GFLOP/s become flop_per_second, x 1e9), every family a gauge with HELP
 * and TYPE, a missing value no series (never 0).
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "navibench.h"
#include "print/print.h"
#include "cmd/result.h"
#include "cmd/run_textfile.h"

#define FILE_PREFIX "navibench-run-"
#define MAX_DEVICES 64

enum fam {
	F_INFO, F_TIME, F_VALID, F_COMPLETE, F_SCORE,
	F_FPS, F_FLOPS, F_BPS, F_TVALID, F_TSTANDARD, F_TSCORE,
	F_CLOCK, F_TEMP, F_POWER, F_ENERGY, F_EFF_FRAMES, F_EFF_FLOP, F_EFF_BYTES, F_THROTTLE,
	F_COUNT
};

#define P "navibench_run_"
static const struct {
	const char *name, *help;
} fams[F_COUNT] = {
	[F_INFO] = { P "info", "The last navibench run on the device: its identity, backend, "
		     "reference, navibench version and --quick in labels, value 1." },
	[F_TIME] = { P "timestamp_seconds", "When the run started (its date), as Unix time." },
	[F_VALID] = { P "valid", "1 when every test of the run ran and passed validation, else 0." },
	[F_COMPLETE] = { P "complete", "0 when the run was interrupted, else 1." },
	[F_SCORE] = { P "score", "The run's composite score (1000 = the reference device)." },
	[F_FPS] = { P "result_frames_per_second", "A model test's result (label test)." },
	[F_FLOPS] = { P "result_flop_per_second", "A test's result in FLOP/s (label test)." },
	[F_BPS] = { P "result_bytes_per_second", "A test's result in bytes/s (label test)." },
	[F_TVALID] = { P "test_valid", "1 when the test ran and passed validation, else 0." },
	[F_TSTANDARD] = { P "test_standard", "1 when the test ran in its standard configuration "
			  "(no --batch, --frames): its result is comparable, else 0." },
	[F_TSCORE] = { P "test_score", "The test's score (1000 = the reference device's result)." },
	[F_CLOCK] = { P "clock_hertz", "The device's clock during the test's timed repeats (a GPU's "
		      "engine clock, the CPU's mean core clock): min, avg or max (label stat)." },
	[F_TEMP] = { P "temperature_celsius", "The device's temperature (a GPU's edge, the CPU "
		     "package's) during the test's timed repeats: min, avg or max (label stat)." },
	[F_POWER] = { P "power_watts", "The device's power (the CPU package's, from RAPL) during "
		      "the test's timed repeats: min, avg or max (label stat)." },
	[F_ENERGY] = { P "energy_joules", "The energy the device used during the test's timed "
		       "repeats." },
	[F_EFF_FRAMES] = { P "efficiency_frames_per_joule", "A model test's frames per joule "
			   "of the device's energy." },
	[F_EFF_FLOP] = { P "efficiency_flop_per_joule", "A test's FLOP per joule of the "
			 "device's energy." },
	[F_EFF_BYTES] = { P "efficiency_bytes_per_joule", "A test's bytes moved per joule of "
			  "the device's energy." },
	[F_THROTTLE] = { P "throttle_seen", "A throttle reason the device reported during the "
			 "test's timed repeats (label reason), value 1; none seen: no series." },
};
#undef P

/* A result's unit (bench.c's, and the telemetry's per joule) and its family. */
static const struct {
	const char *unit;
	enum fam fam;
	double scale;
} units[] = {
	{ "frames/s", F_FPS, 1 }, { "GFLOP/s", F_FLOPS, 1e9 }, { "GB/s", F_BPS, 1e9 },
	{ "frames/J", F_EFF_FRAMES, 1 }, { "GFLOP/J", F_EFF_FLOP, 1e9 }, { "GB/J", F_EFF_BYTES, 1e9 },
};

struct series {
	enum fam fam;
	char labels[1024];
	double value;
};

/* One device's series, then its file's text. */
struct device_metrics {
	long index;
	struct series *s;
	size_t n, cap;
	char *text;
	size_t len;
};

struct doc {
	struct nb_reader rd;
	struct device_metrics dev[MAX_DEVICES];
	int ndev;
};

/* One series of the device being read; a NaN value has none. */
static void add(struct doc *d, enum fam fam, const char *labels, double value)
{
	struct device_metrics *m = &d->dev[d->ndev - 1];

	if (isnan(value) || d->rd.bad)
		return;
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 32;
		struct series *s = realloc(m->s, cap * sizeof(*s));

		if (!s) {
			nb_reader_bad(&d->rd, "out of memory");
			return;
		}
		m->s = s;
		m->cap = cap;
	}
	m->s[m->n].fam = fam;
	snprintf(m->s[m->n].labels, sizeof(m->s[m->n].labels), "%s", labels);
	m->s[m->n++].value = value;
}

/* Whether the device being read has this series already. */
static bool have(struct doc *d, enum fam fam, const char *labels)
{
	const struct device_metrics *m = &d->dev[d->ndev - 1];

	for (size_t i = 0; i < m->n; i++)
		if (m->s[i].fam == fam && !strcmp(m->s[i].labels, labels))
			return true;
	return false;
}

/* labels with one more name="value", in out. */
static const char *with(char *out, size_t n, const char *labels, const char *name,
			const char *value)
{
	snprintf(out, n, "%s", labels);
	nb_prom_add_label(out, n, name, value);
	return out;
}

/* where.key, for the fields of an object inside where (cut to n bytes: a name only). */
static const char *field(char *out, size_t n, const char *where, const char *key)
{
	if ((size_t)snprintf(out, n, "%s%s%s", where, *where ? "." : "", key) >= n)
		out[n - 1] = '\0';
	return out;
}

static double boolean(struct doc *d, struct json_object *o, const char *where, const char *key)
{
	bool b = nb_json_bool(&d->rd, o, where, key);

	return d->rd.bad ? NAN : b;
}

/* "2026-11-29T16:31:30Z" as Unix time; NaN after naming the field. */
static double unix_time(struct doc *d, const char *date, const char *where)
{
	struct tm tm = { 0 };
	int end = 0;

	if (!date)
		return NAN;
	if (sscanf(date, "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &end) != 6 || date[end] ||
	    tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
	    tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 60) {
		nb_reader_bad(&d->rd, "field %s: '%s' is not a UTC date as run writes it "
			      "(2026-11-29T16:31:30Z)", where, date);
		return NAN;
	}
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm);
}

/* The family of a result's unit, or -1 after naming the field. */
static int unit_of(struct doc *d, const char *unit, const char *where)
{
	for (size_t i = 0; unit && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(units[i].unit, unit))
			return (int)i;
	if (unit)
		nb_reader_bad(&d->rd, "field %s: unknown unit '%s'", where, unit);
	return -1;
}

/* {min, avg, max} or null: three series labelled stat. */
static void stats(struct doc *d, struct json_object *tel, const char *where, const char *key,
		  enum fam fam, double scale, const char *labels)
{
	static const char *const names[] = { "min", "avg", "max" };
	struct json_object *o = nb_json_get(&d->rd, tel, where, key, J_OBJ | J_NULL,
					    "an object or null");
	char w[96], l[1024];

	if (!o || json_object_is_type(o, json_type_null))
		return;
	field(w, sizeof(w), where, key);
	for (int i = 0; i < 3; i++)
		add(d, fam, with(l, sizeof(l), labels, "stat", names[i]),
		    nb_json_num(&d->rd, o, w, names[i]) * scale);
}

/* tests[].telemetry, where the result has it (absent or null: none). */
static void telemetry(struct doc *d, struct json_object *t, const char *where,
		      const char *labels)
{
	struct json_object *tel = nb_json_get(&d->rd, t, where, "telemetry", J_OBJ | J_NULL,
					      "an object or null");
	struct json_object *pj, *reasons;
	char w[96], w2[128], l[1024];
	int u;

	if (!tel || json_object_is_type(tel, json_type_null))
		return;
	field(w, sizeof(w), where, "telemetry");
	stats(d, tel, w, "clock_mhz", F_CLOCK, 1e6, labels);
	stats(d, tel, w, "temperature_c", F_TEMP, 1, labels);
	stats(d, tel, w, "power_w", F_POWER, 1, labels);
	add(d, F_ENERGY, labels, nb_json_num(&d->rd, tel, w, "energy_j"));
	pj = nb_json_get(&d->rd, tel, w, "per_joule", J_OBJ | J_NULL, "an object or null");
	if (pj && !json_object_is_type(pj, json_type_null)) {
		field(w2, sizeof(w2), w, "per_joule");
		u = unit_of(d, nb_json_str(&d->rd, pj, w2, "unit", false), field(l, sizeof(l), w2,
											  "unit"));
		if (u >= 0)
			add(d, units[u].fam, labels,
			    nb_json_num(&d->rd, pj, w2, "value") * units[u].scale);
	}
	reasons = nb_json_get(&d->rd, tel, w, "throttle_reasons", J_ARR | J_NULL,
			      "an array of strings or null");
	for (size_t i = 0; reasons && json_object_is_type(reasons, json_type_array) &&
	     i < json_object_array_length(reasons); i++) {
		struct json_object *r = json_object_array_get_idx(reasons, i);

		if (!json_object_is_type(r, json_type_string)) {
			nb_reader_bad(&d->rd, "field %s.throttle_reasons[%zu]: expected a string, "
				      "found %s", w, i, json_object_to_json_string(r));
			return;
		}
		/* a reason listed twice is one series: the collector refuses duplicates */
		with(l, sizeof(l), labels, "reason", json_object_get_string(r));
		if (!have(d, F_THROTTLE, l))
			add(d, F_THROTTLE, l, 1);
	}
}

/* One element of tests[]: its result in base units, validity, score. */
static void test(struct doc *d, struct json_object *t, const char *where, const char *dev)
{
	char l[1024], w[96];
	const char *name, *status;
	double value;
	int u;

	if (!json_object_is_type(t, json_type_object)) {
		nb_reader_bad(&d->rd, "field %s: expected an object, found %s", where,
			      json_object_to_json_string(t));
		return;
	}
	name = nb_json_str(&d->rd, t, where, "name", false);
	status = nb_json_str(&d->rd, t, where, "status", false);
	value = nb_json_num(&d->rd, t, where, "value");
	u = unit_of(d, nb_json_str(&d->rd, t, where, "unit", false), field(w, sizeof(w), where,
									   "unit"));
	if (d->rd.bad || u < 0)
		return;
	if (units[u].fam >= F_EFF_FRAMES) {
		nb_reader_bad(&d->rd, "field %s.unit: '%s' is not a rate", where, units[u].unit);
		return;
	}
	with(l, sizeof(l), dev, "test", name);
	if (have(d, F_TVALID, l)) {
		nb_reader_bad(&d->rd, "field %s.name: test '%s' twice", where, name);
		return;
	}
	add(d, units[u].fam, l, value * units[u].scale);
	add(d, F_TVALID, l, !strcmp(status, "ok"));
	add(d, F_TSTANDARD, l, boolean(d, t, where, "standard"));
	add(d, F_TSCORE, l, nb_json_num(&d->rd, t, where, "score"));
	telemetry(d, t, where, l);
}

/* navibench_run_info's labels past device: what the run ran on and with. */
static void info(struct doc *d, struct json_object *run, const char *where, char *l, size_t n)
{
	struct json_object *dev, *cfg, *score, *sys, *nb;
	char w[96];
	bool quick;

	dev = nb_json_get(&d->rd, run, where, "device", J_OBJ, "an object");
	field(w, sizeof(w), where, "device");
	nb_prom_add_label(l, n, "kind", nb_json_str(&d->rd, dev, w, "kind", false));
	nb_prom_add_label(l, n, "name", nb_json_str(&d->rd, dev, w, "name", false));
	nb_prom_add_label(l, n, "pci_address", nb_json_str(&d->rd, dev, w, "pci", true));
	nb_prom_add_label(l, n, "backend", nb_json_str(&d->rd, dev, w, "backend", false));
	score = nb_json_get(&d->rd, run, where, "score", J_OBJ, "an object");
	nb_prom_add_label(l, n, "reference_id",
			  nb_json_str(&d->rd, score, field(w, sizeof(w), where, "score"),
				      "reference_id", true));
	/* schema version 1 has no system record: no version label */
	sys = nb_json_get(&d->rd, run, where, "system", J_OBJ | J_NULL, "an object");
	nb = sys ? nb_json_get(&d->rd, sys, field(w, sizeof(w), where, "system"), "navibench",
			       J_OBJ, "an object") : NULL;
	if (nb) {
		field(w, sizeof(w), where, "system.navibench");
		nb_prom_add_label(l, n, "version", nb_json_str(&d->rd, nb, w, "version", false));
		nb_prom_add_label(l, n, "commit", nb_json_str(&d->rd, nb, w, "commit", true));
	}
	cfg = nb_json_get(&d->rd, run, where, "configuration", J_OBJ, "an object");
	quick = nb_json_bool(&d->rd, cfg, field(w, sizeof(w), where, "configuration"), "quick");
	nb_prom_add_label(l, n, "quick", quick ? "true" : "false");
}

/* A device's slot in d, by its index; NULL after naming the field. */
static bool new_device(struct doc *d, long index, const char *where, char *labels, size_t n)
{
	char num[24];

	if (d->rd.bad)
		return false;
	if (index < 0 || d->ndev == MAX_DEVICES) {
		nb_reader_bad(&d->rd, "field %s: %s", where, index < 0 ? "a device index is >= 0" :
			      "more devices than navibench runs on");
		return false;
	}
	for (int i = 0; i < d->ndev; i++)
		if (d->dev[i].index == index) {
			nb_reader_bad(&d->rd, "field %s: device %ld twice", where, index);
			return false;
		}
	d->dev[d->ndev++].index = index;
	snprintf(num, sizeof(num), "%ld", index);
	labels[0] = '\0';
	nb_prom_add_label(labels, n, "device", num);
	return true;
}

/* One navibench-run document (where: "" or "runs[k]"): one device's series. */
static void run(struct doc *d, struct json_object *r, const char *where)
{
	struct json_object *dev, *score, *tests;
	char dl[64], l[1024], w[96];
	long index;

	dev = nb_json_get(&d->rd, r, where, "device", J_OBJ, "an object");
	index = nb_json_int(&d->rd, dev, field(w, sizeof(w), where, "device"), "index", false);
	if (!new_device(d, index, field(w, sizeof(w), where, "device.index"), dl, sizeof(dl)))
		return;
	snprintf(l, sizeof(l), "%s", dl);
	info(d, r, where, l, sizeof(l));
	add(d, F_INFO, l, 1);
	add(d, F_TIME, dl, unix_time(d, nb_json_str(&d->rd, r, where, "date", false),
				     field(w, sizeof(w), where, "date")));
	add(d, F_VALID, dl, boolean(d, r, where, "valid"));
	add(d, F_COMPLETE, dl, boolean(d, r, where, "complete"));
	score = nb_json_get(&d->rd, r, where, "score", J_OBJ, "an object");
	add(d, F_SCORE, dl, nb_json_num(&d->rd, score, field(w, sizeof(w), where, "score"),
					"value"));
	tests = nb_json_get(&d->rd, r, where, "tests", J_ARR, "an array");
	for (size_t i = 0; tests && !d->rd.bad && i < json_object_array_length(tests); i++) {
		snprintf(w, sizeof(w), "%s%stests[%zu]", where, *where ? "." : "", i);
		test(d, json_object_array_get_idx(tests, i), w, dl);
	}
}

/*
 * A device of --device all whose backend did not open: what its entry
 * has (index, name), valid 0, at the date of the runs, so that its file
 * no longer shows an older run as its last.
 */
static void failed_device(struct doc *d, struct json_object *r, const char *where, double date)
{
	char dl[64], l[512];
	long index = nb_json_int(&d->rd, r, where, "device_index", false);

	if (!new_device(d, index, where, dl, sizeof(dl)))
		return;
	add(d, F_INFO, with(l, sizeof(l), dl, "name", nb_json_str(&d->rd, r, where, "name", false)),
	    1);
	add(d, F_TIME, dl, date);
	add(d, F_VALID, dl, 0);
	add(d, F_COMPLETE, dl, 0);
}

/* navibench-run-all: each element of runs[]. */
static void run_all(struct doc *d, struct json_object *root)
{
	struct json_object *runs = nb_json_get(&d->rd, root, "", "runs", J_ARR, "an array");
	double date = unix_time(d, nb_json_str(&d->rd, root, "", "date", false), "date");
	char w[32];

	for (size_t i = 0; runs && !d->rd.bad && i < json_object_array_length(runs); i++) {
		struct json_object *r = json_object_array_get_idx(runs, i);

		snprintf(w, sizeof(w), "runs[%zu]", i);
		if (!json_object_is_type(r, json_type_object))
			nb_reader_bad(&d->rd, "field %s: expected an object, found %s", w,
				      json_object_to_json_string(r));
		else if (json_object_object_get_ex(r, "error", NULL))
			failed_device(d, r, w, date);
		else
			run(d, r, w);
	}
}

/* The text of device m's file: its series, family by family. */
static int render(struct device_metrics *m)
{
	FILE *f = open_memstream(&m->text, &m->len);

	if (!f)
		return -1;
	for (int fam = 0; fam < F_COUNT; fam++) {
		bool head = false;

		for (size_t i = 0; i < m->n; i++) {
			if (m->s[i].fam != (enum fam)fam)
				continue;
			if (!head)
				fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", fams[fam].name,
					fams[fam].help, fams[fam].name);
			head = true;
			fprintf(f, "%s{%s} ", fams[fam].name, m->s[i].labels);
			nb_prom_put_value(f, m->s[i].value);
			fputc('\n', f);
		}
	}
	return fclose(f) ? -1 : 0;
}

/* Every device's file, once all of them are read and rendered. */
static int write_files(struct doc *d, const char *dir)
{
	char path[4096];
	int err;

	for (int i = 0; i < d->ndev; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/" FILE_PREFIX "%ld.prom", dir,
				     d->dev[i].index) >= sizeof(path)) {
			fprintf(stderr, "navibench %s: --textfile: directory name too long\n",
				d->rd.cmd);
			return NB_EXIT_USAGE;
		}
		err = nb_write_file_atomic(path, d->dev[i].text, d->dev[i].len);
		if (err) {
			fprintf(stderr, "navibench %s: --textfile: cannot write %s: %s%s\n", d->rd.cmd,
				path, strerror(-err), err == -EACCES ? " (run as a user who may "
				"write there)" : "");
			return NB_EXIT_FAIL;
		}
	}
	return NB_EXIT_OK;
}

int nb_result_textfile(const char *cmd, struct json_object *doc, const char *dir)
{
	static struct doc d;
	const char *schema;
	long version;
	int rc = NB_EXIT_USAGE;

	memset(&d, 0, sizeof(d));
	d.rd.cmd = cmd;
	d.rd.path = "--textfile: the result";
	if (!json_object_is_type(doc, json_type_object)) {
		nb_reader_bad(&d.rd, "not a navibench run result: the top level is not an object");
		return NB_EXIT_USAGE;
	}
	schema = nb_json_str(&d.rd, doc, "", "schema", false);
	version = nb_json_int(&d.rd, doc, "", "schema_version", false);
	if (schema && !strcmp(schema, "navibench-run") && version >= 1 && version <= 3)
		run(&d, doc, "");
	else if (schema && !strcmp(schema, "navibench-run-all") && version == 1)
		run_all(&d, doc);
	else if (schema)
		nb_reader_bad(&d.rd, "schema '%s' version %ld: this navibench writes metrics of "
			      "navibench-run versions 1 to 3 and navibench-run-all version 1",
			      schema, version);
	for (int i = 0; i < d.ndev && !d.rd.bad; i++)
		if (render(&d.dev[i]))
			nb_reader_bad(&d.rd, "out of memory");
	if (!d.rd.bad)
		rc = write_files(&d, dir);
	for (int i = 0; i < d.ndev; i++) {
		free(d.dev[i].s);
		free(d.dev[i].text);
	}
	return rc;
}

int nb_result_textfile_json(const char *cmd, const char *json, size_t len, const char *dir)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *doc;
	int rc;

	if (!tok) {
		fprintf(stderr, "navibench %s: --textfile: out of memory\n", cmd);
		return NB_EXIT_FAIL;
	}
	doc = json_tokener_parse_ex(tok, json, (int)len);
	if (json_tokener_get_error(tok) != json_tokener_success || !doc) {
		fprintf(stderr, "navibench %s: --textfile: the result is not JSON: %s\n", cmd,
			json_tokener_error_desc(json_tokener_get_error(tok)));
		rc = NB_EXIT_FAIL;
	} else {
		rc = nb_result_textfile(cmd, doc, dir);
	}
	json_object_put(doc);
	json_tokener_free(tok);
	return rc;
}

int nb_result_textfile_check(const char *cmd, const char *dir)
{
	return cli_check_dir(cmd, "--textfile", dir, NB_TEXTFILE_DIR_FIX);
}
