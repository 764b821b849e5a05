// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "verify.h"

#include <string.h>

#include <openssl/bio.h>

#include "authenticode.h"
#include "macro.h"
#include "pe.h"
#include "safe_math.h"
#include "variables.h"

void verify_policy_init(struct verify_policy *policy)
{
	sig_db_init(&policy->vendor, "vendor");
	sig_db_init(&policy->vendor_dbx, "vendor dbx");
	sig_db_init(&policy->db, variables[VAR_DB].name);
	sig_db_init(&policy->dbx, variables[VAR_DBX].name);
	sig_db_init(&policy->mok, variables[VAR_MOK_LIST].name);
	sig_db_init(&policy->mokx, variables[VAR_MOK_LIST_X].name);
	policy->sbat_level = NULL;
	policy->mok_manager_sha256 = NULL;
	policy->unusable[0] = '\0';
}

void verify_policy_free(struct verify_policy *policy)
{
	sig_db_free(&policy->vendor);
	sig_db_free(&policy->vendor_dbx);
	sig_db_free(&policy->db);
	sig_db_free(&policy->dbx);
	sig_db_free(&policy->mok);
	sig_db_free(&policy->mokx);
}

int verify_policy_list_loaded(struct verify_policy *policy, const struct sig_db *db,
			      enum list_read read, int rejected, const char *why)
{
	bool deny = db == &policy->dbx || db == &policy->vendor_dbx || db == &policy->mokx;
	char reason[sizeof(policy->unusable)];

	if (!deny || read == LIST_ABSENT || (read == LIST_READ && rejected == 0))
		return 0;
	if (read == LIST_UNREADABLE)
		BIO_snprintf(reason, sizeof(reason), "deny list %s is unusable: it cannot be read",
			     db->name);
	else if (rejected < 0)
		BIO_snprintf(reason, sizeof(reason), "deny list %s is unusable: out of memory",
			     db->name);
	else
		BIO_snprintf(reason, sizeof(reason),
			     "deny list %s is unusable: %d signature list(s) rejected: %s",
			     db->name, rejected, why ? why : "?");
	if (!policy->unusable[0])
		memcpy(policy->unusable, reason, sizeof(reason));
	return -1;
}

/* What one decision needs: the image, its signatures, its digests as computed so far. */
struct verification {
	const struct verify_policy *policy;
	enum verify_request request;
	struct pe_image img;
	struct authenticode_signatures sigs;
	struct image_digests *digests; /* image_digest_types', the caller's or own */
	struct image_digests own;
	struct verdict *verdict;
};

/*
 * The image digests, each computed only when a list holds one of its kind.
 * Allow lists go by the first ALLOW_DIGESTS only: no new trust by SHA-1 or
 * SHA-224, where the firmware would give it (stricter than the firmware).
 * Deny lists go by all of them, as shim 16.1's check_denylist goes by
 * SHA-1 too.
 */
_Static_assert(sizeof(((struct image_digests *)0)->d[0].digest) >= EVP_MAX_MD_SIZE,
	       "struct image_digests holds every digest OpenSSL makes");
static const enum esl_type image_digest_types[VERIFY_IMAGE_DIGESTS] = { ESL_SHA256, ESL_SHA384,
									ESL_SHA512, ESL_SHA1,
									ESL_SHA224 };
static const char *const digest_names[VERIFY_IMAGE_DIGESTS] = { "SHA-256", "SHA-384", "SHA-512",
								"SHA-1", "SHA-224" };
#define ALLOW_DIGESTS 3
static const enum esl_type cert_digest_types[3] = { ESL_X509_SHA256, ESL_X509_SHA384,
						    ESL_X509_SHA512 };

/*
 * EFI_CERT_RSA2048_SHA256 and _SHA1 entries hold "an RSA-2048 signature of
 * a hash" (UEFI 2.10, 32.4.1) without saying of what. lockshim takes them
 * as a signature value: an image one of whose SignerInfos (nested ones
 * included) carries exactly that value is refused, whatever digest its
 * SignerInfo names.
 */
