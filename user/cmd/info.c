// SPDX-License-Identifier: MIT
/*
 * navibench info: what a device is. For amdgpu devices, through
 * libdrm_amdgpu (amdgpu_query_gpu_info, AMDGPU_INFO_DEV_INFO,
 * AMDGPU_INFO_MEMORY, firmware and VBIOS queries) and the PCI device's
 * sysfs; a query the kernel does not answer leaves its fields unavailable
 * and the rest shown.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef NB_WITHOUT_LIBDRM
#include "devices/amdgpu_lib.h"
#endif
#include "devices/asic.h"
#include "cli.h"
#include "navibench.h"
#include "devices/devices.h"
#include "optional.h"
#include "cmd/plugin_view.h"
#include "devices/gtfs.h"
#include "print/print.h"
#include "sources/gauges.h"

static bool wake;

static const struct cli_option info_opts[] = {
	CLI_FLAG_OPT("wake", 0, &wake,
		     "open a runtime-suspended GPU anyway (wakes it up)"),
	CLI_OPT_END
};

static const struct cli_spec info_spec = {
	.name = "info",
	.summary = "Show what a device is: PCI ids, ASIC and gfx target, CU layout per shader\n"
		   "engine and array, clocks, memory, PCIe link, firmware, and derived peaks.",
	.common = CLI_DEVICE | CLI_FORMAT | CLI_JSON,
	.options = info_opts,
	.epilog = "Peaks: FP32 = CUs x 64 lanes x 2 (FMA) x max engine clock; memory bandwidth =\n"
		  "bus width / 8 x max memory clock x transfers per clock of the VRAM type.\n"
		  "JSON (its JSON Schema: info.schema.json) and CSV columns: navibench(1), Output.",
};

/*
 * The firmware info reports, in its order: X(id, key, label), id the
 * query's AMDGPU_INFO_FW_<id>. Its keys are CSV columns in every build.
 */
#define NB_FIRMWARE(X)					\
	X(SMC, "smc", "SMC")				\
	X(GFX_ME, "gfx_me", "GFX ME")			\
	X(GFX_PFP, "gfx_pfp", "GFX PFP")		\
	X(GFX_MEC, "gfx_mec", "GFX MEC")		\
	X(GFX_RLC, "gfx_rlc", "GFX RLC")		\
	X(SDMA, "sdma", "SDMA")				\
	X(SOS, "sos", "PSP SOS")			\
	X(VCN, "vcn", "VCN")
#define NB_FW_NAMES(id, key, label) { key, label },
static const struct {
	const char *key, *label;
} fws[] = { NB_FIRMWARE(NB_FW_NAMES) };
#undef NB_FW_NAMES
#define NFWS (sizeof(fws) / sizeof(fws[0]))

#ifndef NB_WITHOUT_LIBDRM
/* A PCIe link speed as read ("16.0 GT/s PCIe"), or missing. */
static void link_speed(struct nb_print *p, const char *key, const char *label,
		       const struct nb_extra_reading *r)
{
	nb_str(p, key, label, r->valid ? r->raw : NULL);
}

/* A PCIe link width: the number, "x8" in text. */
static void link_width(struct nb_print *p, const char *key, const char *label,
		       const struct nb_extra_reading *r)
{
	char text[16];

	if (!r->valid) {
		nb_missing(p, key, label, NULL);
		return;
	}
	snprintf(text, sizeof(text), "x%lld", (long long)r->i);
	nb_value(p, &(struct nb_value){ .key = key, .label = label, .type = NB_V_INT,
					.i = r->i, .text = text });
}

