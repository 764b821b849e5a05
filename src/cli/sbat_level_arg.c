// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "sbat_level_arg.h"

#include <stdlib.h>
#include <string.h>

#include "file.h"

extern const uint8_t sbat_level_windows[], sbat_level_windows_end[];

int sbat_level_arg_read(const char *arg, uint8_t **data, size_t *size)
{
	size_t n = (size_t)(sbat_level_windows_end - sbat_level_windows);

	if (strcmp(arg, SBAT_LEVEL_WINDOWS) != 0)
		return read_file(arg, data, size);
	*data = malloc(n);
	if (!*data) {
		say_error("out of memory");
		return -1;
	}
	memcpy(*data, sbat_level_windows, n);
	*size = n;
	return 0;
}
