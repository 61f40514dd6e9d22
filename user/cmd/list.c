// SPDX-License-Identifier: MIT
/*
 * navibench list: every device, one index each.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "navibench.h"
#include "devices/devices.h"
#include "cmd/plugin_view.h"
#include "print/print.h"

static bool verbose;

static const struct cli_option list_opts[] = {
	CLI_FLAG_OPT("verbose", 'v', &verbose,
		     "also list the DRM devices left out, and why"),
	CLI_OPT_END
};

static const struct cli_spec list_spec = {
	.name = "list",
	.summary = "List the devices: amdgpu GPUs in PCI order, simulated GPUs of the "
		   "gputelemetry module,\nGPUs of the GPU plugins not listed already, then the CPU. "
		   "The index is what --device\ntakes in every command.",
	.common = CLI_FORMAT | CLI_JSON,
	.options = list_opts,
	.epilog = "JSON (its JSON Schema: list.schema.json) and CSV columns: navibench(1),\n"
		  "Output.",
};

static void cell_str_or_null(struct nb_print *p, bool show, const char *s)
{
	if (show && s && *s)
		nb_cell_str(p, s);
	else
		nb_cell_missing(p, "-");
}

static void cell_hex(struct nb_print *p, bool show, unsigned int v, int width)
{
	char buf[16];

	if (!show) {
		nb_cell_missing(p, "-");
		return;
	}
	snprintf(buf, sizeof(buf), "0x%0*x", width, v);
	nb_cell_str(p, buf);
}

static void list_row(struct nb_print *p, const struct nb_devent *e)
{
	bool amd = e->dev.kind == NB_DEV_AMDGPU;
	struct nb_print_device id;

	nb_device_print_id(e, &id);
	nb_record_begin(p, &id);
	nb_cell_int(p, e->dev.index);
	nb_cell_str(p, nb_device_kind_name(e->dev.kind));
	nb_cell_str(p, e->dev.pci[0] ? e->dev.pci : NULL);
	nb_cell_str(p, e->dev.name);
	nb_cell_str(p, id.asic);
	nb_cell_str(p, id.gfx_target);
	cell_str_or_null(p, amd, e->drm.render);
	cell_hex(p, amd, e->drm.vendor, 4);
	cell_hex(p, amd, e->drm.device, 4);
	cell_hex(p, amd, e->drm.revision, 2);
	cell_str_or_null(p, amd, e->drm.driver);
	cell_str_or_null(p, amd, e->drm.runtime_status);
	cell_str_or_null(p, true, e->gt_name);
	if (e->dev.hip_ordinal >= 0)
		nb_cell_int(p, e->dev.hip_ordinal);
	else
		nb_cell_missing(p, "-");
	if (e->status[0])
		nb_cell_str(p, e->status);
	else
		nb_cell(p, &(struct nb_value){ .type = NB_V_STR, .s = "ok",
			.text = amd ? e->drm.render : e->dev.kind == NB_DEV_CPU ? "ok" : e->gt_name });
	nb_gpu_list_cell(p, &e->dev);
	nb_record_end(p);
}

/* The devices left out, and why: in the text with --verbose, always in JSON. */
static void list_skipped(struct nb_print *p, const struct nb_devlist *l)
{
	bool shown = verbose && l->nskipped;

	if (shown)
		nb_text(p, "%s", "");
	nb_arr_begin(p, "skipped", shown ? "Skipped" : NULL);
	for (int i = 0; i < l->nskipped; i++) {
		nb_obj_begin(p, NULL, NULL);
		nb_str(p, "device", NULL, l->skipped[i].what);
		nb_str(p, "reason", NULL, l->skipped[i].why);
		if (shown)
			nb_text(p, "%s: %s", l->skipped[i].what, l->skipped[i].why);
		nb_obj_end(p);
	}
	nb_arr_end(p);
}

