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
 *
 * Then every entry type the deny lists decide by, in each of dbx, the
 * vendor dbx and MokListX (the image signed by unit_sign.h, with a nested
 * signature, and trusted through a root CA in db): image digests (SHA-1,
 * SHA-224, SHA-256/384/512), certificates and their TBS digests, RSA-2048
 * keys (the signer's, the root's from db, the nested signer's) and
 * signature values (RSA2048_SHA256/SHA1); and that allow lists trust by
 * none of the new ones.
 *
 * Every verdict carries a reason code (verdict_reason.h) that agrees with
 * allowed, never VERDICT_UNSET; each refusal tested is checked for its code,
 * and the record names are checked unique and well-formed, as is the
 * record's form and its quoting.
 */
#include "authenticode.h"
#include "firmware_verdict.h"
#include "macro.h"
#include "pe.h"
#include "sbat.h"
#include "signature_list.h"
#include "unit.h"
#include "unit_image.h"
#include "unit_sign.h"
#include "unit_x509.h"
#include "verdict_reason.h"
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

/* level_text into @level (which points into it). */
static void parse_level(struct sbat *level)
{
	struct reason_buf why_buf;
	const char *why;

	CHECK(sbat_parse(level_text, strlen(level_text), SBAT_LEVEL, level, &why, &why_buf) == 0,
	      "the SBAT level parses");
}

/* One EFI_SIGNATURE_LIST holding one entry of @type, added to @db as a variable's would be. */
static void add_entry(struct sig_db *db, enum esl_type type, const uint8_t *data, size_t size)
{
	struct esl_entry entry = { type, esl_owner_shim, data, size };
	const char *reason = NULL;
	uint8_t *esl = NULL;
	size_t esl_size = 0;

	CHECK(esl_append_entry(&entry, &esl, &esl_size) == 0 &&
		      sig_db_add_esl(db, esl, esl_size, &reason) == 0,
	      unit_name("a %s entry is added to %s", esl_type_name(type), db->name));
	OPENSSL_free(esl);
}

/* The Authenticode digest of the image of @size bytes at @img with @md, in @digest; its size. */
static unsigned int image_digest(const uint8_t *img, size_t size, const EVP_MD *md,
				 uint8_t digest[EVP_MAX_MD_SIZE])
{
	struct pe_image *pe = calloc(1, sizeof(*pe));
	const char *reason = NULL;
	unsigned int len = 0;

	CHECK(pe && pe_parse(img, size, pe, &reason) == 0 &&
		      pe_authenticode_digest(pe, md, digest, &len, &reason) == 0,
	      "the test image parses and has a digest");
	free(pe);
	return len;
}

/* @img's SHA-256 Authenticode digest into @digest (EVP_MAX_MD_SIZE bytes); returns its length. */
static unsigned int image_sha256(const uint8_t *img, uint8_t *digest)
{
	return image_digest(img, UNSIGNED_SIZE, EVP_sha256(), digest);
}

/* One EFI_SIGNATURE_LIST holding @img's SHA-256 Authenticode digest, added to @db. */
static void trust_digest(struct sig_db *db, const uint8_t *img)
{
	uint8_t digest[EVP_MAX_MD_SIZE];
	unsigned int len = image_sha256(img, digest);

	add_entry(db, ESL_SHA256, digest, len);
}

/* Verdicts seen without a code, or with one that disagrees with allowed. */
static unsigned int bad_codes;

/* Every verdict verify_image returns must carry a code that agrees with allowed. */
static void verify(const uint8_t *img, size_t size, const struct verify_policy *policy,
		   enum verify_request request, struct verdict *v)
{
	bool allowed_code;

	verify_image(img, size, policy, request, v);
	allowed_code = v->reason == VERDICT_ALLOWED_DIGEST || v->reason == VERDICT_ALLOWED_CERT;
	if (v->reason == VERDICT_UNSET || v->reason >= VERDICT_REASON_COUNT ||
	    allowed_code != v->allowed) {
		printf("# verdict with code %d (%s), allowed %d: %s\n", (int)v->reason,
		       verdict_reason_name(v->reason), (int)v->allowed, v->message);
		bad_codes++;
	}
}

/*
 * Decide on the image of @size bytes at @img for @request; returns whether
 * allowed, the verdict in *@v. For VERIFY_MOK_MANAGER under a policy that
 * pins no manager, @img is the one built in: those cases test the other
 * rules (test_mok_manager_pinned tests the pin).
 */
static bool decide_sized(const uint8_t *img, size_t size, const struct verify_policy *policy,
			 enum verify_request request, struct verdict *v)
{
	struct verify_policy pinned = *policy;
	uint8_t digest[EVP_MAX_MD_SIZE];

	if (request == VERIFY_MOK_MANAGER && !policy->mok_manager_sha256) {
		image_digest(img, size, EVP_sha256(), digest);
		pinned.mok_manager_sha256 = digest;
	}
	verify(img, size, &pinned, request, v);
	return v->allowed;
}

/* decide_sized on the unsigned test image. */
static bool decide(const uint8_t *img, const struct verify_policy *policy,
		   enum verify_request request, struct verdict *v)
{
	return decide_sized(img, UNSIGNED_SIZE, policy, request, v);
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
	struct sbat level;
	struct pe_image *pe = calloc(1, sizeof(*pe));
	struct verdict v;
	const char *why;

	verify_policy_init(&policy);
	parse_level(&level);
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
	CHECK_EQ(v.reason, VERDICT_ALLOWED_DIGEST, "the control: allowed-digest");
	for (size_t r = 0; r < ARRAY_SIZE(requests); r++) {
		if (!CHECK(!decide(img_two, &policy, requests[r], &v),
			   unit_name("two .sbat sections, both passing, %s: refused",
				     request_names[r])))
			continue;
		CHECK_STREQ(v.message, "image has more than one .sbat section",
			    unit_name("two .sbat sections, %s: the reason", request_names[r]));
		CHECK_EQ(v.reason, VERDICT_SBAT_MULTIPLE,
			 unit_name("two .sbat sections, %s: sbat-multiple", request_names[r]));
	}
	CHECK(!decide(img_second, &policy, VERIFY_TO_START, &v),
	      "two .sbat sections, the second one revoked by the level: refused");
	CHECK_STREQ(
		v.message, "image has more than one .sbat section",
		"the second one revoked: refused for having two, not for the first one's level");
	CHECK_EQ(v.reason, VERDICT_SBAT_MULTIPLE, "the second one revoked: sbat-multiple");

	policy.sbat_level = NULL; /* shim refuses it whatever the level */
	CHECK(decide(img_one, &policy, VERIFY_TO_START, &v), "without a level, one .sbat: allowed");
	CHECK(!decide(img_two, &policy, VERIFY_TO_START, &v),
	      "without a level, two .sbat sections: refused");
	CHECK_STREQ(v.message, "image has more than one .sbat section",
		    "without a level, two .sbat sections: the reason");
	CHECK_EQ(v.reason, VERDICT_SBAT_MULTIPLE, "without a level, two .sbat: sbat-multiple");

	/* the deny lists come first, as for any SBAT refusal */
	trust_digest(&policy.dbx, img_two);
	CHECK(!decide(img_two, &policy, VERIFY_TO_START, &v), "two .sbat, digest in dbx: refused");
	CHECK_STRSTR(v.message, "is in dbx", "two .sbat, digest in dbx: dbx is named first");
	CHECK_EQ(v.reason, VERDICT_DENY_DIGEST, "two .sbat, digest in dbx: deny-digest");

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
	struct esl_entry entry = {
		.type = ESL_SHA256, .owner = esl_owner_shim, .data = digest, .size = sizeof(digest)
	};
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
	bool malformed;     /* read: load malformed_esl() (else: the given count) */
	int rejected;       /* when not malformed */
	const char *reason; /* NULL: usable */
} deny_cases[] = {
	{ "dbx absent", DBX, LIST_ABSENT, false, 0, NULL },
	{ "dbx read whole", DBX, LIST_READ, false, 0, NULL },
	{ "dbx unreadable (a device error, out of resources, ...)", DBX, LIST_UNREADABLE, false, 0,
	  "deny list dbx is unusable: it cannot be read" },
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
			   unit_name("%s: a trusted image is refused %s", c->name,
				     request_names[r])))
			continue;
		CHECK_STREQ(v.message, policy.unusable,
			    unit_name("%s: refused %s with the reason", c->name, request_names[r]));
		CHECK_EQ(v.reason, VERDICT_DENY_LIST_UNUSABLE,
			 unit_name("%s: refused %s: deny-list-unusable", c->name,
				   request_names[r]));
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
	CHECK_EQ(v.reason, VERDICT_NOT_SIGNED,
		 "dbx unreadable: the untrusted MOK manager: not-signed");

	trust_digest(&policy.db, img);
	trust_digest(&policy.mokx, img);
	CHECK(!decide(img, &policy, VERIFY_MOK_MANAGER, &v),
	      "dbx unreadable: a MOK manager MokListX revokes is refused");
	CHECK_STRSTR(v.message, "is in MokListX", "dbx unreadable: the MokListX entry is named");
	CHECK_EQ(v.reason, VERDICT_DENY_DIGEST, "dbx unreadable: MokListX revokes: deny-digest");
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
	CHECK_EQ(verify_policy_list_loaded(&policy, &policy.vendor_dbx, LIST_ABSENT, 0, NULL), 0,
		 "two failures: then an absent list is still usable itself");
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

	verify(manager, UNSIGNED_SIZE, &policy, VERIFY_MOK_MANAGER, &v);
	CHECK(!v.allowed, "no MOK manager built in: even a trusted manager is refused");
	CHECK_STREQ(v.message, "no MOK manager digest is built in", "no pin: the reason");
	CHECK_EQ(v.reason, VERDICT_NO_MOK_MANAGER, "no pin: no-mok-manager-digest");

	CHECK_EQ(image_sha256(manager, pin), MOK_MANAGER_DIGEST_SIZE, "the pin's size");
	policy.mok_manager_sha256 = pin;
	verify(manager, UNSIGNED_SIZE, &policy, VERIFY_MOK_MANAGER, &v);
	CHECK(v.allowed, "the MOK manager built in, trusted by db, starts");
	verify(impostor, UNSIGNED_SIZE, &policy, VERIFY_MOK_MANAGER, &v);
	CHECK(!v.allowed, "a db-trusted impostor is refused in the MOK manager's slot");
	CHECK_STRSTR(v.message, "not lockshim's MOK manager", "the impostor: the reason");
	CHECK_EQ(v.reason, VERDICT_NOT_MOK_MANAGER, "the impostor: not-mok-manager");
	CHECK_EQ(strlen(v.entry), 64, "the impostor: its digest is named");
	verify(impostor, UNSIGNED_SIZE, &policy, VERIFY_TO_START, &v);
	CHECK(v.allowed, "the same impostor is allowed as an image to start");

	CHECK_EQ(verify_policy_list_loaded(&policy, &policy.mokx, LIST_UNREADABLE, 0, NULL), -1,
		 "MokListX unreadable: unusable");
	verify(impostor, UNSIGNED_SIZE, &policy, VERIFY_MOK_MANAGER, &v);
	CHECK(!v.allowed, "MokListX unusable: the impostor is still refused");
	CHECK_STRSTR(v.message, "not lockshim's MOK manager", "MokListX unusable: the reason");
	CHECK_EQ(v.reason, VERDICT_NOT_MOK_MANAGER, "MokListX unusable: not-mok-manager");
	verify(manager, UNSIGNED_SIZE, &policy, VERIFY_MOK_MANAGER, &v);
	CHECK(v.allowed, "MokListX unusable: the MOK manager built in still starts");

	verify_policy_free(&policy);
	free(manager);
	free(impostor);
}

