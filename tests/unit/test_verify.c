// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * verify_image on the two rules that refuse an image whatever trusts it:
 *
 *  - an image with more than one .sbat section (shim 16.1's
 *    verify_buffer_sbat), with or without an SBAT level, for every request;
 *  - a deny list that could not be used whole (verify_policy_list_loaded):
 *    dbx, the vendor dbx or MokListX unreadable, or with a signature list
 *    rejected by parsing, or out of memory. Every image is then refused with
 *    the reason, but the MOK manager, which is still checked against every
 *    deny entry that was read. An allow list (db, MokList) lost in the same
 *    ways only trusts less.
 *
 * The image is unit_image.h's, without its certificate table, trusted by
 * its SHA-256 Authenticode digest in db: an allowed verdict here comes from
 * a real digest match, so a refusal can only come from the rule under test.
 */
#include "macro.h"
#include "pe.h"
#include "sbat.h"
#include "signature_list.h"
#include "unit.h"
#include "unit_image.h"
#include "verify.h"

#define UNSIGNED_SIZE IMG_CERT_OFFSET

static const char sbat_linux_1[] =
	"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
	"linux,1,The Linux Kernel Organization,linux,6.12,https://www.kernel.org/\n";
static const char sbat_linux_3[] =
	"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
	"linux,3,The Linux Kernel Organization,linux,6.12,https://www.kernel.org/\n";
static const char level_text[] = "sbat,1,2030010100\nlinux,2\n";

/*
 * The unsigned test image (UNSIGNED_SIZE bytes), its section @i (0 or 1)
 * renamed .sbat holding @csv[i] when @csv[i] is not NULL.
 */
static uint8_t *image_with(const char *const csv[2])
{
	uint8_t *img = unit_pe_image();

	put32(img + IMG_OPT + 112 + 4 * 8, 0); /* no certificate table */
	put32(img + IMG_OPT + 112 + 4 * 8 + 4, 0);
	for (int i = 0; i < 2; i++) {
		uint8_t *header = img + IMG_SECTIONS + 40 * i;

		if (!csv[i])
			continue;
		memset(header, 0, 8);
		memcpy(header, ".sbat", 5);
		memcpy(img + IMG_HEADERS + IMG_SECTION_LEN * i, csv[i], strlen(csv[i]));
	}
	return img;
}

/* @img's SHA-256 Authenticode digest into @digest (EVP_MAX_MD_SIZE bytes); returns its length. */
static unsigned int image_sha256(const uint8_t *img, uint8_t *digest)
{
	struct pe_image *pe = calloc(1, sizeof(*pe));
	const char *reason = NULL;
	unsigned int len = 0;

	CHECK(pe && pe_parse(img, UNSIGNED_SIZE, pe, &reason) == 0 &&
		      pe_authenticode_digest(pe, EVP_sha256(), digest, &len, &reason) == 0,
	      "the test image parses and has a digest");
	free(pe);
	return len;
}

/* One EFI_SIGNATURE_LIST holding @img's SHA-256 Authenticode digest, added to @db. */
static void trust_digest(struct sig_db *db, const uint8_t *img)
{
	uint8_t digest[EVP_MAX_MD_SIZE], *esl = NULL;
	struct esl_entry entry = { .type = ESL_SHA256, .owner = esl_owner_shim };
	const char *reason = NULL;
	size_t esl_size = 0;

	entry.data = digest;
	entry.size = image_sha256(img, digest);
	CHECK(esl_append_entry(&entry, &esl, &esl_size) == 0 &&
		      sig_db_add_esl(db, esl, esl_size, &reason) == 0,
	      unit_name("the image digest is added to %s", db->name));
	OPENSSL_free(esl);
}

/*
 * Decide on @img for @request; returns whether allowed, the verdict in *@v.
 * For VERIFY_MOK_MANAGER under a policy that pins no manager, @img is the
 * one built in: those cases test the other rules (test_mok_manager_pinned
 * tests the pin).
 */
static bool decide(const uint8_t *img, const struct verify_policy *policy,
		   enum verify_request request, struct verdict *v)
{
	struct verify_policy pinned = *policy;
	uint8_t digest[EVP_MAX_MD_SIZE];

	if (request == VERIFY_MOK_MANAGER && !policy->mok_manager_sha256) {
		image_sha256(img, digest);
		pinned.mok_manager_sha256 = digest;
	}
	verify_image(img, UNSIGNED_SIZE, &pinned, request, v);
	return v->allowed;
}

static const enum verify_request requests[] = { VERIFY_TO_START, VERIFY_FOR_LOADER,
						VERIFY_MOK_MANAGER };
static const char *const request_names[] = { "to start", "for a loader", "MOK manager" };

