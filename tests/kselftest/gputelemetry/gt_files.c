// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: the format of every debugfs file, per module/gputelemetry.rst,
 * on simulated GPUs of each profile (the values of the .rst's profile
 * table), and the files' modes.
 */
#include "gt_util.h"

FIXTURE(top) {
	char buf[65536];
};

FIXTURE_SETUP(top)
{
	gt_require_module(NULL);
}

FIXTURE_TEARDOWN(top)
{
}

TEST_F(top, version)
{
	char name[64], ver[64], word[64], extra[8];
	int fmt;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_LT(0, gt_read(GT_ROOT "/" GT_FILE_VERSION, self->buf, sizeof(self->buf), 4096));
	ASSERT_EQ(4, sscanf(self->buf, "%63s %63s %63s %d %7s", name, ver, word, &fmt, extra))
		TH_LOG("version: '%s'", self->buf);
	EXPECT_STREQ("gputelemetry", name);
	EXPECT_STREQ("format", word);
	EXPECT_EQ(GT_FORMAT_VERSION, fmt);
	EXPECT_EQ('\n', self->buf[strlen(self->buf) - 1]);
}

TEST_F(top, modes)
{
	static const struct { const char *file; mode_t mode; } want[] = {
		{ GT_FILE_VERSION, 0400 }, { GT_FILE_DEVICES, 0400 },
		{ GT_FILE_NEW_DEVICE, 0200 }, { GT_FILE_DEL_DEVICE, 0200 },
	};
	char path[PATH_MAX];
	struct stat st;

	GT_SKIP_IF_SETUP_SKIPPED();
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		snprintf(path, sizeof(path), GT_ROOT "/%s", want[i].file);
		ASSERT_EQ(0, stat(path, &st)) TH_LOG("%s: %s", path, strerror(errno));
		EXPECT_EQ(want[i].mode, st.st_mode & 07777) TH_LOG("%s is %o", path, st.st_mode & 07777);
	}
}

/* Every "devices" line has five fields; sim lines say sim<id> sim:<id>. */
TEST_F(top, devices_lines)
{
	char *lines[256], name[64], loc[64], asic[64], src[64], state[64], extra[8];
	int n, id = gt_free_sim_id(), found = 0;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_LE(0, id);
	ASSERT_EQ(0, gt_sim_new(id, "navi14"));
	ASSERT_LE(0, gt_read(GT_ROOT "/" GT_FILE_DEVICES, self->buf, sizeof(self->buf), 4096));
	n = gt_lines(self->buf, lines, 256);
	for (int i = 0; i < n; i++) {
		if (!*lines[i] && i == n - 1)
			break;
		ASSERT_EQ(5, sscanf(lines[i], "%63s %63s %63s %63s %63s %7s",
				    name, loc, asic, src, state, extra))
			TH_LOG("line '%s'", lines[i]);
		EXPECT_TRUE(!strcmp(src, GT_SOURCE_SIM) || !strcmp(src, GT_SOURCE_AMDGPU) ||
			    !strcmp(src, GT_SOURCE_NONE)) TH_LOG("source '%s'", src);
		EXPECT_TRUE(!strcmp(state, GT_STATE_ACTIVE) || !strcmp(state, GT_STATE_SUSPENDED) ||
			    !strcmp(state, GT_STATE_UNBOUND) || !strcmp(state, GT_STATE_REMOVING))
			TH_LOG("state '%s'", state);
		if (!strcmp(src, GT_SOURCE_SIM)) {
			char want[64];
			int sid;

			ASSERT_EQ(1, sscanf(name, GT_SIM_PREFIX "%d", &sid)) TH_LOG("name %s", name);
			snprintf(want, sizeof(want), "sim:%d", sid);
			EXPECT_STREQ(want, loc);
			if (sid == id) {
				found++;
				EXPECT_STREQ("navi14", asic);
				EXPECT_STREQ(GT_STATE_ACTIVE, state);
			}
		}
	}
	EXPECT_EQ(1, found) TH_LOG("sim%d listed %d times", id, found);
	EXPECT_EQ(0, gt_sim_del(id));
}

