// SPDX-License-Identifier: MIT
/*
 * The CPU backend: weights packed once per model, and the per-ISA kernels
 * of cpu_kernels.h chosen at run time, run on a thread pool (pool.c).
 *
 * One ConvLSTM time step is split into strips (batch item, group of 8
 * filters, one or two rows across the frame, in blocks of up to max_px
 * pixels), in that order: a thread works through one image's groups
 * while the image (x and h, 560 KiB at 40x40x40) and the layer's packed
 * weights (460 KiB) stay in its L2. The threads meet at a barrier between
 * time steps, since h(t) needs all of h(t-1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cpu_kernels.h"
#include "engine/engine.h"
#include "engine/pool.h"

/* ---- context ---- */

struct cpu {
	const struct nb_cpu_kernels *k;
	const struct nb_cpu_kernels *best;	/* the FMA peak: the CPU's, not the kernels' */
	struct pool pool;
	char desc[64];
};

static const struct nb_cpu_kernels *pick_kernels(const char *isa)
{
	__builtin_cpu_init();
	int has512 = __builtin_cpu_supports("avx512f") &&
		__builtin_cpu_supports("avx512dq") &&
		__builtin_cpu_supports("avx512vl") &&
		__builtin_cpu_supports("avx512bw");
	int has2 = __builtin_cpu_supports("avx2") &&
		__builtin_cpu_supports("fma");

	if (isa && !strcmp(isa, "generic"))
		return &nb_cpu_kernels_generic;
	if (isa && !strcmp(isa, "avx2"))
		return has2 ? &nb_cpu_kernels_avx2 : NULL;
	if (isa && !strcmp(isa, "avx512"))
		return has512 ? &nb_cpu_kernels_avx512 : NULL;
	if (isa)
		return NULL;
	if (has512)
		return &nb_cpu_kernels_avx512;
	if (has2)
		return &nb_cpu_kernels_avx2;
	return &nb_cpu_kernels_generic;
}

