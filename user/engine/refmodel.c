// SPDX-License-Identifier: MIT
/*
 * The reference implementation: plain loops, double-precision accumulation
 * and activations, written to be read, not to be fast. Used for validation.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

static double hard_sigmoid(double x)
{
	double y = 0.2 * x + 0.5;

	return y < 0 ? 0 : y > 1 ? 1 : y;
}

void nb_ref_cell(int batch, int height, int width, int cin, int filters,
		 const float *kernel, const float *rkernel, const float *bias,
		 const float *x, const float *h, const float *c,
		 float *h_out, float *c_out)
{
	int g = 4 * filters;
	double *z = malloc(sizeof(double) * g);

	if (!z)
		abort();
	for (int b = 0; b < batch; b++)
		for (int y = 0; y < height; y++)
			for (int xx = 0; xx < width; xx++) {
				for (int o = 0; o < g; o++)
					z[o] = bias[o];
				for (int ky = 0; ky < 3; ky++)
					for (int kx = 0; kx < 3; kx++) {
						int sy = y + ky - 1, sx = xx + kx - 1;

						if (sy < 0 || sy >= height || sx < 0 ||
						    sx >= width)
							continue; /* same padding */
						size_t p = ((size_t)b * height + sy) *
							width + sx;
						const float *xin = x + p * cin;
						const float *hin = h + p * filters;
						const float *k = kernel +
							(size_t)(ky * 3 + kx) * cin * g;
						const float *r = rkernel +
							(size_t)(ky * 3 + kx) * filters * g;

						for (int i = 0; i < cin; i++)
							for (int o = 0; o < g; o++)
								z[o] += (double)xin[i] *
									k[(size_t)i * g + o];
						for (int i = 0; i < filters; i++)
							for (int o = 0; o < g; o++)
								z[o] += (double)hin[i] *
									r[(size_t)i * g + o];
					}
				size_t p = ((size_t)b * height + y) * width + xx;
				for (int j = 0; j < filters; j++) {
					double ig = hard_sigmoid(z[j]);
					double fg = hard_sigmoid(z[filters + j]);
					double cc = tanh(z[2 * filters + j]);
					double og = hard_sigmoid(z[3 * filters + j]);
					double cn = fg * c[p * filters + j] + ig * cc;

					c_out[p * filters + j] = (float)cn;
					h_out[p * filters + j] = (float)(og * tanh(cn));
				}
			}
	free(z);
}

static double sigmoid(double x)
{
	return 1.0 / (1.0 + exp(-x));
}

/* BatchNormalization, inference: layer l's px * f states h into y */
static void ref_batchnorm(const struct nb_weights *w, int l, size_t px, int f,
			  const float *h, float *y)
{
	for (size_t p = 0; p < px; p++)
		for (int j = 0; j < f; j++) {
			double v = h[p * f + j];

			v = (v - w->mean[l][j]) /
				sqrt((double)w->var[l][j] + NB_BN_EPSILON) *
				w->gamma[l][j] + w->beta[l][j];
			y[p * f + j] = (float)v;
		}
}

/* layer l over every frame of every sequence of seq: a new buffer of states */
static float *ref_layer(const struct nb_weights *w, int l, const float *seq,
			int cin, int batch, int frames)
{
	const struct nb_model *m = &w->model;
	int hgt = m->height, wid = m->width, f = m->filters[l];
	size_t px = (size_t)hgt * wid;
	float *next = calloc(px * f * batch * frames, sizeof(float));
	float *hs = calloc(px * f * 2, sizeof(float));
	float *cs = calloc(px * f * 2, sizeof(float));

	if (!next || !hs || !cs)
		abort();
	for (int b = 0; b < batch; b++) {
		float *h = hs, *c = cs, *h2 = hs + px * f, *c2 = cs + px * f;

		memset(hs, 0, px * f * sizeof(float));
		memset(cs, 0, px * f * sizeof(float));
		for (int t = 0; t < frames; t++) {
			const float *x = seq + ((size_t)b * frames + t) * px * cin;
			float *y = next + ((size_t)b * frames + t) * px * f;

			nb_ref_cell(1, hgt, wid, cin, f, w->kernel[l],
				    w->rkernel[l], w->bias[l], x, h, c, h2, c2);
			float *sw = h; h = h2; h2 = sw;
			sw = c; c = c2; c2 = sw;
			ref_batchnorm(w, l, px, f, h, y);
		}
	}
	free(hs);
	free(cs);
	return next;
}

