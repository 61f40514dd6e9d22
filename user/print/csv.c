// SPDX-License-Identifier: MIT
/*
 * CSV: one row per record (a device, a table row, a sample), after one
 * header line. Values are plain (no unit; a missing one is an empty
 * field); fields with a comma, a quote or a line break are quoted as RFC
 * 4180 says. What is not in a record (notes) goes to stderr.
 *
 * The columns: those the command declares (nb_print_columns()), in their
 * order, whatever the records hold; a value's column is its name, the
 * keys from its record down joined with '.' ("pci.device_id"), a
 * reading's its key (a labelled reading's set in one field: "ppt0
 * temp_hotspot"). A declared column may name a value outside the records
 * (the document's "time"): the rows written after it carry it. Without
 * declared columns, the header is the union of the names of the rows
 * written with it (all the rows of a document, or the first sample of a
 * stream).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/print_ops.h"

struct cell {
	int col;
	char *value;
};

struct row {
	struct cell *cells;
	int n, cap;
};

struct csv {
	char **cols;
	int ncols, capcols;
	bool fixed;		/* declared columns: no others */
	char **outside;		/* fixed: per column, a value outside the records */
	bool header_done;	/* header written: no new columns */
	struct row *rows;
	int nrows, caprows;
	int record_depth;	/* the frame of the record being filled; 0: none */
};

static struct csv *C(struct nb_print *p)
{
	return p->priv;
}

static void *grow(void *ptr, int *cap, int need, size_t size)
{
	void *n;

	if (need <= *cap)
		return ptr;
	*cap = need * 2;
	n = realloc(ptr, (size_t)*cap * size);
	if (!n)
		abort();
	return n;
}

static int csv_begin(struct nb_print *p)
{
	p->priv = calloc(1, sizeof(struct csv));
	return p->priv ? 0 : -ENOMEM;
}

static void rows_free(struct csv *c)
{
	for (int r = 0; r < c->nrows; r++) {
		for (int i = 0; i < c->rows[r].n; i++)
			free(c->rows[r].cells[i].value);
		free(c->rows[r].cells);
	}
	c->nrows = 0;
}

static void csv_discard(struct nb_print *p)
{
	struct csv *c = C(p);

	rows_free(c);
	free(c->rows);
	for (int i = 0; i < c->ncols; i++) {
		free(c->cols[i]);
		if (c->outside)
			free(c->outside[i]);
	}
	free(c->outside);
	free(c->cols);
	free(c);
	p->priv = NULL;
}

/* One field, quoted when it must be (RFC 4180, 2.6 and 2.7). */
static void put_field(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void write_rows(struct nb_print *p)
{
	struct csv *c = C(p);

	/* a fixed header is written even over no rows: it is the contract */
	if (!c->nrows && !(c->fixed && !c->header_done))
		return;
	if (!c->header_done) {
		for (int i = 0; i < c->ncols; i++) {
			if (i)
				fputc(',', p->out);
			put_field(p->out, c->cols[i]);
		}
		fputc('\n', p->out);
		c->header_done = true;
	}
	for (int r = 0; r < c->nrows; r++) {
		const struct row *row = &c->rows[r];

		for (int i = 0; i < c->ncols; i++) {
			const char *v = c->outside ? c->outside[i] : NULL;

			for (int k = 0; k < row->n; k++)
				if (row->cells[k].col == i)
					v = row->cells[k].value;
			if (i)
				fputc(',', p->out);
			if (v)
				put_field(p->out, v);
		}
		fputc('\n', p->out);
	}
	rows_free(c);
}

static int csv_end(struct nb_print *p)
{
	write_rows(p);
	csv_discard(p);
	return 0;
}

static void csv_flush(struct nb_print *p)
{
	write_rows(p);
}

static void csv_record_begin(struct nb_print *p, const struct nb_print_device *id)
{
	struct csv *c = C(p);

	(void)id;
	if (c->record_depth)
		return;	/* a record inside a record: its values are the outer one's */
	c->rows = grow(c->rows, &c->caprows, c->nrows + 1, sizeof(*c->rows));
	memset(&c->rows[c->nrows++], 0, sizeof(struct row));
	c->record_depth = p->depth;
}

static void csv_record_end(struct nb_print *p)
{
	if (C(p)->record_depth == p->depth)
		C(p)->record_depth = 0;
}

static char *dup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	return d;
}

