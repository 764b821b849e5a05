// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "signature_list.h"

#include <limits.h>
#include <string.h>

#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>

#include "buffer.h"
#include "guid.h"
#include "macro.h"
#include "safe_math.h"

/*
 * GUIDs and sizes from UEFI 2.10, 32.4.1 (EDK2's Guid/ImageAuthentication.h
 * has the same). Certificates first: sig_db_to_esl writes the rest in this
 * order.
 */
static const struct {
	enum esl_type type;
	uint8_t guid[16];
	const char *name;
	size_t size;    /* the entry's data after its owner; 0 for certificates */
	size_t trailer; /* bytes after it: the EFI_TIME of X509_SHA* entries */
} esl_types[] = {
	{ ESL_X509,
	  GUID_BYTES(0xa5c059a1, 0x94e4, 0x4aa7, 0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72),
	  "X509", 0, 0 },
	{ ESL_SHA256,
	  GUID_BYTES(0xc1c41626, 0x504c, 0x4092, 0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28),
	  "SHA256", 32, 0 },
	{ ESL_SHA384,
	  GUID_BYTES(0xff3e5307, 0x9fd0, 0x48c9, 0x85, 0xf1, 0x8a, 0xd5, 0x6c, 0x70, 0x1e, 0x01),
	  "SHA384", 48, 0 },
	{ ESL_SHA512,
	  GUID_BYTES(0x093e0fae, 0xa6c4, 0x4f50, 0x9f, 0x1b, 0xd4, 0x1e, 0x2b, 0x89, 0xc1, 0x9a),
	  "SHA512", 64, 0 },
	{ ESL_X509_SHA256,
	  GUID_BYTES(0x3bd2a492, 0x96c0, 0x4079, 0xb4, 0x20, 0xfc, 0xf9, 0x8e, 0xf1, 0x03, 0xed),
	  "X509_SHA256", 32, 16 },
	{ ESL_X509_SHA384,
	  GUID_BYTES(0x7076876e, 0x80c2, 0x4ee6, 0xaa, 0xd2, 0x28, 0xb3, 0x49, 0xa6, 0x86, 0x5b),
	  "X509_SHA384", 48, 16 },
	{ ESL_X509_SHA512,
	  GUID_BYTES(0x446dbf63, 0x2502, 0x4cda, 0xbc, 0xfa, 0x24, 0x65, 0xd2, 0xb0, 0xfe, 0x9d),
	  "X509_SHA512", 64, 16 },
	{ ESL_SHA1,
	  GUID_BYTES(0x826ca512, 0xcf10, 0x4ac9, 0xb1, 0x87, 0xbe, 0x01, 0x49, 0x66, 0x31, 0xbd),
	  "SHA1", 20, 0 },
	{ ESL_SHA224,
	  GUID_BYTES(0x0b6e5233, 0xa65c, 0x44c9, 0x94, 0x07, 0xd9, 0xab, 0x83, 0xbf, 0xc8, 0xbd),
	  "SHA224", 28, 0 },
	{ ESL_RSA2048,
	  GUID_BYTES(0x3c5766e8, 0x269c, 0x4e34, 0xaa, 0x14, 0xed, 0x77, 0x6e, 0x85, 0xb3, 0xb6),
	  "RSA2048", 256, 0 },
	{ ESL_RSA2048_SHA256,
	  GUID_BYTES(0xe2b36190, 0x879b, 0x4a3d, 0xad, 0x8d, 0xf2, 0xe7, 0xbb, 0xa3, 0x27, 0x84),
	  "RSA2048_SHA256", 256, 0 },
	{ ESL_RSA2048_SHA1,
	  GUID_BYTES(0x67f8444f, 0x8743, 0x48f1, 0xa3, 0x28, 0x1e, 0xaa, 0xb8, 0x73, 0x60, 0x80),
	  "RSA2048_SHA1", 256, 0 },
};

#define N_TYPES (ARRAY_SIZE(esl_types))

const uint8_t esl_owner_shim[16] = GUID_BYTES(SHIM_LOCK_GUID_FIELDS);

static size_t type_index(const uint8_t *guid)
{
	for (size_t i = 0; i < N_TYPES; i++)
		if (memcmp(guid, esl_types[i].guid, 16) == 0)
			return i;
	return N_TYPES;
}

