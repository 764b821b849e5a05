// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * sbat_parse on good and hostile text: each case a text and what it must
 * give, the records it holds or the reason it is refused. The limits on
 * sizes, lines, fields and records are in test_sbat_limits.c.
 */
#include "sbat.h"
#include "sbat_level.h"
#include "unit_sbat.h"

static const struct parse_case cases[] = {
	/* real texts */
	{ "shim's .sbat parses", TEXT(SHIM_SECTION), SBAT_SECTION, 0,
	  .records = "sbat,1 shim,4 shim.debian,1" },
	{ "Debian shim 16.1's SbatLevel parses", TEXT(DEBIAN_LEVEL), SBAT_LEVEL, 0,
	  .datestamp = 2025021800u, .records = "sbat,1 shim,4 grub,5" },
	{ "SBAT_LEVEL_ORIGINAL parses", TEXT(SBAT_LEVEL_ORIGINAL), SBAT_LEVEL, 0,
	  .datestamp = 2021030218u, .records = "sbat,1" },
	{ "a latest level with lockshim parses", TEXT(LATEST_LEVEL), SBAT_LEVEL, 0,
	  .datestamp = 2026120600u, .records = "sbat,1 shim,4 grub,5 lockshim,2" },

	/* accepted variations */
	{ "no final newline accepted", TEXT("sbat,1,2021030218"), SBAT_LEVEL, 0,
	  .datestamp = 2021030218u, .records = "sbat,1" },
	{ "extra level fields accepted", TEXT("sbat,1,2021030218,extra,fields\nshim,4,more\n"),
	  SBAT_LEVEL, 0, .datestamp = 2021030218u, .records = "sbat,1 shim,4" },
	{ "extra section fields accepted", TEXT("sbat,1,x,y,z,w,extra,fields\ngrub,1,a,b,c,d,e\n"),
	  SBAT_SECTION, 0, .records = "sbat,1 grub,1" },
	{ "spaces and punctuation inside fields accepted",
	  TEXT(SECTION_HEADER "grub,1,a b,c d,2.06 (x),u\n"), SBAT_SECTION, 0,
	  .records = "sbat,1 grub,1" },
	{ "generation 4294967295 accepted", TEXT("sbat,4294967295,1\nshim,4294967295\n"),
	  SBAT_LEVEL, 0, .datestamp = 1, .records = "sbat,4294967295 shim,4294967295" },
	{ "generation and datestamp 0 accepted", TEXT("sbat,0,0\nshim,0\n"), SBAT_LEVEL, 0,
	  .datestamp = 0, .records = "sbat,0 shim,0" },
	{ "10-digit generation with leading zeros accepted", TEXT("sbat,0000000001,2021030218\n"),
	  SBAT_LEVEL, 0, .datestamp = 2021030218u, .records = "sbat,1" },
	{ "19-digit datestamp accepted", TEXT("sbat,1,9999999999999999999\n"), SBAT_LEVEL, 0,
	  .datestamp = 9999999999999999999ull, .records = "sbat,1" },
	{ "level record with 2 fields accepted", TEXT("sbat,1,2025021800\nshim,4\n"), SBAT_LEVEL, 0,
	  .datestamp = 2025021800u, .records = "sbat,1 shim,4" },
	{ "a section's third field is not a datestamp", TEXT(SECTION_HEADER), SBAT_SECTION, 0,
	  .records = "sbat,1" },

	/* CRLF and blank lines */
	{ "CRLF line endings accepted; the CR is not part of any field",
	  TEXT("sbat,1,2025021800\r\nshim,4\r\ngrub,5\r\n"), SBAT_LEVEL, 0,
	  .datestamp = 2025021800u, .records = "sbat,1 shim,4 grub,5" },
	{ "blank lines (LF and CRLF) skipped, not counted as records",
	  TEXT("\n\r\n\nsbat,1,2025021800\n\n\nshim,4\r\n\r\n\ngrub,5\n\n"), SBAT_LEVEL, 0,
	  .datestamp = 2025021800u, .records = "sbat,1 shim,4 grub,5" },

	/* NUL padding */
	{ "trailing NUL padding accepted; size stops at the first NUL",
	  TEXT(DEBIAN_LEVEL "\0\0\0\0\0\0\0\0"), SBAT_LEVEL, 0, .datestamp = 2025021800u,
	  .records = "sbat,1 shim,4 grub,5" },
	{ "single terminating NUL accepted", TEXT("sbat,1,2025021800\0"), SBAT_LEVEL, 0,
	  .datestamp = 2025021800u, .records = "sbat,1" },

	/* the header */
	{ "empty section refused", TEXT(""), SBAT_SECTION, -1, "no records" },
	{ "empty level refused", TEXT(""), SBAT_LEVEL, -1, "no records" },
	{ "only blank lines refused", TEXT("\n\r\n\n"), SBAT_LEVEL, -1, "no records" },
	{ "section without the sbat header refused",
	  TEXT("shim,4,UEFI shim,shim,1,https://github.com/rhboot/shim\n"), SBAT_SECTION, -1,
	  "sbat entry" },
	{ "level without the sbat header refused (as a 2-field header)", TEXT("shim,4\ngrub,5\n"),
	  SBAT_LEVEL, -1, "line 1" },
	{ "level whose first record is shim refused, naming it",
	  TEXT("shim,4,2025021800\ngrub,5\n"), SBAT_LEVEL, -1,
	  "the first record must be the sbat entry, not 'shim'" },
	{ "section with the sbat header second refused, naming line and record",
	  TEXT("grub,5,a,b,c,d\n" SECTION_HEADER), SBAT_SECTION, -1,
	  "line 1: the first record must be the sbat entry, not 'grub'" },
	{ "level with the sbat header second refused",
	  TEXT("shim,4,2025021800\nsbat,1,2025021800\n"), SBAT_LEVEL, -1, "sbat entry" },
	{ "header named SBAT (not sbat) refused; blank lines counted in the line number",
	  TEXT("\n\nSBAT,1,2025021800\n"), SBAT_LEVEL, -1, "line 3" },
	{ "header name sbatx refused", TEXT("sbatx,1,2025021800\n"), SBAT_LEVEL, -1, "sbat entry" },
	{ "header name sba refused", TEXT("sba,1,2025021800\n"), SBAT_LEVEL, -1, "sbat entry" },

	/* field counts */
	{ "section header with 5 fields refused", TEXT("sbat,1,SBAT Version,sbat,1\n"),
	  SBAT_SECTION, -1, "5 fields" },
	{ "section record with 5 fields refused, reason exact",
	  TEXT(SECTION_HEADER "grub,5,a,b,c\n"), SBAT_SECTION, -1,
	  "line 2 has 5 fields, a .sbat record needs at least 6" },
	{ "section record with 1 field refused", TEXT(SECTION_HEADER "grub\n"), SBAT_SECTION, -1,
	  "1 fields" },
	{ "level header with 2 fields refused", TEXT("sbat,1\n"), SBAT_LEVEL, -1,
	  "the SbatLevel header needs at least 3" },
	{ "level header with 1 field refused", TEXT("sbat\n"), SBAT_LEVEL, -1, "1 fields" },
	{ "level record with 1 field refused", TEXT("sbat,1,2025021800\nshim\n"), SBAT_LEVEL, -1,
	  "a SbatLevel record needs at least 2" },
	{ "a SbatLevel is not a .sbat section", TEXT(DEBIAN_LEVEL), SBAT_SECTION, -1,
	  "needs at least 6" },

	/* component names */
	{ "section record with an empty name refused", TEXT(SECTION_HEADER ",5,a,b,c,d\n"),
	  SBAT_SECTION, -1, "line 2: empty component name" },
	{ "level record with an empty name refused", TEXT("sbat,1,2025021800\n,5\n"), SBAT_LEVEL,
	  -1, "empty component name" },
	{ "header with an empty name refused", TEXT(",1,2025021800\n"), SBAT_LEVEL, -1,
	  "empty component name" },

	/* generations (more in test_generations) and datestamps */
	{ "generation 4294967296: reason exact", TEXT("sbat,1,2025021800\ngrub,4294967296\n"),
	  SBAT_LEVEL, -1, "line 2: generation '4294967296' is not a number from 0 to 4294967295" },
	{ "non-numeric datestamp refused", TEXT("sbat,1,2025-02-18\n"), SBAT_LEVEL, -1,
	  "datestamp '2025-02-18' is not a number" },
	{ "empty datestamp refused", TEXT("sbat,1,\n"), SBAT_LEVEL, -1, "datestamp" },
	{ "empty datestamp before another field refused", TEXT("sbat,1,,shim\n"), SBAT_LEVEL, -1,
	  "datestamp" },
	{ "negative datestamp refused", TEXT("sbat,1,-2025021800\n"), SBAT_LEVEL, -1,
	  "datestamp" },
	{ "20-digit datestamp 2^64 refused (no 64-bit overflow)",
	  TEXT("sbat,1,18446744073709551616\n"), SBAT_LEVEL, -1, "datestamp" },
	{ "20-digit datestamp of nines refused (no 64-bit overflow)",
	  TEXT("sbat,1,99999999999999999999\n"), SBAT_LEVEL, -1, "datestamp" },

	/* NULs */
	{ "embedded NUL followed by a record refused", TEXT("sbat,1,2025021800\n\0grub,5\n"),
	  SBAT_LEVEL, -1, "follows a NUL" },
	{ "one non-NUL byte after NUL padding refused, reason exact",
	  TEXT("sbat,1,2025021800\n\0\0\0x"), SBAT_LEVEL, -1,
	  "byte 0x78 at offset 21 follows a NUL" },
	{ "NUL inside a field refused", TEXT("sbat,1,2025\0" "021800\n"), SBAT_LEVEL, -1,
	  "follows a NUL" },
	{ "section text after a NUL refused", TEXT(SHIM_SECTION "\0" SHIM_SECTION), SBAT_SECTION,
	  -1, "follows a NUL" },
	{ "only NULs refused", TEXT("\0\0\0\0\0\0\0\0"), SBAT_LEVEL, -1, "no records" },
	{ "leading NUL then text refused", TEXT("\0sbat,1,2\n"), SBAT_LEVEL, -1, "follows a NUL" },

	/* bytes that are not printable ASCII (more in test_bytes) */
	{ "a CR that does not end a line refused, naming line and column",
	  TEXT("sbat,1,2025021800\ngrub,5\rshim,4\n"), SBAT_LEVEL, -1,
	  "line 2: byte 0x0d at column 7 is not printable ASCII" },
	{ "CR CR LF refused", TEXT("sbat,1,2025021800\r\r\n"), SBAT_LEVEL, -1, "0x0d" },
	{ "control byte at the end of a line refused", TEXT("sbat,1,2025021800\nshim,4\x01\n"),
	  SBAT_LEVEL, -1, "0x01" },
};

