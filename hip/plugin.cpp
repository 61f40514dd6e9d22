// SPDX-License-Identifier: MIT
/*
 * The GPU plugin: struct nb_backend_ops (user/engine/engine.h) on a HIP
 * device, over the kernels' launch wrappers (nbk.h), and the descriptor
 * navibench checks at dlopen() (user/engine/plugin.h).
 *
 * hipcc builds it into libnavibench_hip.so for AMD GPUs; nvcc builds the
 * same source, through cuda_compat.h (hip* names mapped to cuda*), into
 * libnavibench_cuda.so. It is C in C++ clothing: the compilers that know
 * the runtimes are C++ compilers.
 *
 * Every runtime call is checked, and a failure says where (file, line),
 * which call, and the runtime's error number, name and text. The host
 * clock navibench times with is honest because every operation returns
 * only when the GPU is done with it; the GPU time of each operation's
 * kernels is measured with events on the context's stream by the kernels'
 * one timing helper, nbk_time_ms() (gpu_timed()).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __NVCC__
#include "cuda_compat.h"
#define RT_NAME "CUDA"
#define RT_PREFIX "cuda"
#else
#include <hip/hip_runtime_api.h>
#include <hip/hip_version.h>
#define RT_NAME "HIP"
#define RT_PREFIX "hip"
#endif

#include "nbk.h"
#include "engine/plugin.h"

#define EXPORT extern "C" __attribute__((visibility("default")))

/* ---- errors ---- */

/* What the runtime's text leaves out (ROCm 5.2's text is the error's name). */
static const char *rt_hint(hipError_t e)
{
	switch (e) {
	case hipErrorNoDevice:
		return "no " RT_NAME " device is detected";
	case hipErrorInsufficientDriver:
		return "the GPU driver is missing or older than the runtime";
	case hipErrorNoBinaryForGpu:
		return "the plugin carries no code for this GPU (see hip/README.md)";
	default:
		return NULL;
	}
}

/*
 * "file:line: hipMalloc: error 2 (hipErrorOutOfMemory): out of memory";
 * file NULL leaves out the place (a notice for the user, not a bug
 * report). The call is named as the runtime names it: a CUDA build says
 * cudaMalloc where the source says hipMalloc.
 */
static int rt_error(hipError_t e, const char *file, int line,
		    const char *call, char *err, size_t errlen)
{
	const char *name = hipGetErrorName(e), *text = hipGetErrorString(e);
	const char *prefix = "";
	int n = (int)strcspn(call, "(");
	char where[96] = "";

	if (!strncmp(call, "hip", 3)) {
		prefix = RT_PREFIX;
		call += 3;
		n -= 3;
	}
	if (file)
		snprintf(where, sizeof(where), "%s:%d: ", file, line);
	if (!text || (name && !strcmp(text, name)))
		text = rt_hint(e);
	snprintf(err, errlen, "%s%s%.*s: error %d (%s)%s%s", where, prefix, n,
		 call, (int)e, name ? name : "?", text ? ": " : "",
		 text ? text : "");
	return -1;
}

static int rt_check(hipError_t e, const char *file, int line,
		    const char *call, char *err, size_t errlen)
{
	return e == hipSuccess ? 0 : rt_error(e, file, line, call, err, errlen);
}

