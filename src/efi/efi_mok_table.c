// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_mok_table.h"

#include <efilib.h>

#include "macro.h"

/* As shim 16.1 mirrors and measures them (MokPolicy: not supported). */
const struct mok_owner_variable_spec mok_owner_variables[MOK_OWNER_VARIABLES] = {
	[MOK_LIST] = { L"MokList", MOK_OWNER_ATTRIBUTES, MOK_DELETE, L"MokListRT", 14 },
	[MOK_LIST_X] = { L"MokListX", MOK_OWNER_ATTRIBUTES, MOK_DELETE, L"MokListXRT", 14 },
	/* PCR 14, and PCR 7 when set */
	[MOK_SB_STATE] = { L"MokSBState", MOK_OWNER_ATTRIBUTES, MOK_DELETE, L"MokSBStateRT", 14 },
	/* a stock kernel then leaves db out of .platform */
	[MOK_DB_STATE] = { L"MokDBState", MOK_OWNER_ATTRIBUTES, MOK_DELETE, L"MokIgnoreDB", 0 },
	/* the kernel reads the mirror to put MOK keys in its machine keyring */
	[MOK_LIST_TRUSTED] = { L"MokListTrusted", MOK_OWNER_ATTRIBUTES, MOK_DELETE,
			       L"MokListTrustedRT", 14 },
	/* one the OS wrote would keep the owner out of the menu */
	[MOK_PW_STORE] = { L"MokPWStore", MOK_OWNER_ATTRIBUTES, MOK_DELETE, NULL, 0 },
};

const struct mok_owner_variable_spec *mok_owner_variable_spec(const CHAR16 *name)
{
	for (UINTN i = 0; i < ARRAY_SIZE(mok_owner_variables); i++)
		if (StrCmp((CHAR16 *)mok_owner_variables[i].name, (CHAR16 *)name) == 0)
			return &mok_owner_variables[i];
	return NULL;
}