static size_t type_of(enum esl_type type)
{
	for (size_t t = 0; t < N_TYPES; t++)
		if (esl_types[t].type == type)
			return t;
	return N_TYPES;
}

const char *esl_type_name(enum esl_type type)
{
	size_t t = type_of(type);

	return t < N_TYPES ? esl_types[t].name : "unknown";
}

size_t esl_type_size(enum esl_type type)
{
	size_t t = type_of(type);

	return t < N_TYPES ? esl_types[t].size : 0;
}

void esl_guid_text(const uint8_t *guid, char out[ESL_GUID_TEXT_SIZE])
{
	/* data1, data2 and data3 little-endian, then data4 as stored */
	static const uint8_t order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	for (size_t i = 0; i < 16; i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10)
			out[n++] = '-';
		out[n++] = hex[guid[order[i]] >> 4];
		out[n++] = hex[guid[order[i]] & 15];
	}
	out[n] = '\0';
}

const EVP_MD *esl_type_md(enum esl_type type)
{
	switch (type) {
	case ESL_SHA256:
	case ESL_X509_SHA256:
		return EVP_sha256();
	case ESL_SHA384:
	case ESL_X509_SHA384:
		return EVP_sha384();
	case ESL_SHA512:
	case ESL_X509_SHA512:
		return EVP_sha512();
	case ESL_SHA1:
		return EVP_sha1();
	case ESL_SHA224:
		return EVP_sha224();
	default:
		return NULL;
	}
}

/* Is @der exactly one DER certificate? */
static bool is_one_certificate(const uint8_t *der, size_t size)
{
	const unsigned char *p = der;
	X509 *cert;

	if (size == 0 || size > LONG_MAX)
		return false;
	cert = d2i_X509(NULL, &p, (long)size);
	X509_free(cert);
	return cert && p == der + size;
}

/* Check one list's entries against its type; the list's sizes are already consistent. */
static const char *check_entries(size_t t, const uint8_t *entries, size_t count, size_t sig_size)
{
	if (t == N_TYPES)
		return NULL; /* a type lockshim does not know: nothing to check */
	if (esl_types[t].size) {
		if (sig_size != ESL_OWNER_SIZE + esl_types[t].size + esl_types[t].trailer)
			return "signature size does not match the list's type";
		return NULL;
	}
	for (size_t i = 0; i < count; i++)
		if (!is_one_certificate(entries + i * sig_size + ESL_OWNER_SIZE,
					sig_size - ESL_OWNER_SIZE))
			return "X509 entry is not exactly one DER certificate";
	return NULL;
}

int esl_walk_lists(const uint8_t *data, size_t size, esl_list_fn visit, void *ctx,
		   const char **reason)
{
	size_t offset = 0;
	int rejected = 0;

	while (offset < size) {
		const uint8_t *list = data + offset;
		uint32_t list_size, header_size, sig_size;
		struct esl_list l;
		const char *why = NULL;
		size_t body, t = N_TYPES;
		int r;

		if (size - offset < ESL_HEADER_SIZE) {
			*reason = "signature list header truncated";
			return rejected + 1;
		}
		list_size = read_le32(list + 16);
		header_size = read_le32(list + 20);
		sig_size = read_le32(list + 24);
		if (list_size < ESL_HEADER_SIZE || list_size > size - offset) {
			/* without a usable size there is no way to find the next list */
			*reason = "SignatureListSize does not fit the data";
			return rejected + 1;
		}
		offset += list_size;

		body = list_size - ESL_HEADER_SIZE;
		if (header_size > body)
			why = "SignatureHeaderSize larger than the list";
		else if (sig_size < ESL_OWNER_SIZE)
			why = "SignatureSize smaller than an owner GUID";
		else if ((body - header_size) % sig_size)
			why = "list size is not a whole number of signatures";
		if (!why) {
			t = type_index(list);
			why = check_entries(t, list + ESL_HEADER_SIZE + header_size,
					    (body - header_size) / sig_size, sig_size);
		}
		if (why) {
			if (!rejected)
				*reason = why;
			rejected++;
			continue;
		}
		l = (struct esl_list){
			.type = t < N_TYPES ? esl_types[t].type : ESL_UNKNOWN,
			.guid = list,
			.data = list,
			.size = list_size,
			.header_size = header_size,
			.sig_size = sig_size,
			.count = (body - header_size) / sig_size,
		};
		r = visit(&l, ctx);
		if (r)
			return r;
	}
	return rejected;
}

