// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * libFuzzer target: PE/COFF parsing, the Authenticode digest, the
 * certificate-table walk, the PKCS#7 decoding of each entry, all signatures
 * with nested ones (authenticode_collect), and authenticode_check_image on
 * each signature that decodes.
 *
 * Besides what ASan/UBSan/LeakSanitizer catch, it checks what pe.h and
 * authenticode.h promise: a refusal always has a reason; a parsed image's
 * sections and certificate table lie inside the file (every byte of them is
 * read here, so ASan reports a range that does not); the table walk only
 * moves forward and only hands out DER inside the table.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "authenticode.h"
#include "pe.h"


static volatile uint8_t sink;

/* Read every byte of [offset, offset + length) of the input: ASan checks the range. */
static void touch(const uint8_t *data, size_t size, size_t offset, size_t length)
{
	uint8_t x = 0;

	FUZZ_ASSERT(offset <= size && length <= size - offset);
	for (size_t i = 0; i < length; i++)
		x ^= data[offset + i];
	sink ^= x;
}

static void check_image(const uint8_t *data, size_t size, const struct pe_image *img)
{
	FUZZ_ASSERT(img->data == data && img->size == size);
	FUZZ_ASSERT(img->n_sections >= 1 && img->n_sections <= PE_MAX_SECTIONS);
	FUZZ_ASSERT(img->headers_size <= size);
	FUZZ_ASSERT((size_t)img->checksum_offset + 4 <= img->headers_size);
	if (img->secdir_offset)
		FUZZ_ASSERT((size_t)img->secdir_offset + 8 <= img->headers_size);
	touch(data, size, 0, img->headers_size);
	if (img->cert_table_size) {
		FUZZ_ASSERT(img->cert_table_offset % 8 == 0);
		FUZZ_ASSERT(img->cert_table_offset >= img->headers_size);
		FUZZ_ASSERT((size_t)img->cert_table_offset + img->cert_table_size == size);
		touch(data, size, img->cert_table_offset, img->cert_table_size);
	}
	for (uint16_t i = 0; i < img->n_sections; i++) {
		const struct pe_section *s = &img->sections[i];

		FUZZ_ASSERT(s->name[8] == '\0');
		if (!s->raw_size)
			continue;
		FUZZ_ASSERT(s->raw_offset >= img->headers_size);
		if (img->cert_table_size)
			FUZZ_ASSERT((size_t)s->raw_offset + s->raw_size <= img->cert_table_offset);
		touch(data, size, s->raw_offset, s->raw_size);
		FUZZ_ASSERT(pe_find_section(img, s->name) != NULL);
	}
	FUZZ_ASSERT(img->entry_point < img->image_size);
	sink ^= pe_find_section(img, ".text") != NULL;
	sink ^= pe_find_section(img, ".sbat") != NULL;
	sink ^= pe_find_section(img, "") != NULL;
	sink ^= pe_find_section(img, ".toolongname") != NULL;
	/* long names through the COFF string table: a section of the image, or none */
	for (int n = 0; n < 2; n++) {
		const struct pe_section *l = pe_find_section_long(img, n ? ".vendor_cert" : ".sbatlevel");

		FUZZ_ASSERT(!l || (l >= img->sections && l < img->sections + img->n_sections));
		sink ^= l != NULL;
	}
}

/* The image's Authenticode digest with @md, computed once per algorithm. */
struct digests {
	const EVP_MD *md[3];
	uint8_t value[3][EVP_MAX_MD_SIZE];
	unsigned int len[3];
};

static int image_digest(const struct pe_image *img, struct digests *d, const EVP_MD *md,
			const uint8_t **value, unsigned int *len)
{
	const char *reason = NULL;
	size_t k;

	for (k = 0; k < 3 && d->md[k]; k++)
		if (d->md[k] == md)
			goto found;
	FUZZ_ASSERT(k < 3); /* authenticode.c accepts three algorithms */
	if (pe_authenticode_digest(img, md, d->value[k], &d->len[k], &reason) < 0) {
		FUZZ_ASSERT(reason);
		return -1;
	}
	FUZZ_ASSERT(d->len[k] == (unsigned int)EVP_MD_get_size(md));
	d->md[k] = md;
found:
	*value = d->value[k];
	*len = d->len[k];
	return 0;
}

static void check_signature(const struct authenticode_signature *sig, const struct pe_image *img,
			    struct digests *d)
{
	const uint8_t *digest;
	unsigned int digest_len;
	const char *reason;

	FUZZ_ASSERT(sig->p7 && sig->md);
	FUZZ_ASSERT(sig->digest_len == (unsigned int)EVP_MD_get_size(sig->md));
	/* content points into OpenSSL's copy of the SignedData: ASan checks it too */
	FUZZ_ASSERT(sig->content);
	for (size_t i = 0; i < sig->content_len; i++)
		sink ^= sig->content[i];
	if (image_digest(img, d, sig->md, &digest, &digest_len) < 0)
		return;
	reason = NULL;
	if (authenticode_check_image(sig, digest, digest_len, &reason) < 0)
		FUZZ_ASSERT(reason);
}

/* The table walk and each entry's SignedData, one at a time. */
static void walk_entries(const struct pe_image *img, struct digests *d)
{
	size_t cursor = 0, der_len, previous;
	const uint8_t *der, *table = img->data + img->cert_table_offset;
	const char *reason;
	int r;

	for (;;) {
		struct authenticode_signature sig;

		previous = cursor;
		reason = NULL;
		r = authenticode_next_entry(img, &cursor, &der, &der_len, &reason);
		if (r <= 0) {
			FUZZ_ASSERT(r == 0 || reason);
			break;
		}
		FUZZ_ASSERT(r == 1);
		FUZZ_ASSERT(cursor > previous && cursor <= img->cert_table_size);
		FUZZ_ASSERT(der >= table && der_len <= img->cert_table_size &&
			    (size_t)(der - table) <= img->cert_table_size - der_len);

		reason = NULL;
		if (authenticode_signature_parse(der, der_len, &sig, &reason) < 0) {
			FUZZ_ASSERT(reason);
			FUZZ_ASSERT(sig.p7 == NULL);
			continue;
		}
		check_signature(&sig, img, d);
		authenticode_signature_free(&sig);
	}
}

/* All signatures at once, nested ones included, as verify_image takes them. */
static void collect(const struct pe_image *img, struct digests *d)
{
	struct authenticode_signatures *all = malloc(sizeof(*all));
	const char *reason = NULL;

	FUZZ_ASSERT(all);
	if (authenticode_collect(img, all, &reason) < 0) {
		FUZZ_ASSERT(reason);
		FUZZ_ASSERT(all->count == 0);
	} else {
		FUZZ_ASSERT(all->count <= AUTHENTICODE_MAX_SIGNATURES);
		for (size_t i = 0; i < all->count; i++)
			check_signature(&all->sigs[i], img, d);
	}
	authenticode_signatures_free(all);
	free(all);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pe_image img;
	struct digests d = { 0 };
	const uint8_t *digest;
	unsigned int digest_len;
	const char *reason = NULL;

	if (pe_parse(data, size, &img, &reason) < 0) {
		FUZZ_ASSERT(reason);
		return 0;
	}
	check_image(data, size, &img);

	image_digest(&img, &d, EVP_sha256(), &digest, &digest_len);
	walk_entries(&img, &d);
	collect(&img, &d);
	return 0;
}
