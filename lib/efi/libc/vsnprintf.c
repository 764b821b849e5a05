// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * snprintf and vsnprintf for the firmware programs' log (src/efi/efi_log.c):
 * flags '-' '0' '+' ' ' '#', width and precision (digits or '*'), the
 * lengths hh h l ll z j t, and %d %i %u %x %X %o %c %s %p %%. %ls is a
 * CHAR16 string (wchar_t under -fshort-wchar), written as UTF-8 (glibc
 * writes it in the locale's encoding: the same for ASCII). No floating
 * point. %m writes the string lockshim_vsnprintf is given (glibc's
 * strerror(errno)): the log's EFI status. Compared with glibc's by
 * lib/efi/libc-test.c.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libc-efi.h"

struct out {
	char *buf;
	size_t size;
	size_t len; /* what would have been written */
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

/* One CHAR16 as UTF-8 into @u; its length. Surrogates are written as they are. */
static int utf8(uint16_t c, char u[3])
{
	if (c < 0x80) {
		u[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		u[0] = (char)(0xc0 | (c >> 6));
		u[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	u[0] = (char)(0xe0 | (c >> 12));
	u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
	u[2] = (char)(0x80 | (c & 0x3f));
	return 3;
}

/* A string of @len bytes (or CHAR16 @wide's UTF-8 up to @prec bytes), padded to @width. */
static void put_string(struct out *o, const char *s, const uint16_t *wide, int prec, int width,
		       int left)
{
	size_t n = 0;
	char u[3];

	if (wide) {
		for (const uint16_t *w = wide; *w; w++) {
			int k = utf8(*w, u);

			if (prec >= 0 && n + (size_t)k > (size_t)prec)
				break;
			n += (size_t)k;
		}
	} else {
		while ((prec < 0 || n < (size_t)prec) && s[n])
			n++;
	}
	if (!left)
		pad(o, ' ', width - (int)n);
	if (wide) {
		size_t done = 0;

		for (const uint16_t *w = wide; done < n; w++) {
			int k = utf8(*w, u);

			for (int i = 0; i < k; i++)
				put(o, u[i]);
			done += (size_t)k;
		}
	} else {
		for (size_t i = 0; i < n; i++)
			put(o, s[i]);
	}
	if (left)
		pad(o, ' ', width - (int)n);
}

struct spec {
	int left, zero, plus, space, alt;
	int width, prec; /* prec < 0: none */
};

static void put_number(struct out *o, const struct spec *sp, uintmax_t v, int negative,
		       unsigned base, int upper, const char *prefix)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, zeros, total;
	size_t plen = prefix ? strlen(prefix) : 0;
	char sign = negative ? '-' : sp->plus ? '+' : sp->space ? ' ' : 0;

	while (v) {
		tmp[n++] = digits[v % base];
		v /= base;
	}
	if (n == 0 && sp->prec != 0)
		tmp[n++] = '0';
	/* %#o: the first digit is a 0. */
	if (base == 8 && sp->alt && (n == 0 || tmp[n - 1] != '0'))
		tmp[n++] = '0';
	zeros = sp->prec > n ? sp->prec - n : 0;
	total = n + zeros + (sign != 0) + (int)plen;
	if (sp->zero && !sp->left && sp->prec < 0 && sp->width > total) {
		zeros += sp->width - total;
		total = sp->width;
	}
	if (!sp->left)
		pad(o, ' ', sp->width - total);
	if (sign)
		put(o, sign);
	for (size_t i = 0; i < plen; i++)
		put(o, prefix[i]);
	pad(o, '0', zeros);
	while (n > 0)
		put(o, tmp[--n]);
	if (sp->left)
		pad(o, ' ', sp->width - total);
}

int lockshim_vsnprintf(char *buf, size_t size, const char *m, const char *fmt, va_list ap)
{
	struct out o = { .buf = buf, .size = size };

	for (const char *f = fmt; *f; f++) {
		struct spec sp = { .prec = -1 };
		int length = 0; /* -2 hh, -1 h, 1 l, 2 ll, 3 z/j/t */
		uintmax_t v;
		intmax_t sv;

		if (*f != '%') {
			put(&o, *f);
			continue;
		}
		for (f++;; f++) {
			if (*f == '-')
				sp.left = 1;
			else if (*f == '0')
				sp.zero = 1;
			else if (*f == '+')
				sp.plus = 1;
			else if (*f == ' ')
				sp.space = 1;
			else if (*f == '#')
				sp.alt = 1;
			else
				break;
		}
		if (*f == '*') {
			sp.width = va_arg(ap, int);
			if (sp.width < 0) {
				sp.left = 1;
				sp.width = -sp.width;
			}
			f++;
		} else {
			while (*f >= '0' && *f <= '9')
				sp.width = sp.width * 10 + (*f++ - '0');
		}
		if (*f == '.') {
			f++;
			sp.prec = 0;
			if (*f == '*') {
				sp.prec = va_arg(ap, int);
				if (sp.prec < 0)
					sp.prec = -1;
				f++;
			} else {
				while (*f >= '0' && *f <= '9')
					sp.prec = sp.prec * 10 + (*f++ - '0');
			}
		}
		if (*f == 'h') {
			length = -1;
			if (*++f == 'h') {
				length = -2;
				f++;
			}
		} else if (*f == 'l') {
			length = 1;
			if (*++f == 'l') {
				length = 2;
				f++;
			}
		} else if (*f == 'z' || *f == 'j' || *f == 't') {
			length = 3;
			f++;
		}

		switch (*f) {
		case 'd':
		case 'i':
			if (length == 2 || length == 3)
				sv = length == 2 ? va_arg(ap, long long) : va_arg(ap, intmax_t);
			else if (length == 1)
				sv = va_arg(ap, long);
			else
				sv = va_arg(ap, int);
			if (length == -1)
				sv = (short)sv;
			else if (length == -2)
				sv = (signed char)sv;
			put_number(&o, &sp, sv < 0 ? -(uintmax_t)sv : (uintmax_t)sv, sv < 0, 10, 0,
				   NULL);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			if (length == 2)
				v = va_arg(ap, unsigned long long);
			else if (length == 3)
				v = va_arg(ap, uintmax_t);
			else if (length == 1)
				v = va_arg(ap, unsigned long);
			else
				v = va_arg(ap, unsigned int);
			if (length == -1)
				v = (unsigned short)v;
			else if (length == -2)
				v = (unsigned char)v;
			sp.plus = sp.space = 0;
			put_number(&o, &sp, v, 0, *f == 'u' ? 10 : *f == 'o' ? 8 : 16, *f == 'X',
				   sp.alt && v && *f == 'x'   ? "0x"
				   : sp.alt && v && *f == 'X' ? "0X"
							      : NULL);
			break;
		case 'p': {
			void *p = va_arg(ap, void *);

			if (p) {
				sp.plus = sp.space = 0;
				put_number(&o, &sp, (uintptr_t)p, 0, 16, 0, "0x");
			} else {
				put_string(&o, "(nil)", NULL, -1, sp.width, sp.left);
			}
			break;
		}
		case 'c': {
			char c = (char)va_arg(ap, int);

			if (!sp.left)
				pad(&o, ' ', sp.width - 1);
			put(&o, c);
			if (sp.left)
				pad(&o, ' ', sp.width - 1);
			break;
		}
		case 's':
			if (length == 1) {
				const uint16_t *w = va_arg(ap, const uint16_t *);

				put_string(&o, NULL, w ? w : u"(null)", sp.prec, sp.width, sp.left);
			} else {
				const char *s = va_arg(ap, const char *);

				put_string(&o, s ? s : "(null)", NULL, sp.prec, sp.width, sp.left);
			}
			break;
		case 'm':
			put_string(&o, m ? m : "", NULL, sp.prec, sp.width, sp.left);
			break;
		case '%':
			put(&o, '%');
			break;
		default: /* unknown or truncated: written as it is */
			put(&o, '%');
			if (!*f)
				f--;
			else
				put(&o, *f);
			break;
		}
	}
	if (size > 0)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return o.len > INT32_MAX ? -1 : (int)o.len;
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	return lockshim_vsnprintf(buf, size, NULL, fmt, ap);
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = lockshim_vsnprintf(buf, size, NULL, fmt, ap);
	va_end(ap);
	return n;
}
