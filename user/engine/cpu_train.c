// SPDX-License-Identifier: MIT
/*
 * The CPU backend's training step (train.h), float32, on the forward's
 * thread pool (nb_cpu_parallel).
 *
 * Every phase is split by batch item (item b on thread b mod n): the
 * ConvLSTM recurrence runs through time within one item, so items are the
 * independent work both ways. What items share (kernel, bias and head
 * gradients, BatchNorm's sums) each thread accumulates on its own and the
 * threads' parts are added in thread order afterwards, so a step gives the
 * same bits for the same thread count. Statistics and the loss accumulate
 * in double.
 *
 * The convolutions are the backend's kernels for its instruction set
 * (cpu_conv.h, through nb_cpu_kernels_of()): the forward, the kernel
 * gradient, and the input gradient as the forward of dz through a copy of
 * each kernel with its two channel axes swapped and its taps reversed
 * (transpose_kernel(), once a step);
 * the forward's packed cell kernels compute no gate pre-activations, which
 * the backward pass needs, and are not used here.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/cpu_kernels.h"
#include "engine/train.h"

#ifdef NB_TESTING
enum nb_train_fault nb_train_fault;
#endif

struct tlayer {
	int cin, f, keep;
	const float *x;		/* input (B,T,H,W,cin): the layer below's y */
	float *z;		/* (B,T,H,W,4F) */
	float *c, *h;		/* (B,T,H,W,F) */
	float *xhat, *y;	/* (B,keep,H,W,F) */
	double mean[1024], var[1024];
	float *kt, *ut;		/* kernels with channel axes swapped: [tap][4F][cin] */
	float *dh;		/* from BN's backward (B,T,H,W,F) */
	float *dx;		/* gradient of x, layers above 0 (B,T,H,W,cin) */
};

struct train {
	struct nb_model m;
	const struct nb_cpu_kernels *k;	/* the backend's, for its --isa */
	int batch, frames, threads;
	size_t px, nout;
	int n;
	size_t count[NB_MAX_TENSORS], off[NB_MAX_TENSORS], total;
	float *p[NB_MAX_TENSORS], *g[NB_MAX_TENSORS];
	float *am[NB_MAX_TENSORS], *av[NB_MAX_TENSORS];
	long step;
	float *tg;		/* threads x total: each thread's gradients */
	double *tsum;		/* threads x 2 x 1024: each thread's BN sums */
	float *scratch;		/* threads x scratch_len */
	size_t scratch_len;
	float *logit;		/* logits, then the loss' gradient */
	float *dy;		/* gradient of the last layer's y */
	float *hkt;		/* the head's kernel, channel axes swapped */
	struct tlayer L[NB_MAX_LAYERS];
	/* the phase running */
	const float *in;
	int layer;
	void (*phase)(struct train *tr, int l, int b, int tid);
};

/*
 * dx (H,W,cin) += the transposed convolution of dz (H,W,cout): the forward
 * convolution from cout to cin channels with kt (transpose_kernel()).
 */
static void conv_bwd_x(const struct nb_cpu_kernels *k, int hgt, int wid,
		       int cin, int cout, const float *kt, const float *dz,
		       float *dx)
{
	k->conv_fwd(hgt, wid, cout, cin, dz, kt, dx);
}

/*
 * kt [tap][cout][cin] from k [tap][cin][cout], each 3x3 group of taps
 * reversed (kt's tap (ky, kx) is k's (2 - ky, 2 - kx)): the kernel of the
 * transposed convolution, as a forward one. swap_taps (a planted error)
 * takes k's (kx, ky) instead.
 */
static void transpose_kernel(const float *k, int taps, int cin, int cout,
			     float *kt, int swap_taps)
{
	for (int tap = 0; tap < taps; tap++) {
		int src = tap / 9 * 9 + 8 - tap % 9;

		if (swap_taps)
			src = tap / 9 * 9 + 8 - (tap % 3 * 3 + tap % 9 / 3);
		for (int i = 0; i < cin; i++)
			for (int o = 0; o < cout; o++)
				kt[((size_t)tap * cout + o) * cin + i] =
					k[((size_t)src * cin + i) * cout + o];
	}
}

