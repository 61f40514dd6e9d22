// SPDX-License-Identifier: MIT
/*
 * Unit tests of user/devices/gpu_metrics.c: blobs built with the module's
 * copy of the kernel layouts (module/gpu_metrics.h), so that navibench's
 * offsets are checked against the same structs the module decodes; the
 * throttle names against module/uapi/gt_throttle.h's sources; the energy
 * counter's unit and wrap-around.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "devices/gpu_metrics.h"
#include "gpu_metrics.h"
#include "../tap.h"


#define HDR(s, f, c) do {					\
	memset(&(s), 0xff, sizeof(s));				\
	(s).common_header.structure_size = sizeof(s);		\
	(s).common_header.format_revision = (f);		\
	(s).common_header.content_revision = (c);		\
} while (0)

/* The reasons, active ones only, as "a b c" (unreliable ones starred). */
static const char *active(const struct nb_gpu_metrics *gm, enum nb_smu smu)
{
	static char buf[512];
	struct nb_throttle_reason r[96];
	int n = nb_throttle_reasons(gm, smu, r, 96);

	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		if (r[i].active)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s%s",
				 buf[0] ? " " : "", r[i].name, r[i].unreliable ? "*" : "");
	return buf;
}

static int count(const struct nb_gpu_metrics *gm, enum nb_smu smu)
{
	struct nb_throttle_reason r[96];

	return nb_throttle_reasons(gm, smu, r, 96);
}

static void test_v1_3(void)
{
	struct gt_gpu_metrics_v1_3 m;
	struct nb_gpu_metrics gm;
	const char *why = NULL;

	HDR(m, 1, 3);
	m.throttle_status = 1u << 14 | 1u << 2 | 1u << 11;	/* PPT0, HOTSPOT, SKIN */
	m.indep_throttle_status = 1ull << 0 | 1ull << 36;	/* PPT0, TEMP_HOTSPOT */
	m.energy_accumulator = 123456789;
	tap(nb_gpu_metrics_parse(&m, sizeof(m), &gm, &why) == 0, "1.3 parsed");
	tap(gm.has_throttle && gm.throttle_status == m.throttle_status, "1.3 throttle_status at its offset");
	tap(gm.has_indep && gm.indep_throttle_status == m.indep_throttle_status,
	      "1.3 indep_throttle_status at its offset");
	tap(gm.has_energy && gm.energy_raw == 123456789 && gm.energy_bits == 64 &&
	      gm.energy_unit_j == 0, "1.3 energy read, unit not known (raw)");
	tap(!strcmp(active(&gm, NB_SMU_OTHER), "ppt0 temp_hotspot"),
	      "other ASICs: indep names only");
	tap(!strcmp(active(&gm, NB_SMU_NAVI1X), "ppt0 temp_hotspot temp_skin"),
	      "Navi 1x: indep plus the firmware's own (temp_skin), each once");
	tap(!strcmp(active(&gm, NB_SMU_RDNA3), "ppt0 temp_hotspot*"),
	      "RDNA 3: temp_hotspot reported, marked unreliable");
	tap(count(&gm, NB_SMU_OTHER) == 34, "every indep reason listed, active or not (34)");
	m.indep_throttle_status = 0;
	nb_gpu_metrics_parse(&m, sizeof(m), &gm, &why);
	tap(!strcmp(active(&gm, NB_SMU_RDNA3), ""), "RDNA 3 without the bit: nothing marked");
	m.indep_throttle_status = 1ull << 63 | 1ull << 8;
	nb_gpu_metrics_parse(&m, sizeof(m), &gm, &why);
	tap(!strcmp(active(&gm, NB_SMU_OTHER), "bit8 bit63"), "unnamed set bits as bit<N>");
	m.indep_throttle_status = UINT64_MAX;
	m.throttle_status = UINT32_MAX;
	nb_gpu_metrics_parse(&m, sizeof(m), &gm, &why);
	tap(!gm.has_indep && !gm.has_throttle && count(&gm, NB_SMU_NAVI1X) == 0,
	      "all ones (not supported): no mask, no reasons");
	tap(nb_gpu_metrics_parse(&m, sizeof(m) - 1, &gm, &why) < 0 && !strcmp(why, "short"),
	      "1.3 one byte short: not decoded");
}

static void test_v1_0(void)
{
	struct gt_gpu_metrics_v1_0 m;
	struct nb_gpu_metrics gm;
	const char *why = NULL;

	HDR(m, 1, 0);
	m.throttle_status = 1u << 0 | 1u << 16 | 1u << 25;	/* padding, PPT2, bit 25 */
	m.energy_accumulator = 0xfffffff0;
	tap(nb_gpu_metrics_parse(&m, sizeof(m), &gm, &why) == 0, "1.0 parsed");
	tap(gm.throttle_status == m.throttle_status && !gm.has_indep, "1.0 throttle_status, no indep");
	tap(gm.energy_raw == 0xfffffff0 && gm.energy_bits == 32, "1.0 energy is 32 bits");
	tap(!strcmp(active(&gm, NB_SMU_NAVI1X), "ppt2 bit0 bit25"),
	      "1.0 on Navi 1x: firmware bits named, padding and unknown as bit<N>");
	tap(count(&gm, NB_SMU_OTHER) == 0, "1.0 elsewhere: nothing named");
}

