// SPDX-License-Identifier: MIT
/*
 * Runs the kernels of hip/kernels/ on the CPU as plain C, one fiber
 * (ucontext) per GPU thread, and validates them against the engine's
 * reference with the checks of tests/hip/cases.h. A block runs at a time;
 * its fibers run in turn, each up to its next __syncthreads(), so every
 * thread runs ahead of all the later ones as far as the barriers allow:
 * a missing read-after-write barrier shows (a thread reads what the later
 * ones have not written yet), and so does a missing write-after-read one
 * (a thread overwrites what the later ones have not read yet), which PoCL
 * does not show. Deterministic: the same order every run. Also checks
 * that every thread of a block reaches the same barriers.
 *
 *   fibers                  every check, TAP lines on stdout
 *   fibers step|mono|color  one check (for a mutated kernel source):
 *                           prints "valid" or "invalid" and the max error
 *   fibers diverge          where the forward pass first leaves the
 *                           reference, layer by layer (cases.h): "found
 *                           layer L frame T item I y Y x X channel C kind
 *                           jump|gradual ..." or "none: why"
 *
 * A planted kernel fault, for the tests of that diagnosis (test builds
 * only): -DNBK_PLANT_LAYER=L -DNBK_PLANT_FRAME=T -DNBK_PLANT_Y=Y
 * -DNBK_PLANT_X=X -DNBK_PLANT_CHANNEL=C makes the step of layer L at frame
 * T leave one wrong value, at (Y, X, C) of batch item 0: its h is off by
 * NBK_PLANT_DELTA (default 0.25) and its BN output y by as much times the
 * channel's BN scale, as a kernel that computed that h wrong would leave
 * them. Every later step and layer computes from it as it would on a GPU.
 */
#include <ucontext.h>

#include "cases.h"
#include "kernels/convlstm.hip"
#include "kernels/heads.hip"
#include "kernels/train.hip"

#define MAX_THREADS 1024
#define STACK_BYTES (64 * 1024)

struct nbk_dim3 threadIdx, blockIdx, blockDim, gridDim;

static ucontext_t sched, fib[MAX_THREADS];
static char *stacks;
static int nthreads, cur, done[MAX_THREADS];
static long barriers[MAX_THREADS];
static void (*body)(void);	/* the kernel, with the launch's arguments */

void nbk_fiber_barrier(void)
{
	barriers[cur]++;
	swapcontext(&fib[cur], &sched);
}

static void entry(void)
{
	body();
	done[cur] = 1;	/* then uc_link: back to the scheduler */
}

/* After a round every live fiber must wait at the same barrier. */
static void check_uniform(void)
{
	int live = -1;

	for (int t = 0; t < nthreads; t++) {
		int bad = live >= 0 && (done[t] != done[live] ||
					barriers[t] != barriers[live]);

		if (bad) {
			fprintf(stderr, "fibers: block (%u, %u, %u): threads %d and %d are at different barriers (%ld%s, %ld%s)\n",
				blockIdx.x, blockIdx.y, blockIdx.z, live, t,
				barriers[live], done[live] ? ", returned" : "",
				barriers[t], done[t] ? ", returned" : "");
			exit(1);
		}
		live = t;
	}
}

static void run_block(void)
{
	for (int t = 0; t < nthreads; t++) {
		getcontext(&fib[t]);
		fib[t].uc_stack.ss_sp = stacks + (size_t)t * STACK_BYTES;
		fib[t].uc_stack.ss_size = STACK_BYTES;
		fib[t].uc_link = &sched;
		makecontext(&fib[t], entry, 0);
		done[t] = 0;
		barriers[t] = 0;
	}
	/* a round: each fiber in turn up to its next barrier, or its end */
	do {
		for (int t = 0; t < nthreads; t++) {
			cur = t;
			threadIdx.x = t;
			swapcontext(&sched, &fib[t]);
		}
		check_uniform();
	} while (!done[0]);
}