static void refresh_transposed(struct train *tr)
{
	const struct nb_model *m = &tr->m;
	int swap = 0;

#ifdef NB_TESTING
	swap = nb_train_fault == NB_FAULT_TRANSPOSED;
#endif
	for (int l = 0; l < m->layers; l++) {
		struct tlayer *L = &tr->L[l];

		transpose_kernel(tr->p[nb_tensor_index(l, NB_T_KERNEL)], 9,
				 L->cin, 4 * L->f, L->kt, swap);
		transpose_kernel(tr->p[nb_tensor_index(l, NB_T_RKERNEL)], 9,
				 L->f, 4 * L->f, L->ut, 0);
	}
	transpose_kernel(tr->p[nb_head_kernel_index(m)],
			 m->head == NB_HEAD_CONV3D ? 27 : 9,
			 m->filters[m->layers - 1], m->head_out, tr->hkt, 0);
}

/* ---- the phases, each for one batch item ---- */

static void ph_layer_forward(struct train *tr, int l, int b, int tid)
{
	struct tlayer *L = &tr->L[l];
	int hgt = tr->m.height, wid = tr->m.width, f = L->f, g = 4 * f;
	size_t px = tr->px;
	const float *k = tr->p[nb_tensor_index(l, NB_T_KERNEL)];
	const float *u = tr->p[nb_tensor_index(l, NB_T_RKERNEL)];
	const float *bias = tr->p[nb_tensor_index(l, NB_T_BIAS)];
	float *zero = tr->scratch + tid * tr->scratch_len;

	memset(zero, 0, px * f * sizeof(float));
	for (int t = 0; t < tr->frames; t++) {
		size_t bt = (size_t)b * tr->frames + t;
		float *z = L->z + bt * px * g;
		float *c = L->c + bt * px * f, *h = L->h + bt * px * f;
		const float *hp = t ? h - px * f : zero, *cp = t ? c - px * f : zero;

		for (size_t q = 0; q < px; q++)
			memcpy(z + q * g, bias, g * sizeof(float));
		tr->k->conv_fwd(hgt, wid, L->cin, g, L->x + bt * px * L->cin, k, z);
		tr->k->conv_fwd(hgt, wid, f, g, hp, u, z);
		tr->k->gates_fwd(px, f, z, cp, c, h);
	}
}

/* the kept frames' states of item b, frame t (0..keep-1) */
static float *kept(struct train *tr, struct tlayer *L, float *seq, int b, int t)
{
	return seq + ((size_t)b * tr->frames + tr->frames - L->keep + t) *
		tr->px * L->f;
}

static void ph_bn_sums(struct train *tr, int l, int b, int tid)
{
	struct tlayer *L = &tr->L[l];
	double *s = tr->tsum + (size_t)tid * 2048;

	for (int t = 0; t < L->keep; t++) {
		const float *h = kept(tr, L, L->h, b, t);

		for (size_t q = 0; q < tr->px; q++)
			for (int j = 0; j < L->f; j++) {
				double v = h[q * L->f + j];

				s[j] += v;
				s[1024 + j] += v * v;
			}
	}
}

static void ph_bn_apply(struct train *tr, int l, int b, int tid)
{
	struct tlayer *L = &tr->L[l];
	const float *gamma = tr->p[nb_tensor_index(l, NB_T_GAMMA)];
	const float *beta = tr->p[nb_tensor_index(l, NB_T_BETA)];
	int f = L->f;
	float mean[1024], inv[1024];

	(void)tid;
	for (int j = 0; j < f; j++) {
		mean[j] = (float)L->mean[j];
		inv[j] = (float)(1 / sqrt(L->var[j] + NB_BN_EPSILON));
	}
	for (int t = 0; t < L->keep; t++) {
		const float *h = kept(tr, L, L->h, b, t);
		size_t o = ((size_t)b * L->keep + t) * tr->px * f;

		for (size_t q = 0; q < tr->px; q++)
			for (int j = 0; j < f; j++) {
				float xh = (h[q * f + j] - mean[j]) * inv[j];

				L->xhat[o + q * f + j] = xh;
				L->y[o + q * f + j] = gamma[j] * xh + beta[j];
			}
	}
}