/* ---- every entry type in every deny list -------------------------------------------------- */

/*
 * The PKI of these tests: a root CA, a signer it issued, and another
 * self-signed signer, all RSA-2048 (what EFI_CERT_RSA2048 names); and an
 * unrelated RSA-1024 certificate.
 */
struct pki {
	X509 *root, *signer, *nested;
	EVP_PKEY *root_key, *signer_key, *nested_key;
	uint8_t *image; /* the unsigned test image signed by signer, then nested by nested */
	size_t size;
	uint8_t *other; /* the DER of a certificate unrelated to the image */
	int other_size;
	struct authenticode_signatures sigs;
};

static bool make_pki(struct pki *k)
{
	const char *const none[2] = { NULL, NULL };
	uint8_t *unsigned_img = image_with(none);
	struct pe_image *pe = calloc(1, sizeof(*pe));
	const char *reason = NULL;
	struct unit_signer signers[2];
	X509 *other;
	bool ok;

	k->root = unit_issue_cert("unit root", 2048, NULL, NULL, &k->root_key);
	k->signer = unit_issue_cert("unit signer", 2048, k->root, k->root_key, &k->signer_key);
	k->nested = unit_issue_cert("unit nested", 2048, NULL, NULL, &k->nested_key);
	other = unit_make_cert("unit unrelated");
	k->other_size = i2d_X509(other, &k->other);
	X509_free(other);
	signers[0] = (struct unit_signer){ k->signer, k->signer_key, NULL };
	signers[1] = (struct unit_signer){ k->nested, k->nested_key, NULL };
	k->image = unit_sign_image(unsigned_img, UNSIGNED_SIZE, signers, 2, &k->size);
	ok = CHECK(k->image != NULL, "the test image is signed, with a nested signature") &&
	     CHECK(pe && pe_parse(k->image, k->size, pe, &reason) == 0 &&
			   authenticode_collect(pe, &k->sigs, &reason) == 0,
		   "the signed image parses") &&
	     CHECK_EQ(k->sigs.count, (size_t)2, "the signed image has two signatures");
	free(pe);
	free(unsigned_img);
	return ok;
}

static void free_pki(struct pki *k)
{
	authenticode_signatures_free(&k->sigs);
	X509_free(k->root);
	X509_free(k->signer);
	X509_free(k->nested);
	EVP_PKEY_free(k->root_key);
	EVP_PKEY_free(k->signer_key);
	EVP_PKEY_free(k->nested_key);
	free(k->image);
	OPENSSL_free(k->other);
}

enum entry_of { IMAGE_DIGEST, CERT, CERT_TBS, CERT_KEY, SIGNATURE_VALUE };

/* The code of a refusal by each kind of deny entry. */
static const enum verdict_reason deny_code[] = {
	[IMAGE_DIGEST] = VERDICT_DENY_DIGEST,       [CERT] = VERDICT_DENY_CERT,
	[CERT_TBS] = VERDICT_DENY_CERT_DIGEST,      [CERT_KEY] = VERDICT_DENY_KEY,
	[SIGNATURE_VALUE] = VERDICT_DENY_SIGNATURE,
};

