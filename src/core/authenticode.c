// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * Authenticode signature checks, done the way UEFI firmware does them:
 * the PKCS#7 content is SpcIndirectDataContent, whose DER value (without
 * its outer SEQUENCE header) is what the signer's messageDigest covers; any
 * certificate in the signer's chain may be the trusted one; no time or key
 * usage checks, since firmware has neither a trusted clock nor a code-signing
 * purpose that real certificates carry consistently.
 */
#include "authenticode.h"

#include <limits.h>
#include <string.h>

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/objects.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include "reason.h"
#include "safe_math.h"

#define WIN_CERT_HEADER_SIZE      8
#define WIN_CERT_REVISION_2_0     0x0200
#define WIN_CERT_TYPE_PKCS_SIGNED 0x0002

/* 1.3.6.1.4.1.311.2.1.4, SPC_INDIRECT_DATA_OBJID */
static const uint8_t spc_indirect_data_oid[] = { 0x2b, 0x06, 0x01, 0x04, 0x01,
						 0x82, 0x37, 0x02, 0x01, 0x04 };
/* 1.3.6.1.4.1.311.2.4.1, SPC_NESTED_SIGNATURE_OBJID */
static const uint8_t spc_nested_signature_oid[] = { 0x2b, 0x06, 0x01, 0x04, 0x01,
						    0x82, 0x37, 0x02, 0x04, 0x01 };

int authenticode_next_entry(const struct pe_image *img, size_t *cursor, const uint8_t **der,
			    size_t *der_len, const char **reason)
{
	const uint8_t *entry;
	uint32_t length;
	size_t next;

	if (*cursor >= img->cert_table_size)
		return 0;
	if (*cursor % 8)
		return refuse(reason, "certificate table entry is not 8-byte aligned");
	if (!range_inside(*cursor, WIN_CERT_HEADER_SIZE, img->cert_table_size))
		return refuse(reason, "certificate table entry header truncated");

	entry = img->data + img->cert_table_offset + *cursor;
	length = read_le32(entry);
	if (length <= WIN_CERT_HEADER_SIZE)
		return refuse(reason, "certificate table entry length too small");
	if (!range_inside(*cursor, length, img->cert_table_size))
		return refuse(reason, "certificate table entry extends past the table");
	if (read_le16(entry + 4) != WIN_CERT_REVISION_2_0)
		return refuse(reason, "certificate table entry has an unknown revision");
	if (read_le16(entry + 6) != WIN_CERT_TYPE_PKCS_SIGNED)
		return refuse(reason, "certificate table entry is not PKCS#7 SignedData");

	*der = entry + WIN_CERT_HEADER_SIZE;
	*der_len = length - WIN_CERT_HEADER_SIZE;
	/* entries are padded to 8 bytes; the padding may be missing after the last */
	next = *cursor + ((length + 7u) & ~(size_t)7);
	*cursor = next < img->cert_table_size ? next : img->cert_table_size;
	return 1;
}

/*
 * Enter a DER element with @tag at *@p (of *@len bytes); on return *@p and
 * *@len describe its value.
 */
static int der_enter(const uint8_t **p, long *len, int tag, const uint8_t **after)
{
	const unsigned char *q = *p;
	long body_len;
	int ptag, pclass;

	if (*len <= 0)
		return -1;
	if (ASN1_get_object(&q, &body_len, &ptag, &pclass, *len) & 0x80)
		return -1;
	if (ptag != tag || pclass != V_ASN1_UNIVERSAL)
		return -1;
	if (body_len > *len - (q - *p))
		return -1;
	if (after)
		*after = q + body_len;
	*len = body_len;
	*p = q;
	return 0;
}

static const EVP_MD *digest_by_oid(const ASN1_OBJECT *oid)
{
	switch (OBJ_obj2nid(oid)) {
	case NID_sha256:
		return EVP_sha256();
	case NID_sha384:
		return EVP_sha384();
	case NID_sha512:
		return EVP_sha512();
	default:
		return NULL;
	}
}

