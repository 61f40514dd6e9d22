// SPDX-License-Identifier: MIT
/*
 * NumPy .npy (format versions 1, 2 and 3), little-endian float32 in C order
 * only: "\x93NUMPY", version, header length, a Python dict literal
 * {'descr': '<f4', 'fortran_order': False, 'shape': (...), } padded to 64
 * bytes, then the data.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/engine.h"
#include "print/print.h"

void nb_array_free(struct nb_array *a)
{
	free(a->data);
	a->data = NULL;
}

/* the value after 'key': in the header dict, or NULL */
static const char *dict_value(const char *h, const char *key)
{
	char k[32];
	const char *p;

	snprintf(k, sizeof(k), "'%s'", key);
	p = strstr(h, k);
	if (!p) {
		snprintf(k, sizeof(k), "\"%s\"", key);
		p = strstr(h, k);
	}
	if (!p)
		return NULL;
	p += strlen(k);
	while (isspace((unsigned char)*p))
		p++;
	if (*p != ':')
		return NULL;
	p++;
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* the preamble and the header dict, NUL-terminated, or NULL (said) */
static char *read_header(FILE *f, const char *path)
{
	unsigned char pre[12];
	char *hdr;

	if (fread(pre, 1, 10, f) != 10 || memcmp(pre, "\x93NUMPY", 6)) {
		fprintf(stderr,
			"navibench: %s: bad header: not a NumPy .npy file (expected the magic \\x93NUMPY)\n",
			path);
		return NULL;
	}
	int major = pre[6];
	size_t hl;

	if (major == 1) {
		hl = pre[8] | (size_t)pre[9] << 8;
	} else if (major == 2 || major == 3) {
		if (fread(pre + 10, 1, 2, f) != 2) {
			fprintf(stderr, "navibench: %s: bad header: truncated\n", path);
			return NULL;
		}
		hl = pre[8] | (size_t)pre[9] << 8 | (size_t)pre[10] << 16 |
			(size_t)pre[11] << 24;
	} else {
		fprintf(stderr,
			"navibench: %s: bad header: format version %d, expected 1, 2 or 3\n",
			path, major);
		return NULL;
	}
	if (hl > (1u << 20)) {
		fprintf(stderr, "navibench: %s: bad header: length %zu, expected under 1 MiB\n",
			path, hl);
		return NULL;
	}
	hdr = malloc(hl + 1);
	if (!hdr || fread(hdr, 1, hl, f) != hl) {
		fprintf(stderr, "navibench: %s: bad header: truncated\n", path);
		free(hdr);
		return NULL;
	}
	hdr[hl] = 0;
	return hdr;
}

/* descr and fortran_order: 0 for little-endian float32 in C order */
static int check_layout(const char *hdr, const char *path)
{
	const char *v = dict_value(hdr, "descr");

	if (!v || (*v != '\'' && *v != '"')) {
		fprintf(stderr, "navibench: %s: bad header: field descr missing, expected '<f4'\n",
			path);
		return -1;
	}
	char descr[16] = "";
	int dl = 0;
	for (const char *p = v + 1; *p && *p != *v && dl < 15; p++)
		descr[dl++] = *p;
	descr[dl] = 0;
	if (strcmp(descr, "<f4")) {
		fprintf(stderr,
			"navibench: %s: field descr: dtype '%s', expected '<f4' (little-endian float32; convert with a.astype(numpy.float32))\n",
			path, descr);
		return -1;
	}
	v = dict_value(hdr, "fortran_order");
	if (!v || strncmp(v, "False", 5)) {
		fprintf(stderr,
			"navibench: %s: field fortran_order: %s, expected False (C order; use numpy.ascontiguousarray)\n",
			path, v && !strncmp(v, "True", 4) ? "True" : "missing");
		return -1;
	}
	return 0;
}

/* the shape tuple into a->shape, a->rank and a->count */
static int parse_shape(const char *hdr, const char *path, struct nb_array *a)
{
	const char *v = dict_value(hdr, "shape");

	if (!v || *v != '(') {
		fprintf(stderr, "navibench: %s: field shape: missing or not a tuple\n",
			path);
		return -1;
	}
	const char *p = v + 1;
	a->count = 1;
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (*p == ')')
			break;
		char *end;
		long long d = strtoll(p, &end, 10);

		if (end == p || d < 0 || a->rank >= 8) {
			fprintf(stderr,
				"navibench: %s: field shape: malformed (expected a tuple of up to 8 sizes)\n",
				path);
			return -1;
		}
		a->shape[a->rank++] = d;
		if (d && a->count > ((size_t)1 << 40) / (size_t)d) {
			fprintf(stderr, "navibench: %s: field shape: too large\n", path);
			return -1;
		}
		a->count *= (size_t)d;
		p = end;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* a->count values into a->data, the file ending right after them */
static int read_data(FILE *f, const char *path, struct nb_array *a)
{
	/* a shape the file cannot hold: said before allocating for it */
	struct stat st;
	long pos = ftell(f);

	if (pos >= 0 && !fstat(fileno(f), &st) && S_ISREG(st.st_mode) &&
	    st.st_size >= pos &&
	    (uint64_t)(st.st_size - pos) / sizeof(float) < a->count) {
		fprintf(stderr,
			"navibench: %s: truncated: %llu of %zu float32 values\n",
			path, (unsigned long long)(st.st_size - pos) / sizeof(float),
			a->count);
		return -1;
	}
	a->data = malloc(a->count ? a->count * sizeof(float) : 1);
	if (!a->data) {
		fprintf(stderr, "navibench: %s: out of memory\n", path);
		return -1;
	}
	size_t got = fread(a->data, sizeof(float), a->count, f);
	if (got != a->count) {
		fprintf(stderr,
			"navibench: %s: truncated: %zu of %zu float32 values\n",
			path, got, a->count);
		return -1;
	}
	if (fgetc(f) != EOF) {
		fprintf(stderr,
			"navibench: %s: data past the %zu values the shape says\n",
			path, a->count);
		return -1;
	}
	return 0;
}

int nb_npy_read(const char *path, struct nb_array *a)
{
	FILE *f = fopen(path, "rb");
	char *hdr;
	int rc = -1;

	memset(a, 0, sizeof(*a));
	if (!f) {
		fprintf(stderr, "navibench: cannot open %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	hdr = read_header(f, path);
	if (hdr && !check_layout(hdr, path) && !parse_shape(hdr, path, a) &&
	    !read_data(f, path, a))
		rc = 0;
	if (rc)
		nb_array_free(a);
	free(hdr);
	fclose(f);
	return rc;
}

int nb_npy_write(const char *path, const struct nb_array *a)
{
	char dict[256];
	int o = snprintf(dict, sizeof(dict),
			 "{'descr': '<f4', 'fortran_order': False, 'shape': (");

	for (int i = 0; i < a->rank; i++)
		o += snprintf(dict + o, sizeof(dict) - o, "%lld%s",
			      (long long)a->shape[i],
			      a->rank == 1 ? "," : i + 1 < a->rank ? ", " : "");
	o += snprintf(dict + o, sizeof(dict) - o, "), }");
	/* 10-byte preamble + dict + spaces + '\n', a multiple of 64 */
	size_t hl = ((10 + o + 1 + 63) & ~(size_t)63) - 10;
	size_t total = 10 + hl + a->count * sizeof(float);
	unsigned char *buf = malloc(total);
	int rc = -1;

	if (!buf) {
		fprintf(stderr, "navibench: %s: out of memory\n", path);
		return -1;
	}
	memcpy(buf, "\x93NUMPY\x01\x00", 8);
	buf[8] = (unsigned char)(hl & 0xff);
	buf[9] = (unsigned char)(hl >> 8);
	memcpy(buf + 10, dict, o);
	memset(buf + 10 + o, ' ', hl - o - 1);
	buf[10 + hl - 1] = '\n';
	memcpy(buf + 10 + hl, a->data, a->count * sizeof(float));
	int err = nb_write_file_atomic(path, buf, total);
	if (err)
		fprintf(stderr, "navibench: cannot write %s: %s\n", path,
			strerror(-err));
	else
		rc = 0;
	free(buf);
	return rc;
}
