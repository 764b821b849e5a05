// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * Keeping SbatLevel current (sbat_level_update): each case a stored
 * variable, its attributes, SbatPolicy and Secure Boot, and the decision that
 * must follow: the level enforced, where it comes from, what is written.
 */
#include "sbat.h"
#include "sbat_level.h"
#include "unit_sbat.h"

static struct sbat_levels embedded;

#define OLDER "sbat,1,2024010900\nshim,3\ngrub,3\n"
#define NEWER "sbat,1,2027010100\nshim,5\ngrub,6\n"

/* The datestamps of the levels a decision can choose. */
#define DATE_AUTOMATIC 2025021800u
#define DATE_LATEST    2026120600u
#define DATE_ORIGINAL  2021030218u
#define DATE_NEWER     2027010100u

/* What a decision must do with the stored variable. */
#define KEEP    false, false /* enforce the level, write nothing */
#define WRITE   true, false  /* write the level over the stored one */
#define REPLACE true, true   /* delete the stored variable, then write */

#define NV_BS  SBAT_LEVEL_ATTRIBUTES
#define SB_ON  true
#define SB_OFF false

/* Where the level enforced must be. */
enum level_source { FROM_AUTOMATIC = 1, FROM_LATEST, FROM_STORED, FROM_ORIGINAL };
#define FROM(where) .from = FROM_##where

struct update_case {
	const char *name;
	const char *stored; /* SbatLevel's text; NULL: absent */
	uint32_t attributes;
	uint8_t policy;
	bool secure_boot;
	uint64_t datestamp; /* of the level enforced from now on */
	bool write, delete_first;
	enum level_source from;
	bool quiet;          /* the note must be empty */
	const char *note[3]; /* parts of the note */
};

