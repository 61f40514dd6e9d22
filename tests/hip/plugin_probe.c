// SPDX-License-Identifier: MIT
/*
 * Loads a GPU plugin as navibench does and prints what it finds, one fact
 * a line, for tests/hip/plugin.sh to check:
 *
 *   plugin_probe PLUGIN         dlopen, the descriptor, device count, info
 *   plugin_probe PLUGIN --ops   also every backend operation on device 0
 *                               (under the fake runtime: up to the first
 *                               launch, which fails)
 *
 * Exit status: 0 when the plugin loaded and its descriptor is navibench's
 * interface, 1 otherwise, 2 for usage errors. What the runtime said is
 * output, not status.
 */
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/plugin.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* every member of the ops table is set */
static int ops_complete(const struct nb_backend_ops *o)
{
	return o->name && o->open && o->close && o->describe && o->threads &&
		o->model_load && o->model_forward && o->model_free &&
		o->cell_load && o->cell_set && o->cell_step && o->cell_get &&
		o->cell_free && o->fma_peak && o->triad;
}

static int descriptor(const struct nb_plugin *p)
{
	printf("abi %u size %u ops_size %u\n", p->abi_version, p->size,
	       p->ops_size);
	if (p->abi_version != NB_PLUGIN_ABI_VERSION ||
	    p->size != sizeof(struct nb_plugin) ||
	    p->ops_size != sizeof(struct nb_backend_ops)) {
		printf("interface mismatch: navibench has abi %d size %zu ops_size %zu\n",
		       NB_PLUGIN_ABI_VERSION, sizeof(struct nb_plugin),
		       sizeof(struct nb_backend_ops));
		return -1;
	}
	printf("name %s\nruntime %s\nops %s\n", p->name, p->runtime,
	       p->ops && ops_complete(p->ops) ? "complete" : "incomplete");
	return p->ops && ops_complete(p->ops) ? 0 : -1;
}

static void devices(const struct nb_plugin *p)
{
	char err[256] = "";
	int count = -2;
	double t0 = now_ms();
	int rc = p->device_count(&count, err, sizeof(err));

	printf("count_ms %.3f\n", now_ms() - t0);
	if (rc) {
		printf("count -1\nerror %s\n", err);
		return;
	}
	printf("count %d\n", count);
	for (int i = 0; i <= count; i++) {	/* one past the end: its error */
		struct nb_plugin_device d;

		if (p->device_info(i, &d, err, sizeof(err))) {
			printf("device %d error %s\n", i, err);
			continue;
		}
		printf("device %d name=%s arch=%s pci=%s cus=%d wave=%d mem=%llu clock=%d memclock=%d bus=%d lds=%d threads=%d runtime=%d driver=%d\n",
		       i, d.name, d.arch, d.pci, d.compute_units, d.wave_size,
		       d.memory_bytes, d.clock_khz, d.memory_clock_khz,
		       d.memory_bus_bits, d.lds_bytes, d.max_threads_per_block,
		       d.runtime_version, d.driver_version);
	}
}

/* a small Conv3D model of zeros: enough to reach the kernels */
static void ops_model(const struct nb_backend_ops *o, void *ctx)
{
	static float zeros[3 * 3 * 3 * 8 * 32];
	struct nb_weights w = { .model = { .name = "probe", .height = 5,
					   .width = 7, .channels = 1, .layers = 1,
					   .filters = { 8 },
					   .head = NB_HEAD_CONV3D,
					   .head_out = 1 } };
	float in[2 * 3 * 5 * 7], out[2 * 3 * 5 * 7];
	char err[256] = "";
	void *prog = NULL;

	w.kernel[0] = w.rkernel[0] = w.bias[0] = zeros;
	w.gamma[0] = w.beta[0] = w.mean[0] = w.var[0] = zeros;
	w.head_kernel = w.head_bias = zeros;
	memset(in, 0, sizeof(in));
	if (o->model_load(ctx, &w, &prog, err, sizeof(err))) {
		printf("model_load error %s\n", err);
		return;
	}
	printf("model_load ok\n");
	if (o->model_forward(ctx, prog, in, 2, 3, out, err, sizeof(err)))
		printf("model_forward error %s\n", err);
	else
		printf("model_forward ok %g\n", out[0]);
	o->model_free(ctx, prog);
}

static void ops_cell(const struct nb_backend_ops *o, void *ctx)
{
	static float k[9 * 3 * 32], r[9 * 8 * 32], b[32];
	static float x[2 * 4 * 4 * 3], h[2 * 4 * 4 * 8], c[2 * 4 * 4 * 8];
	struct nb_cell_desc d = { 2, 4, 4, 3, 8, k, r, b };
	char err[256] = "";
	void *cell = NULL;

	if (o->cell_load(ctx, &d, &cell, err, sizeof(err))) {
		printf("cell_load error %s\n", err);
		return;
	}
	o->cell_set(ctx, cell, x, h, c);
	o->cell_step(ctx, cell);
	o->cell_get(ctx, cell, h, c);
	printf("cell h %g c %g\n", h[0], c[0]);
	o->cell_free(ctx, cell);
}

static void ops(const struct nb_plugin *p)
{
	const struct nb_backend_ops *o = p->ops;
	struct nb_backend_config cfg = { .device = 0 };
	char err[256] = "";
	void *ctx = NULL;
	float lane = 0, a[64], bc[64] = { 0 };
	double flops;

	if (o->open(&cfg, &ctx, err, sizeof(err))) {
		printf("open error %s\n", err);
		return;
	}
	printf("describe %s\nthreads %d\n", o->describe(ctx), o->threads(ctx));
	ops_model(o, ctx);
	ops_cell(o, ctx);
	flops = o->fma_peak(ctx, 1000, 0.5f, 0.25f, &lane);
	printf("fma_peak flops %g lane %g\n", flops, lane);
	o->triad(ctx, a, bc, bc, 0.5f, 64);
	printf("triad a %g\n", a[0]);
	o->close(ctx);
	printf("closed\n");
}

int main(int argc, char **argv)
{
	nb_plugin_fn fn;
	void *h;
	double t0;
	int rc;

	if (argc < 2 || argc > 3 || (argc == 3 && strcmp(argv[2], "--ops"))) {
		fprintf(stderr, "usage: %s PLUGIN [--ops]\n", argv[0]);
		return 2;
	}
	t0 = now_ms();
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	printf("dlopen_ms %.3f\n", now_ms() - t0);
	if (!h) {
		printf("dlopen error %s\n", dlerror());
		return 1;
	}
	fn = (nb_plugin_fn)dlsym(h, NB_PLUGIN_SYMBOL);
	if (!fn) {
		printf("dlsym error %s\n", dlerror());
		dlclose(h);
		return 1;
	}
	rc = descriptor(fn());
	if (!rc) {
		devices(fn());
		if (argc == 3)
			ops(fn());
	}
	t0 = now_ms();
	dlclose(h);
	printf("dlclose_ms %.3f\n", now_ms() - t0);
	return rc ? 1 : 0;
}
