// SPDX-License-Identifier: MIT
/*
 * The print layer on its own: printfmt FORMAT [MODE] prints one fixed
 * document (two records with nested objects, an array, missing values, a
 * string that CSV must quote, readings with and without a label) in that
 * format; tests/cli/run checks what comes out with jq and Python's csv.
 * MODE:
 *   stream   the records as a stream of samples
 *   columns  the same document with declared columns (nb_print_columns()),
 *            one of them a value outside the records, one no record has
 *   wrap     long values: a label's, a free line's, a table cell's
 */
#include <stdio.h>
#include <string.h>

#include "navibench.h"
#include "print/print.h"

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

/* Long values, made of words, for the text's wrapping. */
static void wrap_document(struct nb_print *p)
{
	static const struct nb_column cols[] = {
		{ "id", "ID", true }, { "what", "WHAT", false }, { "end", "END", false },
	};
	static const char words[] =
		"no GPU backend (libnavibench_hip.so (HIP 5.2.21153 (ROCm)): hipGetDeviceCount: "
		"error 100 (hipErrorNoDevice): no HIP device is detected; libnavibench_cuda.so "
		"(CUDA 13.0): cudaGetDeviceCount: error 35 (cudaErrorInsufficientDriver): CUDA "
		"driver version is insufficient for CUDA runtime version): the CPU backend runs "
		"the suite on the host CPU";

	nb_obj_begin(p, "device", "Device");
	nb_str(p, "note", "note", words);
	nb_str(p, "short", "short", "a short value");
	nb_obj_end(p);
	nb_text(p, "%s", words);
	nb_table_begin(p, "rows", cols, 3);
	nb_record_begin(p, NULL);
	nb_cell_int(p, 1);
	nb_cell_str(p, words);
	nb_cell_str(p, "end");
	nb_record_end(p);
	nb_table_end(p);
}

int main(int argc, char **argv)
{
	static const char *const cols[] = { "time", "index", "name", "readings_absent", "temp",
					    "throttle", "clocks.sclk_max_mhz" };
	const char *mode = argc > 2 ? argv[2] : "";
	const struct nb_print_ops *fmt = NULL;
	struct nb_print *p;

	for (int f = 0; argc > 1 && f < NB_FORMAT_COUNT; f++)
		if (!strcmp(nb_format_names[f], argv[1]))
			fmt = nb_format_ops((enum nb_format)f);
	if (!fmt) {
		fprintf(stderr, "usage: printfmt text|json|csv|prometheus [stream|columns|wrap]\n");
		return 2;
	}
	p = nb_print_open(fmt, NULL, "printfmt");
	if (!strcmp(mode, "wrap")) {
		wrap_document(p);
		return nb_print_close(p);
	}
	if (!strcmp(mode, "columns")) {
		nb_print_columns(p, cols, (int)(sizeof(cols) / sizeof(cols[0])));
		nb_str(p, "time", NULL, "2026-12-02T10:29:04.123Z");
	}
	/* a stream's records are its samples; a document's are in an array */
	if (!strcmp(mode, "stream"))
		nb_print_stream(p);
	else
		nb_arr_begin(p, "devices", NULL);
	record(p, 0, "plain");
	record(p, 1, "with, comma \"quoted\"\nand a line");
	if (strcmp(mode, "stream"))
		nb_arr_end(p);
	nb_note(p, "a note");
	return nb_print_close(p);
}
