/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Authenticode signatures for unit tests: unit_sign_image() appends a
 * certificate table with one PKCS#7 SignedData over an image's SHA-256
 * Authenticode digest, as sbsign does (SpcIndirectDataContent; the signer's
 * certificate and any others carried), optionally with nested signatures
 * (as osslsigncode -nest adds them) in its SignerInfo.
 */
#ifndef LOCKSHIM_UNIT_SIGN_H
#define LOCKSHIM_UNIT_SIGN_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/objects.h>
#include <openssl/pkcs7.h>

#include "pe.h"
#include "unit_image.h"

/* One signer: its certificate and key, and certificates to carry besides it (or NULL). */
struct unit_signer {
	X509 *cert;
	EVP_PKEY *key;
	X509 *extra;
};

/* DER: @tag, a length and @n bytes at @body, appended at *@p. */
static inline void unit_der(uint8_t **p, uint8_t tag, const uint8_t *body, size_t n)
{
	*(*p)++ = tag;
	if (n < 0x80) {
		*(*p)++ = (uint8_t)n;
	} else {
		*(*p)++ = 0x82;
		*(*p)++ = (uint8_t)(n >> 8);
		*(*p)++ = (uint8_t)n;
	}
	memcpy(*p, body, n);
	*p += n;
}

/*
 * SpcIndirectDataContent { data SEQUENCE { SPC_PE_IMAGE_DATAOBJ }, DigestInfo
 * { sha256, @digest } } into @out (128 bytes); returns its length.
 */
static inline size_t unit_indirect_data(const uint8_t digest[32], uint8_t *out)
{
	static const uint8_t pe_image_data_oid[] = { 0x06, 0x0a, 0x2b, 0x06, 0x01, 0x04,
						     0x01, 0x82, 0x37, 0x02, 0x01, 0x0f };
	static const uint8_t sha256_alg[] = { 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01,
					      0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00 };
	uint8_t fields[96], info[64], *p = fields, *q = info;

	unit_der(&p, 0x30, pe_image_data_oid, sizeof(pe_image_data_oid));
	memcpy(q, sha256_alg, sizeof(sha256_alg));
	q += sizeof(sha256_alg);
	unit_der(&q, 0x04, digest, 32);
	unit_der(&p, 0x30, info, (size_t)(q - info));
	q = out;
	unit_der(&q, 0x30, fields, (size_t)(p - fields));
	return (size_t)(q - out);
}

/*
 * A SignedData by @s over @content (SpcIndirectDataContent, @len bytes, a
 * two-byte header): signed as detached data, as sbsign does, then given
 * the SpcIndirectDataContent as its content. NULL on failure.
 */
static inline PKCS7 *unit_signed_data(const struct unit_signer *s, const uint8_t *content,
				      size_t len)
{
	PKCS7 *p7 = PKCS7_new(), *inner = PKCS7_new();
	ASN1_STRING *seq = ASN1_STRING_new();
	ASN1_TYPE *other = ASN1_TYPE_new();
	BIO *bio = NULL;
	int ok;

	ok = p7 && inner && seq && other && PKCS7_set_type(p7, NID_pkcs7_signed) &&
	     PKCS7_add_signature(p7, s->cert, s->key, EVP_sha256()) &&
	     PKCS7_add_certificate(p7, s->cert) &&
	     (!s->extra || PKCS7_add_certificate(p7, s->extra)) &&
	     PKCS7_content_new(p7, NID_pkcs7_data) &&
	     PKCS7_ctrl(p7, PKCS7_OP_SET_DETACHED_SIGNATURE, 1, NULL) &&
	     (bio = PKCS7_dataInit(p7, NULL)) != NULL &&
	     BIO_write(bio, content + 2, (int)len - 2) == (int)len - 2 &&
	     PKCS7_dataFinal(p7, bio) && ASN1_STRING_set(seq, content, (int)len);
	if (ok) {
		ASN1_TYPE_set(other, V_ASN1_SEQUENCE, seq);
		seq = NULL;
		inner->type = OBJ_txt2obj("1.3.6.1.4.1.311.2.1.4", 1);
		inner->d.other = other;
		other = NULL;
		ok = inner->type && PKCS7_set_content(p7, inner);
		if (ok)
			inner = NULL;
	}
	BIO_free_all(bio);
	ASN1_STRING_free(seq);
	ASN1_TYPE_free(other);
	PKCS7_free(inner);
	if (!ok) {
		PKCS7_free(p7);
		return NULL;
	}
	p7->detached = 0;
	return p7;
}

