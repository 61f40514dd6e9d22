// SPDX-License-Identifier: MIT
/*
 * navibench info: what a device is. For amdgpu devices, through
 * libdrm_amdgpu (amdgpu_query_gpu_info, AMDGPU_INFO_DEV_INFO,
 * AMDGPU_INFO_MEMORY, firmware and VBIOS queries) and the PCI device's
 * sysfs; a query the kernel does not answer leaves its fields unavailable
 * and the rest shown.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "amdgpu_lib.h"
#include "asic.h"
#include "cli.h"
#include "devices.h"
#include "gtfs.h"
#include "print.h"

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
	.common = CLI_DEVICE | CLI_JSON,
	.options = info_opts,
	.epilog = "Peaks: FP32 = CUs x 64 lanes x 2 (FMA) x max engine clock; memory bandwidth =\n"
		  "bus width / 8 x max memory clock x transfers per clock of the VRAM type.\n"
		  "JSON fields: see navibench(1), INFO.",
};

static struct json_object *jhex(unsigned int v, int width)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "0x%0*x", width, v);
	return json_object_new_string(buf);
}

static void field_hex(const char *key, const char *label, unsigned int v, int width)
{
	nb_fieldf(key, label, jhex(v, width), "0x%0*x", width, v);
}

static void field_bytes(const char *key, const char *label, uint64_t v)
{
	char buf[32];

	nb_fieldf(key, label, json_object_new_uint64(v), "%s", nb_fmt_bytes(buf, sizeof(buf), v));
}

/* A sysfs attribute of the PCI device, or NULL. */
static const char *sysattr(const struct nb_devent *e, const char *attr, char *buf, size_t n)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/%s", e->drm.sysdev, attr);
	return nb_read_file(path, buf, n) || !buf[0] ? NULL : buf;
}

static void print_pci(const struct nb_devent *e)
{
	char a[64], b[64], c[64], d[64];
	const char *cs, *cw, *ms, *mw;

	nb_obj_begin("pci", "PCI");
	nb_str("address", "address", e->dev.pci);
	field_hex("vendor_id", "vendor id", e->drm.vendor, 4);
	field_hex("device_id", "device id", e->drm.device, 4);
	field_hex("revision", "revision", e->drm.revision, 2);
	field_hex("subsystem_vendor_id", "subsystem vendor", e->drm.subvendor, 4);
	field_hex("subsystem_device_id", "subsystem device", e->drm.subdevice, 4);
	cs = sysattr(e, "current_link_speed", a, sizeof(a));
	cw = sysattr(e, "current_link_width", b, sizeof(b));
	ms = sysattr(e, "max_link_speed", c, sizeof(c));
	mw = sysattr(e, "max_link_width", d, sizeof(d));
	nb_str("link_speed", "PCIe link speed", cs);
	if (cw)
		nb_fieldf("link_width", "PCIe link width", json_object_new_int(atoi(cw)), "x%s", cw);
	else
		nb_missing("link_width", "PCIe link width", NULL);
	nb_str("max_link_speed", "PCIe max speed", ms);
	if (mw)
		nb_fieldf("max_link_width", "PCIe max width", json_object_new_int(atoi(mw)), "x%s",
			  mw);
	else
		nb_missing("max_link_width", "PCIe max width", NULL);
	nb_obj_end();
}

/* The CU layout per shader engine and array, from cu_bitmap. */
static void print_cu_layout(const struct amdgpu_gpu_info *gi, unsigned int cu_per_sa)
{
	unsigned int se_n = gi->num_shader_engines, sa_n = gi->num_shader_arrays_per_engine;

	if (se_n > 4)
		se_n = 4;
	if (sa_n > 4)
		sa_n = 4;
	nb_arr_begin("cu_layout", "CU layout (active/present per shader array)");
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
			nb_obj_begin(NULL, NULL);
			nb_u64("shader_engine", NULL, se, NULL);
			nb_u64("shader_array", NULL, sa, NULL);
			nb_u64("active_cus", NULL, (uint64_t)active, NULL);
			nb_fieldf("bitmap", NULL, jhex(bm, 8), "-");
			nb_text("SE%u SA%u  %2d CUs  %s  (bitmap 0x%08x)", se, sa, active, map, bm);
			nb_obj_end();
		}
	}
	nb_arr_end();
}

