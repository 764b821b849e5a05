// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * PE/COFF validation and the Authenticode digest (Microsoft, "Windows
 * Authenticode Portable Executable Signature Format", section
 * "Calculating the PE Image Hash").
 */
#include "pe.h"

#include <stdlib.h>
#include <string.h>

#include "pe_format.h"
#include "reason.h"
#include "safe_math.h"

static int compare_raw_offset(const void *a, const void *b)
{
	const struct pe_section *x = a, *y = b;

	if (x->raw_offset != y->raw_offset)
		return x->raw_offset < y->raw_offset ? -1 : 1;
	return 0;
}

static int pe_parse_security_directory(const uint8_t *opt, uint32_t n_dirs, struct pe_image *img,
				       size_t opt_offset, const char **reason)
{
	const uint8_t *entry;
	uint32_t offset, size;

	if (n_dirs <= DATA_DIR_SECURITY)
		return 0; /* no security directory: an unsigned image */

	img->secdir_offset = (uint32_t)(opt_offset + OPT_DATA_DIRECTORY +
					DATA_DIR_SECURITY * DATA_DIR_ENTRY_SIZE);
	entry = opt + OPT_DATA_DIRECTORY + DATA_DIR_SECURITY * DATA_DIR_ENTRY_SIZE;
	offset = read_le32(entry); /* a file offset, unlike the other directories */
	size = read_le32(entry + 4);
	if (size == 0) {
		if (offset != 0)
			return refuse(reason, "security directory has an offset but no size");
		return 0;
	}
	if (offset % 8)
		return refuse(reason, "certificate table is not 8-byte aligned");
	if (!range_inside(offset, size, img->size))
		return refuse(reason, "certificate table extends past the end of the file");
	if (offset + (size_t)size != img->size)
		return refuse(reason, "certificate table is not at the end of the file");
	if (offset < img->headers_size)
		return refuse(reason, "certificate table overlaps the headers");
	img->cert_table_offset = offset;
	img->cert_table_size = size;
	return 0;
}

static int pe_parse_sections(const uint8_t *table, struct pe_image *img, const char **reason)
{
	size_t data_end = img->cert_table_size ? img->cert_table_offset : img->size;
	size_t previous_end = img->headers_size;

	for (uint16_t i = 0; i < img->n_sections; i++) {
		const uint8_t *h = table + (size_t)i * SECTION_HEADER_SIZE;
		struct pe_section *s = &img->sections[i];

		memcpy(s->name, h, SECTION_NAME_SIZE);
		s->name[SECTION_NAME_SIZE] = '\0';
		s->virtual_size = read_le32(h + SECTION_VIRTUAL_SIZE);
		s->virtual_address = read_le32(h + SECTION_VIRTUAL_ADDRESS);
		s->raw_size = read_le32(h + SECTION_RAW_SIZE);
		s->raw_offset = read_le32(h + SECTION_RAW_OFFSET);

		/* firmware loads VirtualSize bytes, or SizeOfRawData when VirtualSize is 0 */
		if ((uint64_t)s->virtual_address +
			    (s->virtual_size ? s->virtual_size : s->raw_size) >
		    img->image_size)
			return refuse(reason, "section extends past SizeOfImage");
		if ((s->virtual_size || s->raw_size) && s->virtual_address < img->headers_size)
			return refuse(reason, "section is mapped over the headers");
		if (s->raw_size == 0)
			continue;
		if (s->raw_offset < img->headers_size)
			return refuse(reason, "section data overlaps the headers");
		if (!range_inside(s->raw_offset, s->raw_size, data_end))
			return refuse(reason, "section data extends past the end of the image");
	}

	qsort(img->sections, img->n_sections, sizeof(img->sections[0]), compare_raw_offset);
	for (uint16_t i = 0; i < img->n_sections; i++) {
		const struct pe_section *s = &img->sections[i];

		if (s->raw_size == 0)
			continue;
		if (s->raw_offset < previous_end)
			return refuse(reason, "section data overlaps another section");
		previous_end = (size_t)s->raw_offset + s->raw_size;
	}
	return 0;
}

