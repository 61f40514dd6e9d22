// SPDX-License-Identifier: GPL-2.0
/*
 * gputelemetry: the history file. Each open file has its own cursor; a read
 * returns only samples this reader has not seen; samples overwritten before
 * a reader saw them are reported as "lost <n>"; reads of any size give the
 * same lines.
 */
#include <pthread.h>

#include "gt_util.h"

#define MAXL 70000

/* Big buffers: static, not in the fixture on the stack (each test is a child). */
static char bufa[1 << 20], bufb[1 << 20];
static struct gt_hline hla[MAXL], hlb[MAXL];

FIXTURE(hist) {
	int id;
	char path[PATH_MAX];
	char *a, *b;
	struct gt_hline *ha, *hb;
	char bad[1024];
};

/* The module as it is loaded (default history_depth), periods per device. */
FIXTURE_VARIANT(hist) {
	int interval_ms;	/* per-device period */
};

FIXTURE_VARIANT_ADD(hist, period_10ms) { .interval_ms = 10 };
FIXTURE_VARIANT_ADD(hist, period_20ms) { .interval_ms = 20 };

static void dev_setup(struct __test_metadata *_metadata, int *id, const char *params,
		      int interval_ms)
{
	char p[PATH_MAX];

	*id = -1;
	if (!gt_require_module(params))
		return;
	*id = gt_free_sim_id();
	ASSERT_LE(0, *id);
	ASSERT_EQ(0, gt_sim_new(*id, "navi14"));
	ASSERT_EQ(0, gt_writef(gt_dev_path(p, sizeof(p), *id, GT_FILE_INTERVAL_MS), "%d",
			       interval_ms));
}

FIXTURE_SETUP(hist)
{
	self->a = bufa;
	self->b = bufb;
	self->ha = hla;
	self->hb = hlb;
	dev_setup(_metadata, &self->id, NULL, variant->interval_ms);
}

FIXTURE_TEARDOWN(hist)
{
	if (self->id >= 0) {
		EXPECT_EQ(0, gt_sim_del(self->id));
	}
}

#define DEV(file) gt_dev_path(self->path, sizeof(self->path), self->id, file)
#define READ_HIST(fd, buf, h, chunk) \
	gt_read_history(fd, buf, sizeof(bufa), chunk, h, MAXL, self->bad, sizeof(self->bad))

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/* Samples stop arriving: the period set to the maximum, a pending one let through. */
static int freeze(struct __test_metadata *_metadata, const char *path)
{
	ASSERT_EQ(0, gt_write(path, "60000"));
	gt_sleep_ms(50);
	return 0;
}

/* Two readers each get every sample, independently of each other. */
TEST_F(hist, two_readers)
{
	int fa, fb, na, nb, nb2;

	GT_SKIP_IF_SETUP_SKIPPED();
	fa = open(DEV(GT_FILE_HISTORY), O_RDONLY);
	fb = open(DEV(GT_FILE_HISTORY), O_RDONLY);
	ASSERT_LE(0, fa);
	ASSERT_LE(0, fb);
	ASSERT_TRUE(gt_wait_samples(self->id, 6, variant->interval_ms));

	/* A reads now; B only after the samples stopped. */
	na = READ_HIST(fa, self->a, self->ha, 65536);
	ASSERT_LE(0, na) TH_LOG("line %d: '%s'", -na - 1, self->bad);
	freeze(_metadata, DEV(GT_FILE_INTERVAL_MS));
	nb = READ_HIST(fb, self->b, self->hb, 65536);
	ASSERT_LE(0, nb) TH_LOG("line %d: '%s'", -nb - 1, self->bad);
	ASSERT_LE(2, na);

	/* B got A's samples, then the later ones. */
	ASSERT_LE(na, nb);
	for (int i = 0; i < na; i++) {
		ASSERT_FALSE(self->ha[i].lost);
		ASSERT_FALSE(self->hb[i].lost);
		EXPECT_EQ(self->ha[i].ts, self->hb[i].ts) TH_LOG("sample %d", i);
		EXPECT_EQ(0, memcmp(self->ha[i].val, self->hb[i].val, sizeof(self->ha[i].val)));
	}
	/* A's next read: exactly what came after its first read. */
	nb2 = READ_HIST(fa, self->a, self->ha, 65536);
	ASSERT_LE(0, nb2);
	EXPECT_EQ(nb - na, nb2);
	if (nb2 > 0 && nb > na) {
		EXPECT_EQ(self->hb[na].ts, self->ha[0].ts);
	}
	/* Both are at the end now. */
	EXPECT_EQ(0, READ_HIST(fa, self->a, self->ha, 65536));
	EXPECT_EQ(0, READ_HIST(fb, self->b, self->hb, 65536));
	close(fa);
	close(fb);
}