static void print_firmware(struct nb_amdgpu *a)
{
	static const struct {
		unsigned int type;
		const char *key, *label;
	} fws[] = {
		{ AMDGPU_INFO_FW_SMC, "smc", "SMC" },
		{ AMDGPU_INFO_FW_GFX_ME, "gfx_me", "GFX ME" },
		{ AMDGPU_INFO_FW_GFX_PFP, "gfx_pfp", "GFX PFP" },
		{ AMDGPU_INFO_FW_GFX_MEC, "gfx_mec", "GFX MEC" },
		{ AMDGPU_INFO_FW_GFX_RLC, "gfx_rlc", "GFX RLC" },
		{ AMDGPU_INFO_FW_SDMA, "sdma", "SDMA" },
		{ AMDGPU_INFO_FW_SOS, "sos", "PSP SOS" },
		{ AMDGPU_INFO_FW_VCN, "vcn", "VCN" },
	};
	struct drm_amdgpu_info_vbios vb;

	nb_obj_begin("vbios", "VBIOS");
	if (!nb_amdgpu_vbios(a, &vb)) {
		vb.name[sizeof(vb.name) - 1] = vb.vbios_pn[sizeof(vb.vbios_pn) - 1] = 0;
		vb.vbios_ver_str[sizeof(vb.vbios_ver_str) - 1] = vb.date[sizeof(vb.date) - 1] = 0;
		nb_str("name", "name", (const char *)vb.name);
		nb_str("part_number", "part number", (const char *)vb.vbios_pn);
		nb_str("version", "version", (const char *)vb.vbios_ver_str);
		nb_str("date", "date", (const char *)vb.date);
	} else {
		nb_missing("name", "name", "the kernel does not answer AMDGPU_INFO_VBIOS_INFO");
	}
	nb_obj_end();

	nb_obj_begin("firmware", "Firmware (version, feature)");
	for (size_t i = 0; i < sizeof(fws) / sizeof(fws[0]); i++) {
		uint32_t ver = 0, feat = 0;

		if (nb_amdgpu_firmware(a, fws[i].type, &ver, &feat) || !ver) {
			nb_missing(fws[i].key, fws[i].label, "not reported");
			continue;
		}
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "version", jhex(ver, 8));
		json_object_object_add(o, "feature", json_object_new_int64(feat));
		nb_fieldf(fws[i].key, fws[i].label, o, "0x%08x, %u", ver, feat);
	}
	nb_obj_end();
}