int pe_parse(const uint8_t *data, size_t size, struct pe_image *img, const char **reason)
{
	const uint8_t *coff, *opt;
	uint32_t lfanew, n_dirs;
	uint16_t opt_size;
	size_t opt_offset, table_offset, table_size;

	memset(img, 0, sizeof(*img));
	img->data = data;
	img->size = size;

	if (size < DOS_LFANEW_OFFSET + 4)
		return refuse(reason, "file too small for a DOS header");
	if (read_le16(data) != DOS_MAGIC)
		return refuse(reason, "no MZ signature");
	lfanew = read_le32(data + DOS_LFANEW_OFFSET);
	if (!range_inside(lfanew, PE_SIGNATURE_SIZE + COFF_HEADER_SIZE, size))
		return refuse(reason, "PE header offset (e_lfanew) past the end of the file");
	if (read_le32(data + lfanew) != PE_SIGNATURE)
		return refuse(reason, "no PE signature");

	coff = data + lfanew + PE_SIGNATURE_SIZE;
	if (read_le16(coff) != MACHINE_X86_64)
		return refuse(reason, "not an x86_64 image");
	img->n_sections = read_le16(coff + COFF_NUMBER_OF_SECTIONS);
	if (img->n_sections == 0 || img->n_sections > PE_MAX_SECTIONS)
		return refuse(reason, "bad number of sections");
	opt_size = read_le16(coff + COFF_OPT_HEADER_SIZE);

	opt_offset = (size_t)lfanew + PE_SIGNATURE_SIZE + COFF_HEADER_SIZE;
	if (opt_size < OPT_DATA_DIRECTORY || !range_inside(opt_offset, opt_size, size))
		return refuse(reason, "optional header truncated");
	opt = data + opt_offset;
	if (read_le16(opt) != PE32PLUS_MAGIC)
		return refuse(reason, "not a PE32+ image");
	n_dirs = read_le32(opt + OPT_NUM_RVA_AND_SIZES);
	if (n_dirs > 16 || OPT_DATA_DIRECTORY + (size_t)n_dirs * DATA_DIR_ENTRY_SIZE > opt_size)
		return refuse(reason, "data directories do not fit the optional header");

	img->nt_headers_offset = lfanew;
	img->n_data_dirs = n_dirs;
	img->entry_point = read_le32(opt + OPT_ENTRY_POINT);
	img->image_base = read_le64(opt + OPT_IMAGE_BASE);
	img->section_alignment = read_le32(opt + OPT_SECTION_ALIGNMENT);
	img->subsystem = read_le16(opt + OPT_SUBSYSTEM);
	img->dll_characteristics = read_le16(opt + OPT_DLL_CHARACTERISTICS);
	img->image_size = read_le32(opt + OPT_SIZE_OF_IMAGE);
	img->headers_size = read_le32(opt + OPT_SIZE_OF_HEADERS);
	img->checksum_offset = (uint32_t)(opt_offset + OPT_CHECKSUM);
	if (img->headers_size > size)
		return refuse(reason, "SizeOfHeaders past the end of the file");
	if (img->headers_size > img->image_size)
		return refuse(reason, "SizeOfHeaders larger than SizeOfImage");

	table_offset = opt_offset + opt_size;
	img->optional_header_offset = (uint32_t)opt_offset;
	img->section_table_offset = (uint32_t)table_offset;
	table_size = (size_t)img->n_sections * SECTION_HEADER_SIZE;
	if (!range_inside(table_offset, table_size, img->headers_size))
		return refuse(reason, "section table extends past the headers");

	if (pe_parse_security_directory(opt, n_dirs, img, opt_offset, reason) < 0)
		return -1;
	if (pe_parse_sections(data + table_offset, img, reason) < 0)
		return -1;
	if (img->entry_point >= img->image_size)
		return refuse(reason, "entry point outside the image");
	return 0;
}

#define LINUX_SETUP_MAGIC_OFFSET 0x202
#define LINUX_SETUP_MAGIC        0x53726448 /* "HdrS" */

bool pe_is_linux_kernel(const struct pe_image *img)
{
	return range_inside(LINUX_SETUP_MAGIC_OFFSET, 4, img->size) &&
	       read_le32(img->data + LINUX_SETUP_MAGIC_OFFSET) == LINUX_SETUP_MAGIC;
}

const struct pe_section *pe_find_section(const struct pe_image *img, const char *name)
{
	for (uint16_t i = 0; i < img->n_sections; i++)
		if (strncmp(img->sections[i].name, name, 8) == 0)
			return &img->sections[i];
	return NULL;
}

