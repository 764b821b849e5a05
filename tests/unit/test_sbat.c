// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * SBAT: sbat_parse and sbat_check with rhboot/shim's semantics, hostile CSV
 * text, the embedded .sbatlevel payload (sbat_levels_parse) and the
 * SbatLevel update decisions (sbat_level_update).
 *
 * Every text is copied into its own heap block of exactly its size, so ASan
 * reports any read past the end; the blocks live until the end of the run
 * (a parsed struct sbat points into them).
 */
#include "sbat.h"
#include "sbat_level.h"
#include "unit.h"

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
#define DEBIAN_LEVEL "sbat,1,2025021800\nshim,4\ngrub,5\n"
#define LATEST_LEVEL "sbat,1,2026120300\nshim,4\ngrub,5\nlockshim,1\n"

/* ---- owned copies ------------------------------------------------------------ */

#define MAX_HELD 16384
static void *held[MAX_HELD];
static size_t n_held;

/* A heap copy of @size bytes, freed at exit. */
/* Keep @p until the end; returns it. */
static void *keep(void *p)
{
	if (!p) {
		perror("malloc");
		exit(2);
	}
	if (n_held == MAX_HELD) {
		fprintf(stderr, "test_sbat: MAX_HELD too small\n");
		exit(2);
	}
	held[n_held++] = p;
	return p;
}

static void *hold(const void *data, size_t size)
{
	void *p = keep(malloc(size ? size : 1));

	if (size)
		memcpy(p, data, size);
	return p;
}

static void release_all(void)
{
	while (n_held)
		free(held[--n_held]);
}

static struct reason_buf why_buf;
static const char *why = "";

/* sbat_parse over an exact-size copy of @size bytes of @text. */
static int parse_n(const char *text, size_t size, enum sbat_kind kind, struct sbat *out)
{
	why = "";
	return sbat_parse(hold(text, size), size, kind, out, &why, &why_buf);
}

static int parse(const char *text, enum sbat_kind kind, struct sbat *out)
{
	return parse_n(text, strlen(text), kind, out);
}

/* Refused, with a non-empty reason containing @needle (when not NULL). */
static bool refused_n(const char *text, size_t size, enum sbat_kind kind, const char *needle)
{
	struct sbat s;

	if (parse_n(text, size, kind, &s) == 0) {
		printf("# accepted: %.*s\n", (int)(size > 80 ? 80 : size), text);
		return false;
	}
	if (!why[0] || (needle && !strstr(why, needle))) {
		printf("# reason: '%s', expected '%s'\n", why, needle ? needle : "(any)");
		return false;
	}
	return true;
}

static bool refused(const char *text, enum sbat_kind kind, const char *needle)
{
	return refused_n(text, strlen(text), kind, needle);
}

static bool accepted_n(const char *text, size_t size, enum sbat_kind kind)
{
	struct sbat s;

	if (parse_n(text, size, kind, &s) < 0) {
		printf("# refused: %s\n", why);
		return false;
	}
	return true;
}

static bool accepted(const char *text, enum sbat_kind kind)
{
	return accepted_n(text, strlen(text), kind);
}

/*
 * Check @image_text (a .sbat section) against @level_text (SbatLevel):
 * 0 passes, -1 revoked (reason in why), -2 either did not parse.
 */
static int check(const char *image_text, const char *level_text)
{
	struct sbat image, level;

	if (parse(image_text, SBAT_SECTION, &image) < 0) {
		printf("# image: %s\n", why);
		return -2;
	}
	if (parse(level_text, SBAT_LEVEL, &level) < 0) {
		printf("# level: %s\n", why);
		return -2;
	}
	why = "";
	return sbat_check(&image, &level, &why, &why_buf);
}

/* A string built with printf, held. */
static char *fmt(const char *f, ...)
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

/* @n copies of @c, NUL-terminated, held. */
static char *repeat(char c, size_t n)
{
	char *p = keep(malloc(n + 1));

	memset(p, c, n);
	p[n] = '\0';
	return p;
}

/* ---- sbat_parse: good text -------------------------------------------------- */

