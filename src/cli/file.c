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

int read_file(const char *path, uint8_t **data, size_t *size)
{
	FILE *f = fopen(path, "rb");
	long length;

	*data = NULL;
	if (!f) {
		say_error("%s: %s", path, strerror(errno));
		return -1;
	}
	if (fseek(f, 0, SEEK_END) != 0 || (length = ftell(f)) < 0 ||
	    (unsigned long)length > MAX_FILE_SIZE || fseek(f, 0, SEEK_SET) != 0) {
		say_error("%s: cannot read or too large", path);
		fclose(f);
		return -1;
	}
	*size = (size_t)length;
	*data = malloc(*size ? *size : 1);
	if (!*data || fread(*data, 1, *size, f) != *size) {
		say_error("%s: read failed", path);
		free(*data);
		*data = NULL;
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
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
