/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * GUIDs written once, as their eleven fields (data1, data2, data3, then the
 * eight bytes of data4), so that the core and the firmware shell use the
 * same definition: GUID_BYTES() gives the 16 bytes as EFI stores a GUID
 * (the first three fields little-endian), for the core, which has no
 * EFI_GUID; src/efi/efi_guid.c makes EFI_GUIDs of the same fields. The
 * lockdown table's GUID is in include/lockshim_table.h, its ABI.
 */
#ifndef LOCKSHIM_GUID_H
#define LOCKSHIM_GUID_H

/* rhboot/shim's vendor GUID: the MOK and SBAT variables, the owner of mokutil's entries. */
#define SHIM_LOCK_GUID_FIELDS \
	0x605dab50, 0xe046, 0x4300, 0xab, 0xb6, 0x3d, 0xd8, 0x10, 0xdd, 0x8b, 0x23

/*
 * lockshim's own vendor GUID: its variables in formats of its own
 * (LockshimBootLog, boot_record.h), apart from shim's, whose names and
 * formats rhboot/shim defines and mokutil, fwupd and the kernel read.
 */
#define LOCKSHIM_VENDOR_GUID_FIELDS \
	0xfa4589c8, 0x983f, 0x4879, 0x98, 0xde, 0x41, 0x98, 0x95, 0x78, 0xe7, 0x5d

/* The fault build's (src/efi/efi_fault.c) protocol and LockshimFaultAt: a test GUID. */
#define LOCKSHIM_FAULT_GUID_FIELDS \
	0xb8e9e7b1, 0x23a8, 0x40c1, 0xbd, 0xbb, 0xe0, 0xfc, 0xff, 0xb5, 0x6b, 0xe5

/* UEFI's EFI_GLOBAL_VARIABLE: SecureBoot, SetupMode, PK, KEK, BootOrder, Boot####. */
#define EFI_GLOBAL_VARIABLE_GUID_FIELDS \
	0x8be4df61, 0x93ca, 0x11d2, 0xaa, 0x0d, 0x00, 0xe0, 0x98, 0x03, 0x2b, 0x8c

/* systemd's Boot Loader Interface (docs/BOOT_LOADER_INTERFACE.md): LoaderInfo... */
#define LOADER_INTERFACE_GUID_FIELDS \
	0x4a67b082, 0x0a4c, 0x41cf, 0xb6, 0xc7, 0x44, 0x0b, 0x29, 0xbb, 0x8c, 0x4f

/* UEFI's EFI_IMAGE_SECURITY_DATABASE_GUID: db, dbx. */
#define IMAGE_SECURITY_DATABASE_GUID_FIELDS \
	0xd719b2cb, 0x3d3a, 0x4596, 0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f

/* EFI_CERT_TYPE_PKCS7_GUID: the CertType of a time-based authenticated variable's signature. */
#define CERT_TYPE_PKCS7_GUID_FIELDS \
	0x4aafd29d, 0x68df, 0x49ee, 0x8a, 0xa9, 0x34, 0x7d, 0x37, 0x56, 0x65, 0xa7

/* (clang-format would take the braced initializer for a block) */
/* clang-format off */
#define GUID_BYTES(...) GUID_BYTES_(__VA_ARGS__)
#define GUID_BYTES_(a, b, c, d0, d1, d2, d3, d4, d5, d6, d7)                                     \
	{ (a) & 0xff, ((a) >> 8) & 0xff, ((a) >> 16) & 0xff, ((a) >> 24) & 0xff, (b) & 0xff,     \
	  ((b) >> 8) & 0xff, (c) & 0xff, ((c) >> 8) & 0xff, d0, d1, d2, d3, d4, d5, d6, d7 }
/* clang-format on */

#endif
