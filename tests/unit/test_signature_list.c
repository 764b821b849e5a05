// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * esl_walk and sig_db on synthetic signature lists: valid ones, then each
 * kind of malformed list, alone and next to valid ones; every fixed-size
 * type UEFI defines for an image or its signer (GUID, name, size), lists of
 * types nobody defines (skipped and counted, not rejected), esl_append_list
 * and the RSA-2048 modulus of a certificate. Every buffer is its own heap
 * block of exactly its size, so ASan sees any overread.
 */
#include "signature_list.h"
#include "unit.h"
#include "unit_esl.h"
#include "unit_image.h"
#include "unit_x509.h"

#include <openssl/bn.h>
#include <openssl/sha.h>

static const uint8_t sha256_guid[16] = { 0x26, 0x16, 0xc4, 0xc1, 0x4c, 0x50, 0x92, 0x40,
					 0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28 };
static const uint8_t x509_guid[16] = { 0xa1, 0x59, 0xc0, 0xa5, 0xe4, 0x94, 0xa7, 0x4a,
				       0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 };
static const uint8_t x509_sha256_guid[16] = { 0x92, 0xa4, 0xd2, 0x3b, 0xc0, 0x96, 0x79, 0x40,
					      0xb4, 0x20, 0xfc, 0xf9, 0x8e, 0xf1, 0x03, 0xed };

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

/* ---- every fixed-size type, and types lockshim does not know ---------------------------------- */

static const struct fixed_type {
	const char *guid; /* as UEFI writes it */
	enum esl_type type;
	const char *name;
	size_t size;
} fixed_types[] = {
	{ "c1c41626-504c-4092-aca9-41f936934328", ESL_SHA256, "SHA256", 32 },
	{ "ff3e5307-9fd0-48c9-85f1-8ad56c701e01", ESL_SHA384, "SHA384", 48 },
	{ "093e0fae-a6c4-4f50-9f1b-d41e2b89c19a", ESL_SHA512, "SHA512", 64 },
	{ "826ca512-cf10-4ac9-b187-be01496631bd", ESL_SHA1, "SHA1", 20 },
	{ "0b6e5233-a65c-44c9-9407-d9ab83bfc8bd", ESL_SHA224, "SHA224", 28 },
	{ "3c5766e8-269c-4e34-aa14-ed776e85b3b6", ESL_RSA2048, "RSA2048", 256 },
	{ "e2b36190-879b-4a3d-ad8d-f2e7bba32784", ESL_RSA2048_SHA256, "RSA2048_SHA256", 256 },
	{ "67f8444f-8743-48f1-a328-1eaab8736080", ESL_RSA2048_SHA1, "RSA2048_SHA1", 256 },
};

static void test_fixed_types(void)
{
	for (size_t i = 0; i < sizeof(fixed_types) / sizeof(fixed_types[0]); i++) {
		const struct fixed_type *f = &fixed_types[i];
		uint8_t guid[16], entry[256], *out = NULL;
		char text[ESL_GUID_TEXT_SIZE];
		struct buf b = { 0 };
		struct sig_db db;
		const char *why;
		size_t out_size = 0;

		guid_bytes(f->guid, guid);
		esl_guid_text(guid, text);
		CHECK_STREQ(text, f->guid, unit_name("%s: the GUID as text", f->name));
		CHECK_STREQ(esl_type_name(f->type), f->name, unit_name("%s: its name", f->name));
		CHECK_EQ(esl_type_size(f->type), f->size, unit_name("%s: its size", f->name));

		sig_db_init(&db, "test");
		append_list(&b, guid, 0, (uint32_t)(16 + f->size), 2, NULL, 0);
		if (CHECK_EQ(walk(&b, b.size, &db, &why), 0,
			     unit_name("%s: a list of two", f->name)) &&
		    CHECK_EQ(db.n_digests, (size_t)2,
			     unit_name("%s: both entries added", f->name))) {
			CHECK_EQ(db.digests[1].type, f->type, unit_name("%s: the type", f->name));
			CHECK_EQ(db.digests[1].size, f->size, unit_name("%s: the size", f->name));
			memset(entry, 2, sizeof(entry));
			CHECK(sig_db_has_digest(&db, f->type, entry, (unsigned int)f->size),
			      unit_name("%s: the second entry is found", f->name));
			/* sig_db_to_esl writes the same list back */
			CHECK(sig_db_to_esl(&db,
					    (const uint8_t[16]){ 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
								 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
								 0xee, 0xee, 0xee, 0xee },
					    false, &out, &out_size) == 0 &&
				      out_size == b.size && memcmp(out, b.data, b.size) == 0,
			      unit_name("%s: written back byte for byte", f->name));
		}
		sig_db_free(&db);
		OPENSSL_free(out);

		/* one byte short: the whole list is rejected */
		sig_db_init(&db, "test");
		free(b.data);
		b = (struct buf){ 0 };
		append_list(&b, guid, 0, (uint32_t)(16 + f->size - 1), 1, NULL, 0);
		CHECK_EQ(walk(&b, b.size, &db, &why), 1,
			 unit_name("%s: one byte short: rejected", f->name));
		CHECK(sig_db_is_empty(&db),
		      unit_name("%s: one byte short: nothing added", f->name));
		sig_db_free(&db);
		free(b.data);
	}
}