static const enum esl_type signature_value_types[2] = { ESL_RSA2048_SHA256, ESL_RSA2048_SHA1 };

void verdict_subject(X509 *cert, char *out, size_t size)
{
	if (!X509_NAME_oneline(X509_get_subject_name(cert), out, (int)size))
		BIO_snprintf(out, size, "(unprintable subject)");
}

void verdict_hex(const uint8_t *data, size_t size, char *out, size_t out_size)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < size && 2 * i + 2 < out_size; i++) {
		out[2 * i] = hex[data[i] >> 4];
		out[2 * i + 1] = hex[data[i] & 15];
	}
	out[2 * i] = '\0';
}

void verdict_decide(struct verdict *v, enum verdict_reason reason, const struct sig_db *list,
		    const char *message)
{
	v->allowed = reason == VERDICT_ALLOWED_DIGEST || reason == VERDICT_ALLOWED_CERT;
	v->reason = reason;
	v->list = list ? list->name : NULL;
	BIO_snprintf(v->message, sizeof(v->message), "%s", message);
}

void verdict_refuse(struct verdict *verdict, enum verdict_reason reason, const char *message)
{
	memset(verdict, 0, sizeof(*verdict));
	verdict_decide(verdict, reason, NULL, message);
}

static bool has_digest_type(const struct sig_db *db, enum esl_type type)
{
	for (size_t i = 0; i < db->n_digests; i++)
		if (db->digests[i].type == type)
			return true;
	return false;
}

/* The image's digest of kind @k, computed on first use: each is one pass over the image. */
static int image_digest(struct verification *ver, size_t k)
{
	const char *reason;

	if (ver->digests->d[k].size)
		return 0;
	if (pe_authenticode_digest(&ver->img, esl_type_md(image_digest_types[k]),
				   ver->digests->d[k].digest, &ver->digests->d[k].size,
				   &reason) < 0) {
		verdict_decide(ver->verdict, VERDICT_BAD_IMAGE, NULL, reason);
		return -1;
	}
	return 0;
}

static size_t digest_kind(const EVP_MD *md)
{
	for (size_t k = 0; k < ALLOW_DIGESTS; k++)
		if (EVP_MD_get_type(md) == EVP_MD_get_type(esl_type_md(image_digest_types[k])))
			return k;
	return 0; /* authenticode.c accepts only these three */
}

/* Where the image's digest of kind @k is in @db (*@index, -1 when it is not). */
static int image_digest_in(struct verification *ver, size_t k, const struct sig_db *db, long *index)
{
	*index = -1;
	if (!has_digest_type(db, image_digest_types[k]))
		return 0;
	if (image_digest(ver, k) < 0)
		return -1;
	*index = sig_db_find_digest(db, image_digest_types[k], ver->digests->d[k].digest,
				    ver->digests->d[k].size);
	return 0;
}

/* 1 when an image digest is in @db (the verdict says so), 0 when not, -1 on error. */
static int check_image_digest(struct verification *ver, const struct sig_db *db, bool allow)
{
	char message[sizeof(ver->verdict->message)];
	long index;

	for (size_t k = 0; k < (allow ? ALLOW_DIGESTS : ARRAY_SIZE(image_digest_types)); k++) {
		if (image_digest_in(ver, k, db, &index) < 0)
			return -1;
		if (index < 0)
			continue;
		verdict_hex(ver->digests->d[k].digest, ver->digests->d[k].size, ver->verdict->entry,
			    sizeof(ver->verdict->entry));
		BIO_snprintf(message, sizeof(message), "image %s digest is in %s", digest_names[k],
			     db->name);
		verdict_decide(ver->verdict, allow ? VERDICT_ALLOWED_DIGEST : VERDICT_DENY_DIGEST,
			       db, message);
		if (allow)
			ver->verdict->authority =
				(struct verdict_authority){ db, false, (size_t)index };
		return 1;
	}
	return 0;
}