/* Non-numeric, negative, empty, 11-digit and >4294967295 generations, wherever they stand. */
static void test_generations(void)
{
	static const char *const bad[] = { "x", "-1", "", "12345678901", "4294967296",
					   "99999999999", "+1", " 1", "1 ", "0x10", "1.0",
					   "18446744073709551617", "00000000001" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *section = fmt(SECTION_HEADER "grub,%s,a,b,c,d\n", bad[i]);
		const char *record = fmt("sbat,1,2025021800\ngrub,%s\n", bad[i]);
		const char *header = fmt("sbat,%s,2025021800\n", bad[i]);
		const struct parse_case in[] = {
			{ .name = fmt("generation '%s' in a section refused", bad[i]),
			  .text = section, .size = strlen(section), .kind = SBAT_SECTION,
			  .result = -1, .reason = "is not a number from 0 to 4294967295" },
			{ .name = fmt("generation '%s' in a level record refused", bad[i]),
			  .text = record, .size = strlen(record), .kind = SBAT_LEVEL,
			  .result = -1, .reason = "is not a number" },
			{ .name = fmt("generation '%s' in the level header refused", bad[i]),
			  .text = header, .size = strlen(header), .kind = SBAT_LEVEL,
			  .result = -1, .reason = "is not a number" },
		};

		for (size_t j = 0; j < sizeof(in) / sizeof(in[0]); j++)
			check_parse(&in[j]);
	}
}

