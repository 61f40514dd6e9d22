// SPDX-License-Identifier: MIT
/*
 * JSON (json-c): the document is built in memory and written, pretty, at
 * the end; in a stream (--watch) each record at the top is written as one
 * compact line as soon as it ends, and a sample whose records are a
 * table's rows as one line when it is flushed (JSON Lines).
 */
#include <errno.h>
#include "print/jwrite.h"
#include <stdlib.h>
#include <string.h>

#include "print/print_ops.h"

struct json {
	struct json_object *root;
	struct json_object *stack[NB_PRINT_DEPTH];	/* the container of each level */
	struct json_object *notes;			/* root's "notes", once there is one */
};

static struct json *J(struct nb_print *p)
{
	return p->priv;
}

static void reset(struct json *j)
{
	json_object_put(j->root);
	j->root = json_object_new_object();
	j->stack[0] = j->root;
	j->notes = NULL;
}

static int json_begin(struct nb_print *p)
{
	struct json *j = calloc(1, sizeof(*j));

	if (!j)
		return -ENOMEM;
	p->priv = j;
	reset(j);
	return 0;
}

static void json_discard(struct nb_print *p)
{
	json_object_put(J(p)->root);
	free(p->priv);
	p->priv = NULL;
}

static void write_root(struct nb_print *p, int flags)
{
	fprintf(p->out, "%s\n", json_object_to_json_string_ext(J(p)->root, flags |
		JSON_C_TO_STRING_NOSLASHESCAPE));
}

static int json_end(struct nb_print *p)
{
	struct json *j = J(p);

	if (!p->stream)
		write_root(p, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED);
	else if (json_object_object_length(j->root))
		write_root(p, JSON_C_TO_STRING_PLAIN);
	json_discard(p);
	return 0;
}

/* Add jv to the container of the level below the top, under key. */
static void add_to(struct json_object *c, const char *key, struct json_object *jv)
{
	if (json_object_is_type(c, json_type_array))
		json_object_array_add(c, jv);
	else if (key)
		json_object_object_add(c, key, jv);
	else
		json_object_put(jv);
}

/* The shortest decimal that reads back as d: 0.073, not 0.072999999999999995. */
static struct json_object *jdouble(double d)
{
	char buf[32];

	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			break;
	}
	/* a number JSON reads as a double, not an integer */
	if (!buf[strspn(buf, "-0123456789")])
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ".0");
	return json_object_new_double_s(d, buf);
}

static struct json_object *jvalue(const struct nb_value *v)
{
	switch (v->type) {
	case NB_V_STR:
		return json_object_new_string(v->s);
	case NB_V_BOOL:
		return json_object_new_boolean(v->b);
	case NB_V_INT:
		return json_object_new_int64(v->i);
	case NB_V_UINT:
		return json_object_new_uint64(v->u);
	case NB_V_DBL:
		return jdouble(v->d);
	default:
		return NULL;
	}
}

static bool top_record(struct nb_print *p)
{
	return p->depth == 1 && nb_print_top(p)->level == NB_L_RECORD;
}

static void json_record_begin(struct nb_print *p, const struct nb_print_device *id)
{
	struct json *j = J(p);
	struct json_object *parent = j->stack[p->depth - 1];

	(void)id;
	/* in an array (a table): an element; elsewhere the record's members are its parent's */
	if (json_object_is_type(parent, json_type_array)) {
		j->stack[p->depth] = json_object_new_object();
		json_object_array_add(parent, j->stack[p->depth]);
	} else {
		j->stack[p->depth] = parent;
	}
}

static void json_record_end(struct nb_print *p)
{
	if (p->stream && top_record(p)) {
		write_root(p, JSON_C_TO_STRING_PLAIN);
		reset(J(p));
	}
}

/* A stream's sample whose records are not at the top (a table's rows): one line. */
static void json_flush(struct nb_print *p)
{
	if (p->stream && json_object_object_length(J(p)->root)) {
		write_root(p, JSON_C_TO_STRING_PLAIN);
		reset(J(p));
	}
}

static void json_group_begin(struct nb_print *p)
{
	struct json *j = J(p);
	struct nb_print_frame *f = nb_print_top(p);
	bool array = f->level == NB_L_ARRAY || f->level == NB_L_TABLE;
	struct json_object *c = array ? json_object_new_array() : json_object_new_object();

	j->stack[p->depth] = c;
	add_to(j->stack[p->depth - 1], f->key ? f->key : "?", c);
}

static void json_table_begin(struct nb_print *p)
{
	json_group_begin(p);
}

static void json_field(struct nb_print *p, const struct nb_value *v)
{
	struct json_object *c = J(p)->stack[p->depth];

	if (v->key)
		add_to(c, v->key, jvalue(v));
}

static void json_cell(struct nb_print *p, int col, const struct nb_value *v)
{
	(void)col;
	if (v->key)
		add_to(J(p)->stack[p->depth], v->key, jvalue(v));
}

/*
 * A reading: a member of the readings object, {value, unit, source} and,
 * when the value is null, missing (why); a labelled one one level deeper,
 * keyed by its label's value (readings.throttle_active.ppt0). The same in
 * a document and in a stream.
 */
static void json_reading(struct nb_print *p, const struct nb_value *v)
{
	struct json_object *c = J(p)->stack[p->depth];
	struct json_object *o, *set;
	bool missing = v->type == NB_V_MISSING;

	if (!v->key)
		return;
	o = json_object_new_object();
	json_object_object_add(o, "value", jvalue(v));
	json_object_object_add(o, "unit", v->unit ? json_object_new_string(v->unit) : NULL);
	json_object_object_add(o, "source", !missing && v->source ?
			       json_object_new_string(v->source) : NULL);
	if (missing)
		json_object_object_add(o, "missing", json_object_new_string(v->why ? v->why :
								     "no source gives it"));
	if (!v->lname || !v->lvalue) {
		add_to(c, v->key, o);
		return;
	}
	if (!json_object_object_get_ex(c, v->key, &set) ||
	    !json_object_is_type(set, json_type_object)) {
		set = json_object_new_object();
		json_object_object_add(c, v->key, set);
	}
	json_object_object_add(set, v->lvalue, o);
}

/* A note: in the document's "notes"; in a stream, on stderr (lines are records). */
static void json_note(struct nb_print *p, const char *msg)
{
	struct json *j = J(p);

	if (p->stream) {
		nb_print_note_stderr(p, msg);
		return;
	}
	/* the command's own "notes" array, when it made one, or a new one */
	if (!j->notes && (!json_object_object_get_ex(j->root, "notes", &j->notes) ||
			  !json_object_is_type(j->notes, json_type_array))) {
		j->notes = json_object_new_array();
		json_object_object_add(j->root, "notes", j->notes);
	}
	json_object_array_add(j->notes, json_object_new_string(msg));
}

const struct nb_print_ops nb_print_json_ops = {
	.name = "json",
	.begin = json_begin,
	.end = json_end,
	.discard = json_discard,
	.flush = json_flush,
	.record_begin = json_record_begin,
	.record_end = json_record_end,
	.group_begin = json_group_begin,
	.table_begin = json_table_begin,
	.field = json_field,
	.cell = json_cell,
	.reading = json_reading,
	.note = json_note,
};
