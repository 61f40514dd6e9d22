/* SPDX-License-Identifier: MIT */
/*
 * The print layer: one call per value, one implementation per output
 * format (struct nb_print_ops, print_ops.h: text.c, json.c, csv.c,
 * prometheus.c), picked once from --format by cli_parse(). Commands call
 * these functions only: they never test the format and never call json-c.
 *
 *	struct nb_print *p = nb_print_open(c.format, c.json_path, "info");
 *	nb_record_begin(p, &id);		// one device: its identity
 *	nb_obj_begin(p, "clocks", "Clocks");
 *	nb_u64(p, "sclk_max_mhz", "max engine clock", 1845, "MHz");
 *	nb_missing(p, "mclk_max_mhz", "max memory clock", "kernel too old");
 *	nb_obj_end(p);
 *	nb_record_end(p);
 *	return nb_print_close(p);
 *
 * key is the stable machine name (JSON member, CSV column, metric name;
 * NULL: text only); label is the text label (NULL: not in text). A
 * missing value is JSON null, an empty CSV field, no Prometheus series and
 * "unavailable" in text: never 0.
 *
 * Records: what is printed between nb_record_begin() and nb_record_end()
 * is one record (a device, or one sample of a device). Text and JSON
 * print the structure (objects, arrays, tables) as given; CSV prints one
 * row per record (a header line first; nested keys joined with '.');
 * Prometheus prints the record's readings as series labelled with its
 * identity. Inside a table a record is one row.
 *
 * Readings (nb_readings_begin(), nb_reading()): measured values, each
 * with a stable key, a unit, a kind (gauge or counter) and the source it
 * was read from. Text: an aligned READING/VALUE/SOURCE table; JSON: an
 * object keyed by reading, each {value, unit, source} and, when the value
 * is null, missing (why), the same in a document and in a stream (a
 * consumer looks a reading up by its name, as CSV and Prometheus name it);
 * CSV: one column per key; the readings are what Prometheus exports. A
 * reading with a label (lname, lvalue: "reason", "ppt0") is one of a set
 * under one key: JSON nests it by lvalue (readings.throttle_active.ppt0);
 * CSV and text streams give the key one field listing the set's lvalues
 * ("ppt0 temp_hotspot"; "lvalue=value" for a value other than 1, and
 * for every counter's: "umc=1 gfx=0");
 * Prometheus makes it a label.
 *
 * Text wraps what is longer than the line (the terminal's width, else 80
 * columns) between words, never inside one: a value under its value
 * column, a table's last column under itself, a free line under its
 * indentation. A stream's lines (one per record) are never wrapped.
 *
 * Everything is written to the FILE given (JSON when the document is
 * complete), or atomically (temporary file and rename) to a path.
 */
#ifndef NAVIBENCH_PRINT_H
#define NAVIBENCH_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct nb_print;		/* one output document, opaque */
struct nb_print_ops;		/* one output format (print_ops.h) */

/* The formats, in the order of nb_format_names[] (--format's choices). */
enum nb_format {
	NB_FORMAT_TEXT,
	NB_FORMAT_JSON,
	NB_FORMAT_CSV,
	NB_FORMAT_PROMETHEUS,
	NB_FORMAT_COUNT,
};

/* "text", "json", "csv", "prometheus", NULL. */
extern const char *const nb_format_names[NB_FORMAT_COUNT + 1];

/* The implementation of a format. */
const struct nb_print_ops *nb_format_ops(enum nb_format f);

/* The name of a format ("json"); "?" for NULL. */
const char *nb_format_name(const struct nb_print_ops *fmt);

/*
 * nb_format_ready() - whether this build implements fmt (a format may be
 * declared before its writer exists). false: why is set.
 */
bool nb_format_ready(const struct nb_print_ops *fmt, const char **why);

/*
 * nb_format_live() - whether fmt is for people (text): a command may then
 * draw a live terminal view instead of a stream of records.
 */
bool nb_format_live(const struct nb_print_ops *fmt);

/*
 * nb_format_streams() - whether fmt can hold a stream of samples (--watch:
 * one record after another). false, with why, for Prometheus: an
 * exposition holds each series once.
 */
bool nb_format_streams(const struct nb_print_ops *fmt, const char **why);

/* Who a record is about: what Prometheus puts in labels, CSV in columns. */
struct nb_print_device {
	int index;		/* navibench's device index */
	const char *kind;	/* "amdgpu", "sim", "hip", "cpu" */
	const char *name;	/* marketing name, ASIC name or CPU model */
	const char *pci_address;	/* "0000:03:00.0"; NULL when none */
	const char *gfx_target;	/* "gfx1012"; NULL when not known */
	const char *asic;	/* "navi14"; NULL when not known */
	const char *runtime_status;	/* "active", "suspended"...; NULL: no runtime PM */
};

