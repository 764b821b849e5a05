// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * esl_walk and sig_db on synthetic signature lists: valid ones, then each
 * kind of malformed list, alone and next to valid ones. Every buffer is its
 * own heap block of exactly its size, so ASan sees any overread.
 */
#include "signature_list.h"
#include "unit.h"
#include "unit_image.h"
#include "unit_x509.h"

#include <openssl/sha.h>

static const uint8_t sha256_guid[16] = { 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40,
					 0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28 };
static const uint8_t x509_guid[16] = { 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
				       0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 };
static const uint8_t x509_sha256_guid[16] = { 0x92, 0xa4, 0xd2, 0x3b, 0xc0, 0x96, 0x79, 0x40,
					      0xb4, 0x20, 0xfc, 0xf9, 0x8e, 0xf1, 0x03, 0xed };

struct buf {
	uint8_t *data;
	size_t size;
};

/* Append one list: @n entries of @sig_size bytes, entry i filled with byte i+1 after its owner. */
static void append_list(struct buf *b, const uint8_t *type, uint32_t header_size, uint32_t sig_size,
			uint32_t n, const uint8_t *payload, size_t payload_size)
{
	size_t size = ESL_HEADER_SIZE + header_size + (size_t)n * sig_size;
	uint8_t *p;

	b->data = realloc(b->data, b->size + size);
	p = b->data + b->size;
	memset(p, 0, size);
	memcpy(p, type, 16);
	put32(p + 16, (uint32_t)size);
	put32(p + 20, header_size);
	put32(p + 24, sig_size);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *entry = p + ESL_HEADER_SIZE + header_size + (size_t)i * sig_size;

		memset(entry, 0xee, sig_size < ESL_OWNER_SIZE ? sig_size : ESL_OWNER_SIZE);
		if (payload && payload_size <= sig_size - ESL_OWNER_SIZE)
			memcpy(entry + ESL_OWNER_SIZE, payload, payload_size);
		else if (sig_size > ESL_OWNER_SIZE)
			memset(entry + ESL_OWNER_SIZE, (int)(i + 1), sig_size - ESL_OWNER_SIZE);
	}
	b->size += size;
}

/* An exact-size copy, so the sanitizer catches reads past the end. */
static int walk(const struct buf *b, size_t size, struct sig_db *db, const char **reason)
{
	uint8_t *copy = malloc(size ? size : 1);
	int r;

	memcpy(copy, b->data, size);
	*reason = NULL;
	r = sig_db_add_esl(db, copy, size, reason);
	free(copy);
	return r;
}

static void test_valid(const uint8_t *der, size_t der_len)
{
	struct buf b = { 0 };
	struct sig_db db;
	const char *why;
	uint8_t digest[32];

	sig_db_init(&db, "test");
	append_list(&b, sha256_guid, 0, 16 + 32, 3, NULL, 0);
	append_list(&b, x509_guid, 0, (uint32_t)(16 + der_len), 1, der, der_len);
	append_list(&b, x509_sha256_guid, 0, 16 + 32 + 16, 1, NULL, 0);
	CHECK_EQ(walk(&b, b.size, &db, &why), 0, "valid lists: none rejected");
	CHECK_EQ(db.n_digests, 4, "valid lists: 4 digests");
	CHECK_EQ(sk_X509_num(db.certs), 1, "valid lists: 1 certificate");
	memset(digest, 2, sizeof(digest));
	CHECK(sig_db_has_digest(&db, ESL_SHA256, digest, 32), "digest lookup finds an entry");
	CHECK(!sig_db_has_digest(&db, ESL_SHA384, digest, 32), "digest lookup respects the type");
	memset(digest, 9, sizeof(digest));
	CHECK(!sig_db_has_digest(&db, ESL_SHA256, digest, 32), "digest lookup misses an absent entry");
	sig_db_free(&db);

	sig_db_init(&db, "test");
	CHECK_EQ(walk(&b, 0, &db, &why), 0, "empty variable: none rejected");
	CHECK(sig_db_is_empty(&db), "empty variable: no lists");
	sig_db_free(&db);
	free(b.data);
}

/* Set a u32 field of the list that starts at @start. */
static void set_field(struct buf *b, size_t start, size_t field, uint32_t value)
{
	put32(b->data + start + field, value);
}

static void bad_header_size(struct buf *b)
{
	size_t start = b->size;

	append_list(b, sha256_guid, 8, 48, 0, NULL, 0);
	set_field(b, start, 20, 9); /* header size one byte past the list */
}

static void bad_sig_size_small(struct buf *b) { append_list(b, sha256_guid, 0, 8, 2, NULL, 0); }
static void bad_sig_size_for_type(struct buf *b) { append_list(b, sha256_guid, 0, 16 + 20, 2, NULL, 0); }
static void bad_certificate(struct buf *b) { append_list(b, x509_guid, 0, 16 + 40, 1, NULL, 0); }

