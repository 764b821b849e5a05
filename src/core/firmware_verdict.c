// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "firmware_verdict.h"

#include <string.h>

#include <openssl/bio.h>

#include "authenticode.h"
#include "macro.h"
#include "pe.h"

/* The image digests a signature may name (authenticode.c accepts only these). */
static const enum esl_type image_digest_types[] = { ESL_SHA256, ESL_SHA384, ESL_SHA512 };
static const enum esl_type cert_digest_types[] = { ESL_X509_SHA256, ESL_X509_SHA384,
						   ESL_X509_SHA512 };

/* One decision: the image, its digests as computed so far, the lists, the verdict. */
struct firmware_check {
	struct pe_image img;
	const struct sig_db *db, *dbx;
	struct firmware_verdict *fv;
	struct {
		uint8_t digest[EVP_MAX_MD_SIZE];
		unsigned int size;
	} digests[ARRAY_SIZE(image_digest_types)];
	/* the allow found so far: by signature (or -1) and db entry */
	bool allowed;
	long allowed_signature;
	struct verdict_authority authority;
	char allowed_entry[sizeof(((struct verdict *)0)->entry)];
	char allowed_message[sizeof(((struct verdict *)0)->message)];
	char allowed_signer[sizeof(((struct firmware_verdict *)0)->signer)];
	/* the refusal to give when nothing allows: a code and its words */
	enum verdict_reason refusal;
	const struct sig_db *refusal_list;
	char refusal_entry[sizeof(((struct verdict *)0)->entry)];
	char refusal_message[sizeof(((struct verdict *)0)->message)];
};

/* The image digest of kind @k, computed on first use; 0, or -1 with the verdict set. */
static int image_digest(struct firmware_check *fc, size_t k)
{
	const char *reason;

	if (fc->digests[k].size)
		return 0;
	if (pe_authenticode_digest(&fc->img, esl_type_md(image_digest_types[k]),
				   fc->digests[k].digest, &fc->digests[k].size, &reason) < 0) {
		verdict_decide(&fc->fv->verdict, VERDICT_BAD_IMAGE, NULL, reason);
		return -1;
	}
	return 0;
}

static size_t digest_kind(const EVP_MD *md)
{
	for (size_t k = 0; k < ARRAY_SIZE(image_digest_types); k++)
		if (EVP_MD_get_type(md) == EVP_MD_get_type(esl_type_md(image_digest_types[k])))
			return k;
	return 0; /* authenticode.c accepts only these */
}

/* Where the image digest of kind @k is in @list: its index, or -1. */
static long digest_in(struct firmware_check *fc, size_t k, const struct sig_db *list)
{
	return sig_db_find_digest(list, image_digest_types[k], fc->digests[k].digest,
				  fc->digests[k].size);
}

/* Say the decision, naming signature @s (-1: none) and the entry text @entry of @list. */
static void decide(struct firmware_check *fc, enum verdict_reason reason, const struct sig_db *list,
		   long s, const char *entry, const char *message)
{
	struct verdict *v = &fc->fv->verdict;

	verdict_decide(v, reason, list, message);
	BIO_snprintf(v->entry, sizeof(v->entry), "%s", entry);
	fc->fv->signature = s;
}

/* Decide on an image without signatures: by its SHA-256 digest alone. */
static void decide_unsigned(struct firmware_check *fc)
{
	char hex[sizeof(fc->fv->verdict.entry)], message[sizeof(fc->fv->verdict.message)];
	long index;

	if (image_digest(fc, 0) < 0)
		return;
	verdict_hex(fc->digests[0].digest, fc->digests[0].size, hex, sizeof(hex));
	if (digest_in(fc, 0, fc->dbx) >= 0) {
		BIO_snprintf(message, sizeof(message), "unsigned, and its SHA-256 digest is in %s",
			     fc->dbx->name);
		decide(fc, VERDICT_DENY_DIGEST, fc->dbx, -1, hex, message);
		return;
	}
	index = digest_in(fc, 0, fc->db);
	if (index >= 0) {
		BIO_snprintf(message, sizeof(message), "unsigned, and its SHA-256 digest is in %s",
			     fc->db->name);
		decide(fc, VERDICT_ALLOWED_DIGEST, fc->db, -1, hex, message);
		fc->fv->verdict.authority =
			(struct verdict_authority){ fc->db, false, (size_t)index };
		return;
	}
	BIO_snprintf(message, sizeof(message), "unsigned, and its SHA-256 digest is not in %s",
		     fc->db->name);
	decide(fc, VERDICT_NOT_SIGNED, NULL, -1, "", message);
}

