// SPDX-License-Identifier: MIT
/*
 * Text: "label   value" lines, indented under their headings; tables and
 * readings as aligned columns; in a stream (--watch), one line per record
 * of key=value pairs.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "print_ops.h"

#define LABEL_WIDTH	24
#define MAX_COLS	24

/* Rows of text cells, printed aligned when the table or readings end. */
struct grid {
	int ncols;
	const char *title[MAX_COLS];	/* NULL: column not shown */
	bool right[MAX_COLS];
	char **cells;			/* nrows x ncols, NULL: "-" */
	int nrows, cap;
};

struct text {
	int indent;
	bool indented[NB_PRINT_DEPTH];	/* the level added an indent */
	struct grid grid;		/* the table or readings being printed */
	char *line;			/* stream: the record's line */
	size_t len, cap;
};

static struct text *T(struct nb_print *p)
{
	return p->priv;
}

static int text_begin(struct nb_print *p)
{
	p->priv = calloc(1, sizeof(struct text));
	return p->priv ? 0 : -ENOMEM;
}

static void grid_free(struct grid *g)
{
	for (int i = 0; i < g->nrows * g->ncols; i++)
		free(g->cells[i]);
	free(g->cells);
	memset(g, 0, sizeof(*g));
}

static void text_discard(struct nb_print *p)
{
	struct text *t = T(p);

	grid_free(&t->grid);
	free(t->line);
	free(t);
	p->priv = NULL;
}

static int text_end(struct nb_print *p)
{
	text_discard(p);
	return 0;
}

static void grid_row(struct grid *g)
{
	if (g->nrows + 1 > g->cap) {
		int cap = g->cap ? g->cap * 2 : 16;
		char **c = realloc(g->cells, sizeof(char *) * (size_t)cap * (size_t)g->ncols);

		if (!c)
			abort();
		g->cells = c;
		g->cap = cap;
	}
	for (int i = 0; i < g->ncols; i++)
		g->cells[g->nrows * g->ncols + i] = NULL;
	g->nrows++;
}

static void grid_set(struct grid *g, int col, const char *s)
{
	char **c;

	if (!g->nrows || col >= g->ncols)
		return;
	c = &g->cells[(g->nrows - 1) * g->ncols + col];
	free(*c);
	*c = strdup(s);
}

static void grid_print(struct nb_print *p, struct grid *g)
{
	int width[MAX_COLS] = { 0 }, shown[MAX_COLS], n = 0;

	for (int c = 0; c < g->ncols; c++) {
		if (!g->title[c])
			continue;
		shown[n++] = c;
		width[c] = (int)strlen(g->title[c]);
		for (int r = 0; r < g->nrows; r++) {
			const char *s = g->cells[r * g->ncols + c];
			int l = s ? (int)strlen(s) : 1;

			if (l > width[c])
				width[c] = l;
		}
	}
	for (int r = -1; r < g->nrows; r++) {
		fprintf(p->out, "%*s", T(p)->indent, "");
		for (int i = 0; i < n; i++) {
			int c = shown[i];
			const char *s = r < 0 ? g->title[c] : g->cells[r * g->ncols + c];
			bool last = i == n - 1;

			if (!s)
				s = "-";
			if (g->right[c])
				fprintf(p->out, "%*s", width[c], s);
			else if (last)
				fprintf(p->out, "%s", s);
			else
				fprintf(p->out, "%-*s", width[c], s);
			if (!last)
				fprintf(p->out, "  ");
		}
		fprintf(p->out, "\n");
	}
	grid_free(g);
}

/* ---- stream lines ---- */

static void line_add(struct text *t, const char *key, const char *value)
{
	size_t need = strlen(key) + strlen(value) + 3;

	if (t->len + need + 1 > t->cap) {
		size_t cap = (t->len + need + 1) * 2;
		char *l = realloc(t->line, cap);

		if (!l)
			abort();
		t->line = l;
		t->cap = cap;
	}
	t->len += (size_t)sprintf(t->line + t->len, "%s%s=", t->len ? " " : "", key);
	/* one token per value: "61.0 C" is "61.0C" */
	for (const char *s = value; *s; s++)
		if (!isspace((unsigned char)*s))
			t->line[t->len++] = *s;
	t->line[t->len] = '\0';
}

/* A stream's pair: name=value, the value in one token. */
static void stream_value(struct nb_print *p, const struct nb_value *v, const char *name)
{
	char buf[256];

	if (!name)
		return;
	if (v->type == NB_V_MISSING && !v->text)
		snprintf(buf, sizeof(buf), "missing");
	else
		nb_value_text(v, buf, sizeof(buf));
	line_add(T(p), name, buf);
}

/* ---- records, groups, tables ---- */

