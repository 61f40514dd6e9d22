/* SPDX-License-Identifier: MIT */
/*
 * The GPU backend plugin interface: what a plugin (hip/: libnavibench_hip.so
 * for AMD GPUs through HIP, libnavibench_cuda.so for NVIDIA GPUs from the
 * same kernel source) exports, and what navibench checks when it loads one
 * with dlopen(). navibench never links a GPU runtime: a plugin links it, so
 * a machine without ROCm or CUDA fails the dlopen() and runs on the CPU.
 *
 * A plugin exports one symbol, NB_PLUGIN_SYMBOL, a function returning its
 * descriptor. navibench refuses a descriptor whose abi_version is not one
 * it knows or whose sizes are not that version's: bump the version
 * whenever this header, struct nb_backend_ops or any structure it passes
 * (engine.h) changes.
 *
 * Versions: 2; 3 appended nb_backend_ops.model_forward_layers (optional,
 * each layer's output). navibench still loads a version 2 plugin, whose
 * ops end before it: the entry is NULL for it, and a result that fails
 * validation on it says that it cannot be located.
 */
#ifndef NB_ENGINE_PLUGIN_H
#define NB_ENGINE_PLUGIN_H

#include <stddef.h>

#include "engine/engine.h"

#define NB_PLUGIN_ABI_VERSION 3
/* The oldest version navibench loads, and the size of its ops. */
#define NB_PLUGIN_ABI_OLDEST 2
#define NB_PLUGIN_OPS_SIZE_V2 offsetof(struct nb_backend_ops, model_forward_layers)
#define NB_PLUGIN_SYMBOL "navibench_plugin"

/* One GPU as the plugin's runtime sees it. Unknown numbers are 0. */
struct nb_plugin_device {
	char name[128];		/* "AMD Radeon RX 5500 XT", "NVIDIA H200" */
	char arch[64];		/* "gfx1012", "sm_90" */
	char pci[16];		/* "0000:03:00.0": matches navibench's amdgpu entries */
	int compute_units;	/* CUs (AMD) or SMs (NVIDIA) */
	int wave_size;		/* 32 or 64 */
	unsigned long long memory_bytes;
	int clock_khz, memory_clock_khz, memory_bus_bits;
	int lds_bytes;		/* shared memory per block */
	int max_threads_per_block;
	int runtime_version, driver_version;	/* as the runtime reports them */
};

struct nb_plugin {
	unsigned int abi_version;	/* NB_PLUGIN_ABI_VERSION */
	unsigned int size;		/* sizeof(struct nb_plugin) */
	unsigned int ops_size;		/* sizeof(struct nb_backend_ops) */
	const char *name;		/* "hip", "cuda" */
	const char *runtime;		/* "HIP 5.2.21153 (ROCm)", "CUDA 13.0" */
	/*
	 * Number of devices: 0 with *count set, or -1 with err naming the
	 * runtime's error (e.g. "hipGetDeviceCount: error 100
	 * (hipErrorNoDevice): no ROCm-capable device is detected").
	 */
	int (*device_count)(int *count, char *err, size_t errlen);
	int (*device_info)(int ordinal, struct nb_plugin_device *d,
			   char *err, size_t errlen);
	/* The backend; open() runs on cfg->device (the ordinal). */
	const struct nb_backend_ops *ops;
};

typedef const struct nb_plugin *(*nb_plugin_fn)(void);

#endif /* NB_ENGINE_PLUGIN_H */