enum nb_vtype {
	NB_V_MISSING,		/* not there: null, empty, no series, "unavailable" */
	NB_V_STR,
	NB_V_BOOL,
	NB_V_INT,
	NB_V_UINT,
	NB_V_DBL,
};

enum nb_kind {
	NB_KIND_ATTR,		/* a property (a name, an id, a limit) */
	NB_KIND_GAUGE,		/* a reading that goes up and down */
	NB_KIND_COUNTER,	/* a reading that only grows (wraps are the reader's) */
};

/*
 * One value, as every format sees it. The nb_str()... helpers below fill
 * one in; nb_value() takes it as is, for what they do not cover.
 */
struct nb_value {
	const char *key;	/* stable name; NULL: text only */
	const char *label;	/* text label; NULL: not in text */
	enum nb_vtype type;
	union {
		const char *s;
		bool b;
		int64_t i;
		uint64_t u;
		double d;
	};
	const char *unit;	/* of the value as given: "mC", "MHz", "mW", "B", "%"... */
	enum nb_kind kind;
	const char *text;	/* text form when it is not value + unit ("4.00 GiB") */
	int prec;		/* NB_V_DBL: digits after the point in text */
	const char *why;	/* NB_V_MISSING: why, for text */
	const char *source;	/* readings: where it was read ("hwmon"); NULL: none */
	const char *lname;	/* readings: one more label (name and value), */
	const char *lvalue;	/* e.g. "engine" "gfx"; NULL: none */
};

/* A table column: key NULL = not in JSON/CSV; title NULL = not in text. */
struct nb_column {
	const char *key;
	const char *title;
	bool right;		/* right-aligned in text */
};

/*
 * nb_print_open() - start a document in format fmt, written to path when
 * path is non-NULL and not "-", else to stdout. cmd names the command in
 * notes ("navibench CMD: ..."). Never NULL (aborts when out of memory).
 */
struct nb_print *nb_print_open(const struct nb_print_ops *fmt, const char *path,
			       const char *cmd);

/* nb_print_open_file() - the same, written to out (left open). */
struct nb_print *nb_print_open_file(const struct nb_print_ops *fmt, FILE *out,
				    const char *cmd);

/*
 * nb_print_close() - finish the document, write what is left and free p.
 * Returns NB_EXIT_OK, or NB_EXIT_FAIL after saying why the output could
 * not be written (a file is then not left behind).
 */
int nb_print_close(struct nb_print *p);

/* nb_print_discard() - after an error: write nothing more, free p. */
void nb_print_discard(struct nb_print *p);

/*
 * nb_print_stream() - the document is a stream of samples (--watch), each
 * ended by nb_print_flush(), before anything is printed: text prints each
 * record on one line (key=value ...), JSON one line per sample with the
 * readings as an object by key, CSV its header once.
 */
void nb_print_stream(struct nb_print *p);

/*
 * nb_print_flush() - one sample of a stream is complete (--watch): JSON
 * writes it as one line (JSON Lines), CSV its rows (the header once), text
 * flushes; the next values start a new sample.
 */
void nb_print_flush(struct nb_print *p);

/*
 * nb_print_columns() - the columns of every row of a format that prints
 * rows (CSV), in order: its header, the same whatever the records hold or
 * the device reads. A value belongs to the column of its name (the keys
 * from its record down joined with '.', a reading's key); a value no
 * column names is left out. A column may name a value outside any record
 * (the document's "time"): the rows written after it carry it. Without
 * columns, CSV's header is the union of the names in the first rows.
 * cols must live until nb_print_close(); call it before the first record.
 */
void nb_print_columns(struct nb_print *p, const char *const *cols, int n);

/* Records (see above). id may be NULL (a record that is not a device). */
void nb_record_begin(struct nb_print *p, const struct nb_print_device *id);
void nb_record_end(struct nb_print *p);

/*
 * Nested object (member key; an element when inside an array). Text:
 * "title:" heading when title is non-NULL, members indented under it.
 */
void nb_obj_begin(struct nb_print *p, const char *key, const char *title);
void nb_obj_end(struct nb_print *p);
/* Array member key; text: "title:" heading when title is non-NULL. */
void nb_arr_begin(struct nb_print *p, const char *key, const char *title);
void nb_arr_end(struct nb_print *p);

void nb_value(struct nb_print *p, const struct nb_value *v);
void nb_str(struct nb_print *p, const char *key, const char *label, const char *value);
void nb_u64(struct nb_print *p, const char *key, const char *label, uint64_t v,
	    const char *unit);
