/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* The vendor certificate (DER) built into lockshim: make VENDOR_CERT=file. */
	.section .rodata.vendor_cert, "a"
	.globl vendor_cert
	.globl vendor_cert_end
vendor_cert:
	.incbin VENDOR_CERT_FILE
vendor_cert_end:
	.section .note.GNU-stack, "", @progbits