/* 1 when @cert's key is an RSA-2048 modulus @db lists (EFI_CERT_RSA2048), 0 when not, -1 on error. */
static int check_cert_key_denied(struct verification *ver, X509 *cert, const struct sig_db *db)
{
	char message[sizeof(ver->verdict->message)];
	uint8_t modulus[ESL_MAX_FIXED_SIZE];
	int r;

	if (!has_digest_type(db, ESL_RSA2048))
		return 0;
	r = esl_cert_rsa2048_modulus(cert, modulus);
	if (r < 0) {
		/* it might be the one listed: refuse rather than guess */
		verdict_decide(ver->verdict, VERDICT_BAD_CERT, NULL,
			       "cannot read a certificate's RSA key");
		return -1;
	}
	if (r == 0 || !sig_db_has_digest(db, ESL_RSA2048, modulus, 256))
		return 0;
	verdict_subject(cert, ver->verdict->entry, sizeof(ver->verdict->entry));
	BIO_snprintf(message, sizeof(message), "certificate %s RSA-2048 key is in %s",
		     ver->verdict->entry, db->name);
	verdict_decide(ver->verdict, VERDICT_DENY_KEY, db, message);
	return 1;
}

/* 1 when @cert matches a deny list (the verdict says which), 0 when not, -1 on error. */
static int check_cert_denied(struct verification *ver, X509 *cert)
{
	const struct sig_db *deny[] = { &ver->policy->dbx, &ver->policy->vendor_dbx,
					&ver->policy->mokx };
	char message[sizeof(ver->verdict->message)], subject[200];
	int r;

	for (size_t l = 0; l < ARRAY_SIZE(deny); l++) {
		const struct sig_db *db = deny[l];

		for (int i = 0; i < sk_X509_num(db->certs); i++) {
			if (X509_cmp(cert, sk_X509_value(db->certs, i)) != 0)
				continue;
			verdict_subject(cert, ver->verdict->entry, sizeof(ver->verdict->entry));
			BIO_snprintf(message, sizeof(message), "certificate %s is in %s",
				     ver->verdict->entry, db->name);
			verdict_decide(ver->verdict, VERDICT_DENY_CERT, db, message);
			return 1;
		}
		for (size_t k = 0; k < 3; k++) {
			uint8_t digest[EVP_MAX_MD_SIZE];
			unsigned int size;

			if (!has_digest_type(db, cert_digest_types[k]))
				continue;
			if (esl_cert_tbs_digest(cert, esl_type_md(cert_digest_types[k]), digest,
						&size) < 0) {
				verdict_decide(ver->verdict, VERDICT_BAD_CERT, NULL,
					       "cannot compute a certificate digest");
				return -1;
			}
			if (!sig_db_has_digest(db, cert_digest_types[k], digest, size))
				continue;
			verdict_subject(cert, subject, sizeof(subject));
			verdict_hex(digest, size, ver->verdict->entry, sizeof(ver->verdict->entry));
			BIO_snprintf(message, sizeof(message), "certificate %s %s digest is in %s",
				     subject, digest_names[k], db->name);
			verdict_decide(ver->verdict, VERDICT_DENY_CERT_DIGEST, db, message);
			return 1;
		}
		r = check_cert_key_denied(ver, cert, db);
		if (r)
			return r;
	}
	return 0;
}

/*
 * The certificate of @chain (signer first) that @db lists: the entry that
 * made it trusted, at db->certs[*@index] (-1 if none is, then the chain's
 * last). A partial chain may go on past it, so it need not be last.
 */
static X509 *first_listed(STACK_OF(X509) *chain, const struct sig_db *db, int *index)
{
	for (int i = 0; i < sk_X509_num(chain); i++)
		for (int j = 0; j < sk_X509_num(db->certs); j++)
			if (X509_cmp(sk_X509_value(chain, i), sk_X509_value(db->certs, j)) == 0) {
				*index = j;
				return sk_X509_value(chain, i);
			}
	*index = -1;
	return sk_X509_value(chain, sk_X509_num(chain) - 1);
}

