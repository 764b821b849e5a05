/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Append a section to an unsigned PE image, keeping every byte of its
 * headers and sections in place: a new header after the last one (it must
 * fit, in padding, before SizeOfHeaders), its data right after the last
 * section's. A COFF symbol table or padding after the sections is dropped;
 * other data there is refused. Host tool only.
 *
 * objcopy cannot do this for every image: it rewrites the headers from its
 * own model, which for an x86 bzImage destroys the real-mode boot header
 * that shares the first sector with the DOS stub.
 */
#ifndef LOCKSHIM_PE_ADD_SECTION_H
#define LOCKSHIM_PE_ADD_SECTION_H

#include <stddef.h>
#include <stdint.h>

/*
 * The image of @size bytes at @data with a section @name (1 to 8
 * characters) holding @content, initialised read-only data, in a new
 * malloc'ed buffer *@out of *@out_size bytes.
 * Returns 0, or -1 with a static reason.
 */
int pe_add_section(const uint8_t *data, size_t size, const char *name, const uint8_t *content,
		   size_t content_size, uint8_t **out, size_t *out_size, const char **reason);

#endif
