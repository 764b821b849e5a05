// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * The boot plan (boot_plan.c): its steps in the order the firmware runs
 * them and check predicts them, the fallback's path rule, and where the
 * next stage is found beside lockshim.
 */
#include "boot_plan.h"
#include "macro.h"
#include "unit.h"

#include <stdlib.h>

/* @text as UCS-2 into @out; its length. */
static size_t u16(const char *text, uint16_t *out)
{
	size_t n = strlen(text);

	for (size_t i = 0; i < n; i++)
		out[i] = (uint8_t)text[i];
	return n;
}

/* boot_plan_next_path on ASCII; the result as ASCII, or "" when refused. */
static const char *next_path(const char *dir, const char *name)
{
	static char text[BOOT_PLAN_PATH_MAX + 1];
	static uint16_t d[BOOT_PLAN_PATH_MAX * 2], n[BOOT_PLAN_PATH_MAX * 2],
		out[BOOT_PLAN_PATH_MAX + 1];
	size_t dl = u16(dir, d), nl = u16(name, n);
	long len = boot_plan_next_path(d, dl, n, nl, out);

	text[0] = '\0';
	for (long i = 0; i < len; i++)
		text[i] = (char)out[i];
	if (len >= 0)
		text[len] = '\0';
	return text;
}

int main(void)
{
	/* the order every executor walks: the policy and the hand-off before any image starts */
	static const enum boot_step order[] = {
		BOOT_STEP_SELF_CHECK,	BOOT_STEP_POLICY,     BOOT_STEP_HANDOFF, BOOT_STEP_MOK_REQUESTS,
		BOOT_STEP_FALLBACK,	BOOT_STEP_NEXT_STAGE, BOOT_STEP_START,
	};
	static const struct {
		const char *path;
		bool runs;
	} fallback[] = {
		{ "\\EFI\\BOOT\\BOOTX64.EFI", true },
		{ "\\efi\\boot\\bootx64.efi", true },
		{ "\\EFI\\BOOT\\BOOTX64.EF", false },
		{ "\\EFI\\BOOT\\BOOTX64.EFI.", false },
		{ "\\EFI\\debian\\BOOTX64.EFI", false },
		{ "EFI\\BOOT\\BOOTX64.EFI", false },
		{ "", false },
	};
	static const struct {
		const char *dir, *name, *want;
	} paths[] = {
		{ "\\EFI\\lockshim\\", "vmlinuz.efi", "\\EFI\\lockshim\\vmlinuz.efi" },
		{ "\\EFI\\lockshim\\", "\\EFI\\debian\\grubx64.efi", "\\EFI\\debian\\grubx64.efi" },
		{ "\\EFI\\lockshim\\", "/EFI/debian/grubx64.efi", "\\EFI\\debian\\grubx64.efi" },
		{ "\\EFI\\lockshim\\", "sub/k.efi", "\\EFI\\lockshim\\sub\\k.efi" },
		{ "\\", "k.efi", "\\k.efi" },
		{ "\\EFI\\lockshim\\", "", "" },
	};
	uint16_t path[64];

	CHECK_EQ(boot_plan_length, ARRAY_SIZE(order), "the plan has every step once");
	for (size_t i = 0; i < ARRAY_SIZE(order) && i < boot_plan_length; i++) {
		CHECK_EQ(boot_plan[i].step, order[i], boot_plan[i].name);
		CHECK(boot_plan[i].name && boot_plan[i].name[0], "each step has a name");
	}
	for (size_t i = 0; i < ARRAY_SIZE(fallback); i++)
		CHECK_EQ(boot_plan_runs_fallback(path, u16(fallback[i].path, path)),
			 fallback[i].runs, fallback[i].path[0] ? fallback[i].path : "an empty path");
	for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
		CHECK_STREQ(next_path(paths[i].dir, paths[i].name), paths[i].want,
			    paths[i].name[0] ? paths[i].name : "an empty name refused");
	{
		/* the longest path fits; one character more is refused, never cut */
		char *dir = malloc(BOOT_PLAN_PATH_MAX + 1);

		memset(dir, 'd', BOOT_PLAN_PATH_MAX - 1);
		dir[BOOT_PLAN_PATH_MAX - 1] = '\0';
		CHECK_EQ(strlen(next_path(dir, "k")), BOOT_PLAN_PATH_MAX, "a path of the maximum");
		CHECK_STREQ(next_path(dir, "kk"), "", "a path one longer refused");
		free(dir);
	}
	UNIT_EXIT();
}
