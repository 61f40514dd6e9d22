// SPDX-License-Identifier: MIT
/*
 * A JSON tree and its writer, for a build without json-c: see jwrite.h.
 * Members keep their order; the output is json-c's, spacing aside.
 */
#ifdef NB_WITHOUT_JSON_C	/* else json-c is the writer (the Makefile leaves this out) */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/jwrite.h"

struct json_object {
	enum json_type type;
	bool is_unsigned;
	char *key;			/* a member's name */
	char *str;			/* string, or a number's text */
	bool b;
	int64_t i;
	uint64_t u;
	struct json_object *first, *last, *next;	/* children */
	char *text;			/* the last json_object_to_json_string_ext() */
};

static struct json_object *node(enum json_type t)
{
	struct json_object *o = calloc(1, sizeof(*o));

	if (!o)
		abort();
	o->type = t;
	return o;
}

static char *dup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		abort();
	return d;
}

struct json_object *json_object_new_object(void)
{
	return node(json_type_object);
}

struct json_object *json_object_new_array(void)
{
	return node(json_type_array);
}

struct json_object *json_object_new_string(const char *s)
{
	struct json_object *o = node(json_type_string);

	o->str = dup(s);
	return o;
}

struct json_object *json_object_new_boolean(int b)
{
	struct json_object *o = node(json_type_boolean);

	o->b = b;
	return o;
}

struct json_object *json_object_new_int64(int64_t i)
{
	struct json_object *o = node(json_type_int);

	o->i = i;
	return o;
}

struct json_object *json_object_new_uint64(uint64_t u)
{
	struct json_object *o = node(json_type_int);

	o->is_unsigned = true;
	o->u = u;
	return o;
}

struct json_object *json_object_new_double_s(double d, const char *repr)
{
	struct json_object *o = node(json_type_double);

	(void)d;
	o->str = dup(repr);
	return o;
}

int json_object_put(struct json_object *o)
{
	if (!o)
		return 0;
	for (struct json_object *c = o->first, *n; c; c = n) {
		n = c->next;
		json_object_put(c);
	}
	free(o->key);
	free(o->str);
	free(o->text);
	free(o);
	return 1;
}

/* json-c's NULL (JSON null) as a node of its own in a container */
static void append(struct json_object *c, struct json_object *val)
{
	if (c->last)
		c->last->next = val;
	else
		c->first = val;
	c->last = val;
}

int json_object_array_add(struct json_object *a, struct json_object *val)
{
	append(a, val ? val : node(json_type_null));
	return 0;
}

int json_object_object_add(struct json_object *o, const char *key, struct json_object *val)
{
	if (!val)
		val = node(json_type_null);
	val->key = dup(key);
	for (struct json_object **p = &o->first; *p; p = &(*p)->next) {
		if (strcmp((*p)->key, key))
			continue;
		val->next = (*p)->next;
		if (o->last == *p)
			o->last = val;
		(*p)->next = NULL;
		json_object_put(*p);
		*p = val;
		return 0;
	}
	append(o, val);
	return 0;
}

int json_object_object_get_ex(const struct json_object *o, const char *key,
			      struct json_object **val)
{
	for (struct json_object *c = o ? o->first : NULL; c; c = c->next)
		if (!strcmp(c->key, key)) {
			if (val)
				*val = c->type == json_type_null ? NULL : c;
			return 1;
		}
	if (val)
		*val = NULL;
	return 0;
}

int json_object_object_length(const struct json_object *o)
{
	int n = 0;

	for (struct json_object *c = o->first; c; c = c->next)
		n++;
	return n;
}

int json_object_is_type(const struct json_object *o, enum json_type t)
{
	return (o ? o->type : json_type_null) == t;
}

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

static void indent(FILE *f, int flags, int depth)
{
	if (!(flags & JSON_C_TO_STRING_PRETTY))
		return;
	fputc('\n', f);
	for (int i = 0; i < depth; i++)
		fputs("  ", f);
}

static void write_value(FILE *f, const struct json_object *o, int flags, int depth)
{
	bool obj = o->type == json_type_object;

	switch (o->type) {
	case json_type_null: fputs("null", f); return;
	case json_type_boolean: fputs(o->b ? "true" : "false", f); return;
	case json_type_double: fputs(o->str, f); return;
	case json_type_string: put_string(f, o->str); return;
	case json_type_int:
		if (o->is_unsigned)
			fprintf(f, "%" PRIu64, o->u);
		else
			fprintf(f, "%" PRId64, o->i);
		return;
	case json_type_object:
	case json_type_array:
		break;
	}
	fputc(obj ? '{' : '[', f);
	for (const struct json_object *c = o->first; c; c = c->next) {
		indent(f, flags, depth + 1);
		if (obj) {
			put_string(f, c->key);
			fputs(flags & JSON_C_TO_STRING_SPACED ? ": " : ":", f);
		}
		write_value(f, c, flags, depth + 1);
		if (c->next)
			fputc(',', f);
	}
	if (o->first)
		indent(f, flags, depth);
	fputc(obj ? '}' : ']', f);
}

const char *json_object_to_json_string_ext(struct json_object *o, int flags)
{
	size_t len = 0;
	FILE *f;

	if (!o)
		return "null";
	free(o->text);
	o->text = NULL;
	f = open_memstream(&o->text, &len);
	if (!f)
		abort();
	write_value(f, o, flags, 0);
	if (fclose(f))
		abort();
	return o->text;
}
#endif /* NB_WITHOUT_JSON_C */
