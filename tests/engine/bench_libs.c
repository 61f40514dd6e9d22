// SPDX-License-Identifier: MIT
/*
 * One ConvLSTM time step of convlstm-mono's layers 2..4 at batch 8 (B 8,
 * 40x40, Cin 40, F 40: 12800 pixels x K 720 x N 160, 2.949 GFLOP), three
 * ways, interleaved round by round so that every way sees the same load:
 *
 *   openblas  im2col of [x, h] (12800 x 720), cblas_sgemm by the packed
 *             (720 x 160) weights, then the gate pass (bias, activations,
 *             c and h) over the 12800 x 160 pre-activations;
 *   onednn    concatenation of [x, h] (NHWC, 80 channels), oneDNN's
 *             convolution (weights reordered once, untimed), the same gate
 *             pass;
 *   fused     the CPU backend's cell step (nb_cpu_backend).
 *
 * Each way is also timed alone, its repeats back to back. The im2col, concatenation and gate passes
 * use OpenMP with the same thread count as the libraries. Every way's h is
 * checked against the reference cell (refmodel.c) before timing.
 *
 * Built and run by scripts/bench-libs; not part of navibench.
 *   bench_libs [threads] [rounds]
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cblas.h>
#ifdef HAVE_DNNL
#include <dnnl.h>
#endif

#include "engine/engine.h"
#include "engine/vmath_avx2.h"

#define B 8
#define H 40
#define W 40
#define CI 40
#define F 40
#define M (B * H * W)
#define KC (CI + F)
#define K (9 * KC)
#define N (4 * F)
#define MAXR 200


static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static float *alloc(size_t n)
{
	float *p = aligned_alloc(64, (n * sizeof(float) + 63) & ~(size_t)63);

	if (!p) {
		fprintf(stderr, "bench_libs: out of memory\n");
		exit(1);
	}
	memset(p, 0, n * sizeof(float));
	return p;
}

static int cmpd(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmpd);
	return n & 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static float *x, *h, *c, *kern, *rkern, *bias;
static float *A, *Wm, *Z, *xh, *h_out, *c_out;

/* A[m][tap * 80 + ch]: [x, h] around pixel m, zero outside the frame */
static void im2col(void)
{
#pragma omp parallel for
	for (int m = 0; m < M; m++) {
		int b = m / (H * W), y = m / W % H, xx = m % W;
		float *row = A + (size_t)m * K;

		for (int t = 0; t < 9; t++) {
			int sy = y + t / 3 - 1, sx = xx + t % 3 - 1;
			float *d = row + t * KC;

			if (sy < 0 || sy >= H || sx < 0 || sx >= W) {
				memset(d, 0, KC * sizeof(float));
				continue;
			}
			size_t p = ((size_t)b * H + sy) * W + sx;
			memcpy(d, x + p * CI, CI * sizeof(float));
			memcpy(d + CI, h + p * F, F * sizeof(float));
		}
	}
}

static void concat(void)
{
#pragma omp parallel for
	for (int m = 0; m < M; m++) {
		memcpy(xh + (size_t)m * KC, x + (size_t)m * CI, CI * sizeof(float));
		memcpy(xh + (size_t)m * KC + CI, h + (size_t)m * F, F * sizeof(float));
	}
}

static void sgemm(void)
{
	cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f,
		    A, K, Wm, N, 0.0f, Z, N);
}

/* the gate pass over Z (M x 4F, gates i f c o), bias added here */
static void gates(int add_bias)
{
#pragma omp parallel for
	for (int m = 0; m < M; m++) {
		const float *z = Z + (size_t)m * N;

		for (int j = 0; j < F; j += 8) {
			__m256 zi = _mm256_loadu_ps(z + j);
			__m256 zf = _mm256_loadu_ps(z + F + j);
			__m256 zc = _mm256_loadu_ps(z + 2 * F + j);
			__m256 zo = _mm256_loadu_ps(z + 3 * F + j);

			if (add_bias) {
				zi = _mm256_add_ps(zi, _mm256_loadu_ps(bias + j));
				zf = _mm256_add_ps(zf, _mm256_loadu_ps(bias + F + j));
				zc = _mm256_add_ps(zc, _mm256_loadu_ps(bias + 2 * F + j));
				zo = _mm256_add_ps(zo, _mm256_loadu_ps(bias + 3 * F + j));
			}
			__m256 cn = _mm256_fmadd_ps(nb_hard_sigmoid8(zf),
				_mm256_loadu_ps(c + (size_t)m * F + j),
				_mm256_mul_ps(nb_hard_sigmoid8(zi), nb_tanh8(zc)));

			_mm256_storeu_ps(c_out + (size_t)m * F + j, cn);
			_mm256_storeu_ps(h_out + (size_t)m * F + j,
					 _mm256_mul_ps(nb_hard_sigmoid8(zo), nb_tanh8(cn)));
		}
	}
}

