// SPDX-License-Identifier: MIT
/*
 * The system record of a run result: see system.h and
 * engine/result-schema.md ("system").
 */
#ifndef NB_WITHOUT_JSON_C
#include <json-c/json.h>
#endif
#ifndef NB_WITHOUT_LIBPNG
#include <png.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "navibench.h"
#include "print/print.h"
#include "engine/system.h"

/* NB_BUILD_COMMIT, NB_BUILD_CFLAGS, NB_LIBDRM_VERSION: written by the Makefile */
#if __has_include("buildinfo.h")
#include "buildinfo.h"
#endif
#ifndef NB_BUILD_COMMIT
#define NB_BUILD_COMMIT ""
#endif
#ifndef NB_BUILD_CFLAGS
#define NB_BUILD_CFLAGS ""
#endif
#ifndef NB_LIBDRM_VERSION
#define NB_LIBDRM_VERSION ""
#endif

const char *nb_build_commit(void)
{
	return NB_BUILD_COMMIT;
}

/* The first line of a file, newline removed; "" when unreadable. */
static void read_line(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (!fgets(buf, (int)n, f))
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* The value of "key<sep>value" lines of a file, unquoted; "" when absent. */
static void read_key(const char *path, const char *key, char sep, char *buf, size_t n)
{
	FILE *f = fopen(path, "re");
	char line[512];
	size_t klen = strlen(key);

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *v;

		if (strncmp(line, key, klen))
			continue;
		v = line + klen;
		while (*v == ' ' || *v == '\t')
			v++;
		if (*v != sep)
			continue;
		v++;
		while (*v == ' ' || *v == '"')
			v++;
		v[strcspn(v, "\"\n")] = '\0';
		snprintf(buf, n, "%s", v);
		break;
	}
	fclose(f);
}

static void read_loadavg(struct nb_loadavg *l)
{
	l->known = getloadavg(l->v, 3) == 3;
}

void nb_system_start(struct nb_system *s, const char *pci, const char *device)
{
	struct utsname u;
	char buf[64], path[160];

	memset(s, 0, sizeof(*s));
	read_loadavg(&s->load_start);
	if (!uname(&u)) {
		snprintf(s->kernel_release, sizeof(s->kernel_release), "%s", u.release);
		snprintf(s->kernel_version, sizeof(s->kernel_version), "%s", u.version);
		snprintf(s->machine, sizeof(s->machine), "%s", u.machine);
	}
	read_key("/etc/os-release", "PRETTY_NAME", '=', s->os, sizeof(s->os));
	read_key("/proc/cpuinfo", "model name", ':', s->cpu_model, sizeof(s->cpu_model));
	s->logical_cpus = sysconf(_SC_NPROCESSORS_ONLN);
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", s->governor,
		  sizeof(s->governor));
	read_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", s->scaling_driver,
		  sizeof(s->scaling_driver));
	read_key("/proc/meminfo", "MemTotal", ':', buf, sizeof(buf));
	s->memory_bytes = strtoull(buf, NULL, 10) * 1024;
	if (pci && pci[0]) {
		char link[256];
		ssize_t n;

		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", pci);
		n = readlink(path, link, sizeof(link) - 1);
		if (n > 0) {
			link[n] = '\0';
			snprintf(s->gpu_driver, sizeof(s->gpu_driver), "%.31s",
				 strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
		}
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vbios_version", pci);
		read_line(path, s->vbios_version, sizeof(s->vbios_version));
	}
#ifndef NB_WITHOUT_JSON_C
	/* read back to be emitted in any format; without a parser, absent */
	if (device) {
		char *text = nb_info_json_text(device);

		s->device_info = text ? json_tokener_parse(text) : NULL;
		free(text);
	}
#else
	(void)device;
#endif
}

void nb_system_end(struct nb_system *s)
{
	read_loadavg(&s->load_end);
}

void nb_system_free(struct nb_system *s)
{
#ifndef NB_WITHOUT_JSON_C
	json_object_put(s->device_info);
#endif
	s->device_info = NULL;
}