/* Each: name; stored text, attributes, SbatPolicy, Secure Boot; the decision. */
static const struct update_case updates[] = {
	/* no SbatPolicy */
	{ "absent SbatLevel: the automatic level is written, no note",
	  NULL, 0, SBAT_POLICY_NONE, SB_ON,
	  DATE_AUTOMATIC, WRITE, FROM(AUTOMATIC), .quiet = true },
	{ "older stored level: raised to automatic, the note says from and to",
	  OLDER, NV_BS, SBAT_POLICY_NONE, SB_ON,
	  DATE_AUTOMATIC, WRITE, FROM(AUTOMATIC),
	  .note = { "raised", "2024010900", "2025021800" } },
	{ "newer stored level: kept (it is the one enforced), nothing written",
	  NEWER, NV_BS, SBAT_POLICY_NONE, SB_ON,
	  DATE_NEWER, KEEP, FROM(STORED), .quiet = true },
	{ "equal stored level: kept, nothing written",
	  DEBIAN_LEVEL, NV_BS, SBAT_POLICY_NONE, SB_ON,
	  DATE_AUTOMATIC, KEEP, FROM(STORED) },
	{ "stored level with the same datestamp but other entries: kept (datestamps compare)",
	  "sbat,1,2025021800\nshim,3\n", NV_BS, SBAT_POLICY_NONE, SB_ON,
	  DATE_AUTOMATIC, KEEP, FROM(STORED) },
	{ "stored level with NV|BS|RT (0x7): deleted first, automatic written, note",
	  NEWER, 0x7, SBAT_POLICY_NONE, SB_ON,
	  DATE_AUTOMATIC, REPLACE, FROM(AUTOMATIC), .note = { "0x7", "NV|BS" } },
	{ "stored level with NV only (0x1): replaced",
	  NEWER, 0x1, SBAT_POLICY_NONE, SB_ON,
	  DATE_AUTOMATIC, REPLACE, FROM(AUTOMATIC) },
	{ "stored level with BS only (0x2): replaced",
	  NEWER, 0x2, SBAT_POLICY_NONE, SB_OFF,
	  DATE_AUTOMATIC, REPLACE, FROM(AUTOMATIC) },
	{ "stored level with NV|BS|RT|authenticated (0x27): replaced",
	  NEWER, 0x27, SBAT_POLICY_NONE, SB_ON,
	  DATE_AUTOMATIC, REPLACE, FROM(AUTOMATIC) },
	{ "malformed stored level: automatic written, note says malformed",
	  "garbage", NV_BS, SBAT_POLICY_NONE, SB_ON,
	  DATE_AUTOMATIC, WRITE, FROM(AUTOMATIC), .note = { "malformed", "2025021800" } },
	{ "stored level without a header: replaced, the parser's reason in the note",
	  "shim,4,2025021800\n", NV_BS, SBAT_POLICY_NONE, SB_ON,
	  DATE_AUTOMATIC, WRITE, FROM(AUTOMATIC), .note = { "sbat entry" } },
	{ "empty stored level: replaced",
	  "", NV_BS, SBAT_POLICY_NONE, SB_ON,
	  DATE_AUTOMATIC, WRITE, FROM(AUTOMATIC) },

	/* SbatPolicy latest / automatic */
	{ "SbatPolicy latest: the latest level is written over an older one",
	  OLDER, NV_BS, SBAT_POLICY_LATEST, SB_ON,
	  DATE_LATEST, WRITE, FROM(LATEST), .note = { "raised", "2026120600" } },
	{ "SbatPolicy latest with nothing stored: latest written",
	  NULL, 0, SBAT_POLICY_LATEST, SB_OFF,
	  DATE_LATEST, WRITE, FROM(LATEST) },
	{ "SbatPolicy latest over the stored automatic: raised",
	  DEBIAN_LEVEL, NV_BS, SBAT_POLICY_LATEST, SB_ON,
	  DATE_LATEST, WRITE, FROM(LATEST) },
	{ "SbatPolicy latest, latest already stored: kept",
	  LATEST_LEVEL, NV_BS, SBAT_POLICY_LATEST, SB_ON,
	  DATE_LATEST, KEEP, FROM(STORED) },
	{ "never lowers: SbatPolicy latest with a newer stored level keeps the stored one",
	  NEWER, NV_BS, SBAT_POLICY_LATEST, SB_ON,
	  DATE_NEWER, KEEP, FROM(STORED) },
	{ "SbatPolicy latest over a runtime-visible level: replaced",
	  NEWER, 0x7, SBAT_POLICY_LATEST, SB_ON,
	  DATE_LATEST, REPLACE, FROM(LATEST) },
	{ "SbatPolicy automatic: automatic written over an older one",
	  OLDER, NV_BS, SBAT_POLICY_AUTOMATIC, SB_ON,
	  DATE_AUTOMATIC, WRITE, FROM(AUTOMATIC) },
	{ "never lowers: SbatPolicy automatic with the latest stored keeps latest",
	  LATEST_LEVEL, NV_BS, SBAT_POLICY_AUTOMATIC, SB_ON,
	  DATE_LATEST, KEEP, FROM(STORED) },

	/* SbatPolicy reset */
	{ "reset with Secure Boot on: ignored (note), automatic applied as usual",
	  OLDER, NV_BS, SBAT_POLICY_RESET, SB_ON,
	  DATE_AUTOMATIC, WRITE, FROM(AUTOMATIC),
	  .note = { "reset ignored", "Secure Boot is on", "raised" } },
	{ "reset with Secure Boot on: a newer stored level is kept",
	  NEWER, NV_BS, SBAT_POLICY_RESET, SB_ON,
	  DATE_NEWER, KEEP, FROM(STORED), .note = { "reset ignored" } },
	{ "reset with Secure Boot off: \"sbat,1,2021030218\\n\" written over a newer level",
	  NEWER, NV_BS, SBAT_POLICY_RESET, SB_OFF,
	  DATE_ORIGINAL, WRITE, FROM(ORIGINAL), .note = { "reset", "2021030218" } },
	{ "reset with Secure Boot off over NV|BS|RT: deleted first",
	  NEWER, 0x7, SBAT_POLICY_RESET, SB_OFF,
	  DATE_ORIGINAL, REPLACE, FROM(ORIGINAL) },
	{ "reset with Secure Boot off, nothing stored: original written",
	  NULL, 0x7, SBAT_POLICY_RESET, SB_OFF,
	  DATE_ORIGINAL, WRITE, FROM(ORIGINAL) },
	{ "reset with Secure Boot off over a malformed level",
	  "garbage", NV_BS, SBAT_POLICY_RESET, SB_OFF,
	  DATE_ORIGINAL, WRITE, FROM(ORIGINAL) },

	/* unknown policies */
	{ "SbatPolicy 9: note, automatic applied",
	  NULL, 0, 9, SB_ON,
	  DATE_AUTOMATIC, WRITE, FROM(AUTOMATIC), .note = { "SbatPolicy 9 unknown" } },
	{ "SbatPolicy 255 over an older level: both clauses in the note",
	  OLDER, NV_BS, 255, SB_OFF,
	  DATE_AUTOMATIC, WRITE, FROM(AUTOMATIC),
	  .note = { "SbatPolicy 255 unknown", "; SbatLevel raised" } },
	{ "SbatPolicy 4 never resets, even with Secure Boot off",
	  NEWER, NV_BS, 4, SB_OFF,
	  DATE_NEWER, KEEP, FROM(STORED), .note = { "unknown" } },
};

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
	struct reason_buf w_buf;
	struct sbat again;
	const char *w;

	if (!r->u.level.text || sbat_parse(hold(r->u.level.text, r->u.level.size), r->u.level.size,
					   SBAT_LEVEL, &again, &w, &w_buf) < 0) {
		printf("# chosen level does not parse\n");
		return false;
	}
	if (again.datestamp != r->u.level.datestamp || again.n_records != r->u.level.n_records ||
	    r->u.level.kind != SBAT_LEVEL || !memchr(r->u.note, '\0', sizeof(r->u.note))) {
		printf("# chosen level: datestamp %llu, %zu records, kind %d; parsed again: "
		       "datestamp %llu, %zu records\n",
		       (unsigned long long)r->u.level.datestamp, r->u.level.n_records,
		       r->u.level.kind, (unsigned long long)again.datestamp, again.n_records);
		return false;
	}
	return true;
}

