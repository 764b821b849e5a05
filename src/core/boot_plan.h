/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The boot lockshim runs, described once: its steps in order and the rules
 * both of its readers share. The firmware shell (src/efi/efi_main.c)
 * executes the plan with firmware calls; `lockshim check`
 * (src/cli/boot_chain.c) predicts it over a machine state. Each executor
 * walks boot_plan[] and handles every step in a switch without a default:
 * a step added here that one side does not handle fails that side's build
 * (-Wswitch, an error under WERROR=1; tests/cli/test_boot_plan.sh shows
 * both failing).
 */
#ifndef LOCKSHIM_BOOT_PLAN_H
#define LOCKSHIM_BOOT_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum boot_step {
	/* SbatLevel brought up to date; lockshim's own .sbat checked against it */
	BOOT_STEP_SELF_CHECK,
	/* the trust lists: vendor keys, db, dbx, MokList, MokListX; the MOK state measured */
	BOOT_STEP_POLICY,
	/* SHIM_LOCK offered; the lockdown table and the MOK mirrors installed */
	BOOT_STEP_HANDOFF,
	/* the MOK manager when a request waits; then db dropped under MokDBState */
	BOOT_STEP_MOK_REQUESTS,
	/* from the removable path: BOOTX64.CSV's options, each image decided first */
	BOOT_STEP_FALLBACK,
	/* the fallback's option, else the load options' image, else the default loader */
	BOOT_STEP_NEXT_STAGE,
	/* it starts; what it asks through SHIM_LOCK or loads is decided by the policy */
	BOOT_STEP_START,
};

struct boot_plan_step {
	enum boot_step step;
	const char *name; /* as the console and check's output say it */
};

/* The steps, in the order they run. */
extern const struct boot_plan_step boot_plan[];
extern const size_t boot_plan_length;

/* Where the firmware starts lockshim when no boot option names it: the fallback runs there. */
#define BOOT_PLAN_REMOVABLE_PATH "\\EFI\\BOOT\\BOOTX64.EFI"

/* The longest next-stage path, in characters. */
#define BOOT_PLAN_PATH_MAX 1024

/*
 * Whether lockshim at @path (its file path on its partition, @len UCS-2
 * characters, '\' separators) runs the fallback: it is the removable path,
 * in any case, as FAT names are.
 */
bool boot_plan_runs_fallback(const uint16_t *path, size_t len);

/*
 * The next stage's path on lockshim's partition: @name (@name_len UCS-2
 * characters) beside lockshim, whose directory @dir (@dir_len characters)
 * ends with '\', or @name alone when it is absolute; '/' read as '\'. Into
 * @out, NUL-terminated (BOOT_PLAN_PATH_MAX + 1 characters). Returns its
 * length, or -1 when it is longer than BOOT_PLAN_PATH_MAX or @name is empty.
 */
long boot_plan_next_path(const uint16_t *dir, size_t dir_len, const uint16_t *name, size_t name_len,
			 uint16_t *out);

#endif