static double check(const char *what, const float *ref)
{
	double worst = 0;

	for (size_t i = 0; i < (size_t)M * F; i++) {
		double d = fabs((double)h_out[i] - ref[i]) /
			(1e-5 + 1e-4 * fabs(ref[i]));
		if (d > worst)
			worst = d;
	}
	if (worst > 1) {
		fprintf(stderr, "bench_libs: %s: h differs from the reference (%.1f x the tolerance)\n",
			what, worst);
		exit(1);
	}
	return worst;
}

#ifdef HAVE_DNNL
#define DN(call) do { dnnl_status_t st_ = (call); if (st_ != dnnl_success) { \
	fprintf(stderr, "bench_libs: oneDNN: %s: status %d\n", #call, (int)st_); \
	exit(1); } } while (0)

static dnnl_engine_t eng;
static dnnl_stream_t strm;
static dnnl_primitive_t conv;
static dnnl_exec_arg_t conv_args[4];

static void dnnl_setup(void)
{
	dnnl_memory_desc_t src_md, w_md, wany_md, b_md, dst_md;
	dnnl_dims_t sd = { B, KC, H, W }, wd = { N, KC, 3, 3 }, bd = { N };
	dnnl_dims_t dd = { B, N, H, W }, st = { 1, 1 }, pad = { 1, 1 };
	dnnl_convolution_desc_t cd;
	dnnl_primitive_desc_t pd, rpd;
	dnnl_memory_t src, wts, wts_user, bs, dst;
	dnnl_primitive_t reorder;

	DN(dnnl_engine_create(&eng, dnnl_cpu, 0));
	DN(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags));
	DN(dnnl_memory_desc_init_by_tag(&src_md, 4, sd, dnnl_f32, dnnl_nhwc));
	DN(dnnl_memory_desc_init_by_tag(&w_md, 4, wd, dnnl_f32, dnnl_hwio));
	DN(dnnl_memory_desc_init_by_tag(&wany_md, 4, wd, dnnl_f32, dnnl_format_tag_any));
	DN(dnnl_memory_desc_init_by_tag(&b_md, 1, bd, dnnl_f32, dnnl_a));
	DN(dnnl_memory_desc_init_by_tag(&dst_md, 4, dd, dnnl_f32, dnnl_nhwc));
	DN(dnnl_convolution_forward_desc_init(&cd, dnnl_forward_inference,
		dnnl_convolution_direct, &src_md, &wany_md, &b_md, &dst_md,
		st, pad, pad));
	DN(dnnl_primitive_desc_create(&pd, &cd, NULL, eng, NULL));
	const dnnl_memory_desc_t *wmd = dnnl_primitive_desc_query_md(pd,
		dnnl_query_weights_md, 0);
	const char *impl = NULL;
	DN(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl));
	printf("oneDNN %d.%d.%d convolution: %s\n", dnnl_version()->major,
	       dnnl_version()->minor, dnnl_version()->patch, impl);

	/* Wm is (ky, kx, ic, oc): hwio */
	DN(dnnl_memory_create(&wts_user, &w_md, eng, Wm));
	DN(dnnl_memory_create(&wts, wmd, eng, DNNL_MEMORY_ALLOCATE));
	DN(dnnl_reorder_primitive_desc_create(&rpd, &w_md, eng, wmd, eng, NULL));
	DN(dnnl_primitive_create(&reorder, rpd));
	dnnl_exec_arg_t ra[2] = { { DNNL_ARG_FROM, wts_user }, { DNNL_ARG_TO, wts } };
	DN(dnnl_primitive_execute(reorder, strm, 2, ra));
	DN(dnnl_stream_wait(strm));

	DN(dnnl_memory_create(&src, &src_md, eng, xh));
	DN(dnnl_memory_create(&bs, &b_md, eng, bias));
	DN(dnnl_memory_create(&dst, &dst_md, eng, Z));
	DN(dnnl_primitive_create(&conv, pd));
	conv_args[0] = (dnnl_exec_arg_t){ DNNL_ARG_SRC, src };
	conv_args[1] = (dnnl_exec_arg_t){ DNNL_ARG_WEIGHTS, wts };
	conv_args[2] = (dnnl_exec_arg_t){ DNNL_ARG_BIAS, bs };
	conv_args[3] = (dnnl_exec_arg_t){ DNNL_ARG_DST, dst };
}

static void dnnl_conv(void)
{
	DN(dnnl_primitive_execute(conv, strm, 4, conv_args));
	DN(dnnl_stream_wait(strm));
}
#endif

