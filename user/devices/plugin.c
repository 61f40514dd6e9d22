// SPDX-License-Identifier: MIT
/*
 * The GPU backend plugin loader: see plugin.h. Each plugin file is looked
 * for in the search directories, loaded with RTLD_NOW (a missing runtime
 * shows at dlopen(), not at the first call), checked against this
 * navibench's interface (version and structure sizes), then asked for its
 * devices. What went wrong with each is kept, to make the one-line notice.
 */
#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devices/devices.h"
#include "devices/plugin.h"

static const char *const plugin_files[] = {
	"libnavibench_hip.so",
	"libnavibench_cuda.so",
};
#define NFILES (sizeof(plugin_files) / sizeof(plugin_files[0]))
#define MAX_DIRS 3

static struct nb_gpu_plugin loaded[NFILES];
static int nloaded;
static char notice[1024];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static int search_dirs(char dirs[MAX_DIRS][512])
{
	const char *env = getenv("NAVIBENCH_PLUGIN_DIR");
	char exe[512];
	ssize_t len;
	int n = 0;

	if (env && *env) {
		nb_strcpy(dirs[n++], 512, env);
		return n;
	}
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		char up[512], *real;

		nb_strcpy(dirs[n++], 512, dirname(exe));
		snprintf(up, sizeof(up), "%.500s/../hip", exe);
		/* named as ls would name it, in the notice */
		real = realpath(up, NULL);
		nb_strcpy(dirs[n++], 512, real ? real : up);
		free(real);
	}
	nb_strcpy(dirs[n++], 512, NB_PLUGIN_LIBDIR);
	return n;
}

static void add_reason(char *buf, size_t n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Append to a "; "-separated list of reasons. */
static void add_reason(char *buf, size_t n, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len && len + 2 < n) {
		memcpy(buf + len, "; ", 3);
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + len, n - len, fmt, ap);
	va_end(ap);
}

/* Append to a ", "-separated list of names. */
static void add_name(char *buf, size_t n, const char *name)
{
	size_t len = strlen(buf);

	if (len && len + 2 < n) {
		memcpy(buf + len, ", ", 3);
		len += 2;
	}
	nb_strcpy(buf + len, n - len, name);
}

/*
 * dlopen() failed on a file that is there: when what is missing is
 * another file (the runtime the plugin links), say so; else the plugin
 * itself is broken.
 */
static void open_failed(const char *path, const char *file, char *why, size_t n)
{
	const char *e = dlerror();

	if (!e)
		e = "unknown error";
	if (strstr(e, "cannot open shared object file") && strncmp(e, path, strlen(path)))
		add_reason(why, n, "%s is present but its runtime is missing (%s)", file, e);
	else
		add_reason(why, n, "%s cannot be loaded (%s)", file, e);
}

/* The descriptor, checked; NULL after adding why not. */
static const struct nb_plugin *check_plugin(void *h, const char *file, char *why,
					    size_t n)
{
	nb_plugin_fn fn;
	const struct nb_plugin *p;
	size_t ops_size;

	*(void **)&fn = dlsym(h, NB_PLUGIN_SYMBOL);
	if (!fn) {
		add_reason(why, n, "%s is not a navibench plugin (no %s symbol)", file,
			   NB_PLUGIN_SYMBOL);
		return NULL;
	}
	p = fn();
	if (!p) {
		add_reason(why, n, "%s returned no descriptor", file);
		return NULL;
	}
	if (p->abi_version < NB_PLUGIN_ABI_OLDEST || p->abi_version > NB_PLUGIN_ABI_VERSION) {
		add_reason(why, n, "%s has interface version %u, this navibench needs %u to %u "
			   "(rebuild the plugin from this source: make -C hip)",
			   file, p->abi_version, NB_PLUGIN_ABI_OLDEST, NB_PLUGIN_ABI_VERSION);
		return NULL;
	}
	ops_size = p->abi_version == 2 ? NB_PLUGIN_OPS_SIZE_V2 : sizeof(struct nb_backend_ops);
	if (p->size != sizeof(struct nb_plugin) || p->ops_size != ops_size) {
		add_reason(why, n, "%s has interface version %u but other structure sizes "
			   "(descriptor %u, ops %u; navibench %zu, %zu): rebuild it from this source",
			   file, p->abi_version, p->size, p->ops_size,
			   sizeof(struct nb_plugin), ops_size);
		return NULL;
	}
	if (!p->name || !p->device_count || !p->device_info || !p->ops) {
		add_reason(why, n, "%s: incomplete descriptor", file);
		return NULL;
	}
	return p;
}

