// SPDX-License-Identifier: MIT
/*
 * The engine's data side: the moving-squares generator (determinism and the
 * Keras example's statistics), the weights initializers, and safetensors
 * and .npy round trips and malformed files.
 *
 *   test_io DIR                 the tests, with scratch files in DIR
 *   test_io --movie M B T FILE  write a movie of model M (batch B, T frames)
 *   test_io --check-predict M MOVIE PRED [WEIGHTS]
 *                               PRED against the reference forward pass
 */
#include <dirent.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "../tap.h"

static const char *dir;


static char *path(const char *name)
{
	static char buf[4][512];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", dir, name);
	return buf[i];
}

/* ---- stderr capture, to check what an error message names ---- */

static char captured[4096];
static int saved_fd = -1;

static void capture_begin(void)
{
	fflush(stderr);
	saved_fd = dup(2);
	int fd = open(path("stderr.txt"), O_CREAT | O_TRUNC | O_WRONLY, 0600);
	dup2(fd, 2);
	close(fd);
}

static void capture_end(void)
{
	fflush(stderr);
	dup2(saved_fd, 2);
	close(saved_fd);
	FILE *f = fopen(path("stderr.txt"), "r");
	size_t n = f ? fread(captured, 1, sizeof(captured) - 1, f) : 0;
	captured[n] = 0;
	if (f)
		fclose(f);
	if (n && captured[n - 1] == '\n')
		captured[n - 1] = 0;
}

static int says(const char *a, const char *b, const char *c)
{
	return strstr(captured, a) && (!b || strstr(captured, b)) &&
		(!c || strstr(captured, c));
}

static int write_bytes(const char *p, const void *buf, size_t n)
{
	FILE *f = fopen(p, "wb");

	if (!f)
		return -1;
	fwrite(buf, 1, n, f);
	return fclose(f);
}

static unsigned char *read_bytes(const char *p, size_t *n)
{
	FILE *f = fopen(p, "rb");
	unsigned char *buf;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc(len + 1);
	*n = fread(buf, 1, len, f);
	fclose(f);
	return buf;
}

/* ---- generator ---- */

static void test_generator(void)
{
	const int B = 64, T = 15, H = 40, W = 40;
	size_t n = (size_t)B * T * H * W;
	float *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
	float *next = malloc(n * 4);

	nb_movie_generate(42, B, T, H, W, 1, a, next);
	nb_movie_generate(42, B, T, H, W, 1, b, NULL);
	nb_movie_generate(43, B, T, H, W, 1, c, NULL);
	tap(!memcmp(a, b, n * 4), "generator: the same seed gives the same movie");
	tap(memcmp(a, c, n * 4) != 0, "generator: another seed gives another movie");

	double mn = 1e9, mx = -1e9;
	size_t ones = 0, binary = 0, agree = 0, compared = 0, noise = 0;
	for (size_t i = 0; i < n; i++) {
		mn = fmin(mn, a[i]);
		mx = fmax(mx, a[i]);
		ones += a[i] >= 0.65f;
		binary += next[i] == 0.0f || next[i] == 1.0f;
		noise += fabsf(a[i] - 0.1f) < 1e-6f || fabsf(a[i] + 0.1f) < 1e-6f;
	}
	/* frame t + 1 of the movie shows the squares where next[t] has them */
	for (int bb = 0; bb < B; bb++)
		for (int t = 0; t + 1 < T; t++)
			for (int p = 0; p < H * W; p++) {
				float m = a[((size_t)bb * T + t + 1) * H * W + p];
				float x = next[((size_t)bb * T + t) * H * W + p];

				agree += (m >= 0.65f) == (x == 1.0f);
				compared++;
			}
	double frac = (double)ones / n;
	tap(mx == 1.0 && mn >= -0.7 - 1e-6,
	       "generator: values clipped to 1 (max %.3f, min %.3f >= -0.7)", mx, mn);
	tap(frac > 0.03 && frac < 0.12,
	       "generator: %.1f%% of pixels inside squares (3 to 7 squares of 4x4 or 6x6 on 40x40: 3%% to 12%%)",
	       100 * frac);
	tap(noise > n / 200,
	       "generator: noise borders present (%zu pixels at +-0.1)", noise);
	tap(binary == n, "generator: next frames are exactly 0 or 1");
	tap((double)agree / compared > 0.995,
	       "generator: next[t] matches the squares of frame t+1 (%.3f%% of pixels)",
	       100.0 * agree / compared);

	/* colour: 3 channels that differ */
	float *col = malloc((size_t)2 * 3 * 64 * 64 * 3 * 4);
	size_t differ = 0;
	nb_movie_generate(7, 2, 3, 64, 64, 3, col, NULL);
	for (size_t i = 0; i < (size_t)2 * 3 * 64 * 64; i++)
		differ += col[i * 3] != col[i * 3 + 1];
	tap(differ > 50, "generator: colour squares (%zu pixels with R != G)", differ);
	free(col);
	free(a); free(b); free(c); free(next);
}

