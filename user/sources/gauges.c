// SPDX-License-Identifier: MIT
/*
 * The readings of NB_EXTRAS, the RAS counts and the limits of gauges.h,
 * from amdgpu's sysfs and the gputelemetry module's info file.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/gtfs.h"
#include "sources/gauges.h"
#include "sources/sources.h"

#define NB_EXTRA_DEF(id, key, unit, file, info, div, family, label, help) \
	[NB_X_##id] = { key, unit, file, GT_INFO_##info, div },

const struct nb_extra_def nb_extra_defs[NB_X_COUNT] = {
	NB_EXTRAS(NB_EXTRA_DEF)
};

/*
 * One entry's text into r: a speed ("16.0 GT/s", PCI core's with " PCIe"
 * after it) or a width in 1..32 lanes. A link that is down reads as
 * neither (its speed "Unknown", its width all ones): not readable.
 */
static void extra_parse(const struct nb_extra_def *x, const char *text, const char *source,
			struct nb_extra_reading *r)
{
	char *end;

	nb_strcpy(r->raw, sizeof(r->raw), text);
	if (!x->div) {
		r->gts = strtod(r->raw, &end);
		r->valid = end != r->raw && r->gts > 0 && !strncmp(end, " GT/s", 5);
	} else {
		r->i = strtoll(r->raw, &end, 10);
		r->valid = end != r->raw && !*end && r->i >= 1 && r->i <= 32;
	}
	if (r->valid) {
		r->source = source;
	} else {
		r->raw[0] = '\0';
		r->why = "not readable";
	}
}

void nb_extras_read(const struct nb_devent *e, struct nb_extra_reading r[NB_X_COUNT])
{
	struct gtfs_info info;
	const char *why = NULL;
	bool amdgpu = e->dev.kind == NB_DEV_AMDGPU;

	memset(r, 0, NB_X_COUNT * sizeof(*r));
	if (!amdgpu && !e->gt_name[0])
		why = "no PCIe link: not an amdgpu device or a device of the gputelemetry module";
	else if (!amdgpu && gtfs_info(e->gt_name, &info))
		why = "the gputelemetry module's info file is not readable";
	for (int i = 0; i < NB_X_COUNT; i++) {
		const struct nb_extra_def *x = &nb_extra_defs[i];
		const char *text;
		char buf[64], path[192];

		r[i].why = why;
		if (why)
			continue;
		if (amdgpu) {
			snprintf(path, sizeof(path), "%s/%s", e->drm.sysdev, x->file);
			text = nb_read_file(path, buf, sizeof(buf)) ? "" : buf;
		} else {
			text = gtfs_info_get(&info, x->info);
		}
		extra_parse(x, text ? text : "", amdgpu ? "sysfs" : "gputelemetry", &r[i]);
	}
}

/* The highest level of a pp_dpm_* file ("0: 300Mhz\n1: 1845Mhz *\n"), MHz. */
static bool dpm_max(const char *sysdev, const char *file, int64_t *mhz)
{
	char path[256], line[128];
	bool any = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", sysdev, file);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		long long v;

		if (!colon || sscanf(colon + 1, "%lld", &v) != 1)
			continue;
		if (!any || v > *mhz)
			*mhz = v;
		any = true;
	}
	fclose(f);
	return any;
}

/* "16.0 GT/s PCIe x8" from a speed's and a width's raw text, or "". */
static void link(const struct nb_extra_reading *speed, const struct nb_extra_reading *width,
		 char *out, unsigned long n)
{
	out[0] = '\0';
	if (speed->raw[0] && width->raw[0])
		snprintf(out, n, "%s x%.8s", speed->raw, width->raw);
}

void nb_limits_read(const struct nb_sensor_dev *d, const struct nb_reading *r,
		    struct nb_limits *lim)
{
	struct nb_extra_reading x[NB_X_COUNT];
	char hw[512];

