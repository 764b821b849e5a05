/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * atoi, as glibc defines it: (int)strtol(s, NULL, 10). At -O2 glibc's header
 * inlines it into that strtol call; at -Os (the assembly build) it stays a
 * call, from OpenSSL's RSA string parameters.
 */
#include <stdlib.h>

int atoi(const char *nptr)
{
	return (int)strtol(nptr, NULL, 10);
}
