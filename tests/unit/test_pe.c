// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * pe_parse and the certificate-table walk on synthetic images: one valid
 * image, then one defect at a time. Each image lives in its own heap block
 * of exactly its size, so ASan reports any read past the end.
 */
#include "authenticode.h"
#include "pe.h"
#include "unit.h"

#include <stdlib.h>

#define LFANEW      0x80
#define COFF        (LFANEW + 4)
#define OPT         (COFF + 20)
#define OPT_SIZE    240 /* PE32+ with 16 data directories */
#define SECTIONS    (OPT + OPT_SIZE)
#define HEADERS     0x200
#define SECTION_LEN 0x200
#define CERT_OFFSET (HEADERS + 2 * SECTION_LEN)
#define CERT_LEN    0x18
#define IMAGE_LEN   (CERT_OFFSET + CERT_LEN)

static void put16(uint8_t *p, uint16_t v) { p[0] = v; p[1] = v >> 8; }
static void put32(uint8_t *p, uint32_t v) { put16(p, v); put16(p + 2, v >> 16); }

/* A valid image: two sections and a certificate table with one entry. */
static uint8_t *valid_image(void)
{
	uint8_t *img = calloc(1, IMAGE_LEN);

	put16(img, 0x5a4d);
	put32(img + 0x3c, LFANEW);
	put32(img + LFANEW, 0x00004550);
	put16(img + COFF, 0x8664);
	put16(img + COFF + 2, 2);
	put16(img + COFF + 16, OPT_SIZE);
	put16(img + OPT, 0x20b);
	put32(img + OPT + 16, 0x1000);      /* entry point */
	put32(img + OPT + 56, 0x3000);      /* SizeOfImage */
	put32(img + OPT + 60, HEADERS);     /* SizeOfHeaders */
	put32(img + OPT + 108, 16);         /* NumberOfRvaAndSizes */
	put32(img + OPT + 112 + 4 * 8, CERT_OFFSET);
	put32(img + OPT + 112 + 4 * 8 + 4, CERT_LEN);
	for (int i = 0; i < 2; i++) {
		uint8_t *s = img + SECTIONS + 40 * i;

		memcpy(s, i ? ".data" : ".text", 5);
		put32(s + 8, SECTION_LEN);                 /* VirtualSize */
		put32(s + 12, 0x1000 * (i + 1));           /* VirtualAddress */
		put32(s + 16, SECTION_LEN);                /* SizeOfRawData */
		put32(s + 20, HEADERS + SECTION_LEN * i);  /* PointerToRawData */
	}
	put32(img + CERT_OFFSET, CERT_LEN);
	put16(img + CERT_OFFSET + 4, 0x0200);
	put16(img + CERT_OFFSET + 6, 0x0002);
	memset(img + CERT_OFFSET + 8, 0x30, CERT_LEN - 8); /* not valid DER */
	return img;
}

static int parse(const uint8_t *img, size_t size, const char **reason)
{
	struct pe_image pe;
	uint8_t *copy = malloc(size ? size : 1);
	int r;

	memcpy(copy, img, size);
	*reason = NULL;
	r = pe_parse(copy, size, &pe, reason);
	free(copy);
	return r;
}

/* Parse one mutated copy of the valid image; true when it is refused with a reason. */
#define REFUSED_AFTER(mutation)                                                     \
	({                                                                          \
		uint8_t *m = valid_image();                                         \
		const char *why;                                                    \
		int refused;                                                        \
		mutation;                                                           \
		refused = parse(m, IMAGE_LEN, &why) < 0 && why;                     \
		free(m);                                                            \
		refused;                                                            \
	})

static void test_truncation(void)
{
	static const size_t cuts[] = { 0, 1, 0x3f, LFANEW + 3, COFF + 19, OPT + 107,
				       OPT + OPT_SIZE - 1, SECTIONS + 79, HEADERS - 1,
				       CERT_OFFSET - 1, IMAGE_LEN - 1 };
	uint8_t *img = valid_image();
	const char *why;
	int all = 1;

	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++)
		if (parse(img, cuts[i], &why) == 0 || !why) {
			printf("# truncation at %zu accepted\n", cuts[i]);
			all = 0;
		}
	CHECK(all, "truncated at every header boundary: refused");
	free(img);
}

