/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Every UEFI variable lockshim, its MOK manager or `lockshim check` reads
 * or writes, once (variables.c): its name, vendor GUID, the attributes its
 * rightful writer gives it and what is done with one of any others, its
 * role, its runtime mirror, the PCR lockshim measures it into and the
 * mokutil option that writes it. Every layer takes names from here; no
 * other file spells a Mok... name (tests/cli/test_layout.sh).
 *
 * Each name is written once, as ASCII, and its UTF-16 form is the same
 * literal with u"" in front (C11: the concatenation takes the prefix):
 * char16_t is 16 bits on the host and in the firmware build alike, where
 * L"" is 16 bits only under -fshort-wchar and 32 on the host. char16_t is
 * unsigned short there, as gnu-efi's CHAR16 is, so the firmware shell uses
 * .name16 where it wants a CHAR16 string.
 *
 * An OS can create only non-volatile variables with runtime access (UEFI
 * 2.10, 8.2: after ExitBootServices, SetVariable needs NV|RT), and never
 * sees one without runtime access: NV|BS says the MOK manager wrote it,
 * BS|RT that a loader did at this boot.
 */
#ifndef LOCKSHIM_VARIABLES_H
#define LOCKSHIM_VARIABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* EFI_VARIABLE_* attributes (UEFI 2.10, 8.2) */
#define VARIABLE_NON_VOLATILE         0x1u
#define VARIABLE_BOOTSERVICE_ACCESS   0x2u
#define VARIABLE_RUNTIME_ACCESS       0x4u
#define VARIABLE_TIME_BASED_AUTH      0x20u
#define VARIABLE_NV_BS                (VARIABLE_NON_VOLATILE | VARIABLE_BOOTSERVICE_ACCESS)
#define VARIABLE_BS_RT                (VARIABLE_BOOTSERVICE_ACCESS | VARIABLE_RUNTIME_ACCESS)
#define VARIABLE_NV_BS_RT             (VARIABLE_NV_BS | VARIABLE_RUNTIME_ACCESS)
#define VARIABLE_NV_BS_RT_TIME_AUTHED (VARIABLE_NV_BS_RT | VARIABLE_TIME_BASED_AUTH)

/* Each variable of the table; the owner's variables first, in shim's order. */
enum variable_id {
	/* written only by the MOK manager (lockshim reads each once a boot: efi_mok.c) */
	VAR_MOK_LIST,
	VAR_MOK_LIST_X,
	VAR_MOK_SB_STATE,
	VAR_MOK_DB_STATE,
	VAR_MOK_LIST_TRUSTED,
	VAR_MOK_PW_STORE,
	/* the runtime mirrors lockshim writes at every boot */
	VAR_MOK_LIST_RT,
	VAR_MOK_LIST_X_RT,
	VAR_MOK_SB_STATE_RT,
	VAR_MOK_IGNORE_DB,
	VAR_MOK_LIST_TRUSTED_RT,
	/* mokutil's requests and their passwords */
	VAR_MOK_NEW,
	VAR_MOK_DEL,
	VAR_MOK_X_NEW,
	VAR_MOK_X_DEL,
	VAR_MOK_AUTH,
	VAR_MOK_DEL_AUTH,
	VAR_MOK_X_AUTH,
	VAR_MOK_X_DEL_AUTH,
	VAR_MOK_SB,
	VAR_MOK_DB,
	VAR_MOK_LIST_TRUSTED_NEW,
	VAR_MOK_PW,
	/* mokutil's settings */
	VAR_MOK_TIMEOUT,
	VAR_SHIM_VERBOSE,
	VAR_SBAT_POLICY,
	/* SBAT revocations */
	VAR_SBAT_LEVEL,
	VAR_SBAT_LEVEL_RT,
	/* lockshim's own */
	VAR_LOCKSHIM_BOOT_LOG,
	VAR_LOCKSHIM_FALLBACK,
	VAR_LOCKSHIM_FAULT_AT,
	/* the firmware's */
	VAR_SECURE_BOOT,
	VAR_SETUP_MODE,
	VAR_PK,
	VAR_KEK,
	VAR_DB,
	VAR_DBX,
	VAR_BOOT_NEXT,
	VAR_BOOT_ORDER,
	VAR_BOOT_OPTION,
	VAR_BOOT_CURRENT,
	/* systemd's Boot Loader Interface */
	VAR_LOADER_TIME_INIT_USEC,
	VAR_LOADER_INFO,
	VAR_LOADER_FIRMWARE_INFO,
	VAR_LOADER_FIRMWARE_TYPE,
	VAR_LOADER_IMAGE_IDENTIFIER,
	VAR_LOADER_DEVICE_PART_UUID,
	VAR_LOADER_TIME_EXEC_USEC,
	VAR_LOADER_ENTRY_ONE_SHOT,
	VAR_LOADER_ENTRY_DEFAULT,
	VAR_LOADER_ENTRY_LAST_BOOTED,
	VARIABLES
};