static void text_record_begin(struct nb_print *p, const struct nb_print_device *id)
{
	(void)id;
	if (nb_print_inside(p, NB_L_TABLE))
		grid_row(&T(p)->grid);
	else if (p->stream)
		T(p)->len = 0;
}

static void text_record_end(struct nb_print *p)
{
	struct text *t = T(p);

	if (p->stream && !nb_print_inside(p, NB_L_TABLE) && t->len) {
		fprintf(p->out, "%s\n", t->line);
		t->len = 0;
	}
}

static bool streaming(struct nb_print *p)
{
	return p->stream && nb_print_inside(p, NB_L_RECORD) && !nb_print_inside(p, NB_L_TABLE);
}

static void text_group_begin(struct nb_print *p)
{
	struct nb_print_frame *f = nb_print_top(p);
	struct text *t = T(p);

	t->indented[p->depth] = false;
	if (streaming(p) || nb_print_inside(p, NB_L_CELL_OBJECT))
		return;
	if (f->level == NB_L_READINGS) {
		struct grid *g = &t->grid;

		grid_free(g);
		g->ncols = 3;
		g->title[0] = "READING";
		g->title[1] = "VALUE";
		g->right[1] = true;
		g->title[2] = "SOURCE";
	}
	if (f->title) {
		fprintf(p->out, "%*s%s:\n", t->indent, "", f->title);
		t->indent += 2;
		t->indented[p->depth] = true;
	}
}

static void text_group_end(struct nb_print *p)
{
	struct text *t = T(p);

	if (nb_print_top(p)->level == NB_L_READINGS && !streaming(p))
		grid_print(p, &t->grid);
	if (t->indented[p->depth])
		t->indent -= 2;
	t->indented[p->depth] = false;
}

static void text_table_begin(struct nb_print *p)
{
	struct grid *g = &T(p)->grid;

	grid_free(g);
	g->ncols = p->ncols < MAX_COLS ? p->ncols : MAX_COLS;
	for (int c = 0; c < g->ncols; c++) {
		g->title[c] = p->cols[c].title;
		g->right[c] = p->cols[c].right;
	}
}

static void text_table_end(struct nb_print *p)
{
	grid_print(p, &T(p)->grid);
}

/* ---- values ---- */

static void text_field(struct nb_print *p, const struct nb_value *v)
{
	struct text *t = T(p);
	char buf[512], name[256];
	int w = LABEL_WIDTH - t->indent;

	if (streaming(p)) {
		/* what the text shows (a label), named as in CSV */
		if (v->label && nb_print_path(p, v->key, name, sizeof(name)))
			stream_value(p, v, name);
		return;
	}
	if (!v->label || nb_print_inside(p, NB_L_CELL_OBJECT) || nb_print_inside(p, NB_L_TABLE))
		return;
	if (w < 1)
		w = 1;
	fprintf(p->out, "%*s%-*s %s\n", t->indent, "", w, v->label,
		nb_value_text(v, buf, sizeof(buf)));
}

static void text_cell(struct nb_print *p, int col, const struct nb_value *v)
{
	char buf[512];

	if (v->type == NB_V_MISSING && !v->text)
		snprintf(buf, sizeof(buf), "-");
	else
		nb_value_text(v, buf, sizeof(buf));
	grid_set(&T(p)->grid, col, buf);
}

static void text_reading(struct nb_print *p, const struct nb_value *v)
{
	struct grid *g = &T(p)->grid;
	char buf[256], name[128];

	if (!v->key)
		return;
	nb_reading_name(v, name, sizeof(name));
	if (streaming(p)) {
		stream_value(p, v, name);
		return;
	}
	grid_row(g);
	grid_set(g, 0, name);
	if (v->type == NB_V_MISSING) {
		grid_set(g, 1, "missing");
		snprintf(buf, sizeof(buf), "(%s)", v->why ? v->why : "no source gives it");
		grid_set(g, 2, buf);
		return;
	}
	grid_set(g, 1, nb_value_text(v, buf, sizeof(buf)));
	grid_set(g, 2, v->source ? v->source : "-");
}

static void text_text(struct nb_print *p, const char *line)
{
	if (streaming(p) || nb_print_inside(p, NB_L_TABLE))
		return;
	fprintf(p->out, "%*s%s\n", T(p)->indent, "", line);
}

const struct nb_print_ops nb_print_text_ops = {
	.name = "text",
	.live = true,
	.begin = text_begin,
	.end = text_end,
	.discard = text_discard,
	.record_begin = text_record_begin,
	.record_end = text_record_end,
	.group_begin = text_group_begin,
	.group_end = text_group_end,
	.table_begin = text_table_begin,
	.table_end = text_table_end,
	.field = text_field,
	.cell = text_cell,
	.reading = text_reading,
	.text = text_text,
	.note = nb_print_note_stderr,
};
