// SPDX-License-Identifier: MIT
/*
 * A GPU plugin's device as list and info show it: see gpu.h.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "gpu.h"
#include "plugin.h"
#include "print.h"

static const struct nb_plugin_device *gpu_of(const struct nb_device *d,
					     const struct nb_gpu_plugin **g)
{
	*g = nb_plugins_get(d->plugin);
	return *g && d->hip_ordinal >= 0 && d->hip_ordinal < (*g)->ndev ?
	       &(*g)->dev[d->hip_ordinal] : NULL;
}

void nb_gpu_list_cell(const struct nb_device *d)
{
	const struct nb_gpu_plugin *g;
	const struct nb_plugin_device *pd = gpu_of(d, &g);
	struct json_object *o;
	char mem[32];

	if (!pd) {
		nb_cell(NULL, "-");
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "plugin", json_object_new_string(g->p->name));
	json_object_object_add(o, "ordinal", json_object_new_int(d->hip_ordinal));
	json_object_object_add(o, "arch", json_object_new_string(pd->arch));
	json_object_object_add(o, "compute_units", json_object_new_int(pd->compute_units));
	json_object_object_add(o, "memory_bytes", json_object_new_uint64(pd->memory_bytes));
	json_object_object_add(o, "clock_mhz", json_object_new_int(pd->clock_khz / 1000));
	json_object_object_add(o, "memory_clock_mhz",
			       json_object_new_int(pd->memory_clock_khz / 1000));
	nb_cell(o, "%s %d: %s, %d CUs, %s, %d/%d MHz", g->p->name, d->hip_ordinal, pd->arch,
		pd->compute_units, nb_fmt_bytes(mem, sizeof(mem), pd->memory_bytes),
		pd->clock_khz / 1000, pd->memory_clock_khz / 1000);
}

const char *nb_gpu_backend_note(const struct nb_devlist *l)
{
	static char note[1200];

	for (int i = 0; i < l->n; i++) {
		if (l->dev[i].dev.kind != NB_DEV_AMDGPU || l->dev[i].dev.plugin >= 0)
			continue;
		if (nb_plugins_notice()[0])
			snprintf(note, sizeof(note), "no GPU backend (%s): 'run' on an amdgpu "
				 "device runs on the CPU", nb_plugins_notice());
		else
			snprintf(note, sizeof(note), "no GPU plugin reports %s: 'run' on it runs "
				 "on the CPU", l->dev[i].dev.pci);
		return note;
	}
	return NULL;
}

/*
 * A runtime's version number as the runtime encodes it: HIP major * 1e7 +
 * minor * 1e5 + patch, CUDA major * 1000 + minor * 10.
 */
static void version(const char *key, const char *label, int v)
{
	if (v > 0)
		nb_i64(key, label, v, NULL);
	else
		nb_missing(key, label, "not reported");
}

void nb_gpu_info(const struct nb_device *d)
{
	const struct nb_gpu_plugin *g;
	const struct nb_plugin_device *pd = gpu_of(d, &g);
	char mem[32];

	if (!pd) {
		if (d->kind == NB_DEV_AMDGPU)
			nb_missing("gpu_runtime", "GPU runtime", nb_plugins_notice()[0] ?
				   nb_plugins_notice() : "no GPU plugin reports this PCI address");
		return;
	}
	nb_obj_begin("gpu_runtime", "GPU runtime");
	nb_str("plugin", "plugin", g->p->name);
	nb_str("plugin_path", "plugin file", g->path);
	nb_str("runtime", "runtime", g->p->runtime);
	version("runtime_version", "runtime version", pd->runtime_version);
	version("driver_version", "driver version", pd->driver_version);
	nb_i64("ordinal", "device number", d->hip_ordinal, NULL);
	nb_str("name", "name", pd->name);
	nb_str("arch", "arch", pd->arch);
	if (pd->pci[0])
		nb_str("pci", "PCI", pd->pci);
	else
		nb_missing("pci", "PCI", "not reported");
	nb_i64("compute_units", "compute units", pd->compute_units, NULL);
	nb_i64("wave_size", "wave size", pd->wave_size, NULL);
	nb_fieldf("memory_bytes", "memory", json_object_new_uint64(pd->memory_bytes), "%s",
		  nb_fmt_bytes(mem, sizeof(mem), pd->memory_bytes));
	nb_i64("clock_mhz", "clock", pd->clock_khz / 1000, "MHz");
	nb_i64("memory_clock_mhz", "memory clock", pd->memory_clock_khz / 1000, "MHz");
	nb_i64("memory_bus_bits", "memory bus", pd->memory_bus_bits, "bit");
	nb_i64("lds_bytes", "LDS per block", pd->lds_bytes, "B");
	nb_i64("max_threads_per_block", "threads per block", pd->max_threads_per_block, NULL);
	nb_obj_end();
}
