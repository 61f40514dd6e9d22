// SPDX-License-Identifier: MIT
/*
 * The launch wrappers of hip/nbk.h. One translation unit with the kernels
 * (a kernel is launched from the unit that defines it, without -fgpu-rdc):
 * built by hipcc for the AMD targets (one fat object) and by nvcc -x cu for
 * NVIDIA through cuda_compat.h. Every runtime call is checked (NBK_FAILED),
 * every launch is followed by NBK_LAUNCHED (hipGetLastError): a failure
 * leaves file, line, call and the runtime's error string in nbk_error().
 */
#if defined(__NVCC__)
#include "cuda_compat.h"
#else
#include <hip/hip_runtime.h>
#endif

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>

#include "nbk.h"
#include "kernels/convlstm.hip"
#include "kernels/heads.hip"
#include "kernels/micro.hip"
#include "kernels/train.hip"

static thread_local char nbk_err[512];

const char *nbk_error(void)
{
	return nbk_err;
}

__attribute__((format(printf, 3, 4)))
static int nbk_fail(const char *file, int line, const char *fmt, ...)
{
	int n = snprintf(nbk_err, sizeof(nbk_err), "%s:%d: ", file, line);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(nbk_err + n, sizeof(nbk_err) - n, fmt, ap);
	va_end(ap);
	return -1;
}

static int nbk_check(hipError_t e, const char *call, const char *file,
		     int line)
{
	if (e == hipSuccess)
		return 0;
	return nbk_fail(file, line, "%s: error %d (%s)", call, (int)e,
			hipGetErrorString(e));
}

