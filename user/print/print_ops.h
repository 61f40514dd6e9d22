/* SPDX-License-Identifier: MIT */
/*
 * The inside of the print layer: what an output format implements
 * (nvme-cli's print_ops: one table of functions per format). print.c
 * keeps the document's position (struct nb_print) and calls the format;
 * a format writes to p->out and keeps its own state in p->priv.
 *
 * The formats: nb_print_text_ops (text.c), nb_print_json_ops (json.c),
 * nb_print_csv_ops (csv.c), nb_print_prometheus_ops (prometheus.c). A
 * format whose begin is NULL is declared but not implemented: --format
 * refuses it (exit 2, "not yet supported").
 *
 * Calls arrive well nested: print.c checks the nesting (an end without its
 * begin, a value in a table outside a row) and drops what is not. Every
 * slot but name, begin and end may be NULL: the format ignores those calls
 * (a metrics format, for one, needs only record_begin/record_end for the
 * device's identity and reading for the values; p->id is the record's
 * identity for as long as it lasts). A value's strings are valid only
 * during the call: a format that keeps them (CSV until its header, a
 * format grouping series by metric) copies them.
 *
 * Adding a format: a file with its struct nb_print_ops, a name in enum
 * nb_format and nb_format_names[] (print.h), an entry in formats[]
 * (print.c). Commands do not change.
 */
#ifndef NAVIBENCH_PRINT_OPS_H
#define NAVIBENCH_PRINT_OPS_H

#include <stddef.h>

#include "print/print.h"

#define NB_PRINT_DEPTH 16

enum nb_level {
	NB_L_ROOT,
	NB_L_OBJECT,
	NB_L_ARRAY,
	NB_L_TABLE,		/* its elements are records (rows) */
	NB_L_RECORD,
	NB_L_READINGS,
	NB_L_CELL_OBJECT,	/* an object in a table cell */
};

struct nb_print_frame {
	enum nb_level level;
	const char *key;	/* the member's key (NULL: an element or text only) */
	const char *title;
	int n;			/* elements added so far (arrays, tables, readings) */
	const struct nb_print_device *id;	/* NB_L_RECORD: its identity */
};

struct nb_print {
	const struct nb_print_ops *ops;
	FILE *out;		/* where the format writes */
	const char *cmd;	/* for notes: "navibench CMD: ..." */
	void *priv;		/* the format's state */

	/* position: frame[0] is the root */
	struct nb_print_frame frame[NB_PRINT_DEPTH];
	int depth;
	int dropped;		/* begins past NB_PRINT_DEPTH, ended without a frame */

	/* the table being printed (NB_L_TABLE on the stack) */
	const struct nb_column *cols;
	int ncols;
	int cell;		/* the next cell's column */

	/* the record being printed; id NULL when none or not a device */
	const struct nb_print_device *id;
	int records;		/* records so far in the document */
	bool stream;		/* nb_print_stream(): samples, one per flush */

	/* output to a file: a memory stream, written at close */
	char *path;
	char *buf;
	size_t len;
	bool failed;		/* a write failed: close reports it */
};

struct nb_print_ops {
	const char *name;	/* as --format takes it */
	bool live;		/* for people: a live terminal view may replace records */
	const char *no_stream;	/* why it cannot hold a stream of samples; NULL: it can */

	/* the document: begin sets p->priv; end writes what is left, frees it */
	int (*begin)(struct nb_print *p);	/* 0 or -errno */
	int (*end)(struct nb_print *p);		/* 0 or -errno */
	void (*discard)(struct nb_print *p);	/* free p->priv, write nothing */
	void (*flush)(struct nb_print *p);	/* a sample of a stream is complete */

	/* p->frame[p->depth] is the new level (its key, title) when called */
	void (*record_begin)(struct nb_print *p, const struct nb_print_device *id);
	void (*record_end)(struct nb_print *p);
	void (*group_begin)(struct nb_print *p);	/* NB_L_OBJECT, ARRAY, READINGS, CELL_OBJECT */
	void (*group_end)(struct nb_print *p);	/* called before the frame is popped */
	void (*table_begin)(struct nb_print *p);
	void (*table_end)(struct nb_print *p);

	void (*field)(struct nb_print *p, const struct nb_value *v);	/* a member */
	void (*cell)(struct nb_print *p, int col, const struct nb_value *v);	/* key: the column's */
	void (*reading)(struct nb_print *p, const struct nb_value *v);
	void (*text)(struct nb_print *p, const char *line);	/* text only */
	void (*note)(struct nb_print *p, const char *msg);
	/* nb_print_columns(): the fixed columns of a row-based format */
	void (*columns)(struct nb_print *p, const char *const *cols, int n);
};

extern const struct nb_print_ops nb_print_text_ops;
extern const struct nb_print_ops nb_print_json_ops;
extern const struct nb_print_ops nb_print_csv_ops;
extern const struct nb_print_ops nb_print_prometheus_ops;

/* The frame being filled. */
static inline struct nb_print_frame *nb_print_top(struct nb_print *p)
{
	return &p->frame[p->depth];
}

/* Whether a level of that kind is open on the stack. */
bool nb_print_inside(const struct nb_print *p, enum nb_level level);

/*
 * nb_value_text() - the text form of v: v->text, or the value with its
 * unit ("1845 MHz"); "unavailable (why)" when missing.
 */
const char *nb_value_text(const struct nb_value *v, char *buf, size_t n);

/* nb_value_text_dup() - the same in a new string (free() it), however long. */
char *nb_value_text_dup(const struct nb_value *v);

/* nb_value_plain() - the value alone, no unit ("1845", "0.5", "yes"); "" when missing. */
const char *nb_value_plain(const struct nb_value *v, char *buf, size_t n);

/*
 * nb_print_path() - the name of a value in its record: the keys from the
 * innermost record down, joined with '.', an array's elements by index
 * ("pci.device_id", "notes.0"). false when the value has no name (no key
 * and not in an array) or it does not fit.
 */
bool nb_print_path(const struct nb_print *p, const char *key, char *buf, size_t n);

/*
 * nb_reading_item() - what a labelled reading adds to its key's field in a
 * row or a stream's line: its lvalue, or "lvalue=value" when the value is
 * not 1 (the set's members are flags, mostly) or is a counter's ("umc=1").
 */
const char *nb_reading_item(const struct nb_value *v, char *buf, size_t n);

/* The default note: "navibench CMD: msg" on stderr. */
void nb_print_note_stderr(struct nb_print *p, const char *msg);

#endif /* NAVIBENCH_PRINT_OPS_H */