/* Control, DEL and non-ASCII bytes refused, naming the byte. */
static void test_bytes(void)
{
	static const unsigned char bad[] = { 0x01, 0x09, 0x0b, 0x0c, 0x1b, 0x1f,
					     0x7f, 0x80, 0xc3, 0xff };

	for (size_t i = 0; i < sizeof(bad); i++) {
		char *section = fmt(SECTION_HEADER "grub,5,a,bXb,c,d\n");
		char *level = fmt("sbat,1,2025021800\ngrXb,5\n");
		const char *reason = fmt("byte 0x%02x", bad[i]);
		const struct parse_case in[] = {
			{ .name = fmt("byte 0x%02x in a section field refused", bad[i]),
			  .text = section, .size = strlen(section), .kind = SBAT_SECTION,
			  .result = -1, .reason = reason },
			{ .name = fmt("byte 0x%02x in a level name refused", bad[i]),
			  .text = level, .size = strlen(level), .kind = SBAT_LEVEL,
			  .result = -1, .reason = reason },
		};

		/* the sizes above stay right: X becomes another single byte */
		*strchr(section, 'X') = (char)bad[i];
		*strchr(level, 'X') = (char)bad[i];
		for (size_t j = 0; j < sizeof(in) / sizeof(in[0]); j++)
			check_parse(&in[j]);
	}
}

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_parse(&cases[i]);
	test_generations();
	test_bytes();
	release_all();
	UNIT_EXIT();
}
