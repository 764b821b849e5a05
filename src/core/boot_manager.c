// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "boot_manager.h"

#include "boot_option.h"
#include "macro.h"
#include "reason.h"
#include "safe_math.h"

int boot_next_parse(const uint8_t *data, size_t size, uint16_t *out, const char **reason)
{
	if (size != 2)
		return refuse(reason, "BootNext is not one option number (2 bytes)");
	*out = read_le16(data);
	return 0;
}

const char *boot_manager_passes_over(uint32_t attributes, bool boot_next)
{
	if (boot_next)
		return NULL;
	if (!(attributes & LOAD_OPTION_ACTIVE))
		return "inactive: the firmware skips it";
	if ((attributes & LOAD_OPTION_CATEGORY) != LOAD_OPTION_CATEGORY_BOOT)
		return "an application, not of the boot category: the firmware skips it";
	return NULL;
}

size_t boot_manager_order(bool has_next, uint16_t next, const uint16_t *order, size_t n,
			  uint16_t *out)
{
	size_t count = 0;

	if (has_next)
		out[count++] = next;
	for (size_t i = 0; i < n; i++)
		out[count++] = order[i];
	return count;
}

size_t boot_manager_next_boot(const enum boot_outcome *outcomes, size_t n, enum boot_result *result)
{
	for (size_t i = 0; i < n; i++) {
		switch (outcomes[i]) {
		case BOOT_OUTCOME_FALLS_THROUGH:
			continue;
		case BOOT_OUTCOME_BOOTS:
			*result = BOOT_RESULT_BOOTS;
			return i;
		case BOOT_OUTCOME_STOPS:
			*result = BOOT_RESULT_WILL_NOT_BOOT;
			return i;
		case BOOT_OUTCOME_NOT_FOLLOWED:
		case BOOT_OUTCOME_UNKNOWN:
			break;
		}
		*result = BOOT_RESULT_CANNOT_TELL; /* an unknown value too: never a guess */
		return i;
	}
	*result = BOOT_RESULT_WILL_NOT_BOOT;
	return n;
}

const char *boot_outcome_name(enum boot_outcome outcome)
{
	static const char *const names[] = {
		[BOOT_OUTCOME_FALLS_THROUGH] = "falls-through",
		[BOOT_OUTCOME_BOOTS] = "boots",
		[BOOT_OUTCOME_STOPS] = "stops",
		[BOOT_OUTCOME_NOT_FOLLOWED] = "not-followed",
		[BOOT_OUTCOME_UNKNOWN] = "unknown",
	};

	return (size_t)outcome < ARRAY_SIZE(names) ? names[outcome] : "unknown";
}
