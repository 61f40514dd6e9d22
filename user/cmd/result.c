// SPDX-License-Identifier: MIT
/*
 * Reading a `navibench run --json` result (engine/result-schema.md,
 * versions 1 and 2), for the commands that read results: compare and
 * report. Every field is checked; an error names the file and the field.
 */
#include <errno.h>
#include <stdarg.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "navibench.h"
#include "cmd/result.h"

#define MAX_RESULT_BYTES (64L << 20)

static const char *type_name(struct json_object *o)
{
	return o ? json_type_to_name(json_object_get_type(o)) : "null";
}

static int type_bit(struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_null: return J_NULL;
	case json_type_boolean: return J_BOOL;
	case json_type_double: return J_NUM;
	case json_type_int: return J_INT | J_NUM;
	case json_type_string: return J_STR;
	case json_type_object: return J_OBJ;
	case json_type_array: return J_ARR;
	}
	return 0;
}

void nb_reader_bad(struct nb_reader *rd, const char *fmt, ...)
{
	va_list ap;

	if (rd->bad)
		return;
	rd->bad = true;
	fprintf(stderr, "navibench %s: %s: ", rd->cmd, rd->path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
}

/* Member key of o (field "where.key") of one of the types in want. */
struct json_object *nb_json_get(struct nb_reader *rd, struct json_object *o, const char *where,
			       const char *key, int want, const char *expected)
{
	struct json_object *v = NULL;
	bool there = json_object_object_get_ex(o, key, &v);

	if (rd->bad)
		return NULL;
	if (!there && !(want & J_NULL))
		nb_reader_bad(rd, "field %s%s%s is missing (a navibench run result has it)", where,
		    *where ? "." : "", key);
	else if (there && !(type_bit(v) & want))
		nb_reader_bad(rd, "field %s%s%s: expected %s, found %s", where, *where ? "." : "", key,
		    expected, type_name(v));
	return rd->bad ? NULL : v;
}

const char *nb_json_str(struct nb_reader *rd, struct json_object *o, const char *where,
			   const char *key, bool nullable)
{
	struct json_object *v = nb_json_get(rd, o, where, key, J_STR | (nullable ? J_NULL : 0),
				    nullable ? "a string or null" : "a string");

	return v ? json_object_get_string(v) : NULL;
}

double nb_json_num(struct nb_reader *rd, struct json_object *o, const char *where,
		      const char *key)
{
	struct json_object *v = nb_json_get(rd, o, where, key, J_NUM | J_NULL, "a number or null");

	return v ? json_object_get_double(v) : NAN;
}

long nb_json_int(struct nb_reader *rd, struct json_object *o, const char *where,
		    const char *key, bool nullable)
{
	struct json_object *v = nb_json_get(rd, o, where, key, J_INT | (nullable ? J_NULL : 0),
				    nullable ? "an integer or null" : "an integer");

	return v ? (long)json_object_get_int64(v) : -1;
}

bool nb_json_bool(struct nb_reader *rd, struct json_object *o, const char *where,
		     const char *key)
{
	struct json_object *v = nb_json_get(rd, o, where, key, J_BOOL, "true or false");

	return v && json_object_get_boolean(v);
}

static struct json_object *parse_file(struct nb_reader *rd)
{
	FILE *f = fopen(rd->path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	struct json_object *root = NULL;

	if (!f) {
		nb_reader_bad(rd, "cannot open: %s", strerror(errno));
		return NULL;
	}
	for (;;) {
		if (len + 65536 > cap) {
			char *b = realloc(buf, cap = cap ? 2 * cap : 1 << 20);

			if (!b || cap > (size_t)MAX_RESULT_BYTES + 65536) {
				nb_reader_bad(rd, "larger than %ld MiB: not a navibench run result",
				    MAX_RESULT_BYTES >> 20);
				goto out;
			}
			buf = b;
		}
		size_t n = fread(buf + len, 1, cap - len - 1, f);

		if (!n)
			break;
		len += n;
	}
	if (ferror(f)) {
		nb_reader_bad(rd, "cannot read: %s", strerror(errno));
		goto out;
	}
	struct json_tokener *tok = json_tokener_new();
	enum json_tokener_error jerr;

	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	root = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	if (jerr != json_tokener_success || !root)
		nb_reader_bad(rd, "not JSON: %s at byte %zu",
		    jerr == json_tokener_continue ? "the text ends early" :
		    json_tokener_error_desc(jerr), json_tokener_get_parse_end(tok));
	json_tokener_free(tok);
	if (!rd->bad && !json_object_is_type(root, json_type_object))
		nb_reader_bad(rd, "not a navibench run result: the top level is JSON %s, not an object",
		    type_name(root));
out:
	fclose(f);
	free(buf);
	if (rd->bad) {
		json_object_put(root);
		return NULL;
	}
	return root;
}

static void read_times(struct nb_reader *rd, struct json_object *e, const char *where,
		       struct nb_result_test *t)
{
	struct json_object *a = nb_json_get(rd, e, where, "times_s", J_ARR | J_NULL,
				    "an array of numbers or null");
	size_t n = a ? json_object_array_length(a) : 0;

	if (!a || !n)
		return;
	if (n > NB_MAX_REPEATS) {
		nb_reader_bad(rd, "field %s.times_s: %zu repeats, more than a run makes (%d)", where, n,
		    NB_MAX_REPEATS);
		return;
	}
	t->rates = malloc(sizeof(double) * n);
	if (!t->rates) {
		nb_reader_bad(rd, "out of memory");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct json_object *v = json_object_array_get_idx(a, i);
		double s = json_object_get_double(v);

		if (!(type_bit(v) & J_NUM) || !(s > 0) || !isfinite(s)) {
			nb_reader_bad(rd, "field %s.times_s[%zu]: expected a time in seconds > 0, found %s",
			    where, i, json_object_to_json_string(v));
			return;
		}
		/* the rate of this repeat: value is work / median_s */
		t->rates[i] = t->value * t->median / s;
	}
	t->n = (int)n;
}

static void read_test(struct nb_reader *rd, struct json_object *e, int i, struct nb_result_test *t)
{
	char where[32];

	snprintf(where, sizeof(where), "tests[%d]", i);
	if (!json_object_is_type(e, json_type_object)) {
		nb_reader_bad(rd, "field %s: expected an object, found %s", where, type_name(e));
		return;
	}
	t->name = nb_json_str(rd, e, where, "name", false);
	t->unit = nb_json_str(rd, e, where, "unit", false);
	t->status = nb_json_str(rd, e, where, "status", false);
	t->value = nb_json_num(rd, e, where, "value");
	t->median = nb_json_num(rd, e, where, "median_s");
	t->batch = nb_json_int(rd, e, where, "batch", true);
	t->frames = nb_json_int(rd, e, where, "frames", true);
	if (rd->bad)
		return;
	if (strcmp(t->status, "ok") && strcmp(t->status, "INVALID") && strcmp(t->status, "error"))
		nb_reader_bad(rd, "field %s.status: '%s' is not ok, INVALID or error", where, t->status);
	else if (!strcmp(t->status, "ok") && !(t->value > 0 && t->median > 0))
		nb_reader_bad(rd, "field %s: status ok without a value > 0 and median_s > 0", where);
	else if (rd->bad || !(t->value > 0 && t->median > 0))
		return;
	else if (rd->version >= 2)
		read_times(rd, e, where, t);
}

/* The result in rd->path; 0, or NB_EXIT_USAGE after naming file and field. */
int nb_result_read(const char *cmd, const char *path, struct nb_result *r)
{
	struct nb_reader rd = { .cmd = cmd, .path = path };
	struct json_object *o, *tests, *sys;
	const char *schema;

	memset(r, 0, sizeof(*r));
	r->path = path;
	r->score = r->load_start = NAN;
	r->root = parse_file(&rd);
	if (!r->root)
		return NB_EXIT_USAGE;
	schema = nb_json_str(&rd, r->root, "", "schema", false);
	if (schema && strcmp(schema, "navibench-run"))
		nb_reader_bad(&rd, "field schema: '%s', not 'navibench-run': not a navibench run result",
		    schema);
	rd.version = r->version = nb_json_int(&rd, r->root, "", "schema_version", false);
	if (!rd.bad && (r->version < 1 || r->version > 3))
		nb_reader_bad(&rd, "field schema_version: %ld; this navibench reads versions 1 to 3",
		    r->version);
	r->date = nb_json_str(&rd, r->root, "", "date", false);
	/* Schema 1 results written before "complete" existed hold whole runs. */
	if (r->version == 1 && !json_object_object_get_ex(r->root, "complete", NULL))
		r->complete = true;
	else
		r->complete = nb_json_bool(&rd, r->root, "", "complete");
	r->valid = nb_json_bool(&rd, r->root, "", "valid");
	o = nb_json_get(&rd, r->root, "", "device", J_OBJ, "an object");
	r->device = nb_json_str(&rd, o, "device", "name", false);
	r->kind = nb_json_str(&rd, o, "device", "kind", false);
	r->backend = nb_json_str(&rd, o, "device", "backend", false);
	r->detail = nb_json_str(&rd, o, "device", "backend_detail", false);
	o = nb_json_get(&rd, r->root, "", "configuration", J_OBJ, "an object");
	r->quick = nb_json_bool(&rd, o, "configuration", "quick");
	r->seed = nb_json_int(&rd, o, "configuration", "seed", false);
	r->threads = nb_json_int(&rd, o, "configuration", "threads", false);
	r->weights = nb_json_str(&rd, o, "configuration", "weights", true);
	o = nb_json_get(&rd, r->root, "", "score", J_OBJ, "an object");
	r->score = nb_json_num(&rd, o, "score", "value");
	r->ref_id = nb_json_str(&rd, o, "score", "reference_id", r->version < 2);
	sys = r->version >= 2 ? nb_json_get(&rd, r->root, "", "system", J_OBJ, "an object") : NULL;
	if (sys) {
		struct json_object *nb = nb_json_get(&rd, sys, "system", "navibench", J_OBJ, "an object");
		struct json_object *k = nb_json_get(&rd, sys, "system", "kernel", J_OBJ, "an object");
		struct json_object *c = nb_json_get(&rd, sys, "system", "cpu", J_OBJ, "an object");
		struct json_object *l = nb_json_get(&rd, sys, "system", "load_average", J_OBJ, "an object");
		struct json_object *st = l ? nb_json_get(&rd, l, "system.load_average", "start",
						 J_ARR | J_NULL, "an array") : NULL;

		r->version_str = nb_json_str(&rd, nb, "system.navibench", "version", false);
		r->commit = nb_json_str(&rd, nb, "system.navibench", "commit", true);
		r->kernel = nb_json_str(&rd, k, "system.kernel", "release", true);
		r->governor = nb_json_str(&rd, c, "system.cpu", "governor", true);
		if (st && json_object_array_length(st) > 0)
			r->load_start = json_object_get_double(json_object_array_get_idx(st, 0));
	}
	tests = nb_json_get(&rd, r->root, "", "tests", J_ARR, "an array");
	for (size_t i = 0; tests && !rd.bad && i < json_object_array_length(tests); i++) {
		if (r->nt == NB_RESULT_MAX_TESTS) {
			nb_reader_bad(&rd, "field tests: more than %d tests", NB_RESULT_MAX_TESTS);
			break;
		}
		read_test(&rd, json_object_array_get_idx(tests, i), (int)i, &r->t[r->nt++]);
	}
	return rd.bad ? NB_EXIT_USAGE : 0;
}

void nb_result_free(struct nb_result *r)
{
	for (int i = 0; i < r->nt; i++)
		free(r->t[i].rates);
	json_object_put(r->root);
}

const struct nb_result_test *nb_result_find_test(const struct nb_result *r, const char *name)
{
	for (int i = 0; i < r->nt; i++)
		if (!strcmp(r->t[i].name, name))
			return &r->t[i];
	return NULL;
}
