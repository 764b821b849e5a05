// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * sbat_parse at its limits: field and line lengths, the record count, the
 * size of the text (refused before reading when too large), NULL input, and
 * what a refused parse leaves behind.
 */
#include "sbat.h"
#include "unit_sbat.h"

#define SECTION_RECORD(fields) SECTION_HEADER fields "\n"

/* Texts just inside and just past each limit on a field or a line. */
static void test_lengths(void)
{
	const char *name = repeat('n', SBAT_MAX_FIELD), *url = repeat('u', SBAT_MAX_FIELD);
	/* "grub,5," and a prefix of fields of 255 bytes: 1024 and 1025 bytes in all */
	const char *f = repeat('v', 255), *fields = fmt("%s,%s,%s,%s,xy", f, f, f, f);
	const char *line1024 = fmt(SECTION_RECORD("grub,5,%.*s"), SBAT_MAX_LINE - 7, fields);
	const char *line1025 = fmt(SECTION_RECORD("grub,5,%.*s"), SBAT_MAX_LINE - 6, fields);
	const char *crlf1024 = fmt("sbat,1,SBAT Version,sbat,1,https://x/\r\ngrub,5,%.*s\r\n",
				   SBAT_MAX_LINE - 7, fields);
	const struct parse_case cases[] = {
		{ .name = "256-byte name accepted",
		  .text = fmt(SECTION_RECORD("%s,1,a,b,c,d"), name), .kind = SBAT_SECTION,
		  .result = 0, .records = fmt("sbat,1 %s,1", name) },
		{ .name = "257-byte name refused",
		  .text = fmt(SECTION_RECORD("%sn,1,a,b,c,d"), name), .kind = SBAT_SECTION,
		  .result = -1, .reason = "line 2: a field is longer than 256 bytes" },
		{ .name = "257-byte URL (last field) refused",
		  .text = fmt(SECTION_RECORD("grub,5,a,b,c,%su"), url), .kind = SBAT_SECTION,
		  .result = -1, .reason = "longer than 256" },
		{ .name = "256-byte URL (last field) accepted",
		  .text = fmt(SECTION_RECORD("grub,5,a,b,c,%s"), url), .kind = SBAT_SECTION,
		  .result = 0, .records = "sbat,1 grub,5" },
		{ .name = "257-digit datestamp refused as an over-long field",
		  .text = fmt("sbat,1,%s\n", repeat('1', SBAT_MAX_FIELD + 1)), .kind = SBAT_LEVEL,
		  .result = -1, .reason = "longer than 256" },
		{ .name = "line of exactly 1024 bytes accepted", .text = line1024,
		  .kind = SBAT_SECTION, .result = 0, .records = "sbat,1 grub,5" },
		{ .name = "line of 1025 bytes (fields all short enough) refused", .text = line1025,
		  .kind = SBAT_SECTION, .result = -1,
		  .reason = "line 2 is longer than 1024 bytes" },
		{ .name = "line of 1024 bytes plus CR LF accepted", .text = crlf1024,
		  .kind = SBAT_SECTION, .result = 0, .records = "sbat,1 grub,5" },
		{ .name = "line of 4000 commas refused",
		  .text = fmt("sbat,1,2025021800\n%s\n", repeat(',', 4000)), .kind = SBAT_LEVEL,
		  .result = -1, .reason = "longer than" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct parse_case c = cases[i];

		c.size = strlen(c.text);
		check_parse(&c);
	}
}

static void test_record_count(void)
{
	size_t n = 18 + SBAT_MAX_RECORDS * 16 + 1;
	char *text = keep(malloc(n)), *p = text;
	struct parse_case c = { .name = "513 records refused", .kind = SBAT_LEVEL, .result = -1,
				.reason = "more than 512 records" };
	struct sbat s;

	p += sprintf(p, "sbat,1,2025021800\n");
	for (int i = 1; i < SBAT_MAX_RECORDS; i++)
		p += sprintf(p, "c%d,1\n", i);
	if (CHECK_EQ(parse(text, SBAT_LEVEL, &s), 0, "exactly 512 records accepted"))
		CHECK_EQ(s.n_records, SBAT_MAX_RECORDS, "exactly 512 records counted");
	sprintf(p, "c%d,1\n", SBAT_MAX_RECORDS);
	c.text = text;
	c.size = strlen(text);
	check_parse(&c);

	text = keep(malloc(SBAT_MAX_SIZE + 1));
	p = text + sprintf(text, "sbat,1,2025021800\n");
	while (p - text < SBAT_MAX_SIZE - 8)
		*p++ = '\n';
	*p = '\0';
	c = (struct parse_case){ .name = "thousands of blank lines are not records", .text = text,
				 .size = strlen(text), .kind = SBAT_LEVEL, .result = 0,
				 .datestamp = 2025021800u, .records = "sbat,1" };
	check_parse(&c);
}

static void test_sizes(void)
{
	/* sbat_parse refuses on the size alone, before reading: a small real buffer */
	static const size_t huge[] = { (size_t)UINT32_MAX - 1, (size_t)UINT32_MAX,
				       (size_t)UINT32_MAX + 1, (size_t)4 << 30,
				       SIZE_MAX / 2, SIZE_MAX - 1, SIZE_MAX };
	char *big = keep(calloc(1, SBAT_MAX_SIZE + 1));
	char *buf = hold(DEBIAN_LEVEL, sizeof(DEBIAN_LEVEL));
	struct parse_case c = { .name = "exactly 64 KiB (NUL-padded) accepted", .text = big,
				.size = SBAT_MAX_SIZE, .kind = SBAT_LEVEL, .result = 0,
				.datestamp = 2025021800u, .records = "sbat,1 shim,4 grub,5" };
	struct sbat s;

	memcpy(big, DEBIAN_LEVEL, strlen(DEBIAN_LEVEL));
	check_parse(&c);
	c = (struct parse_case){ .name = "64 KiB + 1 refused", .text = big,
				 .size = SBAT_MAX_SIZE + 1, .kind = SBAT_LEVEL, .result = -1,
				 .reason = "65537 bytes, more than the limit" };
	check_parse(&c);

	for (size_t i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
		why = "";
		if (CHECK_EQ(sbat_parse(buf, huge[i], SBAT_LEVEL, &s, &why, &why_buf), -1,
			     unit_name("size %zu: a level refused before reading", huge[i])))
			CHECK_STRSTR(why, "more than the limit",
				     unit_name("size %zu: the reason", huge[i]));
		CHECK_EQ(sbat_parse(buf, huge[i], SBAT_SECTION, &s, &why, &why_buf), -1,
			 unit_name("size %zu: a section refused before reading", huge[i]));
	}
	why = "";
	sbat_parse(buf, SIZE_MAX, SBAT_LEVEL, &s, &why, &why_buf);
	CHECK_STRSTR(why, "18446744073709551615 bytes", "SIZE_MAX printed in full");
}

static void test_null_and_leftovers(void)
{
	struct sbat_record rec;
	struct sbat s, z;
	size_t pos;
	char *text;

	why = "";
	CHECK_EQ(sbat_parse(NULL, 0, SBAT_LEVEL, &s, &why, &why_buf), -1,
		 "NULL data with size 0 refused");
	CHECK_NE(strlen(why), 0, "NULL data with size 0 refused, with a reason");

	parse(DEBIAN_LEVEL, SBAT_LEVEL, &s); /* something to clear */
	why = "";
	CHECK_EQ(sbat_parse(NULL, 0, SBAT_SECTION, &s, &why, &why_buf), -1,
		 "NULL section refused");
	CHECK_NE(strlen(why), 0, "NULL section refused, with a reason");
	CHECK_PTR_EQ(s.text, NULL, "NULL section refused, output cleared: no text");
	CHECK_EQ(s.n_records, 0, "NULL section refused, output cleared: no records");

	memset(&z, 0, sizeof(z));
	pos = 0;
	CHECK(!sbat_next_record(&z, &pos, &rec), "sbat_next_record on an empty struct: none");

	/* a refused parse clears the output; a long reason is truncated to the reason buffer */
	text = fmt("sbat,1,2\ngrub,%s\n", repeat('5', SBAT_MAX_FIELD));
	CHECK_EQ(sbat_parse(text, strlen(text), SBAT_LEVEL, &s, &why, &why_buf), -1,
		 "an overlong generation refused");
	CHECK_PTR_EQ(why, why_buf.text, "its reason is formatted into the reason buffer");
	CHECK_EQ(strlen(why), sizeof(why_buf.text) - 1,
		 "reason truncated to the reason buffer, terminated");
	CHECK_PTR_EQ(s.text, NULL, "refused parse leaves nothing to walk: no text");
	CHECK_EQ(s.size, 0, "refused parse leaves nothing to walk: size 0");

	text = fmt("sbat,1,2025021800\nshim,4\n%s\n", repeat('x', 300));
	pos = 0;
	CHECK_EQ(sbat_parse(text, strlen(text), SBAT_LEVEL, &s, &why, &why_buf), -1,
		 "a bad record after good ones refused");
	CHECK(!sbat_next_record(&s, &pos, &rec),
	      "refused after good records: sbat_next_record finds none");
}

int main(void)
{
	test_lengths();
	test_record_count();
	test_sizes();
	test_null_and_leftovers();
	release_all();
	UNIT_EXIT();
}
