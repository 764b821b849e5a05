/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The fallback, as rhboot/shim's fbx64.efi, done by lockshim itself: when
 * the firmware started it from the removable path \EFI\BOOT\BOOTX64.EFI
 * (no boot option of the machine led to an installed lockshim), the boot
 * options each \EFI\<vendor>\BOOTX64.CSV on lockshim's partition asks for
 * (src/core/fallback.h) are created, or found when they exist, put first
 * in BootOrder, and the first of them is started at once: no reset, so no
 * reset loop. A CSV is taken whole or not at all: every file it names must
 * load through the firmware's LoadImage, which under Secure Boot is the
 * check the firmware applies when it boots the option (lockshim's own
 * policy is not installed yet); else nothing of it is created, and the
 * console says why.
 */
#ifndef LOCKSHIM_EFI_FALLBACK_H
#define LOCKSHIM_EFI_FALLBACK_H

#include <efi.h>

/*
 * The fallback for lockshim's image @image. Returns when lockshim was not
 * started from the removable path, when there is nothing to do, when it
 * could not be done (said on the console), or when the option it started
 * returned: lockshim then goes on as it boots.
 */
void efi_fallback_run(EFI_HANDLE image);

#endif
