// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Larger inputs are not images, lists or SBAT text: refused before allocating. */
#define MAX_FILE_SIZE (1024UL * 1024 * 1024)

void say_error(const char *fmt, ...)
{
	va_list args;

	fprintf(stderr, "%s: ", program_name);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
}

/*
 * Read to the end rather than trusting a size: efivarfs cannot seek and
 * says a variable's size only once it has been read, and sysfs rounds.
 */
int read_file(const char *path, uint8_t **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	size_t capacity = 0, got;
	uint8_t *grown;

	*data = NULL;
	*size = 0;
	if (!f) {
		say_error("%s: %s", path, strerror(errno));
		return -1;
	}
	for (;;) {
		if (*size == capacity) {
			capacity = capacity ? capacity * 2 : 64 * 1024;
			if (capacity > MAX_FILE_SIZE + 1)
				capacity = MAX_FILE_SIZE + 1;
			grown = *size < capacity ? realloc(*data, capacity) : NULL;
			if (!grown) {
				say_error("%s: %s", path,
					  *size < capacity ? "out of memory" : "too large");
				goto fail;
			}
			*data = grown;
		}
		got = fread(*data + *size, 1, capacity - *size, f);
		*size += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		say_error("%s: read failed", path);
		goto fail;
	}
	fclose(f);
	return 0;
fail:
	free(*data);
	*data = NULL;
	*size = 0;
	fclose(f);
	return -1;
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