static int check_chain_denied(struct verification *ver, STACK_OF(X509) *certs)
{
	for (int i = 0; i < sk_X509_num(certs); i++) {
		int r = check_cert_denied(ver, sk_X509_value(certs, i));

		if (r)
			return r;
	}
	return 0;
}

/* 1 when @sig's signature value is in a deny list (signature_value_types), else 0. */
static int check_signature_value_denied(struct verification *ver,
					const struct authenticode_signature *sig,
					const struct sig_db *const deny[3])
{
	char message[sizeof(ver->verdict->message)], signer[200] = "(not carried)";
	const uint8_t *value;
	size_t size;

	authenticode_signature_value(sig, &value, &size);
	for (size_t l = 0; l < 3; l++)
		for (size_t t = 0; t < ARRAY_SIZE(signature_value_types); t++) {
			enum esl_type type = signature_value_types[t];

			if (!value || size != esl_type_size(type) ||
			    !sig_db_has_digest(deny[l], type, value, (unsigned int)size))
				continue;
			if (authenticode_signer(sig))
				verdict_subject(authenticode_signer(sig), signer, sizeof(signer));
			verdict_hex(value, size, ver->verdict->entry, sizeof(ver->verdict->entry));
			BIO_snprintf(message, sizeof(message),
				     "signature value of signer %s is in %s (%s)", signer,
				     deny[l]->name, esl_type_name(type));
			verdict_decide(ver->verdict, VERDICT_DENY_SIGNATURE, deny[l], message);
			return 1;
		}
	return 0;
}

/*
 * Deny by signature: its signature value, every certificate it carries
 * (an RSA-2048 key too), and any deny list certificate its signer chains
 * to even when the signature does not carry it (a revoked CA).
 */
static int check_signature_denied(struct verification *ver,
				  const struct authenticode_signature *sig)
{
	const struct sig_db *deny[] = { &ver->policy->dbx, &ver->policy->vendor_dbx,
					&ver->policy->mokx };
	char message[sizeof(ver->verdict->message)];
	int r = check_signature_value_denied(ver, sig, deny);

	if (r)
		return r;
	r = check_chain_denied(ver, sig->p7->d.sign->cert);
	if (r)
		return r;
	for (size_t l = 0; l < ARRAY_SIZE(deny); l++) {
		STACK_OF(X509) *chain = NULL;
		X509_STORE *store;
		const char *reason;
		int index;

		if (sk_X509_num(deny[l]->certs) <= 0)
			continue;
		store = authenticode_trust_store(deny[l]->certs);
		if (!store) {
			verdict_decide(ver->verdict, VERDICT_OUT_OF_MEMORY, NULL, "out of memory");
			return -1;
		}
		r = authenticode_check_signer(sig, store, &chain, &reason);
		X509_STORE_free(store);
		if (r < 0)
			continue;
		verdict_subject(first_listed(chain, deny[l], &index), ver->verdict->entry,
				sizeof(ver->verdict->entry));
		sk_X509_pop_free(chain, X509_free);
		BIO_snprintf(message, sizeof(message), "certificate %s is in %s",
			     ver->verdict->entry, deny[l]->name);
		verdict_decide(ver->verdict, VERDICT_DENY_CERT, deny[l], message);
		return 1;
	}
	return 0;
}

/*
 * 1 when @sig is valid and its signer chains to @db (the verdict says so),
 * 0 when not, -1 on error.
 */
