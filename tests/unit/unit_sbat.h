/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Shared by the SBAT unit tests (test_sbat_*.c): real .sbat sections and
 * SbatLevels, one sbat_parse case checked whole, and .sbatlevel payloads.
 *
 * Every text is copied into its own heap block of exactly its size, so ASan
 * reports any read past the end; the blocks live until the end of the run
 * (a parsed struct sbat points into them).
 */
#ifndef LOCKSHIM_UNIT_SBAT_H
#define LOCKSHIM_UNIT_SBAT_H

#include "sbat.h"
#include "sbat_level.h"
#include "unit.h"
#include "unit_image.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>

#define SHIM_SECTION                                                                   \
	"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n" \
	"shim,4,UEFI shim,shim,1,https://github.com/rhboot/shim\n"                     \
	"shim.debian,1,Debian,shim,16.1-1,https://tracker.debian.org/pkg/shim\n"
#define GRUB_SECTION                                                                   \
	"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n" \
	"grub,5,Free Software Foundation,grub,2.12,https://www.gnu.org/software/grub/\n" \
	"grub.debian,5,Debian,grub2,2.12-1,https://tracker.debian.org/pkg/grub2\n"
/* The first line of a minimal .sbat section. */
#define SECTION_HEADER "sbat,1,SBAT Version,sbat,1,https://x/\n"
#define DEBIAN_LEVEL   "sbat,1,2025021800\nshim,4\ngrub,5\n"
#define LATEST_LEVEL   "sbat,1,2026120600\nshim,4\ngrub,5\nlockshim,2\n"

/* ---- owned copies ------------------------------------------------------------ */

#define MAX_HELD 16384
static void *held[MAX_HELD];
static size_t n_held;

/* Keep @p until release_all(); returns it. */
static inline void *keep(void *p)
{
	if (!p) {
		perror("malloc");
		exit(2);
	}
	if (n_held == MAX_HELD) {
		fprintf(stderr, "unit_sbat.h: MAX_HELD too small\n");
		exit(2);
	}
	held[n_held++] = p;
	return p;
}

/* A kept heap copy of @size bytes of @data. */
static inline void *hold(const void *data, size_t size)
{
	void *p = keep(malloc(size ? size : 1));

	if (size)
		memcpy(p, data, size);
	return p;
}

static inline void release_all(void)
{
	while (n_held)
		free(held[--n_held]);
}

/* A string built with printf, kept. */
static inline __attribute__((format(printf, 1, 2))) char *fmt(const char *f, ...)
{
	va_list ap;
	char *buf;
	int n;

	va_start(ap, f);
	n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	if (n < 0)
		exit(2);
	buf = keep(malloc((size_t)n + 1));
	va_start(ap, f);
	vsnprintf(buf, (size_t)n + 1, f, ap);
	va_end(ap);
	return buf;
}

/* @n copies of @c, NUL-terminated, kept. */
static inline char *repeat(char c, size_t n)
{
	char *p = keep(malloc(n + 1));

	memset(p, c, n);
	p[n] = '\0';
	return p;
}

/* ---- sbat_parse ------------------------------------------------------------------ */

/* The last reason sbat_parse (or sbat_check) gave. */
static struct reason_buf why_buf;
static const char *why = "";

/* sbat_parse over an exact-size copy of @size bytes of @text. */
static inline int parse_n(const char *text, size_t size, enum sbat_kind kind, struct sbat *out)
{
	why = "";
	return sbat_parse(hold(text, size), size, kind, out, &why, &why_buf);
}

static inline int parse(const char *text, enum sbat_kind kind, struct sbat *out)
{
	return parse_n(text, strlen(text), kind, out);
}

/*
 * Every record of @s as "name,generation", separated by spaces, and how many
 * there are in *@count; valid until the next call.
 */
static inline const char *records_text(const struct sbat *s, size_t *count)
{
	static char text[4096];
	struct sbat_record rec;
	size_t pos = 0, len = 0;

	text[0] = '\0';
	*count = 0;
	while (sbat_next_record(s, &pos, &rec)) {
		if (len < sizeof(text))
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%.*s,%u",
						*count ? " " : "", (int)rec.name_len, rec.name,
						rec.generation);
		(*count)++;
	}
	/* asked again after the last, it must still find none */
	if (sbat_next_record(s, &pos, &rec) && len < sizeof(text))
		snprintf(text + len, sizeof(text) - len, " (then a record after the last)");
	return text;
}

/* One sbat_parse case: its text, what it must give. */
struct parse_case {
	const char *name;
	const char *text;
	size_t size;
	enum sbat_kind kind;
	int result;          /* 0 parsed, -1 refused */
	const char *reason;  /* refused: a part of the reason */
	uint64_t datestamp;  /* a parsed SbatLevel: its header's */
	const char *records; /* parsed: as records_text() writes them */
};

/* A string literal as bytes, NULs inside it and all. */
#define TEXT(s) .text = (s), .size = sizeof(s) - 1

static inline void check_parse(const struct parse_case *c)
{
	const char *records;
	struct sbat s;
	size_t n;

	if (!CHECK_EQ(parse_n(c->text, c->size, c->kind, &s), c->result, c->name)) {
		printf("# reason: '%s'\n", why);
		return;
	}
	if (c->result) {
		CHECK_STRSTR(why, c->reason, unit_name("%s: the reason", c->name));
		return;
	}
	CHECK_EQ(s.kind, c->kind, unit_name("%s: kind", c->name));
	CHECK_EQ(s.size, strnlen(c->text, c->size), unit_name("%s: size, up to any NUL", c->name));
	if (c->kind == SBAT_LEVEL)
		CHECK_EQ(s.datestamp, c->datestamp, unit_name("%s: datestamp", c->name));
	records = records_text(&s, &n);
	CHECK_STREQ(records, c->records, unit_name("%s: records", c->name));
	CHECK_EQ(s.n_records, n, unit_name("%s: n_records counts them", c->name));
}

/* ---- .sbatlevel payloads ------------------------------------------------------- */

/* A .sbatlevel payload: format, the two offsets, the two levels (each + NUL). */
static inline uint8_t *payload(uint32_t format, const char *automatic, const char *latest,
			       size_t *size)
{
	size_t a = strlen(automatic) + 1, l = strlen(latest) + 1;
	uint8_t *p = keep(malloc(12 + a + l));

	put32(p, format);
	put32(p + 4, 8);
	put32(p + 8, (uint32_t)(8 + a));
	memcpy(p + 12, automatic, a);
	memcpy(p + 12 + a, latest, l);
	*size = 12 + a + l;
	return p;
}

/* The size of payload(0, DEBIAN_LEVEL, LATEST_LEVEL). */
#define PAYLOAD_SIZE (12 + sizeof(DEBIAN_LEVEL) + sizeof(LATEST_LEVEL))

/* sbat_levels_parse over an exact-size copy (NULL stays NULL). */
static inline int levels_parse(const uint8_t *data, size_t size, struct sbat_levels *lv)
{
	why = "";
	return sbat_levels_parse(data ? hold(data, size) : NULL, size, lv, &why, &why_buf);
}

#endif