/* non-zero (nbk_error() set) when call failed */
#define NBK_FAILED_AS(call, what) nbk_check((call), what, __FILE__, __LINE__)
#define NBK_FAILED(call) NBK_FAILED_AS(call, #call)
/* after every launch: a bad configuration or a missing code object */
#define NBK_LAUNCHED(kernel) \
	do { \
		if (NBK_FAILED_AS(hipGetLastError(), "launch of " #kernel)) \
			return -1; \
	} while (0)
#define NBK_BAD(...) nbk_fail(__FILE__, __LINE__, __VA_ARGS__)

static dim3 nbk_grid(const struct nbk_geom &g)
{
	return dim3(g.grid[0], g.grid[1], g.grid[2]);
}

/*
 * The family of the code object the runtime runs on the current device,
 * which the device code chose at compile time (nbk_layout.h): NVIDIA for
 * a CUDA build; on AMD, by the device's wave size (gfx10 and later run
 * wave32 code, gfx9 wave64). -1 with nbk_error() set when the runtime
 * cannot say.
 */
static int nbk_family(void)
{
#ifdef __NVCC__
	return NBK_FAMILY_NV;
#else
	int dev, wave;

	if (NBK_FAILED(hipGetDevice(&dev)) ||
	    NBK_FAILED(hipDeviceGetAttribute(&wave, hipDeviceAttributeWarpSize, dev)))
		return -1;
	return wave == 32 ? NBK_FAMILY_RDNA : NBK_FAMILY_GCN;
#endif
}

size_t nbk_cell_packed_count(int cin, int filters)
{
	return nbk_layout_packed_count(cin, filters);
}

void nbk_cell_pack(int cin, int filters, const float *host_kernel,
		   const float *host_rkernel, const float *host_bias,
		   float *host_packed)
{
	nbk_layout_pack(cin, filters, host_kernel, host_rkernel, host_bias,
			host_packed);
}

void nbk_bn_fold(int filters, const float *host_gamma,
		 const float *host_beta, const float *host_mean,
		 const float *host_var, float eps, float *host_scale,
		 float *host_shift)
{
	nbk_layout_bn_fold(filters, host_gamma, host_beta, host_mean, host_var,
			   eps, host_scale, host_shift);
}

int nbk_convlstm_step(nbk_stream s, const struct nbk_step *p)
{
	if (p->batch < 1 || p->height < 1 || p->width < 1 || p->cin < 1 ||
	    p->filters < 1 || p->batch > 65535)
		return NBK_BAD("nbk_convlstm_step: shape %dx%dx%dx%d, %d filters: expected batch 1..65535 and sizes >= 1",
			       p->batch, p->height, p->width, p->cin, p->filters);
	if (p->y && (!p->bn_scale || !p->bn_shift))
		return NBK_BAD("nbk_convlstm_step: y without bn_scale and bn_shift");
	/* the kernel's offsets within a frame are ints */
	if ((size_t)p->height * p->width *
	    (p->cin > p->filters ? p->cin : p->filters) > INT_MAX)
		return NBK_BAD("nbk_convlstm_step: a frame of %dx%d pixels x %d channels: expected at most %d values",
			       p->height, p->width,
			       p->cin > p->filters ? p->cin : p->filters, INT_MAX);
	int family = nbk_family();

	if (family < 0)
		return -1;
	struct nbk_geom g = nbk_step_geom(family, p->batch, p->height,
					  p->width, p->filters);

	nbk_step_kernel<<<nbk_grid(g), g.block, 0, (hipStream_t)s>>>(
		p->x, (long)p->x_batch_stride, p->h_in, p->c_in, p->h_out,
		p->c_out, p->w, p->bn_scale, p->bn_shift, p->y,
		(long)p->y_batch_stride, p->height, p->width, p->cin,
		p->filters, p->h_in != NULL, p->c_in != NULL, p->y != NULL);
	NBK_LAUNCHED(nbk_step_kernel);
	return 0;
}

int nbk_conv3d_head(nbk_stream s, int batch, int frames, int height,
		    int width, int channels, const float *in,
		    const float *kernel, const float *bias, float *out)
{
	if (batch < 1 || frames < 1 || height < 1 || width < 1 || channels < 1)
		return NBK_BAD("nbk_conv3d_head: shape %dx%dx%dx%dx%d: expected sizes >= 1",
			       batch, frames, height, width, channels);
	if (nbk_head_blocks((size_t)batch * frames, height, width) > INT_MAX)
		return NBK_BAD("nbk_conv3d_head: %d x %d frames of %dx%d: more than %d blocks of 8x8 pixels",
			       batch, frames, height, width, INT_MAX);
	struct nbk_geom g = nbk_head_geom((size_t)batch * frames, height, width);

	nbk_conv3d_head_kernel<<<nbk_grid(g), g.block, 0, (hipStream_t)s>>>(
		in, kernel, bias, out, frames, height, width, channels);
	NBK_LAUNCHED(nbk_conv3d_head_kernel);
	return 0;
}

int nbk_conv2d_head(nbk_stream s, int batch, int height, int width,
		    int channels, int out_channels, const float *in,
		    const float *kernel, const float *bias, float *out)
{
	if (batch < 1 || height < 1 || width < 1 || channels < 1 ||
	    out_channels < 1 || out_channels > NBK_HEAD2D_MAX_OUT)
		return NBK_BAD("nbk_conv2d_head: shape %dx%dx%dx%d, %d outputs: expected sizes >= 1, outputs <= %d",
			       batch, height, width, channels, out_channels,
			       NBK_HEAD2D_MAX_OUT);
	if (nbk_head_blocks(batch, height, width) > INT_MAX)
		return NBK_BAD("nbk_conv2d_head: %d images of %dx%d: more than %d blocks of 8x8 pixels",
			       batch, height, width, INT_MAX);
	struct nbk_geom g = nbk_head_geom(batch, height, width);

	nbk_conv2d_head_kernel<<<nbk_grid(g), g.block, 0, (hipStream_t)s>>>(
		in, kernel, bias, out, height, width, channels, out_channels);
	NBK_LAUNCHED(nbk_conv2d_head_kernel);
	return 0;
}

/* launch kernel on stream s with geometry g, then check it */
#define NBK_LAUNCH(kernel, g, s, ...) \
	do { \
		kernel<<<nbk_grid(g), (g).block, 0, (hipStream_t)(s)>>>(__VA_ARGS__); \
		NBK_LAUNCHED(kernel); \
	} while (0)

/* a convolution's shape: sizes >= 1, an image's values within an int */
static int nbk_conv_bad(const struct nbk_conv *p, const char *fn)
{
	if (p->batch < 1 || p->frames < 1 || p->height < 1 || p->width < 1 ||
	    p->cin < 1 || p->cout < 1)
		return NBK_BAD("%s: shape %dx%dx%dx%d, %d to %d channels: expected sizes >= 1",
			       fn, p->batch, p->frames, p->height, p->width,
			       p->cin, p->cout);
	if ((size_t)p->height * p->width *
	    (p->cin > p->cout ? p->cin : p->cout) > INT_MAX ||
	    (size_t)9 * p->cin * p->cout > INT_MAX)
		return NBK_BAD("%s: %dx%d pixels, %d to %d channels: more than %d values",
			       fn, p->height, p->width, p->cin, p->cout, INT_MAX);
	return 0;
}

/* the forward (z from x) or, transposed, the input gradient (x from z) */
static int nbk_tconv(nbk_stream s, const struct nbk_conv *p, const float *bias,
		     int transposed)
{
	const struct nbk_tconv_map a = nbk_tconv_map(p->cin, p->cout, p->shift,
						     transposed);
	const float *in = transposed ? p->z : p->x;
	float *out = transposed ? p->x : p->z;
	long in_bs = (long)(transposed ? p->z_batch_stride : p->x_batch_stride);
	long out_bs = (long)(transposed ? p->x_batch_stride : p->z_batch_stride);
	long n = (long)p->batch * p->frames * p->height * p->width * a.co;
	struct nbk_geom g = nbk_train_geom(n);

	if (nbk_conv_bad(p, transposed ? "nbk_conv_bwd_x" : "nbk_conv_fwd"))
		return -1;
	NBK_LAUNCH(nbk_tconv_kernel, g, s, in, in_bs, p->k, a.kt, a.kc, a.ka,
		   a.dir, bias, out, out_bs, p->frames, a.shift, p->height,
		   p->width, a.ci, a.co, p->accumulate, n);
	return 0;
}

int nbk_conv_fwd(nbk_stream s, const struct nbk_conv *p, const float *bias)
{
	return nbk_tconv(s, p, bias, 0);
}

int nbk_conv_bwd_x(nbk_stream s, const struct nbk_conv *p)
{
	return nbk_tconv(s, p, NULL, 1);
}

int nbk_conv_bwd_k(nbk_stream s, const struct nbk_conv *p)
{
	if (nbk_conv_bad(p, "nbk_conv_bwd_k"))
		return -1;
	struct nbk_geom g = nbk_sums_geom((size_t)9 * p->cin * p->cout);

	NBK_LAUNCH(nbk_wgrad_kernel, g, s, p->x, (long)p->x_batch_stride, p->z,
		   (long)p->z_batch_stride, p->k, p->batch, p->frames, p->shift,
		   p->height, p->width, p->cin, p->cout, p->accumulate);
	return 0;
}

int nbk_chan_sum(nbk_stream s, const float *x, size_t rows, int channels,
		 float *out, int accumulate)
{
	if (channels < 1)
		return NBK_BAD("nbk_chan_sum: %d channels: expected >= 1", channels);
	struct nbk_geom g = nbk_sums_geom(channels);

	NBK_LAUNCH(nbk_chan_sum_kernel, g, s, x, (long)rows, channels, out,
		   accumulate);
	return 0;
}

static int nbk_bn_bad(const struct nbk_bn *p, const char *fn)
{
	if (p->items < 1 || p->filters < 1 || p->rows < 1)
		return NBK_BAD("%s: %d items of %zu rows, %d filters: expected >= 1",
			       fn, p->items, p->rows, p->filters);
	return 0;
}

int nbk_bn_train_fwd(nbk_stream s, const struct nbk_bn *p)
{
	if (nbk_bn_bad(p, "nbk_bn_train_fwd"))
		return -1;
	long n = (long)p->items * p->rows * p->filters;
	struct nbk_geom gs = nbk_sums_geom(p->filters), ge = nbk_train_geom(n);

	NBK_LAUNCH(nbk_bn_stats_kernel, gs, s, p->h, (long)p->item_stride,
		   p->items, (long)p->rows, p->filters, p->mean, p->var);
	NBK_LAUNCH(nbk_bn_fwd_kernel, ge, s, p->h, (long)p->item_stride,
		   (long)p->rows, p->filters, p->mean, p->var, p->gamma,
		   p->beta, p->eps, p->y, n);
	return 0;
}

int nbk_bn_bwd(nbk_stream s, const struct nbk_bn *p)
{
	if (nbk_bn_bad(p, "nbk_bn_bwd"))
		return -1;
	long n = (long)p->items * p->rows * p->filters;
	struct nbk_geom gs = nbk_sums_geom(p->filters), ge = nbk_train_geom(n);

	NBK_LAUNCH(nbk_bn_bwd_sums_kernel, gs, s, p->h, (long)p->item_stride,
		   p->items, (long)p->rows, p->filters, p->mean, p->var,
		   p->eps, p->dy, p->dgamma, p->dbeta);
	NBK_LAUNCH(nbk_bn_bwd_kernel, ge, s, p->h, (long)p->item_stride,
		   (long)p->rows, p->filters, p->mean, p->var, p->eps,
		   p->gamma, p->dy, p->dgamma, p->dbeta, p->dh, n);
	return 0;
}

static int nbk_gates_bad(const struct nbk_gates *p, const char *fn)
{
	if (p->batch < 1 || p->height < 1 || p->width < 1 || p->filters < 1)
		return NBK_BAD("%s: shape %dx%dx%d, %d filters: expected sizes >= 1",
			       fn, p->batch, p->height, p->width, p->filters);
	return 0;
}

int nbk_gates_fwd(nbk_stream s, const struct nbk_gates *p)
{
	if (nbk_gates_bad(p, "nbk_gates_fwd"))
		return -1;
	long m = (long)p->height * p->width * p->filters, n = m * p->batch;
	struct nbk_geom g = nbk_train_geom(n);

	NBK_LAUNCH(nbk_gates_fwd_kernel, g, s, p->z, (long)p->z_batch_stride,
		   p->c_prev, p->c_prev != NULL, p->c, p->h,
		   (long)p->state_batch_stride, p->filters, m, n);
	return 0;
}

int nbk_gates_bwd(nbk_stream s, const struct nbk_gates *p)
{
	if (nbk_gates_bad(p, "nbk_gates_bwd"))
		return -1;
	long m = (long)p->height * p->width * p->filters, n = m * p->batch;
	struct nbk_geom g = nbk_train_geom(n);

	NBK_LAUNCH(nbk_gates_bwd_kernel, g, s, p->z, (long)p->z_batch_stride,
		   p->c, p->c_prev, p->c_prev != NULL,
		   (long)p->state_batch_stride, p->dh_out, p->dh_out != NULL,
		   p->dh_rec, p->dh_rec != NULL, p->dc, p->dc_in, p->dz,
		   p->filters, m, n);
	return 0;
}

int nbk_loss(nbk_stream s, int bce, size_t n, const float *logit,
	     const float *target, float *grad, float *terms, float *loss)
{
	if (!n)
		return NBK_BAD("nbk_loss: no values");
	struct nbk_geom g = nbk_train_geom(n);

	NBK_LAUNCH(nbk_loss_kernel, g, s, logit, target, bce, grad, terms,
		   (long)n);
	return nbk_chan_sum(s, terms, n, 1, loss, 0);
}

int nbk_adam(nbk_stream s, size_t n, float *p, const float *g, float *m,
	     float *v, long step, double lr, double beta1, double beta2,
	     double eps)
{
	if (!n)
		return 0;
	struct nbk_geom geo = nbk_train_geom(n);

	NBK_LAUNCH(nbk_adam_kernel, geo, s, p, g, m, v,
		   nbk_adam_alpha(step, lr, beta1, beta2), (float)(1 - beta1),
		   (float)(1 - beta2), (float)eps, (long)n);
	return 0;
}

int nbk_moving_average(nbk_stream s, size_t n, float *avg, const float *stat,
		       double momentum)
{
	if (!n)
		return 0;
	struct nbk_geom g = nbk_train_geom(n);

	NBK_LAUNCH(nbk_moving_kernel, g, s, avg, stat, (float)momentum, (long)n);
	return 0;
}

int nbk_fma_peak(nbk_stream s, int blocks, int threads, long iters,
		 float m, float k, float *out, double *flops)
{
	if (blocks < 1 || threads < 1 || threads > NBK_PEAK_THREADS || iters < 0)
		return NBK_BAD("nbk_fma_peak: %d blocks of %d threads, %ld iterations: expected >= 1, 1..%d, >= 0",
			       blocks, threads, iters, NBK_PEAK_THREADS);
	nbk_fma_peak_kernel<<<blocks, threads, 0, (hipStream_t)s>>>(
		out, iters, m, k, 0.0f);
	NBK_LAUNCHED(nbk_fma_peak_kernel);
	*flops = 2.0 * NBK_PEAK_CHAINS * (double)iters * blocks * threads;
	return 0;
}

int nbk_triad(nbk_stream s, float *a, const float *b, const float *c,
	      float scalar, size_t n)
{
	if (!n)
		return 0;
	struct nbk_geom g = nbk_triad_geom(n);

	nbk_triad_kernel<<<nbk_grid(g), g.block, 0, (hipStream_t)s>>>(
		a, b, c, scalar, (long)n);
	NBK_LAUNCHED(nbk_triad_kernel);
	return 0;
}

int nbk_event_record(void *event, nbk_stream s)
{
	return NBK_FAILED(hipEventRecord((hipEvent_t)event, (hipStream_t)s)) ? -1 : 0;
}

int nbk_stream_wait(nbk_stream s, void *event)
{
	return NBK_FAILED(hipStreamWaitEvent((hipStream_t)s, (hipEvent_t)event, 0)) ?
		-1 : 0;
}

int nbk_time_ms(nbk_stream s, int (*fn)(void *arg), void *arg, int warm,
		float *ms)
{
	hipStream_t st = (hipStream_t)s;
	hipEvent_t ev0 = NULL, ev1 = NULL;
	int rc = -1;

	if (!NBK_FAILED(hipEventCreate(&ev0)) &&
	    !NBK_FAILED(hipEventCreate(&ev1)) && !(warm && fn(arg)) &&
	    !NBK_FAILED(hipEventRecord(ev0, st)) && !fn(arg) &&
	    !NBK_FAILED(hipEventRecord(ev1, st)) &&
	    !NBK_FAILED(hipEventSynchronize(ev1)) &&
	    !NBK_FAILED(hipEventElapsedTime(ms, ev0, ev1)))
		rc = 0;
	/* the first error is the one reported: these may fail after it */
	if (ev0)
		(void)hipEventDestroy(ev0);
	if (ev1)
		(void)hipEventDestroy(ev1);
	return rc;
}