static const struct deny_type_case {
	enum esl_type type;
	enum entry_of of;
	int who; /* the certificate (0 root, 1 signer, 2 nested) or signature (0 signer, 1 nested) */
	const char *message; /* what the refusal says, before " is in LIST" */
} deny_types[] = {
	{ ESL_SHA1, IMAGE_DIGEST, 0, "image SHA-1 digest" },
	{ ESL_SHA224, IMAGE_DIGEST, 0, "image SHA-224 digest" },
	{ ESL_SHA256, IMAGE_DIGEST, 0, "image SHA-256 digest" },
	{ ESL_SHA384, IMAGE_DIGEST, 0, "image SHA-384 digest" },
	{ ESL_SHA512, IMAGE_DIGEST, 0, "image SHA-512 digest" },
	{ ESL_X509, CERT, 1, "certificate /CN=unit signer" },
	{ ESL_X509, CERT, 0, "certificate /CN=unit root" },
	{ ESL_X509, CERT, 2, "certificate /CN=unit nested" },
	{ ESL_X509_SHA256, CERT_TBS, 1, "certificate /CN=unit signer SHA-256 digest" },
	{ ESL_X509_SHA384, CERT_TBS, 0, "certificate /CN=unit root SHA-384 digest" },
	{ ESL_X509_SHA512, CERT_TBS, 2, "certificate /CN=unit nested SHA-512 digest" },
	{ ESL_RSA2048, CERT_KEY, 1, "certificate /CN=unit signer RSA-2048 key" },
	{ ESL_RSA2048, CERT_KEY, 0, "certificate /CN=unit root RSA-2048 key" },
	{ ESL_RSA2048, CERT_KEY, 2, "certificate /CN=unit nested RSA-2048 key" },
	{ ESL_RSA2048_SHA256, SIGNATURE_VALUE, 0, "signature value of signer /CN=unit signer" },
	{ ESL_RSA2048_SHA1, SIGNATURE_VALUE, 0, "signature value of signer /CN=unit signer" },
	{ ESL_RSA2048_SHA256, SIGNATURE_VALUE, 1, "signature value of signer /CN=unit nested" },
	{ ESL_RSA2048_SHA1, SIGNATURE_VALUE, 1, "signature value of signer /CN=unit nested" },
};

/* The data of @c's entry for the image of @k, in @out (ESL_MAX_FIXED_SIZE bytes, or the DER); its size. */
static size_t entry_data(const struct deny_type_case *c, const struct pki *k, uint8_t **out)
{
	X509 *certs[] = { k->root, k->signer, k->nested };
	unsigned int len = 0;
	const uint8_t *value;
	size_t size = 0;
	int der_len;

	*out = OPENSSL_zalloc(ESL_MAX_FIXED_SIZE);
	switch (c->of) {
	case IMAGE_DIGEST:
		return image_digest(k->image, k->size, esl_type_md(c->type), *out);
	case CERT:
		OPENSSL_free(*out);
		*out = NULL;
		der_len = i2d_X509(certs[c->who], out);
		return der_len > 0 ? (size_t)der_len : 0;
	case CERT_TBS:
		return esl_cert_tbs_digest(certs[c->who], esl_type_md(c->type), *out, &len) == 0 ?
			       len :
			       0;
	case CERT_KEY:
		return esl_cert_rsa2048_modulus(certs[c->who], *out) == 1 ? 256 : 0;
	case SIGNATURE_VALUE:
		authenticode_signature_value(&k->sigs.sigs[c->who], &value, &size);
		if (size == 256)
			memcpy(*out, value, size);
		return size == 256 ? size : 0;
	}
	return 0;
}

/* A policy that trusts the root in db: the test image is allowed through it. */
static void trusting_root(struct verify_policy *policy, const struct pki *k)
{
	verify_policy_init(policy);
	CHECK_EQ(sig_db_add_cert(&policy->db, k->root, NULL), 0, "the root is added to db");
}

static void test_deny_type(const struct deny_type_case *c, const struct pki *k)
{
	const char *name = esl_type_name(c->type);
	struct verify_policy policy;
	uint8_t *data;
	size_t size = entry_data(c, k, &data);
	char want[256];
	struct verdict v;

	if (!CHECK_GT(size, (size_t)0, unit_name("%s: the entry for %s", name, c->message))) {
		OPENSSL_free(data);
		return;
	}
	for (enum test_list l = DBX; l <= MOKX; l++) {
		struct sig_db *db;

		trusting_root(&policy, k);
		db = list_of(&policy, l);
		CHECK(decide_sized(k->image, k->size, &policy, VERIFY_TO_START, &v),
		      unit_name("%s (%s) in %s: allowed through db without it (the control)", name,
				c->message, db->name));
		CHECK_EQ(v.reason, VERDICT_ALLOWED_CERT,
			 unit_name("%s (%s) in %s: the control: allowed-cert", name, c->message,
				   db->name));
		/* another entry of the type: one bit away, or another certificate */
		if (c->of == CERT) {
			add_entry(db, c->type, k->other, (size_t)k->other_size);
		} else {
			data[size - 1] ^= 1;
			add_entry(db, c->type, data, size);
			data[size - 1] ^= 1;
		}
		CHECK(decide_sized(k->image, k->size, &policy, VERIFY_TO_START, &v),
		      unit_name("%s (%s) in %s: another entry of the type does not refuse", name,
				c->message, db->name));
		add_entry(db, c->type, data, size);
		snprintf(want, sizeof(want), "%s is in %s", c->message, db->name);
		if (CHECK(!decide_sized(k->image, k->size, &policy, VERIFY_TO_START, &v),
			  unit_name("%s (%s) in %s: refused", name, c->message, db->name))) {
			CHECK_STRSTR(v.message, want,
				     unit_name("%s in %s: the reason", name, db->name));
			CHECK_STREQ(v.list, db->name,
				    unit_name("%s in %s: the list", name, db->name));
			CHECK_EQ(v.reason, deny_code[c->of],
				 unit_name("%s (%s) in %s: %s", name, c->message, db->name,
					   verdict_reason_name(deny_code[c->of])));
		}
		verify_policy_free(&policy);
	}
	OPENSSL_free(data);
}

/* Allow lists trust by no new type: an entry of it is as good as none. */
static void test_allow_types(const struct pki *k)
{
	static const struct deny_type_case *const untrusting[] = {
		&deny_types[0], &deny_types[1], &deny_types[11], &deny_types[14], &deny_types[15],
	};
	const char *const none[2] = { NULL, NULL };
	uint8_t *unsigned_img = image_with(none);

	for (size_t i = 0; i < ARRAY_SIZE(untrusting); i++) {
		const struct deny_type_case *c = untrusting[i];
		const char *name = esl_type_name(c->type);
		bool digest = c->of == IMAGE_DIGEST;
		const uint8_t *img = digest ? unsigned_img : k->image;
		size_t img_size = digest ? UNSIGNED_SIZE : k->size;
		uint8_t *data = NULL, d[EVP_MAX_MD_SIZE];
		size_t size = digest ? image_digest(img, img_size, esl_type_md(c->type), d) :
				       entry_data(c, k, &data);

		for (enum test_list l = DB; l <= MOK + 1; l++) {
			struct verify_policy policy;
			struct sig_db *db;
			struct verdict v;

			verify_policy_init(&policy);
			db = l <= MOK ? list_of(&policy, l) : &policy.vendor;
			add_entry(db, c->type, digest ? d : data, size);
			if (CHECK(!decide_sized(img, img_size, &policy, VERIFY_TO_START, &v),
				  unit_name("%s (%s) in %s: no trust", name, c->message,
					    db->name))) {
				CHECK_STREQ(
					v.message,
					digest ? "image is not signed" :
						 "signer does not chain to a trusted certificate",
					unit_name("%s in %s: the reason", name, db->name));
				CHECK_EQ(v.reason,
					 digest ? VERDICT_NOT_SIGNED : VERDICT_UNTRUSTED_SIGNER,
					 unit_name("%s in %s: the code", name, db->name));
			}
			verify_policy_free(&policy);
		}
		OPENSSL_free(data);
	}
	free(unsigned_img);
}

/* Every request goes through the same deny lists: a SHA-1 dbx entry, asked for a loader. */
static void test_deny_for_every_request(const struct pki *k)
{
	uint8_t digest[EVP_MAX_MD_SIZE];
	unsigned int len = image_digest(k->image, k->size, EVP_sha1(), digest);
	struct verify_policy policy;
	struct verdict v;

	trusting_root(&policy, k);
	add_entry(&policy.dbx, ESL_SHA1, digest, len);
	for (size_t r = 0; r < ARRAY_SIZE(requests); r++)
		if (CHECK(!decide_sized(k->image, k->size, &policy, requests[r], &v),
			  unit_name("SHA-1 digest in dbx: refused %s", request_names[r]))) {
			CHECK_STRSTR(v.message, "image SHA-1 digest is in dbx",
				     unit_name("SHA-1 digest in dbx, %s: the reason",
					       request_names[r]));
			CHECK_EQ(v.reason, VERDICT_DENY_DIGEST,
				 unit_name("SHA-1 digest in dbx, %s: deny-digest",
					   request_names[r]));
		}
	verify_policy_free(&policy);
}