static int check_signature_allowed(struct verification *ver,
				   const struct authenticode_signature *sig,
				   const struct sig_db *db, const char **reason)
{
	char message[sizeof(ver->verdict->message)], signer[200];
	STACK_OF(X509) *chain = NULL;
	X509_STORE *store;
	int r, index;

	if (sk_X509_num(db->certs) <= 0)
		return 0;
	store = authenticode_trust_store(db->certs);
	if (!store) {
		verdict_decide(ver->verdict, VERDICT_OUT_OF_MEMORY, NULL, "out of memory");
		return -1;
	}
	r = authenticode_check_signer(sig, store, &chain, reason);
	X509_STORE_free(store);
	if (r < 0)
		return 0;
	/* the chain as built may reach a certificate the signature did not carry */
	r = check_chain_denied(ver, chain);
	if (r == 0) {
		verdict_subject(sk_X509_value(chain, 0), signer, sizeof(signer));
		verdict_subject(first_listed(chain, db, &index), ver->verdict->entry,
				sizeof(ver->verdict->entry));
		BIO_snprintf(message, sizeof(message),
			     "signed by %s, trusted through %s certificate %s", signer, db->name,
			     ver->verdict->entry);
		verdict_decide(ver->verdict, VERDICT_ALLOWED_CERT, db, message);
		if (index >= 0)
			ver->verdict->authority =
				(struct verdict_authority){ db, true, (size_t)index };
		r = 1;
	}
	sk_X509_pop_free(chain, X509_free);
	return r;
}

bool verify_sbat_required(const struct verify_policy *policy, enum verify_request request)
{
	return policy->sbat_level && request != VERIFY_FOR_LOADER;
}

/*
 * Refuse an image with more than one .sbat section, and, with a level, one
 * the level revokes, a malformed .sbat, or a missing one when the request
 * requires it (enum verify_request).
 */
static int check_sbat(struct verification *ver)
{
	const struct pe_section *sec = pe_find_section(&ver->img, ".sbat");
	char message[sizeof(ver->verdict->message)];
	struct reason_buf why_buf;
	struct sbat image;
	const char *why;
	size_t size;

	/* shim's rule (verify_buffer_sbat), whatever the level: which one would count? */
	if (pe_count_sections(&ver->img, ".sbat") > 1) {
		verdict_decide(ver->verdict, VERDICT_SBAT_MULTIPLE, NULL,
			       "image has more than one .sbat section");
		return 1;
	}
	if (!ver->policy->sbat_level)
		return 0;
	if (!sec) {
		if (!verify_sbat_required(ver->policy, ver->request))
			return 0;
		verdict_decide(ver->verdict, VERDICT_SBAT_MISSING, NULL,
			       "image has no .sbat section (SBAT is required)");
		return 1;
	}
	size = sec->raw_size;
	if (sec->virtual_size && sec->virtual_size < size)
		size = sec->virtual_size; /* the rest is file alignment padding */
	if (!range_inside(sec->raw_offset, size, ver->img.size)) {
		verdict_decide(ver->verdict, VERDICT_SBAT_MALFORMED, NULL,
			       ".sbat section lies outside the file");
		return 1;
	}
	if (sbat_parse(ver->img.data + sec->raw_offset, size, SBAT_SECTION, &image, &why,
		       &why_buf) < 0) {
		BIO_snprintf(message, sizeof(message), "malformed .sbat section: %s", why);
		verdict_decide(ver->verdict, VERDICT_SBAT_MALFORMED, NULL, message);
		return 1;
	}
	if (sbat_check(&image, ver->policy->sbat_level, &why, &why_buf) < 0) {
		verdict_decide(ver->verdict, VERDICT_SBAT_REVOKED, NULL, why);
		ver->verdict->list = variables[VAR_SBAT_LEVEL].name;
		return 1;
	}
	return 0;
}

static void verify_loaded(struct verification *ver)
{
	const struct verify_policy *p = ver->policy;
	const struct sig_db *deny[] = { &p->dbx, &p->vendor_dbx, &p->mokx };
	const struct sig_db *allow[] = { &p->vendor, &p->db, &p->mok };
	enum verdict_reason code = VERDICT_NOT_SIGNED;
	const char *reason = "image is not signed";
	int r;

	for (size_t l = 0; l < 3; l++)
		if (check_image_digest(ver, deny[l], false))
			return;
	for (size_t s = 0; s < ver->sigs.count; s++)
		if (check_signature_denied(ver, &ver->sigs.sigs[s]))
			return;
	if (check_sbat(ver))
		return;

	for (size_t l = 0; l < 3; l++)
		if (check_image_digest(ver, allow[l], true))
			return;
	for (size_t s = 0; s < ver->sigs.count; s++) {
		const struct authenticode_signature *sig = &ver->sigs.sigs[s];
		size_t k = digest_kind(sig->md);

		if (image_digest(ver, k) < 0)
			return;
		if (authenticode_check_image(sig, ver->digests->d[k].digest,
					     ver->digests->d[k].size, &reason) < 0) {
			code = VERDICT_BAD_SIGNATURE;
			continue;
		}
		/* a valid signature: refused from here on only for want of trust */
		code = VERDICT_UNTRUSTED_SIGNER;
		reason = "signer does not chain to a trusted certificate";
		for (size_t l = 0; l < 3; l++) {
			r = check_signature_allowed(ver, sig, allow[l], &reason);
			if (r)
				return;
		}
	}
	verdict_decide(ver->verdict, code, NULL, reason);
}