FIXTURE(dev) {
	int id;
	char path[PATH_MAX];
	char buf[1 << 18];
};

/* A profile of module/gputelemetry.rst's table, as info and sensors show it. */
FIXTURE_VARIANT(dev) {
	int id;
	const char *profile, *device_id, *revision, *marketing, *gfx;
	const char *cu_full, *cu_active, *vram_type, *vram_width, *vram_size;
	const char *sclk_max, *mclk_max, *pcie_speed, *pcie_width;
	const char *pcie_max_speed, *pcie_max_width;
	long long vram_total;
	long long temp_edge_crit, power_cap, power_cap_max;
	unsigned int lacks;	/* bit per reading the profile does not have */
};

/* Ids at both ends of 0..255, and one profile of each family. */
FIXTURE_VARIANT_ADD(dev, navi14_id0) {
	.id = 0, .profile = "navi14", .device_id = "0x7340", .revision = "0xc5",
	.marketing = "AMD Radeon RX 5500 XT", .gfx = "gfx1012", .cu_full = "24",
	.cu_active = "22", .vram_type = "GDDR6", .vram_width = "128",
	.vram_size = "4294967296", .sclk_max = "1845", .mclk_max = "875",
	.pcie_speed = "16.0 GT/s", .pcie_width = "8", .vram_total = 4294967296LL,
	.pcie_max_speed = "16.0 GT/s", .pcie_max_width = "8",
	.temp_edge_crit = 100000, .power_cap = 130000, .power_cap_max = 156000,
	.lacks = 1u << GT_S_VDDNB | 1u << GT_S_POWER_INPUT,
};
FIXTURE_VARIANT_ADD(dev, navi10_id255) {
	.id = 255, .profile = "navi10", .device_id = "0x731f", .revision = "0xc1",
	.marketing = "AMD Radeon RX 5700 XT", .gfx = "gfx1010", .cu_full = "40",
	.cu_active = "40", .vram_type = "GDDR6", .vram_width = "256",
	.vram_size = "8589934592", .sclk_max = "2100", .mclk_max = "875",
	.pcie_speed = "16.0 GT/s", .pcie_width = "16", .vram_total = 8589934592LL,
	.pcie_max_speed = "16.0 GT/s", .pcie_max_width = "16",
	.temp_edge_crit = 100000, .power_cap = 225000, .power_cap_max = 270000,
	.lacks = 1u << GT_S_VDDNB | 1u << GT_S_POWER_INPUT,
};
FIXTURE_VARIANT_ADD(dev, polaris10_id17) {
	.id = 17, .profile = "polaris10", .device_id = "0x67df", .revision = "0xe7",
	.marketing = "AMD Radeon RX 580 Series", .gfx = "gfx803", .cu_full = "36",
	.cu_active = "36", .vram_type = "GDDR5", .vram_width = "256",
	.vram_size = "8589934592", .sclk_max = "1340", .mclk_max = "2000",
	.pcie_speed = "8.0 GT/s", .pcie_width = "16", .vram_total = 8589934592LL,
	.pcie_max_speed = "8.0 GT/s", .pcie_max_width = "16",
	.temp_edge_crit = 94000, .power_cap = 185000, .power_cap_max = 222000,
	/* input power instead of the average (smu7 from Linux 6.8 on) */
	.lacks = 1u << GT_S_VDDNB | 1u << GT_S_POWER_AVG | 1u << GT_S_TEMP_JUNCTION |
		 1u << GT_S_TEMP_MEM | 1u << GT_S_TEMP_JUNCTION_CRIT | 1u << GT_S_TEMP_MEM_CRIT,
};

