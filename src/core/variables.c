// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "variables.h"

#include <string.h>

#include "guid.h"
#include "macro.h"
#include "signature_list.h"

_Static_assert(VARIABLE_GUID_TEXT_SIZE == ESL_GUID_TEXT_SIZE, "one GUID text");

/*
 * The name once: ASCII, and UTF-16 by the same literal (variables.h).
 * clang-format would split u"" into u "", another program; and take the
 * braced initializers below for blocks.
 */
/* clang-format off */
#define NAME(s) .name = s, .name16 = u"" s

#define NV_BS       VARIABLE_NV_BS
#define BS_RT       VARIABLE_BS_RT
#define NV_BS_RT    VARIABLE_NV_BS_RT
#define TIME_AUTHED VARIABLE_NV_BS_RT_TIME_AUTHED

/* PCRs lockshim measures into, as shim 16.1 does (measure.c makes the events). */
#define PCR_POLICY 7  /* EV_EFI_VARIABLE_AUTHORITY */
#define PCR_MOK    14 /* EV_IPL */

#define MM_WRITES(n, role_, mirror_, pcr_)                                                    \
	{ NAME(n), .vendor = VENDOR_SHIM, .attributes = NV_BS, .otherwise = OTHERWISE_DELETE, \
	  .role = role_, .mirror = mirror_, .pcr = pcr_ }
#define MIRROR(n)                                                                              \
	{ NAME(n), .vendor = VENDOR_SHIM, .attributes = BS_RT, .otherwise = OTHERWISE_REPLACE, \
	  .role = ROLE_RUNTIME_MIRROR }
/*
 * mokutil writes every request NV|BS|RT; the MOK manager deletes it as it
 * reads it, and ignores one with other attributes
 */
#define REQUEST(n, role_, option, changes_)                                                     \
	{ NAME(n), .vendor = VENDOR_SHIM, .attributes = NV_BS_RT, .otherwise = OTHERWISE_IGNORE, \
	  .role = role_, .mokutil = option, .changes = changes_ }
/* systemd-boot and lockshim set these at every boot, volatile: an OS cannot create such a one */
#define LOADER_SETS(n)                                                                         \
	{ NAME(n), .vendor = VENDOR_LOADER, .attributes = BS_RT, .otherwise = OTHERWISE_IGNORE, \
	  .role = ROLE_LOADER_INTERFACE }
/* clang-format on */

