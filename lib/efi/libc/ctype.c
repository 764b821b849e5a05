/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The "C" locale tables that glibc's <ctype.h> macros index through
 * __ctype_b_loc(), __ctype_tolower_loc() and __ctype_toupper_loc(). Like
 * glibc's, each table covers -128..255 (signed char values and EOF) and the
 * returned pointer points at entry 0. Built on first use (no constructors run
 * in UEFI; single-threaded).
 */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>

static unsigned short class_table[384];
static int32_t lower_table[384];
static int32_t upper_table[384];
static const unsigned short *class_ptr;
static const int32_t *lower_ptr;
static const int32_t *upper_ptr;

static unsigned short classify(int c)
{
	unsigned short f = 0;
	int upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
	int digit = c >= '0' && c <= '9';
	int space = c == ' ' || (c >= '\t' && c <= '\r');
	int print = c >= 0x20 && c <= 0x7e;

	if (c < 0 || c > 0x7f)
		return 0; /* only ASCII is classified in the C locale */
	if (upper)
		f |= _ISupper;
	if (lower)
		f |= _ISlower;
	if (upper || lower)
		f |= _ISalpha;
	if (digit)
		f |= _ISdigit;
	if (digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
		f |= _ISxdigit;
	if (space)
		f |= _ISspace;
	if (print)
		f |= _ISprint;
	if (print && c != ' ')
		f |= _ISgraph;
	if (c == ' ' || c == '\t')
		f |= _ISblank;
	if (c < 0x20 || c == 0x7f)
		f |= _IScntrl;
	if (print && c != ' ' && !upper && !lower && !digit)
		f |= _ISpunct;
	if (upper || lower || digit)
		f |= _ISalnum;
	return f;
}

static void init_tables(void)
{
	int i;

	for (i = -128; i < 256; i++) {
		/* As glibc: a negative (signed char) value maps to its unsigned
		 * byte, except EOF (-1), which maps to itself. */
		int same = i < -1 ? i + 256 : i;

		class_table[i + 128] = classify(i);
		lower_table[i + 128] = (i >= 'A' && i <= 'Z') ? i + ('a' - 'A') : same;
		upper_table[i + 128] = (i >= 'a' && i <= 'z') ? i - ('a' - 'A') : same;
	}
	lower_ptr = lower_table + 128;
	upper_ptr = upper_table + 128;
	class_ptr = class_table + 128;
}

const unsigned short **__ctype_b_loc(void)
{
	if (class_ptr == NULL)
		init_tables();
	return &class_ptr;
}

const int32_t **__ctype_tolower_loc(void)
{
	if (lower_ptr == NULL)
		init_tables();
	return &lower_ptr;
}

const int32_t **__ctype_toupper_loc(void)
{
	if (upper_ptr == NULL)
		init_tables();
	return &upper_ptr;
}
