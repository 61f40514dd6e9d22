/* SPDX-License-Identifier: MIT */
/* The kernel's fixed-width types, so that module/gpu_metrics.h builds here. */
#ifndef NB_SHIM_LINUX_TYPES_H
#define NB_SHIM_LINUX_TYPES_H
#include <stdint.h>
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
#endif
