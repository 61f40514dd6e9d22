// SPDX-License-Identifier: MIT
/*
 * The print layer on its own: printfmt FORMAT [stream] prints one fixed
 * document (two records with nested objects, an array, missing values, a
 * string that CSV must quote, readings with and without a label) in that
 * format, or as a stream of those records; tests/cli/run checks what comes out with jq and Python's csv.
 */
#include <stdio.h>
#include <string.h>

#include "navibench.h"
#include "print.h"

static void reading(struct nb_print *p, const char *key, bool valid, int64_t v,
		    const char *lname, const char *lvalue)
{
	nb_reading(p, &(struct nb_value){ .key = key, .unit = "mC", .kind = NB_KIND_GAUGE,
					  .type = valid ? NB_V_INT : NB_V_MISSING, .i = v,
					  .source = "test", .lname = lname, .lvalue = lvalue });
}

static void record(struct nb_print *p, int index, const char *name)
{
	struct nb_print_device id = { .index = index, .kind = "sim", .name = name,
				      .asic = "navi14", .gfx_target = "gfx1012" };

	nb_record_begin(p, &id);
	nb_i64(p, "index", "device", index, NULL);
	nb_str(p, "name", "name", name);
	nb_obj_begin(p, "clocks", "Clocks");
	nb_u64(p, "sclk_max_mhz", "max engine clock", 1845, "MHz");
	nb_missing(p, "mclk_max_mhz", "max memory clock", "not reported");
	nb_dbl(p, "ratio", "ratio", 0.25, 2, NULL);
	nb_obj_end(p);
	nb_arr_begin(p, "list", NULL);
	nb_str(p, "item", NULL, "a");
	nb_str(p, "item", NULL, "b");
	nb_arr_end(p);
	nb_readings_begin(p, "readings", NULL);
	reading(p, "temp", true, 61000 + index, NULL, NULL);
	reading(p, "temp_mem", false, 0, NULL, NULL);
	reading(p, "throttle", true, 1, "reason", "ppt");
	reading(p, "throttle", true, 0, "reason", "thm");
	nb_readings_end(p);
	nb_record_end(p);
}

int main(int argc, char **argv)
{
	const struct nb_print_ops *fmt = NULL;
	struct nb_print *p;

	for (int f = 0; argc > 1 && f < NB_FORMAT_COUNT; f++)
		if (!strcmp(nb_format_names[f], argv[1]))
			fmt = nb_format_ops((enum nb_format)f);
	if (!fmt) {
		fprintf(stderr, "usage: printfmt text|json|csv|prometheus [stream]\n");
		return 2;
	}
	p = nb_print_open(fmt, NULL, "printfmt");
	/* a stream's records are its samples; a document's are in an array */
	if (argc > 2)
		nb_print_stream(p);
	else
		nb_arr_begin(p, "devices", NULL);
	record(p, 0, "plain");
	record(p, 1, "with, comma \"quoted\"\nand a line");
	if (argc <= 2)
		nb_arr_end(p);
	nb_note(p, "a note");
	return nb_print_close(p);
}