static void launch(struct nbk_geom g, void (*fn)(void))
{
	if (g.block > MAX_THREADS)
		abort();
	body = fn;
	gridDim = (struct nbk_dim3){ g.grid[0], g.grid[1], g.grid[2] };
	blockDim = (struct nbk_dim3){ g.block, 1, 1 };
	threadIdx = (struct nbk_dim3){ 0, 0, 0 };
	nthreads = g.block;
	for (unsigned int z = 0; z < g.grid[2]; z++)
		for (unsigned int y = 0; y < g.grid[1]; y++)
			for (unsigned int x = 0; x < g.grid[0]; x++) {
				blockIdx = (struct nbk_dim3){ x, y, z };
				run_block();
			}
}

/* ---- launchers: hip/nbk.cpp's arguments ---- */

static const struct nbk_step *step_args;

static void step_body(void)
{
	const struct nbk_step *p = step_args;

	nbk_step_kernel(p->x, (long)p->x_batch_stride, p->h_in, p->c_in,
			p->h_out, p->c_out, p->w, p->bn_scale, p->bn_shift,
			p->y, (long)p->y_batch_stride, p->height, p->width,
			p->cin, p->filters, p->h_in != NULL, p->c_in != NULL,
			p->y != NULL);
}

#ifdef NBK_PLANT_LAYER
#ifndef NBK_PLANT_DELTA
#define NBK_PLANT_DELTA 0.25f
#endif
static void plant_fault(const struct nbk_step *p)
{
	size_t e = ((size_t)NBK_PLANT_Y * p->width + NBK_PLANT_X) * p->filters + NBK_PLANT_CHANNEL;

	if (step_layer != NBK_PLANT_LAYER || step_frame != NBK_PLANT_FRAME)
		return;
	p->h_out[e] += NBK_PLANT_DELTA;
	if (p->y)
		p->y[e] += NBK_PLANT_DELTA * p->bn_scale[NBK_PLANT_CHANNEL];
}
#else
static void plant_fault(const struct nbk_step *p)
{
	(void)p;
}
#endif

static void step(const struct nbk_step *p)
{
	step_args = p;
	launch(nbk_step_geom(NBK_FAMILY, p->batch, p->height, p->width,
			     p->filters), step_body);
	plant_fault(p);
}

static struct {
	int b, t, h, w, c, o;
	const float *in, *kernel, *bias;
	float *out;
} head_args;

static void head3d_body(void)
{
	nbk_conv3d_head_kernel(head_args.in, head_args.kernel, head_args.bias,
			       head_args.out, head_args.t, head_args.h,
			       head_args.w, head_args.c);
}

static void head2d_body(void)
{
	nbk_conv2d_head_kernel(head_args.in, head_args.kernel, head_args.bias,
			       head_args.out, head_args.h, head_args.w,
			       head_args.c, head_args.o);
}

static void head3d(int b, int t, int h, int w, int c, const float *in,
		   const float *kernel, const float *bias, float *out)
{
	head_args.b = b, head_args.t = t, head_args.h = h, head_args.w = w;
	head_args.c = c, head_args.in = in, head_args.kernel = kernel;
	head_args.bias = bias, head_args.out = out;
	launch(nbk_head_geom((size_t)b * t, h, w), head3d_body);
}

static void head2d(int b, int h, int w, int c, int o, const float *in,
		   const float *kernel, const float *bias, float *out)
{
	head_args.b = b, head_args.h = h, head_args.w = w, head_args.c = c;
	head_args.o = o, head_args.in = in, head_args.kernel = kernel;
	head_args.bias = bias, head_args.out = out;
	launch(nbk_head_geom(b, h, w), head2d_body);
}

/* train.hip's launches: the arguments of the one running */
static struct {
	const struct nbk_conv *conv;
	struct nbk_tconv_map map;
	const float *bias;
	const struct nbk_bn *bn;
	const struct nbk_gates *gates;
	const float *x, *y;
	float *out, *aux, *sum, *m, *v;
	long n, m_count;
	int c, flag;
	float f[4];
} ta;

static void tconv_body(void)
{
	const struct nbk_conv *p = ta.conv;
	const struct nbk_tconv_map a = ta.map;
	const int tr = a.dir < 0;

	nbk_tconv_kernel(tr ? p->z : p->x,
			 (long)(tr ? p->z_batch_stride : p->x_batch_stride),
			 p->k, a.kt, a.kc, a.ka, a.dir, ta.bias, tr ? p->x : p->z,
			 (long)(tr ? p->x_batch_stride : p->z_batch_stride),
			 p->frames, a.shift, p->height, p->width, a.ci, a.co,
			 p->accumulate, ta.n);
}

