// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: creating and removing simulated devices through new_device
 * and del_device: good input works, bad input is refused with the errno of
 * module/gputelemetry.rst and changes nothing.
 */
#include <dirent.h>

#include "gt_util.h"

#define NEW GT_ROOT "/" GT_FILE_NEW_DEVICE
#define DEL GT_ROOT "/" GT_FILE_DEL_DEVICE

/* The observable state: the devices list and the directory entries. */
static void snapshot(char *buf, size_t size)
{
	struct dirent *de;
	size_t len;
	DIR *d;

	len = gt_read(GT_ROOT "/" GT_FILE_DEVICES, buf, size, size);
	if ((ssize_t)len < 0)
		len = 0;
	d = opendir(GT_ROOT);
	if (!d)
		return;
	while ((de = readdir(d)) && len + 300 < size)
		len += snprintf(buf + len, size - len, "dir %s\n", de->d_name);
	closedir(d);
}

static int count_lines_starting(const char *text, const char *prefix)
{
	size_t pl = strlen(prefix);
	int n = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, prefix, pl))
			n++;
	return n;
}

/* Bad new_device input: the errno, and nothing changed. */
FIXTURE(bad_new) {
	char before[16384], after[16384];
};

FIXTURE_VARIANT(bad_new) {
	const char *input;
	int err;
};

FIXTURE_VARIANT_ADD(bad_new, newline_only) { "\n", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, profile_only) { "navi14", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, id_only) { "7", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, id_not_a_number) { "x navi14", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, id_hex) { "0x7 navi14", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, id_negative) { "-1 navi14", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, id_too_big) { "256 navi14", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, id_huge) { "99999999999999999999 navi14", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, unknown_profile) { "7 navi99", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, profile_case) { "7 NAVI14", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, extra_field) { "7 navi14 x", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, two_newlines) { "7 navi14\n\n", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, two_spaces) { "7  navi14", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, leading_space) { " 7 navi14", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, tab) { "7\tnavi14", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, trailing_space) { "7 navi14 ", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, carriage_return) { "7 navi14\r\n", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, control_char) { "7 navi\00114", EINVAL };
FIXTURE_VARIANT_ADD(bad_new, plus_sign) { "+7 navi14", EINVAL };

FIXTURE_SETUP(bad_new)
{
	if (!gt_require_module(NULL))
		return;
	ASSERT_FALSE(gt_exists(GT_ROOT "/sim7")) TH_LOG("sim7 exists before the test");
}

FIXTURE_TEARDOWN(bad_new)
{
	if (gt_exists(GT_ROOT "/sim7"))
		gt_sim_del(7);
}

TEST_F(bad_new, refused)
{
	GT_SKIP_IF_SETUP_SKIPPED();
	snapshot(self->before, sizeof(self->before));
	EXPECT_EQ(-variant->err, gt_write(NEW, variant->input))
		TH_LOG("new_device '%s'", variant->input);
	snapshot(self->after, sizeof(self->after));
	EXPECT_STREQ(self->before, self->after);
	EXPECT_FALSE(gt_exists(GT_ROOT "/sim7"));
}

/* Bad del_device input, next to an existing sim7 that must survive. */
FIXTURE(bad_del) {
	char before[16384], after[16384];
	bool created;
};

FIXTURE_VARIANT(bad_del) {
	const char *input;
	int err;
};

FIXTURE_VARIANT_ADD(bad_del, newline_only) { "\n", EINVAL };
FIXTURE_VARIANT_ADD(bad_del, not_a_number) { "x", EINVAL };
FIXTURE_VARIANT_ADD(bad_del, negative) { "-7", EINVAL };
FIXTURE_VARIANT_ADD(bad_del, too_big) { "263", EINVAL };
FIXTURE_VARIANT_ADD(bad_del, with_profile) { "7 navi14", EINVAL };
FIXTURE_VARIANT_ADD(bad_del, two_newlines) { "7\n\n", EINVAL };
FIXTURE_VARIANT_ADD(bad_del, leading_space) { " 7", EINVAL };
FIXTURE_VARIANT_ADD(bad_del, name_not_id) { "sim7", EINVAL };
FIXTURE_VARIANT_ADD(bad_del, absent) { "8", ENOENT };
FIXTURE_VARIANT_ADD(bad_del, absent_max) { "255", ENOENT };