static void test_parse_good(void)
{
	struct sbat s;
	struct sbat_record rec;
	size_t pos = 0;
	bool ok;

	CHECK(parse(SHIM_SECTION, SBAT_SECTION, &s) == 0 && s.n_records == 3 &&
		      s.kind == SBAT_SECTION && s.size == strlen(SHIM_SECTION),
	      "shim's .sbat parses: 3 records");
	ok = sbat_next_record(&s, &pos, &rec) && rec.name_len == 4 &&
	     memcmp(rec.name, "sbat", 4) == 0 && rec.generation == 1;
	ok = ok && sbat_next_record(&s, &pos, &rec) && rec.name_len == 4 &&
	     memcmp(rec.name, "shim", 4) == 0 && rec.generation == 4;
	ok = ok && sbat_next_record(&s, &pos, &rec) && rec.name_len == 11 &&
	     memcmp(rec.name, "shim.debian", 11) == 0 && rec.generation == 1;
	ok = ok && !sbat_next_record(&s, &pos, &rec) && !sbat_next_record(&s, &pos, &rec);
	CHECK(ok, "sbat_next_record walks name and generation of each record, then stops");

	CHECK(parse(DEBIAN_LEVEL, SBAT_LEVEL, &s) == 0 && s.n_records == 3 &&
		      s.datestamp == 2025021800u && s.kind == SBAT_LEVEL,
	      "Debian shim 16.1's SbatLevel parses: datestamp 2025021800");
	pos = 0;
	ok = sbat_next_record(&s, &pos, &rec) && rec.generation == 1;
	ok = ok && sbat_next_record(&s, &pos, &rec) && rec.name_len == 4 && rec.generation == 4;
	ok = ok && sbat_next_record(&s, &pos, &rec) && rec.name_len == 4 &&
	     memcmp(rec.name, "grub", 4) == 0 && rec.generation == 5;
	ok = ok && !sbat_next_record(&s, &pos, &rec);
	CHECK(ok, "SbatLevel records: sbat 1, shim 4, grub 5");

	CHECK(parse(SBAT_LEVEL_ORIGINAL, SBAT_LEVEL, &s) == 0 && s.n_records == 1 &&
		      s.datestamp == 2021030218u,
	      "SBAT_LEVEL_ORIGINAL parses: datestamp 2021030218, one record");
	CHECK(accepted(LATEST_LEVEL, SBAT_LEVEL), "a latest level with lockshim parses");
	CHECK(accepted("sbat,1,2021030218", SBAT_LEVEL), "no final newline accepted");
	CHECK(accepted("sbat,1,2021030218,extra,fields\nshim,4,more\n", SBAT_LEVEL),
	      "extra level fields accepted");
	CHECK(accepted("sbat,1,x,y,z,w,extra,fields\ngrub,1,a,b,c,d,e\n", SBAT_SECTION),
	      "extra section fields accepted");
	CHECK(accepted("sbat,1,SBAT Version,sbat,1,https://x/\ngrub,1,a b,c d,2.06 (x),u\n",
		       SBAT_SECTION),
	      "spaces and punctuation inside fields accepted");
	CHECK(accepted("sbat,4294967295,1\nshim,4294967295\n", SBAT_LEVEL),
	      "generation 4294967295 accepted");
	CHECK(accepted("sbat,0,0\nshim,0\n", SBAT_LEVEL), "generation and datestamp 0 accepted");
	CHECK(parse("sbat,0000000001,2021030218\n", SBAT_LEVEL, &s) == 0,
	      "10-digit generation with leading zeros accepted");
	CHECK(parse("sbat,1,9999999999999999999\n", SBAT_LEVEL, &s) == 0 &&
		      s.datestamp == 9999999999999999999ull,
	      "19-digit datestamp accepted");

	/* CRLF and blank lines */
	CHECK(parse("sbat,1,2025021800\r\nshim,4\r\ngrub,5\r\n", SBAT_LEVEL, &s) == 0 &&
		      s.n_records == 3 && s.datestamp == 2025021800u,
	      "CRLF line endings accepted");
	pos = 0;
	ok = sbat_next_record(&s, &pos, &rec) && sbat_next_record(&s, &pos, &rec) &&
	     sbat_next_record(&s, &pos, &rec) && rec.name_len == 4 && rec.generation == 5;
	CHECK(ok, "CRLF: the CR is not part of any field");
	CHECK(parse("\n\r\n\nsbat,1,2025021800\n\n\nshim,4\r\n\r\n\ngrub,5\n\n", SBAT_LEVEL, &s) ==
			      0 &&
		      s.n_records == 3,
	      "blank lines (LF and CRLF) skipped, not counted as records");

	/* NUL padding */
	{
		static const char padded[] = DEBIAN_LEVEL "\0\0\0\0\0\0\0";

		CHECK(parse_n(padded, sizeof(padded), SBAT_LEVEL, &s) == 0 &&
			      s.size == strlen(DEBIAN_LEVEL) && s.n_records == 3,
		      "trailing NUL padding accepted; size stops at the first NUL");
	}
	CHECK(parse_n("sbat,1,2025021800\0", 18, SBAT_LEVEL, &s) == 0 && s.size == 17,
	      "single terminating NUL accepted");
}

/* ---- sbat_check: rhboot/shim's semantics ------------------------------------ */

