/* SPDX-License-Identifier: MIT */
/*
 * The training step's kernels (hip/kernels/train.hip) chained into whole
 * steps on the executor and checked by the engine's own rule,
 * nb_train_validate() (user/engine/train.h): against the double
 * reference's gradients (nb_ref_train_loss()), batch statistics and, after
 * Adam, weights and moving averages (nb_ref_adam_apply()), two steps in a
 * row. Included by cases.h; the executor defines these launchers with
 * hip/nbk.h's arguments (without the stream):
 */
#ifndef NBK_TEST_TRAIN_CASES_H
#define NBK_TEST_TRAIN_CASES_H

#include "engine/train.h"

static void conv_fwd(const struct nbk_conv *p, const float *bias);
static void conv_bwd_x(const struct nbk_conv *p);
static void conv_bwd_k(const struct nbk_conv *p);
static void chan_sum(const float *x, size_t rows, int channels, float *out,
		     int accumulate);
static void bn_train_fwd(const struct nbk_bn *p);
static void bn_bwd(const struct nbk_bn *p);
static void gates_fwd(const struct nbk_gates *p);
static void gates_bwd(const struct nbk_gates *p);
static void loss(int bce, size_t n, const float *logit, const float *target,
		 float *grad, float *terms, float *sum);
static void adam(size_t n, float *p, const float *g, float *m, float *v,
		 long step, double lr, double beta1, double beta2, double eps);
static void moving_average(size_t n, float *avg, const float *stat,
			   double momentum);

/* a planted error: the head kernel's gradient scaled by 1.01 */
static int train_plant;

/* one layer's tensors on the device */
struct dlayer {
	int cin, f, keep;
	const float *x;		/* input (B,T,H,W,cin): the layer below's y */
	float *z, *dz;		/* (B,T,H,W,4F) */
	float *c, *h, *dh;	/* (B,T,H,W,F) */
	float *y;		/* (B,keep,H,W,F) */
	float *dx;		/* (B,T,H,W,cin), layers above the first */
};

struct dtrain {
	struct nb_model m;
	int batch, frames, n;
	size_t px, nout, count[NB_MAX_TENSORS];
	float *p[NB_MAX_TENSORS], *g[NB_MAX_TENSORS];
	float *am[NB_MAX_TENSORS], *av[NB_MAX_TENSORS];
	long step;
	float *in, *target, *logit, *lgrad, *terms, *lsum, *dy, *dh_rec, *dc;
	struct dlayer L[NB_MAX_LAYERS];
};

/* a convolution of the layer's or head's shape: the whole sequence */
static struct nbk_conv dconv(const struct dtrain *tr, int frames, int cin,
			     int cout, const float *x, const float *k,
			     const float *z)
{
	struct nbk_conv c = {
		.batch = tr->batch, .frames = frames, .height = tr->m.height,
		.width = tr->m.width, .cin = cin, .cout = cout,
		.x = (float *)x, .x_batch_stride = frames * tr->px * cin,
		.k = (float *)k, .z = (float *)z,
		.z_batch_stride = frames * tr->px * cout,
	};
	return c;
}

/* layer l's BatchNorm over its kept frames */
static struct nbk_bn dbn(struct dtrain *tr, int l)
{
	struct dlayer *L = &tr->L[l];
	size_t skip = (size_t)(tr->frames - L->keep) * tr->px * L->f;
	struct nbk_bn b = {
		.items = tr->batch, .filters = L->f, .rows = L->keep * tr->px,
		.h = L->h + skip, .item_stride = tr->frames * tr->px * L->f,
		.mean = tr->g[nb_tensor_index(l, NB_T_MEAN)],
		.var = tr->g[nb_tensor_index(l, NB_T_VAR)],
		.gamma = tr->p[nb_tensor_index(l, NB_T_GAMMA)],
		.beta = tr->p[nb_tensor_index(l, NB_T_BETA)],
		.eps = NB_BN_EPSILON, .y = L->y,
		.dgamma = tr->g[nb_tensor_index(l, NB_T_GAMMA)],
		.dbeta = tr->g[nb_tensor_index(l, NB_T_BETA)], .dh = L->dh + skip,
	};
	return b;
}

/* layer l's gates at frame t */
static struct nbk_gates dgates(struct dtrain *tr, int l, int t)
{
	struct dlayer *L = &tr->L[l];
	size_t s = (size_t)t * tr->px * L->f;
	struct nbk_gates g = {
		.batch = tr->batch, .height = tr->m.height, .width = tr->m.width,
		.filters = L->f, .z = L->z + 4 * s,
		.z_batch_stride = tr->frames * tr->px * 4 * L->f,
		.c_prev = t ? L->c + s - tr->px * L->f : NULL,
		.c = L->c + s, .h = L->h + s,
		.state_batch_stride = tr->frames * tr->px * L->f,
		.dh_out = t >= tr->frames - L->keep ? L->dh + s : NULL,
		.dh_rec = t < tr->frames - 1 ? tr->dh_rec : NULL,
		.dc = tr->dc, .dc_in = t < tr->frames - 1, .dz = L->dz + 4 * s,
	};
	return g;
}