static void test_certificate_entries(void)
{
	struct authenticode_signature sig;
	struct pe_image pe;
	const uint8_t *der;
	const char *why;
	size_t len, cursor;
	uint8_t *img = valid_image();

	CHECK(pe_parse(img, IMAGE_LEN, &pe, &why) == 0, "valid image parses");
	cursor = 0;
	CHECK(authenticode_next_entry(&pe, &cursor, &der, &len, &why) == 1 && len == CERT_LEN - 8,
	      "one certificate entry found");
	CHECK(authenticode_signature_parse(der, len, &sig, &why) < 0 && why,
	      "garbage PKCS#7 refused");
	CHECK(authenticode_next_entry(&pe, &cursor, &der, &len, &why) == 0, "end of table");

	put32(img + CERT_OFFSET, 0);
	cursor = 0;
	CHECK(authenticode_next_entry(&pe, &cursor, &der, &len, &why) < 0, "dwLength 0 refused");
	put32(img + CERT_OFFSET, 8);
	cursor = 0;
	CHECK(authenticode_next_entry(&pe, &cursor, &der, &len, &why) < 0,
	      "dwLength of a bare header refused");
	put32(img + CERT_OFFSET, CERT_LEN + 8);
	cursor = 0;
	CHECK(authenticode_next_entry(&pe, &cursor, &der, &len, &why) < 0,
	      "dwLength past the table refused");
	put32(img + CERT_OFFSET, 0xffffffff);
	cursor = 0;
	CHECK(authenticode_next_entry(&pe, &cursor, &der, &len, &why) < 0,
	      "dwLength near 4 GiB refused");
	put32(img + CERT_OFFSET, CERT_LEN);
	put16(img + CERT_OFFSET + 6, 0x0001);
	cursor = 0;
	CHECK(authenticode_next_entry(&pe, &cursor, &der, &len, &why) < 0,
	      "non-PKCS#7 certificate type refused");
	cursor = 4;
	CHECK(authenticode_next_entry(&pe, &cursor, &der, &len, &why) < 0, "unaligned entry refused");
	free(img);
}

int main(void)
{
	uint8_t *img = valid_image();
	struct pe_image pe;
	const char *why;

	CHECK(pe_parse(img, IMAGE_LEN, &pe, &why) == 0 && pe.n_sections == 2 &&
		      pe.cert_table_offset == CERT_OFFSET && pe.cert_table_size == CERT_LEN,
	      "valid image: sections and certificate table found");
	CHECK(pe_find_section(&pe, ".data") && !pe_find_section(&pe, ".sbat"), "section lookup");
	free(img);

	test_truncation();
	CHECK(REFUSED_AFTER(put16(m, 0x4d5a)), "bad MZ refused");
	CHECK(REFUSED_AFTER(put32(m + 0x3c, IMAGE_LEN)), "e_lfanew past the end refused");
	CHECK(REFUSED_AFTER(put32(m + 0x3c, 0xfffffff0)), "e_lfanew near 4 GiB refused");
	CHECK(REFUSED_AFTER(put32(m + LFANEW, 0x4551)), "bad PE signature refused");
	CHECK(REFUSED_AFTER(put16(m + COFF, 0x14c)), "i386 machine refused");
	CHECK(REFUSED_AFTER(put16(m + OPT, 0x10b)), "PE32 (not PE32+) refused");
	CHECK(REFUSED_AFTER(put16(m + COFF + 2, 0)), "zero sections refused");
	CHECK(REFUSED_AFTER(put16(m + COFF + 2, 97)), "too many sections refused");
	CHECK(REFUSED_AFTER(put16(m + COFF + 16, 100)), "optional header too small refused");
	CHECK(REFUSED_AFTER(put32(m + OPT + 108, 17)), "too many data directories refused");
	CHECK(REFUSED_AFTER(put32(m + OPT + 60, SECTIONS + 40)), "section table past the headers refused");
	CHECK(REFUSED_AFTER(put32(m + OPT + 60, IMAGE_LEN + 1)), "SizeOfHeaders past the end refused");
	CHECK(REFUSED_AFTER(put32(m + SECTIONS + 40 + 20, HEADERS + 0x100)), "overlapping sections refused");
	CHECK(REFUSED_AFTER(put32(m + SECTIONS + 20, 0x100)), "section inside the headers refused");
	CHECK(REFUSED_AFTER(put32(m + SECTIONS + 40 + 16, 0x400)), "SizeOfRawData past the end refused");
	CHECK(REFUSED_AFTER(put32(m + SECTIONS + 40 + 16, 0xfffffe00)), "SizeOfRawData near 4 GiB refused");
	CHECK(REFUSED_AFTER(put32(m + SECTIONS + 40 + 8, 0x3000)), "section past SizeOfImage refused");
	CHECK(REFUSED_AFTER(put32(m + OPT + 16, 0x3000)), "entry point outside the image refused");
	CHECK(REFUSED_AFTER(put32(m + SECTIONS + 40 + 8, 0); put32(m + SECTIONS + 40 + 12, 0x2f00)),
	      "VirtualSize 0: SizeOfRawData past SizeOfImage refused");
	CHECK(REFUSED_AFTER(put32(m + SECTIONS + 12, 0x100)), "section mapped over the headers refused");
	CHECK(REFUSED_AFTER(put32(m + OPT + 112 + 32, CERT_OFFSET + 8)), "certificate table past the end refused");
	CHECK(REFUSED_AFTER(put32(m + OPT + 112 + 32, 0x100)), "certificate table over the headers refused");
	CHECK(REFUSED_AFTER(put32(m + OPT + 112 + 32, CERT_OFFSET - 4)), "unaligned certificate table refused");
	CHECK(REFUSED_AFTER(put32(m + OPT + 112 + 36, 0xfffffff8)), "certificate table size near 4 GiB refused");
	CHECK(REFUSED_AFTER(put32(m + OPT + 112 + 36, 0)), "certificate offset without size refused");
	test_certificate_entries();
	UNIT_EXIT();
}