enum { T_IM2COL, T_SGEMM, T_GATES, T_BLAS, T_CONCAT, T_CONV, T_DNNL, T_FUSED, T_N };
static const char *const tname[T_N] = {
	"  im2col of [x, h] (12800 x 720)",
	"  cblas_sgemm 12800x720 . 720x160",
	"  gate pass over 12800 x 160",
	"openblas: im2col + sgemm + gates",
	"  concatenation [x, h] (NHWC)",
	"  oneDNN convolution 80 -> 160",
	"onednn: concat + conv + gates",
	"fused: navibench's cell step",
};
static double tv[T_N][MAXR], alone[T_N][MAXR];

/* The inputs, weights and the reference cell's output (@h_ref). */
static void setup(float *h_ref, float *c_ref)
{
	struct nb_rng r;

	x = alloc((size_t)M * CI);
	h = alloc((size_t)M * F);
	c = alloc((size_t)M * F);
	kern = alloc(9 * CI * N);
	rkern = alloc(9 * F * N);
	bias = alloc(N);
	A = alloc((size_t)M * K);
	Wm = alloc((size_t)K * N);
	Z = alloc((size_t)M * N);
	xh = alloc((size_t)M * KC);
	h_out = alloc((size_t)M * F);
	c_out = alloc((size_t)M * F);
	nb_rng_seed(&r, 5);
	for (size_t i = 0; i < (size_t)M * CI; i++)
		x[i] = (float)nb_rng_uniform(&r);
	for (size_t i = 0; i < (size_t)M * F; i++) {
		h[i] = (float)(nb_rng_uniform(&r) * 2 - 1);
		c[i] = (float)(nb_rng_uniform(&r) * 2 - 1);
	}
	for (int i = 0; i < 9 * CI * N; i++)
		kern[i] = (float)((nb_rng_uniform(&r) * 2 - 1) * 0.1);
	for (int i = 0; i < 9 * F * N; i++)
		rkern[i] = (float)((nb_rng_uniform(&r) * 2 - 1) * 0.1);
	for (int i = 0; i < N; i++)
		bias[i] = (float)((nb_rng_uniform(&r) * 2 - 1) * 0.1);
	/* Wm[tap * 80 + ch][n]: the input kernel's rows, then the recurrent's */
	for (int t = 0; t < 9; t++) {
		memcpy(Wm + (size_t)(t * KC) * N, kern + (size_t)t * CI * N,
		       (size_t)CI * N * sizeof(float));
		memcpy(Wm + (size_t)(t * KC + CI) * N, rkern + (size_t)t * F * N,
		       (size_t)F * N * sizeof(float));
	}
	nb_ref_cell(B, H, W, CI, F, kern, rkern, bias, x, h, c, h_ref, c_ref);
}

/* One whole step of @way: 0 OpenBLAS, 1 oneDNN, 2 the fused cell. */
static void run_way(int way, void *ctx, void *cell)
{
	if (way == 0) {
		im2col();
		sgemm();
		gates(1);
	} else if (way == 1) {
#ifdef HAVE_DNNL
		concat();
		dnnl_conv();
		gates(0);
#endif
	} else {
		nb_cpu_backend.cell_step(ctx, cell);
	}
}

/*
 * Each way alone first: warm-up, then its repeats back to back (the
 * threads of the other runtimes asleep by then), into alone[].
 */
static void time_alone(void *ctx, void *cell, int rounds, int have_dnnl)
{
	static const int slot[3] = { T_BLAS, T_DNNL, T_FUSED };

	for (int way = 0; way < 3; way++) {
		if (way == 1 && !have_dnnl)
			continue;
		for (int i = -3; i < rounds; i++) {
			double t0 = now();

			run_way(way, ctx, cell);
			if (i >= 0)
				alone[slot[way]][i] = now() - t0;
		}
		usleep(300000);
	}
}

/*
 * Interleaved rounds, every way once per round and each of its parts
 * timed, so that all see the same load, into tv[]; with a short FMA peak
 * sample per round. Returns the best peak seen, at least @peak.
 */
static double time_rounds(void *ctx, void *cell, int rounds, double peak)
{
	float lane;

	for (int i = 0; i < rounds; i++) {
		double t0 = now();
		im2col();
		double t1 = now();
		sgemm();
		double t2 = now();
		gates(1);
		double t3 = now();
		tv[T_IM2COL][i] = t1 - t0;
		tv[T_SGEMM][i] = t2 - t1;
		tv[T_GATES][i] = t3 - t2;
		tv[T_BLAS][i] = t3 - t0;
#ifdef HAVE_DNNL
		t0 = now();
		concat();
		t1 = now();
		dnnl_conv();
		t2 = now();
		gates(0);
		t3 = now();
		tv[T_CONCAT][i] = t1 - t0;
		tv[T_CONV][i] = t2 - t1;
		tv[T_DNNL][i] = t3 - t0;
#endif
		t0 = now();
		nb_cpu_backend.cell_step(ctx, cell);
		tv[T_FUSED][i] = now() - t0;
		t0 = now();
		double pf = nb_cpu_backend.fma_peak(ctx, 4000000L, 0.5f, 0.5f, &lane);
		t1 = now();
		if (pf / (t1 - t0) / 1e9 > peak)
			peak = pf / (t1 - t0) / 1e9;
	}
	return peak;
}

