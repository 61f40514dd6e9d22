// SPDX-License-Identifier: MIT
/*
 * nb_npy_read() (user/engine/npy.c) on any file. Checked beyond crashes:
 * a rejected file is reported on stderr naming the file and leaves no
 * array; an accepted one has count = the product of its shape, exactly
 * that many floats after the header (nothing more in the file), and, when
 * small, comes back the same through nb_npy_write() and nb_npy_read().
 *
 * NB_FUZZ_WRITE_SEED=FILE: write a (2, 3) array with nb_npy_write() to FILE
 * and exit (tests/fuzz/mkcorpus).
 */
#include "fuzz.h"

#include <fcntl.h>
#include <sys/stat.h>

#include "engine/engine.h"

static struct fuzz_file in;
static struct fuzz_capture cap;
static char out_dir[64], out_path[128];

static void cleanup(void)
{
	unlink(out_path);
	rmdir(out_dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char dir[64];

	const char *seed = getenv("NB_FUZZ_WRITE_SEED");

	(void)argc;
	(void)argv;
	if (seed) {
		/* a (2, 3) array of the first six integers, as nb_npy_write() writes it */
		float v[6] = { 0, 1, 2, 3, 4, 5 };
		struct nb_array a = { .rank = 2, .shape = { 2, 3 }, .count = 6, .data = v };

		exit(nb_npy_write(seed, &a) ? 1 : 0);
	}
	fuzz_file_init(&in, "npy");
	fuzz_capture_init(&cap);
	/* tmpfs when there is one: nb_write_file_atomic() syncs the file */
	snprintf(dir, sizeof(dir), "%s/nb-fuzz-npy.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	if (!mkdtemp(dir))
		abort();
	snprintf(out_dir, sizeof(out_dir), "%s", dir);
	snprintf(out_path, sizeof(out_path), "%s/a.npy", dir);
	atexit(cleanup);
	return 0;
}

static void roundtrip(const struct nb_array *a)
{
	struct nb_array b;

	FUZZ_CHECK(nb_npy_write(out_path, a) == 0, "cannot write back rank %d", a->rank);
	FUZZ_CHECK(nb_npy_read(out_path, &b) == 0, "cannot read back what was written");
	FUZZ_CHECK(b.rank == a->rank && b.count == a->count, "rank/count changed");
	for (int i = 0; i < a->rank; i++)
		FUZZ_CHECK(b.shape[i] == a->shape[i], "shape[%d] %lld -> %lld", i,
			   (long long)a->shape[i], (long long)b.shape[i]);
	FUZZ_CHECK(!memcmp(a->data, b.data, a->count * sizeof(float)), "data changed");
	nb_array_free(&b);
	unlink(out_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nb_array a;
	const char *err;
	int rc;

	fuzz_file_set(&in, data, size);
	fuzz_capture_begin(&cap);
	rc = nb_npy_read(in.path, &a);
	err = fuzz_capture_end(&cap);
	if (rc) {
		FUZZ_CHECK(rc == -1, "returned %d", rc);
		FUZZ_CHECK(!strncmp(err, "navibench: ", 11) && strstr(err, in.path),
			   "rejected without naming the file: '%s'", err);
		FUZZ_CHECK(!a.data, "rejected, yet an array is left");
		return 0;
	}
	FUZZ_CHECK(!cap.len, "accepted, yet printed '%s'", err);
	FUZZ_CHECK(a.rank >= 0 && a.rank <= 8 && a.data, "rank %d", a.rank);
	size_t count = 1;
	for (int i = 0; i < a.rank; i++) {
		FUZZ_CHECK(a.shape[i] >= 0, "shape[%d] = %lld", i, (long long)a.shape[i]);
		count *= (size_t)a.shape[i];
	}
	FUZZ_CHECK(count == a.count, "count %zu, shape gives %zu", a.count, count);
	FUZZ_CHECK(a.count * sizeof(float) < size, "%zu floats in %zu bytes", a.count, size);
	FUZZ_CHECK(!memcmp(a.data, data + size - a.count * sizeof(float), a.count * sizeof(float)),
		   "data is not the last %zu bytes of the file", a.count * sizeof(float));
	if (a.count <= 4096)
		roundtrip(&a);
	nb_array_free(&a);
	return 0;
}
