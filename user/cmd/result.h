/* SPDX-License-Identifier: MIT */
/*
 * Reading a `navibench run --json` result (engine/result-schema.md) for
 * the commands that read results (compare, report): one loader, so that
 * both accept and refuse the same files with the same messages.
 */
#ifndef NAVIBENCH_CMD_RESULT_H
#define NAVIBENCH_CMD_RESULT_H

#include <stdbool.h>

struct json_object;

#define NB_RESULT_MAX_TESTS 16

/* One element of tests[]: what compare and report read of it. */
struct nb_result_test {
	const char *name, *unit, *status;
	double value, median;	/* NaN: null */
	long batch, frames;	/* -1: null */
	double *rates;		/* per repeat, in the unit; NULL: none kept */
	int n;
};

/*
 * One result. The strings point into root, which stays parsed until
 * nb_result_free(), so a command may read more fields from it through
 * nb_json_get() and its kin.
 */
struct nb_result {
	const char *path;
	struct json_object *root;
	long version;
	const char *date, *device, *kind, *backend, *detail, *weights;
	const char *ref_id, *version_str, *commit, *kernel, *governor;
	bool quick, valid, complete;
	long seed, threads;
	double score, load_start;	/* NaN: none */
	struct nb_result_test t[NB_RESULT_MAX_TESTS];
	int nt;
};

/* The JSON types a field may have, for nb_json_get(). */
enum {
	J_NULL = 1 << 0, J_BOOL = 1 << 1, J_NUM = 1 << 2, J_INT = 1 << 3,
	J_STR = 1 << 4, J_OBJ = 1 << 5, J_ARR = 1 << 6,
};

/*
 * Where an error is reported: "navibench CMD: PATH: what". Only the
 * first error of a file is printed; bad tells that there was one.
 */
struct nb_reader {
	const char *cmd;
	const char *path;
	long version;		/* schema_version */
	bool bad;		/* an error was reported */
};

void nb_reader_bad(struct nb_reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * nb_json_get() - member key of o (named "where.key" in errors) of one of
 * the types in want (J_NULL: it may also be absent); NULL after an error
 * or when absent. The others read one type, NaN or -1 for null.
 */
struct json_object *nb_json_get(struct nb_reader *rd, struct json_object *o, const char *where,
				const char *key, int want, const char *expected);
const char *nb_json_str(struct nb_reader *rd, struct json_object *o, const char *where,
			const char *key, bool nullable);
double nb_json_num(struct nb_reader *rd, struct json_object *o, const char *where,
		   const char *key);
long nb_json_int(struct nb_reader *rd, struct json_object *o, const char *where,
		 const char *key, bool nullable);
bool nb_json_bool(struct nb_reader *rd, struct json_object *o, const char *where,
		  const char *key);

/*
 * nb_result_read() - read the result in path for command cmd. Returns 0,
 * or NB_EXIT_USAGE after naming the file and the field. Call
 * nb_result_free() either way.
 */
int nb_result_read(const char *cmd, const char *path, struct nb_result *r);
void nb_result_free(struct nb_result *r);
const struct nb_result_test *nb_result_find_test(const struct nb_result *r, const char *name);

#endif /* NAVIBENCH_CMD_RESULT_H */
