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

/*
 * The types lockshim decides by (UEFI 2.10, 32.4.1 "Signature Database"):
 * every one that names an image or its signer. Deny lists use them all;
 * allow lists only X509 and SHA256/384/512 (verify.h).
 */
enum esl_type {
	ESL_X509,   /* a DER certificate */
	ESL_SHA256, /* an image digest */
	ESL_SHA384,
	ESL_SHA512,
	ESL_X509_SHA256, /* a digest of a certificate's TBSCertificate, then an EFI_TIME */
	ESL_X509_SHA384,
	ESL_X509_SHA512,
	ESL_SHA1, /* an image digest */
	ESL_SHA224,
	ESL_RSA2048,        /* an RSA-2048 public modulus, big-endian (256 bytes) */
	ESL_RSA2048_SHA256, /* an RSA-2048 signature value (256 bytes) of a SHA-256 hash */
	ESL_RSA2048_SHA1,   /* likewise of a SHA-1 hash */
	ESL_UNKNOWN,        /* a type lockshim does not know: skipped (esl_count_unknown) */
};

/* The largest fixed-size entry (RSA-2048 moduli and signatures), for struct esl_digest. */
#define ESL_MAX_FIXED_SIZE 256

struct esl_entry {
	enum esl_type type;
	const uint8_t *owner; /* ESL_OWNER_SIZE bytes */
	const uint8_t *data;  /* the DER certificate, the digest, the modulus or the signature */
	size_t size;          /* for X509_SHA*: the digest length only */
};

/* Called for each entry of each valid list; a non-zero return stops the walk and is returned. */
typedef int (*esl_visit_fn)(const struct esl_entry *entry, void *ctx);

/* One well-formed EFI_SIGNATURE_LIST, as esl_walk_lists hands it out. */
struct esl_list {
	enum esl_type type;  /* ESL_UNKNOWN for a type lockshim does not know */
	const uint8_t *guid; /* its SignatureType, 16 bytes as stored */
	const uint8_t *data; /* the whole list, from its header on */
	size_t size;         /* SignatureListSize */
	size_t header_size;  /* SignatureHeaderSize */
	size_t sig_size;     /* SignatureSize */
	size_t count;        /* entries */
};

/* Called for each valid list; a non-zero return stops the walk and is returned. */
typedef int (*esl_list_fn)(const struct esl_list *list, void *ctx);

/*
 * Walk the lists in @size bytes at @data. A list whose sizes are
 * inconsistent, or whose entries do not fit its type (a wrong size for a
 * fixed-size type, a certificate that is not exactly one DER certificate),
 * is rejected whole: it is not visited. A list of a type lockshim does not
 * know is well-formed when its sizes are consistent. When a list's own size
 * is unusable the walk cannot find the next list and stops there.
 *
 * Returns the number of lists rejected (0 when all were valid), or the
 * visitor's non-zero return. *@reason names the first rejection.
 */
int esl_walk_lists(const uint8_t *data, size_t size, esl_list_fn visit, void *ctx,
		   const char **reason);

/* Entry @i (below list->count) of @list; ESL_UNKNOWN lists' entries are the raw signature data. */
void esl_list_entry(const struct esl_list *list, size_t i, struct esl_entry *entry);

/*
 * esl_walk_lists, visiting each entry of each valid list of a known type;
 * lists of an unknown type are skipped (esl_count_unknown says so).
 */
int esl_walk(const uint8_t *data, size_t size, esl_visit_fn visit, void *ctx, const char **reason);

/*
 * The number of well-formed lists in @data of a type lockshim does not know,
 * which esl_walk and sig_db skip, with the first one's type in *@first (16
 * bytes as stored; NULL when there is none), for the console and listings.
 */
size_t esl_count_unknown(const uint8_t *data, size_t size, const uint8_t **first);

/* @guid (16 bytes as EFI stores it) as text: 8-4-4-4-12 lowercase hex digits and a NUL. */
#define ESL_GUID_TEXT_SIZE 37
void esl_guid_text(const uint8_t *guid, char out[ESL_GUID_TEXT_SIZE]);

/*
 * The subject of X509 entry @e as one line (OpenSSL's "/CN=..." form) in
 * @out, or "(undecodable)" when its DER does not decode: for listings.
 */
void esl_entry_subject(const struct esl_entry *e, char *out, size_t size);

/* "X509", "SHA256", ... for listings */
const char *esl_type_name(enum esl_type type);

/* The image or certificate digest algorithm of a digest type; NULL for others. */
const EVP_MD *esl_type_md(enum esl_type type);

/* The data size of a fixed-size type (its digest, modulus or signature); 0 for X509 and unknown. */
size_t esl_type_size(enum esl_type type);

/*
 * The RSA modulus of @cert's key, big-endian in 256 bytes, when it is an
 * RSA-2048 key (what EFI_CERT_RSA2048 entries hold). Returns 1 with *@out
 * set, 0 when the key is not RSA-2048, -1 on error.
 */
int esl_cert_rsa2048_modulus(X509 *cert, uint8_t out[ESL_MAX_FIXED_SIZE]);

/*
 * The digest of @cert's tbsCertificate (its DER as encoded in the
 * certificate), the value EFI_CERT_X509_SHA* entries hold. Returns 0 or -1.
 */
int esl_cert_tbs_digest(X509 *cert, const EVP_MD *md, uint8_t *out, unsigned int *out_len);

/*
 * One trust or deny list as the policy uses it: the certificates and the
 * fixed-size entries of one or more signature-list variables (or certificate
 * files); lists of unknown types are skipped.
 */
/* A fixed-size entry: a digest, or an RSA-2048 modulus or signature value. */
struct esl_digest {
	enum esl_type type;
	uint8_t owner[ESL_OWNER_SIZE]; /* the entry's owner, as stored (the TPM's PCR 7 record) */
	uint8_t digest[ESL_MAX_FIXED_SIZE];
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

/* For esl_append_list: keep @entry (true) or drop it. */
typedef bool (*esl_keep_fn)(const struct esl_entry *entry, void *ctx);

/*
 * Append @list to the OPENSSL_malloc'd buffer *@data of *@size bytes: byte
 * for byte when @keep is NULL or keeps every entry; else with its header
 * (type, SignatureHeader, SignatureSize) and the entries @keep keeps, in
 * order, and nothing when it keeps none (an empty buffer is then freed and
 * NULL); @keep is asked once per entry. *@dropped is the number of entries
 * left out. Returns 0 or -1 (out of memory; the buffer is then freed).
 */
int esl_append_list(const struct esl_list *list, esl_keep_fn keep, void *ctx, uint8_t **data,
		    size_t *size, size_t *dropped);

/*
 * Serialise @db as EFI_SIGNATURE_LISTs (one list per certificate, one per
 * fixed-size type), owned by @owner (16 bytes), appended to the OPENSSL_malloc'd
 * buffer *@data of *@size bytes. With @certs_only, fixed-size entries are left out.
 * Returns 0 or -1 (out of memory; the buffer is then freed).
 */
int sig_db_to_esl(const struct sig_db *db, const uint8_t *owner, bool certs_only, uint8_t **data,
		  size_t *size);

#endif
