// SPDX-License-Identifier: MIT
/*
 * navibench list: every device, one index each.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "devices.h"
#include "gpu.h"
#include "print.h"

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
	.common = CLI_JSON,
	.options = list_opts,
	.epilog = "JSON: {\"devices\": [{index, kind, name, pci, render_node, vendor_id,\n"
		  "  device_id, revision, driver, runtime_status, gputelemetry, hip_ordinal,\n"
		  "  status, gpu: {plugin, ordinal, arch, compute_units, memory_bytes, clock_mhz,\n"
		  "  memory_clock_mhz} or null}], \"skipped\": [{device, reason}], \"notes\": [...]}",
};

static struct json_object *jstr_or_null(const char *s)
{
	return s && *s ? json_object_new_string(s) : NULL;
}

static struct json_object *jhex(unsigned int v, int width)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%0*x", width, v);
	return json_object_new_string(buf);
}

int cmd_list(int argc, char **argv)
{
	static const struct nb_column cols[] = {
		{ "index", "#", true },
		{ "kind", "KIND", false },
		{ "pci", "PCI", false },
		{ "name", "NAME", false },
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
	struct cli_common c;
	struct nb_devlist l;
	bool gpu = false, real = false;
	int rc = cli_parse(&list_spec, argc, argv, &c);

	if (rc != CLI_CONTINUE)
		return rc;
	if (nb_devices_scan(&l, NB_SCAN_NAMES))
		return NB_EXIT_FAIL;

	nb_print_begin(c.json);
	nb_table_begin("devices", cols, (int)(sizeof(cols) / sizeof(cols[0])));
	for (int i = 0; i < l.n; i++) {
		const struct nb_devent *e = &l.dev[i];
		bool amd = e->dev.kind == NB_DEV_AMDGPU;

		gpu |= e->dev.kind != NB_DEV_CPU;
		real |= e->dev.kind == NB_DEV_AMDGPU || e->dev.kind == NB_DEV_HIP;
		nb_row_begin();
		nb_cell(json_object_new_int(e->dev.index), "%d", e->dev.index);
		nb_cell_str(nb_device_kind_name(e->dev.kind));
		nb_cell_str(e->dev.pci[0] ? e->dev.pci : NULL);
		nb_cell_str(e->dev.name);
		nb_cell(amd ? jstr_or_null(e->drm.render) : NULL, "-");
		nb_cell(amd ? jhex(e->drm.vendor, 4) : NULL, "-");
		nb_cell(amd ? jhex(e->drm.device, 4) : NULL, "-");
		nb_cell(amd ? jhex(e->drm.revision, 2) : NULL, "-");
		nb_cell(amd ? jstr_or_null(e->drm.driver) : NULL, "-");
		nb_cell(amd ? jstr_or_null(e->drm.runtime_status) : NULL, "-");
		nb_cell(jstr_or_null(e->gt_name), "-");
		nb_cell(e->dev.hip_ordinal >= 0 ? json_object_new_int(e->dev.hip_ordinal) : NULL,
			"-");
		if (e->status[0])
			nb_cell_str(e->status);
		else
			nb_cell(json_object_new_string("ok"), "%s",
				amd ? e->drm.render : e->gt_name[0] ? e->gt_name : "ok");
		nb_gpu_list_cell(&e->dev);
		nb_row_end();
	}
	nb_table_end();

	if (nb_print_is_json() || verbose) {
		if (!nb_print_is_json() && l.nskipped)
			printf("\nSkipped:\n");
		nb_arr_begin("skipped", NULL);
		for (int i = 0; i < l.nskipped; i++) {
			nb_obj_begin(NULL, NULL);
			nb_str("device", NULL, l.skipped[i].what);
			nb_str("reason", NULL, l.skipped[i].why);
			nb_text("  %s: %s", l.skipped[i].what, l.skipped[i].why);
			nb_obj_end();
		}
		nb_arr_end();
	}

	nb_arr_begin("notes", NULL);
	if (!gpu) {
		char buf[256];

		snprintf(buf, sizeof(buf), "no AMD GPU found (%s%s%d other display device%s skipped%s)",
			 l.drm_note[0] ? l.drm_note : "", l.drm_note[0] ? "; " : "",
			 l.nskipped, l.nskipped == 1 ? "" : "s",
			 l.nskipped && !verbose ? ", see --verbose" : "");
		nb_str("note", NULL, buf);
		if (!nb_print_is_json())
			fprintf(stderr, "navibench list: %s; device %d is the CPU\n", buf, l.n - 1);
	} else if (!real) {
		char buf[384];

		/* Only the module's simulated GPUs: say that no real one is there. */
		snprintf(buf, sizeof(buf), "no amdgpu GPU found (%s%s%d other display device%s "
			 "skipped%s); the sim devices are gputelemetry's simulated GPUs "
			 "(telemetry only)", l.drm_note[0] ? l.drm_note : "",
			 l.drm_note[0] ? "; " : "", l.nskipped, l.nskipped == 1 ? "" : "s",
			 l.nskipped && !verbose ? ", see --verbose" : "");
		nb_str("note", NULL, buf);
		if (!nb_print_is_json())
			fprintf(stderr, "navibench list: %s\n", buf);
	}
	if (l.lib_note[0]) {
		nb_str("note", NULL, l.lib_note);
		if (!nb_print_is_json())
			fprintf(stderr, "navibench list: %s\n", l.lib_note);
	}
	if (nb_gpu_backend_note(&l)) {
		nb_str("note", NULL, nb_gpu_backend_note(&l));
		if (!nb_print_is_json())
			fprintf(stderr, "navibench list: %s\n", nb_gpu_backend_note(&l));
	}
	if (l.gt_note[0]) {
		nb_str("note", NULL, l.gt_note);
		if (!nb_print_is_json())
			fprintf(stderr, "navibench list: %s\n", l.gt_note);
	}
	nb_arr_end();

	nb_devices_free(&l);
	return nb_print_end(c.json_path);
}