static void dlayer_forward(struct dtrain *tr, int l)
{
	struct dlayer *L = &tr->L[l];
	const float *k = tr->p[nb_tensor_index(l, NB_T_KERNEL)];
	const float *u = tr->p[nb_tensor_index(l, NB_T_RKERNEL)];

	for (int t = 0; t < tr->frames; t++) {
		/* one frame of the sequences: their batch strides stay */
		struct nbk_conv cx = dconv(tr, tr->frames, L->cin, 4 * L->f, L->x, k, L->z);
		struct nbk_conv ch = dconv(tr, tr->frames, L->f, 4 * L->f, L->h, u, L->z);
		struct nbk_gates g = dgates(tr, l, t);

		cx.frames = ch.frames = 1;
		cx.x += t * tr->px * L->cin;
		cx.z = ch.z = (float *)g.z;
		conv_fwd(&cx, tr->p[nb_tensor_index(l, NB_T_BIAS)]);
		if (t) {
			ch.x += (t - 1) * tr->px * L->f;
			ch.accumulate = 1;
			conv_fwd(&ch, NULL);
		}
		gates_fwd(&g);
	}
	struct nbk_bn b = dbn(tr, l);

	bn_train_fwd(&b);
}

/*
 * The head's logits (dout NULL) or its backward: the head's gradients and
 * dy from dout. Conv3D: frame t reads frames t - 1, t, t + 1 (shift).
 */
static void dhead(struct dtrain *tr, const float *dout)
{
	const struct nb_model *m = &tr->m;
	const int hk = nb_head_kernel_index(m), f = m->filters[m->layers - 1];
	const int conv3d = m->head == NB_HEAD_CONV3D, frames = conv3d ? tr->frames : 1;
	const float *y = tr->L[m->layers - 1].y;

	if (dout)
		chan_sum(dout, tr->nout / m->head_out, m->head_out, tr->g[hk + 1], 0);
	for (int d = 0; d < (conv3d ? 3 : 1); d++) {
		size_t ko = (size_t)d * 9 * f * m->head_out;
		struct nbk_conv c = dconv(tr, frames, f, m->head_out, y,
					  tr->p[hk] + ko, dout ? dout : tr->logit);

		c.shift = conv3d ? d - 1 : 0;
		c.accumulate = d > 0;
		if (!dout) {
			conv_fwd(&c, d ? NULL : tr->p[hk + 1]);
			continue;
		}
		c.x = tr->dy;
		conv_bwd_x(&c);
		c.x = (float *)y;
		c.k = tr->g[hk] + ko;
		c.accumulate = 0;
		conv_bwd_k(&c);
	}
	if (dout && train_plant)
		for (size_t e = 0; e < tr->count[hk]; e++)
			tr->g[hk][e] *= 1.01f;
}

/* backpropagation through time of layer l, from dy (BN's output gradient) */
static void dlayer_backward(struct dtrain *tr, int l, const float *dy)
{
	struct dlayer *L = &tr->L[l];
	const int g4 = 4 * L->f;
	struct nbk_bn b = dbn(tr, l);
	const float *u = tr->p[nb_tensor_index(l, NB_T_RKERNEL)];
	struct nbk_conv c;

	b.dy = dy;
	bn_bwd(&b);
	for (int t = tr->frames - 1; t >= 0; t--) {
		struct nbk_gates g = dgates(tr, l, t);

		gates_bwd(&g);
		if (!t)
			break;
		/* dh of frame t - 1 through the recurrent kernel */
		c = dconv(tr, 1, L->f, g4, tr->dh_rec, u, g.dz);
		c.x_batch_stride = tr->px * L->f;
		c.z_batch_stride = g.z_batch_stride;
		conv_bwd_x(&c);
	}
	c = dconv(tr, tr->frames, L->cin, g4, L->x,
		  tr->g[nb_tensor_index(l, NB_T_KERNEL)], L->dz);
	conv_bwd_k(&c);
	if (l) {
		c.x = L->dx;
		c.k = tr->p[nb_tensor_index(l, NB_T_KERNEL)];
		conv_bwd_x(&c);
	}
	c = dconv(tr, tr->frames, L->f, g4, L->h,
		  tr->g[nb_tensor_index(l, NB_T_RKERNEL)], L->dz);
	c.shift = -1;	/* frame t's z from frame t - 1's h */
	conv_bwd_k(&c);
	chan_sum(L->dz, tr->batch * tr->frames * tr->px, g4,
		 tr->g[nb_tensor_index(l, NB_T_BIAS)], 0);
}