FIXTURE_SETUP(dev)
{
	int ret;

	self->id = -1;
	if (!gt_require_module(NULL))
		return;
	ret = gt_sim_new(variant->id, variant->profile);
	if (ret == -EEXIST)
		SKIP(return, "sim%d exists already", variant->id);
	ASSERT_EQ(0, ret) TH_LOG("new_device '%d %s': %s", variant->id, variant->profile,
				 strerror(-ret));
	self->id = variant->id;
}

/* A few samples for history and stats: 10 ms period for 60 ms. */
static void take_samples(struct __test_metadata *_metadata, int id)
{
	char path[PATH_MAX];

	ASSERT_EQ(0, gt_write(gt_dev_path(path, sizeof(path), id, GT_FILE_INTERVAL_MS), "10"));
	ASSERT_TRUE(gt_wait_samples(id, 4, 10)) TH_LOG("the sampler stalled");
}

FIXTURE_TEARDOWN(dev)
{
	if (self->id >= 0) {
		EXPECT_EQ(0, gt_sim_del(self->id));
	}
}

#define DEV(file) gt_dev_path(self->path, sizeof(self->path), self->id, file)

TEST_F(dev, modes)
{
	static const struct { const char *file; mode_t mode; } want[] = {
		{ GT_FILE_INFO, 0400 }, { GT_FILE_SENSORS, 0400 }, { GT_FILE_CU_COUNT, 0400 },
		{ GT_FILE_HISTORY, 0400 }, { GT_FILE_STATS, 0600 }, { GT_FILE_INTERVAL_MS, 0600 },
		{ GT_FILE_LOAD, 0600 }, { GT_FILE_FAIL_SENSORS, 0600 },
	};
	struct stat st;

	GT_SKIP_IF_SETUP_SKIPPED();
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		ASSERT_EQ(0, stat(DEV(want[i].file), &st)) TH_LOG("%s: %s", self->path, strerror(errno));
		EXPECT_EQ(want[i].mode, st.st_mode & 07777)
			TH_LOG("%s is %o", self->path, st.st_mode & 07777);
	}
}

