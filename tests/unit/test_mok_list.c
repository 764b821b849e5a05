// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * mok_list_apply keeps what it does not change: when the MOK manager
 * rewrites MokList or MokListX, every signature list the request does not
 * touch comes out byte for byte, lists of a type lockshim does not know
 * included (shim may share the machine: a revocation it wrote must not be
 * lost); a list that loses an entry keeps its header and its other entries.
 * The expected lists are written with unit_esl.h, not with the code under
 * test.
 */
#include "mok_list.h"
#include "signature_list.h"
#include "unit.h"
#include "unit_esl.h"
#include "unit_x509.h"

#include <openssl/crypto.h>

static uint8_t x509_guid[16], sha256_guid[16], sha1_guid[16], unknown_guid[16];

/*
 * The current list: a certificate, three SHA-256 entries (bytes 1, 2, 3)
 * behind an 8-byte SignatureHeader, a list of a type nobody defines (two
 * entries), a SHA-1 entry (byte 1). Only the parts named in @parts (bits
 * 0 to 3), in that order; the SHA-256 list with @sha256 entries of 1..3
 * (a bit each).
 */
static void current_list(struct buf *b, unsigned int parts, unsigned int sha256, const uint8_t *der,
			 size_t der_len)
{
	if (parts & 1)
		append_list(b, x509_guid, 0, (uint32_t)(16 + der_len), 1, der, der_len);
	if (parts & 2) {
		uint8_t entries[3][32];
		size_t start = b->size, n = 0;

		for (uint8_t i = 0; i < 3; i++)
			if (sha256 & (1u << i))
				memset(entries[n++], i + 1, 32);
		append_list(b, sha256_guid, 8, 48, (uint32_t)n, NULL, 0);
		for (size_t i = 0; i < n; i++)
			memcpy(b->data + start + 28 + 8 + 48 * i + 16, entries[i], 32);
		memset(b->data + start + 28, 0x5a, 8); /* a SignatureHeader to keep */
	}
	if (parts & 4)
		append_list(b, unknown_guid, 0, 16 + 5, 2, NULL, 0);
	if (parts & 8)
		append_list(b, sha1_guid, 0, 16 + 20, 1, NULL, 0);
}

/* A request: one list of one SHA-256 entry filled with @byte. */
static void sha256_request(struct buf *b, uint8_t byte)
{
	uint8_t digest[32];

	memset(digest, byte, sizeof(digest));
	append_list(b, sha256_guid, 0, 48, 1, digest, sizeof(digest));
}

static const struct apply_case {
	const char *name;
	enum mok_list_op op;
	uint8_t request; /* the SHA-256 entry the request names */
	size_t changed;
	unsigned int parts, sha256; /* what is left of the current list (current_list) */
	bool appended;              /* the request's entry, after it */
} cases[] = {
	{ "enroll a new hash: every list kept byte for byte, the hash after them", MOK_LIST_ENROLL,
	  9, 1, 15, 7, true },
	{ "enroll a hash already there: nothing changes", MOK_LIST_ENROLL, 2, 0, 15, 7, false },
	{ "delete the middle SHA-256 entry: its list keeps its header and the others",
	  MOK_LIST_DELETE, 2, 1, 15, 5, false },
	{ "delete a hash that is not there: every list kept byte for byte", MOK_LIST_DELETE, 9, 0,
	  15, 7, false },
};

static void test_apply(const struct apply_case *c, const uint8_t *der, size_t der_len)
{
	struct buf current = { 0 }, request = { 0 }, want = { 0 };
	size_t out_size = 0, changed = 99;
	uint8_t *out = NULL;
	const char *why = NULL;

	current_list(&current, 15, 7, der, der_len);
	sha256_request(&request, c->request);
	current_list(&want, c->parts, c->sha256, der, der_len);
	if (c->appended)
		sha256_request(&want, c->request);
	/* the request's list is written with shim's owner by esl_append_entry: compare the rest */
	if (CHECK_EQ(mok_list_apply(c->op, current.data, current.size, request.data, request.size,
				    &out, &out_size, &changed, &why),
		     0, c->name)) {
		CHECK_EQ(changed, c->changed, unit_name("%s: entries changed", c->name));
		if (CHECK_EQ(out_size, want.size, unit_name("%s: the size", c->name)) && out_size) {
			size_t owner_at = c->appended ? want.size - 48 : want.size;

			CHECK_MEMEQ(out, want.data, owner_at, unit_name("%s: the lists", c->name));
			if (c->appended)
				CHECK_MEMEQ(out + owner_at + 16, want.data + owner_at + 16, 32,
					    unit_name("%s: the new entry", c->name));
		}
	}
	OPENSSL_free(out);
	free(current.data);
	free(request.data);
	free(want.data);
}

