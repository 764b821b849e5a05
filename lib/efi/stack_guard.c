// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "stack_guard.h"

#include "efi_random.h"

/*
 * Until stack_guard_init: a fixed value, so that a guard never set is not
 * zero. Its low byte stays zero, as glibc's does: a string overflow that
 * reaches the canary stops at it (a read) or must write a zero there.
 */
uintptr_t __stack_chk_guard = 0x5c3f9e27a1d4b600;

/* Where __stack_chk_fail prints: the firmware's console. */
static EFI_SYSTEM_TABLE *guard_system_table;

NO_STACK_PROTECTOR void stack_guard_init(EFI_SYSTEM_TABLE *system_table)
{
	const char *source;

	guard_system_table = system_table;
	/* efi_random64 has returned (its frame gone) before the guard changes */
	__stack_chk_guard ^= efi_random64(system_table->BootServices, &source) & ~(uintptr_t)0xff;
}

NO_STACK_PROTECTOR void __stack_chk_fail(void)
{
	EFI_SYSTEM_TABLE *st = guard_system_table;

	/* A smashed stack: return nowhere, run nothing more of it; halt. */
	if (st && st->ConOut)
		st->ConOut->OutputString(st->ConOut, L"stack smashing detected: halted\r\n");
	for (;;)
		__asm__ volatile("cli; hlt");
}