/* ---- weights ---- */

static void test_init(void)
{
	const struct nb_model *m = nb_model_find("convlstm-mono");
	struct nb_weights *w = nb_weights_alloc(m);
	double worst = 0, limit = sqrt(6.0 / (9 * 1 + 9 * 160)), kmax = 0;

	nb_weights_init(w, 1);
	/* orthogonal: the 160 columns of the (360 x 160) matrix are orthonormal */
	const float *r = w->rkernel[1];
	for (int i = 0; i < 160; i += 7)
		for (int j = 0; j < 160; j += 5) {
			double d = 0;

			for (int k = 0; k < 360; k++)
				d += (double)r[k * 160 + i] * r[k * 160 + j];
			worst = fmax(worst, fabs(d - (i == j)));
		}
	tap(worst < 1e-5, "init: recurrent kernel orthogonal (worst |Q^T Q - I| %.1e)", worst);
	for (int i = 0; i < 9 * 160; i++)
		kmax = fmax(kmax, fabs(w->kernel[0][i]));
	tap(kmax <= limit && kmax > 0.9 * limit,
	       "init: Glorot uniform within +-%.4f (max %.4f)", limit, kmax);
	tap(w->bias[0][0] == 0 && w->bias[0][40] == 1 && w->bias[0][79] == 1 &&
	       w->bias[0][80] == 0 && w->var[3][39] == 1,
	       "init: unit forget bias, BN at its initial values");
	nb_weights_free(w);
}

/* ---- safetensors ---- */

static int weights_equal(const struct nb_weights *a, struct nb_weights *b)
{
	struct nb_tensor ta[7 * NB_MAX_LAYERS + 2], tb[7 * NB_MAX_LAYERS + 2];
	int n = nb_weights_tensors((struct nb_weights *)a, ta);

	nb_weights_tensors(b, tb);
	for (int i = 0; i < n; i++)
		if (memcmp(*ta[i].data, *tb[i].data, ta[i].count * 4))
			return 0;
	return 1;
}

/*
 * Write a safetensors file by hand: the header from hdr (a JSON object,
 * consumed), then data_len bytes of data.
 */
static void write_st(const char *p, struct json_object *hdr, size_t data_len)
{
	const char *js = json_object_to_json_string_ext(hdr, JSON_C_TO_STRING_PLAIN);
	size_t hl = strlen(js);
	unsigned char *buf = calloc(1, 8 + hl + data_len);

	for (int i = 0; i < 8; i++)
		buf[i] = (unsigned char)((uint64_t)hl >> (8 * i));
	memcpy(buf + 8, js, hl);
	write_bytes(p, buf, 8 + hl + data_len);
	free(buf);
	json_object_put(hdr);
}

static struct json_object *header_of(const char *p, size_t *data_len)
{
	size_t n;
	unsigned char *buf = read_bytes(p, &n);
	uint64_t hl = 0;

	for (int i = 0; i < 8; i++)
		hl |= (uint64_t)buf[i] << (8 * i);
	char *js = strndup((char *)buf + 8, hl);
	struct json_object *o = json_tokener_parse(js);
	*data_len = n - 8 - hl;
	free(js);
	free(buf);
	return o;
}

static void st_bad(const char *name, struct json_object *hdr, size_t data_len,
		   const char *m1, const char *m2, const char *m3)
{
	const struct nb_model *m = nb_model_find("convlstm-mono");
	struct nb_weights *w = nb_weights_alloc(m);
	char p[512];

	snprintf(p, sizeof(p), "%s", path(name));

	write_st(p, hdr, data_len);
	capture_begin();
	int rc = nb_safetensors_read(p, w);
	capture_end();
	tap(rc == -1 && says(p, m1, m2) && (!m3 || strstr(captured, m3)),
	       "safetensors: %s rejected: \"%s\"", name, captured);
	nb_weights_free(w);
}

