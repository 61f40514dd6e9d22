// SPDX-License-Identifier: MIT
/*
 * Unit tests of the DRM fdinfo parser (user/devices/fdinfo.c) on the
 * texts amdgpu writes on Linux 6.1 (amdgpu_show_fdinfo()'s own lines) and
 * 6.12 (drm_show_fdinfo(), drm_print_memory_stats()'s drm-total-* and
 * drm-resident-* keys in B/KiB/MiB, the legacy drm-memory-* kept), and on
 * malformed input.
 */
#include <stdio.h>
#include <string.h>

#include "devices/fdinfo.h"
#include "../tap.h"


static int parse(const char *s, struct nb_fdinfo *fi)
{
	return nb_fdinfo_parse(s, strlen(s), fi);
}

static uint64_t engine(const struct nb_fdinfo *fi, const char *name)
{
	for (int i = 0; i < fi->nengines; i++)
		if (!strcmp(fi->engine[i].name, name))
			return fi->engine[i].ns;
	return UINT64_MAX;
}

static const char v6_1[] =
	"pos:\t0\nflags:\t02100002\nmnt_id:\t24\nino:\t1063\n"
	"pasid:\t32770\n"
	"drm-driver:\tamdgpu\n"
	"drm-pdev:\t0000:03:00.0\n"
	"drm-client-id:\t64\n"
	"drm-memory-vram:\t262144 KiB\n"
	"drm-memory-gtt: \t8192 KiB\n"
	"drm-memory-cpu: \t0 KiB\n"
	"drm-engine-gfx:\t1500000000 ns\n"
	"drm-engine-dma:\t2000000 ns\n";

static const char v6_12[] =
	"pos:\t0\nflags:\t02100002\nmnt_id:\t24\nino:\t1063\n"
	"drm-driver:\tamdgpu\n"
	"drm-client-id:\t65\n"
	"drm-pdev:\t0000:03:00.0\n"
	"pasid:\t32771\n"
	"drm-total-cpu:\t0\n"
	"drm-shared-cpu:\t0\n"
	"drm-active-cpu:\t0\n"
	"drm-resident-cpu:\t0\n"
	"drm-purgeable-cpu:\t0\n"
	"drm-total-gtt:\t4 MiB\n"
	"drm-shared-gtt:\t0\n"
	"drm-active-gtt:\t0\n"
	"drm-resident-gtt:\t4100 KiB\n"
	"drm-purgeable-gtt:\t0\n"
	"drm-total-vram:\t1 GiB\n"
	"drm-shared-vram:\t0\n"
	"drm-active-vram:\t0\n"
	"drm-resident-vram:\t768 MiB\n"
	"drm-purgeable-vram:\t0\n"
	"drm-memory-vram:\t1048576 KiB\n"
	"drm-memory-gtt: \t4096 KiB\n"
	"drm-memory-cpu: \t0 KiB\n"
	"amd-evicted-vram:\t0 KiB\n"
	"amd-requested-vram:\t1048576 KiB\n"
	"amd-requested-gtt:\t4096 KiB\n"
	"drm-engine-compute:\t7000000000 ns\n"
	"drm-engine-enc:\t10 ns\n"
	"drm-engine-capacity-compute:\t4\n";

int main(void)
{
	struct nb_fdinfo fi;

	tap(parse(v6_1, &fi) == 0, "6.1: a DRM client");
	tap(!strcmp(fi.driver, "amdgpu") && !strcmp(fi.pdev, "0000:03:00.0") &&
	      fi.has_client_id && fi.client_id == 64, "6.1: driver, pdev, client id");
	tap(fi.has_vram && fi.vram == 262144ull * 1024 && fi.has_gtt && fi.gtt == 8192ull * 1024,
	      "6.1: drm-memory-vram and drm-memory-gtt (with its space) in bytes");
	tap(fi.nengines == 2 && engine(&fi, "gfx") == 1500000000 && engine(&fi, "dma") == 2000000,
	      "6.1: engines in ns");

	tap(parse(v6_12, &fi) == 0 && fi.client_id == 65, "6.12: a DRM client");
	tap(fi.vram == 768ull << 20 && fi.gtt == 4100ull << 10,
	      "6.12: drm-resident-* wins over drm-total-* and the legacy drm-memory-*");
	tap(fi.nengines == 2 && engine(&fi, "compute") == 7000000000ull &&
	      engine(&fi, "enc") == 10, "6.12: engines; drm-engine-capacity-* is no engine");

	tap(parse("drm-driver:\tamdgpu\npasid:\t1\n", &fi) < 0, "no client id: not a client");
	tap(parse("pos:\t0\nflags:\t0100002\n", &fi) < 0 && !fi.driver[0], "a plain file's fdinfo");
	tap(parse("drm-driver:\ti915\ndrm-client-id:\t3\n", &fi) == 0 &&
	      !strcmp(fi.driver, "i915"), "another driver parsed (the scan filters it)");
	tap(parse("drm-driver:\tamdgpu\ndrm-client-id:\t99999999999999999999999\n", &fi) < 0,
	      "an id past 2^64: rejected, not wrapped");
	tap(parse("drm-driver:\tamdgpu\ndrm-client-id:\t1\ndrm-memory-vram:\t18014398509481984 GiB\n",
		    &fi) == 0 && !fi.has_vram, "a size past 2^64 bytes: skipped");
	tap(parse("drm-driver:\tamdgpu\ndrm-client-id:\t1\ndrm-engine-gfx:\t5 ms\n"
		    "drm-engine-:\t5 ns\ndrm-memory-vram:\t5 PiB\n", &fi) == 0 &&
	      fi.nengines == 0 && !fi.has_vram, "unknown units and empty names: skipped");
	/* No NUL and no final newline: the length bounds the parse. */
	tap(nb_fdinfo_parse("drm-driver:\tamdgpu\ndrm-client-id:\t7999", 35, &fi) == 0 &&
	      fi.client_id == 7, "text bounded by its length, no NUL");
	return tap_done(NULL);
}