/* info: every key in order, the profile's values. */
TEST_F(dev, info)
{
	char name[16], loc[16], ival[16];
#define GT_INFO_KEY_STR(id) GT_INFO_##id,
	static const char *const keys[] = { GT_INFO_KEYS(GT_INFO_KEY_STR) };
#undef GT_INFO_KEY_STR
	const char *want[GT_I_COUNT] = {
		[GT_I_NAME] = name,
		[GT_I_LOCATION] = loc,
		[GT_I_VENDOR_ID] = "0x1002",
		[GT_I_DEVICE_ID] = variant->device_id,
		[GT_I_REVISION] = variant->revision,
		[GT_I_ASIC] = variant->profile,
		[GT_I_GFX_TARGET] = variant->gfx,
		[GT_I_MARKETING_NAME] = variant->marketing,
		[GT_I_CU_FULL] = variant->cu_full,
		[GT_I_CU_ACTIVE] = variant->cu_active,
		[GT_I_CU_SOURCE] = GT_CU_SOURCE_SIM,
		[GT_I_VRAM_TYPE] = variant->vram_type,
		[GT_I_VRAM_WIDTH] = variant->vram_width,
		[GT_I_VRAM_SIZE] = variant->vram_size,
		[GT_I_SCLK_MAX] = variant->sclk_max,
		[GT_I_MCLK_MAX] = variant->mclk_max,
		[GT_I_SOURCE] = GT_SOURCE_SIM,
		[GT_I_STATE] = GT_STATE_ACTIVE,
		[GT_I_PCIE_SPEED] = variant->pcie_speed,
		[GT_I_PCIE_WIDTH] = variant->pcie_width,
		[GT_I_PCIE_MAX_SPEED] = variant->pcie_max_speed,
		[GT_I_PCIE_MAX_WIDTH] = variant->pcie_max_width,
		[GT_I_INTERVAL] = ival,
	};
	const size_t nkeys = ARRAY_SIZE(keys);
	char *lines[64];
	long long interval = -1;
	int n;

	GT_SKIP_IF_SETUP_SKIPPED();
	snprintf(name, sizeof(name), "sim%d", self->id);
	snprintf(loc, sizeof(loc), "sim:%d", self->id);
	ASSERT_EQ(0, gt_read_ll(DEV(GT_FILE_INTERVAL_MS), &interval));
	snprintf(ival, sizeof(ival), "%lld", interval);

	ASSERT_LT(0, gt_read(DEV(GT_FILE_INFO), self->buf, sizeof(self->buf), 4096));
	ASSERT_FALSE(gt_has_kernel_pointer(self->buf));
	ASSERT_EQ('\n', self->buf[strlen(self->buf) - 1]);
	n = gt_lines(self->buf, lines, 64);
	ASSERT_EQ(nkeys, (size_t)n) TH_LOG("%d lines, want %zu", n, nkeys);
	for (size_t i = 0; i < nkeys; i++) {
		size_t kl = strlen(keys[i]);
		const char *v = lines[i] + kl + 2;

		ASSERT_EQ(0, strncmp(lines[i], keys[i], kl)) TH_LOG("line %zu '%s', want key %s",
								    i, lines[i], keys[i]);
		ASSERT_EQ(0, strncmp(lines[i] + kl, ": ", 2)) TH_LOG("line '%s'", lines[i]);
		ASSERT_NE('\0', *v) TH_LOG("empty value: '%s'", lines[i]);
		if (want[i]) {
			EXPECT_STREQ(want[i], v) TH_LOG("key %s", keys[i]);
			continue;
		}
		if (!strcmp(v, GT_UNAVAILABLE))
			continue;
		if (!strcmp(keys[i], GT_INFO_SUBSYS_VENDOR) || !strcmp(keys[i], GT_INFO_SUBSYS_DEVICE)) {
			unsigned int x;
			char tail;

			EXPECT_EQ(1, sscanf(v, "0x%4x%c", &x, &tail)) TH_LOG("%s", lines[i]);
			EXPECT_EQ(6u, strlen(v)) TH_LOG("%s", lines[i]);
		} else if (!strcmp(keys[i], GT_INFO_MCLK_MAX) || !strcmp(keys[i], GT_INFO_PCIE_WIDTH) ||
			   !strcmp(keys[i], GT_INFO_PCIE_MAX_WIDTH)) {
			EXPECT_TRUE(gt_is_int(v) && atoll(v) > 0) TH_LOG("%s", lines[i]);
		} else if (!strcmp(keys[i], GT_INFO_PCIE_SPEED) ||
			   !strcmp(keys[i], GT_INFO_PCIE_MAX_SPEED)) {
			double gts;
			char unit[16];

			EXPECT_EQ(2, sscanf(v, "%lf %15s", &gts, unit)) TH_LOG("%s", lines[i]);
			EXPECT_STREQ("GT/s", unit);
		}
	}
}

/* cu_count: one integer, the active count of info. */
TEST_F(dev, cu_count)
{
	long long cu = -1;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_EQ(0, gt_read_ll(DEV(GT_FILE_CU_COUNT), &cu));
	EXPECT_EQ(atoll(variant->cu_active), cu);
}

/*
 * The limits of a sensors snapshot: each critical temperature above its
 * sensor's reading, the power cap within its bounds, the default in force,
 * GTT in use within its size.
 */
