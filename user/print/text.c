// SPDX-License-Identifier: MIT
/*
 * Text: "label   value" lines, indented under their headings; tables and
 * readings as aligned columns; in a stream (--watch), one line per record
 * of key=value pairs.
 *
 * What is longer than the line wraps between words, never inside one (a
 * word longer than the line is left whole): a value under its value
 * column, a table's last column under itself, a free line under its
 * indentation plus two. The line is the terminal's width when the output
 * is a terminal, else 80 columns, so that a file or a pipe gets the same
 * text on every machine. A stream's lines are records: never wrapped.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "print/print_ops.h"

#define LABEL_WIDTH	24
#define MAX_COLS	24
#define NOT_A_TTY_WIDTH	80
#define MIN_WIDTH	20	/* a narrower terminal is taken as this wide */
#define LONG_CELL	24	/* a table's column of text this wide may wrap */

/* Rows of text cells, printed aligned when the table or readings end. */
struct grid {
	int ncols;
	const char *title[MAX_COLS];	/* NULL: column not shown */
	bool right[MAX_COLS];
	char **cells;			/* nrows x ncols, NULL: "-" */
	int nrows, cap;
};

struct text {
	int width;			/* of a line */
	int indent;
	bool indented[NB_PRINT_DEPTH];	/* the level added an indent */
	struct grid grid;		/* the table or readings being printed */
	char *line;			/* stream: the record's line */
	size_t len, cap;
	const char *set_key;		/* stream: the labelled reading last added */
};

static struct text *T(struct nb_print *p)
{
	return p->priv;
}

/* The width of a line of f: its terminal's, else NOT_A_TTY_WIDTH. */
static int line_width(FILE *f)
{
	struct winsize ws;
	int fd = fileno(f);

	if (fd < 0 || !isatty(fd) || ioctl(fd, TIOCGWINSZ, &ws) || !ws.ws_col)
		return NOT_A_TTY_WIDTH;
	return ws.ws_col < MIN_WIDTH ? MIN_WIDTH : ws.ws_col;
}

static int text_begin(struct nb_print *p)
{
	struct text *t = calloc(1, sizeof(struct text));

	if (!t)
		return -ENOMEM;
	t->width = line_width(p->out);
	p->priv = t;
	return 0;
}

/*
 * put_wrapped() - s, the cursor at column col, broken between words where
 * a line would pass width; each further line starts with indent spaces.
 * Runs of spaces inside a line are kept (aligned text); at a break they
 * go. Ends the last line.
 */
