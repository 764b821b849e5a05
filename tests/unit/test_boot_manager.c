// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * The firmware's boot manager at the next boot (boot_manager.c): BootNext
 * before BootOrder, and the boot ending at the first option that does not
 * fall through, with "cannot tell" kept apart from "will not boot".
 */
#include "boot_manager.h"
#include "boot_option.h"
#include "macro.h"
#include "unit.h"

#define FT BOOT_OUTCOME_FALLS_THROUGH
#define OK BOOT_OUTCOME_BOOTS
#define ST BOOT_OUTCOME_STOPS
#define NF BOOT_OUTCOME_NOT_FOLLOWED
#define UN BOOT_OUTCOME_UNKNOWN

int main(void)
{
	static const struct {
		const char *name;
		enum boot_outcome outcomes[4];
		size_t n, at;
		enum boot_result result;
	} cases[] = {
		{ "the first boots", { OK, ST }, 2, 0, BOOT_RESULT_BOOTS },
		{ "an inactive first option: the second boots", { FT, OK }, 2, 1, BOOT_RESULT_BOOTS },
		{ "two fall through, the third boots", { FT, FT, OK, ST }, 4, 2, BOOT_RESULT_BOOTS },
		{ "a second stage that stops ends the boot", { ST, OK }, 2, 0,
		  BOOT_RESULT_WILL_NOT_BOOT },
		{ "every option falls through", { FT, FT, FT }, 3, 3, BOOT_RESULT_WILL_NOT_BOOT },
		{ "no option at all", { FT }, 0, 0, BOOT_RESULT_WILL_NOT_BOOT },
		{ "an image not followed: cannot tell", { FT, NF, OK }, 3, 1,
		  BOOT_RESULT_CANNOT_TELL },
		{ "an option on another disk: cannot tell", { UN, OK }, 2, 0,
		  BOOT_RESULT_CANNOT_TELL },
		{ "an unknown outcome is no guess", { (enum boot_outcome)77, OK }, 2, 0,
		  BOOT_RESULT_CANNOT_TELL },
	};
	static const uint16_t order[] = { 1, 2, 3 };
	uint16_t out[4];
	const char *reason = NULL;
	uint16_t next = 0;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		enum boot_result result = (enum boot_result)-1;
		size_t at = boot_manager_next_boot(cases[i].outcomes, cases[i].n, &result);

		CHECK_EQ(at, cases[i].at, unit_name("%s: where the boot ends", cases[i].name));
		CHECK_EQ(result, cases[i].result, unit_name("%s: its result", cases[i].name));
	}

	CHECK_EQ(boot_manager_order(false, 0, order, 3, out), 3, "no BootNext: BootOrder alone");
	CHECK(out[0] == 1 && out[1] == 2 && out[2] == 3, "no BootNext: BootOrder's order");
	CHECK_EQ(boot_manager_order(true, 0x2001, order, 3, out), 4, "BootNext and BootOrder");
	CHECK(out[0] == 0x2001 && out[1] == 1 && out[3] == 3, "BootNext is tried first");
	CHECK_EQ(boot_manager_order(true, 2, order, 3, out), 4,
		 "BootNext naming a BootOrder option: tried again in its place");
	CHECK(out[0] == 2 && out[2] == 2, "BootNext's option first and in BootOrder's place");

	CHECK_EQ(boot_next_parse((const uint8_t *)"\x04\x20", 2, &next, &reason), 0, "BootNext parsed");
	CHECK_EQ(next, 0x2004, "BootNext little-endian");
	CHECK_EQ(boot_next_parse((const uint8_t *)"\x04\x20\x00", 3, &next, &reason), -1,
		 "BootNext of 3 bytes refused");
	CHECK_STRSTR(reason, "BootNext", "the reason names BootNext");
	CHECK_EQ(boot_next_parse((const uint8_t *)"", 0, &next, &reason), -1,
		 "an empty BootNext refused");

	CHECK(boot_manager_passes_over(LOAD_OPTION_ACTIVE, false) == NULL, "an active boot option is tried");
	CHECK_STRSTR(boot_manager_passes_over(0, false), "inactive", "an inactive one is passed over");
	CHECK_STRSTR(boot_manager_passes_over(LOAD_OPTION_ACTIVE | 0x100, false), "not of the boot category",
		     "an active LOAD_OPTION_CATEGORY_APP one (OVMF's UiApp) is passed over");
	CHECK(boot_manager_passes_over(0x100, true) == NULL,
	      "BootNext's is tried whatever its attributes");
	CHECK_STREQ(boot_outcome_name(BOOT_OUTCOME_NOT_FOLLOWED), "not-followed", "outcome name");
	CHECK_STREQ(boot_outcome_name((enum boot_outcome)99), "unknown", "an unknown outcome's name");
	return unit_failed;
}
