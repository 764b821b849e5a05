/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * A minimal unit test harness: each check prints one TAP line; main()
 * returns non-zero when any failed. tests/run.sh counts the lines.
 *
 * CHECK(cond, name) is for plain predicates. The comparisons print both
 * sides when they fail, so the line says what was got and what was wanted:
 *
 *   CHECK_EQ(actual, expected, name)           integers, as C compares them
 *   CHECK_NE, CHECK_LT, CHECK_LE, CHECK_GT, CHECK_GE   the same with !=, <, ...
 *   CHECK_PTR_EQ(actual, expected, name)       pointers
 *   CHECK_STREQ(actual, expected, name)        C strings, either may be NULL
 *   CHECK_STRSTR(haystack, needle, name)       @needle occurs in @haystack
 *   CHECK_MEMEQ(actual, expected, size, name)  byte ranges
 *
 * Each evaluates its operands once and yields whether it passed, so a test
 * can skip the checks that only make sense after it.
 */
#ifndef LOCKSHIM_UNIT_H
#define LOCKSHIM_UNIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int unit_failed;

/* Print the TAP line for one check; returns @passed. */
static inline bool unit_report(bool passed, const char *name, const char *file, int line,
			       const char *what)
{
	if (passed) {
		printf("ok - %s\n", name);
	} else {
		printf("not ok - %s (%s:%d: %s)\n", name, file, line, what);
		unit_failed = 1;
	}
	return passed;
}

#define CHECK(cond, name) unit_report(!!(cond), name, __FILE__, __LINE__, #cond)

