/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The stack protector's run-time side for the firmware programs (EFI
 * objects are compiled with -fstack-protector-strong
 * -mstack-protector-guard=global; OpenSSL's keep their own flags).
 *
 * Each protected function copies __stack_chk_guard into its frame on entry
 * and compares on return, so the guard may change only while no protected
 * frame is live: first thing, from efi_main, which EFI_MAIN_WITH_STACK_GUARD
 * defines unprotected (as are stack_guard_init and __stack_chk_fail).
 */
#ifndef LOCKSHIM_STACK_GUARD_H
#define LOCKSHIM_STACK_GUARD_H

#include <efi.h>
#include <stdint.h>

/* No canary in this function's frame: it runs across the guard's change. */
#define NO_STACK_PROTECTOR __attribute__((no_stack_protector))

extern uintptr_t __stack_chk_guard;

/*
 * A guard from efi_random64() (EFI_RNG_PROTOCOL, else RDRAND, else the
 * TSC), kept for __stack_chk_fail's message with @system_table. Call it
 * before any protected function, from an unprotected one.
 */
NO_STACK_PROTECTOR void stack_guard_init(EFI_SYSTEM_TABLE *system_table);

/* Called by a protected function whose canary changed: prints a line, halts. */
NO_STACK_PROTECTOR __attribute__((noreturn)) void __stack_chk_fail(void);

/*
 * The program's efi_main: sets the guard, then runs @main_fn (static
 * EFI_STATUS main_fn(EFI_HANDLE, EFI_SYSTEM_TABLE *), defined before), never
 * inlined into it: its frame is protected with the new guard.
 */
#define EFI_MAIN_WITH_STACK_GUARD(main_fn)                                                   \
	static __attribute__((noinline)) EFI_STATUS main_fn(EFI_HANDLE, EFI_SYSTEM_TABLE *); \
	EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table);              \
	NO_STACK_PROTECTOR EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table) \
	{                                                                                    \
		stack_guard_init(system_table);                                              \
		return main_fn(image, system_table);                                         \
	}

#endif