/* The colour model's weights: its head is a Conv2D (3, 3, F, 3); refused
 * by the mono model (@r). */
static void st_color(struct nb_weights *r)
{
	const struct nb_model *mc = nb_model_find("convlstm-color");
	struct nb_weights *wc = nb_weights_alloc(mc), *rc = nb_weights_alloc(mc);

	nb_weights_init(wc, 6);
	nb_safetensors_write(path("c.safetensors"), wc);
	tap(nb_safetensors_read(path("c.safetensors"), rc) == 0 && weights_equal(wc, rc),
	       "safetensors: convlstm-color round trip");
	capture_begin();
	int wrong = nb_safetensors_read(path("c.safetensors"), r);
	capture_end();
	tap(wrong == -1 && says("convlstm.0.kernel", "[3, 3, 3, 160]", "[3, 3, 1, 160]"),
	       "safetensors: colour weights for the mono model rejected: \"%s\"", captured);
	nb_weights_free(wc);
	nb_weights_free(rc);
}

/* @name (in the test directory) refused by nb_safetensors_read() into @r,
 * with a message naming @m1 and @m2 (when not NULL). */
static void st_refused(struct nb_weights *r, const char *name, const char *m1,
		       const char *m2, const char *what)
{
	capture_begin();
	int rc = nb_safetensors_read(path(name), r);
	capture_end();
	tap(rc == -1 && says(name, m1, m2), "safetensors: %s: \"%s\"", what, captured);
}

/* The file @p cut short, or not a safetensors file at all. */
static void st_bad_files(const char *p, struct nb_weights *r)
{
	size_t n;
	unsigned char *buf = read_bytes(p, &n);

	write_bytes(path("trunc.safetensors"), buf, n - 100);
	st_refused(r, "trunc.safetensors", "truncated", "head.kernel",
		   "truncated file rejected (the last tensor cut short)");
	write_bytes(path("short.safetensors"), buf, 5);
	st_refused(r, "short.safetensors", "truncated", NULL, "5-byte file rejected");
	free(buf);
	write_bytes(path("json.safetensors"), "\x04\0\0\0\0\0\0\0{{{{", 12);
	st_refused(r, "json.safetensors", "header", "JSON", "non-JSON header rejected");
	write_bytes(path("len.safetensors"), "\xff\xff\0\0\0\0\0\0{}", 10);
	st_refused(r, "len.safetensors", "header length", "past the end",
		   "header length past the end rejected");
	st_refused(r, "none.safetensors", "No such file", NULL, "missing file");
}

/* A JSON array of the @n integers @v. */
static struct json_object *int_array(const int *v, int n)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < n; i++)
		json_object_array_add(a, json_object_new_int(v[i]));
	return a;
}

/* The header of the good file @p changed one way at a time. */
static void st_bad_headers(const char *p)
{
	static const int shape[] = { 3, 3, 160, 40 }, offsets[] = { 0, 12 };
	struct json_object *h, *t;
	size_t dl;

	h = header_of(p, &dl);
	json_object_object_get_ex(h, "bn.2.gamma", &t);
	json_object_object_add(t, "dtype", json_object_new_string("F16"));
	st_bad("dtype.safetensors", h, dl, "bn.2.gamma", "F16", "expected F32");

	h = header_of(p, &dl);
	json_object_object_get_ex(h, "convlstm.1.recurrent_kernel", &t);
	json_object_object_add(t, "shape", int_array(shape, 4));
	st_bad("shape.safetensors", h, dl, "convlstm.1.recurrent_kernel",
	       "[3, 3, 160, 40]", "expected [3, 3, 40, 160]");

	h = header_of(p, &dl);
	json_object_object_del(h, "head.kernel");
	st_bad("missing.safetensors", h, dl, "head.kernel", "missing", "[3, 3, 3, 40, 1]");

	h = header_of(p, &dl);
	json_object_object_get_ex(h, "bn.0.beta", &t);
	json_object_object_add(h, "bn.9.beta", json_object_get(t));
	st_bad("extra.safetensors", h, dl, "bn.9.beta", "not part of model", NULL);

	h = header_of(p, &dl);
	json_object_object_get_ex(h, "bn.1.beta", &t);
	json_object_object_add(t, "data_offsets", int_array(offsets, 2));
	st_bad("offsets.safetensors", h, dl, "bn.1.beta", "data_offsets", "160 bytes");
}

