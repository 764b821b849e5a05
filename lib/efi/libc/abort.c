/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * abort(): say so on the console, then leave the image with EFI_ABORTED
 * (BS->Exit returns control to whoever started us: the boot manager tries
 * the next option). If that is impossible, stop the CPU for good.
 */
#include <stdlib.h>

#include "libc-efi.h"

__attribute__((noreturn)) void abort(void)
{
	if (ST != NULL && ST->ConOut != NULL)
		ST->ConOut->OutputString(ST->ConOut,
				  (CHAR16 *)L"lockshim: abort() called\r\n");
	if (BS != NULL && LibImageHandle != NULL)
		BS->Exit(LibImageHandle, EFI_ABORTED, 0, NULL);
	for (;;)
		__asm__ volatile("cli; hlt");
}
