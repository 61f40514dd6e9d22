/* SPDX-License-Identifier: MIT */
/*
 * The hip* names hip/nbk.cpp and the kernels use, as CUDA's: the same
 * source builds with nvcc (-x cu). The reverse of llama.cpp's
 * ggml-cuda/vendors/hip.h. Debian's HIP headers have a CUDA path of their
 * own, but it does not compile under CUDA 13 (texture references, removed
 * cudaDeviceProp fields), so this path includes none of them. Add a name
 * here when the wrappers start to use it.
 */
#ifndef NBK_CUDA_COMPAT_H
#define NBK_CUDA_COMPAT_H

#include <cuda_runtime.h>

#define hipError_t cudaError_t
#define hipSuccess cudaSuccess
#define hipGetErrorString cudaGetErrorString
#define hipGetErrorName cudaGetErrorName
#define hipGetLastError cudaGetLastError
#define hipStream_t cudaStream_t
#define hipStreamSynchronize cudaStreamSynchronize
#define hipEvent_t cudaEvent_t
#define hipEventCreate cudaEventCreate
#define hipEventDestroy cudaEventDestroy
#define hipEventRecord cudaEventRecord
#define hipEventSynchronize cudaEventSynchronize
#define hipEventElapsedTime cudaEventElapsedTime
#define hipStreamWaitEvent cudaStreamWaitEvent
#define hipDeviceGetAttribute cudaDeviceGetAttribute

/*
 * ---- Host-side names of the plugin (hip/plugin.cpp): devices, streams,
 * memory. Kept apart from the kernels' names above. ----
 */
#define hipDeviceProp_t cudaDeviceProp
#define hipGetDeviceCount cudaGetDeviceCount
#define hipGetDeviceProperties cudaGetDeviceProperties
#define hipDeviceAttributeClockRate cudaDevAttrClockRate
#define hipDeviceAttributeMemoryClockRate cudaDevAttrMemoryClockRate
#define hipRuntimeGetVersion cudaRuntimeGetVersion
#define hipDriverGetVersion cudaDriverGetVersion
#define hipSetDevice cudaSetDevice
#define hipStreamCreateWithFlags cudaStreamCreateWithFlags
#define hipStreamNonBlocking cudaStreamNonBlocking
#define hipStreamDestroy cudaStreamDestroy
#define hipEventCreateWithFlags cudaEventCreateWithFlags
#define hipEventDisableTiming cudaEventDisableTiming
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemcpyAsync cudaMemcpyAsync
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipErrorNoDevice cudaErrorNoDevice
#define hipErrorInsufficientDriver cudaErrorInsufficientDriver
#define hipErrorNoBinaryForGpu cudaErrorNoKernelImageForDevice

#endif /* NBK_CUDA_COMPAT_H */
