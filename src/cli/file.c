// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json.h"

/* Larger inputs are not images, lists or SBAT text: refused before allocating. */
#define MAX_FILE_SIZE (1024UL * 1024 * 1024)

void say_error(const char *fmt, ...)
{
	char message[512]; /* for --json's error object; stderr gets it whole */
	va_list args;

	fprintf(stderr, "%s: ", program_name);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
	va_start(args, fmt);
	vsnprintf(message, sizeof(message), fmt, args);
	va_end(args);
	json_error_said(message);
}

static const char *file_type(mode_t mode)
{
	return S_ISDIR(mode)  ? "a directory" :
	       S_ISFIFO(mode) ? "a FIFO" :
	       S_ISCHR(mode)  ? "a character device" :
	       S_ISBLK(mode)  ? "a block device" :
	       S_ISSOCK(mode) ? "a socket" :
				"not a regular file";
}

/*
 * Open @path for reading, @regular_only: without waiting on it (O_NONBLOCK,
 * so that a FIFO with no writer never holds the open), and fstat before any
 * read, so that only a regular file is read. Returns the descriptor, or -1
 * with *@missing and @why set.
 */
static int open_input(const char *path, bool regular_only, struct stat *st, bool *missing,
		      char *why, size_t why_size)
{
	int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC | (regular_only ? O_NONBLOCK : 0));
	struct stat link;

	*missing = false;
	if (fd < 0) {
		int e = errno;

		*missing = e == ENOENT;
		if (e == ELOOP)
			snprintf(why, why_size, "a loop of symbolic links");
		else if (e == ENOENT && lstat(path, &link) == 0 && S_ISLNK(link.st_mode))
			snprintf(why, why_size, "a dangling symbolic link");
		else
			snprintf(why, why_size, "%s", strerror(e));
		return -1;
	}
	if (fstat(fd, st) != 0) {
		snprintf(why, why_size, "%s", strerror(errno));
		close(fd);
		return -1;
	}
	if (S_ISDIR(st->st_mode) || (regular_only && !S_ISREG(st->st_mode))) {
		snprintf(why, why_size, "%s", file_type(st->st_mode));
		close(fd);
		return -1;
	}
	return fd;
}

int read_file_at_most(const char *path, size_t max, bool regular_only, uint8_t **data, size_t *size,
		      char *why, size_t why_size)
{
	size_t capacity = 0;
	struct stat st;
	bool missing;
	uint8_t *grown;
	ssize_t got;
	int fd = open_input(path, regular_only, &st, &missing, why, why_size);

	*data = NULL;
	*size = 0;
	if (fd < 0)
		return missing ? 0 : -1;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		snprintf(why, why_size, "too large: %llu bytes, more than %zu",
			 (unsigned long long)st.st_size, max);
		goto fail;
	}
	/*
	 * Read to the end rather than trusting the size: efivarfs says a
	 * variable's size only once it has been read, and sysfs rounds. The
	 * size decides the first allocation; a file that grows is held to @max.
	 */
	capacity = S_ISREG(st.st_mode) && st.st_size ? (size_t)st.st_size + 1 : 64 * 1024;
	if (capacity > max + 1)
		capacity = max + 1;
	*data = malloc(capacity);
	for (;;) {
		if (*data && *size == capacity) {
			if (capacity > max) {
				snprintf(why, why_size, "too large: more than %zu bytes", max);
				goto fail;
			}
			capacity = capacity > max / 2 ? max + 1 : capacity * 2;
			grown = realloc(*data, capacity);
			if (!grown)
				free(*data);
			*data = grown;
		}
		if (!*data) {
			snprintf(why, why_size, "out of memory");
			goto fail;
		}
		got = read(fd, *data + *size, capacity - *size);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			snprintf(why, why_size, "%s", strerror(errno));
			goto fail;
		}
		if (got == 0)
			break;
		*size += (size_t)got;
	}
	close(fd);
	return 1;
fail:
	free(*data);
	*data = NULL;
	*size = 0;
	close(fd);
	return -1;
}

static int read_said(const char *path, bool regular_only, uint8_t **data, size_t *size)
{
	char why[160];
	int r = read_file_at_most(path, MAX_FILE_SIZE, regular_only, data, size, why, sizeof(why));

	if (r <= 0) {
		say_error("%s: %s", path, why);
		return -1;
	}
	return 0;
}

int read_file(const char *path, uint8_t **data, size_t *size)
{
	return read_said(path, false, data, size);
}

int read_regular_file(const char *path, uint8_t **data, size_t *size)
{
	return read_said(path, true, data, size);
}

int write_file(const char *path, const uint8_t *data, size_t size)
{
	char tmp[4096];
	FILE *f;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -1;
	f = fopen(tmp, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0 || rename(tmp, path) != 0) {
		say_error("%s: %s", path, strerror(errno));
		if (f)
			remove(tmp);
		return -1;
	}
	return 0;
}