/* Add @nested (DER) to @p7's SignerInfo as a nested signature (SPC_NESTED_SIGNATURE). */
static inline int unit_add_nested(PKCS7 *p7, const uint8_t *nested, int len)
{
	PKCS7_SIGNER_INFO *si = sk_PKCS7_SIGNER_INFO_value(PKCS7_get_signer_info(p7), 0);
	int nid = OBJ_txt2nid("1.3.6.1.4.1.311.2.4.1");
	ASN1_STRING *seq = ASN1_STRING_new();

	if (nid == NID_undef)
		nid = OBJ_create("1.3.6.1.4.1.311.2.4.1", "unitNestedSig", "unit nested signature");
	if (!seq || !ASN1_STRING_set(seq, nested, len) ||
	    !PKCS7_add_attribute(si, nid, V_ASN1_SEQUENCE, seq)) {
		ASN1_STRING_free(seq);
		return -1;
	}
	return 0;
}

/*
 * The DER SignedData (OPENSSL_malloc'd, its length returned; 0 on failure)
 * by @signers[0] over @content, with @signers[1..n-1] nested in it in turn.
 */
static inline int unit_signature_der(const struct unit_signer *signers, size_t n,
				     const uint8_t *content, size_t content_len, uint8_t **out)
{
	uint8_t *der = NULL;
	int der_len = 0;

	for (size_t i = n; i-- > 0;) {
		PKCS7 *outer = unit_signed_data(&signers[i], content, content_len);

		if (!outer || (der && unit_add_nested(outer, der, der_len) < 0)) {
			PKCS7_free(outer);
			OPENSSL_free(der);
			return 0;
		}
		OPENSSL_free(der);
		der = NULL;
		der_len = i2d_PKCS7(outer, &der);
		PKCS7_free(outer);
		if (der_len <= 0)
			return 0;
	}
	*out = der;
	return der_len;
}

/*
 * The image of @size bytes at @img (it must have no certificate table) with
 * a certificate table of @n_entries entries: entry e a SignedData by
 * @signers[e][0] with @signers[e][1..counts[e]-1] nested. A new exact-size
 * heap block of *@signed_size bytes, or NULL.
 */
static inline uint8_t *unit_sign_image_entries(const uint8_t *img, size_t size,
					       const struct unit_signer *const *signers,
					       const size_t *counts, size_t n_entries,
					       size_t *signed_size)
{
	struct pe_image *pe = calloc(1, sizeof(*pe));
	uint8_t digest[EVP_MAX_MD_SIZE], content[128], *der[4] = { NULL }, *out = NULL;
	int der_len[4] = { 0 };
	unsigned int digest_len;
	const char *reason;
	size_t content_len, table = 0, at;

	if (n_entries > 4 || !pe || pe_parse(img, size, pe, &reason) < 0 ||
	    pe_authenticode_digest(pe, EVP_sha256(), digest, &digest_len, &reason) < 0)
		goto out;
	content_len = unit_indirect_data(digest, content);
	for (size_t e = 0; e < n_entries; e++) {
		der_len[e] = unit_signature_der(signers[e], counts[e], content, content_len, &der[e]);
		if (!der_len[e])
			goto out;
		table += (8 + (size_t)der_len[e] + 7) & ~(size_t)7;
	}
	out = calloc(1, size + table);
	if (!out)
		goto out;
	memcpy(out, img, size);
	at = size;
	for (size_t e = 0; e < n_entries; e++) {
		put32(out + at, (uint32_t)(8 + der_len[e]));
		put16(out + at + 4, 0x0200);
		put16(out + at + 6, 0x0002);
		memcpy(out + at + 8, der[e], (size_t)der_len[e]);
		at += (8 + (size_t)der_len[e] + 7) & ~(size_t)7;
	}
	put32(out + IMG_OPT + 112 + 4 * 8, (uint32_t)size); /* the security directory */
	put32(out + IMG_OPT + 112 + 4 * 8 + 4, (uint32_t)table);
	*signed_size = size + table;
out:
	for (size_t e = 0; e < 4; e++)
		OPENSSL_free(der[e]);
	free(pe);
	return out;
}

/*
 * The image of @size bytes at @img (it must have no certificate table),
 * signed by @signers[0], with @signers[1..n-1] as nested signatures: a new
 * exact-size heap block of *@signed_size bytes, or NULL.
 */
static inline uint8_t *unit_sign_image(const uint8_t *img, size_t size,
				       const struct unit_signer *signers, size_t n,
				       size_t *signed_size)
{
	return unit_sign_image_entries(img, size, &signers, &n, 1, signed_size);
}

#endif