/* ---- more than one .sbat section ----------------------------------------------------------- */

static void test_sbat_sections(void)
{
	const char *const one[2] = { NULL, sbat_linux_3 }, *const two[2] = { sbat_linux_3,
									    sbat_linux_3 };
	const char *const second_revoked[2] = { sbat_linux_3, sbat_linux_1 };
	uint8_t *img_one = image_with(one), *img_two = image_with(two),
		*img_second = image_with(second_revoked);
	struct verify_policy policy;
	struct reason_buf why_buf;
	struct sbat level;
	struct pe_image *pe = calloc(1, sizeof(*pe));
	struct verdict v;
	const char *why;

	verify_policy_init(&policy);
	CHECK(sbat_parse(level_text, strlen(level_text), SBAT_LEVEL, &level, &why, &why_buf) == 0,
	      "the SBAT level parses");
	trust_digest(&policy.db, img_one);
	trust_digest(&policy.db, img_two);
	trust_digest(&policy.db, img_second);

	if (CHECK(pe && pe_parse(img_two, UNSIGNED_SIZE, pe, &why) == 0,
		  "an image with two .sbat sections is a valid PE"))
		CHECK_EQ(pe_count_sections(pe, ".sbat"), 2u, "pe_count_sections counts both");
	if (CHECK(pe_parse(img_one, UNSIGNED_SIZE, pe, &why) == 0, "the one-.sbat image parses")) {
		CHECK_EQ(pe_count_sections(pe, ".sbat"), 1u, "pe_count_sections: one .sbat");
		CHECK_EQ(pe_count_sections(pe, ".reloc"), 0u, "pe_count_sections: no .reloc");
	}

	policy.sbat_level = &level;
	CHECK(decide(img_one, &policy, VERIFY_TO_START, &v),
	      "one .sbat section that the level passes: allowed (the control)");
	CHECK_STRSTR(v.message, "image SHA-256 digest is in db", "the control: allowed by db");
	for (size_t r = 0; r < ARRAY_SIZE(requests); r++) {
		if (!CHECK(!decide(img_two, &policy, requests[r], &v),
			   unit_name("two .sbat sections, both passing, %s: refused",
				     request_names[r])))
			continue;
		CHECK_STREQ(v.message, "image has more than one .sbat section",
			    unit_name("two .sbat sections, %s: the reason", request_names[r]));
	}
	CHECK(!decide(img_second, &policy, VERIFY_TO_START, &v),
	      "two .sbat sections, the second one revoked by the level: refused");
	CHECK_STREQ(v.message, "image has more than one .sbat section",
		    "the second one revoked: refused for having two, not for the first one's level");

	policy.sbat_level = NULL; /* shim refuses it whatever the level */
	CHECK(decide(img_one, &policy, VERIFY_TO_START, &v), "without a level, one .sbat: allowed");
	CHECK(!decide(img_two, &policy, VERIFY_TO_START, &v),
	      "without a level, two .sbat sections: refused");
	CHECK_STREQ(v.message, "image has more than one .sbat section",
		    "without a level, two .sbat sections: the reason");

	/* the deny lists come first, as for any SBAT refusal */
	trust_digest(&policy.dbx, img_two);
	CHECK(!decide(img_two, &policy, VERIFY_TO_START, &v), "two .sbat, digest in dbx: refused");
	CHECK_STRSTR(v.message, "is in dbx", "two .sbat, digest in dbx: dbx is named first");

	verify_policy_free(&policy);
	free(pe);
	free(img_one);
	free(img_two);
	free(img_second);
}

/* ---- deny lists fail closed --------------------------------------------------------------- */

/* Two lists: a valid SHA-256 one, then one whose size is no whole number of entries. */
static uint8_t *malformed_esl(size_t *size)
{
	static const uint8_t digest[32] = { 1, 2, 3 };
	struct esl_entry entry = { .type = ESL_SHA256, .owner = esl_owner_shim,
				   .data = digest, .size = sizeof(digest) };
	uint8_t *esl = NULL;

	*size = 0;
	if (esl_append_entry(&entry, &esl, size) < 0 || esl_append_entry(&entry, &esl, size) < 0)
		return NULL;
	put32(esl + *size / 2 + 24, ESL_OWNER_SIZE + 20); /* SignatureSize: 36 into 48 bytes */
	return esl;
}

enum test_list { DBX, VENDOR_DBX, MOKX, DB, MOK };

static struct sig_db *list_of(struct verify_policy *policy, enum test_list which)
{
	struct sig_db *lists[] = { &policy->dbx, &policy->vendor_dbx, &policy->mokx, &policy->db,
				   &policy->mok };

	return lists[which];
}