static void print_pci(struct nb_print *p, const struct nb_devent *e)
{
	struct nb_extra_reading r[NB_X_COUNT];

	nb_extras_read(e, r);
	nb_obj_begin(p, "pci", "PCI");
	nb_str(p, "address", "address", e->dev.pci);
	nb_hex(p, "vendor_id", "vendor id", e->drm.vendor, 4);
	nb_hex(p, "device_id", "device id", e->drm.device, 4);
	nb_hex(p, "revision", "revision", e->drm.revision, 2);
	nb_hex(p, "subsystem_vendor_id", "subsystem vendor", e->drm.subvendor, 4);
	nb_hex(p, "subsystem_device_id", "subsystem device", e->drm.subdevice, 4);
	link_speed(p, "link_speed", "PCIe link speed", &r[NB_X_LINK_SPEED]);
	link_width(p, "link_width", "PCIe link width", &r[NB_X_LINK_WIDTH]);
	link_speed(p, "max_link_speed", "PCIe max speed", &r[NB_X_LINK_MAX_SPEED]);
	link_width(p, "max_link_width", "PCIe max width", &r[NB_X_LINK_MAX_WIDTH]);
	nb_obj_end(p);
}

/* The CU layout per shader engine and array, from cu_bitmap. */
static void print_cu_layout(struct nb_print *p, const struct amdgpu_gpu_info *gi,
			    unsigned int cu_per_sa)
{
	unsigned int se_n = gi->num_shader_engines, sa_n = gi->num_shader_arrays_per_engine;

	if (se_n > 4)
		se_n = 4;
	if (sa_n > 4)
		sa_n = 4;
	nb_arr_begin(p, "cu_layout", "CU layout (active/present per shader array)");
	for (unsigned int se = 0; se < se_n; se++) {
		for (unsigned int sa = 0; sa < sa_n; sa++) {
			uint32_t bm = gi->cu_bitmap[se][sa];
			int active = __builtin_popcount(bm);
			char map[40];
			unsigned int w = cu_per_sa ? cu_per_sa : 32 - (unsigned int)__builtin_clz(bm | 1);

			if (w > 32)
				w = 32;
			for (unsigned int i = 0; i < w && i < sizeof(map) - 1; i++)
				map[i] = bm & (1u << i) ? '#' : '.';
			map[w < sizeof(map) - 1 ? w : sizeof(map) - 1] = '\0';
			nb_obj_begin(p, NULL, NULL);
			nb_u64(p, "shader_engine", NULL, se, NULL);
			nb_u64(p, "shader_array", NULL, sa, NULL);
			nb_u64(p, "active_cus", NULL, (uint64_t)active, NULL);
			nb_hex(p, "bitmap", NULL, bm, 8);
			nb_text(p, "SE%u SA%u  %2d CUs  %s  (bitmap 0x%08x)", se, sa, active, map, bm);
			nb_obj_end(p);
		}
	}
	nb_arr_end(p);
}

static void print_vbios(struct nb_print *p, struct nb_amdgpu *a)
{
	struct drm_amdgpu_info_vbios vb;

	nb_obj_begin(p, "vbios", "VBIOS");
	if (!nb_amdgpu_vbios(a, &vb)) {
		vb.name[sizeof(vb.name) - 1] = vb.vbios_pn[sizeof(vb.vbios_pn) - 1] = 0;
		vb.vbios_ver_str[sizeof(vb.vbios_ver_str) - 1] = vb.date[sizeof(vb.date) - 1] = 0;
		nb_str(p, "name", "name", (const char *)vb.name);
		nb_str(p, "part_number", "part number", (const char *)vb.vbios_pn);
		nb_str(p, "version", "version", (const char *)vb.vbios_ver_str);
		nb_str(p, "date", "date", (const char *)vb.date);
	} else {
		nb_missing(p, "name", "name", "the kernel does not answer AMDGPU_INFO_VBIOS_INFO");
	}
	nb_obj_end(p);
}