struct reader {
	int fd;
	size_t chunk;
	int *stop;	/* read and written with __atomic builtins */
	char *text;
	size_t len, size;
	int err;
};

/* Reads its fd with its chunk size, again and again, until told to stop. */
static void *reader_main(void *arg)
{
	struct reader *r = arg;
	int last = 0;

	for (;;) {
		ssize_t n = read(r->fd, r->text + r->len, r->size - 1 - r->len < r->chunk ?
				 r->size - 1 - r->len : r->chunk);

		if (n < 0) {
			r->err = errno;
			break;
		}
		r->len += n;
		if (n == 0) {
			/* At the end: one more pass after the stop, then done. */
			if (last)
				break;
			if (__atomic_load_n(r->stop, __ATOMIC_ACQUIRE))
				last = 1;
			else
				usleep(1000);
		}
		if (r->len + 1 >= r->size) {
			r->err = EFBIG;
			break;
		}
	}
	r->text[r->len] = '\0';
	return NULL;
}

/*
 * Four readers in threads, with 1, 7, 4096 and 65536-byte reads, reading
 * while samples arrive: each gets every sample, the same text.
 */
TEST_F(hist, concurrent_readers)
{
	static const size_t chunks[] = { 1, 7, 4096, 65536 };
	struct reader r[4];
	pthread_t t[4];
	int stop = 0;
	int n;

	GT_SKIP_IF_SETUP_SKIPPED();
	for (int i = 0; i < 4; i++) {
		r[i] = (struct reader){ .chunk = chunks[i], .stop = &stop, .size = 1 << 20 };
		r[i].text = malloc(r[i].size);
		ASSERT_NE(NULL, r[i].text);
		r[i].fd = open(DEV(GT_FILE_HISTORY), O_RDONLY);
		ASSERT_LE(0, r[i].fd);
	}
	for (int i = 0; i < 4; i++) {
		ASSERT_EQ(0, pthread_create(&t[i], NULL, reader_main, &r[i]));
	}
	EXPECT_TRUE(gt_wait_samples(self->id, 10, variant->interval_ms));
	freeze(_metadata, DEV(GT_FILE_INTERVAL_MS));
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < 4; i++) {
		ASSERT_EQ(0, pthread_join(t[i], NULL));
		close(r[i].fd);
		EXPECT_EQ(0, r[i].err) TH_LOG("reader %d: %s", i, strerror(r[i].err));
	}
	n = gt_parse_history(r[3].text, self->ha, MAXL, self->bad, sizeof(self->bad));
	EXPECT_LE(10, n) TH_LOG("line %d: '%s'", -n - 1, self->bad);
	for (int i = 0; i < 3; i++) {
		EXPECT_EQ(r[3].len, r[i].len) TH_LOG("reader %d (%zu-byte reads)", i, r[i].chunk);
		EXPECT_STREQ(r[3].text, r[i].text);
	}
	for (int i = 0; i < 4; i++)
		free(r[i].text);
}

/* Reading again returns only samples newer than the last one returned. */
TEST_F(hist, reread_returns_new_samples)
{
	long long last = 0;
	int fd, total = 0;

	GT_SKIP_IF_SETUP_SKIPPED();
	fd = open(DEV(GT_FILE_HISTORY), O_RDONLY);
	ASSERT_LE(0, fd);
	for (int round = 0; round < 4; round++) {
		int n;

		ASSERT_TRUE(gt_wait_samples(self->id, 2, variant->interval_ms));
		n = READ_HIST(fd, self->a, self->ha, 4096);
		ASSERT_LE(0, n) TH_LOG("line %d: '%s'", -n - 1, self->bad);
		for (int i = 0; i < n; i++) {
			if (self->ha[i].lost) {
				EXPECT_EQ(0, i) TH_LOG("'lost' after samples");
				continue;
			}
			EXPECT_LT(last, self->ha[i].ts) TH_LOG("round %d sample %d repeats", round, i);
			last = self->ha[i].ts;
			total++;
		}
	}
	EXPECT_LE(5, total);
	close(fd);
}

