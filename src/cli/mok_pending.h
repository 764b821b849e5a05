/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The requests mokutil leaves for the MOK manager (the table's requests,
 * src/core/variables.c, and SbatPolicy): runtime-visible, so a running
 * system sees them; nothing changes until the owner confirms them at the
 * console, so `lockshim check` says what each would change and which
 * mokutil option asked for it.
 */
#ifndef LOCKSHIM_MOK_PENDING_H
#define LOCKSHIM_MOK_PENDING_H

#include <stdbool.h>

/*
 * One line per pending request in the efivarfs directory @efivars (with
 * @json: comma-separated JSON objects {"variable", "mokutil", "effect",
 * "entries"}),
 * with the keys a list request adds or deletes. Returns 0, or -1 having
 * named a request that cannot be read or parsed.
 */
int mok_pending_print(const char *efivars, bool json);

#endif
