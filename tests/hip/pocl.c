// SPDX-License-Identifier: MIT
/*
 * Runs the kernels of hip/kernels/ on the CPU through OpenCL (PoCL) and
 * validates them against the engine's reference (user/engine/refmodel.c): the
 * ConvLSTM step at odd shapes, whole forward passes of both models chained
 * per layer and per time step as the plugin chains them, fp32-peak and the
 * triad; and a mutation: the step kernel with its read-after-write barrier
 * removed must fail validation. TAP lines on stdout.
 *
 *   pocl KERNEL_DIR [BUILD_OPTIONS]
 *
 * BUILD_OPTIONS: the target family whose tile parameters the kernels take
 * (-DNBK_FAMILY=0: nbk_layout.h), the same as this program was compiled
 * with, since its launch geometry comes from the same table.
 *
 * The kernel source is the HIP source itself, compiled as OpenCL C 1.2 by
 * PoCL's clang, with hip/kernels/nbk_dev.h mapping HIP's spelling. Device
 * memory is fine-grained shared virtual memory, so that a tensor is passed
 * as a pointer into another, as hip/nbk.h does (a time step of a sequence).
 * The launch geometry and weight packing are hip/kernels/nbk_layout.h's,
 * the same as hip/nbk.cpp's.
 */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include "cases.h"


static cl_context ctx;
static cl_command_queue queue;
static cl_device_id dev;
static cl_kernel k_step, k_head3d, k_head2d, k_peak, k_triad;
static cl_kernel k_tconv, k_wgrad, k_csum, k_bnstats, k_bnfwd, k_bnsums, k_bnbwd,
	k_gfwd, k_gbwd, k_loss, k_adam, k_moving;
static cl_kernel *const train_kernels[] = {
	&k_tconv, &k_wgrad, &k_csum, &k_bnstats, &k_bnfwd, &k_bnsums, &k_bnbwd,
	&k_gfwd, &k_gbwd, &k_loss, &k_adam, &k_moving,
};
static void die(const char *what, cl_int e)
{
	fprintf(stderr, "pocl: %s: OpenCL error %d\n", what, e);
	exit(1);
}

#define CL_OK(call) do { cl_int e_ = (call); if (e_ != CL_SUCCESS) die(#call, e_); } while (0)