/* A list of a type nobody defines is skipped, not rejected: the deny list stays usable. */
static void test_unknown_type(const struct pki *k)
{
	static const uint8_t
		unknown[] = {
			0x6b, 0x63, 0x6f, 0x4c, 0x68, 0x53, 0x6d, 0x69,
			0x55, 0x6e, 0x6b, 0x6e, 0x6f, 0x77, 0x6e, 0x21, /* the type GUID */
			44,   0,    0,    0,    0,    0,    0,    0,
			16,   0,    0,    0, /* one entry: an owner and no data */
			1,    2,    3,    4,    5,    6,    7,    8,
			9,    10,   11,   12,   13,   14,   15,   16,
		};
	struct verify_policy policy;
	const char *why = NULL;
	struct verdict v;
	int rejected;

	trusting_root(&policy, k);
	rejected = sig_db_add_esl(&policy.dbx, unknown, sizeof(unknown), &why);
	CHECK_EQ(rejected, 0, "a list of unknown type in dbx: not rejected");
	CHECK_EQ(verify_policy_list_loaded(&policy, &policy.dbx, LIST_READ, rejected, why), 0,
		 "a list of unknown type in dbx: dbx still usable");
	CHECK(decide_sized(k->image, k->size, &policy, VERIFY_TO_START, &v),
	      "a list of unknown type in dbx: the trusted image is allowed");
	verify_policy_free(&policy);
}

/* ---- the signer's chain ---------------------------------------------------------------- */

/* The signer of a one-signature image: each variant of the test PKI's signer. */
enum signer_kind {
	SIGNER_GENUINE,       /* issued by the root */
	SIGNER_FORGED,        /* the root's name as its issuer, signed by another key, no AKI */
	SIGNER_EXPIRED,       /* issued by the root, validity over an hour ago */
	SIGNER_NOT_YET_VALID, /* issued by the root, valid from an hour on */
	SIGNER_CODE_SIGNING,  /* issued by the root, extended key usage codeSigning only */
	SIGNER_WITH_EXTRA,    /* genuine, the signature carrying another certificate beside it */
};

/* Where the policy puts the test PKI; a case's fields left out are the first of each. */
enum chain_trust { ROOT_IN_DB, SIGNER_IN_DB, DIGEST_IN_DB, ROOT_IN_MOKLIST };
enum chain_deny { DENY_NONE, ROOT_IN_DBX, EXTRA_IN_DBX };
enum chain_tamper { TAMPER_NONE, TAMPER_IMAGE, TAMPER_SIGNATURE_VALUE };

/* The verdicts several cases expect. */
#define THROUGH_DB_ROOT \
	.reason = VERDICT_ALLOWED_CERT, .message = "through db certificate /CN=unit root"
#define UNTRUSTED                           \
	.reason = VERDICT_UNTRUSTED_SIGNER, \
	.message = "signer does not chain to a trusted certificate"
#define ROOT_DENIED .reason = VERDICT_DENY_CERT, .message = "certificate /CN=unit root is in dbx"

static const struct chain_case {
	const char *name;
	enum signer_kind signer;
	enum chain_trust trust;
	bool db_ignored; /* db emptied after the lists are set, as MokDBState does */
	enum chain_deny deny;
	enum chain_tamper tamper;
	enum verdict_reason reason;
	const char *message; /* what the verdict says (a part of it) */
} chain_cases[] = {
	{ "a genuine signer, the root in db (the control)", .reason = VERDICT_ALLOWED_CERT,
	  .message = "signed by /CN=unit signer, trusted through db certificate /CN=unit root" },
	{ "a signer naming the root as its issuer, signed by another key", .signer = SIGNER_FORGED,
	  UNTRUSTED },
	{ "an expired signer (firmware has no clock)", .signer = SIGNER_EXPIRED, THROUGH_DB_ROOT },
	{ "a signer not yet valid", .signer = SIGNER_NOT_YET_VALID, THROUGH_DB_ROOT },
	{ "a signer whose only key usage is code signing", .signer = SIGNER_CODE_SIGNING,
	  THROUGH_DB_ROOT },
	{ "the signer itself in db, not a root", .trust = SIGNER_IN_DB,
	  .reason = VERDICT_ALLOWED_CERT, .message = "through db certificate /CN=unit signer" },
	{ "the signer in db, its root (not carried) in dbx", .trust = SIGNER_IN_DB,
	  .deny = ROOT_IN_DBX, ROOT_DENIED },
	{ "the image digest in db, the signer's root (not carried) in dbx", .trust = DIGEST_IN_DB,
	  .deny = ROOT_IN_DBX, ROOT_DENIED },
	{ "a certificate carried beside the signer in dbx", .signer = SIGNER_WITH_EXTRA,
	  .deny = EXTRA_IN_DBX, .reason = VERDICT_DENY_CERT,
	  .message = "certificate /CN=unit extra is in dbx" },
	{ "the image changed after signing", .tamper = TAMPER_IMAGE,
	  .reason = VERDICT_BAD_SIGNATURE, .message = "image digest does not match the signature" },
	{ "the signature value changed", .tamper = TAMPER_SIGNATURE_VALUE,
	  .reason = VERDICT_BAD_SIGNATURE, .message = "PKCS#7 signature does not verify" },
	{ "db ignored (MokDBState), the root in db only", .db_ignored = true, UNTRUSTED },
	{ "db ignored (MokDBState), the root in MokList too", .trust = ROOT_IN_MOKLIST,
	  .db_ignored = true, .reason = VERDICT_ALLOWED_CERT,
	  .message = "trusted through MokList certificate /CN=unit root" },
};

/* The signer of @kind for @k's root (RSA-1024: the deny lists' RSA-2048 entries are not tested here). */
static X509 *chain_signer(enum signer_kind kind, const struct pki *k, EVP_PKEY **key)
{
	EVP_PKEY *rogue_key = NULL;
	X509 *rogue = NULL, *cert;

	if (kind == SIGNER_FORGED) {
		rogue = unit_issue_cert("unit rogue", 1024, NULL, NULL, &rogue_key);
		cert = unit_issue_cert("unit signer", 1024, k->root, rogue_key, key);
		X509_free(rogue);
		EVP_PKEY_free(rogue_key);
		return cert;
	}
	cert = unit_issue_cert("unit signer", 1024, k->root, k->root_key, key);
	if (kind == SIGNER_EXPIRED || kind == SIGNER_NOT_YET_VALID) {
		long from = kind == SIGNER_EXPIRED ? -7200 : 3600;

		X509_gmtime_adj(X509_getm_notBefore(cert), from);
		X509_gmtime_adj(X509_getm_notAfter(cert), from + 3600);
	} else if (kind == SIGNER_CODE_SIGNING) {
		X509_EXTENSION *eku =
			X509V3_EXT_conf_nid(NULL, NULL, NID_ext_key_usage, "critical,codeSigning");

		X509_add_ext(cert, eku, -1);
		X509_EXTENSION_free(eku);
	}
	X509_sign(cert, k->root_key, EVP_sha256()); /* again, over what changed */
	return cert;
}

