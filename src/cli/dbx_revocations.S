/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The dbx updates that revoke a CA, published or modelled
 * (certs/dbx-revocations.csv, whose README says where each comes from),
 * for check's warnings and `--dbx-update NAME` (dbx_warning.c).
 */
	.section .rodata
	.globl dbx_revocations
	.globl dbx_revocations_end
dbx_revocations:
	.incbin DBX_REVOCATIONS_FILE
dbx_revocations_end:
	.section .note.GNU-stack, "", @progbits