static const struct deny_list_case {
	const char *name;
	enum test_list list;
	enum list_read read;
	bool malformed;       /* read: load malformed_esl() (else: the given count) */
	int rejected;         /* when not malformed */
	const char *reason;   /* NULL: usable */
} deny_cases[] = {
	{ "dbx absent", DBX, LIST_ABSENT, false, 0, NULL },
	{ "dbx read whole", DBX, LIST_READ, false, 0, NULL },
	{ "dbx unreadable (a device error, out of resources, ...)", DBX, LIST_UNREADABLE,
	  false, 0, "deny list dbx is unusable: it cannot be read" },
	{ "dbx with a malformed signature list", DBX, LIST_READ, true, 0,
	  "deny list dbx is unusable: 1 signature list(s) rejected: "
	  "list size is not a whole number of signatures" },
	{ "dbx out of memory", DBX, LIST_READ, false, -1,
	  "deny list dbx is unusable: out of memory" },
	{ "vendor dbx with a malformed signature list", VENDOR_DBX, LIST_READ, true, 0,
	  "deny list vendor dbx is unusable: 1 signature list(s) rejected: " },
	{ "MokListX absent", MOKX, LIST_ABSENT, false, 0, NULL },
	{ "MokListX unreadable", MOKX, LIST_UNREADABLE, false, 0,
	  "deny list MokListX is unusable: it cannot be read" },
	{ "MokListX with a malformed signature list", MOKX, LIST_READ, true, 0,
	  "deny list MokListX is unusable: 1 signature list(s) rejected: " },
	/* an allow list lost, or partly lost, only trusts less */
	{ "db unreadable", DB, LIST_UNREADABLE, false, 0, NULL },
	{ "MokList with a malformed signature list", MOK, LIST_READ, true, 0, NULL },
	{ "MokList out of memory", MOK, LIST_READ, false, -1, NULL },
};

static void test_deny_case(const struct deny_list_case *c, const uint8_t *img)
{
	struct verify_policy policy;
	const char *why = NULL;
	int rejected = c->rejected;
	struct sig_db *db;
	struct verdict v;

	verify_policy_init(&policy);
	trust_digest(&policy.db, img);
	db = list_of(&policy, c->list);
	if (c->malformed) {
		size_t size;
		uint8_t *esl = malformed_esl(&size);

		rejected = esl ? sig_db_add_esl(db, esl, size, &why) : -2;
		CHECK_EQ(rejected, 1, unit_name("%s: one list rejected by parsing", c->name));
		CHECK_EQ(db->n_digests, (size_t)1, unit_name("%s: the valid list kept", c->name));
		OPENSSL_free(esl);
	}

	if (!c->reason) {
		CHECK_EQ(verify_policy_list_loaded(&policy, db, c->read, rejected, why), 0,
			 unit_name("%s: usable", c->name));
		CHECK_STREQ(policy.unusable, "", unit_name("%s: no reason recorded", c->name));
		for (size_t r = 0; r < ARRAY_SIZE(requests); r++)
			CHECK(decide(img, &policy, requests[r], &v),
			      unit_name("%s: a trusted image is allowed %s", c->name,
					request_names[r]));
		verify_policy_free(&policy);
		return;
	}

	CHECK_EQ(verify_policy_list_loaded(&policy, db, c->read, rejected, why), -1,
		 unit_name("%s: unusable", c->name));
	CHECK_STRSTR(policy.unusable, c->reason, unit_name("%s: the reason", c->name));
	for (size_t r = 0; r < 2; r++) {
		if (!CHECK(!decide(img, &policy, requests[r], &v),
			   unit_name("%s: a trusted image is refused %s", c->name, request_names[r])))
			continue;
		CHECK_STREQ(v.message, policy.unusable,
			    unit_name("%s: refused %s with the reason", c->name, request_names[r]));
		CHECK(v.list == NULL, unit_name("%s: no list entry decided", c->name));
	}
	CHECK(decide(img, &policy, VERIFY_MOK_MANAGER, &v),
	      unit_name("%s: the MOK manager (trusted) can still start", c->name));
	verify_policy_free(&policy);
}

/* The MOK manager is not let through by an unusable policy: it is verified as ever. */
static void test_mok_manager_still_verified(const uint8_t *img)
{
	struct verify_policy policy;
	struct verdict v;

	verify_policy_init(&policy);
	CHECK_EQ(verify_policy_list_loaded(&policy, &policy.dbx, LIST_UNREADABLE, 0, NULL), -1,
		 "dbx unreadable: unusable");
	CHECK(!decide(img, &policy, VERIFY_MOK_MANAGER, &v),
	      "dbx unreadable: an untrusted MOK manager is refused");
	CHECK_STREQ(v.message, "image is not signed",
		    "dbx unreadable: the untrusted MOK manager's reason is its own");

	trust_digest(&policy.db, img);
	trust_digest(&policy.mokx, img);
	CHECK(!decide(img, &policy, VERIFY_MOK_MANAGER, &v),
	      "dbx unreadable: a MOK manager MokListX revokes is refused");
	CHECK_STRSTR(v.message, "is in MokListX", "dbx unreadable: the MokListX entry is named");
	verify_policy_free(&policy);
}

