/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/* Reading the console (works over a serial line), always with a timeout. */
#ifndef LOCKSHIM_EFI_CONSOLE_H
#define LOCKSHIM_EFI_CONSOLE_H

#include <efi.h>

/* Wait up to @seconds for a key. EFI_TIMEOUT when none came. */
EFI_STATUS efi_console_read_key(UINTN seconds, EFI_INPUT_KEY *key);

/*
 * Read a line of printable characters into @buffer (at most @max, no
 * terminator), echoing '*' when @masked; *@len gets its length. Each key
 * must come within @seconds. Backspace edits; Enter ends; Escape cancels
 * (EFI_ABORTED).
 */
EFI_STATUS efi_console_read_line(CHAR16 *buffer, UINTN max, UINTN *len, BOOLEAN masked,
				 UINTN seconds);

#endif