static void print_firmware(struct nb_print *p, struct nb_amdgpu *a)
{
#define NB_FW_TYPE(id, key, label) AMDGPU_INFO_FW_##id,
	static const unsigned int types[NFWS] = { NB_FIRMWARE(NB_FW_TYPE) };
#undef NB_FW_TYPE

	nb_obj_begin(p, "firmware", "Firmware (version, feature)");
	for (size_t i = 0; i < NFWS; i++) {
		uint32_t ver = 0, feat = 0;

		if (nb_amdgpu_firmware(a, types[i], &ver, &feat) || !ver) {
			nb_missing(p, fws[i].key, fws[i].label, "not reported");
			continue;
		}
		nb_obj_begin(p, fws[i].key, NULL);
		nb_hex(p, "version", NULL, ver, 8);
		nb_u64(p, "feature", NULL, feat, NULL);
		nb_text(p, "%-*s 0x%08x, %u", 22, fws[i].label, ver, feat);
		nb_obj_end(p);
	}
	nb_obj_end(p);
}

#endif

/* The record of the device, its time, index and kind first. */
static void begin_device(struct nb_print *p, const struct nb_print_device *id)
{
	nb_record_begin(p, id);
	nb_time(p, "time", NULL);
	nb_i64(p, "index", "device", id->index, NULL);
	nb_str(p, "kind", "kind", id->kind);
}

/*
 * The CSV columns (print.h, nb_print_columns()): every member a record of
 * any kind of device can have (amdgpu, sim, cpu, a GPU plugin's), but the
 * CU layout's array; a device of another kind leaves them empty.
 */
static const char *const amdgpu_columns[] = {
	"time", "index", "kind", "name", "marketing_name", "in_amdgpu_ids", "render_node",
	"driver", "drm_version", "runtime_status", "pci.address", "pci.vendor_id",
	"pci.device_id", "pci.revision", "pci.subsystem_vendor_id", "pci.subsystem_device_id",
	"pci.link_speed", "pci.link_width", "pci.max_link_speed", "pci.max_link_width",
	"asic.name", "asic.code", "asic.family", "asic.family_id", "asic.gfx_target",
	"asic.chip_rev", "asic.external_rev", "compute.shader_engines",
	"compute.shader_arrays_per_engine", "compute.active_cus", "compute.cus_full_die",
	"compute.simd_per_cu", "compute.wave_sizes", "clocks.sclk_max_mhz",
	"clocks.mclk_max_mhz", "memory.vram_type", "memory.vram_bus_width_bits",
	"memory.vram_size_bytes", "memory.vram_visible_bytes", "memory.gtt_size_bytes",
	"peaks.fp32_gflops", "peaks.fp32_formula", "peaks.memory_bandwidth_gbs",
	"peaks.memory_bandwidth_formula", "vbios.name", "vbios.part_number", "vbios.version",
	"vbios.date",
};
#define NB_GT_COLUMN(id) "gputelemetry." GT_INFO_##id,
static const char *const gt_columns[] = { GT_INFO_KEYS(NB_GT_COLUMN) };
#undef NB_GT_COLUMN
static const char *const cpu_columns[] = { "logical_cpus", "isa.fma", "isa.avx2", "isa.avx512f" };
#define N(a) (sizeof(a) / sizeof((a)[0]))

static void declare_columns(struct nb_print *p)
{
	static const char *cols[N(amdgpu_columns) + 2 * NFWS + N(gt_columns) + N(cpu_columns) +
				NB_GPU_INFO_NCOLUMNS];
	static char fw[2 * NFWS][40];
	size_t n = 0;

	for (size_t i = 0; i < N(amdgpu_columns); i++)
		cols[n++] = amdgpu_columns[i];
	for (size_t i = 0; i < NFWS; i++) {
		snprintf(fw[2 * i], sizeof(fw[0]), "firmware.%s.version", fws[i].key);
		snprintf(fw[2 * i + 1], sizeof(fw[0]), "firmware.%s.feature", fws[i].key);
		cols[n++] = fw[2 * i];
		cols[n++] = fw[2 * i + 1];
	}
	for (size_t i = 0; i < N(gt_columns); i++)
		cols[n++] = gt_columns[i];
	for (size_t i = 0; i < N(cpu_columns); i++)
		cols[n++] = cpu_columns[i];
	for (size_t i = 0; i < NB_GPU_INFO_NCOLUMNS; i++)
		cols[n++] = nb_gpu_info_columns[i];
	nb_print_columns(p, cols, (int)n);
}

