/* SPDX-License-Identifier: BSD-2-Clause-Patent */
/*
 * The firmware's variable store, as QueryVariableInfo (UEFI 2.10, 8.2.6)
 * answers for each set of attributes, and the text in which shim 16.1
 * hands that answer to the OS: the MokVar table's "VariableInfo" entry,
 * which Linux shows as /sys/firmware/efi/mok-variables/VariableInfo.
 * Three lines a set, hexadecimal as "%lx" prints it:
 *
 *   bs_nv_rt_max_storage_sz: 0x40000
 *   bs_nv_rt_remaining_sz: 0x3c2e8
 *   bs_nv_rt_max_var_sz: 0x8400
 *
 * Sets the firmware gave no answer for have no lines. shim 16.1 swaps the
 * names of BS|NV and BS|RT ("bs_rt" is its BS|NV); lockshim names them as
 * the attributes say. BS|NV|RT, where db, KEK, dbx and the MOK lists live,
 * is named alike by both, and is all `lockshim check` reads.
 *
 * No firmware calls: the shell (src/efi/efi_handoff.c) asks the firmware;
 * the host CLI reads the text back from a machine that is hostile.
 */
#ifndef LOCKSHIM_VARIABLE_STORE_H
#define LOCKSHIM_VARIABLE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The MokVar table entry's name (shim 16.1's mok.c), and in UTF-16 as variables.h makes it. */
#define VARIABLE_INFO_NAME "VariableInfo"
/* clang-format would split u"" into u "" */
/* clang-format off */
#define VARIABLE_INFO_NAME16 u"" VARIABLE_INFO_NAME
/* clang-format on */

/* The sets of attributes asked about, in shim's order. */
enum variable_store_set { STORE_BS, STORE_BS_NV, STORE_BS_RT, STORE_BS_NV_RT, STORE_SETS };

/* The attributes of each set (variables.h's VARIABLE_*). */
extern const uint32_t variable_store_attributes[STORE_SETS];

/* One answer of QueryVariableInfo; @known is false when the firmware gave none. */
struct variable_store_space {
	bool known;
	uint64_t max_storage;
	uint64_t remaining;
	uint64_t max_variable;
};

/* The longest text variable_info_format() writes, its NUL included. */
#define VARIABLE_INFO_TEXT_MAX 640

/*
 * The VariableInfo text of @space into @text (VARIABLE_INFO_TEXT_MAX
 * bytes), NUL-terminated. Returns its length without the NUL: 0 when no
 * set is known (shim then exports no entry).
 */
size_t variable_info_format(const struct variable_store_space space[STORE_SETS],
			    char text[VARIABLE_INFO_TEXT_MAX]);

/*
 * Read @size bytes of VariableInfo text into @space. Lines it does not
 * know are skipped (a later shim may add some); a known name with a value
 * that is not a hexadecimal number of at most 64 bits, or given twice, is
 * an error; a set is known only when all three of its lines are there.
 * Returns 0, or -1 with @reason.
 */
int variable_info_parse(const void *text, size_t size,
			struct variable_store_space space[STORE_SETS], const char **reason);

/*
 * Would writing @new_size bytes of data over a variable of @old_size bytes
 * (0: a new one) fit in @space? The firmware writes the new copy before it
 * drops the old one, but reclaims the store first when it must (EDK2's
 * Reclaim), so the store needs room for the growth only; the data must
 * also fit one variable. The firmware's own overhead (each variable's
 * header and name) is not counted. Returns true when it fits; @need is
 * the growth (0 when it shrinks).
 */
bool variable_store_fits(const struct variable_store_space *space, uint64_t old_size,
			 uint64_t new_size, uint64_t *need);

#endif