static void sensors_limits(struct __test_metadata *_metadata,
			   const FIXTURE_VARIANT(dev) *variant, const long long v[GT_S_COUNT],
			   const bool have[GT_S_COUNT])
{
	EXPECT_EQ(variant->temp_edge_crit, v[GT_S_TEMP_EDGE_CRIT]);
	for (int k = 0; k < 3; k++) {
		if (!have[GT_S_TEMP_EDGE + k])
			continue;
		EXPECT_TRUE(have[GT_S_TEMP_EDGE_CRIT + k] &&
			    v[GT_S_TEMP_EDGE_CRIT + k] > v[GT_S_TEMP_EDGE + k])
			TH_LOG("%s %lld, critical %lld", gt_sensor_keys[GT_S_TEMP_EDGE + k],
			       v[GT_S_TEMP_EDGE + k], v[GT_S_TEMP_EDGE_CRIT + k]);
	}
	EXPECT_EQ(variant->power_cap, v[GT_S_POWER_CAP]);
	EXPECT_EQ(variant->power_cap, v[GT_S_POWER_CAP_DEFAULT]);
	EXPECT_EQ(variant->power_cap_max, v[GT_S_POWER_CAP_MAX]);
	EXPECT_TRUE(v[GT_S_POWER_CAP_MIN] >= 0 && v[GT_S_POWER_CAP_MIN] <= v[GT_S_POWER_CAP] &&
		    v[GT_S_POWER_CAP] <= v[GT_S_POWER_CAP_MAX])
		TH_LOG("cap %lld not in %lld..%lld", v[GT_S_POWER_CAP], v[GT_S_POWER_CAP_MIN],
		       v[GT_S_POWER_CAP_MAX]);
	EXPECT_TRUE(v[GT_S_GTT_TOTAL] > 0 && v[GT_S_GTT_USED] > 0 &&
		    v[GT_S_GTT_USED] <= v[GT_S_GTT_TOTAL])
		TH_LOG("gtt %lld of %lld", v[GT_S_GTT_USED], v[GT_S_GTT_TOTAL]);
}

/* sensors: every reading in GT_SENSORS order, "key: value unit". */
TEST_F(dev, sensors)
{
	char *lines[64];
	long long v[GT_S_COUNT];
	bool have[GT_S_COUNT] = { false };
	int n;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_LT(0, gt_read(DEV(GT_FILE_SENSORS), self->buf, sizeof(self->buf), 4096));
	ASSERT_FALSE(gt_has_kernel_pointer(self->buf));
	ASSERT_EQ('\n', self->buf[strlen(self->buf) - 1]);
	n = gt_lines(self->buf, lines, 64);
	ASSERT_EQ(GT_S_COUNT, n) TH_LOG("%d lines, want %d", n, GT_S_COUNT);
	for (int k = 0; k < GT_S_COUNT; k++) {
		char key[64], val[64], unit[16], extra[4];
		int f = sscanf(lines[k], "%63[^:]: %63s %15s %3s", key, val, unit, extra);

		ASSERT_STREQ(gt_sensor_keys[k], key) TH_LOG("line %d '%s'", k, lines[k]);
		if (f == 2) {
			EXPECT_STREQ(GT_UNAVAILABLE, val) TH_LOG("'%s'", lines[k]);
			continue;
		}
		ASSERT_EQ(3, f) TH_LOG("'%s'", lines[k]);
		ASSERT_TRUE(gt_is_int(val)) TH_LOG("'%s'", lines[k]);
		EXPECT_STREQ(gt_sensor_units[k], unit) TH_LOG("'%s'", lines[k]);
		v[k] = atoll(val);
		have[k] = true;
	}
	/* Exactly the readings the profile lacks are unavailable. */
	for (int k = 0; k < GT_S_COUNT; k++) {
		EXPECT_EQ(!(variant->lacks & (1u << k)), have[k])
			TH_LOG("%s: %s", gt_sensor_keys[k], lines[k]);
	}
	/* Plausible values (the formulas are checked in gt_sim). */
	EXPECT_TRUE(v[GT_S_TEMP_EDGE] > 0 && v[GT_S_TEMP_EDGE] < 150000);
	if (have[GT_S_TEMP_JUNCTION]) {
		EXPECT_TRUE(v[GT_S_TEMP_JUNCTION] >= v[GT_S_TEMP_EDGE] &&
			    v[GT_S_TEMP_JUNCTION] < 150000);
	}
	EXPECT_TRUE(v[GT_S_SCLK] > 0 && v[GT_S_SCLK] <= atoll(variant->sclk_max))
		TH_LOG("sclk %lld", v[GT_S_SCLK]);
	EXPECT_TRUE(v[GT_S_MCLK] > 0 && v[GT_S_MCLK] <= atoll(variant->mclk_max));
	/* The power the profile has, average or input; never both missing. */
	EXPECT_TRUE(have[GT_S_POWER_AVG] || have[GT_S_POWER_INPUT]);
	for (int k = GT_S_POWER_AVG; k <= GT_S_POWER_INPUT; k++) {
		if (!have[k])
			continue;
		EXPECT_TRUE(v[k] > 0 && v[k] <= v[GT_S_POWER_CAP])
			TH_LOG("%s %lld, cap %lld", gt_sensor_keys[k], v[k], v[GT_S_POWER_CAP]);
	}
	EXPECT_TRUE(v[GT_S_GPU_BUSY] >= 0 && v[GT_S_GPU_BUSY] <= 100);
	EXPECT_TRUE(v[GT_S_MEM_BUSY] >= 0 && v[GT_S_MEM_BUSY] <= 100);
	EXPECT_TRUE(v[GT_S_FAN_PWM] >= 0 && v[GT_S_FAN_PWM] <= 255);
	EXPECT_EQ(variant->vram_total, v[GT_S_VRAM_TOTAL]);
	EXPECT_TRUE(v[GT_S_VRAM_USED] > 0 && v[GT_S_VRAM_USED] <= v[GT_S_VRAM_TOTAL]);
	sensors_limits(_metadata, variant, v, have);
}

