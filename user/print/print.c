// SPDX-License-Identifier: MIT
/*
 * The print layer: the document's position and the calls into the format
 * (print.h, print_ops.h). Formats: text.c, json.c, csv.c, prometheus.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "navibench.h"
#include "print/print_ops.h"

const char *const nb_format_names[NB_FORMAT_COUNT + 1] = {
	[NB_FORMAT_TEXT] = "text",
	[NB_FORMAT_JSON] = "json",
	[NB_FORMAT_CSV] = "csv",
	[NB_FORMAT_PROMETHEUS] = "prometheus",
	[NB_FORMAT_COUNT] = NULL,
};

static const struct nb_print_ops *const formats[NB_FORMAT_COUNT] = {
	[NB_FORMAT_TEXT] = &nb_print_text_ops,
	[NB_FORMAT_JSON] = &nb_print_json_ops,
	[NB_FORMAT_CSV] = &nb_print_csv_ops,
	[NB_FORMAT_PROMETHEUS] = &nb_print_prometheus_ops,
};

const struct nb_print_ops *nb_format_ops(enum nb_format f)
{
	return f < NB_FORMAT_COUNT ? formats[f] : NULL;
}

const char *nb_format_name(const struct nb_print_ops *fmt)
{
	return fmt ? fmt->name : "?";
}

bool nb_format_ready(const struct nb_print_ops *fmt, const char **why)
{
	if (fmt && fmt->begin)
		return true;
	if (why)
		*why = "not yet supported";
	return false;
}

bool nb_format_live(const struct nb_print_ops *fmt)
{
	return fmt && fmt->live;
}

bool nb_format_streams(const struct nb_print_ops *fmt, const char **why)
{
	if (fmt && fmt->no_stream) {
		if (why)
			*why = fmt->no_stream;
		return false;
	}
	return true;
}

/* ---- the document ---- */

static struct nb_print *print_new(const struct nb_print_ops *fmt, const char *cmd)
{
	struct nb_print *p = calloc(1, sizeof(*p));

	if (!p) {
		fprintf(stderr, "navibench: out of memory\n");
		abort();
	}
	p->ops = fmt;
	p->cmd = cmd ? cmd : "";
	p->frame[0].level = NB_L_ROOT;
	return p;
}

static void print_start(struct nb_print *p)
{
	int err = p->ops->begin ? p->ops->begin(p) : -ENOTSUP;

	if (err == -ENOMEM) {
		fprintf(stderr, "navibench: out of memory\n");
		abort();
	}
	/* a format not implemented: its calls are skipped (cli_parse refuses it) */
	if (err)
		p->failed = true;
}

struct nb_print *nb_print_open_file(const struct nb_print_ops *fmt, FILE *out, const char *cmd)
{
	struct nb_print *p = print_new(fmt, cmd);

	p->out = out;
	print_start(p);
	return p;
}

struct nb_print *nb_print_open(const struct nb_print_ops *fmt, const char *path, const char *cmd)
{
	struct nb_print *p = print_new(fmt, cmd);

	if (!path || !strcmp(path, "-")) {
		p->out = stdout;
	} else {
		/* kept in memory and written whole at close: never half a file */
		p->path = strdup(path);
		p->out = open_memstream(&p->buf, &p->len);
		if (!p->path || !p->out) {
			fprintf(stderr, "navibench: out of memory\n");
			abort();
		}
	}
	print_start(p);
	return p;
}

static void print_free(struct nb_print *p)
{
	if (p->path) {
		if (p->out)
			fclose(p->out);
		free(p->buf);
		free(p->path);
	}
	free(p);
}

