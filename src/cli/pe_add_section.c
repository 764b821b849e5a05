// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "pe_add_section.h"

#include <stdlib.h>
#include <string.h>

#include "pe.h"
#include "pe_format.h"
#include "reason.h"
#include "safe_math.h"

#define SCN_INITIALIZED_DATA_READ 0x40000040u /* CNT_INITIALIZED_DATA | MEM_READ */

/* @v rounded up to @align (a power of two), in 32 bits; -1 on overflow. */
static int align_up(uint64_t v, uint32_t align, uint32_t *out)
{
	uint64_t r = (v + align - 1) & ~(uint64_t)(align - 1);

	if (r > UINT32_MAX)
		return -1;
	*out = (uint32_t)r;
	return 0;
}

/* Where the new section goes, worked out from the image before anything is written. */
struct placement {
	size_t coff;         /* file offset of the COFF header */
	size_t header_at;    /* file offset of the new section header */
	size_t data_end;     /* the bytes kept: headers and sections, up to the last one's end */
	uint64_t mapped_end; /* where the image ends in memory */
	uint32_t file_align, section_align;
	uint32_t raw_offset, raw_size; /* the new section's data in the file */
	uint32_t va;                   /* its address in memory */
	uint32_t image_size;           /* the new SizeOfImage */
};

/* The image's alignments, which later steps rely on. */
static int read_alignments(const uint8_t *data, const struct pe_image *img, struct placement *at,
			   const char **reason)
{
	const uint8_t *opt = data + img->optional_header_offset;
	uint32_t file_align = read_le32(opt + OPT_FILE_ALIGNMENT);
	uint32_t section_align = read_le32(opt + OPT_SECTION_ALIGNMENT);

	/* the PE/COFF specification's bounds: 512 to 64 KiB, a power of two */
	if (file_align < 512 || file_align > 65536 || (file_align & (file_align - 1)) ||
	    section_align < file_align || (section_align & (section_align - 1)))
		return refuse(reason, "FileAlignment or SectionAlignment out of the "
				      "specification's bounds");
	at->file_align = file_align;
	at->section_align = section_align;
	return 0;
}

/* The new header goes after the last one, into bytes nothing else uses. */
static int find_header_slot(const uint8_t *data, const struct pe_image *img, struct placement *at,
			    const char **reason)
{
	size_t h = img->section_table_offset + (size_t)img->n_sections * SECTION_HEADER_SIZE;

	if (!range_inside(h, SECTION_HEADER_SIZE, img->headers_size))
		return refuse(reason, "no room for another section header before SizeOfHeaders");
	/* padding: zeros, or 0xff as in an x86 bzImage's boot sector */
	for (size_t i = 0; i < SECTION_HEADER_SIZE; i++)
		if (data[h + i] != data[h] || (data[h] != 0 && data[h] != 0xff))
			return refuse(reason, "the bytes after the section table are in use");
	at->header_at = h;
	return 0;
}

/* How far the sections reach in memory and in the file; none may start in the headers. */
static int measure_sections(const struct pe_image *img, struct placement *at, const char **reason)
{
	for (uint16_t i = 0; i < img->n_sections; i++) {
		const struct pe_section *s = &img->sections[i];
		size_t raw_end = (size_t)s->raw_offset + s->raw_size;
		uint64_t s_end = (uint64_t)s->virtual_address +
				 (s->virtual_size > s->raw_size ? s->virtual_size : s->raw_size);

		if (s->raw_size && s->raw_offset < at->header_at + SECTION_HEADER_SIZE)
			return refuse(reason, "a section's data starts inside the headers");
		if (s_end > at->mapped_end)
			at->mapped_end = s_end;
		if (raw_end > at->data_end)
			at->data_end = raw_end;
	}
	return 0;
}

/*
 * The new section's data must follow the last one's: a gap between
 * sections is hashed differently by different Authenticode tools. What
 * may lie after the last section is a COFF symbol table (objcopy leaves
 * one; images should not carry it) or padding: both are dropped.
 * Anything else is refused.
 */
static int check_after_sections(const uint8_t *data, size_t size, const struct pe_image *img,
				struct placement *at, const char **reason)
{
	uint32_t symbols;

	at->coff = img->optional_header_offset - COFF_HEADER_SIZE;
	symbols = read_le32(data + at->coff + COFF_SYMBOL_TABLE);
	for (size_t i = at->data_end; i < size && !(symbols && i >= symbols); i++)
		if (data[i])
			return refuse(reason,
				      "data after the last section that is not a symbol table");
	if (symbols && symbols < at->data_end)
		return refuse(reason, "COFF symbol table inside the sections");
	return 0;
}

