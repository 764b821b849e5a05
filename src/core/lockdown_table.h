/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Building (and, for tests and the CLI, checking) the lockdown table that
 * lockshim hands to the kernel: include/lockshim_table.h is the ABI.
 */
#ifndef LOCKSHIM_LOCKDOWN_TABLE_H
#define LOCKSHIM_LOCKDOWN_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lockshim_table.h"
#include "verify.h"

struct lockdown_state {
	bool locked;
	uint32_t lock_reason; /* LOCKSHIM_LOCK_* */
	uint8_t secure_boot;  /* as read, or LOCKSHIM_VAR_ABSENT */
	uint8_t setup_mode;
	uint8_t mok_sb_state;
	bool mok_trusted;       /* MokListTrusted: the owner lets the kernel trust MOK keys */
	const char *sbat_level; /* the SbatLevel applied (its variable's text) */
	size_t sbat_level_size;
	bool sbat_required; /* lockshim required .sbat of what it started (VERIFY_TO_START) */
};

/*
 * The table for @state with the keys of @policy: trusted = the vendor
 * certificates, and the MokList certificates only when the owner asked for
 * it (mokutil --trust-mok: @state->mok_trusted), as upstream puts MOK keys in
 * .machine only then; never db. Denied = the vendor dbx and MokListX. The
 * SbatLevel area is @state's level; SBAT_REQUIRED is set when @state is
 * locked and lockshim required .sbat of what it started.
 * Returns 0 with an OPENSSL_malloc'd table in *@table, or -1.
 */
int lockdown_table_build(const struct lockdown_state *state, const struct verify_policy *policy,
			 uint8_t **table, size_t *size);

/*
 * Check @size bytes at @data as the kernel does: magic, version, sizes,
 * areas inside the table, reserved fields, digest. Returns 0, or -1 with a
 * reason.
 */
int lockdown_table_check(const uint8_t *data, size_t size, const char **reason);

#endif
