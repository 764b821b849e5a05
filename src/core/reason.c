// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "reason.h"

#include <stdarg.h>

#include <openssl/bio.h>

int refusef(const char **reason, struct reason_buf *buf, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	/* the firmware's C library has no vsnprintf: OpenSSL's serves both builds */
	BIO_vsnprintf(buf->text, sizeof(buf->text), fmt, ap);
	va_end(ap);
	*reason = buf->text;
	return -1;
}
