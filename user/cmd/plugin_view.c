// SPDX-License-Identifier: MIT
/*
 * A GPU plugin's device as list and info show it: see plugin_view.h.
 */
#include <stdio.h>
#include <string.h>

#include "cmd/plugin_view.h"
#include "devices/plugin.h"
#include "print/print.h"

static const struct nb_plugin_device *gpu_of(const struct nb_device *d,
					     const struct nb_gpu_plugin **g)
{
	*g = nb_plugins_get(d->plugin);
	return *g && d->hip_ordinal >= 0 && d->hip_ordinal < (*g)->ndev ?
	       &(*g)->dev[d->hip_ordinal] : NULL;
}

/* The members of list's "gpu" cell, as CSV columns: those of nb_gpu_list_cell(). */
const char *const nb_gpu_list_columns[NB_GPU_LIST_NCOLUMNS] = {
	"gpu.plugin", "gpu.ordinal", "gpu.arch", "gpu.compute_units", "gpu.memory_bytes",
	"gpu.clock_mhz", "gpu.memory_clock_mhz",
};

void nb_gpu_list_cell(struct nb_print *p, const struct nb_device *d)
{
	const struct nb_gpu_plugin *g;
	const struct nb_plugin_device *pd = gpu_of(d, &g);
	char mem[32], text[256];

	if (!pd) {
		nb_cell_missing(p, "-");
		return;
	}
	snprintf(text, sizeof(text), "%s %d: %s, %d CUs, %s, %d/%d MHz", g->p->name,
		 d->hip_ordinal, pd->arch, pd->compute_units,
		 nb_fmt_bytes(mem, sizeof(mem), pd->memory_bytes), pd->clock_khz / 1000,
		 pd->memory_clock_khz / 1000);
	nb_cell_obj_begin(p, text);
	nb_str(p, "plugin", NULL, g->p->name);
	nb_i64(p, "ordinal", NULL, d->hip_ordinal, NULL);
	nb_str(p, "arch", NULL, pd->arch);
	nb_i64(p, "compute_units", NULL, pd->compute_units, NULL);
	nb_u64(p, "memory_bytes", NULL, pd->memory_bytes, NULL);
	nb_i64(p, "clock_mhz", NULL, pd->clock_khz / 1000, NULL);
	nb_i64(p, "memory_clock_mhz", NULL, pd->memory_clock_khz / 1000, NULL);
	nb_obj_end(p);
}

const char *nb_gpu_backend_note(const struct nb_devlist *l)
{
	static char note[1200];

	for (int i = 0; i < l->n; i++) {
		if (l->dev[i].dev.kind != NB_DEV_AMDGPU || l->dev[i].dev.plugin >= 0)
			continue;
		if (nb_plugins_notice()[0])
			snprintf(note, sizeof(note), "no GPU backend (%s): 'run' on an amdgpu "
				 "device cannot compute (exit 4; --device cpu runs the CPU)",
				 nb_plugins_notice());
		else
			snprintf(note, sizeof(note), "no GPU plugin reports %s: 'run' on it "
				 "cannot compute (exit 4; --device cpu runs the CPU)",
				 l->dev[i].dev.pci);
		return note;
	}
	return NULL;
}

/*
 * A runtime's version number as the runtime encodes it: HIP major * 1e7 +
 * minor * 1e5 + patch, CUDA major * 1000 + minor * 10.
 */
static void version(struct nb_print *p, const char *key, const char *label, int v)
{
	if (v > 0)
		nb_i64(p, key, label, v, NULL);
	else
		nb_missing(p, key, label, "not reported");
}

/* The members of info's "gpu_runtime", as CSV columns: those of nb_gpu_info(). */
const char *const nb_gpu_info_columns[NB_GPU_INFO_NCOLUMNS] = {
	"gpu_runtime.plugin", "gpu_runtime.plugin_path", "gpu_runtime.runtime",
	"gpu_runtime.runtime_version", "gpu_runtime.driver_version", "gpu_runtime.ordinal",
	"gpu_runtime.name", "gpu_runtime.arch", "gpu_runtime.pci", "gpu_runtime.compute_units",
	"gpu_runtime.wave_size", "gpu_runtime.memory_bytes", "gpu_runtime.clock_mhz",
	"gpu_runtime.memory_clock_mhz", "gpu_runtime.memory_bus_bits", "gpu_runtime.lds_bytes",
	"gpu_runtime.max_threads_per_block",
};

void nb_gpu_info(struct nb_print *p, const struct nb_device *d)
{
	const struct nb_gpu_plugin *g;
	const struct nb_plugin_device *pd = gpu_of(d, &g);

	if (!pd) {
		if (d->kind == NB_DEV_AMDGPU)
			nb_missing(p, "gpu_runtime", "GPU runtime", nb_plugins_notice()[0] ?
				   nb_plugins_notice() : "no GPU plugin reports this PCI address");
		return;
	}
	nb_obj_begin(p, "gpu_runtime", "GPU runtime");
	nb_str(p, "plugin", "plugin", g->p->name);
	nb_str(p, "plugin_path", "plugin file", g->path);
	nb_str(p, "runtime", "runtime", g->p->runtime);
	version(p, "runtime_version", "runtime version", pd->runtime_version);
	version(p, "driver_version", "driver version", pd->driver_version);
	nb_i64(p, "ordinal", "device number", d->hip_ordinal, NULL);
	nb_str(p, "name", "name", pd->name);
	nb_str(p, "arch", "arch", pd->arch);
	if (pd->pci[0])
		nb_str(p, "pci", "PCI", pd->pci);
	else
		nb_missing(p, "pci", "PCI", "not reported");
	nb_i64(p, "compute_units", "compute units", pd->compute_units, NULL);
	nb_i64(p, "wave_size", "wave size", pd->wave_size, NULL);
	nb_bytes(p, "memory_bytes", "memory", pd->memory_bytes);
	nb_i64(p, "clock_mhz", "clock", pd->clock_khz / 1000, "MHz");
	nb_i64(p, "memory_clock_mhz", "memory clock", pd->memory_clock_khz / 1000, "MHz");
	nb_i64(p, "memory_bus_bits", "memory bus", pd->memory_bus_bits, "bit");
	nb_i64(p, "lds_bytes", "LDS per block", pd->lds_bytes, "B");
	nb_i64(p, "max_threads_per_block", "threads per block", pd->max_threads_per_block, NULL);
	nb_obj_end(p);
}
