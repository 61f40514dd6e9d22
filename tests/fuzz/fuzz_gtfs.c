// SPDX-License-Identifier: MIT
/*
 * user/devices/gtfs.c on any text as one of the module's debugfs files: which one
 * is chosen when building (-DGTFS_KIND_devices ... _info). gtfs.c is built
 * with -Dfopen=nb_fuzz_fopen: the file it opens is the input, and the path
 * it asks for must be the right file under GTFS_ROOT.
 *
 * Checked beyond crashes: the results stay within their arrays, strings
 * are terminated, every key is a known one.
 */
#include "fuzz.h"

#include <errno.h>

#include "devices/gtfs.h"

FILE *nb_fuzz_fopen(const char *path, const char *mode);

static const uint8_t *in_data;
static size_t in_size;
static const char *want_path;

FILE *nb_fuzz_fopen(const char *path, const char *mode)
{
	FUZZ_CHECK(!strcmp(path, want_path), "opened %s, expected %s", path, want_path);
	FUZZ_CHECK(mode[0] == 'r', "mode %s", mode);
	if (!in_size)
		return fopen("/dev/null", "r");
	return fmemopen((void *)in_data, in_size, "r");
}

static __attribute__((unused)) void check_str(const char *s, size_t size, const char *what)
{
	FUZZ_CHECK(memchr(s, '\0', size), "%s not terminated", what);
}

#ifdef GTFS_KIND_history
#define MAX_SAMPLES 40
static struct gtfs_sample samples[MAX_SAMPLES + 1];
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#if defined(GTFS_KIND_devices)
	struct gtfs_dev *d;
	int n;

	want_path = GTFS_ROOT "/" GT_FILE_DEVICES;
	in_data = data;
	in_size = size;
	n = gtfs_devices(&d);
	FUZZ_CHECK(n >= 0, "gtfs_devices: %d", n);
	FUZZ_CHECK(n == 0 || d, "%d devices, no array", n);
	for (int i = 0; i < n; i++) {
		check_str(d[i].name, sizeof(d[i].name), "name");
		check_str(d[i].location, sizeof(d[i].location), "location");
		check_str(d[i].asic, sizeof(d[i].asic), "asic");
		check_str(d[i].source, sizeof(d[i].source), "source");
		check_str(d[i].state, sizeof(d[i].state), "state");
		FUZZ_CHECK(d[i].name[0] && d[i].state[0], "device %d: empty field", i);
	}
	free(d);
#elif defined(GTFS_KIND_sensors)
	struct gtfs_value r[GT_S_COUNT];

	want_path = GTFS_ROOT "/sim0/" GT_FILE_SENSORS;
	in_data = data;
	in_size = size;
	FUZZ_CHECK(gtfs_sensors("sim0", r) == 0, "gtfs_sensors failed");
#elif defined(GTFS_KIND_stats)
	struct gtfs_stat s[GT_S_COUNT];
	uint64_t since = 1;

	want_path = GTFS_ROOT "/sim0/" GT_FILE_STATS;
	in_data = data;
	in_size = size;
	FUZZ_CHECK(gtfs_stats("sim0", s, &since) == 0, "gtfs_stats failed");
	FUZZ_CHECK(gtfs_stats("sim0", s, NULL) == 0, "gtfs_stats (no since) failed");
#elif defined(GTFS_KIND_history)
	uint64_t lost = 0;
	int max, n;

	if (!size)
		return 0;
	/* the first byte: how many samples the caller keeps (0..40) */
	max = data[0] % (MAX_SAMPLES + 1);
	want_path = GTFS_ROOT "/sim0/" GT_FILE_HISTORY;
	in_data = data + 1;
	in_size = size - 1;
	/* a canary past the caller's array: the parser must not touch it */
	memset(&samples[max], 0xa5, sizeof(samples[0]));
	n = gtfs_history("sim0", samples, max, &lost);
	FUZZ_CHECK(n >= 0 && n <= max, "gtfs_history: %d samples for max %d", n, max);
	for (size_t b = 0; b < sizeof(samples[0]); b++)
		FUZZ_CHECK(((const uint8_t *)&samples[max])[b] == 0xa5,
			   "wrote past the %d samples asked for", max);
	n = gtfs_history("sim0", samples, max, NULL);
	FUZZ_CHECK(n >= 0 && n <= max, "gtfs_history (no lost): %d for max %d", n, max);
#elif defined(GTFS_KIND_info)
	struct gtfs_info info;

	want_path = GTFS_ROOT "/sim0/" GT_FILE_INFO;
	in_data = data;
	in_size = size;
	FUZZ_CHECK(gtfs_info("sim0", &info) == 0, "gtfs_info failed");
	FUZZ_CHECK(info.n >= 0 && info.n <= GTFS_INFO_MAX, "%d keys", info.n);
	for (int i = 0; i < info.n; i++) {
		const char *v;

		FUZZ_CHECK(info.kv[i].key, "key %d NULL", i);
		check_str(info.kv[i].value, sizeof(info.kv[i].value), "value");
		v = gtfs_info_get(&info, info.kv[i].key);
		FUZZ_CHECK(!v || strcmp(v, GT_UNAVAILABLE) != 0,
			   "%s: unavailable returned as a value", info.kv[i].key);
	}
#else
#error "build with -DGTFS_KIND_<devices|sensors|stats|history|info>"
#endif
	return 0;
}
