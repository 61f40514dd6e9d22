/* SPDX-License-Identifier: MIT */
/*
 * The GPU backend plugins (hip/: libnavibench_hip.so, libnavibench_cuda.so),
 * loaded with dlopen() once per process: navibench never links a GPU
 * runtime, so it starts where ROCm or CUDA is missing and runs on the CPU.
 * The interface a plugin implements is engine/plugin.h.
 *
 * Where a plugin is looked for, first match wins, per plugin:
 *   $NAVIBENCH_PLUGIN_DIR, when set (and then only there);
 *   else the executable's directory, its ../hip/ (the build tree), and
 *   NB_PLUGIN_LIBDIR (the install's, /usr/local/lib/navibench by default).
 */
#ifndef NAVIBENCH_DEVICES_PLUGIN_H
#define NAVIBENCH_DEVICES_PLUGIN_H

#include "engine/plugin.h"

#ifndef NB_PLUGIN_LIBDIR
#define NB_PLUGIN_LIBDIR "/usr/local/lib/navibench"
#endif

/* A loaded plugin whose runtime reported at least one device. */
struct nb_gpu_plugin {
	const struct nb_plugin *p;	/* &desc */
	/*
	 * The plugin's descriptor and ops, copied at this navibench's sizes:
	 * what an older interface version lacks is NULL (engine/plugin.h).
	 */
	struct nb_plugin desc;
	struct nb_backend_ops ops;
	char path[512];
	int ndev;
	struct nb_plugin_device *dev;	/* dev[i]: ordinal i */
};

/*
 * nb_plugins_load() - find, load and check every plugin, and ask each
 * runtime for its devices. Runs once per process (later calls return at
 * once); safe to call from any thread. Plugins are never unloaded:
 * GPU runtimes do not survive dlclose().
 */
void nb_plugins_load(void);

/* The usable plugins: 0..nb_plugins_count()-1. */
int nb_plugins_count(void);
const struct nb_gpu_plugin *nb_plugins_get(int i);

/*
 * nb_plugins_notice() - one line saying why no GPU backend can be used
 * (no plugin found, its runtime missing, an interface version mismatch,
 * the runtime's error, no device), "" when one can.
 */
const char *nb_plugins_notice(void);

#endif /* NAVIBENCH_DEVICES_PLUGIN_H */
