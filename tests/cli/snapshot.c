// SPDX-License-Identifier: MIT
/*
 * nb_sensors_snapshot() as a scraper calls it: again and again in one
 * process. snapshot FORMAT N calls it N times into memory, checks each
 * call succeeds and prints the same number of lines, and prints the last
 * output. Built with ASan/LSan by tests/cli/run: a leak or a state that
 * breaks on the second call fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "navibench.h"
#include "print/print.h"
#include "cmd/sensors.h"

static int lines(const char *s, size_t n)
{
	int k = 0;

	for (size_t i = 0; i < n; i++)
		k += s[i] == '\n';
	return k;
}

int main(int argc, char **argv)
{
	const struct nb_print_ops *fmt = NULL;
	int n = argc > 2 ? atoi(argv[2]) : 0, first = -1;
	char *buf = NULL;
	size_t len = 0;

	for (int f = 0; argc > 1 && f < NB_FORMAT_COUNT; f++)
		if (!strcmp(nb_format_names[f], argv[1]))
			fmt = nb_format_ops((enum nb_format)f);
	if (!fmt || n < 1) {
		fprintf(stderr, "usage: snapshot text|json|csv|prometheus N\n");
		return 2;
	}
	for (int i = 0; i < n; i++) {
		FILE *f = open_memstream(&buf, &len);
		struct nb_print *p;
		int rc;

		if (!f)
			return 1;
		p = nb_print_open_file(fmt, f, "sensors");
		rc = nb_sensors_snapshot(p, 0);
		if (rc == NB_EXIT_OK)
			rc = nb_print_close(p);
		else
			nb_print_discard(p);
		if (fclose(f) || rc != NB_EXIT_OK) {
			fprintf(stderr, "snapshot: call %d returned %d\n", i + 1, rc);
			return 1;
		}
		if (first < 0)
			first = lines(buf, len);
		if (lines(buf, len) != first || !len) {
			fprintf(stderr, "snapshot: call %d printed %d lines, the first %d\n", i + 1,
				lines(buf, len), first);
			return 1;
		}
		if (i < n - 1) {
			free(buf);
			buf = NULL;
		}
	}
	fwrite(buf, 1, len, stdout);
	free(buf);
	return 0;
}
