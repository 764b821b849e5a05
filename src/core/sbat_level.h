/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Keeping the SbatLevel variable current, as rhboot/shim does, so the two
 * can share a machine:
 *
 * - lockshim carries two levels in its .sbatlevel section (shim's layout:
 *   u32 format 0, then the offsets of the automatic and the latest level,
 *   counted from the end of the format field, each a NUL-terminated string);
 * - it applies the automatic one, or the latest one when SbatPolicy asks
 *   (1 latest, 2 automatic, 3 reset), when it is newer than the stored level
 *   (by datestamp), and never lowers the stored level; only a reset with
 *   Secure Boot off goes back to the original level;
 * - SbatLevel must be NV|BS: one the OS could have written (runtime access)
 *   or that does not parse is not trusted and is replaced.
 */
#ifndef LOCKSHIM_SBAT_LEVEL_H
#define LOCKSHIM_SBAT_LEVEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbat.h"
#include "variables.h"

/* NV|BS: SbatLevel's in the table (variables.c), as a constant for initializers */
#define SBAT_LEVEL_ATTRIBUTES VARIABLE_NV_BS

/* What SbatLevel holds before any revocation was ever applied. */
#define SBAT_LEVEL_ORIGINAL "sbat,1,2021030218\n"

enum sbat_policy {
	SBAT_POLICY_NONE = 0, /* no SbatPolicy variable */
	SBAT_POLICY_LATEST = 1,
	SBAT_POLICY_AUTOMATIC = 2,
	SBAT_POLICY_RESET = 3,
};

/* The levels lockshim carries, both validated. */
struct sbat_levels {
	struct sbat automatic, latest;
};

/*
 * Parse a .sbatlevel section of @size bytes at @data.
 * Returns 0, or -1 with a reason in *@reason (formatted into @buf).
 */
int sbat_levels_parse(const uint8_t *data, size_t size, struct sbat_levels *out,
		      const char **reason, struct reason_buf *buf);

/* The stored SbatLevel as read from the firmware. */
struct sbat_level_stored {
	bool present;
	const uint8_t *data;
	size_t size;
	uint32_t attributes;
};

struct sbat_level_update {
	struct sbat level; /* the level to enforce from now on: points into @embedded,
			     * @stored or a constant */
	bool write;        /* SbatLevel must be set to it */
	bool delete_first; /* the stored variable has other attributes: delete it first */
	char note[256];    /* what changed or was ignored, for the console; or empty */
};

/*
 * Decide which level to enforce and whether to store it, from the embedded
 * levels, the stored variable, the SbatPolicy request (@policy, any byte) and
 * whether Secure Boot is on. Never fails: every input has an answer.
 */
void sbat_level_update(const struct sbat_levels *embedded, const struct sbat_level_stored *stored,
		       uint8_t policy, bool secure_boot, struct sbat_level_update *out);

#endif
