/* SPDX-License-Identifier: MIT */
/*
 * The training step's kernels (hip/kernels/train.hip), each against the
 * reference's pieces (train.h), and chained into whole
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

/* ---- each kernel against the reference's pieces (train.h) ---- */

static double *to_dbl(const float *p, size_t n)
{
	double *d = malloc((n ? n : 1) * sizeof(double));

	for (size_t i = 0; i < n; i++)
		d[i] = p[i];
	return d;
}

/* got against the double ref (rounded to float: 6e-8 relative) */
static void compare_dbl(struct cmp *c, const float *got, const double *ref,
			size_t n)
{
	float *r = malloc((n ? n : 1) * sizeof(float));

	for (size_t i = 0; i < n; i++)
		r[i] = (float)ref[i];
	compare(c, got, r, n);
	free(r);
}

static float *drand(struct nb_rng *r, size_t n, double lo, double hi)
{
	float *p = dev_alloc(n);

	fill(r, p, n, lo, hi);
	return p;
}

/*
 * nbk_conv_fwd, _bwd_x and _bwd_k with images paired at shift, batch 2 x
 * 3 frames of 5x7, 3 to 5 channels, against nb_ref_conv3x3{,_bwd} image
 * by image; max |d| out.
 */
static int conv_check(int shift, double *err)
{
	const int b = 2, T = 3, H = 5, W = 7, ci = 3, co = 5;
	const size_t px = H * W, nx = b * T * px * ci, nz = b * T * px * co, nk = 9 * ci * co;
	struct nb_rng r;
	struct cmp cm = { .tol_abs = 1e-5, .tol_rel = 1e-4 };

	nb_rng_seed(&r, 31 + shift);
	float *x = drand(&r, nx, -1, 1), *k = drand(&r, nk, -1, 1), *bias = drand(&r, co, -1, 1);
	float *dz = drand(&r, nz, -1, 1), *z = drand(&r, nz, 100, 101);
	float *dx = drand(&r, nx, 100, 101), *dk = drand(&r, nk, 100, 101);
	double *xd = to_dbl(x, nx), *kd = to_dbl(k, nk), *dzd = to_dbl(dz, nz);
	double *rz = calloc(nz, 8), *rdx = calloc(nx, 8), *rdk = calloc(nk, 8);
	struct nbk_conv c = {
		.batch = b, .frames = T, .height = H, .width = W, .cin = ci,
		.cout = co, .shift = shift, .x = x, .x_batch_stride = T * px * ci,
		.k = k, .z = z, .z_batch_stride = T * px * co,
	};

	for (size_t i = 0; i < nz; i++)
		rz[i] = bias[i % co];
	for (int img = 0; img < b * T; img++) {
		int st = img % T + shift;
		size_t xi = (size_t)(img - img % T + st) * px * ci, zi = img * px * co;

		if (st < 0 || st >= T)
			continue;
		nb_ref_conv3x3(H, W, ci, co, xd + xi, kd, rz + zi);
		nb_ref_conv3x3_bwd(H, W, ci, co, xd + xi, kd, dzd + zi, rdk, rdx + xi);
	}
	conv_fwd(&c, bias);
	compare_dbl(&cm, z, rz, nz);
	c.z = dz;
	c.k = dk;
	conv_bwd_k(&c);
	c.k = k;
	c.x = dx;
	conv_bwd_x(&c);
	compare_dbl(&cm, dx, rdx, nx);
	compare_dbl(&cm, dk, rdk, nk);
	*err = cm.max_abs;
	for (float *q[] = { x, k, bias, dz, z, dx, dk }, **e = q; e < q + 7; e++)
		dev_free(*e);
	for (double *q[] = { xd, kd, dzd, rz, rdx, rdk }, **e = q; e < q + 6; e++)
		free(*e);
	return cm.bad == 0;
}

/*
 * nbk_gates_fwd and _bwd at frame 1 of 2 (prev: with frame 0's c and the
 * next frame's dh and dc; else as at t = 0 of the last frame), batch 2 of
 * 3x5 pixels, 3 filters, z in [-3, 3] (the hard sigmoid's flat parts
 * too), against nb_ref_gates{,_bwd} pixel by pixel; max |d| out.
 */
