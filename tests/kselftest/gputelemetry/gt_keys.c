// SPDX-License-Identifier: GPL-2.0
/*
 * gt_keys - prints the keys of the module's readings, GT_SENSORS in
 * gputelemetry.h, one per line in the order the "sensors" and "history"
 * files list them, so that the shell tests take the list from the one
 * table the module is built from instead of spelling it out.
 *
 *   gt_keys
 *
 * Exits 0, or 2 when given an argument.
 */
#include <stdio.h>

#include "gputelemetry.h"

int main(int argc, char **argv)
{
	static const char *const keys[] = {
#define GT_KEY(id, key, ...) key,
		GT_SENSORS(GT_KEY)
#undef GT_KEY
	};
	unsigned int i;

	if (argc > 1) {
		fprintf(stderr, "usage: %s (no arguments)\n", argv[0]);
		return 2;
	}
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		printf("%s\n", keys[i]);
	return 0;
}