static void test_mi300(void)
{
	struct gt_gpu_metrics_v1_4 m4;
	struct gt_gpu_metrics_v1_5 m5;
	struct nb_gpu_metrics gm;
	const char *why = NULL;

	HDR(m4, 1, 4);
	m4.energy_accumulator = 65536ull * 1000;		/* 1000 J */
	m4.throttle_status = 3;
	tap(nb_gpu_metrics_parse(&m4, sizeof(m4), &gm, &why) == 0 &&
	      gm.energy_raw == 65536000 && gm.throttle_status == 3,
	      "1.4 energy and throttle_status at their offsets");
	tap(fabs(gm.energy_raw * gm.energy_unit_j - 1000.0) < 1e-9, "1.4 energy unit 2^-16 J");
	tap(count(&gm, NB_SMU_OTHER) == 0 && count(&gm, NB_SMU_NAVI1X) == 0,
	      "1.4: MI300's firmware bits not named, whatever the ASIC is taken for");
	HDR(m5, 1, 5);
	m5.energy_accumulator = 32768;
	tap(nb_gpu_metrics_parse(&m5, sizeof(m5), &gm, &why) == 0 &&
	      fabs(gm.energy_raw * gm.energy_unit_j - 0.5) < 1e-12, "1.5 energy at its offset, 2^-16 J");
}

static void test_apu(void)
{
	struct gt_gpu_metrics_v2_2 m2;
	struct gt_gpu_metrics_v2_4 m4;
	struct gt_gpu_metrics_v3_0 m3;
	struct nb_gpu_metrics gm;
	const char *why = NULL;

	HDR(m2, 2, 2);
	m2.indep_throttle_status = 1ull << 4;		/* SPL */
	tap(nb_gpu_metrics_parse(&m2, sizeof(m2), &gm, &why) == 0 &&
	      !strcmp(active(&gm, NB_SMU_OTHER), "spl") && !gm.has_energy,
	      "2.2 indep named, no energy counter");
	HDR(m4, 2, 4);
	m4.indep_throttle_status = 1ull << 46;		/* PROCHOT_CPU */
	m4.throttle_status = 9;
	tap(nb_gpu_metrics_parse(&m4, sizeof(m4), &gm, &why) == 0 &&
	      gm.throttle_status == 9 && !strcmp(active(&gm, NB_SMU_OTHER), "prochot_cpu"),
	      "2.4 masks at their offsets");
	HDR(m3, 3, 0);
	tap(nb_gpu_metrics_parse(&m3, sizeof(m3), &gm, &why) == 0 && !gm.has_throttle &&
	      count(&gm, NB_SMU_OTHER) == 0, "3.0: no mask");
	m3.common_header.content_revision = 1;
	tap(nb_gpu_metrics_parse(&m3, sizeof(m3), &gm, &why) < 0 &&
	      !strcmp(why, "unknown revision"), "3.1: unknown revision, not decoded");
	tap(nb_gpu_metrics_parse(&m3, 3, &gm, &why) < 0 && !strcmp(why, "short"),
	      "3 bytes: short");
}

/* The readings of NB_GM_READINGS parsed from blob as want (-1: missing). */
static bool readings_are(const void *blob, size_t len, const int want[NB_GM_N])
{
	struct nb_gpu_metrics gm;
	const char *why = NULL;

	if (nb_gpu_metrics_parse(blob, len, &gm, &why))
		return false;
	for (int i = 0; i < NB_GM_N; i++)
		if (gm.has[i] != (want[i] >= 0) || (gm.has[i] && gm.val[i] != want[i])) {
			printf("# %s: has %d val %u, want %d\n", nb_gm_readings[i].key, gm.has[i],
			       gm.val[i], want[i]);
			return false;
		}
	return true;
}

/* 1.x's current clocks and activities: distinct values; vclk1, dclk1 as given */
#define SET_V1(m) ((m).current_socclk = 1001, (m).current_vclk0 = 1003,	\
		   (m).current_dclk0 = 1004, (m).average_umc_activity = 41,	\
		   (m).average_mm_activity = 7)
#define SET_V2(m) ((m).current_socclk = 1001, (m).current_fclk = 1002,	\
		   (m).current_vclk = 1003, (m).current_dclk = 1004,		\
		   (m).average_mm_activity = 7, (m).current_uclk = 99,		\
		   (m).average_socclk_frequency = 98)

