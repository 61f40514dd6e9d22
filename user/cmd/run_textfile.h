/* SPDX-License-Identifier: MIT */
/*
 * navibench run --textfile DIR: a run's result as Prometheus metrics for
 * node_exporter's textfile collector, one file per device. The families
 * (navibench_run_*) are listed in navibench(1), PROMETHEUS METRICS.
 */
#ifndef NAVIBENCH_CMD_RUN_TEXTFILE_H
#define NAVIBENCH_CMD_RUN_TEXTFILE_H

#include <stddef.h>

#include "optional.h"

struct json_object;

/* What to do about a --textfile DIR that is not a directory. */
#define NB_TEXTFILE_DIR_FIX "create it, or give node_exporter's --collector.textfile.directory"

#ifndef NB_WITHOUT_JSON_C

/*
 * nb_result_textfile_check() - before a run: whether dir is a directory
 * this user may write files in. Returns 0, or NB_EXIT_USAGE after naming
 * the option (--textfile), the directory, what is wrong and the fix.
 */
int nb_result_textfile_check(const char *cmd, const char *dir);

/*
 * nb_result_textfile() - the result doc (a json-c object of schema
 * navibench-run or navibench-run-all, engine/result-schema.md) as
 * DIR/navibench-run-<device index>.prom, one file per device, each
 * written atomically (a later run on the device replaces its file; no
 * other device's is touched). Returns 0; NB_EXIT_USAGE after naming the
 * field when doc is not such a result (nothing written); NB_EXIT_FAIL
 * after naming the file when it cannot be written.
 */
int nb_result_textfile(const char *cmd, struct json_object *doc, const char *dir);

/* nb_result_textfile_json() - the same from the JSON text (len bytes). */
int nb_result_textfile_json(const char *cmd, const char *json, size_t len, const char *dir);
#else
/* The metrics are made from the result read back: off without json-c. */
static inline int nb_result_textfile_check(const char *cmd, const char *dir)
{
	(void)dir;
	return nb_lib_off(cmd, "--textfile", NB_LIB_JSON_C);
}

static inline int nb_result_textfile_json(const char *cmd, const char *json, size_t len,
					  const char *dir)
{
	(void)json;
	(void)len;
	return nb_result_textfile_check(cmd, dir);
}
#endif

#endif /* NAVIBENCH_CMD_RUN_TEXTFILE_H */
