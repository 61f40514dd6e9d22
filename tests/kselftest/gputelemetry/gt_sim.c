// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: behaviour of a simulated GPU. Cause and effect of the load
 * knob (sclk, power and busy at once, temperature with a time constant),
 * fault injection, statistics and their reset, and the bounds of the
 * writable files.
 */
#include "gt_util.h"

static char buf[1 << 20];

/* Both fixtures' setup: the module loaded, a new navi14 on a free id. */
static void sim_up(struct __test_metadata *_metadata, int *id)
{
	*id = -1;
	if (!gt_require_module(NULL))
		return;
	*id = gt_free_sim_id();
	ASSERT_LE(0, *id);
	ASSERT_EQ(0, gt_sim_new(*id, "navi14"));
}

static void sim_down(struct __test_metadata *_metadata, int id)
{
	if (id >= 0) {
		EXPECT_EQ(0, gt_sim_del(id));
	}
}

FIXTURE(sim) {
	int id;
	char path[PATH_MAX];
};

FIXTURE_VARIANT(sim) {
	int low, high;	/* load levels, % */
};

FIXTURE_VARIANT_ADD(sim, idle_to_full) { .low = 0, .high = 100 };
FIXTURE_VARIANT_ADD(sim, quarter_to_three_quarters) { .low = 25, .high = 75 };

FIXTURE_SETUP(sim)
{
	sim_up(_metadata, &self->id);
}

FIXTURE_TEARDOWN(sim)
{
	sim_down(_metadata, self->id);
}

#define DEV(file) gt_dev_path(self->path, sizeof(self->path), self->id, file)

/*
 * Whether the "fail_sensors" text is the set @want (space-separated keys,
 * any order), read back as keys separated by one space and one newline.
 */
