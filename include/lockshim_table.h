/* SPDX-License-Identifier: BSD-2-Clause-Patent OR GPL-2.0-only */
/*
 * The lockshim lockdown table: the ABI between lockshim and the kernel.
 *
 * lockshim installs this EFI configuration table on every boot, just before
 * it starts the kernel, in memory that survives ExitBootServices
 * (EfiRuntimeServicesData), so the kernel always knows whether lockshim ran
 * and what it decided. The kernel patch under kernel/ mirrors this header;
 * change both together and bump LOCKSHIM_TABLE_VERSION on any layout change.
 *
 * Layout: this header, then the trusted-keys data, the denied data and the
 * SbatLevel, each at the offset the header gives, all inside total_size
 * bytes. All integers are little-endian.
 *
 * Version 2 added the SbatLevel: a locked kernel decides kexec with this
 * boot's level. Version 3 (same layout) added LOCKSHIM_TABLE_SBAT_REQUIRED:
 * the .sbat rule lockshim applied to the kernel it started, so that kexec
 * refuses an image without .sbat as lockshim would. A kernel refuses a
 * version it does not know (it locks down and trusts none of the keys), so
 * a new flag is a new version.
 */
#ifndef LOCKSHIM_TABLE_H
#define LOCKSHIM_TABLE_H

#include <stdint.h>

/* 85eec472-a2a6-46f8-872c-ff2ce741ed80, as its eleven fields (data1, data2, data3, data4[8]) */
#define LOCKSHIM_TABLE_GUID_FIELDS \
	0x85eec472, 0xa2a6, 0x46f8, 0x87, 0x2c, 0xff, 0x2c, 0xe7, 0x41, 0xed, 0x80

#define LOCKSHIM_TABLE_MAGIC   "LOCKSHIM" /* 8 bytes, no terminator */
#define LOCKSHIM_TABLE_VERSION 3

/* flags */
#define LOCKSHIM_TABLE_LOCKED        (1u << 0) /* the kernel must lock itself down */
#define LOCKSHIM_TABLE_SBAT_REQUIRED (1u << 1) /* lockshim required .sbat of what it started */

/* lock_reason: why LOCKED is set (LOCKSHIM_LOCK_NONE when it is not) */
#define LOCKSHIM_LOCK_NONE        0 /* not locked */
#define LOCKSHIM_LOCK_SECURE_BOOT 1 /* Secure Boot enforced; lockshim verified this kernel */

/* secure_boot, setup_mode, mok_sb_state when the variable was absent or unreadable */
#define LOCKSHIM_VAR_ABSENT 0xff

struct lockshim_table {
	uint8_t magic[8];     /* LOCKSHIM_TABLE_MAGIC */
	uint16_t version;     /* LOCKSHIM_TABLE_VERSION */
	uint16_t header_size; /* sizeof(struct lockshim_table) for this version */
	uint32_t total_size;  /* the whole table: header and both data areas */
	uint32_t flags;       /* LOCKSHIM_TABLE_* */
	uint32_t lock_reason; /* LOCKSHIM_LOCK_* */
	uint8_t secure_boot;  /* the SecureBoot variable lockshim read */
	uint8_t setup_mode;   /* the SetupMode variable */
	uint8_t mok_sb_state; /* MokSBState: 1 when the owner disabled validation */
	uint8_t reserved0;    /* zero */
	/*
	 * Keys the kernel may trust for module and kexec signatures, as
	 * EFI_SIGNATURE_LISTs: lockshim's vendor certificates and the MokList
	 * certificates. Never db: a firmware CA must not sign kernel modules.
	 */
	uint32_t trusted_keys_offset;
	uint32_t trusted_keys_size;
	/* Revocations for the kernel's blacklist keyring (vendor dbx, MokListX), as EFI_SIGNATURE_LISTs. */
	uint32_t denied_offset;
	uint32_t denied_size;
	/*
	 * The SbatLevel lockshim applied on this boot, as the variable's bytes
	 * (CSV text: "sbat,1,DATESTAMP", then "component,generation" lines), no
	 * terminator. Images whose .sbat it revokes are refused at kexec too.
	 */
	uint32_t sbat_level_offset;
	uint32_t sbat_level_size;
	uint32_t reserved1; /* zero */
	/* SHA-256 of the total_size bytes of the table, computed with this field zeroed. */
	uint8_t digest[32];
} __attribute__((packed));

#endif