static void put_wrapped(FILE *f, const char *s, int col, int indent, int width)
{
	bool start = true;	/* nothing of s on this line yet */

	while (*s) {
		size_t gap = strspn(s, " "), word = strcspn(s + gap, " ");

		if (!word)
			break;	/* trailing spaces */
		if (!start && col + (int)(gap + word) > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
			gap = 0;
			s += strspn(s, " ");
		}
		fprintf(f, "%.*s", (int)(gap + word), s);
		col += (int)(gap + word);
		s += gap + word;
		start = false;
	}
	fputc('\n', f);
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

/* The cell of the last row's column col: s, which the grid now owns. */
static void grid_take(struct grid *g, int col, char *s)
{
	char **c;

	if (!g->nrows || col >= g->ncols) {
		free(s);
		return;
	}
	c = &g->cells[(g->nrows - 1) * g->ncols + col];
	free(*c);
	*c = s;
}

static void grid_set(struct grid *g, int col, const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();
	grid_take(g, col, d);
}

/* The grid's shown columns (into shown[]) and their widths. */
static int grid_measure(const struct grid *g, int shown[MAX_COLS], int width[MAX_COLS])
{
	int n = 0;

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
	return n;
}

/* The longest word of s. */
static int longest_word(const char *s)
{
	int best = 0;

	while (*s) {
		int w = (int)strcspn(s += strspn(s, " "), " ");

		best = w > best ? w : best;
		s += w;
	}
	return best;
}

/* The longest word of column c's cells (the title is not wrapped). */
static int column_word(const struct grid *g, int c)
{
	int best = (int)strlen(g->title[c]);

	for (int r = 0; r < g->nrows; r++) {
		const char *s = g->cells[r * g->ncols + c];
		int w = s ? longest_word(s) : 1;

		best = w > best ? w : best;
	}
	return best;
}

/*
 * Where a table is wider than the line: its columns of long text (a
 * left-aligned column with a cell of LONG_CELL characters or more, of
 * several words) narrowed one character at a time, the widest first, each
 * down to its longest word at most, until the table fits or none can
 * narrow. A table of short values (numbers, names) is left as it is:
 * wrapping it would split its cells for a few columns. wrap[c]: column c
 * wraps.
 */
static void grid_fit(const struct grid *g, const int *shown, int n, int *width, int line,
		     bool *wrap)
{
	int total = 0, floor[MAX_COLS];

	for (int i = 0; i < n; i++) {
		int c = shown[i];

		total += width[c] + (i ? 2 : 0);
		floor[c] = g->right[c] || width[c] < LONG_CELL ? width[c] : column_word(g, c);
	}
	while (total > line) {
		int best = -1;

		for (int i = 0; i < n; i++) {
			int c = shown[i];

			if (width[c] > floor[c] && (best < 0 || width[c] > width[best]))
				best = c;
		}
		if (best < 0)
			return;
		width[best]--;
		total--;
		wrap[best] = true;
	}
}

/*
 * The next line of s no wider than w, broken between words (a longer
 * word whole): its length in *len; the rest from the returned pointer.
 */
static const char *next_piece(const char *s, int w, int *len)
{
	const char *end = s, *p = s;

	while (*p) {
		const char *word = p + strspn(p, " ");
		const char *after = word + strcspn(word, " ");

		if (after == word)
			break;
		if (end != s && after - s > w)
			break;
		end = after;
		p = after;
	}
	*len = (int)(end - s);
	return end + strspn(end, " ");
}

static void put_cell(FILE *f, const char *s, int len, int width, bool right, bool last)
{
	if (right)
		fprintf(f, "%*.*s", width, len, s);
	else if (last)
		fprintf(f, "%.*s", len, s);
	else
		fprintf(f, "%-*.*s", width, len, s);
}

/*
 * One row (r -1: the titles), on as many lines as its wrapped columns
 * need; a column's text goes on under itself, the others on the first
 * line only.
 */
static void grid_print_row(struct nb_print *p, const struct grid *g, int r, const int *shown,
			   int n, const int *width, const bool *wrap)
{
	const char *rest[MAX_COLS];
	bool more = true;

	for (int i = 0; i < n; i++) {
		const char *s = r < 0 ? g->title[shown[i]] : g->cells[r * g->ncols + shown[i]];

		rest[i] = s ? s : "-";
	}
	while (more) {
		int last = -1;

		/* the line ends with its last column that has text */
		for (int i = 0; i < n; i++)
			if (*rest[i])
				last = i;
		fprintf(p->out, "%*s", T(p)->indent, "");
		more = false;
		for (int i = 0; i <= last; i++) {
			int c = shown[i], len = (int)strlen(rest[i]);
			const char *s = rest[i];

			if (wrap[c] && r >= 0)
				rest[i] = next_piece(s, width[c], &len);
			else
				rest[i] = s + len;
			put_cell(p->out, s, len, width[c], g->right[c], i == last);
			more |= *rest[i] != '\0';
			if (i < last)
				fprintf(p->out, "  ");
		}
		fprintf(p->out, "\n");
	}
}

static void grid_print(struct nb_print *p, struct grid *g)
{
	int width[MAX_COLS] = { 0 }, shown[MAX_COLS];
	bool wrap[MAX_COLS] = { false };
	int n = grid_measure(g, shown, width);

	grid_fit(g, shown, n, width, T(p)->width - T(p)->indent, wrap);
	for (int r = -1; r < g->nrows; r++)
		grid_print_row(p, g, r, shown, n, width, wrap);
	grid_free(g);
}

/* ---- stream lines ---- */

static void line_grow(struct text *t, size_t need)
{
	if (t->len + need + 1 > t->cap) {
		size_t cap = (t->len + need + 1) * 2;
		char *l = realloc(t->line, cap);

		if (!l)
			abort();
		t->line = l;
		t->cap = cap;
	}
}

/* value, in one token: "61.0 C" is "61.0C", a set's items joined with ','. */
static void line_put_token(struct text *t, const char *value, bool item)
{
	for (const char *s = value; *s; s++)
		if (!isspace((unsigned char)*s))
			t->line[t->len++] = *s;
		else if (item)
			t->line[t->len++] = ',';
	t->line[t->len] = '\0';
}

static void line_add(struct text *t, const char *key, const char *value)
{
	line_grow(t, strlen(key) + strlen(value) + 3);
	t->len += (size_t)sprintf(t->line + t->len, "%s%s=", t->len ? " " : "", key);
	line_put_token(t, value, false);
	t->set_key = NULL;
}

/* A labelled reading: its key's field lists the set (throttle_active=ppt0,temp_hotspot). */
static void line_add_item(struct text *t, const char *key, const char *item)
{
	if (!t->set_key || strcmp(t->set_key, key)) {
		line_add(t, key, item);
		t->set_key = key;
		return;
	}
	line_grow(t, strlen(item) + 2);
	t->line[t->len++] = ',';
	line_put_token(t, item, true);
}

/* A stream's pair: name=value, the value in one token. */
static void stream_value(struct nb_print *p, const struct nb_value *v, const char *name)
{
	char *text;

	if (!name)
		return;
	if (v->type == NB_V_MISSING && !v->text) {
		line_add(T(p), name, "missing");
		return;
	}
	text = nb_value_text_dup(v);
	line_add(T(p), name, text);
	free(text);
}

/* ---- records, groups, tables ---- */

static void text_record_begin(struct nb_print *p, const struct nb_print_device *id)
{
	(void)id;
	if (nb_print_inside(p, NB_L_TABLE)) {
		grid_row(&T(p)->grid);
	} else if (p->stream) {
		T(p)->len = 0;
		T(p)->set_key = NULL;
	}
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
	char name[256], *text;
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
	/* the value column: where a label as wide as LABEL_WIDTH would end, and one space */
	fprintf(p->out, "%*s%-*s ", t->indent, "", w, v->label);
	text = nb_value_text_dup(v);
	put_wrapped(p->out, text, t->indent + (int)(strlen(v->label) > (size_t)w ?
		    strlen(v->label) : (size_t)w) + 1, t->indent + w + 1, t->width);
	free(text);
}

static void text_cell(struct nb_print *p, int col, const struct nb_value *v)
{
	if (v->type == NB_V_MISSING && !v->text)
		grid_set(&T(p)->grid, col, "-");
	else
		grid_take(&T(p)->grid, col, nb_value_text_dup(v));
}

static void text_reading(struct nb_print *p, const struct nb_value *v)
{
	struct grid *g = &T(p)->grid;
	char buf[256], *name;

	if (!v->key)
		return;
	if (streaming(p)) {
		if (!v->lname)
			stream_value(p, v, v->key);
		else if (v->type != NB_V_MISSING)
			line_add_item(T(p), v->key, nb_reading_item(v, buf, sizeof(buf)));
		return;
	}
	/* a labelled reading in the table: "throttle_active ppt0" */
	if (asprintf(&name, "%s%s%s", v->key, v->lvalue ? " " : "",
		     v->lvalue ? v->lvalue : "") < 0)
		abort();
	grid_row(g);
	grid_take(g, 0, name);
	if (v->type == NB_V_MISSING) {
		grid_set(g, 1, "missing");
		snprintf(buf, sizeof(buf), "(%s)", v->why ? v->why : "no source gives it");
		grid_set(g, 2, buf);
		return;
	}
	grid_take(g, 1, nb_value_text_dup(v));
	grid_set(g, 2, v->source ? v->source : "-");
}

static void text_text(struct nb_print *p, const char *line)
{
	struct text *t = T(p);
	size_t lead = strspn(line, " ");

	if (streaming(p) || nb_print_inside(p, NB_L_TABLE))
		return;
	/* a line's own leading spaces are its indentation too */
	fprintf(p->out, "%*s%.*s", t->indent, "", (int)lead, line);
	put_wrapped(p->out, line + lead, t->indent + (int)lead, t->indent + (int)lead + 2,
		    t->width);
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