/*
 * SpcIndirectDataContent ::= SEQUENCE {
 *     data          SpcAttributeTypeAndOptionalValue,
 *     messageDigest DigestInfo }   -- SEQUENCE { AlgorithmIdentifier, OCTET STRING }
 */
static int parse_indirect_data(const uint8_t *der, long der_len, struct authenticode_signature *sig,
			       const char **reason)
{
	const uint8_t *p = der, *end, *after, *digest_info_end;
	const unsigned char *oid_p;
	ASN1_OBJECT *oid = NULL;
	long len = der_len, field_len;

	if (der_enter(&p, &len, V_ASN1_SEQUENCE, &end) < 0)
		return refuse(reason, "SpcIndirectDataContent is not a SEQUENCE");
	sig->content = p;
	sig->content_len = (size_t)len;

	field_len = len; /* data: SpcAttributeTypeAndOptionalValue, not used */
	if (der_enter(&p, &field_len, V_ASN1_SEQUENCE, &after) < 0)
		return refuse(reason, "SpcIndirectDataContent has no data field");
	p = after;
	len = end - p;

	if (der_enter(&p, &len, V_ASN1_SEQUENCE, &digest_info_end) < 0)
		return refuse(reason, "SpcIndirectDataContent has no DigestInfo");
	field_len = len;
	if (der_enter(&p, &field_len, V_ASN1_SEQUENCE, &after) < 0)
		return refuse(reason, "DigestInfo has no AlgorithmIdentifier");
	oid_p = p;
	if (!d2i_ASN1_OBJECT(&oid, &oid_p, field_len))
		return refuse(reason, "DigestInfo algorithm is not an OID");
	sig->md = digest_by_oid(oid);
	ASN1_OBJECT_free(oid);
	if (!sig->md)
		return refuse(reason, "image digest algorithm is not SHA-256, SHA-384 or SHA-512");

	p = after;
	len = digest_info_end - p;
	if (der_enter(&p, &len, V_ASN1_OCTET_STRING, NULL) < 0)
		return refuse(reason, "DigestInfo digest is not an OCTET STRING");
	if (len != EVP_MD_get_size(sig->md))
		return refuse(reason, "DigestInfo digest length does not match its algorithm");
	memcpy(sig->digest, p, (size_t)len);
	sig->digest_len = (unsigned int)len;
	return 0;
}

/* Take @p7 (owned from here on) as an Authenticode signature. */
static int signature_from_p7(PKCS7 *p7, struct authenticode_signature *sig, const char **reason)
{
	PKCS7 *content;
	ASN1_TYPE *other;

	memset(sig, 0, sizeof(*sig));
	sig->p7 = p7;
	if (!PKCS7_type_is_signed(p7) || !p7->d.sign)
		goto out_free_signature;
	if (sk_PKCS7_SIGNER_INFO_num(PKCS7_get_signer_info(p7)) != 1) {
		authenticode_signature_free(sig);
		return refuse(reason, "signature does not have exactly one signer");
	}
	/*
	 * Only SHA-2 digests, checked here: OpenSSL 3.0's PKCS7_verify leaks its
	 * content BIO when it meets a digest algorithm it cannot set up.
	 */
	for (int i = 0; i < sk_X509_ALGOR_num(p7->d.sign->md_algs); i++)
		if (!digest_by_oid(sk_X509_ALGOR_value(p7->d.sign->md_algs, i)->algorithm)) {
			authenticode_signature_free(sig);
			return refuse(reason, "signature uses a digest algorithm other than SHA-2");
		}
	if (!digest_by_oid(sk_PKCS7_SIGNER_INFO_value(PKCS7_get_signer_info(p7), 0)
				   ->digest_alg->algorithm)) {
		authenticode_signature_free(sig);
		return refuse(reason, "signer uses a digest algorithm other than SHA-2");
	}

	content = p7->d.sign->contents;
	if (!content || !content->type ||
	    OBJ_length(content->type) != sizeof(spc_indirect_data_oid) ||
	    memcmp(OBJ_get0_data(content->type), spc_indirect_data_oid,
		   sizeof(spc_indirect_data_oid)) != 0)
		goto out_free_signature;
	other = content->d.other;
	if (!other || other->type != V_ASN1_SEQUENCE || !other->value.sequence)
		goto out_free_signature;
	if (parse_indirect_data(other->value.sequence->data, other->value.sequence->length, sig,
				reason) < 0) {
		authenticode_signature_free(sig);
		return -1;
	}
	return 0;

out_free_signature:
	authenticode_signature_free(sig);
	return refuse(reason, "signature is not Authenticode SignedData (SpcIndirectDataContent)");
}

