/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The XSI strerror_r (glibc's <string.h> maps it to __xpg_strerror_r), used
 * by OpenSSL's ERR code for system errors: names the few errno values this
 * library sets, else "Unknown error N". Returns 0, or ERANGE if truncated.
 */
#include <errno.h>
#include <stddef.h>

int __xpg_strerror_r(int errnum, char *buf, size_t buflen);

static const char *name_of(int e)
{
	switch (e) {
	case 0: return "Success";
	case ENOENT: return "No such file or directory";
	case ENOMEM: return "Cannot allocate memory";
	case EINVAL: return "Invalid argument";
	case ERANGE: return "Numerical result out of range";
	case EOVERFLOW: return "Value too large for defined data type";
	default: return NULL;
	}
}

int __xpg_strerror_r(int errnum, char *buf, size_t buflen)
{
	char tmp[40], digits[12];
	const char *msg = name_of(errnum);
	size_t i = 0, n = 0;
	unsigned int u;

	if (msg == NULL) {
		static const char prefix[] = "Unknown error ";
		for (; prefix[i] != '\0'; i++)
			tmp[i] = prefix[i];
		if (errnum < 0)
			tmp[i++] = '-';
		u = errnum < 0 ? 0u - (unsigned int)errnum : (unsigned int)errnum;
		do
			digits[n++] = (char)('0' + u % 10);
		while ((u /= 10) != 0);
		while (n)
			tmp[i++] = digits[--n];
		tmp[i] = '\0';
		msg = tmp;
	}
	if (buflen == 0)
		return ERANGE;
	for (i = 0; msg[i] != '\0' && i + 1 < buflen; i++)
		buf[i] = msg[i];
	buf[i] = '\0';
	return msg[i] == '\0' ? 0 : ERANGE;
}