/* history: whole sample lines, timestamps increasing and in the past. */
TEST_F(dev, history)
{
	static struct gt_hline h[4096];
	char bad[1024];
	long long now;
	int fd, n;

	GT_SKIP_IF_SETUP_SKIPPED();
	take_samples(_metadata, self->id);
	fd = open(DEV(GT_FILE_HISTORY), O_RDONLY);
	ASSERT_LE(0, fd);
	n = gt_read_history(fd, self->buf, sizeof(self->buf), 65536, h, 4096, bad, sizeof(bad));
	close(fd);
	/* After the read: the sampler may add a sample while it runs. */
	now = gt_now_ns();
	ASSERT_LE(0, n) TH_LOG("malformed history line %d: '%s'", -n - 1, bad);
	ASSERT_LE(2, n) TH_LOG("only %d samples", n);
	ASSERT_FALSE(gt_has_kernel_pointer(self->buf));
	for (int i = 0; i < n; i++) {
		ASSERT_FALSE(h[i].lost) TH_LOG("'lost' on a first read");
		EXPECT_GT(now, h[i].ts);
		if (i) {
			EXPECT_LT(h[i - 1].ts, h[i].ts);
		}
		EXPECT_EQ(~variant->lacks & ((1u << GT_S_COUNT) - 1), h[i].valid)
			TH_LOG("sample %d: readings 0x%x", i, h[i].valid);
	}
	/* Within the last second: CLOCK_MONOTONIC, not another clock. */
	EXPECT_GT(h[n - 1].ts, now - 1000000000LL);
}