/* Sample timestamps follow the period. */
TEST_F(hist, period)
{
	long long period = variant->interval_ms * 1000000LL, span;
	static long long d[MAXL];
	int fd, n, s = 0;

	GT_SKIP_IF_SETUP_SKIPPED();
	gt_sleep_ms(variant->interval_ms);
	fd = open(DEV(GT_FILE_HISTORY), O_RDONLY);
	ASSERT_LE(0, fd);
	gt_read_fd(fd, self->a, sizeof(bufa), sizeof(bufa));
	ASSERT_TRUE(gt_wait_samples(self->id, 10, variant->interval_ms));
	n = READ_HIST(fd, self->a, self->ha, 65536);
	close(fd);
	ASSERT_LE(0, n);
	if (n && self->ha[0].lost)
		s = 1;
	ASSERT_LE(s + 8, n) TH_LOG("%d samples of 10", n - s);
	/*
	 * At least interval_ms apart (gputelemetry.rst), but in an emulated
	 * guest whose vCPU the host stalls, jiffies can lag the monotonic
	 * clock by more than the one jiffy the module allows for: then one
	 * pair may come early. So: every pair at least half a period apart,
	 * the median and the mean at least a period (1 ms for clock reads).
	 */
	for (int i = s + 1; i < n; i++) {
		d[i - s - 1] = self->ha[i].ts - self->ha[i - 1].ts;
		EXPECT_LE(period / 2, d[i - s - 1])
			TH_LOG("samples %d and %d %lld ns apart", i - 1, i, d[i - s - 1]);
	}
	qsort(d, n - s - 1, sizeof(d[0]), cmp_ll);
	EXPECT_LE(period - 1000000, d[(n - s - 1) / 2]) TH_LOG("median spacing %lld ns",
								  d[(n - s - 1) / 2]);
	span = self->ha[n - 1].ts - self->ha[s].ts;
	EXPECT_LE((n - 1 - s) * (period - 1000000), span);
}

/* 1-byte reads and big reads of the same samples give the same text. */
TEST_F(hist, tiny_reads)
{
	int fa, fb, fc;
	ssize_t la, lb, lc;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_TRUE(gt_wait_samples(self->id, 5, variant->interval_ms));
	freeze(_metadata, DEV(GT_FILE_INTERVAL_MS));
	fa = open(DEV(GT_FILE_HISTORY), O_RDONLY);
	fb = open(DEV(GT_FILE_HISTORY), O_RDONLY);
	fc = open(DEV(GT_FILE_HISTORY), O_RDONLY);
	ASSERT_LE(0, fa);
	ASSERT_LE(0, fb);
	ASSERT_LE(0, fc);
	la = gt_read_fd(fa, self->a, sizeof(bufa), sizeof(bufa));
	lb = gt_read_fd(fb, self->b, sizeof(bufb), 1);
	ASSERT_LT(0, la);
	ASSERT_EQ(la, lb);
	EXPECT_STREQ(self->a, self->b);
	lc = gt_read_fd(fc, self->b, sizeof(bufb), 13);
	ASSERT_EQ(la, lc);
	EXPECT_STREQ(self->a, self->b);
	ASSERT_LT(0, gt_parse_history(self->b, self->hb, MAXL, self->bad, sizeof(self->bad)))
		TH_LOG("'%s'", self->bad);
	close(fa);
	close(fb);
	close(fc);
}

/*
 * Seeking: the file position is a seq_file position over this reader's
 * text, position 0 being the oldest sample kept at its first read. After
 * lseek(0) the reader gets the same text again; after lseek(k), the text
 * from byte k; SEEK_CUR reports the bytes read.
 */
TEST_F(hist, seek)
{
	ssize_t la, lb;
	off_t k;
	int fd;

	GT_SKIP_IF_SETUP_SKIPPED();
	ASSERT_TRUE(gt_wait_samples(self->id, 5, variant->interval_ms));
	freeze(_metadata, DEV(GT_FILE_INTERVAL_MS));
	fd = open(DEV(GT_FILE_HISTORY), O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, lseek(fd, 0, SEEK_CUR));
	ASSERT_EQ(100, read(fd, self->b, 100));
	EXPECT_EQ(100, lseek(fd, 0, SEEK_CUR));
	ASSERT_EQ(0, lseek(fd, 0, SEEK_SET));
	la = gt_read_fd(fd, self->a, sizeof(bufa), 4096);
	ASSERT_LT(100, la);
	EXPECT_EQ(0, memcmp(self->a, self->b, 100));
	EXPECT_EQ(la, lseek(fd, 0, SEEK_CUR));
	EXPECT_LE(0, gt_parse_history(self->a, self->ha, MAXL, self->bad, sizeof(self->bad)))
		TH_LOG("'%s'", self->bad);

	/* Replay from 0: the same text. */
	ASSERT_EQ(0, lseek(fd, 0, SEEK_SET));
	lb = gt_read_fd(fd, self->b, sizeof(bufb), 1000);
	ASSERT_EQ(la, lb);
	EXPECT_STREQ(self->a, self->b);

	/* From the middle of a line. */
	k = la / 2 + 3;
	ASSERT_EQ(k, lseek(fd, k, SEEK_SET));
	lb = gt_read_fd(fd, self->b, sizeof(bufb), 77);
	ASSERT_EQ(la - k, lb);
	EXPECT_STREQ(self->a + k, self->b);
	close(fd);
}

