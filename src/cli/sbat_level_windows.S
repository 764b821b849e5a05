/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The SbatLevel Windows' servicing writes (certs/sbat-level-windows.csv,
 * whose README says where it comes from), for `--sbat-level windows`.
 */
	.section .rodata
	.globl sbat_level_windows
	.globl sbat_level_windows_end
sbat_level_windows:
	.incbin SBAT_LEVEL_WINDOWS_FILE
sbat_level_windows_end:
	.section .note.GNU-stack, "", @progbits