static int online_cpus(void)
{
	cpu_set_t set;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

static int cpu_open(const struct nb_backend_config *cfg, void **ctx,
		    char *err, size_t errlen)
{
	struct cpu *c = calloc(1, sizeof(*c));
	int n = cfg && cfg->threads > 0 ? cfg->threads : online_cpus();

	if (!c) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	c->k = pick_kernels(cfg ? cfg->isa : NULL);
	c->best = pick_kernels(NULL);
	if (!c->k) {
		snprintf(err, errlen,
			 "instruction set \"%s\": not supported by this CPU (avx512, avx2 or generic)",
			 cfg->isa);
		free(c);
		return -1;
	}
	if (n > NB_MAX_THREADS)
		n = NB_MAX_THREADS;
	if (pool_start(&c->pool, n)) {
		snprintf(err, errlen, "cannot start %d threads", n);
		pool_stop(&c->pool);
		free(c);
		return -1;
	}
	snprintf(c->desc, sizeof(c->desc), "%s, %d thread%s", c->k->isa,
		 c->pool.n, c->pool.n == 1 ? "" : "s");
	*ctx = c;
	return 0;
}

static void cpu_close(void *ctx)
{
	struct cpu *c = ctx;

	if (!c)
		return;
	pool_stop(&c->pool);
	free(c);
}

void nb_cpu_parallel(void *ctx, void (*fn)(void *arg, int tid, int n), void *arg)
{
	pool_run(&((struct cpu *)ctx)->pool, fn, arg);
}

const struct nb_cpu_kernels *nb_cpu_kernels_of(void *ctx)
{
	return ((struct cpu *)ctx)->k;
}

static const char *cpu_describe(void *ctx)
{
	return ((struct cpu *)ctx)->desc;
}

static int cpu_threads(void *ctx)
{
	return ((struct cpu *)ctx)->pool.n;
}

static float *falloc(size_t n)
{
	size_t bytes = (n * sizeof(float) + 63) & ~(size_t)63;
	float *p = aligned_alloc(64, bytes ? bytes : 64);

	if (p)
		memset(p, 0, bytes);
	return p;
}

static int round8(int f)
{
	return (f + 7) & ~7;
}

/* ---- one packed ConvLSTM layer ---- */

struct layer {
	int cin;		/* channels as stored (padded for l > 0) */
	int cin_real;
	int f, fp;
	float *wpack, *bias, *scale, *shift;
};

static void layer_free(struct layer *l)
{
	free(l->wpack);
	free(l->bias);
	free(l->scale);
	free(l->shift);
}

static int layer_pack(struct layer *l, int cin, int cin_real, int f,
		      const float *kernel, const float *rkernel,
		      const float *bias, const float *gamma, const float *beta,
		      const float *mean, const float *var)
{
	int fp = round8(f), groups = fp / 8, kk = cin + fp, g4 = 4 * f;

	l->cin = cin;
	l->cin_real = cin_real;
	l->f = f;
	l->fp = fp;
	l->wpack = falloc((size_t)groups * 9 * kk * 32);
	l->bias = falloc((size_t)groups * 32);
	l->scale = falloc(fp);
	l->shift = falloc(fp);
	if (!l->wpack || !l->bias || !l->scale || !l->shift) {
		layer_free(l);
		return -1;
	}
	/*
	 * wpack[g][ky][3 Cin + 3 Fp][32]: for one kernel row, the input
	 * channels of the three taps kx (kx-major), then the recurrent ones;
	 * in memory, the three taps' channels of a padded row are contiguous
	 * too, so the kernel runs one loop per kernel row and source.
	 */
	for (int g = 0; g < groups; g++)
		for (int ky = 0; ky < 3; ky++)
			for (int k = 0; k < 3 * kk; k++) {
				bool rec = k >= 3 * cin;
				int kx = rec ? (k - 3 * cin) / fp : k / cin;
				int ci = rec ? (k - 3 * cin) % fp : k % cin;
				int tap = ky * 3 + kx;

				for (int q = 0; q < 4; q++)
					for (int j = 0; j < 8; j++) {
						int ch = g * 8 + j;
						float v = 0;

						if (ch < f && !rec && ci < cin_real)
							v = kernel[((size_t)tap * cin_real + ci) *
								   g4 + q * f + ch];
						else if (ch < f && rec && ci < f)
							v = rkernel[((size_t)tap * f + ci) *
								    g4 + q * f + ch];
						l->wpack[(((size_t)g * 3 + ky) * 3 * kk + k) * 32 +
							 q * 8 + j] = v;
					}
			}
	for (int g = 0; g < groups; g++)
		for (int q = 0; q < 4; q++)
			for (int j = 0; j < 8; j++) {
				int ch = g * 8 + j;

				l->bias[g * 32 + q * 8 + j] = ch < f ?
					bias[q * f + ch] : 0.0f;
			}
	for (int j = 0; j < f; j++) {
		double s = gamma ? gamma[j] / sqrt((double)var[j] + NB_BN_EPSILON) : 1.0;

		l->scale[j] = (float)s;
		l->shift[j] = gamma ? (float)(beta[j] - mean[j] * s) : 0.0f;
	}
	return 0;
}

/* ---- one time step, all threads ---- */

/*
 * A step's work is split into strips (batch item, group, one or two rows
 * across the frame), and each thread gets a contiguous range of them, so
 * that it works through its own images. The range is (first << 32 | end),
 * taken from the front by its owner; a thread done with its own takes
 * strips from the back of the others' ranges, so that a thread that lost
 * its core to another process (the build machine is shared) holds the
 * step up by one strip, not by its whole share.
 */
struct range {
	uint64_t r;	/* atomic */
} __attribute__((aligned(64)));

struct step {
	const struct nb_cpu_kernels *k;
	struct nb_cell_args a;
	int groups, batch;
	int rows, nrow, nblk;	/* rows per call, calls per column, per row */
	struct range range[NB_MAX_THREADS];
};

/* the next strip from the front (own) or back (steal); -1 when none */
static long range_take(struct range *rg, bool back)
{
	uint64_t r = __atomic_load_n(&rg->r, __ATOMIC_RELAXED), nr;

	do {
		uint32_t lo = (uint32_t)(r >> 32), hi = (uint32_t)r;

		if (lo >= hi)
			return -1;
		nr = back ? r - 1 : r + ((uint64_t)1 << 32);
	} while (!__atomic_compare_exchange_n(&rg->r, &r, nr, true,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return back ? (long)(uint32_t)r - 1 : (long)(r >> 32);
}

static void step_strip(const struct step *s, long i)
{
	int h = s->a.height, w = s->a.width;
	int yr = (int)(i % s->nrow);
	int g = (int)(i / s->nrow % s->groups);
	int b = (int)(i / s->nrow / s->groups);
	int y = yr * s->rows;
	int rows = y + s->rows <= h ? s->rows : h - y;

	for (int blk = 0; blk < s->nblk; blk++) {
		int x0 = (int)((long)blk * w / s->nblk);
		int x1 = (int)((long)(blk + 1) * w / s->nblk);

		s->k->cell(&s->a, g, b, y, rows, x0, x1 - x0);
	}
}

static void step_worker(void *arg, int tid, int n)
{
	struct step *s = arg;
	long i;

	while ((i = range_take(&s->range[tid], false)) >= 0)
		step_strip(s, i);
	for (int k = 1; k < n; k++)
		while ((i = range_take(&s->range[(tid + k) % n], true)) >= 0)
			step_strip(s, i);
}

static void run_step(struct cpu *c, struct step *s)
{
	int h = s->a.height;

	s->k = c->k;
	s->rows = c->k->max_rows < h ? c->k->max_rows : h;
	s->nrow = (h + s->rows - 1) / s->rows;
	s->nblk = (s->a.width + c->k->max_px[s->rows - 1] - 1) /
		c->k->max_px[s->rows - 1];

	/* below 2^32: the activations of more strips would not fit in memory */
	long total = (long)s->groups * s->batch * s->nrow;
	int n = c->pool.n;

	for (int t = 0; t < n; t++)
		s->range[t].r = (uint64_t)(total * t / n) << 32 |
			(uint64_t)(total * (t + 1) / n);
	pool_run(&c->pool, step_worker, s);
}

static size_t padded(int h, int w, int ch)
{
	return (size_t)(h + 2) * (w + 2) * ch;
}

/* copy (H, W, ch) into the interior of a padded (H+2, W+2, chp) frame */
static void pad_in(float *dst, const float *src, int h, int w, int ch, int chp)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			memcpy(dst + ((size_t)(y + 1) * (w + 2) + x + 1) * chp,
			       src + ((size_t)y * w + x) * ch, ch * sizeof(float));
}

static void pad_out(float *dst, const float *src, int h, int w, int ch, int chp)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++)
			memcpy(dst + ((size_t)y * w + x) * ch,
			       src + ((size_t)(y + 1) * (w + 2) + x + 1) * chp,
			       ch * sizeof(float));
}