int nb_print_close(struct nb_print *p)
{
	int err = 0, rc = NB_EXIT_OK;

	if (!p)
		return NB_EXIT_OK;
	while (p->depth > 0) {
		/* whatever the command left open is closed, so formats see a whole document */
		switch (nb_print_top(p)->level) {
		case NB_L_RECORD:
			nb_record_end(p);
			break;
		case NB_L_TABLE:
			nb_table_end(p);
			break;
		default:
			nb_obj_end(p);
			break;
		}
	}
	if (p->failed) {
		/* a format not implemented (cli_parse() refuses it): nothing written */
		fprintf(stderr, "navibench %s: --format %s: not yet supported\n", p->cmd,
			nb_format_name(p->ops));
		print_free(p);
		return NB_EXIT_FAIL;
	}
	if (p->ops->end)
		err = p->ops->end(p);
	if (!err && fflush(p->out))
		err = -errno;
	if (!err && p->path) {
		if (fclose(p->out))
			err = -errno;
		p->out = NULL;
		if (!err)
			err = nb_write_file_atomic(p->path, p->buf, p->len);
	}
	if (err) {
		fprintf(stderr, "navibench: cannot write %s: %s\n", p->path ? p->path : "the output",
			strerror(-err));
		rc = NB_EXIT_FAIL;
	}
	print_free(p);
	return rc;
}

void nb_print_discard(struct nb_print *p)
{
	if (!p)
		return;
	if (!p->failed && p->ops->discard)
		p->ops->discard(p);
	fflush(p->out);
	p->len = 0;
	print_free(p);
}

void nb_print_stream(struct nb_print *p)
{
	p->stream = true;
}

void nb_print_flush(struct nb_print *p)
{
	if (!p->failed && p->ops->flush)
		p->ops->flush(p);
	fflush(p->out);
}

/* ---- position ---- */

bool nb_print_inside(const struct nb_print *p, enum nb_level level)
{
	for (int i = p->depth; i > 0; i--)
		if (p->frame[i].level == level)
			return true;
	return false;
}

static bool push(struct nb_print *p, enum nb_level level, const char *key, const char *title)
{
	struct nb_print_frame *f;

	if (p->failed || p->dropped || p->depth + 1 >= NB_PRINT_DEPTH) {
		p->dropped++;
		return false;
	}
	nb_print_top(p)->n++;
	f = &p->frame[++p->depth];
	f->level = level;
	f->key = key;
	f->title = title;
	f->n = 0;
	f->id = NULL;
	return true;
}

/* Whether the level to end is the one on top (else the end is dropped). */
static bool can_pop(struct nb_print *p, enum nb_level level)
{
	if (p->dropped) {
		p->dropped--;
		return false;
	}
	if (p->failed || p->depth == 0)
		return false;
	if (level == NB_L_OBJECT)	/* nb_obj_end() ends objects, arrays, readings, cells */
		return nb_print_top(p)->level != NB_L_RECORD && nb_print_top(p)->level != NB_L_TABLE;
	return nb_print_top(p)->level == level;
}

void nb_print_columns(struct nb_print *p, const char *const *cols, int n)
{
	if (!p->failed && p->ops->columns)
		p->ops->columns(p, cols, n);
}

void nb_record_begin(struct nb_print *p, const struct nb_print_device *id)
{
	if (!push(p, NB_L_RECORD, NULL, NULL))
		return;
	nb_print_top(p)->id = id;
	p->id = id;
	p->cell = 0;
	p->records++;
	if (p->ops->record_begin)
		p->ops->record_begin(p, id);
}

void nb_record_end(struct nb_print *p)
{
	if (!can_pop(p, NB_L_RECORD))
		return;
	if (p->ops->record_end)
		p->ops->record_end(p);
	p->depth--;
	/* back to the enclosing record's identity, if any */
	p->id = NULL;
	for (int d = p->depth; d > 0 && !p->id; d--)
		if (p->frame[d].level == NB_L_RECORD)
			p->id = p->frame[d].id;
}

static void group_begin(struct nb_print *p, enum nb_level level, const char *key,
			const char *title)
{
	if (push(p, level, key, title) && p->ops->group_begin)
		p->ops->group_begin(p);
}

void nb_obj_begin(struct nb_print *p, const char *key, const char *title)
{
	group_begin(p, NB_L_OBJECT, key, title);
}