/* A type nobody defines: well-formed is skipped, counted, never rejected; malformed is rejected. */
static void test_unknown_types(void)
{
	static const char unknown_text[] = "4c6f636b-5368-696d-556e-6b6e6f776e21";
	uint8_t unknown[16], external[16];
	const uint8_t *first = NULL;
	char text[ESL_GUID_TEXT_SIZE];
	struct buf b = { 0 };
	struct sig_db db;
	const char *why;

	guid_bytes(unknown_text, unknown);
	guid_bytes("452e8ced-dfff-4b8c-ae01-5118862e682c", external); /* defined, names no image */
	append_list(&b, sha256_guid, 0, 48, 1, NULL, 0);
	append_list(&b, unknown, 0, 16 + 3, 2, NULL, 0);
	append_list(&b, external, 0, 16 + 1, 1, NULL, 0);
	append_list(&b, unknown, 4, 16, 0, NULL, 0); /* no entries, a header */
	append_list(&b, sha256_guid, 0, 48, 1, NULL, 0);
	sig_db_init(&db, "test");
	CHECK_EQ(walk(&b, b.size, &db, &why), 0, "unknown types: no list rejected");
	CHECK_EQ(db.n_digests, (size_t)2, "unknown types: the SHA-256 lists around them are used");
	CHECK_EQ(esl_count_unknown(b.data, b.size, &first), (size_t)3,
		 "unknown types: three counted");
	if (CHECK(first != NULL, "unknown types: the first one's type")) {
		esl_guid_text(first, text);
		CHECK_STREQ(text, unknown_text, "unknown types: the first one's GUID");
	}
	sig_db_free(&db);
	CHECK_EQ(esl_count_unknown(b.data, 48 + 28, &first), (size_t)0,
		 "unknown types: none in the first list alone");
	CHECK(first == NULL, "unknown types: none, no GUID");

	/* an unknown type's sizes must still add up */
	append_list(&b, unknown, 0, 20, 2, NULL, 0);
	put32(b.data + b.size - 2 * 20 - 28 + 24, 30); /* 40 bytes are not a multiple of 30 */
	sig_db_init(&db, "test");
	CHECK_EQ(walk(&b, b.size, &db, &why), 1, "unknown type, sizes not adding up: rejected");
	CHECK_EQ(esl_count_unknown(b.data, b.size, &first), (size_t)3,
		 "unknown type, sizes not adding up: not counted as well-formed");
	sig_db_free(&db);
	free(b.data);
}

/* esl_append_list: every list byte for byte, or less the entries not kept. */
static bool keep_odd_bytes(const struct esl_entry *entry, void *ctx)
{
	(void)ctx;
	return entry->data[0] % 2;
}

struct lists {
	struct esl_list items[8];
	size_t count;
};

static int collect_list(const struct esl_list *list, void *ctx)
{
	struct lists *l = ctx;

	if (l->count < 8)
		l->items[l->count++] = *list;
	return 0;
}