/* ---- models ---- */

struct prog {
	struct nb_model m;
	struct layer layer[NB_MAX_LAYERS];
	int fpmax;
	float *head_k;		/* Conv3D [27][fp]; Conv2D [out][9][fp] */
	float *head_b;
	/* buffers for (batch, frames) */
	int batch, frames;
	float *xin, *seq[2], *h[2], *c;
};

static void prog_buffers_free(struct prog *p)
{
	free(p->xin);
	free(p->seq[0]);
	free(p->seq[1]);
	free(p->h[0]);
	free(p->h[1]);
	free(p->c);
	p->xin = p->seq[0] = p->seq[1] = p->h[0] = p->h[1] = p->c = NULL;
	p->batch = p->frames = 0;
}

static void cpu_model_free(void *ctx, void *vp)
{
	struct prog *p = vp;

	(void)ctx;
	if (!p)
		return;
	for (int l = 0; l < p->m.layers; l++)
		layer_free(&p->layer[l]);
	free(p->head_k);
	free(p->head_b);
	prog_buffers_free(p);
	free(p);
}

static int cpu_model_load(void *ctx, const struct nb_weights *w, void **out,
			  char *err, size_t errlen)
{
	const struct nb_model *m = &w->model;
	struct prog *p;

	if (nb_model_check(m, err, errlen))
		return -1;
	p = calloc(1, sizeof(*p));
	if (!p)
		goto oom;
	p->m = *m;
	for (int l = 0; l < m->layers; l++) {
		int cin = l == 0 ? m->channels : p->layer[l - 1].fp;

		if (layer_pack(&p->layer[l], cin, nb_layer_cin(m, l),
			       m->filters[l], w->kernel[l], w->rkernel[l],
			       w->bias[l], w->gamma[l], w->beta[l], w->mean[l],
			       w->var[l])) {
			p->m.layers = l;
			goto oom;
		}
		if (p->layer[l].fp > p->fpmax)
			p->fpmax = p->layer[l].fp;
	}
	int f = m->filters[m->layers - 1], fp = round8(f), no = m->head_out;
	int taps = m->head == NB_HEAD_CONV3D ? 27 : 9;

	p->head_k = falloc((size_t)no * taps * fp);
	p->head_b = falloc(no);
	if (!p->head_k || !p->head_b)
		goto oom;
	for (int o = 0; o < no; o++) {
		p->head_b[o] = w->head_bias[o];
		for (int t = 0; t < taps; t++)
			for (int j = 0; j < f; j++)
				p->head_k[((size_t)o * taps + t) * fp + j] =
					w->head_kernel[((size_t)t * f + j) * no + o];
	}
	*out = p;
	return 0;
oom:
	cpu_model_free(ctx, p);
	snprintf(err, errlen, "out of memory packing the weights");
	return -1;
}

