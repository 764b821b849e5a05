/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Every GUID lockshim's firmware programs use that gnu-efi does not define,
 * each defined once in efi_guid.c, as rhboot/shim's include/guid.h does.
 * gnu-efi's own (EfiGlobalVariable, LoadedImageProtocol, ...) are used by
 * gnu-efi's names.
 */
#ifndef LOCKSHIM_EFI_GUID_H
#define LOCKSHIM_EFI_GUID_H

#include <efi.h>

#include "variables.h"

extern EFI_GUID shim_lock_guid;               /* MOK and SBAT variables (src/core/guid.h) */
extern EFI_GUID image_security_database_guid; /* db, dbx */
extern EFI_GUID lockshim_table_guid;          /* the lockdown table (include/lockshim_table.h) */
extern EFI_GUID lockshim_vendor_guid;         /* lockshim's own variables (src/core/guid.h) */
extern EFI_GUID mok_variable_table_guid;      /* the MokVar configuration table */
extern EFI_GUID linux_initrd_media_guid;      /* the initrd's vendor media device path */
extern EFI_GUID load_file2_protocol_guid;
extern EFI_GUID security_arch_protocol_guid;
extern EFI_GUID security2_arch_protocol_guid;
extern EFI_GUID tcg2_protocol_guid;             /* EFI_TCG2_PROTOCOL */
extern EFI_GUID memory_attribute_protocol_guid; /* EFI_MEMORY_ATTRIBUTE_PROTOCOL */
extern EFI_GUID firmware_volume2_protocol_guid; /* the firmware's own volumes (PI, volume 3) */
extern EFI_GUID loader_interface_guid;          /* systemd's Boot Loader Interface variables */
extern EFI_GUID lockshim_fault_guid;            /* the fault build's protocol and LockshimFaultAt */

/* The vendor GUID of the table's variable @id (src/core/variables.h). */
EFI_GUID *efi_var_guid(enum variable_id id);

/* The table's name of @id as a CHAR16 string: char16_t and CHAR16 are both unsigned short. */
#define EFI_VAR_NAME(id) ((const CHAR16 *)variables[id].name16)

#endif
