/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Host-side differential test of lib/efi/libc (run by `make libefi-libc-test`).
 *
 * The libc objects are compiled for the host and their symbols renamed with
 * a t_ prefix (objcopy --redefine-syms), so each function can be compared with
 * glibc's. The firmware is faked: BS->AllocatePool/FreePool on top of glibc's
 * malloc (counting live blocks) and RT->GetTime returning a chosen EFI_TIME.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <efi.h>

/* The renamed functions under test. */
void *t_malloc(size_t);
void t_free(void *);
void *t_realloc(void *, size_t);
void *t_calloc(size_t, size_t);
void *t_lockshim_memcpy(void *, const void *, size_t);
void *t_lockshim_memset(void *, int, size_t);
void *t_memmove(void *, const void *, size_t);
int t_memcmp(const void *, const void *, size_t);
void *t_memchr(const void *, int, size_t);
size_t t_strlen(const char *);
int t_strcmp(const char *, const char *);
int t_strncmp(const char *, const char *, size_t);
char *t_strchr(const char *, int);
char *t_strrchr(const char *, int);
char *t_strcpy(char *, const char *);
char *t_strncpy(char *, const char *, size_t);
char *t_strcat(char *, const char *);
size_t t_strspn(const char *, const char *);
size_t t_strcspn(const char *, const char *);
char *t_strpbrk(const char *, const char *);
char *t_strstr(const char *, const char *);
long t_strtol(const char *, char **, int);
unsigned long t_strtoul(const char *, char **, int);
int t_atoi(const char *);
void t_qsort(void *, size_t, size_t, int (*)(const void *, const void *));
time_t t_time(time_t *);
struct tm *t_gmtime_r(const time_t *, struct tm *);
int t___isoc99_sscanf(const char *, const char *, ...);
const unsigned short **t___ctype_b_loc(void);
const int32_t **t___ctype_tolower_loc(void);
const int32_t **t___ctype_toupper_loc(void);
int *t___errno_location(void);
int t___xpg_strerror_r(int, char *, size_t);
int t_stat(const char *, void *);
int t_snprintf(char *, size_t, const char *, ...);
int t_lockshim_vsnprintf(char *, size_t, const char *, const char *, va_list);
char *t_getenv(const char *);
char *t_secure_getenv(const char *);

#define t_errno (*t___errno_location())

static int passed, failed;

#define CHECK(cond, ...)                                   \
	do {                                               \
		if (cond) {                                \
			passed++;                          \
		} else {                                   \
			failed++;                          \
			printf("FAIL %s:%d: ", __FILE__, __LINE__); \
			printf(__VA_ARGS__);               \
			printf("\n");                      \
		}                                          \
	} while (0)

/* ---------------------------------------------------------------- fake firmware */
EFI_SYSTEM_TABLE *ST;
EFI_BOOT_SERVICES *BS;
EFI_RUNTIME_SERVICES *RT;
EFI_HANDLE LibImageHandle;

static EFI_BOOT_SERVICES fake_bs;
static EFI_RUNTIME_SERVICES fake_rt;
static long live_blocks, pool_calls;
static EFI_TIME fake_time;
static EFI_STATUS fake_time_status;

