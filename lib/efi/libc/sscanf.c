/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * sscanf for the formats OpenSSL's libcrypto uses on this target:
 * "%d.%d.%d.%d%n" (v3_utl.c, IPv4 addresses), "%u" and "%d" (http_lib.c).
 *
 * Supported: literal characters, white space (matches any amount), %%, and
 * the conversions d, i, u, x, n with optional length modifiers hh, h, l, ll,
 * z, j, t and the assignment-suppressing '*'. Field widths and any other
 * conversion stop the scan (the count so far is returned), as does a
 * matching failure. Numbers are read with strtol/strtoul (base 10, 0 for %i,
 * 16 for %x); values out of range for the target type are truncated as the C
 * conversion would, and callers range-check them.
 *
 * glibc's <stdio.h> maps sscanf to __isoc99_sscanf; both names are provided.
 * <stdio.h> is not included here because its __asm__ redirects would rename
 * these definitions.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>

#define EOF (-1)

int vsscanf(const char *restrict str, const char *restrict fmt, va_list ap);
int sscanf(const char *restrict str, const char *restrict fmt, ...);
int __isoc99_sscanf(const char *restrict str, const char *restrict fmt, ...);

static int is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

enum len { L_HH, L_H, L_NONE, L_L, L_LL };

static void store_signed(va_list *ap, enum len len, long v)
{
	switch (len) {
	case L_HH: *va_arg(*ap, signed char *) = (signed char)v; break;
	case L_H: *va_arg(*ap, short *) = (short)v; break;
	case L_NONE: *va_arg(*ap, int *) = (int)v; break;
	case L_L: *va_arg(*ap, long *) = v; break;
	case L_LL: *va_arg(*ap, long long *) = v; break;
	}
}

static void store_unsigned(va_list *ap, enum len len, unsigned long v)
{
	switch (len) {
	case L_HH: *va_arg(*ap, unsigned char *) = (unsigned char)v; break;
	case L_H: *va_arg(*ap, unsigned short *) = (unsigned short)v; break;
	case L_NONE: *va_arg(*ap, unsigned int *) = (unsigned int)v; break;
	case L_L: *va_arg(*ap, unsigned long *) = v; break;
	case L_LL: *va_arg(*ap, unsigned long long *) = v; break;
	}
}

int vsscanf(const char *restrict str, const char *restrict fmt, va_list ap_in)
{
	const unsigned char *s = (const unsigned char *)str;
	const unsigned char *f = (const unsigned char *)fmt;
	int assigned = 0, converted_any = 0;
	va_list ap;

	va_copy(ap, ap_in);
	while (*f) {
		if (is_space(*f)) {
			while (is_space(*f))
				f++;
			while (is_space(*s))
				s++;
			continue;
		}
		if (*f != '%' || f[1] == '%') {
			if (*f == '%')
				f++;
			if (*s == '\0')
				goto input_failure;
			if (*s != *f)
				break;
			s++;
			f++;
			continue;
		}
		f++; /* past '%' */
		{
			int suppress = 0, base;
			enum len len = L_NONE;
			char conv, *end;
			int save_errno = errno;

			if (*f == '*') {
				suppress = 1;
				f++;
			}
			if (*f >= '0' && *f <= '9')
				break; /* field widths are not supported */
			if (*f == 'h') {
				len = f[1] == 'h' ? L_HH : L_H;
				f += len == L_HH ? 2 : 1;
			} else if (*f == 'l') {
				len = f[1] == 'l' ? L_LL : L_L;
				f += len == L_LL ? 2 : 1;
			} else if (*f == 'z' || *f == 'j' || *f == 't') {
				len = L_L; /* all 64-bit on x86_64 */
				f++;
			}
			conv = (char)*f++;
			if (conv == 'n') {
				if (!suppress)
					store_signed(&ap, len, (long)((const char *)s - str));
				continue;
			}
			if (conv != 'd' && conv != 'i' && conv != 'u' && conv != 'x')
				break;
			while (is_space(*s))
				s++;
			if (*s == '\0')
				goto input_failure;
			base = conv == 'x' ? 16 : conv == 'i' ? 0 : 10;
			if (conv == 'd' || conv == 'i') {
				long v = strtol((const char *)s, &end, base);
				if (end == (const char *)s)
					break;
				if (!suppress)
					store_signed(&ap, len, v);
			} else {
				unsigned long v = strtoul((const char *)s, &end, base);
				if (end == (const char *)s)
					break;
				if (!suppress)
					store_unsigned(&ap, len, v);
			}
			errno = save_errno;
			s = (const unsigned char *)end;
			converted_any = 1;
			if (!suppress)
				assigned++;
		}
	}
	va_end(ap);
	return assigned;

input_failure:
	va_end(ap);
	return converted_any ? assigned : EOF;
}

int sscanf(const char *restrict str, const char *restrict fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsscanf(str, fmt, ap);
	va_end(ap);
	return r;
}

int __isoc99_sscanf(const char *restrict str, const char *restrict fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsscanf(str, fmt, ap);
	va_end(ap);
	return r;
}
