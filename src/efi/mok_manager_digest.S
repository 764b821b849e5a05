/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The Authenticode SHA-256 digest of the MOK manager built beside lockshim
 * (mmx64.efi; 32 bytes, made by the Makefile with build/lockshim hash):
 * the only image lockshim starts in the MOK manager's slot. Signing does not
 * change it, since Authenticode leaves the signature out of the digest.
 */
	.section .rodata.mok_manager_digest, "a"
	.globl mok_manager_sha256
mok_manager_sha256:
	.incbin MOK_MANAGER_DIGEST_FILE
	.section .note.GNU-stack, "", @progbits
