// SPDX-License-Identifier: MIT
/*
 * gpu_metrics: throttle reasons, energy, clocks and activities from
 * amdgpu's blob. See gpu_metrics.h.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "devices/gpu_metrics.h"
#include "gt_throttle.h"

#define NB_GM_DEF(id, key, unit, ...) [NB_GM_##id] = { key, unit },
const struct nb_gm_reading_def nb_gm_readings[NB_GM_N] = {
	NB_GM_READINGS(NB_GM_DEF)
};
#undef NB_GM_DEF

/*
 * Where the fields are, per revision: offsetof() in module/gpu_metrics.h
 * (tests/telemetry checks each against that header). -1: not in the
 * layout. 3.0 has throttle residencies instead of a mask, and of
 * NB_GM_READINGS only the media activity. NB_GM_READINGS' offsets (u16
 * each) in 1.0 to 1.3 and in 2.x:
 */
#define GM_V1(umc, mm)								\
	{ [NB_GM_SOCCLK] = 56, [NB_GM_VCLK0] = 60, [NB_GM_DCLK0] = 62,		\
	  [NB_GM_VCLK1] = 64, [NB_GM_DCLK1] = 66, [NB_GM_UMC_ACTIVITY] = (umc),	\
	  [NB_GM_MM_ACTIVITY] = (mm) }
#define GM_V2(soc, mm)								\
	{ [NB_GM_SOCCLK] = (soc), [NB_GM_FCLK] = (soc) + 4, [NB_GM_VCLK0] = (soc) + 6, \
	  [NB_GM_DCLK0] = (soc) + 8, [NB_GM_MM_ACTIVITY] = (mm) }

static const struct layout {
	unsigned char frev, crev;
	unsigned short size;
	short throttle, indep, energy;
	unsigned char energy_bits;
	double energy_unit_j;
	unsigned short at[NB_GM_N];	/* NB_GM_READINGS; 0 (the header): none */
} layouts[] = {
	{ 1, 0, 80, 68, -1, 36, 32, 0, GM_V1(30, 32) },
	{ 1, 1, 96, 68, -1, 24, 64, 0, GM_V1(18, 20) },
	{ 1, 2, 104, 68, -1, 24, 64, 0, GM_V1(18, 20) },
	{ 1, 3, 120, 68, 112, 24, 64, 0, GM_V1(18, 20) },
	/*
	 * SMU 13.0.6 (MI300): "Energy (15.259uJ (2^-16) units)" in 6.12's
	 * kgd_pp_interface.h, SocketEnergyAcc copied as is by
	 * smu_v13_0_6_ppt.c. No other revision's unit is stated by the
	 * kernel (1.0 to 1.3: "Power/Energy" only; Navi 1x leaves it unset):
	 * raw there.
	 */
	{ 1, 4, 288, 40, -1, 24, 64, 1.0 / 65536, { [NB_GM_UMC_ACTIVITY] = 14 } },
	{ 1, 5, 360, 104, -1, 88, 64, 1.0 / 65536, { [NB_GM_UMC_ACTIVITY] = 14 } },
	{ 2, 0, 120, 112, -1, -1, 0, 0, GM_V2(82, 42) },
	{ 2, 1, 120, 108, -1, -1, 0, 0, GM_V2(78, 30) },
	{ 2, 2, 128, 108, 120, -1, 0, 0, GM_V2(78, 30) },
	{ 2, 3, 152, 108, 120, -1, 0, 0, GM_V2(78, 30) },
	{ 2, 4, 168, 108, 120, -1, 0, 0, GM_V2(78, 30) },
	{ 3, 0, 264, -1, -1, -1, 0, 0, { [NB_GM_MM_ACTIVITY] = 44 } },
};

struct tname {
	unsigned int bit;
	const char *name;
};

#define TNAME(b, n) { (b), (n) },
static const struct tname indep_names[] = { GT_THROTTLE_INDEP(TNAME) };
static const struct tname navi10_names[] = { GT_THROTTLE_SMU11_NAVI10(TNAME) };
#undef TNAME

enum nb_smu nb_smu_of_asic(const char *asic_name)
{
	static const char *const navi1x[] = { "navi10", "navi12", "navi14" };
	static const char *const rdna3[] = { "navi31", "navi32", "navi33" };
	char name[16];
	size_t n = 0;

	/* libdrm's "Navi 14" and the module's "navi14" alike */
	for (const char *c = asic_name; c && *c && n + 1 < sizeof(name); c++)
		if (*c != ' ')
			name[n++] = (char)tolower((unsigned char)*c);
	name[n] = '\0';
	for (size_t i = 0; i < 3; i++) {
		if (!strcmp(name, navi1x[i]))
			return NB_SMU_NAVI1X;
		if (!strcmp(name, rdna3[i]))
			return NB_SMU_RDNA3;
	}
	return NB_SMU_OTHER;
}

