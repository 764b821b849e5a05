// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * libFuzzer target: the whole decision, verify_image, under a fixed policy:
 * vendor trusts the certificate in fuzz_cert.h (whose key signed the seeds
 * in corpus/fuzz_verify/), dbx holds the lists in fuzz_cert.h (the digest
 * of revoked.efi, another image's and an unrelated one, and the
 * X509_SHA256 of the signer of revoked-cert.efi); MokListX one unrelated
 * entry of each other type deny lists go by (SHA-1, SHA-224, RSA-2048 key
 * and signature values); the other lists are empty.
 *
 * The policy is built once; verify_image must free all it allocates on each
 * call (LeakSanitizer checks). Besides the sanitizers, it checks the
 * verdict: every field is set, its strings are terminated, the message is
 * not empty; an allowed image names "vendor" (the only list that trusts
 * anything), is signed, has at most one .sbat section, and is never one
 * whose SHA-256 Authenticode digest is in dbx. Each input is decided twice: without SBAT, and with a fixed
 * SbatLevel; SBAT only ever refuses, so an image allowed with it is allowed
 * without it, and carries a .sbat section.
 *
 * Each input is also decided as the firmware would (firmware_verify_image)
 * with the vendor list as db and the same dbx: every field set, and an
 * allowed image allowed by a signature (db holds no digest) whose signer
 * is named, through db's one certificate.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/x509.h>

#include "fuzz.h"
#include "fuzz_cert.h"
#include "firmware_verdict.h"
#include "pe.h"
#include "sbat.h"
#include "signature_list.h"
#include "verify.h"


static struct verify_policy policy, policy_sbat; /* the same lists; one with a level */
static struct sbat level;
static const char level_text[] = "sbat,1,2099010100\nlinux,2\nlockshim,1\n";
static volatile uint8_t sink;

/*
 * One entry of each other type deny lists go by (image SHA-1 and SHA-224
 * digests, an RSA-2048 key, signature values), naming no seed: every input
 * takes those paths too. Returns sig_db_add_esl's result, or -1.
 */
static int add_other_types(struct sig_db *db)
{
	static const enum esl_type types[] = { ESL_SHA1, ESL_SHA224, ESL_RSA2048,
					       ESL_RSA2048_SHA256, ESL_RSA2048_SHA1 };
	uint8_t unrelated[ESL_MAX_FIXED_SIZE], *esl = NULL;
	const char *reason = NULL;
	size_t esl_size = 0;
	int r;

	memset(unrelated, 0x5a, sizeof(unrelated));
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		struct esl_entry e = { types[i], esl_owner_shim, unrelated,
				       esl_type_size(types[i]) };

		if (esl_append_entry(&e, &esl, &esl_size) < 0)
			return -1;
	}
	r = sig_db_add_esl(db, esl, esl_size, &reason);
	OPENSSL_free(esl);
	return r;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const unsigned char *p = fuzz_vendor_cert;
	const char *reason = NULL;
	struct reason_buf why_buf;
	const char *why;
	X509 *vendor;

	(void)argc;
	(void)argv;
	verify_policy_init(&policy); /* kept to the end: LeakSanitizer sees it as reachable */

	vendor = d2i_X509(NULL, &p, sizeof(fuzz_vendor_cert));
	if (!vendor || sig_db_add_cert(&policy.vendor, vendor, NULL) != 0) {
		fprintf(stderr, "fuzz_verify: cannot load the vendor certificate\n");
		abort();
	}
	X509_free(vendor); /* sig_db_add_cert took its own reference */

	if (sig_db_add_esl(&policy.dbx, fuzz_dbx_esl, sizeof(fuzz_dbx_esl), &reason) != 0) {
		fprintf(stderr, "fuzz_verify: dbx lists refused: %s\n", reason ? reason : "?");
		abort();
	}
	if (add_other_types(&policy.mokx) != 0) {
		fprintf(stderr, "fuzz_verify: MokListX lists refused\n");
		abort();
	}
	if (sbat_parse(level_text, sizeof(level_text) - 1, SBAT_LEVEL, &level, &why, &why_buf) != 0) {
		fprintf(stderr, "fuzz_verify: level refused: %s\n", why);
		abort();
	}
	policy_sbat = policy;
	policy_sbat.sbat_level = &level;
	return 0;
}

static bool terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

/*
 * An allowed image: the policy trusts only the vendor certificate (no
 * digest), so the image must parse, be signed, carry at most one .sbat
 * section (shim's rule, with or without a level), and its SHA-256
 * Authenticode digest must not be in dbx.
 */
