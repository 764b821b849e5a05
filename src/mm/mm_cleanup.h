/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The MOK manager's OpenSSL objects under efi_cleanup.h's idiom:
 *
 *	_cleanup_(x509_freep) X509 *cert = d2i_X509(NULL, &p, size);
 */
#ifndef LOCKSHIM_MM_CLEANUP_H
#define LOCKSHIM_MM_CLEANUP_H

#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/x509.h>

#include "efi_cleanup.h"

/* OPENSSL_malloc'd memory (mok_list_apply's result, esl_append_entry's list). */
static inline void openssl_freep(void *p)
{
	OPENSSL_free(*(void **)p);
}

static inline void x509_freep(X509 **cert)
{
	X509_free(*cert);
}

static inline void bio_freep(BIO **bio)
{
	BIO_free(*bio);
}

#endif