static void test_readings(void)
{
	/* socclk, fclk, vclk0, dclk0, vclk1, dclk1, umc, mm */
	static const int v1[NB_GM_N] = { 1001, -1, 1003, 1004, 1005, -1, 41, 7 };
	static const int v2[NB_GM_N] = { 1001, 1002, 1003, 1004, -1, -1, -1, 7 };
	static const int mi300[NB_GM_N] = { -1, -1, -1, -1, -1, -1, 41, -1 };
	static const int v3[NB_GM_N] = { -1, -1, -1, -1, -1, -1, -1, 7 };
	struct gt_gpu_metrics_v1_0 a0;
	struct gt_gpu_metrics_v1_1 a1;
	struct gt_gpu_metrics_v1_2 a2;
	struct gt_gpu_metrics_v1_3 a3;
	struct gt_gpu_metrics_v1_4 a4;
	struct gt_gpu_metrics_v1_5 a5;
	struct gt_gpu_metrics_v2_0 b0;
	struct gt_gpu_metrics_v2_1 b1;
	struct gt_gpu_metrics_v2_2 b2;
	struct gt_gpu_metrics_v2_3 b3;
	struct gt_gpu_metrics_v2_4 b4;
	struct gt_gpu_metrics_v3_0 c0;

	HDR(a0, 1, 0); SET_V1(a0); a0.current_vclk1 = 1005;
	HDR(a1, 1, 1); SET_V1(a1); a1.current_vclk1 = 1005;
	HDR(a2, 1, 2); SET_V1(a2); a2.current_vclk1 = 1005;
	HDR(a3, 1, 3); SET_V1(a3); a3.current_vclk1 = 1005;
	tap(readings_are(&a0, sizeof(a0), v1) && readings_are(&a1, sizeof(a1), v1) &&
	    readings_are(&a2, sizeof(a2), v1) && readings_are(&a3, sizeof(a3), v1),
	    "1.0 to 1.3: current socclk, vclk0/1, dclk0, umc and mm activity at their offsets; "
	    "dclk1 all ones: missing");
	HDR(a4, 1, 4); a4.average_umc_activity = 41; a4.average_gfx_activity = 9;
	HDR(a5, 1, 5); a5.average_umc_activity = 41; a5.current_uclk = 99;
	tap(readings_are(&a4, sizeof(a4), mi300) && readings_are(&a5, sizeof(a5), mi300),
	    "1.4, 1.5: umc activity only");
	HDR(b0, 2, 0); SET_V2(b0);
	HDR(b1, 2, 1); SET_V2(b1);
	HDR(b2, 2, 2); SET_V2(b2);
	HDR(b3, 2, 3); SET_V2(b3);
	HDR(b4, 2, 4); SET_V2(b4);
	tap(readings_are(&b0, sizeof(b0), v2) && readings_are(&b1, sizeof(b1), v2) &&
	    readings_are(&b2, sizeof(b2), v2) && readings_are(&b3, sizeof(b3), v2) &&
	    readings_are(&b4, sizeof(b4), v2),
	    "2.0 to 2.4: current socclk, fclk, vclk (vclk0), dclk (dclk0), mm activity at their "
	    "offsets; not uclk or the averages");
	HDR(c0, 3, 0); c0.average_vcn_activity = 7; c0.average_gfx_activity = 5;
	tap(readings_are(&c0, sizeof(c0), v3), "3.0: average_vcn_activity as mm activity only");
}

static void test_energy(void)
{
	struct nb_energy e = { 0 };

	nb_energy_update(&e, 100, 64);
	tap(e.total_raw == 0, "first read: the base");
	nb_energy_update(&e, 250, 64);
	tap(e.total_raw == 150, "delta added");
	nb_energy_update(&e, 0xfffffff0, 32);
	nb_energy_update(&e, 0x10, 32);
	tap(e.total_raw == 150 + (0xfffffff0ull - 250) + 0x20,
	      "32-bit counter wraps: delta taken modulo 2^32");
	e = (struct nb_energy){ 0 };
	nb_energy_update(&e, UINT64_MAX - 5, 64);
	nb_energy_update(&e, 4, 64);
	tap(e.total_raw == 10 && e.first == UINT64_MAX - 5 && e.first + e.total_raw == 4,
	      "64-bit counter wraps: delta modulo 2^64; first kept");
}

static void test_smu(void)
{
	tap(nb_smu_of_asic("Navi 14") == NB_SMU_NAVI1X && nb_smu_of_asic("Navi 10") == NB_SMU_NAVI1X,
	      "Navi 10/14: SMU 11 Navi 1x");
	tap(nb_smu_of_asic("navi14") == NB_SMU_NAVI1X && nb_smu_of_asic("navi31") == NB_SMU_RDNA3,
	      "the module's names (navi14, navi31) too");
	tap(nb_smu_of_asic("Navi 31") == NB_SMU_RDNA3 && nb_smu_of_asic("Navi 21") == NB_SMU_OTHER &&
	      nb_smu_of_asic(NULL) == NB_SMU_OTHER, "Navi 31: RDNA 3; Navi 21, unknown: other");
}

int main(void)
{
	test_v1_3();
	test_v1_0();
	test_mi300();
	test_apu();
	test_readings();
	test_energy();
	test_smu();
	return tap_done(NULL);
}