static int info_amdgpu(struct nb_devent *e)
{
	struct nb_amdgpu a;
	struct amdgpu_gpu_info gi;
	struct drm_amdgpu_info_device di;
	struct drm_amdgpu_memory_info mem;
	const char *libwhy = NULL, *mk;
	char err[384];
	bool have_di, have_mem, have_gi;
	int r, in_ids;

	if (!strcmp(e->drm.runtime_status, "suspended") && !wake) {
		nb_str("name", "name", e->dev.name);
		nb_str("render_node", "render node", e->drm.render);
		nb_str("runtime_status", "runtime status", e->drm.runtime_status);
		print_pci(e);
		nb_arr_begin("notes", NULL);
		nb_str("note", NULL, "the GPU is runtime-suspended and was not woken: ASIC, CU, "
		       "clock and memory details need --wake");
		nb_arr_end();
		if (!nb_print_is_json())
			fprintf(stderr, "navibench info: %s is runtime-suspended (asleep); not waking "
				"it: --wake shows the rest\n", e->dev.pci);
		return NB_EXIT_OK;
	}
	if (!nb_amdgpu_lib(&libwhy)) {
		nb_str("name", "name", e->dev.name);
		nb_str("render_node", "render node", e->drm.render);
		nb_str("driver", "driver", e->drm.driver);
		nb_str("runtime_status", "runtime status", e->drm.runtime_status[0] ?
		       e->drm.runtime_status : NULL);
		print_pci(e);
		nb_arr_begin("notes", NULL);
		snprintf(err, sizeof(err), "%s: %s", libwhy, NB_AMDGPU_MISSING_COST);
		nb_str("note", NULL, err);
		nb_arr_end();
		if (!nb_print_is_json())
			fprintf(stderr, "navibench info: %s\n", err);
		return NB_EXIT_OK;
	}
	r = nb_amdgpu_open(e->drm.render, &a, err, sizeof(err));
	if (r == -EACCES || r == -EPERM) {
		nb_access_hint(e->drm.render, -r, err, sizeof(err));
		fprintf(stderr, "navibench info: %s\n", err);
		return NB_EXIT_FAIL;
	}
	if (r) {
		fprintf(stderr, "navibench info: %s\n", err);
		return NB_EXIT_FAIL;
	}

	have_gi = !nb_amdgpu_gpu_info(&a, &gi);
	memset(&di, 0, sizeof(di));
	have_di = !nb_amdgpu_query(&a, AMDGPU_INFO_DEV_INFO, sizeof(di), &di);
	memset(&mem, 0, sizeof(mem));
	have_mem = !nb_amdgpu_query(&a, AMDGPU_INFO_MEMORY, sizeof(mem), &mem);
	mk = nb_amdgpu_marketing_name(&a);
	in_ids = nb_amdgpu_ids_lookup(e->drm.device, e->drm.revision, NULL, 0);
	if (in_ids == 0)
		mk = NULL;	/* libdrm's generic name for ids it lacks */

	struct nb_asic asic = have_gi ? nb_asic_lookup(gi.family_id, gi.chip_external_rev)
				      : (struct nb_asic){ 0 };

	nb_str("name", "name", e->dev.name);
	if (mk && *mk)
		nb_str("marketing_name", "marketing name", mk);
	else
		nb_missing("marketing_name", "marketing name",
			   "not in libdrm's amdgpu.ids; named by ASIC and ids");
	if (in_ids >= 0)
		nb_bool("in_amdgpu_ids", NULL, in_ids == 1);
	else
		nb_missing("in_amdgpu_ids", NULL, NULL);
	nb_str("render_node", "render node", e->drm.render);
	char drmver[32];

	snprintf(drmver, sizeof(drmver), "%u.%u", a.drm_major, a.drm_minor);
	nb_str("driver", NULL, e->drm.driver);
	nb_fieldf("drm_version", "driver", json_object_new_string(drmver),
		  "%s (DRM %s)", e->drm.driver, drmver);
	nb_str("runtime_status", "runtime status",
	       e->drm.runtime_status[0] ? e->drm.runtime_status : NULL);
	print_pci(e);

	nb_obj_begin("asic", "ASIC");
	nb_str("name", "ASIC", asic.name);
	if (have_gi) {
		nb_fieldf("family", "family", asic.family ? json_object_new_string(asic.family) : NULL,
			  "%s (%u)", asic.family ? asic.family : "unknown", gi.family_id);
		nb_u64("family_id", NULL, gi.family_id, NULL);
	} else {
		nb_missing("family", "family", "amdgpu_query_gpu_info failed");
	}
	if (asic.gfx)
		nb_str("gfx_target", "gfx target", asic.gfx);
	else
		nb_missing("gfx_target", "gfx target", "ASIC not known to this navibench");
	if (have_gi) {
		field_hex("chip_rev", "chip revision", gi.chip_rev, 2);
		field_hex("external_rev", "external revision", gi.chip_external_rev, 2);
	}
	nb_obj_end();

	unsigned int simd_per_cu = asic.gfx_major >= 10 ? 2 : asic.gfx_major ? 4 : 0;
	unsigned int simd_width = asic.gfx_major >= 10 ? 32 : 16;
	unsigned int cu_per_sa = have_di ? di.num_cu_per_sh : 0;

	nb_obj_begin("compute", "Compute");
	if (have_gi) {
		nb_u64("shader_engines", "shader engines", gi.num_shader_engines, NULL);
		nb_u64("shader_arrays_per_engine", "shader arrays per SE",
		       gi.num_shader_arrays_per_engine, NULL);
		nb_u64("active_cus", "active CUs", gi.cu_active_number, NULL);
		if (cu_per_sa)
			nb_u64("cus_full_die", "CUs on the full die", (uint64_t)cu_per_sa *
			       gi.num_shader_engines * gi.num_shader_arrays_per_engine, NULL);
		else
			nb_missing("cus_full_die", "CUs on the full die",
				   "num_cu_per_sh not reported by this kernel");
		print_cu_layout(&gi, cu_per_sa);
	} else {
		nb_missing("active_cus", "active CUs", "amdgpu_query_gpu_info failed");
	}
	if (simd_per_cu) {
		nb_fieldf("simd_per_cu", "SIMDs per CU", json_object_new_int((int)simd_per_cu),
			  "%u x SIMD%u", simd_per_cu, simd_width);
		if (asic.gfx_major >= 10)
			nb_fieldf("wave_sizes", "wave size", json_object_new_string("32,64"),
				  "32 (native) and 64");
		else
			nb_fieldf("wave_sizes", "wave size", json_object_new_string("64"), "64");
	} else {
		nb_missing("simd_per_cu", "SIMDs per CU", "family not known");
		nb_missing("wave_sizes", "wave size", "family not known");
	}
	nb_obj_end();

	uint64_t sclk_mhz = have_gi ? gi.max_engine_clk / 1000 : 0;
	uint64_t mclk_mhz = have_gi ? gi.max_memory_clk / 1000 : 0;

	nb_obj_begin("clocks", "Clocks");
	if (sclk_mhz)
		nb_u64("sclk_max_mhz", "max engine clock", sclk_mhz, "MHz");
	else
		nb_missing("sclk_max_mhz", "max engine clock", "not reported");
	if (mclk_mhz)
		nb_u64("mclk_max_mhz", "max memory clock", mclk_mhz, "MHz");
	else
		nb_missing("mclk_max_mhz", "max memory clock", "not reported");
	nb_obj_end();

	unsigned int ops = have_gi ? nb_vram_ops_per_clock(gi.vram_type) : 0;

	nb_obj_begin("memory", "Memory");
	nb_str("vram_type", "VRAM type", have_gi ? nb_vram_type_name(gi.vram_type) : NULL);
	if (have_gi && gi.vram_bit_width)
		nb_u64("vram_bus_width_bits", "VRAM bus width", gi.vram_bit_width, "bit");
	else
		nb_missing("vram_bus_width_bits", "VRAM bus width", "not reported by this kernel");
	if (have_mem) {
		field_bytes("vram_size_bytes", "VRAM size", mem.vram.total_heap_size);
		field_bytes("vram_visible_bytes", "CPU-visible VRAM",
			    mem.cpu_accessible_vram.total_heap_size);
		field_bytes("gtt_size_bytes", "GTT size", mem.gtt.total_heap_size);
	} else {
		nb_missing("vram_size_bytes", "VRAM size", "AMDGPU_INFO_MEMORY not answered");
		nb_missing("vram_visible_bytes", "CPU-visible VRAM", "AMDGPU_INFO_MEMORY not answered");
		nb_missing("gtt_size_bytes", "GTT size", "AMDGPU_INFO_MEMORY not answered");
	}
	nb_obj_end();

	nb_obj_begin("peaks", "Peaks (derived)");
	if (have_gi && sclk_mhz && gi.cu_active_number) {
		double gflops = (double)gi.cu_active_number * 64 * 2 * (double)sclk_mhz / 1000.0;

		nb_dbl("fp32_gflops", "FP32", gflops, 1, "GFLOP/s");
		nb_fieldf("fp32_formula", "  formula", json_object_new_string("cus*64*2*sclk_max"),
			  "%u CUs x 64 x 2 x %llu MHz", gi.cu_active_number,
			  (unsigned long long)sclk_mhz);
	} else {
		nb_missing("fp32_gflops", "FP32", "CUs or engine clock unavailable");
	}
	if (have_gi && mclk_mhz && ops && gi.vram_bit_width) {
		double gbs = (double)gi.vram_bit_width / 8 * (double)mclk_mhz * ops / 1000.0;

		nb_dbl("memory_bandwidth_gbs", "memory bandwidth", gbs, 1, "GB/s");
		nb_fieldf("memory_bandwidth_formula", "  formula",
			  json_object_new_string("bus_width/8*mclk_max*transfers_per_clock"),
			  "%u bit / 8 x %llu MHz x %u (%s)", gi.vram_bit_width,
			  (unsigned long long)mclk_mhz, ops, nb_vram_type_name(gi.vram_type));
	} else {
		nb_missing("memory_bandwidth_gbs", "memory bandwidth",
			   "bus width, memory clock or VRAM type unavailable");
	}
	nb_obj_end();

	print_firmware(&a);

	if (e->gt_name[0]) {
		struct gt_info gt;

		if (!gt_info(e->gt_name, &gt)) {
			nb_obj_begin("gputelemetry", "gputelemetry");
			nb_str("name", "name", e->gt_name);
			nb_str("cu_count_active", "active CUs", gt_info_get(&gt, GT_INFO_CU_ACTIVE));
			nb_str("cu_count_source", "CU count from", gt_info_get(&gt, GT_INFO_CU_SOURCE));
			nb_str("state", "state", gt_info_get(&gt, GT_INFO_STATE));
			nb_obj_end();
		}
	}
	nb_amdgpu_close(&a);
	return NB_EXIT_OK;
}