static void csv_columns(struct nb_print *p, const char *const *cols, int n)
{
	struct csv *c = C(p);

	if (c->ncols || c->nrows)
		return;	/* before the first record only */
	c->cols = grow(c->cols, &c->capcols, n, sizeof(*c->cols));
	c->outside = calloc((size_t)n + 1, sizeof(*c->outside));
	if (!c->outside)
		abort();
	for (int i = 0; i < n; i++)
		c->cols[i] = dup(cols[i]);
	c->ncols = n;
	c->fixed = true;
}

/* The column of a name, added while the header is not written; -1: none. */
static int column(struct csv *c, const char *name)
{
	for (int i = 0; i < c->ncols; i++)
		if (!strcmp(c->cols[i], name))
			return i;
	if (c->header_done || c->fixed)
		return -1;
	c->cols = grow(c->cols, &c->capcols, c->ncols + 1, sizeof(*c->cols));
	c->cols[c->ncols] = strdup(name);
	if (!c->cols[c->ncols])
		abort();
	return c->ncols++;
}

/* The value as a field: plain, no unit. */
static void field_text(const struct nb_value *v, char *buf, size_t n)
{
	if (v->type == NB_V_BOOL)
		snprintf(buf, n, "%s", v->b ? "true" : "false");
	else if (v->type == NB_V_DBL)
		snprintf(buf, n, "%.15g", v->d);
	else
		nb_value_plain(v, buf, n);
}

/* A value outside the records, for a declared column: the later rows' */
static void set_outside(struct csv *c, const char *name, const struct nb_value *v)
{
	char buf[512];
	int col = c->fixed ? column(c, name) : -1;

	if (col < 0)
		return;
	field_text(v, buf, sizeof(buf));
	free(c->outside[col]);
	c->outside[col] = dup(buf);
}

/*
 * The record's field of column name: text, or with add, text appended to
 * what it holds (a labelled reading's set).
 */
static void set(struct nb_print *p, const char *name, const char *text, bool add)
{
	struct csv *c = C(p);
	struct row *row;
	int col;

	if (!c->record_depth || !c->nrows)
		return;
	col = column(c, name);
	if (col < 0)
		return;
	row = &c->rows[c->nrows - 1];
	for (int k = 0; k < row->n; k++) {
		char *old = row->cells[k].value, *v;

		if (row->cells[k].col != col)
			continue;
		if (add && *old && *text) {
			if (asprintf(&v, "%s %s", old, text) < 0)
				abort();
		} else {
			v = dup(add && !*text ? old : text);
		}
		free(old);
		row->cells[k].value = v;
		return;
	}
	row->cells = grow(row->cells, &row->cap, row->n + 1, sizeof(*row->cells));
	row->cells[row->n].col = col;
	row->cells[row->n].value = dup(text);
	row->n++;
}

static void csv_field(struct nb_print *p, const struct nb_value *v)
{
	char name[256], buf[512];

	if (!nb_print_path(p, v->key, name, sizeof(name)))
		return;
	if (!C(p)->record_depth) {
		if (p->depth == 0)
			set_outside(C(p), name, v);
		return;
	}
	field_text(v, buf, sizeof(buf));
	set(p, name, buf, false);
}

static void csv_cell(struct nb_print *p, int col, const struct nb_value *v)
{
	(void)col;
	if (v->key)
		csv_field(p, v);
}

static void csv_reading(struct nb_print *p, const struct nb_value *v)
{
	char buf[512];

	if (!v->key)
		return;
	if (!v->lname) {
		field_text(v, buf, sizeof(buf));
		set(p, v->key, buf, false);
	} else if (v->type != NB_V_MISSING) {
		set(p, v->key, nb_reading_item(v, buf, sizeof(buf)), true);
	}
}

const struct nb_print_ops nb_print_csv_ops = {
	.name = "csv",
	.begin = csv_begin,
	.end = csv_end,
	.discard = csv_discard,
	.flush = csv_flush,
	.record_begin = csv_record_begin,
	.record_end = csv_record_end,
	.field = csv_field,
	.cell = csv_cell,
	.reading = csv_reading,
	.note = nb_print_note_stderr,
	.columns = csv_columns,
};
