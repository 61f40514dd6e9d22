// SPDX-License-Identifier: MIT
/*
 * The print layer: see print.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "navibench.h"
#include "print.h"

#define MAX_DEPTH	16
#define LABEL_WIDTH	24
#define MAX_COLS	24

static struct {
	bool json;
	struct json_object *root;
	struct json_object *stack[MAX_DEPTH];	/* JSON containers */
	int depth;				/* 0: root */
	int indent;				/* text: current indentation */
	bool indented[MAX_DEPTH];		/* text: level added an indent */

	/* the table being printed */
	const struct nb_column *cols;
	int ncols, cell;
	struct json_object *row;
	char **cells;				/* text: rows x ncols strings */
	int nrows, cap;
} P;

void nb_print_begin(bool json)
{
	memset(&P, 0, sizeof(P));
	P.json = json;
	if (json) {
		P.root = json_object_new_object();
		P.stack[0] = P.root;
	}
}

bool nb_print_is_json(void)
{
	return P.json;
}

struct json_object *nb_print_root(void)
{
	return P.root;
}

/* Add jv to the current container, under key when it is an object. */
static void add(const char *key, struct json_object *jv)
{
	struct json_object *c;

	/* key NULL: text only. Inside an array the key only says "JSON too". */
	if (!P.json || !key) {
		json_object_put(jv);
		return;
	}
	c = P.stack[P.depth];
	if (json_object_is_type(c, json_type_array))
		json_object_array_add(c, jv);
	else
		json_object_object_add(c, key, jv);
}

static void text_field(const char *label, const char *value)
{
	int w = LABEL_WIDTH - P.indent;

	if (P.json || !label)
		return;
	if (w < 1)
		w = 1;
	printf("%*s%-*s %s\n", P.indent, "", w, label[0] ? label : "", value);
}

static void push(const char *key, const char *title, struct json_object *c)
{
	if (P.depth + 1 >= MAX_DEPTH) {
		json_object_put(c);
		return;
	}
	if (P.json) {
		struct json_object *cur = P.stack[P.depth];

		if (json_object_is_type(cur, json_type_array))
			json_object_array_add(cur, c);
		else
			json_object_object_add(cur, key ? key : "?", c);
		P.stack[++P.depth] = c;
		return;
	}
	json_object_put(c);
	P.depth++;
	P.indented[P.depth] = title != NULL;
	if (title) {
		printf("%*s%s:\n", P.indent, "", title);
		P.indent += 2;
	}
}

static void pop(void)
{
	if (P.depth == 0)
		return;
	if (!P.json && P.indented[P.depth])
		P.indent -= 2;
	P.depth--;
}

void nb_obj_begin(const char *key, const char *title)
{
	push(key, title, json_object_new_object());
}

void nb_obj_end(void)
{
	pop();
}

void nb_arr_begin(const char *key, const char *title)
{
	push(key, title, json_object_new_array());
}

void nb_arr_end(void)
{
	pop();
}

void nb_str(const char *key, const char *label, const char *value)
{
	add(key, value ? json_object_new_string(value) : NULL);
	text_field(label, value ? value : "unavailable");
}

void nb_u64(const char *key, const char *label, uint64_t v, const char *unit)
{
	char buf[64];

	add(key, json_object_new_uint64(v));
	snprintf(buf, sizeof(buf), "%llu%s%s", (unsigned long long)v,
		 unit ? " " : "", unit ? unit : "");
	text_field(label, buf);
}

void nb_i64(const char *key, const char *label, int64_t v, const char *unit)
{
	char buf[64];

	add(key, json_object_new_int64(v));
	snprintf(buf, sizeof(buf), "%lld%s%s", (long long)v, unit ? " " : "", unit ? unit : "");
	text_field(label, buf);
}

void nb_dbl(const char *key, const char *label, double v, int prec, const char *unit)
{
	char buf[64];

	/* JSON has no NaN or infinity: such a value is missing, not a number. */
	if (!isfinite(v)) {
		nb_missing(key, label, "not measured");
		return;
	}
	add(key, json_object_new_double(v));
	snprintf(buf, sizeof(buf), "%.*f%s%s", prec, v, unit ? " " : "", unit ? unit : "");
	text_field(label, buf);
}

void nb_bool(const char *key, const char *label, bool v)
{
	add(key, json_object_new_boolean(v));
	text_field(label, v ? "yes" : "no");
}

void nb_missing(const char *key, const char *label, const char *why)
{
	char buf[256];

	add(key, NULL);
	snprintf(buf, sizeof(buf), "unavailable%s%s%s", why ? " (" : "", why ? why : "",
		 why ? ")" : "");
	text_field(label, buf);
}

void nb_fieldf(const char *key, const char *label, struct json_object *jv,
	       const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	add(key, jv);
	if (P.json || !label)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	text_field(label, buf);
}

