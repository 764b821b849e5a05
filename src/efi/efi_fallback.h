/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The fallback, as rhboot/shim's fbx64.efi, done by lockshim itself: when
 * the firmware started it from the removable path \EFI\BOOT\BOOTX64.EFI
 * (no boot option of the machine led to an installed lockshim), the boot
 * options each \EFI\<vendor>\BOOTX64.CSV on lockshim's partition asks for
 * (src/core/fallback.h) are created, or found when they exist, put first
 * in BootOrder, and the first of them is lockshim's next stage: no reset,
 * so no reset loop. It is a step of the boot plan (boot_plan.h) after the
 * hand-off and the MOK requests: every file a CSV names is decided by
 * lockshim's own policy, exactly as the image lockshim starts, and the
 * chosen one is started by efi_main.c as any next stage, decided again.
 * A CSV is taken whole or not at all; else nothing of it is created, and
 * the console says why.
 */
#ifndef LOCKSHIM_EFI_FALLBACK_H
#define LOCKSHIM_EFI_FALLBACK_H

#include <efi.h>

#include "efi_verify.h"

/* What the fallback chose to start: the first option of the CSVs taken. */
struct efi_fallback_choice {
	CHAR16 *path;  /* on lockshim's partition; NULL: nothing chosen */
	void *options; /* the option's optional data, the image's load options; or NULL */
	UINTN options_size;
	UINT16 number; /* its Boot#### */
};

void efi_fallback_choice_free(struct efi_fallback_choice *choice);

/*
 * The fallback for lockshim's image @image, deciding with @verifier. Sets
 * *@choice when an option is to be started; leaves it empty when lockshim
 * was not started from the removable path, runs from a removable medium,
 * when there is nothing to do, or when it could not be done (said).
 */
void efi_fallback_run(EFI_HANDLE image, const struct efi_verifier *verifier,
		      struct efi_fallback_choice *choice);

#endif