int authenticode_signature_parse(const uint8_t *der, size_t der_len,
				 struct authenticode_signature *sig, const char **reason)
{
	const unsigned char *p = der;
	PKCS7 *p7;

	memset(sig, 0, sizeof(*sig));
	if (der_len > LONG_MAX)
		return refuse(reason, "signature too large");
	p7 = d2i_PKCS7(NULL, &p, (long)der_len);
	if (!p7)
		return refuse(reason, "signature is not valid PKCS#7 DER");
	return signature_from_p7(p7, sig, reason);
}

/*
 * Nested signatures (as osslsigncode -nest and signtool /as add them): an
 * unauthenticated attribute of the signer, each value a whole SignedData.
 */
static int collect_nested(struct authenticode_signatures *all,
			  const struct authenticode_signature *sig, const char **reason)
{
	PKCS7_SIGNER_INFO *si = sk_PKCS7_SIGNER_INFO_value(PKCS7_get_signer_info(sig->p7), 0);
	STACK_OF(X509_ATTRIBUTE) *attributes = si ? si->unauth_attr : NULL;

	for (int i = 0; i < sk_X509_ATTRIBUTE_num(attributes); i++) {
		X509_ATTRIBUTE *attribute = sk_X509_ATTRIBUTE_value(attributes, i);
		ASN1_OBJECT *oid = X509_ATTRIBUTE_get0_object(attribute);

		if (OBJ_length(oid) != sizeof(spc_nested_signature_oid) ||
		    memcmp(OBJ_get0_data(oid), spc_nested_signature_oid,
			   sizeof(spc_nested_signature_oid)) != 0)
			continue;
		for (int j = 0; j < X509_ATTRIBUTE_count(attribute); j++) {
			ASN1_TYPE *value = X509_ATTRIBUTE_get0_type(attribute, j);
			const unsigned char *p;
			PKCS7 *p7;

			if (!value || value->type != V_ASN1_SEQUENCE || !value->value.sequence)
				return refuse(reason, "nested signature is not a SEQUENCE");
			if (all->count == AUTHENTICODE_MAX_SIGNATURES)
				return refuse(reason, "too many signatures");
			p = value->value.sequence->data;
			p7 = d2i_PKCS7(NULL, &p, value->value.sequence->length);
			if (!p7)
				return refuse(reason, "nested signature is not valid PKCS#7 DER");
			if (signature_from_p7(p7, &all->sigs[all->count], reason) < 0)
				return -1;
			all->count++;
		}
	}
	return 0;
}

int authenticode_collect(const struct pe_image *img, struct authenticode_signatures *all,
			 const char **reason)
{
	const uint8_t *der;
	size_t der_len, cursor = 0;
	int r;

	memset(all, 0, sizeof(*all));
	while ((r = authenticode_next_entry(img, &cursor, &der, &der_len, reason)) == 1) {
		size_t first_nested;

		if (all->count == AUTHENTICODE_MAX_SIGNATURES) {
			r = refuse(reason, "too many signatures");
			break;
		}
		r = authenticode_signature_parse(der, der_len, &all->sigs[all->count], reason);
		if (r < 0)
			break;
		all->count++;
		/* one level: the nested signatures of a top-level signature */
		first_nested = all->count;
		if (collect_nested(all, &all->sigs[first_nested - 1], reason) < 0) {
			r = -1;
			break;
		}
	}
	if (r < 0) {
		authenticode_signatures_free(all);
		return -1;
	}
	return 0;
}