static void bad_not_multiple(struct buf *b)
{
	size_t start = b->size;

	append_list(b, sha256_guid, 0, 48, 2, NULL, 0);
	set_field(b, start, 24, 40); /* 96 bytes of entries are not a multiple of 40 */
}

static void bad_list_size_past_end(struct buf *b)
{
	size_t start = b->size;

	append_list(b, sha256_guid, 0, 48, 1, NULL, 0);
	set_field(b, start, 16, 0xfffffff0);
}

static void bad_list_size_zero(struct buf *b)
{
	size_t start = b->size;

	append_list(b, sha256_guid, 0, 48, 1, NULL, 0);
	set_field(b, start, 16, 0);
}

/* One malformed list between two valid SHA-256 lists: rejected, with a reason. */
static const struct malformed {
	const char *name;
	void (*make_bad)(struct buf *b);
	size_t digests; /* 2: the walk goes on past it, 1: it stops */
} malformed[] = {
	{ "header size past the list: rejected, walk goes on", bad_header_size, 2 },
	{ "signature size below 16: rejected, walk goes on", bad_sig_size_small, 2 },
	{ "signature size wrong for SHA-256: rejected, walk goes on", bad_sig_size_for_type, 2 },
	{ "list not a whole number of signatures: rejected, walk goes on", bad_not_multiple, 2 },
	{ "X509 entry that is not a certificate: rejected, walk goes on", bad_certificate, 2 },
	{ "list size past the end: rejected, walk stops", bad_list_size_past_end, 1 },
	{ "list size zero: rejected, walk stops", bad_list_size_zero, 1 },
};

static void test_malformed_between(void)
{
	for (size_t i = 0; i < sizeof(malformed) / sizeof(malformed[0]); i++) {
		const struct malformed *m = &malformed[i];
		struct buf b = { 0 };
		struct sig_db db;
		const char *why;

		sig_db_init(&db, "test");
		append_list(&b, sha256_guid, 0, 48, 1, NULL, 0);
		m->make_bad(&b);
		append_list(&b, sha256_guid, 0, 48, 1, NULL, 0);
		if (CHECK_EQ(walk(&b, b.size, &db, &why), 1, m->name))
			CHECK(why != NULL, unit_name("%s, with a reason", m->name));
		CHECK_EQ(db.n_digests, m->digests,
			 unit_name("%s: the valid lists' digests", m->name));
		sig_db_free(&db);
		free(b.data);
	}
}

int main(void)
{
	X509 *cert = unit_make_cert("unit test");
	unsigned char *der = NULL;
	int der_len = i2d_X509(cert, &der);
	struct buf b = { 0 };
	struct sig_db db;
	const char *why;

	test_valid(der, (size_t)der_len);

	test_malformed_between();

	/* a certificate followed by trailing bytes inside its entry */
	sig_db_init(&db, "test");
	append_list(&b, x509_guid, 0, (uint32_t)(16 + der_len + 4), 1, der, (size_t)der_len);
	CHECK_EQ(walk(&b, b.size, &db, &why), 1, "certificate with trailing bytes rejected");
	CHECK_LE(sk_X509_num(db.certs), 0, "certificate with trailing bytes: not added");
	sig_db_free(&db);
	/* truncated at every byte: never a crash, never an entry from the cut list */
	{
		size_t wrong = 0;

		for (size_t cut = 0; cut < b.size; cut++) {
			int r;

			sig_db_init(&db, "test");
			r = walk(&b, cut, &db, &why);
			if (r < 0 || !sig_db_is_empty(&db)) {
				if (!wrong++)
					printf("# cut at %zu: walk returned %d, %zu digests\n",
					       cut, r, db.n_digests);
			}
			sig_db_free(&db);
		}
		CHECK_EQ(wrong, 0, "truncated at every byte: rejected, nothing added");
	}
	free(b.data);

	/* the TBS digest equals SHA-256 over the tbsCertificate's DER */
	{
		unsigned char *tbs = NULL, expect[32], got[EVP_MAX_MD_SIZE];
		int tbs_len = i2d_re_X509_tbs(cert, &tbs);
		unsigned int got_len;

		SHA256(tbs, (size_t)tbs_len, expect);
		if (CHECK_EQ(esl_cert_tbs_digest(cert, EVP_sha256(), got, &got_len), 0,
			     "certificate TBS digest computed")) {
			CHECK_EQ(got_len, 32, "certificate TBS digest: 32 bytes");
			CHECK_MEMEQ(got, expect, 32, "certificate TBS digest");
		}
		OPENSSL_free(tbs);
	}
	OPENSSL_free(der);
	X509_free(cert);
	UNIT_EXIT();
}
