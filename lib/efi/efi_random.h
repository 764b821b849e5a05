/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Random bits for the firmware programs: the firmware's EFI_RNG_PROTOCOL,
 * else RDRAND where the CPU has it (cpu_features.h), else the TSC. Never
 * the wall clock: OVMF has no RNG protocol by default and its clock moves
 * once a second, so every draw within that second was the same. Used for
 * the MOK manager's random prompts and both programs' stack guard
 * (stack_guard.h).
 */
#ifndef LOCKSHIM_EFI_RANDOM_H
#define LOCKSHIM_EFI_RANDOM_H

#include <efi.h>

/*
 * 64 bits, asking @bs (before InitializeLib() too); *@source names where
 * they came from, for the log.
 */
UINT64 efi_random64(EFI_BOOT_SERVICES *bs, const char **source);

#endif