/*
 * The index of the first certificate of @list that @sig's signer chains to
 * (AuthenticodeVerify with that one certificate as the root), or -1; -2
 * when out of memory.
 */
static int first_chained(const struct authenticode_signature *sig, const struct sig_db *list)
{
	for (int i = 0; i < sk_X509_num(list->certs); i++) {
		STACK_OF(X509) *one = sk_X509_new_null(), *chain = NULL;
		X509_STORE *store = NULL;
		const char *reason;
		int r = -1;

		if (one && sk_X509_push(one, sk_X509_value(list->certs, i)))
			store = authenticode_trust_store(one);
		sk_X509_free(one);
		if (!store)
			return -2;
		if (authenticode_check_signer(sig, store, &chain, &reason) == 0) {
			sk_X509_pop_free(chain, X509_free);
			r = i;
		}
		X509_STORE_free(store);
		if (r >= 0)
			return r;
	}
	return -1;
}

/* 1 when a TBS digest of @cert is in dbx (the digest's hex in @hex), 0 when not, -1 on error. */
static int tbs_in_dbx(struct firmware_check *fc, X509 *cert, char *hex, size_t hex_size)
{
	for (size_t t = 0; t < ARRAY_SIZE(cert_digest_types); t++) {
		uint8_t digest[EVP_MAX_MD_SIZE];
		unsigned int size;

		if (esl_cert_tbs_digest(cert, esl_type_md(cert_digest_types[t]), digest, &size) < 0)
			return -1;
		if (!sig_db_has_digest(fc->dbx, cert_digest_types[t], digest, size))
			continue;
		verdict_hex(digest, size, hex, hex_size);
		return 1;
	}
	return 0;
}

/*
 * Signature @s: 1 when dbx refuses the image by it (the verdict says so),
 * 0 when not (an allow by it recorded in @fc), -1 on error (the verdict set).
 */