static void check_allowed(const uint8_t *data, size_t size)
{
	struct pe_image *img = malloc(sizeof(*img));
	uint8_t digest[EVP_MAX_MD_SIZE];
	unsigned int len;
	const char *reason;

	FUZZ_ASSERT(img);
	FUZZ_ASSERT(pe_parse(data, size, img, &reason) == 0);
	FUZZ_ASSERT(img->cert_table_size > 0);
	FUZZ_ASSERT(pe_count_sections(img, ".sbat") <= 1);
	FUZZ_ASSERT(pe_authenticode_digest(img, EVP_sha256(), digest, &len, &reason) == 0);
	FUZZ_ASSERT(!sig_db_has_digest(&policy.dbx, ESL_SHA256, digest, len));
	free(img);
}

/* Decide under @p for @request and check the verdict's form; returns whether allowed. */
static bool decide_checked(const uint8_t *data, size_t size, const struct verify_policy *p,
			   enum verify_request request)
{
	struct verdict v;

	memset(&v, 0xa5, sizeof(v)); /* verify_image must set every field */
	verify_image(data, size, p, request, &v);

	FUZZ_ASSERT(v.allowed == true || v.allowed == false);
	FUZZ_ASSERT(terminated(v.entry, sizeof(v.entry)));
	FUZZ_ASSERT(terminated(v.message, sizeof(v.message)));
	FUZZ_ASSERT(v.message[0] != '\0');
	sink ^= (uint8_t)(strlen(v.entry) + strlen(v.message));
	if (v.list)
		sink ^= (uint8_t)strlen(v.list);

	if (v.allowed) {
		FUZZ_ASSERT(v.list && strcmp(v.list, policy.vendor.name) == 0);
		check_allowed(data, size);
	}
	return v.allowed;
}

/* The firmware's verdict, db the vendor list: checked for its form and what allows. */
static void firmware_checked(const uint8_t *data, size_t size)
{
	struct firmware_verdict fv;

	memset(&fv, 0xa5, sizeof(fv)); /* firmware_verify_image must set every field */
	firmware_verify_image(data, size, &policy.vendor, &policy.dbx, &fv);
	FUZZ_ASSERT(fv.verdict.allowed == true || fv.verdict.allowed == false);
	FUZZ_ASSERT(fv.verdict.reason != VERDICT_UNSET && fv.verdict.reason < VERDICT_REASON_COUNT);
	FUZZ_ASSERT(fv.verdict.allowed == (fv.verdict.reason == VERDICT_ALLOWED_CERT ||
					   fv.verdict.reason == VERDICT_ALLOWED_DIGEST));
	FUZZ_ASSERT(terminated(fv.verdict.entry, sizeof(fv.verdict.entry)));
	FUZZ_ASSERT(terminated(fv.verdict.message, sizeof(fv.verdict.message)));
	FUZZ_ASSERT(terminated(fv.signer, sizeof(fv.signer)));
	FUZZ_ASSERT(fv.verdict.message[0] != '\0');
	FUZZ_ASSERT(fv.signature >= -1 && fv.signatures <= size && fv.nested <= size);
	sink ^= (uint8_t)(strlen(fv.verdict.entry) + strlen(fv.verdict.message) + strlen(fv.signer));
	if (fv.verdict.allowed) {
		FUZZ_ASSERT(fv.verdict.reason == VERDICT_ALLOWED_CERT);
		FUZZ_ASSERT(fv.verdict.list && strcmp(fv.verdict.list, policy.vendor.name) == 0);
		FUZZ_ASSERT(fv.signature >= 0 && (size_t)fv.signature < fv.signatures);
		FUZZ_ASSERT(fv.signer[0] != '\0');
		FUZZ_ASSERT(fv.verdict.authority.db == &policy.vendor && fv.verdict.authority.cert &&
			    fv.verdict.authority.index == 0);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	firmware_checked(data, size);
	bool allowed = decide_checked(data, size, &policy, VERIFY_TO_START);

	/* what lockshim would start, a second stage may load: never the reverse of a refusal */
	if (decide_checked(data, size, &policy_sbat, VERIFY_TO_START)) {
		FUZZ_ASSERT(decide_checked(data, size, &policy_sbat, VERIFY_FOR_LOADER));
		struct pe_image *img = malloc(sizeof(*img));
		const char *reason;

		FUZZ_ASSERT(allowed);
		FUZZ_ASSERT(img && pe_parse(data, size, img, &reason) == 0);
		FUZZ_ASSERT(pe_count_sections(img, ".sbat") == 1);
		free(img);
	} else if (decide_checked(data, size, &policy_sbat, VERIFY_FOR_LOADER)) {
		/* the only difference the request makes: no .sbat at all */
		struct pe_image *img = malloc(sizeof(*img));
		const char *reason;

		FUZZ_ASSERT(allowed);
		FUZZ_ASSERT(img && pe_parse(data, size, img, &reason) == 0);
		FUZZ_ASSERT(!pe_find_section(img, ".sbat"));
		free(img);
	}
	return 0;
}
