/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The requests mokutil leaves for the MOK manager (MokNew, MokDel, MokXNew,
 * MokXDel, MokSB, MokDB, MokPW, MokTML, SbatPolicy): runtime-visible, so a
 * running system sees them; nothing changes until the owner confirms them
 * at the console, so `lockshim check` says what each would change.
 */
#ifndef LOCKSHIM_MOK_PENDING_H
#define LOCKSHIM_MOK_PENDING_H

#include <stdbool.h>

/*
 * One line per pending request in the efivarfs directory @efivars (with
 * @json: comma-separated JSON objects {"variable", "effect", "entries"}),
 * with the keys a list request adds or deletes. Returns 0, or -1 having
 * named a request that cannot be read or parsed.
 */
int mok_pending_print(const char *efivars, bool json);

#endif