const struct variable variables[VARIABLES] = {
	/* As shim 16.1 mirrors and measures them (MokPolicy: not supported). */
	[VAR_MOK_LIST] =
		MM_WRITES("MokList", ROLE_OWNER_LIST, &variables[VAR_MOK_LIST_RT], PCR_MOK),
	[VAR_MOK_LIST_X] =
		MM_WRITES("MokListX", ROLE_OWNER_LIST, &variables[VAR_MOK_LIST_X_RT], PCR_MOK),
	/* PCR 14, and PCR 7 when set */
	[VAR_MOK_SB_STATE] =
		MM_WRITES("MokSBState", ROLE_OWNER_STATE, &variables[VAR_MOK_SB_STATE_RT], PCR_MOK),
	/* a stock kernel then leaves db out of .platform */
	[VAR_MOK_DB_STATE] =
		MM_WRITES("MokDBState", ROLE_OWNER_STATE, &variables[VAR_MOK_IGNORE_DB], 0),
	/* the kernel reads the mirror to put MOK keys in its machine keyring */
	[VAR_MOK_LIST_TRUSTED] = MM_WRITES("MokListTrusted", ROLE_OWNER_STATE,
					   &variables[VAR_MOK_LIST_TRUSTED_RT], PCR_MOK),
	/* one the OS wrote would keep the owner out of the menu */
	[VAR_MOK_PW_STORE] = MM_WRITES("MokPWStore", ROLE_OWNER_STATE, NULL, 0),

	[VAR_MOK_LIST_RT] = MIRROR("MokListRT"),
	[VAR_MOK_LIST_X_RT] = MIRROR("MokListXRT"),
	[VAR_MOK_SB_STATE_RT] = MIRROR("MokSBStateRT"),
	[VAR_MOK_IGNORE_DB] = MIRROR("MokIgnoreDB"),
	[VAR_MOK_LIST_TRUSTED_RT] = MIRROR("MokListTrustedRT"),

	[VAR_MOK_NEW] =
		REQUEST("MokNew", ROLE_REQUEST, "--import|--import-hash", &variables[VAR_MOK_LIST]),
	[VAR_MOK_DEL] =
		REQUEST("MokDel", ROLE_REQUEST, "--delete|--delete-hash", &variables[VAR_MOK_LIST]),
	[VAR_MOK_X_NEW] = REQUEST("MokXNew", ROLE_REQUEST, "--mokx --import|--mokx --import-hash",
				  &variables[VAR_MOK_LIST_X]),
	[VAR_MOK_X_DEL] = REQUEST("MokXDel", ROLE_REQUEST, "--mokx --delete|--mokx --delete-hash",
				  &variables[VAR_MOK_LIST_X]),
	/* alone, without MokNew: a reset of MokList */
	[VAR_MOK_AUTH] = REQUEST("MokAuth", ROLE_REQUEST_AUTH, "--import|--import-hash|--reset",
				 &variables[VAR_MOK_LIST]),
	[VAR_MOK_DEL_AUTH] = REQUEST("MokDelAuth", ROLE_REQUEST_AUTH, "--delete|--delete-hash",
				     &variables[VAR_MOK_LIST]),
	[VAR_MOK_X_AUTH] = REQUEST("MokXAuth", ROLE_REQUEST_AUTH,
				   "--mokx --import|--mokx --import-hash",
				   &variables[VAR_MOK_LIST_X]),
	[VAR_MOK_X_DEL_AUTH] = REQUEST("MokXDelAuth", ROLE_REQUEST_AUTH,
				       "--mokx --delete|--mokx --delete-hash",
				       &variables[VAR_MOK_LIST_X]),
	/* state 0: set the state variable; 1: delete it (mok_request.h) */
	[VAR_MOK_SB] = REQUEST("MokSB", ROLE_REQUEST, "--disable-validation|--enable-validation",
			       &variables[VAR_MOK_SB_STATE]),
	[VAR_MOK_DB] = REQUEST("MokDB", ROLE_REQUEST, "--ignore-db|--use-db",
			       &variables[VAR_MOK_DB_STATE]),
	[VAR_MOK_LIST_TRUSTED_NEW] = REQUEST("MokListTrustedNew", ROLE_REQUEST,
					     "--trust-mok|--untrust-mok",
					     &variables[VAR_MOK_LIST_TRUSTED]),
	/* all zero: clear the password */
	[VAR_MOK_PW] = REQUEST("MokPW", ROLE_REQUEST, "--password|--clear-password",
			       &variables[VAR_MOK_PW_STORE]),

	/* lockshim counts down that long for a key (efi_mok.c) */
	[VAR_MOK_TIMEOUT] = { NAME("MokTimeout"), .vendor = VENDOR_SHIM, .attributes = NV_BS_RT,
			      .otherwise = OTHERWISE_ANY, .role = ROLE_SETTING,
			      .mokutil = "--timeout" },
	/* shim's verbosity: lockshim always says what it decides */
	[VAR_SHIM_VERBOSE] = { NAME("SHIM_VERBOSE"), .vendor = VENDOR_SHIM, .attributes = NV_BS_RT,
			       .otherwise = OTHERWISE_UNREAD, .role = ROLE_SETTING,
			       .mokutil = "--set-verbosity" },
	/* read and deleted at boot (efi_sbat.c): at most it asks for the latest level */
	[VAR_SBAT_POLICY] = { NAME("SbatPolicy"), .vendor = VENDOR_SHIM, .attributes = NV_BS_RT,
			      .otherwise = OTHERWISE_ANY, .role = ROLE_SETTING,
			      .mokutil = "--set-sbat-policy" },

	/* with other attributes lockshim deletes it first and stores its level (sbat_level.c) */
	[VAR_SBAT_LEVEL] = { NAME("SbatLevel"), .vendor = VENDOR_SHIM, .attributes = NV_BS,
			     .otherwise = OTHERWISE_REPLACE, .role = ROLE_LOCKSHIM,
			     .mirror = &variables[VAR_SBAT_LEVEL_RT], .pcr = PCR_POLICY },
	[VAR_SBAT_LEVEL_RT] = MIRROR("SbatLevelRT"),

	/* one with other attributes is deleted and recorded (efi_boot_record.c) */
	[VAR_LOCKSHIM_BOOT_LOG] = { NAME("LockshimBootLog"), .vendor = VENDOR_LOCKSHIM,
				    .attributes = BS_RT, .otherwise = OTHERWISE_DELETE,
				    .role = ROLE_LOCKSHIM },
	/* the fallback ran this boot: boot services only, volatile (efi_fallback.c) */
	[VAR_LOCKSHIM_FALLBACK] = { NAME("LockshimFallback"), .vendor = VENDOR_LOCKSHIM,
				    .attributes = VARIABLE_BOOTSERVICE_ACCESS,
				    .otherwise = OTHERWISE_DELETE, .role = ROLE_LOCKSHIM },
	/* the fault build's call to fail, written by the test harness (efi_fault.c) */
	[VAR_LOCKSHIM_FAULT_AT] = { NAME("LockshimFaultAt"), .vendor = VENDOR_FAULT,
				    .attributes = NV_BS, .otherwise = OTHERWISE_IGNORE,
				    .role = ROLE_LOCKSHIM },

	/* the firmware measures these into PCR 7 itself */
	[VAR_SECURE_BOOT] = { NAME("SecureBoot"), .vendor = VENDOR_GLOBAL, .attributes = BS_RT,
			      .otherwise = OTHERWISE_FIRMWARE, .role = ROLE_FIRMWARE },
	[VAR_SETUP_MODE] = { NAME("SetupMode"), .vendor = VENDOR_GLOBAL, .attributes = BS_RT,
			     .otherwise = OTHERWISE_FIRMWARE, .role = ROLE_FIRMWARE },
	[VAR_PK] = { NAME("PK"), .vendor = VENDOR_GLOBAL, .attributes = TIME_AUTHED,
		     .otherwise = OTHERWISE_FIRMWARE, .role = ROLE_FIRMWARE },
	[VAR_KEK] = { NAME("KEK"), .vendor = VENDOR_GLOBAL, .attributes = TIME_AUTHED,
		      .otherwise = OTHERWISE_FIRMWARE, .role = ROLE_FIRMWARE },
	[VAR_DB] = { NAME("db"), .vendor = VENDOR_SECURITY_DB, .attributes = TIME_AUTHED,
		     .otherwise = OTHERWISE_FIRMWARE, .role = ROLE_FIRMWARE },
	[VAR_DBX] = { NAME("dbx"), .vendor = VENDOR_SECURITY_DB, .attributes = TIME_AUTHED,
		      .otherwise = OTHERWISE_FIRMWARE, .role = ROLE_FIRMWARE },
	/* the boot manager takes them as they are, whoever wrote them (efibootmgr, lockshim's fallback) */
	/* one option for the next boot only: the boot manager deletes it before trying it */
	[VAR_BOOT_NEXT] = { NAME("BootNext"), .vendor = VENDOR_GLOBAL, .attributes = NV_BS_RT,
			    .otherwise = OTHERWISE_ANY, .role = ROLE_FIRMWARE },
	[VAR_BOOT_ORDER] = { NAME("BootOrder"), .vendor = VENDOR_GLOBAL, .attributes = NV_BS_RT,
			     .otherwise = OTHERWISE_ANY, .role = ROLE_FIRMWARE },
	/* Boot0000 to BootFFFF: the name is "Boot" and four hex digits */
	[VAR_BOOT_OPTION] = { NAME("Boot####"), .vendor = VENDOR_GLOBAL, .attributes = NV_BS_RT,
			      .otherwise = OTHERWISE_ANY, .role = ROLE_FIRMWARE },
	/* the option the firmware started this boot (UEFI 2.10, 3.3): `lockshim status` */
	[VAR_BOOT_CURRENT] = { NAME("BootCurrent"), .vendor = VENDOR_GLOBAL, .attributes = BS_RT,
			       .otherwise = OTHERWISE_ANY, .role = ROLE_FIRMWARE },

	/* lockshim sets them as systemd-boot 252 does (efi_loader_interface.c) */
	[VAR_LOADER_TIME_INIT_USEC] = LOADER_SETS("LoaderTimeInitUSec"),
	[VAR_LOADER_INFO] = LOADER_SETS("LoaderInfo"),
	[VAR_LOADER_FIRMWARE_INFO] = LOADER_SETS("LoaderFirmwareInfo"),
	[VAR_LOADER_FIRMWARE_TYPE] = LOADER_SETS("LoaderFirmwareType"),
	[VAR_LOADER_IMAGE_IDENTIFIER] = LOADER_SETS("LoaderImageIdentifier"),
	/* check finds the ESP by it */
	[VAR_LOADER_DEVICE_PART_UUID] = LOADER_SETS("LoaderDevicePartUUID"),
	[VAR_LOADER_TIME_EXEC_USEC] = LOADER_SETS("LoaderTimeExecUSec"),
	/* bootctl set-oneshot / set-default write them non-volatile; a volatile one is gone at the next boot */
	[VAR_LOADER_ENTRY_ONE_SHOT] = { NAME("LoaderEntryOneShot"), .vendor = VENDOR_LOADER,
					.attributes = NV_BS_RT, .otherwise = OTHERWISE_IGNORE,
					.role = ROLE_LOADER_INTERFACE },
	[VAR_LOADER_ENTRY_DEFAULT] = { NAME("LoaderEntryDefault"), .vendor = VENDOR_LOADER,
				       .attributes = NV_BS_RT, .otherwise = OTHERWISE_IGNORE,
				       .role = ROLE_LOADER_INTERFACE },
	/* systemd-boot writes it (NV|BS|RT) with the entry it boots; `default @saved` names it */
	[VAR_LOADER_ENTRY_LAST_BOOTED] = { NAME("LoaderEntryLastBooted"), .vendor = VENDOR_LOADER,
					   .attributes = NV_BS_RT, .otherwise = OTHERWISE_IGNORE,
					   .role = ROLE_LOADER_INTERFACE },
};

