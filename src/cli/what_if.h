/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * `lockshim check`'s what-if options, applied to a copy of the machine's
 * state: the machine after a dbx update (a signature list, or a signed
 * .auth whose payload the firmware appends), an SbatLevel (a file as
 * fwupd would store it, or SbatPolicy latest/automatic, which the first
 * stage applies from its .sbatlevel), a MOK key enrolled or deleted.
 */
#ifndef LOCKSHIM_WHAT_IF_H
#define LOCKSHIM_WHAT_IF_H

#include <stdbool.h>
#include <stddef.h>

#include "boot_chain.h"

#define WHAT_IF_MAX_MOK 16

struct what_if {
	const char *dbx_update;
	const char *sbat_level; /* a file, "windows" (sbat_level_arg.h), "latest" or "automatic" */
	const char *mok_import[WHAT_IF_MAX_MOK], *mok_delete[WHAT_IF_MAX_MOK];
	size_t n_import, n_delete;
};

bool what_if_given(const struct what_if *w);

/*
 * Change @m as @w says. Returns 0, or -1 having named the input that
 * cannot be used (a malformed update or level, a key not in MokList).
 */
int what_if_apply(const struct what_if *w, struct machine_state *m);

#endif
