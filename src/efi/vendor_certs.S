/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The vendor's keys built into lockshim: its certificate (DER, make
 * VENDOR_CERT=file) and its revocations (an EFI signature list, make
 * VENDOR_DBX=file; empty by default), in a `.vendor_cert` section laid out
 * as rhboot/shim lays out its own (src/core/vendor_cert.h: four sizes and
 * offsets, then the data), so that a host tool (`lockshim check`) reads
 * the keys of lockshim and of shim with one reader. The image lockshim
 * starts when its load options name none (make DEFAULT_LOADER=name, the
 * text efi_main.c is built with) is in `.ldrname`, NUL-terminated, for
 * the same reader.
 */
	.section .vendor_cert, "a"
	.globl vendor_cert
	.globl vendor_cert_end
	.globl vendor_dbx
	.globl vendor_dbx_end
vendor_cert_table:
	.long vendor_cert_end - vendor_cert
	.long vendor_dbx_end - vendor_dbx
	.long vendor_cert - vendor_cert_table
	.long vendor_dbx - vendor_cert_table
vendor_cert:
	.incbin VENDOR_CERT_FILE
vendor_cert_end:
	.balign 8
vendor_dbx:
	.incbin VENDOR_DBX_FILE
vendor_dbx_end:
	.section .ldrname, "a"
	.asciz DEFAULT_LOADER_TEXT
	.section .note.GNU-stack, "", @progbits
