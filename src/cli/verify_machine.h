/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * `lockshim verify --efivars DIR`: an image against a machine's own lists,
 * as `sbctl verify` and `mokutil --test-key` answer for the running one.
 * The lists are read as `check` reads them (machine_state.c): db and dbx,
 * and the first stage's runtime mirrors MokListRT (its vendor keys first),
 * MokListXRT (its vendor dbx first) and SbatLevelRT, the MokVar table's
 * copy first; MokIgnoreDB drops db, as the first stage does.
 */
#ifndef LOCKSHIM_VERIFY_MACHINE_H
#define LOCKSHIM_VERIFY_MACHINE_H

#include <stdbool.h>

#include "boot_chain.h"
#include "efivars.h"
#include "verify.h"

struct verify_machine {
	const char *efivars; /* an efivarfs directory, or a copy of one */
	const char *mokvars; /* the MokVar table's directory; NULL: none */
	bool say;            /* where each list came from, on stdout ("# db: ...") */
	struct machine_state state;
};

/*
 * Read @vm's directories and add their lists to @policy (db and dbx alone
 * when @firmware_only, as the firmware decides). Returns 0, or -1 having
 * said why (a directory that cannot be read, a variable that cannot be
 * used).
 */
int verify_machine_lists(struct verify_machine *vm, bool firmware_only,
			 struct verify_policy *policy);

/*
 * The SbatLevel verify applies with the machine's lists: the file
 * @level_path names (return 0: the caller reads it), none with @no_sbat
 * (0), else SbatLevelRT into @level (1), else, without one, the level built
 * into lockshim (0). Said when @vm->say. -1 when SbatLevelRT cannot be
 * used, said.
 */
int verify_machine_level(const struct verify_machine *vm, const char *level_path, bool no_sbat,
			 struct sbat *level);

void verify_machine_free(struct verify_machine *vm);

#endif