FIXTURE_SETUP(bad_del)
{
	if (!gt_require_module(NULL))
		return;
	ASSERT_EQ(0, gt_sim_new(7, "navi14"));
	self->created = true;
	ASSERT_FALSE(gt_exists(GT_ROOT "/sim8"));
	ASSERT_FALSE(gt_exists(GT_ROOT "/sim255"));
}

FIXTURE_TEARDOWN(bad_del)
{
	if (self->created) {
		EXPECT_EQ(0, gt_sim_del(7));
	}
}

TEST_F(bad_del, refused)
{
	GT_SKIP_IF_SETUP_SKIPPED();
	snapshot(self->before, sizeof(self->before));
	EXPECT_EQ(-variant->err, gt_write(DEL, variant->input))
		TH_LOG("del_device '%s'", variant->input);
	snapshot(self->after, sizeof(self->after));
	EXPECT_STREQ(self->before, self->after);
	EXPECT_TRUE(gt_exists(GT_ROOT "/sim7/" GT_FILE_SENSORS));
}

FIXTURE(ctl) {
	int id;
	char path[PATH_MAX];
	char buf[65536];
};

FIXTURE_SETUP(ctl)
{
	if (!gt_require_module(NULL))
		return;
	self->id = gt_free_sim_id();
	ASSERT_LE(0, self->id);
}

FIXTURE_TEARDOWN(ctl)
{
	char path[PATH_MAX];

	if (self->id >= 0 && gt_exists(gt_dev_path(path, sizeof(path), self->id, "")))
		gt_sim_del(self->id);
}

#define DEV(file) gt_dev_path(self->path, sizeof(self->path), self->id, file)

TEST_F(ctl, create_and_remove)
{
	static const char *const files[] = {
		GT_FILE_INFO, GT_FILE_SENSORS, GT_FILE_CU_COUNT, GT_FILE_HISTORY, GT_FILE_STATS,
		GT_FILE_INTERVAL_MS, GT_FILE_LOAD, GT_FILE_FAIL_SENSORS,
	};
	char line[64];

	GT_SKIP_IF_SETUP_SKIPPED();
	snprintf(line, sizeof(line), "sim%d sim:%d navi14 sim active\n", self->id, self->id);
	ASSERT_EQ(0, gt_sim_new(self->id, "navi14"));
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		EXPECT_TRUE(gt_exists(DEV(files[i]))) TH_LOG("%s missing", self->path);
	}
	ASSERT_LE(0, gt_read(GT_ROOT "/" GT_FILE_DEVICES, self->buf, sizeof(self->buf), 4096));
	EXPECT_EQ(1, count_lines_starting(self->buf, line)) TH_LOG("devices:\n%s", self->buf);

	ASSERT_EQ(0, gt_sim_del(self->id));
	EXPECT_FALSE(gt_exists(DEV("")));
	ASSERT_LE(0, gt_read(GT_ROOT "/" GT_FILE_DEVICES, self->buf, sizeof(self->buf), 4096));
	snprintf(line, sizeof(line), "sim%d ", self->id);
	EXPECT_EQ(0, count_lines_starting(self->buf, line)) TH_LOG("devices:\n%s", self->buf);
}

TEST_F(ctl, one_trailing_newline)
{
	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_EQ(0, gt_writef(NEW, "%d navi14\n", self->id));
	EXPECT_TRUE(gt_exists(DEV(GT_FILE_SENSORS)));
	ASSERT_EQ(0, gt_writef(DEL, "%d\n", self->id));
	EXPECT_FALSE(gt_exists(DEV("")));
}

/* A duplicate id is refused and the existing device is left as it was. */
TEST_F(ctl, duplicate)
{
	char line[32];
	long long load = -1;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_EQ(0, gt_sim_new(self->id, "navi14"));
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_LOAD), "37"));
	EXPECT_EQ(-EEXIST, gt_sim_new(self->id, "navi14"));
	ASSERT_EQ(0, gt_read_ll(DEV(GT_FILE_LOAD), &load));
	EXPECT_EQ(37, load) TH_LOG("the existing device was replaced");
	ASSERT_LE(0, gt_read(GT_ROOT "/" GT_FILE_DEVICES, self->buf, sizeof(self->buf), 4096));
	snprintf(line, sizeof(line), "sim%d ", self->id);
	EXPECT_EQ(1, count_lines_starting(self->buf, line));
}