static void dadam(struct dtrain *tr)
{
	tr->step++;
	for (int i = 0; i < tr->n; i++)
		if (nb_tensor_trained(i))
			adam(tr->count[i], tr->p[i], tr->g[i], tr->am[i],
			     tr->av[i], tr->step, NB_ADAM_LR, NB_ADAM_BETA1,
			     NB_ADAM_BETA2, NB_ADAM_EPSILON);
		else
			moving_average(tr->count[i], tr->p[i], tr->g[i],
				       NB_BN_MOMENTUM);
}

static int dtrain_step(void *ctx, void *vtr, const float *in,
		       const float *target, double *lossv, char *err,
		       size_t errlen)
{
	struct dtrain *tr = vtr;
	const struct nb_model *m = &tr->m;

	(void)ctx, (void)err, (void)errlen;
	memcpy(tr->in, in, (size_t)tr->batch * tr->frames * tr->px * m->channels * 4);
	memcpy(tr->target, target, tr->nout * 4);
	for (int l = 0; l < m->layers; l++)
		dlayer_forward(tr, l);
	dhead(tr, NULL);
	loss(nb_model_loss(m) == NB_LOSS_BCE, tr->nout, tr->logit, tr->target,
	     tr->lgrad, tr->terms, tr->lsum);
	*lossv = tr->lsum[0];
	dhead(tr, tr->lgrad);
	for (int l = m->layers - 1; l >= 0; l--)
		dlayer_backward(tr, l, l == m->layers - 1 ? tr->dy : tr->L[l + 1].dx);
	dadam(tr);
	return 0;
}

static float *dzero(size_t n)
{
	float *p = dev_alloc(n);

	memset(p, 0, (n ? n : 1) * sizeof(float));
	return p;
}

static void dlayer_alloc(struct dtrain *tr, int l)
{
	struct dlayer *L = &tr->L[l];
	size_t seq = (size_t)tr->batch * tr->frames * tr->px;

	L->cin = nb_layer_cin(&tr->m, l);
	L->f = tr->m.filters[l];
	L->keep = nb_layer_output_frames(&tr->m, l, tr->frames);
	L->x = l ? tr->L[l - 1].y : tr->in;
	L->z = dzero(seq * 4 * L->f);
	L->dz = dzero(seq * 4 * L->f);
	L->c = dzero(seq * L->f);
	L->h = dzero(seq * L->f);
	L->dh = dzero(seq * L->f);
	L->y = dzero((size_t)tr->batch * L->keep * tr->px * L->f);
	L->dx = l ? dzero(seq * L->cin) : NULL;
}

static int dtrain_load(void *ctx, const struct nb_weights *w, int batch,
		       int frames, void **vtr, char *err, size_t errlen)
{
	struct dtrain *tr = calloc(1, sizeof(*tr));
	struct nb_tensor t[NB_MAX_TENSORS];
	const struct nb_model *m = &w->model;
	int f = m->filters[m->layers - 1], fmax_ = 0;

	(void)ctx, (void)err, (void)errlen;
	tr->m = *m;
	tr->batch = batch;
	tr->frames = frames;
	tr->px = (size_t)m->height * m->width;
	tr->nout = nb_output_count(m, batch, frames);
	tr->n = nb_weights_tensors((struct nb_weights *)w, t);
	for (int i = 0; i < tr->n; i++) {
		tr->count[i] = t[i].count;
		tr->p[i] = dzero(t[i].count);
		memcpy(tr->p[i], *t[i].data, t[i].count * sizeof(float));
		tr->g[i] = dzero(t[i].count);
		tr->am[i] = dzero(t[i].count);
		tr->av[i] = dzero(t[i].count);
	}
	tr->in = dzero((size_t)batch * frames * tr->px * m->channels);
	tr->target = dzero(tr->nout);
	tr->logit = dzero(tr->nout);
	tr->lgrad = dzero(tr->nout);
	tr->terms = dzero(tr->nout);
	tr->lsum = dzero(1);
	for (int l = 0; l < m->layers; l++)
		dlayer_alloc(tr, l);
	for (int l = 0; l < m->layers; l++)
		fmax_ = m->filters[l] > fmax_ ? m->filters[l] : fmax_;
	tr->dy = dzero((size_t)batch * tr->L[m->layers - 1].keep * tr->px * f);
	tr->dh_rec = dzero((size_t)batch * tr->px * fmax_);
	tr->dc = dzero((size_t)batch * tr->px * fmax_);
	*vtr = tr;
	return 0;
}

