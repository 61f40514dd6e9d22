/* SPDX-License-Identifier: MIT */
/*
 * The fp32-peak and mem-bandwidth tests' kernels.
 */
#include "nbk_dev.h"
#include "nbk_layout.h"

/*
 * NBK_PEAK_CHAINS independent chains a = a * m + k per thread: enough
 * independent FMAs in flight to cover the FMA latency (4 to 8 cycles on
 * RDNA and GCN) with a few waves per SIMD. The chains start at
 * 1 + j * start_step; the launcher passes start_step = 0, so every chain
 * computes the same value, but the compiler cannot know that and fold the
 * chains into one. A thread stores its first chain, or NaN when its chains
 * differ (a miscomputed FMA).
 */
__global__ NBK_BOUNDS(NBK_PEAK_THREADS)
void nbk_fma_peak_kernel(NBK_G float *__restrict__ out, long iters, float m,
			 float k, float start_step)
{
	float a[NBK_PEAK_CHAINS];
	int same = 1;

#pragma unroll
	for (int j = 0; j < NBK_PEAK_CHAINS; j++)
		a[j] = fmaf((float)j, start_step, 1.0f);
	long i = 0;

	/* 4 iterations per trip: 32 FMAs per 3 loop instructions */
	for (; i + 4 <= iters; i += 4)
#pragma unroll
		for (int u = 0; u < 4; u++)
#pragma unroll
			for (int j = 0; j < NBK_PEAK_CHAINS; j++)
				a[j] = fmaf(a[j], m, k);
	for (; i < iters; i++)
#pragma unroll
		for (int j = 0; j < NBK_PEAK_CHAINS; j++)
			a[j] = fmaf(a[j], m, k);
#pragma unroll
	for (int j = 1; j < NBK_PEAK_CHAINS; j++)
		same &= a[j] == a[0];
	out[(long)blockIdx.x * blockDim.x + threadIdx.x] = same ? a[0] : NBK_NAN;
}

/* a[i] = b[i] + s c[i]: grid-stride, consecutive lanes on consecutive floats */
__global__ NBK_BOUNDS(NBK_TRIAD_THREADS)
void nbk_triad_kernel(NBK_G float *__restrict__ a,
		      const NBK_G float *__restrict__ b,
		      const NBK_G float *__restrict__ c, float s, long n)
{
	const long stride = (long)gridDim.x * blockDim.x;

	for (long i = (long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += stride)
		a[i] = fmaf(s, c[i], b[i]);
}
