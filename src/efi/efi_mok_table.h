/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The variables only the MOK manager writes, as one table that lockshim
 * and the MOK manager both walk, as rhboot/shim's mok_state_variables[]:
 * each one's name, the attributes it must have, what is done otherwise,
 * the runtime mirror lockshim gives the OS and kernels (efi_handoff.c),
 * and the PCR it is measured into (measure.c makes the events, in shim's
 * order). lockshim reads each once per boot (efi_mok.c).
 */
#ifndef LOCKSHIM_EFI_MOK_TABLE_H
#define LOCKSHIM_EFI_MOK_TABLE_H

#include <efi.h>

/* How the MOK manager writes them: never visible to an OS. */
#define MOK_OWNER_ATTRIBUTES (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS)

enum mok_owner_variable {
	MOK_LIST,
	MOK_LIST_X,
	MOK_SB_STATE,
	MOK_DB_STATE,
	MOK_LIST_TRUSTED,
	MOK_PW_STORE,
	MOK_OWNER_VARIABLES,
};

/* With other attributes than .attributes, an OS wrote it. */
enum mok_otherwise {
	/* deleted at boot (said), so the owner's next request can write it again; ignored if that fails */
	MOK_DELETE,
};

struct mok_owner_variable_spec {
	const CHAR16 *name;
	UINT32 attributes;
	enum mok_otherwise otherwise;
	const CHAR16 *mirror; /* the volatile copy lockshim writes, or NULL */
	UINT32 pcr;           /* where it is measured; 0: not measured */
};

extern const struct mok_owner_variable_spec mok_owner_variables[MOK_OWNER_VARIABLES];

/* The entry for @name, or NULL when it is not one of them. */
const struct mok_owner_variable_spec *mok_owner_variable_spec(const CHAR16 *name);

#endif