/* stats: "since <ns>", one line per reading in order, "sampler:" last. */
TEST_F(dev, stats)
{
	char *lines[64], key[64], unit[16], extra[4];
	long long since, mn, avg, mx, cnt, ns;
	int n, l = 0;

	GT_SKIP_IF_SETUP_SKIPPED();
	take_samples(_metadata, self->id);
	ASSERT_LT(0, gt_read(DEV(GT_FILE_STATS), self->buf, sizeof(self->buf), 4096));
	ASSERT_FALSE(gt_has_kernel_pointer(self->buf));
	ASSERT_EQ('\n', self->buf[strlen(self->buf) - 1]);
	n = gt_lines(self->buf, lines, 64);
	ASSERT_EQ(1, sscanf(lines[l], "since %lld %3s", &since, extra)) TH_LOG("'%s'", lines[l]);
	EXPECT_GT(gt_now_ns(), since);
	l++;
	for (int k = 0; k < GT_S_COUNT; k++, l++) {
		ASSERT_GT(n, l);
		snprintf(key, sizeof(key), "%s: " GT_UNAVAILABLE, gt_sensor_keys[k]);
		if (!strcmp(lines[l], key))
			continue;
		ASSERT_EQ(6, sscanf(lines[l], "%63[^:]: min=%lld avg=%lld max=%lld unit=%15s samples=%lld %3s",
				    key, &mn, &avg, &mx, unit, &cnt, extra)) TH_LOG("'%s'", lines[l]);
		EXPECT_STREQ(gt_sensor_keys[k], key);
		EXPECT_STREQ(gt_sensor_units[k], unit);
		EXPECT_LE(mn, avg) TH_LOG("'%s'", lines[l]);
		EXPECT_LE(avg, mx) TH_LOG("'%s'", lines[l]);
		EXPECT_LT(0, cnt) TH_LOG("'%s'", lines[l]);
	}
	/* The module's own cost line, last. */
	ASSERT_EQ(n, l + 1) TH_LOG("%d lines after the readings", n - l);
	ASSERT_EQ(2, sscanf(lines[l], "sampler: samples=%lld cpu_ns=%lld %3s", &cnt, &ns, extra))
		TH_LOG("'%s'", lines[l]);
	EXPECT_LT(0, cnt);
	EXPECT_LE(0, ns);
}

TEST_F(dev, interval_ms_default)
{
	long long v = -1;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_EQ(0, gt_read_ll(DEV(GT_FILE_INTERVAL_MS), &v));
	EXPECT_EQ(100, v) TH_LOG("the module's default interval_ms is 100");
}

TEST_F(dev, load_and_fail_sensors_defaults)
{
	long long load = -1;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_EQ(0, gt_read_ll(DEV(GT_FILE_LOAD), &load));
	EXPECT_TRUE(load >= 0 && load <= 100) TH_LOG("load %lld", load);
	ASSERT_LT(0, gt_read(DEV(GT_FILE_FAIL_SENSORS), self->buf, sizeof(self->buf), 4096));
	EXPECT_STREQ(GT_NONE "\n", self->buf);
}

/* Static files read 1 byte at a time give the same text; seeks land right. */
TEST_F(dev, tiny_reads_and_seeks)
{
	static const char *const files[] = { GT_FILE_INFO, GT_FILE_CU_COUNT, GT_FILE_INTERVAL_MS };
	static char whole[65536], tiny[65536];

	GT_SKIP_IF_SETUP_SKIPPED();
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		ssize_t a, b;
		off_t off;
		int fd;

		a = gt_read(DEV(files[i]), whole, sizeof(whole), sizeof(whole));
		ASSERT_LT(0, a);
		b = gt_read(DEV(files[i]), tiny, sizeof(tiny), 1);
		ASSERT_EQ(a, b) TH_LOG("%s", files[i]);
		EXPECT_STREQ(whole, tiny) TH_LOG("%s", files[i]);

		fd = open(DEV(files[i]), O_RDONLY);
		ASSERT_LE(0, fd);
		off = a / 2;
		ASSERT_EQ(off, lseek(fd, off, SEEK_SET));
		ASSERT_EQ(a - off, gt_read_fd(fd, tiny, sizeof(tiny), 7)) TH_LOG("%s", files[i]);
		EXPECT_STREQ(whole + off, tiny) TH_LOG("%s from %ld", files[i], (long)off);
		ASSERT_EQ(0, lseek(fd, 0, SEEK_SET));
		ASSERT_EQ(a, gt_read_fd(fd, tiny, sizeof(tiny), 3));
		EXPECT_STREQ(whole, tiny);
		close(fd);
	}
}

GT_HARNESS_MAIN