/* Deleting a list's only entry takes the list away; the others stay as they were. */
static void test_delete_last_entry(const uint8_t *der, size_t der_len)
{
	struct buf current = { 0 }, request = { 0 }, want = { 0 };
	size_t out_size = 0, changed = 0;
	uint8_t *out = NULL;
	const char *why;

	current_list(&current, 15, 2, der, der_len); /* one SHA-256 entry: byte 2 */
	sha256_request(&request, 2);
	current_list(&want, 1 | 4 | 8, 0, der, der_len);
	if (CHECK_EQ(mok_list_apply(MOK_LIST_DELETE, current.data, current.size, request.data,
				    request.size, &out, &out_size, &changed, &why),
		     0, "delete a list's only entry")) {
		CHECK_EQ(changed, 1u, "delete a list's only entry: one entry changed");
		CHECK(out_size == want.size && memcmp(out, want.data, want.size) == 0,
		      "delete a list's only entry: the list goes, the others byte for byte");
	}
	OPENSSL_free(out);
	free(current.data);
	free(request.data);
	free(want.data);
}

/* A request of a type lockshim does not know enrolls nothing. */
static void test_unknown_request(const uint8_t *der, size_t der_len)
{
	struct buf current = { 0 }, request = { 0 };
	size_t out_size = 0, changed = 0;
	uint8_t *out = NULL;
	const char *why = NULL;

	current_list(&current, 15, 7, der, der_len);
	append_list(&request, unknown_guid, 0, 16 + 5, 1, NULL, 0);
	CHECK_EQ(mok_list_apply(MOK_LIST_ENROLL, current.data, current.size, request.data,
				request.size, &out, &out_size, &changed, &why),
		 -1, "a request of an unknown type only: refused");
	CHECK_STREQ(why, "the request holds no entries",
		    "a request of an unknown type: the reason");
	CHECK(out == NULL, "a request of an unknown type: no new list");
	free(current.data);
	free(request.data);
}

/*
 * The MOK manager merges into MokList / MokListX only what it read through
 * the owner-variable check: a list root planted with runtime access
 * (mokutil-style NV|BS|RT, or time-authenticated so lockshim could not
 * delete it) before a pending enrollment loses every entry; one the manager
 * wrote (NV|BS) keeps them.
 */
static void test_apply_read(const uint8_t *der, size_t der_len)
{
	static const struct {
		enum variable_id list;
		uint32_t attributes;
		bool os_written;
	} reads[] = {
		{ VAR_MOK_LIST, VARIABLE_NV_BS, false },
		{ VAR_MOK_LIST, VARIABLE_NV_BS_RT, true },
		{ VAR_MOK_LIST, VARIABLE_NV_BS_RT_TIME_AUTHED, true },
		{ VAR_MOK_LIST_X, VARIABLE_NV_BS_RT, true },
		{ VAR_MOK_LIST_X, VARIABLE_NV_BS, false },
	};

	for (size_t i = 0; i < sizeof(reads) / sizeof(reads[0]); i++) {
		struct buf planted = { 0 }, request = { 0 }, alone = { 0 };
		size_t out_size = 0, changed = 0;
		uint8_t *out = NULL;
		const char *why = NULL;
		bool os_written = !reads[i].os_written;
		char name[64];

		snprintf(name, sizeof(name), "%s read with attributes 0x%x",
			 variables[reads[i].list].name, (unsigned int)reads[i].attributes);
		current_list(&planted, 15, 7, der, der_len); /* root's keys */
		sha256_request(&request, 9);
		sha256_request(&alone, 9);
		if (CHECK_EQ(mok_list_apply_read(MOK_LIST_ENROLL,
						 &(struct mok_list_read){ reads[i].list,
									  planted.data, planted.size,
									  reads[i].attributes },
						 request.data, request.size, &out, &out_size,
						 &changed, &os_written, &why),
			     0, name)) {
			CHECK_EQ(os_written, reads[i].os_written,
				 unit_name("%s: written by an OS", name));
			CHECK_EQ(changed, 1u, unit_name("%s: the new entry enrolled", name));
			if (reads[i].os_written)
				/* the request's entry alone (its owner is shim's, the rest compared) */
				CHECK(out_size == alone.size &&
					      memcmp(out, alone.data, 16 + 12) == 0 &&
					      memcmp(out + 28 + 16, alone.data + 28 + 16, 32) == 0,
				      unit_name("%s: none of root's entries is kept", name));
			else
				CHECK(out_size == planted.size + alone.size &&
					      memcmp(out, planted.data, planted.size) == 0,
				      unit_name("%s: the owner's entries are kept", name));
		}
		OPENSSL_free(out);
		free(planted.data);
		free(request.data);
		free(alone.data);
	}
}

int main(void)
{
	X509 *cert = unit_make_cert("mok list");
	unsigned char *der = NULL;
	int der_len = i2d_X509(cert, &der);

	guid_bytes("a5c059a1-94e4-4aa7-87b5-ab155c2bf072", x509_guid);
	guid_bytes("c1c41626-504c-4092-aca9-41f936934328", sha256_guid);
	guid_bytes("826ca512-cf10-4ac9-b187-be01496631bd", sha1_guid);
	guid_bytes("4c6f636b-5368-696d-556e-6b6e6f776e21", unknown_guid);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		test_apply(&cases[i], der, (size_t)der_len);
	test_delete_last_entry(der, (size_t)der_len);
	test_unknown_request(der, (size_t)der_len);
	test_apply_read(der, (size_t)der_len);
	OPENSSL_free(der);
	X509_free(cert);
	return unit_failed;
}