static bool fail_set_is(const char *text, const char *want)
{
	char a[1024], b[1024], *tok, *save;
	int na = 0, nb = 0;

	if (strlen(text) >= sizeof(a))
		return false;
	strcpy(a, text);
	if (!*a || a[strlen(a) - 1] != '\n' || strstr(a, "  ") || a[0] == ' ')
		return false;
	a[strlen(a) - 1] = '\0';
	for (tok = strtok_r(a, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char pat[128];

		snprintf(pat, sizeof(pat), " %s ", tok);
		snprintf(b, sizeof(b), " %s ", want);
		if (!strstr(b, pat))
			return false;
		na++;
	}
	snprintf(b, sizeof(b), "%s", want);
	for (tok = strtok_r(b, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		nb++;
	return na == nb;
}

static long long sensor(struct __test_metadata *_metadata, int id, enum gt_sensor k)
{
	long long v = 0;

	EXPECT_EQ(1, gt_read_sensor(id, gt_sensor_keys[k], &v))
		TH_LOG("%s not available", gt_sensor_keys[k]);
	return v;
}

#define SENSOR(k) sensor(_metadata, self->id, GT_S_##k)

/* Raising the load raises sclk, power and gpu_busy at once; lowering lowers. */
TEST_F(sim, load_moves_clock_power_busy)
{
	long long s0, p0, b0, s1, p1, b1, s2, p2, b2;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_EQ(0, gt_writef(DEV(GT_FILE_LOAD), "%d", variant->low));
	s0 = SENSOR(SCLK);
	p0 = SENSOR(POWER_AVG);
	b0 = SENSOR(GPU_BUSY);
	ASSERT_EQ(0, gt_writef(DEV(GT_FILE_LOAD), "%d", variant->high));
	s1 = SENSOR(SCLK);
	p1 = SENSOR(POWER_AVG);
	b1 = SENSOR(GPU_BUSY);
	ASSERT_EQ(0, gt_writef(DEV(GT_FILE_LOAD), "%d", variant->low));
	s2 = SENSOR(SCLK);
	p2 = SENSOR(POWER_AVG);
	b2 = SENSOR(GPU_BUSY);
	TH_LOG("load %d->%d->%d: sclk %lld->%lld->%lld MHz, power %lld->%lld->%lld mW, busy %lld->%lld->%lld %%",
	       variant->low, variant->high, variant->low, s0, s1, s2, p0, p1, p2, b0, b1, b2);
	EXPECT_LT(s0, s1);
	EXPECT_LT(p0, p1);
	EXPECT_LT(b0, b1);
	EXPECT_GT(s1, s2);
	EXPECT_GT(p1, p2);
	EXPECT_GT(b1, b2);
	EXPECT_LE(s1, 1845);
	if (variant->high == 100) {
		EXPECT_LE(95, b1);
	}
	if (variant->low == 0) {
		EXPECT_GE(5, b0);
	}
}

/* Navi 14's numbers in module/gputelemetry.rst. */
#define N14_SCLK_IDLE	300
#define N14_SCLK_MAX	1845
#define N14_MCLK_IDLE	100
#define N14_MCLK_MAX	875
#define N14_POWER_IDLE	9000
#define N14_POWER_MAX	130000
#define N14_VDD_MIN	750
#define N14_VDD_MAX	1150
#define N14_TEMP_IDLE	35000
#define N14_TEMP_MAX	78000
#define N14_FAN_MIN	700
#define N14_FAN_MAX	2400
#define N14_VRAM	4294967296LL
#define N14_CAP		130000
#define N14_CAP_MAX	156000
#define SIM_GTT		8589934592LL
#define SIM_GTT_IDLE	(16LL << 20)
#define SIM_GTT_MAX	(1LL << 30)
#define HALF_LIFE_NS	2000000000LL

static long long llabs_(long long x)
{
	return x < 0 ? -x : x;
}

/* One snapshot of "sensors": every reading, -1 when unavailable. */
static void snapshot(struct __test_metadata *_metadata, int id, long long *v)
{
	char path[PATH_MAX];

	ASSERT_LT(0, gt_read(gt_dev_path(path, sizeof(path), id, GT_FILE_SENSORS), buf,
			     sizeof(buf), 4096));
	for (int k = 0; k < GT_S_COUNT; k++) {
		int r = gt_sensor_value(buf, gt_sensor_keys[k], &v[k]);

		ASSERT_LE(0, r) TH_LOG("%s malformed:\n%s", gt_sensor_keys[k], buf);
		if (!r)
			v[k] = -1;
	}
}

/* The readings at a steady load follow the formulas of gputelemetry.rst. */
TEST_F(sim, readings_follow_formulas)
{
	const int levels[] = { variant->low, variant->high };

	GT_SKIP_IF_SETUP_SKIPPED();
	for (int i = 0; i < 2; i++) {
		long long v[GT_S_COUNT], L = levels[i], dyn, dynp, edge, fan;

		ASSERT_EQ(0, gt_writef(DEV(GT_FILE_LOAD), "%lld", L));
		snapshot(_metadata, self->id, v);
		dyn = (N14_SCLK_MAX - N14_SCLK_IDLE) * L / 100;
		dynp = (N14_POWER_MAX - N14_POWER_IDLE) * L / 100;
		edge = v[GT_S_TEMP_EDGE];
		TH_LOG("load %lld: sclk %lld mclk %lld power %lld vddgfx %lld edge %lld fan %lld",
		       L, v[GT_S_SCLK], v[GT_S_MCLK], v[GT_S_POWER_AVG], v[GT_S_VDDGFX], edge,
		       v[GT_S_FAN]);
		EXPECT_EQ(L, v[GT_S_GPU_BUSY]);
		EXPECT_EQ(L / 2, v[GT_S_MEM_BUSY]);
		EXPECT_EQ(L ? N14_MCLK_MAX : N14_MCLK_IDLE, v[GT_S_MCLK]);
		/* The load's share of the clock, less a ripple of 0..2 %. */
		EXPECT_GE(N14_SCLK_IDLE + dyn, v[GT_S_SCLK]);
		EXPECT_LE(N14_SCLK_IDLE + dyn - dyn / 50 - 1, v[GT_S_SCLK]);
		EXPECT_GE(N14_POWER_IDLE + dynp, v[GT_S_POWER_AVG]);
		EXPECT_LE(N14_POWER_IDLE + dynp - dynp / 50 - 1, v[GT_S_POWER_AVG]);
		EXPECT_GE(2, llabs_(v[GT_S_VDDGFX] - (N14_VDD_MIN + (N14_VDD_MAX - N14_VDD_MIN) *
					(v[GT_S_SCLK] - N14_SCLK_IDLE) / (N14_SCLK_MAX - N14_SCLK_IDLE))))
			TH_LOG("vddgfx %lld at sclk %lld", v[GT_S_VDDGFX], v[GT_S_SCLK]);
		EXPECT_GE(1, llabs_(v[GT_S_TEMP_JUNCTION] -
				    (edge + 3000 + (edge - N14_TEMP_IDLE) / 2)));
		EXPECT_EQ(edge + 4000, v[GT_S_TEMP_MEM]);
		fan = N14_FAN_MIN + (N14_FAN_MAX - N14_FAN_MIN) * (edge - N14_TEMP_IDLE) /
		      (N14_TEMP_MAX - N14_TEMP_IDLE);
		EXPECT_GE(2, llabs_(v[GT_S_FAN] - fan)) TH_LOG("fan %lld at edge %lld", v[GT_S_FAN], edge);
		EXPECT_GE(2, llabs_(v[GT_S_FAN_PWM] - v[GT_S_FAN] * 255 / N14_FAN_MAX));
		EXPECT_GE(1 << 20, llabs_(v[GT_S_VRAM_USED] -
					  ((256LL << 20) + (N14_VRAM / 2 - (256LL << 20)) * L / 100)))
			TH_LOG("vram_used %lld at load %lld", v[GT_S_VRAM_USED], L);
		EXPECT_EQ(N14_VRAM, v[GT_S_VRAM_TOTAL]);
		EXPECT_EQ(-1, v[GT_S_VDDNB]);
		EXPECT_EQ(-1, v[GT_S_POWER_INPUT]);
		/* The limits are the profile's; GTT use follows the load. */
		EXPECT_EQ(100000, v[GT_S_TEMP_EDGE_CRIT]);
		EXPECT_EQ(110000, v[GT_S_TEMP_JUNCTION_CRIT]);
		EXPECT_EQ(105000, v[GT_S_TEMP_MEM_CRIT]);
		EXPECT_EQ(N14_CAP, v[GT_S_POWER_CAP]);
		EXPECT_EQ(N14_CAP, v[GT_S_POWER_CAP_DEFAULT]);
		EXPECT_EQ(0, v[GT_S_POWER_CAP_MIN]);
		EXPECT_EQ(N14_CAP_MAX, v[GT_S_POWER_CAP_MAX]);
		EXPECT_GE(1, llabs_(v[GT_S_GTT_USED] -
				    (SIM_GTT_IDLE + (SIM_GTT_MAX - SIM_GTT_IDLE) * L / 100)))
			TH_LOG("gtt_used %lld at load %lld", v[GT_S_GTT_USED], L);
		EXPECT_EQ(SIM_GTT, v[GT_S_GTT_TOTAL]);
	}
}

/* temp_edge(t) = T + (temp0 - T) * 2^(-(t - t0) / 2 s), in 1/32 half-life steps. */
static long long temp_at(long long temp0, long long target, long long dt_ns)
{
	double steps = dt_ns < 0 ? 0 : (double)dt_ns * 32 / HALF_LIFE_NS;
	double f = 1.0;

	/* 2^(-steps/32) without libm: halve per half-life, then the rest. */
	while (steps >= 32) {
		f /= 2;
		steps -= 32;
	}
	for (double k = 0; k < steps; k += 1)
		f *= 0.97857206208770013;	/* 2^(-1/32) */
	return target + (long long)((temp0 - target) * f);
}

/*
 * Temperatures follow the load with a half-life of 2 s: a new device is
 * settled at idle; after the load rises the edge temperature is where the
 * formula puts it for the time elapsed; after the load falls it moves
 * towards the lower target.
 */
TEST_F(sim, temperature_follows_load)
{
	long long T_hi = N14_TEMP_IDLE + (N14_TEMP_MAX - N14_TEMP_IDLE) * variant->high / 100;
	long long T_lo = N14_TEMP_IDLE + (N14_TEMP_MAX - N14_TEMP_IDLE) * variant->low / 100;
	long long w0, w1, r0, r1, r2, e0, e1, e2, e3, lo, hi, v[GT_S_COUNT];

	GT_SKIP_IF_SETUP_SKIPPED();
	snapshot(_metadata, self->id, v);
	e0 = v[GT_S_TEMP_EDGE];
	EXPECT_EQ(N14_TEMP_IDLE, e0) TH_LOG("a new device starts settled at idle");
	w0 = gt_now_ns();
	ASSERT_EQ(0, gt_writef(DEV(GT_FILE_LOAD), "%d", variant->high));
	w1 = gt_now_ns();
	gt_sleep_ms(400);
	r0 = gt_now_ns();
	snapshot(_metadata, self->id, v);
	r1 = gt_now_ns();
	e1 = v[GT_S_TEMP_EDGE];
	/* The reading's time lies in [r0, r1], the load change's in [w0, w1]. */
	lo = temp_at(N14_TEMP_IDLE, T_hi, r0 - w1 - HALF_LIFE_NS / 32) - 50;
	hi = temp_at(N14_TEMP_IDLE, T_hi, r1 - w0 + HALF_LIFE_NS / 32) + 50;
	TH_LOG("edge %lld mC %lld ms after load %d: want %lld..%lld (target %lld)",
	       e1, (r0 - w1) / 1000000, variant->high, lo, hi, T_hi);
	EXPECT_LE(lo, e1);
	EXPECT_GE(hi, e1);
	EXPECT_GE(1, llabs_(v[GT_S_TEMP_JUNCTION] - (e1 + 3000 + (e1 - N14_TEMP_IDLE) / 2)));

	/* Still rising at the same load. */
	gt_sleep_ms(150);
	r0 = gt_now_ns();
	snapshot(_metadata, self->id, v);
	e2 = v[GT_S_TEMP_EDGE];
	EXPECT_LT(e1, e2);

	/*
	 * Load back down: from then on the edge heads for the lower target,
	 * from where it was at the change (between e2 and what the high
	 * load made of it by the write).
	 */
	w0 = gt_now_ns();
	ASSERT_EQ(0, gt_writef(DEV(GT_FILE_LOAD), "%d", variant->low));
	w1 = gt_now_ns();
	gt_sleep_ms(250);
	r1 = gt_now_ns();
	snapshot(_metadata, self->id, v);
	r2 = gt_now_ns();
	e3 = v[GT_S_TEMP_EDGE];
	{
		long long t0a = e2 - 50, t0b = temp_at(e2, T_hi, w1 - r0 + HALF_LIFE_NS / 32) + 50;
		long long c[4] = {
			temp_at(t0a, T_lo, r1 - w1 - HALF_LIFE_NS / 32),
			temp_at(t0a, T_lo, r2 - w0 + HALF_LIFE_NS / 32),
			temp_at(t0b, T_lo, r1 - w1 - HALF_LIFE_NS / 32),
			temp_at(t0b, T_lo, r2 - w0 + HALF_LIFE_NS / 32),
		};

		lo = hi = c[0];
		for (int k = 1; k < 4; k++) {
			lo = c[k] < lo ? c[k] : lo;
			hi = c[k] > hi ? c[k] : hi;
		}
		lo -= 50;
		hi += 50;
	}
	TH_LOG("edge %lld -> %lld at load %d, then %lld at load %d: want %lld..%lld (target %lld)",
	       e1, e2, variant->high, e3, variant->low, lo, hi, T_lo);
	EXPECT_LE(lo, e3);
	EXPECT_GE(hi, e3);
}

struct stat_line {
	bool avail;
	long long min, avg, max, samples;
};

/* Parses "stats"; returns the "since" time, -1 when malformed. */
static long long parse_stats(const char *text, struct stat_line *st)
{
	const char *p = text;
	long long since;

	if (sscanf(p, "since %lld\n", &since) != 1)
		return -1;
	for (int k = 0; k < GT_S_COUNT; k++) {
		char key[256], unit[16];

		p = strchr(p, '\n');
		if (!p)
			return -1;
		p++;
		snprintf(key, sizeof(key), "%s: " GT_UNAVAILABLE "\n", gt_sensor_keys[k]);
		if (!strncmp(p, key, strlen(key))) {
			st[k].avail = false;
			continue;
		}
		snprintf(key, sizeof(key), "%s: min=%%lld avg=%%lld max=%%lld unit=%%15s samples=%%lld",
			 gt_sensor_keys[k]);
		if (sscanf(p, key, &st[k].min, &st[k].avg, &st[k].max, unit, &st[k].samples) != 5)
			return -1;
		st[k].avail = true;
	}
	return since;
}

/* Statistics cover the samples since the last reset, and follow the load. */
TEST_F(sim, stats_and_reset)
{
	struct stat_line a[GT_S_COUNT], b[GT_S_COUNT];
	long long since_a, since_b, t_reset;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_INTERVAL_MS), "10"));
	ASSERT_EQ(0, gt_writef(DEV(GT_FILE_LOAD), "%d", variant->high));
	ASSERT_TRUE(gt_wait_samples(self->id, 6, 10));
	ASSERT_LT(0, gt_read(DEV(GT_FILE_STATS), buf, sizeof(buf), 4096));
	since_a = parse_stats(buf, a);
	ASSERT_LE(0, since_a) TH_LOG("stats:\n%s", buf);
	ASSERT_TRUE(a[GT_S_SCLK].avail);
	EXPECT_LE(6, a[GT_S_SCLK].samples);

	/* Anything but "reset" is refused and resets nothing. */
	EXPECT_EQ(-EINVAL, gt_write(DEV(GT_FILE_STATS), "rest"));
	EXPECT_EQ(-EINVAL, gt_write(DEV(GT_FILE_STATS), "reset\n\n"));
	EXPECT_EQ(-EINVAL, gt_write(DEV(GT_FILE_STATS), "1"));
	EXPECT_EQ(-EINVAL, gt_write(DEV(GT_FILE_STATS), "RESET"));
	ASSERT_LT(0, gt_read(DEV(GT_FILE_STATS), buf, sizeof(buf), 4096));
	EXPECT_EQ(since_a, parse_stats(buf, b));
	EXPECT_LE(a[GT_S_SCLK].samples, b[GT_S_SCLK].samples);

	/* Reset at low load: the new window's sclk is the low-load one. */
	ASSERT_EQ(0, gt_writef(DEV(GT_FILE_LOAD), "%d", variant->low));
	ASSERT_TRUE(gt_wait_samples(self->id, 2, 10));
	t_reset = gt_now_ns();
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_STATS), "reset\n"));
	ASSERT_LT(0, gt_read(DEV(GT_FILE_STATS), buf, sizeof(buf), 4096));
	since_b = parse_stats(buf, b);
	ASSERT_LE(0, since_b) TH_LOG("stats:\n%s", buf);
	EXPECT_LE(t_reset, since_b);
	EXPECT_GE(gt_now_ns(), since_b);
	EXPECT_GT(a[GT_S_SCLK].samples, b[GT_S_SCLK].avail ? b[GT_S_SCLK].samples : 0);
	ASSERT_TRUE(gt_wait_samples(self->id, 4, 10));
	ASSERT_LT(0, gt_read(DEV(GT_FILE_STATS), buf, sizeof(buf), 4096));
	ASSERT_EQ(since_b, parse_stats(buf, b));
	ASSERT_TRUE(b[GT_S_SCLK].avail);
	EXPECT_LE(4, b[GT_S_SCLK].samples);
	EXPECT_GT(a[GT_S_SCLK].max, b[GT_S_SCLK].max)
		TH_LOG("sclk max %lld at load %d, %lld at load %d", a[GT_S_SCLK].max,
		       variant->high, b[GT_S_SCLK].max, variant->low);
	EXPECT_EQ(0, gt_write(DEV(GT_FILE_STATS), GT_STATS_RESET));
}

