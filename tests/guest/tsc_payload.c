// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * tsc_payload.efi: the stand-in for a kernel in `make bench`. Its first act
 * is to read the TSC; it prints the value and powers the machine off. Under
 * QEMU with -icount the guest's TSC counts instructions, so the value is
 * what everything before it (firmware, then any loader) cost, and repeats
 * run to run. Built with -DBALLAST_BYTES=N it also carries N bytes of
 * read-only data, to be the size of a real kernel that a loader must read
 * and hash.
 */
#include <efi.h>
#include <efilib.h>

#ifdef BALLAST_BYTES
static const UINT8 ballast[BALLAST_BYTES] = { 1 }; /* stored in the file, not bss */
#endif

static inline UINT64 read_tsc(void)
{
	UINT32 lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((UINT64)hi << 32) | lo;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *system_table)
{
	UINT64 tsc = read_tsc();

	InitializeLib(image, system_table);
#ifdef BALLAST_BYTES
	/* a volatile read keeps the array in the image */
	Print(L"TSC-PAYLOAD entry %lu (ballast %lu bytes, %d)\n", tsc, sizeof(ballast),
	      ((volatile const UINT8 *)ballast)[0]);
#else
	Print(L"TSC-PAYLOAD entry %lu\n", tsc);
#endif
	uefi_call_wrapper(RT->ResetSystem, 4, EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return EFI_SUCCESS;
}