static void test_check(void)
{
	int r;

	CHECK(check(SHIM_SECTION, DEBIAN_LEVEL) == 0, "shim 4 against level shim,4: equal passes");
	CHECK(check(GRUB_SECTION, DEBIAN_LEVEL) == 0, "grub 5 against level grub,5: equal passes");
	CHECK(check(GRUB_SECTION, "sbat,1,2024010100\ngrub,3\n") == 0,
	      "grub 5 against level grub,3: higher passes");

	r = check("sbat,1,SBAT Version,sbat,1,https://x/\ngrub,3,Free Software Foundation,grub,"
		  "2.06,https://www.gnu.org/software/grub/\n",
		  DEBIAN_LEVEL);
	CHECK(r == -1, "grub 3 against level grub,5: revoked");
	CHECK(r == -1 && strstr(why, "grub") && strstr(why, "generation 3") && strstr(why, "5") &&
		      strstr(why, "2025021800"),
	      "revocation reason names the component, both generations and the level");
	if (r == -1)
		printf("# %s\n", why);
	CHECK(r == -1 && strcmp(why, "SBAT revokes component grub generation 3 (SbatLevel "
				     "2025021800 requires 5)") == 0,
	      "revocation reason text exact");

	CHECK(check("sbat,1,SBAT Version,sbat,1,https://x/\nlockshim,1,a,b,c,d\n", DEBIAN_LEVEL) ==
		      0,
	      "component absent from the level passes");
	CHECK(check("sbat,1,SBAT Version,sbat,1,https://x/\ngrub.debian,1,a,b,c,d\n",
		    DEBIAN_LEVEL) == 0,
	      "grub.debian is not grub: a prefix of a name does not match");
	CHECK(check("sbat,1,SBAT Version,sbat,1,https://x/\ngrub,9,a,b,c,d\n",
		    "sbat,1,2\ngrub.debian,5\n") == 0,
	      "grub is not grub.debian: the level's longer name does not match");
	CHECK(check("sbat,1,SBAT Version,sbat,1,https://x/\nGRUB,1,a,b,c,d\n", DEBIAN_LEVEL) == 0,
	      "names compare case-sensitively (GRUB is not grub)");
	CHECK(check("sbat,1,SBAT Version,sbat,1,https://x/\n", DEBIAN_LEVEL) == 0,
	      "image with only the sbat entry passes a level with sbat,1");

	/* the sbat entries compare like any other */
	r = check(SHIM_SECTION, "sbat,2,2030010100\n");
	CHECK(r == -1 && strstr(why, "component sbat generation 1") && strstr(why, "requires 2"),
	      "level sbat,2 revokes an image whose sbat entry is 1");
	CHECK(check("sbat,2,SBAT Version,sbat,1,https://x/\n", "sbat,2,2030010100\n") == 0,
	      "level sbat,2 passes an image with sbat,2");
	CHECK(check("sbat,3,SBAT Version,sbat,1,https://x/\n", "sbat,2,2030010100\n") == 0,
	      "level sbat,2 passes an image with sbat,3");
	CHECK(check(SHIM_SECTION, SBAT_LEVEL_ORIGINAL) == 0 &&
		      check(GRUB_SECTION, SBAT_LEVEL_ORIGINAL) == 0,
	      "the original level revokes nothing");

	/* several components */
	r = check("sbat,1,SBAT Version,sbat,1,https://x/\n"
		  "grub,5,a,b,c,d\n"
		  "grub.debian,3,a,b,c,d\n"
		  "grub.peimage,2,a,b,c,d\n",
		  "sbat,1,2025030100\nshim,4\ngrub,5\ngrub.debian,4\n");
	CHECK(r == -1 && strstr(why, "component grub.debian generation 3") && strstr(why, "requires 4"),
	      "several components: the one below its level is named (grub.debian 3 < 4)");
	r = check("sbat,1,SBAT Version,sbat,1,https://x/\n"
		  "shim,4,a,b,c,d\n"
		  "grub,5,a,b,c,d\n"
		  "linux,1,a,b,c,d\n",
		  "sbat,1,2025030100\nshim,4\ngrub,5\nlinux,2\n");
	CHECK(r == -1 && strstr(why, "component linux generation 1"),
	      "several components: the image's last component revoked by the level's last entry");
	CHECK(check("sbat,1,SBAT Version,sbat,1,https://x/\n"
		    "shim,4,a,b,c,d\ngrub,5,a,b,c,d\nlinux,2,a,b,c,d\n",
		    "sbat,1,2025030100\nshim,4\ngrub,5\nlinux,2\n") == 0,
	      "several components, all at their level: passes");
	r = check("sbat,1,SBAT Version,sbat,1,https://x/\n"
		  "shim,9,a,b,c,d\ngrub,1,a,b,c,d\n",
		  "sbat,1,2025030100\nshim,4\ngrub,5\n");
	CHECK(r == -1 && strstr(why, "grub"), "one revoked component suffices when another is newer");
	r = check("sbat,1,SBAT Version,sbat,1,https://x/\ngrub,9,a,b,c,d\ngrub,2,a,b,c,d\n",
		  DEBIAN_LEVEL);
	CHECK(r == -1 && strstr(why, "generation 2"),
	      "a component listed twice: the lower generation revokes");
	r = check(GRUB_SECTION, "sbat,1,2025030100\ngrub,3\ngrub,6\n");
	CHECK(r == -1 && strstr(why, "requires 6"),
	      "a level entry listed twice: the higher generation applies");
	CHECK(check(GRUB_SECTION, "sbat,1,1\ngrub,4294967295\n") == -1,
	      "level generation 4294967295 revokes grub 5");
	CHECK(check("sbat,1,SBAT Version,sbat,1,https://x/\ngrub,4294967295,a,b,c,d\n",
		    "sbat,1,1\ngrub,4294967295\n") == 0,
	      "generation 4294967295 against itself passes");
	CHECK(check("sbat,1,SBAT Version,sbat,1,https://x/\r\ngrub,3,a,b,c,d\r\n",
		    "sbat,1,2025021800\r\ngrub,5\r\n") == -1,
	      "CRLF image and level still compared");
	{
		static const char section[] = GRUB_SECTION "\0\0\0\0";
		struct sbat image, level;

		r = parse_n(section, sizeof(section), SBAT_SECTION, &image) == 0 &&
		    parse("sbat,1,2\ngrub,6\n", SBAT_LEVEL, &level) == 0 &&
		    sbat_check(&image, &level, &why, &why_buf) == -1;
		CHECK(r, "NUL-padded section still compared");
	}
	{
		char *name = repeat('g', SBAT_MAX_FIELD);

		r = check(fmt("sbat,1,SBAT Version,sbat,1,https://x/\n%s,3,a,b,c,d\n", name),
			  fmt("sbat,1,2\n%s,6\n", name));
		CHECK(r == -1 && why == why_buf.text && strlen(why) == sizeof(why_buf.text) - 1,
		      "revocation reason truncated to the reason buffer, terminated");
	}
}

/* ---- sbat_parse: malformed text --------------------------------------------- */