void esl_list_entry(const struct esl_list *list, size_t i, struct esl_entry *entry)
{
	const uint8_t *at = list->data + ESL_HEADER_SIZE + list->header_size + i * list->sig_size;
	size_t fixed = esl_type_size(list->type);

	*entry = (struct esl_entry){
		.type = list->type,
		.owner = at,
		.data = at + ESL_OWNER_SIZE,
		.size = fixed ? fixed : list->sig_size - ESL_OWNER_SIZE,
	};
}

struct entry_walk {
	esl_visit_fn visit;
	void *ctx;
};

static int visit_entries(const struct esl_list *list, void *ctx)
{
	const struct entry_walk *w = ctx;

	if (list->type == ESL_UNKNOWN)
		return 0;
	for (size_t i = 0; i < list->count; i++) {
		struct esl_entry e;
		int r;

		esl_list_entry(list, i, &e);
		r = w->visit(&e, w->ctx);
		if (r)
			return r;
	}
	return 0;
}

int esl_walk(const uint8_t *data, size_t size, esl_visit_fn visit, void *ctx, const char **reason)
{
	struct entry_walk w = { visit, ctx };

	return esl_walk_lists(data, size, visit_entries, &w, reason);
}

struct unknown_count {
	size_t count;
	const uint8_t *first;
};

static int count_unknown(const struct esl_list *list, void *ctx)
{
	struct unknown_count *u = ctx;

	if (list->type == ESL_UNKNOWN && u->count++ == 0)
		u->first = list->guid;
	return 0;
}

size_t esl_count_unknown(const uint8_t *data, size_t size, const uint8_t **first)
{
	struct unknown_count u = { 0, NULL };
	const char *ignored;

	esl_walk_lists(data, size, count_unknown, &u, &ignored);
	*first = u.first;
	return u.count;
}

int esl_cert_rsa2048_modulus(X509 *cert, uint8_t out[ESL_MAX_FIXED_SIZE])
{
	EVP_PKEY *key = X509_get0_pubkey(cert);
	BIGNUM *n = NULL;
	int r;

	if (!key)
		return -1;
	if (!EVP_PKEY_is_a(key, "RSA"))
		return 0;
	if (!EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &n))
		return -1;
	r = BN_num_bits(n) == 2048 && BN_bn2binpad(n, out, ESL_MAX_FIXED_SIZE) == 256;
	BN_free(n);
	return r;
}

int esl_cert_tbs_digest(X509 *cert, const EVP_MD *md, uint8_t *out, unsigned int *out_len)
{
	unsigned char *der = NULL;
	const unsigned char *p, *tbs;
	long len, tbs_len;
	int der_len, tag, class, r = -1;

	der_len = i2d_X509(cert, &der);
	if (der_len <= 0)
		return -1;
	p = der;
	/* Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signature } */
	if (ASN1_get_object(&p, &len, &tag, &class, der_len) & 0x80 || tag != V_ASN1_SEQUENCE)
		goto out_free_der;
	tbs = p;
	if (ASN1_get_object(&p, &tbs_len, &tag, &class, der + der_len - p) & 0x80 ||
	    tag != V_ASN1_SEQUENCE || tbs_len > der + der_len - p)
		goto out_free_der;
	if (EVP_Digest(tbs, (size_t)(p - tbs) + (size_t)tbs_len, out, out_len, md, NULL) == 1)
		r = 0;
out_free_der:
	OPENSSL_free(der);
	return r;
}

void sig_db_init(struct sig_db *db, const char *name)
{
	memset(db, 0, sizeof(*db));
	db->name = name;
}

void sig_db_free(struct sig_db *db)
{
	sk_X509_pop_free(db->certs, X509_free);
	OPENSSL_free(db->cert_owners);
	OPENSSL_free(db->digests);
	sig_db_init(db, db->name);
}