/* @key of header @h has the shape @want ("[3,3,1,160]"). */
static bool shape_is(struct json_object *h, const char *key, const char *want)
{
	struct json_object *t, *v;

	return json_object_object_get_ex(h, key, &t) &&
		json_object_object_get_ex(t, "shape", &v) &&
		!strcmp(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN), want);
}

static void test_safetensors(void)
{
	const struct nb_model *m = nb_model_find("convlstm-mono");
	struct nb_weights *w = nb_weights_alloc(m), *r = nb_weights_alloc(m);
	struct json_object *h, *t;
	char p[512];
	size_t dl;

	snprintf(p, sizeof(p), "%s", path("w.safetensors"));
	nb_weights_init(w, 5);
	tap(nb_safetensors_write(p, w) == 0, "safetensors: write");
	tap(nb_safetensors_read(p, r) == 0 && weights_equal(w, r),
	       "safetensors: round trip, every tensor bit for bit");

	h = header_of(p, &dl);
	tap(shape_is(h, "convlstm.0.kernel", "[3,3,1,160]") &&
	    shape_is(h, "head.kernel", "[3,3,3,40,1]") &&
	    json_object_object_get_ex(h, "bn.3.moving_variance", &t) &&
	    json_object_object_get_ex(h, "convlstm.3.recurrent_kernel", &t) &&
	    json_object_object_length(h) == 4 * 7 + 2 + 1,
	       "safetensors: Keras names and layouts (30 tensors + __metadata__)");
	json_object_put(h);

	st_color(r);
	st_bad_files(p, r);
	st_bad_headers(p);
	nb_weights_free(w);
	nb_weights_free(r);
}

/* ---- npy ---- */

static void npy_bad(const char *name, const void *bytes, size_t n,
		    const char *m1, const char *m2)
{
	struct nb_array a;
	char p[512];

	snprintf(p, sizeof(p), "%s", path(name));

	write_bytes(p, bytes, n);
	capture_begin();
	int rc = nb_npy_read(p, &a);
	capture_end();
	tap(rc == -1 && says(p, m1, m2), "npy: %s rejected: \"%s\"", name, captured);
}

/* a v1 header with the given dict, then n floats */
static size_t npy_bytes(unsigned char *buf, const char *dict, size_t nfloats)
{
	size_t dl = strlen(dict), hl = ((10 + dl + 1 + 63) & ~(size_t)63) - 10;

	memcpy(buf, "\x93NUMPY\x01\x00", 8);
	buf[8] = hl & 0xff;
	buf[9] = hl >> 8;
	memcpy(buf + 10, dict, dl);
	memset(buf + 10 + dl, ' ', hl - dl - 1);
	buf[10 + hl - 1] = '\n';
	memset(buf + 10 + hl, 0, nfloats * 4);
	return 10 + hl + nfloats * 4;
}

