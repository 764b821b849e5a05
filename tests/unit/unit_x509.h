/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* Throwaway certificates for unit tests. */
#ifndef LOCKSHIM_UNIT_X509_H
#define LOCKSHIM_UNIT_X509_H

#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

/*
 * A certificate with CN=@cn for a new RSA key of @bits bits, signed by
 * @issuer_key with @issuer's name, or self-signed and a CA when @issuer is
 * NULL; the key in *@key when @key is not NULL (free it with EVP_PKEY_free).
 */
static inline X509 *unit_issue_cert(const char *cn, size_t bits, X509 *issuer, EVP_PKEY *issuer_key,
				    EVP_PKEY **key)
{
	EVP_PKEY *own = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", bits);
	X509 *cert = X509_new();

	X509_set_version(cert, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(cert), "CN", MBSTRING_ASC,
				   (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(cert, X509_get_subject_name(issuer ? issuer : cert));
	X509_gmtime_adj(X509_getm_notBefore(cert), 0);
	X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
	X509_set_pubkey(cert, own);
	if (!issuer) {
		X509_EXTENSION *ca =
			X509V3_EXT_conf_nid(NULL, NULL, NID_basic_constraints, "critical,CA:TRUE");

		X509_add_ext(cert, ca, -1);
		X509_EXTENSION_free(ca);
	}
	X509_sign(cert, issuer ? issuer_key : own, EVP_sha256());
	if (key)
		*key = own;
	else
		EVP_PKEY_free(own);
	return cert;
}

/* A self-signed RSA-1024 certificate with CN=@cn (small keys: speed only matters here). */
static inline X509 *unit_make_cert(const char *cn)
{
	return unit_issue_cert(cn, 1024, NULL, NULL, NULL);
}

#endif
