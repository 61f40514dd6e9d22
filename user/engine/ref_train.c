// SPDX-License-Identifier: MIT
/*
 * The reference training step (train.h): plain loops, double precision
 * throughout, every intermediate kept for the backward pass. Written to be
 * read and checked against finite differences, not to be fast.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/train.h"

static void *zalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		abort();	/* the reference runs in tests and validation only */
	return p;
}

struct nb_ref_params *nb_ref_params_alloc(const struct nb_model *m)
{
	struct nb_weights shape = { .model = *m };
	struct nb_tensor t[NB_MAX_TENSORS];
	struct nb_ref_params *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->model = *m;
	p->n = nb_weights_tensors(&shape, t);
	for (int i = 0; i < p->n; i++) {
		memcpy(p->name[i], t[i].name, NB_TENSOR_NAME);
		p->count[i] = t[i].count;
		p->v[i] = calloc(t[i].count, sizeof(double));
		if (!p->v[i]) {
			nb_ref_params_free(p);
			return NULL;
		}
	}
	return p;
}

void nb_ref_params_free(struct nb_ref_params *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->n; i++)
		free(p->v[i]);
	free(p);
}

void nb_ref_params_from(struct nb_ref_params *p, const struct nb_weights *w)
{
	struct nb_tensor t[NB_MAX_TENSORS];

	nb_weights_tensors((struct nb_weights *)w, t);
	for (int i = 0; i < p->n; i++)
		for (size_t e = 0; e < p->count[i]; e++)
			p->v[i][e] = (*t[i].data)[e];
}

void nb_ref_params_to(const struct nb_ref_params *p, struct nb_weights *w)
{
	struct nb_tensor t[NB_MAX_TENSORS];

	nb_weights_tensors(w, t);
	for (int i = 0; i < p->n; i++)
		for (size_t e = 0; e < p->count[i]; e++)
			(*t[i].data)[e] = (float)p->v[i][e];
}

static double hard_sigmoid(double x)
{
	double y = 0.2 * x + 0.5;

	return y < 0 ? 0 : y > 1 ? 1 : y;
}

static double hard_sigmoid_grad(double x)
{
	return x > -2.5 && x < 2.5 ? 0.2 : 0;
}

static double sigmoid(double x)
{
	return 1.0 / (1.0 + exp(-x));
}

void nb_ref_conv3x3(int hgt, int wid, int cin, int cout, const double *x,
		     const double *k, double *z)
{
	for (int y = 0; y < hgt; y++)
		for (int xx = 0; xx < wid; xx++) {
			double *zo = z + ((size_t)y * wid + xx) * cout;

			for (int tap = 0; tap < 9; tap++) {
				int sy = y + tap / 3 - 1, sx = xx + tap % 3 - 1;

				if (sy < 0 || sy >= hgt || sx < 0 || sx >= wid)
					continue;
				const double *xi = x + ((size_t)sy * wid + sx) * cin;
				const double *kt = k + (size_t)tap * cin * cout;

				for (int i = 0; i < cin; i++)
					for (int o = 0; o < cout; o++)
						zo[o] += xi[i] * kt[(size_t)i * cout + o];
			}
		}
}

void nb_ref_conv3x3_bwd(int hgt, int wid, int cin, int cout, const double *x,
		     const double *k, const double *dz, double *dk, double *dx)
{
	for (int y = 0; y < hgt; y++)
		for (int xx = 0; xx < wid; xx++) {
			const double *d = dz + ((size_t)y * wid + xx) * cout;

			for (int tap = 0; tap < 9; tap++) {
				int sy = y + tap / 3 - 1, sx = xx + tap % 3 - 1;

				if (sy < 0 || sy >= hgt || sx < 0 || sx >= wid)
					continue;
				size_t sp = (size_t)sy * wid + sx;
				const double *xi = x + sp * cin;
				const double *kt = k + (size_t)tap * cin * cout;
				double *dkt = dk + (size_t)tap * cin * cout;

				for (int i = 0; i < cin; i++) {
					double acc = 0;

					for (int o = 0; o < cout; o++) {
						dkt[(size_t)i * cout + o] += xi[i] * d[o];
						acc += kt[(size_t)i * cout + o] * d[o];
					}
					if (dx)
						dx[sp * cin + i] += acc;
				}
			}
		}
}

