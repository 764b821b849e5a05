/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * Random bits for what the MOK manager asks at random: the firmware's
 * EFI_RNG_PROTOCOL, else RDRAND where the CPU has it, else the TSC. Never
 * the wall clock: OVMF has no RNG protocol by default and its clock moves
 * once a second, so every draw within that second was the same.
 */
#ifndef LOCKSHIM_MM_RANDOM_H
#define LOCKSHIM_MM_RANDOM_H

#include <efi.h>

/* 64 bits; *@source names where they came from, for the log. */
UINT64 mm_random64(const char **source);

#endif