/* the head forward (logits) or, once logit holds the loss gradient, backward */
static void head_item(struct train *tr, int b, int tid, int backward)
{
	const struct nb_model *m = &tr->m;
	struct tlayer *L = &tr->L[m->layers - 1];
	int hgt = m->height, wid = m->width, f = L->f, no = m->head_out;
	size_t px = tr->px;
	int hk = nb_head_kernel_index(m);
	const float *k = tr->p[hk], *bias = tr->p[hk + 1];
	float *gk = tr->tg + (size_t)tid * tr->total + tr->off[hk];
	float *gb = tr->tg + (size_t)tid * tr->total + tr->off[hk + 1];
	int frames = m->head == NB_HEAD_CONV3D ? tr->frames : 1;
	int taps = m->head == NB_HEAD_CONV3D ? 3 : 1;

	for (int t = 0; t < frames; t++) {
		size_t bt = (size_t)b * frames + t;
		float *lg = tr->logit + bt * px * no;

		if (!backward)
			for (size_t q = 0; q < px; q++)
				memcpy(lg + q * no, bias, no * sizeof(float));
		else
			for (size_t q = 0; q < px; q++)
				for (int o = 0; o < no; o++)
					gb[o] += lg[q * no + o];
		for (int kt = 0; kt < taps; kt++) {
			int st = taps == 3 ? t + kt - 1 : t;

			if (st < 0 || st >= frames)
				continue;
			size_t sbt = (size_t)b * frames + st;
			size_t ko = (size_t)kt * 9 * f * no;

			if (!backward) {
				tr->k->conv_fwd(hgt, wid, f, no, L->y + sbt * px * f,
						k + ko, lg);
				continue;
			}
			tr->k->conv_bwd_k(hgt, wid, f, no, L->y + sbt * px * f,
					  lg, gk + ko);
			conv_bwd_x(tr->k, hgt, wid, f, no, tr->hkt + ko, lg,
				   tr->dy + sbt * px * f);
		}
	}
}

static void ph_head_forward(struct train *tr, int l, int b, int tid)
{
	(void)l;
	head_item(tr, b, tid, 0);
}

static void ph_head_backward(struct train *tr, int l, int b, int tid)
{
	struct tlayer *L = &tr->L[tr->m.layers - 1];
	size_t n = (size_t)L->keep * tr->px * L->f;

	(void)l;
	memset(tr->dy + b * n, 0, n * sizeof(float));
	head_item(tr, b, tid, 1);
}

/* the gradient of layer l's y */
static float *dy_of(struct train *tr, int l)
{
	return l == tr->m.layers - 1 ? tr->dy : tr->L[l + 1].dx;
}

static void ph_bn_grad_sums(struct train *tr, int l, int b, int tid)
{
	struct tlayer *L = &tr->L[l];
	double *s = tr->tsum + (size_t)tid * 2048;
	size_t n = (size_t)L->keep * tr->px * L->f;
	const float *dy = dy_of(tr, l) + b * n, *xh = L->xhat + b * n;

	for (size_t e = 0; e < n; e++) {
		s[e % L->f] += (double)dy[e] * xh[e];	/* dgamma */
		s[1024 + e % L->f] += dy[e];		/* dbeta */
	}
}

static void ph_bn_backward(struct train *tr, int l, int b, int tid)
{
	struct tlayer *L = &tr->L[l];
	int f = L->f;
	size_t n = (size_t)L->keep * tr->px * f;
	double cnt = (double)tr->batch * L->keep * tr->px;
	const float *gamma = tr->p[nb_tensor_index(l, NB_T_GAMMA)];
	const float *dg = tr->g[nb_tensor_index(l, NB_T_GAMMA)];
	const float *db = tr->g[nb_tensor_index(l, NB_T_BETA)];
	const float *dy = dy_of(tr, l) + b * n, *xh = L->xhat + b * n;
	float sc[1024], mg[1024], mb[1024];

	(void)tid;
	for (int j = 0; j < f; j++) {
		sc[j] = (float)(gamma[j] / sqrt(L->var[j] + NB_BN_EPSILON));
		mg[j] = (float)(dg[j] / cnt);
		mb[j] = (float)(db[j] / cnt);
	}
	for (int t = 0; t < L->keep; t++) {
		float *d = kept(tr, L, L->dh, b, t);
		size_t o = (size_t)t * tr->px * f;

		for (size_t q = 0; q < tr->px; q++)
			for (int j = 0; j < f; j++) {
				size_t e = o + q * f + j;

				d[q * f + j] = sc[j] * (dy[e] - mb[j] - xh[e] * mg[j]);
			}
	}
}

