/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * EFI_SIGNATURE_LIST data (UEFI 2.10, section 32.4.1): the format of db,
 * dbx, MokList, MokListX and lockshim's embedded vendor lists.
 *
 * A variable holds a sequence of lists; each list has a type, its own size,
 * a header size and one signature size for all its entries; each entry is
 * an owner GUID followed by the signature data.
 */
#ifndef LOCKSHIM_SIGNATURE_LIST_H
#define LOCKSHIM_SIGNATURE_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#define ESL_HEADER_SIZE 28 /* GUID + ListSize + HeaderSize + SignatureSize */

/* rhboot/shim's GUID as stored: the owner mokutil gives its entries, and ours */
extern const uint8_t esl_owner_shim[16];
#define ESL_OWNER_SIZE 16

enum esl_type {
	ESL_X509,   /* a DER certificate */
	ESL_SHA256, /* an image digest */
	ESL_SHA384,
	ESL_SHA512,
	ESL_X509_SHA256, /* a digest of a certificate's TBSCertificate, then an EFI_TIME */
	ESL_X509_SHA384,
	ESL_X509_SHA512,
	ESL_UNKNOWN, /* a type lockshim does not use: skipped */
};

struct esl_entry {
	enum esl_type type;
	const uint8_t *owner; /* ESL_OWNER_SIZE bytes */
	const uint8_t *data;  /* the DER certificate or the digest */
	size_t size;          /* for digests: the digest length only */
};

/* Called for each entry of each valid list; a non-zero return stops the walk and is returned. */
typedef int (*esl_visit_fn)(const struct esl_entry *entry, void *ctx);

/*
 * Walk the lists in @size bytes at @data. A list whose sizes are
 * inconsistent, or whose entries do not fit its type (a wrong digest size, a
 * certificate that is not exactly one DER certificate), is rejected whole:
 * none of its entries is visited. When a list's own size is unusable the
 * walk cannot find the next list and stops there.
 *
 * Returns the number of lists rejected (0 when all were valid), or the
 * visitor's non-zero return. *@reason names the first rejection.
 */
int esl_walk(const uint8_t *data, size_t size, esl_visit_fn visit, void *ctx, const char **reason);

/* "X509", "SHA256", ... for listings */
const char *esl_type_name(enum esl_type type);

/* The image or certificate digest algorithm of a digest type; NULL for others. */
const EVP_MD *esl_type_md(enum esl_type type);

/*
 * The digest of @cert's tbsCertificate (its DER as encoded in the
 * certificate), the value EFI_CERT_X509_SHA* entries hold. Returns 0 or -1.
 */
int esl_cert_tbs_digest(X509 *cert, const EVP_MD *md, uint8_t *out, unsigned int *out_len);

/*
 * One trust or deny list as the policy uses it: the certificates and the
 * digests of one or more signature-list variables (or certificate files).
 */
struct esl_digest {
	enum esl_type type;
	uint8_t owner[ESL_OWNER_SIZE]; /* the entry's owner, as stored (the TPM's PCR 7 record) */
	uint8_t digest[EVP_MAX_MD_SIZE];
	unsigned int size;
};

struct sig_db {
	const char *name; /* "db", "MokList", "vendor", ... for verdicts */
	STACK_OF(X509) *certs;
	uint8_t (*cert_owners)[ESL_OWNER_SIZE]; /* the owner of certs[i], as stored */
	size_t cert_owners_capacity;
	struct esl_digest *digests;
	size_t n_digests;
	size_t capacity;
};

void sig_db_init(struct sig_db *db, const char *name);
void sig_db_free(struct sig_db *db);

/*
 * Add the entries of a signature-list variable. Returns the number of lists
 * rejected (see esl_walk) with *@reason, or -1 when out of memory.
 */
int sig_db_add_esl(struct sig_db *db, const uint8_t *data, size_t size, const char **reason);

/*
 * Add one certificate (takes a new reference), owned by @owner
 * (ESL_OWNER_SIZE bytes; NULL: shim's GUID, as mokutil enrolls a
 * certificate file). Returns 0 or -1.
 */
int sig_db_add_cert(struct sig_db *db, X509 *cert, const uint8_t *owner);

/* Is a digest of @type equal to @digest in @db? */
bool sig_db_has_digest(const struct sig_db *db, enum esl_type type, const uint8_t *digest,
		       unsigned int size);

/* The index in db->digests of that digest, or -1. */
long sig_db_find_digest(const struct sig_db *db, enum esl_type type, const uint8_t *digest,
			unsigned int size);

bool sig_db_is_empty(const struct sig_db *db);

/*
 * Append @entry as a one-entry EFI_SIGNATURE_LIST (keeping its owner) to the
 * OPENSSL_malloc'd buffer *@data of *@size bytes. Returns 0 or -1 (out of
 * memory; the buffer is then freed).
 */
int esl_append_entry(const struct esl_entry *entry, uint8_t **data, size_t *size);

/*
 * Serialise @db as EFI_SIGNATURE_LISTs (one list per certificate, one per
 * digest type), owned by @owner (16 bytes), appended to the OPENSSL_malloc'd
 * buffer *@data of *@size bytes. With @certs_only, digests are left out.
 * Returns 0 or -1 (out of memory; the buffer is then freed).
 */
int sig_db_to_esl(const struct sig_db *db, const uint8_t *owner, bool certs_only, uint8_t **data,
		  size_t *size);

#endif