/*
 * The checked descriptor and ops copied at this navibench's sizes (an older
 * version's ops are shorter: what it lacks stays NULL); g->p points to the
 * copy from then on.
 */
static void adopt(struct nb_gpu_plugin *g)
{
	memset(&g->ops, 0, sizeof(g->ops));
	memcpy(&g->ops, g->p->ops, g->p->ops_size);
	g->desc = *g->p;
	g->desc.ops = &g->ops;
	g->p = &g->desc;
}

/* Ask the runtime for its devices; 0 when it has at least one. */
static int query_devices(struct nb_gpu_plugin *g, const char *file, char *why, size_t n)
{
	const struct nb_plugin *p = g->p;
	char err[256] = "";
	int count = 0;

	if (p->device_count(&count, err, sizeof(err)) < 0) {
		add_reason(why, n, "%s (%s): %s", file, p->runtime ? p->runtime : p->name,
			   err[0] ? err : "the runtime failed to count its devices");
		return -1;
	}
	if (count <= 0) {
		add_reason(why, n, "%s (%s): the runtime reports no device", file,
			   p->runtime ? p->runtime : p->name);
		return -1;
	}
	g->dev = calloc((size_t)count, sizeof(*g->dev));
	if (!g->dev) {
		add_reason(why, n, "%s: out of memory", file);
		return -1;
	}
	for (int i = 0; i < count; i++) {
		if (p->device_info(i, &g->dev[i], err, sizeof(err)) < 0) {
			/* listed anyway: the ordinal is what the backend needs */
			snprintf(g->dev[i].name, sizeof(g->dev[i].name),
				 "%s device %d (%s)", p->name, i, err);
		}
		g->dev[i].name[sizeof(g->dev[i].name) - 1] = '\0';
		g->dev[i].arch[sizeof(g->dev[i].arch) - 1] = '\0';
		g->dev[i].pci[sizeof(g->dev[i].pci) - 1] = '\0';
	}
	g->ndev = count;
	return 0;
}

static void load_all(void)
{
	char dirs[MAX_DIRS][512], why[768] = "", looked[640] = "", missing[128] = "";
	int ndirs = search_dirs(dirs);

	for (size_t f = 0; f < NFILES; f++) {
		struct nb_gpu_plugin *g = &loaded[nloaded];
		const char *file = plugin_files[f];
		void *h = NULL;
		int d;

		for (d = 0; d < ndirs; d++) {
			snprintf(g->path, sizeof(g->path), "%.470s/%.32s", dirs[d], file);
			if (!access(g->path, F_OK))
				break;
		}
		if (d == ndirs) {
			add_name(missing, sizeof(missing), file);
			continue;
		}
		h = dlopen(g->path, RTLD_NOW | RTLD_LOCAL);
		if (!h) {
			open_failed(g->path, file, why, sizeof(why));
			continue;
		}
		g->p = check_plugin(h, file, why, sizeof(why));
		if (g->p)
			adopt(g);
		if (!g->p || query_devices(g, file, why, sizeof(why))) {
			/* kept loaded: a runtime may not survive being unloaded */
			g->p = NULL;
			continue;
		}
		nloaded++;
	}
	if (nloaded)
		return;
	for (int d = 0; d < ndirs; d++)
		add_name(looked, sizeof(looked), dirs[d]);
	if (!why[0])
		snprintf(notice, sizeof(notice), "no GPU plugin found (%s; looked in %s)",
			 missing, looked);
	else if (missing[0])
		snprintf(notice, sizeof(notice), "%s; no %s (looked in %s)", why, missing,
			 looked);
	else
		snprintf(notice, sizeof(notice), "%s", why);
}

void nb_plugins_load(void)
{
	pthread_once(&once, load_all);
}

int nb_plugins_count(void)
{
	nb_plugins_load();
	return nloaded;
}

const struct nb_gpu_plugin *nb_plugins_get(int i)
{
	nb_plugins_load();
	return i >= 0 && i < nloaded ? &loaded[i] : NULL;
}

const char *nb_plugins_notice(void)
{
	nb_plugins_load();
	return notice;
}