/* Flip the last byte of the signature value @img (of @size bytes) carries. */
static bool tamper_signature_value(uint8_t *img, size_t size)
{
	struct pe_image *pe = calloc(1, sizeof(*pe));
	struct authenticode_signatures sigs = { .count = 0 };
	const uint8_t *value = NULL, *at = NULL;
	const char *reason;
	size_t len = 0;

	if (pe && pe_parse(img, size, pe, &reason) == 0 &&
	    authenticode_collect(pe, &sigs, &reason) == 0 && sigs.count == 1) {
		authenticode_signature_value(&sigs.sigs[0], &value, &len);
		for (size_t i = 0; value && len && !at && i + len <= size; i++)
			if (memcmp(img + i, value, len) == 0)
				at = img + i;
	}
	if (at)
		img[at - img + (ptrdiff_t)len - 1] ^= 1;
	authenticode_signatures_free(&sigs);
	free(pe);
	return at != NULL;
}

static void test_chain_case(const struct chain_case *c, const struct pki *k)
{
	const char *const none[2] = { NULL, NULL };
	uint8_t *unsigned_img = image_with(none), *img = NULL, digest[EVP_MAX_MD_SIZE];
	struct unit_signer signer = { .key = NULL };
	X509 *extra = unit_make_cert("unit extra");
	struct verify_policy policy;
	size_t size = 0;
	struct verdict v;

	signer.cert = chain_signer(c->signer, k, &signer.key);
	signer.extra = c->signer == SIGNER_WITH_EXTRA ? extra : NULL;
	img = unit_sign_image(unsigned_img, UNSIGNED_SIZE, &signer, 1, &size);
	verify_policy_init(&policy);
	if (!CHECK(img != NULL, unit_name("chain: %s: the image is signed", c->name)))
		goto out;
	if (c->trust == DIGEST_IN_DB)
		add_entry(&policy.db, ESL_SHA256, digest,
			  image_digest(img, size, EVP_sha256(), digest));
	else
		sig_db_add_cert(c->trust == ROOT_IN_MOKLIST ? &policy.mok : &policy.db,
				c->trust == SIGNER_IN_DB ? signer.cert : k->root, NULL);
	if (c->db_ignored && c->trust == ROOT_IN_MOKLIST)
		sig_db_add_cert(&policy.db, k->root, NULL); /* what is ignored trusts it too */
	if (c->db_ignored)
		sig_db_free(&policy.db);
	if (c->deny != DENY_NONE)
		sig_db_add_cert(&policy.dbx, c->deny == ROOT_IN_DBX ? k->root : extra, NULL);
	if (c->tamper == TAMPER_IMAGE)
		img[IMG_HEADERS + 16] ^= 1; /* in .text */
	if (c->tamper == TAMPER_SIGNATURE_VALUE &&
	    !CHECK(tamper_signature_value(img, size),
		   unit_name("chain: %s: the signature value is found in the image", c->name)))
		goto out;

	verify(img, size, &policy, VERIFY_TO_START, &v);
	CHECK_EQ(v.allowed, c->reason == VERDICT_ALLOWED_CERT,
		 unit_name("chain: %s: %s", c->name,
			   c->reason == VERDICT_ALLOWED_CERT ? "allowed" : "refused"));
	CHECK_EQ(v.reason, c->reason,
		 unit_name("chain: %s: %s", c->name, verdict_reason_name(c->reason)));
	CHECK_STRSTR(v.message, c->message, unit_name("chain: %s: the reason", c->name));
out:
	verify_policy_free(&policy);
	X509_free(signer.cert);
	EVP_PKEY_free(signer.key);
	X509_free(extra);
	free(img);
	free(unsigned_img);
}

static void test_every_type(void)
{
	struct pki k = { 0 };

	if (make_pki(&k)) {
		for (size_t i = 0; i < ARRAY_SIZE(deny_types); i++)
			test_deny_type(&deny_types[i], &k);
		test_allow_types(&k);
		test_deny_for_every_request(&k);
		test_unknown_type(&k);
		for (size_t i = 0; i < ARRAY_SIZE(chain_cases); i++)
			test_chain_case(&chain_cases[i], &k);
	}
	free_pki(&k);
}

/* ---- the record ----------------------------------------------------------------------- */

/* SBAT, structure and signature refusals not tested above: their codes (db trusts the image). */
static const struct code_case {
	const char *name;
	const char *sbat;  /* the .sbat section's text, or NULL for none */
	size_t size;       /* of the image: UNSIGNED_SIZE, or less to cut it */
	bool level;        /* under level_text */
	bool certificates; /* unit_pe_image's certificate table, which holds no valid DER */
	enum verdict_reason reason;
} code_cases[] = {
	{ "no .sbat, to start", NULL, UNSIGNED_SIZE, true, false, VERDICT_SBAT_MISSING },
	{ "a .sbat the level revokes", sbat_linux_1, UNSIGNED_SIZE, true, false,
	  VERDICT_SBAT_REVOKED },
	{ "a malformed .sbat", "sbat,1\n\x01", UNSIGNED_SIZE, true, false, VERDICT_SBAT_MALFORMED },
	{ "64 bytes, no PE image", NULL, 64, true, false, VERDICT_BAD_IMAGE },
	{ "an undecodable signature", NULL, IMG_SIZE, false, true, VERDICT_MALFORMED_SIGNATURE },
};

static void test_other_codes(void)
{
	struct sbat level;

	parse_level(&level);
	for (size_t i = 0; i < ARRAY_SIZE(code_cases); i++) {
		const struct code_case *c = &code_cases[i];
		const char *const csv[2] = { NULL, c->sbat };
		uint8_t *img = c->certificates ? unit_pe_image() : image_with(csv);
		struct verify_policy policy;
		struct verdict v;

		verify_policy_init(&policy);
		if (!c->certificates) /* the digest is of the image without them */
			trust_digest(&policy.db, img);
		policy.sbat_level = c->level ? &level : NULL;
		if (CHECK(!decide_sized(img, c->size, &policy, VERIFY_TO_START, &v),
			  unit_name("codes: %s: refused", c->name))) {
			CHECK_EQ(v.reason, c->reason,
				 unit_name("codes: %s: %s", c->name,
					   verdict_reason_name(c->reason)));
			if (c->reason == VERDICT_SBAT_REVOKED)
				CHECK_STREQ(v.list, "SbatLevel", "codes: revoked: list SbatLevel");
		}
		verify_policy_free(&policy);
		free(img);
	}
}

/*
 * verify_image_digests: the digests kept for an image are what later
 * decisions on it go by (the CLI hashes each image once), and the first
 * decision, which fills them, agrees with verify_image.
 */
static void test_digests_kept(void)
{
	const char *const csv[2] = { NULL, "sbat,1,SBAT Version,sbat,1,https://x\n" };
	uint8_t *img = image_with(csv);
	uint8_t *other = image_with((const char *const[2]){ NULL, "sbat,1,x,sbat,1,y\n" });
	struct image_digests kept = { 0 };
	struct verify_policy policy;
	uint8_t digest[EVP_MAX_MD_SIZE];
	unsigned int len;
	struct verdict v, plain;

	verify_policy_init(&policy);
	trust_digest(&policy.db, img);
	verify_image(img, UNSIGNED_SIZE, &policy, VERIFY_TO_START, &plain);
	verify_image_digests(img, UNSIGNED_SIZE, &policy, VERIFY_TO_START, &kept, &v);
	CHECK(v.allowed && plain.allowed && v.reason == plain.reason,
	      "digests kept: the first decision is verify_image's");
	len = image_sha256(img, digest);
	CHECK(kept.d[0].size == len && memcmp(kept.d[0].digest, digest, len) == 0,
	      "digests kept: the SHA-256 digest it computed is kept");
	/* the other image's digest, planted: a decision that hashed again would still allow */
	len = image_sha256(other, digest);
	memcpy(kept.d[0].digest, digest, len);
	verify_image_digests(img, UNSIGNED_SIZE, &policy, VERIFY_TO_START, &kept, &v);
	CHECK(!v.allowed, "digests kept: a later decision goes by them, without hashing again");
	verify_policy_free(&policy);
	free(img);
	free(other);
}

