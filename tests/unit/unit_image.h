/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Binary inputs for unit tests: little-endian writers, and a minimal valid
 * PE/COFF image to break one field at a time.
 *
 * The writers are not safe_math.h's write_le*: a byte-order slip there
 * would then build the inputs the same wrong way the parsers read them.
 */
#ifndef LOCKSHIM_UNIT_IMAGE_H
#define LOCKSHIM_UNIT_IMAGE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static inline void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* ---- the image unit_pe_image() builds: where each part is ----------------------- */

#define IMG_LFANEW      0x80
#define IMG_COFF        (IMG_LFANEW + 4)
#define IMG_OPT         (IMG_COFF + 20)
#define IMG_OPT_SIZE    240 /* PE32+ with 16 data directories */
#define IMG_SECTIONS    (IMG_OPT + IMG_OPT_SIZE)
#define IMG_HEADERS     0x200
#define IMG_SECTION_LEN 0x200
#define IMG_CERT_OFFSET (IMG_HEADERS + 2 * IMG_SECTION_LEN)
#define IMG_CERT_LEN    0x18
#define IMG_SIZE        (IMG_CERT_OFFSET + IMG_CERT_LEN)

/*
 * A valid PE32+ image of IMG_SIZE bytes, in a heap block of exactly that
 * size (ASan sees any read past the end): two sections, .text and .data, and
 * a certificate table with one PKCS#7 entry whose content is not valid DER.
 */
static inline uint8_t *unit_pe_image(void)
{
	uint8_t *img = calloc(1, IMG_SIZE);

	put16(img, 0x5a4d);
	put32(img + 0x3c, IMG_LFANEW);
	put32(img + IMG_LFANEW, 0x00004550);
	put16(img + IMG_COFF, 0x8664);
	put16(img + IMG_COFF + 2, 2);
	put16(img + IMG_COFF + 16, IMG_OPT_SIZE);
	put16(img + IMG_OPT, 0x20b);
	put32(img + IMG_OPT + 16, 0x1000);      /* entry point */
	put64(img + IMG_OPT + 24, 0x140000000); /* ImageBase */
	put32(img + IMG_OPT + 32, 0x1000);      /* SectionAlignment */
	put16(img + IMG_OPT + 68, 10);          /* Subsystem: EFI application */
	put16(img + IMG_OPT + 70, 0x0160);      /* DllCharacteristics */
	put32(img + IMG_OPT + 56, 0x3000);      /* SizeOfImage */
	put32(img + IMG_OPT + 60, IMG_HEADERS); /* SizeOfHeaders */
	put32(img + IMG_OPT + 108, 16);         /* NumberOfRvaAndSizes */
	put32(img + IMG_OPT + 112 + 4 * 8, IMG_CERT_OFFSET);
	put32(img + IMG_OPT + 112 + 4 * 8 + 4, IMG_CERT_LEN);
	for (int i = 0; i < 2; i++) {
		uint8_t *s = img + IMG_SECTIONS + 40 * i;

		memcpy(s, i ? ".data" : ".text", 5);
		put32(s + 8, IMG_SECTION_LEN);                    /* VirtualSize */
		put32(s + 12, 0x1000 * (i + 1));                  /* VirtualAddress */
		put32(s + 16, IMG_SECTION_LEN);                   /* SizeOfRawData */
		put32(s + 20, IMG_HEADERS + IMG_SECTION_LEN * i); /* PointerToRawData */
	}
	put32(img + IMG_CERT_OFFSET, IMG_CERT_LEN);
	put16(img + IMG_CERT_OFFSET + 4, 0x0200);
	put16(img + IMG_CERT_OFFSET + 6, 0x0002);
	memset(img + IMG_CERT_OFFSET + 8, 0x30, IMG_CERT_LEN - 8); /* not valid DER */
	return img;
}

#endif
