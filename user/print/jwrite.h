/* SPDX-License-Identifier: MIT */
/*
 * Writing JSON: json-c where navibench is built with it; without it
 * (optional.h), jwrite.c, a stand-in for the part of json-c's API that the
 * writers use (the JSON output format, json.c; the safetensors header,
 * engine/safetensors.c): build a tree, write it plain or pretty. A build
 * without json-c still writes every JSON document, so that a bare GPU
 * machine's result is machine-readable (scripts/gpu-check); it reads none.
 * tests/bare checks that both write the same documents.
 */
#ifndef NAVIBENCH_JWRITE_H
#define NAVIBENCH_JWRITE_H

#ifndef NB_WITHOUT_JSON_C
#include <json-c/json.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum json_type {
	json_type_null,
	json_type_boolean,
	json_type_double,
	json_type_int,
	json_type_object,
	json_type_array,
	json_type_string,
};

#define JSON_C_TO_STRING_PLAIN		0
#define JSON_C_TO_STRING_SPACED		(1 << 0)
#define JSON_C_TO_STRING_PRETTY		(1 << 1)
#define JSON_C_TO_STRING_NOSLASHESCAPE	(1 << 4)

/* A value; NULL stands for JSON null, as in json-c. */
struct json_object;

struct json_object *json_object_new_object(void);
struct json_object *json_object_new_array(void);
struct json_object *json_object_new_string(const char *s);
struct json_object *json_object_new_boolean(int b);
struct json_object *json_object_new_int64(int64_t i);
struct json_object *json_object_new_uint64(uint64_t u);
/* d written as repr, which must be a JSON number */
struct json_object *json_object_new_double_s(double d, const char *repr);
/* Both take ownership of val; a key already there is replaced in place. */
int json_object_object_add(struct json_object *o, const char *key, struct json_object *val);
int json_object_array_add(struct json_object *a, struct json_object *val);
int json_object_object_get_ex(const struct json_object *o, const char *key,
			      struct json_object **val);
int json_object_object_length(const struct json_object *o);
int json_object_is_type(const struct json_object *o, enum json_type t);
/* Valid until o is put; NOSLASHESCAPE is always so. */
const char *json_object_to_json_string_ext(struct json_object *o, int flags);
int json_object_put(struct json_object *o);
#endif

#endif /* NAVIBENCH_JWRITE_H */