/* The first reason is kept: the console names the first list that failed. */
static void test_first_reason_kept(void)
{
	struct verify_policy policy;

	verify_policy_init(&policy);
	CHECK_EQ(verify_policy_list_loaded(&policy, &policy.dbx, LIST_UNREADABLE, 0, NULL), -1,
		 "two failures: dbx unreadable");
	CHECK_EQ(verify_policy_list_loaded(&policy, &policy.mokx, LIST_READ, 2, "x"), -1,
		 "two failures: MokListX malformed");
	CHECK_EQ(verify_policy_list_loaded(&policy, &policy.vendor_dbx, LIST_ABSENT, 0, NULL),
		 0, "two failures: then an absent list is still usable itself");
	CHECK_STREQ(policy.unusable, "deny list dbx is unusable: it cannot be read",
		    "two failures: the first reason is kept");
	verify_policy_free(&policy);
}

static void test_deny_lists(void)
{
	const char *const none[2] = { NULL, NULL };
	uint8_t *img = image_with(none);

	for (size_t i = 0; i < ARRAY_SIZE(deny_cases); i++)
		test_deny_case(&deny_cases[i], img);
	test_mok_manager_still_verified(img);
	test_first_reason_kept();
	free(img);
}

/*
 * Only the MOK manager built with lockshim starts in its slot: another image
 * that every list trusts is refused there (and allowed as a kernel), with or
 * without a usable policy; without a pin nothing is.
 */
static void test_mok_manager_pinned(void)
{
	const char *const sbat[2] = { NULL, sbat_linux_3 };
	uint8_t *manager = image_with(sbat), *impostor = unit_pe_image();
	uint8_t pin[EVP_MAX_MD_SIZE];
	struct verify_policy policy;
	struct verdict v;

	put32(impostor + IMG_OPT + 112 + 4 * 8, 0); /* no certificate table, another digest */
	put32(impostor + IMG_OPT + 112 + 4 * 8 + 4, 0);
	memcpy(impostor + IMG_HEADERS, "impostor", 8);
	verify_policy_init(&policy);
	trust_digest(&policy.db, manager);
	trust_digest(&policy.db, impostor);

	verify_image(manager, UNSIGNED_SIZE, &policy, VERIFY_MOK_MANAGER, &v);
	CHECK(!v.allowed, "no MOK manager built in: even a trusted manager is refused");
	CHECK_STREQ(v.message, "no MOK manager digest is built in", "no pin: the reason");

	CHECK_EQ(image_sha256(manager, pin), MOK_MANAGER_DIGEST_SIZE, "the pin's size");
	policy.mok_manager_sha256 = pin;
	verify_image(manager, UNSIGNED_SIZE, &policy, VERIFY_MOK_MANAGER, &v);
	CHECK(v.allowed, "the MOK manager built in, trusted by db, starts");
	verify_image(impostor, UNSIGNED_SIZE, &policy, VERIFY_MOK_MANAGER, &v);
	CHECK(!v.allowed, "a db-trusted impostor is refused in the MOK manager's slot");
	CHECK_STRSTR(v.message, "not lockshim's MOK manager", "the impostor: the reason");
	CHECK_EQ(strlen(v.entry), 64, "the impostor: its digest is named");
	verify_image(impostor, UNSIGNED_SIZE, &policy, VERIFY_TO_START, &v);
	CHECK(v.allowed, "the same impostor is allowed as an image to start");

	CHECK_EQ(verify_policy_list_loaded(&policy, &policy.mokx, LIST_UNREADABLE, 0, NULL), -1,
		 "MokListX unreadable: unusable");
	verify_image(impostor, UNSIGNED_SIZE, &policy, VERIFY_MOK_MANAGER, &v);
	CHECK(!v.allowed, "MokListX unusable: the impostor is still refused");
	CHECK_STRSTR(v.message, "not lockshim's MOK manager", "MokListX unusable: the reason");
	verify_image(manager, UNSIGNED_SIZE, &policy, VERIFY_MOK_MANAGER, &v);
	CHECK(v.allowed, "MokListX unusable: the MOK manager built in still starts");

	verify_policy_free(&policy);
	free(manager);
	free(impostor);
}

int main(void)
{
	test_sbat_sections();
	test_deny_lists();
	test_mok_manager_pinned();
	return unit_failed;
}
