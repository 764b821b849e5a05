/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* There is no environment: OpenSSL's OPENSSL_CONF etc. never apply. */
#define _GNU_SOURCE
#include <stdlib.h>

char *getenv(const char *name)
{
	(void)name;
	return NULL;
}

char *secure_getenv(const char *name)
{
	(void)name;
	return NULL;
}
