// SPDX-License-Identifier: MIT
/*
 * The models, their FLOP counts, and weights: the tensor table, allocation
 * and Keras' initializers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

static const struct nb_model models[] = {
	{
		/* The Keras conv_lstm example, exactly. */
		.name = "convlstm-mono",
		.height = 40, .width = 40, .channels = 1,
		.layers = 4, .filters = { 40, 40, 40, 40 },
		.head = NB_HEAD_CONV3D, .head_out = 1,
	},
	{
		/* The same cell on colour frames, predicting the next frame. */
		.name = "convlstm-color",
		.height = 64, .width = 64, .channels = 3,
		.layers = 4, .filters = { 40, 40, 40, 40 },
		.head = NB_HEAD_CONV2D, .head_out = 3,
	},
};

const struct nb_model *nb_model_find(const char *name)
{
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		if (!strcmp(models[i].name, name))
			return &models[i];
	return NULL;
}

const char *nb_model_names(void)
{
	return "convlstm-mono, convlstm-color";
}

int nb_layer_cin(const struct nb_model *m, int l)
{
	return l == 0 ? m->channels : m->filters[l - 1];
}

int nb_model_check(const struct nb_model *m, char *err, size_t errlen)
{
	if (m->height < 1 || m->width < 1 || m->height > 4096 ||
	    m->width > 4096) {
		snprintf(err, errlen, "frame size %dx%d: expected 1..4096",
			 m->height, m->width);
		return -1;
	}
	if (m->channels < 1 || m->channels > 4096) {
		snprintf(err, errlen, "%d channels: expected 1..4096",
			 m->channels);
		return -1;
	}
	if (m->layers < 1 || m->layers > NB_MAX_LAYERS) {
		snprintf(err, errlen, "%d layers: expected 1..%d", m->layers,
			 NB_MAX_LAYERS);
		return -1;
	}
	for (int l = 0; l < m->layers; l++)
		if (m->filters[l] < 1 || m->filters[l] > 1024) {
			snprintf(err, errlen,
				 "layer %d: %d filters: expected 1..1024", l,
				 m->filters[l]);
			return -1;
		}
	if (m->head == NB_HEAD_CONV3D && m->head_out != 1) {
		snprintf(err, errlen, "Conv3D head: 1 output channel expected");
		return -1;
	}
	if (m->head_out < 1 || m->head_out > 64) {
		snprintf(err, errlen, "head: %d outputs: expected 1..64",
			 m->head_out);
		return -1;
	}
	return 0;
}

double nb_flops_cell(int height, int width, int cin, int filters)
{
	/* z = conv3x3(x, K) + conv3x3(h, U): 9 (Cin + F) MACs per gate output */
	return 2.0 * height * width * 9.0 * (cin + filters) * 4.0 * filters;
}

static double head_flops(const struct nb_model *m)
{
	int f = m->filters[m->layers - 1];
	int taps = m->head == NB_HEAD_CONV3D ? 27 : 9;

	return 2.0 * m->height * m->width * taps * f * m->head_out;
}

double nb_flops_forward(const struct nb_model *m, int batch, int frames)
{
	double cells = 0;

	for (int l = 0; l < m->layers; l++)
		cells += nb_flops_cell(m->height, m->width, nb_layer_cin(m, l),
				       m->filters[l]);
	cells *= (double)batch * frames;
	if (m->head == NB_HEAD_CONV3D)
		return cells + head_flops(m) * batch * frames;
	return cells + head_flops(m) * batch;
}

double nb_flops_per_frame(const struct nb_model *m)
{
	return nb_flops_forward(m, 1, 1);
}

size_t nb_output_count(const struct nb_model *m, int batch, int frames)
{
	size_t px = (size_t)m->height * m->width * m->head_out;

	if (m->head == NB_HEAD_CONV3D)
		return (size_t)batch * frames * px;
	return (size_t)batch * px;
}

int nb_layer_output_frames(const struct nb_model *m, int l, int frames)
{
	return m->head == NB_HEAD_CONV2D && l == m->layers - 1 ? 1 : frames;
}

size_t nb_layer_output_count(const struct nb_model *m, int l, int batch, int frames)
{
	return (size_t)batch * nb_layer_output_frames(m, l, frames) * m->height *
		m->width * m->filters[l];
}

static void put(struct nb_tensor *t, const char *name, float **data,
		int rank, const int64_t *shape)
{
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->rank = rank;
	t->count = 1;
	for (int i = 0; i < rank; i++) {
		t->shape[i] = shape[i];
		t->count *= (size_t)shape[i];
	}
	t->data = data;
}