static int prog_buffers(struct prog *p, int batch, int frames)
{
	const struct nb_model *m = &p->m;
	int hh = m->height, ww = m->width;

	if (p->batch == batch && p->frames == frames)
		return 0;
	prog_buffers_free(p);
	p->xin = falloc((size_t)batch * frames * padded(hh, ww, m->channels));
	p->seq[0] = falloc((size_t)batch * frames * padded(hh, ww, p->fpmax));
	p->seq[1] = falloc((size_t)batch * frames * padded(hh, ww, p->fpmax));
	p->h[0] = falloc((size_t)batch * padded(hh, ww, p->fpmax));
	p->h[1] = falloc((size_t)batch * padded(hh, ww, p->fpmax));
	p->c = falloc((size_t)batch * hh * ww * p->fpmax);
	if (!p->xin || !p->seq[0] || !p->seq[1] || !p->h[0] || !p->h[1] ||
	    !p->c) {
		prog_buffers_free(p);
		return -1;
	}
	p->batch = batch;
	p->frames = frames;
	return 0;
}

struct head {
	const struct nb_cpu_kernels *k;
	const struct prog *p;
	const float *seq;
	float *out;
	int fp;
};

static float sigmoidf(float x)
{
	return 1.0f / (1.0f + expf(-x));
}

/*
 * The heads are dot products over whole kernel rows: in a padded frame the
 * three taps kx of one row are 3 Fp contiguous floats, and so are they in
 * the packed head kernel, so a Conv3D output is 9 dot products of 3 Fp.
 */
static void head3d_worker(void *arg, int tid, int n)
{
	const struct head *hd = arg;
	const struct prog *p = hd->p;
	int hh = p->m.height, ww = p->m.width, T = p->frames, fp = hd->fp;
	size_t frame = padded(hh, ww, fp);
	long total = (long)p->batch * T * hh;

	for (long i = total * tid / n; i < total * (tid + 1) / n; i++) {
		int y = (int)(i % hh), t = (int)(i / hh % T), b = (int)(i / hh / T);
		float *out = hd->out + (((size_t)b * T + t) * hh + y) * ww;

		for (int x = 0; x < ww; x++) {
			const float *v[9];

			for (int kt = 0; kt < 3; kt++) {
				int st = t + kt - 1;
				const float *fr = hd->seq + ((size_t)b * T + st) * frame;

				for (int ky = 0; ky < 3; ky++)
					v[kt * 3 + ky] = st < 0 || st >= T ? NULL :
						fr + ((size_t)(y + ky) * (ww + 2) + x) * fp;
			}
			out[x] = sigmoidf(p->head_b[0] +
					  hd->k->dot_taps(v, p->head_k, 9, 3 * fp));
		}
	}
}

