/* SPDX-License-Identifier: MIT */
/*
 * One kernel source, three compilers. The kernels are written in HIP's
 * spelling (__global__, __shared__, threadIdx, __syncthreads) restricted
 * to what OpenCL C 1.2 can also express; this header maps that spelling:
 *
 *   hipcc (AMD targets)      hip/hip_runtime.h, nothing to map
 *   nvcc (NVIDIA)            hip/cuda_compat.h (included by hip/nbk.cpp)
 *   OpenCL C (PoCL, tests)   the OpenCL built-ins below
 *   C, NBK_FIBERS (tests)    tests/hip/fibers.c's fibers, below
 *
 * What the kernels must therefore keep to (OpenCL C 1.2): no references,
 * templates or classes; __shared__ arrays declared at the outermost scope
 * of the kernel (OpenCL's function-scope __local, one copy per work-group;
 * a __shared__ at file scope would be one copy for all of them); pointer
 * parameters carry NBK_G (global) or NBK_L (__shared__ memory); no size_t
 * kernel parameters (long instead); math through the C names below
 * (fmaf, tanhf, expf, fminf, fmaxf, fabsf, sqrtf, log1pf), mapped to
 * OpenCL's overloads; no identifier that OpenCL C reserves (kernel,
 * global, local, constant, private); 16-byte vectors through NBK_G_F4
 * (global memory) and NBK_LDS_F4 (__shared__), written to float4 arrays
 * as they are.
 *
 * Every kernel declares its block size: __global__ NBK_BOUNDS(threads)
 * void ... (__launch_bounds__; OpenCL's reqd_work_group_size, so that PoCL
 * refuses a launch of another size, as a GPU would), or NBK_BOUNDS_W(n,
 * waves per SIMD) where AMD's register budget must leave room for waves.
 */
#ifndef NBK_DEV_H
#define NBK_DEV_H

#ifdef __OPENCL_VERSION__

#define threadIdx ((uint3)((uint)get_local_id(0), (uint)get_local_id(1), \
			   (uint)get_local_id(2)))
#define blockIdx ((uint3)((uint)get_group_id(0), (uint)get_group_id(1), \
			  (uint)get_group_id(2)))
#define blockDim ((uint3)((uint)get_local_size(0), (uint)get_local_size(1), \
			  (uint)get_local_size(2)))
#define gridDim ((uint3)((uint)get_num_groups(0), (uint)get_num_groups(1), \
			 (uint)get_num_groups(2)))
#define __global__ __kernel
#define __shared__ __local
#define __device__
#define __restrict__ restrict
#define __syncthreads() barrier(CLK_LOCAL_MEM_FENCE)
#define NBK_BOUNDS(n) __attribute__((reqd_work_group_size(n, 1, 1)))
#define NBK_BOUNDS_W(n, w) NBK_BOUNDS(n)
#define NBK_ISSUE_HERE()
#define NBK_G __global
#define NBK_L __local
/*
 * Inlined before PoCL's work-group passes: PoCL 3.1 runs a helper that
 * holds barriers and takes __local pointers wrongly when it stays a call
 * (work-groups running at once then race: 1 to 5 of the suite's 9 step
 * checks failed on 2 threads, none with POCL_MAX_PTHREAD_COUNT=1).
 */
#define NBK_INLINE static inline __attribute__((always_inline))
#define NBK_LDS_F4(p) vload4(0, (p))
#define NBK_G_F4(p) vload4(0, (p))
#define fmaf fma
#define tanhf tanh
#define expf exp
#define fminf fmin
#define fmaxf fmax
#define fabsf fabs
#define sqrtf sqrt
#define log1pf log1p
#define NBK_NAN NAN

#elif defined(NBK_FIBERS)

/*
 * tests/hip/fibers.c: the kernels as plain C on the host, one fiber per
 * GPU thread, a block at a time (so a __shared__ array is one static
 * copy), switching fibers at __syncthreads().
 */
struct nbk_dim3 {
	unsigned int x, y, z;
};
typedef struct {
	float x, y, z, w;
} float4;
extern struct nbk_dim3 threadIdx, blockIdx, blockDim, gridDim;
void nbk_fiber_barrier(void);
#define __global__
#define __device__
#define __shared__ static
#define __syncthreads() nbk_fiber_barrier()
#define NBK_BOUNDS(n)
#define NBK_BOUNDS_W(n, w)
#define NBK_ISSUE_HERE()
#define NBK_G
#define NBK_L
#define NBK_INLINE static inline
static inline float4 nbk_f4(const float *p)
{
	float4 v = { p[0], p[1], p[2], p[3] };

	return v;
}
#define NBK_LDS_F4(p) nbk_f4(p)
#define NBK_G_F4(p) nbk_f4(p)
#define NBK_NAN NAN

#else /* HIP or CUDA */

#define NBK_G
#define NBK_L
#define NBK_BOUNDS(n) __launch_bounds__(n)
/*
 * And a register budget that leaves room for w: waves per SIMD on AMD
 * (HIP reads __launch_bounds__' second argument so), blocks per SM on
 * NVIDIA (CUDA does).
 */
#define NBK_BOUNDS_W(n, w) __launch_bounds__(n, w)
/*
 * The compiler's instruction scheduler may not move memory accesses
 * across this point: what the source issues before it (a stage's global
 * loads) is issued before what follows (the previous stage's FMAs). AMD's
 * scheduler otherwise sinks the loads to the end of the FMAs, to shorten
 * their registers' lives, and the loads no longer overlap the math.
 */
#define NBK_ISSUE_HERE() asm volatile("" ::: "memory")
#define NBK_INLINE __device__ static __forceinline__
/* 16-byte aligned by construction (see the callers) */
#define NBK_LDS_F4(p) (*(const float4 *)(p))
#define NBK_G_F4(p) (*(const float4 *)(p))
#define NBK_NAN __int_as_float(0x7fc00000)

#endif

#endif /* NBK_DEV_H */