static void list_notes(struct nb_print *p, const struct nb_devlist *l, bool gpu, bool real)
{
	char others[256];

	/* JSON: "notes" is there, an empty array, when there is nothing to say */
	nb_arr_begin(p, "notes", NULL);
	nb_arr_end(p);
	snprintf(others, sizeof(others), "%s%s%d other display device%s skipped%s",
		 l->drm_note[0] ? l->drm_note : "", l->drm_note[0] ? "; " : "",
		 l->nskipped, l->nskipped == 1 ? "" : "s",
		 l->nskipped && !verbose ? ", see --verbose" : "");
	if (!gpu)
		nb_note(p, "no AMD GPU found (%s); device %d is the CPU", others, l->n - 1);
	else if (!real)
		/* Only the module's simulated GPUs: say that no real one is there. */
		nb_note(p, "no amdgpu GPU found (%s); the sim devices are gputelemetry's "
			"simulated GPUs (telemetry only)", others);
	if (l->lib_note[0])
		nb_note(p, "%s", l->lib_note);
	if (nb_gpu_backend_note(l))
		nb_note(p, "%s", nb_gpu_backend_note(l));
	if (l->gt_note[0])
		nb_note(p, "%s", l->gt_note);
}

/* The table's columns: "#", KIND, PCI, NAME, STATUS, GPU in text; all in JSON and CSV. */
static const struct nb_column cols[] = {
	{ "index", "#", true },
	{ "kind", "KIND", false },
	{ "pci", "PCI", false },
	{ "name", "NAME", false },
	{ "asic", NULL, false },
	{ "gfx_target", NULL, false },
	{ "render_node", NULL, false },
	{ "vendor_id", NULL, false },
	{ "device_id", NULL, false },
	{ "revision", NULL, false },
	{ "driver", NULL, false },
	{ "runtime_status", NULL, false },
	{ "gputelemetry", NULL, false },
	{ "hip_ordinal", NULL, false },
	{ "status", "STATUS", false },
	{ "gpu", "GPU", false },
};
#define NCOLS ((int)(sizeof(cols) / sizeof(cols[0])))

/*
 * The CSV columns (print.h, nb_print_columns()): the list's time, the
 * table's columns, the GPU cell's members in place of the cell.
 */
static void declare_columns(struct nb_print *p)
{
	static const char *names[1 + NCOLS + NB_GPU_LIST_NCOLUMNS];
	int n = 0;

	names[n++] = "time";
	for (int i = 0; i < NCOLS; i++) {
		if (strcmp(cols[i].key, "gpu")) {
			names[n++] = cols[i].key;
			continue;
		}
		for (int k = 0; k < NB_GPU_LIST_NCOLUMNS; k++)
			names[n++] = nb_gpu_list_columns[k];
	}
	nb_print_columns(p, names, n);
}

static int cmd_list(int argc, char **argv)
{
	struct cli_common c;
	struct nb_devlist l;
	struct nb_print *p;
	bool gpu = false, real = false;
	int rc = cli_parse(&list_spec, argc, argv, &c);

	if (rc != CLI_CONTINUE)
		return rc;
	if (nb_devices_scan(&l, 0))
		return NB_EXIT_FAIL;

	p = nb_print_open(c.format, c.json_path, "list");
	declare_columns(p);
	nb_time(p, "time", NULL);
	nb_table_begin(p, "devices", cols, NCOLS);
	for (int i = 0; i < l.n; i++) {
		gpu |= l.dev[i].dev.kind != NB_DEV_CPU;
		real |= l.dev[i].dev.kind == NB_DEV_AMDGPU || l.dev[i].dev.kind == NB_DEV_PLUGIN;
		list_row(p, &l.dev[i]);
	}
	nb_table_end(p);
	list_skipped(p, &l);
	list_notes(p, &l, gpu, real);
	nb_devices_free(&l);
	return nb_print_close(p);
}

const struct nb_command nb_cmd_list = {
	.name = "list",
	.summary = "list the devices, one index each (GPUs, then the CPU)",
	.run = cmd_list,
};