/* The knobs and fault injection: one device, no load levels needed. */
FIXTURE(knobs) {
	int id;
	char path[PATH_MAX];
};

FIXTURE_SETUP(knobs)
{
	sim_up(_metadata, &self->id);
}

FIXTURE_TEARDOWN(knobs)
{
	sim_down(_metadata, self->id);
}

/* A failed reading is "unavailable" in sensors, "na" in history; sampling goes on. */
TEST_F(knobs, fail_sensors)
{
	static struct gt_hline h[4096];
	char bad[1024];
	long long v = -1;
	int fd, n;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_INTERVAL_MS), "10"));
	fd = open(DEV(GT_FILE_HISTORY), O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_LE(0, gt_read_fd(fd, buf, sizeof(buf), sizeof(buf)));

	ASSERT_EQ(0, gt_write(DEV(GT_FILE_FAIL_SENSORS), "sclk temp_mem"));
	ASSERT_LT(0, gt_read(DEV(GT_FILE_FAIL_SENSORS), buf, sizeof(buf), 4096));
	EXPECT_TRUE(fail_set_is(buf, "sclk temp_mem")) TH_LOG("fail_sensors: '%s'", buf);
	EXPECT_EQ(0, gt_read_sensor(self->id, "sclk", &v));
	EXPECT_EQ(0, gt_read_sensor(self->id, "temp_mem", &v));
	EXPECT_EQ(1, gt_read_sensor(self->id, "mclk", &v));
	EXPECT_EQ(1, gt_read_sensor(self->id, "temp_edge", &v));
	ASSERT_LT(0, gt_read(DEV(GT_FILE_SENSORS), buf, sizeof(buf), 4096));
	EXPECT_NE(NULL, strstr(buf, "\nsclk: " GT_UNAVAILABLE "\n")) TH_LOG("%s", buf);

	/* Samples taken while failing: sclk=na, others present; more keep coming. */
	ASSERT_TRUE(gt_wait_samples(self->id, 2, 10));
	ASSERT_LE(0, gt_read_fd(fd, buf, sizeof(buf), sizeof(buf)));
	ASSERT_TRUE(gt_wait_samples(self->id, 4, 10)) TH_LOG("the sampler stopped");
	n = gt_read_history(fd, buf, sizeof(buf), 4096, h, 4096, bad, sizeof(bad));
	ASSERT_LE(3, n) TH_LOG("%d new samples while a sensor fails", n);
	for (int i = 0; i < n; i++) {
		if (h[i].lost)
			continue;
		EXPECT_FALSE(h[i].valid & (1u << GT_S_SCLK));
		EXPECT_FALSE(h[i].valid & (1u << GT_S_TEMP_MEM));
		EXPECT_TRUE(h[i].valid & (1u << GT_S_MCLK));
		EXPECT_TRUE(h[i].valid & (1u << GT_S_TEMP_EDGE));
	}

	/* An unknown key: refused, the set unchanged. */
	EXPECT_EQ(-EINVAL, gt_write(DEV(GT_FILE_FAIL_SENSORS), "sclk nosuchsensor"));
	EXPECT_EQ(-EINVAL, gt_write(DEV(GT_FILE_FAIL_SENSORS), "SCLK"));
	ASSERT_LT(0, gt_read(DEV(GT_FILE_FAIL_SENSORS), buf, sizeof(buf), 4096));
	EXPECT_TRUE(fail_set_is(buf, "sclk temp_mem")) TH_LOG("fail_sensors: '%s'", buf);

	/* The limits and GTT fail as any reading does, one apart from another. */
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_FAIL_SENSORS), "power_cap gtt_used temp_edge_crit"));
	ASSERT_LT(0, gt_read(DEV(GT_FILE_FAIL_SENSORS), buf, sizeof(buf), 4096));
	EXPECT_TRUE(fail_set_is(buf, "temp_edge_crit power_cap gtt_used")) TH_LOG("'%s'", buf);
	EXPECT_EQ(0, gt_read_sensor(self->id, "power_cap", &v));
	EXPECT_EQ(0, gt_read_sensor(self->id, "gtt_used", &v));
	EXPECT_EQ(0, gt_read_sensor(self->id, "temp_edge_crit", &v));
	EXPECT_EQ(1, gt_read_sensor(self->id, "power_cap_max", &v));
	EXPECT_EQ(1, gt_read_sensor(self->id, "gtt_total", &v));
	EXPECT_EQ(1, gt_read_sensor(self->id, "temp_junction_crit", &v));
	EXPECT_EQ(1, gt_read_sensor(self->id, "sclk", &v));

	/* Writing replaces the set. */
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_FAIL_SENSORS), "power_avg\n"));
	ASSERT_LT(0, gt_read(DEV(GT_FILE_FAIL_SENSORS), buf, sizeof(buf), 4096));
	EXPECT_STREQ("power_avg\n", buf);
	EXPECT_EQ(1, gt_read_sensor(self->id, "sclk", &v));
	EXPECT_EQ(0, gt_read_sensor(self->id, "power_avg", &v));

	/* "none" clears it; samples are whole again. */
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_FAIL_SENSORS), GT_NONE));
	ASSERT_LT(0, gt_read(DEV(GT_FILE_FAIL_SENSORS), buf, sizeof(buf), 4096));
	EXPECT_STREQ(GT_NONE "\n", buf);
	EXPECT_EQ(1, gt_read_sensor(self->id, "power_avg", &v));
	ASSERT_TRUE(gt_wait_samples(self->id, 1, 10));
	ASSERT_LE(0, gt_read_fd(fd, buf, sizeof(buf), sizeof(buf)));
	ASSERT_TRUE(gt_wait_samples(self->id, 2, 10));
	n = gt_read_history(fd, buf, sizeof(buf), 4096, h, 4096, bad, sizeof(bad));
	ASSERT_LE(1, n);
	EXPECT_TRUE(h[n - 1].valid & (1u << GT_S_SCLK));
	EXPECT_TRUE(h[n - 1].valid & (1u << GT_S_POWER_AVG));
	close(fd);
}