void nb_ref_gates(int f, const double *z, const double *c_prev, double *c,
		  double *h)
{
	for (int j = 0; j < f; j++) {
		double ig = hard_sigmoid(z[j]);
		double fg = hard_sigmoid(z[f + j]);
		double cc = tanh(z[2 * f + j]);
		double og = hard_sigmoid(z[3 * f + j]);

		c[j] = fg * c_prev[j] + ig * cc;
		h[j] = og * tanh(c[j]);
	}
}

void nb_ref_gates_bwd(int f, const double *z, const double *c,
		      const double *c_prev, const double *dh, double *dc,
		      double *dz)
{
	for (int j = 0; j < f; j++) {
		double ig = hard_sigmoid(z[j]);
		double fg = hard_sigmoid(z[f + j]);
		double cc = tanh(z[2 * f + j]);
		double tc = tanh(c[j]);
		double d = dc[j] + dh[j] * hard_sigmoid(z[3 * f + j]) * (1 - tc * tc);

		dz[j] = d * cc * hard_sigmoid_grad(z[j]);
		dz[f + j] = d * c_prev[j] * hard_sigmoid_grad(z[f + j]);
		dz[2 * f + j] = d * ig * (1 - cc * cc);
		dz[3 * f + j] = dh[j] * tc * hard_sigmoid_grad(z[3 * f + j]);
		dc[j] = d * fg;
	}
}

/* one ConvLSTM layer and its BatchNormalization, with what backward needs */
struct layer {
	int cin, f, keep;	/* keep: frames the layer returns (BN sees) */
	const double *x;	/* input (B,T,H,W,cin), not owned */
	double *z;		/* gate pre-activations (B,T,H,W,4F) */
	double *c, *h;		/* states (B,T,H,W,F) */
	double *xhat, *y;	/* BN's normalized input and output (B,keep,H,W,F) */
	double *mean, *var;	/* batch statistics (F) */
};

/* Layer l's ConvLSTM over every frame: its gate pre-activations and states. */
static void lstm_forward(const struct nb_ref_params *p, int l, struct layer *L,
			 int batch, int frames)
{
	const struct nb_model *m = &p->model;
	int hgt = m->height, wid = m->width, f = L->f, cin = L->cin, g = 4 * f;
	size_t px = (size_t)hgt * wid;
	const double *k = p->v[nb_tensor_index(l, NB_T_KERNEL)];
	const double *u = p->v[nb_tensor_index(l, NB_T_RKERNEL)];
	const double *bias = p->v[nb_tensor_index(l, NB_T_BIAS)];
	double *zero = zalloc(px * f, sizeof(double));

	for (int b = 0; b < batch; b++)
		for (int t = 0; t < frames; t++) {
			size_t bt = (size_t)b * frames + t;
			double *z = L->z + bt * px * g;
			double *c = L->c + bt * px * f, *h = L->h + bt * px * f;
			const double *hp = t ? h - px * f : zero;
			const double *cp = t ? c - px * f : zero;

			for (size_t q = 0; q < px; q++)
				memcpy(z + q * g, bias, g * sizeof(double));
			nb_ref_conv3x3(hgt, wid, cin, g, L->x + bt * px * cin, k, z);
			nb_ref_conv3x3(hgt, wid, f, g, hp, u, z);
			for (size_t q = 0; q < px; q++)
				nb_ref_gates(f, z + q * g, cp + q * f, c + q * f,
					     h + q * f);
		}
	free(zero);
}

