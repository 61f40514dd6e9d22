// SPDX-License-Identifier: MIT
/*
 * hip/nbk.h on the host, for testing the plugin without a GPU: plain loops
 * over host memory (the fake runtime's device memory is host memory) with
 * nbk.h's semantics, the ConvLSTM step through the reference's
 * nb_ref_cell(). What it tests is the plugin's side of the interface:
 * buffer sizes (under AddressSanitizer), strides, the order of steps and
 * layers, the h and c ping-pong, the heads' inputs. The kernels themselves
 * are tested by tests/hip/pocl.c.
 *
 * The packed layout here is the Keras tensors one after another: the
 * plugin must treat it as opaque. BN folding is the kernels' own
 * (nbk_layout.h), as the plugin ships it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "nbk.h"
#include "kernels/nbk_layout.h"

static char err_buf[512];

const char *nbk_error(void)
{
	return err_buf;
}

__attribute__((format(printf, 1, 2)))
static int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err_buf, sizeof(err_buf), fmt, ap);
	va_end(ap);
	return -1;
}

size_t nbk_cell_packed_count(int cin, int filters)
{
	size_t g = 4 * (size_t)filters;

	return 9 * (size_t)cin * g + 9 * (size_t)filters * g + g;
}

void nbk_cell_pack(int cin, int filters, const float *host_kernel,
		   const float *host_rkernel, const float *host_bias,
		   float *host_packed)
{
	size_t g = 4 * (size_t)filters, nk = 9 * (size_t)cin * g;
	size_t nr = 9 * (size_t)filters * g;

	memcpy(host_packed, host_kernel, nk * sizeof(float));
	memcpy(host_packed + nk, host_rkernel, nr * sizeof(float));
	memcpy(host_packed + nk + nr, host_bias, g * sizeof(float));
}

void nbk_bn_fold(int filters, const float *host_gamma,
		 const float *host_beta, const float *host_mean,
		 const float *host_var, float eps, float *host_scale,
		 float *host_shift)
{
	nbk_layout_bn_fold(filters, host_gamma, host_beta, host_mean, host_var,
			   eps, host_scale, host_shift);
}

static int overlap(const float *a, const float *b, size_t n)
{
	return a && b && a < b + n && b < a + n;
}

int nbk_convlstm_step(nbk_stream s, const struct nbk_step *p)
{
	int f = p->filters;
	size_t st = (size_t)p->height * p->width * f, g = 4 * (size_t)f;
	const float *k = p->w, *r = k + 9 * (size_t)p->cin * g, *bias = r + 9 * f * g;
	float *zero;

	(void)s;
	if (p->batch < 1 || p->height < 1 || p->width < 1 || p->cin < 1 || f < 1)
		return fail("nbk_convlstm_step: shape %dx%dx%dx%d, %d filters",
			    p->batch, p->height, p->width, p->cin, f);
	if (!p->x || !p->h_out || !p->c_out || !p->w ||
	    (p->y && (!p->bn_scale || !p->bn_shift)))
		return fail("nbk_convlstm_step: a required pointer is NULL");
	if (!p->h_in != !p->c_in)
		return fail("nbk_convlstm_step: h_in and c_in: both or neither");
	if (overlap(p->h_out, p->h_in, st * p->batch) ||
	    overlap(p->c_out, p->c_in, st * p->batch) ||
	    overlap(p->h_out, p->c_out, st * p->batch))
		return fail("nbk_convlstm_step: h_out or c_out aliases the state it reads");
	zero = calloc(st, sizeof(float));
	if (!zero)
		return fail("nbk_convlstm_step: out of memory");
	for (int b = 0; b < p->batch; b++) {
		float *ho = p->h_out + b * st;

		nb_ref_cell(1, p->height, p->width, p->cin, f, k, r, bias,
			    p->x + b * p->x_batch_stride,
			    p->h_in ? p->h_in + b * st : zero,
			    p->c_in ? p->c_in + b * st : zero, ho,
			    p->c_out + b * st);
		if (!p->y)
			continue;
		for (size_t i = 0; i < st; i++)
			p->y[b * p->y_batch_stride + i] =
				ho[i] * p->bn_scale[i % f] + p->bn_shift[i % f];
	}
	free(zero);
	return 0;
}

static float sigmoid(double x)
{
	return (float)(1.0 / (1.0 + exp(-x)));
}

int nbk_conv3d_head(nbk_stream s, int batch, int frames, int height,
		    int width, int channels, const float *in,
		    const float *kernel, const float *bias, float *out)
{
	size_t px = (size_t)height * width;

	(void)s;
	for (int b = 0; b < batch; b++)
		for (int t = 0; t < frames; t++)
			for (int y = 0; y < height; y++)
				for (int x = 0; x < width; x++) {
					double acc = bias[0];

					for (int tap = 0; tap < 27; tap++) {
						int st = t + tap / 9 - 1;
						int sy = y + tap / 3 % 3 - 1, sx = x + tap % 3 - 1;

						if (st < 0 || st >= frames || sy < 0 ||
						    sy >= height || sx < 0 || sx >= width)
							continue;
						const float *v = in + (((size_t)b * frames + st) *
							px + (size_t)sy * width + sx) * channels;
						for (int i = 0; i < channels; i++)
							acc += (double)v[i] * kernel[(size_t)tap * channels + i];
					}
					out[((size_t)b * frames + t) * px + (size_t)y * width + x] =
						sigmoid(acc);
				}
	return 0;
}

int nbk_conv2d_head(nbk_stream s, int batch, int height, int width,
		    int channels, int out_channels, const float *in,
		    const float *kernel, const float *bias, float *out)
{
	(void)s;
	for (int b = 0; b < batch; b++)
		for (int y = 0; y < height; y++)
			for (int x = 0; x < width; x++)
				for (int o = 0; o < out_channels; o++) {
					double acc = bias[o];

					for (int tap = 0; tap < 9; tap++) {
						int sy = y + tap / 3 - 1, sx = x + tap % 3 - 1;

						if (sy < 0 || sy >= height || sx < 0 || sx >= width)
							continue;
						const float *v = in + (((size_t)b * height + sy) *
							width + sx) * channels;
						for (int i = 0; i < channels; i++)
							acc += (double)v[i] * kernel[((size_t)tap *
								channels + i) * out_channels + o];
					}
					out[(((size_t)b * height + y) * width + x) *
					    out_channels + o] = sigmoid(acc);
				}
	return 0;
}

int nbk_fma_peak(nbk_stream s, int blocks, int threads, long iters,
		 float m, float k, float *out, double *flops)
{
	float a = 1.0f;

	(void)s;
	if (blocks < 1 || threads < 1 || iters < 0)
		return fail("nbk_fma_peak: %d blocks of %d threads", blocks, threads);
	for (long i = 0; i < iters; i++)
		a = fmaf(a, m, k);
	for (long i = 0; i < (long)blocks * threads; i++)
		out[i] = a;
	*flops = 2.0 * NBK_PEAK_CHAINS * (double)iters * blocks * threads;
	return 0;
}

int nbk_triad(nbk_stream s, float *a, const float *b, const float *c,
	      float scalar, size_t n)
{
	(void)s;
	for (size_t i = 0; i < n; i++)
		a[i] = fmaf(scalar, c[i], b[i]);
	return 0;
}

/* warm: fn twice, as on the GPU, so the enqueue must be idempotent */
int nbk_time_ms(nbk_stream s, int (*fn)(void *arg), void *arg, int warm,
		float *ms)
{
	(void)s;
	*ms = 0;
	if (warm && fn(arg))
		return -1;
	return fn(arg);
}
