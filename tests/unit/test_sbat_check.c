// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * sbat_check with rhboot/shim's semantics: an image's .sbat section against
 * a SbatLevel, each case the two texts and the verdict, with the revocation
 * reason naming what it revoked.
 */
#include "sbat.h"
#include "sbat_level.h"
#include "unit_sbat.h"

#define IMAGE(records) SECTION_HEADER records
#define GRUB_3 \
	IMAGE("grub,3,Free Software Foundation,grub,2.06,https://www.gnu.org/software/grub/\n")

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

#define PASSES  .result = 0
#define REVOKED .result = -1

static const struct check_case {
	const char *name;
	const char *image, *level;
	int result;            /* 0 passes, -1 revoked */
	const char *reason[2]; /* revoked: parts of the reason */
} cases[] = {
	{ "shim 4 against level shim,4: equal passes", SHIM_SECTION, DEBIAN_LEVEL, PASSES },
	{ "grub 5 against level grub,5: equal passes", GRUB_SECTION, DEBIAN_LEVEL, PASSES },
	{ "grub 5 against level grub,3: higher passes", GRUB_SECTION,
	  "sbat,1,2024010100\ngrub,3\n", PASSES },
	{ "grub 3 against level grub,5: revoked, naming the component, both generations, the level",
	  GRUB_3, DEBIAN_LEVEL, REVOKED,
	  .reason = { "component grub generation 3", "2025021800 requires 5" } },
	{ "component absent from the level passes", IMAGE("lockshim,1,a,b,c,d\n"), DEBIAN_LEVEL,
	  PASSES },
	{ "grub.debian is not grub: a prefix of a name does not match",
	  IMAGE("grub.debian,1,a,b,c,d\n"), DEBIAN_LEVEL, PASSES },
	{ "grub is not grub.debian: the level's longer name does not match",
	  IMAGE("grub,9,a,b,c,d\n"), "sbat,1,2\ngrub.debian,5\n", PASSES },
	{ "names compare case-sensitively (GRUB is not grub)", IMAGE("GRUB,1,a,b,c,d\n"),
	  DEBIAN_LEVEL, PASSES },
	{ "image with only the sbat entry passes a level with sbat,1", IMAGE(""), DEBIAN_LEVEL,
	  PASSES },

	/* the sbat entries compare like any other */
	{ "level sbat,2 revokes an image whose sbat entry is 1", SHIM_SECTION,
	  "sbat,2,2030010100\n", REVOKED,
	  .reason = { "component sbat generation 1", "requires 2" } },
	{ "level sbat,2 passes an image with sbat,2", "sbat,2,SBAT Version,sbat,1,https://x/\n",
	  "sbat,2,2030010100\n", PASSES },
	{ "level sbat,2 passes an image with sbat,3", "sbat,3,SBAT Version,sbat,1,https://x/\n",
	  "sbat,2,2030010100\n", PASSES },
	{ "the original level revokes nothing: shim", SHIM_SECTION, SBAT_LEVEL_ORIGINAL, PASSES },
	{ "the original level revokes nothing: grub", GRUB_SECTION, SBAT_LEVEL_ORIGINAL, PASSES },

	/* several components */
	{ "several components: the one below its level is named (grub.debian 3 < 4)",
	  IMAGE("grub,5,a,b,c,d\ngrub.debian,3,a,b,c,d\ngrub.peimage,2,a,b,c,d\n"),
	  "sbat,1,2025030100\nshim,4\ngrub,5\ngrub.debian,4\n", REVOKED,
	  .reason = { "component grub.debian generation 3", "requires 4" } },
	{ "several components: the image's last component revoked by the level's last entry",
	  IMAGE("shim,4,a,b,c,d\ngrub,5,a,b,c,d\nlinux,1,a,b,c,d\n"),
	  "sbat,1,2025030100\nshim,4\ngrub,5\nlinux,2\n", REVOKED,
	  .reason = { "component linux generation 1" } },
	{ "several components, all at their level: passes",
	  IMAGE("shim,4,a,b,c,d\ngrub,5,a,b,c,d\nlinux,2,a,b,c,d\n"),
	  "sbat,1,2025030100\nshim,4\ngrub,5\nlinux,2\n", PASSES },
	{ "one revoked component suffices when another is newer",
	  IMAGE("shim,9,a,b,c,d\ngrub,1,a,b,c,d\n"), "sbat,1,2025030100\nshim,4\ngrub,5\n",
	  REVOKED, .reason = { "grub" } },
	{ "a component listed twice: the lower generation revokes",
	  IMAGE("grub,9,a,b,c,d\ngrub,2,a,b,c,d\n"), DEBIAN_LEVEL, REVOKED,
	  .reason = { "generation 2" } },
	{ "a level entry listed twice: the higher generation applies", GRUB_SECTION,
	  "sbat,1,2025030100\ngrub,3\ngrub,6\n", REVOKED, .reason = { "requires 6" } },
	{ "level generation 4294967295 revokes grub 5", GRUB_SECTION,
	  "sbat,1,1\ngrub,4294967295\n", REVOKED },
	{ "generation 4294967295 against itself passes", IMAGE("grub,4294967295,a,b,c,d\n"),
	  "sbat,1,1\ngrub,4294967295\n", PASSES },
	{ "CRLF image and level still compared",
	  "sbat,1,SBAT Version,sbat,1,https://x/\r\ngrub,3,a,b,c,d\r\n",
	  "sbat,1,2025021800\r\ngrub,5\r\n", REVOKED },
};

static void test_cases(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct check_case *c = &cases[i];

		if (!CHECK_EQ(check(c->image, c->level), c->result, c->name)) {
			printf("# reason: '%s'\n", why);
			continue;
		}
		for (int r = 0; r < 2 && c->reason[r]; r++)
			CHECK_STRSTR(why, c->reason[r], unit_name("%s: the reason", c->name));
	}
}

static void test_reason(void)
{
	char *name = repeat('g', SBAT_MAX_FIELD);

	if (CHECK_EQ(check(GRUB_3, DEBIAN_LEVEL), -1, "grub 3 against level grub,5: revoked"))
		CHECK_STREQ(why, "SBAT revokes component grub generation 3 (SbatLevel 2025021800 "
				 "requires 5)",
			    "revocation reason text exact");

	CHECK_EQ(check(fmt("sbat,1,SBAT Version,sbat,1,https://x/\n%s,3,a,b,c,d\n", name),
		       fmt("sbat,1,2\n%s,6\n", name)),
		 -1, "a long component name revoked");
	CHECK_PTR_EQ(why, why_buf.text, "its reason is formatted into the reason buffer");
	CHECK_EQ(strlen(why), sizeof(why_buf.text) - 1,
		 "revocation reason truncated to the reason buffer, terminated");
}

/* A section padded with NULs, as in an image, is compared up to its first NUL. */
static void test_padded_section(void)
{
	static const char section[] = GRUB_SECTION "\0\0\0\0";
	struct sbat image, level;

	CHECK_EQ(parse_n(section, sizeof(section), SBAT_SECTION, &image), 0,
		 "NUL-padded section parses");
	CHECK_EQ(parse("sbat,1,2\ngrub,6\n", SBAT_LEVEL, &level), 0, "level grub,6 parses");
	CHECK_EQ(sbat_check(&image, &level, &why, &why_buf), -1,
		 "NUL-padded section still compared");
}

int main(void)
{
	test_cases();
	test_reason();
	test_padded_section();
	release_all();
	UNIT_EXIT();
}