/* Every code has a name of [a-z0-9-]+, no two alike; "unset" is only VERDICT_UNSET's. */
static void test_reason_names(void)
{
	CHECK_STREQ(verdict_reason_name(VERDICT_UNSET), "unset", "names: VERDICT_UNSET is unset");
	CHECK_STREQ(verdict_reason_name(VERDICT_REASON_COUNT), "unset",
		    "names: a value past the last is unset");
	for (int a = 1; a < VERDICT_REASON_COUNT; a++) {
		const char *name = verdict_reason_name(a);
		bool well_formed = name[0] != '\0';

		for (const char *c = name; *c; c++)
			if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-'))
				well_formed = false;
		CHECK(well_formed && strcmp(name, "unset") != 0,
		      unit_name("names: code %d, %s, is [a-z0-9-]+ and not unset", a, name));
		for (int b = 1; b < a; b++)
			if (strcmp(name, verdict_reason_name(b)) == 0)
				CHECK(false,
				      unit_name("names: codes %d and %d are both %s", b, a, name));
	}
}

static const struct record_case {
	const char *word, *image;
	enum verdict_reason reason;
	const char *list, *entry, *want;
} record_cases[] = {
	{ "refused", "\\EFI\\BOOT\\vmlinuz.efi", VERDICT_NOT_SIGNED, NULL, "",
	  "verdict=refused image=\\EFI\\BOOT\\vmlinuz.efi reason=not-signed" },
	{ "refused", "k.efi", VERDICT_DENY_DIGEST, "dbx", "00ff",
	  "verdict=refused image=k.efi reason=deny-digest list=dbx entry=00ff" },
	{ "allowed", "buffer:4096", VERDICT_ALLOWED_CERT, "vendor dbx", "/CN=a \"b\" \\c",
	  "verdict=allowed image=buffer:4096 reason=allowed-cert list=\"vendor dbx\" "
	  "entry=\"/CN=a \\\"b\\\" \\\\c\"" },
	{ "unverified", "\"x\"y", VERDICT_SBAT_REVOKED, "SbatLevel", NULL,
	  "verdict=unverified image=\"\\\"x\\\"y\" reason=sbat-revoked list=SbatLevel" },
	{ "refused", "", VERDICT_UNSET, "", "\xc3\xa9\n",
	  "verdict=refused image=\"\" reason=unset entry=\"\\xc3\\xa9\\x0a\"" },
};

static void test_record(void)
{
	char out[VERDICT_RECORD_SIZE], small[16];

	for (size_t i = 0; i < ARRAY_SIZE(record_cases); i++) {
		const struct record_case *c = &record_cases[i];

		verdict_record(out, sizeof(out), c->word, c->image, c->reason, c->list, c->entry);
		CHECK_STREQ(out, c->want, unit_name("record %zu: %s", i, c->want));
	}
	verdict_record(small, sizeof(small), "refused", "k.efi", VERDICT_NOT_SIGNED, NULL, NULL);
	CHECK_STREQ(small, "verdict=refused", "record: cut to its buffer, terminated");
}

/* ---- the firmware's verdict (firmware_verdict.h) ------------------------------------------- */

/*
 * An "old" and a "new" CA, each with a signer, and a third CA whose signer
 * is issued through an intermediate the signatures carry; the unsigned test
 * image signed once by each, twice in two certificate table entries (old
 * first, as Debian combines them, and new first), and once with the new
 * signature nested inside the old (osslsigncode -nest).
 */
struct fw_pki {
	X509 *old_ca, *new_ca, *old_signer, *new_signer, *root, *intermediate, *leaf;
	EVP_PKEY *keys[7];
	uint8_t *unsigned_img, *old_img, *new_img, *both, *both_new_first, *nested, *chained;
	size_t old_size, new_size, both_size, both_new_first_size, nested_size, chained_size;
};

static void make_fw_pki(struct fw_pki *k)
{
	const char *const none[2] = { NULL, NULL };
	X509_EXTENSION *ca;

	k->old_ca = unit_issue_cert("unit old CA", 2048, NULL, NULL, &k->keys[0]);
	k->new_ca = unit_issue_cert("unit new CA", 2048, NULL, NULL, &k->keys[1]);
	k->old_signer = unit_issue_cert("unit old signer", 2048, k->old_ca, k->keys[0], &k->keys[2]);
	k->new_signer = unit_issue_cert("unit new signer", 2048, k->new_ca, k->keys[1], &k->keys[3]);
	k->root = unit_issue_cert("unit chain root", 2048, NULL, NULL, &k->keys[4]);
	k->intermediate =
		unit_issue_cert("unit intermediate", 2048, k->root, k->keys[4], &k->keys[5]);
	ca = X509V3_EXT_conf_nid(NULL, NULL, NID_basic_constraints, "critical,CA:TRUE");
	X509_add_ext(k->intermediate, ca, -1);
	X509_EXTENSION_free(ca);
	X509_sign(k->intermediate, k->keys[4], EVP_sha256());
	k->leaf = unit_issue_cert("unit leaf", 2048, k->intermediate, k->keys[5], &k->keys[6]);

	const struct unit_signer old_s = { k->old_signer, k->keys[2], NULL };
	const struct unit_signer new_s = { k->new_signer, k->keys[3], NULL };
	const struct unit_signer leaf_s = { k->leaf, k->keys[6], k->intermediate };
	const struct unit_signer nest[2] = { old_s, new_s };
	const struct unit_signer *const on[2] = { &old_s, &new_s }, *const no[2] = { &new_s, &old_s };
	const size_t ones[2] = { 1, 1 };

	k->unsigned_img = image_with(none);
	k->old_img = unit_sign_image(k->unsigned_img, UNSIGNED_SIZE, &old_s, 1, &k->old_size);
	k->new_img = unit_sign_image(k->unsigned_img, UNSIGNED_SIZE, &new_s, 1, &k->new_size);
	k->both = unit_sign_image_entries(k->unsigned_img, UNSIGNED_SIZE, on, ones, 2,
					  &k->both_size);
	k->both_new_first = unit_sign_image_entries(k->unsigned_img, UNSIGNED_SIZE, no, ones, 2,
						    &k->both_new_first_size);
	k->nested = unit_sign_image(k->unsigned_img, UNSIGNED_SIZE, nest, 2, &k->nested_size);
	k->chained = unit_sign_image(k->unsigned_img, UNSIGNED_SIZE, &leaf_s, 1, &k->chained_size);
	CHECK(k->old_img && k->new_img && k->both && k->both_new_first && k->nested && k->chained,
	      "firmware: the test images are signed");
}

static void free_fw_pki(struct fw_pki *k)
{
	X509 *certs[] = { k->old_ca,	 k->new_ca,	    k->old_signer, k->new_signer,
			  k->root,	 k->intermediate, k->leaf };

	for (size_t i = 0; i < ARRAY_SIZE(certs); i++)
		X509_free(certs[i]);
	for (size_t i = 0; i < ARRAY_SIZE(k->keys); i++)
		EVP_PKEY_free(k->keys[i]);
	free(k->unsigned_img);
	free(k->old_img);
	free(k->new_img);
	free(k->both);
	free(k->both_new_first);
	free(k->nested);
	free(k->chained);
}

/* The TBS digest of @cert by @type's algorithm, added to @db as an entry of @type. */
static void add_tbs(struct sig_db *db, enum esl_type type, X509 *cert)
{
	uint8_t digest[EVP_MAX_MD_SIZE];
	unsigned int len = 0;

	CHECK(esl_cert_tbs_digest(cert, esl_type_md(type), digest, &len) == 0,
	      "firmware: a TBS digest");
	add_entry(db, type, digest, len);
}

/* The firmware's verdict, with db and dbx the policy's; checks its code agrees with allowed. */
static void fw(const uint8_t *img, size_t size, const struct verify_policy *p,
	       struct firmware_verdict *fv)
{
	firmware_verify_image(img, size, &p->db, &p->dbx, fv);
	if (fv->verdict.reason == VERDICT_UNSET ||
	    (fv->verdict.reason == VERDICT_ALLOWED_DIGEST ||
	     fv->verdict.reason == VERDICT_ALLOWED_CERT) != fv->verdict.allowed) {
		printf("# firmware verdict with code %d, allowed %d: %s\n", (int)fv->verdict.reason,
		       (int)fv->verdict.allowed, fv->verdict.message);
		bad_codes++;
	}
}

