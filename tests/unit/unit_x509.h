/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* Throwaway certificates for unit tests. */
#ifndef LOCKSHIM_UNIT_X509_H
#define LOCKSHIM_UNIT_X509_H

#include <openssl/evp.h>
#include <openssl/x509.h>

/* A self-signed RSA-1024 certificate with CN=@cn (small keys: speed only matters here). */
static X509 *unit_make_cert(const char *cn)
{
	EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)1024);
	X509 *cert = X509_new();

	X509_set_version(cert, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(cert), "CN", MBSTRING_ASC,
				   (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(cert, X509_get_subject_name(cert));
	X509_gmtime_adj(X509_getm_notBefore(cert), 0);
	X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
	X509_set_pubkey(cert, key);
	X509_sign(cert, key, EVP_sha256());
	EVP_PKEY_free(key);
	return cert;
}

#endif