static void tconv(const struct nbk_conv *p, const float *bias, int tr)
{
	ta.conv = p;
	ta.bias = bias;
	ta.map = nbk_tconv_map(p->cin, p->cout, p->shift, tr);
	ta.n = (long)p->batch * p->frames * p->height * p->width * ta.map.co;
	launch(nbk_train_geom(ta.n), tconv_body);
}

static void conv_fwd(const struct nbk_conv *p, const float *bias)
{
	tconv(p, bias, 0);
}

static void conv_bwd_x(const struct nbk_conv *p)
{
	tconv(p, NULL, 1);
}

static void wgrad_body(void)
{
	const struct nbk_conv *p = ta.conv;

	nbk_wgrad_kernel(p->x, (long)p->x_batch_stride, p->z,
			 (long)p->z_batch_stride, p->k, p->batch, p->frames,
			 p->shift, p->height, p->width, p->cin, p->cout,
			 p->accumulate);
}

static void conv_bwd_k(const struct nbk_conv *p)
{
	ta.conv = p;
	launch(nbk_sums_geom((size_t)9 * p->cin * p->cout), wgrad_body);
}

static void csum_body(void)
{
	nbk_chan_sum_kernel(ta.x, ta.n, ta.c, ta.out, ta.flag);
}

static void chan_sum(const float *x, size_t rows, int channels, float *out,
		     int accumulate)
{
	ta.x = x, ta.n = (long)rows, ta.c = channels, ta.out = out;
	ta.flag = accumulate;
	launch(nbk_sums_geom(channels), csum_body);
}

static void bnstats_body(void)
{
	const struct nbk_bn *p = ta.bn;

	nbk_bn_stats_kernel(p->h, (long)p->item_stride, p->items, (long)p->rows,
			    p->filters, p->mean, p->var);
}

static void bnfwd_body(void)
{
	const struct nbk_bn *p = ta.bn;

	nbk_bn_fwd_kernel(p->h, (long)p->item_stride, (long)p->rows, p->filters,
			  p->mean, p->var, p->gamma, p->beta, p->eps, p->y, ta.n);
}

static void bn_train_fwd(const struct nbk_bn *p)
{
	ta.bn = p;
	ta.n = (long)p->items * p->rows * p->filters;
	launch(nbk_sums_geom(p->filters), bnstats_body);
	launch(nbk_train_geom(ta.n), bnfwd_body);
}

static void bnsums_body(void)
{
	const struct nbk_bn *p = ta.bn;

	nbk_bn_bwd_sums_kernel(p->h, (long)p->item_stride, p->items,
			       (long)p->rows, p->filters, p->mean, p->var,
			       p->eps, p->dy, p->dgamma, p->dbeta);
}

static void bnbwd_body(void)
{
	const struct nbk_bn *p = ta.bn;

	nbk_bn_bwd_kernel(p->h, (long)p->item_stride, (long)p->rows, p->filters,
			  p->mean, p->var, p->eps, p->gamma, p->dy, p->dgamma,
			  p->dbeta, p->dh, ta.n);
}

static void bn_bwd(const struct nbk_bn *p)
{
	ta.bn = p;
	ta.n = (long)p->items * p->rows * p->filters;
	launch(nbk_sums_geom(p->filters), bnsums_body);
	launch(nbk_train_geom(ta.n), bnbwd_body);
}

static void gfwd_body(void)
{
	const struct nbk_gates *p = ta.gates;

	nbk_gates_fwd_kernel(p->z, (long)p->z_batch_stride, p->c_prev,
			     p->c_prev != NULL, p->c, p->h,
			     (long)p->state_batch_stride, p->filters,
			     ta.m_count, ta.n);
}

