/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Injected faults, for tests only (make faults, tests/qemu/test_faults.sh):
 * built with -DLOCKSHIM_FAULT_INJECTION into build/faults/, never into the
 * release images, where efi_fault_init() is empty and efi_fault_file_read()
 * is the plain Read call.
 *
 * EFI_FAULT_SCOPE(), right after InitializeLib(), points the program's BS
 * and RT at its own copies of the firmware's tables whose AllocatePool,
 * AllocatePages, LoadImage, GetVariable and SetVariable go through one
 * counter, shared by lockshim and the MOK manager it starts (a protocol of
 * the test GUID holds it); efi_fault_file_read() counts ReadFile. The
 * firmware's own tables (ST->BootServices, ST->RuntimeServices), which the
 * kernel is given, are untouched.
 *
 * The variable LockshimFaultAt (test GUID, "LSFAULT!" and a UINT32 N, set
 * by the harness with attributes NV+BS, 0x3; with any others it is ignored,
 * with a console line "fault: LockshimFaultAt ignored: attributes ...")
 * names the call that fails: only that one, with one
 * console line "fault: failing call N (Kind what)". N = 0 or no variable:
 * nothing fails, every call but an allocation is listed ("fault: call N:
 * Kind what"), and StartImage, ResetSystem and the program's return print
 * the tally so far ("fault: tally: N calls: AllocatePool a, ...").
 */
#ifndef LOCKSHIM_EFI_FAULT_H
#define LOCKSHIM_EFI_FAULT_H

#include <efi.h>

#ifdef LOCKSHIM_FAULT_INJECTION
void efi_fault_init(void);
void efi_fault_exit(int *scope);
EFI_STATUS efi_fault_file_read(EFI_FILE_HANDLE file, UINTN *size, void *buffer);
/* In efi_main, after InitializeLib(): sets up, and prints the tally when efi_main returns. */
#define EFI_FAULT_SCOPE() \
	__attribute__((cleanup(efi_fault_exit), unused)) int efi_fault_scope = (efi_fault_init(), 0)
#else
#define EFI_FAULT_SCOPE() \
	do {              \
	} while (0)

static inline EFI_STATUS efi_fault_file_read(EFI_FILE_HANDLE file, UINTN *size, void *buffer)
{
	return file->Read(file, size, buffer);
}
#endif

#endif