static int check_signature(struct firmware_check *fc, long s,
			   const struct authenticode_signature *sig)
{
	char message[sizeof(fc->fv->verdict.message)], entry[sizeof(fc->fv->verdict.entry)];
	char signer[sizeof(fc->fv->signer)], subject[200];
	X509 *signer_cert = authenticode_signer(sig);
	size_t k = digest_kind(sig->md);
	const char *reason;
	bool valid;
	long index;
	int r;

	if (!signer_cert) {
		/* EDK2's Pkcs7GetSigners finds no signer: IsForbiddenByDbx refuses */
		BIO_snprintf(message, sizeof(message), "signature %ld: %s", s,
			     "signer certificate not found in the signature");
		decide(fc, VERDICT_MALFORMED_SIGNATURE, NULL, s, "", message);
		return 1;
	}
	verdict_subject(signer_cert, signer, sizeof(signer));
	memcpy(fc->fv->signer, signer, sizeof(signer));
	if (image_digest(fc, k) < 0)
		return -1;
	valid = authenticode_check_image(sig, fc->digests[k].digest, fc->digests[k].size,
					 &reason) == 0;

	/* dbx certificates as roots: only a signature of this image that verifies */
	r = valid ? first_chained(sig, fc->dbx) : -1;
	if (r == -2)
		goto out_of_memory;
	if (r >= 0) {
		verdict_subject(sk_X509_value(fc->dbx->certs, r), entry, sizeof(entry));
		BIO_snprintf(message, sizeof(message),
			     "signature %ld (signer %s) chains to %s certificate %s", s, signer,
			     fc->dbx->name, entry);
		decide(fc, VERDICT_DENY_CERT, fc->dbx, s, entry, message);
		return 1;
	}
	r = tbs_in_dbx(fc, signer_cert, entry, sizeof(entry));
	if (r < 0)
		goto bad_cert;
	if (r > 0) {
		BIO_snprintf(message, sizeof(message),
			     "signature %ld: its signer %s has its TBS digest in %s", s, signer,
			     fc->dbx->name);
		decide(fc, VERDICT_DENY_CERT_DIGEST, fc->dbx, s, entry, message);
		return 1;
	}

	if (!fc->allowed && valid) {
		r = first_chained(sig, fc->db);
		if (r == -2)
			goto out_of_memory;
		if (r >= 0) {
			X509 *root = sk_X509_value(fc->db->certs, r);
			int revoked;

			verdict_subject(root, subject, sizeof(subject));
			revoked = tbs_in_dbx(fc, root, entry, sizeof(entry));
			if (revoked < 0)
				goto bad_cert;
			if (revoked) {
				fc->refusal = VERDICT_DENY_CERT_DIGEST;
				fc->refusal_list = fc->dbx;
				memcpy(fc->refusal_entry, entry, sizeof(entry));
				BIO_snprintf(
					fc->refusal_message, sizeof(fc->refusal_message),
					"signature %ld (signer %s) chains to %s certificate %s, "
					"whose TBS digest is in %s",
					s, signer, fc->db->name, subject, fc->dbx->name);
			} else {
				fc->allowed = true;
				fc->allowed_signature = s;
				fc->authority =
					(struct verdict_authority){ fc->db, true, (size_t)r };
				memcpy(fc->allowed_entry, subject, sizeof(subject));
				memcpy(fc->allowed_signer, signer, sizeof(signer));
				BIO_snprintf(fc->allowed_message, sizeof(fc->allowed_message),
					     "signature %ld (signer %s) trusted through %s "
					     "certificate %s",
					     s, signer, fc->db->name, subject);
			}
		} else if (fc->refusal != VERDICT_DENY_CERT_DIGEST) {
			fc->refusal = VERDICT_UNTRUSTED_SIGNER;
			BIO_snprintf(fc->refusal_message, sizeof(fc->refusal_message),
				     "no signature's signer chains to a %s certificate",
				     fc->db->name);
		}
	} else if (!valid && fc->refusal == VERDICT_NOT_SIGNED) {
		fc->refusal = VERDICT_BAD_SIGNATURE;
		BIO_snprintf(fc->refusal_message, sizeof(fc->refusal_message), "signature %ld: %s",
			     s, reason);
	}

	/* the image digest by this signature's algorithm */
	index = digest_in(fc, k, fc->dbx);
	if (index >= 0) {
		verdict_hex(fc->digests[k].digest, fc->digests[k].size, entry, sizeof(entry));
		BIO_snprintf(message, sizeof(message), "image %s digest is in %s",
			     esl_type_name(image_digest_types[k]), fc->dbx->name);
		decide(fc, VERDICT_DENY_DIGEST, fc->dbx, s, entry, message);
		return 1;
	}
	if (!fc->allowed && (index = digest_in(fc, k, fc->db)) >= 0) {
		fc->allowed = true;
		fc->allowed_signature = -1;
		fc->allowed_signer[0] = '\0';
		fc->authority = (struct verdict_authority){ fc->db, false, (size_t)index };
		verdict_hex(fc->digests[k].digest, fc->digests[k].size, fc->allowed_entry,
			    sizeof(fc->allowed_entry));
		BIO_snprintf(fc->allowed_message, sizeof(fc->allowed_message),
			     "image %s digest is in %s", esl_type_name(image_digest_types[k]),
			     fc->db->name);
	}
	return 0;

out_of_memory:
	decide(fc, VERDICT_OUT_OF_MEMORY, NULL, s, "", "out of memory");
	return -1;
bad_cert:
	decide(fc, VERDICT_BAD_CERT, NULL, s, "", "cannot compute a certificate digest");
	return -1;
}