static void test_parse_malformed(void)
{
	struct sbat s;

	/* header */
	CHECK(refused("", SBAT_SECTION, "no records") && refused("", SBAT_LEVEL, "no records"),
	      "empty text refused");
	CHECK(refused("\n\r\n\n", SBAT_LEVEL, "no records"), "only blank lines refused");
	CHECK(refused("shim,4,UEFI shim,shim,1,https://github.com/rhboot/shim\n", SBAT_SECTION,
		      "sbat entry"),
	      "section without the sbat header refused");
	CHECK(refused("shim,4\ngrub,5\n", SBAT_LEVEL, "line 1"),
	      "level without the sbat header refused (as a 2-field header)");
	CHECK(refused("shim,4,2025021800\ngrub,5\n", SBAT_LEVEL,
		      "the first record must be the sbat entry, not 'shim'"),
	      "level whose first record is shim refused, naming it");
	CHECK(refused("grub,5,a,b,c,d\nsbat,1,SBAT Version,sbat,1,https://x/\n", SBAT_SECTION,
		      "line 1: the first record must be the sbat entry, not 'grub'"),
	      "section with the sbat header second refused, naming line and record");
	CHECK(refused("shim,4,2025021800\nsbat,1,2025021800\n", SBAT_LEVEL, "sbat entry"),
	      "level with the sbat header second refused");
	CHECK(refused("\n\nSBAT,1,2025021800\n", SBAT_LEVEL, "line 3"),
	      "header named SBAT (not sbat) refused; blank lines counted in the line number");
	CHECK(refused("sbatx,1,2025021800\n", SBAT_LEVEL, "sbat entry") &&
		      refused("sba,1,2025021800\n", SBAT_LEVEL, "sbat entry"),
	      "header names sbatx and sba refused");

	/* field counts */
	CHECK(refused("sbat,1,SBAT Version,sbat,1\n", SBAT_SECTION, "5 fields"),
	      "section header with 5 fields refused");
	CHECK(refused("sbat,1,SBAT Version,sbat,1,https://x/\ngrub,5,a,b,c\n", SBAT_SECTION,
		      "line 2 has 5 fields, a .sbat record needs at least 6"),
	      "section record with 5 fields refused, reason exact");
	CHECK(refused("sbat,1,SBAT Version,sbat,1,https://x/\ngrub\n", SBAT_SECTION, "1 fields"),
	      "section record with 1 field refused");
	CHECK(refused("sbat,1\n", SBAT_LEVEL, "the SbatLevel header needs at least 3"),
	      "level header with 2 fields refused");
	CHECK(refused("sbat\n", SBAT_LEVEL, "1 fields"), "level header with 1 field refused");
	CHECK(refused("sbat,1,2025021800\nshim\n", SBAT_LEVEL, "a SbatLevel record needs at least 2"),
	      "level record with 1 field refused");
	CHECK(accepted("sbat,1,2025021800\nshim,4\n", SBAT_LEVEL),
	      "level record with 2 fields accepted");
	CHECK(refused(DEBIAN_LEVEL, SBAT_SECTION, "needs at least 6"),
	      "a SbatLevel is not a .sbat section");

	/* component names */
	CHECK(refused("sbat,1,SBAT Version,sbat,1,https://x/\n,5,a,b,c,d\n", SBAT_SECTION,
		      "line 2: empty component name"),
	      "section record with an empty name refused");
	CHECK(refused("sbat,1,2025021800\n,5\n", SBAT_LEVEL, "empty component name"),
	      "level record with an empty name refused");
	CHECK(refused(",1,2025021800\n", SBAT_LEVEL, "empty component name"),
	      "header with an empty name refused");

	/* generations */
	static const char *const bad_gen[] = { "x", "-1", "", "12345678901", "4294967296",
					       "99999999999", "+1", " 1", "1 ", "0x10", "1.0",
					       "18446744073709551617", "00000000001" };
	bool all = true;

	for (size_t i = 0; i < sizeof(bad_gen) / sizeof(bad_gen[0]); i++) {
		const char *sec = fmt("sbat,1,SBAT Version,sbat,1,https://x/\ngrub,%s,a,b,c,d\n",
				      bad_gen[i]);
		const char *lvl = fmt("sbat,1,2025021800\ngrub,%s\n", bad_gen[i]);
		const char *hdr = fmt("sbat,%s,2025021800\n", bad_gen[i]);

		if (!refused(sec, SBAT_SECTION, "is not a number from 0 to 4294967295") ||
		    !refused(lvl, SBAT_LEVEL, "is not a number") ||
		    !refused(hdr, SBAT_LEVEL, "is not a number")) {
			printf("# generation '%s' not refused as it should be\n", bad_gen[i]);
			all = false;
		}
	}
	CHECK(all, "non-numeric, negative, empty, 11-digit and >4294967295 generations refused "
		   "(section, level header, level record)");
	CHECK(refused("sbat,1,2025021800\ngrub,4294967296\n", SBAT_LEVEL,
		      "line 2: generation '4294967296' is not a number from 0 to 4294967295"),
	      "generation 4294967296: reason exact");

	/* datestamps */
	CHECK(refused("sbat,1,2025-02-18\n", SBAT_LEVEL, "datestamp '2025-02-18' is not a number"),
	      "non-numeric datestamp refused");
	CHECK(refused("sbat,1,\n", SBAT_LEVEL, "datestamp") &&
		      refused("sbat,1,,shim\n", SBAT_LEVEL, "datestamp"),
	      "empty datestamp refused");
	CHECK(refused("sbat,1,-2025021800\n", SBAT_LEVEL, "datestamp"),
	      "negative datestamp refused");
	CHECK(refused("sbat,1,18446744073709551616\n", SBAT_LEVEL, "datestamp") &&
		      refused("sbat,1,99999999999999999999\n", SBAT_LEVEL, "datestamp"),
	      "20-digit datestamps refused (no 64-bit overflow)");
	CHECK(accepted("sbat,1,SBAT Version,sbat,1,https://x/\n", SBAT_SECTION),
	      "a section's third field is not a datestamp");

	/* NULs */
	CHECK(refused_n("sbat,1,2025021800\n\0grub,5\n", 26, SBAT_LEVEL, "follows a NUL"),
	      "embedded NUL followed by a record refused");
	CHECK(refused_n("sbat,1,2025021800\n\0\0\0x", 22, SBAT_LEVEL,
			"byte 0x78 at offset 21 follows a NUL"),
	      "one non-NUL byte after NUL padding refused, reason exact");
	CHECK(refused_n("sbat,1,2025\0" "021800\n", 19, SBAT_LEVEL, "follows a NUL"),
	      "NUL inside a field refused");
	CHECK(refused_n(SHIM_SECTION "\0" SHIM_SECTION, 2 * strlen(SHIM_SECTION) + 1, SBAT_SECTION,
			"follows a NUL"),
	      "section text after a NUL refused");
	CHECK(refused_n("\0\0\0\0\0\0\0\0", 8, SBAT_LEVEL, "no records"), "only NULs refused");
	CHECK(refused_n("\0sbat,1,2\n", 10, SBAT_LEVEL, "follows a NUL"),
	      "leading NUL then text refused");

	/* non-printable bytes */
	static const unsigned char bad_bytes[] = { 0x01, 0x09, 0x0b, 0x0c, 0x1b, 0x1f,
						   0x7f, 0x80, 0xc3, 0xff };

	all = true;
	for (size_t i = 0; i < sizeof(bad_bytes); i++) {
		char *sec = fmt("sbat,1,SBAT Version,sbat,1,https://x/\ngrub,5,a,bXb,c,d\n");
		char *lvl = fmt("sbat,1,2025021800\ngrXb,5\n");
		char expect[64];

		*strchr(sec, 'X') = (char)bad_bytes[i];
		*strchr(lvl, 'X') = (char)bad_bytes[i];
		snprintf(expect, sizeof(expect), "byte 0x%02x", bad_bytes[i]);
		if (!refused(sec, SBAT_SECTION, expect) || !refused(lvl, SBAT_LEVEL, expect)) {
			printf("# byte 0x%02x not refused\n", bad_bytes[i]);
			all = false;
		}
	}
	CHECK(all, "control, DEL and non-ASCII bytes refused, naming the byte");
	CHECK(refused("sbat,1,2025021800\ngrub,5\rshim,4\n", SBAT_LEVEL,
		      "line 2: byte 0x0d at column 7 is not printable ASCII"),
	      "a CR that does not end a line refused, naming line and column");
	CHECK(refused("sbat,1,2025021800\r\r\n", SBAT_LEVEL, "0x0d"), "CR CR LF refused");
	CHECK(refused("sbat,1,2025021800\nshim,4\x01\n", SBAT_LEVEL, "0x01"),
	      "control byte at the end of a line refused");

	/* field and line lengths */
	CHECK(accepted(fmt("sbat,1,SBAT Version,sbat,1,https://x/\n%s,1,a,b,c,d\n",
			   repeat('n', SBAT_MAX_FIELD)),
		       SBAT_SECTION),
	      "256-byte name accepted");
	CHECK(refused(fmt("sbat,1,SBAT Version,sbat,1,https://x/\n%s,1,a,b,c,d\n",
			  repeat('n', SBAT_MAX_FIELD + 1)),
		      SBAT_SECTION, "line 2: a field is longer than 256 bytes"),
	      "257-byte name refused");
	CHECK(refused(fmt("sbat,1,SBAT Version,sbat,1,https://x/\ngrub,5,a,b,c,%s\n",
			  repeat('u', SBAT_MAX_FIELD + 1)),
		      SBAT_SECTION, "longer than 256"),
	      "257-byte URL (last field) refused");
	CHECK(accepted(fmt("sbat,1,SBAT Version,sbat,1,https://x/\ngrub,5,a,b,c,%s\n",
			   repeat('u', SBAT_MAX_FIELD)),
		       SBAT_SECTION),
	      "256-byte URL (last field) accepted");
	CHECK(refused(fmt("sbat,1,%s\n", repeat('1', SBAT_MAX_FIELD + 1)), SBAT_LEVEL,
		      "longer than 256"),
	      "257-digit datestamp refused as an over-long field");
	{
		/* "grub,5," and a prefix of fields of 255 bytes: 1024 and 1025 bytes in all */
		const char *f = repeat('v', 255);
		const char *line1024 = fmt("%s,%s,%s,%s,xy", f, f, f, f);
		CHECK(accepted(fmt("sbat,1,SBAT Version,sbat,1,https://x/\ngrub,5,%.*s\n",
				   (int)(SBAT_MAX_LINE - 7), line1024),
			       SBAT_SECTION),
		      "line of exactly 1024 bytes accepted");
		CHECK(refused(fmt("sbat,1,SBAT Version,sbat,1,https://x/\ngrub,5,%.*s\n",
				  (int)(SBAT_MAX_LINE - 6), line1024),
			      SBAT_SECTION, "line 2 is longer than 1024 bytes"),
		      "line of 1025 bytes (fields all short enough) refused");
		CHECK(accepted(fmt("sbat,1,SBAT Version,sbat,1,https://x/\r\ngrub,5,%.*s\r\n",
				   (int)(SBAT_MAX_LINE - 7), line1024),
			       SBAT_SECTION),
		      "line of 1024 bytes plus CR LF accepted");
	}
	CHECK(refused(fmt("sbat,1,2025021800\n%s\n", repeat(',', 4000)), SBAT_LEVEL, "longer than"),
	      "line of 4000 commas refused");

	/* record count */
	{
		size_t n = 18 + (SBAT_MAX_RECORDS)*16 + 1;
		char *text = keep(malloc(n)), *p = text;

		p += sprintf(p, "sbat,1,2025021800\n");
		for (int i = 1; i < SBAT_MAX_RECORDS; i++)
			p += sprintf(p, "c%d,1\n", i);
		CHECK(parse(text, SBAT_LEVEL, &s) == 0 && s.n_records == SBAT_MAX_RECORDS,
		      "exactly 512 records accepted");
		sprintf(p, "c%d,1\n", SBAT_MAX_RECORDS);
		CHECK(refused(text, SBAT_LEVEL, "more than 512 records"), "513 records refused");
	}
	{
		char *text = keep(malloc(SBAT_MAX_SIZE + 1)), *p = text;

		p += sprintf(p, "sbat,1,2025021800\n");
		while (p - text < SBAT_MAX_SIZE - 8)
			*p++ = '\n';
		*p = '\0';
		CHECK(parse(text, SBAT_LEVEL, &s) == 0 && s.n_records == 1,
		      "thousands of blank lines are not records");
	}

	/* sizes */
	{
		char *big = keep(malloc(SBAT_MAX_SIZE + 1));
		size_t head = strlen(DEBIAN_LEVEL);

		memset(big, 0, SBAT_MAX_SIZE + 1);
		memcpy(big, DEBIAN_LEVEL, head);
		CHECK(accepted_n(big, SBAT_MAX_SIZE, SBAT_LEVEL),
		      "exactly 64 KiB (NUL-padded) accepted");
		CHECK(refused_n(big, SBAT_MAX_SIZE + 1, SBAT_LEVEL, "65537 bytes, more than the limit"),
		      "64 KiB + 1 refused");
	}
	{
		/* sbat_parse refuses on the size alone, before reading: a small real buffer */
		static const size_t huge[] = { (size_t)UINT32_MAX - 1, (size_t)UINT32_MAX,
					       (size_t)UINT32_MAX + 1, (size_t)4 << 30,
					       SIZE_MAX / 2, SIZE_MAX - 1, SIZE_MAX };
		char *buf = hold(DEBIAN_LEVEL, sizeof(DEBIAN_LEVEL));

		all = true;
		for (size_t i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
			why = "";
			if (sbat_parse(buf, huge[i], SBAT_LEVEL, &s, &why, &why_buf) == 0 ||
			    !strstr(why, "more than the limit") ||
			    sbat_parse(buf, huge[i], SBAT_SECTION, &s, &why, &why_buf) == 0) {
				printf("# size %zu: %s\n", huge[i], why);
				all = false;
			}
		}
		CHECK(all, "sizes near 4 GiB and SIZE_MAX refused before reading");
		why = "";
		sbat_parse(buf, SIZE_MAX, SBAT_LEVEL, &s, &why, &why_buf);
		CHECK(strstr(why, "18446744073709551615 bytes") != NULL, "SIZE_MAX printed in full");
	}
	why = "";
	CHECK(sbat_parse(NULL, 0, SBAT_LEVEL, &s, &why, &why_buf) < 0 && why[0],
	      "NULL data with size 0 refused");
	CHECK(sbat_parse(NULL, 0, SBAT_SECTION, &s, &why, &why_buf) < 0 && why[0] && s.text == NULL &&
		      s.n_records == 0,
	      "NULL section refused, output cleared");
	{
		struct sbat z;
		struct sbat_record rec;
		size_t pos = 0;

		memset(&z, 0, sizeof(z));
		CHECK(!sbat_next_record(&z, &pos, &rec), "sbat_next_record on an empty struct: none");
	}
	/* a refused parse clears the output; reason truncated to the reason buffer */
	{
		char *text = fmt("sbat,1,2\ngrub,%s\n", repeat('5', SBAT_MAX_FIELD));

		CHECK(sbat_parse(text, strlen(text), SBAT_LEVEL, &s, &why, &why_buf) < 0 &&
			      why == why_buf.text && strlen(why) == sizeof(why_buf.text) - 1,
		      "reason truncated to the reason buffer, terminated");
	}
	CHECK(s.text == NULL && s.size == 0, "refused parse leaves nothing to walk");
	{
		struct sbat_record rec;
		size_t pos = 0;
		char *text = fmt("sbat,1,2025021800\nshim,4\n%s\n", repeat('x', 300));

		CHECK(sbat_parse(text, strlen(text), SBAT_LEVEL, &s, &why, &why_buf) < 0 &&
			      !sbat_next_record(&s, &pos, &rec),
		      "refused after good records: sbat_next_record finds none");
	}
}

