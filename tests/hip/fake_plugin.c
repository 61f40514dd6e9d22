// SPDX-License-Identifier: MIT
/*
 * A navibench GPU plugin for the tests (tests/hip/loader.sh): it implements
 * engine/plugin.h with devices described by environment variables, and a
 * backend that computes on the host through navibench's own CPU backend
 * (user/engine/cpu*.c and pool.c compiled into this library, every symbol hidden but
 * the descriptor), so that a run "on the GPU" is correct and fast, and the
 * validation of what was timed has a real output to check.
 *
 *   NBFAKE_DEVICES       "name,arch,pci,CUs,MiB;..." one entry per device;
 *                        unset or empty: the runtime reports no device
 *   NBFAKE_COUNT_ERROR   device_count fails with this text (a runtime error)
 *   NBFAKE_ABI           the interface version to claim (a mismatch; 2: an
 *                        older plugin, whose ops end before
 *                        model_forward_layers)
 *   NBFAKE_WRONG_FRAMES  model_forward with at least this many frames
 *                        returns a wrong answer (one value of the last item)
 *   NBFAKE_WRONG_LAYER   "L,T,Y,X,C": layer L's output at frame T, element
 *                        (Y, X, C) of item 0 is off by 0.5 in
 *                        model_forward_layers, and the last output value in
 *                        both forward calls (a fault the diagnosis must
 *                        locate)
 *
 * Built variants (-D):
 *   NBFAKE_REAL_HIP      device_count asks the real HIP runtime (links
 *                        libamdhip64): on a machine without an AMD GPU it
 *                        fails with hipErrorNoDevice (100)
 *   NBFAKE_RUNTIME       links a runtime library the test then removes: the
 *                        plugin is there, its runtime is not
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/plugin.h"

#ifdef NBFAKE_REAL_HIP
#define __HIP_PLATFORM_AMD__
#include <hip/hip_runtime_api.h>
#endif
#ifdef NBFAKE_RUNTIME
int nbfake_runtime_version(void);
#endif

#define MAX_DEV 8

static struct nb_plugin_device devs[MAX_DEV];
static int ndevs = -1;

static void parse_devices(void)
{
	const char *env = getenv("NBFAKE_DEVICES");
	char *s, *save = NULL;

	ndevs = 0;
	if (!env || !*env)
		return;
	s = strdup(env);
	for (char *e = strtok_r(s, ";", &save); e && ndevs < MAX_DEV;
	     e = strtok_r(NULL, ";", &save)) {
		struct nb_plugin_device *d = &devs[ndevs++];
		char *f[5] = { 0 }, *fs = NULL;
		int k = 0;

		for (char *t = strtok_r(e, ",", &fs); t && k < 5; t = strtok_r(NULL, ",", &fs))
			f[k++] = t;
		snprintf(d->name, sizeof(d->name), "%s", f[0] ? f[0] : "Fake GPU");
		snprintf(d->arch, sizeof(d->arch), "%s", f[1] ? f[1] : "gfx1012");
		snprintf(d->pci, sizeof(d->pci), "%s", f[2] ? f[2] : "");
		d->compute_units = f[3] ? atoi(f[3]) : 22;
		d->memory_bytes = (f[4] ? strtoull(f[4], NULL, 10) : 4096) << 20;
		d->wave_size = 32;
		d->clock_khz = 1845000;
		d->memory_clock_khz = 875000;
		d->memory_bus_bits = 128;
		d->lds_bytes = 65536;
		d->max_threads_per_block = 1024;
		d->runtime_version = 50221153;
		d->driver_version = 60100000;
	}
	free(s);
}

static int device_count(int *count, char *err, size_t errlen)
{
	const char *e = getenv("NBFAKE_COUNT_ERROR");

#ifdef NBFAKE_REAL_HIP
	hipError_t r = hipGetDeviceCount(count);

	if (r != hipSuccess) {
		snprintf(err, errlen, "hipGetDeviceCount: error %d (%s)", (int)r,
			 hipGetErrorName(r));
		return -1;
	}
	return 0;
#endif
#ifdef NBFAKE_RUNTIME
	(void)nbfake_runtime_version();
#endif
	if (e) {
		snprintf(err, errlen, "%s", e);
		return -1;
	}
	if (ndevs < 0)
		parse_devices();
	*count = ndevs;
	return 0;
}

static int device_info(int ordinal, struct nb_plugin_device *d, char *err, size_t errlen)
{
	if (ordinal < 0 || ordinal >= ndevs) {
		snprintf(err, errlen, "no device %d", ordinal);
		return -1;
	}
	*d = devs[ordinal];
	return 0;
}

/* The backend: navibench's CPU backend under another name. */
struct fake {
	void *cpu;
	int device;
	char desc[160];
};

static const struct nb_backend_ops *cpu = &nb_cpu_backend;

static int fake_open(const struct nb_backend_config *cfg, void **ctx, char *err,
		     size_t errlen)
{
	struct fake *f = calloc(1, sizeof(*f));
	struct nb_backend_config c = *cfg;

	if (!f) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (cfg->device < 0 || cfg->device >= ndevs) {
		snprintf(err, errlen, "fake: no device %d", cfg->device);
		free(f);
		return -1;
	}
	c.isa = NULL;
	if (cpu->open(&c, &f->cpu, err, errlen)) {
		free(f);
		return -1;
	}
	f->device = cfg->device;
	snprintf(f->desc, sizeof(f->desc), "fake %s (%s) on the host: %s",
		 devs[f->device].name, devs[f->device].arch, cpu->describe(f->cpu));
	*ctx = f;
	return 0;
}