int nb_weights_tensors(struct nb_weights *w, struct nb_tensor *t)
{
	const struct nb_model *m = &w->model;
	char name[NB_TENSOR_NAME];
	int n = 0;

	for (int l = 0; l < m->layers; l++) {
		int64_t f = m->filters[l], cin = nb_layer_cin(m, l);
		int64_t k[4] = { 3, 3, cin, 4 * f };
		int64_t r[4] = { 3, 3, f, 4 * f };
		int64_t b[1] = { 4 * f };
		int64_t v[1] = { f };

		snprintf(name, sizeof(name), "convlstm.%d.kernel", l);
		put(&t[n++], name, &w->kernel[l], 4, k);
		snprintf(name, sizeof(name), "convlstm.%d.recurrent_kernel", l);
		put(&t[n++], name, &w->rkernel[l], 4, r);
		snprintf(name, sizeof(name), "convlstm.%d.bias", l);
		put(&t[n++], name, &w->bias[l], 1, b);
		snprintf(name, sizeof(name), "bn.%d.gamma", l);
		put(&t[n++], name, &w->gamma[l], 1, v);
		snprintf(name, sizeof(name), "bn.%d.beta", l);
		put(&t[n++], name, &w->beta[l], 1, v);
		snprintf(name, sizeof(name), "bn.%d.moving_mean", l);
		put(&t[n++], name, &w->mean[l], 1, v);
		snprintf(name, sizeof(name), "bn.%d.moving_variance", l);
		put(&t[n++], name, &w->var[l], 1, v);
	}
	int64_t f = m->filters[m->layers - 1];
	if (m->head == NB_HEAD_CONV3D) {
		int64_t hk[5] = { 3, 3, 3, f, m->head_out };

		put(&t[n++], "head.kernel", &w->head_kernel, 5, hk);
	} else {
		int64_t hk[4] = { 3, 3, f, m->head_out };

		put(&t[n++], "head.kernel", &w->head_kernel, 4, hk);
	}
	int64_t hb[1] = { m->head_out };
	put(&t[n++], "head.bias", &w->head_bias, 1, hb);
	return n;
}

void nb_weights_free(struct nb_weights *w)
{
	struct nb_tensor t[7 * NB_MAX_LAYERS + 2];

	if (!w)
		return;
	int n = nb_weights_tensors(w, t);
	for (int i = 0; i < n; i++)
		free(*t[i].data);
	free(w);
}

struct nb_weights *nb_weights_alloc(const struct nb_model *m)
{
	struct nb_tensor t[7 * NB_MAX_LAYERS + 2];
	struct nb_weights *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->model = *m;
	int n = nb_weights_tensors(w, t);
	for (int i = 0; i < n; i++) {
		*t[i].data = calloc(t[i].count, sizeof(float));
		if (!*t[i].data) {
			nb_weights_free(w);
			return NULL;
		}
	}
	return w;
}

static void glorot_uniform(struct nb_rng *r, float *p, size_t n,
			   double fan_in, double fan_out)
{
	double limit = sqrt(6.0 / (fan_in + fan_out));

	for (size_t i = 0; i < n; i++)
		p[i] = (float)((2.0 * nb_rng_uniform(r) - 1.0) * limit);
}

/*
 * Keras' Orthogonal for shape (3, 3, F, 4F): a (9F x 4F) normal matrix made
 * orthonormal along its shorter side (QR with R's diagonal made positive,
 * which is what Gram-Schmidt gives).
 */
static int orthogonal(struct nb_rng *r, float *p, int rows, int cols)
{
	int tall = rows >= cols;
	int n = tall ? rows : cols;	/* vector length */
	int k = tall ? cols : rows;	/* vectors */
	double *a = malloc(sizeof(double) * (size_t)n * k);

	if (!a)
		return -1;
	for (size_t i = 0; i < (size_t)n * k; i++)
		a[i] = nb_rng_normal(r);
	for (int j = 0; j < k; j++) {
		double *v = a + (size_t)j * n;

		/* twice, for orthogonality to working precision */
		for (int pass = 0; pass < 2; pass++)
			for (int i = 0; i < j; i++) {
				const double *u = a + (size_t)i * n;
				double d = 0;

				for (int e = 0; e < n; e++)
					d += u[e] * v[e];
				for (int e = 0; e < n; e++)
					v[e] -= d * u[e];
			}
		double norm = 0;
		for (int e = 0; e < n; e++)
			norm += v[e] * v[e];
		norm = sqrt(norm);
		for (int e = 0; e < n; e++)
			v[e] /= norm;
	}
	for (int i = 0; i < rows; i++)
		for (int j = 0; j < cols; j++)
			p[(size_t)i * cols + j] = (float)(tall ?
				a[(size_t)j * n + i] : a[(size_t)i * n + j]);
	free(a);
	return 0;
}

void nb_weights_init(struct nb_weights *w, uint64_t seed)
{
	const struct nb_model *m = &w->model;
	struct nb_rng r;

	nb_rng_seed(&r, seed);
	for (int l = 0; l < m->layers; l++) {
		int f = m->filters[l], cin = nb_layer_cin(m, l);

		glorot_uniform(&r, w->kernel[l], 9 * (size_t)cin * 4 * f,
			       9.0 * cin, 9.0 * 4 * f);
		if (orthogonal(&r, w->rkernel[l], 9 * f, 4 * f))
			glorot_uniform(&r, w->rkernel[l], 9 * (size_t)f * 4 * f,
				       9.0 * f, 9.0 * 4 * f);
		for (int i = 0; i < 4 * f; i++)
			w->bias[l][i] = i >= f && i < 2 * f ? 1.0f : 0.0f;
		for (int i = 0; i < f; i++) {
			w->gamma[l][i] = 1.0f;
			w->beta[l][i] = 0.0f;
			w->mean[l][i] = 0.0f;
			w->var[l][i] = 1.0f;
		}
	}
	int f = m->filters[m->layers - 1];
	if (m->head == NB_HEAD_CONV3D)
		glorot_uniform(&r, w->head_kernel, 27 * (size_t)f * m->head_out,
			       27.0 * f, 27.0 * m->head_out);
	else
		glorot_uniform(&r, w->head_kernel, 9 * (size_t)f * m->head_out,
			       9.0 * f, 9.0 * m->head_out);
	for (int i = 0; i < m->head_out; i++)
		w->head_bias[i] = 0.0f;
}
