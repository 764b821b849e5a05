/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Serving an initrd to the kernel's EFI stub through the LoadFile2 protocol
 * on the LINUX_EFI_INITRD_MEDIA_GUID vendor device path (Linux 5.8 and
 * later look there before any initrd= argument).
 */
#ifndef LOCKSHIM_EFI_INITRD_H
#define LOCKSHIM_EFI_INITRD_H

#include <efi.h>

struct efi_initrd;

/*
 * Publish @size bytes at @data (which must stay valid) as the initrd.
 * Fails with EFI_ALREADY_STARTED if another loader already published one.
 */
EFI_STATUS efi_initrd_register(const void *data, UINTN size, struct efi_initrd **initrd);

/* Withdraw it again (when the kernel returns); NULL is allowed. */
void efi_initrd_unregister(struct efi_initrd *initrd);
/* For _cleanup_(efi_initrd_unregisterp): unregister *@initrd, if any. */
static inline void efi_initrd_unregisterp(struct efi_initrd **initrd)
{
	efi_initrd_unregister(*initrd);
}

#endif