/* ---- sbat_levels_parse --------------------------------------------------------- */

/* A .sbatlevel payload: format, the two offsets, the two levels (each + NUL). */
static uint8_t *payload(uint32_t format, const char *automatic, const char *latest,
			size_t *size)
{
	size_t a = strlen(automatic) + 1, l = strlen(latest) + 1;
	uint8_t *p = keep(malloc(12 + a + l));
	uint32_t words[3] = { format, 8, (uint32_t)(8 + a) };

	for (int w = 0; w < 3; w++)
		for (int b = 0; b < 4; b++)
			p[4 * w + b] = (uint8_t)(words[w] >> (8 * b));
	memcpy(p + 12, automatic, a);
	memcpy(p + 12 + a, latest, l);
	*size = 12 + a + l;
	return p;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int b = 0; b < 4; b++)
		p[b] = (uint8_t)(v >> (8 * b));
}

static bool levels_refused(const uint8_t *data, size_t size, const char *needle)
{
	struct sbat_levels lv;
	const uint8_t *copy = data ? hold(data, size) : NULL;

	why = "";
	if (sbat_levels_parse(copy, size, &lv, &why, &why_buf) == 0) {
		printf("# payload of %zu bytes accepted\n", size);
		return false;
	}
	if (!why[0] || (needle && !strstr(why, needle))) {
		printf("# reason: '%s', expected '%s'\n", why, needle ? needle : "(any)");
		return false;
	}
	return true;
}