static int info_sim(struct nb_devent *e)
{
	struct gt_info gt;
	int r = gt_info(e->gt_name, &gt);

	if (r) {
		fprintf(stderr, "navibench info: cannot read %s/%s/%s: %s\n", GT_ROOT, e->gt_name,
			GT_FILE_INFO, strerror(-r));
		return NB_EXIT_FAIL;
	}
	nb_str("name", "name", e->dev.name);
	nb_obj_begin("gputelemetry", "gputelemetry (simulated GPU)");
	for (int i = 0; i < gt.n; i++)
		nb_str(gt.kv[i].key, gt.kv[i].key, gt_info_get(&gt, gt.kv[i].key));
	nb_obj_end();
	return NB_EXIT_OK;
}

static int info_cpu(struct nb_devent *e)
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
	nb_str("name", "name", e->dev.name);
	nb_i64("logical_cpus", "logical CPUs", sysconf(_SC_NPROCESSORS_ONLN), NULL);
	nb_obj_begin("isa", "vector ISA");
	nb_bool("fma", "FMA", fma);
	nb_bool("avx2", "AVX2", avx2);
	nb_bool("avx512f", "AVX-512F", avx512f);
	nb_obj_end();
	return NB_EXIT_OK;
}

/* The device's record into the current print document. */
static int info_emit(const struct nb_devlist *l, struct nb_devent *e)
{
	nb_i64("index", "device", e->dev.index, NULL);
	nb_str("kind", "kind", nb_device_kind_name(e->dev.kind));
	switch (e->dev.kind) {
	case NB_DEV_AMDGPU:
		return info_amdgpu(e);
	case NB_DEV_SIM:
		return info_sim(e);
	case NB_DEV_CPU:
		if (l->n == 1 && !nb_print_is_json())
			fprintf(stderr, "navibench info: no AMD GPU found; device %d is the CPU\n",
				e->dev.index);
		return info_cpu(e);
	default:
		return info_cpu(e);
	}
}

