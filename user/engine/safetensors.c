// SPDX-License-Identifier: MIT
/*
 * safetensors, float32 only: an 8-byte little-endian header length, a JSON
 * header {"name": {"dtype": "F32", "shape": [...], "data_offsets": [b, e]},
 * "__metadata__": {...}}, then the data. Reading is strict: every tensor the
 * model needs, no other, each F32, of the model's shape, inside the file.
 */
#include <errno.h>
#include "print/jwrite.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "print/print.h"

#define MAX_HEADER (64u << 20)

#ifndef NB_WITHOUT_JSON_C
static void shape_str(char *buf, size_t n, const int64_t *shape, int rank)
{
	size_t o = 0;

	o += snprintf(buf + o, n - o, "[");
	for (int i = 0; i < rank && o < n; i++)
		o += snprintf(buf + o, n - o, "%s%lld", i ? ", " : "",
			      (long long)shape[i]);
	if (o < n)
		snprintf(buf + o, n - o, "]");
}
#endif

int nb_safetensors_write(const char *path, struct nb_weights *w)
{
	struct nb_tensor t[7 * NB_MAX_LAYERS + 2];
	int n = nb_weights_tensors(w, t);
	struct json_object *hdr = json_object_new_object();
	struct json_object *meta = json_object_new_object();
	size_t off = 0;
	int rc = -1;

	json_object_object_add(meta, "format", json_object_new_string("pt"));
	json_object_object_add(meta, "model", json_object_new_string(w->model.name ?
								   w->model.name : ""));
	json_object_object_add(hdr, "__metadata__", meta);
	for (int i = 0; i < n; i++) {
		struct json_object *o = json_object_new_object();
		struct json_object *sh = json_object_new_array();
		struct json_object *off2 = json_object_new_array();

		for (int d = 0; d < t[i].rank; d++)
			json_object_array_add(sh, json_object_new_int64(t[i].shape[d]));
		json_object_array_add(off2, json_object_new_int64((int64_t)off));
		off += t[i].count * sizeof(float);
		json_object_array_add(off2, json_object_new_int64((int64_t)off));
		json_object_object_add(o, "dtype", json_object_new_string("F32"));
		json_object_object_add(o, "shape", sh);
		json_object_object_add(o, "data_offsets", off2);
		json_object_object_add(hdr, t[i].name, o);
	}
	const char *js = json_object_to_json_string_ext(hdr, JSON_C_TO_STRING_PLAIN);
	size_t hl = strlen(js), padded = (hl + 7) & ~(size_t)7;
	size_t total = 8 + padded + off;
	unsigned char *buf = malloc(total);

	if (!buf) {
		fprintf(stderr, "navibench: %s: out of memory\n", path);
		goto out;
	}
	for (int i = 0; i < 8; i++)
		buf[i] = (unsigned char)((uint64_t)padded >> (8 * i));
	memcpy(buf + 8, js, hl);
	memset(buf + 8 + hl, ' ', padded - hl);
	/* float32 little-endian: x86 and every target we build for */
	off = 8 + padded;
	for (int i = 0; i < n; i++) {
		memcpy(buf + off, *t[i].data, t[i].count * sizeof(float));
		off += t[i].count * sizeof(float);
	}
	int err = nb_write_file_atomic(path, buf, total);
	if (err)
		fprintf(stderr, "navibench: cannot write %s: %s\n", path,
			strerror(-err));
	else
		rc = 0;
	free(buf);
out:
	json_object_put(hdr);
	return rc;
}

#ifndef NB_WITHOUT_JSON_C
static unsigned char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f) {
		fprintf(stderr, "navibench: cannot open %s: %s\n", path,
			strerror(errno));
		return NULL;
	}
	for (;;) {
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 1 << 16;
			unsigned char *nb = realloc(buf, nc);

			if (!nb) {
				fprintf(stderr, "navibench: %s: out of memory\n", path);
				goto fail;
			}
			buf = nb;
			cap = nc;
		}
		size_t r = fread(buf + n, 1, cap - n, f);

		n += r;
		if (r == 0) {
			if (ferror(f)) {
				fprintf(stderr, "navibench: cannot read %s: %s\n",
					path, strerror(errno));
				goto fail;
			}
			break;
		}
	}
	fclose(f);
	*len = n;
	return buf ? buf : malloc(1);
