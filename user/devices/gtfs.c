// SPDX-License-Identifier: MIT
/*
 * Parser of the gputelemetry debugfs files: see gtfs.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/gtfs.h"

#define GT_DEF(id, key, unit, ...) [GT_S_##id] = { key, unit },
const struct gtfs_sensor_def gtfs_sensor_defs[GT_S_COUNT] = {
	GT_SENSORS(GT_DEF)
};
#undef GT_DEF

int gtfs_sensor_index(const char *key)
{
	for (int i = 0; i < GT_S_COUNT; i++)
		if (!strcmp(gtfs_sensor_defs[i].key, key))
			return i;
	return -1;
}

static FILE *open_dev_file(const char *dev, const char *file)
{
	char path[512];

	if (dev)
		snprintf(path, sizeof(path), GTFS_ROOT "/%s/%s", dev, file);
	else
		snprintf(path, sizeof(path), GTFS_ROOT "/%s", file);
	return fopen(path, "re");
}

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/* A decimal integer (optionally negative), nothing else. */
static bool parse_i64(const char *s, int64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoll(s, &end, 10);
	return !errno && end != s && (*end == '\0' || *end == ' ');
}

int gtfs_devices(struct gtfs_dev **out)
{
	FILE *f = open_dev_file(NULL, GT_FILE_DEVICES);
	struct gtfs_dev *v = NULL;
	char line[512];
	int n = 0, cap = 0;

	*out = NULL;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct gtfs_dev d;

		memset(&d, 0, sizeof(d));
		if (sscanf(line, "%63s %95s %31s %15s %15s", d.name, d.location, d.asic,
			   d.source, d.state) != 5)
			continue;	/* a line we do not know: skipped */
		if (n == cap) {
			struct gtfs_dev *nv = realloc(v, sizeof(*v) * (size_t)(cap ? cap * 2 : 8));

			if (!nv)
				break;
			v = nv;
			cap = cap ? cap * 2 : 8;
		}
		v[n++] = d;
	}
	fclose(f);
	*out = v;
	return n;
}

int gtfs_sensors(const char *dev, struct gtfs_value r[GT_S_COUNT])
{
	FILE *f = open_dev_file(dev, GT_FILE_SENSORS);
	char line[256];

	memset(r, 0, sizeof(*r) * GT_S_COUNT);
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		int i;

		if (!colon)
			continue;
		*colon = '\0';
		i = gtfs_sensor_index(line);
		if (i < 0)
			continue;
		r[i].valid = parse_i64(colon + 1 + (colon[1] == ' '), &r[i].v);
	}
	fclose(f);
	return 0;
}

int gtfs_stats(const char *dev, struct gtfs_stat s[GT_S_COUNT], uint64_t *since_ns)
{
	FILE *f = open_dev_file(dev, GT_FILE_STATS);
	char line[512];

	memset(s, 0, sizeof(*s) * GT_S_COUNT);
	if (since_ns)
		*since_ns = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct gtfs_stat st = { 0 };
		unsigned int seen = 0;
		char *colon, *tok, *save;
		int i;

		chomp(line);
		if (!strncmp(line, "since ", 6)) {
			if (since_ns)
				*since_ns = strtoull(line + 6, NULL, 10);
			continue;
		}
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		i = gtfs_sensor_index(line);
		if (i < 0)
			continue;
		for (tok = strtok_r(colon + 1, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			int64_t v;

			if (!strncmp(tok, "min=", 4) && parse_i64(tok + 4, &v)) {
				st.min = v;
				seen |= 1;
			} else if (!strncmp(tok, "avg=", 4) && parse_i64(tok + 4, &v)) {
				st.avg = v;
				seen |= 2;
			} else if (!strncmp(tok, "max=", 4) && parse_i64(tok + 4, &v)) {
				st.max = v;
				seen |= 4;
			} else if (!strncmp(tok, "samples=", 8) && parse_i64(tok + 8, &v)) {
				st.samples = (uint64_t)v;
			}
		}
		st.valid = seen == 7;
		s[i] = st;
	}
	fclose(f);
	return 0;
}

static bool parse_sample(char *line, struct gtfs_sample *smp)
{
	char *tok, *save, *end;

	memset(smp, 0, sizeof(*smp));
	tok = strtok_r(line, " ", &save);
	if (!tok)
		return false;
	errno = 0;
	smp->ns = strtoull(tok, &end, 10);
	if (errno || end == tok || *end)
		return false;
	while ((tok = strtok_r(NULL, " ", &save))) {
		char *eq = strchr(tok, '=');
		int i;

		if (!eq)
			continue;
		*eq = '\0';
		i = gtfs_sensor_index(tok);
		if (i < 0)
			continue;
		smp->r[i].valid = strcmp(eq + 1, GT_NA) && parse_i64(eq + 1, &smp->r[i].v);
	}
	return true;
}

int gtfs_history(const char *dev, struct gtfs_sample *out, int max, uint64_t *lost)
{
	FILE *f = open_dev_file(dev, GT_FILE_HISTORY);
	char line[1024];
	int n = 0, next = 0;

	if (lost)
		*lost = 0;
	if (!f)
		return -errno;
	if (max <= 0) {
		fclose(f);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		struct gtfs_sample s;

		chomp(line);
		if (!strncmp(line, GT_LOST " ", sizeof(GT_LOST))) {
			if (lost)
				*lost += strtoull(line + sizeof(GT_LOST), NULL, 10);
			continue;
		}
		if (!parse_sample(line, &s))
			continue;
		/* keep the newest max samples in a ring, then unroll it */
		out[next] = s;
		next = (next + 1) % max;
		if (n < max)
			n++;
	}
	fclose(f);
	if (n == max && next) {
		struct gtfs_sample *tmp = malloc(sizeof(*tmp) * (size_t)max);

		if (!tmp)
			return -ENOMEM;
		for (int i = 0; i < max; i++)
			tmp[i] = out[(next + i) % max];
		memcpy(out, tmp, sizeof(*tmp) * (size_t)max);
		free(tmp);
	}
	return n;
}

#define GT_INFO_KEY_STR(id) GT_INFO_##id,
static const char *const info_keys[] = { GT_INFO_KEYS(GT_INFO_KEY_STR) };
#undef GT_INFO_KEY_STR

int gtfs_info(const char *dev, struct gtfs_info *info)
{
	FILE *f = open_dev_file(dev, GT_FILE_INFO);
	char line[256];

	memset(info, 0, sizeof(*info));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && info->n < GTFS_INFO_MAX) {
		char *colon = strchr(line, ':');
		const char *key = NULL;

		if (!colon)
			continue;
		*colon = '\0';
		for (size_t i = 0; i < sizeof(info_keys) / sizeof(info_keys[0]); i++)
			if (!strcmp(line, info_keys[i]))
				key = info_keys[i];
		if (!key)
			continue;
		chomp(colon + 1);
		info->kv[info->n].key = key;
		snprintf(info->kv[info->n].value, sizeof(info->kv[0].value), "%s",
			 colon + 1 + (colon[1] == ' '));
		info->n++;
	}
	fclose(f);
	return 0;
}

const char *gtfs_info_get(const struct gtfs_info *info, const char *key)
{
	for (int i = 0; i < info->n; i++)
		if (!strcmp(info->kv[i].key, key))
			return strcmp(info->kv[i].value, GT_UNAVAILABLE) ? info->kv[i].value : NULL;
	return NULL;
}