/* the Conv3D head's pre-activation at frame t, pixel (y, x) of sequence b */
static double conv3d_at(const struct nb_weights *w, const float *seq, int f,
			int frames, int b, int t, int y, int x)
{
	int hgt = w->model.height, wid = w->model.width;
	size_t px = (size_t)hgt * wid;
	double acc = w->head_bias[0];

	for (int kt = 0; kt < 3; kt++)
		for (int ky = 0; ky < 3; ky++)
			for (int kx = 0; kx < 3; kx++) {
				int st = t + kt - 1, sy = y + ky - 1, sx = x + kx - 1;

				if (st < 0 || st >= frames || sy < 0 || sy >= hgt ||
				    sx < 0 || sx >= wid)
					continue;
				const float *v = seq +
					(((size_t)b * frames + st) * px +
					 (size_t)sy * wid + sx) * f;
				const float *k = w->head_kernel +
					(size_t)((kt * 3 + ky) * 3 + kx) * f;

				for (int i = 0; i < f; i++)
					acc += (double)v[i] * k[i];
			}
	return acc;
}

/* the Conv2D head's pre-activation of output o at (y, x), b's last frame */
static double conv2d_at(const struct nb_weights *w, const float *seq, int f,
			int frames, int b, int y, int x, int o)
{
	int hgt = w->model.height, wid = w->model.width, no = w->model.head_out;
	size_t px = (size_t)hgt * wid;
	double acc = w->head_bias[o];

	for (int ky = 0; ky < 3; ky++)
		for (int kx = 0; kx < 3; kx++) {
			int sy = y + ky - 1, sx = x + kx - 1;

			if (sy < 0 || sy >= hgt || sx < 0 || sx >= wid)
				continue;
			const float *v = seq +
				(((size_t)b * frames + frames - 1) * px +
				 (size_t)sy * wid + sx) * f;
			const float *k = w->head_kernel +
				(size_t)(ky * 3 + kx) * f * no;

			for (int i = 0; i < f; i++)
				acc += (double)v[i] * k[(size_t)i * no + o];
		}
	return acc;
}

/* the head over the last layer's states seq (f channels) into out */
static void ref_head(const struct nb_weights *w, const float *seq, int f,
		     int batch, int frames, float *out)
{
	const struct nb_model *m = &w->model;
	int hgt = m->height, wid = m->width, no = m->head_out;
	size_t px = (size_t)hgt * wid;

	if (m->head == NB_HEAD_CONV3D) {
		for (int b = 0; b < batch; b++)
			for (int t = 0; t < frames; t++)
				for (int y = 0; y < hgt; y++)
					for (int x = 0; x < wid; x++)
						out[((size_t)b * frames + t) * px +
						    (size_t)y * wid + x] =
							(float)sigmoid(conv3d_at(w, seq, f, frames,
										 b, t, y, x));
		return;
	}
	/* the last layer returns its final state only */
	for (int b = 0; b < batch; b++)
		for (int y = 0; y < hgt; y++)
			for (int x = 0; x < wid; x++)
				for (int o = 0; o < no; o++)
					out[(((size_t)b * hgt + y) * wid + x) * no + o] =
						(float)sigmoid(conv2d_at(w, seq, f, frames,
									 b, y, x, o));
}

/* layer l's states seq (every frame) as the layer returns them, into dst */
static void ref_layer_output(const struct nb_model *m, int l, const float *seq,
			     int batch, int frames, float *dst)
{
	int keep = nb_layer_output_frames(m, l, frames);
	size_t frame = (size_t)m->height * m->width * m->filters[l];

	for (int b = 0; b < batch; b++)
		memcpy(dst + (size_t)b * keep * frame,
		       seq + ((size_t)b * frames + frames - keep) * frame,
		       keep * frame * sizeof(float));
}

void nb_ref_forward(const struct nb_weights *w, const float *in, int batch,
		    int frames, float *out)
{
	nb_ref_forward_layers(w, in, batch, frames, NULL, out);
}

void nb_ref_forward_layers(const struct nb_weights *w, const float *in, int batch,
			   int frames, float *const *layers, float *out)
{
	const struct nb_model *m = &w->model;
	const float *seq = in;
	float *prev = NULL;
	int cin = m->channels, f = 0;

	for (int l = 0; l < m->layers; l++) {
		float *next = ref_layer(w, l, seq, cin, batch, frames);

		if (layers)
			ref_layer_output(m, l, next, batch, frames, layers[l]);
		free(prev);
		prev = next;
		seq = next;
		f = m->filters[l];
		cin = f;
	}
	ref_head(w, seq, f, batch, frames, out);
	free(prev);
}