	memset(lim, 0, sizeof(*lim));
	nb_extras_read(d->e, x);
	link(&x[NB_X_LINK_SPEED], &x[NB_X_LINK_WIDTH], lim->link, sizeof(lim->link));
	link(&x[NB_X_LINK_MAX_SPEED], &x[NB_X_LINK_MAX_WIDTH], lim->link_max,
	     sizeof(lim->link_max));
	for (int i = 0; i < 3; i++) {
		lim->has_temp_crit[i] = r[GT_S_TEMP_EDGE_CRIT + i].valid;
		lim->temp_crit[i] = r[GT_S_TEMP_EDGE_CRIT + i].v;
	}
	lim->has_power_cap = r[GT_S_POWER_CAP].valid;
	lim->power_cap = r[GT_S_POWER_CAP].v;
	lim->has_gtt = r[GT_S_GTT_USED].valid && r[GT_S_GTT_TOTAL].valid;
	lim->gtt_used = (uint64_t)r[GT_S_GTT_USED].v;
	lim->gtt_total = (uint64_t)r[GT_S_GTT_TOTAL].v;
	if (d->e->dev.kind != NB_DEV_AMDGPU || d->asleep)
		return;
	if (!nb_hwmon_dir(d->e->drm.sysdev, hw, sizeof(hw))) {
		char path[600];

		snprintf(path, sizeof(path), "%s/fan1_max", hw);
		lim->has_fan_max = nb_read_i64(path, &lim->fan_max);
	}
	lim->has_sclk_max = dpm_max(d->e->drm.sysdev, "pp_dpm_sclk", &lim->sclk_max);
	lim->has_mclk_max = dpm_max(d->e->drm.sysdev, "pp_dpm_mclk", &lim->mclk_max);
}

#define NB_RAS_DEF(id, tag, key, type) [NB_RAS_##id] = { tag, key, type },
const struct nb_ras_type_def nb_ras_types[NB_RAS_N] = {
	NB_RAS_TYPES(NB_RAS_DEF)
};

/* One block's err_count file; false when it gave no count. */
static bool ras_block_read(const char *path, bool *has, uint64_t *count)
{
	FILE *f = fopen(path, "re");
	bool any = false;
	char line[128];

	if (!f)
		return false;
	/* one read: each read of the file makes amdgpu query the hardware */
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;
		char tag[4];

		if (sscanf(line, "%3[a-z]: %llu", tag, &v) != 2)
			continue;
		for (int t = 0; t < NB_RAS_N; t++) {
			if (strcmp(tag, nb_ras_types[t].tag))
				continue;
			has[t] = true;
			count[t] = v;
			any = true;
		}
	}
	fclose(f);
	return any;
}

static int ras_block_cmp(const void *a, const void *b)
{
	return strcmp(((const struct nb_ras_block *)a)->name,
		      ((const struct nb_ras_block *)b)->name);
}

void nb_ras_read(const struct nb_sensor_dev *d, struct nb_ras *r)
{
	char dir[512], path[800], buf[64];
	struct dirent *de;
	DIR *dh;

	memset(r, 0, sizeof(*r));
	if (d->e->dev.kind != NB_DEV_AMDGPU) {
		r->why = "not an amdgpu device";
		return;
	}
	if (d->asleep) {
		r->why = "not read while the GPU sleeps (amdgpu reads its error registers)";
		return;
	}
	snprintf(dir, sizeof(dir), "%s/ras", d->e->drm.sysdev);
	dh = opendir(dir);
	if (!dh) {
		r->why = "no RAS on this GPU (no ras directory)";
		return;
	}
	r->present = true;
	snprintf(path, sizeof(path), "%s/features", dir);
	if (!nb_read_file(path, buf, sizeof(buf)) &&
	    sscanf(buf, "feature mask: %" SCNx32, &r->features) == 1)
		r->has_features = true;
	while ((de = readdir(dh)) && r->n < NB_RAS_MAX_BLOCKS) {
		size_t len = strlen(de->d_name), sfx = strlen("_err_count");

		if (len <= sfx || len - sfx >= sizeof(r->block[0].name) ||
		    strcmp(de->d_name + len - sfx, "_err_count"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!ras_block_read(path, r->block[r->n].has, r->block[r->n].count)) {
			memset(&r->block[r->n], 0, sizeof(r->block[0]));
			continue;
		}
		memcpy(r->block[r->n].name, de->d_name, len - sfx);
		r->block[r->n].name[len - sfx] = '\0';
		r->n++;
	}
	closedir(dh);
	qsort(r->block, (size_t)r->n, sizeof(r->block[0]), ras_block_cmp);
}