static void test_levels_parse(void)
{
	struct sbat_levels lv;
	uint8_t *p, *copy;
	size_t size;

	p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
	copy = hold(p, size);
	CHECK(sbat_levels_parse(copy, size, &lv, &why, &why_buf) == 0 &&
		      lv.automatic.datestamp == 2025021800u && lv.latest.datestamp == 2026120300u &&
		      lv.automatic.n_records == 3 && lv.latest.n_records == 4 &&
		      lv.automatic.kind == SBAT_LEVEL && lv.latest.kind == SBAT_LEVEL,
	      ".sbatlevel payload parses: automatic 2025021800, latest 2026120300");
	CHECK(lv.automatic.text == (const char *)copy + 12 &&
		      lv.automatic.size == strlen(DEBIAN_LEVEL) &&
		      lv.latest.text == (const char *)copy + 12 + strlen(DEBIAN_LEVEL) + 1,
	      "levels point into the payload, without their NUL");

	/* both offsets at one level */
	p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
	put32(p + 8, 8);
	copy = hold(p, size);
	CHECK(sbat_levels_parse(copy, size, &lv, &why, &why_buf) == 0 &&
		      lv.latest.datestamp == 2025021800u,
	      "both offsets naming one level accepted");
	/* padding after the last level, as a section has */
	{
		size_t padded = size + 64;
		uint8_t *q = keep(calloc(1, padded));

		memcpy(q, p, size);
		copy = hold(q, padded);
		CHECK(sbat_levels_parse(copy, padded, &lv, &why, &why_buf) == 0,
		      "zero padding after the levels accepted");
	}

	p = payload(1, DEBIAN_LEVEL, LATEST_LEVEL, &size);
	CHECK(levels_refused(p, size, "format 1"), "format 1 refused");
	p = payload(0x100, DEBIAN_LEVEL, LATEST_LEVEL, &size);
	CHECK(levels_refused(p, size, "format 256"), "format 256 (big-endian 1?) refused");
	CHECK(levels_refused(NULL, 0, "too short"), "NULL payload refused");
	CHECK(levels_refused((const uint8_t *)"", 0, "0 bytes, too short"), "empty payload refused");
	p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
	CHECK(levels_refused(p, 11, "11 bytes, too short"), "11-byte payload refused");
	CHECK(levels_refused(p, 12, "outside the section"),
	      "12-byte payload (offsets past the end) refused");

	/* offsets */
	{
		static const uint32_t bad[] = { 0xffffffffu, 0xfffffffcu, 0xfffffffbu, 0x80000000u,
						0x10000u };
		bool all = true;

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
			put32(p + 4, bad[i]);
			if (!levels_refused(p, size, "automatic offset"))
				all = false;
			p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
			put32(p + 8, bad[i]);
			if (!levels_refused(p, size, "latest offset"))
				all = false;
		}
		CHECK(all, "offsets near UINT32_MAX and past the end refused, naming which");
		p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
		put32(p + 8, (uint32_t)(size - 4));
		CHECK(levels_refused(p, size, "outside the section"),
		      "offset at exactly the end refused");
		p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
		put32(p + 8, (uint32_t)(size - 5));
		CHECK(levels_refused(p, size, "latest level: no records"),
		      "offset at the final NUL: empty level refused");
		p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
		put32(p + 4, 0);
		CHECK(levels_refused(p, size, "automatic level"),
		      "offset 0 (the offsets themselves as text) refused");
		p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
		put32(p + 4, 9);
		CHECK(levels_refused(p, size, "automatic level"),
		      "offset inside a level (bat,1,...) refused");
	}

	/* termination */
	p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
	CHECK(levels_refused(p, size - 1, "latest level is not NUL-terminated"),
	      "latest level without its NUL refused");
	p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
	p[12 + strlen(DEBIAN_LEVEL)] = '\n';
	put32(p + 8, 8);
	CHECK(levels_refused(p, 12 + strlen(DEBIAN_LEVEL) + 1, "not NUL-terminated"),
	      "automatic level without any NUL refused");

	/* level text */
	p = payload(0, "shim,4\ngrub,5\n", LATEST_LEVEL, &size);
	CHECK(levels_refused(p, size, ".sbatlevel: automatic level: line 1"),
	      "automatic level without the sbat header refused, with the parser's reason");
	p = payload(0, DEBIAN_LEVEL, "sbat,1,2026x\n", &size);
	CHECK(levels_refused(p, size, "latest level: line 1: datestamp"),
	      "latest level with a bad datestamp refused");
	p = payload(0, DEBIAN_LEVEL, "sbat,1,2026120300\ngrub,\xff\n", &size);
	CHECK(levels_refused(p, size, "latest level"), "latest level with a non-ASCII byte refused");
	p = payload(0, "", LATEST_LEVEL, &size);
	CHECK(levels_refused(p, size, "automatic level: no records"), "empty automatic level refused");
	p = payload(0, SHIM_SECTION, LATEST_LEVEL, &size);
	CHECK(levels_refused(p, size, "automatic level"), "a .sbat section as a level refused");
}