/* The new section's place in the file and in memory, each aligned as the image says. */
static int lay_out(const struct pe_image *img, size_t content_size, struct placement *at,
		   const char **reason)
{
	if (at->data_end < img->headers_size)
		at->data_end = img->headers_size;
	if (img->image_size > at->mapped_end)
		at->mapped_end = img->image_size;
	if (align_up(at->data_end, at->file_align, &at->raw_offset) < 0 ||
	    align_up(content_size, at->file_align, &at->raw_size) < 0 ||
	    align_up(at->mapped_end, at->section_align, &at->va) < 0 ||
	    align_up((uint64_t)at->va + content_size, at->section_align, &at->image_size) < 0 ||
	    (uint64_t)at->raw_offset + at->raw_size > UINT32_MAX)
		return refuse(reason, "image too large for another section");
	return 0;
}

/* Check that a section @name can be appended to @img, and where it goes. */
static int place_section(const uint8_t *data, size_t size, const struct pe_image *img,
			 const char *name, size_t content_size, struct placement *at,
			 const char **reason)
{
	if (img->cert_table_size)
		return refuse(reason, "image is signed: remove its signatures first");
	if (pe_find_section(img, name))
		return refuse(reason, "image already has a section of that name");
	if (img->n_sections >= PE_MAX_SECTIONS)
		return refuse(reason, "image has the most sections a loader accepts");
	if (read_alignments(data, img, at, reason) < 0 ||
	    find_header_slot(data, img, at, reason) < 0 || measure_sections(img, at, reason) < 0 ||
	    check_after_sections(data, size, img, at, reason) < 0)
		return -1;
	return lay_out(img, content_size, at, reason);
}

/* The new section's header, at @hdr. */
static void write_section_header(uint8_t *hdr, const char *name, size_t content_size,
				 const struct placement *at)
{
	memset(hdr, 0, SECTION_HEADER_SIZE);
	memcpy(hdr, name, strlen(name));
	write_le32(hdr + SECTION_VIRTUAL_SIZE, (uint32_t)content_size); /* VirtualSize */
	write_le32(hdr + SECTION_VIRTUAL_ADDRESS, at->va);
	write_le32(hdr + SECTION_RAW_SIZE, at->raw_size);
	write_le32(hdr + SECTION_RAW_OFFSET, at->raw_offset);
	write_le32(hdr + SECTION_CHARACTERISTICS, SCN_INITIALIZED_DATA_READ);
}

/* The image with the section added: a new buffer of *@out_size bytes, or NULL. */
static uint8_t *write_image(const uint8_t *data, const struct pe_image *img, const char *name,
			    const uint8_t *content, size_t content_size, const struct placement *at,
			    size_t *out_size)
{
	size_t size = (size_t)at->raw_offset + at->raw_size;
	uint8_t *o = calloc(1, size), *opt;
	uint64_t init_data;

	if (!o)
		return NULL;
	memcpy(o, data, at->data_end);
	memcpy(o + at->raw_offset, content, content_size);
	write_le32(o + at->coff + COFF_SYMBOL_TABLE, 0);
	write_le32(o + at->coff + COFF_NUMBER_OF_SYMBOLS, 0);
	write_section_header(o + at->header_at, name, content_size, at);
	write_le16(o + at->coff + COFF_NUMBER_OF_SECTIONS, (uint16_t)(img->n_sections + 1));

	opt = o + img->optional_header_offset;
	write_le32(opt + OPT_SIZE_OF_IMAGE, at->image_size);
	init_data = (uint64_t)read_le32(opt + OPT_SIZE_OF_INIT_DATA) + at->raw_size;
	write_le32(opt + OPT_SIZE_OF_INIT_DATA,
		   init_data > UINT32_MAX ? UINT32_MAX : (uint32_t)init_data); /* informational */
	/* the old checksum no longer matches; EFI loaders do not check it */
	write_le32(opt + OPT_CHECKSUM, 0);
	*out_size = size;
	return o;
}

int pe_add_section(const uint8_t *data, size_t size, const char *name, const uint8_t *content,
		   size_t content_size, uint8_t **out, size_t *out_size, const char **reason)
{
	struct placement at = { 0 };
	size_t name_len = strlen(name);
	struct pe_image *img;
	int r = 0;

	*out = NULL;
	if (name_len == 0 || name_len > 8)
		return refuse(reason, "section name must be 1 to 8 characters");
	img = malloc(sizeof(*img));
	if (!img)
		return refuse(reason, "out of memory");
	if (pe_parse(data, size, img, reason) < 0 ||
	    place_section(data, size, img, name, content_size, &at, reason) < 0)
		r = -1;
	else if (!(*out = write_image(data, img, name, content, content_size, &at, out_size)))
		r = refuse(reason, "out of memory");
	free(img);
	return r;
}
