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
#include "variables.h"

#define WHAT_IF_MAX_MOK     16
#define WHAT_IF_MAX_UPDATES 8

/*
 * An update of KEK, db or dbx: a signature list, or a signed .auth whose
 * payload is one, appended (as fwupd, dbxtool and Windows apply them) or
 * replacing the list.
 */
struct list_update {
	enum variable_id variable; /* VAR_KEK, VAR_DB or VAR_DBX */
	bool replace;
	const char *path;
};

struct what_if {
	struct list_update updates[WHAT_IF_MAX_UPDATES]; /* in the order given */
	size_t n_updates;
	const char *sbat_level; /* a file, "windows" (sbat_level_arg.h), "latest" or "automatic" */
	const char *mok_import[WHAT_IF_MAX_MOK], *mok_delete[WHAT_IF_MAX_MOK];
	size_t n_import, n_delete;
};

bool what_if_given(const struct what_if *w);

/*
 * Whether each firmware list @after changes from @today (KEK, db, dbx,
 * MokList) fits the variable store's room the loader handed over
 * (variable_store.h): a line each, or with @json the "variable_store"
 * object. MokList is weighed as its mirror, vendor keys included: the
 * growth is exact, the size at most that.
 */
void what_if_store_print(const struct machine_state *today, const struct machine_state *after,
			 bool json);

/*
 * Change @m as @w says. Returns 0, or -1 having named the input that
 * cannot be used (a malformed update or level, a key not in MokList).
 */
int what_if_apply(const struct what_if *w, struct machine_state *m);

#endif