TEST_F(ctl, remove_twice)
{
	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_EQ(0, gt_sim_new(self->id, "navi14"));
	ASSERT_EQ(0, gt_sim_del(self->id));
	EXPECT_EQ(-ENOENT, gt_sim_del(self->id));
}

/* The same id again is a new device, with the profile's defaults. */
TEST_F(ctl, recreate)
{
	long long load0 = -1, load = -1;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_EQ(0, gt_sim_new(self->id, "navi14"));
	ASSERT_EQ(0, gt_read_ll(DEV(GT_FILE_LOAD), &load0));
	ASSERT_EQ(0, gt_writef(DEV(GT_FILE_LOAD), "%lld", load0 == 63 ? 64LL : 63LL));
	ASSERT_EQ(0, gt_sim_del(self->id));
	ASSERT_EQ(0, gt_sim_new(self->id, "navi14"));
	ASSERT_EQ(0, gt_read_ll(DEV(GT_FILE_LOAD), &load));
	EXPECT_EQ(load0, load);
}

/* Many devices, removed out of order: the list follows every step. */
TEST_F(ctl, many)
{
	static const int order[] = { 3, 0, 15, 7, 8, 1, 14, 2, 9, 4, 13, 6, 10, 5, 12, 11 };
	int base = 100;
	char line[32];

	GT_SKIP_IF_SETUP_SKIPPED();
	for (int i = 0; i < 16; i++) {
		ASSERT_FALSE(gt_exists(gt_dev_path(self->path, sizeof(self->path), base + i, "")));
	}
	for (int i = 0; i < 16; i++) {
		ASSERT_EQ(0, gt_sim_new(base + i, "navi14"));
	}
	for (int i = 0; i < 16; i++) {
		ASSERT_EQ(0, gt_sim_del(base + order[i]));
		ASSERT_LE(0, gt_read(GT_ROOT "/" GT_FILE_DEVICES, self->buf, sizeof(self->buf), 4096));
		for (int j = 0; j < 16; j++) {
			bool gone = false;

			for (int k = 0; k <= i; k++)
				gone |= order[k] == j;
			snprintf(line, sizeof(line), "sim%d ", base + j);
			EXPECT_EQ(gone ? 0 : 1, count_lines_starting(self->buf, line))
				TH_LOG("after removing %d: sim%d", base + order[i], base + j);
		}
	}
}

/*
 * Removing a device while files are open: reads and writes on those files
 * fail with EIO, nothing crashes, and the id can be used again.
 */
TEST_F(ctl, remove_while_open)
{
	int hist, sens, load;
	ssize_t n;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_EQ(0, gt_sim_new(self->id, "navi14"));
	hist = open(DEV(GT_FILE_HISTORY), O_RDONLY);
	sens = open(DEV(GT_FILE_SENSORS), O_RDONLY);
	load = open(DEV(GT_FILE_LOAD), O_WRONLY);
	ASSERT_LE(0, hist);
	ASSERT_LE(0, sens);
	ASSERT_LE(0, load);
	ASSERT_LT(0, read(sens, self->buf, 16));
	gt_sleep_ms(150);
	ASSERT_EQ(0, gt_sim_del(self->id));
	EXPECT_FALSE(gt_exists(DEV("")));

	/* The handles stay valid; their reads and writes fail with EIO. */
	n = read(hist, self->buf, sizeof(self->buf));
	EXPECT_EQ(-1, n) TH_LOG("history read %zd", n);
	EXPECT_EQ(EIO, errno);
	n = read(sens, self->buf, sizeof(self->buf));
	EXPECT_EQ(-1, n) TH_LOG("sensors read %zd", n);
	EXPECT_EQ(EIO, errno);
	n = write(load, "50", 2);
	EXPECT_EQ(-1, n) TH_LOG("a write to a removed device's load succeeded");
	EXPECT_EQ(EIO, errno);
	close(hist);
	close(sens);
	close(load);

	ASSERT_EQ(0, gt_sim_new(self->id, "navi14"));
	EXPECT_TRUE(gt_exists(DEV(GT_FILE_SENSORS)));
}

GT_HARNESS_MAIN
