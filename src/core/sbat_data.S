/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * lockshim's SBAT data, in the sections rhboot/shim uses:
 *   .sbat       this binary's own components (certs/sbat.csv)
 *   .sbatlevel  the revocation levels it applies to SbatLevel: format 0,
 *               then the offsets (from the end of the format field) of the
 *               automatic and the latest level, each NUL-terminated
 *               (certs/sbat-level-automatic.csv, certs/sbat-level-latest.csv)
 */
	.section .sbat, "a"
	.globl lockshim_sbat
	.globl lockshim_sbat_end
lockshim_sbat:
	.incbin SBAT_CSV_FILE
lockshim_sbat_end:

	.section .sbatlevel, "a"
	.balign 4
	.globl lockshim_sbat_level
	.globl lockshim_sbat_level_end
lockshim_sbat_level:
	.4byte 0
	.4byte sbat_level_automatic - lockshim_sbat_level - 4
	.4byte sbat_level_latest - lockshim_sbat_level - 4
sbat_level_automatic:
	.incbin SBAT_LEVEL_AUTOMATIC_FILE
	.byte 0
sbat_level_latest:
	.incbin SBAT_LEVEL_LATEST_FILE
	.byte 0
lockshim_sbat_level_end:
	.section .note.GNU-stack, "", @progbits