int sig_db_add_cert(struct sig_db *db, X509 *cert, const uint8_t *owner)
{
	size_t n = (size_t)(db->certs ? sk_X509_num(db->certs) : 0);

	if (!db->certs && !(db->certs = sk_X509_new_null()))
		return -1;
	if (buffer_reserve_one((void **)&db->cert_owners, &db->cert_owners_capacity, n,
			       sizeof(*db->cert_owners)) < 0)
		return -1;
	if (!X509_up_ref(cert))
		return -1;
	if (!sk_X509_push(db->certs, cert)) {
		X509_free(cert);
		return -1;
	}
	memcpy(db->cert_owners[n], owner ? owner : esl_owner_shim, ESL_OWNER_SIZE);
	return 0;
}

static int sig_db_add_digest(struct sig_db *db, enum esl_type type, const uint8_t *owner,
			     const uint8_t *digest, size_t size)
{
	if (size > ESL_MAX_FIXED_SIZE)
		return -1;
	if (buffer_reserve_one((void **)&db->digests, &db->capacity, db->n_digests,
			       sizeof(*db->digests)) < 0)
		return -1;
	db->digests[db->n_digests].type = type;
	memcpy(db->digests[db->n_digests].owner, owner, ESL_OWNER_SIZE);
	memcpy(db->digests[db->n_digests].digest, digest, size);
	db->digests[db->n_digests].size = (unsigned int)size;
	db->n_digests++;
	return 0;
}

static int add_entry(const struct esl_entry *e, void *ctx)
{
	struct sig_db *db = ctx;
	const unsigned char *p = e->data;
	X509 *cert;
	int r;

	if (e->type != ESL_X509)
		return sig_db_add_digest(db, e->type, e->owner, e->data, e->size) < 0 ? -1 : 0;
	cert = d2i_X509(NULL, &p, (long)e->size); /* esl_walk checked it decodes */
	if (!cert)
		return -1;
	r = sig_db_add_cert(db, cert, e->owner);
	X509_free(cert);
	return r;
}

void esl_entry_subject(const struct esl_entry *e, char *out, size_t size)
{
	const unsigned char *p = e->data;
	X509 *cert = d2i_X509(NULL, &p, (long)e->size);

	if (!cert || !X509_NAME_oneline(X509_get_subject_name(cert), out, (int)size))
		BIO_snprintf(out, size, "(undecodable)");
	X509_free(cert);
}

int sig_db_add_esl(struct sig_db *db, const uint8_t *data, size_t size, const char **reason)
{
	return esl_walk(data, size, add_entry, db, reason);
}

long sig_db_find_digest(const struct sig_db *db, enum esl_type type, const uint8_t *digest,
			unsigned int size)
{
	for (size_t i = 0; i < db->n_digests; i++)
		if (db->digests[i].type == type && db->digests[i].size == size &&
		    CRYPTO_memcmp(db->digests[i].digest, digest, size) == 0)
			return (long)i;
	return -1;
}

bool sig_db_has_digest(const struct sig_db *db, enum esl_type type, const uint8_t *digest,
		       unsigned int size)
{
	return sig_db_find_digest(db, type, digest, size) >= 0;
}

bool sig_db_is_empty(const struct sig_db *db)
{
	return sk_X509_num(db->certs) <= 0 && db->n_digests == 0;
}

/*
 * Room for @extra more bytes of signature lists at *@at; the whole must stay
 * within the 32-bit sizes of the format. Frees the buffer on failure, as
 * esl_append_entry and esl_append_list promise.
 */
static int append(uint8_t **data, size_t *size, size_t extra, uint8_t **at)
{
	if (extra > SIZE_MAX - *size || *size + extra > UINT32_MAX ||
	    buffer_extend(data, size, extra, at) < 0) {
		OPENSSL_free(*data);
		*data = NULL;
		*size = 0;
		return -1;
	}
	return 0;
}

static void write_list_header(uint8_t *p, size_t t, size_t list_size, size_t sig_size)
{
	memcpy(p, esl_types[t].guid, 16);
	write_le32(p + 16, (uint32_t)list_size);
	write_le32(p + 20, 0);
	write_le32(p + 24, (uint32_t)sig_size);
}