static EFI_STATUS EFIAPI fake_allocate_pool(EFI_MEMORY_TYPE type, UINTN size, VOID **buf)
{
	(void)type;
	pool_calls++;
	*buf = malloc(size);
	/* Pool memory is 8-byte aligned: make it exactly that, not 16. */
	if (*buf == NULL)
		return EFI_OUT_OF_RESOURCES;
	live_blocks++;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fake_free_pool(VOID *buf)
{
	live_blocks--;
	free(buf);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI fake_get_time(EFI_TIME *t, EFI_TIME_CAPABILITIES *cap)
{
	(void)cap;
	*t = fake_time;
	return fake_time_status;
}

/* ---------------------------------------------------------------- tests */

/*
 * snprintf against glibc's, for every conversion the firmware log uses and
 * the rest it takes. %ls: a CHAR16 (u"") string for t_snprintf, a wchar_t
 * (L"") one for glibc's; ASCII, so the same in the C locale.
 */
#define SAME(...)                                                                        \
	do {                                                                             \
		char want[128], got[128];                                                \
		int nw = snprintf(want, sizeof(want), __VA_ARGS__);                      \
		int ng = t_snprintf(got, sizeof(got), __VA_ARGS__);                      \
		CHECK(nw == ng && strcmp(want, got) == 0, "snprintf(%s): \"%s\" %d, glibc \"%s\" %d", \
		      #__VA_ARGS__, got, ng, want, nw);                                  \
	} while (0)
#define SAME_LS(fmt, str, ...)                                                           \
	do {                                                                             \
		char want[128], got[128];                                                \
		int nw = snprintf(want, sizeof(want), fmt, L##str, ##__VA_ARGS__);       \
		int ng = t_snprintf(got, sizeof(got), fmt, u##str, ##__VA_ARGS__);       \
		CHECK(nw == ng && strcmp(want, got) == 0, "snprintf(%s, %s): \"%s\", glibc \"%s\"", \
		      fmt, #str, got, want);                                             \
	} while (0)

/* t_lockshim_vsnprintf into @buf (16 bytes), its result in *@n. */
static void with_m(char *buf, int *n, const char *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	*n = t_lockshim_vsnprintf(buf, 16, m, fmt, ap);
	va_end(ap);
}

static void test_snprintf(void)
{
	char buf[16];
	int n;

	SAME("plain");
	SAME("%s", "abc");
	SAME("refusing %s: %s", "\\EFI\\x", "no signature");
	SAME("[%5s|%-5s|%.2s|%*s|%-*.*s]", "ab", "ab", "abc", 4, "x", 6, 1, "yz");
	SAME("%d %d %d %d", 0, 7, -7, INT_MIN);
	SAME("%i %u %u", INT_MAX, 0u, UINT_MAX);
	SAME("%x %X %x %#x %#X %#x", 0u, 0xabcdefu, UINT_MAX, 0x1fu, 0x1fu, 0u);
	SAME("0x%x 0x%08x %02x %4d %-4d| %04d %+d % d", 0x7u, 0x3u, 0xau, 42, 42, -42, 5, 5);
	SAME("%ld %ld %lu %lx", 0L, LONG_MIN, ULONG_MAX, 0x123456789abcdefUL);
	SAME("%lld %llu %llx", LLONG_MIN, ULLONG_MAX, 0xfedcba9876543210ULL);
	SAME("%zu %zu %zx %zd", (size_t)0, SIZE_MAX, (size_t)4096, (ssize_t)-3);
	SAME("%jd %ju %td", (intmax_t)-1, UINTMAX_MAX, (ptrdiff_t)12);
	SAME("%hd %hu %hhd %hhu %hx", (short)-2, (unsigned short)65535, (signed char)-1, 200, 0xffff);
	SAME("%.3d %.0d| %5.3d %-6.2x|", 7, 0, 7, 0xfu);
	SAME("%o %#o %#o", 8u, 8u, 0u);
	SAME("%c%c%c %3c %-3c|", 'a', 'B', '%', 'x', 'y');
	SAME("100%% %%d %s", "x");
	SAME("%p %p %10p", (void *)0x1234, (void *)NULL, (void *)0xab);
	SAME_LS("%ls", "\\EFI\\lockshim\\vmlinuz.efi");
	SAME_LS("[%8ls]", "abc");
	SAME_LS("[%-8ls]", "abc");
	SAME_LS("[%.3ls]", "abcdef");
	SAME_LS("cannot read %ls: %d", "MokList", 5);

	/* Truncation: NUL-terminated, the full length returned. */
	n = t_snprintf(buf, sizeof(buf), "%s %d", "0123456789abcdef", 12345);
	CHECK(n == 22 && strcmp(buf, "0123456789abcde") == 0, "truncated: %d \"%s\"", n, buf);
	n = t_snprintf(buf, 0, "%d", 123);
	CHECK(n == 3, "size 0: %d", n);
	n = t_snprintf(buf, 1, "%d", 123);
	CHECK(n == 3 && buf[0] == '\0', "size 1: %d", n);

	/* %ls beyond ASCII: UTF-8. */
	n = t_snprintf(buf, sizeof(buf), "%ls", u"\u00e9\u20ac!");
	CHECK(n == 6 && strcmp(buf, "\xc3\xa9\xe2\x82\xac!") == 0, "%%ls UTF-8: %d", n);

	/* %m: the string given (the log's EFI status), "" when none. */
	with_m(buf, &n, "Not Found", "x: %m; %d", 3);
	CHECK(n == 15 && strcmp(buf, "x: Not Found; 3") == 0, "%%m: %d \"%s\"", n, buf);
	n = t_snprintf(buf, sizeof(buf), "[%m]");
	CHECK(n == 2 && strcmp(buf, "[]") == 0, "%%m without a status: \"%s\"", buf);
}
static void test_malloc(void)
{
	unsigned char *p, *q;
	size_t i;

	p = t_malloc(0);
	CHECK(p != NULL && ((uintptr_t)p & 15) == 0, "malloc(0)");
	t_free(p);
	t_free(NULL);
	p = NULL;
	for (i = 1; i < 5000; i += 97) {
		q = t_realloc(p, i);
		CHECK(q != NULL && ((uintptr_t)q & 15) == 0, "realloc %zu", i);
		if (q == NULL)
			break;
		if (i > 97) /* previous size was i - 97 */
			for (size_t j = 0; j < i - 97; j++)
				if (q[j] != (unsigned char)(j * 7)) {
					CHECK(0, "realloc lost byte %zu", j);
					break;
				}
		for (size_t j = 0; j < i; j++)
			q[j] = (unsigned char)(j * 7);
		p = q;
	}
	q = t_realloc(p, 10); /* shrink */
	CHECK(q != NULL && q[9] == (unsigned char)63, "realloc shrink");
	CHECK(t_realloc(q, 0) == NULL, "realloc(p, 0) frees");
	p = t_calloc(33, 31);
	CHECK(p != NULL && p[0] == 0 && p[33 * 31 - 1] == 0, "calloc");
	t_free(p);
	pool_calls = 0;
	t_errno = 0;
	CHECK(t_calloc(SIZE_MAX / 2, 3) == NULL && t_errno == ENOMEM, "calloc overflow");
	CHECK(t_malloc(SIZE_MAX) == NULL && t_malloc(SIZE_MAX - 20) == NULL, "malloc huge");
	CHECK(pool_calls == 0, "overflowing sizes never reach AllocatePool");
	p = t_malloc(8);
	CHECK(t_realloc(p, SIZE_MAX) == NULL, "realloc huge fails");
	t_free(p); /* still valid after the failed realloc */
	CHECK(live_blocks == 0, "all pool blocks freed (%ld live)", live_blocks);
}

static int sign(int x)
{
	return (x > 0) - (x < 0);
}

static void test_mem_str(void)
{
	unsigned char a[300], b[300], c[300];
	size_t off, len, i;
	static const char *strs[] = { "", "a", "abc", "abd", "ab", "hello world", "\xff\x01", "\x01" };
	size_t ns = sizeof(strs) / sizeof(strs[0]);

	for (i = 0; i < sizeof(a); i++)
		a[i] = (unsigned char)(i * 37 + 11);
	for (off = 0; off < 16; off++)
		for (len = 0; len < 140; len++) {
			memset(b, 0xee, sizeof(b));
			memset(c, 0xee, sizeof(c));
			t_lockshim_memcpy(b + off, a + 3, len);
			memcpy(c + off, a + 3, len);
			CHECK(memcmp(b, c, sizeof(b)) == 0, "memcpy off %zu len %zu", off, len);
			t_lockshim_memset(b + off, 0x5a + (int)len, len);
			memset(c + off, 0x5a + (int)len, len);
			CHECK(memcmp(b, c, sizeof(b)) == 0, "memset off %zu len %zu", off, len);
			/* overlapping moves, both directions */
			memcpy(b, a, sizeof(a));
			memcpy(c, a, sizeof(a));
			t_memmove(b + off, b + 7, len);
			memmove(c + off, c + 7, len);
			CHECK(memcmp(b, c, sizeof(b)) == 0, "memmove off %zu len %zu", off, len);
			memcpy(b, a, sizeof(a));
			memcpy(c, a, sizeof(a));
			t_memmove(b + 7, b + off, len);
			memmove(c + 7, c + off, len);
			CHECK(memcmp(b, c, sizeof(b)) == 0, "memmove back off %zu len %zu", off, len);
		}
	memcpy(b, a, sizeof(a));
	b[200] ^= 0x80;
	CHECK(sign(t_memcmp(a, b, 300)) == sign(memcmp(a, b, 300)) && t_memcmp(a, b, 200) == 0,
	      "memcmp");
	CHECK(t_memchr(a, a[150], 300) == memchr(a, a[150], 300) && t_memchr(a, 0x100 + a[5], 3) == NULL,
	      "memchr");
	for (i = 0; i < ns; i++) {
		const char *s = strs[i];
		CHECK(t_strlen(s) == strlen(s), "strlen");
		CHECK(t_strchr(s, 'b') == strchr(s, 'b') && t_strchr(s, 0) == strchr(s, 0), "strchr");
		CHECK(t_strrchr(s, 'o') == strrchr(s, 'o') && t_strrchr(s, 0) == strrchr(s, 0), "strrchr");
		CHECK(t_strspn(s, "abc") == strspn(s, "abc"), "strspn");
		CHECK(t_strcspn(s, " d") == strcspn(s, " d") && t_strcspn(s, "") == strcspn(s, ""), "strcspn");
		CHECK(t_strpbrk(s, "lw") == strpbrk(s, "lw"), "strpbrk");
		CHECK(t_strstr(s, "b") == strstr(s, "b") && t_strstr(s, "") == strstr(s, "") &&
			      t_strstr(s, "world") == strstr(s, "world") && t_strstr(s, "abcd") == NULL,
		      "strstr");
		for (size_t j = 0; j < ns; j++) {
			const char *u = strs[j];
			CHECK(sign(t_strcmp(s, u)) == sign(strcmp(s, u)), "strcmp '%s' '%s'", s, u);
			for (len = 0; len < 5; len++)
				CHECK(sign(t_strncmp(s, u, len)) == sign(strncmp(s, u, len)), "strncmp");
		}
	}
	{
		char d1[16], d2[16];
		memset(d1, 'x', sizeof(d1));
		memset(d2, 'x', sizeof(d2));
		t_strncpy(d1, "abc", 8);
		strncpy(d2, "abc", 8);
		CHECK(memcmp(d1, d2, 16) == 0, "strncpy pads");
		t_strncpy(d1, "abcdefghijk", 4);
		strncpy(d2, "abcdefghijk", 4);
		CHECK(memcmp(d1, d2, 16) == 0, "strncpy truncates");
		t_strcpy(d1, "hi");
		t_strcat(d1, " there");
		CHECK(strcmp(d1, "hi there") == 0, "strcpy/strcat");
	}
}

static void test_strtol(void)
{
	static const struct {
		const char *s;
		int base;
	} cases[] = {
		{ "0", 10 }, { "123", 10 }, { "  \t-42xyz", 10 }, { "+7", 10 }, { "-", 10 },
		{ "", 10 }, { "   ", 0 }, { "0x1f", 0 }, { "0X1F", 16 }, { "0x", 16 }, { "0xg", 0 },
		{ "017", 0 }, { "019", 0 }, { "08", 0 }, { "zz", 36 }, { "ZZ", 36 }, { "12", 2 },
		{ "9223372036854775807", 10 }, { "9223372036854775808", 10 },
		{ "-9223372036854775808", 10 }, { "-9223372036854775809", 10 },
		{ "18446744073709551615", 10 }, { "18446744073709551616", 10 },
		{ "99999999999999999999999999", 10 }, { "-1", 10 }, { "-18446744073709551615", 10 },
		{ "0x7fffffffffffffff", 0 }, { "0xffffffffffffffff", 0 }, { "0x10000000000000000", 0 },
		{ "10", 1 }, { "10", 37 }, { "10", -1 }, { "1e5", 10 }, { "-0", 10 }, { "+-1", 10 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *e1 = NULL, *e2 = NULL;
		long v1, v2;
		unsigned long u1, u2;
		int err1, err2;

		t_errno = 0;
		errno = 0;
		v1 = t_strtol(cases[i].s, &e1, cases[i].base);
		err1 = t_errno;
		v2 = strtol(cases[i].s, &e2, cases[i].base);
		err2 = errno;
		if (cases[i].base == 1 || cases[i].base < 0 || cases[i].base > 36)
			e1 = e2; /* invalid base: glibc leaves endptr unset */
		CHECK(v1 == v2 && e1 == e2 && err1 == err2, "strtol(\"%s\", %d): %ld/%ld end %td/%td errno %d/%d",
		      cases[i].s, cases[i].base, v1, v2, e1 - cases[i].s, e2 - cases[i].s, err1, err2);
		t_errno = 0;
		errno = 0;
		u1 = t_strtoul(cases[i].s, &e1, cases[i].base);
		err1 = t_errno;
		u2 = strtoul(cases[i].s, &e2, cases[i].base);
		err2 = errno;
		if (cases[i].base == 1 || cases[i].base < 0 || cases[i].base > 36)
			e1 = e2;
		CHECK(u1 == u2 && e1 == e2 && err1 == err2, "strtoul(\"%s\", %d): %lu/%lu end %td/%td errno %d/%d",
		      cases[i].s, cases[i].base, u1, u2, e1 - cases[i].s, e2 - cases[i].s, err1, err2);
	}
	CHECK(t_strtol("12", NULL, 10) == 12, "strtol with NULL endptr");
}

static void test_atoi(void)
{
	static const char *const cases[] = {
		"0", "123", "  \t-42xyz", "+7", "-", "", "0x1f", "017", "2147483647", "-2147483648",
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		CHECK(t_atoi(cases[i]) == atoi(cases[i]), "atoi(\"%s\"): %d/%d", cases[i],
		      t_atoi(cases[i]), atoi(cases[i]));
}

static void test_sscanf(void)
{
	static const char *ips[] = { "1.2.3.4", "255.255.255.255", "1.2.3", "", "   ", "a.b.c.d",
				     " 10. 20.30.40tail", "1.2.3.4.5", "-1.2.3.4", "1..2.3",
				     "99999999999.1.1.1", "1.2.3." };
	static const char *nums[] = { "443", "", "abc", "-1", " 8080 ", "4294967296", "+5" };
	size_t i;

	for (i = 0; i < sizeof(ips) / sizeof(ips[0]); i++) {
		int a[5] = { -7, -7, -7, -7, -7 }, b[5] = { -7, -7, -7, -7, -7 };
		int r1 = t___isoc99_sscanf(ips[i], "%d.%d.%d.%d%n", &a[0], &a[1], &a[2], &a[3], &a[4]);
		int r2 = sscanf(ips[i], "%d.%d.%d.%d%n", &b[0], &b[1], &b[2], &b[3], &b[4]);
		CHECK(r1 == r2 && memcmp(a, b, sizeof(a)) == 0,
		      "sscanf ip \"%s\": %d/%d [%d %d %d %d %d] [%d %d %d %d %d]", ips[i], r1, r2,
		      a[0], a[1], a[2], a[3], a[4], b[0], b[1], b[2], b[3], b[4]);
	}
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		unsigned int u1 = 7, u2 = 7;
		int d1 = 7, d2 = 7, r1, r2;

		r1 = t___isoc99_sscanf(nums[i], "%u", &u1);
		r2 = sscanf(nums[i], "%u", &u2);
		CHECK(r1 == r2 && u1 == u2, "sscanf %%u \"%s\": %d/%d %u/%u", nums[i], r1, r2, u1, u2);
		r1 = t___isoc99_sscanf(nums[i], "%d", &d1);
		r2 = sscanf(nums[i], "%d", &d2);
		/* out-of-int-range %d is undefined behaviour in C: compare only the count */
		CHECK(r1 == r2 && (i == 5 || d1 == d2), "sscanf %%d \"%s\": %d/%d %d/%d", nums[i], r1, r2,
		      d1, d2);
	}
	{
		int x = 0, n = 0;
		unsigned long lx = 0;
		CHECK(t___isoc99_sscanf("ab 12%", "ab %d%%%n", &x, &n) == 1 && x == 12 && n == 6,
		      "literal, %%%%, %%n");
		CHECK(t___isoc99_sscanf("ff", "%lx", &lx) == 1 && lx == 255, "%%lx");
		CHECK(t___isoc99_sscanf("12", "%5d", &x) == 0, "field width unsupported -> 0");
		CHECK(t___isoc99_sscanf("1 2", "%*d %d", &x) == 1 && x == 2, "%%*d");
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static void test_qsort(void)
{
	static int a[1000], b[1000];
	unsigned int seed = 12345;
	size_t n, i;

	for (n = 0; n <= 1000; n = n < 20 ? n + 1 : n * 3 / 2) {
		for (i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			a[i] = b[i] = (int)(seed >> 16) % (n < 50 ? 5 : 1000); /* duplicates */
		}
		if (n == 999) /* already sorted and reversed inputs */
			for (i = 0; i < n; i++)
				a[i] = b[i] = (int)(n - i);
		t_qsort(a, n, sizeof(int), cmp_int);
		qsort(b, n, sizeof(int), cmp_int);
		CHECK(memcmp(a, b, n * sizeof(int)) == 0, "qsort n=%zu", n);
	}
	t_qsort(NULL, 0, sizeof(int), cmp_int);
	passed++;
}

static int tm_equal(const struct tm *a, const struct tm *b)
{
	return a->tm_year == b->tm_year && a->tm_mon == b->tm_mon && a->tm_mday == b->tm_mday &&
	       a->tm_hour == b->tm_hour && a->tm_min == b->tm_min && a->tm_sec == b->tm_sec &&
	       a->tm_wday == b->tm_wday && a->tm_yday == b->tm_yday;
}

static void test_time(void)
{
	static const time_t edges[] = { 0, -1, 1, 86399, 86400, -86400, -86401, 951782400 /* 2000-02-29 */,
					 951868800, 4107542400 /* 2100-02-28 */, 4107628800,
					 13574563200 /* 2400-02-29 */, -2203891200 /* 1900-02-28 */,
					 -2203804800, 253402300799 /* 9999-12-31 23:59:59 */,
					 2147483647, 2147483648, -62135596800 /* 0001-01-01 */ };
	unsigned long long seed = 99;
	struct tm m1, m2;
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		CHECK(t_gmtime_r(&edges[i], &m1) && gmtime_r(&edges[i], &m2) && tm_equal(&m1, &m2),
		      "gmtime_r(%lld)", (long long)edges[i]);
	}
	for (i = 0; i < 200000; i++) {
		time_t t;
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		t = (time_t)((long long)(seed >> 20) % 400000000000ll) - 200000000000ll;
		if (!t_gmtime_r(&t, &m1) || !gmtime_r(&t, &m2) || !tm_equal(&m1, &m2)) {
			ok = 0;
			CHECK(0, "gmtime_r(%lld)", (long long)t);
			break;
		}
	}
	CHECK(ok, "gmtime_r random");
	{
		time_t huge = (time_t)INT64_MAX;
		CHECK(t_gmtime_r(&huge, &m1) == NULL, "gmtime_r overflow");
	}

	/* time(): EFI_TIME -> epoch, against timegm */
	for (i = 0; i < 20000; i++) {
		struct tm tm;
		time_t want, got;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		want = (time_t)((seed >> 20) % 253402300800ull) - 2208988800ll; /* 1900..9999 */
		gmtime_r(&want, &tm);
		memset(&fake_time, 0, sizeof(fake_time));
		fake_time.Year = (UINT16)(tm.tm_year + 1900);
		fake_time.Month = (UINT8)(tm.tm_mon + 1);
		fake_time.Day = (UINT8)tm.tm_mday;
		fake_time.Hour = (UINT8)tm.tm_hour;
		fake_time.Minute = (UINT8)tm.tm_min;
		fake_time.Second = (UINT8)tm.tm_sec;
		fake_time.TimeZone = EFI_UNSPECIFIED_TIMEZONE;
		got = t_time(NULL);
		if (got != want) {
			CHECK(0, "time() for %04d-%02d-%02d: %lld want %lld", fake_time.Year, fake_time.Month,
			      fake_time.Day, (long long)got, (long long)want);
			break;
		}
	}
	passed++;
	{
		static const struct {
			UINT16 y;
			UINT8 m, d;
			int valid;
		} dates[] = { { 2024, 2, 29, 1 }, { 2023, 2, 29, 0 }, { 2000, 2, 29, 1 }, { 2100, 2, 29, 0 },
			      { 1900, 2, 29, 0 }, { 2400, 2, 29, 1 }, { 2025, 4, 31, 0 }, { 2025, 13, 1, 0 },
			      { 2025, 0, 1, 0 }, { 2025, 1, 0, 0 }, { 2025, 12, 31, 1 }, { 1899, 12, 31, 0 } };
		for (i = 0; i < sizeof(dates) / sizeof(dates[0]); i++) {
			time_t r, out = 0;
			memset(&fake_time, 0, sizeof(fake_time));
			fake_time.Year = dates[i].y;
			fake_time.Month = dates[i].m;
			fake_time.Day = dates[i].d;
			fake_time.TimeZone = EFI_UNSPECIFIED_TIMEZONE;
			r = t_time(&out);
			CHECK((r != (time_t)-1) == dates[i].valid && out == r, "time() validity %u-%u-%u",
			      dates[i].y, dates[i].m, dates[i].d);
		}
	}
	/* TimeZone: Localtime = UTC - TimeZone */
	memset(&fake_time, 0, sizeof(fake_time));
	fake_time.Year = 2026;
	fake_time.Month = 1;
	fake_time.Day = 1;
	fake_time.Hour = 1;
	fake_time.TimeZone = -60; /* UTC+1: 01:00 local is 00:00 UTC */
	CHECK(t_time(NULL) == 1767225600, "time() with TimeZone -60");
	fake_time.TimeZone = 2000;
	CHECK(t_time(NULL) == (time_t)-1, "time() with bogus TimeZone");
	fake_time_status = EFI_DEVICE_ERROR;
	CHECK(t_time(NULL) == (time_t)-1, "time() when GetTime fails");
	fake_time_status = EFI_SUCCESS;
}

static void test_ctype(void)
{
	const unsigned short *mine = *t___ctype_b_loc(), *libc = *__ctype_b_loc();
	const int32_t *lo = *t___ctype_tolower_loc(), *up = *t___ctype_toupper_loc();
	int c, ok = 1;

	for (c = -128; c < 256; c++) {
		if (mine[c] != libc[c] || lo[c] != (*__ctype_tolower_loc())[c] ||
		    up[c] != (*__ctype_toupper_loc())[c]) {
			CHECK(0, "ctype tables differ at %d: %#x/%#x %d/%d %d/%d", c, mine[c], libc[c], lo[c],
			      (*__ctype_tolower_loc())[c], up[c], (*__ctype_toupper_loc())[c]);
			ok = 0;
			break;
		}
	}
	CHECK(ok, "ctype tables match glibc's C locale");
}

static void test_misc(void)
{
	char buf[64];

	CHECK(t___xpg_strerror_r(ENOENT, buf, sizeof(buf)) == 0 &&
		      strcmp(buf, "No such file or directory") == 0, "strerror_r ENOENT");
	CHECK(t___xpg_strerror_r(-12345, buf, sizeof(buf)) == 0 && strcmp(buf, "Unknown error -12345") == 0,
	      "strerror_r unknown: %s", buf);
	CHECK(t___xpg_strerror_r(ENOMEM, buf, 4) == ERANGE && strcmp(buf, "Can") == 0, "strerror_r truncates");
	CHECK(t___xpg_strerror_r(ENOMEM, buf, 0) == ERANGE, "strerror_r size 0");
	t_errno = 0;
	CHECK(t_stat("/", buf) == -1 && t_errno == ENOENT, "stat");
	CHECK(t_getenv("PATH") == NULL && t_secure_getenv("HOME") == NULL, "getenv");
}

int main(void)
{
	fake_bs.AllocatePool = fake_allocate_pool;
	fake_bs.FreePool = fake_free_pool;
	fake_rt.GetTime = fake_get_time;
	BS = &fake_bs;
	RT = &fake_rt;
	setenv("TZ", "UTC", 1);

	test_malloc();
	test_mem_str();
	test_strtol();
	test_atoi();
	test_sscanf();
	test_qsort();
	test_time();
	test_ctype();
	test_misc();
	test_snprintf();
	/* one result line for tests/run.sh, which counts a silent program as a failure */
	printf("%s - libc-efi: %d passed, %d failed\n", failed ? "not ok" : "ok", passed, failed);
	return failed != 0;
}
