/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * SBAT: revocation by component generation, as rhboot/shim defines it
 * (SBAT.md). Two kinds of CSV text, one record per line:
 *
 *   an image's .sbat section   sbat,1,SBAT Version,sbat,1,https://...
 *                              name,generation,vendor,package,version,url
 *   the SbatLevel variable     sbat,1,YYYYMMDDCC
 *                              name,generation
 *
 * The first record of both must be the `sbat` entry. An image is revoked
 * when one of its components has a generation below the level's for that
 * name (the `sbat` entries compare like any other); names the level does not
 * list pass.
 *
 * The text is hostile: size, line, field and record counts are bounded, a
 * generation is 1 to 10 decimal digits no larger than 2^32-1, fields are
 * printable ASCII. The text ends at its first NUL (sections are padded with
 * them); anything but NULs after it is refused.
 */
#ifndef LOCKSHIM_SBAT_H
#define LOCKSHIM_SBAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "reason.h"

#define SBAT_MAX_SIZE    (64 * 1024)
#define SBAT_MAX_LINE    1024
#define SBAT_MAX_FIELD   256
#define SBAT_MAX_RECORDS 512

enum sbat_kind {
	SBAT_SECTION, /* at least 6 fields per record */
	SBAT_LEVEL,   /* at least 3 fields in the header, 2 after it */
};

/* Validated SBAT text; it points into the caller's buffer. */
struct sbat {
	const char *text;
	size_t size; /* up to the first NUL */
	enum sbat_kind kind;
	size_t n_records;
	uint64_t datestamp; /* SBAT_LEVEL: the header's third field */
};

struct sbat_record {
	const char *name;
	size_t name_len;
	uint32_t generation;
};

/*
 * Validate @size bytes at @data as @kind and fill @out.
 * Returns 0, or -1 with a one-line explanation in *@reason (which may be
 * formatted into @buf).
 */
int sbat_parse(const void *data, size_t size, enum sbat_kind kind, struct sbat *out,
	       const char **reason, struct reason_buf *buf);

/*
 * The record after position *@pos (start with 0) of parsed text, advancing
 * *@pos. Returns false after the last.
 */
bool sbat_next_record(const struct sbat *sbat, size_t *pos, struct sbat_record *rec);

/*
 * Apply @level to an image's parsed .sbat section @image.
 * Returns 0 when nothing is revoked, or -1 with *@reason naming the first
 * revoked component (formatted into @buf).
 */
int sbat_check(const struct sbat *image, const struct sbat *level, const char **reason,
	       struct reason_buf *buf);

#endif