void nb_arr_begin(struct nb_print *p, const char *key, const char *title)
{
	group_begin(p, NB_L_ARRAY, key, title);
}

void nb_readings_begin(struct nb_print *p, const char *key, const char *title)
{
	group_begin(p, NB_L_READINGS, key, title);
}

void nb_obj_end(struct nb_print *p)
{
	if (!can_pop(p, NB_L_OBJECT))
		return;
	if (p->ops->group_end)
		p->ops->group_end(p);
	p->depth--;
}

void nb_arr_end(struct nb_print *p)
{
	nb_obj_end(p);
}

void nb_readings_end(struct nb_print *p)
{
	nb_obj_end(p);
}

void nb_table_begin(struct nb_print *p, const char *key, const struct nb_column *cols, int ncols)
{
	if (nb_print_inside(p, NB_L_TABLE) || !push(p, NB_L_TABLE, key, NULL))
		return;	/* tables do not nest */
	p->cols = cols;
	p->ncols = ncols;
	if (p->ops->table_begin)
		p->ops->table_begin(p);
}

void nb_table_end(struct nb_print *p)
{
	if (!can_pop(p, NB_L_TABLE))
		return;
	if (p->ops->table_end)
		p->ops->table_end(p);
	p->depth--;
	p->cols = NULL;
	p->ncols = 0;
}

/* ---- values ---- */

void nb_value(struct nb_print *p, const struct nb_value *v)
{
	struct nb_value x = *v;

	if (p->failed || p->dropped)
		return;
	if (x.type == NB_V_DBL && !isfinite(x.d)) {
		/* JSON has no NaN or infinity: such a value is missing, not a number */
		x.type = NB_V_MISSING;
		if (!x.why)
			x.why = "not measured";
	}
	if (x.type == NB_V_STR && !x.s)
		x.type = NB_V_MISSING;
	if (nb_print_top(p)->level == NB_L_READINGS) {
		if (p->ops->reading)
			p->ops->reading(p, &x);
	} else if (p->ops->field) {
		p->ops->field(p, &x);
	}
	nb_print_top(p)->n++;
}

void nb_reading(struct nb_print *p, const struct nb_value *v)
{
	nb_value(p, v);
}

void nb_str(struct nb_print *p, const char *key, const char *label, const char *value)
{
	nb_value(p, &(struct nb_value){ .key = key, .label = label, .type = NB_V_STR, .s = value });
}

void nb_u64(struct nb_print *p, const char *key, const char *label, uint64_t v, const char *unit)
{
	nb_value(p, &(struct nb_value){ .key = key, .label = label, .type = NB_V_UINT, .u = v,
					.unit = unit });
}

void nb_i64(struct nb_print *p, const char *key, const char *label, int64_t v, const char *unit)
{
	nb_value(p, &(struct nb_value){ .key = key, .label = label, .type = NB_V_INT, .i = v,
					.unit = unit });
}

void nb_dbl(struct nb_print *p, const char *key, const char *label, double v, int prec,
	    const char *unit)
{
	nb_value(p, &(struct nb_value){ .key = key, .label = label, .type = NB_V_DBL, .d = v,
					.prec = prec, .unit = unit });
}

void nb_bool(struct nb_print *p, const char *key, const char *label, bool v)
{
	nb_value(p, &(struct nb_value){ .key = key, .label = label, .type = NB_V_BOOL, .b = v });
}

const char *nb_fmt_time(char *buf, size_t n, const struct timespec *ts)
{
	struct tm tm;
	char day[32];

	gmtime_r(&ts->tv_sec, &tm);
	strftime(day, sizeof(day), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, n, "%s.%03ldZ", day, ts->tv_nsec / 1000000);
	return buf;
}

void nb_time(struct nb_print *p, const char *key, const char *label)
{
	struct timespec ts;
	char buf[48];

	clock_gettime(CLOCK_REALTIME, &ts);
	nb_str(p, key, label, nb_fmt_time(buf, sizeof(buf), &ts));
}