/* ---- sbat_level_update --------------------------------------------------------- */

static struct sbat_levels embedded;

#define ST_ABSENT ((const char *)0)
#define OLDER     "sbat,1,2024010900\nshim,3\ngrub,3\n"
#define NEWER     "sbat,1,2027010100\nshim,5\ngrub,6\n"

struct upd {
	struct sbat_level_update u;
	struct sbat_level_stored st;
};

/* Decide with stored text @text (NULL: absent), @attrs, @policy, @sb. */
static struct upd *decide(const char *text, uint32_t attrs, uint8_t policy, bool sb)
{
	static struct upd r;

	memset(&r, 0x5a, sizeof(r)); /* whatever the caller leaves behind */
	memset(&r.st, 0, sizeof(r.st));
	if (text) {
		r.st.present = true;
		r.st.size = strlen(text);
		r.st.data = hold(text, r.st.size);
		r.st.attributes = attrs;
	}
	sbat_level_update(&embedded, &r.st, policy, sb, &r.u);
	return &r;
}

/* The chosen level is valid text: it parses again to the same datestamp and records. */
static bool reparses(const struct upd *r)
{
	struct sbat again;
	struct reason_buf w_buf;
	const char *w;

	if (!r->u.level.text || sbat_parse(hold(r->u.level.text, r->u.level.size), r->u.level.size,
					   SBAT_LEVEL, &again, &w, &w_buf) < 0) {
		printf("# chosen level does not parse\n");
		return false;
	}
	return again.datestamp == r->u.level.datestamp && again.n_records == r->u.level.n_records &&
	       r->u.level.kind == SBAT_LEVEL && memchr(r->u.note, '\0', sizeof(r->u.note));
}

static bool is_level(const struct upd *r, uint64_t datestamp, bool write, bool delete_first)
{
	bool ok = reparses(r) && r->u.level.datestamp == datestamp && r->u.write == write &&
		  r->u.delete_first == delete_first;

	if (!ok)
		printf("# got datestamp %llu write %d delete_first %d note '%s'\n",
		       (unsigned long long)r->u.level.datestamp, r->u.write, r->u.delete_first,
		       r->u.note);
	return ok;
}

static bool note_has(const struct upd *r, const char *a, const char *b)
{
	bool ok = strstr(r->u.note, a) && (!b || strstr(r->u.note, b));

	if (!ok)
		printf("# note: '%s'\n", r->u.note);
	return ok;
}