int sig_db_to_esl(const struct sig_db *db, const uint8_t *owner, bool certs_only, uint8_t **data,
		  size_t *size)
{
	uint8_t *at;

	for (int i = 0; i < sk_X509_num(db->certs); i++) {
		unsigned char *der = NULL;
		int der_len = i2d_X509(sk_X509_value(db->certs, i), &der);
		size_t entry_size = ESL_OWNER_SIZE + (size_t)(der_len > 0 ? der_len : 0);

		if (der_len <= 0 || append(data, size, ESL_HEADER_SIZE + entry_size, &at) < 0) {
			OPENSSL_free(der);
			return -1;
		}
		write_list_header(at, 0, ESL_HEADER_SIZE + entry_size, entry_size);
		memcpy(at + ESL_HEADER_SIZE, owner, ESL_OWNER_SIZE);
		memcpy(at + ESL_HEADER_SIZE + ESL_OWNER_SIZE, der, (size_t)der_len);
		OPENSSL_free(der);
	}
	if (certs_only)
		return 0;
	for (size_t t = 1; t < N_TYPES; t++) {
		size_t sig_size = ESL_OWNER_SIZE + esl_types[t].size + esl_types[t].trailer;
		size_t count = 0;

		for (size_t i = 0; i < db->n_digests; i++)
			count += db->digests[i].type == esl_types[t].type;
		if (!count)
			continue;
		if (append(data, size, ESL_HEADER_SIZE + count * sig_size, &at) < 0)
			return -1;
		write_list_header(at, t, ESL_HEADER_SIZE + count * sig_size, sig_size);
		at += ESL_HEADER_SIZE;
		for (size_t i = 0; i < db->n_digests; i++) {
			if (db->digests[i].type != esl_types[t].type)
				continue;
			memcpy(at, owner, ESL_OWNER_SIZE);
			memcpy(at + ESL_OWNER_SIZE, db->digests[i].digest, esl_types[t].size);
			/* the revocation time of X509_SHA* entries: zero, "always revoked" */
			memset(at + ESL_OWNER_SIZE + esl_types[t].size, 0, esl_types[t].trailer);
			at += sig_size;
		}
	}
	return 0;
}

int esl_append_entry(const struct esl_entry *entry, uint8_t **data, size_t *size)
{
	size_t t = type_of(entry->type), sig_size;
	uint8_t *at;

	if (t == N_TYPES)
		return -1;
	sig_size = ESL_OWNER_SIZE + entry->size + esl_types[t].trailer;
	if (append(data, size, ESL_HEADER_SIZE + sig_size, &at) < 0)
		return -1;
	write_list_header(at, t, ESL_HEADER_SIZE + sig_size, sig_size);
	memcpy(at + ESL_HEADER_SIZE, entry->owner, ESL_OWNER_SIZE);
	memcpy(at + ESL_HEADER_SIZE + ESL_OWNER_SIZE, entry->data, entry->size);
	/* the EFI_TIME after an X509_SHA* digest is not kept by esl_walk: zero, "always" */
	memset(at + ESL_HEADER_SIZE + ESL_OWNER_SIZE + entry->size, 0, esl_types[t].trailer);
	return 0;
}

int esl_append_list(const struct esl_list *list, esl_keep_fn keep, void *ctx, uint8_t **data,
		    size_t *size, size_t *dropped)
{
	size_t head = ESL_HEADER_SIZE + list->header_size, kept = 0;
	uint8_t *at;

	*dropped = 0;
	if (append(data, size, list->size, &at) < 0)
		return -1;
	/* the entries @keep keeps, each asked once, after the header's room */
	for (size_t i = 0; keep && i < list->count; i++) {
		struct esl_entry e;

		esl_list_entry(list, i, &e);
		if (!keep(&e, ctx))
			continue;
		memcpy(at + head + kept * list->sig_size, e.owner, list->sig_size);
		kept++;
	}
	if (!keep || kept == list->count) {
		memcpy(at, list->data, list->size);
		return 0;
	}
	*dropped = list->count - kept;
	if (kept == 0) {
		*size -= list->size;
		if (*size == 0) { /* nothing written yet: no buffer, as before */
			OPENSSL_free(*data);
			*data = NULL;
		}
		return 0;
	}
	memcpy(at, list->data, head);
	write_le32(at + 16, (uint32_t)(head + kept * list->sig_size));
	*size -= *dropped * list->sig_size;
	return 0;
}
