/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * PE/COFF image parsing and the Authenticode image digest.
 *
 * Plain C with no firmware calls: the same code runs in the loader and in
 * the host tools. Every offset and length read from the image is checked
 * before use; the image is never modified and never copied.
 */
#ifndef LOCKSHIM_PE_H
#define LOCKSHIM_PE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#define PE_MAX_SECTIONS 96 /* the PE/COFF specification's loader limit */

struct pe_section {
	char name[9];
	uint32_t virtual_address;
	uint32_t virtual_size;
	uint32_t raw_offset;
	uint32_t raw_size;
};

/* What the rest of lockshim needs to know about a validated image. */
struct pe_image {
	const uint8_t *data;
	size_t size;
	uint32_t headers_size;           /* SizeOfHeaders */
	uint32_t optional_header_offset; /* file offset of the optional header */
	uint32_t section_table_offset;   /* file offset of the section table */
	uint32_t checksum_offset;        /* file offset of OptionalHeader.CheckSum */
	uint32_t secdir_offset;     /* file offset of the security directory entry; 0 if absent */
	uint32_t cert_table_offset; /* file offset of the certificate table; 0 if unsigned */
	uint32_t cert_table_size;
	uint32_t image_size;        /* SizeOfImage */
	uint32_t entry_point;       /* AddressOfEntryPoint */
	uint32_t nt_headers_offset; /* e_lfanew: file offset of the "PE\0\0" signature */
	uint64_t image_base;        /* ImageBase */
	uint32_t section_alignment;
	uint16_t subsystem;
	uint16_t dll_characteristics;
	uint32_t n_data_dirs; /* NumberOfRvaAndSizes (at most 16) */
	uint16_t n_sections;
	struct pe_section sections[PE_MAX_SECTIONS]; /* sorted by raw_offset */
};

/*
 * Validate a PE32+ x86_64 image of @size bytes at @data and fill @img.
 * Returns 0, or -1 with a static explanation in *@reason.
 */
int pe_parse(const uint8_t *data, size_t size, struct pe_image *img, const char **reason);

/*
 * Whether @img is an x86 Linux kernel (its EFI stub): the boot protocol's
 * setup header, magic "HdrS" at file offset 0x202, shares the first sector
 * with the DOS and PE headers.
 * Only a kernel is given lockshim's initrd; a second stage passes its own.
 */
bool pe_is_linux_kernel(const struct pe_image *img);

/* The section named @name (at most 8 characters), or NULL; the first by file offset. */
const struct pe_section *pe_find_section(const struct pe_image *img, const char *name);

/*
 * The section named @name, which may be longer than 8 characters
 * (.vendor_cert, .sbatlevel): the linker then writes "/N" in the header, N
 * the name's offset in the COFF string table (after the symbol table), as
 * objcopy leaves it even in a stripped image. NULL when there is none, or
 * when a "/N" name points outside the image.
 */
const struct pe_section *pe_find_section_long(const struct pe_image *img, const char *name);

/* How many sections are named @name: an image may repeat a name. */
unsigned int pe_count_sections(const struct pe_image *img, const char *name);

/*
 * The Authenticode digest of a parsed image with @md, written to @out
 * (EVP_MAX_MD_SIZE bytes), its length to *@out_len.
 * Returns 0, or -1 with a reason.
 */
int pe_authenticode_digest(const struct pe_image *img, const EVP_MD *md, uint8_t *out,
			   unsigned int *out_len, const char **reason);

#endif
