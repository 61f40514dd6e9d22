// SPDX-License-Identifier: MIT
/*
 * nb_write_file_atomic() (print.h): a file written whole or not at all.
 * Apart from the print layer so that what only writes files (the engine's
 * npy and safetensors writers, their tests) does not bring in the formats.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "print/print.h"

static int write_all(int fd, const char *p, unsigned long len)
{
	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		len -= (unsigned long)w;
	}
	return 0;
}

int nb_write_file_atomic(const char *path, const void *data, unsigned long len)
{
	char *dup, *dup2, *tmp = NULL;
	const char *p = data;
	struct stat st;
	int fd = -1, err = 0;

	/*
	 * Not a regular file (/dev/stdout, a FIFO, /dev/null): written in
	 * place; renaming over it would replace the device or pipe.
	 */
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		err = write_all(fd, p, len);
		if (close(fd) && !err)
			err = -errno;
		return err;
	}
	dup = strdup(path);
	dup2 = strdup(path);
	if (!dup || !dup2 ||
	    asprintf(&tmp, "%s/.%s.XXXXXX", dirname(dup), basename(dup2)) < 0) {
		free(dup);
		free(dup2);
		return -ENOMEM;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	err = write_all(fd, p, len);
	if (err)
		goto out;
	if (fchmod(fd, 0644) || fsync(fd)) {
		err = -errno;
		goto out;
	}
	if (close(fd)) {
		fd = -1;
		err = -errno;
		goto out;
	}
	fd = -1;
	if (rename(tmp, path))
		err = -errno;
out:
	if (fd >= 0)
		close(fd);
	if (err && tmp)
		unlink(tmp);
	free(tmp);
	free(dup);
	free(dup2);
	return err;
}