/* Decide on a signed image: every certificate table entry in turn, any refusal first. */
static void decide_signed(struct firmware_check *fc)
{
	struct authenticode_signature sig;
	struct authenticode_signatures all;
	char message[sizeof(fc->fv->verdict.message)];
	const uint8_t *der;
	const char *reason;
	size_t der_len, start, cursor = 0;
	long s;
	int r;

	fc->refusal = VERDICT_NOT_SIGNED;
	BIO_snprintf(fc->refusal_message, sizeof(fc->refusal_message),
		     "no signature in the certificate table");
	for (s = 0; (r = authenticode_next_entry(&fc->img, &cursor, &der, &der_len, &reason)) == 1;
	     s++) {
		/*
		 * EDK2 wants every entry's padding to 8 bytes inside the table, the
		 * last one's too (lockshim's reader lets that one go without).
		 */
		/* the entry is inside the table (authenticode_next_entry): no overflow */
		start = (size_t)(der - fc->img.data) - fc->img.cert_table_offset - 8;
		if (((der_len + 8 + 7) & ~(size_t)7) > fc->img.cert_table_size - start) {
			BIO_snprintf(message, sizeof(message),
				     "signature %ld: its certificate table entry is not padded to "
				     "8 bytes within the table",
				     s);
			decide(fc, VERDICT_MALFORMED_SIGNATURE, NULL, s, "", message);
			return;
		}
		if (authenticode_signature_parse(der, der_len, &sig, &reason) < 0) {
			BIO_snprintf(message, sizeof(message), "signature %ld: %s", s, reason);
			decide(fc, VERDICT_MALFORMED_SIGNATURE, NULL, s, "", message);
			return;
		}
		r = check_signature(fc, s, &sig);
		authenticode_signature_free(&sig);
		if (r)
			return;
		fc->fv->signatures++;
	}
	if (r < 0) {
		BIO_snprintf(message, sizeof(message), "certificate table: %s", reason);
		decide(fc, VERDICT_MALFORMED_SIGNATURE, NULL, -1, "", message);
		return;
	}
	/* what the firmware does not see, to say so */
	if (authenticode_collect(&fc->img, &all, &reason) == 0) {
		fc->fv->nested = all.count - fc->fv->signatures;
		authenticode_signatures_free(&all);
	}
	if (fc->allowed) {
		decide(fc, fc->authority.cert ? VERDICT_ALLOWED_CERT : VERDICT_ALLOWED_DIGEST,
		       fc->db, fc->allowed_signature, fc->allowed_entry, fc->allowed_message);
		fc->fv->verdict.authority = fc->authority;
		memcpy(fc->fv->signer, fc->allowed_signer, sizeof(fc->fv->signer));
		return;
	}
	fc->fv->signer[0] = '\0';
	decide(fc, fc->refusal, fc->refusal_list, -1, fc->refusal_entry, fc->refusal_message);
}

void firmware_verify_image(const uint8_t *data, size_t size, const struct sig_db *db,
			   const struct sig_db *dbx, struct firmware_verdict *fv)
{
	struct firmware_check *fc;
	const char *reason;

	memset(fv, 0, sizeof(*fv));
	fv->signature = -1;
	/* a few KiB: keep it off the firmware's small stack */
	fc = OPENSSL_zalloc(sizeof(*fc));
	if (!fc) {
		verdict_decide(&fv->verdict, VERDICT_OUT_OF_MEMORY, NULL, "out of memory");
		return;
	}
	fc->db = db;
	fc->dbx = dbx;
	fc->fv = fv;
	if (pe_parse(data, size, &fc->img, &reason) < 0)
		verdict_decide(&fv->verdict, VERDICT_BAD_IMAGE, NULL, reason);
	else if (fc->img.cert_table_size == 0)
		decide_unsigned(fc);
	else
		decide_signed(fc);
	OPENSSL_free(fc);
	if (fv->nested) {
		size_t used = strlen(fv->verdict.message);

		BIO_snprintf(fv->verdict.message + used, sizeof(fv->verdict.message) - used,
			     " (%zu nested signature(s) the firmware does not see)", fv->nested);
	}
}