/* An image by its digest alone, and a single signature against db and dbx. */
static void test_firmware_single(const struct fw_pki *k)
{
	struct verify_policy p;
	struct firmware_verdict fv;
	struct verdict v;
	uint8_t digest[EVP_MAX_MD_SIZE];
	unsigned int len;
	uint8_t *tampered;

	verify_policy_init(&p);
	fw(k->unsigned_img, UNSIGNED_SIZE, &p, &fv);
	CHECK(!fv.verdict.allowed, "firmware: an unsigned image, db empty: refused");
	CHECK_EQ(fv.verdict.reason, VERDICT_NOT_SIGNED, "firmware: unsigned: not-signed");
	trust_digest(&p.db, k->unsigned_img);
	fw(k->unsigned_img, UNSIGNED_SIZE, &p, &fv);
	CHECK(fv.verdict.allowed, "firmware: an unsigned image whose digest is in db: allowed");
	CHECK_EQ(fv.verdict.reason, VERDICT_ALLOWED_DIGEST, "firmware: by db digest");
	CHECK_EQ(fv.signature, -1L, "firmware: no signature decided");
	CHECK_PTR_EQ(fv.verdict.authority.db, &p.db, "firmware: the authority is db");
	CHECK(!fv.verdict.authority.cert && fv.verdict.authority.index == 0,
	      "firmware: the authority is db's digest 0");
	trust_digest(&p.dbx, k->unsigned_img);
	fw(k->unsigned_img, UNSIGNED_SIZE, &p, &fv);
	CHECK(!fv.verdict.allowed, "firmware: unsigned, digest in db and dbx: refused");
	CHECK_EQ(fv.verdict.reason, VERDICT_DENY_DIGEST, "firmware: unsigned in dbx: deny-digest");
	CHECK_STREQ(fv.verdict.list, "dbx", "firmware: unsigned in dbx: dbx named");
	verify_policy_free(&p);

	verify_policy_init(&p);
	sig_db_add_cert(&p.db, k->new_ca, NULL);
	fw(k->old_img, k->old_size, &p, &fv);
	CHECK(!fv.verdict.allowed, "firmware: old-signed, db holds new: refused");
	CHECK_EQ(fv.verdict.reason, VERDICT_UNTRUSTED_SIGNER, "firmware: old-signed: untrusted");
	sig_db_add_cert(&p.db, k->old_ca, NULL);
	fw(k->old_img, k->old_size, &p, &fv);
	CHECK(fv.verdict.allowed, "firmware: old-signed, db holds new and old: allowed");
	CHECK_EQ(fv.verdict.reason, VERDICT_ALLOWED_CERT, "firmware: by a db certificate");
	CHECK_EQ(fv.signature, 0L, "firmware: by signature 0");
	CHECK_STREQ(fv.signer, "/CN=unit old signer", "firmware: its signer named");
	CHECK_STREQ(fv.verdict.entry, "/CN=unit old CA", "firmware: the db entry named");
	CHECK(fv.verdict.authority.cert && fv.verdict.authority.index == 1,
	      "firmware: the authority is db's certificate 1");
	CHECK_EQ(fv.signatures, (size_t)1, "firmware: one signature seen");

	/* dbx by certificate: the CA, or the signer itself (a partial chain) */
	sig_db_add_cert(&p.dbx, k->old_ca, NULL);
	fw(k->old_img, k->old_size, &p, &fv);
	CHECK(!fv.verdict.allowed, "firmware: old CA in dbx: refused");
	CHECK_EQ(fv.verdict.reason, VERDICT_DENY_CERT, "firmware: old CA in dbx: deny-cert");
	CHECK_STREQ(fv.verdict.entry, "/CN=unit old CA", "firmware: old CA in dbx: named");
	CHECK_EQ(fv.signature, 0L, "firmware: old CA in dbx: signature 0 named");
	verify_policy_free(&p);
	verify_policy_init(&p);
	sig_db_add_cert(&p.db, k->old_ca, NULL);
	sig_db_add_cert(&p.dbx, k->old_signer, NULL);
	fw(k->old_img, k->old_size, &p, &fv);
	CHECK_EQ(fv.verdict.reason, VERDICT_DENY_CERT, "firmware: the signer in dbx: deny-cert");

	/* a tampered image: no signature signs it, and a dbx certificate does not apply */
	tampered = malloc(k->old_size);
	memcpy(tampered, k->old_img, k->old_size);
	tampered[IMG_HEADERS + 7] ^= 1;
	fw(tampered, k->old_size, &p, &fv);
	CHECK_EQ(fv.verdict.reason, VERDICT_BAD_SIGNATURE, "firmware: tampered: bad-signature");
	free(tampered);
	verify_policy_free(&p);

	/* dbx by TBS digest: the signer's; the db certificate's refuses by that signature */
	verify_policy_init(&p);
	sig_db_add_cert(&p.db, k->old_ca, NULL);
	add_tbs(&p.dbx, ESL_X509_SHA256, k->old_signer);
	fw(k->old_img, k->old_size, &p, &fv);
	CHECK_EQ(fv.verdict.reason, VERDICT_DENY_CERT_DIGEST,
		 "firmware: the signer's TBS digest in dbx: deny-cert-digest");
	CHECK_EQ(fv.signature, 0L, "firmware: the signer's TBS digest: signature 0 named");
	verify_policy_free(&p);
	verify_policy_init(&p);
	sig_db_add_cert(&p.db, k->old_ca, NULL);
	add_tbs(&p.dbx, ESL_X509_SHA384, k->old_ca);
	fw(k->old_img, k->old_size, &p, &fv);
	CHECK(!fv.verdict.allowed, "firmware: the db CA's TBS digest in dbx: refused");
	CHECK_EQ(fv.verdict.reason, VERDICT_DENY_CERT_DIGEST,
		 "firmware: the db CA's TBS digest in dbx: deny-cert-digest");
	CHECK_STRSTR(fv.verdict.message, "whose TBS digest is in dbx",
		     "firmware: the db CA's TBS digest in dbx: said");

	/* what EDK2 does not look at: another digest type, an RSA-2048 key */
	verify_policy_free(&p);
	verify_policy_init(&p);
	sig_db_add_cert(&p.db, k->old_ca, NULL);
	len = image_digest(k->old_img, k->old_size, EVP_sha1(), digest);
	add_entry(&p.dbx, ESL_SHA1, digest, len);
	uint8_t modulus[ESL_MAX_FIXED_SIZE];
	CHECK_EQ(esl_cert_rsa2048_modulus(k->old_signer, modulus), 1, "firmware: the key");
	add_entry(&p.dbx, ESL_RSA2048, modulus, 256);
	fw(k->old_img, k->old_size, &p, &fv);
	CHECK(fv.verdict.allowed, "firmware: SHA-1 digest and RSA key in dbx: the firmware allows");
	verify(k->old_img, k->old_size, &p, VERIFY_FOR_LOADER, &v);
	CHECK(!v.allowed, "firmware: ... where lockshim refuses");

	/* the image digest of the signature's algorithm */
	len = image_digest(k->old_img, k->old_size, EVP_sha256(), digest);
	add_entry(&p.dbx, ESL_SHA256, digest, len);
	fw(k->old_img, k->old_size, &p, &fv);
	CHECK_EQ(fv.verdict.reason, VERDICT_DENY_DIGEST, "firmware: signed, SHA-256 in dbx");
	verify_policy_free(&p);
	verify_policy_init(&p);
	add_entry(&p.db, ESL_SHA256, digest, len);
	fw(k->old_img, k->old_size, &p, &fv);
	CHECK_EQ(fv.verdict.reason, VERDICT_ALLOWED_DIGEST, "firmware: signed, SHA-256 in db");
	CHECK_EQ(fv.signature, -1L, "firmware: signed, allowed by digest: no signature named");
	verify_policy_free(&p);

	fw(k->old_img, 100, &p, &fv);
	CHECK_EQ(fv.verdict.reason, VERDICT_BAD_IMAGE, "firmware: truncated: bad-image");

	/* the last entry without its padding in the table: EDK2 refuses, lockshim's reader not */
	uint8_t *unpadded = malloc(k->old_size);
	uint32_t entry_len;

	if (!CHECK(unpadded != NULL, "firmware: a copy of the image"))
		return;
	memcpy(unpadded, k->old_img, k->old_size);
	entry_len = unpadded[UNSIGNED_SIZE] | unpadded[UNSIGNED_SIZE + 1] << 8 |
		    unpadded[UNSIGNED_SIZE + 2] << 16 | (uint32_t)unpadded[UNSIGNED_SIZE + 3] << 24;
	verify_policy_init(&p);
	sig_db_add_cert(&p.db, k->old_ca, NULL);
	if (CHECK_NE(entry_len % 8, 0u, "firmware: the signature's entry needs padding")) {
		put32(unpadded + IMG_OPT + 112 + 4 * 8 + 4, entry_len);
		fw(unpadded, UNSIGNED_SIZE + entry_len, &p, &fv);
		CHECK_EQ(fv.verdict.reason, VERDICT_MALFORMED_SIGNATURE,
			 "firmware: the last entry unpadded: refused");
		CHECK_STRSTR(fv.verdict.message, "not padded", "firmware: unpadded: said");
		verify(unpadded, UNSIGNED_SIZE + entry_len, &p, VERIFY_FOR_LOADER, &v);
		CHECK(v.allowed, "firmware: ... where lockshim's reader lets it go");
		put32(unpadded + IMG_OPT + 112 + 4 * 8 + 4, (uint32_t)(k->old_size - UNSIGNED_SIZE));
		fw(unpadded, k->old_size, &p, &fv);
		CHECK(fv.verdict.allowed, "firmware: the same entry padded: allowed (the control)");
	}
	verify_policy_free(&p);
	free(unpadded);
}