static void ph_layer_backward(struct train *tr, int l, int b, int tid)
{
	struct tlayer *L = &tr->L[l];
	int hgt = tr->m.height, wid = tr->m.width, f = L->f, g = 4 * f;
	int cin = L->cin, frames = tr->frames;
	size_t px = tr->px;
	float *tg = tr->tg + (size_t)tid * tr->total;
	float *dk = tg + tr->off[nb_tensor_index(l, NB_T_KERNEL)];
	float *du = tg + tr->off[nb_tensor_index(l, NB_T_RKERNEL)];
	float *dbias = tg + tr->off[nb_tensor_index(l, NB_T_BIAS)];
	float *s = tr->scratch + tid * tr->scratch_len;
	float *zero = s, *dh_rec = s + px * f, *dc_next = s + 2 * px * f;
	float *dz = s + 3 * px * f;

	memset(s, 0, 3 * px * f * sizeof(float));
	if (L->dx)
		memset(L->dx + (size_t)b * frames * px * cin, 0,
		       (size_t)frames * px * cin * sizeof(float));
	for (int t = frames - 1; t >= 0; t--) {
		size_t bt = (size_t)b * frames + t;
		const float *z = L->z + bt * px * g, *c = L->c + bt * px * f;
		const float *hp = t ? L->h + (bt - 1) * px * f : zero;
		const float *cp = t ? c - px * f : zero;
		const float *dho = L->dh + bt * px * f;

		tr->k->gates_bwd(px, f, z, c, cp, dho, dh_rec, dc_next, dz, dbias);
		tr->k->conv_bwd_k(hgt, wid, cin, g, L->x + bt * px * cin, dz, dk);
		if (L->dx)
			conv_bwd_x(tr->k, hgt, wid, cin, g, L->kt, dz,
				   L->dx + bt * px * cin);
		memset(dh_rec, 0, px * f * sizeof(float));
		if (t) {
			tr->k->conv_bwd_k(hgt, wid, f, g, hp, dz, du);
			conv_bwd_x(tr->k, hgt, wid, f, g, L->ut, dz, dh_rec);
		}
	}
}

static void phase_worker(void *arg, int tid, int n)
{
	struct train *tr = arg;

	for (int b = tid; b < tr->batch; b += n)
		tr->phase(tr, tr->layer, b, tid);
}

static void run_phase(void *ctx, struct train *tr,
		      void (*fn)(struct train *, int, int, int), int l)
{
	tr->phase = fn;
	tr->layer = l;
	nb_cpu_parallel(ctx, phase_worker, tr);
}

/* ---- the step ---- */

static void train_free(void *ctx, void *vtr)
{
	struct train *tr = vtr;

	(void)ctx;
	if (!tr)
		return;
	for (int i = 0; i < tr->n; i++) {
		free(tr->p[i]);
		free(tr->g[i]);
		free(tr->am[i]);
		free(tr->av[i]);
	}
	for (int l = 0; l < tr->m.layers; l++) {
		struct tlayer *L = &tr->L[l];

		free(L->z);
		free(L->c);
		free(L->h);
		free(L->xhat);
		free(L->y);
		free(L->kt);
		free(L->ut);
		free(L->dh);
		free(L->dx);
	}
	free(tr->tg);
	free(tr->tsum);
	free(tr->scratch);
	free(tr->logit);
	free(tr->dy);
	free(tr->hkt);
	free(tr);
}

static float *fz(size_t n, int *fail)
{
	float *p = calloc(n ? n : 1, sizeof(float));

	if (!p)
		*fail = 1;
	return p;
}