static int gates_check(int prev, double *err)
{
	const int b = 2, f = 3;
	const size_t px = 15, fs = px * f, ns = b * 2 * fs, nz = 4 * ns;
	struct nb_rng r;
	struct cmp cm = { .tol_abs = 1e-5, .tol_rel = 1e-4 };

	nb_rng_seed(&r, 41 + prev);
	float *z = drand(&r, nz, -3, 3), *c = drand(&r, ns, -1, 1), *h = drand(&r, ns, 100, 101);
	float *dh = drand(&r, ns, -1, 1), *rec = drand(&r, b * fs, -1, 1);
	float *dc = drand(&r, b * fs, -1, 1), *dz = drand(&r, nz, 100, 101);
	double *rc = calloc(b * fs, 8), *rh = calloc(b * fs, 8), *rdz = calloc(4 * b * fs, 8);
	double *rdc = to_dbl(dc, b * fs), *zero = calloc(fs * 4, 8);
	struct nbk_gates g = {
		.batch = b, .height = 3, .width = 5, .filters = f, .z = z + 4 * fs,
		.z_batch_stride = 8 * fs, .c_prev = prev ? c : NULL, .c = c + fs,
		.h = h + fs, .state_batch_stride = 2 * fs, .dh_out = dh + fs,
		.dh_rec = prev ? rec : NULL, .dc = dc, .dc_in = prev, .dz = dz + 4 * fs,
	};

	for (int i = 0; i < b; i++)
		for (size_t q = 0; q < px; q++) {
			size_t s = (2 * i + 1) * fs + q * f, d = i * fs + q * f;
			double *zq = to_dbl(z + 4 * s, 4 * f), *cp = to_dbl(c + s - fs, f);
			double dhq[64];

			for (int j = 0; j < f; j++) {
				dhq[j] = dh[s + j] + (prev ? rec[d + j] : 0);
				rdc[d + j] = prev ? rdc[d + j] : 0;
			}
			nb_ref_gates(f, zq, prev ? cp : zero, rc + d, rh + d);
			nb_ref_gates_bwd(f, zq, rc + d, prev ? cp : zero, dhq,
					 rdc + d, rdz + 4 * d);
			free(zq);
			free(cp);
		}
	gates_fwd(&g);
	gates_bwd(&g);
	for (int i = 0; i < b; i++) {
		compare_dbl(&cm, c + (2 * i + 1) * fs, rc + i * fs, fs);
		compare_dbl(&cm, h + (2 * i + 1) * fs, rh + i * fs, fs);
		compare_dbl(&cm, dz + 4 * (2 * i + 1) * fs, rdz + 4 * i * fs, 4 * fs);
	}
	compare_dbl(&cm, dc, rdc, b * fs);
	*err = cm.max_abs;
	for (float *q[] = { z, c, h, dh, rec, dc, dz }, **e = q; e < q + 7; e++)
		dev_free(*e);
	for (double *q[] = { rc, rh, rdz, rdc, zero }, **e = q; e < q + 5; e++)
		free(*e);
	return cm.bad == 0;
}

/*
 * nbk_bn_train_fwd and nbk_bn_bwd over the last of 2 frames (a Conv2D
 * model's last layer), 3 items of 5x3 pixels, 4 filters, against
 * nb_ref_bn_{forward,backward}; the other frame's dh must stay as it was.
 */
static int bn_check(double *err)
{
	const int items = 3, f = 4;
	const size_t rows = 15, fs = rows * f, n = items * fs;
	struct nb_rng r;
	struct cmp cm = { .tol_abs = 1e-5, .tol_rel = 1e-4 };

	nb_rng_seed(&r, 53);
	float *h = drand(&r, 2 * n, -1, 1.5), *gamma = drand(&r, f, 0.5, 1.5);
	float *beta = drand(&r, f, -0.5, 0.5), *dy = drand(&r, n, -1, 1);
	float *mean = drand(&r, f, 100, 101), *var = drand(&r, f, 100, 101);
	float *y = drand(&r, n, 100, 101), *dg = drand(&r, f, 100, 101);
	float *db = drand(&r, f, 100, 101), *dh = drand(&r, 2 * n, 100, 101);
	double *hd = malloc(n * 8), *rm = calloc(f, 8), *rv = calloc(f, 8);
	double *gd = to_dbl(gamma, f), *bd = to_dbl(beta, f), *dyd = to_dbl(dy, n);
	double *ry = malloc(n * 8), *rdh = malloc(n * 8), *rdg = calloc(f, 8), *rdb = calloc(f, 8);
	struct nbk_bn p = {
		.items = items, .filters = f, .rows = rows, .h = h + fs,
		.item_stride = 2 * fs, .mean = mean, .var = var, .gamma = gamma,
		.beta = beta, .eps = NB_BN_EPSILON, .y = y, .dy = dy, .dgamma = dg,
		.dbeta = db, .dh = dh + fs,
	};
	size_t still = 0;

	for (int i = 0; i < items; i++)
		for (size_t e = 0; e < fs; e++)
			hd[i * fs + e] = h[(2 * i + 1) * fs + e];
	nb_ref_bn_forward(n / f, f, hd, gd, bd, rm, rv, hd, ry);
	nb_ref_bn_backward(n / f, f, gd, rv, hd, dyd, rdg, rdb, rdh);
	bn_train_fwd(&p);
	bn_bwd(&p);
	compare_dbl(&cm, mean, rm, f);
	compare_dbl(&cm, var, rv, f);
	compare_dbl(&cm, y, ry, n);
	compare_dbl(&cm, dg, rdg, f);
	compare_dbl(&cm, db, rdb, f);
	for (int i = 0; i < items; i++) {
		compare_dbl(&cm, dh + (2 * i + 1) * fs, rdh + i * fs, fs);
		for (size_t e = 0; e < fs; e++)
			still += dh[2 * i * fs + e] >= 100;
	}
	*err = cm.max_abs;
	for (float *q[] = { h, gamma, beta, dy, mean, var, y, dg, db, dh }, **e = q;
	     e < q + 10; e++)
		dev_free(*e);
	for (double *q[] = { hd, rm, rv, gd, bd, dyd, ry, rdh, rdg, rdb }, **e = q;
	     e < q + 10; e++)
		free(*e);
	return cm.bad == 0 && still == items * fs;
}