/* The decision @r against what @c wants of it. */
static void check_update(const struct update_case *c, const struct upd *r)
{
	static const char *const source[] = { [FROM_AUTOMATIC] = "automatic",
					      [FROM_LATEST] = "latest",
					      [FROM_STORED] = "stored",
					      [FROM_ORIGINAL] = "original" };
	const struct sbat *level = &r->u.level;
	const char *n = c->name;

	CHECK(reparses(r), unit_name("%s: the level enforced is valid", n));
	CHECK_EQ(level->datestamp, c->datestamp, unit_name("%s: datestamp", n));
	CHECK_EQ(r->u.write, c->write, unit_name("%s: write", n));
	CHECK_EQ(r->u.delete_first, c->delete_first, unit_name("%s: delete first", n));
	if (c->from == FROM_ORIGINAL) {
		if (CHECK_EQ(level->size, strlen(SBAT_LEVEL_ORIGINAL),
			     unit_name("%s: the original level's size", n)))
			CHECK_MEMEQ(level->text, SBAT_LEVEL_ORIGINAL, level->size,
				    unit_name("%s: the original level", n));
	} else {
		const char *want = c->from == FROM_AUTOMATIC ? embedded.automatic.text :
				   c->from == FROM_LATEST    ? embedded.latest.text :
							       (const char *)r->st.data;

		CHECK_PTR_EQ(level->text, want, unit_name("%s: the %s level", n, source[c->from]));
	}
	if (c->quiet)
		CHECK_STREQ(r->u.note, "", unit_name("%s: no note", n));
	for (int i = 0; i < 3 && c->note[i]; i++)
		CHECK_STRSTR(r->u.note, c->note[i], unit_name("%s: the note", n));
}

/* Stored variables the table cannot describe: NUL-padded, without data, too large. */
static void test_update_stored(void)
{
	static const char padded[] = NEWER "\0\0\0";
	const struct {
		struct sbat_level_stored st;
		struct update_case want;
	} cases[] = {
		{ { true, hold(padded, sizeof(padded)), sizeof(padded), NV_BS },
		  { "stored level with a trailing NUL: accepted, kept",
		    .datestamp = DATE_NEWER, KEEP, FROM(STORED) } },
		{ { true, NULL, 0, NV_BS },
		  { "present but NULL stored data: replaced",
		    .datestamp = DATE_AUTOMATIC, WRITE, FROM(AUTOMATIC) } },
		/* larger than any level: refused unread, on its size alone */
		{ { true, hold(NEWER, sizeof(NEWER)), (size_t)UINT32_MAX + 5, NV_BS },
		  { "stored level claiming ~4 GiB: replaced",
		    .datestamp = DATE_AUTOMATIC, WRITE, FROM(AUTOMATIC),
		    .note = { "malformed", "limit" } } },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct upd r = { .st = cases[i].st };

		sbat_level_update(&embedded, &r.st, SBAT_POLICY_NONE, true, &r.u);
		check_update(&cases[i].want, &r);
	}
}

/* Every SbatPolicy byte, Secure Boot on and off, over a newer and an older level. */
static void test_update_every_policy(void)
{
	size_t wrong = 0;

	for (unsigned int n = 0; n < 256 * 4; n++) {
		uint8_t policy = (uint8_t)(n / 4);
		bool secure_boot = n & 1, over_newer = n & 2;
		bool reset = policy == SBAT_POLICY_RESET && !secure_boot;
		struct upd *r = decide(over_newer ? NEWER : OLDER, NV_BS, policy, secure_boot);
		const struct sbat_level_update *u = &r->u;
		bool right;

		if (over_newer) /* kept, unless reset to the original */
			right = reset ? u->level.datestamp == DATE_ORIGINAL :
					u->level.datestamp == DATE_NEWER && !u->write;
		else /* raised, at least to the automatic level, or reset */
			right = u->write && !u->delete_first &&
				(reset || u->level.datestamp >= DATE_AUTOMATIC);
		if ((!reparses(r) || !right) && !wrong++)
			printf("# SbatPolicy %u, Secure Boot %d, over %s: datestamp %llu, "
			       "write %d, delete first %d\n", policy, secure_boot,
			       over_newer ? "NEWER" : "OLDER",
			       (unsigned long long)u->level.datestamp, u->write, u->delete_first);
	}
	CHECK_EQ(wrong, 0, "every SbatPolicy byte, Secure Boot on and off: never lowers a valid "
			   "NV|BS level unless reset with Secure Boot off");
}

static void test_level_update(void)
{
	uint8_t *p;
	size_t size;

	p = payload(0, DEBIAN_LEVEL, LATEST_LEVEL, &size);
	if (!CHECK_EQ(levels_parse(p, size, &embedded), 0, "embedded levels for the update tests"))
		return;
	for (size_t i = 0; i < sizeof(updates) / sizeof(updates[0]); i++) {
		const struct update_case *c = &updates[i];

		check_update(c, decide(c->stored, c->attributes, c->policy, c->secure_boot));
	}
	test_update_stored();
	test_update_every_policy();
}

int main(void)
{
	test_level_update();
	release_all();
	UNIT_EXIT();
}
