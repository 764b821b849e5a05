/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The vendor's keys built into lockshim: its certificate (DER, make
 * VENDOR_CERT=file) and its revocations (an EFI signature list, make
 * VENDOR_DBX=file; empty by default).
 */
	.section .rodata.vendor_certs, "a"
	.globl vendor_cert
	.globl vendor_cert_end
	.globl vendor_dbx
	.globl vendor_dbx_end
vendor_cert:
	.incbin VENDOR_CERT_FILE
vendor_cert_end:
	.balign 8
vendor_dbx:
	.incbin VENDOR_DBX_FILE
vendor_dbx_end:
	.section .note.GNU-stack, "", @progbits