struct json_object *nb_info_json(const char *device)
{
	struct nb_devlist l;
	struct nb_devent *e;
	struct json_object *o = NULL;

	if (!nb_devices_scan(&l, NB_SCAN_NAMES)) {
		if (!nb_devices_find(&l, device, "info", &e)) {
			nb_print_begin(true);
			if (info_emit(&l, e) == NB_EXIT_OK)
				o = json_object_get(nb_print_root());
			nb_print_discard();
		}
		nb_devices_free(&l);
	}
	return o;
}

int cmd_info(int argc, char **argv)
{
	struct cli_common c;
	struct nb_devlist l;
	struct nb_devent *e;
	int rc = cli_parse(&info_spec, argc, argv, &c);

	if (rc != CLI_CONTINUE)
		return rc;
	if (nb_devices_scan(&l, wake ? NB_SCAN_WAKE | NB_SCAN_NAMES : NB_SCAN_NAMES))
		return NB_EXIT_FAIL;
	rc = nb_devices_find(&l, c.device, "info", &e);
	if (rc) {
		nb_devices_free(&l);
		return rc;
	}
	nb_print_begin(c.json);
	rc = info_emit(&l, e);
	if (rc == NB_EXIT_OK)
		rc = nb_print_end(c.json_path);
	else
		nb_print_discard();
	nb_devices_free(&l);
	return rc;
}
