// SPDX-License-Identifier: BSD-2-Clause-Patent
#include <stdbool.h>
#include <stdio.h>

#include "json.h"

void json_print_string(const char *s)
{
	putchar('"');
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

void json_print_key(const char *key, bool comma)
{
	if (comma)
		printf(", ");
	json_print_string(key);
	printf(": ");
}