static float *svm(size_t n)
{
	float *p = clSVMAlloc(ctx, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER,
			      (n ? n : 1) * sizeof(float), 0);

	if (!p) {
		fprintf(stderr, "pocl: clSVMAlloc of %zu floats failed\n", n);
		exit(1);
	}
	return p;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	if (!f) {
		perror(path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = malloc(n + 1);
	if (!s || fread(s, 1, n, f) != (size_t)n) {
		fprintf(stderr, "pocl: cannot read %s\n", path);
		exit(1);
	}
	s[n] = 0;
	fclose(f);
	return s;
}

/*
 * A mutation: one barrier removed from the source text, which a check
 * must then notice. The barrier is found by the comment that follows it.
 */
struct mutation {
	int file;		/* index in files[] */
	const char *comment;	/* "read-after-write" */
	int nth;		/* its occurrence in that file, from 1 */
	const char *what;
	int (*check)(double *err);	/* 1: valid */
};

static const char *const files[] = {
	"convlstm.hip", "heads.hip", "micro.hip", "train.hip",
};
#define NFILES (int)(sizeof(files) / sizeof(files[0]))

static void mutate(char **src, const struct mutation *m)
{
	char needle[128];
	char *p = src[m->file];

	snprintf(needle, sizeof(needle), "__syncthreads();\t/* %s", m->comment);
	for (int i = 0; p && i < m->nth; i++)
		p = strstr(i ? p + 1 : p, needle);
	if (!p) {
		fprintf(stderr, "pocl: no barrier %d before \"/* %s\" in %s\n",
			m->nth, m->comment, files[m->file]);
		exit(1);
	}
	size_t n = strlen("__syncthreads();");

	memset(p, ' ', n - 1);	/* the same length: line numbers stay */
	p[n - 1] = ';';
}

/* Builds the kernels, with mutation m when it is not NULL. */
static cl_program build(const char *dir, const char *tune,
			const struct mutation *m, double *secs)
{
	char *src[NFILES], path[4096], opts[8400], log[16384];
	cl_program prog;
	cl_int e;

	for (int i = 0; i < NFILES; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		src[i] = slurp(path);
	}
	if (m)
		mutate(src, m);
	double t0 = now();

	prog = clCreateProgramWithSource(ctx, NFILES, (const char **)src, NULL, &e);
	if (e != CL_SUCCESS)
		die("clCreateProgramWithSource", e);
	snprintf(opts, sizeof(opts), "-cl-std=CL1.2 -Werror -I%s %s", dir, tune);
	e = clBuildProgram(prog, 1, &dev, opts, NULL, NULL);
	*secs = now() - t0;
	if (e != CL_SUCCESS) {
		clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof(log), log, NULL);
		fprintf(stderr, "pocl: the kernels do not build as OpenCL C:\n%s\n", log);
		exit(1);
	}
	for (int i = 0; i < NFILES; i++)
		free(src[i]);
	return prog;
}

static void kernels(cl_program prog)
{
	cl_int e;

#define K(var, name) var = clCreateKernel(prog, name, &e); if (e) die("clCreateKernel " name, e)
	K(k_step, "nbk_step_kernel");
	K(k_head3d, "nbk_conv3d_head_kernel");
	K(k_head2d, "nbk_conv2d_head_kernel");
	K(k_peak, "nbk_fma_peak_kernel");
	K(k_triad, "nbk_triad_kernel");
	K(k_tconv, "nbk_tconv_kernel");
	K(k_wgrad, "nbk_wgrad_kernel");
	K(k_csum, "nbk_chan_sum_kernel");
	K(k_bnstats, "nbk_bn_stats_kernel");
	K(k_bnfwd, "nbk_bn_fwd_kernel");
	K(k_bnsums, "nbk_bn_bwd_sums_kernel");
	K(k_bnbwd, "nbk_bn_bwd_kernel");
	K(k_gfwd, "nbk_gates_fwd_kernel");
	K(k_gbwd, "nbk_gates_bwd_kernel");
	K(k_loss, "nbk_loss_kernel");
	K(k_adam, "nbk_adam_kernel");
	K(k_moving, "nbk_moving_kernel");
#undef K

}

/* ---- launchers: the argument lists of hip/nbk.cpp's ---- */

static void arg_ptr(cl_kernel k, int *i, const void *p)
{
	CL_OK(clSetKernelArgSVMPointer(k, (*i)++, p));
}

static void arg(cl_kernel k, int *i, size_t size, const void *v)
{
	CL_OK(clSetKernelArg(k, (*i)++, size, v));
}

static void launch(cl_kernel k, struct nbk_geom g)
{
	size_t gl[3] = { (size_t)g.grid[0] * g.block, g.grid[1], g.grid[2] };
	size_t lo[3] = { g.block, 1, 1 };

	CL_OK(clEnqueueNDRangeKernel(queue, k, 3, NULL, gl, lo, 0, NULL, NULL));
	CL_OK(clFinish(queue));
}

static void step(const struct nbk_step *p)
{
	int i = 0;
	long xs = (long)p->x_batch_stride, ys = (long)p->y_batch_stride;
	int has_h = p->h_in != NULL, has_c = p->c_in != NULL, has_y = p->y != NULL;

	arg_ptr(k_step, &i, p->x);
	arg(k_step, &i, sizeof(long), &xs);
	arg_ptr(k_step, &i, p->h_in);
	arg_ptr(k_step, &i, p->c_in);
	arg_ptr(k_step, &i, p->h_out);
	arg_ptr(k_step, &i, p->c_out);
	arg_ptr(k_step, &i, p->w);
	arg_ptr(k_step, &i, p->bn_scale);
	arg_ptr(k_step, &i, p->bn_shift);
	arg_ptr(k_step, &i, p->y);
	arg(k_step, &i, sizeof(long), &ys);
	arg(k_step, &i, sizeof(int), &p->height);
	arg(k_step, &i, sizeof(int), &p->width);
	arg(k_step, &i, sizeof(int), &p->cin);
	arg(k_step, &i, sizeof(int), &p->filters);
	arg(k_step, &i, sizeof(int), &has_h);
	arg(k_step, &i, sizeof(int), &has_c);
	arg(k_step, &i, sizeof(int), &has_y);
	launch(k_step, nbk_step_geom(NBK_FAMILY, p->batch, p->height, p->width,
				     p->filters));
}

static void head3d(int b, int t, int h, int w, int c, const float *in,
		   const float *kernel, const float *bias, float *out)
{
	int i = 0;

	arg_ptr(k_head3d, &i, in);
	arg_ptr(k_head3d, &i, kernel);
	arg_ptr(k_head3d, &i, bias);
	arg_ptr(k_head3d, &i, out);
	arg(k_head3d, &i, sizeof(int), &t);
	arg(k_head3d, &i, sizeof(int), &h);
	arg(k_head3d, &i, sizeof(int), &w);
	arg(k_head3d, &i, sizeof(int), &c);
	launch(k_head3d, nbk_head_geom((size_t)b * t, h, w));
}

static void head2d(int b, int h, int w, int c, int o, const float *in,
		   const float *kernel, const float *bias, float *out)
{
	int i = 0;

	arg_ptr(k_head2d, &i, in);
	arg_ptr(k_head2d, &i, kernel);
	arg_ptr(k_head2d, &i, bias);
	arg_ptr(k_head2d, &i, out);
	arg(k_head2d, &i, sizeof(int), &h);
	arg(k_head2d, &i, sizeof(int), &w);
	arg(k_head2d, &i, sizeof(int), &c);
	arg(k_head2d, &i, sizeof(int), &o);
	launch(k_head2d, nbk_head_geom(b, h, w));
}

/*
 * A launch of train.hip's kernel k: its arguments by sig, a letter each
 * (p: pointer, l: long, i: int, f: float, passed as double).
 */
static void run_sig(cl_kernel k, struct nbk_geom g, const char *sig, ...)
{
	va_list ap;
	int i = 0;

	va_start(ap, sig);
	for (const char *c = sig; *c; c++) {
		long l;
		int n;
		float f;

		switch (*c) {
		case 'p':
			arg_ptr(k, &i, va_arg(ap, const void *));
			break;
		case 'l':
			l = va_arg(ap, long);
			arg(k, &i, sizeof(l), &l);
			break;
		case 'i':
			n = va_arg(ap, int);
			arg(k, &i, sizeof(n), &n);
			break;
		default:
			f = (float)va_arg(ap, double);
			arg(k, &i, sizeof(f), &f);
		}
	}
	va_end(ap);
	launch(k, g);
}

static void tconv(const struct nbk_conv *p, const float *bias, int tr)
{
	struct nbk_tconv_map a = nbk_tconv_map(p->cin, p->cout, p->shift, tr);
	long n = (long)p->batch * p->frames * p->height * p->width * a.co;

	run_sig(k_tconv, nbk_train_geom(n), "plpiiiippliiiiiiil",
		tr ? p->z : p->x,
		(long)(tr ? p->z_batch_stride : p->x_batch_stride), p->k, a.kt,
		a.kc, a.ka, a.dir, bias, tr ? p->x : p->z,
		(long)(tr ? p->x_batch_stride : p->z_batch_stride), p->frames,
		a.shift, p->height, p->width, a.ci, a.co, p->accumulate, n);
}

static void conv_fwd(const struct nbk_conv *p, const float *bias)
{
	tconv(p, bias, 0);
}

static void conv_bwd_x(const struct nbk_conv *p)
{
	tconv(p, NULL, 1);
}

static void conv_bwd_k(const struct nbk_conv *p)
{
	run_sig(k_wgrad, nbk_sums_geom((size_t)9 * p->cin * p->cout),
		"plplpiiiiiiii", p->x, (long)p->x_batch_stride, p->z,
		(long)p->z_batch_stride, p->k, p->batch, p->frames, p->shift,
		p->height, p->width, p->cin, p->cout, p->accumulate);
}

static void chan_sum(const float *x, size_t rows, int channels, float *out,
		     int accumulate)
{
	run_sig(k_csum, nbk_sums_geom(channels), "plipi", x, (long)rows,
		channels, out, accumulate);
}

static void bn_train_fwd(const struct nbk_bn *p)
{
	long n = (long)p->items * p->rows * p->filters;

	run_sig(k_bnstats, nbk_sums_geom(p->filters), "plilipp", p->h,
		(long)p->item_stride, p->items, (long)p->rows, p->filters,
		p->mean, p->var);
	run_sig(k_bnfwd, nbk_train_geom(n), "pllippppfpl", p->h,
		(long)p->item_stride, (long)p->rows, p->filters, p->mean,
		p->var, p->gamma, p->beta, (double)p->eps, p->y, n);
}

static void bn_bwd(const struct nbk_bn *p)
{
	long n = (long)p->items * p->rows * p->filters;

	run_sig(k_bnsums, nbk_sums_geom(p->filters), "plilippfppp", p->h,
		(long)p->item_stride, p->items, (long)p->rows, p->filters,
		p->mean, p->var, (double)p->eps, p->dy, p->dgamma, p->dbeta);
	run_sig(k_bnbwd, nbk_train_geom(n), "pllippfpppppl", p->h,
		(long)p->item_stride, (long)p->rows, p->filters, p->mean,
		p->var, (double)p->eps, p->gamma, p->dy, p->dgamma, p->dbeta,
		p->dh, n);
}

static void gates_fwd(const struct nbk_gates *p)
{
	long m = (long)p->height * p->width * p->filters, n = m * p->batch;

	run_sig(k_gfwd, nbk_train_geom(n), "plpipplill", p->z,
		(long)p->z_batch_stride, p->c_prev, p->c_prev != NULL, p->c,
		p->h, (long)p->state_batch_stride, p->filters, m, n);
}

static void gates_bwd(const struct nbk_gates *p)
{
	long m = (long)p->height * p->width * p->filters, n = m * p->batch;

	run_sig(k_gbwd, nbk_train_geom(n), "plppilpipipipill", p->z,
		(long)p->z_batch_stride, p->c, p->c_prev, p->c_prev != NULL,
		(long)p->state_batch_stride, p->dh_out, p->dh_out != NULL,
		p->dh_rec, p->dh_rec != NULL, p->dc, p->dc_in, p->dz,
		p->filters, m, n);
}

static void loss(int bce, size_t n, const float *logit, const float *target,
		 float *grad, float *terms, float *sum)
{
	run_sig(k_loss, nbk_train_geom(n), "ppippl", logit, target, bce, grad,
		terms, (long)n);
	chan_sum(terms, n, 1, sum, 0);
}

static void adam(size_t n, float *p, const float *g, float *m, float *v,
		 long step, double lr, double beta1, double beta2, double eps)
{
	run_sig(k_adam, nbk_train_geom(n), "ppppffffl", p, g, m, v,
		(double)nbk_adam_alpha(step, lr, beta1, beta2),
		(double)(float)(1 - beta1), (double)(float)(1 - beta2),
		(double)(float)eps, (long)n);
}

static void moving_average(size_t n, float *avg, const float *stat,
			   double momentum)
{
	run_sig(k_moving, nbk_train_geom(n), "ppfl", avg, stat,
		(double)(float)momentum, (long)n);
}

static float *dev_alloc(size_t n)
{
	return svm(n);
}

static void dev_free(float *p)
{
	clSVMFree(ctx, p);
}

static void test_peak(void)
{
	const int blocks = 3, threads = NBK_PEAK_THREADS;
	const long iters = 20003;	/* not a multiple of the unrolling */
	const float m = 0.9999f, k = 0.01f, step0 = 0;
	float *out = svm(blocks * threads), expect = 1.0f;
	size_t bad = 0;
	int i = 0;

	arg_ptr(k_peak, &i, out);
	arg(k_peak, &i, sizeof(long), &iters);
	arg(k_peak, &i, sizeof(float), &m);
	arg(k_peak, &i, sizeof(float), &k);
	arg(k_peak, &i, sizeof(float), &step0);
	launch(k_peak, (struct nbk_geom){ { blocks, 1, 1 }, threads });
	for (long n = 0; n < iters; n++)
		expect = fmaf(expect, m, k);
	for (int n = 0; n < blocks * threads; n++)
		bad += out[n] != expect;
	tap(bad == 0, "fp32-peak: every lane of %d x %d threads equals fmaf() after %ld iterations (%zu differ)",
	    blocks, threads, iters, bad);
	clSVMFree(ctx, out);
}

static void test_triad(void)
{
	/* more than the grid's threads: the grid-stride loop goes round */
	const size_t n = (size_t)4096 * NBK_TRIAD_THREADS * 2 + 77;
	float *a = svm(n), *b = svm(n), *c = svm(n), s = 0.5f;
	long ln = (long)n;
	size_t bad = 0;
	int i = 0;

	for (size_t j = 0; j < n; j++) {
		a[j] = -1;
		b[j] = (float)(j & 1023);
		c[j] = (float)(j & 7);
	}
	arg_ptr(k_triad, &i, a);
	arg_ptr(k_triad, &i, b);
	arg_ptr(k_triad, &i, c);
	arg(k_triad, &i, sizeof(float), &s);
	arg(k_triad, &i, sizeof(long), &ln);
	launch(k_triad, nbk_triad_geom(n));
	for (size_t j = 0; j < n; j++)
		bad += a[j] != (float)(j & 1023) + 0.5f * (float)(j & 7);
	tap(bad == 0, "triad: %zu elements, a = b + 0.5 c exactly (%zu wrong)", n, bad);
	clSVMFree(ctx, a);
	clSVMFree(ctx, b);
	clSVMFree(ctx, c);
}

static void release(void)
{
	clReleaseKernel(k_step);
	clReleaseKernel(k_head3d);
	clReleaseKernel(k_head2d);
	clReleaseKernel(k_peak);
	clReleaseKernel(k_triad);
	for (size_t i = 0; i < sizeof(train_kernels) / sizeof(train_kernels[0]); i++)
		clReleaseKernel(*train_kernels[i]);
}

/*
 * The step kernel's read-after-write barrier removed: the check that
 * covers it must fail. Not the others: PoCL separates the iterations of a
 * loop that holds a barrier as if by barriers of its own, and runs the
 * heads' staging for every work-item before their FMAs, so removing one of
 * those changes nothing here (measured: each passes, max |d| 2.4e-7 and
 * 4.2e-7 for the heads' read-after-write ones); the fiber executor shows
 * all six missing (tests/hip/fibers.c).
 */
static void test_mutations(const char *dir, const char *tune)
{
	static const struct mutation muts[] = {
		{ 0, "read-after-write", 1, "the step kernel", mut_step },
	};

	for (size_t i = 0; i < sizeof(muts) / sizeof(muts[0]); i++) {
		const struct mutation *m = &muts[i];
		double secs, err;
		cl_program prog = build(dir, tune, m, &secs);

		kernels(prog);
		int pass = m->check(&err);

		tap(!pass, "%s without its %s barrier fails validation (max |d| %.1e)",
		    m->what, m->comment, err);
		release();
		clReleaseProgram(prog);
	}
}

int main(int argc, char **argv)
{
	cl_platform_id plat;
	cl_int e;
	double secs, t0 = now();
	char name[256];

	if (argc < 2 || argc > 3 || strlen(argv[1]) > 4000 ||
	    (argc == 3 && strlen(argv[2]) > 4000)) {
		fprintf(stderr, "usage: %s KERNEL_DIR [BUILD_OPTIONS] (hip/kernels \"-DNBK_FAMILY=2\")\n", argv[0]);
		return 2;
	}
	const char *tune = argc == 3 ? argv[2] : "";
	if (clGetPlatformIDs(1, &plat, NULL) != CL_SUCCESS) {
		fprintf(stderr, "pocl: no OpenCL platform: install pocl-opencl-icd (scripts/install-deps)\n");
		return 1;
	}
	CL_OK(clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
	CL_OK(clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof(name), name, NULL));
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
	if (e)
		die("clCreateContext", e);
	queue = clCreateCommandQueueWithProperties(ctx, dev, NULL, &e);
	if (e)
		die("clCreateCommandQueueWithProperties", e);

	cl_program prog = build(argv[1], tune, NULL, &secs);

	printf("# OpenCL device: %s; kernels built as OpenCL C in %.2f s; family %d: step tile %dx%d pixels (%d per thread) x %d filters, %d channels per stage, %d threads\n",
	       name, secs, NBK_FAMILY, NBK_STEP_TH, NBK_STEP_TW, NBK_STEP_PX,
	       NBK_PACK_FB, NBK_STEP_KC, NBK_STEP_THREADS);
	kernels(prog);
	test_cells();
	test_forward();
	test_diverge();
	test_peak();
	test_triad();
	/* the training kernels take no tile parameters: one family checks them */
	if (NBK_FAMILY == NBK_FAMILY_RDNA)
		test_train();
	release();
	clReleaseProgram(prog);

	test_mutations(argv[1], tune);
	clReleaseCommandQueue(queue);
	clReleaseContext(ctx);
	printf("# %d tests, %d failed, %.1f s\n", tap_count(), tap_failed, now() - t0);
	return tap_done(NULL);
}