/* 0 when call succeeded, else -1 with err written */
#define RT(call, err, errlen) \
	rt_check((call), __FILE__, __LINE__, #call, err, errlen)

/*
 * Teardown: nothing to undo when it fails, but a failure there (a context
 * the GPU lost) is still said.
 */
static void rt_cleanup(hipError_t e, const char *file, int line,
		       const char *call)
{
	char err[256];

	if (e == hipSuccess)
		return;
	rt_error(e, file, line, call, err, sizeof(err));
	fprintf(stderr, "navibench: %s backend: %s\n", RT_PREFIX, err);
}

#define RT_CLEANUP(call) rt_cleanup((call), __FILE__, __LINE__, #call)

/* a launch wrapper's failure (its message names file, line and call) */
static int nbk_fail(char *err, size_t errlen)
{
	snprintf(err, errlen, "%s", nbk_error());
	return -1;
}

/* ---- devices ---- */

static int device_count(int *count, char *err, size_t errlen)
{
	hipError_t e = hipGetDeviceCount(count);

	if (e == hipSuccess)
		return 0;
	*count = 0;
	return rt_error(e, NULL, 0, "hipGetDeviceCount", err, errlen);
}

/* "gfx1012:sramecc+:xnack-" -> "gfx1012"; NVIDIA: "sm_90" */
static void device_arch(const hipDeviceProp_t *p, char *arch, size_t len)
{
#ifdef __NVCC__
	snprintf(arch, len, "sm_%d%d", p->major, p->minor);
#else
	snprintf(arch, len, "%.*s", (int)strcspn(p->gcnArchName, ":"),
		 p->gcnArchName);
#endif
}

static int device_info(int ordinal, struct nb_plugin_device *d, char *err,
		       size_t errlen)
{
	hipDeviceProp_t p;
	int count;

	memset(d, 0, sizeof(*d));
	if (device_count(&count, err, errlen))
		return -1;
	if (ordinal < 0 || ordinal >= count) {
		snprintf(err, errlen, "%s device %d: there %s %d (0 to %d)",
			 RT_NAME, ordinal, count == 1 ? "is" : "are", count,
			 count - 1);
		return -1;
	}
	if (RT(hipGetDeviceProperties(&p, ordinal), err, errlen) ||
	    RT(hipDeviceGetAttribute(&d->clock_khz, hipDeviceAttributeClockRate,
				     ordinal), err, errlen) ||
	    RT(hipDeviceGetAttribute(&d->memory_clock_khz,
				     hipDeviceAttributeMemoryClockRate, ordinal),
	       err, errlen) ||
	    RT(hipRuntimeGetVersion(&d->runtime_version), err, errlen) ||
	    RT(hipDriverGetVersion(&d->driver_version), err, errlen))
		return -1;
	snprintf(d->name, sizeof(d->name), "%.*s", (int)sizeof(d->name) - 1,
		 p.name);
	device_arch(&p, d->arch, sizeof(d->arch));
	/* a GPU is function 0; the runtimes do not report the function */
	snprintf(d->pci, sizeof(d->pci), "%04x:%02x:%02x.0",
		 p.pciDomainID & 0xffff, p.pciBusID & 0xff, p.pciDeviceID & 0x1f);
	d->compute_units = p.multiProcessorCount;
	d->wave_size = p.warpSize;
	d->memory_bytes = p.totalGlobalMem;
	d->memory_bus_bits = p.memoryBusWidth;
	d->lds_bytes = (int)p.sharedMemPerBlock;
	d->max_threads_per_block = p.maxThreadsPerBlock;
	return 0;
}

/* ---- context ---- */

struct gpu {
	int device;
	hipStream_t stream;
	double last_gpu_s;	/* the last gpu_timed() span */
	struct nb_plugin_device info;
	int peak_blocks, peak_threads;
	float *peak_out;	/* one float per peak thread */
	size_t triad_n;
	float *triad[3];	/* a, b, c on the device */
	const float *triad_src[2];	/* the host b and c they hold */
	/*
	 * The forward pass's wavefront (forward_enqueue()): a stream per
	 * layer, the event its last step recorded, and the event that starts
	 * them after what the stream holds.
	 */
	hipStream_t lane[NB_MAX_LAYERS];
	hipEvent_t lane_done[NB_MAX_LAYERS];
	hipEvent_t fork;
	unsigned int reported;	/* the void ops whose failure was printed */
	char desc[96];
};

/*
 * The operations that return nothing (cell_set/step/get, triad) or only a
 * number (fma_peak) print their first failure on stderr, once per
 * operation however often it is repeated, and leave NaN where results
 * were due, so that the failure shows in the validation too.
 */
enum gpu_op { OP_CELL_SET, OP_CELL_STEP, OP_CELL_GET, OP_PEAK, OP_TRIAD };

static void gpu_report(struct gpu *g, enum gpu_op op, const char *err)
{
	static const char *const names[] = {
		"cell_set", "cell_step", "cell_get", "fma_peak", "triad",
	};

	if (g->reported & 1u << op)
		return;
	g->reported |= 1u << op;
	fprintf(stderr, "navibench: %s backend: %s: %s\n", RT_PREFIX,
		names[op], err);
}

static void nan_fill(float *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = NAN;
}

/* hipSetDevice is per host thread: every operation selects its device. */
static int gpu_enter(struct gpu *g, char *err, size_t errlen)
{
	return RT(hipSetDevice(g->device), err, errlen);
}

/*
 * enqueue(arg) puts an operation's kernels on g->stream (0, or -1 with
 * nbk_error() set); returns when the GPU has run them, with their span on
 * the GPU in g->last_gpu_s. warm: a single kernel, enqueued once more
 * before the span (nbk_time_ms()), so that the span leaves out the host's
 * launch latency.
 */
static int gpu_timed(struct gpu *g, int (*enqueue)(void *arg), void *arg,
		     int warm, char *err, size_t errlen)
{
	float ms = 0;

	g->last_gpu_s = NAN;
	if (nbk_time_ms(g->stream, enqueue, arg, warm, &ms))
		return nbk_fail(err, errlen);
	g->last_gpu_s = ms * 1e-3;
	return 0;
}

static int dev_alloc(float **p, size_t count, char *err, size_t errlen)
{
	*p = NULL;
	return RT(hipMalloc((void **)p, (count ? count : 1) * sizeof(float)),
		  err, errlen);
}

static void dev_free(float **p)
{
	if (*p)
		RT_CLEANUP(hipFree(*p));
	*p = NULL;
}

static int to_dev(struct gpu *g, float *dst, const float *src, size_t count,
		  char *err, size_t errlen)
{
	return RT(hipMemcpyAsync(dst, src, count * sizeof(float),
				 hipMemcpyHostToDevice, g->stream), err, errlen);
}

static int to_host(struct gpu *g, float *dst, const float *src, size_t count,
		   char *err, size_t errlen)
{
	return RT(hipMemcpyAsync(dst, src, count * sizeof(float),
				 hipMemcpyDeviceToHost, g->stream), err, errlen);
}

/*
 * The end of every operation that copies: a copy reads or writes host
 * memory until the stream has run it, so the operation waits for the
 * stream even when a step failed, before its caller may free or read that
 * memory. Returns -1 when a step or the wait failed (err says the first
 * failure), else 0.
 */
static int gpu_drain(struct gpu *g, bool failed, char *err, size_t errlen)
{
	char later[256];

	if (RT(hipStreamSynchronize(g->stream), failed ? later : err,
	       failed ? sizeof(later) : errlen))
		return -1;
	return failed ? -1 : 0;
}

static void gpu_close(void *ctx)
{
	struct gpu *g = (struct gpu *)ctx;

	if (!g)
		return;
	/* everything the device holds came after the stream */
	if (g->stream) {
		RT_CLEANUP(hipSetDevice(g->device));
		dev_free(&g->peak_out);
		for (int i = 0; i < 3; i++)
			dev_free(&g->triad[i]);
		for (int l = 0; l < NB_MAX_LAYERS; l++) {
			if (g->lane_done[l])
				RT_CLEANUP(hipEventDestroy(g->lane_done[l]));
			if (g->lane[l])
				RT_CLEANUP(hipStreamDestroy(g->lane[l]));
		}
		if (g->fork)
			RT_CLEANUP(hipEventDestroy(g->fork));
		RT_CLEANUP(hipStreamDestroy(g->stream));
	}
	free(g);
}

/*
 * The FMA peak's grid: 256 threads a block (a multiple of 32 and 64) and
 * as many blocks per CU as the CU holds threads, so that every SIMD has
 * waves to switch between; 4 blocks where the runtime does not say (ROCm
 * 5.2 reports 0 resident threads per CU).
 */
static void peak_grid(struct gpu *g, const hipDeviceProp_t *p)
{
	int per_cu = p->maxThreadsPerMultiProcessor / 256;

	g->peak_threads = 256;
	g->peak_blocks = (per_cu > 0 ? per_cu : 4) *
		(g->info.compute_units > 0 ? g->info.compute_units : 1);
}

static int gpu_open(const struct nb_backend_config *cfg, void **ctx,
		    char *err, size_t errlen)
{
	struct gpu *g = (struct gpu *)calloc(1, sizeof(*g));
	hipDeviceProp_t p;
	int v;

	if (!g) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	g->device = cfg ? cfg->device : 0;
	if (device_info(g->device, &g->info, err, errlen) ||
	    gpu_enter(g, err, errlen) ||
	    RT(hipGetDeviceProperties(&p, g->device), err, errlen) ||
	    RT(hipStreamCreateWithFlags(&g->stream, hipStreamNonBlocking), err,
	       errlen)) {
		gpu_close(g);
		return -1;
	}
	if (RT(hipEventCreateWithFlags(&g->fork, hipEventDisableTiming), err,
	       errlen)) {
		gpu_close(g);
		return -1;
	}
	for (int l = 0; l < NB_MAX_LAYERS; l++)
		if (RT(hipStreamCreateWithFlags(&g->lane[l], hipStreamNonBlocking),
		       err, errlen) ||
		    RT(hipEventCreateWithFlags(&g->lane_done[l],
					       hipEventDisableTiming), err, errlen)) {
			gpu_close(g);
			return -1;
		}
	peak_grid(g, &p);
	v = g->info.runtime_version;
#ifdef __NVCC__
	snprintf(g->desc, sizeof(g->desc), "%s, %d SMs, CUDA %d.%d",
		 g->info.arch, g->info.compute_units, v / 1000, v % 1000 / 10);
#else
	snprintf(g->desc, sizeof(g->desc), "%s, %d CUs, HIP %d.%d",
		 g->info.arch, g->info.compute_units, v / 10000000,
		 v / 100000 % 100);
#endif
	*ctx = g;
	return 0;
}

static const char *gpu_describe(void *ctx)
{
	return ((struct gpu *)ctx)->desc;
}

/* host threads: one drives the GPU */
static int gpu_threads(void *ctx)
{
	(void)ctx;
	return 1;
}

/* ---- models ---- */

struct glayer {
	int cin, f;
	float *w;		/* nbk_cell_pack() layout */
	float *scale, *shift;	/* folded BatchNormalization */
};

struct gmodel {
	struct gpu *g;
	struct nb_model m;
	struct glayer layer[NB_MAX_LAYERS];
	int fmax;
	float *head_k, *head_b;	/* Keras layouts */
	/*
	 * Buffers for (batch, frames): each layer's output sequence, and its
	 * h and c, two of each: the layers run at once (forward_enqueue()).
	 */
	int batch, frames;
	float *in, *last, *out;
	float *seq[NB_MAX_LAYERS];
	float *h[NB_MAX_LAYERS][2], *c[NB_MAX_LAYERS][2];
};

static void model_buffers_free(struct gmodel *p)
{
	dev_free(&p->in);
	dev_free(&p->last);
	dev_free(&p->out);
	for (int l = 0; l < NB_MAX_LAYERS; l++) {
		dev_free(&p->seq[l]);
		for (int i = 0; i < 2; i++) {
			dev_free(&p->h[l][i]);
			dev_free(&p->c[l][i]);
		}
	}
	p->batch = p->frames = 0;
}

static void gpu_model_free(void *ctx, void *prog)
{
	struct gmodel *p = (struct gmodel *)prog;

	if (!p)
		return;
	RT_CLEANUP(hipSetDevice(((struct gpu *)ctx)->device));
	for (int l = 0; l < NB_MAX_LAYERS; l++) {
		dev_free(&p->layer[l].w);
		dev_free(&p->layer[l].scale);
		dev_free(&p->layer[l].shift);
	}
	dev_free(&p->head_k);
	dev_free(&p->head_b);
	model_buffers_free(p);
	free(p);
}

/* the model shapes the plugin can run (navibench checks the rest) */
static int model_usable(const struct nb_model *m, char *err, size_t errlen)
{
	bool ok = m->layers >= 1 && m->layers <= NB_MAX_LAYERS &&
		m->height >= 1 && m->width >= 1 && m->channels >= 1 &&
		m->head_out >= 1 && (m->head == NB_HEAD_CONV3D ? m->head_out == 1 :
				     m->head == NB_HEAD_CONV2D);

	for (int l = 0; ok && l < m->layers; l++)
		ok = m->filters[l] >= 1;
	if (!ok)
		snprintf(err, errlen, "model %s: a shape the %s backend cannot run",
			 m->name ? m->name : "?", RT_PREFIX);
	return ok ? 0 : -1;
}

/*
 * One layer: the weights packed on the host as the step kernel reads them,
 * and BatchNormalization folded into y = h * scale + shift.
 */
static int layer_load(struct gpu *g, struct glayer *ly, const struct nb_weights *w,
		      int l, int cin, char *err, size_t errlen)
{
	int f = w->model.filters[l];
	size_t n = nbk_cell_packed_count(cin, f);
	float *host = (float *)malloc((n + 2 * (size_t)f) * sizeof(float));
	float *scale = host + n, *shift = scale + f;
	int rc;

	if (!host) {
		snprintf(err, errlen, "out of memory packing layer %d", l);
		return -1;
	}
	ly->cin = cin;
	ly->f = f;
	nbk_cell_pack(cin, f, w->kernel[l], w->rkernel[l], w->bias[l], host);
	nbk_bn_fold(f, w->gamma[l], w->beta[l], w->mean[l], w->var[l],
		    NB_BN_EPSILON, scale, shift);
	rc = gpu_drain(g, dev_alloc(&ly->w, n, err, errlen) ||
		       dev_alloc(&ly->scale, f, err, errlen) ||
		       dev_alloc(&ly->shift, f, err, errlen) ||
		       to_dev(g, ly->w, host, n, err, errlen) ||
		       to_dev(g, ly->scale, scale, f, err, errlen) ||
		       to_dev(g, ly->shift, shift, f, err, errlen), err, errlen);
	free(host);
	return rc;
}

static int gpu_model_load(void *ctx, const struct nb_weights *w, void **out,
			  char *err, size_t errlen)
{
	struct gpu *g = (struct gpu *)ctx;
	const struct nb_model *m = &w->model;
	struct gmodel *p;
	int f, taps;

	if (model_usable(m, err, errlen) || gpu_enter(g, err, errlen))
		return -1;
	p = (struct gmodel *)calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	p->g = g;
	p->m = *m;
	for (int l = 0; l < m->layers; l++) {
		if (layer_load(g, &p->layer[l], w, l,
			       l ? m->filters[l - 1] : m->channels, err, errlen))
			goto fail;
		if (m->filters[l] > p->fmax)
			p->fmax = m->filters[l];
	}
	f = m->filters[m->layers - 1];
	taps = m->head == NB_HEAD_CONV3D ? 27 : 9;
	if (gpu_drain(g, dev_alloc(&p->head_k, (size_t)taps * f * m->head_out,
				   err, errlen) ||
		      dev_alloc(&p->head_b, m->head_out, err, errlen) ||
		      to_dev(g, p->head_k, w->head_kernel,
			     (size_t)taps * f * m->head_out, err, errlen) ||
		      to_dev(g, p->head_b, w->head_bias, m->head_out, err,
			     errlen), err, errlen))
		goto fail;
	*out = p;
	return 0;
fail:
	gpu_model_free(ctx, p);
	return -1;
}

/* nb_output_count(): the plugin links nothing of navibench */
static size_t output_count(const struct nb_model *m, int batch, int frames)
{
	size_t px = (size_t)m->height * m->width * m->head_out;

	return m->head == NB_HEAD_CONV3D ? px * batch * frames : px * batch;
}

/* every layer's output sequence, and its h and c, two of each */
static int layer_buffers(struct gmodel *p, size_t images, char *err,
			 size_t errlen)
{
	size_t px = (size_t)p->m.height * p->m.width;

	for (int l = 0; l < p->m.layers; l++) {
		size_t state = (size_t)p->batch * px * p->m.filters[l];

		if (dev_alloc(&p->seq[l], images * px * p->m.filters[l], err,
			      errlen))
			return -1;
		for (int i = 0; i < 2; i++)
			if (dev_alloc(&p->h[l][i], state, err, errlen) ||
			    dev_alloc(&p->c[l][i], state, err, errlen))
				return -1;
	}
	return 0;
}

static int model_buffers(struct gmodel *p, int batch, int frames, char *err,
			 size_t errlen)
{
	const struct nb_model *m = &p->m;
	size_t px = (size_t)m->height * m->width;
	size_t state = (size_t)batch * px * p->fmax;

	if (p->batch == batch && p->frames == frames)
		return 0;
	model_buffers_free(p);
	p->batch = batch;
	if (dev_alloc(&p->in, (size_t)batch * frames * px * m->channels, err,
		      errlen) ||
	    layer_buffers(p, (size_t)batch * frames, err, errlen) ||
	    dev_alloc(&p->last, state, err, errlen) ||
	    dev_alloc(&p->out, output_count(m, batch, frames), err,
		      errlen)) {
		model_buffers_free(p);
		return -1;
	}
	p->batch = batch;
	p->frames = frames;
	return 0;
}

/*
 * Step t of layer l, on stream st: x is frame t of src, y frame t of dst.
 * The layer's h and c ping-pong between its two buffers (a step must not
 * write the state it reads); the first step starts from zero state. The
 * last layer of a Conv2D model returns its final state only: there only
 * the last step writes y, into p->last.
 */
static int layer_step(struct gmodel *p, int l, int t, const float *src,
		      float *dst, nbk_stream st)
{
	const struct glayer *ly = &p->layer[l];
	int frames = p->frames;
	bool final_only = p->m.head == NB_HEAD_CONV2D && l == p->m.layers - 1;
	size_t px = (size_t)p->m.height * p->m.width;
	struct nbk_step s = {};

	s.batch = p->batch;
	s.height = p->m.height;
	s.width = p->m.width;
	s.cin = ly->cin;
	s.filters = ly->f;
	s.x_batch_stride = (size_t)frames * px * ly->cin;
	s.w = ly->w;
	s.bn_scale = ly->scale;
	s.bn_shift = ly->shift;
	s.y_batch_stride = (final_only ? 1 : (size_t)frames) * px * ly->f;
	s.x = src + t * px * ly->cin;
	s.h_in = t ? p->h[l][(t - 1) & 1] : NULL;
	s.c_in = t ? p->c[l][(t - 1) & 1] : NULL;
	s.h_out = p->h[l][t & 1];
	s.c_out = p->c[l][t & 1];
	s.y = !final_only ? dst + t * px * ly->f :
		t == frames - 1 ? p->last : NULL;
	return nbk_convlstm_step(st, &s);
}

/*
 * Every layer, then the head: nb_ref_forward()'s semantics, as a
 * wavefront. Step t of layer l needs step t - 1 of layer l (its state)
 * and step t of layer l - 1 (its input), so the steps of a diagonal
 * l + t = d are independent: each layer runs on its own stream, after the
 * event of the layer below's step t; up to `layers` steps run at once,
 * which keeps a GPU busy at small batch (hip/README.md). Each layer has
 * its own output sequence and state (two buffers shared by every other
 * layer, as a sequential pass can have, would be written by two layers at
 * once: frames of layers of different widths overlap).
 */
static int forward_enqueue(void *arg)
{
	struct gmodel *p = (struct gmodel *)arg;
	struct gpu *g = p->g;
	const struct nb_model *m = &p->m;
	int f = m->filters[m->layers - 1];

	/* the lanes start after what the stream holds (the timing event) */
	if (nbk_event_record(g->fork, g->stream))
		return -1;
	for (int l = 0; l < m->layers; l++)
		if (nbk_stream_wait(g->lane[l], g->fork))
			return -1;
	for (int d = 0; d < p->frames + m->layers - 1; d++)
		/* higher layers first: when step t of layer l is enqueued,
		 * the last step enqueued on layer l - 1's lane is its step t */
		for (int l = m->layers - 1; l >= 0; l--) {
			int t = d - l;

			if (t < 0 || t >= p->frames)
				continue;
			if ((l && (nbk_event_record(g->lane_done[l - 1],
						    g->lane[l - 1]) ||
				   nbk_stream_wait(g->lane[l], g->lane_done[l - 1]))) ||
			    layer_step(p, l, t, l ? p->seq[l - 1] : p->in,
				       p->seq[l], g->lane[l]))
				return -1;
		}
	/* the head after the last layer's last step, which came after all */
	if (nbk_event_record(g->lane_done[m->layers - 1], g->lane[m->layers - 1]) ||
	    nbk_stream_wait(g->stream, g->lane_done[m->layers - 1]))
		return -1;
	if (m->head == NB_HEAD_CONV3D)
		return nbk_conv3d_head(g->stream, p->batch, p->frames, m->height,
				       m->width, f, p->seq[m->layers - 1],
				       p->head_k, p->head_b, p->out);
	return nbk_conv2d_head(g->stream, p->batch, m->height, m->width, f,
			       m->head_out, p->last, p->head_k, p->head_b,
			       p->out);
}

/*
 * nb_backend_ops.model_forward_layers: the forward pass layer by layer,
 * each layer's output copied back after its steps (untimed: for locating
 * where a wrong output went wrong, not for speed). The layers and the head
 * through the same wrappers as forward_enqueue().
 */
static int layers_enqueue(struct gmodel *p, float *const *layers, char *err, size_t errlen)
{
	const struct nb_model *m = &p->m;
	const float *src = p->in;
	size_t px = (size_t)m->height * m->width;
	int f = m->filters[m->layers - 1];

	for (int l = 0; l < m->layers; l++) {
		bool final_only = m->head == NB_HEAD_CONV2D && l == m->layers - 1;
		size_t n = (size_t)p->batch * (final_only ? 1 : p->frames) * px * m->filters[l];

		/* one step after another, on the operation's stream */
		for (int t = 0; t < p->frames; t++)
			if (layer_step(p, l, t, src, p->seq[l], p->g->stream))
				return nbk_fail(err, errlen);
		if (to_host(p->g, layers[l], final_only ? p->last : p->seq[l], n, err, errlen))
			return -1;
		src = p->seq[l];
	}
	if (m->head == NB_HEAD_CONV3D ?
	    nbk_conv3d_head(p->g->stream, p->batch, p->frames, m->height, m->width, f, src,
			    p->head_k, p->head_b, p->out) :
	    nbk_conv2d_head(p->g->stream, p->batch, m->height, m->width, f, m->head_out,
			    p->last, p->head_k, p->head_b, p->out))
		return nbk_fail(err, errlen);
	return 0;
}

/*
 * Both forward entry points: the input copied in, the pass enqueued (timed
 * with forward_enqueue() when layers is NULL, else layer by layer through
 * layers_enqueue()), the output copied back.
 */
static int model_run(struct gpu *g, struct gmodel *p, const float *in,
		     int batch, int frames, float *const *layers, float *out,
		     char *err, size_t errlen)
{
	const struct nb_model *m = &p->m;

	if (batch < 1 || frames < 1) {
		snprintf(err, errlen, "batch %d, frames %d: both must be >= 1",
			 batch, frames);
		return -1;
	}
	if (gpu_enter(g, err, errlen) ||
	    model_buffers(p, batch, frames, err, errlen))
		return -1;
	return gpu_drain(g, to_dev(g, p->in, in, (size_t)batch * frames *
				   m->height * m->width * m->channels, err,
				   errlen) ||
			 (layers ? layers_enqueue(p, layers, err, errlen) :
			  gpu_timed(g, forward_enqueue, p, 0, err, errlen)) ||
			 to_host(g, out, p->out, output_count(m, batch, frames),
				 err, errlen), err, errlen);
}

/* returns when out holds the result: the host clock around it is honest */
static int gpu_model_forward(void *ctx, void *prog, const float *in,
			     int batch, int frames, float *out, char *err,
			     size_t errlen)
{
	return model_run((struct gpu *)ctx, (struct gmodel *)prog, in, batch,
			 frames, NULL, out, err, errlen);
}

static int gpu_model_forward_layers(void *ctx, void *prog, const float *in, int batch,
				    int frames, float *const *layers, float *out, char *err,
				    size_t errlen)
{
	return model_run((struct gpu *)ctx, (struct gmodel *)prog, in, batch,
			 frames, layers, out, err, errlen);
}

/* ---- one cell, for the gate convolution test ---- */

struct gcell {
	struct gpu *g;
	int batch, height, width, cin, f;
	float *w, *x, *h[2], *c[2];
	int cur;		/* the state is h[cur], c[cur] */
	bool bad;		/* a failure since cell_set: results are NaN */
};

static void gpu_cell_free(void *ctx, void *vc)
{
	struct gcell *c = (struct gcell *)vc;

	if (!c)
		return;
	RT_CLEANUP(hipSetDevice(((struct gpu *)ctx)->device));
	dev_free(&c->w);
	dev_free(&c->x);
	for (int i = 0; i < 2; i++) {
		dev_free(&c->h[i]);
		dev_free(&c->c[i]);
	}
	free(c);
}

static int gpu_cell_load(void *ctx, const struct nb_cell_desc *d, void **out,
			 char *err, size_t errlen)
{
	struct gpu *g = (struct gpu *)ctx;
	struct gcell *c = (struct gcell *)calloc(1, sizeof(*c));
	size_t n = nbk_cell_packed_count(d->cin, d->filters);
	size_t px = (size_t)d->batch * d->height * d->width;
	float *host = (float *)malloc(n * sizeof(float));

	if (!c || !host) {
		free(c);
		free(host);
		snprintf(err, errlen, "out of memory packing the cell");
		return -1;
	}
	c->g = g;
	c->batch = d->batch;
	c->height = d->height;
	c->width = d->width;
	c->cin = d->cin;
	c->f = d->filters;
	nbk_cell_pack(d->cin, d->filters, d->kernel, d->rkernel, d->bias, host);
	if (gpu_enter(g, err, errlen) ||
	    dev_alloc(&c->w, n, err, errlen) ||
	    dev_alloc(&c->x, px * d->cin, err, errlen) ||
	    dev_alloc(&c->h[0], px * d->filters, err, errlen) ||
	    dev_alloc(&c->h[1], px * d->filters, err, errlen) ||
	    dev_alloc(&c->c[0], px * d->filters, err, errlen) ||
	    dev_alloc(&c->c[1], px * d->filters, err, errlen) ||
	    gpu_drain(g, to_dev(g, c->w, host, n, err, errlen), err, errlen)) {
		free(host);
		gpu_cell_free(ctx, c);
		return -1;
	}
	free(host);
	*out = c;
	return 0;
}

static void gpu_cell_set(void *ctx, void *vc, const float *x, const float *h,
			 const float *cs)
{
	struct gpu *g = (struct gpu *)ctx;
	struct gcell *c = (struct gcell *)vc;
	size_t px = (size_t)c->batch * c->height * c->width;
	char err[256];

	c->cur = 0;
	c->bad = gpu_enter(g, err, sizeof(err)) ||
		gpu_drain(g, to_dev(g, c->x, x, px * c->cin, err, sizeof(err)) ||
			  to_dev(g, c->h[0], h, px * c->f, err, sizeof(err)) ||
			  to_dev(g, c->c[0], cs, px * c->f, err, sizeof(err)),
			  err, sizeof(err));
	if (c->bad)
		gpu_report(g, OP_CELL_SET, err);
}

static int cell_enqueue(void *arg)
{
	struct gcell *c = (struct gcell *)arg;
	struct nbk_step s = {};

	s.batch = c->batch;
	s.height = c->height;
	s.width = c->width;
	s.cin = c->cin;
	s.filters = c->f;
	s.x = c->x;
	s.x_batch_stride = (size_t)c->height * c->width * c->cin;
	s.h_in = c->h[c->cur];
	s.c_in = c->c[c->cur];
	s.h_out = c->h[c->cur ^ 1];
	s.c_out = c->c[c->cur ^ 1];
	s.w = c->w;
	return nbk_convlstm_step(c->g->stream, &s);
}

static void gpu_cell_step(void *ctx, void *vc)
{
	struct gpu *g = (struct gpu *)ctx;
	struct gcell *c = (struct gcell *)vc;
	char err[256];

	if (c->bad)
		return;
	if (gpu_enter(g, err, sizeof(err)) ||
	    gpu_timed(g, cell_enqueue, c, 1, err, sizeof(err))) {
		c->bad = true;
		gpu_report(g, OP_CELL_STEP, err);
		return;
	}
	c->cur ^= 1;
}

static void gpu_cell_get(void *ctx, void *vc, float *h, float *cs)
{
	struct gpu *g = (struct gpu *)ctx;
	struct gcell *c = (struct gcell *)vc;
	size_t n = (size_t)c->batch * c->height * c->width * c->f;
	char err[256];

	if (!c->bad &&
	    (gpu_enter(g, err, sizeof(err)) ||
	     gpu_drain(g, to_host(g, h, c->h[c->cur], n, err, sizeof(err)) ||
		       to_host(g, cs, c->c[c->cur], n, err, sizeof(err)), err,
		       sizeof(err)))) {
		c->bad = true;
		gpu_report(g, OP_CELL_GET, err);
	}
	if (c->bad) {
		nan_fill(h, n);
		nan_fill(cs, n);
	}
}

/* ---- peak and bandwidth ---- */

struct peak {
	struct gpu *g;
	long iters;
	float m, k;
	double flops;
};

static int peak_enqueue(void *arg)
{
	struct peak *pk = (struct peak *)arg;
	struct gpu *g = pk->g;

	return nbk_fma_peak(g->stream, g->peak_blocks, g->peak_threads,
			    pk->iters, pk->m, pk->k, g->peak_out, &pk->flops);
}

/* nb_backend_ops.device_seconds: the last gpu_timed() span, NaN when none */
static double gpu_device_seconds(void *ctx)
{
	return ((struct gpu *)ctx)->last_gpu_s;
}

/* *lane: thread 0's value when every thread's agrees, else NaN */
static double gpu_fma_peak(void *ctx, long iters, float m, float k,
			   float *lane)
{
	struct gpu *g = (struct gpu *)ctx;
	size_t n = (size_t)g->peak_blocks * g->peak_threads;
	float *host = (float *)malloc(n * sizeof(float));
	struct peak pk = { g, iters, m, k, 0 };
	char err[256];

	*lane = NAN;
	if (!host) {
		gpu_report(g, OP_PEAK, "out of memory");
		return 0;
	}
	if (gpu_enter(g, err, sizeof(err)) ||
	    (!g->peak_out && dev_alloc(&g->peak_out, n, err, sizeof(err))) ||
	    gpu_timed(g, peak_enqueue, &pk, 0, err, sizeof(err)) ||
	    gpu_drain(g, to_host(g, host, g->peak_out, n, err, sizeof(err)), err,
		      sizeof(err))) {
		gpu_report(g, OP_PEAK, err);
		free(host);
		return 0;
	}
	*lane = host[0];
	for (size_t i = 1; i < n; i++)
		if (!(host[i] == host[0]))
			*lane = NAN;
	free(host);
	return pk.flops;
}

struct triad {
	struct gpu *g;
	float s;
	size_t n;
};

static int triad_enqueue(void *arg)
{
	struct triad *t = (struct triad *)arg;
	struct gpu *g = t->g;

	return nbk_triad(g->stream, g->triad[0], g->triad[1], g->triad[2], t->s,
			 t->n);
}

/*
 * b and c go to the device when they are not the host arrays the last
 * successful call uploaded: the benchmark fills them once and repeats, so
 * its repeats move 64 MiB (a) over PCIe, not 192. A caller that changes
 * b or c in place between calls must pass other arrays (or call with
 * another n) to have them uploaded again. a comes back on every call. The
 * events time the kernel alone, after a warm launch (see hip/README.md).
 */
static void gpu_triad(void *ctx, float *a, const float *b, const float *c,
		      float s, size_t n)
{
	struct gpu *g = (struct gpu *)ctx;
	struct triad t = { g, s, n };
	char err[256];
	int rc = gpu_enter(g, err, sizeof(err));
	bool upload = g->triad_src[0] != b || g->triad_src[1] != c;

	if (!rc && g->triad_n != n) {
		for (int i = 0; i < 3; i++)
			dev_free(&g->triad[i]);
		g->triad_n = 0;
		for (int i = 0; !rc && i < 3; i++)
			rc = dev_alloc(&g->triad[i], n, err, sizeof(err));
		if (!rc)
			g->triad_n = n;
		upload = true;
	}
	g->triad_src[0] = g->triad_src[1] = NULL;
	if (rc || gpu_drain(g, (upload &&
				(to_dev(g, g->triad[1], b, n, err, sizeof(err)) ||
				 to_dev(g, g->triad[2], c, n, err, sizeof(err)))) ||
			    gpu_timed(g, triad_enqueue, &t, 1, err, sizeof(err)) ||
			    to_host(g, a, g->triad[0], n, err, sizeof(err)), err,
			    sizeof(err))) {
		gpu_report(g, OP_TRIAD, err);
		nan_fill(a, n);
		return;
	}
	g->triad_src[0] = b;
	g->triad_src[1] = c;
}

/* ---- the descriptor ---- */

static const struct nb_backend_ops gpu_ops = {
	.name = RT_PREFIX,
	.open = gpu_open,
	.close = gpu_close,
	.describe = gpu_describe,
	.threads = gpu_threads,
	.model_load = gpu_model_load,
	.model_forward = gpu_model_forward,
	.model_free = gpu_model_free,
	.cell_load = gpu_cell_load,
	.cell_set = gpu_cell_set,
	.cell_step = gpu_cell_step,
	.cell_get = gpu_cell_get,
	.cell_free = gpu_cell_free,
	.fma_peak = gpu_fma_peak,
	.triad = gpu_triad,
	.device_seconds = gpu_device_seconds,
	.model_forward_layers = gpu_model_forward_layers,
};

/*
 * The runtime the plugin was built against (device_info() has the one it
 * runs on), written when the plugin is loaded, so that the descriptor is
 * plain constant data.
 */
static char built_runtime[48];

__attribute__((constructor)) static void built_runtime_init(void)
{
#ifdef __NVCC__
	snprintf(built_runtime, sizeof(built_runtime), "CUDA %d.%d",
		 CUDART_VERSION / 1000, CUDART_VERSION % 1000 / 10);
#else
	snprintf(built_runtime, sizeof(built_runtime), "HIP %d.%d.%d (ROCm)",
		 HIP_VERSION_MAJOR, HIP_VERSION_MINOR, HIP_VERSION_PATCH);
#endif
}

static const struct nb_plugin plugin = {
	.abi_version = NB_PLUGIN_ABI_VERSION,
	.size = sizeof(struct nb_plugin),
	.ops_size = sizeof(struct nb_backend_ops),
	.name = RT_PREFIX,
	.runtime = built_runtime,
	.device_count = device_count,
	.device_info = device_info,
	.ops = &gpu_ops,
};

/* Calls nothing of the runtime: navibench checks the interface first. */
EXPORT const struct nb_plugin *navibench_plugin(void)
{
	return &plugin;
}
