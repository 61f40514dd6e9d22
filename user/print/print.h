/* SPDX-License-Identifier: MIT */
/*
 * One print layer for text and JSON: each call prints one value, as a
 * "label: value" line in text mode or as a member of the JSON document
 * (json-c) in JSON mode, so that the two outputs never drift apart.
 *
 *	nb_print_begin(common.json);
 *	nb_obj_begin("clocks", "Clocks");
 *	nb_u64("sclk_max_mhz", "max engine clock", 1845, "MHz");
 *	nb_missing("mclk_max_mhz", "max memory clock", "kernel too old");
 *	nb_obj_end();
 *	return nb_print_end(common.json_path);
 *
 * key is the JSON member name (NULL: text only); label is the text label
 * (NULL: JSON only). A missing value is JSON null and "unavailable" in
 * text, never 0. Tables (nb_table_*) are aligned columns in text and an
 * array of objects in JSON.
 *
 * Text goes to stdout as it is printed; JSON is kept until nb_print_end(),
 * which writes it to stdout or, atomically (temporary file and rename), to
 * a file.
 */
#ifndef NAVIBENCH_PRINT_H
#define NAVIBENCH_PRINT_H

#include <stdbool.h>
#include <stdint.h>

struct json_object;

/* Start a document: JSON when json is true, text otherwise. */
void nb_print_begin(bool json);
bool nb_print_is_json(void);

/*
 * nb_print_end() - finish the document. In JSON mode writes it, pretty,
 * to path (NULL or "-": stdout). Returns NB_EXIT_OK or NB_EXIT_FAIL after
 * saying why the file could not be written (nothing is left behind).
 */
int nb_print_end(const char *path);

/* nb_print_discard() - drop the document unwritten (after an error). */
void nb_print_discard(void);

/*
 * nb_print_line() - JSON mode: write the document as one compact line to
 * stdout and start a new, empty one (JSON Lines, for streams of samples).
 * Text mode: flush stdout.
 */
void nb_print_line(void);

/* The document's root object (JSON mode; NULL in text mode). */
struct json_object *nb_print_root(void);

/* Nested object (member key; or an element when inside an array). Text:
 * "title:" heading when title is non-NULL, members indented under it. */
void nb_obj_begin(const char *key, const char *title);
void nb_obj_end(void);
/* Array member key; text: "title:" heading when title is non-NULL. */
void nb_arr_begin(const char *key, const char *title);
void nb_arr_end(void);

void nb_str(const char *key, const char *label, const char *value);
void nb_u64(const char *key, const char *label, uint64_t v, const char *unit);
void nb_i64(const char *key, const char *label, int64_t v, const char *unit);
/* prec: digits after the point in text; JSON gets the full double. */
void nb_dbl(const char *key, const char *label, double v, int prec, const char *unit);
void nb_bool(const char *key, const char *label, bool v);
/* A value that is not there: JSON null, text "unavailable (why)". */
void nb_missing(const char *key, const char *label, const char *why);
/*
 * nb_fieldf() - a value whose JSON form (jv, ownership taken; NULL for
 * null) and text form (printf format) differ, e.g. bytes in JSON and
 * "4.00 GiB" in text. Still one call, one place.
 */
void nb_fieldf(const char *key, const char *label, struct json_object *jv,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Text mode only: a free line at the current indentation. */
void nb_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Tables: column key NULL = text only; title NULL = JSON only. */
struct nb_column {
	const char *key;
	const char *title;
	bool right;		/* right-aligned in text */
};

void nb_table_begin(const char *key, const struct nb_column *cols, int ncols);
void nb_row_begin(void);
/* The next cell of the row: text form and JSON form (jv owned; NULL: null). */
void nb_cell(struct json_object *jv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void nb_cell_str(const char *s);	/* NULL: null / "-" */
void nb_row_end(void);
void nb_table_end(void);

/* Human-readable byte count ("4.00 GiB"). */
const char *nb_fmt_bytes(char *buf, unsigned long n, uint64_t bytes);

/*
 * nb_write_file_atomic() - write len bytes to path through a temporary
 * file in the same directory and rename(2). Returns 0 or -errno; leaves
 * nothing behind on failure. A path that exists and is not a regular file
 * (/dev/stdout, a FIFO) is written in place instead.
 */
int nb_write_file_atomic(const char *path, const void *data, unsigned long len);

#endif /* NAVIBENCH_PRINT_H */