/* Does the header name "/N" of @s point at @name in the COFF string table? */
static bool long_name_is(const struct pe_image *img, const struct pe_section *s, const char *name)
{
	const uint8_t *coff = img->data + img->nt_headers_offset + PE_SIGNATURE_SIZE;
	size_t table, offset = 0, len = strlen(name) + 1;

	if (s->name[0] != '/' || !s->name[1])
		return false;
	for (const char *p = s->name + 1; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		offset = offset * 10 + (size_t)(*p - '0'); /* at most 7 digits: no overflow */
	}
	/* pe_parse checked that the COFF header lies inside the image */
	table = (size_t)read_le32(coff + COFF_SYMBOL_TABLE) +
		(size_t)read_le32(coff + COFF_NUMBER_OF_SYMBOLS) * 18;
	return !add_overflows(table, offset, &offset) && range_inside(offset, len, img->size) &&
	       memcmp(img->data + offset, name, len) == 0;
}

const struct pe_section *pe_find_section_long(const struct pe_image *img, const char *name)
{
	if (strlen(name) <= 8)
		return pe_find_section(img, name);
	for (uint16_t i = 0; i < img->n_sections; i++)
		if (long_name_is(img, &img->sections[i], name))
			return &img->sections[i];
	return NULL;
}

unsigned int pe_count_sections(const struct pe_image *img, const char *name)
{
	unsigned int n = 0;

	for (uint16_t i = 0; i < img->n_sections; i++)
		if (strncmp(img->sections[i].name, name, 8) == 0)
			n++;
	return n;
}

static int digest_range(EVP_MD_CTX *ctx, const struct pe_image *img, size_t start, size_t end)
{
	if (end < start || end > img->size)
		return -1;
	return EVP_DigestUpdate(ctx, img->data + start, end - start) == 1 ? 0 : -1;
}

int pe_authenticode_digest(const struct pe_image *img, const EVP_MD *md, uint8_t *out,
			   unsigned int *out_len, const char **reason)
{
	size_t data_end = img->cert_table_size ? img->cert_table_offset : img->size;
	size_t sum_of_bytes_hashed = img->headers_size;
	EVP_MD_CTX *ctx;
	int r = -1;

	ctx = EVP_MD_CTX_new();
	if (!ctx || EVP_DigestInit_ex(ctx, md, NULL) != 1)
		goto out_free_ctx;

	/* The headers, less the checksum and the security directory entry. */
	if (digest_range(ctx, img, 0, img->checksum_offset) < 0)
		goto out_free_ctx;
	if (img->secdir_offset) {
		if (digest_range(ctx, img, img->checksum_offset + 4, img->secdir_offset) < 0 ||
		    digest_range(ctx, img, img->secdir_offset + DATA_DIR_ENTRY_SIZE,
				 img->headers_size) < 0)
			goto out_free_ctx;
	} else if (digest_range(ctx, img, img->checksum_offset + 4, img->headers_size) < 0) {
		goto out_free_ctx;
	}

	/* Section data in file order (pe_parse sorted and checked it). */
	for (uint16_t i = 0; i < img->n_sections; i++) {
		const struct pe_section *s = &img->sections[i];

		if (s->raw_size == 0)
			continue;
		if (digest_range(ctx, img, s->raw_offset, (size_t)s->raw_offset + s->raw_size) < 0)
			goto out_free_ctx;
		sum_of_bytes_hashed += s->raw_size; /* < 96 sections of < 4 GiB: no overflow */
	}

	/*
	 * Then the rest of the file up to the certificate table, from the offset
	 * SUM_OF_BYTES_HASHED, as the specification, EDK2, shim and sbsign all
	 * do: the same as the end of the last section when the sections follow
	 * each other, and the only reading other verifiers share when they do not.
	 */
	if (sum_of_bytes_hashed < data_end &&
	    digest_range(ctx, img, sum_of_bytes_hashed, data_end) < 0)
		goto out_free_ctx;

	if (EVP_DigestFinal_ex(ctx, out, out_len) == 1)
		r = 0;
out_free_ctx:
	EVP_MD_CTX_free(ctx);
	if (r < 0)
		return refuse(reason, "digest computation failed");
	return 0;
}