/*
 * For VERIFY_MOK_MANAGER: 0 when the image is the MOK manager built with
 * lockshim, else -1 with the verdict refused. Its own digest pass, before
 * any list is looked at: whatever else would allow it, no other image runs
 * in that slot.
 */
static int check_mok_manager(struct verification *ver)
{
	uint8_t digest[EVP_MAX_MD_SIZE];
	char message[sizeof(ver->verdict->message)];
	unsigned int size;
	const char *reason;

	if (!ver->policy->mok_manager_sha256) {
		verdict_decide(ver->verdict, VERDICT_NO_MOK_MANAGER, NULL,
			       "no MOK manager digest is built in");
		return -1;
	}
	if (pe_authenticode_digest(&ver->img, EVP_sha256(), digest, &size, &reason) < 0) {
		verdict_decide(ver->verdict, VERDICT_BAD_IMAGE, NULL, reason);
		return -1;
	}
	if (size == MOK_MANAGER_DIGEST_SIZE &&
	    memcmp(digest, ver->policy->mok_manager_sha256, MOK_MANAGER_DIGEST_SIZE) == 0)
		return 0;
	verdict_hex(digest, size, ver->verdict->entry, sizeof(ver->verdict->entry));
	BIO_snprintf(message, sizeof(message),
		     "not lockshim's MOK manager: SHA-256 digest %s is not the one built in",
		     ver->verdict->entry);
	verdict_decide(ver->verdict, VERDICT_NOT_MOK_MANAGER, NULL, message);
	return -1;
}

void verify_image(const uint8_t *data, size_t size, const struct verify_policy *policy,
		  enum verify_request request, struct verdict *verdict)
{
	verify_image_digests(data, size, policy, request, NULL, verdict);
}

void verify_image_digests(const uint8_t *data, size_t size, const struct verify_policy *policy,
			  enum verify_request request, struct image_digests *digests,
			  struct verdict *verdict)
{
	struct verification *ver;
	const char *reason;

	memset(verdict, 0, sizeof(*verdict));
	if (policy->unusable[0] && request != VERIFY_MOK_MANAGER) {
		verdict_decide(verdict, VERDICT_DENY_LIST_UNUSABLE, NULL, policy->unusable);
		return;
	}
	/* a few KiB: keep it off the firmware's small stack */
	ver = OPENSSL_zalloc(sizeof(*ver));
	if (!ver) {
		verdict_decide(verdict, VERDICT_OUT_OF_MEMORY, NULL, "out of memory");
		return;
	}
	ver->policy = policy;
	ver->request = request;
	ver->verdict = verdict;
	ver->digests = digests ? digests : &ver->own;
	if (pe_parse(data, size, &ver->img, &reason) < 0)
		verdict_decide(verdict, VERDICT_BAD_IMAGE, NULL, reason);
	else if (authenticode_collect(&ver->img, &ver->sigs, &reason) < 0)
		verdict_decide(verdict, VERDICT_MALFORMED_SIGNATURE, NULL, reason);
	else if (request != VERIFY_MOK_MANAGER || check_mok_manager(ver) == 0)
		verify_loaded(ver);
	authenticode_signatures_free(&ver->sigs);
	OPENSSL_free(ver);
}
