/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Authenticode signatures: the WIN_CERTIFICATE entries of a PE image, the
 * PKCS#7 SignedData in each, the image digest it signs, and the check that
 * its signer chains to a trusted certificate.
 */
#ifndef LOCKSHIM_AUTHENTICODE_H
#define LOCKSHIM_AUTHENTICODE_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>

#include "pe.h"

struct authenticode_signature {
	PKCS7 *p7;
	const EVP_MD *md;                /* the image digest algorithm the signer chose */
	uint8_t digest[EVP_MAX_MD_SIZE]; /* the image digest the signature covers */
	unsigned int digest_len;
	const uint8_t *content; /* SpcIndirectDataContent less its SEQUENCE header */
	size_t content_len;
};

/*
 * Step through the certificate table: on each call, the next PKCS#7
 * SignedData entry at *@cursor (start with 0). Returns 1 with @der/@der_len
 * set, 0 at the end of the table, -1 with a reason on a malformed entry.
 */
int authenticode_next_entry(const struct pe_image *img, size_t *cursor, const uint8_t **der,
			    size_t *der_len, const char **reason);

/* Decode one SignedData. Returns 0, or -1 with a reason; free with authenticode_signature_free. */
int authenticode_signature_parse(const uint8_t *der, size_t der_len,
				 struct authenticode_signature *sig, const char **reason);
void authenticode_signature_free(struct authenticode_signature *sig);

#define AUTHENTICODE_MAX_SIGNATURES 16

/* Every signature of an image: each certificate table entry, then its nested signatures. */
struct authenticode_signatures {
	struct authenticode_signature sigs[AUTHENTICODE_MAX_SIGNATURES];
	size_t count;
};

/*
 * Decode all signatures of @img. Any malformed entry or signature refuses the
 * whole image (it could hide a revoked certificate): returns -1 with a
 * reason. Free with authenticode_signatures_free.
 */
int authenticode_collect(const struct pe_image *img, struct authenticode_signatures *all,
			 const char **reason);
void authenticode_signatures_free(struct authenticode_signatures *all);

/*
 * Check that @sig signs the image whose Authenticode digest with sig->md is
 * @digest, and that the PKCS#7 signature is valid. Returns 0, or -1 with a
 * reason.
 */
int authenticode_check_image(const struct authenticode_signature *sig, const uint8_t *digest,
			     unsigned int digest_len, const char **reason);

/*
 * Check that the signer of @sig chains to a certificate in @trusted (the
 * signer itself or any certificate of its chain may be the trusted one).
 * On success returns 0 and the chain in *@chain, signer first (free with
 * sk_X509_pop_free(chain, X509_free)); with a partial chain the trusted
 * certificate need not be the last one.
 * Returns -1 with a reason otherwise.
 */
int authenticode_check_signer(const struct authenticode_signature *sig, X509_STORE *trusted,
			      STACK_OF(X509) **chain, const char **reason);

/*
 * The signature value of @sig's one SignerInfo (its encryptedDigest), what
 * EFI_CERT_RSA2048_SHA256/SHA1 deny entries name.
 */
void authenticode_signature_value(const struct authenticode_signature *sig, const uint8_t **value,
				  size_t *size);

/* The signer's certificate as @sig carries it (not a new reference), or NULL when it does not. */
X509 *authenticode_signer(const struct authenticode_signature *sig);

/* A store for authenticode_check_signer holding @certs as trust anchors; NULL on failure. */
X509_STORE *authenticode_trust_store(STACK_OF(X509) *certs);

#endif