/* A string member only when there is a value: absent, never "". */
static void opt_str(struct nb_print *p, const char *key, const char *v)
{
	if (v && v[0])
		nb_str(p, key, NULL, v);
}

static void loadavg(struct nb_print *p, const char *key, const struct nb_loadavg *l)
{
	if (!l->known)
		return;
	nb_arr_begin(p, key, NULL);
	for (int i = 0; i < 3; i++)
		nb_dbl(p, "load", NULL, l->v[i], 2, NULL);
	nb_arr_end(p);
}

/* A JSON value kept from another document, printed again member by member. */
#ifndef NB_WITHOUT_JSON_C
static void emit_json(struct nb_print *p, const char *key, struct json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_object:
		nb_obj_begin(p, key, NULL);
		json_object_object_foreach(o, k, v)
			emit_json(p, k, v);
		nb_obj_end(p);
		break;
	case json_type_array:
		nb_arr_begin(p, key, NULL);
		for (size_t i = 0; i < json_object_array_length(o); i++)
			emit_json(p, key, json_object_array_get_idx(o, i));
		nb_arr_end(p);
		break;
	case json_type_string:
		nb_str(p, key, NULL, json_object_get_string(o));
		break;
	case json_type_boolean:
		nb_bool(p, key, NULL, json_object_get_boolean(o));
		break;
	case json_type_int:
		nb_i64(p, key, NULL, json_object_get_int64(o), NULL);
		break;
	case json_type_double:
		nb_dbl(p, key, NULL, json_object_get_double(o), 0, NULL);
		break;
	default:
		nb_missing(p, key, NULL, NULL);
		break;
	}
}
#endif

static void emit_build(struct nb_print *p)
{
	nb_obj_begin(p, "navibench", NULL);
	nb_str(p, "version", NULL, NAVIBENCH_VERSION);
	opt_str(p, "commit", NB_BUILD_COMMIT);
#ifdef __clang__
	nb_str(p, "compiler", NULL, "clang " __clang_version__);
#elif defined(__GNUC__)
	nb_str(p, "compiler", NULL, "gcc " __VERSION__);
#endif
	opt_str(p, "cflags", NB_BUILD_CFLAGS);
	nb_obj_end(p);
	nb_obj_begin(p, "libraries", NULL);
	opt_str(p, "libdrm", NB_LIBDRM_VERSION);
#ifndef NB_WITHOUT_JSON_C
	nb_str(p, "json-c", NULL, json_c_version());
#endif
#ifndef NB_WITHOUT_LIBPNG
	nb_str(p, "libpng", NULL, png_get_libpng_ver(NULL));
#endif
	nb_obj_end(p);
}

void nb_system_emit(struct nb_print *p, const struct nb_system *s)
{
	nb_obj_begin(p, "system", NULL);
	emit_build(p);
	nb_obj_begin(p, "kernel", NULL);
	opt_str(p, "release", s->kernel_release);
	opt_str(p, "version", s->kernel_version);
	opt_str(p, "machine", s->machine);
	nb_obj_end(p);
	opt_str(p, "os", s->os);
	nb_obj_begin(p, "cpu", NULL);
	opt_str(p, "model", s->cpu_model);
	if (s->logical_cpus > 0)
		nb_i64(p, "logical_cpus", NULL, s->logical_cpus, NULL);
	opt_str(p, "governor", s->governor);
	opt_str(p, "scaling_driver", s->scaling_driver);
	nb_obj_end(p);
	if (s->memory_bytes)
		nb_u64(p, "memory_bytes", NULL, s->memory_bytes, NULL);
	if (s->gpu_driver[0] || s->vbios_version[0]) {
		nb_obj_begin(p, "gpu", NULL);
		opt_str(p, "driver", s->gpu_driver);
		opt_str(p, "vbios_version", s->vbios_version);
		nb_obj_end(p);
	}
	nb_obj_begin(p, "load_average", NULL);
	loadavg(p, "start", &s->load_start);
	loadavg(p, "end", &s->load_end);
	nb_obj_end(p);
#ifndef NB_WITHOUT_JSON_C
	if (s->device_info)
		emit_json(p, "device_info", s->device_info);
#endif
	nb_obj_end(p);
}