static void head2d_worker(void *arg, int tid, int n)
{
	const struct head *hd = arg;
	const struct prog *p = hd->p;
	int hh = p->m.height, ww = p->m.width, T = p->frames, fp = hd->fp;
	int no = p->m.head_out;
	size_t frame = padded(hh, ww, fp);
	long total = (long)p->batch * hh;

	for (long i = total * tid / n; i < total * (tid + 1) / n; i++) {
		int y = (int)(i % hh), b = (int)(i / hh);
		const float *fr = hd->seq + ((size_t)b * T + T - 1) * frame;
		float *out = hd->out + (((size_t)b * hh + y) * ww) * no;

		for (int x = 0; x < ww; x++) {
			const float *v[3];

			for (int ky = 0; ky < 3; ky++)
				v[ky] = fr + ((size_t)(y + ky) * (ww + 2) + x) * fp;
			for (int o = 0; o < no; o++)
				out[(size_t)x * no + o] = sigmoidf(p->head_b[o] +
					hd->k->dot_taps(v, p->head_k +
							(size_t)o * 9 * fp, 3, 3 * fp));
		}
	}
}

/* layer l's output as it returns it (engine.h) from its padded sequence seq */
static void layer_output(const struct prog *p, int l, const float *seq, float *dst)
{
	const struct nb_model *m = &p->m;
	int hh = m->height, ww = m->width, f = m->filters[l], fp = p->layer[l].fp;
	int keep = nb_layer_output_frames(m, l, p->frames);

	for (int b = 0; b < p->batch; b++)
		for (int t = 0; t < keep; t++)
			pad_out(dst + ((size_t)b * keep + t) * hh * ww * f,
				seq + ((size_t)b * p->frames + p->frames - keep + t) *
				padded(hh, ww, fp), hh, ww, f, fp);
}

static int cpu_model_forward_layers(void *ctx, void *vp, const float *in, int batch,
				    int frames, float *const *layers, float *out, char *err,
				    size_t errlen)
{
	struct cpu *c = ctx;
	struct prog *p = vp;
	const struct nb_model *m = &p->m;
	int hh = m->height, ww = m->width;

	if (batch < 1 || frames < 1) {
		snprintf(err, errlen, "batch %d, frames %d: both must be >= 1",
			 batch, frames);
		return -1;
	}
	if (prog_buffers(p, batch, frames)) {
		snprintf(err, errlen, "out of memory for batch %d, %d frames",
			 batch, frames);
		return -1;
	}
	size_t fin = padded(hh, ww, m->channels);
	for (int i = 0; i < batch * frames; i++)
		pad_in(p->xin + i * fin, in + (size_t)i * hh * ww * m->channels,
		       hh, ww, m->channels, m->channels);

	const float *src = p->xin;
	size_t src_frame = fin;
	int cur = 0;

	for (int l = 0; l < m->layers; l++) {
		const struct layer *ly = &p->layer[l];
		size_t hframe = padded(hh, ww, ly->fp);
		float *dst = p->seq[l & 1];
		struct step s = {
			.groups = ly->fp / 8,
			.batch = batch,
		};

		memset(p->h[0], 0, batch * hframe * sizeof(float));
		memset(p->h[1], 0, batch * hframe * sizeof(float));
		memset(p->c, 0, (size_t)batch * hh * ww * ly->fp * sizeof(float));
		s.a = (struct nb_cell_args){
			.height = hh, .width = ww,
			.cin = ly->cin, .fp = ly->fp,
			.wpack = ly->wpack, .bias = ly->bias,
			.x_bstride = frames * src_frame,
			.h_bstride = hframe,
			.c = p->c, .c_bstride = (size_t)hh * ww * ly->fp,
			.y_bstride = frames * hframe,
			.bn_scale = ly->scale, .bn_shift = ly->shift,
		};
		cur = 0;
		for (int t = 0; t < frames; t++) {
			s.a.x = src + t * src_frame;
			s.a.h = p->h[cur];
			s.a.h_out = p->h[cur ^ 1];
			s.a.y = dst + t * hframe;
			run_step(c, &s);
			cur ^= 1;
		}
		if (layers)
			layer_output(p, l, dst, layers[l]);
		src = dst;
		src_frame = hframe;
	}

	struct head hd = {
		.k = c->k, .p = p, .seq = src, .out = out,
		.fp = p->layer[m->layers - 1].fp,
	};
	pool_run(&c->pool, m->head == NB_HEAD_CONV3D ? head3d_worker :
		 head2d_worker, &hd);
	return 0;
}