#ifndef NB_WITHOUT_LIBDRM
/* What libdrm_amdgpu answered about an amdgpu device. */
struct amd {
	struct nb_amdgpu a;
	struct amdgpu_gpu_info gi;
	struct drm_amdgpu_info_device di;
	struct drm_amdgpu_memory_info mem;
	bool have_gi, have_di, have_mem;
	const char *marketing;	/* NULL: libdrm's name is generic or none */
	int in_ids;		/* nb_amdgpu_ids_lookup(): 1, 0, or < 0 unknown */
	struct nb_asic asic;
	uint64_t sclk_mhz, mclk_mhz;
};

static void amd_query(struct amd *d, const struct nb_devent *e)
{
	d->have_gi = !nb_amdgpu_gpu_info(&d->a, &d->gi);
	memset(&d->di, 0, sizeof(d->di));
	d->have_di = !nb_amdgpu_query(&d->a, AMDGPU_INFO_DEV_INFO, sizeof(d->di), &d->di);
	memset(&d->mem, 0, sizeof(d->mem));
	d->have_mem = !nb_amdgpu_query(&d->a, AMDGPU_INFO_MEMORY, sizeof(d->mem), &d->mem);
	d->marketing = nb_amdgpu_marketing_name(&d->a);
	d->in_ids = nb_amdgpu_ids_lookup(e->drm.device, e->drm.revision, NULL, 0);
	if (d->in_ids == 0)
		d->marketing = NULL;	/* libdrm's generic name for ids it lacks */
	if (d->have_gi) {
		d->asic = nb_asic_lookup(d->gi.family_id, d->gi.chip_external_rev);
		d->sclk_mhz = d->gi.max_engine_clk / 1000;
		d->mclk_mhz = d->gi.max_memory_clk / 1000;
	}
}

static void print_identity(struct nb_print *p, const struct amd *d, const struct nb_devent *e)
{
	char drmver[32], text[96];

	nb_str(p, "name", "name", e->dev.name);
	if (d->marketing && *d->marketing)
		nb_str(p, "marketing_name", "marketing name", d->marketing);
	else
		nb_missing(p, "marketing_name", "marketing name",
			   "not in libdrm's amdgpu.ids; named by ASIC and ids");
	if (d->in_ids >= 0)
		nb_bool(p, "in_amdgpu_ids", NULL, d->in_ids == 1);
	else
		nb_missing(p, "in_amdgpu_ids", NULL, NULL);
	nb_str(p, "render_node", "render node", e->drm.render);
	snprintf(drmver, sizeof(drmver), "%u.%u", d->a.drm_major, d->a.drm_minor);
	snprintf(text, sizeof(text), "%s (DRM %s)", e->drm.driver, drmver);
	nb_str(p, "driver", NULL, e->drm.driver);
	nb_value(p, &(struct nb_value){ .key = "drm_version", .label = "driver",
					.type = NB_V_STR, .s = drmver, .text = text });
	nb_str(p, "runtime_status", "runtime status",
	       e->drm.runtime_status[0] ? e->drm.runtime_status : NULL);
	print_pci(p, e);
}

