// SPDX-License-Identifier: MIT
/*
 * hip/nbk.h on the host, for testing the plugin without a GPU: plain loops
 * over host memory (the fake runtime's device memory is host memory) with
 * nbk.h's semantics, the ConvLSTM step through the reference's
 * nb_ref_cell(). What it tests is the plugin's side of the interface:
 * buffer sizes (under AddressSanitizer), strides, the order of steps and
 * layers, the h and c ping-pong, the heads' inputs, and the streams: the
 * work runs in its stream's order when the host synchronizes, as on a GPU
 * (tests/hip/fake_hip.c's fake_hip_defer()), so a missing wait between
 * streams shows. The kernels themselves are tested by tests/hip/pocl.c
 * and tests/hip/fibers.c.
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

#include <hip/hip_runtime_api.h>

#include "engine/engine.h"
#include "nbk.h"
#include "kernels/nbk_layout.h"

/* tests/hip/fake_hip.c: fn(arg) in stream order; arg is freed after */
void fake_hip_defer(nbk_stream s, void (*fn)(void *arg), void *arg);

static void *copy_of(const void *p, size_t n)
{
	void *q = malloc(n);

	if (!q)
		abort();
	return memcpy(q, p, n);
}

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

static void step_run(void *arg)
{
	const struct nbk_step *p = (const struct nbk_step *)arg;
	int f = p->filters;
	size_t st = (size_t)p->height * p->width * f, g = 4 * (size_t)f;
	const float *k = p->w, *r = k + 9 * (size_t)p->cin * g, *bias = r + 9 * f * g;
	float *zero = calloc(st, sizeof(float));

	if (!zero)
		abort();
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
}

int nbk_convlstm_step(nbk_stream s, const struct nbk_step *p)
{
	int f = p->filters;
	size_t st = (size_t)p->height * p->width * f;

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
	fake_hip_defer(s, step_run, copy_of(p, sizeof(*p)));
	return 0;
}

static float sigmoid(double x)
{
	return (float)(1.0 / (1.0 + exp(-x)));
}

struct head {
	int batch, frames, height, width, channels, out_channels;
	const float *in, *kernel, *bias;
	float *out;
};

static void head3d_run(void *arg)
{
	const struct head *h = (const struct head *)arg;
	int batch = h->batch, frames = h->frames, height = h->height;
	int width = h->width, channels = h->channels;
	const float *in = h->in, *kernel = h->kernel, *bias = h->bias;
	float *out = h->out;
	size_t px = (size_t)height * width;

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
}

int nbk_conv3d_head(nbk_stream s, int batch, int frames, int height,
		    int width, int channels, const float *in,
		    const float *kernel, const float *bias, float *out)
{
	struct head h = { batch, frames, height, width, channels, 1, in,
			  kernel, bias, out };

	fake_hip_defer(s, head3d_run, copy_of(&h, sizeof(h)));
	return 0;
}

static void head2d_run(void *arg)
{
	const struct head *h = (const struct head *)arg;
	int batch = h->batch, height = h->height, width = h->width;
	int channels = h->channels, out_channels = h->out_channels;
	const float *in = h->in, *kernel = h->kernel, *bias = h->bias;
	float *out = h->out;

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
}

int nbk_conv2d_head(nbk_stream s, int batch, int height, int width,
		    int channels, int out_channels, const float *in,
		    const float *kernel, const float *bias, float *out)
{
	struct head h = { batch, 1, height, width, channels, out_channels, in,
			  kernel, bias, out };

	fake_hip_defer(s, head2d_run, copy_of(&h, sizeof(h)));
	return 0;
}

struct peak {
	long n, iters;
	float m, k, *out;
};

static void peak_run(void *arg)
{
	const struct peak *p = (const struct peak *)arg;
	float a = 1.0f;

	for (long i = 0; i < p->iters; i++)
		a = fmaf(a, p->m, p->k);
	for (long i = 0; i < p->n; i++)
		p->out[i] = a;
}

int nbk_fma_peak(nbk_stream s, int blocks, int threads, long iters,
		 float m, float k, float *out, double *flops)
{
	struct peak p = { (long)blocks * threads, iters, m, k, out };

	if (blocks < 1 || threads < 1 || iters < 0)
		return fail("nbk_fma_peak: %d blocks of %d threads", blocks, threads);
	fake_hip_defer(s, peak_run, copy_of(&p, sizeof(p)));
	*flops = 2.0 * NBK_PEAK_CHAINS * (double)iters * blocks * threads;
	return 0;
}

struct triad {
	float *a;
	const float *b, *c;
	float scalar;
	size_t n;
};

static void triad_run(void *arg)
{
	const struct triad *t = (const struct triad *)arg;

	for (size_t i = 0; i < t->n; i++)
		t->a[i] = fmaf(t->scalar, t->c[i], t->b[i]);
}

int nbk_triad(nbk_stream s, float *a, const float *b, const float *c,
	      float scalar, size_t n)
{
	struct triad t = { a, b, c, scalar, n };

	fake_hip_defer(s, triad_run, copy_of(&t, sizeof(t)));
	return 0;
}

int nbk_event_record(void *event, nbk_stream s)
{
	return hipEventRecord((hipEvent_t)event, (hipStream_t)s) ?
		fail("nbk_event_record: the fake runtime failed") : 0;
}

int nbk_stream_wait(nbk_stream s, void *event)
{
	return hipStreamWaitEvent((hipStream_t)s, (hipEvent_t)event, 0) ?
		fail("nbk_stream_wait: the fake runtime failed") : 0;
}

/*
 * As hip/nbk.cpp's: events around fn's work (warm: fn twice, so the
 * enqueue must be idempotent), and the host waits for the second.
 */
int nbk_time_ms(nbk_stream s, int (*fn)(void *arg), void *arg, int warm,
		float *ms)
{
	hipEvent_t ev0 = NULL, ev1 = NULL;
	int rc = -1;

	*ms = 0;
	if (hipEventCreate(&ev0) || hipEventCreate(&ev1))
		fail("nbk_time_ms: the fake runtime failed");
	else if (!(warm && fn(arg)) && !hipEventRecord(ev0, (hipStream_t)s) &&
		 !fn(arg) && !hipEventRecord(ev1, (hipStream_t)s) &&
		 !hipEventSynchronize(ev1))
		rc = 0;
	if (ev0)
		hipEventDestroy(ev0);
	if (ev1)
		hipEventDestroy(ev1);
	return rc;
}