/* Two signatures: in two certificate table entries, and nested. */
static void test_firmware_several(const struct fw_pki *k)
{
	struct verify_policy p;
	struct firmware_verdict fv;
	struct verdict v;

	verify_policy_init(&p);
	sig_db_add_cert(&p.db, k->new_ca, NULL);
	fw(k->both, k->both_size, &p, &fv);
	CHECK(fv.verdict.allowed, "firmware: old+new entries, db holds new: allowed");
	CHECK_EQ(fv.signature, 1L, "firmware: old+new entries: by signature 1");
	CHECK_STREQ(fv.signer, "/CN=unit new signer", "firmware: old+new: the new signer named");
	CHECK_EQ(fv.signatures, (size_t)2, "firmware: old+new entries: two seen");
	CHECK_EQ(fv.nested, (size_t)0, "firmware: old+new entries: none nested");

	fw(k->nested, k->nested_size, &p, &fv);
	CHECK(!fv.verdict.allowed, "firmware: new nested in old, db holds new: refused");
	CHECK_EQ(fv.verdict.reason, VERDICT_UNTRUSTED_SIGNER, "firmware: nested: untrusted");
	CHECK_EQ(fv.signatures, (size_t)1, "firmware: nested: one signature seen");
	CHECK_EQ(fv.nested, (size_t)1, "firmware: nested: one not seen");
	verify(k->nested, k->nested_size, &p, VERIFY_FOR_LOADER, &v);
	CHECK(v.allowed, "firmware: nested: lockshim's own rule sees it and allows");

	/* any signature in dbx refuses, before or after the one db trusts */
	sig_db_add_cert(&p.db, k->old_ca, NULL);
	sig_db_add_cert(&p.dbx, k->old_ca, NULL);
	fw(k->both, k->both_size, &p, &fv);
	CHECK(!fv.verdict.allowed, "firmware: old+new, both in db, old in dbx: refused");
	CHECK_EQ(fv.signature, 0L, "firmware: old in dbx: signature 0 named");
	fw(k->both_new_first, k->both_new_first_size, &p, &fv);
	CHECK(!fv.verdict.allowed, "firmware: new+old, old in dbx: refused after new allowed");
	CHECK_EQ(fv.signature, 1L, "firmware: new+old, old in dbx: signature 1 named");
	CHECK_EQ(fv.verdict.reason, VERDICT_DENY_CERT, "firmware: new+old: deny-cert");
	fw(k->nested, k->nested_size, &p, &fv);
	CHECK(!fv.verdict.allowed, "firmware: nested, old outer in dbx: refused");
	verify_policy_free(&p);

	verify_policy_init(&p);
	sig_db_add_cert(&p.db, k->old_ca, NULL);
	sig_db_add_cert(&p.dbx, k->new_ca, NULL);
	fw(k->nested, k->nested_size, &p, &fv);
	CHECK(fv.verdict.allowed, "firmware: nested new in dbx, db holds old: allowed");
	verify(k->nested, k->nested_size, &p, VERIFY_FOR_LOADER, &v);
	CHECK(!v.allowed, "firmware: ... where lockshim refuses it");
	verify_policy_free(&p);

	/* the db CA's TBS digest in dbx stops only the signature that chains to it */
	verify_policy_init(&p);
	sig_db_add_cert(&p.db, k->old_ca, NULL);
	sig_db_add_cert(&p.db, k->new_ca, NULL);
	add_tbs(&p.dbx, ESL_X509_SHA256, k->old_ca);
	fw(k->both, k->both_size, &p, &fv);
	CHECK(fv.verdict.allowed, "firmware: old CA's TBS digest in dbx: new signature allows");
	CHECK_EQ(fv.signature, 1L, "firmware: ... signature 1");
	CHECK(fv.verdict.authority.cert && fv.verdict.authority.index == 1,
	      "firmware: ... through db's certificate 1");
	verify_policy_free(&p);

	/* TBS digests: only the signer's; a carried intermediate's is not looked up */
	verify_policy_init(&p);
	sig_db_add_cert(&p.db, k->root, NULL);
	fw(k->chained, k->chained_size, &p, &fv);
	CHECK(fv.verdict.allowed, "firmware: leaf through a carried intermediate: allowed");
	add_tbs(&p.dbx, ESL_X509_SHA256, k->intermediate);
	fw(k->chained, k->chained_size, &p, &fv);
	CHECK(fv.verdict.allowed, "firmware: the intermediate's TBS digest in dbx: still allowed");
	verify(k->chained, k->chained_size, &p, VERIFY_FOR_LOADER, &v);
	CHECK(!v.allowed, "firmware: ... where lockshim refuses");
	sig_db_add_cert(&p.dbx, k->intermediate, NULL);
	fw(k->chained, k->chained_size, &p, &fv);
	CHECK_EQ(fv.verdict.reason, VERDICT_DENY_CERT,
		 "firmware: the intermediate itself in dbx: deny-cert");
	CHECK_STREQ(fv.verdict.entry, "/CN=unit intermediate", "firmware: the intermediate named");
	verify_policy_free(&p);
}

static void test_firmware(void)
{
	struct fw_pki k = { 0 };

	make_fw_pki(&k);
	if (k.old_img && k.new_img && k.both && k.both_new_first && k.nested && k.chained) {
		test_firmware_single(&k);
		test_firmware_several(&k);
	}
	free_fw_pki(&k);
}

int main(void)
{
	test_sbat_sections();
	test_deny_lists();
	test_mok_manager_pinned();
	test_every_type();
	test_other_codes();
	test_digests_kept();
	test_reason_names();
	test_record();
	test_firmware();
	CHECK_EQ(bad_codes, 0u, "every verdict carries a code, and it agrees with allowed");
	return unit_failed;
}
