// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * The levels lockshim carries: its .sbatlevel payload (sbat_levels_parse),
 * whole, padded, and broken in each field: format, offsets, termination and
 * the level texts.
 */
#include "sbat.h"
#include "sbat_level.h"
#include "unit_sbat.h"

static void test_levels_good(void)
{
	struct sbat_levels lv;
	uint8_t *p, *copy;
	size_t size;

	p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
	copy = hold(p, size);
	if (CHECK_EQ(sbat_levels_parse(copy, size, &lv, &why, &why_buf), 0,
		     ".sbatlevel payload parses")) {
		CHECK_EQ(lv.automatic.datestamp, 2025021800u, "automatic level: 2025021800");
		CHECK_EQ(lv.latest.datestamp, 2026120600u, "latest level: 2026120600");
		CHECK_EQ(lv.automatic.n_records, 3, "automatic level: 3 records");
		CHECK_EQ(lv.latest.n_records, 4, "latest level: 4 records");
		CHECK_EQ(lv.automatic.kind, SBAT_LEVEL, "automatic level: a SbatLevel");
		CHECK_EQ(lv.latest.kind, SBAT_LEVEL, "latest level: a SbatLevel");
		CHECK_PTR_EQ(lv.automatic.text, copy + 12,
			     "automatic level points into the payload");
		CHECK_EQ(lv.automatic.size, strlen(DEBIAN_LEVEL),
			 "automatic level: without its NUL");
		CHECK_PTR_EQ(lv.latest.text, copy + 12 + sizeof(DEBIAN_LEVEL),
			     "latest level points into the payload, after the automatic's NUL");
	}

	/* both offsets at one level */
	p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
	put32(p + 8, 8);
	if (CHECK_EQ(levels_parse(p, size, &lv), 0, "both offsets naming one level accepted"))
		CHECK_EQ(lv.latest.datestamp, 2025021800u,
			 "both offsets naming one level: latest is the automatic");

	/* padding after the last level, as a section has */
	copy = keep(calloc(1, size + 64));
	memcpy(copy, payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size), size);
	CHECK_EQ(levels_parse(copy, size + 64, &lv), 0, "zero padding after the levels accepted");
}

/* Payloads refused; each is payload(0, DEBIAN_LEVEL, LATEST_LEVEL) but for what a case sets. */
static const struct levels_case {
	const char *name;
	uint32_t format;
	const char *automatic, *latest; /* NULL: DEBIAN_LEVEL, LATEST_LEVEL */
	size_t field;                   /* 4 or 8: the offset to overwrite with @offset */
	uint32_t offset;
	size_t size;                    /* the bytes passed; 0: the whole payload */
	const char *reason;
} refusals[] = {
	{ "format 1 refused", .format = 1, .reason = "format 1" },
	{ "format 256 (big-endian 1?) refused", .format = 0x100, .reason = "format 256" },
	{ "11-byte payload refused", .size = 11, .reason = "11 bytes, too short" },
	{ "12-byte payload (offsets past the end) refused", .size = 12,
	  .reason = "outside the section" },
	{ "offset at exactly the end refused", .field = 8, .offset = PAYLOAD_SIZE - 4,
	  .reason = "outside the section" },
	{ "offset at the final NUL: empty level refused", .field = 8, .offset = PAYLOAD_SIZE - 5,
	  .reason = "latest level: no records" },
	{ "offset 0 (the offsets themselves as text) refused", .field = 4, .offset = 0,
	  .reason = "automatic level" },
	{ "offset inside a level (bat,1,...) refused", .field = 4, .offset = 9,
	  .reason = "automatic level" },
	{ "latest level without its NUL refused", .size = PAYLOAD_SIZE - 1,
	  .reason = "latest level is not NUL-terminated" },
	{ "automatic level without the sbat header refused, with the parser's reason",
	  .automatic = "shim,4\ngrub,5\n", .reason = ".sbatlevel: automatic level: line 1" },
	{ "latest level with a bad datestamp refused", .latest = "sbat,1,2026x\n",
	  .reason = "latest level: line 1: datestamp" },
	{ "latest level with a non-ASCII byte refused", .latest = "sbat,1,2026120600\ngrub,\xff\n",
	  .reason = "latest level" },
	{ "empty automatic level refused", .automatic = "",
	  .reason = "automatic level: no records" },
	{ "a .sbat section as a level refused", .automatic = SHIM_SECTION,
	  .reason = "automatic level" },
};

static void check_levels_refused(const struct levels_case *c)
{
	struct sbat_levels lv;
	size_t size;
	uint8_t *p = payload(c->format, c->automatic ? c->automatic : DEBIAN_LEVEL,
			     c->latest ? c->latest : LATEST_LEVEL, &size);

	if (c->field)
		put32(p + c->field, c->offset);
	if (CHECK_EQ(levels_parse(p, c->size ? c->size : size, &lv), -1, c->name))
		CHECK_STRSTR(why, c->reason, unit_name("%s: the reason", c->name));
}

static void test_levels_refused(void)
{
	/* offsets near UINT32_MAX and past the end, in either field */
	static const uint32_t bad[] = { 0xffffffffu, 0xfffffffcu, 0xfffffffbu, 0x80000000u,
					0x10000u };
	struct sbat_levels lv;
	uint8_t *p;
	size_t size;

	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++)
		check_levels_refused(&refusals[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct levels_case in[] = {
			{ fmt("automatic offset 0x%x refused", bad[i]), .field = 4,
			  .offset = bad[i], .reason = "automatic offset" },
			{ fmt("latest offset 0x%x refused", bad[i]), .field = 8,
			  .offset = bad[i], .reason = "latest offset" },
		};

		check_levels_refused(&in[0]);
		check_levels_refused(&in[1]);
	}

	if (CHECK_EQ(levels_parse(NULL, 0, &lv), -1, "NULL payload refused"))
		CHECK_STRSTR(why, "too short", "NULL payload refused: the reason");
	if (CHECK_EQ(levels_parse((const uint8_t *)"", 0, &lv), -1, "empty payload refused"))
		CHECK_STRSTR(why, "0 bytes, too short", "empty payload refused: the reason");

	/* the automatic level's NUL made a newline, both offsets at it, cut after it */
	p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
	p[12 + strlen(DEBIAN_LEVEL)] = '\n';
	put32(p + 8, 8);
	if (CHECK_EQ(levels_parse(p, 12 + sizeof(DEBIAN_LEVEL), &lv), -1,
		     "automatic level without any NUL refused"))
		CHECK_STRSTR(why, "not NUL-terminated",
			     "automatic level without any NUL refused: the reason");
}

int main(void)
{
	test_levels_good();
	test_levels_refused();
	release_all();
	UNIT_EXIT();
}