void nb_ref_bn_forward(size_t n, int f, const double *h, const double *gamma,
		       const double *beta, double *mean, double *var,
		       double *xhat, double *y)
{
	for (int j = 0; j < f; j++)
		mean[j] = var[j] = 0;
	for (size_t e = 0; e < n * f; e++)
		mean[e % f] += h[e];
	for (int j = 0; j < f; j++)
		mean[j] /= (double)n;
	for (size_t e = 0; e < n * f; e++) {
		double d = h[e] - mean[e % f];

		var[e % f] += d * d;
	}
	for (int j = 0; j < f; j++)
		var[j] /= (double)n;
	for (size_t e = 0; e < n * f; e++) {
		int j = e % f;

		xhat[e] = (h[e] - mean[j]) / sqrt(var[j] + NB_BN_EPSILON);
		y[e] = gamma[j] * xhat[e] + beta[j];
	}
}

/* Layer l's kept frames (B,keep,H,W,F) of its h (B,T,H,W,F), dense, or back. */
static void kept_frames(const struct layer *L, int batch, int frames, size_t px,
			double *seq, double *dense, bool to_seq)
{
	size_t fsz = px * L->f;

	for (int b = 0; b < batch; b++)
		for (int t = 0; t < L->keep; t++) {
			double *s = seq + ((size_t)b * frames + frames - L->keep + t) * fsz;
			double *d = dense + ((size_t)b * L->keep + t) * fsz;

			memcpy(to_seq ? s : d, to_seq ? d : s, fsz * sizeof(double));
		}
}

/* Layer l's BatchNormalization over (batch, kept frames, H, W) per channel. */
static void bn_forward(const struct nb_ref_params *p, int l, struct layer *L,
		       int batch, int frames)
{
	size_t px = (size_t)p->model.height * p->model.width;

	kept_frames(L, batch, frames, px, L->h, L->xhat, false);
	nb_ref_bn_forward((size_t)batch * L->keep * px, L->f, L->xhat,
			  p->v[nb_tensor_index(l, NB_T_GAMMA)],
			  p->v[nb_tensor_index(l, NB_T_BETA)], L->mean, L->var,
			  L->xhat, L->y);
}

static void layer_forward(const struct nb_ref_params *p, int l, struct layer *L,
			  int batch, int frames)
{
	lstm_forward(p, l, L, batch, frames);
	bn_forward(p, l, L, batch, frames);
}

void nb_ref_bn_backward(size_t n, int f, const double *gamma,
			const double *var, const double *xhat, const double *dy,
			double *dgamma, double *dbeta, double *dh)
{
	for (size_t e = 0; e < n * f; e++) {
		dgamma[e % f] += dy[e] * xhat[e];
		dbeta[e % f] += dy[e];
	}
	for (size_t e = 0; e < n * f; e++) {
		int j = e % f;

		dh[e] = gamma[j] / sqrt(var[j] + NB_BN_EPSILON) *
			(dy[e] - dbeta[j] / (double)n - xhat[e] * dgamma[j] / (double)n);
	}
}

/*
 * BN's backward (training mode: the statistics depend on the input) from
 * dy (B,keep,H,W,F) into dgamma, dbeta and dh (B,T,H,W,F, the kept frames').
 */
static void bn_backward(const struct nb_ref_params *p, int l,
			const struct layer *L, int batch, int frames, size_t px,
			const double *dy, struct nb_ref_params *grad, double *dh)
{
	size_t n = (size_t)batch * L->keep * px;
	double *dense = zalloc(n * L->f, sizeof(double));

	nb_ref_bn_backward(n, L->f, p->v[nb_tensor_index(l, NB_T_GAMMA)], L->var,
			   L->xhat, dy, grad->v[nb_tensor_index(l, NB_T_GAMMA)],
			   grad->v[nb_tensor_index(l, NB_T_BETA)], dense);
	kept_frames(L, batch, frames, px, dh, dense, true);
	free(dense);
}

/*
 * Backpropagation through time of one layer: dh (B,T,H,W,F) from above
 * into its kernels' and bias' gradients, and, when dx is not NULL, into
 * dx (B,T,H,W,cin): the gradient of the layer's input.
 */