static int cpu_model_forward(void *ctx, void *vp, const float *in, int batch,
			     int frames, float *out, char *err, size_t errlen)
{
	return cpu_model_forward_layers(ctx, vp, in, batch, frames, NULL, out, err, errlen);
}

/* ---- one cell, for the gate convolution test ---- */

struct cell {
	struct layer ly;
	int batch, height, width;
	float *x, *h[2], *c;
	int cur;
};

static void cpu_cell_free(void *ctx, void *vc)
{
	struct cell *c = vc;

	(void)ctx;
	if (!c)
		return;
	layer_free(&c->ly);
	free(c->x);
	free(c->h[0]);
	free(c->h[1]);
	free(c->c);
	free(c);
}

static int cpu_cell_load(void *ctx, const struct nb_cell_desc *d, void **out,
			 char *err, size_t errlen)
{
	struct cell *c = calloc(1, sizeof(*c));

	if (!c || layer_pack(&c->ly, d->cin, d->cin, d->filters, d->kernel,
			     d->rkernel, d->bias, NULL, NULL, NULL, NULL)) {
		free(c);
		snprintf(err, errlen, "out of memory packing the cell");
		return -1;
	}
	c->batch = d->batch;
	c->height = d->height;
	c->width = d->width;
	c->x = falloc((size_t)d->batch * padded(d->height, d->width, d->cin));
	c->h[0] = falloc((size_t)d->batch * padded(d->height, d->width, c->ly.fp));
	c->h[1] = falloc((size_t)d->batch * padded(d->height, d->width, c->ly.fp));
	c->c = falloc((size_t)d->batch * d->height * d->width * c->ly.fp);
	if (!c->x || !c->h[0] || !c->h[1] || !c->c) {
		cpu_cell_free(ctx, c);
		snprintf(err, errlen, "out of memory for the cell's state");
		return -1;
	}
	*out = c;
	return 0;
}

static void cpu_cell_set(void *ctx, void *vc, const float *x, const float *h,
			 const float *cs)
{
	struct cell *c = vc;
	int hh = c->height, ww = c->width, cin = c->ly.cin;
	int f = c->ly.f, fp = c->ly.fp;

	(void)ctx;
	c->cur = 0;
	for (int b = 0; b < c->batch; b++) {
		pad_in(c->x + b * padded(hh, ww, cin), x + (size_t)b * hh * ww * cin,
		       hh, ww, cin, cin);
		pad_in(c->h[0] + b * padded(hh, ww, fp), h + (size_t)b * hh * ww * f,
		       hh, ww, f, fp);
		for (size_t p = 0; p < (size_t)hh * ww; p++)
			memcpy(c->c + ((size_t)b * hh * ww + p) * fp,
			       cs + ((size_t)b * hh * ww + p) * f, f * sizeof(float));
	}
}

