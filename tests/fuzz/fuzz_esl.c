// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * libFuzzer target: EFI_SIGNATURE_LIST parsing (esl_walk) and the sig_db
 * built from it (sig_db_add_esl, sig_db_has_digest).
 *
 * The visitor reads every byte of each entry's owner and data, so ASan
 * reports an entry that esl_walk hands out past the input. It also checks
 * what signature_list.h promises about a visited entry: an image or
 * certificate digest has its algorithm's length; a certificate is exactly
 * one DER certificate. Then every digest visited must be found in a sig_db
 * built from the same bytes, the visitor's non-zero return must stop the
 * walk and come back as esl_walk's result, and sig_db_to_esl must write the
 * sig_db back as lists that parse again to the same certificates and digests.
 * List by list (esl_walk_lists), esl_append_list copies a list byte for
 * byte, or less some entries as a list that parses again.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/x509.h>

#include "fuzz.h"
#include "signature_list.h"


#define MAX_REMEMBERED 16
#define STOP_VALUE     (-4242) /* no count of rejected lists looks like this */

struct walk {
	const uint8_t *data;
	size_t size;
	size_t visited;
	size_t certs;
	struct esl_digest digests[MAX_REMEMBERED];
	size_t n_digests;
	int stop_after; /* return STOP_VALUE from this visit on (0: never) */
};

static volatile uint8_t sink;

static bool inside(const struct walk *w, const uint8_t *p, size_t length)
{
	return p >= w->data && (size_t)(p - w->data) <= w->size &&
	       length <= w->size - (size_t)(p - w->data);
}

static int visit(const struct esl_entry *entry, void *ctx)
{
	struct walk *w = ctx;
	uint8_t x = 0;

	FUZZ_ASSERT(entry->type >= ESL_X509 && entry->type < ESL_UNKNOWN); /* unknown: skipped */
	FUZZ_ASSERT(esl_type_name(entry->type) != NULL);
	FUZZ_ASSERT(entry->owner && inside(w, entry->owner, ESL_OWNER_SIZE));
	FUZZ_ASSERT(entry->size == 0 || (entry->data && inside(w, entry->data, entry->size)));
	for (size_t i = 0; i < ESL_OWNER_SIZE; i++)
		x ^= entry->owner[i];
	for (size_t i = 0; i < entry->size; i++)
		x ^= entry->data[i];
	sink ^= x;

	w->visited++;
	if (entry->type == ESL_X509) {
		const unsigned char *p = entry->data;
		X509 *cert = d2i_X509(NULL, &p, (long)entry->size);

		FUZZ_ASSERT(cert && p == entry->data + entry->size); /* exactly one certificate */
		X509_free(cert);
		w->certs++;
	} else {
		const EVP_MD *md = esl_type_md(entry->type);

		FUZZ_ASSERT(entry->size && entry->size == esl_type_size(entry->type));
		FUZZ_ASSERT(!md || entry->size == (size_t)EVP_MD_get_size(md));
		if (w->n_digests < MAX_REMEMBERED) {
			struct esl_digest *d = &w->digests[w->n_digests++];

			d->type = entry->type;
			d->size = (unsigned int)entry->size;
			memcpy(d->digest, entry->data, entry->size);
		}
	}
	if (w->stop_after && w->visited >= (size_t)w->stop_after)
		return STOP_VALUE;
	return 0;
}

/*
 * sig_db_to_esl then sig_db_add_esl gives back the same list: no list of
 * the output is rejected, it has the same certificates and every digest
 * (none with @certs_only).
 */
static void round_trip(const struct sig_db *db, bool certs_only)
{
	static const uint8_t owner[ESL_OWNER_SIZE] = "lockshim fuzz!!";
	struct sig_db again;
	uint8_t *out = NULL;
	size_t out_size = 0;
	const char *reason = NULL;
	int r;

	if (sig_db_to_esl(db, owner, certs_only, &out, &out_size) < 0) {
		FUZZ_ASSERT(out == NULL && out_size == 0);
		return;
	}
	FUZZ_ASSERT(out_size == 0 || out);
	sig_db_init(&again, "again");
	r = sig_db_add_esl(&again, out, out_size, &reason);
	FUZZ_ASSERT(r == 0);
	FUZZ_ASSERT(sk_X509_num(again.certs) == sk_X509_num(db->certs));
	for (int i = 0; i < sk_X509_num(db->certs); i++)
		FUZZ_ASSERT(X509_cmp(sk_X509_value(db->certs, i), sk_X509_value(again.certs, i)) == 0);
	if (certs_only) {
		FUZZ_ASSERT(again.n_digests == 0);
	} else {
		FUZZ_ASSERT(again.n_digests == db->n_digests);
		for (size_t i = 0; i < db->n_digests; i++)
			FUZZ_ASSERT(sig_db_has_digest(&again, db->digests[i].type, db->digests[i].digest,
						      db->digests[i].size));
	}
	sig_db_free(&again);
	OPENSSL_free(out);
}

/* What copy_lists writes, and how many lists and unknown ones it saw. */
struct copy {
	uint8_t *whole, *odd; /* every list byte for byte; every list less its odd entries */
	size_t whole_size, odd_size;
	size_t lists, unknown, entries, odd_dropped;
	bool oom;
};