void nb_text(const char *fmt, ...)
{
	va_list ap;

	if (P.json)
		return;
	printf("%*s", P.indent, "");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void nb_table_begin(const char *key, const struct nb_column *cols, int ncols)
{
	if (ncols > MAX_COLS)
		ncols = MAX_COLS;
	if (P.json)
		push(key, NULL, json_object_new_array());
	P.cols = cols;
	P.ncols = ncols;
	P.nrows = 0;
}

void nb_row_begin(void)
{
	P.cell = 0;
	if (P.json) {
		P.row = json_object_new_object();
		return;
	}
	if (P.nrows + 1 > P.cap) {
		int cap = P.cap ? P.cap * 2 : 16;
		char **c = realloc(P.cells, sizeof(char *) * (size_t)cap * (size_t)P.ncols);

		if (!c)
			return;
		P.cells = c;
		P.cap = cap;
	}
	for (int i = 0; i < P.ncols; i++)
		P.cells[P.nrows * P.ncols + i] = NULL;
	P.nrows++;
}

void nb_cell(struct json_object *jv, const char *fmt, ...)
{
	const struct nb_column *col;
	va_list ap;
	char buf[512];

	if (P.cell >= P.ncols) {
		json_object_put(jv);
		return;
	}
	col = &P.cols[P.cell++];
	if (P.json) {
		if (col->key)
			json_object_object_add(P.row, col->key, jv);
		else
			json_object_put(jv);
		return;
	}
	json_object_put(jv);
	if (!P.cells || P.nrows > P.cap)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	P.cells[(P.nrows - 1) * P.ncols + P.cell - 1] = strdup(buf);
}

void nb_cell_str(const char *s)
{
	nb_cell(s ? json_object_new_string(s) : NULL, "%s", s ? s : "-");
}

void nb_row_end(void)
{
	if (P.json && P.row) {
		json_object_array_add(P.stack[P.depth], P.row);
		P.row = NULL;
	}
}

void nb_table_end(void)
{
	int width[MAX_COLS] = { 0 };
	int shown[MAX_COLS], n = 0;

	if (P.json) {
		pop();
		return;
	}
	for (int c = 0; c < P.ncols; c++) {
		if (!P.cols[c].title)
			continue;
		shown[n++] = c;
		width[c] = (int)strlen(P.cols[c].title);
		for (int r = 0; r < P.nrows; r++) {
			const char *s = P.cells[r * P.ncols + c];
			int l = s ? (int)strlen(s) : 1;

			if (l > width[c])
				width[c] = l;
		}
	}
	for (int r = -1; r < P.nrows; r++) {
		printf("%*s", P.indent, "");
		for (int i = 0; i < n; i++) {
			int c = shown[i];
			const char *s = r < 0 ? P.cols[c].title : P.cells[r * P.ncols + c];
			bool last = i == n - 1;

			if (!s)
				s = "-";
			if (P.cols[c].right)
				printf("%*s", width[c], s);
			else if (last)
				printf("%s", s);
			else
				printf("%-*s", width[c], s);
			if (!last)
				printf("  ");
		}
		printf("\n");
	}
	for (int i = 0; i < P.nrows * P.ncols; i++)
		free(P.cells[i]);
	free(P.cells);
	P.cells = NULL;
	P.nrows = P.cap = 0;
	P.cols = NULL;
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

static int write_all(int fd, const char *p, unsigned long len)
{
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		len -= (unsigned long)w;
	}
	return 0;
}

int nb_write_file_atomic(const char *path, const void *data, unsigned long len)
{
	char *dup, *dup2, *tmp = NULL;
	const char *p = data;
	struct stat st;
	int fd = -1, err = 0;

	/*
	 * Not a regular file (/dev/stdout, a FIFO, /dev/null): written in
	 * place; renaming over it would replace the device or pipe.
	 */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		err = write_all(fd, p, len);
		if (close(fd) && !err)
			err = -errno;
		return err;
	}
	dup = strdup(path);
	dup2 = strdup(path);
	if (!dup || !dup2 ||
	    asprintf(&tmp, "%s/.%s.XXXXXX", dirname(dup), basename(dup2)) < 0) {
		free(dup);
		free(dup2);
		return -ENOMEM;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	err = write_all(fd, p, len);
	if (err)
		goto out;
	if (fchmod(fd, 0644) || fsync(fd)) {
		err = -errno;
		goto out;
	}
	if (close(fd)) {
		fd = -1;
		err = -errno;
		goto out;
	}
	fd = -1;
	if (rename(tmp, path))
		err = -errno;
out:
	if (fd >= 0)
		close(fd);
	if (err && tmp)
		unlink(tmp);
	free(tmp);
	free(dup);
	free(dup2);
	return err;
}

int nb_print_end(const char *path)
{
	const char *s;
	int rc = NB_EXIT_OK;

	if (!P.json) {
		fflush(stdout);
		return NB_EXIT_OK;
	}
	s = json_object_to_json_string_ext(P.root, JSON_C_TO_STRING_PRETTY |
					   JSON_C_TO_STRING_SPACED |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!path || !strcmp(path, "-")) {
		printf("%s\n", s);
		if (fflush(stdout))
			rc = NB_EXIT_FAIL;
	} else {
		size_t n = strlen(s);
		char *buf = malloc(n + 2);
		int err;

		if (!buf) {
			err = -ENOMEM;
		} else {
			memcpy(buf, s, n);
			buf[n] = '\n';
			err = nb_write_file_atomic(path, buf, n + 1);
			free(buf);
		}
		if (err) {
			fprintf(stderr, "navibench: cannot write %s: %s\n", path, strerror(-err));
			rc = NB_EXIT_FAIL;
		}
	}
	json_object_put(P.root);
	P.root = NULL;
	return rc;
}

void nb_print_discard(void)
{
	json_object_put(P.root);
	P.root = NULL;
}

void nb_print_line(void)
{
	if (P.json) {
		printf("%s\n", json_object_to_json_string_ext(P.root, JSON_C_TO_STRING_PLAIN |
							       JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(P.root);
		P.root = json_object_new_object();
		P.depth = 0;
		P.stack[0] = P.root;
	}
	fflush(stdout);
}