/* nbk_loss of 37 logits in [-6, 6] against nb_ref_loss_grad: gradient and loss */
static int loss_check(enum nb_loss kind, double *err)
{
	const size_t n = 37;
	struct nb_rng r;
	struct cmp cm = { .tol_abs = 1e-6, .tol_rel = 1e-4 };

	nb_rng_seed(&r, 61 + kind);
	float *z = drand(&r, n, -6, 6), *y = drand(&r, n, 0, 1);
	float *grad = drand(&r, n, 100, 101), *terms = dev_alloc(n), *sum = dev_alloc(1);
	double *rz = to_dbl(z, n), rl;

	rl = nb_ref_loss_grad(kind, y, rz, n);
	loss(kind == NB_LOSS_BCE, n, z, y, grad, terms, sum);
	compare_dbl(&cm, grad, rz, n);
	compare_dbl(&cm, sum, &rl, 1);
	*err = cm.max_abs;
	for (float *q[] = { z, y, grad, terms, sum }, **e = q; e < q + 5; e++)
		dev_free(*e);
	free(rz);
	return cm.bad == 0;
}

static void test_train_kernels(void)
{
	double err;
	int pass;

	for (int shift = -1; shift <= 1; shift++) {
		pass = conv_check(shift, &err);
		tap(pass, "train conv: forward (z), input gradient (dx) and kernel gradient (dk), images paired at shift %d, batch 2 x 3 frames of 5x7, 3 to 5 channels: within 1e-5 + 1e-4 |ref| (max |d| %.1e)",
		    shift, err);
	}
	for (int prev = 0; prev <= 1; prev++) {
		pass = gates_check(prev, &err);
		tap(pass, "train gates: c, h, dz and dc of a step %s, batch 2 of 3x5, 3 filters, z in [-3, 3]: within 1e-5 + 1e-4 |ref| (max |d| %.1e)",
		    prev ? "with the frames before and after" : "at t = 0 of the last frame", err);
	}
	pass = bn_check(&err);
	tap(pass, "train BatchNorm: batch mean and variance, y, dgamma, dbeta and dh over the last of 2 frames, 3 items of 5x3, 4 filters; the other frame untouched: within 1e-5 + 1e-4 |ref| (max |d| %.1e)",
	    err);
	for (int k = NB_LOSS_BCE; k <= NB_LOSS_MAE; k++) {
		pass = loss_check(k, &err);
		tap(pass, "train loss: %s of 37 logits in [-6, 6], gradient and loss within 1e-6 + 1e-4 |ref| (max |d| %.1e)",
		    k == NB_LOSS_BCE ? "binary cross-entropy" : "mean absolute error",
		    err);
	}
}

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
	{ "Conv3D head, BCE", { NULL, 5, 7, 2, 2, 3, 1, 0, 2, 3 } },
	{ "Conv2D head, MAE", { NULL, 6, 5, 2, 3, 2, 3, 1, 3, 3 } },
};

static void test_train(void)
{
	struct nb_validation v;

	test_train_kernels();
	for (size_t i = 0; i < sizeof(train_cases) / sizeof(train_cases[0]); i++) {
		const struct train_case *tc = &train_cases[i];
		double t0 = now();
		int pass = train_check(tc, &v);

		tap(pass, "training step chained from the kernels, %s: %d, %d filters, %dx%d, batch %d x %d frames, 2 steps: gradients within %.0e of each tensor's largest (worst %.1e), statistics and weights after Adam within %.0e + %.0e |ref| (worst beyond %.1e; %.2f s)",
		    tc->what, tc->fc.f0, tc->fc.f1, tc->fc.height, tc->fc.width, tc->fc.batch,
		    tc->fc.frames, v.tol_rel, v.max_rel, v.tol_abs,
		    NB_TRAIN_TOL_REL, v.max_abs, now() - t0);
	}
	train_plant = 1;
	int pass = train_check(&train_cases[0], &v);

	train_plant = 0;
	tap(v.ran && !pass, "planted error: the head kernel's gradient scaled by 1.01 fails validation (worst gradient error %.1e of its tensor's largest)",
	    v.max_rel);
}

/*
 * The training kernels' block sums, for a mutated kernel source (fibers
 * train): BatchNorm's statistics and gradient sums (two sums per block:
 * a write-after-read barrier shows) and the kernel gradient.
 */
static inline int mut_train(double *err)
{
	double e2;
	int pass = bn_check(err) & conv_check(0, &e2);

	if (!(e2 <= *err))
		*err = e2;	/* NaN too */
	return pass;
}

#endif /* NBK_TEST_TRAIN_CASES_H */
