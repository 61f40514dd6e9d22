/* SPDX-License-Identifier: MIT */
/*
 * What list, info and run show of a GPU plugin's device (devices/plugin.h),
 * through the print layer: one call each, so that the commands stay as
 * they are around it.
 */
#ifndef NAVIBENCH_CMD_PLUGIN_VIEW_H
#define NAVIBENCH_CMD_PLUGIN_VIEW_H

#include "devices/devices.h"
#include "print/print.h"

/*
 * nb_gpu_list_cell() - list's "GPU" cell: the plugin's view of the device
 * (arch, CUs, memory, clocks) in text, an object in JSON; "-" / null when
 * the device has no plugin.
 */
void nb_gpu_list_cell(struct nb_print *p, const struct nb_device *d);

/* The cell's members as CSV columns ("gpu.plugin", ...), for nb_print_columns(). */
#define NB_GPU_LIST_NCOLUMNS 7
extern const char *const nb_gpu_list_columns[NB_GPU_LIST_NCOLUMNS];

/*
 * nb_gpu_backend_note() - why no GPU backend can be used, when it matters
 * for this list: an amdgpu device that will run the benchmark on the CPU.
 * NULL otherwise.
 */
const char *nb_gpu_backend_note(const struct nb_devlist *l);

/*
 * nb_gpu_info() - info's "GPU runtime" section: what the plugin's runtime
 * reports of the device (nb_plugin_device, runtime and driver versions),
 * or, for a GPU without one, why it has none.
 */
void nb_gpu_info(struct nb_print *p, const struct nb_device *d);

/* Its members as CSV columns ("gpu_runtime.plugin", ...), for nb_print_columns(). */
#define NB_GPU_INFO_NCOLUMNS 17
extern const char *const nb_gpu_info_columns[NB_GPU_INFO_NCOLUMNS];

#endif /* NAVIBENCH_CMD_PLUGIN_VIEW_H */