void nb_i64(struct nb_print *p, const char *key, const char *label, int64_t v,
	    const char *unit);
/* prec: digits after the point in text; JSON gets the full double. NaN: missing. */
void nb_dbl(struct nb_print *p, const char *key, const char *label, double v, int prec,
	    const char *unit);
void nb_bool(struct nb_print *p, const char *key, const char *label, bool v);
/*
 * nb_time() - the wall-clock time now, as RFC 3339 in UTC to the
 * millisecond ("2026-12-02T10:29:04.123Z"): a string value.
 */
void nb_time(struct nb_print *p, const char *key, const char *label);
/* The same form of ts (CLOCK_REALTIME) into buf; returns buf. */
const char *nb_fmt_time(char *buf, size_t n, const struct timespec *ts);
/* A value that is not there; why is shown in text ("unavailable (why)"). */
void nb_missing(struct nb_print *p, const char *key, const char *label, const char *why);
/* A number "0x%0*x" (a string, as JSON has no hex). */
void nb_hex(struct nb_print *p, const char *key, const char *label, unsigned int v,
	    int width);
/* A byte count: the number, "4.00 GiB" in text. */
void nb_bytes(struct nb_print *p, const char *key, const char *label, uint64_t v);
/* Text only: a free line at the current indentation. */
void nb_text(struct nb_print *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * nb_note() - something the reader should know (a device skipped, a source
 * not readable). JSON: an element of the document's "notes" array; other
 * formats: "navibench CMD: note" on stderr.
 */
void nb_note(struct nb_print *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Readings (see above). key: the JSON array's name; title: text heading. */
void nb_readings_begin(struct nb_print *p, const char *key, const char *title);
void nb_reading(struct nb_print *p, const struct nb_value *v);
void nb_readings_end(struct nb_print *p);

/*
 * Tables: aligned columns in text, an array of objects in JSON, rows in
 * CSV. A row is a record: nb_record_begin(p, id) ... nb_record_end(p),
 * its cells in column order through nb_cell*() (the column gives the key).
 */
void nb_table_begin(struct nb_print *p, const char *key, const struct nb_column *cols,
		    int ncols);
void nb_table_end(struct nb_print *p);
/* The next cell: v's key is the column's; v->text or the value in text. */
void nb_cell(struct nb_print *p, const struct nb_value *v);
void nb_cell_str(struct nb_print *p, const char *s);	/* NULL: null / "-" */
void nb_cell_int(struct nb_print *p, int64_t v);
void nb_cell_dbl(struct nb_print *p, double v, const char *text);	/* NaN: null */
void nb_cell_missing(struct nb_print *p, const char *text);	/* null; text (or "-") */
/*
 * nb_cell_obj_begin() - the next cell is an object: its members follow
 * (nb_str()...) up to nb_obj_end(); text shows only text in the cell.
 */
void nb_cell_obj_begin(struct nb_print *p, const char *text);

/*
 * Human-readable byte count ("4.00 GiB"), at most NB_FMT_BYTES_WIDTH
 * characters below 10000 TiB ("1023.99 MiB"): the width of a column of them.
 */
#define NB_FMT_BYTES_WIDTH 11
const char *nb_fmt_bytes(char *buf, unsigned long n, uint64_t bytes);

/*
 * nb_write_file_atomic() - write len bytes to path through a temporary
 * file in the same directory and rename(2). Returns 0 or -errno; leaves
 * nothing behind on failure. A path that exists and is not a regular file
 * (/dev/stdout, a FIFO) is written in place instead.
 */
int nb_write_file_atomic(const char *path, const void *data, unsigned long len);

/*
 * The Prometheus text format, for what writes metrics of its own rather
 * than through a document of the print layer (cmd/run_textfile.c).
 * nb_prom_add_label() - append name="value" to the label list in buf (n
 * bytes), escaped as the format wants; a NULL or empty value is left out.
 * nb_prom_put_value() - a sample's value as Prometheus reads it: the
 * shortest exact form, NaN and +Inf/-Inf, whatever the locale.
 */
void nb_prom_add_label(char *buf, size_t n, const char *name, const char *value);
void nb_prom_put_value(FILE *f, double v);

/*
 * nb_prom_no_hwmon_duplicates - when true, the Prometheus format leaves
 * out for amdgpu devices the readings node_exporter's hwmon collector
 * already exports (GT_SENSORS' @nodex: temperatures, power, voltages, fan,
 * PWM), for hosts that run both; false (the default): every reading.
 */
extern bool nb_prom_no_hwmon_duplicates;

#endif /* NAVIBENCH_PRINT_H */
