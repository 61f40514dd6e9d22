// SPDX-License-Identifier: MIT
/*
 * nb_result_textfile() on its own: result_textfile DIR reads a result
 * document (navibench-run or navibench-run-all JSON) on stdin and writes
 * its metrics into DIR, as `navibench run --textfile DIR` does after a
 * run; its exit status is nb_result_textfile()'s. tests/exporter/run
 * feeds it real results with members added or broken by jq (a telemetry
 * record, a device whose backend did not open, a field of the wrong type).
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/run_textfile.h"

int main(int argc, char **argv)
{
	struct json_object *doc;
	char *buf = NULL;
	size_t len = 0, n;
	char chunk[65536];
	FILE *f;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: result_textfile DIR <result.json\n");
		return 2;
	}
	f = open_memstream(&buf, &len);
	if (!f)
		return 1;
	while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
		fwrite(chunk, 1, n, f);
	if (fclose(f))
		return 1;
	doc = json_tokener_parse(buf);
	free(buf);
	if (!doc) {
		fprintf(stderr, "result_textfile: stdin is not JSON\n");
		return 2;
	}
	rc = nb_result_textfile("run", doc, argv[1]);
	json_object_put(doc);
	return rc;
}
