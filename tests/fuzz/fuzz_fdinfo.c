// SPDX-License-Identifier: MIT
/*
 * user/devices/fdinfo.c's parser on any text as a /proc/<pid>/fdinfo/<fd>
 * file. The input is passed without a NUL (its length bounds the parse).
 *
 * Checked beyond crashes: strings are terminated, the engine count stays
 * within its array, engine names are non-empty and distinct, and a client
 * is reported only with a driver and an id.
 */
#include "fuzz.h"

#include "devices/fdinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_fdinfo fi;
	int r = nb_fdinfo_parse((const char *)data, size, &fi);

	FUZZ_CHECK(memchr(fi.driver, '\0', sizeof(fi.driver)), "driver not terminated");
	FUZZ_CHECK(memchr(fi.pdev, '\0', sizeof(fi.pdev)), "pdev not terminated");
	FUZZ_CHECK(fi.nengines >= 0 && fi.nengines <= NB_FDINFO_ENGINES, "%d engines", fi.nengines);
	for (int i = 0; i < fi.nengines; i++) {
		FUZZ_CHECK(memchr(fi.engine[i].name, '\0', sizeof(fi.engine[i].name)) &&
			   fi.engine[i].name[0], "engine %d name", i);
		for (int j = 0; j < i; j++)
			FUZZ_CHECK(strcmp(fi.engine[i].name, fi.engine[j].name), "engine %s twice",
				   fi.engine[i].name);
	}
	FUZZ_CHECK(r < 0 || (fi.driver[0] && fi.has_client_id), "client without driver or id");
	return 0;
}