static void gbwd_body(void)
{
	const struct nbk_gates *p = ta.gates;

	nbk_gates_bwd_kernel(p->z, (long)p->z_batch_stride, p->c, p->c_prev,
			     p->c_prev != NULL, (long)p->state_batch_stride,
			     p->dh_out, p->dh_out != NULL, p->dh_rec,
			     p->dh_rec != NULL, p->dc, p->dc_in, p->dz,
			     p->filters, ta.m_count, ta.n);
}

static void gates(const struct nbk_gates *p, void (*body)(void))
{
	ta.gates = p;
	ta.m_count = (long)p->height * p->width * p->filters;
	ta.n = ta.m_count * p->batch;
	launch(nbk_train_geom(ta.n), body);
}

static void gates_fwd(const struct nbk_gates *p)
{
	gates(p, gfwd_body);
}

static void gates_bwd(const struct nbk_gates *p)
{
	gates(p, gbwd_body);
}

static void loss_body(void)
{
	nbk_loss_kernel(ta.x, ta.y, ta.flag, ta.out, ta.aux, ta.n);
}

static void loss(int bce, size_t n, const float *logit, const float *target,
		 float *grad, float *terms, float *sum)
{
	ta.x = logit, ta.y = target, ta.flag = bce, ta.out = grad;
	ta.aux = terms, ta.n = (long)n;
	launch(nbk_train_geom(n), loss_body);
	chan_sum(terms, n, 1, sum, 0);
}

static void adam_body(void)
{
	nbk_adam_kernel(ta.out, ta.x, ta.m, ta.v, ta.f[0], ta.f[1], ta.f[2],
			ta.f[3], ta.n);
}

static void adam(size_t n, float *p, const float *g, float *m, float *v,
		 long step, double lr, double beta1, double beta2, double eps)
{
	ta.out = p, ta.x = g, ta.m = m, ta.v = v, ta.n = (long)n;
	ta.f[0] = nbk_adam_alpha(step, lr, beta1, beta2);
	ta.f[1] = (float)(1 - beta1);
	ta.f[2] = (float)(1 - beta2);
	ta.f[3] = (float)eps;
	launch(nbk_train_geom(n), adam_body);
}

static void moving_body(void)
{
	nbk_moving_kernel(ta.out, ta.x, ta.f[0], ta.n);
}

static void moving_average(size_t n, float *avg, const float *stat,
			   double momentum)
{
	ta.out = avg, ta.x = stat, ta.f[0] = (float)momentum, ta.n = (long)n;
	launch(nbk_train_geom(n), moving_body);
}

static float *dev_alloc(size_t n)
{
	float *p = malloc((n ? n : 1) * sizeof(float));

	if (!p)
		abort();
	return p;
}

static void dev_free(float *p)
{
	free(p);
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*check)(double *err);
	} one[] = {
		{ "step", mut_step }, { "mono", mut_mono }, { "color", mut_color },
		{ "train", mut_train },
	};
	double t0 = now();

	stacks = malloc((size_t)MAX_THREADS * STACK_BYTES);
	if (!stacks)
		abort();
	if (argc == 2 && !strcmp(argv[1], "diverge")) {
		struct nb_divergence d;

		diverge_locate(&d);
		if (d.found)
			printf("found layer %d frame %d item %d y %d x %d channel %d kind %s value %.7g reference %.7g tolerance %.3g before %.2g\n",
			       d.layer, d.frame, d.item, d.y, d.x, d.channel,
			       d.jump ? "jump" : "gradual", d.value, d.ref, d.tol, d.max_before);
		else
			printf("none: %s\n", d.note);
		return 0;
	}
	if (argc == 2) {
		for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
			if (!strcmp(argv[1], one[i].name)) {
				double err;
				int valid = one[i].check(&err);

				printf("%s %.1e\n", valid ? "valid" : "invalid", err);
				return 0;
			}
	}
	if (argc != 1) {
		fprintf(stderr, "usage: %s [step|mono|color|train|diverge]\n", argv[0]);
		return 2;
	}
	test_cells();
	test_forward();
	test_diverge();
	/* the training kernels take no tile parameters: one family checks them */
	if (NBK_FAMILY == NBK_FAMILY_NV)
		test_train();
	printf("# %d tests, %d failed, %.1f s\n", tap_count(), tap_failed, now() - t0);
	return tap_done(NULL);
}