/* the tensors of p (or, with grad, g) into w's */
static void dtensors_to(const struct dtrain *tr, float *const *p,
			struct nb_weights *w)
{
	struct nb_tensor t[NB_MAX_TENSORS];

	nb_weights_tensors(w, t);
	for (int i = 0; i < tr->n; i++)
		memcpy(*t[i].data, p[i], tr->count[i] * sizeof(float));
}

static void dtrain_read(void *ctx, void *vtr, struct nb_weights *w,
			struct nb_weights *grad)
{
	struct dtrain *tr = vtr;

	(void)ctx;
	dtensors_to(tr, tr->p, w);
	if (grad)
		dtensors_to(tr, tr->g, grad);
}

static void dtrain_free(void *ctx, void *vtr)
{
	struct dtrain *tr = vtr;

	(void)ctx;
	for (int i = 0; i < tr->n; i++)
		for (float **q[] = { tr->p, tr->g, tr->am, tr->av }, ***e = q;
		     e < q + 4; e++)
			dev_free((*e)[i]);
	for (int l = 0; l < tr->m.layers; l++) {
		struct dlayer *L = &tr->L[l];

		for (float *q[] = { L->z, L->dz, L->c, L->h, L->dh, L->y }, **e = q;
		     e < q + 6; e++)
			dev_free(*e);
		if (L->dx)
			dev_free(L->dx);
	}
	for (float *q[] = { tr->in, tr->target, tr->logit, tr->lgrad, tr->terms,
			    tr->lsum, tr->dy, tr->dh_rec, tr->dc }, **e = q;
	     e < q + 9; e++)
		dev_free(*e);
	free(tr);
}

static const struct nb_train_ops dtrain_ops = {
	.load = dtrain_load, .step = dtrain_step, .read = dtrain_read,
	.free = dtrain_free,
};

struct train_case {
	const char *what;
	struct fwd_case fc;	/* cases.h's model shapes */
};

/* nb_train_validate() of a case, steps 2; 1 when it passes */
static int train_check(const struct train_case *tc, struct nb_validation *v)
{
	const struct fwd_case *fc = &tc->fc;
	struct nb_model m = case_model(fc);
	size_t nin = (size_t)fc->batch * fc->frames * m.height * m.width * m.channels;
	size_t nout = nb_output_count(&m, fc->batch, fc->frames);
	float *in = malloc(nin * 4), *target = malloc(nout * 4);
	struct nb_weights *w = case_weights(&m, in, nin);
	struct nb_rng r;
	char err[256] = "";

	nb_rng_seed(&r, 17);
	fill(&r, target, nout, 0, 1);
	memset(v, 0, sizeof(*v));
	if (nb_train_validate(&dtrain_ops, NULL, w, in, target, fc->batch,
			      fc->frames, 2, v, err, sizeof(err)))
		fprintf(stderr, "train: %s\n", err);
	free(in);
	free(target);
	nb_weights_free(w);
	return v->ran && v->pass;
}

static const struct train_case train_cases[] = {
	/* H, W, layers, F0, F1, head outputs, Conv2D; batch, frames */
	{ "Conv3D head, BCE", { NULL, 5, 7, 2, 3, 5, 1, 0, 2, 3 } },
	{ "Conv2D head, MAE", { NULL, 6, 5, 2, 4, 3, 3, 1, 3, 3 } },
};

static void test_train(void)
{
	struct nb_validation v;

	for (size_t i = 0; i < sizeof(train_cases) / sizeof(train_cases[0]); i++) {
		const struct train_case *tc = &train_cases[i];
		double t0 = now();
		int pass = train_check(tc, &v);

		tap(pass, "training step chained from the kernels, %s: %dx%d, batch %d x %d frames, 2 steps: gradients within %.0e of each tensor's largest (worst %.1e), statistics and weights after Adam within %.0e + %.0e |ref| (worst beyond %.1e; %.2f s)",
		    tc->what, tc->fc.height, tc->fc.width, tc->fc.batch,
		    tc->fc.frames, v.tol_rel, v.max_rel, v.tol_abs,
		    NB_TRAIN_TOL_REL, v.max_abs, now() - t0);
	}
	train_plant = 1;
	int pass = train_check(&train_cases[0], &v);

	train_plant = 0;
	tap(v.ran && !pass, "planted error: the head kernel's gradient scaled by 1.01 fails validation (worst gradient error %.1e of its tensor's largest)",
	    v.max_rel);
}

/* one training check, for a mutated kernel source (fibers train) */
static inline int mut_train(double *err)
{
	struct nb_validation v;
	int pass = train_check(&train_cases[1], &v);

	*err = v.max_rel;
	return pass;
}

#endif /* NBK_TEST_TRAIN_CASES_H */