static void test_npy(void)
{
	struct nb_array a = { .rank = 5, .shape = { 2, 3, 4, 5, 1 }, .count = 120 };
	struct nb_array b;
	unsigned char buf[4096];

	a.data = malloc(120 * 4);
	for (int i = 0; i < 120; i++)
		a.data[i] = (float)i / 7.0f;
	tap(nb_npy_write(path("a.npy"), &a) == 0, "npy: write (2, 3, 4, 5, 1)");
	int ok = nb_npy_read(path("a.npy"), &b) == 0 && b.rank == 5 &&
		b.shape[0] == 2 && b.shape[3] == 5 && b.count == 120 &&
		!memcmp(a.data, b.data, 120 * 4);
	tap(ok, "npy: round trip, shape and values");
	nb_array_free(&b);
	size_t n;
	unsigned char *raw = read_bytes(path("a.npy"), &n);
	tap(raw && (10 + raw[8] + raw[9] * 256) % 64 == 0 &&
	       strstr((char *)raw + 10, "'shape': (2, 3, 4, 5, 1)"),
	       "npy: header as NumPy writes it (64-byte aligned)");
	free(raw);
	struct nb_array one = { .rank = 1, .shape = { 3 }, .count = 3, .data = a.data };
	nb_npy_write(path("one.npy"), &one);
	raw = read_bytes(path("one.npy"), &n);
	tap(raw && strstr((char *)raw + 10, "'shape': (3,)"), "npy: 1-d shape written as (3,)");
	free(raw);

	npy_bad("magic.npy", "PK\x03\x04 not numpy at all", 22, "bad header", "NUMPY");
	n = npy_bytes(buf, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", 4);
	npy_bad("f8.npy", buf, n, "descr", "'<f8', expected '<f4'");
	n = npy_bytes(buf, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", 4);
	npy_bad("fortran.npy", buf, n, "fortran_order", "expected False");
	n = npy_bytes(buf, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }", 4);
	npy_bad("shape.npy", buf, n, "field shape", "malformed");
	n = npy_bytes(buf, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 4);
	npy_bad("trunc.npy", buf, n, "truncated", "4 of 6");
	n = npy_bytes(buf, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", 4);
	npy_bad("long.npy", buf, n, "past the 2 values", NULL);
	n = npy_bytes(buf, "{'fortran_order': False, 'shape': (2,), }", 2);
	npy_bad("nodescr.npy", buf, n, "descr missing", NULL);
	memcpy(buf, "\x93NUMPY\x09\x00", 8);
	npy_bad("version.npy", buf, 64, "version 9", NULL);
	free(a.data);
}

/* ---- helpers for the end-to-end tests ---- */

static int write_movie(const char *model, int batch, int frames, const char *out)
{
	const struct nb_model *m = nb_model_find(model);
	struct nb_array a = { .rank = 5,
			      .shape = { batch, frames, m->height, m->width, m->channels } };

	a.count = (size_t)batch * frames * m->height * m->width * m->channels;
	a.data = malloc(a.count * 4);
	nb_movie_generate(99, batch, frames, m->height, m->width, m->channels,
			  a.data, NULL);
	int rc = nb_npy_write(out, &a);
	free(a.data);
	return rc ? 1 : 0;
}

static int check_predict(const char *model, const char *movie, const char *pred,
			 const char *weights)
{
	const struct nb_model *m = nb_model_find(model);
	struct nb_weights *w = nb_weights_alloc(m);
	struct nb_array in, out;

	if (weights ? nb_safetensors_read(weights, w) : (nb_weights_init(w, 1), 0))
		return 1;
	if (nb_npy_read(movie, &in) || nb_npy_read(pred, &out))
		return 1;
	int batch = (int)in.shape[0], frames = (int)in.shape[1];
	size_t n = nb_output_count(m, batch, frames);
	float *ref = malloc(n * 4);
	int shape_ok = m->head == NB_HEAD_CONV3D ?
		out.rank == 5 && out.shape[0] == batch && out.shape[1] == frames &&
		out.shape[2] == m->height && out.shape[3] == m->width && out.shape[4] == 1 :
		out.rank == 4 && out.shape[0] == batch && out.shape[1] == m->height &&
		out.shape[2] == m->width && out.shape[3] == 3;

	if (!shape_ok || out.count != n) {
		printf("prediction shape wrong (rank %d, %zu values, expected %zu)\n",
		       out.rank, out.count, n);
		return 1;
	}
	nb_ref_forward(w, in.data, batch, frames, ref);
	double e = 0;
	for (size_t i = 0; i < n; i++)
		e = fmax(e, fabs((double)ref[i] - out.data[i]));
	printf("prediction: %zu values, max abs error against the reference %.2e\n", n, e);
	return e <= 1e-4 ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "--movie"))
		return write_movie(argv[2], atoi(argv[3]), atoi(argv[4]), argv[5]);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "--check-predict"))
		return check_predict(argv[2], argv[3], argv[4], argc == 6 ? argv[5] : NULL);
	if (argc != 2) {
		fprintf(stderr, "usage: test_io DIR\n");
		return 2;
	}
	dir = argv[1];
	test_generator();
	test_init();
	test_safetensors();
	test_npy();
	int temps = 0;
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));)
		temps += e->d_name[0] == '.' && strcmp(e->d_name, ".") &&
			strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	tap(d && !temps, "no temporary files left beside the outputs (%d)", temps);
	return tap_done("io");
}