/* A reader that falls behind by more than the ring is told how many it lost. */
FIXTURE(lost) {
	int id;
	char path[PATH_MAX];
	char *a, *b;
	struct gt_hline *ha, *hb;
	char bad[1024];
};

FIXTURE_VARIANT(lost) {
	const char *params;
	int interval_ms;
	int depth;
};

FIXTURE_VARIANT_ADD(lost, depth16) {
	.params = "interval_ms=10 history_depth=16", .interval_ms = 10, .depth = 16,
};
FIXTURE_VARIANT_ADD(lost, depth32) {
	.params = "history_depth=32", .interval_ms = 10, .depth = 32,
};

FIXTURE_SETUP(lost)
{
	self->a = bufa;
	self->b = bufb;
	self->ha = hla;
	self->hb = hlb;
	dev_setup(_metadata, &self->id, variant->params, variant->interval_ms);
}

FIXTURE_TEARDOWN(lost)
{
	if (self->id >= 0) {
		EXPECT_EQ(0, gt_sim_del(self->id));
	}
}

TEST_F(lost, reported)
{
	long long gap, total;
	int fd, n, m, seen;

	GT_SKIP_IF_SETUP_SKIPPED();
	fd = open(DEV(GT_FILE_HISTORY), O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_TRUE(gt_wait_samples(self->id, 3, variant->interval_ms));
	n = READ_HIST(fd, self->a, self->ha, 4096);
	ASSERT_LE(1, n) TH_LOG("line %d '%s'", -n - 1, self->bad);
	ASSERT_GT(variant->depth, n) TH_LOG("the ring wrapped before the first read");
	ASSERT_FALSE(self->ha[0].lost);
	seen = n;
	gap = self->ha[n - 1].ts;

	/*
	 * Wait for the ring to wrap past this reader, plus a few samples: by
	 * the sampler's count where the module gives it (a slow VM samples
	 * less often than the period says), else by time.
	 */
	if (gt_sampler_samples(self->id) >= 0) {
		long long deadline = gt_now_ns() + 20000000000LL;

		while (gt_sampler_samples(self->id) < seen + variant->depth + 8) {
			ASSERT_GT(deadline, gt_now_ns()) TH_LOG("the sampler stalled");
			gt_sleep_ms(variant->interval_ms * 4);
		}
	} else {
		gt_sleep_ms(variant->interval_ms * (variant->depth + 8) * 3);
	}
	freeze(_metadata, DEV(GT_FILE_INTERVAL_MS));
	total = gt_sampler_samples(self->id);
	/* 1-byte reads: the "lost" line is cut and reassembled like any other. */
	m = READ_HIST(fd, self->b, self->hb, 1);
	ASSERT_LE(2, m) TH_LOG("line %d '%s'", -m - 1, self->bad);
	ASSERT_TRUE(self->hb[0].lost) TH_LOG("first line: '%.80s'", self->b);
	for (int i = 1; i < m; i++) {
		ASSERT_FALSE(self->hb[i].lost) TH_LOG("'lost' at line %d", i);
	}
	/* The ring is full: depth samples kept, the older unseen ones lost. */
	EXPECT_EQ(variant->depth, m - 1);
	EXPECT_LT(gap, self->hb[1].ts);
	if (total >= 0) {
		/* Exactly: seen + lost + kept = every sample taken. */
		EXPECT_EQ(total, seen + self->hb[0].lost_n + m - 1)
			TH_LOG("seen %d, lost %lld, kept %d, sampler took %lld",
			       seen, self->hb[0].lost_n, m - 1, total);
	} else {
		TH_LOG("no 'sampler: samples=' line in stats: lost count checked loosely");
		EXPECT_LE(variant->depth / 4, self->hb[0].lost_n);
	}
	/* Caught up: nothing more, and no second "lost". */
	n = READ_HIST(fd, self->a, self->ha, 4096);
	EXPECT_EQ(0, n);
	close(fd);
}

GT_HARNESS_MAIN