void nb_missing(struct nb_print *p, const char *key, const char *label, const char *why)
{
	nb_value(p, &(struct nb_value){ .key = key, .label = label, .type = NB_V_MISSING,
					.why = why });
}

void nb_hex(struct nb_print *p, const char *key, const char *label, unsigned int v, int width)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%0*x", width, v);
	nb_str(p, key, label, buf);
}

void nb_bytes(struct nb_print *p, const char *key, const char *label, uint64_t v)
{
	char buf[32];

	nb_value(p, &(struct nb_value){ .key = key, .label = label, .type = NB_V_UINT, .u = v,
					.unit = "B", .text = nb_fmt_bytes(buf, sizeof(buf), v) });
}

/* The message of fmt in a new string, however long; aborts when out of memory. */
static char *vformat(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0) {
		fprintf(stderr, "navibench: out of memory\n");
		abort();
	}
	return s;
}

void nb_text(struct nb_print *p, const char *fmt, ...)
{
	va_list ap;
	char *line;

	if (p->failed || p->dropped || !p->ops->text)
		return;
	va_start(ap, fmt);
	line = vformat(fmt, ap);
	va_end(ap);
	p->ops->text(p, line);
	free(line);
}

void nb_print_note_stderr(struct nb_print *p, const char *msg)
{
	fprintf(stderr, "navibench %s: %s\n", p->cmd, msg);
}

void nb_note(struct nb_print *p, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = vformat(fmt, ap);
	va_end(ap);
	if (!p->failed && p->ops->note)
		p->ops->note(p, msg);
	else
		nb_print_note_stderr(p, msg);
	free(msg);
}

/* ---- table cells ---- */

void nb_cell(struct nb_print *p, const struct nb_value *v)
{
	struct nb_value x = *v;
	int col = p->cell;

	if (p->failed || p->dropped || nb_print_top(p)->level != NB_L_RECORD ||
	    !nb_print_inside(p, NB_L_TABLE) || col >= p->ncols)
		return;
	p->cell++;
	x.key = p->cols[col].key;
	if (x.type == NB_V_DBL && !isfinite(x.d))
		x.type = NB_V_MISSING;
	if (x.type == NB_V_STR && !x.s)
		x.type = NB_V_MISSING;
	if (p->ops->cell)
		p->ops->cell(p, col, &x);
}

void nb_cell_str(struct nb_print *p, const char *s)
{
	nb_cell(p, &(struct nb_value){ .type = NB_V_STR, .s = s, .text = s ? NULL : "-" });
}

void nb_cell_int(struct nb_print *p, int64_t v)
{
	nb_cell(p, &(struct nb_value){ .type = NB_V_INT, .i = v });
}

void nb_cell_dbl(struct nb_print *p, double v, const char *text)
{
	nb_cell(p, &(struct nb_value){ .type = NB_V_DBL, .d = v, .text = text });
}

void nb_cell_missing(struct nb_print *p, const char *text)
{
	nb_cell(p, &(struct nb_value){ .type = NB_V_MISSING, .text = text ? text : "-" });
}

void nb_cell_obj_begin(struct nb_print *p, const char *text)
{
	int col = p->cell;

	if (p->failed || p->dropped || nb_print_top(p)->level != NB_L_RECORD ||
	    !nb_print_inside(p, NB_L_TABLE) || col >= p->ncols) {
		p->dropped++;
		return;
	}
	/* the text form is the cell; the members that follow are JSON's and CSV's */
	if (p->ops->cell)
		p->ops->cell(p, col, &(struct nb_value){ .key = NULL, .type = NB_V_MISSING,
							 .text = text });
	p->cell++;
	group_begin(p, NB_L_CELL_OBJECT, p->cols[col].key, NULL);
}

/* ---- helpers for formats ---- */