void authenticode_signatures_free(struct authenticode_signatures *all)
{
	for (size_t i = 0; i < all->count; i++)
		authenticode_signature_free(&all->sigs[i]);
	all->count = 0;
}

void authenticode_signature_free(struct authenticode_signature *sig)
{
	PKCS7_free(sig->p7);
	memset(sig, 0, sizeof(*sig));
}

int authenticode_check_image(const struct authenticode_signature *sig, const uint8_t *digest,
			     unsigned int digest_len, const char **reason)
{
	BIO *content;
	int ok;

	if (digest_len != sig->digest_len || CRYPTO_memcmp(digest, sig->digest, digest_len) != 0)
		return refuse(reason, "image digest does not match the signature");
	if (sig->content_len > INT_MAX)
		return refuse(reason, "signed content too large");
	content = BIO_new_mem_buf(sig->content, (int)sig->content_len);
	if (!content)
		return refuse(reason, "out of memory");
	/* Only the signature here; the chain is checked against each trust list separately. */
	ok = PKCS7_verify(sig->p7, NULL, NULL, content, NULL, PKCS7_BINARY | PKCS7_NOVERIFY);
	BIO_free(content);
	if (ok != 1)
		return refuse(reason, "PKCS#7 signature does not verify");
	return 0;
}

X509_STORE *authenticode_trust_store(STACK_OF(X509) *certs)
{
	X509_STORE *store = X509_STORE_new();

	if (!store)
		return NULL;
	/*
	 * A trusted certificate need not be a self-signed root (PARTIAL_CHAIN);
	 * firmware has no trusted time (NO_CHECK_TIME); code-signing certificates
	 * carry inconsistent key usages (purpose ANY).
	 */
	if (!X509_STORE_set_flags(store, X509_V_FLAG_PARTIAL_CHAIN | X509_V_FLAG_NO_CHECK_TIME) ||
	    !X509_STORE_set_purpose(store, X509_PURPOSE_ANY))
		goto out_free_store;
	for (int i = 0; i < sk_X509_num(certs); i++)
		if (!X509_STORE_add_cert(store, sk_X509_value(certs, i)))
			goto out_free_store;
	return store;
out_free_store:
	X509_STORE_free(store);
	return NULL;
}

void authenticode_signature_value(const struct authenticode_signature *sig, const uint8_t **value,
				  size_t *size)
{
	/* signature_from_p7 checked there is exactly one */
	PKCS7_SIGNER_INFO *si = sk_PKCS7_SIGNER_INFO_value(PKCS7_get_signer_info(sig->p7), 0);

	*value = si && si->enc_digest ? ASN1_STRING_get0_data(si->enc_digest) : NULL;
	*size = *value ? (size_t)ASN1_STRING_length(si->enc_digest) : 0;
}

X509 *authenticode_signer(const struct authenticode_signature *sig)
{
	STACK_OF(X509) *signers = PKCS7_get0_signers(sig->p7, NULL, 0);
	X509 *signer = sk_X509_num(signers) == 1 ? sk_X509_value(signers, 0) : NULL;

	sk_X509_free(signers);
	return signer;
}

int authenticode_check_signer(const struct authenticode_signature *sig, X509_STORE *trusted,
			      STACK_OF(X509) **chain, const char **reason)
{
	X509 *signer = authenticode_signer(sig);
	X509_STORE_CTX *ctx = NULL;
	int r = 0;

	if (!signer)
		return refuse(reason, "signer certificate not found in the signature");
	ctx = X509_STORE_CTX_new();
	if (!ctx || !X509_STORE_CTX_init(ctx, trusted, signer, sig->p7->d.sign->cert)) {
		r = refuse(reason, "out of memory");
		goto out_free_ctx;
	}
	if (X509_verify_cert(ctx) != 1) {
		r = refuse(reason, "signer does not chain to a trusted certificate");
		goto out_free_ctx;
	}
	*chain = X509_STORE_CTX_get1_chain(ctx);
	if (!*chain)
		r = refuse(reason, "out of memory");
out_free_ctx:
	X509_STORE_CTX_free(ctx);
	return r;
}
