/* SPDX-License-Identifier: MIT */
/*
 * What the fuzz harnesses share: the input as a file, stderr captured
 * around a parser call (to check that a rejection says why), and a check
 * that aborts with a message, which libFuzzer reports as a crash.
 */
#ifndef NB_FUZZ_H
#define NB_FUZZ_H

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

#define FUZZ_CHECK(cond, ...)							\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "fuzz check failed: %s: ", #cond);	\
			fprintf(stderr, __VA_ARGS__);				\
			fprintf(stderr, "\n");					\
			abort();						\
		}								\
	} while (0)

/* A memory file holding the input, by a path any fopen() takes. */
struct fuzz_file {
	int fd;
	char path[64];
};

static inline void fuzz_file_init(struct fuzz_file *f, const char *name)
{
	f->fd = memfd_create(name, MFD_CLOEXEC);
	if (f->fd < 0) {
		perror("memfd_create");
		abort();
	}
	snprintf(f->path, sizeof(f->path), "/proc/self/fd/%d", f->fd);
}

static inline void fuzz_file_set(struct fuzz_file *f, const uint8_t *data, size_t size)
{
	size_t off = 0;

	if (ftruncate(f->fd, 0))
		abort();
	while (off < size) {
		ssize_t n = pwrite(f->fd, data + off, size - off, (off_t)off);

		if (n <= 0)
			abort();
		off += (size_t)n;
	}
}

/*
 * What the code under test prints to stderr, between begin and end: the
 * stderr stream is swapped for one into memory. The file descriptor 2 is
 * left alone, so that a sanitizer's or libFuzzer's report still shows.
 */
struct fuzz_capture {
	FILE *saved;
	char text[4096];
	size_t len;
};

static inline void fuzz_capture_init(struct fuzz_capture *c)
{
	c->saved = NULL;
	c->len = 0;
}

static inline void fuzz_capture_begin(struct fuzz_capture *c)
{
	FILE *f;

	memset(c->text, 0, sizeof(c->text));
	f = fmemopen(c->text, sizeof(c->text), "w");
	if (!f)
		abort();
	setvbuf(f, NULL, _IOFBF, 0);
	c->saved = stderr;
	stderr = f;
}

static inline const char *fuzz_capture_end(struct fuzz_capture *c)
{
	FILE *f = stderr;

	stderr = c->saved;
	fclose(f);	/* writes the terminating NUL */
	c->text[sizeof(c->text) - 1] = '\0';
	c->len = strlen(c->text);
	return c->text;
}

#endif /* NB_FUZZ_H */