static void print_asic(struct nb_print *p, const struct amd *d)
{
	char text[64];

	nb_obj_begin(p, "asic", "ASIC");
	nb_str(p, "name", "ASIC", d->asic.name);
	nb_str(p, "code", NULL, d->asic.code);
	if (d->have_gi) {
		snprintf(text, sizeof(text), "%s (%u)", d->asic.family ? d->asic.family : "unknown",
			 d->gi.family_id);
		nb_value(p, &(struct nb_value){ .key = "family", .label = "family",
						.type = NB_V_STR, .s = d->asic.family, .text = text });
		nb_u64(p, "family_id", NULL, d->gi.family_id, NULL);
	} else {
		nb_missing(p, "family", "family", "amdgpu_query_gpu_info failed");
	}
	if (d->asic.gfx)
		nb_str(p, "gfx_target", "gfx target", d->asic.gfx);
	else
		nb_missing(p, "gfx_target", "gfx target", "ASIC not known to this navibench");
	if (d->have_gi) {
		nb_hex(p, "chip_rev", "chip revision", d->gi.chip_rev, 2);
		nb_hex(p, "external_rev", "external revision", d->gi.chip_external_rev, 2);
	}
	nb_obj_end(p);
}

static void print_simd(struct nb_print *p, const struct nb_asic *asic)
{
	unsigned int simd_per_cu = asic->gfx_major >= 10 ? 2 : asic->gfx_major ? 4 : 0;
	unsigned int simd_width = asic->gfx_major >= 10 ? 32 : 16;
	char text[32];

	if (!simd_per_cu) {
		nb_missing(p, "simd_per_cu", "SIMDs per CU", "family not known");
		nb_missing(p, "wave_sizes", "wave size", "family not known");
		return;
	}
	snprintf(text, sizeof(text), "%u x SIMD%u", simd_per_cu, simd_width);
	nb_value(p, &(struct nb_value){ .key = "simd_per_cu", .label = "SIMDs per CU",
					.type = NB_V_UINT, .u = simd_per_cu, .text = text });
	nb_value(p, &(struct nb_value){ .key = "wave_sizes", .label = "wave size", .type = NB_V_STR,
					.s = asic->gfx_major >= 10 ? "32,64" : "64",
					.text = asic->gfx_major >= 10 ? "32 (native) and 64" : "64" });
}

static void print_compute(struct nb_print *p, const struct amd *d)
{
	const struct amdgpu_gpu_info *gi = &d->gi;
	unsigned int cu_per_sa = d->have_di ? d->di.num_cu_per_sh : 0;

	nb_obj_begin(p, "compute", "Compute");
	if (d->have_gi) {
		nb_u64(p, "shader_engines", "shader engines", gi->num_shader_engines, NULL);
		nb_u64(p, "shader_arrays_per_engine", "shader arrays per SE",
		       gi->num_shader_arrays_per_engine, NULL);
		nb_u64(p, "active_cus", "active CUs", gi->cu_active_number, NULL);
		if (cu_per_sa)
			nb_u64(p, "cus_full_die", "CUs on the full die", (uint64_t)cu_per_sa *
			       gi->num_shader_engines * gi->num_shader_arrays_per_engine, NULL);
		else
			nb_missing(p, "cus_full_die", "CUs on the full die",
				   "num_cu_per_sh not reported by this kernel");
		print_cu_layout(p, gi, cu_per_sa);
	} else {
		nb_missing(p, "active_cus", "active CUs", "amdgpu_query_gpu_info failed");
	}
	print_simd(p, &d->asic);
	nb_obj_end(p);
}