static void layer_backward(const struct nb_ref_params *p, int l,
			   const struct layer *L, int batch, int frames,
			   const double *dh_out, struct nb_ref_params *grad,
			   double *dx)
{
	const struct nb_model *m = &p->model;
	int hgt = m->height, wid = m->width, f = L->f, cin = L->cin, g = 4 * f;
	size_t px = (size_t)hgt * wid;
	const double *k = p->v[nb_tensor_index(l, NB_T_KERNEL)];
	const double *u = p->v[nb_tensor_index(l, NB_T_RKERNEL)];
	double *dk = grad->v[nb_tensor_index(l, NB_T_KERNEL)];
	double *du = grad->v[nb_tensor_index(l, NB_T_RKERNEL)];
	double *dbias = grad->v[nb_tensor_index(l, NB_T_BIAS)];
	double *zero = zalloc(px * f, sizeof(double));
	double *dh_rec = zalloc(px * f, sizeof(double));	/* from frame t + 1 */
	double *dc_next = zalloc(px * f, sizeof(double));
	double *dz = zalloc(px * g, sizeof(double));

	for (int b = 0; b < batch; b++) {
		memset(dh_rec, 0, px * f * sizeof(double));
		memset(dc_next, 0, px * f * sizeof(double));
		for (int t = frames - 1; t >= 0; t--) {
			size_t bt = (size_t)b * frames + t;
			const double *z = L->z + bt * px * g;
			const double *c = L->c + bt * px * f;
			const double *hp = t ? L->h + (bt - 1) * px * f : zero;
			const double *cp = t ? c - px * f : zero;
			const double *dho = dh_out + bt * px * f;

			for (size_t s = 0; s < px * f; s++)
				dh_rec[s] += dho[s];	/* dh: from above and through time */
			for (size_t q = 0; q < px; q++)
				nb_ref_gates_bwd(f, z + q * g, c + q * f, cp + q * f,
						 dh_rec + q * f, dc_next + q * f,
						 dz + q * g);
			for (size_t q = 0; q < px; q++)
				for (int o = 0; o < g; o++)
					dbias[o] += dz[q * g + o];
			nb_ref_conv3x3_bwd(hgt, wid, cin, g, L->x + bt * px * cin, k, dz, dk,
				 dx ? dx + bt * px * cin : NULL);
			memset(dh_rec, 0, px * f * sizeof(double));
			nb_ref_conv3x3_bwd(hgt, wid, f, g, hp, u, dz, du, t ? dh_rec : NULL);
		}
	}
	free(zero);
	free(dh_rec);
	free(dc_next);
	free(dz);
}

/*
 * The head's logits from the last layer's output y (B,keep,H,W,F) into
 * out (nb_output_count()); with dout not NULL, instead its backward:
 * dout into the head's gradients and dy.
 */
static void head(const struct nb_ref_params *p, const double *y, int f,
		 int batch, int frames, double *out, const double *dout,
		 struct nb_ref_params *grad, double *dy)
{
	const struct nb_model *m = &p->model;
	int hgt = m->height, wid = m->width, no = m->head_out;
	size_t px = (size_t)hgt * wid;
	int hk = nb_head_kernel_index(m);
	const double *k = p->v[hk], *bias = p->v[hk + 1];

	if (m->head == NB_HEAD_CONV2D) {
		for (int b = 0; b < batch; b++) {
			const double *yb = y + (size_t)b * px * f;

			if (!dout) {
				double *o = out + (size_t)b * px * no;

				for (size_t q = 0; q < px; q++)
					memcpy(o + q * no, bias, no * sizeof(double));
				nb_ref_conv3x3(hgt, wid, f, no, yb, k, o);
				continue;
			}
			const double *d = dout + (size_t)b * px * no;
			for (size_t q = 0; q < px; q++)
				for (int o = 0; o < no; o++)
					grad->v[hk + 1][o] += d[q * no + o];
			nb_ref_conv3x3_bwd(hgt, wid, f, no, yb, k, d, grad->v[hk],
				 dy + (size_t)b * px * f);
		}
		return;
	}
	/* Conv3D(3x3x3, same): frame t sees frames t - 1, t, t + 1 */
	for (int b = 0; b < batch; b++)
		for (int t = 0; t < frames; t++) {
			size_t bt = (size_t)b * frames + t;

			if (!dout)
				for (size_t q = 0; q < px; q++)
					out[bt * px + q] = bias[0];
			else
				for (size_t q = 0; q < px; q++)
					grad->v[hk + 1][0] += dout[bt * px + q];
			for (int kt = 0; kt < 3; kt++) {
				int st = t + kt - 1;

				if (st < 0 || st >= frames)
					continue;
				size_t sbt = (size_t)b * frames + st;
				const double *kk = k + (size_t)kt * 9 * f;

				if (!dout)
					nb_ref_conv3x3(hgt, wid, f, 1, y + sbt * px * f, kk,
						 out + bt * px);
				else
					nb_ref_conv3x3_bwd(hgt, wid, f, 1, y + sbt * px * f, kk,
						 dout + bt * px,
						 grad->v[hk] + (size_t)kt * 9 * f,
						 dy + sbt * px * f);
			}
		}
}