int nb_gpu_metrics_read(const char *sysdev, struct nb_gpu_metrics *gm, const char **why)
{
	unsigned char buf[4096];
	char path[256];
	size_t got = 0;
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "%s/gpu_metrics", sysdev);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*why = errno == ENOENT ? "the driver has no gpu_metrics" : strerror(errno);
		return -1;
	}
	while (got < sizeof(buf) && (r = read(fd, buf + got, sizeof(buf) - got)) > 0)
		got += r;
	close(fd);
	return nb_gpu_metrics_parse(buf, got, gm, why);
}

/* Little-endian field of n bytes; *ok false when amdgpu left it all ones. */
static uint64_t field(const unsigned char *p, int n, bool *ok)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	*ok = n == 8 ? v != UINT64_MAX : v != (UINT64_C(1) << (8 * n)) - 1;
	return v;
}

int nb_gpu_metrics_parse(const void *blob, size_t len, struct nb_gpu_metrics *gm,
			 const char **why)
{
	const unsigned char *b = blob;
	const struct layout *l = NULL;
	unsigned int ssize;

	memset(gm, 0, sizeof(*gm));
	if (len < 4) {
		*why = "short";
		return -1;
	}
	ssize = b[0] | b[1] << 8;
	gm->frev = b[2];
	gm->crev = b[3];
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (layouts[i].frev == gm->frev && layouts[i].crev == gm->crev)
			l = &layouts[i];
	if (!l) {
		*why = "unknown revision";
		return -1;
	}
	/* The module's rule (metrics.c): the blob and its header both whole. */
	if (len < l->size || len < ssize || ssize < l->size) {
		*why = "short";
		return -1;
	}
	if (l->throttle >= 0)
		gm->throttle_status = field(b + l->throttle, 4, &gm->has_throttle);
	if (l->indep >= 0)
		gm->indep_throttle_status = field(b + l->indep, 8, &gm->has_indep);
	if (l->energy >= 0) {
		gm->energy_raw = field(b + l->energy, l->energy_bits / 8, &gm->has_energy);
		gm->energy_bits = l->energy_bits;
		gm->energy_unit_j = l->energy_unit_j;
	}
	for (int i = 0; i < NB_GM_N; i++)
		if (l->at[i])
			gm->val[i] = (uint16_t)field(b + l->at[i], 2, &gm->has[i]);
	return 0;
}

/* Adds name (once) to out[*n], active when set; returns its entry. */
static struct nb_throttle_reason *add(struct nb_throttle_reason *out, int *n, int max,
				      const char *name, bool set)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(out[i].name, name)) {
			out[i].active |= set;
			return &out[i];
		}
	if (*n >= max)
		return NULL;
	snprintf(out[*n].name, sizeof(out[*n].name), "%s", name);
	out[*n].active = set;
	out[*n].unreliable = false;
	return &out[(*n)++];
}

static bool named(const struct tname *t, size_t nt, unsigned int bit)
{
	for (size_t i = 0; i < nt; i++)
		if (t[i].bit == bit)
			return true;
	return false;
}

/* One mask: its table's reasons, then its set bits that have no name. */
static void add_mask(struct nb_throttle_reason *out, int *n, int max, uint64_t mask,
		     unsigned int width, const struct tname *t, size_t nt, int unreliable)
{
	struct nb_throttle_reason *r;
	char name[24];

	for (size_t i = 0; i < nt; i++) {
		bool set = mask >> t[i].bit & 1;

		r = add(out, n, max, t[i].name, set);
		if (r && set && (int)t[i].bit == unreliable)
			r->unreliable = true;
	}
	for (unsigned int bit = 0; bit < width; bit++)
		if ((mask >> bit & 1) && !named(t, nt, bit)) {
			snprintf(name, sizeof(name), "bit%u", bit);
			add(out, n, max, name, true);
		}
}

int nb_throttle_reasons(const struct nb_gpu_metrics *gm, enum nb_smu smu,
			struct nb_throttle_reason *out, int max)
{
	int n = 0;

	if (gm->has_indep)
		add_mask(out, &n, max, gm->indep_throttle_status, 64, indep_names,
			 sizeof(indep_names) / sizeof(indep_names[0]),
			 smu == NB_SMU_RDNA3 ? GT_THROTTLE_UNRELIABLE_BIT : -1);
	/*
	 * Navi 1x's own bits (in the revisions it writes, 1.0 to 1.3) add
	 * what amdgpu's translation leaves out
	 * (temp_plx, temp_skin) and are all a 1.0 to 1.2 blob has; with
	 * indep as well, a firmware "bit<N>" would repeat an indep name's
	 * bit number in another numbering, so unnamed ones come from indep.
	 */
	if (smu == NB_SMU_NAVI1X && gm->has_throttle && gm->frev == 1 && gm->crev <= 3)
		add_mask(out, &n, max, gm->has_indep ? gm->throttle_status & 0x1ffffe :
			 gm->throttle_status, 32, navi10_names,
			 sizeof(navi10_names) / sizeof(navi10_names[0]), -1);
	return n;
}

void nb_energy_update(struct nb_energy *e, uint64_t raw, unsigned int bits)
{
	uint64_t mask = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;

	if (e->have)
		e->total_raw += (raw - e->last) & mask;
	else
		e->first = raw;
	e->last = raw;
	e->have = true;
}
