// SPDX-License-Identifier: MIT
/*
 * What this build of navibench has of the optional libraries: see
 * optional.h.
 */
#include <stdio.h>

#include "optional.h"
#include "navibench.h"

static const struct {
	const char *pc, *deb, *what;
} libs[NB_LIB_COUNT] = {
#define NB_LIB_ENTRY(id, p, d, w) [NB_LIB_##id] = { .pc = p, .deb = d, .what = w },
	NB_OPTIONAL_LIBS(NB_LIB_ENTRY)
#undef NB_LIB_ENTRY
};

static const bool have[NB_LIB_COUNT] = {
	[NB_LIB_NONE] = true,
#ifndef NB_WITHOUT_LIBDRM
	[NB_LIB_LIBDRM] = true,
#endif
#ifndef NB_WITHOUT_JSON_C
	[NB_LIB_JSON_C] = true,
#endif
#ifndef NB_WITHOUT_LIBMICROHTTPD
	[NB_LIB_LIBMICROHTTPD] = true,
#endif
#ifndef NB_WITHOUT_LIBPNG
	[NB_LIB_LIBPNG] = true,
#endif
#ifndef NB_WITHOUT_NCURSESW
	[NB_LIB_NCURSESW] = true,
#endif
};

bool nb_lib_have(enum nb_lib lib)
{
	return lib >= 0 && lib < NB_LIB_COUNT && have[lib];
}

int nb_lib_off(const char *cmd, const char *what, enum nb_lib lib)
{
	fprintf(stderr, "navibench %s: %s is off in this build: it needs %s, which was not found "
		"when navibench was built (install %s, then rebuild: make -C user)\n",
		cmd, what, libs[lib].pc, libs[lib].deb);
	return NB_EXIT_USAGE;
}

void nb_libs_print_off(FILE *f)
{
	for (int i = NB_LIB_NONE + 1; i < NB_LIB_COUNT; i++)
		if (!have[i])
			fprintf(f, "built without %s (%s): off: %s\n", libs[i].pc, libs[i].deb,
				libs[i].what);
}