double nb_ref_loss_grad(enum nb_loss kind, const float *target, double *logit,
			size_t nout)
{
	double loss = 0;

	for (size_t e = 0; e < nout; e++) {
		double z = logit[e], y = target[e], s = sigmoid(z);

		if (kind == NB_LOSS_BCE) {
			loss += fmax(z, 0) - z * y + log1p(exp(-fabs(z)));
			logit[e] = (s - y) / (double)nout;
		} else {
			loss += fabs(s - y);
			logit[e] = (s > y ? 1 : s < y ? -1 : 0) * s * (1 - s) /
				(double)nout;
		}
	}
	return loss / (double)nout;
}

double nb_ref_train_loss(const struct nb_ref_params *p, const float *in,
			 const float *target, int batch, int frames,
			 struct nb_ref_params *grad)
{
	const struct nb_model *m = &p->model;
	size_t px = (size_t)m->height * m->width;
	size_t nin = (size_t)batch * frames * px * m->channels;
	size_t nout = nb_output_count(m, batch, frames);
	struct layer L[NB_MAX_LAYERS];
	double *x0 = zalloc(nin, sizeof(double));
	double *logit = zalloc(nout, sizeof(double));
	double loss;

	for (size_t e = 0; e < nin; e++)
		x0[e] = in[e];
	for (int l = 0; l < m->layers; l++) {
		int f = m->filters[l];
		size_t states = (size_t)batch * frames * px * f;

		L[l].cin = nb_layer_cin(m, l);
		L[l].f = f;
		L[l].keep = nb_layer_output_frames(m, l, frames);
		L[l].x = l ? L[l - 1].y : x0;
		L[l].z = zalloc(4 * states, sizeof(double));
		L[l].c = zalloc(states, sizeof(double));
		L[l].h = zalloc(states, sizeof(double));
		L[l].xhat = zalloc((size_t)batch * L[l].keep * px * f, sizeof(double));
		L[l].y = zalloc((size_t)batch * L[l].keep * px * f, sizeof(double));
		L[l].mean = zalloc(f, sizeof(double));
		L[l].var = zalloc(f, sizeof(double));
		layer_forward(p, l, &L[l], batch, frames);
	}
	const struct layer *last = &L[m->layers - 1];
	head(p, last->y, last->f, batch, frames, logit, NULL, NULL, NULL);

	loss = nb_ref_loss_grad(nb_model_loss(m), target, logit, nout);

	if (grad) {
		for (int i = 0; i < grad->n; i++)
			memset(grad->v[i], 0, grad->count[i] * sizeof(double));
		double *dy = zalloc((size_t)batch * last->keep * px * last->f,
				    sizeof(double));
		head(p, last->y, last->f, batch, frames, NULL, logit, grad, dy);
		for (int l = m->layers - 1; l >= 0; l--) {
			size_t states = (size_t)batch * frames * px * L[l].f;
			double *dh = zalloc(states, sizeof(double));
			double *dx = l ? zalloc((size_t)batch * frames * px * L[l].cin,
						sizeof(double)) : NULL;

			bn_backward(p, l, &L[l], batch, frames, px, dy, grad, dh);
			layer_backward(p, l, &L[l], batch, frames, dh, grad, dx);
			memcpy(grad->v[nb_tensor_index(l, NB_T_MEAN)], L[l].mean,
			       L[l].f * sizeof(double));
			memcpy(grad->v[nb_tensor_index(l, NB_T_VAR)], L[l].var,
			       L[l].f * sizeof(double));
			free(dh);
			free(dy);
			dy = dx;	/* the layer below returns every frame */
		}
		free(dy);
	}
	for (int l = 0; l < m->layers; l++) {
		free(L[l].z);
		free(L[l].c);
		free(L[l].h);
		free(L[l].xhat);
		free(L[l].y);
		free(L[l].mean);
		free(L[l].var);
	}
	free(x0);
	free(logit);
	return loss;
}

