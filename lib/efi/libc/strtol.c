/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* strtol and strtoul with C semantics: base 0 or 2..36, ERANGE clamping. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

static int digit_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

static int is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/*
 * Parses the magnitude into *mag (clamped to limit on overflow); returns 1 if
 * it overflowed, 0 if not, -1 if there were no digits (endptr = nptr).
 */
static int parse(const char *nptr, char **endptr, int base, unsigned long limit,
		 int *neg, unsigned long *mag)
{
	const unsigned char *s = (const unsigned char *)nptr;
	unsigned long acc = 0;
	int any = 0, over = 0, d;

	*neg = 0;
	*mag = 0;
	if (base < 0 || base == 1 || base > 36) {
		errno = EINVAL;
		if (endptr)
			*endptr = (char *)nptr;
		return -1;
	}
	while (is_space(*s))
		s++;
	if (*s == '-' || *s == '+')
		*neg = *s++ == '-';
	if ((base == 0 || base == 16) && s[0] == '0' && (s[1] | 0x20) == 'x' &&
	    digit_value(s[2]) < 16) {
		s += 2;
		base = 16;
	} else if (base == 0) {
		base = s[0] == '0' ? 8 : 10;
	}
	for (; (d = digit_value(*s)) < base; s++) {
		any = 1;
		if (over)
			continue;
		if (acc > (limit - (unsigned long)d) / (unsigned long)base) {
			over = 1;
			acc = limit;
		} else {
			acc = acc * (unsigned long)base + (unsigned long)d;
		}
	}
	if (endptr)
		*endptr = (char *)(any ? (const char *)s : nptr);
	if (!any)
		return -1;
	*mag = acc;
	return over;
}

long strtol(const char *restrict nptr, char **restrict endptr, int base)
{
	unsigned long mag;
	int neg, r;

	/* The magnitude may reach LONG_MAX + 1 for a negative number. */
	r = parse(nptr, endptr, base, (unsigned long)LONG_MAX + 1, &neg, &mag);
	if (r < 0)
		return 0;
	if (r > 0 || (!neg && mag > (unsigned long)LONG_MAX)) {
		errno = ERANGE;
		return neg ? LONG_MIN : LONG_MAX;
	}
	if (neg)
		return mag == (unsigned long)LONG_MAX + 1 ? LONG_MIN : -(long)mag;
	return (long)mag;
}

unsigned long strtoul(const char *restrict nptr, char **restrict endptr, int base)
{
	unsigned long mag;
	int neg, r;

	r = parse(nptr, endptr, base, ULONG_MAX, &neg, &mag);
	if (r < 0)
		return 0;
	if (r > 0) {
		errno = ERANGE;
		return ULONG_MAX;
	}
	return neg ? -mag : mag; /* C: negation in unsigned long */
}