static void print_clocks_memory(struct nb_print *p, const struct amd *d)
{
	const struct amdgpu_gpu_info *gi = &d->gi;

	nb_obj_begin(p, "clocks", "Clocks");
	if (d->sclk_mhz)
		nb_u64(p, "sclk_max_mhz", "max engine clock", d->sclk_mhz, "MHz");
	else
		nb_missing(p, "sclk_max_mhz", "max engine clock", "not reported");
	if (d->mclk_mhz)
		nb_u64(p, "mclk_max_mhz", "max memory clock", d->mclk_mhz, "MHz");
	else
		nb_missing(p, "mclk_max_mhz", "max memory clock", "not reported");
	nb_obj_end(p);

	nb_obj_begin(p, "memory", "Memory");
	nb_str(p, "vram_type", "VRAM type", d->have_gi ? nb_vram_type_name(gi->vram_type) : NULL);
	if (d->have_gi && gi->vram_bit_width)
		nb_u64(p, "vram_bus_width_bits", "VRAM bus width", gi->vram_bit_width, "bit");
	else
		nb_missing(p, "vram_bus_width_bits", "VRAM bus width", "not reported by this kernel");
	if (d->have_mem) {
		nb_bytes(p, "vram_size_bytes", "VRAM size", d->mem.vram.total_heap_size);
		nb_bytes(p, "vram_visible_bytes", "CPU-visible VRAM",
			 d->mem.cpu_accessible_vram.total_heap_size);
		nb_bytes(p, "gtt_size_bytes", "GTT size", d->mem.gtt.total_heap_size);
	} else {
		nb_missing(p, "vram_size_bytes", "VRAM size", "AMDGPU_INFO_MEMORY not answered");
		nb_missing(p, "vram_visible_bytes", "CPU-visible VRAM",
			   "AMDGPU_INFO_MEMORY not answered");
		nb_missing(p, "gtt_size_bytes", "GTT size", "AMDGPU_INFO_MEMORY not answered");
	}
	nb_obj_end(p);
}

/* A formula: a stable name in JSON, the numbers in text. */
static void formula(struct nb_print *p, const char *key, const char *name, const char *text)
{
	nb_value(p, &(struct nb_value){ .key = key, .label = "  formula", .type = NB_V_STR,
					.s = name, .text = text });
}

static void print_peaks(struct nb_print *p, const struct amd *d)
{
	const struct amdgpu_gpu_info *gi = &d->gi;
	unsigned int ops = d->have_gi ? nb_vram_ops_per_clock(gi->vram_type) : 0;
	char text[128];

	nb_obj_begin(p, "peaks", "Peaks (derived)");
	if (d->have_gi && d->sclk_mhz && gi->cu_active_number) {
		double gflops = (double)gi->cu_active_number * 64 * 2 * (double)d->sclk_mhz / 1000.0;

		nb_dbl(p, "fp32_gflops", "FP32", gflops, 1, "GFLOP/s");
		snprintf(text, sizeof(text), "%u CUs x 64 x 2 x %llu MHz", gi->cu_active_number,
			 (unsigned long long)d->sclk_mhz);
		formula(p, "fp32_formula", "cus*64*2*sclk_max", text);
	} else {
		nb_missing(p, "fp32_gflops", "FP32", "CUs or engine clock unavailable");
	}
	if (d->have_gi && d->mclk_mhz && ops && gi->vram_bit_width) {
		double gbs = (double)gi->vram_bit_width / 8 * (double)d->mclk_mhz * ops / 1000.0;

		nb_dbl(p, "memory_bandwidth_gbs", "memory bandwidth", gbs, 1, "GB/s");
		snprintf(text, sizeof(text), "%u bit / 8 x %llu MHz x %u (%s)", gi->vram_bit_width,
			 (unsigned long long)d->mclk_mhz, ops, nb_vram_type_name(gi->vram_type));
		formula(p, "memory_bandwidth_formula", "bus_width/8*mclk_max*transfers_per_clock",
			text);
	} else {
		nb_missing(p, "memory_bandwidth_gbs", "memory bandwidth",
			   "bus width, memory clock or VRAM type unavailable");
	}
	nb_obj_end(p);
}

static void print_gt(struct nb_print *p, const struct nb_devent *e)
{
	struct gtfs_info gt;

	if (!e->gt_name[0] || gtfs_info(e->gt_name, &gt))
		return;
	nb_obj_begin(p, "gputelemetry", "gputelemetry");
	nb_str(p, "name", "name", e->gt_name);
	nb_str(p, "cu_count_active", "active CUs", gtfs_info_get(&gt, GT_INFO_CU_ACTIVE));
	nb_str(p, "cu_count_source", "CU count from", gtfs_info_get(&gt, GT_INFO_CU_SOURCE));
	nb_str(p, "state", "state", gtfs_info_get(&gt, GT_INFO_STATE));
	nb_obj_end(p);
}