static void test_level_update(void)
{
	const uint64_t A = 2025021800u, L = 2026120300u, O = 2021030218u, N = 2027010100u;
	struct upd *r;
	uint8_t *p;
	size_t size;

	p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
	if (sbat_levels_parse(hold(p, size), size, &embedded, &why, &why_buf) < 0) {
		CHECK(0, "embedded levels for the update tests");
		return;
	}

	/* no SbatPolicy */
	r = decide(ST_ABSENT, 0, SBAT_POLICY_NONE, true);
	CHECK(is_level(r, A, true, false) && r->u.note[0] == '\0' &&
		      r->u.level.text == embedded.automatic.text,
	      "absent SbatLevel: the automatic level is written, no note");
	r = decide(OLDER, SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_NONE, true);
	CHECK(is_level(r, A, true, false) && note_has(r, "raised", "2024010900") &&
		      note_has(r, "2025021800", NULL),
	      "older stored level: raised to automatic, the note says from and to");
	r = decide(NEWER, SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_NONE, true);
	CHECK(is_level(r, N, false, false) && r->u.level.text == (const char *)r->st.data &&
		      r->u.note[0] == '\0',
	      "newer stored level: kept (it is the one enforced), nothing written");
	r = decide(DEBIAN_LEVEL, SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_NONE, true);
	CHECK(is_level(r, A, false, false) && r->u.level.text == (const char *)r->st.data,
	      "equal stored level: kept, nothing written");
	r = decide("sbat,1,2025021800\nshim,3\n", SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_NONE, true);
	CHECK(is_level(r, A, false, false),
	      "stored level with the same datestamp but other entries: kept (datestamps compare)");
	r = decide(NEWER, 0x7, SBAT_POLICY_NONE, true);
	CHECK(is_level(r, A, true, true) && note_has(r, "0x7", "NV|BS"),
	      "stored level with NV|BS|RT (0x7): deleted first, automatic written, note");
	r = decide(NEWER, 0x1, SBAT_POLICY_NONE, true);
	CHECK(is_level(r, A, true, true), "stored level with NV only (0x1): replaced");
	r = decide(NEWER, 0x2, SBAT_POLICY_NONE, false);
	CHECK(is_level(r, A, true, true), "stored level with BS only (0x2): replaced");
	r = decide(NEWER, 0x27, SBAT_POLICY_NONE, true);
	CHECK(is_level(r, A, true, true), "stored level with NV|BS|RT|authenticated (0x27): replaced");
	r = decide("garbage", SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_NONE, true);
	CHECK(is_level(r, A, true, false) && note_has(r, "malformed", "2025021800"),
	      "malformed stored level: automatic written, note says malformed");
	r = decide("shim,4,2025021800\n", SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_NONE, true);
	CHECK(is_level(r, A, true, false) && note_has(r, "sbat entry", NULL),
	      "stored level without a header: replaced, the parser's reason in the note");
	r = decide("", SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_NONE, true);
	CHECK(is_level(r, A, true, false), "empty stored level: replaced");
	{
		static const char padded[] = NEWER "\0\0\0";
		static struct upd s;

		memset(&s, 0, sizeof(s));
		s.st.present = true;
		s.st.data = hold(padded, sizeof(padded));
		s.st.size = sizeof(padded);
		s.st.attributes = SBAT_LEVEL_ATTRIBUTES;
		sbat_level_update(&embedded, &s.st, SBAT_POLICY_NONE, true, &s.u);
		CHECK(is_level(&s, N, false, false), "stored level with a trailing NUL: accepted, kept");

		s.st.data = NULL;
		s.st.size = 0;
		sbat_level_update(&embedded, &s.st, SBAT_POLICY_NONE, true, &s.u);
		CHECK(is_level(&s, A, true, false), "present but NULL stored data: replaced");

		/* a stored variable larger than any level: refused unread (size only) */
		s.st.data = hold(NEWER, sizeof(NEWER));
		s.st.size = (size_t)UINT32_MAX + 5;
		sbat_level_update(&embedded, &s.st, SBAT_POLICY_NONE, true, &s.u);
		CHECK(is_level(&s, A, true, false) && note_has(&s, "malformed", "limit"),
		      "stored level claiming ~4 GiB: replaced");
	}

	/* SbatPolicy latest / automatic */
	r = decide(OLDER, SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_LATEST, true);
	CHECK(is_level(r, L, true, false) && r->u.level.text == embedded.latest.text &&
		      note_has(r, "raised", "2026120300"),
	      "SbatPolicy latest: the latest level is written over an older one");
	r = decide(ST_ABSENT, 0, SBAT_POLICY_LATEST, false);
	CHECK(is_level(r, L, true, false), "SbatPolicy latest with nothing stored: latest written");
	r = decide(DEBIAN_LEVEL, SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_LATEST, true);
	CHECK(is_level(r, L, true, false), "SbatPolicy latest over the stored automatic: raised");
	r = decide(LATEST_LEVEL, SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_LATEST, true);
	CHECK(is_level(r, L, false, false), "SbatPolicy latest, latest already stored: kept");
	r = decide(NEWER, SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_LATEST, true);
	CHECK(is_level(r, N, false, false) && r->u.level.text == (const char *)r->st.data,
	      "never lowers: SbatPolicy latest with a newer stored level keeps the stored one");
	r = decide(NEWER, 0x7, SBAT_POLICY_LATEST, true);
	CHECK(is_level(r, L, true, true), "SbatPolicy latest over a runtime-visible level: replaced");
	r = decide(OLDER, SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_AUTOMATIC, true);
	CHECK(is_level(r, A, true, false), "SbatPolicy automatic: automatic written over an older one");
	r = decide(LATEST_LEVEL, SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_AUTOMATIC, true);
	CHECK(is_level(r, L, false, false),
	      "never lowers: SbatPolicy automatic with the latest stored keeps latest");

	/* SbatPolicy reset */
	r = decide(OLDER, SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_RESET, true);
	CHECK(is_level(r, A, true, false) && note_has(r, "reset ignored", "Secure Boot is on") &&
		      note_has(r, "raised", NULL),
	      "reset with Secure Boot on: ignored (note), automatic applied as usual");
	r = decide(NEWER, SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_RESET, true);
	CHECK(is_level(r, N, false, false) && note_has(r, "reset ignored", NULL),
	      "reset with Secure Boot on: a newer stored level is kept");
	r = decide(NEWER, SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_RESET, false);
	CHECK(is_level(r, O, true, false) && r->u.level.size == strlen(SBAT_LEVEL_ORIGINAL) &&
		      memcmp(r->u.level.text, SBAT_LEVEL_ORIGINAL, r->u.level.size) == 0 &&
		      note_has(r, "reset", "2021030218"),
	      "reset with Secure Boot off: \"sbat,1,2021030218\\n\" written over a newer level");
	r = decide(NEWER, 0x7, SBAT_POLICY_RESET, false);
	CHECK(is_level(r, O, true, true), "reset with Secure Boot off over NV|BS|RT: deleted first");
	r = decide(ST_ABSENT, 0x7, SBAT_POLICY_RESET, false);
	CHECK(is_level(r, O, true, false), "reset with Secure Boot off, nothing stored: original written");
	r = decide("garbage", SBAT_LEVEL_ATTRIBUTES, SBAT_POLICY_RESET, false);
	CHECK(is_level(r, O, true, false), "reset with Secure Boot off over a malformed level");

	/* unknown policies */
	r = decide(ST_ABSENT, 0, 9, true);
	CHECK(is_level(r, A, true, false) && note_has(r, "SbatPolicy 9 unknown", NULL),
	      "SbatPolicy 9: note, automatic applied");
	r = decide(OLDER, SBAT_LEVEL_ATTRIBUTES, 255, false);
	CHECK(is_level(r, A, true, false) && note_has(r, "SbatPolicy 255 unknown", "; SbatLevel raised"),
	      "SbatPolicy 255 over an older level: both clauses in the note");
	r = decide(NEWER, SBAT_LEVEL_ATTRIBUTES, 4, false);
	CHECK(is_level(r, N, false, false) && note_has(r, "unknown", NULL),
	      "SbatPolicy 4 never resets, even with Secure Boot off");
	{
		bool all = true;

		for (unsigned pol = 0; pol < 256; pol++)
			for (int sb = 0; sb < 2; sb++) {
				bool reset = pol == SBAT_POLICY_RESET && !sb;

				r = decide(NEWER, SBAT_LEVEL_ATTRIBUTES, (uint8_t)pol, sb);
				if (!reparses(r) || (!reset && (r->u.level.datestamp != N || r->u.write)) ||
				    (reset && r->u.level.datestamp != O))
					all = false;
				r = decide(OLDER, SBAT_LEVEL_ATTRIBUTES, (uint8_t)pol, sb);
				if (!reparses(r) || !r->u.write || r->u.delete_first ||
				    (!reset && r->u.level.datestamp < A))
					all = false;
			}
		CHECK(all, "every SbatPolicy byte, Secure Boot on and off: never lowers a valid "
			   "NV|BS level unless reset with Secure Boot off");
	}
}

int main(void)
{
	test_parse_good();
	test_check();
	test_parse_malformed();
	test_levels_parse();
	test_level_update();
	release_all();
	UNIT_EXIT();
}
