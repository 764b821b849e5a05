/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The firmware's boot manager at the next boot (UEFI 2.10, 3.1 "Firmware
 * Boot Manager"), as `lockshim check` predicts it: BootNext first (the
 * firmware deletes it before trying it, so only that boot), then BootOrder
 * in order, then the removable path. An option that is not started (not
 * active, no such option, no file, refused by db or dbx), or whose image
 * returns (lockshim refusing its next stage), passes the boot on to the
 * next; the first option that does not ends it. Host code decides each
 * option's outcome from the files; this decides where the boot ends.
 */
#ifndef LOCKSHIM_BOOT_MANAGER_H
#define LOCKSHIM_BOOT_MANAGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the firmware's attempt of one option comes to. Names: boot_outcome_name. */
enum boot_outcome {
	/* not started, or it returned: the firmware tries the next option */
	BOOT_OUTCOME_FALLS_THROUGH,
	/* a verified kernel runs (or an unverified one with Secure Boot off) */
	BOOT_OUTCOME_BOOTS,
	/* a second stage runs and stays without a kernel (its default entry refused) */
	BOOT_OUTCOME_STOPS,
	/* an allowed image check does not follow starts (fwupd, memtest86, Windows) */
	BOOT_OUTCOME_NOT_FOLLOWED,
	/* whether it starts at all cannot be told here (another disk, the network) */
	BOOT_OUTCOME_UNKNOWN,
};

/* What the next boot comes to. */
enum boot_result {
	BOOT_RESULT_BOOTS,         /* it reaches a kernel */
	BOOT_RESULT_WILL_NOT_BOOT, /* every option falls through, or the one it ends at stops */
	BOOT_RESULT_CANNOT_TELL,   /* it ends at an option whose end is not known here */
};

/*
 * BootNext's data (@size bytes at @data): one UINT16 option number into
 * *@out. Returns 0, or -1 with a reason.
 */
int boot_next_parse(const uint8_t *data, size_t size, uint16_t *out, const char **reason);

/*
 * Why the boot manager passes over BootOrder's option of @attributes
 * without starting it: not active, or not of the boot category (UEFI 2.10
 * 3.1.3: LOAD_OPTION_CATEGORY_APP, OVMF's UiApp, is started from a menu
 * only); NULL when it tries it. @boot_next: BootNext's, which EDK2's
 * BdsEntry starts whatever its attributes.
 */
const char *boot_manager_passes_over(uint32_t attributes, bool boot_next);

/*
 * The options the firmware tries, in order, into @out (room for @n + 1):
 * BootNext's when @has_next, then BootOrder's @n at @order (BootNext's
 * again too, where BootOrder names it: the firmware does not skip it).
 * Returns how many.
 */
size_t boot_manager_order(bool has_next, uint16_t next, const uint16_t *order, size_t n,
			  uint16_t *out);

/*
 * Where the boot ends, over the outcomes of the @n attempts in the order
 * the firmware makes them: the index of the first that does not fall
 * through (@n when every one does), its result into *@result.
 */
size_t boot_manager_next_boot(const enum boot_outcome *outcomes, size_t n,
			      enum boot_result *result);

/* "boots", "falls-through", "stops", "not-followed", "unknown"; "unknown" for another value. */
const char *boot_outcome_name(enum boot_outcome outcome);

#endif