/* The table of medians, rates and ratios to the fused step. */
static void print_table(int rounds, double peak, int have_dnnl)
{
	const double flops = 2.0 * M * K * N;
	double fused = median(tv[T_FUSED], rounds);
	double fused_alone = median(alone[T_FUSED], rounds);

	printf("%-36s %9s %9s %7s %8s  %9s %9s %8s\n", "one time step, batch 8, layer 2..4",
	       "median ms", "GFLOP/s", "% peak", "vs fused", "alone ms", "GFLOP/s", "vs fused");
	for (int t = 0; t < T_N; t++) {
		if (!have_dnnl && (t == T_CONCAT || t == T_CONV || t == T_DNNL))
			continue;
		double m = median(tv[t], rounds);
		int counts = t == T_SGEMM || t == T_CONV || t == T_BLAS ||
			t == T_DNNL || t == T_FUSED;
		int whole = t == T_BLAS || t == T_DNNL || t == T_FUSED;

		if (counts)
			printf("%-36s %9.3f %9.1f %6.1f%% %7.2fx", tname[t], m * 1e3,
			       flops / m / 1e9, flops / m / 1e9 / peak * 100, fused / m);
		else
			printf("%-36s %9.3f %9s %7s %8s", tname[t], m * 1e3, "", "", "");
		if (whole) {
			double a = median(alone[t], rounds);

			printf("  %9.3f %9.1f %7.2fx", a * 1e3, flops / a / 1e9, fused_alone / a);
		}
		printf("\n");
	}
	if (!have_dnnl)
		printf("(oneDNN: not built in: libdnnl-dev not installed)\n");
	printf("vs fused: the fused step's median time / this one's (> 1: faster than fused)\n");
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 2;
	int rounds = argc > 2 ? atoi(argv[2]) : 30;
	char err[256];
	void *ctx, *cell;
	int have_dnnl = 0;

	if (threads < 1 || rounds < 3 || rounds > MAXR) {
		fprintf(stderr, "usage: bench_libs [threads >= 1] [rounds 3..%d]\n", MAXR);
		return 2;
	}
	omp_set_num_threads(threads);
	openblas_set_num_threads(threads);

	float *h_ref = alloc((size_t)M * F), *c_ref = alloc((size_t)M * F);

	setup(h_ref, c_ref);

	/* the fused kernel */
	struct nb_backend_config cfg = { .threads = threads };
	struct nb_cell_desc d = { B, H, W, CI, F, kern, rkern, bias };
	if (nb_cpu_backend.open(&cfg, &ctx, err, sizeof(err)) ||
	    nb_cpu_backend.cell_load(ctx, &d, &cell, err, sizeof(err))) {
		fprintf(stderr, "bench_libs: cpu backend: %s\n", err);
		return 1;
	}
	nb_cpu_backend.cell_set(ctx, cell, x, h, c);
	run_way(2, ctx, cell);
	nb_cpu_backend.cell_get(ctx, cell, h_out, c_out);
	double e_fused = check("fused", h_ref);

	run_way(0, ctx, cell);
	double e_blas = check("openblas", h_ref);
	double e_dnnl = NAN;
#ifdef HAVE_DNNL
	dnnl_setup();
	run_way(1, ctx, cell);
	e_dnnl = check("onednn", h_ref);
	have_dnnl = 1;
#endif
	float lane;
	usleep(300000);
	double pt = now();
	double pf = nb_cpu_backend.fma_peak(ctx, 20000000L, 0.5f, 0.5f, &lane);
	double peak = pf / (now() - pt) / 1e9;

	printf("fused: %s; %d rounds\nOpenBLAS: %s, kernels for %s\n",
	       nb_cpu_backend.describe(ctx), rounds, openblas_get_config(),
	       openblas_get_corename());
	printf("h vs the reference, worst |d| / (1e-5 + 1e-4 |ref|): fused %.3f, openblas %.3f, onednn %.3f\n",
	       e_fused, e_blas, e_dnnl);
	time_alone(ctx, cell, rounds, have_dnnl);
	peak = time_rounds(ctx, cell, rounds, peak);
	printf("FMA peak (%d threads, best of %d samples, one per round): %.1f GFLOP/s\n\n",
	       threads, rounds + 1, peak);
	print_table(rounds, peak, have_dnnl);
	nb_cpu_backend.cell_free(ctx, cell);
	nb_cpu_backend.close(ctx);
	return 0;
}
