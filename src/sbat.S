/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* lockshim's own SBAT metadata: the .sbat section, from certs/sbat.csv. */
	.section .sbat, "a"
	.incbin SBAT_CSV_FILE
	.section .note.GNU-stack, "", @progbits
