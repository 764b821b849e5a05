// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "boot_plan.h"

#include "macro.h"

const struct boot_plan_step boot_plan[] = {
	{ BOOT_STEP_SELF_CHECK, "self-check" }, { BOOT_STEP_POLICY, "policy" },
	{ BOOT_STEP_HANDOFF, "hand-off" },      { BOOT_STEP_MOK_REQUESTS, "mok-requests" },
	{ BOOT_STEP_FALLBACK, "fallback" },     { BOOT_STEP_NEXT_STAGE, "next-stage" },
	{ BOOT_STEP_START, "start" },
};

const size_t boot_plan_length = ARRAY_SIZE(boot_plan);

static uint16_t upper(uint16_t c)
{
	return c >= 'a' && c <= 'z' ? (uint16_t)(c - 'a' + 'A') : c;
}

bool boot_plan_runs_fallback(const uint16_t *path, size_t len)
{
	static const char removable[] = BOOT_PLAN_REMOVABLE_PATH;

	if (len != sizeof(removable) - 1)
		return false;
	for (size_t i = 0; i < len; i++)
		if (upper(path[i]) != (uint16_t)removable[i])
			return false;
	return true;
}

long boot_plan_next_path(const uint16_t *dir, size_t dir_len, const uint16_t *name, size_t name_len,
			 uint16_t *out)
{
	size_t at = 0;

	if (!name_len)
		return -1;
	if (name[0] == '\\' || name[0] == '/')
		dir_len = 0;
	if (dir_len > BOOT_PLAN_PATH_MAX || name_len > BOOT_PLAN_PATH_MAX - dir_len)
		return -1;
	for (size_t i = 0; i < dir_len; i++)
		out[at++] = dir[i];
	for (size_t i = 0; i < name_len; i++)
		out[at++] = name[i] == '/' ? '\\' : name[i];
	out[at] = 0;
	return (long)at;
}