/* Every reading failing: all unavailable, and the sampler still runs. */
TEST_F(knobs, fail_all_sensors)
{
	char all[1024] = "";
	long long v = -1;
	int fd, n;

	GT_SKIP_IF_SETUP_SKIPPED();
	for (int k = 0; k < GT_S_COUNT; k++) {
		strcat(all, gt_sensor_keys[k]);
		strcat(all, k + 1 < GT_S_COUNT ? " " : "");
	}
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_INTERVAL_MS), "10"));
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_FAIL_SENSORS), all));
	for (int k = 0; k < GT_S_COUNT; k++) {
		EXPECT_EQ(0, gt_read_sensor(self->id, gt_sensor_keys[k], &v))
			TH_LOG("%s", gt_sensor_keys[k]);
	}
	fd = open(DEV(GT_FILE_HISTORY), O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_TRUE(gt_wait_samples(self->id, 1, 10));
	ASSERT_LE(0, gt_read_fd(fd, buf, sizeof(buf), sizeof(buf)));
	ASSERT_TRUE(gt_wait_samples(self->id, 4, 10)) TH_LOG("the sampler stopped");
	{
		static struct gt_hline h[4096];
		char bad[1024];

		n = gt_read_history(fd, buf, sizeof(buf), 4096, h, 4096, bad, sizeof(bad));
		ASSERT_LE(3, n) TH_LOG("the sampler stopped when every sensor failed");
		EXPECT_EQ(0u, h[n - 1].valid);
	}
	close(fd);
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_FAIL_SENSORS), GT_NONE));
}