/* A test name built with printf, for checks in loops; valid until the next call. */
static inline __attribute__((format(printf, 1, 2))) const char *unit_name(const char *fmt, ...)
{
	static char name[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	return name;
}

/* ---- integers ------------------------------------------------------------------ */

/* Is @x signed? After the integer promotions only int, long and long long can be. */
#define UNIT_IS_SIGNED(x) _Generic((x), int: true, long: true, long long: true, default: false)

/* @v, an operand of @width bytes, in decimal and in hex at its own width (-1 is 0xffffffff). */
static inline void unit_print_int(const char *side, const char *op, bool is_signed, size_t width,
				  unsigned long long v)
{
	unsigned long long mask = width < sizeof(v) ? (1ull << (8 * width)) - 1 : ~0ull;

	if (is_signed)
		printf("#   %-9s %s%lld (0x%llx)\n", side, op, (long long)v, v & mask);
	else
		printf("#   %-9s %s%llu (0x%llx)\n", side, op, v, v & mask);
}

static inline bool unit_report_int(bool passed, const char *name, const char *file, int line,
				   const char *what, const char *op, bool is_signed, size_t width,
				   unsigned long long actual, unsigned long long expected)
{
	if (!unit_report(passed, name, file, line, what)) {
		unit_print_int("actual:", "", is_signed, width, actual);
		unit_print_int("expected:", op, is_signed, width, expected);
	}
	return passed;
}

/*
 * Both operands in the type C would compare them in (the usual arithmetic
 * conversions), so the check means exactly what `actual op expected` means.
 */
#define UNIT_CHECK_INT(actual, op, expected, what, op_text, name)                            \
	({                                                                                 \
		__typeof__((actual) + (expected)) unit_a = (actual), unit_e = (expected);  \
		unit_report_int(unit_a op unit_e, name, __FILE__, __LINE__, what, op_text, \
				UNIT_IS_SIGNED(unit_a), sizeof(unit_a),                    \
				(unsigned long long)unit_a, (unsigned long long)unit_e);   \
	})

/* The operands' text is taken here, before their macros expand (false, not 0). */
#define CHECK_EQ(a, b, name) UNIT_CHECK_INT(a, ==, b, #a " == " #b, "", name)
#define CHECK_NE(a, b, name) UNIT_CHECK_INT(a, !=, b, #a " != " #b, "not ", name)
#define CHECK_LT(a, b, name) UNIT_CHECK_INT(a, <, b, #a " < " #b, "< ", name)
#define CHECK_LE(a, b, name) UNIT_CHECK_INT(a, <=, b, #a " <= " #b, "<= ", name)
#define CHECK_GT(a, b, name) UNIT_CHECK_INT(a, >, b, #a " > " #b, "> ", name)
#define CHECK_GE(a, b, name) UNIT_CHECK_INT(a, >=, b, #a " >= " #b, ">= ", name)

/* ---- pointers ------------------------------------------------------------------ */

static inline bool unit_check_ptr_eq(const void *actual, const void *expected, const char *name,
				     const char *file, int line, const char *what)
{
	if (unit_report(actual == expected, name, file, line, what))
		return true;
	printf("#   actual:   %p\n#   expected: %p\n", actual, expected);
	return false;
}

#define CHECK_PTR_EQ(actual, expected, name) \
	unit_check_ptr_eq(actual, expected, name, __FILE__, __LINE__, #actual " == " #expected)

/* ---- strings and bytes ------------------------------------------------------------ */

/* @s quoted, escaped so it stays on its line, cut after 200 bytes; or (null). */
static inline void unit_print_str(const char *side, const char *s)
{
	size_t len = s ? strlen(s) : 0;

	printf("#   %-9s ", side);
	if (!s) {
		printf("(null)\n");
		return;
	}
	putchar('"');
	for (size_t i = 0; i < len && i < 200; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c == '\n')
			printf("\\n");
		else if (c == '\r')
			printf("\\r");
		else if (c < 0x20 || c > 0x7e)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	if (len > 200)
		printf("\"... (%zu bytes)\n", len);
	else
		printf("\"\n");
}

static inline bool unit_check_str(bool passed, const char *actual, const char *expected,
				  const char *expected_side, const char *name, const char *file,
				  int line, const char *what)
{
	if (unit_report(passed, name, file, line, what))
		return true;
	unit_print_str("actual:", actual);
	unit_print_str(expected_side, expected);
	return false;
}

static inline bool unit_streq(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) == 0 : a == b;
}

static inline bool unit_strstr(const char *haystack, const char *needle)
{
	return haystack && needle && strstr(haystack, needle);
}

#define CHECK_STREQ(actual, expected, name)                                                    \
	({                                                                                     \
		const char *unit_a = (actual), *unit_e = (expected);                           \
		unit_check_str(unit_streq(unit_a, unit_e), unit_a, unit_e, "expected:", name, \
			       __FILE__, __LINE__, #actual " == " #expected);                  \
	})

#define CHECK_STRSTR(haystack, needle, name)                                                    \
	({                                                                                      \
		const char *unit_a = (haystack), *unit_e = (needle);                            \
		unit_check_str(unit_strstr(unit_a, unit_e), unit_a, unit_e, "contains:", name, \
			       __FILE__, __LINE__, #needle " in " #haystack);                   \
	})

/* Up to 16 bytes of @p from @offset in hex, or (null). */
static inline void unit_print_bytes(const char *side, const void *p, size_t offset, size_t size)
{
	printf("#   %-9s", side);
	if (!p)
		printf(" (null)");
	for (size_t i = offset; p && i < size && i < offset + 16; i++)
		printf(" %02x", ((const unsigned char *)p)[i]);
	fputs(p && size > offset + 16 ? " ...\n" : "\n", stdout);
}

static inline bool unit_check_mem(const void *actual, const void *expected, size_t size,
				  const char *name, const char *file, int line, const char *what)
{
	const unsigned char *a = actual, *e = expected;
	size_t first = 0;

	if (size && a && e)
		while (first < size && a[first] == e[first])
			first++;
	if (unit_report(!size || (a && e && first == size), name, file, line, what))
		return true;
	printf("#   first difference at byte %zu of %zu\n", first, size);
	unit_print_bytes("actual:", a, first, size);
	unit_print_bytes("expected:", e, first, size);
	return false;
}

#define CHECK_MEMEQ(actual, expected, size, name) \
	unit_check_mem(actual, expected, size, name, __FILE__, __LINE__, #actual " == " #expected)

#define UNIT_EXIT() return unit_failed ? 1 : 0

#endif
