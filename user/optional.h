/* SPDX-License-Identifier: MIT */
/*
 * The optional libraries. navibench builds where only a C compiler, make
 * and libc exist (a bare CUDA machine, scripts/gpu-check): user/Makefile
 * asks pkg-config for each library of this table, and one it finds turns
 * on what needs it. A missing one (-DNB_WITHOUT_<ID>) turns off only that:
 * the build says so, `navibench --version` lists it, and a command or
 * option that is off says so when asked for, with the package that brings
 * it back (exit 2).
 *
 * X(ID, pkg-config name, Debian package, what is off without it). The
 * Makefile reads the first three fields from this table: one entry per
 * line, strings without commas.
 */
#ifndef NAVIBENCH_OPTIONAL_H
#define NAVIBENCH_OPTIONAL_H

#include <stdbool.h>
#include <stdio.h>

#define NB_OPTIONAL_LIBS(X)							\
	X(LIBDRM, "libdrm", "libdrm-dev",					\
	  "amdgpu devices (list, info, sensors, processes and run see none)")	\
	X(JSON_C, "json-c", "libjson-c-dev",					\
	  "reading JSON: compare, report, run --textfile, --weights FILE, "	\
	  "the run result's device_info (JSON output stays on)")		\
	X(LIBMICROHTTPD, "libmicrohttpd", "libmicrohttpd-dev",			\
	  "the exporter's HTTP server (exporter --textfile stays on)")		\
	X(LIBPNG, "libpng", "libpng-dev", "PNG pictures (predict --png)")	\
	X(NCURSESW, "ncursesw", "libncurses-dev", "the live view (top)")

enum nb_lib {
	NB_LIB_NONE,
#define NB_LIB_ENUM(id, pc, deb, what) NB_LIB_##id,
	NB_OPTIONAL_LIBS(NB_LIB_ENUM)
#undef NB_LIB_ENUM
	NB_LIB_COUNT
};

/* Whether this navibench was built with lib (NB_LIB_NONE: always). */
bool nb_lib_have(enum nb_lib lib);

/*
 * nb_lib_off() - say on stderr that what ("compare", "--png") of command
 * cmd is off in this build, which library it needs and which package
 * brings it back. Returns NB_EXIT_USAGE.
 */
int nb_lib_off(const char *cmd, const char *what, enum nb_lib lib);

/* One line per library this build lacks: what is off, and the package. */
void nb_libs_print_off(FILE *f);

/* A handler in a source the Makefile leaves out without json-c (NULL then). */
#ifndef NB_WITHOUT_JSON_C
#define NB_WITH_JSON_C(x) (x)
#else
#define NB_WITH_JSON_C(x) NULL
#endif

/* A handler in a source the Makefile leaves out without ncursesw (NULL then). */
#ifndef NB_WITHOUT_NCURSESW
#define NB_WITH_NCURSESW(x) (x)
#else
#define NB_WITH_NCURSESW(x) NULL
#endif

#endif /* NAVIBENCH_OPTIONAL_H */
