// SPDX-License-Identifier: BSD-2-Clause-Patent
/*
 * The VariableInfo text (src/core/variable_store.c): what lockshim writes
 * for the firmware's answers, read back; the text as shim 16.1 writes it
 * (its names for BS|NV and BS|RT swapped, a NUL at the end); hostile text;
 * and whether an update fits.
 */
#include "unit.h"
#include "variable_store.h"

#include <stdint.h>
#include <string.h>

/* what Debian 12's OVMF answered for NV|BS|RT (sb_on_lockshim_locked) */
static const struct variable_store_space ovmf_nv_rt = { true, 0x3ff9c, 0x3c0c0, 0x83c4 };

static void test_format(void)
{
	struct variable_store_space space[STORE_SETS] = {}, back[STORE_SETS];
	char text[VARIABLE_INFO_TEXT_MAX];
	const char *reason = NULL;
	size_t n;

	CHECK_EQ(variable_info_format(space, text), 0, "no set known: no text");
	CHECK_STREQ(text, "", "no set known: empty");

	space[STORE_BS_NV_RT] = ovmf_nv_rt;
	n = variable_info_format(space, text);
	CHECK_STREQ(text,
		    "bs_nv_rt_max_storage_sz: 0x3ff9c\n"
		    "bs_nv_rt_remaining_sz: 0x3c0c0\n"
		    "bs_nv_rt_max_var_sz: 0x83c4\n",
		    "one set: shim's three lines");
	CHECK_EQ(n, strlen(text), "the length returned");

	for (int s = 0; s < STORE_SETS; s++)
		space[s] = (struct variable_store_space){ true, UINT64_MAX, 0, (uint64_t)s };
	n = variable_info_format(space, text);
	CHECK_LT(n, sizeof(text), "every set at the largest values fits the text");
	CHECK_STRSTR(text, "bs_nv_max_storage_sz: 0xffffffffffffffff\n", "64-bit value");
	CHECK_STRSTR(text, "bs_remaining_sz: 0x0\n", "zero as 0x0");
	CHECK_EQ(variable_info_parse(text, n, back, &reason), 0, "read back");
	CHECK_MEMEQ(back, space, sizeof(back), "read back: the same answers");
}

static void test_parse_shim(void)
{
	/* shim 16.1: BS|NV named bs_rt and BS|RT named bs_nv, a NUL after the last line */
	static const char shim[] = "bs_max_storage_sz: 0x0\nbs_remaining_sz: 0x0\nbs_max_var_sz: 0x0\n"
				   "bs_rt_max_storage_sz: 0x40000\nbs_rt_remaining_sz: 0x3c2e8\n"
				   "bs_rt_max_var_sz: 0x8400\n"
				   "bs_nv_max_storage_sz: 0x20000\nbs_nv_remaining_sz: 0x1f000\n"
				   "bs_nv_max_var_sz: 0x8400\n"
				   "bs_nv_rt_max_storage_sz: 0x40000\nbs_nv_rt_remaining_sz: 0x3c2e8\n"
				   "bs_nv_rt_max_var_sz: 0x8400\n";
	struct variable_store_space space[STORE_SETS];
	const char *reason = NULL;

	CHECK_EQ(variable_info_parse(shim, sizeof(shim), space, &reason), 0, "shim's text");
	CHECK(space[STORE_BS_NV_RT].known, "shim's BS|NV|RT known");
	CHECK_EQ(space[STORE_BS_NV_RT].max_storage, 0x40000, "max storage");
	CHECK_EQ(space[STORE_BS_NV_RT].remaining, 0x3c2e8, "remaining");
	CHECK_EQ(space[STORE_BS_NV_RT].max_variable, 0x8400, "max variable");
	CHECK(space[STORE_BS].known && space[STORE_BS].max_storage == 0, "bs read apart from bs_nv");

	static const char later[] = "bs_nv_rt_max_storage_sz: 0x10\nfuture_line: 7\n"
				    "bs_nv_rt_remaining_sz: 0x8\nbs_nv_rt_max_var_sz: 0x4";
	CHECK_EQ(variable_info_parse(later, strlen(later), space, &reason), 0,
		 "unknown lines skipped, no final newline");
	CHECK(space[STORE_BS_NV_RT].known && space[STORE_BS_NV_RT].max_variable == 4,
	      "the set read around them");
	CHECK(!space[STORE_BS].known, "sets without lines unknown");
}

static void test_parse_hostile(void)
{
	static const struct {
		const char *text;
		int result;
		bool known;
		const char *name;
	} cases[] = {
		{ "", 0, false, "empty" },
		{ "bs_nv_rt_max_storage_sz: 0x10\nbs_nv_rt_remaining_sz: 0x8\n", 0, false,
		  "a set without its third line is unknown" },
		{ "bs_nv_rt_max_storage_sz: 0x\n", -1, false, "no digits" },
		{ "bs_nv_rt_max_storage_sz: 16\n", -1, false, "no 0x" },
		{ "bs_nv_rt_max_storage_sz: 0x10000000000000000\n", -1, false, "65 bits" },
		{ "bs_nv_rt_max_storage_sz: 0x1g\n", -1, false, "not hex" },
		{ "bs_nv_rt_max_storage_sz: 0x10 \n", -1, false, "trailing space" },
		{ "bs_nv_rt_max_storage_sz: -0x1\n", -1, false, "a sign" },
		{ "bs_nv_rt_max_storage_sz: 0x1\nbs_nv_rt_max_storage_sz: 0x2\n", -1, false,
		  "a line twice" },
		{ "bs_nv_rt_max_storage_sz 0x10\n", 0, false, "no colon: not a line of ours" },
		{ "bs_nv_rt_max_storage_szz: 0x10\n", 0, false, "a longer name is not ours" },
		{ "BS_NV_RT_MAX_STORAGE_SZ: 0x10\n", 0, false, "names are lowercase" },
	};
	struct variable_store_space space[STORE_SETS];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *reason = NULL;
		int r = variable_info_parse(cases[i].text, strlen(cases[i].text), space, &reason);

		CHECK_EQ(r, cases[i].result, cases[i].name);
		if (r < 0)
			CHECK(reason != NULL, "a refusal says why");
		else
			CHECK_EQ(space[STORE_BS_NV_RT].known, cases[i].known, cases[i].name);
	}
	/* a value cut by the end of the data: still whole digits, so read as written */
	const char cut[] = "bs_nv_rt_max_var_sz: 0x8400";
	const char *reason = NULL;
	CHECK_EQ(variable_info_parse(cut, 3, space, &reason), 0, "a name cut short is not ours");
}

static void test_fits(void)
{
	uint64_t need;

	CHECK(variable_store_fits(&ovmf_nv_rt, 0x1000, 0x1800, &need), "growth within remaining");
	CHECK_EQ(need, 0x800, "the growth");
	CHECK(!variable_store_fits(&ovmf_nv_rt, 0, 0x83c5, &need),
	      "larger than one variable may be");
	CHECK(variable_store_fits(&ovmf_nv_rt, 0x2000, 0x1000, &need), "shrinking always fits");
	CHECK_EQ(need, 0, "no growth");
	struct variable_store_space full = { true, 0x40000, 0x100, 0x8400 };
	CHECK(!variable_store_fits(&full, 0x1000, 0x1200, &need), "growth beyond remaining");
	CHECK(variable_store_fits(&full, 0x1000, 0x1100, &need), "growth exactly the remaining");
}

int main(void)
{
	test_format();
	test_parse_shim();
	test_parse_hostile();
	test_fits();
	UNIT_EXIT();
}
