// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "pe_add_section.h"

#include <stdlib.h>
#include <string.h>

#include "pe.h"
#include "reason.h"
#include "safe_math.h"

/* COFF header fields, from the COFF header (4 bytes after "PE\0\0") */
#define COFF_NUMBER_OF_SECTIONS  2
#define COFF_SYMBOL_TABLE        8
#define COFF_NUMBER_OF_SYMBOLS   12
#define OPT_SIZE_OF_INIT_DATA    8
#define OPT_SECTION_ALIGNMENT    32
#define OPT_FILE_ALIGNMENT       36
#define OPT_SIZE_OF_IMAGE        56
#define OPT_CHECKSUM             64
#define SECTION_HEADER_SIZE      40
#define SCN_INITIALIZED_DATA_READ 0x40000040u /* CNT_INITIALIZED_DATA | MEM_READ */

/* @v rounded up to @align (a power of two), in 32 bits; false on overflow. */
static int align_up(uint64_t v, uint32_t align, uint32_t *out)
{
	uint64_t r = (v + align - 1) & ~(uint64_t)(align - 1);

	if (r > UINT32_MAX)
		return -1;
	*out = (uint32_t)r;
	return 0;
}

int pe_add_section(const uint8_t *data, size_t size, const char *name, const uint8_t *content,
		   size_t content_size, uint8_t **out, size_t *out_size, const char **reason)
{
	struct pe_image *img;
	uint32_t file_align, section_align, raw_offset, raw_size, va, image_end, image_size;
	uint64_t end = 0, init_data;
	size_t header_at, name_len = strlen(name), data_end = 0, coff;
	uint32_t symbols;
	const uint8_t *opt;
	uint8_t *o, *hdr;
	int r = -1;

	*out = NULL;
	if (name_len == 0 || name_len > 8)
		return refuse(reason, "section name must be 1 to 8 characters");
	img = malloc(sizeof(*img));
	if (!img)
		return refuse(reason, "out of memory");
	if (pe_parse(data, size, img, reason) < 0)
		goto done;
	if (img->cert_table_size) {
		*reason = "image is signed: remove its signatures first";
		goto done;
	}
	if (pe_find_section(img, name)) {
		*reason = "image already has a section of that name";
		goto done;
	}
	if (img->n_sections >= PE_MAX_SECTIONS) {
		*reason = "image has the most sections a loader accepts";
		goto done;
	}

	opt = data + img->optional_header_offset;
	file_align = read_le32(opt + OPT_FILE_ALIGNMENT);
	section_align = read_le32(opt + OPT_SECTION_ALIGNMENT);
	/* the PE/COFF specification's bounds: 512 to 64 KiB, a power of two */
	if (file_align < 512 || file_align > 65536 || (file_align & (file_align - 1)) ||
	    section_align < file_align || (section_align & (section_align - 1))) {
		*reason = "FileAlignment or SectionAlignment out of the specification's bounds";
		goto done;
	}

	/* The new header goes after the last one, into bytes nothing else uses. */
	header_at = img->section_table_offset + (size_t)img->n_sections * SECTION_HEADER_SIZE;
	if (!range_inside(header_at, SECTION_HEADER_SIZE, img->headers_size)) {
		*reason = "no room for another section header before SizeOfHeaders";
		goto done;
	}
	/* padding: zeros, or 0xff as in an x86 bzImage's boot sector */
	for (size_t i = 0; i < SECTION_HEADER_SIZE; i++)
		if (data[header_at + i] != data[header_at] ||
		    (data[header_at] != 0 && data[header_at] != 0xff)) {
			*reason = "the bytes after the section table are in use";
			goto done;
		}
	for (uint16_t i = 0; i < img->n_sections; i++) {
		const struct pe_section *s = &img->sections[i];
		size_t raw_end = (size_t)s->raw_offset + s->raw_size;
		uint64_t s_end = (uint64_t)s->virtual_address +
				 (s->virtual_size > s->raw_size ? s->virtual_size : s->raw_size);

		if (s->raw_size && s->raw_offset < header_at + SECTION_HEADER_SIZE) {
			*reason = "a section's data starts inside the headers";
			goto done;
		}
		if (s_end > end)
			end = s_end;
		if (raw_end > data_end)
			data_end = raw_end;
	}

	/*
	 * The new section's data must follow the last one's: a gap between
	 * sections is hashed differently by different Authenticode tools. What
	 * may lie after the last section is a COFF symbol table (objcopy leaves
	 * one; images should not carry it) or padding: both are dropped.
	 * Anything else is refused.
	 */
	coff = img->optional_header_offset - 20;
	symbols = read_le32(data + coff + COFF_SYMBOL_TABLE);
	for (size_t i = data_end; i < size && !(symbols && i >= symbols); i++)
		if (data[i]) {
			*reason = "data after the last section that is not a symbol table";
			goto done;
		}
	if (symbols && symbols < data_end) {
		*reason = "COFF symbol table inside the sections";
		goto done;
	}
	if (data_end < img->headers_size)
		data_end = img->headers_size;
	if (img->image_size > end)
		end = img->image_size;

	if (align_up(data_end, file_align, &raw_offset) < 0 ||
	    align_up(content_size, file_align, &raw_size) < 0 || align_up(end, section_align, &va) < 0 ||
	    align_up((uint64_t)va + content_size, section_align, &image_end) < 0 ||
	    (uint64_t)raw_offset + raw_size > UINT32_MAX) {
		*reason = "image too large for another section";
		goto done;
	}
	image_size = image_end;

	*out_size = (size_t)raw_offset + raw_size;
	o = calloc(1, *out_size);
	if (!o) {
		*reason = "out of memory";
		goto done;
	}
	memcpy(o, data, data_end);
	memcpy(o + raw_offset, content, content_size);
	write_le32(o + coff + COFF_SYMBOL_TABLE, 0);
	write_le32(o + coff + COFF_NUMBER_OF_SYMBOLS, 0);

	hdr = o + header_at;
	memset(hdr, 0, SECTION_HEADER_SIZE);
	memcpy(hdr, name, name_len);
	write_le32(hdr + 8, (uint32_t)content_size); /* VirtualSize */
	write_le32(hdr + 12, va);
	write_le32(hdr + 16, raw_size);
	write_le32(hdr + 20, raw_offset);
	write_le32(hdr + 36, SCN_INITIALIZED_DATA_READ);

	write_le16(o + coff + COFF_NUMBER_OF_SECTIONS,
		   (uint16_t)(img->n_sections + 1));
	write_le32(o + img->optional_header_offset + OPT_SIZE_OF_IMAGE, image_size);
	init_data = (uint64_t)read_le32(opt + OPT_SIZE_OF_INIT_DATA) + raw_size;
	write_le32(o + img->optional_header_offset + OPT_SIZE_OF_INIT_DATA,
		   init_data > UINT32_MAX ? UINT32_MAX : (uint32_t)init_data); /* informational */
	/* the old checksum no longer matches; EFI loaders do not check it */
	write_le32(o + img->optional_header_offset + OPT_CHECKSUM, 0);
	*out = o;
	r = 0;
done:
	free(img);
	return r;
}