static bool even_entries(const struct esl_entry *entry, void *ctx)
{
	size_t *i = ctx;

	(void)entry;
	return (*i)++ % 2 == 0;
}

static int copy_lists(const struct esl_list *list, void *ctx)
{
	struct copy *c = ctx;
	size_t dropped, i = 0;

	FUZZ_ASSERT(list->size >= ESL_HEADER_SIZE + list->header_size);
	FUZZ_ASSERT(list->count * list->sig_size ==
		    list->size - ESL_HEADER_SIZE - list->header_size);
	c->lists++;
	c->unknown += list->type == ESL_UNKNOWN;
	c->entries += list->count;
	if (!c->oom && esl_append_list(list, NULL, NULL, &c->whole, &c->whole_size, &dropped) < 0)
		c->oom = true;
	FUZZ_ASSERT(c->oom || dropped == 0);
	if (!c->oom && esl_append_list(list, even_entries, &i, &c->odd, &c->odd_size, &dropped) < 0)
		c->oom = true;
	FUZZ_ASSERT(c->oom || dropped == list->count / 2);
	c->odd_dropped += dropped;
	return 0;
}

/*
 * The lists one by one: copied byte for byte they give back the valid
 * lists; less every other entry, they still parse whole, with the same
 * unknown lists.
 */
static void check_lists(const uint8_t *data, size_t size, int rejected)
{
	struct copy c = { 0 }, again = { 0 };
	const uint8_t *first;
	const char *reason = NULL;

	FUZZ_ASSERT(esl_walk_lists(data, size, copy_lists, &c, &reason) == rejected);
	FUZZ_ASSERT(esl_count_unknown(data, size, &first) == c.unknown);
	FUZZ_ASSERT(c.unknown == 0 || first);
	if (!c.oom) {
		FUZZ_ASSERT(c.whole_size <= size);
		FUZZ_ASSERT(rejected != 0 || c.whole_size == size);
		FUZZ_ASSERT(rejected != 0 || size == 0 || memcmp(c.whole, data, size) == 0);
		FUZZ_ASSERT(esl_walk_lists(c.odd, c.odd_size, copy_lists, &again, &reason) == 0);
		FUZZ_ASSERT(again.unknown <= c.unknown);
		FUZZ_ASSERT(again.entries == c.entries - c.odd_dropped);
	}
	OPENSSL_free(c.whole);
	OPENSSL_free(c.odd);
	OPENSSL_free(again.whole);
	OPENSSL_free(again.odd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct walk w = { .data = data, .size = size };
	struct sig_db db;
	const char *reason = NULL;
	uint8_t probe[ESL_MAX_FIXED_SIZE];
	int rejected, r;

	/* 1. The whole walk. */
	rejected = esl_walk(data, size, visit, &w, &reason);
	FUZZ_ASSERT(rejected >= 0);
	FUZZ_ASSERT(rejected == 0 || reason);

	check_lists(data, size, rejected);

	/* 2. Stopped by the visitor at its first entry: the visitor's value comes back. */
	if (w.visited) {
		struct walk stop = { .data = data, .size = size, .stop_after = 1 };

		reason = NULL;
		r = esl_walk(data, size, visit, &stop, &reason);
		FUZZ_ASSERT(r == STOP_VALUE && stop.visited == 1);
	}

	/* 3. A sig_db of the same bytes holds every digest the walk visited. */
	sig_db_init(&db, "fuzz");
	FUZZ_ASSERT(sig_db_is_empty(&db));
	reason = NULL;
	r = sig_db_add_esl(&db, data, size, &reason);
	if (r >= 0) {
		FUZZ_ASSERT(r == rejected);
		FUZZ_ASSERT(r == 0 || reason);
		for (size_t i = 0; i < w.n_digests; i++) {
			const struct esl_digest *d = &w.digests[i];

			FUZZ_ASSERT(sig_db_has_digest(&db, d->type, d->digest, d->size));
			/* a shorter length never matches a full digest by its prefix alone */
			sink ^= sig_db_has_digest(&db, d->type, d->digest, d->size - 1);
		}
		if (w.certs || w.n_digests)
			FUZZ_ASSERT(!sig_db_is_empty(&db));

		/* lookups of digests that are (most likely) absent, of every type */
		memset(probe, 0, sizeof(probe));
		if (size)
			memcpy(probe, data, size < sizeof(probe) ? size : sizeof(probe));
		for (int t = ESL_X509; t <= ESL_UNKNOWN; t++) {
			size_t fixed = esl_type_size((enum esl_type)t);
			unsigned int len = fixed ? (unsigned int)fixed : 32;

			sink ^= sig_db_has_digest(&db, (enum esl_type)t, probe, len);
			if (esl_type_name((enum esl_type)t))
				sink ^= (uint8_t)strlen(esl_type_name((enum esl_type)t));
		}
		/* adding the same lists again: duplicates must be harmless */
		reason = NULL;
		r = sig_db_add_esl(&db, data, size, &reason);
		FUZZ_ASSERT(r < 0 || r == rejected);
		if (r >= 0) {
			round_trip(&db, false);
			round_trip(&db, true);
		}
	}
	sig_db_free(&db);
	return 0;
}