static void fake_close(void *ctx)
{
	struct fake *f = ctx;

	cpu->close(f->cpu);
	free(f);
}

static const char *fake_describe(void *ctx)
{
	return ((struct fake *)ctx)->desc;
}

static int fake_threads(void *ctx)
{
	return cpu->threads(((struct fake *)ctx)->cpu);
}

struct fake_prog {
	void *cpu;
	struct nb_model m;
};

static int fake_model_load(void *ctx, const struct nb_weights *w, void **prog,
			   char *err, size_t errlen)
{
	struct fake_prog *p = calloc(1, sizeof(*p));

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	p->m = w->model;
	if (cpu->model_load(((struct fake *)ctx)->cpu, w, &p->cpu, err, errlen)) {
		free(p);
		return -1;
	}
	*prog = p;
	return 0;
}

/* NBFAKE_WRONG_LAYER's layer output value, planted */
static void wrong_layer(const struct nb_model *m, int frames, float *const *layers)
{
	const char *spec = getenv("NBFAKE_WRONG_LAYER");
	int l, t, y, x, c;

	if (!spec || sscanf(spec, "%d,%d,%d,%d,%d", &l, &t, &y, &x, &c) != 5 || l < 0 ||
	    l >= m->layers || t < 0 || t >= nb_layer_output_frames(m, l, frames))
		return;
	layers[l][(((size_t)t * m->height + y) * m->width + x) * m->filters[l] + c] += 0.5f;
}

static int fake_model_forward_layers(void *ctx, void *prog, const float *in, int batch,
				     int frames, float *const *layers, float *out, char *err,
				     size_t errlen)
{
	const char *wrong = getenv("NBFAKE_WRONG_FRAMES");
	struct fake_prog *p = prog;
	int rc = cpu->model_forward_layers(((struct fake *)ctx)->cpu, p->cpu, in, batch, frames,
					   layers, out, err, errlen);

	/* the last value: of the last item, where a batch offset error shows */
	if (!rc && ((wrong && frames >= atoi(wrong)) || getenv("NBFAKE_WRONG_LAYER")))
		out[nb_output_count(&p->m, batch, frames) - 1] += 0.5f;
	if (!rc && layers)
		wrong_layer(&p->m, frames, layers);
	return rc;
}

static int fake_model_forward(void *ctx, void *prog, const float *in, int batch,
			      int frames, float *out, char *err, size_t errlen)
{
	return fake_model_forward_layers(ctx, prog, in, batch, frames, NULL, out, err, errlen);
}

static void fake_model_free(void *ctx, void *prog)
{
	struct fake_prog *p = prog;

	cpu->model_free(((struct fake *)ctx)->cpu, p->cpu);
	free(p);
}

static int fake_cell_load(void *ctx, const struct nb_cell_desc *d, void **cell,
			  char *err, size_t errlen)
{
	return cpu->cell_load(((struct fake *)ctx)->cpu, d, cell, err, errlen);
}

static void fake_cell_set(void *ctx, void *cell, const float *x, const float *h,
			  const float *c)
{
	cpu->cell_set(((struct fake *)ctx)->cpu, cell, x, h, c);
}

static void fake_cell_step(void *ctx, void *cell)
{
	cpu->cell_step(((struct fake *)ctx)->cpu, cell);
}

static void fake_cell_get(void *ctx, void *cell, float *h, float *c)
{
	cpu->cell_get(((struct fake *)ctx)->cpu, cell, h, c);
}

static void fake_cell_free(void *ctx, void *cell)
{
	cpu->cell_free(((struct fake *)ctx)->cpu, cell);
}

static double fake_fma_peak(void *ctx, long iters, float m, float k, float *lane)
{
	return cpu->fma_peak(((struct fake *)ctx)->cpu, iters, m, k, lane);
}

static void fake_triad(void *ctx, float *a, const float *b, const float *c, float s,
		       size_t n)
{
	cpu->triad(((struct fake *)ctx)->cpu, a, b, c, s, n);
}

static const struct nb_backend_ops fake_ops = {
	.name = "fake",
	.open = fake_open,
	.close = fake_close,
	.describe = fake_describe,
	.threads = fake_threads,
	.model_load = fake_model_load,
	.model_forward = fake_model_forward,
	.model_free = fake_model_free,
	.cell_load = fake_cell_load,
	.cell_set = fake_cell_set,
	.cell_step = fake_cell_step,
	.cell_get = fake_cell_get,
	.cell_free = fake_cell_free,
	.fma_peak = fake_fma_peak,
	.triad = fake_triad,
	.model_forward_layers = fake_model_forward_layers,
};

static struct nb_plugin desc = {
	.abi_version = NB_PLUGIN_ABI_VERSION,
	.size = sizeof(struct nb_plugin),
	.ops_size = sizeof(struct nb_backend_ops),
	.name = "fake",
	.runtime = "fake runtime 1.0",
	.device_count = device_count,
	.device_info = device_info,
	.ops = &fake_ops,
};

__attribute__((visibility("default"))) const struct nb_plugin *navibench_plugin(void);
const struct nb_plugin *navibench_plugin(void)
{
	const char *abi = getenv("NBFAKE_ABI");

	if (abi)
		desc.abi_version = (unsigned int)atoi(abi);
	if (desc.abi_version == 2)
		desc.ops_size = NB_PLUGIN_OPS_SIZE_V2;
	return &desc;
}