const char *nb_value_plain(const struct nb_value *v, char *buf, size_t n)
{
	switch (v->type) {
	case NB_V_STR:
		snprintf(buf, n, "%s", v->s);
		break;
	case NB_V_BOOL:
		snprintf(buf, n, "%s", v->b ? "yes" : "no");
		break;
	case NB_V_INT:
		snprintf(buf, n, "%lld", (long long)v->i);
		break;
	case NB_V_UINT:
		snprintf(buf, n, "%llu", (unsigned long long)v->u);
		break;
	case NB_V_DBL:
		snprintf(buf, n, "%.*f", v->prec, v->d);
		break;
	default:
		snprintf(buf, n, "%s", "");
		break;
	}
	return buf;
}

bool nb_print_path(const struct nb_print *p, const char *key, char *buf, size_t n)
{
	const struct nb_print_frame *top = &p->frame[p->depth];
	size_t used = 0;
	int from = p->depth;

	while (from > 0 && p->frame[from].level != NB_L_RECORD)
		from--;
	buf[0] = '\0';
	for (int d = from + 1; d <= p->depth && used < n; d++) {
		const struct nb_print_frame *f = &p->frame[d];
		const struct nb_print_frame *up = &p->frame[d - 1];

		/* push() counted the element in its parent: it is number n - 1 */
		if (up->level == NB_L_ARRAY)
			used += (size_t)snprintf(buf + used, n - used, "%s%d", used ? "." : "", up->n - 1);
		else if (f->key)
			used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? "." : "", f->key);
	}
	if (used >= n)
		return false;
	if (top->level == NB_L_ARRAY)
		used += (size_t)snprintf(buf + used, n - used, "%s%d", used ? "." : "", top->n);
	else if (key)
		used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? "." : "", key);
	else
		return false;
	return used < n;
}

const char *nb_reading_item(const struct nb_value *v, char *buf, size_t n)
{
	char plain[64];
	bool one = (v->type == NB_V_INT && v->i == 1) || (v->type == NB_V_UINT && v->u == 1) ||
		   (v->type == NB_V_BOOL && v->b) || (v->type == NB_V_DBL && v->d == 1);

	/* a counter's count is a number even at 1: "umc=1" */
	one = one && v->kind != NB_KIND_COUNTER;
	if (one)
		snprintf(buf, n, "%s", v->lvalue ? v->lvalue : "");
	else
		snprintf(buf, n, "%s=%s", v->lvalue ? v->lvalue : "",
			 nb_value_plain(v, plain, sizeof(plain)));
	return buf;
}

const char *nb_value_text(const struct nb_value *v, char *buf, size_t n)
{
	char plain[256];

	if (v->text)
		snprintf(buf, n, "%s", v->text);
	else if (v->type == NB_V_MISSING)
		snprintf(buf, n, "unavailable%s%s%s", v->why ? " (" : "", v->why ? v->why : "",
			 v->why ? ")" : "");
	else
		snprintf(buf, n, "%s%s%s", nb_value_plain(v, plain, sizeof(plain)),
			 v->unit && v->type != NB_V_STR ? " " : "",
			 v->unit && v->type != NB_V_STR ? v->unit : "");
	return buf;
}

char *nb_value_text_dup(const struct nb_value *v)
{
	char plain[64], *s;
	int r;

	if (v->text)
		r = asprintf(&s, "%s", v->text);
	else if (v->type == NB_V_MISSING)
		r = asprintf(&s, "unavailable%s%s%s", v->why ? " (" : "", v->why ? v->why : "",
			     v->why ? ")" : "");
	else if (v->type == NB_V_STR)
		r = asprintf(&s, "%s", v->s);
	else
		r = asprintf(&s, "%s%s%s", nb_value_plain(v, plain, sizeof(plain)),
			     v->unit ? " " : "", v->unit ? v->unit : "");
	if (r < 0) {
		fprintf(stderr, "navibench: out of memory\n");
		abort();
	}
	return s;
}

const char *nb_fmt_bytes(char *buf, unsigned long n, uint64_t bytes)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, n, "%.2f %s", v, units[u]);
	return buf;
}