static int train_load(void *ctx, const struct nb_weights *w, int batch,
		      int frames, void **out, char *err, size_t errlen)
{
	const struct nb_model *m = &w->model;
	struct tensor_table { struct nb_tensor t[NB_MAX_TENSORS]; } *tt;
	struct train *tr = calloc(1, sizeof(*tr));
	int fail = 0;

	tt = malloc(sizeof(*tt));
	if (!tr || !tt) {
		free(tr);
		free(tt);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	tr->m = *m;
	tr->batch = batch;
	tr->frames = frames;
	tr->threads = nb_cpu_backend.threads(ctx);
	tr->k = nb_cpu_kernels_of(ctx);
	tr->px = (size_t)m->height * m->width;
	tr->nout = nb_output_count(m, batch, frames);
	tr->n = nb_weights_tensors((struct nb_weights *)w, tt->t);
	for (int i = 0; i < tr->n; i++) {
		tr->count[i] = tt->t[i].count;
		tr->off[i] = tr->total;
		tr->total += tt->t[i].count;
		tr->p[i] = fz(tr->count[i], &fail);
		tr->g[i] = fz(tr->count[i], &fail);
		tr->am[i] = fz(tr->count[i], &fail);
		tr->av[i] = fz(tr->count[i], &fail);
		if (!fail)
			memcpy(tr->p[i], *tt->t[i].data, tr->count[i] * sizeof(float));
	}
	free(tt);
	int fmax = 0;
	for (int l = 0; l < m->layers; l++) {
		struct tlayer *L = &tr->L[l];
		size_t states = (size_t)batch * frames * tr->px * m->filters[l];

		L->cin = nb_layer_cin(m, l);
		L->f = m->filters[l];
		L->keep = nb_layer_output_frames(m, l, frames);
		L->z = fz(4 * states, &fail);
		L->c = fz(states, &fail);
		L->h = fz(states, &fail);
		L->xhat = fz((size_t)batch * L->keep * tr->px * L->f, &fail);
		L->y = fz((size_t)batch * L->keep * tr->px * L->f, &fail);
		L->kt = fz((size_t)9 * L->cin * 4 * L->f, &fail);
		L->ut = fz((size_t)9 * L->f * 4 * L->f, &fail);
		L->dh = fz(states, &fail);
		if (l)
			L->dx = fz((size_t)batch * frames * tr->px * L->cin, &fail);
		if (L->f > fmax)
			fmax = L->f;
	}
	for (int l = 1; l < m->layers; l++)
		tr->L[l].x = tr->L[l - 1].y;
	struct tlayer *last = &tr->L[m->layers - 1];
	tr->scratch_len = 7 * tr->px * fmax;	/* zero, dh_rec, dc_next, dz (4F) */
	tr->tg = fz(tr->threads * tr->total, &fail);
	tr->tsum = calloc((size_t)tr->threads * 2048, sizeof(double));
	tr->scratch = fz(tr->threads * tr->scratch_len, &fail);
	tr->logit = fz(tr->nout, &fail);
	tr->dy = fz((size_t)batch * last->keep * tr->px * last->f, &fail);
	tr->hkt = fz(tr->count[nb_head_kernel_index(m)], &fail);
	if (fail || !tr->tsum) {
		train_free(ctx, tr);
		snprintf(err, errlen, "out of memory for the training step (batch %d, %d frames)",
			 batch, frames);
		return -1;
	}
	refresh_transposed(tr);
	*out = tr;
	return 0;
}

/* adds the threads' parts of each sum into tsum's first */
static void sums_reduce(struct train *tr)
{
	for (int t = 1; t < tr->threads; t++)
		for (int e = 0; e < 2048; e++)
			tr->tsum[e] += tr->tsum[(size_t)t * 2048 + e];
}

/* The forward pass over every layer, BatchNorm on the batch's statistics. */
static void forward(void *ctx, struct train *tr, const float *in)
{
	tr->L[0].x = in;
	for (int l = 0; l < tr->m.layers; l++) {
		struct tlayer *L = &tr->L[l];
		double cnt = (double)tr->batch * L->keep * tr->px;

		run_phase(ctx, tr, ph_layer_forward, l);
		memset(tr->tsum, 0, (size_t)tr->threads * 2048 * sizeof(double));
		run_phase(ctx, tr, ph_bn_sums, l);
		sums_reduce(tr);
		for (int j = 0; j < L->f; j++) {
			L->mean[j] = tr->tsum[j] / cnt;
			L->var[j] = fmax(tr->tsum[1024 + j] / cnt -
					 L->mean[j] * L->mean[j], 0);
		}
		run_phase(ctx, tr, ph_bn_apply, l);
	}
	run_phase(ctx, tr, ph_head_forward, 0);
}

/* The loss against target; the head's logits become its gradient. */
static double loss_grad(struct train *tr, const float *target)
{
	double sum = 0;
	bool bce = nb_model_loss(&tr->m) == NB_LOSS_BCE;

	for (size_t e = 0; e < tr->nout; e++) {
		double z = tr->logit[e], y = target[e], s = 1 / (1 + exp(-z));

		if (bce) {
			sum += fmax(z, 0) - z * y + log1p(exp(-fabs(z)));
			tr->logit[e] = (float)((s - y) / (double)tr->nout);
		} else {
			sum += fabs(s - y);
			tr->logit[e] = (float)((s > y ? 1 : s < y ? -1 : 0) *
					       s * (1 - s) / (double)tr->nout);
		}
	}
	return sum / (double)tr->nout;
}

/* Backpropagation through the head, every layer and time; the gradients. */
static void backward(void *ctx, struct train *tr)
{
	const struct nb_model *m = &tr->m;
	int layers = m->layers;

	memset(tr->tg, 0, (size_t)tr->threads * tr->total * sizeof(float));
	run_phase(ctx, tr, ph_head_backward, 0);
	for (int l = layers - 1; l >= 0; l--) {
		struct tlayer *L = &tr->L[l];

		memset(tr->tsum, 0, (size_t)tr->threads * 2048 * sizeof(double));
		run_phase(ctx, tr, ph_bn_grad_sums, l);
		sums_reduce(tr);
		for (int j = 0; j < L->f; j++) {
			tr->g[nb_tensor_index(l, NB_T_GAMMA)][j] = (float)tr->tsum[j];
			tr->g[nb_tensor_index(l, NB_T_BETA)][j] = (float)tr->tsum[1024 + j];
			tr->g[nb_tensor_index(l, NB_T_MEAN)][j] = (float)L->mean[j];
			tr->g[nb_tensor_index(l, NB_T_VAR)][j] = (float)L->var[j];
		}
		run_phase(ctx, tr, ph_bn_backward, l);
		run_phase(ctx, tr, ph_layer_backward, l);
	}
	/* the threads' parts of the kernel, bias and head gradients */
	for (int i = 0; i < tr->n; i++) {
		int w = i % NB_T_PER_LAYER;

		if (i < layers * NB_T_PER_LAYER && w != NB_T_KERNEL &&
		    w != NB_T_RKERNEL && w != NB_T_BIAS)
			continue;
		for (size_t e = 0; e < tr->count[i]; e++) {
			float s = 0;

			for (int t = 0; t < tr->threads; t++)
				s += tr->tg[(size_t)t * tr->total + tr->off[i] + e];
			tr->g[i][e] = s;
		}
	}
#ifdef NB_TESTING
	if (nb_train_fault == NB_FAULT_GRAD_SCALE)
		for (size_t e = 0; e < tr->count[nb_head_kernel_index(m)]; e++)
			tr->g[nb_head_kernel_index(m)][e] *= 1.01f;
#endif
}

/* Adam on the trained tensors; the moving averages of the others. */
static void adam_update(struct train *tr)
{
	tr->step++;
	float alpha = (float)(NB_ADAM_LR * sqrt(1 - pow(NB_ADAM_BETA2, (double)tr->step)) /
			      (1 - pow(NB_ADAM_BETA1, (double)tr->step)));
	const float b1 = 1 - (float)NB_ADAM_BETA1, b2 = 1 - (float)NB_ADAM_BETA2;
	const float mom = (float)NB_BN_MOMENTUM, eps = (float)NB_ADAM_EPSILON;

	for (int i = 0; i < tr->n; i++) {
		float *p = tr->p[i], *g = tr->g[i], *am = tr->am[i], *av = tr->av[i];

		if (!nb_tensor_trained(i)) {
			for (size_t e = 0; e < tr->count[i]; e++)
				p[e] = p[e] * mom + g[e] * (1 - mom);
			continue;
		}
		for (size_t e = 0; e < tr->count[i]; e++) {
			am[e] += (g[e] - am[e]) * b1;
			av[e] += (g[e] * g[e] - av[e]) * b2;
			p[e] -= alpha * am[e] / (sqrtf(av[e]) + eps);
		}
	}
}

static int train_step(void *ctx, void *vtr, const float *in,
		      const float *target, double *loss, char *err, size_t errlen)
{
	struct train *tr = vtr;

	(void)err;
	(void)errlen;
	forward(ctx, tr, in);
	*loss = loss_grad(tr, target);
	backward(ctx, tr);
	adam_update(tr);
	refresh_transposed(tr);
	return 0;
}

static void train_read(void *ctx, void *vtr, struct nb_weights *w,
		       struct nb_weights *grad)
{
	struct train *tr = vtr;
	struct nb_tensor t[NB_MAX_TENSORS];

	(void)ctx;
	nb_weights_tensors(w, t);
	for (int i = 0; i < tr->n; i++)
		memcpy(*t[i].data, tr->p[i], tr->count[i] * sizeof(float));
	if (!grad)
		return;
	nb_weights_tensors(grad, t);
	for (int i = 0; i < tr->n; i++)
		memcpy(*t[i].data, tr->g[i], tr->count[i] * sizeof(float));
}

const struct nb_train_ops nb_cpu_train = {
	.load = train_load,
	.step = train_step,
	.read = train_read,
	.free = train_free,
};
