// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "efi_guid.h"

#include <efilib.h>

#include "guid.h"
#include "lockshim_table.h"

/* An EFI_GUID of the eleven fields src/core/guid.h and include/lockshim_table.h give. */
/* clang-format off */
#define EFI_GUID_OF(...) EFI_GUID_OF_(__VA_ARGS__)
#define EFI_GUID_OF_(a, b, c, d0, d1, d2, d3, d4, d5, d6, d7) \
	{ a, b, c, { d0, d1, d2, d3, d4, d5, d6, d7 } }
/* clang-format on */

/* One GUID a definition, as the specifications print them. */
/* clang-format off */
EFI_GUID shim_lock_guid = EFI_GUID_OF(SHIM_LOCK_GUID_FIELDS);
EFI_GUID lockshim_table_guid = EFI_GUID_OF(LOCKSHIM_TABLE_GUID_FIELDS);
EFI_GUID lockshim_vendor_guid = EFI_GUID_OF(LOCKSHIM_VENDOR_GUID_FIELDS);
EFI_GUID image_security_database_guid = EFI_GUID_OF(IMAGE_SECURITY_DATABASE_GUID_FIELDS);
/* As rhboot/shim and Linux's drivers/firmware/efi/mokvar-table.c define it */
EFI_GUID mok_variable_table_guid =
	{ 0xc451ed2b, 0x9694, 0x45d3, { 0xba, 0xba, 0xed, 0x9f, 0x89, 0x88, 0xa3, 0x89 } };
/* Linux's LINUX_EFI_INITRD_MEDIA_GUID (5.8 and later) */
EFI_GUID linux_initrd_media_guid =
	{ 0x5568e427, 0x68fc, 0x4f3d, { 0xac, 0x74, 0xca, 0x55, 0x52, 0x31, 0xcc, 0x68 } };
/* UEFI's EFI_LOAD_FILE2_PROTOCOL */
EFI_GUID load_file2_protocol_guid =
	{ 0x4006c0c1, 0xfcb3, 0x403e, { 0x99, 0x6d, 0x4a, 0x6c, 0x87, 0x24, 0xe0, 0x6d } };
/* PI's EFI_SECURITY_ARCH_PROTOCOL and EFI_SECURITY2_ARCH_PROTOCOL */
EFI_GUID security_arch_protocol_guid =
	{ 0xa46423e3, 0x4617, 0x49f1, { 0xb9, 0xff, 0xd1, 0xbf, 0xa9, 0x11, 0x58, 0x39 } };
EFI_GUID security2_arch_protocol_guid =
	{ 0x94ab2f58, 0x1438, 0x4ef1, { 0x91, 0x52, 0x18, 0x94, 0x1a, 0x3a, 0x0e, 0x68 } };
/* PI's EFI_FIRMWARE_VOLUME2_PROTOCOL */
EFI_GUID firmware_volume2_protocol_guid =
	{ 0x220e73b6, 0x6bdb, 0x4413, { 0x84, 0x05, 0xb9, 0x74, 0xb1, 0x08, 0x61, 0x9a } };
/* UEFI 2.10's EFI_MEMORY_ATTRIBUTE_PROTOCOL: firmware that maps images with
   their sections' attributes offers it */
EFI_GUID memory_attribute_protocol_guid =
	{ 0xf4560cf6, 0x40ec, 0x4b4a, { 0xa1, 0x92, 0xbf, 0x1d, 0x57, 0xd0, 0xb1, 0x89 } };
EFI_GUID loader_interface_guid = EFI_GUID_OF(LOADER_INTERFACE_GUID_FIELDS);
EFI_GUID lockshim_fault_guid = EFI_GUID_OF(LOCKSHIM_FAULT_GUID_FIELDS);
/* TCG EFI Protocol Specification, family 2.0, level 00 revision 00.13 */
EFI_GUID tcg2_protocol_guid =
	{ 0x607f766c, 0x7455, 0x42be, { 0x93, 0x0b, 0xe4, 0xd7, 0x6d, 0xb2, 0x72, 0x0f } };
/* clang-format on */

EFI_GUID *efi_var_guid(enum variable_id id)
{
	switch (variables[id].vendor) {
	case VENDOR_SHIM:
		return &shim_lock_guid;
	case VENDOR_LOCKSHIM:
		return &lockshim_vendor_guid;
	case VENDOR_FAULT:
		return &lockshim_fault_guid;
	case VENDOR_GLOBAL:
		return &EfiGlobalVariable;
	case VENDOR_SECURITY_DB:
		return &image_security_database_guid;
	case VENDOR_LOADER:
		return &loader_interface_guid;
	}
	return NULL;
}