int nb_ref_adam_init(struct nb_ref_adam *a, const struct nb_model *m)
{
	a->step = 0;
	a->m = nb_ref_params_alloc(m);
	a->v = nb_ref_params_alloc(m);
	if (!a->m || !a->v) {
		nb_ref_adam_free(a);
		return -1;
	}
	return 0;
}

void nb_ref_adam_free(struct nb_ref_adam *a)
{
	nb_ref_params_free(a->m);
	nb_ref_params_free(a->v);
	a->m = a->v = NULL;
}

void nb_ref_adam_apply(struct nb_ref_adam *a, struct nb_ref_params *p,
		       const struct nb_ref_params *g)
{
	a->step++;
	double alpha = NB_ADAM_LR * sqrt(1 - pow(NB_ADAM_BETA2, (double)a->step)) /
		(1 - pow(NB_ADAM_BETA1, (double)a->step));

	for (int i = 0; i < p->n; i++) {
		double *v = p->v[i];
		const double *gi = g->v[i];

		if (!nb_tensor_trained(i)) {
			for (size_t e = 0; e < p->count[i]; e++)
				v[e] = v[e] * NB_BN_MOMENTUM +
					gi[e] * (1 - NB_BN_MOMENTUM);
			continue;
		}
		double *mi = a->m->v[i], *vi = a->v->v[i];
		for (size_t e = 0; e < p->count[i]; e++) {
			mi[e] += (gi[e] - mi[e]) * (1 - NB_ADAM_BETA1);
			vi[e] += (gi[e] * gi[e] - vi[e]) * (1 - NB_ADAM_BETA2);
			v[e] -= alpha * mi[e] / (sqrt(vi[e]) + NB_ADAM_EPSILON);
		}
	}
}

double nb_ref_train_step(struct nb_weights *w, struct nb_ref_adam *a,
			 const float *in, const float *target, int batch,
			 int frames, struct nb_ref_params *grad)
{
	struct nb_ref_params *p = nb_ref_params_alloc(&w->model);
	struct nb_ref_params *g = grad ? grad : nb_ref_params_alloc(&w->model);
	double loss = NAN;

	if (p && g) {
		nb_ref_params_from(p, w);
		loss = nb_ref_train_loss(p, in, target, batch, frames, g);
		nb_ref_adam_apply(a, p, g);
		nb_ref_params_to(p, w);
	}
	nb_ref_params_free(p);
	if (g != grad)
		nb_ref_params_free(g);
	return loss;
}

double nb_flops_train(const struct nb_model *m, int batch, int frames)
{
	double px = (double)m->height * m->width, sum = 0;
	int f = m->filters[m->layers - 1];

	for (int l = 0; l < m->layers; l++) {
		double cin = nb_layer_cin(m, l), fl = m->filters[l];
		double in = 2 * px * 9 * cin * 4 * fl, rec = 2 * px * 9 * fl * 4 * fl;

		sum += frames * (in + rec);		/* forward */
		sum += frames * in * (l ? 2 : 1);	/* dK, and dx above layer 0 */
		sum += (frames - 1) * 2 * rec;		/* dU and dh */
	}
	if (m->head == NB_HEAD_CONV3D)
		sum += 3 * 2 * px * 27 * f * m->head_out * frames;
	else
		sum += 3 * 2 * px * 9 * f * m->head_out;
	return sum * batch;
}