fail:
	fclose(f);
	free(buf);
	return NULL;
}

/* the JSON header after the 8-byte length, or NULL (said); *hl_out its length */
static struct json_object *parse_header(const unsigned char *buf, size_t len,
					const char *path, uint64_t *hl_out)
{
	struct json_object *hdr;

	if (len < 8) {
		fprintf(stderr,
			"navibench: %s: truncated: %zu bytes, expected at least the 8-byte header length of a safetensors file\n",
			path, len);
		return NULL;
	}
	uint64_t hl = 0;
	for (int i = 0; i < 8; i++)
		hl |= (uint64_t)buf[i] << (8 * i);
	if (hl > MAX_HEADER || hl > len - 8) {
		fprintf(stderr,
			"navibench: %s: header length %llu: %s (file is %zu bytes); not a safetensors file, or truncated\n",
			path, (unsigned long long)hl,
			hl > MAX_HEADER ? "over 64 MiB" : "past the end of the file",
			len);
		return NULL;
	}
	struct json_tokener *tok = json_tokener_new();
	hdr = json_tokener_parse_ex(tok, (const char *)buf + 8, (int)hl);
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	json_tokener_free(tok);
	if (!hdr || jerr != json_tokener_success ||
	    !json_object_is_type(hdr, json_type_object)) {
		fprintf(stderr, "navibench: %s: header: not a JSON object (%s)\n",
			path, json_tokener_error_desc(jerr));
		json_object_put(hdr);
		return NULL;
	}
	*hl_out = hl;
	return hdr;
}

/* the entry o of tensor t: dtype F32 and the model's shape */
static int check_type(struct json_object *o, const struct nb_tensor *t,
		      const char *path, const char *model, const char *want)
{
	struct json_object *dt, *sh;
	char got[96];

	if (!json_object_object_get_ex(o, "dtype", &dt) ||
	    !json_object_is_type(dt, json_type_string) ||
	    strcmp(json_object_get_string(dt), "F32")) {
		fprintf(stderr,
			"navibench: %s: tensor %s: dtype %s, expected F32\n",
			path, t->name,
			dt ? json_object_get_string(dt) : "missing");
		return -1;
	}
	int64_t s[8];
	int rank = 0;
	bool ok = json_object_object_get_ex(o, "shape", &sh) &&
		json_object_is_type(sh, json_type_array) &&
		json_object_array_length(sh) <= 8;
	if (ok) {
		rank = (int)json_object_array_length(sh);
		for (int d = 0; d < rank; d++) {
			struct json_object *e = json_object_array_get_idx(sh, d);

			ok &= json_object_is_type(e, json_type_int);
			s[d] = json_object_get_int64(e);
		}
	}
	if (!ok) {
		fprintf(stderr,
			"navibench: %s: tensor %s: shape missing or malformed, expected %s\n",
			path, t->name, want);
		return -1;
	}
	bool same = rank == t->rank;
	for (int d = 0; same && d < rank; d++)
		same = s[d] == t->shape[d];
	if (!same) {
		shape_str(got, sizeof(got), s, rank);
		fprintf(stderr,
			"navibench: %s: tensor %s: shape %s, expected %s (model %s)\n",
			path, t->name, got, want, model);
		return -1;
	}
	return 0;
}

