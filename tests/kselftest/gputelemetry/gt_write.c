// SPDX-License-Identifier: GPL-2.0
/*
 * gt_write - writes to a file with exact write() calls and prints what each
 * returned, so that shell tests can check the precise errno of a refused
 * write (busybox's echo only says that a write failed).
 *
 *   gt_write [-o] FILE|fd:N DATA...
 *
 * Opens FILE once (O_WRONLY), or uses the inherited descriptor N when FILE
 * is "fd:N" (a file the shell holds open), and writes each DATA argument
 * with one write() call, in order, on that descriptor. With -o, FILE is
 * opened anew for each DATA and closed after it, so that every write is
 * the first on its own open file (many cases, one process). In DATA, "\n",
 * "\t", "\\" and "\xHH" are replaced by the byte they name, so a trailing
 * newline, control bytes and bytes above 0x7f can be written; an empty
 * argument is a zero-length write. "@N:C" writes the byte C (an escape
 * allowed) N times in one write() (1 <= N <= 1 MiB), for writes longer
 * than a page.
 *
 * Prints one line per write: "ok <bytes written>" or the errno's name
 * (e.g. "EINVAL"); when FILE cannot be opened, "open <errno name>" (for
 * that write only with -o; else nothing more). Exits 0 when it could run (whatever the writes returned),
 * 2 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GT_WRITE_MAX (1 << 20)

static const struct {
	int err;
	const char *name;
} gt_errnos[] = {
#define E(x) { x, #x }
	E(EPERM), E(ENOENT), E(EINTR), E(EIO), E(ENXIO), E(E2BIG), E(EBADF),
	E(EAGAIN), E(ENOMEM), E(EACCES), E(EFAULT), E(EBUSY), E(EEXIST),
	E(ENODEV), E(EINVAL), E(ENOSPC), E(EROFS), E(ERANGE), E(EFBIG),
	E(ENOTTY), E(ENOSYS), E(EOPNOTSUPP), E(ENAMETOOLONG), E(ESPIPE),
#undef E
};

static void print_errno(const char *prefix, int err)
{
	size_t i;

	for (i = 0; i < sizeof(gt_errnos) / sizeof(gt_errnos[0]); i++) {
		if (gt_errnos[i].err == err) {
			printf("%s%s\n", prefix, gt_errnos[i].name);
			return;
		}
	}
	printf("%serrno%d\n", prefix, err);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decodes the escapes of @s into @out (at least strlen(s) bytes). */
static int unescape(const char *s, char *out, size_t *len)
{
	size_t n = 0;

	while (*s) {
		if (*s != '\\') {
			out[n++] = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case 'n':
			out[n++] = '\n';
			s++;
			break;
		case 't':
			out[n++] = '\t';
			s++;
			break;
		case '\\':
			out[n++] = '\\';
			s++;
			break;
		case 'x':
			if (hexval(s[1]) < 0 || hexval(s[2]) < 0)
				return -1;
			out[n++] = (char)(hexval(s[1]) << 4 | hexval(s[2]));
			s += 3;
			break;
		default:
			return -1;
		}
	}
	*len = n;
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: gt_write [-o] FILE|fd:N DATA...\n"
		"  one write() per DATA; escapes \\n \\t \\\\ \\xHH;\n"
		"  \"@N:C\" is the byte C N times\n");
	exit(2);
}

/* Fills @buf/@len with the bytes DATA @arg names; exits on a usage error. */
static void data_of(const char *arg, char **buf, size_t *len)
{
	size_t n;

	if (arg[0] == '@') {
		char *end;
		char c[4];
		unsigned long rep = strtoul(arg + 1, &end, 10);

		if (end == arg + 1 || *end != ':' || rep < 1 || rep > GT_WRITE_MAX ||
		    strlen(end + 1) >= sizeof(c) || unescape(end + 1, c, &n) || n != 1) {
			fprintf(stderr, "gt_write: bad repeat '%s', expected @N:C\n", arg);
			exit(2);
		}
		*buf = malloc(rep);
		if (!*buf) {
			perror("gt_write");
			exit(2);
		}
		memset(*buf, c[0], rep);
		*len = rep;
		return;
	}
	*buf = malloc(strlen(arg) + 1);
	if (!*buf) {
		perror("gt_write");
		exit(2);
	}
	if (unescape(arg, *buf, len)) {
		fprintf(stderr, "gt_write: bad escape in '%s'\n", arg);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	int fd = -1, i, reopen = 0;

	if (argc > 1 && !strcmp(argv[1], "-o")) {
		reopen = 1;
		argv++;
		argc--;
	}
	if (argc < 3)
		usage();
	if (!strncmp(argv[1], "fd:", 3)) {
		char *end;
		long n = strtol(argv[1] + 3, &end, 10);

		if (reopen || end == argv[1] + 3 || *end || n < 0 || n > 1023)
			usage();
		fd = (int)n;
	} else if (!reopen) {
		fd = open(argv[1], O_WRONLY);
		if (fd < 0) {
			print_errno("open ", errno);
			return 0;
		}
	}
	for (i = 2; i < argc; i++) {
		size_t len;
		char *buf;
		ssize_t ret;

		data_of(argv[i], &buf, &len);
		if (reopen) {
			fd = open(argv[1], O_WRONLY);
			if (fd < 0) {
				print_errno("open ", errno);
				free(buf);
				continue;
			}
		}
		ret = write(fd, buf, len);
		if (ret < 0)
			print_errno("", errno);
		else
			printf("ok %zd\n", ret);
		free(buf);
		if (reopen)
			close(fd);
	}
	fflush(stdout);
	if (!reopen)
		close(fd);
	return 0;
}