/* What is known without opening the device: asleep, or no libdrm_amdgpu. */
static void info_unopened(struct nb_print *p, const struct nb_devent *e, const char *note)
{
	nb_str(p, "name", "name", e->dev.name);
	nb_str(p, "render_node", "render node", e->drm.render);
	nb_str(p, "driver", "driver", e->drm.driver);
	nb_str(p, "runtime_status", "runtime status", e->drm.runtime_status[0] ?
	       e->drm.runtime_status : NULL);
	print_pci(p, e);
	nb_note(p, "%s", note);
}

static int info_amdgpu(struct nb_print *p, struct nb_devent *e, struct nb_print_device *id)
{
	struct amd d;
	const char *libwhy = NULL;
	char err[384];
	int r;

	if (!strcmp(e->drm.runtime_status, "suspended") && !wake) {
		begin_device(p, id);
		snprintf(err, sizeof(err), "%s is runtime-suspended (asleep) and was not woken: "
			 "ASIC, CU, clock and memory details need --wake", e->dev.pci);
		info_unopened(p, e, err);
		return NB_EXIT_OK;
	}
	if (!nb_amdgpu_lib(&libwhy)) {
		begin_device(p, id);
		snprintf(err, sizeof(err), "%s: %s", libwhy, NB_AMDGPU_MISSING_COST);
		info_unopened(p, e, err);
		return NB_EXIT_OK;
	}
	memset(&d, 0, sizeof(d));
	r = nb_amdgpu_open(e->drm.render, &d.a, err, sizeof(err));
	if (r == -EACCES || r == -EPERM)
		nb_access_hint(e->drm.render, -r, err, sizeof(err));
	if (r) {
		fprintf(stderr, "navibench info: %s\n", err);
		return NB_EXIT_FAIL;
	}
	amd_query(&d, e);
	begin_device(p, id);
	print_identity(p, &d, e);
	print_asic(p, &d);
	print_compute(p, &d);
	print_clocks_memory(p, &d);
	print_peaks(p, &d);
	print_vbios(p, &d.a);
	print_firmware(p, &d.a);
	print_gt(p, e);
	nb_amdgpu_close(&d.a);
	return NB_EXIT_OK;
}
#else
/* Unreached: a build without libdrm lists no amdgpu device. */
static int info_amdgpu(struct nb_print *p, struct nb_devent *e, struct nb_print_device *id)
{
	(void)p;
	(void)e;
	(void)id;
	return nb_lib_off("info", "amdgpu devices", NB_LIB_LIBDRM);
}
#endif

static int info_sim(struct nb_print *p, struct nb_devent *e, struct nb_print_device *id)
{
	struct gtfs_info gt;
	int r = gtfs_info(e->gt_name, &gt);

	if (r) {
		fprintf(stderr, "navibench info: cannot read %s/%s/%s: %s\n", GTFS_ROOT, e->gt_name,
			GT_FILE_INFO, strerror(-r));
		return NB_EXIT_FAIL;
	}
	begin_device(p, id);
	nb_str(p, "name", "name", e->dev.name);
	nb_obj_begin(p, "gputelemetry", "gputelemetry (simulated GPU)");
	for (int i = 0; i < gt.n; i++)
		nb_str(p, gt.kv[i].key, gt.kv[i].key, gtfs_info_get(&gt, gt.kv[i].key));
	nb_obj_end(p);
	return NB_EXIT_OK;
}

