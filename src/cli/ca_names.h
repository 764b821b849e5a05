/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The certificate authorities a machine's db and KEK hold, named: the
 * well-known Microsoft CAs of the 2011 -> 2023 change recognised by the
 * SHA-256 of their DER (ca_names.c says where each comes from), any other
 * by its subject. What `lockshim check` says before the 2011 CAs leave a
 * machine's db or are revoked in dbx.
 */
#ifndef LOCKSHIM_CA_NAMES_H
#define LOCKSHIM_CA_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/x509.h>

/* One well-known CA. */
struct well_known_ca {
	const char *name;      /* its subject's CN */
	const char *sha256;    /* of its DER, lowercase hex */
	const char *signs;     /* what it signs, in a few words */
	const char *not_after; /* its expiry, which firmware does not check */
};

/* The well-known CA whose DER has SHA-256 @digest; NULL when none is. */
const struct well_known_ca *well_known_ca_find(const uint8_t digest[32]);

/* @cert's name: a well-known CA's, else its subject, into @out (@size bytes). */
void ca_name(X509 *cert, char *out, size_t size);

/* A first stage the firmware allows through a certificate of the list (its subject). */
struct ca_dependent {
	const char *subject; /* the entry that allowed it, as its verdict names it */
	const char *option;  /* Boot0001, or "removable" */
	const char *image;   /* its path on the ESP */
};

/*
 * Print the certificates of the signature list @esl (@size bytes; the
 * variable @name, e.g. "db"): as text, one line each under a heading, or
 * as the JSON array of objects {"name", "sha256", "well_known", "signs",
 * "not_after", "first_stages": [{"option", "image"}]}, the first stages
 * among @dependents (@n) that the certificate allows. Entries that are
 * not certificates (hashes) are counted, not listed. Returns 0, or -1
 * when the list does not parse (said).
 */
int ca_names_print(const char *name, const uint8_t *esl, size_t size,
		   const struct ca_dependent *dependents, size_t n, bool json);

#endif