static const uint8_t vendor_guids[][16] = {
	[VENDOR_SHIM] = GUID_BYTES(SHIM_LOCK_GUID_FIELDS),
	[VENDOR_LOCKSHIM] = GUID_BYTES(LOCKSHIM_VENDOR_GUID_FIELDS),
	[VENDOR_FAULT] = GUID_BYTES(LOCKSHIM_FAULT_GUID_FIELDS),
	[VENDOR_GLOBAL] = GUID_BYTES(EFI_GLOBAL_VARIABLE_GUID_FIELDS),
	[VENDOR_SECURITY_DB] = GUID_BYTES(IMAGE_SECURITY_DATABASE_GUID_FIELDS),
	[VENDOR_LOADER] = GUID_BYTES(LOADER_INTERFACE_GUID_FIELDS),
};

const struct variable *variable_find(const char *name, enum variable_vendor vendor)
{
	for (size_t i = 0; i < ARRAY_SIZE(variables); i++)
		if (variables[i].vendor == vendor && strcmp(variables[i].name, name) == 0)
			return &variables[i];
	return NULL;
}

const uint8_t *variable_vendor_guid(enum variable_vendor vendor)
{
	return vendor_guids[vendor];
}

void variable_vendor_guid_text(enum variable_vendor vendor, char out[VARIABLE_GUID_TEXT_SIZE])
{
	esl_guid_text(vendor_guids[vendor], out);
}

bool variable_attributes_trusted(const struct variable *v, uint32_t attributes)
{
	return attributes == v->attributes || v->otherwise == OTHERWISE_ANY ||
	       v->otherwise == OTHERWISE_UNREAD;
}