static int info_cpu(struct nb_print *p, struct nb_devent *e, struct nb_print_device *id)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[4096];
	bool avx2 = false, avx512f = false, fma = false;

	if (f) {
		while (fgets(line, sizeof(line), f)) {
			if (!strncmp(line, "flags", 5)) {
				avx2 = strstr(line, " avx2") != NULL;
				avx512f = strstr(line, " avx512f") != NULL;
				fma = strstr(line, " fma") != NULL;
				break;
			}
		}
		fclose(f);
	}
	begin_device(p, id);
	nb_str(p, "name", "name", e->dev.name);
	nb_i64(p, "logical_cpus", "logical CPUs", sysconf(_SC_NPROCESSORS_ONLN), NULL);
	nb_obj_begin(p, "isa", "vector ISA");
	nb_bool(p, "fma", "FMA", fma);
	nb_bool(p, "avx2", "AVX2", avx2);
	nb_bool(p, "avx512f", "AVX-512F", avx512f);
	nb_obj_end(p);
	return NB_EXIT_OK;
}

/* A GPU that only a GPU plugin reports: what its runtime says (nb_gpu_info). */
static int info_hip(struct nb_print *p, struct nb_devent *e, struct nb_print_device *id)
{
	begin_device(p, id);
	nb_str(p, "name", "name", e->dev.name);
	return NB_EXIT_OK;
}

/*
 * The device's record, by kind, then what a GPU plugin's runtime reports
 * of it; id lives as long as p's record.
 */
static int info_device(struct nb_print *p, struct nb_devent *e, struct nb_print_device *id)
{
	int rc;

	nb_device_print_id(e, id);
	if (e->dev.kind == NB_DEV_AMDGPU)
		rc = info_amdgpu(p, e, id);
	else if (e->dev.kind == NB_DEV_SIM)
		rc = info_sim(p, e, id);
	else if (e->dev.kind == NB_DEV_PLUGIN)
		rc = info_hip(p, e, id);
	else
		rc = info_cpu(p, e, id);
	if (rc == NB_EXIT_OK)
		nb_gpu_info(p, &e->dev);
	return rc;
}

char *nb_info_json_text(const char *device)
{
	struct nb_devlist l;
	struct nb_devent *e;
	struct nb_print_device id;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc = NB_EXIT_FAIL;

	if (nb_devices_scan(&l, 0))
		return NULL;
	f = open_memstream(&buf, &len);
	if (f && !nb_devices_find(&l, device, "info", &e)) {
		struct nb_print *p = nb_print_open_file(nb_format_ops(NB_FORMAT_JSON), f, "info");

		rc = info_device(p, e, &id);
		if (rc == NB_EXIT_OK)
			rc = nb_print_close(p);
		else
			nb_print_discard(p);
	}
	if (f)
		fclose(f);
	nb_devices_free(&l);
	if (rc) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * One command, one record: the device. Each kind's function fills what
 * identifies it (gfx target, ASIC) and begins the record; the index and
 * kind come first in every record.
 */
static int cmd_info(int argc, char **argv)
{
	struct cli_common c;
	struct nb_devlist l;
	struct nb_devent *e;
	struct nb_print *p;
	struct nb_print_device id;
	int rc = cli_parse(&info_spec, argc, argv, &c);

	if (rc != CLI_CONTINUE)
		return rc;
	if (nb_devices_scan(&l, wake ? NB_SCAN_WAKE : 0))
		return NB_EXIT_FAIL;
	rc = nb_devices_find(&l, c.device, "info", &e);
	if (rc) {
		nb_devices_free(&l);
		return rc;
	}
	p = nb_print_open(c.format, c.json_path, "info");
	declare_columns(p);
	if (e->dev.kind == NB_DEV_CPU && l.n == 1)
		nb_note(p, "no AMD GPU found; device %d is the CPU", e->dev.index);
	rc = info_device(p, e, &id);
	if (rc == NB_EXIT_OK)
		rc = nb_print_close(p);
	else
		nb_print_discard(p);
	nb_devices_free(&l);
	return rc;
}

const struct nb_command nb_cmd_info = {
	.name = "info",
	.summary = "what a device is: ids, CU layout, clocks, memory, peaks",
	.run = cmd_info,
};
