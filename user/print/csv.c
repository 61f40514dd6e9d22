// SPDX-License-Identifier: MIT
/*
 * CSV: one row per record (a device, a table row, a sample), after one
 * header line. The columns are the keys of the record's values, nested
 * keys joined with '.' ("pci.device_id", "compute.cu_layout.0.active_cus");
 * a reading's column is its key. Values are plain (no unit; a missing one
 * is an empty field); fields with a comma, a quote or a line break are
 * quoted as RFC 4180 says. What is not in a record (notes) goes to stderr.
 *
 * The header is the union of the columns of the rows written with it: all
 * the rows of a document, or the first sample of a stream; a column that
 * first appears in a later sample is left out.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "print_ops.h"

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
	for (int i = 0; i < c->ncols; i++)
		free(c->cols[i]);
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

	if (!c->nrows)
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
			if (i)
				fputc(',', p->out);
			for (int k = 0; k < row->n; k++) {
				if (row->cells[k].col == i) {
					put_field(p->out, row->cells[k].value);
					break;
				}
			}
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

/* The column of a name, added while the header is not written; -1: none. */
static int column(struct csv *c, const char *name)
{
	for (int i = 0; i < c->ncols; i++)
		if (!strcmp(c->cols[i], name))
			return i;
	if (c->header_done)
		return -1;
	c->cols = grow(c->cols, &c->capcols, c->ncols + 1, sizeof(*c->cols));
	c->cols[c->ncols] = strdup(name);
	if (!c->cols[c->ncols])
		abort();
	return c->ncols++;
}

static void set(struct nb_print *p, const char *name, const struct nb_value *v)
{
	struct csv *c = C(p);
	struct row *row;
	char buf[512];
	int col;

	if (!c->record_depth || !c->nrows)
		return;
	col = column(c, name);
	if (col < 0)
		return;
	if (v->type == NB_V_BOOL)
		snprintf(buf, sizeof(buf), "%s", v->b ? "true" : "false");
	else if (v->type == NB_V_DBL)
		snprintf(buf, sizeof(buf), "%.15g", v->d);
	else
		nb_value_plain(v, buf, sizeof(buf));
	row = &c->rows[c->nrows - 1];
	for (int k = 0; k < row->n; k++) {
		if (row->cells[k].col == col) {
			free(row->cells[k].value);
			row->cells[k].value = strdup(buf);
			return;
		}
	}
	row->cells = grow(row->cells, &row->cap, row->n + 1, sizeof(*row->cells));
	row->cells[row->n].col = col;
	row->cells[row->n].value = strdup(buf);
	if (!row->cells[row->n].value)
		abort();
	row->n++;
}

static void csv_field(struct nb_print *p, const struct nb_value *v)
{
	char name[256];

	if (nb_print_path(p, v->key, name, sizeof(name)))
		set(p, name, v);
}

static void csv_cell(struct nb_print *p, int col, const struct nb_value *v)
{
	(void)col;
	if (v->key)
		csv_field(p, v);
}

static void csv_reading(struct nb_print *p, const struct nb_value *v)
{
	char name[256];

	if (v->key)
		set(p, nb_reading_name(v, name, sizeof(name)), v);
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
};