/* The owner's variables are the table's first: efi_mok.c reads them in this order. */
#define MOK_OWNER_VARIABLES (VAR_MOK_PW_STORE + 1)

/* Vendor GUIDs (src/core/guid.h has their fields). */
enum variable_vendor {
	VENDOR_SHIM,        /* rhboot/shim's SHIM_LOCK_GUID */
	VENDOR_LOCKSHIM,    /* lockshim's own */
	VENDOR_FAULT,       /* the fault build's test GUID */
	VENDOR_GLOBAL,      /* EFI_GLOBAL_VARIABLE */
	VENDOR_SECURITY_DB, /* EFI_IMAGE_SECURITY_DATABASE_GUID */
	VENDOR_LOADER,      /* systemd's Boot Loader Interface */
};

enum variable_role {
	ROLE_OWNER_LIST,      /* the owner's keys, written by the MOK manager */
	ROLE_OWNER_STATE,     /* the owner's choice, written by the MOK manager */
	ROLE_REQUEST,         /* mokutil's request, served (and deleted) by the MOK manager */
	ROLE_REQUEST_AUTH,    /* the password hash of a key request */
	ROLE_SETTING,         /* mokutil's setting, read at boot */
	ROLE_RUNTIME_MIRROR,  /* lockshim's volatile copy of a boot-services-only variable */
	ROLE_LOCKSHIM,        /* lockshim's own */
	ROLE_FIRMWARE,        /* the firmware's (Secure Boot, boot manager) */
	ROLE_LOADER_INTERFACE /* systemd's Boot Loader Interface */
};

/* What is done with the variable when its attributes are not .attributes. */
enum variable_otherwise {
	/* an OS wrote it: lockshim deletes it at boot (said) and takes it as absent */
	OTHERWISE_DELETE,
	/* not its writer's: ignored (said), taken as absent */
	OTHERWISE_IGNORE,
	/*
	 * lockshim writes it anew at each boot, deleting what is there; one it
	 * cannot delete stays (said) and check refuses to predict from it
	 */
	OTHERWISE_REPLACE,
	/* only the firmware writes it, and enforces its attributes; check refuses a copy with others */
	OTHERWISE_FIRMWARE,
	/* read whatever its attributes: it only delays a boot or asks for stricter revocations */
	OTHERWISE_ANY,
	/* nobody here reads it */
	OTHERWISE_UNREAD,
};

struct variable {
	const char *name;
	const uint16_t *name16; /* the same name, UTF-16, NUL-terminated */
	enum variable_vendor vendor;
	uint32_t attributes; /* as its rightful writer sets them */
	enum variable_otherwise otherwise;
	enum variable_role role;
	const struct variable *mirror; /* the runtime copy lockshim writes, or NULL */
	uint8_t pcr;                   /* lockshim measures it there; 0: it does not */
	/*
	 * the mokutil commands that write it, '|' between them, or NULL; a
	 * state request's (mok_request.h) are those of its state 0 and 1
	 */
	const char *mokutil;
	const struct variable *changes; /* a request: the variable the MOK manager changes */
};

extern const struct variable variables[VARIABLES];

/* The variable named @name of @vendor, or NULL. */
const struct variable *variable_find(const char *name, enum variable_vendor vendor);

/* The 16 bytes of @vendor's GUID, as EFI stores them. */
const uint8_t *variable_vendor_guid(enum variable_vendor vendor);

#define VARIABLE_GUID_TEXT_SIZE 37
/* @vendor's GUID as efivarfs names files: 8-4-4-4-12 lowercase hex, NUL-terminated. */
void variable_vendor_guid_text(enum variable_vendor vendor, char out[VARIABLE_GUID_TEXT_SIZE]);

/* Do @attributes make @v its rightful writer's (or does nothing depend on them)? */
bool variable_attributes_trusted(const struct variable *v, uint32_t attributes);

#endif