static void test_append_list(void)
{
	uint8_t unknown[16], *out = NULL;
	struct buf b = { 0 }, want = { 0 };
	struct lists l = { 0 };
	size_t out_size = 0, dropped, total = 0;
	const char *why;

	guid_bytes("4c6f636b-5368-696d-556e-6b6e6f776e21", unknown);
	append_list(&b, sha256_guid, 8, 48, 4, NULL, 0); /* entries 1..4, a header */
	append_list(&b, unknown, 0, 19, 3, NULL, 0);     /* entries 1..3 */
	append_list(&b, sha256_guid, 0, 48, 1, (const uint8_t[1]){ 2 }, 1);
	append_list(&b, sha256_guid, 0, 48, 0, NULL, 0);
	CHECK_EQ(esl_walk_lists(b.data, b.size, collect_list, &l, &why), 0, "append: lists walk");
	CHECK_EQ(l.count, (size_t)4, "append: four lists");

	for (size_t i = 0; i < l.count; i++) {
		CHECK_EQ(esl_append_list(&l.items[i], NULL, NULL, &out, &out_size, &dropped), 0,
			 unit_name("append: list %zu whole", i));
		CHECK_EQ(dropped, (size_t)0,
			 unit_name("append: list %zu whole, nothing dropped", i));
	}
	CHECK(out_size == b.size && memcmp(out, b.data, b.size) == 0,
	      "append: every list whole: byte for byte");
	OPENSSL_free(out);
	out = NULL;
	out_size = 0;

	for (size_t i = 0; i < l.count; i++) {
		CHECK_EQ(esl_append_list(&l.items[i], keep_odd_bytes, NULL, &out, &out_size,
					 &dropped),
			 0, unit_name("append: list %zu less its even entries", i));
		total += dropped;
	}
	CHECK_EQ(total, (size_t)(2 + 1 + 1), "append: the even entries dropped");
	/* what is left: the first list with entries 1 and 3 and its header, the unknown
	 * list with entries 1 and 3, the third list gone, the empty list whole */
	append_list(&want, sha256_guid, 8, 48, 2, NULL, 0);
	memset(want.data + 28 + 8 + 48 + 16, 3, 32);
	append_list(&want, unknown, 0, 19, 2, NULL, 0);
	memset(want.data + want.size - 3, 3, 3);
	append_list(&want, sha256_guid, 0, 48, 0, NULL, 0);
	CHECK_EQ(out_size, want.size, "append: less the even entries: the size");
	CHECK(out_size == want.size && memcmp(out, want.data, want.size) == 0,
	      "append: less the even entries: headers kept, odd entries in order");
	OPENSSL_free(out);
	free(want.data);
	free(b.data);
}

/* The RSA-2048 modulus a certificate's key has, and none for another key size. */
static void test_rsa2048_modulus(X509 *small)
{
	uint8_t modulus[ESL_MAX_FIXED_SIZE], expect[256];
	EVP_PKEY *key = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	X509 *cert = X509_new();
	BIGNUM *n = NULL;

	CHECK_EQ(esl_cert_rsa2048_modulus(small, modulus), 0, "RSA-1024 key: no RSA-2048 modulus");
	X509_set_pubkey(cert, key);
	if (CHECK(EVP_PKEY_get_bn_param(key, "n", &n) && BN_bn2binpad(n, expect, 256) == 256,
		  "the RSA-2048 key's modulus") &&
	    CHECK_EQ(esl_cert_rsa2048_modulus(cert, modulus), 1, "RSA-2048 key: its modulus"))
		CHECK_MEMEQ(modulus, expect, 256, "RSA-2048 key: the modulus, big-endian");
	BN_free(n);
	X509_free(cert);
	EVP_PKEY_free(key);
}

/*
 * A valid SHA-256 list then a valid X509 list, cut at every byte: each cut
 * inside a list is reported as the truncation it is (rejected, with the
 * reason for where the cut fell), the list before it is kept, and nothing
 * of the cut list is added; a cut between lists is no error.
 */
static void test_truncated(const uint8_t *der, size_t der_len)
{
	struct buf b = { 0 };
	size_t first, wrong = 0;

	append_list(&b, sha256_guid, 0, 16 + 32, 1, NULL, 0);
	first = b.size;
	append_list(&b, x509_guid, 0, (uint32_t)(16 + der_len), 1, der, der_len);
	for (size_t cut = 0; cut <= b.size; cut++) {
		size_t start = cut < first ? 0 : first, digests = cut < first ? 0 : 1;
		const char *want = NULL; /* a cut between lists */
		struct sig_db db;
		const char *why;
		int r, certs;

		if (cut != 0 && cut != first && cut != b.size)
			want = cut - start < ESL_HEADER_SIZE ? "signature list header truncated" :
							       "SignatureListSize does not fit the data";
		sig_db_init(&db, "test");
		r = walk(&b, cut, &db, &why);
		certs = db.certs ? sk_X509_num(db.certs) : 0;
		if (r != (want ? 1 : 0) || !unit_streq(why, want) || db.n_digests != digests ||
		    certs != (cut == b.size ? 1 : 0)) {
			if (!wrong++)
				printf("# cut at %zu of %zu: walk returned %d (%s), %zu digests,"
				       " %d certificates; wanted %d (%s)\n",
				       cut, b.size, r, why ? why : "no reason", db.n_digests, certs,
				       want ? 1 : 0, want ? want : "no reason");
		}
		sig_db_free(&db);
	}
	CHECK_EQ(wrong, (size_t)0,
		 "truncated at every byte: each cut reported as a truncation, nothing of it added");
	free(b.data);
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
	free(b.data);
	test_truncated(der, (size_t)der_len);

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
	test_fixed_types();
	test_unknown_types();
	test_append_list();
	test_rsa2048_modulus(cert);
	OPENSSL_free(der);
	X509_free(cert);
	UNIT_EXIT();
}