/* A reading that failed in every sample since the reset is "unavailable". */
TEST_F(knobs, stats_of_failed_sensor)
{
	struct stat_line s[GT_S_COUNT];

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_INTERVAL_MS), "10"));
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_FAIL_SENSORS), "mclk"));
	ASSERT_TRUE(gt_wait_samples(self->id, 2, 10));
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_STATS), "reset"));
	ASSERT_TRUE(gt_wait_samples(self->id, 4, 10));
	ASSERT_LT(0, gt_read(DEV(GT_FILE_STATS), buf, sizeof(buf), 4096));
	ASSERT_LE(0, parse_stats(buf, s)) TH_LOG("stats:\n%s", buf);
	EXPECT_FALSE(s[GT_S_MCLK].avail);
	EXPECT_TRUE(s[GT_S_SCLK].avail);
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_FAIL_SENSORS), GT_NONE));
}

/* interval_ms: 10..60000; anything else refused, the period unchanged. */
TEST_F(knobs, interval_ms_bounds)
{
	static const char *const bad[] = {
		"9", "60001", "0", "-10", "abc", "10x", " 10", "100000000000000000000", "\n", "1e3",
	};
	long long v = -1;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_INTERVAL_MS), "10"));
	ASSERT_EQ(0, gt_read_ll(DEV(GT_FILE_INTERVAL_MS), &v));
	EXPECT_EQ(10, v);
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_INTERVAL_MS), "60000\n"));
	ASSERT_EQ(0, gt_read_ll(DEV(GT_FILE_INTERVAL_MS), &v));
	EXPECT_EQ(60000, v);
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_INTERVAL_MS), "250"));
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, gt_write(DEV(GT_FILE_INTERVAL_MS), bad[i]))
			TH_LOG("interval_ms '%s'", bad[i]);
		ASSERT_EQ(0, gt_read_ll(DEV(GT_FILE_INTERVAL_MS), &v));
		EXPECT_EQ(250, v) TH_LOG("after '%s'", bad[i]);
	}
	/* info shows the same period. */
	ASSERT_LT(0, gt_read(DEV(GT_FILE_INFO), buf, sizeof(buf), 4096));
	EXPECT_NE(NULL, strstr(buf, "\n" GT_INFO_INTERVAL ": 250\n")) TH_LOG("info:\n%s", buf);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* Median spacing of the sample lines h[0..n), in ns; 0 when fewer than 3. */