/* the entry o's data_offsets: *begin of t's bytes, inside data_len */
static int data_range(struct json_object *o, const struct nb_tensor *t,
		      const char *path, const char *want, size_t data_len,
		      int64_t *begin)
{
	struct json_object *of;

	if (!json_object_object_get_ex(o, "data_offsets", &of) ||
	    !json_object_is_type(of, json_type_array) ||
	    json_object_array_length(of) != 2 ||
	    !json_object_is_type(json_object_array_get_idx(of, 0), json_type_int) ||
	    !json_object_is_type(json_object_array_get_idx(of, 1), json_type_int)) {
		fprintf(stderr,
			"navibench: %s: tensor %s: data_offsets missing or malformed, expected [begin, end]\n",
			path, t->name);
		return -1;
	}
	int64_t b = json_object_get_int64(json_object_array_get_idx(of, 0));
	int64_t e = json_object_get_int64(json_object_array_get_idx(of, 1));
	if (b < 0 || e < b || (uint64_t)(e - b) != t->count * sizeof(float)) {
		fprintf(stderr,
			"navibench: %s: tensor %s: data_offsets [%lld, %lld]: expected %zu bytes (F32 %s)\n",
			path, t->name, (long long)b, (long long)e,
			t->count * sizeof(float), want);
		return -1;
	}
	if ((uint64_t)e > data_len) {
		fprintf(stderr,
			"navibench: %s: truncated: tensor %s ends at byte %lld of the data, the file has %zu bytes of data\n",
			path, t->name, (long long)e, data_len);
		return -1;
	}
	*begin = b;
	return 0;
}

/* tensor t, checked against the header, copied from data into *t->data */
static int load_tensor(struct json_object *hdr, const struct nb_tensor *t,
		       const char *path, const char *model,
		       const unsigned char *data, size_t data_len)
{
	struct json_object *o;
	char want[96];
	int64_t b;

	shape_str(want, sizeof(want), t->shape, t->rank);
	if (!json_object_object_get_ex(hdr, t->name, &o)) {
		fprintf(stderr,
			"navibench: %s: tensor %s: missing (model %s needs it, F32 %s)\n",
			path, t->name, model, want);
		return -1;
	}
	if (check_type(o, t, path, model, want) ||
	    data_range(o, t, path, want, data_len, &b))
		return -1;
	memcpy(*t->data, data + b, t->count * sizeof(float));
	return 0;
}

/* 0 when the header names no tensor beyond the model's n in t */
static int check_no_extra(struct json_object *hdr, const struct nb_tensor *t,
			  int n, const char *path, const char *model)
{
	json_object_object_foreach(hdr, key, val) {
		bool known = !strcmp(key, "__metadata__");

		(void)val;
		for (int i = 0; i < n && !known; i++)
			known = !strcmp(key, t[i].name);
		if (!known) {
			fprintf(stderr,
				"navibench: %s: tensor %s: not part of model %s (wrong model?)\n",
				path, key, model);
			return -1;
		}
	}
	return 0;
}

int nb_safetensors_read(const char *path, struct nb_weights *w)
{
	struct nb_tensor t[7 * NB_MAX_LAYERS + 2];
	int n = nb_weights_tensors(w, t);
	size_t len;
	unsigned char *buf = read_all(path, &len);
	struct json_object *hdr;
	uint64_t hl;
	int rc = -1;

	if (!buf)
		return -1;
	hdr = parse_header(buf, len, path, &hl);
	if (!hdr)
		goto out;
	size_t base = 8 + hl, data_len = len - base;

	for (int i = 0; i < n; i++)
		if (load_tensor(hdr, &t[i], path, w->model.name, buf + base,
				data_len))
			goto out;
	rc = check_no_extra(hdr, t, n, path, w->model.name);
out:
	json_object_put(hdr);
	free(buf);
	return rc;
}
#else
/* Reading the header needs a JSON parser: json-c (optional.h). */
int nb_safetensors_read(const char *path, struct nb_weights *w)
{
	(void)w;
	fprintf(stderr, "navibench: %s: reading safetensors is off in this build: it needs "
		"json-c (install libjson-c-dev, then rebuild: make -C user)\n", path);
	return -1;
}
#endif
