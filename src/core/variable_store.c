// SPDX-License-Identifier: BSD-2-Clause-Patent
#include "variable_store.h"

#include <string.h>

#include "variables.h"

const uint32_t variable_store_attributes[STORE_SETS] = {
	[STORE_BS] = VARIABLE_BOOTSERVICE_ACCESS,
	[STORE_BS_NV] = VARIABLE_NV_BS,
	[STORE_BS_RT] = VARIABLE_BS_RT,
	[STORE_BS_NV_RT] = VARIABLE_NV_BS_RT,
};

static const char *const set_names[STORE_SETS] = {
	[STORE_BS] = "bs",
	[STORE_BS_NV] = "bs_nv",
	[STORE_BS_RT] = "bs_rt",
	[STORE_BS_NV_RT] = "bs_nv_rt",
};

enum field { FIELD_MAX_STORAGE, FIELD_REMAINING, FIELD_MAX_VARIABLE, FIELDS };

static const char *const field_names[FIELDS] = {
	[FIELD_MAX_STORAGE] = "_max_storage_sz",
	[FIELD_REMAINING] = "_remaining_sz",
	[FIELD_MAX_VARIABLE] = "_max_var_sz",
};

static uint64_t *field_of(struct variable_store_space *space, enum field f)
{
	switch (f) {
	case FIELD_MAX_STORAGE:
		return &space->max_storage;
	case FIELD_REMAINING:
		return &space->remaining;
	case FIELD_MAX_VARIABLE:
		return &space->max_variable;
	case FIELDS:
		break;
	}
	return NULL;
}

/* Append @s to @text at *@at; the caller has sized the text for every line. */
static void put(char *text, size_t *at, const char *s)
{
	size_t n = strlen(s);

	memcpy(text + *at, s, n);
	*at += n;
}

/* "0x" and @value in lowercase hex without leading zeros, as "%#lx" but 0 as "0x0". */
static void put_hex(char *text, size_t *at, uint64_t value)
{
	char digits[16];
	size_t n = 0;

	do {
		digits[n++] = "0123456789abcdef"[value & 0xf];
		value >>= 4;
	} while (value);
	put(text, at, "0x");
	while (n)
		text[(*at)++] = digits[--n];
}

size_t variable_info_format(const struct variable_store_space space[STORE_SETS],
			    char text[VARIABLE_INFO_TEXT_MAX])
{
	size_t at = 0;

	/* every line at most as long as the longest name's, 16 digits and the newline */
	_Static_assert(STORE_SETS * FIELDS * (sizeof("bs_nv_rt_max_storage_sz: 0x") - 1 + 16 + 1) <
			       VARIABLE_INFO_TEXT_MAX,
		       "VariableInfo text too small");
	for (int s = 0; s < STORE_SETS; s++) {
		const uint64_t values[FIELDS] = {
			[FIELD_MAX_STORAGE] = space[s].max_storage,
			[FIELD_REMAINING] = space[s].remaining,
			[FIELD_MAX_VARIABLE] = space[s].max_variable,
		};

		if (!space[s].known)
			continue;
		for (int f = 0; f < FIELDS; f++) {
			put(text, &at, set_names[s]);
			put(text, &at, field_names[f]);
			put(text, &at, ": ");
			put_hex(text, &at, values[f]);
			put(text, &at, "\n");
		}
	}
	text[at] = '\0';
	return at;
}

/* "0x" and 1 to 16 hex digits, all of @len bytes; false otherwise. */
static bool parse_hex(const char *s, size_t len, uint64_t *value)
{
	uint64_t v = 0;

	if (len < 3 || len > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return false;
	for (size_t i = 2; i < len; i++) {
		char c = s[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return false;
		v = v << 4 | d; /* at most 16 digits: no overflow */
	}
	*value = v;
	return true;
}

/* Which set and field does the line's name (@len bytes) say? false: not one of ours. */
static bool name_of(const char *name, size_t len, int *set, int *field)
{
	for (int s = 0; s < STORE_SETS; s++) {
		size_t sl = strlen(set_names[s]);

		if (len <= sl || memcmp(name, set_names[s], sl) != 0)
			continue;
		for (int f = 0; f < FIELDS; f++) {
			size_t fl = strlen(field_names[f]);

			/* "bs" is a prefix of "bs_nv": the whole name must match */
			if (sl + fl == len && memcmp(name + sl, field_names[f], fl) == 0) {
				*set = s;
				*field = f;
				return true;
			}
		}
	}
	return false;
}

int variable_info_parse(const void *data, size_t size,
			struct variable_store_space space[STORE_SETS], const char **reason)
{
	const char *text = data, *end = text + size;
	bool seen[STORE_SETS][FIELDS] = {};

	memset(space, 0, STORE_SETS * sizeof(*space));
	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		const char *line_end = nl ? nl : end, *colon;
		int set, field;
		uint64_t value;

		colon = memchr(text, ':', (size_t)(line_end - text));
		/* other lines (a later shim's, the NUL shim may leave at the end) are skipped */
		if (colon && name_of(text, (size_t)(colon - text), &set, &field)) {
			const char *v = colon + 1;

			if (v < line_end && *v == ' ')
				v++;
			if (!parse_hex(v, (size_t)(line_end - v), &value)) {
				*reason = "a VariableInfo value is not a 64-bit hexadecimal number";
				return -1;
			}
			if (seen[set][field]) {
				*reason = "a VariableInfo line is given twice";
				return -1;
			}
			seen[set][field] = true;
			*field_of(&space[set], field) = value;
		}
		text = nl ? nl + 1 : end;
	}
	for (int s = 0; s < STORE_SETS; s++)
		space[s].known = seen[s][FIELD_MAX_STORAGE] && seen[s][FIELD_REMAINING] &&
				 seen[s][FIELD_MAX_VARIABLE];
	return 0;
}

bool variable_store_fits(const struct variable_store_space *space, uint64_t old_size,
			 uint64_t new_size, uint64_t *need)
{
	*need = new_size > old_size ? new_size - old_size : 0;
	return new_size <= space->max_variable && *need <= space->remaining;
}