static long long median_spacing(const struct gt_hline *h, int n, long long *min)
{
	static long long d[4096];
	int m = 0;

	for (int i = 1; i < n; i++)
		if (!h[i].lost && !h[i - 1].lost)
			d[m++] = h[i].ts - h[i - 1].ts;
	if (m < 2)
		return 0;
	qsort(d, m, sizeof(d[0]), cmp_ll);
	*min = d[0];
	return d[m / 2];
}

/*
 * The period really is the sampling period: samples come a period apart
 * (the median spacing; gputelemetry.rst; 1 ms allowed for clock reads),
 * and at 10 ms much closer than at 60 ms (a slow VM stretches both).
 */
TEST_F(knobs, interval_ms_rate)
{
	static struct gt_hline h[4096];
	long long fast, slow, fast_min = 0, slow_min = 0;
	char bad[256];
	int fd, n;

	GT_SKIP_IF_SETUP_SKIPPED();
	fd = open(DEV(GT_FILE_HISTORY), O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_INTERVAL_MS), "10"));
	ASSERT_TRUE(gt_wait_samples(self->id, 1, 10));
	ASSERT_LE(0, gt_read_fd(fd, buf, sizeof(buf), sizeof(buf)));
	ASSERT_TRUE(gt_wait_samples(self->id, 8, 10));
	n = gt_read_history(fd, buf, sizeof(buf), 4096, h, 4096, bad, sizeof(bad));
	fast = median_spacing(h, n, &fast_min);
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_INTERVAL_MS), "60"));
	ASSERT_TRUE(gt_wait_samples(self->id, 1, 60));
	ASSERT_LE(0, gt_read_fd(fd, buf, sizeof(buf), sizeof(buf)));
	ASSERT_TRUE(gt_wait_samples(self->id, 4, 60));
	n = gt_read_history(fd, buf, sizeof(buf), 4096, h, 4096, bad, sizeof(bad));
	slow = median_spacing(h, n, &slow_min);
	close(fd);
	TH_LOG("spacing at 10 ms: median %lld us, min %lld us; at 60 ms: median %lld us, min %lld us",
	       fast / 1000, fast_min / 1000, slow / 1000, slow_min / 1000);
	ASSERT_LT(0, fast);
	ASSERT_LT(0, slow);
	/* See gt_history's period test for why not every pair. */
	EXPECT_LE(5000000, fast_min);
	EXPECT_LE(30000000, slow_min);
	EXPECT_LE(9000000, fast);
	EXPECT_LE(59000000, slow);
	/* Relative, so that a slow (debug, emulated) kernel passes too. */
	EXPECT_GT(slow * 3 / 4, fast);
	EXPECT_GT(200000000, slow);
}

/* load: 0..100; anything else refused, the load unchanged. */
TEST_F(knobs, load_bounds)
{
	static const char *const bad[] = { "101", "-1", "abc", "50x", " 50", "\n", "1000" };
	long long v = -1;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_LOAD), "0"));
	ASSERT_EQ(0, gt_read_ll(DEV(GT_FILE_LOAD), &v));
	EXPECT_EQ(0, v);
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_LOAD), "100\n"));
	ASSERT_EQ(0, gt_read_ll(DEV(GT_FILE_LOAD), &v));
	EXPECT_EQ(100, v);
	ASSERT_EQ(0, gt_write(DEV(GT_FILE_LOAD), "42"));
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, gt_write(DEV(GT_FILE_LOAD), bad[i])) TH_LOG("load '%s'", bad[i]);
		ASSERT_EQ(0, gt_read_ll(DEV(GT_FILE_LOAD), &v));
		EXPECT_EQ(42, v) TH_LOG("after '%s'", bad[i]);
	}
}

GT_HARNESS_MAIN