static void cpu_cell_step(void *ctx, void *vc)
{
	struct cell *c = vc;
	int hh = c->height, ww = c->width;
	struct step s = {
		.groups = c->ly.fp / 8,
		.batch = c->batch,
		.a = {
			.height = hh, .width = ww,
			.cin = c->ly.cin, .fp = c->ly.fp,
			.wpack = c->ly.wpack, .bias = c->ly.bias,
			.x = c->x, .x_bstride = padded(hh, ww, c->ly.cin),
			.h = c->h[c->cur], .h_out = c->h[c->cur ^ 1],
			.h_bstride = padded(hh, ww, c->ly.fp),
			.c = c->c, .c_bstride = (size_t)hh * ww * c->ly.fp,
			.bn_scale = c->ly.scale, .bn_shift = c->ly.shift,
		},
	};

	run_step(ctx, &s);
	c->cur ^= 1;
}

static void cpu_cell_get(void *ctx, void *vc, float *h, float *cs)
{
	struct cell *c = vc;
	int hh = c->height, ww = c->width, f = c->ly.f, fp = c->ly.fp;

	(void)ctx;
	for (int b = 0; b < c->batch; b++) {
		pad_out(h + (size_t)b * hh * ww * f,
			c->h[c->cur] + b * padded(hh, ww, fp), hh, ww, f, fp);
		for (size_t p = 0; p < (size_t)hh * ww; p++)
			memcpy(cs + ((size_t)b * hh * ww + p) * f,
			       c->c + ((size_t)b * hh * ww + p) * fp, f * sizeof(float));
	}
}

/* ---- peak and bandwidth ---- */

struct peak {
	const struct nb_cpu_kernels *k;
	long iters;
	float m, kk;
	double flops[NB_MAX_THREADS];
	float lane[NB_MAX_THREADS];
};

static void peak_worker(void *arg, int tid, int n)
{
	struct peak *p = arg;

	(void)n;
	p->flops[tid] = p->k->fma_loop(p->iters, p->m, p->kk, &p->lane[tid]);
}

static double cpu_fma_peak(void *ctx, long iters, float m, float k, float *lane)
{
	struct cpu *c = ctx;
	struct peak *p = calloc(1, sizeof(*p));
	double flops = 0;

	if (!p) {
		*lane = NAN;
		return 0;
	}
	p->k = c->best;
	p->iters = iters;
	p->m = m;
	p->kk = k;
	pool_run(&c->pool, peak_worker, p);
	*lane = p->lane[0];
	for (int i = 0; i < c->pool.n; i++) {
		flops += p->flops[i];
		if (!(p->lane[i] == p->lane[0]))
			*lane = NAN;
	}
	free(p);
	return flops;
}

struct triad_job {
	const struct nb_cpu_kernels *k;
	float *a;
	const float *b, *c;
	float s;
	size_t n;
};

static void triad_worker(void *arg, int tid, int n)
{
	struct triad_job *t = arg;
	size_t lo = (t->n * tid / n) & ~(size_t)15;
	size_t hi = tid == n - 1 ? t->n : (t->n * (tid + 1) / n) & ~(size_t)15;

	t->k->triad(t->a + lo, t->b + lo, t->c + lo, t->s, hi - lo);
}

static void cpu_triad(void *ctx, float *a, const float *b, const float *cc,
		      float s, size_t n)
{
	struct cpu *c = ctx;
	struct triad_job t = { c->k, a, b, cc, s, n };

	pool_run(&c->pool, triad_worker, &t);
}

const struct nb_backend_ops nb_cpu_backend = {
	.name = "cpu",
	.open = cpu_open,
	.close = cpu_close,
	.describe = cpu_describe,
	.threads = cpu_threads,
	.model_load = cpu_model_load,
	.model_forward = cpu_model_forward,
	.model_free = cpu_model_free,
	.cell_load = cpu_cell_load,
	.cell_set = cpu_cell_set,
	.cell_step = cpu_cell_step,
	.cell_get = cpu_cell_get,
	.cell_free = cpu_cell_free,
	.fma_peak = cpu_fma_peak,
	.triad = cpu_triad,
	.model_forward_layers = cpu_model_forward_layers,
};
